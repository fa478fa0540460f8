//! Forks, snapshots, restore and reset (`crate::fork`): a fork is independent of its parent for
//! every kind of state (items, indexes, tables created and deleted, TTL, tags, streams, tokens), a
//! fork behaves as a fresh engine loaded with the same data, and many forks work in parallel.

use std::time::Duration;

use dynomodel::backend::{
    Backend, DeleteTableInput, DescribeTimeToLiveInput, GetItemInput, ListStreamsInput,
    ListTablesInput, ListTagsOfResourceInput, QueryInput, ScalarAttributeType, ScanInput,
    StreamSpecification, StreamViewType, Tag, TagResourceInput, TimeToLiveSpecification,
    TransactPut, TransactWriteItem, TransactWriteItemsInput, UpdateTimeToLiveInput,
};
use dynomodel::{AttributeValue, Item};

use super::indexes::{full, schema};
use super::query::put;
use super::{backend_with, item, n, s, stream_records, table_input};
use crate::{Clock, ForkOptions, ManualClock, MemBackend};

fn key(i: usize) -> Item {
    item(&[("pk", s("a")), ("sk", n(&i.to_string()))])
}

async fn get(b: &MemBackend, i: usize) -> Option<Item> {
    b.get_item(GetItemInput {
        table_name: "tbl".into(),
        key: key(i),
        consistent_read: Some(true),
        ..Default::default()
    })
    .await
    .expect("get")
    .item
}

/// The `sk` of every entry of GSI `gsi1` under `g`, in order.
async fn by_g(b: &MemBackend, g: &str) -> Vec<AttributeValue> {
    let out = b
        .query(QueryInput {
            table_name: "tbl".into(),
            index_name: Some("gsi1".into()),
            key_condition_expression: Some("g = :g".into()),
            expression_attribute_values: Some(item(&[(":g", s(g))])),
            ..Default::default()
        })
        .await
        .expect("query");
    out.items
        .unwrap_or_default()
        .into_iter()
        .filter_map(|mut i| i.remove("sk"))
        .collect()
}

async fn table_names(b: &MemBackend) -> Vec<String> {
    b.list_tables(ListTablesInput::default())
        .await
        .expect("list")
        .table_names
}

/// `tbl` (with an LSI and two GSIs) holding items 0..count, in `g` "red" (even) or "blue" (odd).
async fn fixture(count: usize) -> MemBackend {
    let b = backend_with(schema()).await;
    for i in 0..count {
        let g = if i % 2 == 0 { "red" } else { "blue" };
        put(&b, "tbl", full(i, g, i as i64)).await;
    }
    b
}

#[tokio::test]
async fn items_and_indexes_are_independent_both_ways() {
    let parent = fixture(40).await;
    let fork = parent.fork();
    // The fork writes: a new item, a changed index key, a deletion.
    put(&fork, "tbl", full(100, "red", 100)).await;
    put(&fork, "tbl", full(0, "blue", 0)).await;
    fork.delete_item(dynomodel::backend::DeleteItemInput {
        table_name: "tbl".into(),
        key: key(2),
        ..Default::default()
    })
    .await
    .expect("delete");
    // The parent writes too, after the fork.
    put(&parent, "tbl", full(200, "blue", 200)).await;

    assert!(get(&fork, 100).await.is_some());
    assert!(get(&parent, 100).await.is_none());
    assert!(get(&fork, 2).await.is_none());
    assert!(get(&parent, 2).await.is_some());
    assert!(get(&fork, 200).await.is_none());
    assert!(get(&parent, 200).await.is_some());
    assert_eq!(by_g(&parent, "red").await.len(), 20);
    assert_eq!(by_g(&fork, "red").await.len(), 19); // 0 moved to blue, 2 deleted, 100 added
    assert_eq!(by_g(&parent, "blue").await.len(), 21);
    assert_eq!(by_g(&fork, "blue").await.len(), 21);
    assert!(parent.consistency_problems().is_empty());
    assert!(fork.consistency_problems().is_empty());
}

#[tokio::test]
async fn tables_created_and_deleted_are_independent() {
    let parent = fixture(3).await;
    let fork = parent.fork();
    fork.create_table(table_input("other", ScalarAttributeType::S, None))
        .await
        .expect("create");
    parent
        .delete_table(DeleteTableInput {
            table_name: "tbl".into(),
        })
        .await
        .expect("delete");
    assert_eq!(table_names(&parent).await, Vec::<String>::new());
    assert_eq!(table_names(&fork).await, ["other", "tbl"]);
    assert!(get(&fork, 1).await.is_some());
}

#[tokio::test]
async fn ttl_tags_and_tokens_are_independent() {
    let clock = ManualClock::default();
    let parent = MemBackend::with_clock(clock.clone());
    let created = parent
        .create_table(table_input(
            "tbl",
            ScalarAttributeType::S,
            Some(ScalarAttributeType::N),
        ))
        .await
        .expect("create");
    let arn = created.table_description.table_arn;
    let token_put = |x: &str| TransactWriteItemsInput {
        transact_items: vec![TransactWriteItem::Put(TransactPut {
            table_name: "tbl".into(),
            item: item(&[("pk", s("t")), ("sk", n("1")), ("x", s(x))]),
            ..Default::default()
        })],
        client_request_token: Some("token-1".into()),
        ..Default::default()
    };
    parent
        .transact_write_items(token_put("first"))
        .await
        .expect("transaction");
    let fork = parent.fork();

    // The token travels with the fork: a different request with it is a mismatch there too...
    let err = fork
        .transact_write_items(token_put("second"))
        .await
        .expect_err("token reused");
    assert_eq!(err.code(), "IdempotentParameterMismatchException");

    // ... and TTL and tags set on the fork stay there.
    fork.update_time_to_live(UpdateTimeToLiveInput {
        table_name: "tbl".into(),
        time_to_live_specification: TimeToLiveSpecification {
            enabled: true,
            attribute_name: "expires".into(),
        },
    })
    .await
    .expect("ttl");
    fork.tag_resource(TagResourceInput {
        resource_arn: arn.clone(),
        tags: vec![Tag::new("env", "fork")],
    })
    .await
    .expect("tag");
    let ttl = |b: MemBackend| async move {
        b.describe_time_to_live(DescribeTimeToLiveInput {
            table_name: "tbl".into(),
        })
        .await
        .expect("describe ttl")
        .time_to_live_description
        .attribute_name
    };
    assert_eq!(ttl(fork.clone()).await.as_deref(), Some("expires"));
    assert_eq!(ttl(parent.clone()).await, None);
    let tags = |b: MemBackend, arn: String| async move {
        b.list_tags_of_resource(ListTagsOfResourceInput {
            resource_arn: arn,
            next_token: None,
        })
        .await
        .expect("tags")
        .tags
    };
    assert_eq!(
        tags(fork.clone(), arn.clone()).await,
        [Tag::new("env", "fork")]
    );
    assert!(tags(parent.clone(), arn.clone()).await.is_empty());

    // An expired item is swept from the fork only.
    let soon = clock.now().timestamp() + 10;
    put(
        &fork,
        "tbl",
        item(&[
            ("pk", s("e")),
            ("sk", n("1")),
            ("expires", n(&soon.to_string())),
        ]),
    )
    .await;
    put(
        &parent,
        "tbl",
        item(&[
            ("pk", s("e")),
            ("sk", n("1")),
            ("expires", n(&soon.to_string())),
        ]),
    )
    .await;
    clock.advance(Duration::from_secs(60));
    assert_eq!(fork.sweep_expired(), 1);
    assert_eq!(parent.sweep_expired(), 0);
}

/// Every record of every stream of `b`, as (event name, sequence number).
async fn records(b: &MemBackend) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let streams = b
        .list_streams(ListStreamsInput::default())
        .await
        .expect("streams")
        .streams;
    for stream in streams {
        out.extend(
            stream_records(b, &stream.stream_arn)
                .await
                .into_iter()
                .map(|r| (format!("{:?}", r.event_name), r.dynamodb.sequence_number)),
        );
    }
    out
}

#[tokio::test]
async fn streams_record_independently_with_their_own_sequence() {
    let mut input = table_input("tbl", ScalarAttributeType::S, Some(ScalarAttributeType::N));
    input.stream_specification = Some(StreamSpecification::enabled(StreamViewType::NewImage));
    let parent = backend_with(input).await;
    put(&parent, "tbl", key(1)).await;
    let fork = parent.fork();
    put(&fork, "tbl", key(2)).await;
    put(&fork, "tbl", key(3)).await;
    put(&parent, "tbl", key(4)).await;

    let (parent_records, fork_records) = (records(&parent).await, records(&fork).await);
    assert_eq!(parent_records.len(), 2);
    assert_eq!(fork_records.len(), 3);
    // The first record is shared history; after it, each engine numbers its own.
    assert_eq!(parent_records[0], fork_records[0]);
    assert_eq!(parent_records[1].1, fork_records[1].1);
    assert!(fork_records[2].1 > fork_records[1].1);
}

#[tokio::test]
async fn snapshot_restore_and_reset() {
    let b = fixture(10).await;
    let snapshot = b.snapshot();
    put(&b, "tbl", full(50, "red", 50)).await;
    b.create_table(table_input("other", ScalarAttributeType::S, None))
        .await
        .expect("create");
    // A clone of the backend (as a `Db` or a server holds) sees the restore too.
    let clone = b.clone();
    b.restore(&snapshot).expect("restore");
    assert!(get(&clone, 50).await.is_none());
    assert_eq!(table_names(&clone).await, ["tbl"]);
    assert_eq!(by_g(&clone, "red").await.len(), 5);
    // The snapshot is immutable: writes after a restore do not reach it.
    put(&b, "tbl", full(60, "red", 60)).await;
    b.restore(&snapshot).expect("restore again");
    assert!(get(&b, 60).await.is_none());
    assert!(b.consistency_problems().is_empty());

    b.reset().expect("reset");
    assert!(table_names(&clone).await.is_empty());
    // And a snapshot outlives what it was taken from.
    let from_snapshot = snapshot.fork();
    assert_eq!(by_g(&from_snapshot, "blue").await.len(), 5);
}

#[tokio::test]
async fn fork_options_choose_clock_and_faults() {
    use crate::faults::{FaultError, Operation, Rule};
    let parent_clock = ManualClock::default();
    let parent = MemBackend::with_clock(parent_clock.clone());
    parent
        .faults()
        .add(Rule::on(Operation::GetItem).fail(FaultError::Throttling));
    parent
        .create_table(table_input(
            "tbl",
            ScalarAttributeType::S,
            Some(ScalarAttributeType::N),
        ))
        .await
        .expect("create");
    assert!(get(&parent.fork(), 1).await.is_none());
    let shared = parent.fork_with(ForkOptions::new().share_faults());
    let failed = shared
        .get_item(GetItemInput {
            table_name: "tbl".into(),
            key: key(1),
            ..Default::default()
        })
        .await;
    assert!(failed.is_err());

    let own = ManualClock::default();
    own.advance(Duration::from_secs(3600));
    let fork = parent.fork_with(ForkOptions::new().clock(own.clone()));
    assert_eq!(fork.now(), own.now());
    assert_eq!(parent.fork().now(), parent_clock.now());
}

/// A fork must answer as a fresh engine loaded with the same items would, for any mix of writes
/// after the fork (fixed seed: the same cases every run).
#[tokio::test]
async fn a_fork_behaves_as_a_fresh_engine_with_the_same_data() {
    let mut seed: u64 = 0x5eed_f0e4;
    let mut next = move |below: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % below
    };
    let parent = fixture(300).await;
    let fork = parent.fork();
    let fresh = backend_with(schema()).await;
    let mut all = Vec::new();
    for i in 0..300 {
        all.push(full(i, if i % 2 == 0 { "red" } else { "blue" }, i as i64));
    }
    for it in &all {
        put(&fresh, "tbl", it.clone()).await;
    }
    for round in 0..400 {
        let i = next(400) as usize;
        let g = ["red", "blue", "green"][next(3) as usize];
        if next(4) == 0 {
            for b in [&fork, &fresh] {
                b.delete_item(dynomodel::backend::DeleteItemInput {
                    table_name: "tbl".into(),
                    key: key(i),
                    ..Default::default()
                })
                .await
                .expect("delete");
            }
        } else {
            let it = full(i, g, next(50) as i64);
            put(&fork, "tbl", it.clone()).await;
            put(&fresh, "tbl", it).await;
        }
        if round % 50 == 0 {
            for g in ["red", "blue", "green"] {
                assert_eq!(by_g(&fork, g).await, by_g(&fresh, g).await, "round {round}");
            }
        }
    }
    let scan = |b: MemBackend| async move {
        b.scan(ScanInput {
            table_name: "tbl".into(),
            ..Default::default()
        })
        .await
        .expect("scan")
        .items
    };
    assert_eq!(scan(fork.clone()).await, scan(fresh.clone()).await);
    assert!(fork.consistency_problems().is_empty());
    // The parent still holds its 300 items, unchanged.
    assert_eq!(scan(parent.clone()).await.map(|i| i.len()), Some(300));
}

#[test]
fn many_forks_in_parallel_from_many_threads() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let parent = runtime.block_on(fixture(200));
    std::thread::scope(|scope| {
        for t in 0..8 {
            let parent = &parent;
            scope.spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .build()
                    .expect("runtime");
                runtime.block_on(async {
                    for round in 0..10 {
                        let fork = parent.fork();
                        let i = 1000 + t * 100 + round;
                        put(&fork, "tbl", full(i, "red", 0)).await;
                        put(&fork, "tbl", full(t, "green", 0)).await;
                        assert_eq!(
                            by_g(&fork, "red").await.len(),
                            101 - usize::from(t % 2 == 0)
                        );
                        assert_eq!(by_g(&fork, "green").await.len(), 1);
                        assert!(get(&fork, i).await.is_some());
                    }
                });
            });
        }
    });
    assert_eq!(runtime.block_on(by_g(&parent, "red")).len(), 100);
    assert!(runtime.block_on(by_g(&parent, "green")).is_empty());
}
