//! A set ADD whose operand the update takes out of the request (`expr::taken`: a set of 17
//! elements or more whose placeholder the update names once and the condition not at all), its new
//! elements moved into the stored set. Each answer, and the item after it, is held to the exact
//! path's (the one pass off) and to its twin whose operand stays in the request (the same update
//! under a condition that always holds and names the operand), and the sets to the union the scans
//! compute; the errors to their texts.

use super::{answer_text, quoted, table_with_index};
use crate::protocol::fast::oracle::held_to_exact;

/// On a fresh table: the `setup` PutItem (if any), then the UpdateItem `body`; its answer and the
/// item `k` after it, held to the exact path's.
fn answer(setup: Option<&str>, body: &str) -> (String, String) {
    let go = || {
        let backend = table_with_index();
        if let Some(put) = setup {
            assert_eq!(answer_text(&backend, "PutItem", put), "{}", "{put}");
        }
        let answer = answer_text(&backend, "UpdateItem", body);
        let item = answer_text(
            &backend,
            "GetItem",
            r#"{"TableName": "tbl", "Key": {"pk": {"S": "k"}}}"#,
        );
        (answer, item)
    };
    held_to_exact(go, &body[..body.len().min(300)])
}

/// An UpdateItem of `k`: `update` with the values `values` (JSON members), `more` members after.
fn update(update: &str, values: &str, more: &str) -> String {
    format!(
        r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "k"}}}}, "UpdateExpression": "{update}", "ExpressionAttributeValues": {{{values}}}{more}}}"#
    )
}

/// A condition that always holds and names `:s`: the operand stays in the request.
const KEEPS: &str =
    r#", "ConditionExpression": "attribute_not_exists(s) OR s <> :s OR attribute_exists(s)""#;

/// The answer of `body` (moved operand) and of its twin under [`KEEPS`] (where `body` has no
/// condition), which must agree.
fn moved_and_kept(setup: Option<&str>, upd: &str, values: &str, more: &str) -> (String, String) {
    let moved = answer(setup, &update(upd, values, more));
    let kept = answer(setup, &update(upd, values, &format!("{more}{KEEPS}")));
    assert_eq!(moved, kept, "{upd} {more} on {setup:?}");
    moved
}

fn numbers_equal(a: &str, b: &str) -> bool {
    a.parse::<dynomodel::Number>().ok() == b.parse::<dynomodel::Number>().ok()
}

/// The union of `stored` and `operand` as the scans compute it (stored first, then the operand's
/// new elements in order).
fn union(stored: &[String], operand: &[String], same: fn(&str, &str) -> bool) -> Vec<String> {
    let mut out = stored.to_vec();
    for x in operand {
        if !out.iter().any(|y| same(x, y)) {
            out.push(x.clone());
        }
    }
    out
}

/// Base64 of `n` zero bytes: binaries that are prefixes of each other.
fn zeros(n: usize) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(vec![0u8; n])
}

type Kind = (&'static str, fn(usize) -> String, fn(&str, &str) -> bool);

const KINDS: [Kind; 3] = [
    ("SS", |i| format!("e{i}"), |a, b| a == b),
    ("NS", |i| format!("{i}"), numbers_equal),
    ("BS", |i| zeros(i + 1), |a, b| a == b),
];

/// ADD of a set of 16 (left in the request) to 2,000 elements on a missing item, a missing
/// attribute and an overlapping stored set, with every `ReturnValues`: the union, moved or not.
#[test]
fn a_moved_operand_answers_as_one_left_in_the_request() {
    for (tag, element, same) in KINDS {
        for n in [16, 17, 40, 2_000] {
            if tag == "BS" && n > 40 {
                // 2,000 binaries of up to 3,000 bytes pass 400 KB.
                continue;
            }
            let mut operand: Vec<String> = (n / 2..n + n / 2).map(element).collect();
            if tag == "NS" {
                // Spelled apart from the stored elements: equal in value.
                operand = operand.iter().map(|x| format!("{x}.0")).collect();
            }
            let stored: Vec<String> = (0..n).map(element).collect();
            let values = format!(r#"":s": {{"{tag}": [{}]}}"#, quoted(&operand));
            let with_set = format!(
                r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "s": {{"{tag}": [{}]}}}}}}"#,
                quoted(&stored)
            );
            let without = r#"{"TableName": "tbl", "Item": {"pk": {"S": "k"}, "t": {"N": "1"}}}"#;
            for rv in ["NONE", "UPDATED_NEW", "ALL_NEW", "UPDATED_OLD", "ALL_OLD"] {
                let more = format!(r#", "ReturnValues": "{rv}""#);
                for setup in [None, Some(without), Some(with_set.as_str())] {
                    moved_and_kept(setup, "ADD s :s", &values, &more);
                }
            }
            let (_, item) = moved_and_kept(Some(&with_set), "ADD s :s", &values, "");
            assert_eq!(
                item,
                item_with_set(tag, &union(&stored, &operand, same)),
                "{tag} {n}"
            );
            // Onto no set: the operand itself, in its order.
            let (_, item) = moved_and_kept(None, "ADD s :s", &values, "");
            assert_eq!(item, item_with_set(tag, &operand), "{tag} {n}");
        }
    }
}

/// GetItem's answer for the item `k` whose set `s` of type `tag` holds `elements` (numbers as the
/// engine spells them).
fn item_with_set(tag: &str, elements: &[String]) -> String {
    let spelled: Vec<String> = match tag {
        "NS" => elements
            .iter()
            .map(|x| x.parse::<dynomodel::Number>().unwrap().to_string())
            .collect(),
        _ => elements.to_vec(),
    };
    format!(
        r#"{{"Item":{{"pk":{{"S":"k"}},"s":{{"{tag}":[{}]}}}}}}"#,
        quoted(&spelled)
    )
}

/// An operand past the duplicate check's table (more than 65,536 elements: the union hashes it)
/// moved into a stored set it half overlaps.
#[test]
fn a_moved_operand_past_the_checks_table() {
    let operand: Vec<String> = (0..66_000).map(|i| format!("{i}")).collect();
    let stored: Vec<String> = (0..100).map(|i| format!("{}", i * 1_000)).collect();
    let values = format!(r#"":s": {{"SS": [{}]}}"#, quoted(&operand));
    let setup = format!(
        r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "s": {{"SS": [{}]}}}}}}"#,
        quoted(&stored)
    );
    let (got, item) = moved_and_kept(Some(&setup), "ADD s :s", &values, "");
    assert_eq!(got, "{}");
    assert_eq!(
        item,
        format!(
            r#"{{"Item":{{"pk":{{"S":"k"}},"s":{{"SS":[{}]}}}}}}"#,
            quoted(&union(&stored, &operand, |a, b| a == b))
        )
    );
}

/// An operand named twice in the update, or also by the condition, stays in the request and serves
/// each; two large operands whose placeholders share a prefix both move.
#[test]
fn operands_named_twice_or_by_the_condition() {
    let a: Vec<String> = (0..30).map(|i| format!("a{i}")).collect();
    let b: Vec<String> = (20..50).map(|i| format!("a{i}")).collect();
    let stored: Vec<String> = (25..35).map(|i| format!("a{i}")).collect();
    let setup = format!(
        r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "s": {{"SS": [{}]}}}}}}"#,
        quoted(&stored)
    );
    let both = format!(
        r#"":s": {{"SS": [{}]}}, ":s2": {{"SS": [{}]}}"#,
        quoted(&a),
        quoted(&b)
    );
    let ss = |v: &[String]| format!(r#"{{"SS":[{}]}}"#, quoted(v));
    let cases = [
        (
            "ADD s :s, t :s",
            format!(
                r#"{{"Item":{{"pk":{{"S":"k"}},"s":{},"t":{}}}}}"#,
                ss(&union(&stored, &a, |x, y| x == y)),
                ss(&a)
            ),
        ),
        (
            "ADD s :s SET t = :s",
            format!(
                r#"{{"Item":{{"pk":{{"S":"k"}},"s":{},"t":{}}}}}"#,
                ss(&union(&stored, &a, |x, y| x == y)),
                ss(&a)
            ),
        ),
        (
            "ADD s :s, t :s2",
            format!(
                r#"{{"Item":{{"pk":{{"S":"k"}},"s":{},"t":{}}}}}"#,
                ss(&union(&stored, &a, |x, y| x == y)),
                ss(&b)
            ),
        ),
        (
            "ADD t :s, s :s2",
            format!(
                r#"{{"Item":{{"pk":{{"S":"k"}},"s":{},"t":{}}}}}"#,
                ss(&union(&stored, &b, |x, y| x == y)),
                ss(&a)
            ),
        ),
    ];
    for (upd, want) in cases {
        let values = if upd.contains(":s2") {
            both.clone()
        } else {
            both.split(", \":s2\"").next().unwrap().to_owned()
        };
        let (got, item) = moved_and_kept(Some(&setup), upd, &values, "");
        assert_eq!(
            (got.as_str(), item.as_str()),
            ("{}", want.as_str()),
            "{upd}"
        );
    }
    // The condition names the operand: it is read there, then added.
    let values = format!(r#"":s": {{"SS": [{}]}}"#, quoted(&a));
    let holds = r#", "ConditionExpression": "s <> :s""#;
    let (got, item) = answer(Some(&setup), &update("ADD s :s", &values, holds));
    assert_eq!(got, "{}");
    assert_eq!(
        item,
        format!(
            r#"{{"Item":{{"pk":{{"S":"k"}},"s":{}}}}}"#,
            ss(&union(&stored, &a, |x, y| x == y))
        )
    );
    let fails =
        r#", "ConditionExpression": "s = :s", "ReturnValuesOnConditionCheckFailure": "ALL_OLD""#;
    let (got, item) = answer(Some(&setup), &update("ADD s :s", &values, fails));
    assert!(got.starts_with("ConditionalCheckFailedException"), "{got}");
    assert_eq!(
        item,
        format!(r#"{{"Item":{{"pk":{{"S":"k"}},"s":{}}}}}"#, ss(&stored))
    );
}

/// A moved operand with every error the update can meet: a failed condition that does not name it,
/// a key attribute, the wrong type (a number, a set of another type, a string), a value set with
/// duplicates, an item past 400 KB; nothing is written.
#[test]
fn a_moved_operand_with_every_error() {
    let set: Vec<String> = (0..40).map(|i| format!("e{i}")).collect();
    let set_only = format!(r#"":s": {{"SS": [{}]}}"#, quoted(&set));
    let with_n = format!(r#"{set_only}, ":n": {{"N": "2"}}"#);
    let wrong =
        "ValidationException: An operand in the update expression has an incorrect data type";
    let key = "ValidationException: One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key";
    let failed = "ConditionalCheckFailedException: The conditional request failed";
    let too_big = "ValidationException: Item size to update has exceeded the maximum allowed size";
    let stored = |s: &str| {
        format!(
            r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "n": {{"N": "1"}}, "s": {s}}}}}"#
        )
    };
    let big = format!(r#"{{"S": "{}"}}"#, "x".repeat(409_500));
    let cases: [(String, &str, &str, &str); 8] = [
        (stored(r#"{"N": "1"}"#), "ADD s :s", "", wrong),
        (stored(r#"{"NS": ["1"]}"#), "ADD s :s", "", wrong),
        (stored(r#"{"S": "x"}"#), "ADD s :s", "", wrong),
        (
            stored(r#"{"SS": ["a"]}"#),
            "ADD s :s",
            r#", "ConditionExpression": "n = :n""#,
            failed,
        ),
        (stored(r#"{"SS": ["a"]}"#), "ADD pk :s", "", key),
        (stored(r#"{"SS": ["a"]}"#), "ADD s :s, pk :n", "", key),
        (stored(&big), "ADD t :s", "", too_big),
        (
            stored(&big),
            "ADD t :s",
            r#", "ConditionExpression": "n = :n""#,
            failed,
        ),
    ];
    for (setup, upd, more, want) in cases {
        let before = answer(
            Some(&setup),
            &update(
                "SET m = :n",
                r#"":n": {"N": "2"}"#,
                ", \"ConditionExpression\": \"m = :n\"",
            ),
        );
        let values = if upd.contains(":n") || more.contains(":n") {
            &with_n
        } else {
            &set_only
        };
        let (got, item) = answer(Some(&setup), &update(upd, values, more));
        assert_eq!(got, want, "{upd}{more}");
        assert_eq!(item, before.1, "nothing written: {upd}{more}");
        if more.is_empty() {
            let (kept, _) = answer(Some(&setup), &update(upd, values, KEEPS));
            assert_eq!(kept, want, "{upd} kept");
        }
    }
    // A value set with duplicates: refused before anything is taken.
    let mut dup = set.clone();
    dup.push("e3".to_owned());
    let (got, item) = answer(
        None,
        &update(
            "ADD s :s",
            &format!(r#"":s": {{"SS": [{}]}}"#, quoted(&dup)),
            "",
        ),
    );
    assert_eq!(
        got,
        format!(
            "ValidationException: ExpressionAttributeValues contains invalid value: One or more parameter \
             values were invalid: Input collection [{}] contains duplicates. for key :s",
            dup.join(", ")
        )
    );
    assert_eq!(item, "{}");
}
