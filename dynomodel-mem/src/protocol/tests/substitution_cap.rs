//! The cap on what one expression substitutes (`expr::substitution`), through the wire: at the
//! bound and one byte past it, along each of the one pass's ways with the maps (values and names
//! after or before their expressions, unused ones reduced, an item past its size only checked).
//! Every answer is held to the exact path's (the one pass off).

use super::held_answer as answer;

/// The cap, inclusive.
const CAP: usize = 2 * 1024 * 1024;

fn refused(kind: &str) -> String {
    format!("Invalid {kind}Expression: Expression size has exceeded the maximum allowed size;")
}

/// A JSON string of `len` `q`s.
fn q(len: usize) -> String {
    format!("\"{}\"", "q".repeat(len))
}

/// The condition of the tests, `:f` twice: each S of `len` bytes brings it to `19 + 2 × len`.
const TWICE: &str = "b <> :f AND c <> :f";

/// The length of `:f` that brings [`TWICE`] to `total` (even).
fn half(total: usize) -> usize {
    (total - TWICE.len()) / 2
}

#[test]
fn conditions_with_the_values_after_or_before_them() {
    // At the bound (`:z` takes the byte the odd text leaves), and one byte past it.
    let text = format!("{TWICE} AND d <> :z");
    let f_len = (CAP - text.len()) / 2;
    for (extra, expected) in [(0, "ok".to_owned()), (1, refused("Condition"))] {
        let z_len = CAP - text.len() - 2 * f_len + extra;
        assert_eq!(text.len() + 2 * f_len + z_len, CAP + extra);
        let (f, z) = (q(f_len), q(z_len));
        let after = format!(
            r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "b"}}}},
                "ConditionExpression": "{text}",
                "ExpressionAttributeValues": {{":f": {{"S": {f}}}, ":z": {{"S": {z}}}}}}}"#
        );
        assert_eq!(answer("PutItem", &after), expected, "values after");
        let before = format!(
            r#"{{"ExpressionAttributeValues": {{":f": {{"S": {f}}}, ":z": {{"S": {z}}}}},
                "TableName": "tbl", "Item": {{"pk": {{"S": "b"}}}},
                "ConditionExpression": "{text}"}}"#
        );
        assert_eq!(answer("PutItem", &before), expected, "values before");
    }
}

#[test]
fn updates_queries_and_scans() {
    let f = q(half(CAP) + 1);
    let update = format!(
        r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, "UpdateExpression": "SET z = :z",
            "ConditionExpression": "{TWICE}",
            "ExpressionAttributeValues": {{":f": {{"S": {f}}}, ":z": {{"N": "1"}}}}}}"#
    );
    assert_eq!(answer("UpdateItem", &update), refused("Condition"));
    // One byte shorter than the condition: one more in each value.
    let f = q(half(CAP) + 2);
    let set = format!(
        r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, "UpdateExpression": "SET b = :f, c = :f",
            "ExpressionAttributeValues": {{":f": {{"S": {f}}}}}}}"#
    );
    assert_eq!(answer("UpdateItem", &set), refused("Update"));
    let f = q(half(CAP) + 1);
    let query = format!(
        r#"{{"TableName": "tbl", "KeyConditionExpression": "pk = :a", "FilterExpression": "{TWICE}",
            "ExpressionAttributeValues": {{":a": {{"S": "a"}}, ":f": {{"S": {f}}}}}}}"#
    );
    assert_eq!(answer("Query", &query), refused("Filter"));
    let scan = format!(
        r#"{{"TableName": "tbl", "FilterExpression": "{TWICE}",
            "ExpressionAttributeValues": {{":f": {{"S": {f}}}}}}}"#
    );
    assert_eq!(answer("Scan", &scan), refused("Filter"));
    let within = q(half(CAP));
    let scan = format!(
        r#"{{"TableName": "tbl", "FilterExpression": "{TWICE}",
            "ExpressionAttributeValues": {{":f": {{"S": {within}}}}}}}"#
    );
    assert_eq!(answer("Scan", &scan), "ok");
}

/// Unused values past the point where the one pass only checks them (a reduced map): their
/// message comes before the cap, as with the whole map.
#[test]
fn unused_values_come_first() {
    let f = q(half(CAP) + 1);
    let unused: String = (0..2_000)
        .map(|i| format!(r#", ":u{i}": {{"S": "x"}}"#))
        .collect();
    let body = format!(
        r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "b"}}}}, "ConditionExpression": "{TWICE}",
            "ExpressionAttributeValues": {{":f": {{"S": {f}}}{unused}}}}}"#
    );
    let message = answer("PutItem", &body);
    assert!(
        message.starts_with("Value provided in ExpressionAttributeValues unused in expressions"),
        "{}",
        &message[..message.len().min(200)]
    );
}

/// A projection's names, decoded by the one pass: at the bound, past it, and with unused names
/// (a reduced map), whose message comes first while the map is within its own cap (its text's
/// separators leave the projection 64 bytes more than the map), and whose map's cap comes first
/// past it (`tests::map_cap`).
#[test]
fn projections_of_names() {
    // 33 names (`#a0`…), distinct, their bytes shared out to bring the projection to `total`.
    let names = |total: usize, unused: usize| {
        let keys: Vec<String> = (0..33).map(|i| format!("#a{i}")).collect();
        let text = keys.join(", ");
        let mut left = total - text.len();
        let mut members = Vec::new();
        for (i, k) in keys.iter().enumerate() {
            let len = left / (keys.len() - i);
            left -= len;
            members.push(format!(r#""{k}": "{i:02}{}""#, "x".repeat(len - 2)));
        }
        members.extend((0..unused).map(|i| format!(r##""#u{i}": "u""##)));
        (text, members.join(", "))
    };
    for (total, unused, expected) in [
        (CAP, 0, "ok".to_owned()),
        (CAP + 1, 0, refused("Projection")),
        (CAP + 1, 4, String::new()),
        (
            CAP + 1,
            2_000,
            "ExpressionAttributeNames exceeds max size".to_owned(),
        ),
    ] {
        let (text, members) = names(total, unused);
        let get = format!(
            r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "a"}}}}, "ProjectionExpression": "{text}",
                "ExpressionAttributeNames": {{{members}}}}}"#
        );
        let message = answer("GetItem", &get);
        if expected.is_empty() {
            assert!(
                message.starts_with("Value provided in ExpressionAttributeNames unused"),
                "{}",
                &message[..message.len().min(200)]
            );
            continue;
        }
        assert_eq!(message, expected, "GetItem of {total}");
        let batch = format!(
            r#"{{"RequestItems": {{"tbl": {{"Keys": [{{"pk": {{"S": "a"}}}}],
                "ProjectionExpression": "{text}", "ExpressionAttributeNames": {{{members}}}}}}}}}"#
        );
        assert_eq!(
            answer("BatchGetItem", &batch),
            expected,
            "BatchGetItem of {total}"
        );
    }
}

/// A PutItem whose item is past its size, which the one pass only checks from there on: the
/// item's size comes before the cap.
#[test]
fn an_oversized_item_comes_first() {
    let f = q(half(CAP) + 1);
    let body = format!(
        r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "b"}}, "x": {{"S": {}}}}},
            "ConditionExpression": "{TWICE}", "ExpressionAttributeValues": {{":f": {{"S": {f}}}}}}}"#,
        q(500_000)
    );
    assert_eq!(
        answer("PutItem", &body),
        "Item size has exceeded the maximum allowed size"
    );
}

/// A transaction's actions: the cap before the table is looked up.
#[test]
fn transactions_refuse_it_before_their_tables() {
    let f = q(half(CAP) + 1);
    let body = format!(
        r#"{{"TransactItems": [{{"ConditionCheck": {{"TableName": "missing",
            "Key": {{"pk": {{"S": "a"}}}}, "ConditionExpression": "{TWICE}",
            "ExpressionAttributeValues": {{":f": {{"S": {f}}}}}}}}}]}}"#
    );
    assert_eq!(answer("TransactWriteItems", &body), refused("Condition"));
}
