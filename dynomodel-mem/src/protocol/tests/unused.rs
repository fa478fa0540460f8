//! Unused `ExpressionAttributeNames` through the wire: the one pass hands the engine a reduced map
//! and puts the whole map's message back (`fast::unused`); every answer here is held to the exact
//! path's (the one pass off), on the engine, and the oracle holds each reduced map to the whole one.

use super::respond_to;
use crate::protocol::fast::oracle::held_to_exact;
use crate::protocol::Fault;
use crate::MemBackend;

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
        respond_to(&backend, operation, body).unwrap();
    }
    backend
}

/// The answer to `body` (a message for a fault, the body's text else), checked to be the exact
/// path's too, each on a fresh table.
fn answer(operation: &str, body: &str) -> String {
    let call = || respond_to(&backend(), operation, body);
    let context = format!("{operation}: {}", &body[..body.len().min(300)]);
    match held_to_exact(call, &context) {
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

fn unused_values(keys: &str) -> String {
    format!("Value provided in ExpressionAttributeValues unused in expressions: keys: {{{keys}}}")
}

/// `n` unused values `:u0`, `:u1`, … (each with a leading comma), of `{"S": "x"}`.
fn fillers(n: usize) -> String {
    (0..n)
        .map(|i| format!(r#", ":u{i}": {{"S": "x"}}"#))
        .collect()
}

/// An UpdateItem setting `a` to `:v`, with the values map `{values}` before or after the expression.
fn set_a(values: &str, before: bool) -> String {
    let expression = r#""UpdateExpression": "SET a = :v""#;
    let values = format!(r#""ExpressionAttributeValues": {{{values}}}"#);
    if before {
        update(&format!(", {values}, {expression}"))
    } else {
        update(&format!(", {expression}, {values}"))
    }
}

#[test]
fn unused_values_are_all_listed_before_or_after_the_expression() {
    let values = r#"":c": {"N": "1"}, ":v": {"N": "2"}, ":b": {"S": "b"}"#;
    for before in [false, true] {
        assert_eq!(
            answer("UpdateItem", &set_a(values, before)),
            unused_values(":b, :c")
        );
        // Many, on both sides of the used one.
        let many = format!(
            r#"":w": {{"N": "1"}}{}, ":v": {{"N": "2"}}{}"#,
            fillers(100),
            fillers(3)
        );
        let message = answer("UpdateItem", &set_a(&many, before));
        assert_eq!(
            message.matches(", ").count(),
            100,
            "every unused value once"
        );
        // Every value used: the request runs, with the last of a key sent twice.
        let used = r#"":v": {"N": "1"}, ":v": {"N": "7"}"#;
        let body = set_a(used, before).replace('}', r#", "ReturnValues": "UPDATED_NEW"}"#);
        let body = body.replacen(r#", "ReturnValues": "UPDATED_NEW"}"#, "}", 7);
        answer("UpdateItem", &body);
    }
}

#[test]
fn used_values_keep_their_last_value_and_escaped_keys_are_the_exact_paths() {
    let body = |values: &str| {
        update(&format!(
            r#", "UpdateExpression": "SET a = :v, b = :w", "ExpressionAttributeValues": {{{values}}},
            "ReturnValues": "UPDATED_NEW""#
        ))
    };
    // `:v` sent three times (the last one counts), `:w` after unused ones.
    let values = format!(
        r#"":v": {{"N": "1"}}, ":z": {{"N": "0"}}{}, ":v": {{"N": "2"}}, ":w": {{"S": "w"}}, ":v": {{"N": "3"}}"#,
        fillers(5)
    );
    let message = answer("UpdateItem", &body(&values));
    assert!(message.starts_with(&unused_values("")[..70]), "{message}");
    // Nothing unused: the last of each key is set.
    let values = r#"":v": {"N": "1"}, ":w": {"S": "w"}, ":v": {"N": "3"}, ":w": {"S": "x"}"#;
    assert_eq!(
        answer("UpdateItem", &body(values)),
        r#"{"Attributes":{"a":{"N":"3"},"b":{"S":"x"}}}"#
    );
    // Escaped keys: `:\u0076` is `:v`, `:\u0078` an unused `:x`.
    let values =
        r#"":w": {"S": "w"}, ":\u0078": {"N": "1"}, ":\u0076": {"N": "4"}, ":y": {"N": "1"}"#;
    assert_eq!(answer("UpdateItem", &body(values)), unused_values(":x, :y"));
    let values = r#"":w": {"S": "w"}, ":y": {"N": "1"}, ":\u0076": {"N": "4"}"#;
    assert_eq!(answer("UpdateItem", &body(values)), unused_values(":y"));
}

#[test]
fn the_values_maps_own_errors_come_first() {
    let with = |values: &str| {
        update(&format!(
            r#", "UpdateExpression": "SET a = :v", "ExpressionAttributeValues": {values}"#
        ))
    };
    assert_eq!(
        answer("UpdateItem", &with("{}")),
        "ExpressionAttributeValues must not be empty"
    );
    assert_eq!(
        answer(
            "UpdateItem",
            &with(r#"{":v": {"N": "1"}, "w": {"N": "2"}, ":x": {"N": "3"}}"#)
        ),
        "ExpressionAttributeValues contains invalid key: Syntax error; key: \"w\""
    );
    // The member sent twice: the last one counts.
    let twice = |first: &str, last: &str| {
        update(&format!(
            r#", "UpdateExpression": "SET a = :v", "ExpressionAttributeValues": {first},
            "ExpressionAttributeValues": {last}"#
        ))
    };
    let all = r#"{":v": {"N": "1"}}"#;
    let some = r#"{":v": {"N": "1"}, ":z": {"N": "2"}, ":y": {"N": "2"}}"#;
    assert_eq!(answer("UpdateItem", &twice(some, all)), "{}");
    assert_eq!(
        answer("UpdateItem", &twice(all, some)),
        unused_values(":z, :y")
    );
    answer("UpdateItem", &twice(some, "null"));
}

/// Values the engine or the decoder refuses, each as an unused value (and the empty string, which
/// both accept).
const INVALID: &[&str] = &[
    r#"{"S": ""}"#,
    r#"{"SS": []}"#,
    r#"{"NS": []}"#,
    r#"{"SS": ["a", "a"]}"#,
    r#"{"NS": ["1", "1.0"]}"#,
    r#"{"BS": ["YQ==", "YQ=="]}"#,
    r#"{"N": "x"}"#,
    r#"{"N": "1e999"}"#,
    r#"{"NULL": false}"#,
    r#"{"S": "a", "N": "1"}"#,
    r#"{"Q": "a"}"#,
    r#"{}"#,
    r#"{"M": {"": {"S": "x"}}}"#,
    r#"{"L": [{"N": "x"}]}"#,
    r#"{"S": 1}"#,
    r#"{"B": "!"}"#,
];

/// A value nested `levels` deep (a scalar is one level).
fn nested(levels: usize) -> String {
    let mut value = r#"{"S": "x"}"#.to_owned();
    for _ in 1..levels {
        value = format!(r#"{{"L": [{value}]}}"#);
    }
    value
}

#[test]
fn an_invalid_unused_value_is_reported_as_the_exact_path_reports_it() {
    let deep = [nested(33), nested(129)];
    let invalid = INVALID
        .iter()
        .copied()
        .chain(deep.iter().map(String::as_str));
    for value in invalid {
        for at in [0, 4, 9] {
            let mut entries: Vec<String> = (0..9)
                .map(|i| format!(r#"":u{i}": {{"S": "x"}}"#))
                .collect();
            entries.insert(at, format!(r#"":bad": {value}"#));
            let values = format!(r#"":v": {{"N": "1"}}, {}"#, entries.join(", "));
            for before in [false, true] {
                let message = answer("UpdateItem", &set_a(&values, before));
                assert!(!message.is_empty(), "{value} at {at}");
            }
        }
    }
    // Nested deeper than an item may be, not deeper than a value may be: unused, and listed.
    let values = format!(
        r#"":v": {{"N": "1"}}, ":deep": {}, ":u": {{"N": "1"}}"#,
        nested(40)
    );
    assert_eq!(
        answer("UpdateItem", &set_a(&values, false)),
        unused_values(":deep, :u")
    );
    // Scan and Query hold the map to an item's nesting.
    let body = format!(
        r#"{{"TableName": "tbl", "FilterExpression": "v = :v", "ExpressionAttributeValues": {{":v": {{"N": "1"}}, ":deep": {}, ":u": {{"N": "1"}}}}}}"#,
        nested(40)
    );
    assert!(answer("Scan", &body).starts_with("Nesting Levels"));
}

#[test]
fn an_invalid_used_value_after_unused_ones_is_reported() {
    for value in INVALID {
        let values = format!(r#"{}, ":v": {value}, ":w": {{"N": "1"}}"#, &fillers(6)[2..]);
        for before in [false, true] {
            let message = answer("UpdateItem", &set_a(&values, before));
            let accepted = *value == r#"{"S": ""}"#;
            assert_eq!(
                message.starts_with("Value provided"),
                accepted,
                "{value}: {message}"
            );
        }
    }
}

#[test]
fn earlier_checks_come_before_the_unused_values() {
    let values = format!(
        r#""ExpressionAttributeValues": {{":v": {{"N": "2"}}{}}}"#,
        fillers(4)
    );
    // No expression at all.
    assert_eq!(
        answer("UpdateItem", &update(&format!(", {values}"))),
        "ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and ConditionExpression are null"
    );
    for (expression, message) in [
        ("SET a = :w", "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :w"),
        ("SET a = = :v", "Invalid UpdateExpression: Syntax error; token: \"=\", near: \"= = :v\""),
        ("SET a = :v + :v", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S"),
    ] {
        let with = |values: &str| {
            let values = values.replace(r#"":v": {"N": "2"}"#, r#"":v": {"S": "2"}"#);
            update(&format!(r#", "UpdateExpression": "{expression}", {values}"#))
        };
        let body = if expression.contains('+') { with(&values) } else { update(&format!(r#", "UpdateExpression": "{expression}", {values}"#)) };
        assert_eq!(answer("UpdateItem", &body), message, "{expression}");
    }
    // Unused names as well: the names are reported first.
    let names = r##""ExpressionAttributeNames": {"#a": "a", "#b": "b"}"##;
    let body = update(&format!(
        r##", "UpdateExpression": "SET #a = :v", {values}, {names}"##
    ));
    assert_eq!(answer("UpdateItem", &body), unused_names("#b"));
    let body = update(&format!(
        r##", {names}, {values}, "UpdateExpression": "SET #a = :v""##
    ));
    assert_eq!(answer("UpdateItem", &body), unused_names("#b"));
    // A table that does not exist.
    let body =
        format!(r#"{{"TableName": "nope", {KEY}, "UpdateExpression": "SET a = :v", {values}}}"#);
    answer("UpdateItem", &body);
}

#[test]
fn every_operation_with_values_lists_them_all() {
    let values =
        r#""ExpressionAttributeValues": {":a": {"S": "a"}, ":u1": {"N": "1"}, ":u2": {"N": "2"}}"#;
    let unused = unused_values(":u1, :u2");
    let key = r#""Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}"#;
    let item = r#""Item": {"pk": {"S": "b"}, "sk": {"S": "1"}}"#;
    for first in [false, true] {
        let request = |members: &str| {
            if first {
                format!(r#"{{{values}, "TableName": "tbl", {members}}}"#)
            } else {
                format!(r#"{{"TableName": "tbl", {members}, {values}}}"#)
            }
        };
        let cases = [
            (
                "DeleteItem",
                request(&format!(r#"{key}, "ConditionExpression": "pk = :a""#)),
            ),
            (
                "PutItem",
                request(&format!(r#"{item}, "ConditionExpression": "pk <> :a""#)),
            ),
            (
                "UpdateItem",
                request(&format!(r#"{key}, "UpdateExpression": "SET v = :a""#)),
            ),
            ("Query", request(r#""KeyConditionExpression": "pk = :a""#)),
            ("Scan", request(r#""FilterExpression": "pk = :a""#)),
            (
                "Query",
                request(
                    r#""KeyConditionExpression": "pk = :a", "FilterExpression": "sk = :a", "ProjectionExpression": "sk""#,
                ),
            ),
        ];
        for (operation, body) in cases {
            assert_eq!(answer(operation, &body), unused, "{operation}");
        }
    }
}

#[test]
fn many_unused_values_in_javas_order() {
    // ":Aa" and ":BB" share Java's hash, listed in sorted order in their bucket.
    let mut entries: Vec<String> = (0..3000)
        .rev()
        .map(|i| format!(r#"":n{i}": {{"N": "{i}"}}"#))
        .collect();
    entries.push(r#"":BB": {"S": "bb"}"#.to_owned());
    entries.push(r#"":Aa": {"SS": ["a", "b"]}"#.to_owned());
    entries.push(r#"":n7": {"M": {"x": {"L": [{"N": "1"}]}}}"#.to_owned());
    entries.push(r#"":v": {"N": "2"}"#.to_owned());
    for before in [false, true] {
        let message = answer("UpdateItem", &set_a(&entries.join(", "), before));
        assert_eq!(
            message.matches(", ").count(),
            3001,
            "every unused value once"
        );
        assert!(message.find(":Aa").unwrap() < message.find(":BB").unwrap());
    }
}
