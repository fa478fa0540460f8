//! The legacy maps (`legacy`) against the exact path: long maps of every parameter in every
//! order, with names sent twice, escaped, sharing long prefixes or past ASCII, short maps before
//! long bodies, and `Exists` of every JSON type. Each body is decoded in one pass (or, where it
//! must be, left to the exact path), checked by the oracle, and answered byte for byte as the
//! exact path answers it.

#![allow(clippy::unwrap_used)]

use std::fmt::Write as _;

use super::tests::assert_same;
use super::{decode, Outcome};

const KEY: &str = r#""Key":{"pk":{"S":"k"},"sk":{"N":"1"}}"#;
const ITEM: &str = r#""Item":{"pk":{"S":"k"},"sk":{"N":"1"}}"#;

/// Panics unless `body` is decoded in one pass with `member` a marker, and answered alike.
fn decoded(operation: &str, body: &str, member: &str) {
    let Outcome::Decoded(skeleton, _) = decode(operation, body.as_bytes()) else {
        panic!("not decoded in one pass: {}", &body[..body.len().min(400)]);
    };
    assert!(skeleton[member].is_u64(), "{member} of {body}");
    assert_same(operation, body.as_bytes());
}

/// Panics unless `body` is left to the exact path, and answered alike.
fn exact(operation: &str, body: &str) {
    assert!(
        matches!(decode(operation, body.as_bytes()), Outcome::Fallback),
        "{body}"
    );
    assert_same(operation, body.as_bytes());
}

/// The four legacy maps of `entries` (each `(name, index)`, the name as spelled in JSON), as the
/// requests that carry them: `(operation, body, member)`.
fn requests(entries: &[(String, usize)]) -> Vec<(&'static str, String, &'static str)> {
    let map = |entry: &dyn Fn(usize) -> String| {
        let mut out = String::new();
        for (i, (name, n)) in entries.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            write!(out, r#"{comma}"{name}":{}"#, entry(*n)).unwrap();
        }
        out
    };
    // Every other one fails on the item `k`/1 when the name is one of its attributes (`a`, `n`).
    let expected = map(&|n| {
        if n % 2 == 0 {
            r#"{"Exists":false}"#.to_owned()
        } else {
            format!(r#"{{"ComparisonOperator":"NE","AttributeValueList":[{{"N":"{n}"}}]}}"#)
        }
    });
    let updates = map(&|n| format!(r#"{{"Action":"PUT","Value":{{"N":"{n}"}}}}"#));
    let filter = map(&|n| {
        if n % 3 == 0 {
            r#"{"ComparisonOperator":"NULL"}"#.to_owned()
        } else {
            format!(r#"{{"ComparisonOperator":"NE","AttributeValueList":[{{"S":"v{n}"}}]}}"#)
        }
    });
    vec![
        (
            "PutItem",
            format!(r#"{{"TableName":"tbl",{ITEM},"Expected":{{{expected}}}}}"#),
            "Expected",
        ),
        (
            "UpdateItem",
            format!(
                r#"{{"TableName":"tbl",{KEY},"AttributeUpdates":{{{updates}}},"ReturnValues":"ALL_NEW"}}"#
            ),
            "AttributeUpdates",
        ),
        (
            "Scan",
            format!(
                r#"{{"TableName":"tbl","ScanFilter":{{{filter}}},"ConditionalOperator":"OR"}}"#
            ),
            "ScanFilter",
        ),
        (
            "Query",
            format!(
                r#"{{"TableName":"tbl","KeyConditions":{{"pk":{{"ComparisonOperator":"EQ","AttributeValueList":[{{"S":"k"}}]}}}},"QueryFilter":{{{filter}}}}}"#
            ),
            "QueryFilter",
        ),
    ]
}

/// A fixed permutation of `0..n` (a multiplicative step coprime with `n`, if there is one).
fn shuffled(n: usize) -> Vec<usize> {
    let step = [7919, 104_729, 1]
        .into_iter()
        .find(|p| n == 0 || (p % n != 0 && gcd(*p, n) == 1))
        .unwrap_or(1);
    (0..n).map(|i| (i * step + 3) % n.max(1)).collect()
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Long maps (past the sixteen entries read before the vector is given the body's room) in the
/// bench's order (`a0`, `a1`, … `a10`, …: runs), sorted, reversed and shuffled, with and without
/// names sent twice (first, middle and last, the last one kept), each parameter.
#[test]
fn long_maps_in_every_order_are_the_exact_path_s() {
    for n in [17, 40, 300] {
        let names: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
        let mut sorted = names.clone();
        sorted.sort();
        let orders: Vec<Vec<String>> = vec![
            names.clone(),
            sorted.clone(),
            sorted.iter().rev().cloned().collect(),
            shuffled(n).into_iter().map(|i| names[i].clone()).collect(),
        ];
        for order in &orders {
            let plain: Vec<(String, usize)> = order.iter().cloned().zip(0..).collect();
            let mut twice = plain.clone();
            for (at, of) in [(0, n - 1), (n / 2, 0), (twice.len(), n / 3)] {
                twice.insert(at, (order[of].clone(), n + at + 1));
            }
            // A name of the item, so that conditions fail and updates replace a value.
            twice.push(("a".to_owned(), 1));
            twice.push(("n".to_owned(), 3));
            for entries in [&plain, &twice] {
                for (operation, body, member) in requests(entries) {
                    decoded(operation, &body, member);
                }
            }
        }
    }
}

/// Names the comparison by eight bytes must order as `str` does: equal first eight bytes, one a
/// prefix of another, a NUL where the other ends (its padding), bytes past ASCII; and escaped names,
/// alone, first, in the middle and equal to a plain one sent before or after.
#[test]
fn names_sharing_prefixes_or_escaped_are_the_exact_path_s() {
    let mut spelled = vec![
        "abcdefgh",
        "abcdefghi",
        "abcdefgh0",
        "abcdefg",
        "abcdefgh\\u0000",
        "abcdefg\\u0000",
        "abcdefgi",
        "abcdefgh",
        "é",
        "éa",
        "\\u00e9",
        "\u{10ffff}",
        "a\\u0030",
        "a0",
        "a\\\"b",
        "z",
        "a",
        "n",
    ];
    // Past sixteen, with an escaped name among the later ones too.
    let filler: Vec<String> = (0..40).map(|i| format!("abcdefgh{i:03}")).collect();
    spelled.extend(filler.iter().map(String::as_str));
    spelled.push("abcdefgh\\u0030\\u0030\\u0031");
    for first_escaped in [false, true] {
        let mut names = spelled.clone();
        if first_escaped {
            names.insert(0, "\\u0061\\u0031");
        }
        let entries: Vec<(String, usize)> =
            names.iter().map(|n| (*n).to_owned()).zip(0..).collect();
        for (operation, body, member) in requests(&entries) {
            decoded(operation, &body, member);
        }
        let reversed: Vec<(String, usize)> = entries.iter().rev().cloned().collect();
        for (operation, body, member) in requests(&reversed) {
            decoded(operation, &body, member);
        }
    }
    // Every name escaped: no name gives the vector its place in the body.
    let escaped: Vec<(String, usize)> = (0..50).map(|i| (format!("\\u0062{i}"), i)).collect();
    for (operation, body, member) in requests(&escaped) {
        decoded(operation, &body, member);
    }
}

/// A short map before a long rest of the body (its vector given room for entries that never come),
/// with whitespace between entries, and a long map after a long item: the same answers.
#[test]
fn short_maps_before_long_bodies_are_the_exact_path_s() {
    let big: String = (0..3000)
        .map(|i| format!(r#","x{i}":{{"S":"{}"}}"#, "v".repeat(20)))
        .collect();
    let expected: String = (0..20)
        .map(|i| format!(r#""e{i}" :  {{ "Exists" : false }} ,  "#))
        .collect::<String>()
        + r#""e20":{"Exists":false}"#;
    let before = format!(
        r#"{{"TableName":"tbl","Expected":{{{expected}}},"Item":{{"pk":{{"S":"k"}},"sk":{{"N":"1"}}{big}}}}}"#
    );
    decoded("PutItem", &before, "Expected");
    let after = format!(
        r#"{{"TableName":"tbl","Item":{{"pk":{{"S":"k"}},"sk":{{"N":"1"}}{big}}},"Expected":{{{expected}}}}}"#
    );
    decoded("PutItem", &after, "Expected");
    let updates: String = (0..100)
        .map(|i| {
            format!(
                r#""u{i}":{{"Action":"PUT","Value":{{"S":"{}"}}}},"#,
                "w".repeat(i)
            )
        })
        .collect::<String>()
        + r#""u":{"Action":"DELETE"}"#;
    let long_first = format!(
        r#"{{"TableName":"tbl","AttributeUpdates":{{{updates}}},{KEY},"ReturnValues":"UPDATED_NEW"}}"#
    );
    decoded("UpdateItem", &long_first, "AttributeUpdates");
}

/// A map of 20,000 entries, names sent twice among them: the same answers (the vector's room is
/// the rest of the body's, grown no more).
#[test]
fn huge_maps_are_the_exact_path_s() {
    let n = 20_000;
    let mut entries: Vec<(String, usize)> = (0..n).map(|i| (format!("a{i}"), i)).collect();
    entries.insert(n / 2, ("a7".to_owned(), 8));
    entries.push(("a0".to_owned(), 5));
    let (operation, body, member) = requests(&entries).swap_remove(1);
    decoded(operation, &body, member);
}

/// `Exists` of every JSON type, in long and short maps: booleans and `null` read in one pass,
/// anything else left to the exact path (which has the service's words for it); entries that are
/// not objects too.
#[test]
fn exists_of_every_json_type_is_the_exact_path_s() {
    let filler: String = (0..20)
        .map(|i| format!(r#""f{i}":{{"Exists":false}},"#))
        .collect();
    for prefix in ["", filler.as_str()] {
        let body = |entry: &str| {
            format!(r#"{{"TableName":"tbl",{ITEM},"Expected":{{{prefix}"a":{entry}}}}}"#)
        };
        for entry in [
            r#"{"Exists":true,"Value":{"S":"text"}}"#,
            r#"{"Exists":true,"Value":{"S":"other"}}"#,
            r#"{"Exists":false}"#,
            r#"{"Exists":null}"#,
            r#"{"Exists":true}"#,
            r#"{"Value":{"S":"text"},"Exists":true}"#,
            r#"{"Exists":false,"Exists":true,"Value":{"S":"text"}}"#,
        ] {
            decoded("PutItem", &body(entry), "Expected");
        }
        for entry in [
            r#"{"Exists":1}"#,
            r#"{"Exists":0.5}"#,
            r#"{"Exists":"true"}"#,
            r#"{"Exists":[]}"#,
            r#"{"Exists":{}}"#,
            "null",
            "true",
            "[]",
            r#""x""#,
            "1",
        ] {
            exact("PutItem", &body(entry));
        }
    }
}
