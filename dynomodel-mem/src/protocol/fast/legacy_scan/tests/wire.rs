//! Bodies whose legacy maps are cut out and scanned (`legacy_scan`), answered byte for byte as the
//! exact path answers them (the oracle holding each decoded map to the exact decoder's): maps cut
//! whole, up to an odd entry first, in the middle and last, not cut (too short, or a break after
//! a comma), two maps in one request, broken JSON in and after the part cut.

use std::fmt::Write as _;

use super::super::super::tests::assert_same;
use super::super::super::{decode, Outcome, CUTS};

const KEY: &str = r#""Key":{"pk":{"S":"k"},"sk":{"N":"1"}}"#;
const ITEM: &str = r#""Item":{"pk":{"S":"k"},"sk":{"N":"1"}}"#;

fn cuts() -> usize {
    CUTS.with(std::cell::Cell::get)
}

/// A map of `n` usual entries made by `entry` (of the entry's index), the entries at `odd`
/// replaced by `odd_entry`.
fn map(n: usize, odd: &[usize], entry: &dyn Fn(usize) -> String, odd_entry: &str) -> String {
    let mut out = String::from("{");
    for i in 0..n {
        let comma = if i == 0 { "" } else { "," };
        if odd.contains(&i) {
            write!(out, r#"{comma}"o{i}":{odd_entry}"#).unwrap();
        } else {
            write!(out, r#"{comma}"a{i}":{}"#, entry(i)).unwrap();
        }
    }
    out.push('}');
    out
}

/// The requests of each legacy map of `n` entries, odd ones at `odd`: `(operation, body)`.
fn requests(n: usize, odd: &[usize], odd_entry: &str) -> Vec<(&'static str, String)> {
    let expected = map(
        n,
        odd,
        &|i| match i % 3 {
            0 => r#"{"Exists":false}"#.to_owned(),
            1 => format!(r#"{{"Value":{{"N":"{i}"}},"Exists":true}}"#),
            _ => format!(r#"{{"ComparisonOperator":"NE","AttributeValueList":[{{"S":"v{i}"}}]}}"#),
        },
        odd_entry,
    );
    let updates = map(
        n,
        odd,
        &|i| match i % 3 {
            0 => format!(r#"{{"Action":"PUT","Value":{{"N":"{i}"}}}}"#),
            1 => r#"{"Action":"DELETE"}"#.to_owned(),
            _ => format!(r#"{{"Value":{{"S":"s{i}"}}}}"#),
        },
        odd_entry,
    );
    let filter = map(
        n,
        odd,
        &|i| match i % 2 {
            0 => r#"{"ComparisonOperator":"NULL"}"#.to_owned(),
            _ => format!(
                r#"{{"AttributeValueList":[{{"N":"{i}"}},null],"ComparisonOperator":"NE"}}"#
            ),
        },
        odd_entry,
    );
    vec![
        (
            "PutItem",
            format!(r#"{{"TableName":"tbl",{ITEM},"Expected":{expected}}}"#),
        ),
        (
            "DeleteItem",
            format!(
                r#"{{"TableName":"tbl",{KEY},"Expected":{expected},"ReturnValues":"ALL_OLD"}}"#
            ),
        ),
        (
            "UpdateItem",
            format!(
                r#"{{"TableName":"tbl",{KEY},"AttributeUpdates":{updates},"ReturnValues":"ALL_NEW"}}"#
            ),
        ),
        (
            "UpdateItem",
            format!(
                r#"{{"Expected":{expected},"TableName":"tbl",{KEY},"AttributeUpdates":{updates}}}"#
            ),
        ),
        (
            "Scan",
            format!(r#"{{"TableName":"tbl","ScanFilter":{filter},"ConditionalOperator":"OR"}}"#),
        ),
        (
            "Query",
            format!(
                r#"{{"TableName":"tbl","KeyConditions":{{"pk":{{"ComparisonOperator":"EQ","AttributeValueList":[{{"S":"k"}}]}}}},"QueryFilter":{filter}}}"#
            ),
        ),
    ]
}

/// Long maps taken whole or up to an odd entry (first, middle, last, several), each body answered
/// as the exact path answers it, and cut where the scanner read enough of it.
#[test]
fn maps_cut_at_every_place_are_answered_as_the_exact_path() {
    let odd_entries = [
        r#"{"Exists":1}"#,
        r#"{"Value":{"S":"e\u0073caped"}}"#,
        r#"{"Value":{"BOOL":true},"Action":"PUT"}"#,
        r#"{"Other":[1,2],"ComparisonOperator":"EQ","AttributeValueList":[{"S":"x"}]}"#,
        r#"{"ComparisonOperator":"NOT_NULL","ComparisonOperator":"NULL"}"#,
        r#"{"Value":{"N":"1e999"}}"#,
        "null",
        "{}",
    ];
    let n = 400;
    for odd_entry in odd_entries {
        for odd in [&[][..], &[0], &[200], &[n - 1], &[150, 151, 300]] {
            for (operation, body) in requests(n, odd, odd_entry) {
                let before = cuts();
                assert_same(operation, body.as_bytes());
                // Cut unless the first entry is odd (which the scanner may decline).
                if odd.first() != Some(&0) {
                    assert!(cuts() > before, "{operation} {odd:?} {odd_entry}");
                }
            }
        }
    }
}

/// Short maps are not cut, and answered as before.
#[test]
fn short_maps_are_not_cut() {
    for n in [0, 1, 5, 40] {
        for (operation, body) in requests(n, &[], "{}") {
            let before = cuts();
            assert_same(operation, body.as_bytes());
            assert_eq!(cuts(), before, "{operation} {n}");
        }
    }
}

/// Broken JSON in, at the end of and after the part cut: malformed as the exact path says, whether
/// or not a cut was made (a trailing comma after taken entries is no cut: JSON refuses it, the
/// map without them would not).
#[test]
fn broken_json_around_the_cut_is_malformed() {
    let (_, body) = requests(400, &[], "{}").remove(0);
    let end = body.rfind("}}").unwrap();
    let mut broken = vec![
        format!("{},{}", &body[..end], &body[end..]),
        format!("{}, {}", &body[..end], &body[end..]),
        format!("{}]{}", &body[..end + 1], &body[end + 1..]),
        format!("{}x", &body),
        body[..body.len() - 1].to_owned(),
        body.replacen(r#"},"a3":"#, r#"},,"a3":"#, 1),
        body.replacen(r#"},"a300":"#, r#"} "a300":"#, 1),
        body.replacen(r#""a300":"#, r#""a300:"#, 1),
    ];
    broken.push(body.replacen(r#""a300":"#, "\"a\u{1}300\":", 1));
    for (i, text) in broken.into_iter().enumerate() {
        assert!(text != body, "{i}");
        assert!(
            matches!(decode("PutItem", text.as_bytes()), Outcome::Malformed),
            "{}",
            &text[text.len().saturating_sub(80)..]
        );
        assert_same("PutItem", text.as_bytes());
    }
}

/// Huge counts, and a map past the model's entry limit of none: the `IN` list of the bench's
/// shape, one entry of 200,000 values.
#[test]
fn huge_lists_and_maps_are_cut() {
    let list: Vec<String> = (0..200_000).map(|i| format!(r#"{{"S":"v{i}"}}"#)).collect();
    let body = format!(
        r#"{{"TableName":"tbl","ScanFilter":{{"a":{{"ComparisonOperator":"IN","AttributeValueList":[{}]}}}}}}"#,
        list.join(",")
    );
    let before = cuts();
    assert!(matches!(
        decode("Scan", body.as_bytes()),
        Outcome::Decoded(..)
    ));
    assert_eq!(cuts(), before + 1);
    assert_same("Scan", body.as_bytes());
    for (operation, body) in requests(20_000, &[10_000], r#"{"Exists":"x"}"#) {
        assert_same(operation, body.as_bytes());
    }
}

/// A map whose first name serde_json does not borrow (an escape) gives no address: no cut, and the
/// seeds read it as before; one whose first name is usual is cut up to an escaped name after it.
#[test]
fn an_escaped_first_name_is_no_cut() {
    for (operation, body) in requests(400, &[], "{}") {
        let escaped = body.replacen(r#""a0":"#, r#""\u0061\u0030":"#, 1);
        assert!(escaped != body);
        let before = cuts();
        assert_same(operation, escaped.as_bytes());
        assert_eq!(cuts(), before, "{operation}");
        let later = body.replacen(r#""a300":"#, r#""a\u0033\u0030\u0030":"#, 1);
        assert!(later != body);
        assert_same(operation, later.as_bytes());
        assert!(cuts() > before, "{operation}");
    }
}
