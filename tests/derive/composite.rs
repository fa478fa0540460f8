//! Composite keys: the stored text, the round trip through it (the parts are not stored on their
//! own), errors on malformed stored values, key structs taking the parts, typed key conditions, and
//! the order of keys against the order of their parts.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use dynomodel::backend::{KeySchemaElement, ScalarAttributeType};
use dynomodel::expression::ExpressionContext;
use dynomodel::{AttributeValue, Item, Model, PrimaryKey};

/// A single-table shape: `pk = USER#{userid}`, `sk = ORDER#{date}#{id}`.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", date, id), range_key)]
pub(crate) struct Order {
    /// The customer.
    pub userid: String,
    /// The day ordered.
    pub date: NaiveDate,
    /// The order's number that day.
    pub id: u32,
    /// In cents.
    pub total: u64,
    /// Free text.
    pub note: Option<String>,
}

/// A hash-only composite of two parts, no prefix, another separator.
#[derive(Model, Debug, Clone, PartialEq)]
#[composite(key = (tenant, at), hash_key, separator = "|")]
struct Event {
    tenant: String,
    at: DateTime<Utc>,
    kind: String,
}

/// A plain hash key with a composite range key.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "readings")]
#[composite(sk = ("R", day, seq), range_key)]
struct Reading {
    #[hash_key]
    sensor: String,
    day: NaiveDate,
    seq: u16,
    value: u64,
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, d).expect("a date")
}

fn order(userid: &str, date: NaiveDate, id: u32) -> Order {
    Order {
        userid: userid.into(),
        date,
        id,
        total: 1250,
        note: None,
    }
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

#[test]
fn composites_are_stored_and_parts_are_not() {
    let item = order("u1", day(1), 7).to_item().expect("converts");
    let mut names: Vec<&str> = item.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["pk", "sk", "total"]);
    assert_eq!(item["pk"], s("USER#u1"));
    assert_eq!(item["sk"], s("ORDER#2026-01-01#0000000007"));
    assert_eq!(
        Order::from_item(item).expect("decodes"),
        order("u1", day(1), 7)
    );
}

#[test]
fn schema_has_string_keys() {
    let schema = Order::schema();
    assert_eq!(
        schema.key_schema,
        [KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")]
    );
    assert!(schema
        .attribute_definitions
        .iter()
        .all(|d| d.attribute_type == ScalarAttributeType::S));
    assert_eq!((Order::HASH_KEY, Order::RANGE_KEY), ("pk", Some("sk")));
    let readings = Reading::schema();
    assert_eq!(
        readings.key_schema,
        [
            KeySchemaElement::hash("sensor"),
            KeySchemaElement::range("sk")
        ]
    );
}

#[test]
fn other_shapes_round_trip() {
    let at = Utc.with_ymd_and_hms(2026, 3, 4, 5, 6, 7).unwrap() + chrono::Duration::nanoseconds(8);
    let event = Event {
        tenant: "acme".into(),
        at,
        kind: "login".into(),
    };
    let item = event.to_item().expect("converts");
    assert_eq!(item["key"], s("acme|2026-03-04T05:06:07.000000008Z"));
    assert_eq!(Event::from_item(item).expect("decodes"), event);
    assert_eq!(event.key(), EventKey::from(("acme".to_owned(), at)));

    let reading = Reading {
        sensor: "t1".into(),
        day: day(2),
        seq: 3,
        value: 9,
    };
    let item = reading.to_item().expect("converts");
    assert_eq!(item["sk"], s("R#2026-01-02#00003"));
    assert!(!item.contains_key("day") && !item.contains_key("seq"));
    assert_eq!(Reading::from_item(item).expect("decodes"), reading);
}

#[test]
fn key_structs_take_the_parts() {
    let key = OrderKey::from(("u1", (day(1), 7)));
    assert_eq!(
        key,
        OrderKey {
            userid: "u1".into(),
            date: day(1),
            id: 7
        }
    );
    assert_eq!(order("u1", day(1), 7).key(), key);
    let mut expected = Item::new();
    expected.insert("pk".into(), s("USER#u1"));
    expected.insert("sk".into(), s("ORDER#2026-01-01#0000000007"));
    assert_eq!(key.to_key_item().expect("converts"), expected);
    assert_eq!(
        Order::hash_key_value(&"u1".to_owned()).expect("converts"),
        s("USER#u1")
    );
    assert_eq!(ReadingKey::from(("t1", (day(2), 3u16))).seq, 3);
}

#[test]
fn a_part_holding_the_separator_is_an_error_unless_it_is_the_last() {
    let at = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let event = Event {
        tenant: "a|b".into(),
        at,
        kind: "login".into(),
    };
    let err = event.to_item().expect_err("ambiguous");
    assert_eq!(err.path, "key");
    assert!(
        err.to_string().contains("without the separator \"|\""),
        "{err}"
    );
    assert!(EventKey::from(("a|b", at)).to_key_item().is_err());
    // Written into a sink (`db.get`'s key), the same error.
    let written = EventKey::from(("a|b", at)).write_key(&mut Item::new());
    assert_eq!(
        written.expect_err("ambiguous").to_string(),
        EventKey::from(("a|b", at))
            .to_key_item()
            .expect_err("ambiguous")
            .to_string()
    );

    // `userid` is the last (and only) part of `pk`: the text after the prefix is all of it.
    let item = order("a#b", day(1), 1).to_item().expect("unambiguous");
    assert_eq!(item["pk"], s("USER#a#b"));
    assert_eq!(
        Order::from_item(item).expect("decodes").userid,
        "a#b".to_owned()
    );
}

#[test]
fn malformed_stored_composites_name_the_attribute_and_shape() {
    let good = order("u1", day(1), 7).to_item().expect("converts");
    for (attribute, value, found) in [
        ("sk", s("ORDER#2026-01-01"), "\"ORDER#2026-01-01\""),
        (
            "sk",
            s("ITEM#2026-01-01#0000000007"),
            "\"ITEM#2026-01-01#0000000007\"",
        ),
        ("pk", AttributeValue::N(1.into()), "N"),
    ] {
        let mut item = good.clone();
        item.insert(attribute.into(), value);
        let err = Order::from_item(item).expect_err("malformed");
        assert_eq!(err.path, attribute);
        assert_eq!(err.found, found);
        assert!(
            err.expected.contains(if attribute == "sk" {
                "ORDER#{date}#{id}"
            } else {
                "USER#{userid}"
            }),
            "{err}"
        );
    }
    let mut item = good.clone();
    item.insert("sk".into(), s("ORDER#2026-13-01#0000000007"));
    let err = Order::from_item(item).expect_err("no 13th month");
    assert_eq!(
        err.to_string(),
        "attribute `sk`: expected an ISO-8601 date YYYY-MM-DD for part `date` of ORDER#{date}#{id}, found \"2026-13-01\""
    );
    let mut item = good;
    item.remove("sk");
    assert_eq!(Order::from_item(item).expect_err("missing").path, "sk");
}

#[test]
fn keys_sort_like_their_parts() {
    let mut orders = vec![
        order("u", day(10), 1),
        order("u", day(2), 100),
        order("u", day(2), 9),
        order("u", day(1), 4_000_000_000),
        order(
            "u",
            NaiveDate::from_ymd_opt(2025, 12, 31).expect("a date"),
            5,
        ),
    ];
    let mut by_text = orders.clone();
    by_text.sort_by_key(|o| Order::sk().encode(&(o.date, o.id)).expect("encodes"));
    orders.sort_by_key(|o| (o.date, o.id));
    assert_eq!(by_text, orders);
}

#[test]
fn typed_conditions_on_leading_parts() {
    let mut ctx = ExpressionContext::new();
    assert_eq!(
        ctx.condition(&Order::sk().prefix((day(1),)))
            .expect("renders"),
        "begins_with(#n0, :v0)"
    );
    assert_eq!(
        ctx.condition(&Order::sk().between((day(1),), 2, 5))
            .expect("renders"),
        "#n0 BETWEEN :v1 AND :v2"
    );
    let (_, values) = ctx.finish();
    assert_eq!(values[":v0"], s("ORDER#2026-01-01#"));
    assert_eq!(values[":v1"], s("ORDER#2026-01-01#0000000002"));
    assert_eq!(values[":v2"], s("ORDER#2026-01-01#0000000005"));
}

/// Single-table style: the table keys, a global index keyed by two more composites over the same
/// fields, and one keyed by a plain field and the table's sort key.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "shipments")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("SHIP", date, id), range_key)]
#[composite(gpk = ("DAY", date))]
#[composite(gsk = ("USER", userid, id))]
#[global_index(all("by-day", hash = gpk, range = gsk))]
#[global_index(all("by-status", hash = status, range = sk))]
pub(crate) struct Shipment {
    /// The customer.
    pub userid: String,
    /// The day shipped.
    pub date: NaiveDate,
    /// The shipment's number.
    pub id: u32,
    /// Where it is.
    pub status: String,
}

#[test]
fn global_indexes_name_composites() {
    let schema = Shipment::schema();
    let mut definitions: Vec<&str> = schema
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    definitions.sort_unstable();
    assert_eq!(definitions, ["gpk", "gsk", "pk", "sk", "status"]);
    let keys: Vec<(&str, Vec<KeySchemaElement>)> = schema
        .global_secondary_indexes
        .iter()
        .map(|i| (i.index_name.as_str(), i.key_schema.clone()))
        .collect();
    assert_eq!(
        keys,
        [
            (
                "by-day",
                vec![
                    KeySchemaElement::hash("gpk"),
                    KeySchemaElement::range("gsk")
                ]
            ),
            (
                "by-status",
                vec![
                    KeySchemaElement::hash("status"),
                    KeySchemaElement::range("sk")
                ]
            ),
        ]
    );
    assert_eq!(Shipment::by_day().hash_key(), "gpk");
    assert_eq!(Shipment::by_status().range_key(), Some("sk"));

    let shipment = Shipment {
        userid: "u1".into(),
        date: day(3),
        id: 4,
        status: "sent".into(),
    };
    let item = shipment.to_item().expect("converts");
    assert_eq!(item["gpk"], s("DAY#2026-01-03"));
    assert_eq!(item["gsk"], s("USER#u1#0000000004"));
    assert_eq!(
        Shipment::from_item(item.clone()).expect("decodes"),
        shipment
    );
    // The parts are read from the table keys: the index composites are written, never needed.
    let mut keys_only = item;
    keys_only.remove("gpk");
    keys_only.remove("gsk");
    assert_eq!(Shipment::from_item(keys_only).expect("decodes"), shipment);
}

/// A plain table key and a composite that keys only an index: its parts are read back from it.
#[derive(Model, Debug, Clone, PartialEq)]
#[composite(by_kind = ("K", kind, rank))]
#[global_index(all("kind-index", hash = by_kind))]
struct Ticket {
    #[hash_key]
    id: String,
    kind: String,
    rank: u8,
}

#[test]
fn parts_of_an_index_composite_are_read_from_it() {
    let ticket = Ticket {
        id: "t1".into(),
        kind: "bug".into(),
        rank: 2,
    };
    let item = ticket.to_item().expect("converts");
    let mut names: Vec<&str> = item.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["by_kind", "id"]);
    assert_eq!(item["by_kind"], s("K#bug#002"));
    assert_eq!(Ticket::from_item(item.clone()).expect("decodes"), ticket);
    let mut missing = item;
    missing.remove("by_kind");
    assert_eq!(
        Ticket::from_item(missing).expect_err("no parts").path,
        "by_kind"
    );
    assert_eq!(TicketKey::from("t1").id, "t1");
    assert_eq!(Ticket::kind_index().hash_key(), "by_kind");
}

#[test]
fn a_hash_composite_s_shape_has_no_part_names() {
    // What a collection compares between its members: `pk = ("USER", owner)` agrees with this.
    assert_eq!(Order::HASH_KEY_SHAPE, "USER#{}");
    assert_eq!(Event::HASH_KEY_SHAPE, "{}|{}");
    assert_eq!(Reading::HASH_KEY_SHAPE, "{}");
}
