//! GSI propagation: a GSI's change arrives after its delay on the engine's clock, or at
//! `settle()`; a key's changes arrive together and in order; LSIs and strongly consistent reads
//! have it at once.

use dynomodel::backend::{DeleteItemInput, UpdateItemInput};

use super::super::indexes::full;
use super::super::query::put;
use super::super::{item, n, s};
use super::*;

#[tokio::test]
async fn a_gsi_write_arrives_after_the_delay_and_lsis_at_once() {
    let (b, clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    assert!(
        on_gsi(&b, "gsi1", "x").await.is_empty(),
        "not yet on the GSI"
    );
    assert!(on_gsi(&b, "gall", "x").await.is_empty());
    // The LSI and a strongly consistent read of the table have it at once.
    let lsi = b
        .query(QueryInput {
            table_name: "tbl".into(),
            index_name: Some("lsi1".into()),
            key_condition_expression: Some("pk = :p".into()),
            expression_attribute_values: Some(item(&[(":p", s("a"))])),
            consistent_read: Some(true),
            ..Default::default()
        })
        .await
        .expect("lsi");
    assert_eq!(lsi.count, 1);
    assert!(get(&b, 1, Some(true)).await.is_some());
    clock.advance(DELAY - MS);
    assert!(on_gsi(&b, "gsi1", "x").await.is_empty(), "one ms early");
    clock.advance(MS);
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1"]);
    assert_eq!(on_gsi(&b, "gall", "x").await, ["1"]);
    assert!(b.consistency_problems().is_empty());
}

#[tokio::test]
async fn an_update_shows_its_old_version_and_old_index_key_until_it_arrives() {
    let (b, clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    b.settle();
    assert_eq!(scan_gsi(&b).await, ["1:x:x"]);
    b.update_item(UpdateItemInput {
        table_name: "tbl".into(),
        key: key(1),
        update_expression: Some("SET g = :g, x = :x".into()),
        expression_attribute_values: Some(item(&[(":g", s("y")), (":x", s("new"))])),
        ..Default::default()
    })
    .await
    .expect("update");
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1"], "the old key still");
    assert!(
        on_gsi(&b, "gsi1", "y").await.is_empty(),
        "the new key not yet"
    );
    assert_eq!(scan_gsi(&b).await, ["1:x:x"], "the old version");
    clock.advance(DELAY);
    assert!(on_gsi(&b, "gsi1", "x").await.is_empty());
    assert_eq!(on_gsi(&b, "gsi1", "y").await, ["1"]);
    assert_eq!(scan_gsi(&b).await, ["1:y:new"]);
}

#[tokio::test]
async fn a_deletion_leaves_the_entry_until_it_arrives() {
    let (b, clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    put(&b, "tbl", full(2, "x", 2)).await;
    b.settle();
    b.delete_item(DeleteItemInput {
        table_name: "tbl".into(),
        key: key(1),
        ..Default::default()
    })
    .await
    .expect("delete");
    assert!(get(&b, 1, Some(true)).await.is_none());
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1", "2"]);
    clock.advance(DELAY);
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["2"]);
}

#[tokio::test]
async fn settle_applies_every_pending_change_and_later_writes_lag_again() {
    let (b, clock) = engine(lagging()).await;
    for i in 0..10 {
        put(&b, "tbl", full(i, "x", i as i64)).await;
    }
    assert!(on_gsi(&b, "gsi1", "x").await.is_empty());
    assert!(get(&b, 3, None).await.is_none());
    b.settle();
    assert_eq!(on_gsi(&b, "gsi1", "x").await.len(), 10);
    assert!(get(&b, 3, None).await.is_some());
    put(&b, "tbl", full(10, "x", 10)).await;
    assert_eq!(on_gsi(&b, "gsi1", "x").await.len(), 10, "a new write lags");
    clock.advance(DELAY);
    assert_eq!(on_gsi(&b, "gsi1", "x").await.len(), 11);
}

#[tokio::test]
async fn a_key_written_again_shows_its_first_version_until_the_last_arrives() {
    let (b, clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    b.settle();
    let mut second = full(1, "y", 1);
    second.insert("x".into(), s("second"));
    put(&b, "tbl", second).await;
    clock.advance(DELAY / 2);
    let mut third = full(1, "z", 1);
    third.insert("x".into(), s("third"));
    put(&b, "tbl", third).await;
    clock.advance(DELAY / 2);
    // The second write's delay has passed, not the third's: readers still see the first version.
    assert_eq!(scan_gsi(&b).await, ["1:x:x"]);
    clock.advance(DELAY / 2);
    assert_eq!(scan_gsi(&b).await, ["1:z:third"]);
    assert!(on_gsi(&b, "gsi1", "y").await.is_empty(), "never seen");
}

#[tokio::test]
async fn scans_and_queries_merge_pending_and_current_entries_in_order() {
    let (b, clock) = engine(lagging()).await;
    for i in 0..20 {
        put(
            &b,
            "tbl",
            full(i, if i % 2 == 0 { "x" } else { "y" }, i as i64),
        )
        .await;
    }
    b.settle();
    let before = scan_gsi(&b).await;
    // Every third item moves to the other partition key; every fourth is deleted.
    for i in 0..20 {
        if i % 4 == 0 {
            b.delete_item(DeleteItemInput {
                table_name: "tbl".into(),
                key: key(i),
                ..Default::default()
            })
            .await
            .expect("delete");
        } else if i % 3 == 0 {
            put(
                &b,
                "tbl",
                full(i, if i % 2 == 0 { "y" } else { "x" }, 100 - i as i64),
            )
            .await;
        }
    }
    assert_eq!(scan_gsi(&b).await, before, "nothing has arrived");
    let descending = b
        .query(QueryInput {
            table_name: "tbl".into(),
            index_name: Some("gsi1".into()),
            key_condition_expression: Some("g = :g".into()),
            expression_attribute_values: Some(item(&[(":g", s("x"))])),
            scan_index_forward: Some(false),
            limit: Some(4),
            ..Default::default()
        })
        .await
        .expect("query");
    assert_eq!(sks(descending.items), ["18", "16", "14", "12"]);
    clock.advance(DELAY);
    let after = scan_gsi(&b).await;
    b.settle();
    assert_eq!(after, scan_gsi(&b).await, "arrived is settled");
    assert_ne!(after, before);
    assert!(b.consistency_problems().is_empty());
}

#[tokio::test]
async fn time_to_live_deletions_reach_the_gsi_late() {
    let (b, clock) = engine(lagging()).await;
    b.update_time_to_live(dynomodel::backend::UpdateTimeToLiveInput {
        table_name: "tbl".into(),
        time_to_live_specification: dynomodel::backend::TimeToLiveSpecification {
            enabled: true,
            attribute_name: "ttl".into(),
        },
    })
    .await
    .expect("ttl");
    let mut expiring = full(1, "x", 1);
    expiring.insert(
        "ttl".into(),
        n(&(crate::Clock::now(&clock).timestamp() + 1).to_string()),
    );
    put(&b, "tbl", expiring).await;
    b.settle();
    clock.advance(Duration::from_secs(2));
    assert_eq!(b.sweep_expired(), 1);
    assert!(get(&b, 1, Some(true)).await.is_none());
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1"], "still on the GSI");
    clock.advance(DELAY);
    assert!(on_gsi(&b, "gsi1", "x").await.is_empty());
}

#[tokio::test]
async fn changes_that_have_arrived_are_forgotten_on_the_next_write() {
    let (b, clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    let lagging = |b: &MemBackend| {
        let state = b.read();
        let table = state.tables_for_test("tbl").expect("tbl");
        ["gsi1", "gall"].map(|name| table.index(name).is_some_and(|i| i.lagging()))
    };
    assert_eq!(lagging(&b), [true, true]);
    clock.advance(DELAY);
    assert_eq!(lagging(&b), [true, true], "a read forgets nothing");
    // A write the GSIs do not hold (no `g`): nothing pending is left, reads take the plain path.
    put(
        &b,
        "tbl",
        item(&[("pk", s("a")), ("sk", n("2")), ("l", s("l2"))]),
    )
    .await;
    assert_eq!(lagging(&b), [false, false]);
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1"]);
}
