//! `ClientRequestToken`: replays without side effects, mismatches, failed calls forgotten. (The
//! 10-minute window is tested on the engine's manual clock in `dynomodel-mem`.)

use super::*;

/// Adds 1 to `n` of `acct` item `a`, while `n < 2`.
fn increment(b: &Bank) -> Vec<TransactWriteItem> {
    vec![update(&b.acct, acct("a", []), "ADD n :one")
        .condition("attribute_not_exists(n) OR n < :two")
        .values([(":one", num("1")), (":two", num("2"))])]
}

dual_test!(transaction_tokens_replay_without_side_effects, |t| {
    let b = Bank::new(&t).await;
    let t1 = b.token("t1", 20);
    b.write_with(increment(&b), Some(&t1)).await.unwrap();
    b.write_with(increment(&b), Some(&t1)).await.unwrap();
    assert_eq!(
        b.stored(&b.acct, acct("a", [])).await,
        Some(acct("a", [("n", num("1"))]))
    );
    // Now the condition would fail: the replay still succeeds and still writes nothing.
    b.write(increment(&b)).await.unwrap();
    assert!(b.write(increment(&b)).await.is_err());
    b.write_with(increment(&b), Some(&t1)).await.unwrap();
    assert_eq!(
        b.stored(&b.acct, acct("a", [])).await,
        Some(acct("a", [("n", num("2"))]))
    );
});

dual_test!(transaction_tokens_refuse_other_parameters, |t| {
    let b = Bank::new(&t).await;
    let t1 = b.token("t1", 20);
    b.write_with(increment(&b), Some(&t1)).await.unwrap();
    let other = vec![put(&b.acct, acct("b", []))];
    // KNOWN DIFFERENCE: the engine's message is the API reference's description of the error;
    // DynamoDB Local 3.3.1 sends none.
    t.expect_error_differs(
        b.write_with(other.clone(), Some(&t1)).await,
        "IdempotentParameterMismatchException",
        "DynamoDB rejected the request because you retried a request with a different payload but \
         with an idempotent token that was already used.",
        "",
    );
    assert_eq!(b.stored(&b.acct, acct("b", [])).await, None);
    b.write_with(other, Some(&b.token("t2", 20))).await.unwrap();
    assert!(b.stored(&b.acct, acct("b", [])).await.is_some());
});

dual_test!(transaction_tokens_of_failed_calls_stay_free, |t| {
    let b = Bank::new(&t).await;
    let t1 = b.token("t1", 20);
    b.write(vec![put(&b.acct, acct("a", [("n", num("5"))]))])
        .await
        .unwrap();
    // A cancelled call and an invalid one leave no trace.
    assert!(matches!(
        b.write_with(increment(&b), Some(&t1)).await,
        Err(Error::TransactionCanceled { .. })
    ));
    assert!(matches!(
        b.write_with(
            vec![put(&b.acct, acct("a", [])).condition("a =")],
            Some(&t1)
        )
        .await,
        Err(Error::Validation { .. })
    ));
    b.write(vec![put(&b.acct, acct("a", [("n", num("0"))]))])
        .await
        .unwrap();
    b.write_with(increment(&b), Some(&t1)).await.unwrap();
    assert_eq!(
        b.stored(&b.acct, acct("a", [])).await,
        Some(acct("a", [("n", num("1"))]))
    );
});
