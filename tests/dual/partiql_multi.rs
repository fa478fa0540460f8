//! PartiQL's BatchExecuteStatement (per-statement results and errors) and
//! ExecuteTransaction (writes, reads, cancellation reasons, ClientRequestToken) on the engine, DynamoDB
//! Local and the server.

use dynomodel::backend::*;
use dynomodel::*;

use super::partiql::{exec, table};
use super::*;

dual_test!(partiql_batch_execute_statement, |t| {
    let tb = table(&t).await;
    let stmt = |text: String| BatchStatementRequest {
        statement: text,
        ..Default::default()
    };
    exec(
        &t,
        &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1}}"),
        &[],
    )
    .await
    .unwrap();
    let out = t
        .backend()
        .batch_execute_statement(BatchExecuteStatementInput {
            statements: vec![
                stmt(format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1}}")),
                stmt(format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'b', 'sk': 1}}")),
                stmt(format!(
                    "UPDATE \"{tb}\" SET q = 1 WHERE pk = 'zz' AND sk = 1"
                )),
                stmt(format!("DELETE FROM \"{tb}\" WHERE pk = 'c' AND sk = 1")),
                stmt(format!("DELETE FROM \"{tb}\" WHERE pk = 'c'")),
            ],
            ..Default::default()
        })
        .await
        .unwrap();
    let summary: Vec<(Option<&str>, Option<&str>)> = out
        .responses
        .iter()
        .map(|r| {
            (
                r.error.as_ref().map(|e| e.code.as_str()),
                r.error.as_ref().and_then(|e| e.message.as_deref()),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                Some("DuplicateItem"),
                Some("Duplicate primary key exists in table")
            ),
            (None, None),
            (
                Some("ConditionalCheckFailed"),
                Some("The conditional request failed")
            ),
            (None, None),
            (
                Some("ValidationError"),
                Some("Where clause does not contain a mandatory equality on all key attributes")
            ),
        ]
    );
    assert_eq!(out.responses[1].table_name.as_deref(), Some(tb.as_str()));
    let out = t
        .backend()
        .batch_execute_statement(BatchExecuteStatementInput {
            statements: vec![
                stmt(format!("SELECT * FROM \"{tb}\" WHERE pk = 'b' AND sk = 1")),
                stmt(format!(
                    "SELECT * FROM \"{tb}\" WHERE pk = 'nope' AND sk = 1"
                )),
                stmt(format!("SELECT * FROM \"{tb}\" WHERE pk = 'a'")),
            ],
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        out.responses[0].item.as_ref().and_then(|i| i.get("pk")),
        Some(&s("b"))
    );
    assert_eq!(out.responses[1].item, None);
    assert_eq!(out.responses[1].error, None);
    let e = out.responses[2].error.as_ref().unwrap();
    assert_eq!(
        (e.code.as_str(), e.message.as_deref()),
        (
            "ValidationError",
            Some("Only single item select is supported")
        )
    );
});

dual_test!(partiql_execute_transaction, |t| {
    let tb = table(&t).await;
    let tx = |texts: Vec<String>, token: Option<&str>| ExecuteTransactionInput {
        transact_statements: texts
            .into_iter()
            .map(|statement| ParameterizedStatement {
                statement,
                ..Default::default()
            })
            .collect(),
        client_request_token: token.map(str::to_owned),
        ..Default::default()
    };
    let writes = vec![
        format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1, 'v': 1}}"),
        format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'b', 'sk': 1}}"),
    ];
    // Tokens live 10 minutes on DynamoDB Local, across runs: one per table name.
    let token = tb
        .get(tb.len().saturating_sub(36)..)
        .unwrap_or("tok")
        .to_owned();
    let token = Some(token.as_str());
    let out = t
        .backend()
        .execute_transaction(tx(writes.clone(), token))
        .await
        .unwrap();
    assert!(out.responses.is_empty());
    // The same token and statements again: nothing happens, success.
    t.backend()
        .execute_transaction(tx(writes, token))
        .await
        .unwrap();
    let other = vec![format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'c', 'sk': 1}}")];
    // The message is TransactWriteItems' (see transactions::tokens); only the type is asserted here.
    let e = t
        .backend()
        .execute_transaction(tx(other, token))
        .await
        .unwrap_err();
    assert_eq!(e.code(), "IdempotentParameterMismatchException");
    // A failure cancels everything, with one reason per statement.
    let cancelled = t
        .backend()
        .execute_transaction(tx(
            vec![
                format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'c', 'sk': 1}}"),
                format!("UPDATE \"{tb}\" SET v = 2 WHERE pk = 'a' AND sk = 1 AND v = 5"),
                format!("DELETE FROM \"{tb}\" WHERE pk = 'b' AND sk = 1"),
            ],
            None,
        ))
        .await;
    let Err(Error::TransactionCanceled { reasons, .. }) = cancelled else {
        panic!("[{:?}] {cancelled:?}", t.target());
    };
    let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
    assert_eq!(codes, vec!["None", "ConditionalCheckFailed", "None"]);
    // Reads: one entry per statement.
    let out = t
        .backend()
        .execute_transaction(tx(
            vec![
                format!("SELECT * FROM \"{tb}\" WHERE pk = 'a' AND sk = 1"),
                format!("SELECT v FROM \"{tb}\" WHERE pk = 'c' AND sk = 1"),
            ],
            None,
        ))
        .await
        .unwrap();
    assert_eq!(out.responses.len(), 2);
    assert_eq!(
        out.responses[0].as_ref().and_then(|i| i.get("v")),
        Some(&num("1"))
    );
    assert_eq!(out.responses[1], None);
});

dual_test!(partiql_returning_in_batches_and_transactions, |t| {
    let tb = table(&t).await;
    exec(
        &t,
        &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1, 'n': 1}}"),
        &[],
    )
    .await
    .unwrap();
    let update = format!("UPDATE \"{tb}\" SET n = 2 WHERE pk = 'a' AND sk = 1 RETURNING ALL OLD *");
    // In a batch, the response carries what RETURNING asked for.
    let out = t
        .backend()
        .batch_execute_statement(BatchExecuteStatementInput {
            statements: vec![BatchStatementRequest {
                statement: update.clone(),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        out.responses[0].item,
        Some(item([("pk", s("a")), ("sk", num("1")), ("n", num("1"))]))
    );
    // A transaction refuses it.
    t.expect_error(
        t.backend()
            .execute_transaction(ExecuteTransactionInput {
                transact_statements: vec![ParameterizedStatement { statement: update, ..Default::default() }],
                ..Default::default()
            })
            .await,
        "ValidationException",
        "Validation failed in TransactStatements[0]: RETURNING clause is not supported in ExecuteTransaction.",
    );
});
