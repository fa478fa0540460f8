//! Per-table locking (`lock.rs`), shown without timing: a table's lock held by the test while
//! requests on another table complete; readers of one table together; cross-table transactions in
//! opposite orders from many threads, which finish (no deadlock) and never tear.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use dynomodel::backend::{
    Backend, GetItemInput, PutItemInput, QueryInput, ScalarAttributeType as T, TransactGet,
    TransactGetItemsInput, TransactUpdate, TransactWriteItem, TransactWriteItemsInput,
};
use dynomodel::{AttributeValue, Item};

use super::{item, n, s, table_input};
use crate::storage::lock::Mode;
use crate::MemBackend;

/// The tables.
const A: &str = "aaa";
const B: &str = "bbb";

/// Only a failure detector: a request that waits for a lock it must not need never answers, and the
/// test fails after this long instead of hanging.
const STUCK: Duration = Duration::from_secs(30);

fn block_on<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
        .block_on(f)
}

/// Tables [`A`] and [`B`] (pk S), each with the item `{pk: "c", n: 0}`.
fn engine() -> MemBackend {
    let backend = MemBackend::new();
    block_on(async {
        for name in [A, B] {
            backend
                .create_table(table_input(name, T::S, None))
                .await
                .expect("create");
            backend
                .put_item(PutItemInput {
                    table_name: name.into(),
                    item: item(&[("pk", s("c")), ("n", n("0"))]),
                    ..Default::default()
                })
                .await
                .expect("put");
        }
    });
    backend
}

fn key() -> Item {
    item(&[("pk", s("c"))])
}

/// Runs `requests` on another thread; answers what they returned, or fails the test if they do not
/// complete (they waited for a lock the test holds).
fn completes<T: Send + 'static>(requests: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(requests());
    });
    rx.recv_timeout(STUCK)
        .expect("a request waited for a table it does not use")
}

#[test]
fn requests_on_another_table_complete_while_a_table_is_held_for_writing() {
    let backend = engine();
    let state = backend.read();
    // What a long write on A holds.
    let held = state.lock([A], Mode::Write);

    let b = backend.clone();
    let (got, queried) = completes(move || {
        block_on(async {
            b.put_item(PutItemInput {
                table_name: B.into(),
                item: item(&[("pk", s("d"))]),
                ..Default::default()
            })
            .await
            .expect("put on b");
            let got = b
                .get_item(GetItemInput {
                    table_name: B.into(),
                    key: key(),
                    ..Default::default()
                })
                .await
                .expect("get on b");
            let queried = b
                .query(QueryInput {
                    table_name: B.into(),
                    key_condition_expression: Some("pk = :p".into()),
                    expression_attribute_values: Some(item(&[(":p", s("d"))])),
                    ..Default::default()
                })
                .await
                .expect("query on b");
            (got.item, queried.count)
        })
    });
    assert_eq!(got, Some(item(&[("pk", s("c")), ("n", n("0"))])));
    assert_eq!(queried, 1);

    // A write on A waits for the lock the test holds, and goes on once it is released.
    let a = backend.clone();
    let (tx, rx) = mpsc::channel();
    let writer = thread::spawn(move || {
        let written = block_on(a.put_item(PutItemInput {
            table_name: A.into(),
            item: item(&[("pk", s("e"))]),
            ..Default::default()
        }));
        let _ = tx.send(written.is_ok());
    });
    // Whenever this runs, the write cannot have been made: A is still held.
    assert!(
        rx.try_recv().is_err(),
        "a write went through a held table lock"
    );
    drop(held);
    drop(state);
    assert_eq!(rx.recv_timeout(STUCK), Ok(true));
    writer.join().expect("writer");
}

#[test]
fn readers_of_one_table_run_together() {
    let backend = engine();
    let state = backend.read();
    let _reading = state.lock([A], Mode::Read);
    let a = backend.clone();
    let got = completes(move || {
        block_on(a.get_item(GetItemInput {
            table_name: A.into(),
            key: key(),
            ..Default::default()
        }))
    });
    assert!(got.expect("get").item.is_some());
}

fn add(table: &str, by: i64) -> TransactWriteItem {
    TransactWriteItem::Update(TransactUpdate {
        table_name: table.into(),
        key: key(),
        update_expression: "ADD n :by".into(),
        expression_attribute_values: Some(item(&[(":by", n(&by.to_string()))])),
        ..Default::default()
    })
}

fn counter(value: &Option<Item>) -> AttributeValue {
    value
        .as_ref()
        .and_then(|i| i.get("n"))
        .cloned()
        .expect("counter")
}

#[test]
fn cross_table_transactions_in_opposite_orders_finish_and_never_tear() {
    const THREADS: usize = 8;
    const EACH: usize = 200;
    let backend = engine();
    let writers: Vec<_> = (0..THREADS)
        .map(|t| {
            let backend = backend.clone();
            thread::spawn(move || {
                // Half the threads name A first, half B: locking in request order would deadlock.
                let order = if t % 2 == 0 { [A, B] } else { [B, A] };
                block_on(async {
                    for _ in 0..EACH {
                        backend
                            .transact_write_items(TransactWriteItemsInput {
                                transact_items: order.iter().map(|t| add(t, 1)).collect(),
                                ..Default::default()
                            })
                            .await
                            .expect("transaction");
                    }
                });
            })
        })
        .collect();
    // A reader meanwhile, in both orders too: both counters always move together.
    let reader = {
        let backend = backend.clone();
        thread::spawn(move || {
            block_on(async {
                for i in 0..EACH {
                    let order = if i % 2 == 0 { [A, B] } else { [B, A] };
                    let read = backend
                        .transact_get_items(TransactGetItemsInput {
                            transact_items: order
                                .iter()
                                .map(|t| TransactGet {
                                    table_name: (*t).into(),
                                    key: key(),
                                    ..Default::default()
                                })
                                .collect(),
                            ..Default::default()
                        })
                        .await
                        .expect("read");
                    assert_eq!(counter(&read.responses[0]), counter(&read.responses[1]));
                }
            })
        })
    };
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for writer in writers {
            let _ = writer.join();
        }
        let _ = tx.send(reader.join().is_ok());
    });
    assert_eq!(
        rx.recv_timeout(STUCK * 4),
        Ok(true),
        "deadlock or torn read"
    );
    let total = n(&(THREADS * EACH).to_string());
    for table in [A, B] {
        let got = block_on(backend.get_item(GetItemInput {
            table_name: table.into(),
            key: key(),
            ..Default::default()
        }))
        .expect("get");
        assert_eq!(counter(&got.item), total);
    }
}

#[test]
fn a_stream_is_read_while_another_table_is_held_for_writing() {
    let backend = engine();
    let mut with_stream = table_input("ccc", T::S, None);
    with_stream.stream_specification = Some(dynomodel::backend::StreamSpecification::enabled(
        dynomodel::backend::StreamViewType::NewImage,
    ));
    let created = block_on(backend.create_table(with_stream)).expect("create");
    let arn = created
        .table_description
        .latest_stream_arn
        .expect("stream arn");
    block_on(backend.put_item(PutItemInput {
        table_name: "ccc".into(),
        item: key(),
        ..Default::default()
    }))
    .expect("put");
    let state = backend.read();
    let _held = state.lock([A], Mode::Write);
    let reader = backend.clone();
    let records = completes(move || {
        block_on(async {
            let described = reader
                .describe_stream(dynomodel::backend::DescribeStreamInput {
                    stream_arn: arn.clone(),
                    ..Default::default()
                })
                .await
                .expect("describe");
            let shard = described.stream_description.shards[0].shard_id.clone();
            let iterator = reader
                .get_shard_iterator(dynomodel::backend::GetShardIteratorInput {
                    stream_arn: arn,
                    shard_id: shard,
                    shard_iterator_type: dynomodel::backend::ShardIteratorType::TrimHorizon,
                    sequence_number: None,
                })
                .await
                .expect("iterator");
            let iterator = iterator.shard_iterator.expect("an open shard");
            reader
                .get_records(dynomodel::backend::GetRecordsInput {
                    shard_iterator: iterator,
                    limit: None,
                })
                .await
                .expect("records")
                .records
                .len()
        })
    });
    assert_eq!(records, 1);
}

#[test]
fn one_token_used_at_once_on_disjoint_tables_runs_one_transaction() {
    // Two calls with the same ClientRequestToken but different actions, on different tables (so
    // their table locks do not order them): whichever comes second must see the first's token,
    // whatever the interleaving — one commits, the other is a parameter mismatch.
    const ROUNDS: usize = 200;
    let backend = engine();
    for round in 0..ROUNDS {
        let token = format!("token-{round}");
        let calls: Vec<_> = [A, B]
            .into_iter()
            .map(|table| {
                let (backend, token) = (backend.clone(), token.clone());
                thread::spawn(move || {
                    block_on(backend.transact_write_items(TransactWriteItemsInput {
                        transact_items: vec![add(table, 1)],
                        client_request_token: Some(token),
                        ..Default::default()
                    }))
                })
            })
            .collect();
        let answers: Vec<_> = calls
            .into_iter()
            .map(|call| call.join().expect("thread"))
            .collect();
        let committed = answers.iter().filter(|a| a.is_ok()).count();
        assert_eq!(committed, 1, "round {round}: {answers:?}");
        assert!(
            answers
                .iter()
                .filter_map(|a| a.as_ref().err())
                .all(|e| e.to_string().contains("IdempotentParameterMismatch")),
            "round {round}: {answers:?}"
        );
    }
}

#[test]
fn a_run_of_one_name_holds_its_table_once_and_the_others_as_well() {
    let backend = engine();
    let state = backend.read();
    // A run of one name is looked up once; a name after the run, and the first again, still count.
    let mut held = state.lock([A, A, A, B, A], Mode::Write);
    assert!(held.table_mut(A).is_ok());
    assert!(held.table_mut(B).is_ok());
    drop(held);
    let held = state.lock([B, B], Mode::Read);
    assert!(held.table(B).is_ok());
    assert!(held.table(A).is_err());
    drop(held);
    // Both were released: another request takes them.
    let b = backend.clone();
    completes(move || {
        block_on(b.get_item(GetItemInput {
            table_name: A.into(),
            key: key(),
            ..Default::default()
        }))
        .expect("get on a")
    });
}
