//! Issue 11: how `Plan::apply` waits, on the engine only: `MemBackend::builder().transition_time(..)`
//! keeps a new table or index CREATING for that long on the engine's clock, and a
//! `ManualClock` moved by a task makes the waiting deterministic; tokio's paused time runs the polls
//! without real sleeping.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chrono::DateTime;
use dynomodel::migrate::{ApplyOptions, MigrationErrorKind, Progress};
use dynomodel::{Db, Error, Model};
use dynomodel_mem::{ManualClock, MemBackend};

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "waits")]
struct V1 {
    #[hash_key]
    id: String,
    city: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "waits")]
#[global_index(all("by-city", hash = city))]
struct V2 {
    #[hash_key]
    id: String,
    city: String,
}

fn slow_db(clock: &ManualClock) -> Db {
    Db::new(
        MemBackend::builder()
            .clock(clock.clone())
            .transition_time(Duration::from_secs(30))
            .build(),
    )
}

/// Moves the clock a second per poll interval, forever (the test ends first).
fn advance(clock: &ManualClock, every: Duration) {
    let clock = clock.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            clock.advance(Duration::from_secs(1));
        }
    });
}

fn counting(waits: &Arc<AtomicUsize>) -> ApplyOptions {
    let waits = Arc::clone(waits);
    ApplyOptions::default()
        .poll_interval(Duration::from_secs(1))
        .timeout(Duration::from_secs(120))
        .on_progress(move |progress| {
            if let Progress::Waiting { .. } = progress {
                waits.fetch_add(1, Ordering::Relaxed);
            }
        })
}

#[tokio::test(start_paused = true)]
async fn apply_waits_for_the_new_index() {
    let clock = ManualClock::new(DateTime::UNIX_EPOCH);
    let db = slow_db(&clock);
    advance(&clock, Duration::from_secs(1));

    let waits = Arc::new(AtomicUsize::new(0));
    assert!(db.create_schema::<V1>().await.unwrap());
    db.put(&V1 {
        id: "1".into(),
        city: "Paris".into(),
    })
    .await
    .unwrap();

    db.plan::<V2>()
        .await
        .unwrap()
        .apply_with(&db, counting(&waits))
        .await
        .unwrap();
    // CREATING for 30 s of the engine's clock, a second per poll: about 30 waits.
    let backfilled = waits.load(Ordering::Relaxed);
    assert!(
        (25..=35).contains(&backfilled),
        "{backfilled} waits for the index"
    );
    let found = db.query_index(V2::by_city(), "Paris").all().await.unwrap();
    assert_eq!(found.len(), 1);
    assert!(db.plan::<V2>().await.unwrap().is_empty());
}

#[tokio::test(start_paused = true)]
async fn apply_times_out_when_the_index_stays_busy() {
    // The engine's clock never moves: the new index stays CREATING.
    let clock = ManualClock::new(DateTime::UNIX_EPOCH);
    let db = slow_db(&clock);
    // The table itself is CREATING for the transition time: created without waiting, then moved past it.
    db.backend().create_table(V1::schema()).await.unwrap();
    clock.advance(Duration::from_secs(30));
    let options = ApplyOptions::default()
        .poll_interval(Duration::from_secs(2))
        .timeout(Duration::from_secs(10));
    let err = db
        .plan::<V2>()
        .await
        .unwrap()
        .apply_with(&db, options)
        .await
        .unwrap_err();
    let Error::Migration(e) = &err else {
        panic!("{err:?}")
    };
    match &e.kind {
        MigrationErrorKind::Timeout { table, waited } => {
            assert_eq!(table, "waits");
            assert_eq!(*waited, Duration::from_secs(10));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        err.message(),
        "table waits was not ACTIVE with all its indexes after 10s"
    );
}
