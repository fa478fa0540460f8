//! Counters exempt from the `#[version]` bump, on every target. A thread being
//! viewed (`ADD Views 1`) must not make an open edit conflict, and the edit, saved from a copy
//! read before the views, must not lose them; an update of anything else still bumps and
//! conflicts; `skip_version_bump()` per call; the same in transactions and in `sync`.

use std::collections::BTreeSet;

use dynomodel::{Db, Error, Model};

use super::*;

/// The Developer Guide's Thread, with a counter of views, a set of tags kept as a counter, and a
/// version.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Thread", rename_all = "PascalCase")]
struct Thread {
    #[hash_key]
    forum_name: String,
    #[range_key]
    subject: String,
    message: String,
    last_posted_by: Option<String>,
    #[dynomodel(counter)]
    views: u64,
    #[dynomodel(counter)]
    tags: BTreeSet<String>,
    #[version]
    version: u64,
}

const FORUM: &str = "Amazon DynamoDB";

fn thread(subject: &str) -> Thread {
    Thread {
        forum_name: FORUM.into(),
        subject: subject.into(),
        message: "How do I update multiple items?".into(),
        last_posted_by: Some("User A".into()),
        views: 0,
        tags: BTreeSet::from(["index".to_owned()]),
        version: 0,
    }
}

fn tags(tags: &[&str]) -> BTreeSet<String> {
    tags.iter().map(|t| (*t).to_owned()).collect()
}

/// The scenario's database with the Thread table, and a thread saved (version 1).
async fn forum(t: &Dual, subject: &str) -> (Db, Thread) {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Thread>());
    db.create_schema::<Thread>().await.unwrap();
    let mut saved = thread(subject);
    db.save(&mut saved).await.unwrap();
    assert_eq!(saved.version, 1);
    (db, saved)
}

async fn stored(db: &Db, subject: &str) -> Thread {
    db.get::<Thread>((FORUM, subject)).await.unwrap().unwrap()
}

dual_test!(counter_increments_do_not_conflict_with_an_open_edit, |t| {
    let (db, read) = forum(&t, "Thread 1").await;
    let mut edit = read.clone(); // an edit form opened on version 1

    // Two views and a tag meanwhile: no bump, so the open edit stays current.
    for _ in 0..2 {
        db.update::<Thread>((FORUM, "Thread 1"))
            .add(Thread::views(), 1)
            .await
            .unwrap();
    }
    db.update::<Thread>((FORUM, "Thread 1"))
        .add(Thread::tags(), tags(&["howto"]))
        .await
        .unwrap();
    let viewed = stored(&db, "Thread 1").await;
    assert_eq!(
        (viewed.views, &viewed.tags, viewed.version),
        (2, &tags(&["howto", "index"]), 1)
    );

    // The edit saves (its version is still the stored one) and keeps the views and the tag:
    // the counters are left as stored, and the value takes them back.
    edit.message = "Edited: how do I update multiple items?".into();
    edit.last_posted_by = None; // removed, as a whole-item write means
    db.save(&mut edit).await.unwrap();
    let after = stored(&db, "Thread 1").await;
    assert_eq!(after, edit);
    assert_eq!(
        (
            after.views,
            &after.tags,
            after.version,
            &after.last_posted_by
        ),
        (2, &tags(&["howto", "index"]), 2, &None)
    );

    // A put of a copy behind on the counters keeps them too (and, taking `&`, bumps only the item).
    let mut behind = after.clone();
    behind.views = 0;
    behind.tags = tags(&[]);
    db.update::<Thread>((FORUM, "Thread 1"))
        .add(Thread::views(), 1)
        .await
        .unwrap();
    db.put(&behind).await.unwrap();
    let put = stored(&db, "Thread 1").await;
    assert_eq!(
        (put.views, &put.tags, put.version),
        (3, &tags(&["howto", "index"]), 3)
    );

    // `incr` neither bumps nor checks: the value is refreshed with the stored item.
    let mut counted = put.clone();
    db.incr(&mut counted, Thread::views(), 10).await.unwrap();
    assert_eq!((counted.views, counted.version), (13, 3));
});

dual_test!(other_updates_still_bump_and_conflict, |t| {
    let (db, read) = forum(&t, "Thread 2").await;

    // An update of a plain field bumps: the copy read before it is stale.
    db.update::<Thread>((FORUM, "Thread 2"))
        .set(Thread::last_posted_by(), "User B")
        .await
        .unwrap();
    let mut stale = read.clone();
    stale.message = "lost?".into();
    let err = db.save(&mut stale).await.unwrap_err();
    let Error::VersionConflict(conflict) = &err else {
        panic!("expected a version conflict, got {err:?}");
    };
    assert_eq!((conflict.expected, conflict.stored), (Some(1), Some(2)));
    assert_eq!(stale.version, 1); // untouched

    // A counter in the same update does not exempt the rest: it bumps.
    db.update::<Thread>((FORUM, "Thread 2"))
        .add(Thread::views(), 1)
        .set(Thread::message(), "viewed and edited")
        .await
        .unwrap();
    let now = stored(&db, "Thread 2").await;
    assert_eq!(
        (now.views, now.version, now.message.as_str()),
        (1, 3, "viewed and edited")
    );

    // A first save of a thread with counters stores them as they are.
    let mut fresh = Thread {
        views: 5,
        ..thread("Thread 2b")
    };
    db.save(&mut fresh).await.unwrap();
    assert_eq!(stored(&db, "Thread 2b").await, fresh);
    assert_eq!((fresh.views, fresh.version), (5, 1));
    // ... and only once: a second first save is a conflict, not an overwrite of the counters.
    let err = db.save(&mut thread("Thread 2b")).await.unwrap_err();
    assert!(err.is_version_conflict(), "{err:?}");
});

dual_test!(skip_version_bump_per_call, |t| {
    let (db, read) = forum(&t, "Thread 3").await;
    let key = (FORUM, "Thread 3");

    // Counters only: allowed, no bump, and a version check still applies.
    db.update::<Thread>(key)
        .add(Thread::views(), 1)
        .delete(Thread::tags(), tags(&["index"]))
        .skip_version_bump()
        .await
        .unwrap();
    let err = db
        .update::<Thread>(key)
        .add(Thread::views(), 1)
        .if_version(7u64)
        .skip_version_bump()
        .await
        .unwrap_err();
    assert!(err.is_version_conflict(), "{err:?}");
    let now = stored(&db, "Thread 3").await;
    assert_eq!((now.views, now.tags.len(), now.version), (1, 0, 1));

    // Anything else: refused before anything is sent, naming the item and the attribute.
    let err = db
        .update::<Thread>(key)
        .add(Thread::views(), 1)
        .set(Thread::message(), "sneaky")
        .skip_version_bump()
        .await
        .unwrap_err();
    let table = db.table_name::<Thread>();
    assert_eq!(err.code(), "ValidationException");
    assert!(
        err.message().starts_with(&format!(
            "skip_version_bump() on an update of Thread {{ForumName: \"{FORUM}\", Subject: \"Thread 3\"}} \
             in `{table}`: `Message` is not a #[dynomodel(counter)] field."
        )),
        "{err}"
    );
    assert_eq!(stored(&db, "Thread 3").await, now);

    // The open edit still saves, and keeps the view.
    let mut edit = read;
    edit.message = "edited".into();
    db.save(&mut edit).await.unwrap();
    assert_eq!((edit.views, edit.version), (1, 2));
});

dual_test!(transactions_leave_counters_as_stored, |t| {
    let (db, read) = forum(&t, "Thread 4").await;
    let mut other = thread("Thread 5");
    db.save(&mut other).await.unwrap();

    // A transaction's update of counters does not bump either.
    db.transact()
        .update::<Thread>((FORUM, "Thread 4"), |u| u.add(Thread::views(), 2))
        .update::<Thread>((FORUM, "Thread 5"), |u| {
            u.add(Thread::views(), 1).skip_version_bump()
        })
        .await
        .unwrap();

    // Saves and puts of copies read before: they pass, and keep the views.
    let mut edit = read.clone();
    edit.message = "edited in a transaction".into();
    let mut behind = other.clone();
    behind.message = "also edited".into();
    db.transact().save(&mut edit).put(&behind).await.unwrap();
    assert_eq!(edit.version, 2); // the counters in a saved value are not refreshed by a transaction
    let (four, five) = (stored(&db, "Thread 4").await, stored(&db, "Thread 5").await);
    assert_eq!(
        (four.views, four.version, four.message.as_str()),
        (2, 2, "edited in a transaction")
    );
    assert_eq!(
        (five.views, five.version, five.message.as_str()),
        (1, 2, "also edited")
    );

    // A stale copy is still a version conflict after an edit.
    let err = db.transact().put(&read).await.unwrap_err();
    assert!(err.is_version_conflict(), "{err:?}");
    let err = db
        .transact()
        .update::<Thread>((FORUM, "Thread 4"), |u| {
            u.set(Thread::message(), "x").skip_version_bump()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), "ValidationException");
});

dual_test!(sync_writes_the_difference_of_counters, |t| {
    let (db, before) = forum(&t, "Thread 6").await;
    // Others view it 5 times meanwhile.
    db.update::<Thread>((FORUM, "Thread 6"))
        .add(Thread::views(), 5)
        .await
        .unwrap();

    // Our copy counts 2 views of its own and a tag: written as ADD 2 and ADD {"sync"}.
    let mut after = before.clone();
    after.views += 2;
    after.tags.insert("sync".into());
    assert!(db.sync(&before, &after).await.unwrap());
    let now = stored(&db, "Thread 6").await;
    assert_eq!(
        (now.views, &now.tags, now.version),
        (7, &tags(&["index", "sync"]), 1)
    );

    // With an edit, the version is checked (still 1: counters did not bump it) and bumped.
    let before = now.clone();
    let mut after = now.clone();
    after.views -= 1;
    after.message = "synced".into();
    assert!(db.sync_atomic(&before, &after).await.unwrap());
    let now = stored(&db, "Thread 6").await;
    assert_eq!(
        (now.views, now.version, now.message.as_str()),
        (6, 2, "synced")
    );

    // A set that both gained and lost elements cannot be one update: refused, nothing written.
    let mut both = now.clone();
    both.tags = tags(&["index", "new"]);
    let err = db.sync(&now, &both).await.unwrap_err();
    assert!(
        err.message()
            .contains("counter `Tags` both gained and lost elements"),
        "{err}"
    );
    assert_eq!(stored(&db, "Thread 6").await, now);
});

dual_test!(whole_writes_keep_what_the_model_does_not_know, |t| {
    let (db, read) = forum(&t, "Thread 7").await;
    // Another application adds an attribute this model does not know, and a view.
    db.backend()
        .update_item(dynomodel::backend::UpdateItemInput {
            table_name: db.table_name::<Thread>(),
            key: item([("ForumName", s(FORUM)), ("Subject", s("Thread 7"))]),
            update_expression: Some("SET Answered = :yes ADD #views :one".into()),
            expression_attribute_names: Some([("#views".to_owned(), "Views".to_owned())].into()),
            expression_attribute_values: Some(item([
                (":yes", AttributeValue::Bool(true)),
                (":one", num("1")),
            ])),
            ..Default::default()
        })
        .await
        .unwrap();

    // A save over the stored version is an update: it keeps both (a PutItem would drop them).
    let mut edit = read.clone();
    edit.message = "edited".into();
    db.save(&mut edit).await.unwrap();
    let raw = db
        .backend()
        .get_item(dynomodel::backend::GetItemInput {
            table_name: db.table_name::<Thread>(),
            key: item([("ForumName", s(FORUM)), ("Subject", s("Thread 7"))]),
            ..Default::default()
        })
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(
        (&raw["Answered"], &raw["Views"], &raw["Version"]),
        (&AttributeValue::Bool(true), &num("1"), &num("2"))
    );

    // `ignore_version()` stores the value as it is: a `PutItem`, counters included.
    let restored = Thread {
        views: 40,
        version: 9,
        ..edit.clone()
    };
    db.put(&restored).ignore_version().await.unwrap();
    assert_eq!(stored(&db, "Thread 7").await, restored);
});

/// A page whose only attributes besides its key are a counter and a version: an upsert of the
/// counter alone may create it.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Page")]
struct Page {
    #[hash_key]
    path: String,
    #[dynomodel(counter)]
    views: u64,
    #[version]
    version: u64,
}

dual_test!(
    counter_updates_change_only_an_existing_item_unless_upserted,
    |t| {
        let (db, read) = forum(&t, "Thread 8").await;
        let missing = (FORUM, "No such thread");

        // An update of counters only checks no version, but still that the item exists: an increment
        // never creates a thread without its message. `incr`, `skip_version_bump()` and a transaction
        // alike.
        let err = db
            .update::<Thread>(missing)
            .add(Thread::views(), 1)
            .await
            .unwrap_err();
        assert!(err.is_item_not_found(), "{err:?}");
        let err = db
            .update::<Thread>(missing)
            .add(Thread::views(), 1)
            .skip_version_bump()
            .await
            .unwrap_err();
        assert!(err.is_item_not_found(), "{err:?}");
        let mut ghost = thread("No such thread");
        let err = db.incr(&mut ghost, Thread::views(), 1).await.unwrap_err();
        assert!(err.is_item_not_found(), "{err:?}");
        let err = db
            .transact()
            .update::<Thread>(missing, |u| u.add(Thread::views(), 1))
            .await
            .unwrap_err();
        assert!(err.cancellation_reasons()[0].is_item_not_found(), "{err:?}");
        assert_eq!(db.get::<Thread>(missing).await.unwrap(), None);

        // Deleted meanwhile: a sync of counters only is refused as missing, and a save of a copy fails
        // its version check (which only a stored item passes) instead of re-creating it half-known.
        db.delete(&read).await.unwrap();
        let mut viewed = read.clone();
        viewed.views = 3;
        let err = db.sync(&read, &viewed).await.unwrap_err();
        assert!(err.is_item_not_found(), "{err:?}");
        let mut edit = read.clone();
        edit.message = "edited after the delete".into();
        let err = db.save(&mut edit).await.unwrap_err();
        assert!(err.is_version_conflict(), "{err:?}");
        assert_eq!(db.get::<Thread>((FORUM, "Thread 8")).await.unwrap(), None);

        // An upsert of a counter alone creates the item with version 1 (as a bump would start it),
        // and afterwards neither bumps nor conflicts with an open edit.
        t.register_table(&db.table_name::<Page>());
        db.create_schema::<Page>().await.unwrap();
        let view = || db.update::<Page>("/").add(Page::views(), 1).upsert();
        let created = view().returning_new().await.unwrap();
        assert_eq!((created.views, created.version), (1, 1));
        let mut open = created.clone();
        let counted = view().returning_new().await.unwrap();
        assert_eq!((counted.views, counted.version), (2, 1));
        db.save(&mut open).await.unwrap();
        assert_eq!((open.views, open.version), (2, 2));
    }
);
