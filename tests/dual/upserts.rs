//! An update never creates an item its model cannot read. On every target, an update of a
//! missing key (every finisher, `incr`, `sync`, a transaction's update) is `ItemNotFound` and writes
//! nothing; an update through one entity never touches another's item; `upsert` creates a readable
//! item, and is refused before sending when it would not; cancellation reasons are typed codes.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, TimeZone, Utc};
use dynomodel::backend::PutItemInput;
use dynomodel::{CancellationCode, Collection, Db, Error, Model};

use super::*;

/// The AWS Developer Guide's Thread table, as the issue's forum used it.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Thread")]
struct Thread {
    #[hash_key]
    #[dynomodel(rename = "ForumName")]
    forum_name: String,
    #[range_key]
    #[dynomodel(rename = "Subject")]
    subject: String,
    #[dynomodel(rename = "Message")]
    message: String,
    #[dynomodel(rename = "LastPostedBy")]
    last_posted_by: Option<String>,
    #[dynomodel(rename = "Views")]
    views: u64,
    #[dynomodel(rename = "Tags")]
    tags: BTreeSet<String>,
    #[version]
    version: u64,
}

/// Books and bicycles of the Developer Guide's ProductCatalog, in one table.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "ProductCatalog", entity = "Book")]
struct Book {
    #[hash_key]
    #[dynomodel(rename = "Id")]
    id: u32,
    #[dynomodel(rename = "Title")]
    title: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "ProductCatalog", entity = "Bicycle")]
struct Bicycle {
    #[hash_key]
    #[dynomodel(rename = "Id")]
    id: u32,
    #[dynomodel(rename = "Title")]
    title: String,
    #[dynomodel(rename = "Color")]
    color: Option<String>,
}

#[derive(Collection, Debug, PartialEq)]
enum Product {
    Book(Book),
    Bicycle(Bicycle),
}

const FORUM: &str = "Amazon DynamoDB";

fn thread(subject: &str) -> Thread {
    Thread {
        forum_name: FORUM.into(),
        subject: subject.into(),
        message: format!("about {subject}"),
        last_posted_by: None,
        views: 0,
        tags: BTreeSet::from(["rust".to_owned()]),
        version: 0,
    }
}

async fn forum(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Thread>());
    db.create_schema::<Thread>().await.unwrap();
    db
}

/// Asserts `result` is `ItemNotFound` for `Update Thread {ForumName, Subject: subject}`.
#[track_caller]
fn thread_not_found<T: std::fmt::Debug>(
    t: &Dual,
    db: &Db,
    result: Result<T, Error>,
    subject: &str,
) {
    let Err(err) = result else {
        panic!(
            "[{:?}] {subject}: expected ItemNotFound, got {result:?}",
            t.target()
        );
    };
    assert!(err.is_item_not_found(), "[{:?}] {err:?}", t.target());
    assert_eq!(
        err.to_string(),
        format!(
            r#"ItemNotFound: Update Thread {{ForumName: "{FORUM}", Subject: "{subject}"}} in `{}`: no such item"#,
            db.table_name::<Thread>()
        ),
        "[{:?}]",
        t.target()
    );
}

/// Nothing in the table: no item under the key, and a scan finds none.
async fn nothing_written(db: &Db, subject: &str) {
    assert_eq!(db.get::<Thread>((FORUM, subject)).await.unwrap(), None);
    assert_eq!(
        db.scan::<Thread>().all().await.unwrap(),
        Vec::<Thread>::new()
    );
}

dual_test!(
    an_update_of_a_missing_key_writes_nothing_whatever_the_finisher,
    |t| {
        let db = forum(&t).await;
        let update = || {
            db.update::<Thread>((FORUM, "ghost"))
                .add(Thread::views(), 1)
        };
        thread_not_found(&t, &db, update().await, "ghost");
        thread_not_found(&t, &db, update().returning_new().await, "ghost");
        thread_not_found(&t, &db, update().returning_old().await, "ghost");
        thread_not_found(&t, &db, update().returning_updated_new().await, "ghost");
        thread_not_found(&t, &db, update().returning_updated_old().await, "ghost");
        // With a condition of the user's, the missing item is still what is reported.
        let conditioned = update().condition(Thread::views().lt(10)).await;
        thread_not_found(&t, &db, conditioned, "ghost");
        // Without the stored item, the existence check is blamed when it is the only condition.
        thread_not_found(&t, &db, update().item_on_failure(false).await, "ghost");
        let touch = db
            .update::<Thread>((FORUM, "ghost"))
            .allow_no_actions()
            .await;
        thread_not_found(&t, &db, touch, "ghost");
        nothing_written(&db, "ghost").await;

        // An existing thread updates as before.
        db.save(&mut thread("hello")).await.unwrap();
        let viewed = update_views(&db, "hello").await;
        assert_eq!((viewed.views, viewed.version), (1, 2));
    }
);

async fn update_views(db: &Db, subject: &str) -> Thread {
    db.update::<Thread>((FORUM, subject))
        .add(Thread::views(), 1)
        .returning_new()
        .await
        .unwrap()
}

dual_test!(incr_and_sync_never_recreate_a_deleted_item, |t| {
    let db = forum(&t).await;
    let mut read = thread("gone");
    db.save(&mut read).await.unwrap();
    db.delete_key::<Thread>((FORUM, "gone")).await.unwrap();

    let mut counting = read.clone();
    thread_not_found(
        &t,
        &db,
        db.incr(&mut counting, Thread::views(), 1).await,
        "gone",
    );
    assert_eq!(counting, read, "unchanged on failure");
    let mut edited = read.clone();
    edited.message = "edited".into();
    // Versioned: the version check would fail too, but the missing item is what is reported.
    thread_not_found(&t, &db, db.sync(&read, &edited).await, "gone");
    thread_not_found(&t, &db, db.sync_atomic(&read, &edited).await, "gone");
    nothing_written(&db, "gone").await;
});

dual_test!(
    an_upsert_creates_a_readable_item_or_is_refused_before_sending,
    |t| {
        let db = forum(&t).await;
        let view = || {
            db.update::<Thread>((FORUM, "new"))
                .add(Thread::views(), 1)
                .set_if_not_exists(Thread::message(), "(no message yet)")
                .upsert()
        };
        assert_eq!(view().returning_old().await.unwrap(), None, "created");
        let viewed = view().returning_new().await.unwrap();
        let expected = Thread {
            message: "(no message yet)".into(),
            views: 2,
            tags: BTreeSet::new(),
            version: 2, // the bump of each update started and counted it
            ..thread("new")
        };
        assert_eq!(viewed, expected);
        // Readable by every read of the model, the partition's query included.
        assert_eq!(db.query::<Thread>(FORUM).all().await.unwrap(), [expected]);

        // Without `Message`, the item it could create would break every read of the forum.
        let err = db
            .update::<Thread>((FORUM, "ghost"))
            .add(Thread::views(), 1)
            .upsert()
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                r#"ValidationException: Upsert Thread {{ForumName: "{FORUM}", Subject: "ghost"}} in `{}`: an upsert may create the item, so it must set every attribute `Thread` needs to read it back; missing `Message` (set them with set, set_if_not_exists or add)"#,
                db.table_name::<Thread>()
            )
        );
        assert_eq!(db.get::<Thread>((FORUM, "ghost")).await.unwrap(), None);
        // `ignore_version` leaves the version to the update: then it is missing too.
        let err = db
            .update::<Thread>((FORUM, "ghost"))
            .set(Thread::message(), "m")
            .add(Thread::views(), 1)
            .ignore_version()
            .upsert()
            .await
            .unwrap_err();
        assert!(err.message().contains("missing `version`"), "{err}");
        assert_eq!(db.query::<Thread>(FORUM).count().await.unwrap(), 1);
    }
);

async fn catalog(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Book>());
    db.create_collection_schema::<Product>().await.unwrap();
    db
}

dual_test!(an_update_through_one_entity_never_touches_another, |t| {
    let db = catalog(&t).await;
    let book = Book {
        id: 101,
        title: "Book 101 Title".into(),
    };
    db.put(&book).await.unwrap();
    let table = db.table_name::<Bicycle>();

    let err = db
        .update::<Bicycle>(101u32)
        .set(Bicycle::color(), "Red")
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            r#"ItemNotFound: Update Bicycle {{Id: 101}} in `{table}`: no such item: the key holds an item of entity type "Book""#
        )
    );
    let Error::ItemNotFound(not_found) = &err else {
        unreachable!()
    };
    assert_eq!(not_found.stored_entity.as_deref(), Some("Book"));
    assert_eq!(not_found.item, Some(book.to_item().unwrap()));
    // Nor does an upsert turn the book into a bicycle.
    let err = db
        .update::<Bicycle>(101u32)
        .set(Bicycle::title(), "Bike")
        .upsert()
        .await
        .unwrap_err();
    assert!(err.is_item_not_found(), "{err:?}");
    assert!(
        err.message().ends_with(
            r#"the key holds an item of entity type "Book", which an upsert does not overwrite"#
        ),
        "{err}"
    );
    assert_eq!(db.get::<Book>(101u32).await.unwrap(), Some(book));

    // A missing key: not found without an entity type; an upsert creates a readable bicycle.
    let err = db
        .update::<Bicycle>(201u32)
        .set(Bicycle::color(), "Red")
        .await
        .unwrap_err();
    assert_eq!(
        err.message(),
        format!("Update Bicycle {{Id: 201}} in `{table}`: no such item")
    );
    db.update::<Bicycle>(201u32)
        .set(Bicycle::title(), "18-Bike-201")
        .set(Bicycle::color(), "Red")
        .upsert()
        .await
        .unwrap();
    let bike = Bicycle {
        id: 201,
        title: "18-Bike-201".into(),
        color: Some("Red".into()),
    };
    assert_eq!(db.get::<Bicycle>(201u32).await.unwrap(), Some(bike.clone()));
    let repainted = db
        .update::<Bicycle>(201u32)
        .set(Bicycle::color(), "Blue")
        .returning_new()
        .await
        .unwrap();
    assert_eq!(repainted.color.as_deref(), Some("Blue"));
});

dual_test!(
    a_transaction_update_of_a_missing_key_is_cancelled_as_not_found,
    |t| {
        let db = forum(&t).await;
        db.save(&mut thread("hello")).await.unwrap();
        let err = db
            .transact()
            .update::<Thread>((FORUM, "hello"), |u| u.add(Thread::views(), 1))
            .update::<Thread>((FORUM, "ghost"), |u| u.add(Thread::views(), 1))
            .await
            .unwrap_err();
        let reasons = err.cancellation_reasons();
        assert!(reasons[0].is_none());
        assert_eq!(reasons[1].code, CancellationCode::ConditionalCheckFailed);
        assert!(reasons[1].is_item_not_found() && !reasons[1].is_version_conflict());
        assert_eq!(reasons[1].model(), Some("Thread"));
        assert_eq!(
            reasons[1].key(),
            Some(&item([("ForumName", s(FORUM)), ("Subject", s("ghost"))]))
        );
        assert!(err.is_item_not_found());
        nothing_written_but(&db, "hello", 0).await;

        // An upsert in a transaction creates, once it sets what a thread needs.
        db.transact()
            .update::<Thread>((FORUM, "hello"), |u| u.add(Thread::views(), 1))
            .update::<Thread>((FORUM, "ghost"), |u| {
                u.add(Thread::views(), 1)
                    .set(Thread::message(), "boo")
                    .upsert()
            })
            .await
            .unwrap();
        let ghost = db.get::<Thread>((FORUM, "ghost")).await.unwrap().unwrap();
        assert_eq!(
            (ghost.message.as_str(), ghost.views, ghost.version),
            ("boo", 1, 1)
        );
    }
);

/// Only `subject` is stored, with `views`.
async fn nothing_written_but(db: &Db, subject: &str, views: u64) {
    let all = db.scan::<Thread>().all().await.unwrap();
    assert_eq!(
        all.iter()
            .map(|t| (t.subject.as_str(), t.views))
            .collect::<Vec<_>>(),
        [(subject, views)]
    );
}

dual_test!(cancellation_reasons_have_typed_codes, |t| {
    let db = forum(&t).await;
    let mut hello = thread("hello");
    db.save(&mut hello).await.unwrap();
    let stale = hello.clone();
    db.save(&mut hello).await.unwrap(); // version 2

    let err = db
        .transact()
        // A failed condition of the user's.
        .update::<Thread>((FORUM, "hello"), |u| {
            u.add(Thread::views(), 1).condition(Thread::views().gt(100))
        })
        .await
        .unwrap_err();
    let reason = &err.cancellation_reasons()[0];
    assert!(reason.is_conditional_check_failed());
    assert!(!reason.is_item_not_found() && !reason.is_version_conflict());
    assert_eq!(reason.item_as::<Thread>().unwrap(), Some(hello.clone()));

    // A version conflict.
    let err = db.transact().put(&stale).await.unwrap_err();
    let reason = &err.cancellation_reasons()[0];
    assert_eq!(reason.code, CancellationCode::ConditionalCheckFailed);
    assert!(reason.is_version_conflict() && !reason.is_item_not_found());

    // A validation error of one action: an update making the item too large (a reason on every
    // target; DynamoDB Local refuses most other update-time errors as a whole request, see
    // `transactions/reasons.rs`). The padding is an attribute the model ignores.
    let mut padded = hello.to_item().unwrap();
    padded.insert("Padding".into(), s(&"p".repeat(300_000)));
    db.backend()
        .put_item(dynomodel::backend::PutItemInput {
            table_name: db.table_name::<Thread>(),
            item: padded,
            ..Default::default()
        })
        .await
        .unwrap();
    let err = db
        .transact()
        .update::<Thread>((FORUM, "hello"), |u| {
            u.set(Thread::message(), "m".repeat(200_000))
        })
        .await
        .unwrap_err();
    let reason = &err.cancellation_reasons()[0];
    assert_eq!(reason.code, CancellationCode::ValidationError, "{reason:?}");
    assert_eq!(
        reason.message.as_deref(),
        Some("Item size to update has exceeded the maximum allowed size")
    );
    assert!(!reason.is_conditional_check_failed() && !reason.is_item_not_found());
});

/// The Developer Guide's Reply table: a renamed composite hash key (`Id` = forum#subject, the
/// subject holding the separator) and a time stored in millis as the range key.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Reply", rename_all = "PascalCase", datetime = "millis")]
#[composite(id = (forum_name, subject), hash_key, rename = "Id")]
struct Reply {
    forum_name: String,
    subject: String,
    #[range_key]
    reply_date_time: DateTime<Utc>,
    message: String,
    posted_by: String,
}

const RUST: &str = "C# or Rust?";

/// 2015-09-15T19:58:22.947Z, the sample's first reply, plus `nanos` below the millisecond.
fn reply_time(nanos: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap()
        + Duration::milliseconds(947)
        + Duration::nanoseconds(nanos)
}

dual_test!(
    an_update_of_a_composite_keyed_item_names_it_as_reads_do,
    |t| {
        let db = t.namespaced_db();
        t.register_table(&db.table_name::<Reply>());
        db.create_schema::<Reply>().await.unwrap();
        let key = ((FORUM, RUST), reply_time(123_456));
        let stored_key = item([
            ("Id", s("Amazon DynamoDB#C# or Rust?")),
            ("ReplyDateTime", s("2015-09-15T19:58:22.947Z")),
        ]);
        // As `ItemDecode` names an item: the model, the stored key (the composite's name, the
        // time at its width) and the table with its namespace.
        let named = format!(
            r#"Reply {{Id: "{FORUM}#{RUST}", ReplyDateTime: "2015-09-15T19:58:22.947Z"}} in `{}`"#,
            db.table_name::<Reply>()
        );

        let err = db
            .update::<Reply>(key)
            .set(Reply::message(), "edited")
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("ItemNotFound: Update {named}: no such item")
        );
        let Error::ItemNotFound(not_found) = &err else {
            unreachable!()
        };
        assert_eq!(not_found.key, stored_key);

        // An upsert must set the attributes by their stored names.
        let err = db
            .update::<Reply>(key)
            .set(Reply::message(), "hello")
            .upsert()
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "ValidationException: Upsert {named}: an upsert may create the item, so it must set \
                 every attribute `Reply` needs to read it back; missing `PostedBy` (set them with \
                 set, set_if_not_exists or add)"
            )
        );
        let created = db
            .update::<Reply>(key)
            .set(Reply::message(), "hello")
            .set(Reply::posted_by(), "User A")
            .upsert()
            .returning_new()
            .await
            .unwrap();
        let expected = Reply {
            forum_name: FORUM.into(),
            subject: RUST.into(),
            reply_date_time: reply_time(0),
            message: "hello".into(),
            posted_by: "User A".into(),
        };
        assert_eq!(created, expected);
        assert_eq!(
            db.query::<Reply>((FORUM, RUST)).all().await.unwrap(),
            [expected]
        );

        // An item stored under the key that the model cannot read (written around the mapper):
        // the update applies (the item exists), and the item it returns is an `ItemDecode`
        // naming the same item.
        let mut broken = stored_key.clone();
        broken.insert("Message".into(), s("hello"));
        db.backend()
            .put_item(PutItemInput {
                table_name: db.table_name::<Reply>(),
                item: broken,
                ..Default::default()
            })
            .await
            .unwrap();
        let err = db
            .update::<Reply>(key)
            .set(Reply::message(), "edited")
            .returning_new()
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "the item of {named} does not decode: attribute `PostedBy`: expected a string, \
                 found nothing (the attribute is missing)"
            )
        );
    }
);

/// A model every attribute of which is optional: an upsert of it may only remove.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Drafts")]
struct Draft {
    #[hash_key]
    id: String,
    note: Option<String>,
}

dual_test!(an_upsert_that_only_removes_creates_nothing, |t| {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Draft>());
    db.create_schema::<Draft>().await.unwrap();
    let removed = db
        .update::<Draft>("d1")
        .remove(Draft::note())
        .upsert()
        .returning_new()
        .await;
    if t.target() == Target::DynamoDbLocal {
        // KNOWN DIFFERENCE: DynamoDB writes nothing for an update that only removes from a missing
        // item (see update_semantics.rs); DynamoDB Local creates the key-only item and returns it.
        assert_eq!(
            removed.unwrap(),
            Draft {
                id: "d1".into(),
                note: None
            }
        );
        return;
    }
    let err = removed.unwrap_err();
    assert!(err.is_item_not_found(), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            r#"ItemNotFound: Update Draft {{id: "d1"}} in `{}`: no such item (an upsert that only removes attributes creates none)"#,
            db.table_name::<Draft>()
        )
    );
    assert_eq!(db.get::<Draft>("d1").await.unwrap(), None);
});
