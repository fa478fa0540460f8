//! Vectors given room ahead of their contents (`fast::skeleton::Shared::members`, the scanner's
//! entries in `fast/scan.rs`, an over-long list's message in `ops/batch/render.rs`): whatever the
//! room guessed, too much or too little, every answer and every item stored is the exact path's
//! (the one pass off).

use super::respond_to;
use crate::protocol::fast::oracle::held_to_exact;
use crate::MemBackend;

/// A table `tbl` whose hash key is `pk` (S).
fn backend() -> MemBackend {
    let backend = MemBackend::new();
    let create = r#"{"TableName": "tbl", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "BillingMode": "PAY_PER_REQUEST"}"#;
    call(&backend, "CreateTable", create);
    backend
}

/// The answer to `body` (the response's text, or the fault), as text.
fn call(backend: &MemBackend, operation: &str, body: &str) -> String {
    match respond_to(backend, operation, body) {
        Ok(bytes) => String::from_utf8(bytes).unwrap(),
        Err(fault) => format!("{fault:?}"),
    }
}

/// The answer to `body` and then what GetItem answers for each of `keys`, on a fresh table, held
/// to the exact path's; the answer.
fn as_exact(operation: &str, body: &str, keys: &[String]) -> String {
    let answers = || {
        let backend = backend();
        let mut answers = vec![call(&backend, operation, body)];
        for key in keys {
            let get = format!(r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "{key}"}}}}}}"#);
            answers.push(call(&backend, "GetItem", &get));
        }
        answers
    };
    held_to_exact(answers, operation)
        .into_iter()
        .next()
        .unwrap()
}

/// An item of key `key` with `n` more members (`a0`, `a1`, … sent out of name order), one of
/// them sent twice when `twice`.
fn item(key: &str, n: usize, twice: bool) -> String {
    let mut members: Vec<String> = (0..n)
        .map(|j| format!(r#""a{j}": {{"N": "{j}"}}"#))
        .collect();
    if twice && n > 1 {
        members.push(r#""a1": {"S": "again"}"#.to_owned());
    }
    let mut item = format!(r#"{{"pk": {{"S": "{key}"}}"#);
    for member in members {
        item.push_str(", ");
        item.push_str(&member);
    }
    item.push('}');
    item
}

/// A batch's items of very different member counts, one after the other: larger than the one
/// before, smaller, past the most room a map is given (16,384 members), one of a member sent
/// twice, an empty one; stored as the exact path stores them.
#[test]
fn items_of_any_size_after_one_another_are_stored_as_the_exact_path_stores_them() {
    let sizes = [
        (3_000, false),
        (0, false),
        (5, true),
        (20_000, false),
        (1, false),
        (3_000, true),
        (2, false),
    ];
    let keys: Vec<String> = (0..sizes.len()).map(|i| format!("k{i}")).collect();
    let puts: Vec<String> = sizes
        .iter()
        .zip(&keys)
        .map(|(&(n, twice), key)| {
            format!(r#"{{"PutRequest": {{"Item": {}}}}}"#, item(key, n, twice))
        })
        .collect();
    let body = format!(r#"{{"RequestItems": {{"tbl": [{}]}}}}"#, puts.join(", "));
    assert_eq!(
        as_exact("BatchWriteItem", &body, &keys),
        r#"{"UnprocessedItems":{}}"#
    );
    // And a transaction's, a condition's values among them.
    let puts: Vec<String> = sizes
        .iter()
        .zip(&keys)
        .map(|(&(n, twice), key)| {
            format!(
                r#"{{"Put": {{"TableName": "tbl", "Item": {},
                    "ConditionExpression": "attribute_not_exists(pk) OR pk <> :v",
                    "ExpressionAttributeValues": {{":v": {{"S": "x"}}}}}}}}"#,
                item(key, n, twice)
            )
        })
        .collect();
    let body = format!(r#"{{"TransactItems": [{}]}}"#, puts.join(", "));
    assert_eq!(as_exact("TransactWriteItems", &body, &keys), "{}");
}

/// Over-long lists whose entries the scanner takes, of lengths far apart (short ones first, then
/// ones a hundred times as long, then short again; the message's entries growing with their
/// keys): the message is the exact path's, byte for byte.
#[test]
fn over_long_lists_of_entries_of_any_length_answer_as_the_exact_path() {
    let key = |i: usize| match i {
        0..=149 => format!("k{i}"),
        150..=299 => format!("k{i}-{}", "x".repeat(500)),
        _ => format!("{i}{}", "y".repeat(i % 7)),
    };
    let writes: Vec<String> = (0..400)
        .map(|i| {
            format!(
                r#"{{"PutRequest": {{"Item": {{"pk": {{"S": "{}"}}}}}}}}"#,
                key(i)
            )
        })
        .collect();
    let body = format!(r#"{{"RequestItems": {{"tbl": [{}]}}}}"#, writes.join(","));
    let answer = as_exact("BatchWriteItem", &body, &[]);
    assert!(answer.contains("Member must have length less than or equal to 25"));
    let actions: Vec<String> = (0..400)
        .map(|i| {
            format!(
                r#"{{"Put": {{"TableName": "tbl", "Item": {{"pk": {{"S": "{}"}}}}}}}}"#,
                key(i)
            )
        })
        .collect();
    let body = format!(r#"{{"TransactItems": [{}]}}"#, actions.join(" , "));
    let answer = as_exact("TransactWriteItems", &body, &[]);
    assert!(answer.contains("Member must have length less than or equal to 100"));
}
