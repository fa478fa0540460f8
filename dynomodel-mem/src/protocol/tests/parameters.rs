//! PartiQL `Parameters` past the statement's `?` through the wire: the one pass checks them and
//! hands the engine the values built (`fast::parameters`); every answer here is held to the exact
//! path's (the one pass off), on the engine, and the oracle holds each reduced list to the whole one
//! and to its statement. In test builds the one pass builds one value, or one more than the
//! statement's `?`, before it checks the rest.

use super::respond_to;
use crate::protocol::fast::oracle::held_to_exact;
use crate::protocol::Fault;
use crate::MemBackend;

/// A table `tbl` whose key is `pk` (S), holding the item `k`.
fn backend() -> MemBackend {
    let backend = MemBackend::new();
    let create = r#"{"TableName": "tbl",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "BillingMode": "PAY_PER_REQUEST"}"#;
    let put = r#"{"TableName": "tbl", "Item": {"pk": {"S": "k"}, "v": {"N": "1"}}}"#;
    for (operation, body) in [("CreateTable", create), ("PutItem", put)] {
        respond_to(&backend, operation, body).unwrap();
    }
    backend
}

/// The answer to `body` (the error's code and message, the body's text else), checked to be the
/// exact path's too, each on a fresh table.
fn answer(operation: &str, body: &str) -> String {
    let call = || respond_to(&backend(), operation, body);
    let context = format!("{operation}: {}", &body[..body.len().min(300)]);
    match held_to_exact(call, &context) {
        Ok(bytes) => String::from_utf8(bytes).unwrap(),
        Err(Fault::Backend(e)) => format!("{}: {}", e.code(), e.message()),
        Err(other) => format!("{other:?}"),
    }
}

/// `n` parameters `{"S": "k"}`, with `value` in place of those at `at`.
fn list(n: usize, at: &[usize], value: &str) -> String {
    let values: Vec<&str> = (0..n)
        .map(|i| {
            if at.contains(&i) {
                value
            } else {
                r#"{"S": "k"}"#
            }
        })
        .collect();
    format!("[{}]", values.join(", "))
}

/// An ExecuteStatement of `statement` (JSON text, quotes escaped) with `parameters` after it.
fn execute(statement: &str, parameters: &str) -> String {
    answer(
        "ExecuteStatement",
        &format!(r#"{{"Statement": "{statement}", "Parameters": {parameters}}}"#),
    )
}

const SELECT: &str = "SELECT * FROM tbl WHERE pk = ?";
const COUNT: &str =
    "ValidationException: Number of parameters in request and statement don't match.";
const ITEM: &str = r#"{"Items":[{"pk":{"S":"k"},"v":{"N":"1"}}]}"#;

#[test]
fn more_parameters_than_marks_are_refused_for_their_count() {
    assert_eq!(execute(SELECT, &list(1, &[], "")), ITEM);
    for n in [2, 3, 17, 3_000] {
        assert_eq!(execute(SELECT, &list(n, &[], "")), COUNT, "{n}");
    }
    // Too few: built whole, as before.
    let two = "SELECT * FROM tbl WHERE pk = ? AND v = ?";
    assert_eq!(execute(two, &list(1, &[], "")), COUNT);
    assert_eq!(execute(two, r#"[{"S": "k"}, {"N": "1"}]"#), ITEM);
    assert_eq!(execute(two, &list(5, &[], "")), COUNT);
    // Parameters before the statement: built whole.
    let before = format!(
        r#"{{"Parameters": {}, "Statement": "{SELECT}"}}"#,
        list(4, &[], "")
    );
    assert_eq!(answer("ExecuteStatement", &before), COUNT);
    // Other values than strings, and the other members around the list.
    let mixed = r#"[{"S": "k"}, {"N": "1"}, {"L": [{"M": {"a": {"B": "AA=="}}}]},
        {"NS": ["1", "2"]}, {"BOOL": true}, {"NULL": true}, {"SS": ["a", "b"]}]"#;
    let body = format!(
        r#"{{"ConsistentRead": true, "Statement": "{SELECT}", "Parameters": {mixed},
        "ReturnConsumedCapacity": "TOTAL", "Limit": 5}}"#
    );
    assert_eq!(answer("ExecuteStatement", &body), COUNT);
}

/// Values the wire or the engine refuses (each held to the exact path's answer).
const INVALID: &[&str] = &[
    r#"{"S": ""}"#,
    r#"{"SS": []}"#,
    r#"{"NS": []}"#,
    r#"{"BS": []}"#,
    r#"{"SS": ["a", "a"]}"#,
    r#"{"NS": ["1", "1.0"]}"#,
    r#"{"BS": ["AA==", "AA=="]}"#,
    r#"{"N": "x"}"#,
    r#"{"N": "1e999"}"#,
    r#"{"NULL": false}"#,
    r#"{"S": "a", "N": "1"}"#,
    r#"{"X": "1"}"#,
    r#"{}"#,
    r#"{"M": {"": {"S": "a"}}}"#,
    r#"{"L": [{"N": "x"}]}"#,
    r#"{"S": 1}"#,
    r#"{"B": "!!"}"#,
    "null",
    "1",
    r#""k""#,
];

/// A value nested `depth` lists deep.
fn nested(depth: usize) -> String {
    format!(
        r#"{}{{"S": "k"}}{}"#,
        r#"{"L": ["#.repeat(depth),
        "]}".repeat(depth)
    )
}

#[test]
fn invalid_values_anywhere_are_the_exact_paths() {
    let deep = [nested(33), nested(129)];
    let values = INVALID
        .iter()
        .copied()
        .chain(deep.iter().map(String::as_str));
    for value in values {
        // The first value (built), the second (the last built), the third (the first checked), a
        // middle and the last one.
        for at in [0, 1, 2, 5, 9] {
            let parameters = list(10, &[at], value);
            let got = execute(SELECT, &parameters);
            assert_ne!(got, ITEM, "{value} at {at}");
        }
        // Two of them, one built and one checked; and the only one.
        execute(SELECT, &list(6, &[0, 4], value));
        execute(SELECT, &list(1, &[0], value));
    }
}

#[test]
fn marks_in_strings_names_and_escapes_count_as_the_engine_counts() {
    // A `?` in a string or a quoted name is no parameter: the engine counts one, the one pass
    // three or more (an upper bound), and either way two parameters or more are refused.
    for statement in [
        r#"SELECT * FROM tbl WHERE pk = ? AND v <> '?'"#,
        r#"SELECT * FROM tbl WHERE pk = ? AND \"v?\" = 'a??'"#,
        r#"SELECT * FROM \"tbl\" WHERE \"pk\" = ?"#,
        r#"SELECT * FROM tbl WHERE pk = \u003f"#,
        r#"SELECT * FROM tbl WHERE pk = ? -- ?"#,
        r#"SELECT * FROM tbl WHERE pk = ? /* ? ? */"#,
    ] {
        for n in [1, 2, 3, 4, 8] {
            execute(statement, &list(n, &[], ""));
        }
    }
    // An escaped value checked; an escaped string built.
    execute(SELECT, r#"[{"S": "k"}, {"S": "\u006b"}, {"S": "\u006b"}]"#);
    execute(SELECT, r#"[{"S": "\u006b"}]"#);
    // An escaped member name is the exact path's (an unknown member to the one pass).
    let body = format!(
        r#"{{"Statement": "{SELECT}", "\u0050arameters": {}}}"#,
        list(3, &[], "")
    );
    answer("ExecuteStatement", &body);
}

#[test]
fn a_statement_sent_again_after_the_list_is_the_one_counted() {
    let five = "SELECT * FROM tbl WHERE pk = ? AND v IN [?, ?, ?, ?]";
    for n in [2, 4, 5, 6] {
        let body = format!(
            r#"{{"Statement": "{SELECT}", "Parameters": [{{"S": "k"}}{}], "Statement": "{five}"}}"#,
            r#", {"N": "1"}"#.repeat(n - 1)
        );
        let got = answer("ExecuteStatement", &body);
        assert_eq!(got == COUNT, n != 5, "{n}: {got}");
    }
    // A statement sent again with fewer marks, or not a string.
    let body = format!(
        r#"{{"Statement": "{SELECT}", "Parameters": {}, "Statement": "SELECT * FROM tbl"}}"#,
        list(3, &[], "")
    );
    assert_eq!(answer("ExecuteStatement", &body), COUNT);
    let body = format!(
        r#"{{"Statement": "{SELECT}", "Parameters": {}, "Statement": 3}}"#,
        list(3, &[], "")
    );
    answer("ExecuteStatement", &body);
    // The list sent twice: the last one counts.
    let body = format!(
        r#"{{"Statement": "{SELECT}", "Parameters": {}, "Parameters": {}}}"#,
        list(3, &[], ""),
        list(1, &[], "")
    );
    assert_eq!(answer("ExecuteStatement", &body), ITEM);
    let body = format!(
        r#"{{"Statement": "{SELECT}", "Parameters": {}, "Parameters": {}}}"#,
        list(1, &[], ""),
        list(3, &[], "")
    );
    assert_eq!(answer("ExecuteStatement", &body), COUNT);
}

#[test]
fn every_operation_and_every_earlier_error_keeps_its_answer() {
    for statement in [
        SELECT,
        "SELECT v FROM tbl WHERE pk = ?",
        r#"SELECT * FROM \"tbl\".\"missing\" WHERE pk = ?"#,
        "SELECT * FROM missing WHERE pk = ?",
        "INSERT INTO tbl VALUE {'pk': ?}",
        "INSERT INTO tbl VALUE {'pk': 'n', 'v': ?}",
        "UPDATE tbl SET v = ? WHERE pk = 'k'",
        "UPDATE tbl SET v = 2 WHERE pk = ?",
        "DELETE FROM tbl WHERE pk = ?",
        "EXISTS(SELECT * FROM tbl WHERE pk = ?)",
        // Refused before the count: syntax, a result named twice.
        "SELECT * FROM tbl WHERE pk = ? AND",
        "SELEC * FROM tbl WHERE pk = ?",
        "SELECT v, v FROM tbl WHERE pk = ?",
        "",
        "?",
    ] {
        for n in [1, 2, 3, 40] {
            execute(statement, &list(n, &[], ""));
        }
        execute(statement, &list(3, &[2], r#"{"SS": []}"#));
    }
    // An empty list, `null`, and a list of the wrong JSON type.
    for parameters in ["[]", "null", "{}", r#""k""#] {
        execute(SELECT, parameters);
    }
}

#[test]
fn batches_and_transactions_keep_each_statement_s_answer() {
    let statement = |text: &str, parameters: &str| {
        format!(r#"{{"Statement": "{text}", "Parameters": {parameters}}}"#)
    };
    let many = list(4, &[], "");
    let one = list(1, &[], "");
    let bad = list(4, &[3], r#"{"N": "x"}"#);
    let insert = "INSERT INTO tbl VALUE {'pk': ?}";
    let update = "UPDATE tbl SET v = 5 WHERE pk = ?";
    let batches = [
        vec![statement(SELECT, &many)],
        vec![statement(SELECT, &one), statement(SELECT, &many)],
        vec![statement(SELECT, &many), statement(SELECT, &one)],
        vec![
            statement(SELECT, &one),
            statement(SELECT, &many),
            statement(SELECT, &one),
        ],
        vec![statement(update, &many), statement(insert, &one)],
        vec![statement(update, &one), statement(insert, &many)],
        vec![statement(SELECT, &many), statement(update, &one)],
        vec![statement("SELEC", &many), statement(SELECT, &many)],
        vec![statement(SELECT, &many), statement(SELECT, &bad)],
        vec![statement(SELECT, &bad), statement(SELECT, &one)],
    ];
    for batch in &batches {
        let statements = batch.join(", ");
        let body = format!(r#"{{"Statements": [{statements}]}}"#);
        answer("BatchExecuteStatement", &body);
        let body = format!(r#"{{"TransactStatements": [{statements}]}}"#);
        answer("ExecuteTransaction", &body);
    }
    // The count's error names the statement in a transaction.
    let body = format!(
        r#"{{"TransactStatements": [{}, {}]}}"#,
        statement(update, &one),
        statement(update, &many)
    );
    assert_eq!(
        answer("ExecuteTransaction", &body),
        format!(
            "ValidationException: Validation failed in TransactStatements[1]: {}",
            &COUNT["ValidationException: ".len()..]
        )
    );
}
