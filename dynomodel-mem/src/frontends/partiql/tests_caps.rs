//! PartiQL's parameters are not under the substitution caps (`expr::generated`): a parameter past
//! 2 MiB, in every statement kind and the three operations, answers as DynamoDB Local 3.3.1 does
//! (probed 2026-11-30): accepted, or refused by the statement's own condition or the item's size,
//! never with "ExpressionAttributeValues exceeds max size" or an expression's size. The same maps
//! sent by a client to the operation are still refused.

use dynomodel::backend::{
    Backend, BatchExecuteStatementInput, BatchStatementRequest, ExecuteTransactionInput,
    ParameterizedStatement, QueryInput, ScalarAttributeType,
};
use dynomodel::{AttributeValue, CancellationCode, Error};

use super::tests::run;
use crate::expr::substitution::MAX_MAP_BYTES;
use crate::tests::{backend_with, s, table_input};
use crate::MemBackend;

/// 2.2 MB: past each map's cap and the expressions' by itself.
fn big() -> AttributeValue {
    s(&"q".repeat(2_200_000))
}

/// A hash-keyed table `pqt` holding `{pk: "a", b: "x"}`.
async fn table() -> MemBackend {
    let b = backend_with(table_input("pqt", ScalarAttributeType::S, None)).await;
    run(&b, "INSERT INTO pqt VALUE {'pk': 'a', 'b': 'x'}", &[])
        .await
        .expect("insert");
    b
}

fn message<T>(r: Result<T, Error>) -> String {
    match r {
        Ok(_) => "OK".into(),
        Err(e) => e.message(),
    }
}

#[tokio::test]
async fn execute_statement_takes_a_parameter_past_the_caps() {
    let b = table().await;
    // SELECT as a Query (key and filter) and as a Scan.
    let got = run(
        &b,
        "SELECT * FROM pqt WHERE pk = ? AND b <> ?",
        &[s("a"), big()],
    )
    .await;
    assert_eq!(got.expect("query").len(), 1);
    let got = run(
        &b,
        "SELECT pk FROM pqt WHERE pk = ? AND b = ?",
        &[s("a"), big()],
    )
    .await;
    assert_eq!(got.expect("query").len(), 0);
    let got = run(&b, "SELECT pk FROM pqt WHERE b <> ?", &[big()]).await;
    assert_eq!(got.expect("scan").len(), 1);
    // Two parameters of half each: the two past the cap together.
    let half = s(&"q".repeat(1_100_000));
    let got = run(
        &b,
        "SELECT * FROM pqt WHERE pk = ? AND b <> ? AND c <> ?",
        &[s("a"), half.clone(), half],
    )
    .await;
    assert_eq!(got.expect("query, two halves").len(), 1);
    // UPDATE whose WHERE holds the parameter: applied.
    let got = run(
        &b,
        "UPDATE pqt SET d = ? WHERE pk = ? AND b <> ?",
        &[s("d"), s("a"), big()],
    )
    .await;
    assert_eq!(message(got), "OK");
    // UPDATE setting it: the item's size refuses it on an existing item, the statement's existence
    // condition on a missing one.
    let got = run(&b, "UPDATE pqt SET b = ? WHERE pk = ?", &[big(), s("a")]).await;
    assert_eq!(
        message(got),
        "Item size to update has exceeded the maximum allowed size"
    );
    let got = run(&b, "UPDATE pqt SET b = ? WHERE pk = ?", &[big(), s("nope")]).await;
    assert_eq!(message(got), "The conditional request failed");
    // INSERT: the item's size.
    let got = run(
        &b,
        "INSERT INTO pqt VALUE {'pk': ?, 'b': ?}",
        &[s("z"), big()],
    )
    .await;
    assert_eq!(
        message(got),
        "Item size has exceeded the maximum allowed size"
    );
    // DELETE: the condition fails, then holds.
    let got = run(
        &b,
        "DELETE FROM pqt WHERE pk = ? AND b = ?",
        &[s("a"), big()],
    )
    .await;
    assert_eq!(message(got), "The conditional request failed");
    let got = run(
        &b,
        "DELETE FROM pqt WHERE pk = ? AND b <> ?",
        &[s("a"), big()],
    )
    .await;
    assert_eq!(message(got), "OK");
    assert!(run(&b, "SELECT * FROM pqt", &[])
        .await
        .expect("scan")
        .is_empty());
}

#[tokio::test]
async fn batch_execute_statement_takes_a_parameter_past_the_caps() {
    let b = table().await;
    let stmt = |text: &str, params: Vec<AttributeValue>| BatchStatementRequest {
        statement: text.into(),
        parameters: Some(params),
        ..Default::default()
    };
    // One statement a batch: a batch's statements may not name one key twice.
    let mut answers = Vec::new();
    for statement in [
        stmt(
            "DELETE FROM pqt WHERE pk = ? AND b = ?",
            vec![s("a"), big()],
        ),
        stmt("UPDATE pqt SET b = ? WHERE pk = ?", vec![big(), s("a")]),
        stmt(
            "INSERT INTO pqt VALUE {'pk': ?, 'b': ?}",
            vec![s("y"), big()],
        ),
        stmt(
            "UPDATE pqt SET c = ? WHERE pk = ? AND b <> ?",
            vec![s("c"), s("a"), big()],
        ),
    ] {
        let out = b
            .batch_execute_statement(BatchExecuteStatementInput {
                statements: vec![statement],
                ..Default::default()
            })
            .await
            .expect("batch");
        let error = out.responses[0].error.clone();
        answers.push(error.map(|e| (e.code, e.message)));
    }
    let answers: Vec<_> = answers
        .iter()
        .map(|a| {
            a.as_ref()
                .map(|(code, message)| (code.as_str(), message.as_deref()))
        })
        .collect();
    assert_eq!(
        answers,
        vec![
            Some((
                "ConditionalCheckFailed",
                Some("The conditional request failed")
            )),
            Some((
                "ValidationError",
                Some("Item size to update has exceeded the maximum allowed size")
            )),
            Some((
                "ValidationError",
                Some("Item size has exceeded the maximum allowed size")
            )),
            None,
        ]
    );
}

#[tokio::test]
async fn execute_transaction_takes_a_parameter_past_the_caps() {
    let b = table().await;
    let tx = |text: &str, params: Vec<AttributeValue>| ExecuteTransactionInput {
        transact_statements: vec![ParameterizedStatement {
            statement: text.into(),
            parameters: Some(params),
            ..Default::default()
        }],
        ..Default::default()
    };
    let reason = |r: Result<_, Error>| match r {
        Err(Error::TransactionCanceled { reasons, .. }) => {
            (reasons[0].code.clone(), reasons[0].message.clone())
        }
        other => panic!("{other:?}"),
    };
    let got = b
        .execute_transaction(tx(
            "DELETE FROM pqt WHERE pk = ? AND b = ?",
            vec![s("a"), big()],
        ))
        .await;
    assert_eq!(
        reason(got),
        (
            CancellationCode::ConditionalCheckFailed,
            Some("The conditional request failed".into())
        )
    );
    let got = b
        .execute_transaction(tx("UPDATE pqt SET b = ? WHERE pk = ?", vec![big(), s("a")]))
        .await;
    assert_eq!(
        reason(got),
        (
            CancellationCode::ValidationError,
            Some("Item size to update has exceeded the maximum allowed size".into())
        )
    );
    let got = b
        .execute_transaction(tx(
            "INSERT INTO pqt VALUE {'pk': ?, 'b': ?}",
            vec![s("y"), big()],
        ))
        .await;
    assert_eq!(
        reason(got),
        (
            CancellationCode::ValidationError,
            Some("Item size has exceeded the maximum allowed size".into())
        )
    );
    // Past 400 KB alone (within the caps), behind a statement that holds: the INSERT's reason.
    let two = ExecuteTransactionInput {
        transact_statements: [
            ("INSERT INTO pqt VALUE {'pk': ?}", vec![s("x")]),
            (
                "INSERT INTO pqt VALUE {'pk': ?, 'b': ?}",
                vec![s("y"), s(&"q".repeat(500_000))],
            ),
        ]
        .into_iter()
        .map(|(text, params)| ParameterizedStatement {
            statement: text.into(),
            parameters: Some(params),
            ..Default::default()
        })
        .collect(),
        ..Default::default()
    };
    let Err(Error::TransactionCanceled { reasons, .. }) = b.execute_transaction(two).await else {
        panic!("not cancelled");
    };
    let reasons: Vec<_> = reasons
        .iter()
        .map(|r| (r.code.clone(), r.message.clone()))
        .collect();
    assert_eq!(
        reasons,
        vec![
            (CancellationCode::None, None),
            (
                CancellationCode::ValidationError,
                Some("Item size has exceeded the maximum allowed size".into())
            )
        ]
    );
    b.execute_transaction(tx(
        "UPDATE pqt SET c = ? WHERE pk = ? AND b <> ?",
        vec![s("c"), s("a"), big()],
    ))
    .await
    .expect("update whose condition holds");
    let read = b
        .execute_transaction(tx("SELECT c FROM pqt WHERE pk = ?", vec![s("a")]))
        .await
        .expect("read");
    assert_eq!(
        read.responses[0].as_ref().and_then(|i| i.get("c")),
        Some(&s("c"))
    );
}

/// The exemption is the frontend's alone: the maps a statement generates, sent by a client to the
/// operation itself, are refused (after a PartiQL statement ran, so nothing of its scope lingers).
#[tokio::test]
async fn the_same_maps_from_a_client_are_refused() {
    let b = table().await;
    run(
        &b,
        "SELECT * FROM pqt WHERE pk = ? AND b <> ?",
        &[s("a"), big()],
    )
    .await
    .expect("statement");
    const { assert!(2_200_000 > MAX_MAP_BYTES) };
    let got = b
        .query(QueryInput {
            table_name: "pqt".into(),
            key_condition_expression: Some("#n0 = :v0".into()),
            filter_expression: Some("#n1 <> :v1".into()),
            expression_attribute_names: Some(
                [("#n0".into(), "pk".into()), ("#n1".into(), "b".into())].into(),
            ),
            expression_attribute_values: Some(
                [(":v0".into(), s("a")), (":v1".into(), big())].into(),
            ),
            ..Default::default()
        })
        .await;
    assert_eq!(message(got), "ExpressionAttributeValues exceeds max size");
}
