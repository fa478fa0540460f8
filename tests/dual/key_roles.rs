//! Issue 24, compile-time checks: what the key roles of field handles let through behaves alike on
//! every target. An update of a key and a range condition on an attribute that sorts nothing do not
//! compile (tests/ui/cases/update_key.rs, range_not_sort_key.rs); these are the requests the typed
//! API still sends, unchanged: a table's hash key as a global index's sort key, sort-key
//! conditions as filters, updates of an index's sort key, and the two ways around the types (a
//! raw path to a key, another index's sort key), which fail as DynamoDB and the mapper say.

use dynomodel::{Db, Model, Path};

use super::*;

/// The AWS Developer Guide's Thread table, with a local index by last post and a global index of
/// the threads each user last posted in, sorted by forum (the table's hash key).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Thread", rename_all = "PascalCase")]
#[global_index(all("by-poster", hash = last_posted_by, range = forum_name))]
struct Thread {
    #[hash_key]
    forum_name: String,
    #[range_key]
    subject: String,
    message: String,
    last_posted_by: String,
    #[index(all = "by-last-post")]
    last_post_date_time: String,
    views: u64,
}

fn thread(forum: &str, subject: &str, by: &str, at: &str) -> Thread {
    Thread {
        forum_name: forum.into(),
        subject: subject.into(),
        message: format!("{subject}?"),
        last_posted_by: by.into(),
        last_post_date_time: at.into(),
        views: 0,
    }
}

async fn forum_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Thread>());
    db.create_schema::<Thread>().await.unwrap();
    for t in [
        thread("Amazon DynamoDB", "How to scan", "ada", "2026-01-03"),
        thread("Amazon DynamoDB", "Indexes", "bob", "2026-01-01"),
        thread("Amazon S3", "How to list", "ada", "2026-01-02"),
        thread("Amazon RDS", "Backups", "ada", "2026-01-04"),
    ] {
        db.put(&t).await.unwrap();
    }
    db
}

fn subjects(threads: &[Thread]) -> Vec<&str> {
    threads.iter().map(|t| t.subject.as_str()).collect()
}

dual_test!(sort_key_conditions_on_every_kind_of_sort_key, |t| {
    let db = forum_db(&t).await;
    // The table's hash key sorts "by-poster": a range condition on it.
    let mine = db
        .query_index(Thread::by_poster(), "ada".to_owned())
        .range(Thread::forum_name().between("Amazon D", "Amazon S3"))
        .all()
        .await
        .unwrap();
    assert_eq!(subjects(&mine), ["How to scan", "Backups", "How to list"]);
    // A local index's sort key, chosen from the condition; the table's, as a filter there.
    let recent = db
        .query::<Thread>("Amazon DynamoDB")
        .range(Thread::last_post_date_time().ge("2026-01-02"))
        .filter(Thread::subject().begins_with("How"))
        .all()
        .await
        .unwrap();
    assert_eq!(subjects(&recent), ["How to scan"]);
    // Combined sort-key conditions are filters (and write conditions).
    let combined = db
        .scan::<Thread>()
        .filter(Thread::forum_name().eq("Amazon S3") | Thread::subject().eq("Indexes"))
        .count()
        .await
        .unwrap();
    assert_eq!(combined, 2);
});

dual_test!(an_index_sort_key_is_updated_and_keys_are_conditions, |t| {
    let db = forum_db(&t).await;
    // `last_post_date_time` sorts an index and is no table key: updatable, and the index follows.
    let key = ("Amazon DynamoDB", "Indexes");
    db.update::<Thread>(key)
        .set(Thread::last_post_date_time(), "2026-01-05")
        .add(Thread::views(), 1)
        .condition(Thread::forum_name().exists())
        .condition(Thread::subject().eq("Indexes"))
        .await
        .unwrap();
    let latest = db
        .query::<Thread>("Amazon DynamoDB")
        .index(Thread::by_last_post())
        .desc()
        .first()
        .await
        .unwrap();
    assert_eq!(
        latest.map(|t| (t.subject, t.views)),
        Some(("Indexes".into(), 1))
    );
    // A condition on the sort key that does not hold: nothing is written.
    let err = db
        .update::<Thread>(key)
        .add(Thread::views(), 1)
        .condition(Thread::subject().begins_with("Other"))
        .await
        .unwrap_err();
    assert!(err.is_conditional_check_failed(), "{err:?}");
});

dual_test!(around_the_types_keys_fail_as_dynamodb_says, |t| {
    let db = forum_db(&t).await;
    // A raw path to a key is the deliberate way to send what the handles refuse.
    let r = db
        .update::<Thread>(("Amazon DynamoDB", "Indexes"))
        .set(Path::from(Thread::subject()), "Renamed")
        .await;
    t.expect_error(
        r,
        "ValidationException",
        "One or more parameter values were invalid: Cannot update attribute Subject. This attribute \
         is part of the key",
    );
    // Which index an attribute sorts is checked when the query runs, before anything is sent.
    let r = db
        .query_index(Thread::by_poster(), "ada".to_owned())
        .range(Thread::last_post_date_time().ge("2026"))
        .all()
        .await;
    t.expect_error(
        r,
        "ValidationException",
        "the range condition is on `LastPostDateTime`, but index `by-poster` is sorted by `ForumName`",
    );
    let r = db
        .query::<Thread>("Amazon DynamoDB")
        .range(Thread::forum_name().eq("Amazon S3"))
        .all()
        .await;
    t.expect_error(
        r,
        "ValidationException",
        "no index of table `Thread` is partitioned by `ForumName` and sorted by `ForumName` (with every \
         attribute available); the table's sort key is `Subject`; use db.query_index(...) for other \
         indexes",
    );
    let stored = db
        .get::<Thread>(("Amazon DynamoDB", "Indexes"))
        .await
        .unwrap();
    assert_eq!(stored.map(|t| t.subject), Some("Indexes".into()));
});
