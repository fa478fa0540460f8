//! A composite's attribute name apart from its handle's (`rename`, `rename_all`), and a
//! last part holding the separator, on the Developer Guide's Reply table (`Id = ForumName#Subject`).

use chrono::{DateTime, TimeZone, Utc};
use dynomodel::backend::KeySchemaElement;
use dynomodel::expression::ExpressionContext;
use dynomodel::{AttributeValue, Model, PrimaryKey};

/// The Developer Guide's Reply table: `Id` is `<ForumName>#<Subject>`, sorted by `ReplyDateTime`.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Reply", rename_all = "PascalCase")]
#[composite(id = (forum_name, subject), hash_key, rename = "Id")]
struct Reply {
    forum_name: String,
    subject: String,
    #[range_key]
    reply_date_time: DateTime<Utc>,
    message: String,
    posted_by: String,
}

/// `rename_all` names composites as it names fields; `rename` wins over it.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "items", rename_all = "SCREAMING_SNAKE_CASE")]
#[composite(part_key = ("P", owner), hash_key)]
#[composite(sort_key = ("S", name), range_key, rename = "sk")]
struct Product {
    owner: String,
    name: String,
    unit_price: u64,
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn reply(subject: &str) -> Reply {
    Reply {
        forum_name: "Amazon DynamoDB".into(),
        subject: subject.into(),
        reply_date_time: Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap(),
        message: "DynamoDB Thread 1 Reply 1 text".into(),
        posted_by: "User A".into(),
    }
}

#[test]
fn rename_names_the_attribute_and_the_identifier_the_handle() {
    assert_eq!(Reply::HASH_KEY, "Id");
    assert_eq!(Reply::RANGE_KEY, Some("ReplyDateTime"));
    assert_eq!(Reply::id().name(), "Id");
    let schema = Reply::schema();
    assert_eq!(
        schema.key_schema,
        [
            KeySchemaElement::hash("Id"),
            KeySchemaElement::range("ReplyDateTime")
        ]
    );
    let item = reply("Thread 1").to_item().expect("converts");
    assert_eq!(item["Id"], s("Amazon DynamoDB#Thread 1"));
    assert!(item.contains_key("PostedBy") && !item.contains_key("id"));
    assert_eq!(Reply::from_item(item).expect("decodes"), reply("Thread 1"));
    let mut ctx = ExpressionContext::new();
    ctx.condition(&Reply::id().prefix(("Amazon DynamoDB",)))
        .expect("renders");
    let (names, _) = ctx.finish();
    assert_eq!(names["#n0"], "Id");
}

#[test]
fn rename_all_applies_to_composites() {
    assert_eq!(Product::HASH_KEY, "PART_KEY");
    assert_eq!(Product::RANGE_KEY, Some("sk"));
    let item = Product {
        owner: "o".into(),
        name: "n".into(),
        unit_price: 3,
    }
    .to_item()
    .expect("converts");
    let mut names: Vec<&str> = item.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["PART_KEY", "UNIT_PRICE", "sk"]);
    assert_eq!(Product::part_key().name(), "PART_KEY");
    assert_eq!(Product::sort_key().name(), "sk");
}

#[test]
fn the_last_part_may_hold_the_separator() {
    let item = reply("C# or Rust?").to_item().expect("the last part");
    assert_eq!(item["Id"], s("Amazon DynamoDB#C# or Rust?"));
    assert_eq!(
        Reply::from_item(item).expect("decodes"),
        reply("C# or Rust?")
    );
    let key = ReplyKey::from((
        ("Amazon DynamoDB", "C# or Rust?"),
        reply("x").reply_date_time,
    ));
    assert_eq!(
        key.to_key_item().expect("converts")["Id"],
        s("Amazon DynamoDB#C# or Rust?")
    );
    // The forum is not the last part: `#` in it would make `A#B` + `C` and `A` + `B#C` one key.
    let mut bad = reply("Thread 1");
    bad.forum_name = "Amazon#DynamoDB".into();
    let err = bad.to_item().expect_err("ambiguous");
    assert_eq!(err.path, "Id");
    assert!(
        err.expected
            .contains("only the last part, `subject`, may hold it"),
        "{err}"
    );
}
