//! `ClientRequestToken`: replays without side effects, mismatches, failed calls forgotten, the
//! 10-minute window on the engine's clock.

use std::time::Duration;

use dynomodel::backend::{Backend, DeleteTableInput};
use dynomodel::Error;

use super::super::n;
use super::*;
use crate::ManualClock;

const MISMATCH: &str =
    "DynamoDB rejected the request because you retried a request with a different \
                        payload but with an idempotent token that was already used.";

fn mismatch() -> Result<(), Error> {
    Err(Error::Service {
        code: "IdempotentParameterMismatchException".into(),
        message: MISMATCH.into(),
    })
}

/// Adds 1 to `n` of `acct` item `a`, while `n < 2`.
fn increment() -> Vec<TransactWriteItem> {
    vec![
        update("acct", acct("a", &[]), "ADD n :one", &[(":one", n("1"))])
            .with_condition("attribute_not_exists(n) OR n < :two")
            .with_values(&[(":one", n("1")), (":two", n("2"))]),
    ]
}

async fn counter(b: &MemBackend) -> Option<Item> {
    stored(b, "acct", acct("a", &[])).await
}

#[tokio::test]
async fn a_replay_has_no_side_effect_even_when_the_data_changed() {
    let b = engine().await;
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("first");
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("replay");
    assert_eq!(counter(&b).await, Some(acct("a", &[("n", n("1"))])));
    // Now the condition would fail; the replay still succeeds and writes nothing.
    write(&b, increment()).await.expect("second increment");
    assert_eq!(counter(&b).await, Some(acct("a", &[("n", n("2"))])));
    assert_eq!(
        reasons(write(&b, increment()).await),
        vec![failed(None)],
        "the condition fails now"
    );
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("replay");
    assert_eq!(counter(&b).await, Some(acct("a", &[("n", n("2"))])));
    // Even after its table is gone.
    b.delete_table(DeleteTableInput {
        table_name: "acct".into(),
    })
    .await
    .expect("delete table");
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("replay");
}

#[tokio::test]
async fn other_parameters_under_a_used_token_are_refused() {
    let b = engine().await;
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("first");
    let other = vec![put("acct", acct("b", &[]))];
    assert_eq!(write_with(&b, other.clone(), Some("t1")).await, mismatch());
    assert_eq!(stored(&b, "acct", acct("b", &[])).await, None);
    // Another token, or none, is another request.
    write_with(&b, other.clone(), Some("t2")).await.expect("t2");
    write(&b, increment()).await.expect("no token");
    assert_eq!(counter(&b).await, Some(acct("a", &[("n", n("2"))])));
}

#[tokio::test]
async fn a_failed_call_leaves_its_token_free() {
    let b = engine().await;
    write(&b, vec![put("acct", acct("a", &[("n", n("5"))]))])
        .await
        .expect("seed");
    // Cancelled, invalid, and on a missing table: none of them is remembered.
    assert_eq!(
        reasons(write_with(&b, increment(), Some("t1")).await),
        vec![failed(None)]
    );
    assert_eq!(
        write_with(&b, vec![put_if("acct", acct("a", &[]), "a =")], Some("t1")).await,
        Err(Error::validation(
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\""
        ))
    );
    assert_eq!(
        write_with(&b, vec![put("missing", acct("a", &[]))], Some("t1")).await,
        Err(Error::resource_not_found("Requested resource not found"))
    );
    write(&b, vec![put("acct", acct("a", &[("n", n("0"))]))])
        .await
        .expect("reset");
    // The same token now runs, with the first request's parameters or any others.
    write_with(&b, increment(), Some("t1")).await.expect("runs");
    assert_eq!(counter(&b).await, Some(acct("a", &[("n", n("1"))])));
}

#[tokio::test]
async fn the_window_is_ten_minutes_after_the_first_call_on_the_engine_clock() {
    let clock = ManualClock::default();
    let b = engine_on(MemBackend::with_clock(clock.clone())).await;
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("first");
    // A replay does not extend the window.
    clock.advance(Duration::from_secs(300));
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("replay at 5 min");
    clock.advance(Duration::from_secs(300) - Duration::from_nanos(1));
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("replay at 10 min - 1 ns");
    assert_eq!(
        write_with(&b, vec![put("acct", acct("b", &[]))], Some("t1")).await,
        mismatch()
    );
    assert_eq!(counter(&b).await, Some(acct("a", &[("n", n("1"))])));
    // At exactly 10 minutes the token is new: the request runs again.
    clock.advance(Duration::from_nanos(1));
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("new request");
    assert_eq!(counter(&b).await, Some(acct("a", &[("n", n("2"))])));
    // ... and opens a new window.
    write_with(&b, increment(), Some("t1"))
        .await
        .expect("replay");
    assert_eq!(
        write_with(&b, vec![put("acct", acct("b", &[]))], Some("t1")).await,
        mismatch()
    );
    clock.advance(Duration::from_secs(600));
    write_with(&b, vec![put("acct", acct("b", &[]))], Some("t1"))
        .await
        .expect("other parameters after the window");
}

#[tokio::test]
async fn tokens_are_pruned_as_they_expire() {
    let clock = ManualClock::default();
    let b = engine_on(MemBackend::with_clock(clock.clone())).await;
    for i in 0..50 {
        let token = format!("t{i}");
        write_with(&b, vec![put("acct", acct(&token, &[]))], Some(&token))
            .await
            .expect("write");
        clock.advance(Duration::from_secs(60));
    }
    // The last call (at minute 49) pruned every token of minute 39 or before (their 10 minutes are
    // over) and recorded its own: minutes 40 to 49 remain.
    assert_eq!(b.read().tokens_len(), 10);
}
