//! Eventual consistency on demand (`storage/consistency/`): GSI changes arrive after their delay
//! on the engine's clock or at `settle()`, reads without `ConsistentRead` are stale within the
//! window only, what DynamoDB keeps strongly consistent stays so, and the same seed gives the same
//! answers.

use std::time::Duration;

use dynomodel::backend::{
    BatchGetItemInput, DeleteItemInput, GetItemInput, KeysAndAttributes, PutItemInput, QueryInput,
    ScanInput, TransactConditionCheck, TransactGet, TransactGetItemsInput, TransactWriteItem,
    TransactWriteItemsInput, UpdateItemInput,
};
use dynomodel::{AttributeValue, Backend, Item};

use super::indexes::{full, schema};
use super::query::put;
use super::{item, n, s};
use crate::{EventualConsistency, ManualClock, MemBackend};

const DELAY: Duration = Duration::from_millis(300);
const STALE: Duration = Duration::from_millis(100);
const MS: Duration = Duration::from_millis(1);

/// An engine with `settings` on a manual clock, with the `indexes.rs` table (`gsi1`: `g`/`gs`,
/// INCLUDE `x`; `gall`: `g`, ALL; `lsi1`: `pk`/`l`, KEYS_ONLY).
async fn engine(settings: EventualConsistency) -> (MemBackend, ManualClock) {
    let clock = ManualClock::default();
    let b = MemBackend::builder()
        .clock(clock.clone())
        .eventual_consistency(settings)
        .build();
    b.create_table(schema()).await.expect("create");
    (b, clock)
}

fn lagging() -> EventualConsistency {
    EventualConsistency::new()
        .gsi_delay(DELAY)
        .stale_reads(STALE)
}

fn key(i: usize) -> Item {
    item(&[("pk", s("a")), ("sk", n(&i.to_string()))])
}

/// The `sk`s GSI `index` holds under `g`, in order.
async fn on_gsi(b: &MemBackend, index: &str, g: &str) -> Vec<String> {
    let out = b
        .query(QueryInput {
            table_name: "tbl".into(),
            index_name: Some(index.into()),
            key_condition_expression: Some("g = :g".into()),
            expression_attribute_values: Some(item(&[(":g", s(g))])),
            ..Default::default()
        })
        .await
        .expect("query");
    sks(out.items)
}

fn sks(items: Option<Vec<Item>>) -> Vec<String> {
    items
        .unwrap_or_default()
        .iter()
        .map(|i| match i.get("sk") {
            Some(AttributeValue::N(n)) => n.to_string(),
            other => format!("{other:?}"),
        })
        .collect()
}

/// Every entry of GSI `gall` in Scan order, as `sk:g:x`.
async fn scan_gsi(b: &MemBackend) -> Vec<String> {
    let out = b
        .scan(ScanInput {
            table_name: "tbl".into(),
            index_name: Some("gall".into()),
            ..Default::default()
        })
        .await
        .expect("scan");
    out.items
        .unwrap_or_default()
        .iter()
        .map(|i| {
            let text = |name: &str| match i.get(name) {
                Some(AttributeValue::S(v)) => v.clone(),
                Some(AttributeValue::N(v)) => v.to_string(),
                _ => "-".into(),
            };
            format!("{}:{}:{}", text("sk"), text("g"), text("x"))
        })
        .collect()
}

async fn get(b: &MemBackend, i: usize, consistent: Option<bool>) -> Option<Item> {
    b.get_item(GetItemInput {
        table_name: "tbl".into(),
        key: key(i),
        consistent_read: consistent,
        ..Default::default()
    })
    .await
    .expect("get")
    .item
}

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
async fn eventually_consistent_reads_are_stale_within_the_window_only() {
    let (b, clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    assert!(get(&b, 1, None).await.is_none(), "new: not seen yet");
    assert!(get(&b, 1, Some(false)).await.is_none());
    assert!(
        get(&b, 1, Some(true)).await.is_some(),
        "never for ConsistentRead"
    );
    clock.advance(STALE);
    assert_eq!(get(&b, 1, None).await, Some(full(1, "x", 1)));
    // An update: the previous version within the window.
    put(&b, "tbl", full(1, "y", 1)).await;
    assert_eq!(get(&b, 1, None).await, Some(full(1, "x", 1)));
    assert_eq!(get(&b, 1, Some(true)).await, Some(full(1, "y", 1)));
    let batch = |consistent: Option<bool>| BatchGetItemInput {
        request_items: [(
            "tbl".to_owned(),
            KeysAndAttributes {
                keys: vec![key(1)],
                consistent_read: consistent,
                ..Default::default()
            },
        )]
        .into(),
        ..Default::default()
    };
    let seen = |out: dynomodel::backend::BatchGetItemOutput| {
        out.responses.get("tbl").cloned().unwrap_or_default()
    };
    assert_eq!(
        seen(b.batch_get_item(batch(None)).await.expect("batch")),
        [full(1, "x", 1)]
    );
    assert_eq!(
        seen(b.batch_get_item(batch(Some(true))).await.expect("batch")),
        [full(1, "y", 1)]
    );
    // A deletion: the item is still read within the window.
    clock.advance(STALE);
    b.delete_item(DeleteItemInput {
        table_name: "tbl".into(),
        key: key(1),
        ..Default::default()
    })
    .await
    .expect("delete");
    assert_eq!(get(&b, 1, None).await, Some(full(1, "y", 1)));
    assert!(get(&b, 1, Some(true)).await.is_none());
    clock.advance(STALE - MS);
    assert!(get(&b, 1, None).await.is_some(), "one ms before the end");
    clock.advance(MS);
    assert!(get(&b, 1, None).await.is_none());
}

#[tokio::test]
async fn conditions_transactions_and_returned_values_see_the_current_item() {
    let (b, _clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    // The condition is evaluated on the current item, which exists.
    let err = b
        .put_item(PutItemInput {
            table_name: "tbl".into(),
            item: full(1, "y", 1),
            condition_expression: Some("attribute_not_exists(pk)".into()),
            ..Default::default()
        })
        .await
        .expect_err("the item exists");
    assert_eq!(err.code(), "ConditionalCheckFailedException");
    let out = b
        .put_item(PutItemInput {
            table_name: "tbl".into(),
            item: full(1, "y", 1),
            return_values: Some(dynomodel::backend::ReturnValue::AllOld),
            ..Default::default()
        })
        .await
        .expect("put");
    assert_eq!(out.attributes, Some(full(1, "x", 1)));
    let got = b
        .transact_get_items(TransactGetItemsInput {
            transact_items: vec![TransactGet {
                table_name: "tbl".into(),
                key: key(1),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await
        .expect("transact get");
    assert_eq!(got.responses, [Some(full(1, "y", 1))]);
    b.transact_write_items(TransactWriteItemsInput {
        transact_items: vec![TransactWriteItem::ConditionCheck(TransactConditionCheck {
            table_name: "tbl".into(),
            key: key(1),
            condition_expression: "g = :g".into(),
            expression_attribute_values: Some(item(&[(":g", s("y"))])),
            ..Default::default()
        })],
        ..Default::default()
    })
    .await
    .expect("the condition sees the current item");
}

/// What each of 12 items looks like on GSI `gall` at each 50 ms step, with delays drawn between 0
/// and 500 ms from `seed`.
async fn timeline(seed: u64) -> Vec<Vec<String>> {
    let (b, clock) = engine(
        EventualConsistency::new()
            .gsi_delay_between(Duration::ZERO, Duration::from_millis(500))
            .seed(seed),
    )
    .await;
    for i in 0..12 {
        put(&b, "tbl", full(i, "x", i as i64)).await;
    }
    let mut seen = Vec::new();
    for _ in 0..11 {
        seen.push(scan_gsi(&b).await);
        clock.advance(Duration::from_millis(50));
    }
    seen
}

#[tokio::test]
async fn the_same_seed_gives_the_same_answers() {
    let first = timeline(7).await;
    assert_eq!(first, timeline(7).await);
    assert_ne!(first, timeline(8).await);
    assert!(first.first().is_some_and(|s| s.len() < 12), "{first:?}");
    assert_eq!(
        first.last().map(Vec::len),
        Some(12),
        "all arrived after 500 ms"
    );
    assert!(
        first.windows(2).all(|w| w[0].len() <= w[1].len()),
        "entries only arrive: {first:?}"
    );
}

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
async fn off_by_default_and_with_zero_delays() {
    let b = MemBackend::new();
    b.create_table(schema()).await.expect("create");
    put(&b, "tbl", full(1, "x", 1)).await;
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1"]);
    assert!(get(&b, 1, None).await.is_some());
    let (b, _clock) = engine(
        EventualConsistency::new()
            .gsi_delay(Duration::ZERO)
            .stale_reads(Duration::ZERO),
    )
    .await;
    put(&b, "tbl", full(1, "x", 1)).await;
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1"]);
    assert!(get(&b, 1, None).await.is_some());
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

/// The `sk:x` of every item a Query of partition `a` (of the table, or of `index`) returns.
async fn query_a(
    b: &MemBackend,
    index: Option<&str>,
    consistent: Option<bool>,
    forward: bool,
) -> Vec<String> {
    let out = b
        .query(QueryInput {
            table_name: "tbl".into(),
            index_name: index.map(Into::into),
            key_condition_expression: Some("pk = :p".into()),
            expression_attribute_values: Some(item(&[(":p", s("a"))])),
            consistent_read: consistent,
            scan_index_forward: Some(forward),
            ..Default::default()
        })
        .await
        .expect("query");
    versions(out.items)
}

fn versions(items: Option<Vec<Item>>) -> Vec<String> {
    items
        .unwrap_or_default()
        .iter()
        .map(|i| {
            let sk = match i.get("sk") {
                Some(AttributeValue::N(n)) => n.to_string(),
                _ => "-".into(),
            };
            let l = match i.get("l") {
                Some(AttributeValue::S(v)) => v.clone(),
                _ => "-".into(),
            };
            format!("{sk}:{l}")
        })
        .collect()
}

/// Items 0..6 written and arrived, then 1 updated (`l` changes), 3 deleted and 7 created.
async fn written_within_the_window() -> (MemBackend, ManualClock) {
    let (b, clock) = engine(lagging()).await;
    for i in 0..6 {
        put(&b, "tbl", full(i, "x", 1)).await;
    }
    b.settle();
    let mut updated = full(1, "x", 1);
    updated.insert("l".into(), s("new"));
    put(&b, "tbl", updated).await;
    b.delete_item(DeleteItemInput {
        table_name: "tbl".into(),
        key: key(3),
        ..Default::default()
    })
    .await
    .expect("delete");
    put(&b, "tbl", full(7, "x", 1)).await;
    (b, clock)
}

#[tokio::test]
async fn table_queries_and_scans_without_consistent_read_are_stale_within_the_window() {
    let (b, clock) = written_within_the_window().await;
    let before = ["0:l0", "1:l1", "2:l2", "3:l3", "4:l4", "5:l5"];
    let after = ["0:l0", "1:new", "2:l2", "4:l4", "5:l5", "7:l7"];
    assert_eq!(query_a(&b, None, None, true).await, before);
    let mut backward = before.to_vec();
    backward.reverse();
    assert_eq!(query_a(&b, None, Some(false), false).await, backward);
    assert_eq!(query_a(&b, None, Some(true), true).await, after);
    let scan = |consistent: Option<bool>, limit: Option<i32>| ScanInput {
        table_name: "tbl".into(),
        consistent_read: consistent,
        limit,
        ..Default::default()
    };
    let scanned = b.scan(scan(None, None)).await.expect("scan");
    assert_eq!(versions(scanned.items), before);
    // Paged: each page resumes from the last key read, stale or not.
    let mut paged = Vec::new();
    let mut input = scan(None, Some(2));
    loop {
        let page = b.scan(input.clone()).await.expect("scan");
        paged.extend(versions(page.items));
        match page.last_evaluated_key {
            Some(lek) => input.exclusive_start_key = Some(lek),
            None => break,
        }
    }
    assert_eq!(paged, before);
    let consistent = b.scan(scan(Some(true), None)).await.expect("scan");
    assert_eq!(versions(consistent.items), after);
    clock.advance(STALE);
    assert_eq!(query_a(&b, None, None, true).await, after);
    let scanned = b.scan(scan(None, None)).await.expect("scan");
    assert_eq!(versions(scanned.items), after);
}

#[tokio::test]
async fn lsi_reads_without_consistent_read_are_stale_within_the_window() {
    let (b, clock) = written_within_the_window().await;
    // `lsi1` is KEYS_ONLY on `l`: entries in `l` order.
    let before = ["0:l0", "1:l1", "2:l2", "3:l3", "4:l4", "5:l5"];
    let after = ["0:l0", "2:l2", "4:l4", "5:l5", "7:l7", "1:new"];
    assert_eq!(query_a(&b, Some("lsi1"), None, true).await, before);
    assert_eq!(query_a(&b, Some("lsi1"), Some(true), true).await, after);
    clock.advance(STALE);
    assert_eq!(query_a(&b, Some("lsi1"), None, true).await, after);
}
