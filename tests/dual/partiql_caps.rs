//! PartiQL's parameters are not under the substitution caps (`map_cap.rs`, `substitution_cap.rs`):
//! DynamoDB Local 3.3.1 accepts a parameter past 2 MiB in a statement's `WHERE`, and the engine
//! runs its statements with generated maps exempt from both caps (`expr::generated`), so the three
//! targets answer alike: a SELECT (Query and Scan) and a DELETE with a 2.2 MB parameter answer by
//! the items and the statement's own condition, an INSERT by the item's size (in a transaction, as
//! its cancellation reason). The engine's unit tests (`frontends/partiql/tests_caps.rs`) hold every
//! statement kind in the three operations.

use dynomodel::backend::*;
use dynomodel::*;

use super::partiql::{exec, table};
use super::requests::*;
use super::*;

/// 2.2 MB: past each map's cap, and the expressions', by itself.
fn big() -> AttributeValue {
    s(&"q".repeat(2_200_000))
}

dual_test!(partiql_parameters_past_the_caps, |t| {
    let tb = table(&t).await;
    let mut c = Checks::new(&t);
    exec(
        &t,
        &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1, 'b': 'x'}}"),
        &[],
    )
    .await
    .unwrap();
    let select = format!("SELECT * FROM \"{tb}\" WHERE pk = ? AND b <> ?");
    let r = exec(&t, &select, &[s("a"), big()]).await.map(|i| i.len());
    c.eq("select as a query", r.ok(), Some(1));
    let scan = format!("SELECT * FROM \"{tb}\" WHERE b = ?");
    let r = exec(&t, &scan, &[big()]).await.map(|i| i.len());
    c.eq("select as a scan", r.ok(), Some(0));
    let delete = format!("DELETE FROM \"{tb}\" WHERE pk = ? AND sk = ? AND b = ?");
    let r = exec(&t, &delete, &[s("a"), num("1"), big()]).await;
    c.error(
        "delete, its condition failing",
        r,
        "ConditionalCheckFailedException",
        "The conditional request failed",
    );
    let insert = format!("INSERT INTO \"{tb}\" VALUE {{'pk': ?, 'sk': ?, 'b': ?}}");
    let r = exec(&t, &insert, &[s("z"), num("1"), big()]).await;
    c.error(
        "insert",
        r,
        "ValidationException",
        "Item size has exceeded the maximum allowed size",
    );
    let r = t
        .backend()
        .execute_transaction(ExecuteTransactionInput {
            transact_statements: vec![ParameterizedStatement {
                statement: insert.clone(),
                parameters: Some(vec![s("z"), num("1"), big()]),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await;
    let reasons = match r {
        Err(Error::TransactionCanceled { reasons, .. }) => {
            reasons.into_iter().map(|r| (r.code, r.message)).collect()
        }
        other => vec![(CancellationCode::None, Some(format!("{other:?}")))],
    };
    c.eq(
        "insert in a transaction",
        reasons,
        vec![(
            CancellationCode::ValidationError,
            Some("Item size has exceeded the maximum allowed size".to_owned()),
        )],
    );
    let delete = format!("DELETE FROM \"{tb}\" WHERE pk = ? AND sk = ? AND b <> ?");
    let r = exec(&t, &delete, &[s("a"), num("1"), big()]).await;
    c.eq("delete, its condition holding", r.ok(), Some(vec![]));
    let r = exec(&t, &select, &[s("a"), big()]).await.map(|i| i.len());
    c.eq("deleted", r.ok(), Some(0));
    c.finish();
});
