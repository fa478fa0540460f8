//! Unused `ExpressionAttributeNames` through the wire: the one pass hands the engine a reduced map
//! and puts the whole map's message back (`fast::unused`); every answer here is held to the exact
//! path's (the one pass off), on the engine, and the oracle holds each reduced map to the whole one.

use crate::protocol::fast::oracle::exact_only;
use crate::protocol::{respond, Context, Fault};
use crate::MemBackend;

fn run<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

/// A table `tbl` whose keys are `pk` (S) and `sk` (S), holding the item `a`/`1`.
fn backend() -> MemBackend {
    let backend = MemBackend::new();
    let create = r#"{"TableName": "tbl",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "S"}],
        "BillingMode": "PAY_PER_REQUEST"}"#;
    let put =
        r#"{"TableName": "tbl", "Item": {"pk": {"S": "a"}, "sk": {"S": "1"}, "v": {"N": "1"}}}"#;
    for (operation, body) in [("CreateTable", create), ("PutItem", put)] {
        run(respond(
            &Context::default(),
            &backend,
            operation,
            body.as_bytes(),
        ))
        .unwrap();
    }
    backend
}

/// The answer to `body` (a message for a fault, the body's text else), checked to be the exact
/// path's too, each on a fresh table.
fn answer(operation: &str, body: &str) -> String {
    let call = || {
        run(respond(
            &Context::default(),
            &backend(),
            operation,
            body.as_bytes(),
        ))
    };
    let fast = call();
    let exact = exact_only(call);
    assert_eq!(
        format!("{fast:?}"),
        format!("{exact:?}"),
        "{operation}: {}",
        &body[..body.len().min(300)]
    );
    match fast {
        Ok(bytes) => String::from_utf8(bytes).unwrap(),
        Err(Fault::Backend(e)) => e.message(),
        Err(other) => format!("{other:?}"),
    }
}

const KEY: &str = r#""Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}"#;

/// An UpdateItem of the item with `members` (each with a leading comma).
fn update(members: &str) -> String {
    format!(r#"{{"TableName": "tbl", {KEY}{members}}}"#)
}

fn unused_names(keys: &str) -> String {
    format!("Value provided in ExpressionAttributeNames unused in expressions: keys: {{{keys}}}")
}

#[test]
fn unused_names_are_all_listed_before_or_after_the_expression() {
    let expected = unused_names("#c, #b");
    let after = update(
        r##", "UpdateExpression": "SET #a = :v", "ExpressionAttributeValues": {":v": {"N": "2"}},
        "ExpressionAttributeNames": {"#c": "c", "#a": "a", "#b": "b"}"##,
    );
    assert_eq!(answer("UpdateItem", &after), expected);
    let before = update(
        r##", "ExpressionAttributeNames": {"#c": "c", "#a": "a", "#b": "b"},
        "ExpressionAttributeValues": {":v": {"N": "2"}}, "UpdateExpression": "SET #a = :v""##,
    );
    assert_eq!(answer("UpdateItem", &before), expected);
}

#[test]
fn escaped_and_repeated_keys_are_the_exact_paths() {
    // `#\u0062` is `#b`; `#b` twice is one key; the used `#a` twice keeps the last name.
    let body = update(
        r##", "UpdateExpression": "SET #a = :v", "ExpressionAttributeValues": {":v": {"N": "2"}},
        "ExpressionAttributeNames": {"#a": "x", "#\u0062": "b", "#b": "b2", "#a": "\u0061",
        "#d\u005f1": "d"}"##,
    );
    assert_eq!(answer("UpdateItem", &body), unused_names("#d_1, #b"));
    // A used key sent twice and nothing unused: the request runs, with the last name.
    let body = update(
        r##", "UpdateExpression": "SET #a = :v", "ExpressionAttributeValues": {":v": {"N": "2"}},
        "ExpressionAttributeNames": {"#a": "x", "#a": "w"}, "ReturnValues": "UPDATED_NEW""##,
    );
    assert_eq!(
        answer("UpdateItem", &body),
        r#"{"Attributes":{"w":{"N":"2"}}}"#
    );
}

#[test]
fn the_maps_own_errors_come_first() {
    let with = |names: &str| {
        update(&format!(
            r#", "UpdateExpression": "SET #a = :v", "ExpressionAttributeValues": {{":v": {{"N": "2"}}}},
            "ExpressionAttributeNames": {names}"#
        ))
    };
    assert_eq!(
        answer("UpdateItem", &with(r#"{}"#)),
        "ExpressionAttributeNames must not be empty"
    );
    assert_eq!(
        answer("UpdateItem", &with(r##"{"#a": "a", "#b": ""}"##)),
        "ExpressionAttributeNames contains invalid value: Empty attribute name for key #b"
    );
    assert_eq!(
        answer("UpdateItem", &with(r##"{"#a": "a", "b": "b", "#c": "c"}"##)),
        "ExpressionAttributeNames contains invalid key: Syntax error; key: \"b\""
    );
    // A `null` entry is absent, and hides the entry of its key sent before it.
    assert_eq!(
        answer(
            "UpdateItem",
            &with(r##"{"#a": "a", "#b": "b", "#b": null, "#c": "c", "#d": null}"##)
        ),
        unused_names("#c")
    );
    // The member sent twice: the last one counts.
    let twice = |first: &str, last: &str| {
        update(&format!(
            r#", "UpdateExpression": "SET #a = :v", "ExpressionAttributeValues": {{":v": {{"N": "2"}}}},
            "ExpressionAttributeNames": {first}, "ExpressionAttributeNames": {last}"#
        ))
    };
    let all = r##"{"#a": "a"}"##;
    let some = r##"{"#a": "a", "#z": "z"}"##;
    assert_eq!(answer("UpdateItem", &twice(some, all)), "{}");
    assert_eq!(answer("UpdateItem", &twice(all, some)), unused_names("#z"));
    answer("UpdateItem", &twice(some, "null"));
}

#[test]
fn earlier_checks_come_before_the_unused_names() {
    let names = r##""ExpressionAttributeNames": {"#a": "a", "#b": "b", "#c": "c"}"##;
    // No expression at all.
    let body = update(&format!(", {names}"));
    assert_eq!(
        answer("UpdateItem", &body),
        "ExpressionAttributeNames can only be specified when using expressions"
    );
    // A value placeholder not defined; a value the map refuses; a syntax error; a name not
    // defined (its key is then not among the map's).
    for (expression, values, message) in [
        ("SET #a = :w", r#"{":v": {"N": "2"}}"#, "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :w"),
        ("SET #a = :v", r#"{":v": {"SS": []}}"#, "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :v"),
        ("SET #a = = :v", r#"{":v": {"N": "2"}}"#, "Invalid UpdateExpression: Syntax error; token: \"=\", near: \"= = :v\""),
        ("SET #x = :v", r#"{":v": {"N": "2"}}"#, "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #x"),
    ] {
        let body = update(&format!(
            r#", "UpdateExpression": "{expression}", "ExpressionAttributeValues": {values}, {names}"#
        ));
        assert_eq!(answer("UpdateItem", &body), message, "{expression} {values}");
    }
    // Unused values as well: the names are reported first.
    let body = update(&format!(
        r#", "UpdateExpression": "SET #a = :v", "ExpressionAttributeValues": {{":v": {{"N": "2"}}, ":w": {{"N": "3"}}}}, {names}"#
    ));
    assert_eq!(answer("UpdateItem", &body), unused_names("#c, #b"));
    // A table that does not exist.
    let body = format!(
        r#"{{"TableName": "nope", {KEY}, "UpdateExpression": "SET #a = :v", "ExpressionAttributeValues": {{":v": {{"N": "2"}}}}, {names}}}"#
    );
    answer("UpdateItem", &body);
}

#[test]
fn every_operation_with_names_lists_them_all() {
    let names = r##""ExpressionAttributeNames": {"#p": "pk", "#u1": "x", "#u2": "y"}"##;
    let unused = unused_names("#u2, #u1");
    let key = r#""Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}"#;
    let cases = [
        (
            "GetItem",
            format!(r##"{{"TableName": "tbl", {key}, "ProjectionExpression": "#p", {names}}}"##),
        ),
        (
            "DeleteItem",
            format!(
                r##"{{"TableName": "tbl", {key}, "ConditionExpression": "attribute_exists(#p)", {names}}}"##
            ),
        ),
        (
            "PutItem",
            format!(
                r##"{{"TableName": "tbl", "Item": {{"pk": {{"S": "b"}}, "sk": {{"S": "1"}}}}, "ConditionExpression": "attribute_not_exists(#p)", {names}}}"##
            ),
        ),
        (
            "Query",
            format!(
                r##"{{"TableName": "tbl", "KeyConditionExpression": "#p = :a", "ExpressionAttributeValues": {{":a": {{"S": "a"}}}}, {names}}}"##
            ),
        ),
        (
            "Scan",
            format!(
                r##"{{"TableName": "tbl", "FilterExpression": "attribute_exists(#p)", {names}}}"##
            ),
        ),
        (
            "Query",
            format!(
                r##"{{"TableName": "tbl", "KeyConditionExpression": "pk = :a", "FilterExpression": "#p = :a", "ProjectionExpression": "sk", "ExpressionAttributeValues": {{":a": {{"S": "a"}}}}, {names}}}"##
            ),
        ),
    ];
    for (operation, body) in cases {
        assert_eq!(answer(operation, &body), unused, "{operation}");
    }
}

#[test]
fn many_unused_names_in_javas_order() {
    // "Aa" and "BB" share Java's hash: `#Aa` and `#BB` too, listed in sorted order in their bucket.
    let mut entries: Vec<String> = (0..3000)
        .rev()
        .map(|i| format!(r##""#n{i}": "n{i}""##))
        .collect();
    entries.push(r##""#BB": "bb""##.to_owned());
    entries.push(r##""#Aa": "aa""##.to_owned());
    entries.push(r##""#n7": "again""##.to_owned());
    entries.push(r##""#a": "a""##.to_owned());
    let body = update(&format!(
        r#", "UpdateExpression": "SET #a = :v", "ExpressionAttributeValues": {{":v": {{"N": "2"}}}},
        "ExpressionAttributeNames": {{{}}}"#,
        entries.join(", ")
    ));
    let message = answer("UpdateItem", &body);
    assert_eq!(
        message.matches(", ").count(),
        3001,
        "every unused name once"
    );
    assert!(message.find("#Aa").unwrap() < message.find("#BB").unwrap());
}
