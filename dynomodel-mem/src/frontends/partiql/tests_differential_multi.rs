//! Divergences from DynamoDB in BatchExecuteStatement and ExecuteTransaction found by the
//! differential generator (tests/differential, PartiQL forms), each pinned here with what DynamoDB
//! answers.

use dynomodel::backend::{Backend, ExecuteStatementInput};
use dynomodel::Error;

use super::tests_differential::table;

/// In a transaction, every statement's syntax is checked first; the checks that need no table then
/// name the statement.
#[tokio::test]
async fn transaction_statement_checks() {
    use dynomodel::backend::{ExecuteTransactionInput, ParameterizedStatement};
    let b = table().await;
    let run = |texts: [&str; 2]| {
        let input = ExecuteTransactionInput {
            transact_statements: texts
                .iter()
                .map(|t| ParameterizedStatement {
                    statement: (*t).into(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let b = &b;
        async move { b.execute_transaction(input).await.map_err(|e| e.message()) }
    };
    let ok = "SELECT a FROM tbl WHERE pk = 'a' AND sk = 1";
    assert_eq!(
        run([ok, "SELECT a, a FROM tbl WHERE pk = 'a' AND sk = 1"]).await,
        Err(
            "Validation failed in TransactStatements[1]: Duplicate identifiers in select clause: a"
                .into()
        )
    );
    assert_eq!(
        run([ok, "SELECT x[1], x FROM tbl WHERE pk = 'a' AND sk = 1"]).await,
        Err("Validation failed in TransactStatements[1]: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [x], path two: [x, [1]]".into())
    );
    assert_eq!(
        run([ok, "SELECT a FROM tbl WHERE pk = ? AND sk = 1"]).await,
        Err("Validation failed in TransactStatements[1]: Number of parameters in request and statement don't match.".into())
    );
    let malformed = run([
        "SELECT a, a FROM tbl WHERE pk = 'a' AND sk = 1",
        "SELEC a FROM tbl",
    ])
    .await;
    assert!(
        matches!(&malformed, Err(m) if m.starts_with(super::errors::MALFORMED)),
        "{malformed:?}"
    );
}

/// A transaction's write statements: checks of the statement are named by index, keys that do not
/// fit cancel the transaction with a `ValidationError` reason.
#[tokio::test]
async fn transaction_write_statement_errors() {
    use dynomodel::backend::{ExecuteTransactionInput, ParameterizedStatement};
    let b = table().await;
    let run = |second: &str| {
        let input = ExecuteTransactionInput {
            transact_statements: ["DELETE FROM tbl WHERE pk = 'zz' AND sk = 1", second]
                .iter()
                .map(|t| ParameterizedStatement {
                    statement: (*t).into(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let b = &b;
        async move { b.execute_transaction(input).await }
    };
    let named = run("UPDATE tbl SET a = a + 'x' WHERE pk = 'b' AND sk = 1").await;
    assert_eq!(
        named.map_err(|e| e.message()),
        Err("Validation failed in TransactStatements[1]: Incorrect operand type for operator or function; operator or function: +, operand type: S".into())
    );
    for (second, message) in [
        (
            "INSERT INTO tbl VALUE {'pk': 'a'}",
            "Key attribute should be present in the item: Key sk",
        ),
        (
            "DELETE FROM tbl WHERE pk = 1 AND sk = 1",
            "Key attribute's data type should match its data type in table's schema: Key pk",
        ),
    ] {
        match run(second).await {
            Err(Error::TransactionCanceled { reasons, .. }) => {
                let codes: Vec<(&str, Option<&str>)> = reasons
                    .iter()
                    .map(|r| (r.code.as_str(), r.message.as_deref()))
                    .collect();
                assert_eq!(
                    codes,
                    vec![("None", None), ("ValidationError", Some(message))],
                    "{second}"
                );
            }
            other => panic!("{second}: {other:?}"),
        }
    }
}

/// An INSERT and an UPDATE of the same item in one batch: the request's keys repeat.
#[tokio::test]
async fn batch_insert_and_update_of_one_item() {
    use dynomodel::backend::{BatchExecuteStatementInput, BatchStatementRequest};
    let b = table().await;
    let out = b
        .batch_execute_statement(BatchExecuteStatementInput {
            statements: [
                "INSERT INTO tbl VALUE {'pk': 'a', 'sk': 1, 'x': 1}",
                "UPDATE tbl SET y = 2 WHERE pk = 'a' AND sk = 1",
            ]
            .iter()
            .map(|t| BatchStatementRequest {
                statement: (*t).into(),
                ..Default::default()
            })
            .collect(),
            ..Default::default()
        })
        .await
        .map_err(|e| e.message());
    assert_eq!(
        out.map(|_| ()),
        Err("Provided list of item keys contains duplicates".into())
    );
}

/// A batch's or a transaction's SELECT projects as the expression API does (nested, lists
/// compacted), unlike ExecuteStatement's.
#[tokio::test]
async fn batch_and_transaction_projections_keep_the_nesting() {
    use dynomodel::backend::{
        BatchExecuteStatementInput, BatchStatementRequest, ExecuteTransactionInput,
        ParameterizedStatement,
    };
    use dynomodel::AttributeValue;
    let b = table().await;
    b.execute_statement(ExecuteStatementInput {
        statement: "INSERT INTO tbl VALUE {'pk': 'p', 'sk': 1, 'l': [1, 2, {'m': 3}], 'x': {'y': [5, 6], 'z': 1}}".into(),
        ..Default::default()
    })
    .await
    .unwrap();
    let select = "SELECT l[2].m, x.y[1], l[0], x.z FROM tbl WHERE pk = 'p' AND sk = 1";
    let n = |v: &str| AttributeValue::N(v.parse().unwrap());
    let want: dynomodel::Item = [
        (
            "x".to_owned(),
            AttributeValue::M(
                [
                    ("y".to_owned(), AttributeValue::L(vec![n("6")])),
                    ("z".to_owned(), n("1")),
                ]
                .into(),
            ),
        ),
        (
            "l".to_owned(),
            AttributeValue::L(vec![
                n("1"),
                AttributeValue::M([("m".to_owned(), n("3"))].into()),
            ]),
        ),
    ]
    .into();
    let batch = b
        .batch_execute_statement(BatchExecuteStatementInput {
            statements: vec![BatchStatementRequest {
                statement: select.into(),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(batch.responses[0].item.as_ref(), Some(&want));
    let tx = b
        .execute_transaction(ExecuteTransactionInput {
            transact_statements: vec![ParameterizedStatement {
                statement: select.into(),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(tx.responses, vec![Some(want)]);
}

/// A transaction's read with a key of the wrong type: a `ValidationError` reason, as for writes.
#[tokio::test]
async fn transaction_read_key_type_is_a_reason() {
    use dynomodel::backend::{ExecuteTransactionInput, ParameterizedStatement};
    let b = table().await;
    let out = b
        .execute_transaction(ExecuteTransactionInput {
            transact_statements: vec![ParameterizedStatement {
                statement: "SELECT * FROM tbl WHERE pk = 1 AND sk = 1".into(),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await;
    match out {
        Err(Error::TransactionCanceled { reasons, .. }) => assert_eq!(
            (reasons[0].code.as_str(), reasons[0].message.as_deref()),
            (
                "ValidationError",
                Some("Key attribute's data type should match its data type in table's schema: Key pk")
            )
        ),
        other => panic!("{other:?}"),
    }
}

/// A batch's SELECT with a key value that can be no key names no single item.
#[tokio::test]
async fn batch_select_of_a_boolean_key() {
    use dynomodel::backend::{BatchExecuteStatementInput, BatchStatementRequest};
    let b = table().await;
    let out = b
        .batch_execute_statement(BatchExecuteStatementInput {
            statements: vec![BatchStatementRequest {
                statement: "SELECT a FROM tbl WHERE pk = TRUE AND sk = -1".into(),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        out.responses[0]
            .error
            .as_ref()
            .and_then(|e| e.message.as_deref()),
        Some("Only single item select is supported")
    );
}
