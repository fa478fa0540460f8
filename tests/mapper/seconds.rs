//! Fields stored as seconds (`#[dynomodel(epoch_seconds)]`, `#[ttl]`) in expressions, on the engine.
//!
//! Such a field is stored as N, while its Rust type (`DateTime<Utc>`) is on its own an S string. The
//! typed handle must render operands as N too: a filter, a key condition or an update that rendered
//! the date's string would compare (or store) the wrong type, and a filter would silently match
//! nothing. Each test here would fail that way.

use std::time::{Duration, SystemTime};

use chrono::{DateTime, TimeZone, Utc};
use dynomodel::{AttributeValue, Db, Model, Number};
use dynomodel_mem::MemoryDb;

/// A reading per sensor and time: the sort key is an `epoch_seconds` date.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "readings")]
struct Reading {
    #[hash_key]
    sensor: String,
    #[range_key]
    #[dynomodel(epoch_seconds)]
    at: DateTime<Utc>,
    value: i64,
}

/// A session that expires: a `#[ttl]` date, also the sort key of a global index, and an optional
/// `epoch_seconds` date.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "sessions")]
#[global_index(all("user-expiry", hash = user, range = expires))]
struct Session {
    #[hash_key]
    id: String,
    user: String,
    #[ttl]
    expires: DateTime<Utc>,
    #[dynomodel(epoch_seconds)]
    seen: Option<DateTime<Utc>>,
}

/// A lease whose `#[ttl]` is an optional `SystemTime` (`None`: it never expires).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "leases")]
struct Lease {
    #[hash_key]
    id: String,
    #[ttl]
    until: Option<SystemTime>,
}

/// 2023-11-14T22:13:20Z, epoch second 1 700 000 000.
fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap()
}

fn at(seconds: i64) -> DateTime<Utc> {
    t0() + chrono::Duration::seconds(seconds)
}

fn n(seconds: &str) -> AttributeValue {
    AttributeValue::N(seconds.parse::<Number>().unwrap())
}

fn session(id: &str, user: &str, expires: DateTime<Utc>, seen: Option<DateTime<Utc>>) -> Session {
    Session {
        id: id.into(),
        user: user.into(),
        expires,
        seen,
    }
}

/// The tables, created from the schemas directly rather than through `create_schema`: these tests are
/// about expressions, not expiry, and need no time to live enabled on the table.
async fn db() -> Db {
    let db = Db::memory();
    for schema in [Reading::schema(), Session::schema(), Lease::schema()] {
        db.backend().create_table(schema).await.unwrap();
    }
    db
}

/// Sessions of ada expiring an hour ago, now, in an hour and in two; one of bob expired.
async fn sessions(db: &Db) {
    let half = chrono::Duration::milliseconds(500);
    for s in [
        session("a1", "ada", at(-3600), Some(at(-4000) + half)),
        session("a2", "ada", at(0), None),
        session("a3", "ada", at(3600), Some(at(10))),
        session("a4", "ada", at(7200), Some(at(20) + half)),
        session("b1", "bob", at(-60), Some(at(5))),
    ] {
        db.put(&s).await.unwrap();
    }
}

fn ids(sessions: Vec<Session>) -> Vec<String> {
    let mut ids: Vec<String> = sessions.into_iter().map(|s| s.id).collect();
    ids.sort();
    ids
}

#[tokio::test]
async fn filters_on_a_ttl_field_find_the_expired_items() {
    let db = db().await;
    sessions(&db).await;
    let expired = db
        .scan::<Session>()
        .filter(Session::expires().lt(t0()))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(expired), ["a1", "b1"]);
    // The ttl is whole seconds rounded down: a time within the second of `at(0)` equals it.
    let now = t0() + chrono::Duration::milliseconds(700);
    let this_second = db
        .scan::<Session>()
        .filter(Session::expires().eq(now))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(this_second), ["a2"]);
    let window = db
        .scan::<Session>()
        .filter(Session::expires().between(at(-60), at(3600)))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(window), ["a2", "a3", "b1"]);
}

#[tokio::test]
async fn filters_on_an_optional_system_time_ttl() {
    let db = db().await;
    let epoch = |s: u64| SystemTime::UNIX_EPOCH + Duration::from_secs(s);
    for (id, until) in [
        ("old", Some(epoch(1_000))),
        ("new", Some(epoch(2_000_000_000))),
        ("forever", None),
    ] {
        db.put(&Lease {
            id: id.into(),
            until,
        })
        .await
        .unwrap();
    }
    let now = epoch(1_700_000_000);
    let expired = db
        .scan::<Lease>()
        .filter(Lease::until().lt(now))
        .all()
        .await
        .unwrap();
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].id, "old");
    let live = db
        .scan::<Lease>()
        .filter(Lease::until().ge(now) | Lease::until().not_exists())
        .count()
        .await
        .unwrap();
    assert_eq!(live, 2);
}

#[tokio::test]
async fn filters_on_an_epoch_seconds_field_compare_numbers() {
    let db = db().await;
    sessions(&db).await;
    // `seen` keeps sub-seconds: at(20) + 0.5 s is after at(20), at(10) is not.
    let recent = db
        .scan::<Session>()
        .filter(Session::seen().gt(at(10)))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(recent), ["a4"]);
    let exact = db
        .scan::<Session>()
        .filter(Session::seen().eq(at(-4000) + chrono::Duration::milliseconds(500)))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(exact), ["a1"]);
    let never = db
        .scan::<Session>()
        .filter(Session::seen().not_exists())
        .all()
        .await
        .unwrap();
    assert_eq!(ids(never), ["a2"]);
}

#[tokio::test]
async fn updates_store_seconds_as_numbers() {
    let db = db().await;
    sessions(&db).await;
    let later = at(86_400) + chrono::Duration::milliseconds(250);
    let updated = db
        .update::<Session>("a2")
        .set(Session::expires(), later)
        .set(Session::seen(), later)
        .condition(Session::expires().eq(t0()))
        .returning_new()
        .await
        .unwrap();
    // The ttl drops the quarter second; epoch_seconds keeps it.
    assert_eq!(updated.expires, at(86_400));
    assert_eq!(updated.seen, Some(later));
    let stored = db
        .get::<Session>("a2")
        .project((Session::expires(), Session::seen()))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.item()["expires"], n("1700086400"));
    assert_eq!(stored.item()["seen"], n("1700086400.25"));
    assert_eq!(
        stored
            .get(Session::expires())
            .unwrap()
            .map(|t| t.into_inner()),
        Some(at(86_400))
    );

    // `None` removes an optional field; `Some` stores it.
    db.update::<Session>("a2")
        .set(Session::seen(), None::<DateTime<Utc>>)
        .await
        .unwrap();
    let seen = db.get::<Session>("a2").await.unwrap().unwrap().seen;
    assert_eq!(seen, None);
    db.update::<Session>("a2")
        .set(Session::seen(), Some(at(1)))
        .await
        .unwrap();
    let item = db.get::<Session>("a2").project(Session::seen()).await;
    assert_eq!(item.unwrap().unwrap().item()["seen"], n("1700000001"));

    // A SystemTime ttl set through an update.
    let lease = Lease {
        id: "l".into(),
        until: None,
    };
    db.put(&lease).await.unwrap();
    let until = SystemTime::UNIX_EPOCH + Duration::from_millis(1_700_000_000_900);
    db.update::<Lease>("l")
        .set(Lease::until(), until)
        .await
        .unwrap();
    let item = db.get::<Lease>("l").project(Lease::until()).await;
    assert_eq!(item.unwrap().unwrap().item()["until"], n("1700000000"));
}

#[tokio::test]
async fn range_conditions_on_an_epoch_seconds_sort_key() {
    let db = db().await;
    let half = chrono::Duration::milliseconds(500);
    for i in 0..6 {
        let reading = Reading {
            sensor: "s".into(),
            at: at(i * 10) + half,
            value: i,
        };
        db.put(&reading).await.unwrap();
    }
    let values = |readings: Vec<Reading>| readings.into_iter().map(|r| r.value).collect::<Vec<_>>();
    let between = db
        .query::<Reading>("s")
        .range(Reading::at().between(at(10), at(30)))
        .all()
        .await
        .unwrap();
    assert_eq!(values(between), [1, 2]);
    let after = db
        .query::<Reading>("s")
        .range(Reading::at().gt(at(40) + half))
        .all()
        .await
        .unwrap();
    assert_eq!(values(after), [5]);
    let one = db
        .get::<Reading>(("s", at(20) + half))
        .await
        .unwrap()
        .map(|r| r.value);
    assert_eq!(one, Some(2));
}

#[tokio::test]
async fn range_conditions_on_an_index_sorted_by_a_ttl() {
    let db = db().await;
    sessions(&db).await;
    let expires = Session::user_expiry().range_field();
    let expired = db
        .query_index(Session::user_expiry(), "ada")
        .range(expires.lt(t0()))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(expired), ["a1"]);
    let soon = db
        .query_index(Session::user_expiry(), "ada")
        .range(Session::expires().between(t0(), at(3600)))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(soon), ["a2", "a3"]);
}
