//! Timestamps: `#[created_at]` / `#[updated_at]` set by the mapper on every write path,
//! on every target. On the engine the scenario runs on a `ManualClock`, so the stamps are exact and
//! time moves between writes when the scenario says; on DynamoDB Local and the server the mapper
//! stamps with the system's clock (`AwsBackend`'s `Backend::now`), so the stamps are checked to lie
//! between the system times read around each write.

use std::future::Future;
use std::time::Duration;

use chrono::{DateTime, TimeZone, Timelike, Utc};
use dynomodel::backend::PutItemInput;
use dynomodel::{AttributeValue, Db, Model};
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

/// A page's visits: a counter, `created` at a width of its own (millis), `updated` at the model's
/// (micros).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "visits", datetime = "micros")]
struct Visit {
    #[hash_key]
    page: String,
    #[dynomodel(counter)]
    hits: u64,
    #[created_at]
    #[dynomodel(datetime = "millis")]
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

    /// Holds `at`, a time stored with `digits` fractional digits: the window's start truncated
    /// to them (a stamp is truncated like any write), and `at` has no finer digit.
    #[track_caller]
    fn holds_at(self, digits: u32, at: DateTime<Utc>) {
        assert_eq!(
            at,
            truncated(at, digits),
            "{at} has more than {digits} digits"
        );
        Window(truncated(self.0, digits), self.1).holds(at);
    }
}

/// `t` truncated to `digits` fractional digits of the second.
fn truncated(t: DateTime<Utc>, digits: u32) -> DateTime<Utc> {
    let unit = 10u32.pow(9 - digits);
    t.with_nanosecond(t.nanosecond() / unit * unit).unwrap()
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
        for table in [
            db.table_name::<Note>(),
            db.table_name::<Post>(),
            db.table_name::<Visit>(),
        ] {
            t.register_table(&table);
        }
        db.create_schema::<Note>().await.unwrap();
        db.create_schema::<Post>().await.unwrap();
        db.create_schema::<Visit>().await.unwrap();
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

    /// On the engine, moves its clock by `nanos` (elsewhere the system's has digits of its own).
    fn tick(&self, nanos: u64) {
        if let Some(clock) = &self.clock {
            clock.advance(Duration::from_nanos(nanos));
        }
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
        .get_item(dynomodel::backend::GetItemInput {
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

/// The stored text of `attribute` of the visit to `page`.
async fn stored_text(db: &Db, page: &str, attribute: &str) -> String {
    let raw = db
        .backend()
        .get_item(dynomodel::backend::GetItemInput {
            table_name: db.table_name::<Visit>(),
            key: item([("page", s(page))]),
            ..Default::default()
        })
        .await
        .unwrap()
        .item
        .unwrap();
    match &raw[attribute] {
        AttributeValue::S(text) => text.clone(),
        other => panic!("{attribute} is no string: {other:?}"),
    }
}

dual_test!(stamps_are_stored_at_the_fields_width, |t| {
    let c = Clocked::new(&t).await;
    let db = &c.db;
    // On the engine, a time with digits below the millisecond and the microsecond.
    c.tick(123_456_789);

    // An upsert of the counter alone creates the visit: the stamps (required fields) are the
    // mapper's, and so is its first version; each stamp at its field's width.
    let (first, at) = c
        .during(async {
            db.update::<Visit>("home")
                .add(Visit::hits(), 1)
                .upsert()
                .returning_new()
                .await
                .unwrap()
        })
        .await;
    at.holds_at(3, first.created); // the field's own width
    at.holds_at(6, first.updated.unwrap()); // the model's
    assert_eq!((first.hits, first.version), (1, 1));
    if let Some(clock) = &c.clock {
        let now = dynomodel_mem::Clock::now(clock);
        assert_eq!(first.created, truncated(now, 3));
        assert_eq!(first.updated, Some(truncated(now, 6)));
        assert_eq!(
            stored_text(db, "home", "created").await,
            "2026-03-01T09:00:00.123Z"
        );
        assert_eq!(
            stored_text(db, "home", "updated").await,
            "2026-03-01T09:00:00.123456Z"
        );
    }
    // `YYYY-MM-DDTHH:MM:SS.fffZ` and `….ffffffZ` on every target.
    assert_eq!(stored_text(db, "home", "created").await.len(), 24);
    assert_eq!(stored_text(db, "home", "updated").await.len(), 27);

    // Again: counted, no bump, the creation time kept, `updated` later.
    c.later().await;
    c.tick(987_654_321);
    let (second, at) = c
        .during(async {
            db.update::<Visit>("home")
                .add(Visit::hits(), 1)
                .upsert()
                .returning_new()
                .await
                .unwrap()
        })
        .await;
    at.holds_at(6, second.updated.unwrap());
    assert_eq!(
        (second.hits, second.version, second.created),
        (2, 1, first.created)
    );

    // A save of the copy read first (still the stored version: the hits did not bump it) keeps
    // the hits and the creation time, stamps `updated` at its width, and the value equals the
    // stored item.
    c.later().await;
    let mut mine = first.clone();
    let ((), at) = c.during(async { db.save(&mut mine).await.unwrap() }).await;
    at.holds_at(6, mine.updated.unwrap());
    assert_eq!(
        (mine.hits, mine.version, mine.created),
        (2, 2, first.created)
    );
    assert_eq!(db.get::<Visit>("home").await.unwrap(), Some(mine.clone()));

    // A first save of a new value stamps both, at their widths, in the value as stored.
    let mut about = Visit {
        page: "about".into(),
        hits: 0,
        created: DateTime::UNIX_EPOCH,
        updated: None,
        version: 0,
    };
    let ((), at) = c.during(async { db.save(&mut about).await.unwrap() }).await;
    at.holds_at(3, about.created);
    at.holds_at(6, about.updated.unwrap());
    assert_eq!(db.get::<Visit>("about").await.unwrap(), Some(about.clone()));
    assert_eq!(stored_text(db, "about", "created").await.len(), 24);

    // An upsert of a model whose required `updated` is a stamp: not refused as missing.
    let (note, at) = c
        .during(async {
            db.update::<Note>("upserted")
                .set(Note::text(), "created by an upsert")
                .upsert()
                .returning_new()
                .await
                .unwrap()
        })
        .await;
    at.holds(note.updated);
    assert_eq!(note.created, Some(note.updated));
});

/// A forum's topics listed by their last update: `#[updated_at]` (at millisecond width) sorts a
/// global index, so that every write moves the topic to the end of the listing.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "topics")]
#[global_index(all("by-update", hash = forum, range = updated))]
struct Topic {
    #[hash_key]
    forum: String,
    #[range_key]
    id: String,
    title: String,
    #[updated_at]
    #[dynomodel(datetime = "millis")]
    updated: DateTime<Utc>,
}

dual_test!(an_updated_at_index_pages_by_the_last_write, |t| {
    let c = Clocked::new(&t).await;
    let db = &c.db;
    t.register_table(&db.table_name::<Topic>());
    db.create_schema::<Topic>().await.unwrap();
    // Below the millisecond on the engine: the index holds the stamp at the field's width.
    c.tick(456_789);
    let mut topics = Vec::new();
    for id in ["t0", "t1", "t2", "t3"] {
        c.later().await;
        let mut topic = Topic {
            forum: "rust".into(),
            id: id.into(),
            title: format!("about {id}"),
            updated: DateTime::UNIX_EPOCH,
        };
        db.save(&mut topic).await.unwrap();
        topics.push(topic);
    }
    let recent = || db.query_index(Topic::by_update(), "rust");
    let ids = |topics: &[Topic]| topics.iter().map(|t| t.id.clone()).collect::<Vec<_>>();
    // The saved values are the stored items, so the index returns them as they are.
    assert_eq!(recent().all().await.unwrap(), topics);

    // A first page of two, then an edit of the first topic, an update of the second: both move
    // behind the rest, where the next page finds them.
    let first = recent().page(2, None).await.unwrap();
    assert_eq!(ids(&first.items), ["t0", "t1"]);
    c.later().await;
    let mut edited = topics[0].clone();
    edited.title = "edited".into();
    db.save(&mut edited).await.unwrap();
    c.later().await;
    db.update::<Topic>(("rust", "t1"))
        .set(Topic::title(), "updated")
        .await
        .unwrap();
    let rest = recent().page(10, first.next).await.unwrap();
    assert_eq!(ids(&rest.items), ["t2", "t3", "t0", "t1"]);
    assert_eq!(rest.next, None);
    assert_eq!(rest.items[2], edited);

    // A cursor after the value a save left is the one after the item as read: it positions at
    // the stored stamp (on the engine, its millisecond, not the clock's finer digits).
    let after_edit = recent().cursor_after(&edited).unwrap();
    assert_eq!(after_edit, recent().cursor_after(&rest.items[2]).unwrap());
    let last = recent().page(10, Some(after_edit)).await.unwrap();
    assert_eq!(ids(&last.items), ["t1"]);
    if c.clock.is_some() {
        assert_eq!(edited.updated.nanosecond() % 1_000_000, 0);
    }
});
