//! The composite's text, its parsing, and the order of the texts against the order of the values.

use chrono::{NaiveDate, TimeZone, Utc};

use super::*;
use crate::expression::ExpressionContext;

struct Order;

const SK: Composite<Order, (NaiveDate, u32)> = Composite::new("sk", "ORDER", "#", &["date", "id"]);

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, d).expect("a date")
}

fn rendered(condition: &Condition<Order>) -> (String, Vec<String>) {
    let mut ctx = ExpressionContext::new();
    let text = ctx.condition(condition).expect("renders");
    let (_, values) = ctx.finish();
    let mut values: Vec<(String, String)> = values
        .into_iter()
        .map(|(k, v)| match v {
            AttributeValue::S(s) => (k, s),
            other => (k, format!("{other:?}")),
        })
        .collect();
    values.sort();
    (text, values.into_iter().map(|(_, v)| v).collect())
}

#[test]
fn encodes_and_decodes() {
    let text = SK.encode(&(day(1), 7)).expect("encodes");
    assert_eq!(text, "ORDER#2026-01-01#0000000007");
    assert_eq!(SK.decode(&text).expect("decodes"), (day(1), 7));
    assert_eq!(SK.shape(), "ORDER#{date}#{id}");
}

#[test]
fn malformed_texts_name_the_attribute_and_shape() {
    for bad in [
        "ORDER#2026-01-01",
        "USER#2026-01-01#0000000007",
        "ORDER#2026-01-01#7",
        "ORDER#x#0000000007",
    ] {
        let err = SK.decode(bad).expect_err(bad);
        assert_eq!(err.path, "sk", "{bad}");
        assert!(err.expected.contains("ORDER#{date}#{id}"), "{bad}: {err}");
    }
    let err = SK
        .split(Some(AttributeValue::N(1.into())))
        .expect_err("an N");
    assert_eq!(
        err.to_string(),
        "attribute `sk`: expected a string ORDER#{date}#{id}, found N"
    );
}

#[test]
fn a_part_holding_the_separator_is_refused() {
    const PK: Composite<Order, (String,)> = Composite::new("pk", "USER", "#", &["userid"]);
    let err = PK.encode(&("a#b".to_owned(),)).expect_err("ambiguous");
    assert_eq!(err.path, "pk");
    assert!(
        err.expected.contains("without the separator \"#\""),
        "{err}"
    );
}

#[test]
fn texts_sort_like_values() {
    let ids = [0u32, 7, 9, 10, 99, 100, 4_000_000_000];
    let mut texts: Vec<String> = ids
        .iter()
        .map(|id| SK.encode(&(day(2), *id)).expect("encodes"))
        .collect();
    let sorted = texts.clone();
    texts.sort();
    assert_eq!(texts, sorted);
    let days: Vec<String> = [
        day(1),
        day(9),
        day(10),
        NaiveDate::from_ymd_opt(2027, 1, 1).expect("a date"),
    ]
    .iter()
    .map(|d| d.to_part().expect("a date"))
    .collect();
    assert!(days.windows(2).all(|w| w[0] < w[1]), "{days:?}");
    let times: Vec<String> = [
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap(),
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + chrono::Duration::milliseconds(500),
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 1).unwrap(),
    ]
    .iter()
    .map(|t| t.to_part().expect("a time"))
    .collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    assert_eq!(u64::MAX.to_part().expect("a number").len(), 20);
    assert_eq!(
        <chrono::DateTime<Utc>>::from_part(&times[1])
            .expect("parses")
            .timestamp_subsec_millis(),
        500
    );
}

#[test]
fn conditions_on_leading_parts() {
    assert_eq!(
        rendered(&SK.prefix(())),
        ("begins_with(#n0, :v0)".into(), vec!["ORDER#".into()])
    );
    assert_eq!(
        rendered(&SK.prefix((day(1),))),
        (
            "begins_with(#n0, :v0)".into(),
            vec!["ORDER#2026-01-01#".into()]
        )
    );
    assert_eq!(
        rendered(&SK.prefix((day(1), 7))),
        (
            "#n0 = :v0".into(),
            vec!["ORDER#2026-01-01#0000000007".into()]
        )
    );
    assert_eq!(
        rendered(&SK.between((), day(1), day(3))).1,
        ["ORDER#2026-01-01", "ORDER#2026-01-03$"]
    );
    assert_eq!(
        rendered(&SK.ge((day(1),), 5)).1,
        ["ORDER#2026-01-01#0000000005", "ORDER#2026-01-01$"]
    );
    assert_eq!(
        rendered(&SK.gt((day(1),), 5)).1,
        ["ORDER#2026-01-01#0000000005$", "ORDER#2026-01-01$"]
    );
    assert_eq!(
        rendered(&SK.le((day(1),), 5)).1,
        ["ORDER#2026-01-01#", "ORDER#2026-01-01#0000000005"]
    );
    assert_eq!(
        rendered(&SK.gt((), day(1))).1,
        ["ORDER#2026-01-01$", "ORDER$"]
    );
}

#[test]
fn without_a_prefix_the_first_part_is_bounded_on_one_side() {
    const KEY: Composite<Order, (u32, u32)> = Composite::new("key", "", "#", &["a", "b"]);
    assert_eq!(
        rendered(&KEY.ge((), 5)),
        ("#n0 >= :v0".into(), vec!["0000000005".into()])
    );
    assert_eq!(
        rendered(&KEY.le((), 5)),
        ("#n0 <= :v0".into(), vec!["0000000005$".into()])
    );
    assert_eq!(
        rendered(&KEY.between((), 1, 2)).1,
        ["0000000001", "0000000002$"]
    );
    assert_eq!(
        rendered(&KEY.ge((1,), 5)).1,
        ["0000000001#0000000005", "0000000001$"]
    );
    assert_eq!(
        rendered(&KEY.prefix(())),
        ("begins_with(#n0, :v0)".into(), vec![String::new()])
    );
}
