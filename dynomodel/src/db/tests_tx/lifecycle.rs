//! Counters and timestamps in the requests the builders render: whole-item writes over a stored
//! version become updates leaving the counters, counter updates do not bump, `skip_version_bump()`
//! refuses what it cannot exempt, and every write stamps the backend's time.

use chrono::{DateTime, TimeZone, Utc};

use crate::backend::*;
use crate::db::tests_tx::*;
use crate::value::AttributeValue;

/// A versioned thread with a counter, a creation time (text) and an update time (epoch seconds).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "threads")]
struct Thread {
    #[hash_key]
    id: String,
    text: String,
    nick: Option<String>,
    #[dynomodel(counter)]
    views: u64,
    #[created_at]
    created: Option<DateTime<Utc>>,
    #[updated_at]
    #[dynomodel(epoch_seconds)]
    updated: DateTime<Utc>,
    #[version]
    version: u64,
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
}

fn created() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 1, 1, 0, 0, 0).unwrap()
}

fn thread(version: u64) -> Thread {
    Thread {
        id: "t1".into(),
        text: "hello".into(),
        nick: None,
        views: 7,
        created: Some(created()),
        updated: DateTime::UNIX_EPOCH,
        version,
    }
}

fn text(t: DateTime<Utc>) -> AttributeValue {
    s(&t.format("%Y-%m-%dT%H:%M:%S%.9fZ").to_string())
}

fn seconds(t: DateTime<Utc>) -> AttributeValue {
    n(t.timestamp())
}

#[test]
fn models_declare_their_counters_attributes_and_timestamps() {
    assert_eq!(Thread::COUNTERS, ["views"]);
    assert_eq!(
        Thread::ATTRIBUTES,
        ["id", "text", "nick", "views", "created", "updated", "version"]
    );
    assert_eq!(
        (Thread::CREATED_AT, Thread::UPDATED_AT),
        (Some("created"), Some("updated"))
    );
    assert_eq!(Account::COUNTERS, [] as [&str; 0]);
    assert_eq!((Account::CREATED_AT, Account::UPDATED_AT), (None, None));
}

#[tokio::test]
async fn a_put_over_a_stored_version_sets_all_but_the_counters() {
    let (db, rec) = Recorder::db_at(now());
    db.put(&thread(3)).await.expect("put");
    let input = rec.only_update();
    assert_eq!(input.key, item(&[("id", s("t1"))]));
    // `nick` is None: removed, as a put would; `views` is not named; `created` is kept as held.
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = :v0, #n1 = :v1, #n2 = :v2, #n3 = :v3 REMOVE #n4")
    );
    assert_eq!(input.condition_expression.as_deref(), Some("#n3 = :v4"));
    assert_eq!(
        input.expression_attribute_names,
        names(&[
            ("#n0", "created"),
            ("#n1", "text"),
            ("#n2", "updated"),
            ("#n3", "version"),
            ("#n4", "nick"),
        ])
    );
    assert_eq!(
        input.expression_attribute_values,
        Some(item(&[
            (":v0", text(created())),
            (":v1", s("hello")),
            (":v2", seconds(now())),
            (":v3", n(4)),
            (":v4", n(3)),
        ]))
    );
    assert_eq!(input.return_values, None);
}

#[tokio::test]
async fn a_first_put_stores_the_counters_and_stamps_a_missing_creation_time() {
    let (db, rec) = Recorder::db_at(now());
    let new = Thread {
        created: None,
        ..thread(0)
    };
    db.put(&new).await.expect("put");
    let input = rec.only_put();
    assert_eq!(
        input.item,
        item(&[
            ("id", s("t1")),
            ("text", s("hello")),
            ("views", n(7)),
            ("created", text(now())),
            ("updated", seconds(now())),
            ("version", n(1)),
        ])
    );
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
}

#[tokio::test]
async fn a_save_over_a_stored_version_keeps_a_missing_creation_time_and_reads_the_item_back() {
    let (db, rec) = Recorder::db_at(now());
    let stored = item(&[
        ("id", s("t1")),
        ("text", s("hello")),
        ("views", n(12)),
        ("created", text(created())),
        ("updated", seconds(now())),
        ("version", n(4)),
    ]);
    rec.answer(Ok(Some(stored)));
    let mut mine = Thread {
        created: None,
        ..thread(3)
    };
    db.save(&mut mine).await.expect("save");
    let input = rec.only_update();
    assert_eq!(input.return_values, Some(ReturnValue::AllNew));
    // The stored creation time stays; the value takes the stored item, counter included.
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = if_not_exists(#n0, :v0), #n1 = :v1, #n2 = :v2, #n3 = :v3 REMOVE #n4")
    );
    assert_eq!(
        mine,
        Thread {
            views: 12,
            created: Some(created()),
            updated: now(),
            version: 4,
            ..thread(4)
        }
    );
}

#[tokio::test]
async fn ignored_versions_and_models_without_counters_are_puts() {
    let (db, rec) = Recorder::db_at(now());
    db.put(&thread(3)).ignore_version().await.expect("put");
    let input = rec.only_put();
    assert_eq!(input.item["views"], n(7));
    assert_eq!(input.item["version"], n(3));
    assert_eq!(input.item["updated"], seconds(now())); // still stamped
    assert_eq!(input.condition_expression, None);

    db.put(&account("a", 1, 3)).await.expect("put");
    assert!(matches!(rec.only(), Request::PutItem(_)));
}

#[tokio::test]
async fn a_counter_update_does_not_bump_and_stamps() {
    let (db, rec) = Recorder::db_at(now());
    db.update::<Thread>("t1")
        .add(Thread::views(), 1)
        .await
        .expect("update");
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = :v0, #n1 = if_not_exists(#n1, :v1) ADD #n2 :v2")
    );
    assert_eq!(
        input.expression_attribute_names,
        names(&[
            ("#n0", "updated"),
            ("#n1", "created"),
            ("#n2", "views"),
            ("#n3", "id")
        ])
    );
    // No version check, but an update of counters only still updates only an existing item.
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n3)")
    );

    // Anything else bumps.
    db.update::<Thread>("t1")
        .add(Thread::views(), 1)
        .set(Thread::nick(), "ada")
        .await
        .expect("update");
    let input = rec.only_update();
    assert!(
        input
            .update_expression
            .as_deref()
            .is_some_and(|e| e.ends_with("ADD #n3 :v3, #n4 :v4")),
        "{input:?}"
    );
    assert_eq!(
        input.expression_attribute_names.as_ref().map(|n| &n["#n4"]),
        Some(&"version".to_owned())
    );
}

#[tokio::test]
async fn an_explicit_timestamp_wins_over_the_stamp() {
    let (db, rec) = Recorder::db_at(now());
    db.update::<Thread>("t1")
        .set(Thread::created(), created())
        .set(Thread::updated(), created())
        .ignore_version()
        .await
        .expect("update");
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = :v0, #n1 = :v1")
    );
    assert_eq!(
        input.expression_attribute_values,
        Some(item(&[
            (":v0", text(created())),
            (":v1", seconds(created()))
        ]))
    );
}

/// A versioned page whose only other attributes are a counter and two required timestamps: an
/// upsert of its counter alone may create it.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "pages")]
struct Page {
    #[hash_key]
    id: String,
    #[dynomodel(counter)]
    views: u64,
    #[created_at]
    created: DateTime<Utc>,
    #[updated_at]
    updated: DateTime<Utc>,
    #[version]
    version: u64,
}

#[tokio::test]
async fn an_upsert_counts_the_stamps_as_set_and_starts_a_version_it_does_not_bump() {
    assert_eq!(
        Page::required_attributes()
            .iter()
            .map(|r| r.name)
            .collect::<Vec<_>>(),
        ["views", "created", "updated", "version"]
    );
    let (db, rec) = Recorder::db_at(now());
    db.update::<Page>("p1")
        .add(Page::views(), 1)
        .upsert()
        .await
        .expect("the stamps and the version start are set by the mapper");
    let input = rec.only_update();
    // No bump (a counter), but an item it creates gets version 1; an existing one keeps its own.
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = if_not_exists(#n0, :v0), #n1 = :v1, #n2 = if_not_exists(#n2, :v2) ADD #n3 :v3")
    );
    assert_eq!(
        input.expression_attribute_names,
        names(&[
            ("#n0", "version"),
            ("#n1", "updated"),
            ("#n2", "created"),
            ("#n3", "views"),
        ])
    );
    assert_eq!(
        input.expression_attribute_values,
        Some(item(&[
            (":v0", n(1)),
            (":v1", text(now())),
            (":v2", text(now())),
            (":v3", n(1)),
        ]))
    );
    // A plain model's upsert checks nothing.
    assert_eq!(input.condition_expression, None);

    // Not an upsert: the existence check, and no version start (the item has one).
    db.update::<Page>("p1")
        .add(Page::views(), 1)
        .await
        .expect("update");
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = :v0, #n1 = if_not_exists(#n1, :v1) ADD #n2 :v2")
    );
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n3)")
    );

    // `ignore_version()`: no version at all, so the upsert misses it.
    let err = db
        .update::<Page>("p1")
        .add(Page::views(), 1)
        .ignore_version()
        .upsert()
        .await
        .expect_err("no version");
    assert!(err.message().contains("missing `version`"), "{err}");
    assert!(rec.take().is_empty());
}

#[tokio::test]
async fn skip_version_bump_refuses_anything_but_counters() {
    let (db, rec) = Recorder::db_at(now());
    db.update::<Thread>("t1")
        .add(Thread::views(), 1)
        .skip_version_bump()
        .await
        .expect("counters only");
    assert!(!rec
        .only_update()
        .update_expression
        .unwrap_or_default()
        .contains("version"));

    let err = db
        .update::<Thread>("t1")
        .add(Thread::views(), 1)
        .remove(Thread::nick())
        .skip_version_bump()
        .await
        .expect_err("nick is no counter");
    assert_eq!(err.code(), "ValidationException");
    assert_eq!(
        err.message(),
        "skip_version_bump() on an update of Thread {id: \"t1\"} in `threads`: `nick` is not a \
         #[dynomodel(counter)] field. Without the bump, a copy read before this update and saved \
         afterwards would pass its version check and overwrite `nick` unnoticed; only counters, \
         which whole-item writes leave as stored, may change without it (mark the field \
         #[dynomodel(counter)], or let the update bump the version)"
    );
    assert!(rec.take().is_empty());
}

#[tokio::test]
async fn a_transaction_save_over_a_stored_version_is_an_update_action() {
    let (db, rec) = Recorder::db_at(now());
    let mut mine = thread(3);
    let mut fresh = thread(0);
    fresh.id = "t2".into();
    db.transact()
        .save(&mut mine)
        .save(&mut fresh)
        .await
        .expect("transaction");
    let input = rec.only_write();
    let [TransactWriteItem::Update(update), TransactWriteItem::Put(put)] =
        &input.transact_items[..]
    else {
        panic!("an update then a put: {input:?}");
    };
    assert_eq!(update.condition_expression.as_deref(), Some("#n3 = :v4"));
    assert!(!update.update_expression.contains("views"));
    assert_eq!(put.item["views"], n(7));
    // Versions and stamps are set on commit (a transaction returns no item: counters as they were).
    assert_eq!((mine.version, mine.updated, mine.views), (4, now(), 7));
    assert_eq!((fresh.version, fresh.created), (1, Some(created())));
}
