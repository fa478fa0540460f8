//! The width a `DateTime<Utc>` is stored at (`datetime = "millis"` on a field or on the
//! struct) applies to the attribute, the keys, index keys, composite parts, and the operands built
//! from the field's handle.

use chrono::{DateTime, Duration, TimeZone, Utc};
use dynomodel::convert::datetime::{Millis, Nanos, Rfc3339, Seconds};
use dynomodel::expression::ExpressionContext;
use dynomodel::{
    AttributeValue, Composite, Document, Field, Index, Model, PrimaryKey, Projected,
    ScalarAttributeType, Update,
};

/// The Developer Guide's Reply table: `ReplyDateTime` in milliseconds, on the whole model.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Reply", rename_all = "PascalCase", datetime = "millis")]
#[global_index(keys("PostedBy-Message-Index", hash = posted_by, range = reply_date_time))]
#[global_index(keys("by-edit", hash = posted_by, range = edited))]
struct Reply {
    #[hash_key]
    id: String,
    #[range_key]
    reply_date_time: DateTime<Utc>,
    posted_by: String,
    edited: Option<DateTime<Utc>>,
    #[dynomodel(datetime = "nanos")]
    received: DateTime<Utc>,
    #[dynomodel(epoch_seconds)]
    expires: DateTime<Utc>,
    notes: Vec<Note>,
}

/// A document nested in an item has its own width.
#[derive(Document, Debug, Clone, PartialEq)]
#[dynomodel(datetime = "seconds")]
struct Note {
    at: DateTime<Utc>,
}

/// A composite part at a width of its own.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "events")]
#[composite(pk = ("TENANT", tenant), hash_key)]
#[composite(sk = ("AT", at, seq), range_key)]
struct Event {
    tenant: String,
    #[dynomodel(datetime = "millis")]
    at: DateTime<Utc>,
    seq: u32,
}

fn at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap() + Duration::nanoseconds(947_123_456)
}

fn millis() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap() + Duration::milliseconds(947)
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn reply() -> Reply {
    Reply {
        id: "Amazon DynamoDB#Thread 1".into(),
        reply_date_time: at(),
        posted_by: "User A".into(),
        edited: Some(at()),
        received: at(),
        expires: Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap(),
        notes: vec![Note { at: at() }],
    }
}

#[test]
fn each_field_is_written_at_its_width() {
    let item = reply().to_item().expect("converts");
    assert_eq!(item["ReplyDateTime"], s("2015-09-15T19:58:22.947Z"));
    assert_eq!(item["Edited"], s("2015-09-15T19:58:22.947Z"));
    assert_eq!(item["Received"], s("2015-09-15T19:58:22.947123456Z"));
    assert_eq!(item["Expires"], AttributeValue::N(1_700_000_000.into()));
    assert_eq!(
        item["Notes"].to_string(),
        r#"{"L":[{"M":{"at":{"S":"2015-09-15T19:58:22Z"}}}]}"#
    );
    // Read back truncated to the width.
    let read = Reply::from_item(item).expect("decodes");
    assert_eq!(read.reply_date_time, millis());
    assert_eq!(read.edited, Some(millis()));
    assert_eq!(read.received, at());
    let none = Reply {
        edited: None,
        ..reply()
    };
    let item = none.to_item().expect("converts");
    assert!(!item.contains_key("Edited"));
    assert_eq!(Reply::from_item(item).expect("decodes").edited, None);
}

#[test]
fn any_width_and_offset_is_read() {
    let mut item = reply().to_item().expect("converts");
    for text in [
        "2015-09-15T19:58:22.947Z",
        "2015-09-15T19:58:22.947000000Z",
        "2015-09-15T21:58:22.947+02:00",
    ] {
        item.insert("ReplyDateTime".into(), s(text));
        let read = Reply::from_item(item.clone()).expect(text);
        assert_eq!(read.reply_date_time, millis(), "{text}");
    }
    item.insert("ReplyDateTime".into(), s("2015-09-15"));
    let err = Reply::from_item(item).expect_err("not a date-time");
    assert_eq!(
        err.to_string(),
        "attribute `ReplyDateTime`: expected an RFC 3339 date-time (DateTime<Utc>, stored in millis), found S \"2015-09-15\""
    );
}

#[test]
fn keys_and_index_keys_are_written_at_the_width() {
    let key = ReplyKey::from(("Amazon DynamoDB#Thread 1", at()));
    assert_eq!(
        key.to_key_item().expect("converts")["ReplyDateTime"],
        s("2015-09-15T19:58:22.947Z")
    );
    let schema = Reply::schema();
    assert!(schema
        .attribute_definitions
        .iter()
        .all(|d| d.attribute_type == ScalarAttributeType::S));
    // An `Option` makes a sparse index, as for other key types.
    let _: Index<Reply, String, Option<Rfc3339<Millis>>, ReplyByEditItem> = Reply::by_edit();
    assert!(schema
        .attribute_definitions
        .iter()
        .any(|d| d.attribute_name == "Edited"));
    let _: Index<Reply, String, Rfc3339<Millis>, ReplyPostedByMessageIndexItem> =
        Reply::posted_by_message_index();
    let entry = <ReplyPostedByMessageIndexItem as Projected>::from_projection(
        reply().to_item().expect("converts"),
    )
    .expect("decodes");
    assert_eq!(entry.reply_date_time, millis());
}

#[test]
fn operands_built_from_the_handle_have_the_width() {
    let _: Field<Reply, Rfc3339<Millis>, _> = Reply::reply_date_time();
    let _: Field<Reply, Option<Rfc3339<Millis>>, _> = Reply::edited();
    let _: Field<Reply, Rfc3339<Nanos>> = Reply::received();
    let mut ctx = ExpressionContext::new();
    ctx.condition(&(Reply::reply_date_time().gt(at()) & Reply::edited().le(at())))
        .expect("renders");
    ctx.condition(
        &Reply::posted_by_message_index()
            .range_field()
            .between(at(), at()),
    )
    .expect("renders");
    let update = Update::new()
        .set(Reply::edited(), at())
        .set(Reply::received(), at());
    ctx.update(&update).expect("renders");
    let (_, values) = ctx.finish();
    let texts: Vec<String> = (0..6)
        .map(|i| match &values[&format!(":v{i}")] {
            AttributeValue::S(text) => text.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        texts,
        [
            "2015-09-15T19:58:22.947Z",
            "2015-09-15T19:58:22.947Z",
            "2015-09-15T19:58:22.947Z",
            "2015-09-15T19:58:22.947Z",
            "2015-09-15T19:58:22.947Z",
            "2015-09-15T19:58:22.947123456Z",
        ]
    );
}

#[test]
fn composite_parts_are_written_at_the_width() {
    let event = Event {
        tenant: "acme".into(),
        at: at(),
        seq: 7,
    };
    let item = event.to_item().expect("converts");
    assert_eq!(item["sk"], s("AT#2015-09-15T19:58:22.947Z#0000000007"));
    assert_eq!(Event::from_item(item).expect("decodes").at, millis());
    let _: Composite<Event, (Rfc3339<Millis>, u32), _> = Event::sk();
    let key = EventKey::from(("acme", (at(), 7)));
    assert_eq!(
        key.to_key_item().expect("converts")["sk"],
        s("AT#2015-09-15T19:58:22.947Z#0000000007")
    );
    let mut ctx = ExpressionContext::new();
    ctx.condition(&Event::sk().prefix((at(),)))
        .expect("renders");
    assert_eq!(ctx.finish().1[":v0"], s("AT#2015-09-15T19:58:22.947Z#"));
    // A part is read at its declared width.
    let mut item = event.to_item().expect("converts");
    item.insert(
        "sk".into(),
        s("AT#2015-09-15T19:58:22.947123456Z#0000000007"),
    );
    let err = Event::from_item(item).expect_err("another width");
    assert_eq!(err.path, "sk");
    assert!(
        err.expected
            .contains("YYYY-MM-DDTHH:MM:SS.nnnZ for part `at`"),
        "{err}"
    );
}

#[test]
fn a_hash_key_written_at_another_width_has_another_shape() {
    #[derive(Model, Debug, Clone, PartialEq)]
    struct Day {
        #[hash_key]
        #[dynomodel(datetime = "seconds")]
        at: DateTime<Utc>,
    }
    assert_eq!(Day::HASH_KEY_SHAPE, "{datetime=seconds}");
    assert_eq!(Event::HASH_KEY_SHAPE, "TENANT#{}");
    let _: Field<Day, Rfc3339<Seconds>, _> = Day::at();
}
