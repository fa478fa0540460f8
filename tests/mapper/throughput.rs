//! Throttling end to end: an engine that enforces provisioned throughput
//! (`MemBackendBuilder::enforce_provisioned_throughput`) on a `ManualClock` refuses what a table's
//! capacity does not cover, and the mapper's answers are what an application's retry path sees:
//! `Error::Throughput` for a single request, and batches that retry their unprocessed writes until
//! everything is written.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use chrono::{DateTime, Utc};
use dynomodel::{BatchOptions, CapacityExt, Db, Error, Model};
use dynomodel_mem::__private::TABLE_EXCEEDED;
use dynomodel_mem::{Clock, ManualClock, MemBackend};

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "metered", throughput(read = 2, write = 5))]
struct Metered {
    #[hash_key]
    id: String,
    body: String,
}

fn metered(id: usize) -> Metered {
    Metered {
        id: format!("m{id:03}"),
        body: "small".into(),
    }
}

async fn throttled_db() -> (Db, ManualClock) {
    let clock = ManualClock::default();
    let backend = MemBackend::builder()
        .clock(clock.clone())
        .enforce_provisioned_throughput(true)
        .build();
    let db = Db::new(backend);
    db.create_schema::<Metered>().await.unwrap();
    (db, clock)
}

#[tokio::test]
async fn a_spent_table_refuses_single_requests_until_its_capacity_refills() {
    let (db, clock) = throttled_db().await;
    // A new table holds one second of its capacity: five 1-WCU puts.
    for id in 0..5 {
        db.put(&metered(id)).await.unwrap();
    }
    let err = db.put(&metered(5)).await.unwrap_err();
    match &err {
        Error::Throughput { code, message } => {
            assert_eq!(code, "ProvisionedThroughputExceededException");
            assert_eq!(message, TABLE_EXCEEDED);
        }
        other => panic!("expected a throughput error, got {other:?}"),
    }
    assert_eq!(
        db.get::<Metered>("m005").consistent().await,
        Ok(None),
        "nothing written"
    );

    clock.advance(Duration::from_secs(1));
    db.put(&metered(5)).await.unwrap();
    assert_eq!(
        db.get::<Metered>("m005").consistent().await,
        Ok(Some(metered(5)))
    );
}

/// A clock that moves one second forward each time the engine reads it: every request finds its
/// table's buckets refilled by at least a second of capacity, so a batch's retries always make
/// progress, deterministically.
#[derive(Debug, Default)]
struct Ticking(AtomicI64);

impl Clock for Ticking {
    fn now(&self) -> DateTime<Utc> {
        let seconds = self.0.fetch_add(1, Ordering::Relaxed);
        DateTime::from_timestamp(1_735_689_600 + seconds, 0).unwrap()
    }
}

#[tokio::test]
async fn batch_writes_retry_throttled_items_until_all_are_written() {
    let backend = MemBackend::builder()
        .clock(Ticking::default())
        .enforce_provisioned_throughput(true)
        .build();
    let db = Db::new(backend).with_batch_options(
        BatchOptions::default()
            .base_delay(Duration::from_millis(1))
            .max_delay(Duration::from_millis(2))
            .max_attempts(50),
    );
    db.create_schema::<Metered>().await.unwrap();
    // 60 writes against 5 WCU: each request of 25 writes gets a few through and the rest back
    // unprocessed, which the batch sends again until everything is written.
    let items: Vec<Metered> = (0..60).map(metered).collect();
    let (written, consumed) = db
        .batch_write()
        .put_all(&items)
        .with_capacity()
        .await
        .unwrap();
    let () = written;
    assert_eq!(
        consumed.write_units(),
        60.0,
        "each item written once, 1 WCU each"
    );
    assert!(consumed.requests() > 3, "throttled requests were retried");
    let mut stored = Vec::new();
    for item in &items {
        stored.push(db.get::<Metered>(item.id.as_str()).await.unwrap());
    }
    assert!(stored
        .iter()
        .zip(&items)
        .all(|(s, i)| s.as_ref() == Some(i)));
}
