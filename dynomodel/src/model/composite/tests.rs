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

/// A reply's key in the Developer Guide's sample: the forum, then the subject, which may hold `#`.
const ID: Composite<Order, (String, String)> = Composite::new("Id", "", "#", &["forum", "subject"]);

#[test]
fn a_part_holding_the_separator_is_refused_unless_it_is_the_last() {
    let err = ID
        .encode(&("a#b".to_owned(), "c".to_owned()))
        .expect_err("ambiguous");
    assert_eq!(err.path, "Id");
    assert!(
        err.expected.contains("without the separator \"#\"")
            && err
                .expected
                .contains("only the last part, `subject`, may hold it"),
        "{err}"
    );
    let parts = ("Amazon DynamoDB".to_owned(), "C# or Rust? #2".to_owned());
    let text = ID
        .encode(&parts)
        .expect("the last part may hold the separator");
    assert_eq!(text, "Amazon DynamoDB#C# or Rust? #2");
    assert_eq!(ID.decode(&text).expect("decodes"), parts);
    // A one-part composite's only part is its last.
    const PK: Composite<Order, (String,)> = Composite::new("pk", "USER", "#", &["userid"]);
    assert_eq!(PK.decode("USER#a#b").expect("decodes"), ("a#b".to_owned(),));
    // Leading parts are still refused in conditions.
    let mut ctx = ExpressionContext::new();
    let err = ctx
        .condition(&ID.prefix(("a#b".to_owned(),)))
        .expect_err("a leading part with the separator");
    assert!(err.to_string().contains("without the separator"), "{err}");
}

#[test]
fn conditions_on_a_last_part_holding_the_separator() {
    let forum = || "F".to_owned();
    // `gt` on the last part starts right after the given text: `C#` and `C# or Rust?` are above `C`.
    assert_eq!(
        rendered(&ID.gt((forum(),), "C".to_owned())).1,
        ["F#C\u{0}", "F$"]
    );
    assert_eq!(
        rendered(&ID.le((forum(),), "C#".to_owned())).1,
        ["F#", "F#C#"]
    );
    assert_eq!(
        rendered(&ID.prefix((forum(), "C# or Rust?".to_owned()))).1,
        ["F#C# or Rust?"]
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
        ["ORDER#2026-01-01#0000000005\u{0}", "ORDER#2026-01-01$"]
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

/// Whether `text` satisfies a rendered key condition on one attribute (the shapes `Composite`
/// renders), comparing as DynamoDB does: by UTF-8 bytes.
fn satisfies(rendered: &(String, Vec<String>), text: &str) -> bool {
    let (expression, values) = rendered;
    match (expression.as_str(), values.as_slice()) {
        ("begins_with(#n0, :v0)", [prefix]) => text.starts_with(prefix.as_str()),
        ("#n0 = :v0", [value]) => text == value,
        ("#n0 BETWEEN :v0 AND :v1", [low, high]) => low.as_str() <= text && text <= high.as_str(),
        ("#n0 >= :v0", [low]) => low.as_str() <= text,
        ("#n0 <= :v0", [high]) => text <= high.as_str(),
        other => panic!("an unexpected condition {other:?}"),
    }
}

/// Texts for leading parts: characters above the separator, so that the composite sorts like its
/// parts (the documented caveat).
const LEADING: &str = "[ab$%]{0,3}";
/// Texts for the last part: anything, the separator and characters below it included.
const LAST: &str = "[ab# !$\\x{0}]{0,4}";

type Parts = (String, String, String);
const THREE: Composite<Order, Parts> = Composite::new("sk", "P", "#", &["a", "b", "c"]);

proptest::proptest! {
    #[test]
    fn parts_round_trip(a in LEADING, b in LEADING, c in LAST) {
        let parts = (a, b, c);
        let text = THREE.encode(&parts).expect("encodes");
        proptest::prop_assert_eq!(THREE.decode(&text).expect("decodes"), parts);
    }

    #[test]
    fn texts_sort_like_parts(x in (LEADING, LEADING, LAST), y in (LEADING, LEADING, LAST)) {
        let (tx, ty) = (THREE.encode(&x).expect("encodes"), THREE.encode(&y).expect("encodes"));
        proptest::prop_assert_eq!(tx.cmp(&ty), x.cmp(&y));
    }

    /// Every condition on the leading parts selects exactly the values whose parts satisfy it.
    #[test]
    fn conditions_select_what_they_say(
        values in proptest::collection::vec((LEADING, LEADING, LAST), 1..12),
        a in LEADING,
        b in LEADING,
        c in LAST,
        d in LAST,
    ) {
        let (low, high) = if c <= d { (c.clone(), d.clone()) } else { (d.clone(), c.clone()) };
        type Check = Box<dyn Fn(&Parts) -> bool>;
        let (a2, b2, c2, low2, high2) = (a.clone(), b.clone(), c.clone(), low.clone(), high.clone());
        let cases: Vec<(Condition<Order>, Check)> = vec![
            (THREE.prefix(()), Box::new(|_| true)),
            (THREE.prefix((a.clone(),)), { let a = a.clone(); Box::new(move |p| p.0 == a) }),
            (THREE.prefix((a.clone(), b.clone())), { let (a, b) = (a.clone(), b.clone()); Box::new(move |p| p.0 == a && p.1 == b) }),
            (THREE.prefix((a.clone(), b.clone(), c.clone())), Box::new(move |p| *p == (a2.clone(), b2.clone(), c2.clone()))),
            (THREE.gt((a.clone(), b.clone()), c.clone()), { let (a, b, c) = (a.clone(), b.clone(), c.clone()); Box::new(move |p| p.0 == a && p.1 == b && p.2 > c) }),
            (THREE.ge((a.clone(), b.clone()), c.clone()), { let (a, b, c) = (a.clone(), b.clone(), c.clone()); Box::new(move |p| p.0 == a && p.1 == b && p.2 >= c) }),
            (THREE.le((a.clone(), b.clone()), c.clone()), { let (a, b, c) = (a.clone(), b.clone(), c.clone()); Box::new(move |p| p.0 == a && p.1 == b && p.2 <= c) }),
            (THREE.between((a.clone(), b.clone()), low.clone(), high.clone()), { let (a, b) = (a.clone(), b.clone()); Box::new(move |p| p.0 == a && p.1 == b && low2 <= p.2 && p.2 <= high2) }),
            (THREE.gt((a.clone(),), b.clone()), { let (a, b) = (a.clone(), b.clone()); Box::new(move |p| p.0 == a && p.1 > b) }),
            (THREE.le((a.clone(),), b.clone()), { let (a, b) = (a.clone(), b.clone()); Box::new(move |p| p.0 == a && p.1 <= b) }),
            (THREE.ge((), a.clone()), { let a = a.clone(); Box::new(move |p| p.0 >= a) }),
            (THREE.gt((), a.clone()), { let a = a.clone(); Box::new(move |p| p.0 > a) }),
        ];
        for (n, (condition, expected)) in cases.iter().enumerate() {
            let rendered = rendered(condition);
            for value in &values {
                let text = THREE.encode(value).expect("encodes");
                proptest::prop_assert_eq!(
                    satisfies(&rendered, &text),
                    expected(value),
                    "case {} {:?} on {:?}", n, rendered, text
                );
            }
        }
    }
}
