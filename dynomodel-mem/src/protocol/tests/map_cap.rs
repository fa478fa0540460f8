//! The caps on the placeholder maps (`expr::substitution::maps_over`) through the wire: the one
//! pass reduces a map of unused entries only while the request's maps are within their caps (it
//! measures the entries it checks as it reads them), and gives the engine the whole maps past
//! them, so that the engine refuses them at its place in the order. Every answer is held to the
//! exact path's (the one pass off); in the tests every map of more than one entry takes the one
//! pass's way of entries checked and not built (`unused_values::BUILT_FIRST`).

use super::held_answer;

/// Each cap, inclusive.
const CAP: usize = 2 * 1024 * 1024;

const NAMES: &str = "ExpressionAttributeNames exceeds max size";
const VALUES: &str = "ExpressionAttributeValues exceeds max size";
const COMBINED: &str =
    "Combined size of ExpressionAttributeNames and ExpressionAttributeValues exceeds max size";

/// [`held_answer`], its message cut to 120 characters (the unused placeholders' lists are long).
fn answer(operation: &str, body: &str) -> String {
    held_answer(operation, body).chars().take(120).collect()
}

/// The answer about unused values.
const UNUSED_VALUES: &str = "Value provided in ExpressionAttributeValues unused in expressions";
/// The answer about unused names.
const UNUSED_NAMES: &str = "Value provided in ExpressionAttributeNames unused in expressions: ";

/// Values entries (JSON, comma-separated) of every type, unused, and what they measure.
fn every_type() -> (String, usize) {
    let entries = [
        (r#"":s": {"S": "0123456789"}"#, 2 + 10),
        (r#"":e": {"S": "\u00e9"}"#, 2 + 2),
        (r#"":n": {"N": "12345678901"}"#, 2 + 7),
        (r#"":b": {"B": "MDEyMzQ1Njc4OQ=="}"#, 2 + 10),
        (r#"":t": {"BOOL": true}"#, 2 + 1),
        (r#"":u": {"NULL": true}"#, 2 + 1),
        (
            r#"":l": {"L": [{"S": "0123456789"}, {"N": "1"}]}"#,
            2 + 3 + 11 + 3,
        ),
        (r#"":m": {"M": {"abcdefghij": {"S": "1"}}}"#, 2 + 15),
        (r#"":ss": {"SS": ["abc", "de"]}"#, 3 + 5),
        (r#"":ns": {"NS": ["1", "22", "333"]}"#, 3 + 7),
        (r#"":bs": {"BS": ["YWJj", "ZGU="]}"#, 3 + 5),
    ];
    let json: Vec<&str> = entries.iter().map(|(json, _)| *json).collect();
    (json.join(", "), entries.iter().map(|(_, size)| size).sum())
}

/// A filler entry `":f"` bringing a map of `rest` bytes to `total`.
fn filler(total: usize, rest: usize) -> String {
    format!(r#"":f": {{"S": "{}"}}"#, "q".repeat(total - rest - 2))
}

#[test]
fn values_checked_and_reduced_within_the_cap_whole_past_it() {
    let (typed, typed_size) = every_type();
    // `:z` (3 bytes) used, the rest unused: the map after or before its expression.
    for total in [CAP, CAP + 1] {
        let values = format!(
            r#"{{":z": {{"S": "1"}}, {typed}, {}}}"#,
            filler(total, 3 + typed_size)
        );
        let expected = if total > CAP { VALUES } else { UNUSED_VALUES };
        for (first, last) in [
            (
                r#""UpdateExpression": "SET z = :z""#.to_owned(),
                format!(r#""ExpressionAttributeValues": {values}"#),
            ),
            (
                format!(r#""ExpressionAttributeValues": {values}"#),
                r#""UpdateExpression": "SET z = :z""#.to_owned(),
            ),
        ] {
            let body = format!(
                r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, {first}, {last}}}"#
            );
            let message = answer("UpdateItem", &body);
            assert!(message.starts_with(expected), "{total}: {message}");
        }
    }
}

#[test]
fn a_key_sent_twice_counts_once() {
    // `:s` twice: past the cap by the one pass's bound, within it by the engine's measure of the
    // map it keeps (the later value); and one byte more, past both.
    for (total, expected) in [(CAP, UNUSED_VALUES), (CAP + 1, VALUES)] {
        let body = format!(
            r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, "UpdateExpression": "SET z = :z",
                "ExpressionAttributeValues": {{":z": {{"S": "1"}}, ":s": {{"S": "0123456789"}},
                {}, ":s": {{"S": "0123456789"}}}}}}"#,
            filler(total, 3 + 12)
        );
        let message = answer("UpdateItem", &body);
        assert!(message.starts_with(expected), "{total}: {message}");
    }
    // The kept unused value resized where the used ones are past the cap already.
    let body = format!(
        r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, "UpdateExpression": "SET z = :f",
            "ExpressionAttributeValues": {{":u": {{"S": "u"}}, {}}}}}"#,
        filler(CAP + 1, 3)
    );
    assert_eq!(answer("UpdateItem", &body), VALUES);
}

#[test]
fn every_operation_with_values_at_the_bound() {
    for total in [CAP, CAP + 1] {
        let values = format!(r#"{{":z": {{"S": "a"}}, {}}}"#, filler(total, 3));
        let expected = if total > CAP { VALUES } else { UNUSED_VALUES };
        let bodies = [
            (
                "PutItem",
                format!(
                    r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "b"}}}}, "ConditionExpression": "z <> :z", "ExpressionAttributeValues": {values}}}"#
                ),
            ),
            (
                "DeleteItem",
                format!(
                    r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, "ConditionExpression": "z <> :z", "ExpressionAttributeValues": {values}}}"#
                ),
            ),
            (
                "Query",
                format!(
                    r#"{{"TableName": "tbl", "KeyConditionExpression": "pk = :z", "ExpressionAttributeValues": {values}}}"#
                ),
            ),
            (
                "Scan",
                format!(
                    r#"{{"TableName": "tbl", "FilterExpression": "z <> :z", "ExpressionAttributeValues": {values}}}"#
                ),
            ),
            (
                "TransactWriteItems",
                format!(
                    r#"{{"TransactItems": [{{"ConditionCheck": {{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, "ConditionExpression": "z <> :z", "ExpressionAttributeValues": {values}}}}}]}}"#
                ),
            ),
        ];
        for (operation, body) in bodies {
            let message = answer(operation, &body);
            assert!(
                message.starts_with(expected),
                "{operation} {total}: {message}"
            );
        }
    }
}

/// Names `#f0`, `#f1`… of `total` bytes with their keys, each within the wire's 65,535 bytes: the
/// JSON members, and the keys.
fn filler_names(total: usize) -> (String, Vec<String>) {
    let count = total.div_ceil(60_000);
    let keys: Vec<String> = (0..count).map(|i| format!("#f{i:02}")).collect();
    let mut left = total;
    let members: Vec<String> = keys
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let share = left / (count - i);
            left -= share;
            format!(r#""{key}": "{}""#, "n".repeat(share - key.len()))
        })
        .collect();
    (members.join(", "), keys)
}

/// `#g` (used), `#u` and filler names, unused, bringing the names to `total`.
fn names_at(total: usize) -> String {
    let (fillers, _) = filler_names(total - 3 - 3);
    format!(r##"{{"#g": "g", "#u": "u", {fillers}}}"##)
}

#[test]
fn names_reduced_within_the_cap_whole_past_it() {
    for total in [CAP, CAP + 1] {
        let names = names_at(total);
        let expected = if total > CAP { NAMES } else { UNUSED_NAMES };
        let get = format!(
            r##"{{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, "ProjectionExpression": "#g", "ExpressionAttributeNames": {names}}}"##
        );
        let message = answer("GetItem", &get);
        assert!(message.starts_with(expected), "GetItem {total}: {message}");
        let scan = format!(
            r##"{{"TableName": "tbl", "ExpressionAttributeNames": {names}, "ProjectionExpression": "#g"}}"##
        );
        let message = answer("Scan", &scan);
        assert!(message.starts_with(expected), "Scan {total}: {message}");
        let batch = format!(
            r##"{{"RequestItems": {{"tbl": {{"Keys": [{{"pk": {{"S": "a"}}}}], "ProjectionExpression": "#g", "ExpressionAttributeNames": {names}}}}}}}"##
        );
        let message = answer("BatchGetItem", &batch);
        assert!(
            message.starts_with(expected),
            "BatchGetItem {total}: {message}"
        );
    }
}

#[test]
fn the_two_maps_together_whichever_is_reduced() {
    let half = CAP / 2;
    for (names_total, values_total, expected) in [
        (half, half, UNUSED_NAMES),
        (half + 1, half, COMBINED),
        (half, half + 1, COMBINED),
        (CAP + 1, 10, NAMES),
        (CAP + 1, CAP + 1, NAMES),
        (10, CAP + 1, VALUES),
    ] {
        // Unused names with every value used; unused values with every name used.
        let names_unused = names_at(names_total);
        let values_used = format!(
            r#"{{":z": {{"S": "a"}}, ":f": {{"S": "{}"}}}}"#,
            "q".repeat(values_total - 3 - 2)
        );
        let scan = format!(
            r##"{{"TableName": "tbl", "FilterExpression": "#g <> :z AND f <> :f", "ExpressionAttributeNames": {names_unused}, "ExpressionAttributeValues": {values_used}}}"##
        );
        let message = answer("Scan", &scan);
        assert!(
            message.starts_with(expected),
            "{names_total} + {values_total}: {message}"
        );
        let (fillers, keys) = filler_names(names_total - 3);
        let names_used = format!(r##"{{"#g": "g", {fillers}}}"##);
        let values_unused = format!(
            r#"{{":z": {{"S": "a"}}, ":u": {{"S": "u"}}, ":f": {{"S": "{}"}}}}"#,
            "q".repeat(values_total - 3 - 3 - 2)
        );
        let filter: Vec<String> = keys.iter().map(|key| format!("{key} <> :z")).collect();
        let filter = filter.join(" AND ");
        let scan = format!(
            r##"{{"TableName": "tbl", "FilterExpression": "#g <> :z AND f <> :f AND {filter}", "ExpressionAttributeNames": {names_used}, "ExpressionAttributeValues": {values_unused}}}"##
        );
        let expected = if expected == UNUSED_NAMES {
            UNUSED_VALUES
        } else {
            expected
        };
        let message = answer("Scan", &scan);
        assert!(
            message.starts_with(expected),
            "{names_total} + {values_total}: {message}"
        );
    }
}

#[test]
fn what_comes_before_the_caps_comes_first_on_the_wire() {
    let values = format!(r#"{{":z": {{"S": "a"}}, {}}}"#, filler(CAP + 1, 3));
    let update = |table: &str, key: &str, expression: &str| {
        format!(
            r#"{{"TableName": "{table}", "Key": {{"pk": {key}}}, "UpdateExpression": "{expression}", "ExpressionAttributeValues": {values}}}"#
        )
    };
    let missing = answer("UpdateItem", &update("nope", r#"{"S": "a"}"#, "SET z = :z"));
    assert!(
        missing.starts_with("Requested resource not found"),
        "{missing}"
    );
    let mistyped = answer("UpdateItem", &update("tbl", r#"{"N": "1"}"#, "SET z = :z"));
    assert!(
        mistyped.starts_with("The provided key element"),
        "{mistyped}"
    );
    let syntax = answer(
        "UpdateItem",
        &update("tbl", r#"{"S": "a"}"#, "SET z = = :z"),
    );
    assert_eq!(syntax, VALUES);
    let empty_set = format!(
        r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, "UpdateExpression": "SET z = :z", "ExpressionAttributeValues": {{":z": {{"S": "a"}}, ":e": {{"SS": []}}, {}}}}}"#,
        filler(CAP + 1, 3 + 2)
    );
    let message = answer("UpdateItem", &empty_set);
    assert!(
        message.starts_with("ExpressionAttributeValues contains invalid value"),
        "{message}"
    );
}
