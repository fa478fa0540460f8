//! Eventual consistency and forks: a fork carries its parent's pending changes to its own clock.

use super::super::indexes::full;
use super::super::query::put;
use super::*;

#[tokio::test]
async fn a_fork_carries_the_pending_changes_to_its_own_clock() {
    let (b, clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    let snapshot = b.snapshot();
    // A snapshot carries them: a fork of it settled has them, the engine still waits.
    let early = snapshot.fork();
    assert!(on_gsi(&early, "gsi1", "x").await.is_empty());
    early.settle();
    assert_eq!(on_gsi(&early, "gsi1", "x").await, ["1"]);
    assert!(on_gsi(&b, "gsi1", "x").await.is_empty());
    let own = ManualClock::default();
    let fork = b.fork_with(crate::ForkOptions::new().clock(own.clone()));
    clock.advance(DELAY);
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1"]);
    assert!(
        on_gsi(&fork, "gsi1", "x").await.is_empty(),
        "its clock has not moved"
    );
    own.advance(DELAY);
    assert_eq!(on_gsi(&fork, "gsi1", "x").await, ["1"]);
}
