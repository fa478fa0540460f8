//! `#[derive(Attribute)]`: newtypes, unit enums (as keys and in conditions), enums with data in their
//! tagged form, the `serde` and `json` field options, `uuid::Uuid` and `serde_json::Value`.

// The generated code must not trip lints users commonly deny.
#![deny(unused_lifetimes, single_use_lifetimes)]

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use dynomodel::convert::{Json, Serde};
use dynomodel::expression::ExpressionContext;
use dynomodel::{
    Attribute, AttributeValue, Document, Field, KeyAttribute, Model, ScalarAttributeType,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::{n, s, time};

/// A newtype key: stored as its string.
#[derive(Attribute, Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct UserId(String);

#[derive(Attribute, Debug, Clone, Copy, PartialEq)]
struct Cents(i64);

#[derive(Attribute, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[dynomodel(rename_all = "SCREAMING_SNAKE_CASE")]
enum Status {
    Active,
    InReview,
    #[dynomodel(rename = "gone")]
    Deleted,
}

#[derive(Document, Debug, Clone, PartialEq)]
struct Card {
    last4: String,
}

#[derive(Attribute, Debug, Clone, PartialEq)]
#[dynomodel(rename_all = "snake_case")]
enum Payment {
    Cash,
    Card(Card),
    Split(Cents, Option<Cents>),
    #[dynomodel(rename_all = "camelCase")]
    BankTransfer {
        iban_number: String,
        #[dynomodel(epoch_seconds)]
        sent_at: DateTime<Utc>,
        #[dynomodel(default)]
        note: Option<String>,
        #[dynomodel(skip)]
        cache: u32,
        receipt: Vec<u8>,
    },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Meta {
    source: String,
    weights: Vec<f32>,
    extra: Option<BTreeMap<String, u64>>,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
struct Order {
    #[hash_key]
    user: UserId,
    #[range_key]
    status: Status,
    total: Cents,
    payment: Payment,
    history: Vec<Payment>,
    #[dynomodel(serde)]
    meta: Meta,
    #[dynomodel(json)]
    raw: Meta,
    #[dynomodel(serde)]
    maybe: Option<Meta>,
    id: uuid::Uuid,
    doc: serde_json::Value,
}

fn order() -> Order {
    Order {
        user: UserId("u1".into()),
        status: Status::InReview,
        total: Cents(1250),
        payment: Payment::BankTransfer {
            iban_number: "FR76".into(),
            sent_at: time(60),
            note: None,
            cache: 0,
            receipt: vec![1, 2],
        },
        history: vec![
            Payment::Cash,
            Payment::Card(Card {
                last4: "4242".into(),
            }),
            Payment::Split(Cents(5), None),
        ],
        meta: Meta {
            source: "web".into(),
            weights: vec![0.1, 2.5],
            extra: Some(BTreeMap::from([("a".to_owned(), u64::MAX)])),
        },
        raw: Meta {
            source: "app".into(),
            weights: vec![],
            extra: None,
        },
        maybe: None,
        id: uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
        doc: json!({"a": [1, 1.5, "x", null, true], "b": {}}),
    }
}

fn map(entries: &[(&str, AttributeValue)]) -> AttributeValue {
    AttributeValue::M(
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

#[test]
fn items_round_trip_in_the_documented_shapes() {
    let order = order();
    let item = order.to_item().unwrap();
    assert_eq!(item["user"], s("u1"));
    assert_eq!(item["status"], s("IN_REVIEW"));
    assert_eq!(item["total"], n(1250));
    assert_eq!(
        item["payment"],
        map(&[(
            "bank_transfer",
            map(&[
                ("ibanNumber", s("FR76")),
                ("sentAt", n(60)),
                ("receipt", AttributeValue::B(vec![1, 2])),
            ])
        )])
    );
    assert_eq!(
        item["history"],
        AttributeValue::L(vec![
            s("cash"),
            map(&[("card", map(&[("last4", s("4242"))]))]),
            map(&[("split", AttributeValue::L(vec![n(5), AttributeValue::Null]))]),
        ])
    );
    assert_eq!(
        item["meta"].to_string(),
        r#"{"M":{"extra":{"M":{"a":{"N":"18446744073709551615"}}},"source":{"S":"web"},"weights":{"L":[{"N":"0.10000000149011612"},{"N":"2.5"}]}}}"#
    );
    assert_eq!(
        item["raw"],
        s(r#"{"source":"app","weights":[],"extra":null}"#)
    );
    assert!(!item.contains_key("maybe"), "None stores no attribute");
    assert_eq!(item["id"], s("67e55044-10b1-426f-9247-bb680e5fe0c8"));
    assert_eq!(Order::from_item(item).unwrap(), order);
}

#[test]
fn unit_enums_and_newtypes_are_keys() {
    assert_eq!(
        <Status as KeyAttribute>::SCALAR_TYPE,
        ScalarAttributeType::S
    );
    assert_eq!(
        <UserId as KeyAttribute>::SCALAR_TYPE,
        ScalarAttributeType::S
    );
    assert_eq!(<Cents as KeyAttribute>::SCALAR_TYPE, ScalarAttributeType::N);
    assert_eq!(
        <uuid::Uuid as KeyAttribute>::SCALAR_TYPE,
        ScalarAttributeType::S
    );
    let schema = Order::schema();
    let types: Vec<_> = schema
        .attribute_definitions
        .iter()
        .map(|d| (d.attribute_name.as_str(), d.attribute_type))
        .collect();
    assert_eq!(
        types,
        [
            ("user", ScalarAttributeType::S),
            ("status", ScalarAttributeType::S)
        ]
    );
    let key = order().key();
    assert_eq!(key.status, Status::InReview);
    assert_eq!(Status::Deleted.to_attribute().unwrap(), Some(s("gone")));
}

#[test]
fn conditions_take_enum_and_newtype_operands() {
    let _: Field<Order, Serde<Meta>> = Order::meta();
    let _: Field<Order, Json<Meta>> = Order::raw();
    let condition = Order::status()
        .is_in([Status::Active, Status::InReview])
        .and(Order::status().ne(Status::Deleted))
        .and(Order::total().ge(Cents(100)))
        .and(Order::user().begins_with(UserId("u".into())))
        .and(Order::payment().eq(Payment::Cash))
        .and(Order::raw().eq(order().raw));
    let mut ctx = ExpressionContext::new();
    ctx.condition(&condition).unwrap();
    let (_, values) = ctx.finish();
    let rendered: Vec<String> = values.values().map(|v| v.to_string()).collect();
    assert!(
        rendered.contains(&r#"{"S":"IN_REVIEW"}"#.to_owned()),
        "{rendered:?}"
    );
    assert!(
        rendered.contains(&r#"{"S":"gone"}"#.to_owned()),
        "{rendered:?}"
    );
    assert!(
        rendered.contains(&r#"{"N":"100"}"#.to_owned()),
        "{rendered:?}"
    );
    assert!(
        rendered.contains(&r#"{"S":"cash"}"#.to_owned()),
        "{rendered:?}"
    );
    assert!(
        rendered
            .iter()
            .any(|v| v.starts_with(r#"{"S":"{\"source\""#)),
        "a json field's operand is its JSON string: {rendered:?}"
    );
}

#[test]
fn unknown_tags_name_the_attribute_and_the_tags_expected() {
    let mut item = order().to_item().unwrap();
    item.insert("status".into(), s("Archived"));
    let err = Order::from_item(item).unwrap_err();
    assert_eq!(err.path, "status");
    assert_eq!(
        err.expected,
        r#"one of the strings "ACTIVE", "IN_REVIEW", "gone" (Status)"#
    );
    assert_eq!(err.found, r#"unknown variant "Archived""#);

    let mut item = order().to_item().unwrap();
    item.insert("payment".into(), map(&[("bitcoin", n(1))]));
    let err = Order::from_item(item).unwrap_err();
    assert_eq!(err.path, "payment");
    assert_eq!(
        err.expected,
        r#"a Payment: one of the strings "cash" or a map of one entry named "card", "split", "bank_transfer""#
    );
    assert_eq!(err.found, r#"unknown variant "bitcoin""#);

    // A known tag in the wrong shape, and errors inside a variant, are located too.
    let err = Payment::from_attribute(s("card")).unwrap_err();
    assert_eq!(err.found, r#"variant "card" without its content"#);
    let err = Payment::from_attribute(map(&[("card", map(&[("last4", n(1))]))])).unwrap_err();
    assert_eq!(err.path, "card.last4");
    let err =
        Payment::from_attribute(map(&[("split", AttributeValue::L(vec![n(1)]))])).unwrap_err();
    assert_eq!(err.path, "split");
    assert_eq!(err.found, "a list of 1 elements");
    let err = Payment::from_attribute(map(&[("split", AttributeValue::L(vec![n(1), s("x")]))]))
        .unwrap_err();
    assert_eq!(err.path, "split[1]");
    let err = Payment::from_attribute(map(&[("a", n(1)), ("b", n(2))])).unwrap_err();
    assert_eq!(err.found, "a map with 2 entries");
}

#[test]
fn serde_fields_report_what_they_expected() {
    let mut item = order().to_item().unwrap();
    item.insert("meta".into(), map(&[("source", n(1))]));
    let err = Order::from_item(item).unwrap_err();
    assert_eq!(err.path, "meta");
    assert!(err.expected.contains("Meta"), "{err}");

    let mut item = order().to_item().unwrap();
    item.remove("meta");
    let err = Order::from_item(item).unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.found.as_str()),
        ("meta", "nothing (the attribute is missing)")
    );

    let mut item = order().to_item().unwrap();
    item.insert("raw".into(), s("{not json"));
    assert_eq!(Order::from_item(item).unwrap_err().path, "raw");
}

#[test]
fn newtypes_are_transparent() {
    assert_eq!(UserId("x".into()).to_attribute().unwrap(), Some(s("x")));
    assert_eq!(UserId::expected(), String::expected());
    assert_eq!(Option::<UserId>::from_missing().unwrap(), None);
    assert_eq!(
        UserId::from_attribute(n(1)).unwrap_err().to_string(),
        "attribute `<value>`: expected a string, found S".replace("found S", "found N")
    );
}

#[derive(Attribute, Debug, Clone, PartialEq)]
#[dynomodel(tag = "type", rename_all = "snake_case")]
enum Event {
    Created,
    Paid(Card),
    Shipped {
        carrier: String,
        #[dynomodel(rename = "at", epoch_seconds)]
        when: DateTime<Utc>,
    },
    Note(String),
}

#[test]
fn internally_tagged_enums_hold_their_name_in_the_tag_attribute() {
    let cases = [
        (Event::Created, map(&[("type", s("created"))])),
        (
            Event::Paid(Card {
                last4: "4242".into(),
            }),
            map(&[("type", s("paid")), ("last4", s("4242"))]),
        ),
        (
            Event::Shipped {
                carrier: "ups".into(),
                when: time(60),
            },
            map(&[("type", s("shipped")), ("carrier", s("ups")), ("at", n(60))]),
        ),
    ];
    for (event, stored) in cases {
        assert_eq!(event.to_attribute().unwrap(), Some(stored.clone()));
        assert_eq!(Event::from_attribute(stored).unwrap(), event);
    }
    assert_eq!(
        Event::expected(),
        r#"a Event: a map whose "type" is one of "created", "paid", "shipped", "note""#
    );

    let err = Event::from_attribute(map(&[("type", s("lost"))])).unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.found.as_str()),
        ("type", r#"unknown variant "lost""#)
    );
    let err = Event::from_attribute(map(&[("carrier", s("ups"))])).unwrap_err();
    assert_eq!(err.found, r#"a map without "type""#);
    let err = Event::from_attribute(map(&[("type", n(1))])).unwrap_err();
    assert_eq!((err.path.as_str(), err.found.as_str()), ("type", "N"));
    let err =
        Event::from_attribute(map(&[("type", s("shipped")), ("carrier", s("ups"))])).unwrap_err();
    assert_eq!(err.path, "at");
    // A newtype variant's content must be a map to hold the tag.
    let err = Event::Note("x".into()).to_attribute().unwrap_err();
    assert_eq!(err.found, "S");
}

#[test]
fn sets_of_unit_enums_and_newtypes_are_string_and_number_sets() {
    use std::collections::{BTreeSet, HashSet};
    let statuses = BTreeSet::from([Status::Active, Status::Deleted]);
    let stored = statuses.to_attribute().unwrap().unwrap();
    assert_eq!(
        stored,
        AttributeValue::Ss(vec!["ACTIVE".into(), "gone".into()])
    );
    assert_eq!(
        BTreeSet::<Status>::from_attribute(stored).unwrap(),
        statuses
    );
    let ids = HashSet::from([UserId("a".into())]);
    let stored = ids.to_attribute().unwrap().unwrap();
    assert_eq!(stored, AttributeValue::Ss(vec!["a".into()]));
    assert_eq!(HashSet::<UserId>::from_attribute(stored).unwrap(), ids);
}

#[derive(Document, Debug, Clone, PartialEq)]
struct Wide {
    #[dynomodel(serde)]
    n: u128,
    #[dynomodel(serde)]
    list: Vec<Option<i64>>,
}

#[test]
fn serde_numbers_are_exact_or_errors() {
    let fits = Wide {
        n: u128::from(u64::MAX),
        list: vec![Some(i64::MIN), None],
    };
    let stored = fits.to_attribute().unwrap().unwrap();
    assert_eq!(
        stored.to_string(),
        r#"{"M":{"list":{"L":[{"N":"-9223372036854775808"},{"NULL":true}]},"n":{"N":"18446744073709551615"}}}"#
    );
    assert_eq!(Wide::from_attribute(stored).unwrap(), fits);
    // Beyond what serde_json holds exactly: an error naming the field, never a rounding.
    let wide = Wide {
        n: u128::MAX,
        list: vec![],
    };
    assert_eq!(wide.to_attribute().unwrap_err().path, "n");
    let stored = map(&[
        ("n", AttributeValue::N("1e30".parse().unwrap())),
        ("list", AttributeValue::L(vec![])),
    ]);
    assert_eq!(Wide::from_attribute(stored).unwrap_err().path, "n");
}
