//! `db.changes::<M>()` end to end: a consumer reads the typed change stream while writer tasks
//! insert, modify and delete several items, and sees every change once, in order per item — on the
//! engine, on DynamoDB Local and through the engine's HTTP server.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use dynomodel::{ChangeRecord, Db, Model};
use dynomodel_tests::{dual_test, Dual, Target};
use futures::StreamExt;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "counters", stream = "new_and_old_images")]
struct Counter {
    #[hash_key]
    id: String,
    n: i64,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "plain")]
struct Plain {
    #[hash_key]
    id: String,
}

/// Writer tasks, items per writer, modifications per item.
const WRITERS: usize = 3;
const ITEMS: usize = 3;
const MODIFIES: i64 = 4;

/// One item's whole life: put at 0, counted up `MODIFIES` times, deleted.
async fn life(db: Db, id: String) {
    let mut counter = Counter { id, n: 0 };
    db.put(&counter).await.unwrap();
    for _ in 0..MODIFIES {
        counter.n += 1;
        db.put(&counter).await.unwrap();
        tokio::task::yield_now().await;
    }
    db.delete(&counter).await.unwrap();
}

/// What one record says, as `(operation, old n, new n)`.
fn summary(record: &ChangeRecord<Counter>) -> (&'static str, Option<i64>, Option<i64>) {
    let n = |c: Option<&Counter>| c.map(|c| c.n);
    let op = record.change.operation().as_str();
    (
        op,
        n(record.change.old_image()),
        n(record.change.new_image()),
    )
}

/// Every item's expected records, in order.
fn expected_life() -> Vec<(&'static str, Option<i64>, Option<i64>)> {
    let mut life = vec![("INSERT", None, Some(0))];
    life.extend((1..=MODIFIES).map(|n| ("MODIFY", Some(n - 1), Some(n))));
    life.push(("REMOVE", Some(MODIFIES), None));
    life
}

dual_test!(a_consumer_sees_every_change_once_in_order_per_item, |t| {
    every_change_once(t).await
});

async fn every_change_once(t: Dual) {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Counter>());
    db.create_schema::<Counter>().await.unwrap();
    // Amazon's own polling rate is far slower; tests poll fast.
    let mut changes = db
        .changes::<Counter>()
        .poll_interval(Duration::from_millis(20));

    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let db = db.clone();
            tokio::spawn(async move {
                for i in 0..ITEMS {
                    life(db.clone(), format!("w{w}-item{i}")).await;
                }
            })
        })
        .collect();

    let total = WRITERS * ITEMS * expected_life().len();
    let mut per_item: BTreeMap<String, Vec<_>> = BTreeMap::new();
    let mut sequence_numbers = BTreeSet::new();
    let deadline = Duration::from_secs(if t.target() == Target::DynamoDbLocal {
        60
    } else {
        20
    });
    let read = tokio::time::timeout(deadline, async {
        for _ in 0..total {
            let record = changes
                .next()
                .await
                .expect("an enabled stream does not end")
                .unwrap();
            assert!(
                sequence_numbers.insert(record.sequence_number.clone()),
                "a record twice: {record:?}"
            );
            assert!(!record.by_time_to_live);
            let key = record.change.key();
            let id = match &key["id"] {
                dynomodel::AttributeValue::S(id) => id.clone(),
                other => panic!("a string key: {other:?}"),
            };
            per_item.entry(id).or_default().push(summary(&record));
        }
    })
    .await;
    read.unwrap_or_else(|_| panic!("not every change arrived in time: {per_item:#?}"));
    for writer in writers {
        writer.await.unwrap();
    }

    assert_eq!(per_item.len(), WRITERS * ITEMS);
    for (id, life) in &per_item {
        assert_eq!(life, &expected_life(), "the changes of {id}");
    }
    // And nothing more: no change is delivered twice, even later.
    let extra = tokio::time::timeout(Duration::from_millis(300), changes.next()).await;
    assert!(extra.is_err(), "nothing after the last change: {extra:?}");
}

dual_test!(
    resuming_after_a_sequence_number_reads_only_what_follows,
    |t| { resume(t).await }
);

async fn resume(t: Dual) {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Counter>());
    db.create_schema::<Counter>().await.unwrap();
    for n in 0..4 {
        db.put(&Counter { id: "a".into(), n }).await.unwrap();
    }
    let poll = Duration::from_millis(20);
    let mut first = db.changes::<Counter>().poll_interval(poll);
    let mut seen = Vec::new();
    for _ in 0..2 {
        seen.push(first.next().await.unwrap().unwrap());
    }
    drop(first);

    let mut rest = db
        .changes::<Counter>()
        .after(seen[1].sequence_number.clone())
        .poll_interval(poll);
    for n in 2..4 {
        let record = tokio::time::timeout(Duration::from_secs(20), rest.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(summary(&record), ("MODIFY", Some(n - 1), Some(n)));
    }
}

dual_test!(a_table_without_a_stream_is_an_error, |t| {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Plain>());
    db.create_schema::<Plain>().await.unwrap();
    let mut changes = db.changes::<Plain>();
    let error = changes.next().await.unwrap().unwrap_err();
    assert_eq!(
        error,
        dynomodel::Error::NoStream {
            table: db.table_name::<Plain>()
        }
    );
    assert!(changes.next().await.is_none());
});

dual_test!(a_disabled_stream_ends_once_read, |t| {
    disabled_stream_ends(t).await
});

/// Disabling the stream closes its shards: the consumer reads what was written, then the stream
/// ends instead of waiting for more.
async fn disabled_stream_ends(t: Dual) {
    use dynomodel::backend::{StreamSpecification, UpdateTableInput};
    use futures::TryStreamExt;

    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Counter>());
    db.create_schema::<Counter>().await.unwrap();
    for n in 0..3 {
        db.put(&Counter { id: "a".into(), n }).await.unwrap();
    }
    let disable = UpdateTableInput {
        table_name: db.table_name::<Counter>(),
        stream_specification: Some(StreamSpecification {
            stream_enabled: false,
            stream_view_type: None,
        }),
        ..Default::default()
    };
    db.backend().update_table(disable).await.unwrap();

    let changes = db
        .changes::<Counter>()
        .poll_interval(Duration::from_millis(20));
    let records: Vec<_> = tokio::time::timeout(Duration::from_secs(30), changes.try_collect())
        .await
        .expect("a disabled stream ends")
        .unwrap();
    let seen: Vec<_> = records.iter().map(summary).collect();
    assert_eq!(
        seen,
        [
            ("INSERT", None, Some(0)),
            ("MODIFY", Some(0), Some(1)),
            ("MODIFY", Some(1), Some(2))
        ]
    );
}
