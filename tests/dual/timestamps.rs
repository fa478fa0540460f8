//! Issue 24, timestamps: `#[created_at]` / `#[updated_at]` set by the mapper on every write path,
//! on every target. On the engine the scenario runs on a `ManualClock`, so the stamps are exact and
//! time moves between writes when the scenario says; on DynamoDB Local and the server the mapper
//! stamps with the system's clock (`AwsBackend`'s `Backend::now`), so the stamps are checked to lie
//! between the system times read around each write.

use std::future::Future;
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use dynomodel::{AttributeValue, Db, Model, PutItemInput};
use dynomodel_mem::{ManualClock, MemBackend};

use super::*;

/// A note: both stamps as text, `created` optional.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "notes")]
struct Note {
    #[hash_key]
    id: String,
    text: String,
    #[created_at]
    created: Option<DateTime<Utc>>,
    #[updated_at]
    updated: DateTime<Utc>,
}

/// A post: versioned, with a counter; `created` as epoch seconds.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "posts")]
struct Post {
    #[hash_key]
    id: String,
    body: String,
    #[dynomodel(counter)]
    views: u64,
    #[created_at]
    #[dynomodel(epoch_seconds)]
    created: DateTime<Utc>,
    #[updated_at]
    updated: Option<DateTime<Utc>>,
    #[version]
    version: u64,
}

fn note(id: &str) -> Note {
    Note {
        id: id.into(),
        text: "first".into(),
        created: None,
        updated: DateTime::UNIX_EPOCH,
    }
}

fn post(id: &str) -> Post {
    Post {
        id: id.into(),
        body: "hello".into(),
        views: 0,
        created: DateTime::UNIX_EPOCH,
        updated: None,
        version: 0,
    }
}

/// The times a write may have stamped: exactly the engine's clock, or the system's times read
/// before and after it.
#[derive(Debug, Clone, Copy)]
struct Window(DateTime<Utc>, DateTime<Utc>);

impl Window {
    #[track_caller]
    fn holds(self, at: DateTime<Utc>) {
        assert!(self.0 <= at && at <= self.1, "{at} is not within {self:?}");
    }
}

/// The scenario's database; on the engine, a fresh one on a clock the scenario moves.
struct Clocked {
    db: Db,
    clock: Option<ManualClock>,
}

impl Clocked {
    async fn new(t: &Dual) -> Clocked {
        let (db, clock) = match t.target() {
            Target::Mem => {
                let clock = ManualClock::new(Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap());
                (Db::new(MemBackend::with_clock(clock.clone())), Some(clock))
            }
            _ => (t.namespaced_db(), None),
        };
        for table in [db.table_name::<Note>(), db.table_name::<Post>()] {
            t.register_table(&table);
        }
        db.create_schema::<Note>().await.unwrap();
        db.create_schema::<Post>().await.unwrap();
        Clocked { db, clock }
    }

    /// Runs a write, and the window of times it may have stamped.
    async fn during<T>(&self, write: impl Future<Output = T>) -> (T, Window) {
        let earliest = self.now();
        let out = write.await;
        (out, Window(earliest, self.now()))
    }

    fn now(&self) -> DateTime<Utc> {
        self.clock
            .as_ref()
            .map_or_else(Utc::now, dynomodel_mem::Clock::now)
    }

    /// Time passes: an hour on the engine's clock, a few milliseconds elsewhere.
    async fn later(&self) {
        match &self.clock {
            Some(clock) => clock.advance(Duration::from_secs(3600)),
            None => tokio::time::sleep(Duration::from_millis(5)).await,
        }
    }
}

dual_test!(puts_and_updates_stamp_the_backends_time, |t| {
    let c = Clocked::new(&t).await;
    let db = &c.db;

    // A put stamps both (the value held no creation time); the value itself is not touched.
    let first = note("n1");
    let ((), at) = c.during(async { db.put(&first).await.unwrap() }).await;
    let stored = db.get::<Note>("n1").await.unwrap().unwrap();
    let created = stored.created.unwrap();
    at.holds(created);
    assert_eq!(stored.updated, created);
    if let Some(clock) = &c.clock {
        assert_eq!(created, dynomodel_mem::Clock::now(clock)); // exactly the engine's clock
    }

    // Later, an update stamps `updated` only: the creation time stays.
    c.later().await;
    let (updated, at) = c
        .during(async {
            db.update::<Note>("n1")
                .set(Note::text(), "second")
                .returning_new()
                .await
                .unwrap()
        })
        .await;
    at.holds(updated.updated);
    assert!(updated.updated > created);
    assert_eq!(updated.created, Some(created));

    // A put of a value holding its creation time keeps it; one holding none would stamp it.
    c.later().await;
    let ((), at) = c.during(async { db.put(&updated).await.unwrap() }).await;
    let again = db.get::<Note>("n1").await.unwrap().unwrap();
    assert_eq!(again.created, Some(created));
    at.holds(again.updated);

    // An explicit value in an update wins over the stamp (imports, repairs).
    let fixed = Utc.with_ymd_and_hms(2020, 1, 1, 0, 0, 0).unwrap();
    let set = db
        .update::<Note>("n1")
        .set(Note::updated(), fixed)
        .returning_new()
        .await
        .unwrap();
    assert_eq!(set.updated, fixed);

    // An item written without a creation time gets one from its next update (if_not_exists).
    db.backend()
        .put_item(PutItemInput {
            table_name: db.table_name::<Note>(),
            item: item([
                ("id", s("raw")),
                ("text", s("imported")),
                ("updated", s("2020-01-01T00:00:00.000000000Z")),
            ]),
            ..Default::default()
        })
        .await
        .unwrap();
    c.later().await;
    let (raw, at) = c
        .during(async {
            db.update::<Note>("raw")
                .set(Note::text(), "touched")
                .returning_new()
                .await
                .unwrap()
        })
        .await;
    at.holds(raw.created.unwrap());
    assert_eq!(raw.created, Some(raw.updated));
});

dual_test!(saves_incr_and_sync_leave_the_value_as_stored, |t| {
    let c = Clocked::new(&t).await;
    let db = &c.db;

    // A first save stamps both, in the value too; `created` is stored as epoch seconds.
    let mut mine = post("p1");
    let ((), at) = c.during(async { db.save(&mut mine).await.unwrap() }).await;
    at.holds(mine.created);
    assert_eq!(mine.updated, Some(mine.created));
    assert_eq!(db.get::<Post>("p1").await.unwrap(), Some(mine.clone()));
    let raw = db
        .backend()
        .get_item(dynomodel::GetItemInput {
            table_name: db.table_name::<Post>(),
            key: item([("id", s("p1"))]),
            ..Default::default()
        })
        .await
        .unwrap()
        .item
        .unwrap();
    assert!(matches!(raw["created"], AttributeValue::N(_)), "{raw:?}");
    let created = mine.created;

    // `incr` (a counter: no bump) stamps `updated`, and refreshes the value.
    c.later().await;
    let ((), at) = c
        .during(async { db.incr(&mut mine, Post::views(), 1).await.unwrap() })
        .await;
    at.holds(mine.updated.unwrap());
    assert_eq!((mine.views, mine.version, mine.created), (1, 1, created));

    // A later save (an update leaving the counter) stamps `updated`, keeps `created`, and leaves
    // the value holding what is stored.
    c.later().await;
    mine.body = "edited".into();
    let ((), at) = c.during(async { db.save(&mut mine).await.unwrap() }).await;
    at.holds(mine.updated.unwrap());
    assert_eq!((mine.created, mine.version, mine.views), (created, 2, 1));
    assert_eq!(db.get::<Post>("p1").await.unwrap(), Some(mine.clone()));

    // `sync` stamps `updated` and does not write the stamps' own edits.
    c.later().await;
    let mut after = mine.clone();
    after.body = "synced".into();
    after.created = Utc.with_ymd_and_hms(1999, 1, 1, 0, 0, 0).unwrap(); // not written
    let (synced, at) = c
        .during(async { db.sync(&mine, &after).await.unwrap() })
        .await;
    assert!(synced);
    let stored = db.get::<Post>("p1").await.unwrap().unwrap();
    at.holds(stored.updated.unwrap());
    assert_eq!(
        (stored.body.as_str(), stored.created, stored.version),
        ("synced", created, 3)
    );
});

dual_test!(batches_and_transactions_stamp_too, |t| {
    let c = Clocked::new(&t).await;
    let db = &c.db;

    let notes = [note("b1"), note("b2")];
    let ((), at) = c
        .during(async { db.batch_write().put_all(&notes).await.unwrap() })
        .await;
    for id in ["b1", "b2"] {
        let stored = db.get::<Note>(id).await.unwrap().unwrap();
        at.holds(stored.updated);
        assert_eq!(stored.created, Some(stored.updated));
    }

    c.later().await;
    let mut saved = post("t1");
    let ((), at) = c
        .during(async {
            db.transact()
                .save(&mut saved)
                .put(&note("t2"))
                .update::<Note>("b1", |u| u.set(Note::text(), "in a transaction"))
                .await
                .unwrap()
        })
        .await;
    at.holds(saved.created);
    assert_eq!((saved.updated, saved.version), (Some(saved.created), 1));
    assert_eq!(db.get::<Post>("t1").await.unwrap(), Some(saved.clone()));
    let b1 = db.get::<Note>("b1").await.unwrap().unwrap();
    at.holds(b1.updated);
    assert!(b1.created.unwrap() < b1.updated);
    at.holds(db.get::<Note>("t2").await.unwrap().unwrap().updated);

    // A transaction's save over a stored version keeps `created`.
    c.later().await;
    let created = saved.created;
    saved.body = "edited".into();
    let ((), at) = c
        .during(async { db.transact().save(&mut saved).await.unwrap() })
        .await;
    at.holds(saved.updated.unwrap());
    assert_eq!((saved.created, saved.version), (created, 2));
    assert_eq!(db.get::<Post>("t1").await.unwrap(), Some(saved));
});
