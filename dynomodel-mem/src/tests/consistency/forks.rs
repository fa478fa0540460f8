//! Eventual consistency and forks: a fork carries its parent's pending changes to its own clock;
//! a fork given its own setting ([`crate::ForkOptions::eventual_consistency`]) and a
//! [`crate::Fixture`]'s forks lag their own writes, each apart from the others.

use dynomodel::backend::PutItemInput;

use super::super::indexes::full;
use super::super::query::put;
use super::*;
use crate::{Fixture, ForkOptions};

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

/// A strongly consistent engine on a manual clock holding item 1 (`g` x) in the `indexes.rs` table.
async fn strong_parent() -> (MemBackend, ManualClock) {
    let clock = ManualClock::default();
    let b = MemBackend::builder().clock(clock.clone()).build();
    b.create_table(schema()).await.expect("create");
    put(&b, "tbl", full(1, "x", 1)).await;
    (b, clock)
}

#[tokio::test]
async fn a_fork_given_its_own_setting_lags_where_its_parent_does_not() {
    let (parent, clock) = strong_parent().await;
    let fork = parent.fork_with(ForkOptions::new().eventual_consistency(lagging()));
    // What the parent held is settled in the fork.
    assert_eq!(on_gsi(&fork, "gsi1", "x").await, ["1"]);
    assert!(get(&fork, 1, None).await.is_some());
    // The fork's writes lag; the parent's do not.
    put(&fork, "tbl", full(2, "x", 2)).await;
    put(&parent, "tbl", full(3, "x", 3)).await;
    assert_eq!(on_gsi(&fork, "gsi1", "x").await, ["1"]);
    assert!(get(&fork, 2, None).await.is_none(), "a stale read");
    assert!(get(&fork, 2, Some(true)).await.is_some());
    assert_eq!(on_gsi(&parent, "gsi1", "x").await, ["1", "3"]);
    clock.advance(DELAY);
    assert_eq!(on_gsi(&fork, "gsi1", "x").await, ["1", "2"]);
    // A fork of the fork keeps the setting; a reset keeps it too.
    let again = fork.fork();
    put(&again, "tbl", full(4, "x", 4)).await;
    assert_eq!(on_gsi(&again, "gsi1", "x").await, ["1", "2"]);
    again.settle();
    assert_eq!(on_gsi(&again, "gsi1", "x").await, ["1", "2", "4"]);
    fork.reset().expect("reset");
    fork.create_table(schema()).await.expect("create");
    put(&fork, "tbl", full(5, "x", 5)).await;
    assert!(on_gsi(&fork, "gsi1", "x").await.is_empty());
    assert!(fork.consistency_problems().is_empty());
}

#[tokio::test]
async fn forks_given_a_setting_keep_the_pending_changes_apart_and_draw_the_same_delays() {
    let (parent, clock) = strong_parent().await;
    let drawn = || {
        EventualConsistency::new()
            .gsi_delay_between(Duration::ZERO, DELAY)
            .seed(3)
    };
    let one = parent.fork_with(ForkOptions::new().eventual_consistency(drawn()));
    let two = parent.fork_with(ForkOptions::new().eventual_consistency(drawn()));
    for i in 2..12 {
        put(&one, "tbl", full(i, "x", i as i64)).await;
        put(&two, "tbl", full(i, "x", i as i64)).await;
    }
    put(&one, "tbl", full(20, "y", 20)).await;
    put(&two, "tbl", full(30, "y", 30)).await;
    // The same writes in the same order from the fixture: the same delays in both forks.
    for _ in 0..6 {
        assert_eq!(
            on_gsi(&one, "gsi1", "x").await,
            on_gsi(&two, "gsi1", "x").await
        );
        clock.advance(DELAY / 5);
    }
    // Each fork's pending changes are its own: settling one leaves the other lagging.
    put(&one, "tbl", full(40, "z", 40)).await;
    put(&two, "tbl", full(50, "z", 50)).await;
    one.settle();
    assert_eq!(on_gsi(&one, "gsi1", "z").await, ["40"]);
    assert!(on_gsi(&two, "gsi1", "z").await.is_empty());
    assert_eq!(on_gsi(&two, "gsi1", "y").await, ["30"]);
    clock.advance(DELAY);
    assert_eq!(on_gsi(&two, "gsi1", "z").await, ["50"]);
}

/// Items 1 and 2 (`g` x), each read back by the build without `ConsistentRead`: the build fails
/// unless it is strongly consistent.
static LAGGING: Fixture = Fixture::new(|db| {
    Box::pin(async move {
        let backend = db.backend();
        backend.create_table(schema()).await?;
        for i in 1..3 {
            backend
                .put_item(PutItemInput {
                    table_name: "tbl".into(),
                    item: full(i, "x", i as i64),
                    ..Default::default()
                })
                .await?;
            let read = backend
                .get_item(GetItemInput {
                    table_name: "tbl".into(),
                    key: key(i),
                    ..Default::default()
                })
                .await?;
            if read.item.is_none() {
                return Err(dynomodel::Error::validation("the build read a stale item"));
            }
        }
        Ok(())
    })
})
.eventual_consistency(
    EventualConsistency::new()
        .gsi_delay(Duration::from_secs(3600))
        .stale_reads(Duration::from_secs(3600)),
);

#[tokio::test]
async fn a_fixture_is_built_settled_and_its_forks_lag_each_on_its_own() {
    let one = LAGGING.fork_backend().await.expect("fork");
    let two = LAGGING.fork_backend().await.expect("fork");
    assert_eq!(on_gsi(&one, "gsi1", "x").await, ["1", "2"], "settled");
    assert!(get(&one, 1, None).await.is_some(), "no stale fixture item");
    put(&one, "tbl", full(3, "x", 3)).await;
    put(&two, "tbl", full(4, "x", 4)).await;
    assert_eq!(on_gsi(&one, "gsi1", "x").await, ["1", "2"]);
    assert!(get(&one, 3, None).await.is_none(), "a stale read");
    one.settle();
    assert_eq!(on_gsi(&one, "gsi1", "x").await, ["1", "2", "3"]);
    assert_eq!(on_gsi(&two, "gsi1", "x").await, ["1", "2"], "still lagging");
    // The fixture's snapshot is strongly consistent: its forks do not lag.
    let plain = LAGGING.snapshot().await.expect("snapshot").fork();
    put(&plain, "tbl", full(5, "x", 5)).await;
    assert_eq!(on_gsi(&plain, "gsi1", "x").await, ["1", "2", "5"]);
}

#[tokio::test]
async fn a_fixture_fork_forked_on_a_manual_clock_lags_on_it() {
    let clock = ManualClock::default();
    let fork = LAGGING
        .fork_backend()
        .await
        .expect("fork")
        .fork_with(ForkOptions::new().clock(clock.clone()));
    put(&fork, "tbl", full(3, "x", 3)).await;
    assert_eq!(on_gsi(&fork, "gsi1", "x").await, ["1", "2"]);
    clock.advance(Duration::from_secs(3600));
    assert_eq!(on_gsi(&fork, "gsi1", "x").await, ["1", "2", "3"]);
}
