//! Updates once their parameters are read: a set ADD or DELETE whose operand's duplicate check kept
//! its table (`validate::SetTables`, looked up by the union and the difference), `AttributeUpdates`'
//! top-level writes built into the item without a check of their order, and the errors an update
//! can meet, alone and together with an item past 400 KB. Every answer is held to the exact path's
//! (the one pass off); the answers themselves are main's before these changes (checked against it).

use super::answer_text;
use crate::protocol::fast::oracle::held_to_exact;
use crate::MemBackend;

/// A table `tbl` keyed by `pk` (S), with indexes `gsi` on `gk` (S) and `gsi2` on `gk2` (S).
fn backend() -> MemBackend {
    let backend = MemBackend::new();
    let create = r#"{"TableName": "tbl",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "gk", "AttributeType": "S"},
                                 {"AttributeName": "gk2", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [{"IndexName": "gsi",
            "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "gsi2",
            "KeySchema": [{"AttributeName": "gk2", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}],
        "BillingMode": "PAY_PER_REQUEST"}"#;
    let created = answer_text(&backend, "CreateTable", create);
    assert!(created.contains("TableDescription"), "{created}");
    backend
}

/// On a fresh table: the `setup` PutItems, then `operation` with `body`; its answer and the item
/// `k` after it, held to the exact path's.
fn answer(setup: &[String], operation: &str, body: &str) -> (String, String) {
    let go = || {
        let backend = backend();
        for put in setup {
            let put_answer = answer_text(&backend, "PutItem", put);
            assert_eq!(put_answer, "{}", "{put}");
        }
        let answer = answer_text(&backend, operation, body);
        let item = answer_text(
            &backend,
            "GetItem",
            r#"{"TableName": "tbl", "Key": {"pk": {"S": "k"}}}"#,
        );
        (answer, item)
    };
    let context = format!("{operation}: {}", &body[..body.len().min(300)]);
    held_to_exact(go, &context)
}

/// `{"S": "…"}`-less JSON list of a set's elements, quoted.
fn elements(elements: &[String]) -> String {
    elements
        .iter()
        .map(|e| format!("\"{e}\""))
        .collect::<Vec<_>>()
        .join(",")
}

fn put_set(tag: &str, set: &[String]) -> String {
    format!(
        r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "s": {{"{tag}": [{}]}}}}}}"#,
        elements(set)
    )
}

/// An UpdateItem of `k` with `members` (each with a leading comma).
fn update(members: &str) -> String {
    format!(r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "k"}}}}{members}}}"#)
}

fn expression(action: &str, tag: &str, set: &[String]) -> String {
    update(&format!(
        r#", "UpdateExpression": "{action} s :s", "ExpressionAttributeValues": {{":s": {{"{tag}": [{}]}}}}, "ReturnValues": "UPDATED_NEW""#,
        elements(set)
    ))
}

fn legacy(action: &str, tag: &str, set: &[String]) -> String {
    update(&format!(
        r#", "AttributeUpdates": {{"s": {{"Action": "{action}", "Value": {{"{tag}": [{}]}}}}}}, "ReturnValues": "UPDATED_NEW""#,
        elements(set)
    ))
}

/// The set of `tag` after `stored` and an ADD or DELETE of `operand`, as the scans compute it.
fn expected(
    action: &str,
    stored: &[String],
    operand: &[String],
    same: fn(&str, &str) -> bool,
) -> Vec<String> {
    let mut out = stored.to_vec();
    if action == "ADD" {
        for x in operand {
            if !out.iter().any(|y| same(x, y)) {
                out.push(x.clone());
            }
        }
    } else {
        out.retain(|y| !operand.iter().any(|x| same(x, y)));
    }
    out
}

fn numbers_equal(a: &str, b: &str) -> bool {
    a.parse::<dynomodel::Number>().ok() == b.parse::<dynomodel::Number>().ok()
}

fn strings_equal(a: &str, b: &str) -> bool {
    a == b
}

/// Base64 of `n` zero bytes: binaries that are prefixes of each other.
fn zeros(n: usize) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(vec![0u8; n])
}

/// An ADD or DELETE of an operand past 16 elements (whose check keeps its table) answers as the
/// legacy `AttributeUpdates` (whose operand is the update's own: no table) and as the scans, for
/// strings, numbers spelled apart and binaries that are prefixes of each other; a few added to many,
/// many to a few, overlapping halves.
#[test]
fn set_add_and_delete_by_the_checks_table_answer_as_without_it() {
    type Kind = (&'static str, fn(usize) -> String, fn(&str, &str) -> bool);
    let kinds: [Kind; 4] = [
        ("SS", |i| format!("e{i}"), strings_equal),
        ("NS", |i| format!("{i}"), numbers_equal),
        ("BS", |i| zeros(i + 1), strings_equal),
        ("SS", |i| "x".repeat(i + 1), strings_equal),
    ];
    // (stored, operand) ranges of element numbers.
    let shapes = [
        (0..40, 20..60),
        (0..3, 0..40),
        (0..40, 38..41),
        (0..17, 0..17),
        (5..30, 0..100),
    ];
    for (tag, element, same) in kinds {
        for (stored, operand) in shapes.clone() {
            let stored: Vec<String> = stored.map(element).collect();
            let mut operand: Vec<String> = operand.map(element).collect();
            if tag == "NS" {
                // Spelled apart from the stored elements: equal in value.
                operand = operand.iter().map(|n| format!("{n}.0")).collect();
            }
            for action in ["ADD", "DELETE"] {
                let setup = [put_set(tag, &stored)];
                let by_expression =
                    answer(&setup, "UpdateItem", &expression(action, tag, &operand));
                let by_legacy = answer(&setup, "UpdateItem", &legacy(action, tag, &operand));
                assert_eq!(by_expression, by_legacy, "{tag} {action}");
                let mut want = expected(action, &stored, &operand, same);
                if tag == "NS" {
                    // Stored as numbers: `40.0` is answered `40`.
                    want = want
                        .iter()
                        .map(|n| n.parse::<dynomodel::Number>().unwrap().to_string())
                        .collect();
                }
                let item = if want.is_empty() {
                    r#"{"Item":{"pk":{"S":"k"}}}"#.to_owned()
                } else {
                    format!(
                        r#"{{"Item":{{"pk":{{"S":"k"}},"s":{{"{tag}":[{}]}}}}}}"#,
                        elements(&want)
                    )
                };
                assert_eq!(by_expression.1, item, "{tag} {action}");
            }
        }
    }
}

/// The same value used by two actions (`ADD s :s` and a condition on it), and one set added to two
/// attributes: each looks its table up.
#[test]
fn one_tabled_operand_serves_every_action() {
    let set: Vec<String> = (0..30).map(|i| format!("e{i}")).collect();
    let stored: Vec<String> = (20..50).map(|i| format!("e{i}")).collect();
    let body = update(&format!(
        r#", "UpdateExpression": "ADD s :s, t :s", "ConditionExpression": "s <> :s", "ExpressionAttributeValues": {{":s": {{"SS": [{}]}}}}"#,
        elements(&set)
    ));
    let (answer, item) = answer(&[put_set("SS", &stored)], "UpdateItem", &body);
    assert_eq!(answer, "{}");
    let union = expected("ADD", &stored, &set, strings_equal);
    assert_eq!(
        item,
        format!(
            r#"{{"Item":{{"pk":{{"S":"k"}},"s":{{"SS":[{}]}},"t":{{"SS":[{}]}}}}}}"#,
            elements(&union),
            elements(&set)
        )
    );
}

/// A value set with duplicates is refused with the check's message, with or without a table (past
/// 16 elements or not), before anything else the request could meet.
#[test]
fn a_value_set_with_duplicates_is_refused_as_before() {
    for n in [3, 16, 17, 40, 2_000] {
        let mut strings: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
        strings.push("e1".to_owned());
        let body = expression("ADD", "SS", &strings);
        let (got, _) = answer(&[], "UpdateItem", &body);
        assert_eq!(
            got,
            format!(
                "ValidationException: ExpressionAttributeValues contains invalid value: One or more parameter \
                 values were invalid: Input collection [{}] contains duplicates. for key :s",
                strings.join(", ")
            ),
            "{n}"
        );
        let mut numbers: Vec<String> = (0..n).map(|i| format!("{i}")).collect();
        numbers.push("1.00".to_owned());
        let (got, _) = answer(&[], "UpdateItem", &expression("DELETE", "NS", &numbers));
        assert_eq!(
            got,
            "ValidationException: ExpressionAttributeValues contains invalid value: Input collection \
             contains duplicates for key :s",
            "{n}"
        );
        let mut binaries: Vec<String> = (0..n).map(zeros).collect();
        binaries.push(zeros(2));
        let (got, _) = answer(&[], "UpdateItem", &expression("ADD", "BS", &binaries));
        assert_eq!(
            got,
            "ValidationException: ExpressionAttributeValues contains invalid value: One or more parameter \
             values were invalid: Input collection of type BS contains duplicates. for key :s",
            "{n}"
        );
    }
}

/// An ADD or DELETE of a tabled set on an attribute of another type, or a DELETE from a missing
/// one, answers as before.
#[test]
fn a_tabled_operand_on_the_wrong_type_or_a_missing_attribute() {
    let set: Vec<String> = (0..30).map(|i| format!("e{i}")).collect();
    let number = r#"{"TableName": "tbl", "Item": {"pk": {"S": "k"}, "s": {"N": "1"}}}"#.to_owned();
    let numbers =
        r#"{"TableName": "tbl", "Item": {"pk": {"S": "k"}, "s": {"NS": ["1"]}}}"#.to_owned();
    let wrong =
        "ValidationException: An operand in the update expression has an incorrect data type";
    for setup in [number, numbers] {
        for action in ["ADD", "DELETE"] {
            let (got, _) = answer(
                std::slice::from_ref(&setup),
                "UpdateItem",
                &expression(action, "SS", &set),
            );
            assert_eq!(got, wrong, "{action} on {setup}");
        }
    }
    // DELETE from a missing attribute (and a missing item) changes nothing.
    let (got, item) = answer(&[], "UpdateItem", &expression("DELETE", "SS", &set));
    assert_eq!((got.as_str(), item.as_str()), ("{}", "{}"));
    let other = r#"{"TableName": "tbl", "Item": {"pk": {"S": "k"}, "t": {"N": "1"}}}"#.to_owned();
    let (got, item) = answer(&[other], "UpdateItem", &expression("DELETE", "SS", &set));
    assert_eq!(
        (got.as_str(), item.as_str()),
        ("{}", r#"{"Item":{"pk":{"S":"k"},"t":{"N":"1"}}}"#)
    );
}

/// `n` `AttributeUpdates` PUT entries `f0`…, each a string of 400 bytes: past 1,000 the item passes
/// 400 KB.
fn puts(n: usize) -> String {
    let text = "x".repeat(400);
    (0..n)
        .map(|i| format!(r#""f{i}":{{"Action":"PUT","Value":{{"S":"{text}"}}}}"#))
        .collect::<Vec<_>>()
        .join(",")
}

const TOO_BIG: &str =
    "ValidationException: Item size to update has exceeded the maximum allowed size";

/// An `AttributeUpdates` whose item passes 400 KB, alone and with every other error it can meet,
/// the other entry named before, among and after the others (`a…`, `f5…`, `z…`): each answer is
/// main's, whichever comes first.
#[test]
fn an_update_past_the_item_limit_with_every_other_error() {
    let big = puts(1_100);
    let stored = r#"{"TableName": "tbl", "Item": {"pk": {"S": "k"}, "n": {"N": "1"}, "ss": {"SS": ["x"]}, "gk": {"S": "g"}}}"#.to_owned();
    let body = |entries: &str, more: &str| {
        update(&format!(
            r#", "AttributeUpdates": {{{big}{entries}}}{more}"#
        ))
    };
    // Alone, on a missing item and on a stored one; nothing is written.
    for setup in [vec![], vec![stored.clone()]] {
        let (got, _) = answer(&setup, "UpdateItem", &body("", ""));
        assert_eq!(got, TOO_BIG);
    }
    let failed = "ConditionalCheckFailedException: The conditional request failed";
    for name in ["a", "f5x", "zz"] {
        let cases: [(String, &str, &str); 9] = [
            // The condition comes first.
            (
                String::new(),
                r#", "Expected": {"n": {"Value": {"N": "2"}}}"#,
                failed,
            ),
            // A key attribute updated.
            (
                r#","pk":{"Action":"PUT","Value":{"S":"other"}}"#.to_owned(),
                "",
                "ValidationException: One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key",
            ),
            // An invalid value.
            (
                format!(r#","{name}":{{"Action":"PUT","Value":{{"SS":[]}}}}"#),
                "",
                "ValidationException: One or more parameter values were invalid: An string set  may not be empty",
            ),
            (
                format!(r#","{name}":{{"Action":"PUT","Value":{{"SS":["d","d"]}}}}"#),
                "",
                "ValidationException: One or more parameter values were invalid: Input collection [d, d] contains duplicates.",
            ),
            // ADD of a set to a number, of a number to a set.
            (
                format!(r#","n":{{"Action":"ADD","Value":{{"SS":["y"]}}}},"{name}":{{"Action":"ADD","Value":{{"N":"1"}}}}"#),
                "",
                "ValidationException: Type mismatch for attribute to update",
            ),
            (
                r#","ss":{"Action":"ADD","Value":{"N":"1"}}"#.to_owned(),
                "",
                "ValidationException: Type mismatch for attribute to update",
            ),
            // DELETE from a missing attribute: nothing to delete, the size decides.
            (
                format!(r#","{name}":{{"Action":"DELETE","Value":{{"SS":["q"]}}}}"#),
                "",
                TOO_BIG,
            ),
            // An index key of the wrong type: checked after the size.
            (
                r#","gk":{"Action":"PUT","Value":{"N":"1"}}"#.to_owned(),
                "",
                TOO_BIG,
            ),
            // An index key set empty: checked before the size.
            (
                r#","gk":{"Action":"PUT","Value":{"S":""}}"#.to_owned(),
                "",
                "ValidationException: One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty string value.",
            ),
        ];
        for (entries, more, want) in cases {
            let (got, item) = answer(
                std::slice::from_ref(&stored),
                "UpdateItem",
                &body(&entries, more),
            );
            assert_eq!(got, want, "{name}: {entries}{more}");
            assert_eq!(
                item, r#"{"Item":{"gk":{"S":"g"},"n":{"N":"1"},"pk":{"S":"k"},"ss":{"SS":["x"]}}}"#,
                "nothing written: {entries}{more}"
            );
        }
    }
}

/// Top-level SETs in any order, with nested ones and index keys among them, and several index keys
/// at fault: the least name is reported, as when the SETs were sorted first.
#[test]
fn top_level_sets_in_any_order_and_index_keys_at_fault() {
    let stored = r#"{"TableName": "tbl", "Item": {"pk": {"S": "k"}, "m": {"M": {"a": {"L": [{"N": "0"}]}}}, "e": {"N": "5"}}}"#.to_owned();
    let sets: Vec<String> = (0..40).rev().map(|i| format!("z{i} = :v")).collect();
    let body = update(&format!(
        r#", "UpdateExpression": "SET {}, m.a[5] = :v, m.a[3] = :w, b = :v", "ExpressionAttributeValues": {{":v": {{"N": "1"}}, ":w": {{"N": "2"}}}}, "ReturnValues": "UPDATED_NEW""#,
        sets.join(", ")
    ));
    let (got, item) = answer(std::slice::from_ref(&stored), "UpdateItem", &body);
    let mut names: Vec<String> = (0..40).map(|i| format!("z{i}")).collect();
    names.sort();
    let written: String = names
        .iter()
        .map(|n| format!(r#","{n}":{{"N":"1"}}"#))
        .collect();
    assert_eq!(
        got,
        // `m.a[5]` and `m.a[3]` appended: no element 5 or 3 to return.
        format!(r#"{{"Attributes":{{"b":{{"N":"1"}}{written}}}}}"#)
    );
    assert!(
        item.contains(r#""m":{"M":{"a":{"L":[{"N":"0"},{"N":"2"},{"N":"1"}]}}}"#),
        "{item}"
    );
    // `gk` copied from a number and set empty: which is named depends on the names' order.
    for (first, second) in [("gk = e", "gk2 = :v"), ("gk2 = :v", "gk = e")] {
        let body = update(&format!(
            r#", "UpdateExpression": "SET {first}, {second}", "ExpressionAttributeValues": {{":v": {{"S": ""}}}}"#
        ));
        let (got, _) = answer(std::slice::from_ref(&stored), "UpdateItem", &body);
        assert_eq!(
            got,
            "ValidationException: The update expression attempted to update the secondary index key to unsupported type",
            "{first}, {second}"
        );
    }
}
