//! The mapper's batches end to end on the in-memory engine: `Db::batch_write`, `Db::batch_get` and
//! `Db::batch_get_stream` over `dynomodel_mem::MemBackend`, directly and through a wrapper that
//! answers only half of every batch request (the other half reported unprocessed), so that the data
//! shows the retries completing the work.

#![allow(clippy::unwrap_used)] // Tests: a panic is the failure report.

mod half_answering;

use std::sync::atomic::Ordering;

use dynomodel::backend::*;
use dynomodel::*;
use dynomodel_mem::MemBackend;
use futures::TryStreamExt;

use half_answering::HalfAnswering;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets")]
struct Tweet {
    #[hash_key]
    userid: String,
    #[range_key]
    id: String,
    text: String,
    likes: i64,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "users")]
struct User {
    #[hash_key]
    id: String,
    name: String,
    age: u32,
}

/// 1,000 tweets over 10 users.
fn tweets() -> Vec<Tweet> {
    (0..1000)
        .map(|i| Tweet {
            userid: format!("u{}", i % 10),
            id: format!("{i:04}"),
            text: format!("tweet number {i}"),
            likes: i,
        })
        .collect()
}

/// 1,000 users.
fn users() -> Vec<User> {
    (0..1000)
        .map(|i| User {
            id: format!("u{i}"),
            name: format!("user {i}"),
            age: 20 + i % 50,
        })
        .collect()
}

/// A database on a fresh engine with both tables, under a namespace.
async fn db_on(engine: &MemBackend) -> Db {
    let db = Db::new(engine.clone()).with_namespace("batch-");
    db.create_schema::<Tweet>().await.unwrap();
    db.create_schema::<User>().await.unwrap();
    db
}

#[tokio::test]
async fn a_thousand_items_of_two_models_round_trip() {
    let engine = MemBackend::new();
    let db = db_on(&engine).await;
    let (tweets, users) = (tweets(), users());
    db.batch_write()
        .put_all(&tweets)
        .put_all(&users)
        .await
        .unwrap();
    assert_eq!(db.scan::<Tweet>().count().await.unwrap(), 1000);
    assert_eq!(db.scan::<User>().count().await.unwrap(), 1000);

    // Both models in one batch, with keys that have no item.
    let mut read = db
        .batch_get()
        .keys::<Tweet>(tweets.iter().map(Model::key))
        .keys::<Tweet>([("u0", "9999"), ("u1", "9998")])
        .keys::<User>(users.iter().map(|u| u.id.as_str()))
        .key::<User>("nobody")
        .consistent::<User>()
        .await
        .unwrap();
    assert_eq!(read.len(), 2000);
    assert_eq!(read.get::<User>("u7").unwrap(), Some(users[7].clone()));
    assert_eq!(
        read.missing::<Tweet>(),
        [
            &TweetKey::from(("u0", "9999")),
            &TweetKey::from(("u1", "9998"))
        ]
    );
    assert_eq!(read.missing::<User>(), [&UserKey::from("nobody")]);
    assert_eq!(read.take::<Tweet>().unwrap(), tweets);
    assert_eq!(read.take::<User>().unwrap(), users);

    // The stream form, in key order, skipping the missing.
    let keys = tweets
        .iter()
        .rev()
        .map(Model::key)
        .chain([TweetKey::from(("u3", "nope"))]);
    let streamed: Vec<Tweet> = db
        .batch_get_stream::<Tweet>(keys)
        .try_collect()
        .await
        .unwrap();
    assert_eq!(streamed, tweets.iter().rev().cloned().collect::<Vec<_>>());

    // A projection, and deletes by model and by key.
    let mut likes = db
        .batch_get()
        .keys::<Tweet>(tweets[..3].iter().map(Model::key))
        .project(Tweet::likes())
        .await
        .unwrap();
    let likes: Vec<Option<i64>> = likes
        .take_partial::<Tweet>()
        .iter()
        .map(|p| p.get(Tweet::likes()).unwrap())
        .collect();
    assert_eq!(likes, [Some(0), Some(1), Some(2)]);
    db.batch_write()
        .delete_all(&tweets[..500])
        .delete_keys::<User>(users[..100].iter().map(|u| u.id.clone()))
        .await
        .unwrap();
    assert_eq!(db.scan::<Tweet>().count().await.unwrap(), 500);
    assert_eq!(db.scan::<User>().count().await.unwrap(), 900);
}

#[tokio::test(start_paused = true)]
async fn half_answered_requests_are_completed_by_retries() {
    let engine = MemBackend::new();
    let plain = db_on(&engine).await;
    let half = HalfAnswering::new(engine.clone());
    let stats = half.stats.clone();
    let db = Db::new(half).with_namespace("batch-");
    let (tweets, users) = (tweets(), users());

    db.batch_write()
        .put_all(&tweets)
        .put_all(&users)
        .await
        .unwrap();
    // 80 chunks of 25, each answered 13 + 6 + 3 + 2 + 1: five requests per chunk.
    assert_eq!(stats.write_requests.load(Ordering::SeqCst), 80 * 5);
    assert_eq!(stats.writes_forwarded.load(Ordering::SeqCst), 2000);
    // Read without the wrapper: every item is stored.
    let stored: Vec<Tweet> = plain.scan::<Tweet>().all().await.unwrap();
    assert_eq!(stored.len(), 1000);
    assert_eq!(plain.scan::<User>().count().await.unwrap(), 1000);
    assert_eq!(
        plain.get::<Tweet>(("u9", "0999")).await.unwrap(),
        Some(tweets[999].clone())
    );

    let mut read = db
        .batch_get()
        .keys::<Tweet>(tweets.iter().map(Model::key))
        .keys::<User>(users.iter().map(|u| u.id.as_str()))
        .await
        .unwrap();
    // 20 chunks of 100, each answered 50 + 25 + 13 + 6 + 3 + 2 + 1: seven requests per chunk.
    assert_eq!(stats.get_requests.load(Ordering::SeqCst), 20 * 7);
    assert_eq!(stats.keys_forwarded.load(Ordering::SeqCst), 2000);
    assert_eq!(read.take::<Tweet>().unwrap(), tweets);
    assert_eq!(read.take::<User>().unwrap(), users);

    let streamed: Vec<User> = db
        .batch_get_stream::<User>(users.iter().map(|u| u.id.as_str()))
        .try_collect()
        .await
        .unwrap();
    assert_eq!(streamed, users);
}

#[tokio::test(start_paused = true)]
async fn reads_past_the_16_mb_limit_are_completed_from_the_engine_s_unprocessed_keys() {
    let engine = MemBackend::new();
    let plain = db_on(&engine).await;
    let mut counting = HalfAnswering::new(engine.clone());
    counting.halve = false;
    let stats = counting.stats.clone();
    let db = Db::new(counting).with_namespace("batch-");
    // The AWS API reference's example: 100 items of 300 KB, of which one BatchGetItem returns 52.
    let big: Vec<Tweet> = (0..100)
        .map(|i| Tweet {
            userid: "big".into(),
            id: format!("{i:03}"),
            text: "x".repeat(300 * 1024 - 40),
            likes: i,
        })
        .collect();
    plain.batch_write().put_all(&big).await.unwrap();

    let mut read = db
        .batch_get()
        .keys::<Tweet>(big.iter().map(Model::key))
        .await
        .unwrap();
    assert_eq!(read.take::<Tweet>().unwrap(), big);
    assert!(read.missing::<Tweet>().is_empty());
    // One chunk of 100 keys, cut by the engine at 16 MB and completed by one retry.
    assert_eq!(stats.get_requests.load(Ordering::SeqCst), 2);
}

#[tokio::test(start_paused = true)]
async fn writes_whose_retries_run_out_are_named_and_the_rest_is_written() {
    let engine = MemBackend::new();
    let plain = db_on(&engine).await;
    let mut half = HalfAnswering::new(engine.clone());
    half.stuck = Some("u42".into());
    let db = Db::new(half).with_namespace("batch-");
    let users = users();

    let options = BatchOptions::default().max_attempts(6);
    let err = db
        .batch_write()
        .put_all(&users)
        .options(options)
        .await
        .unwrap_err();
    let Error::BatchUnprocessed(left) = &err else {
        panic!("unprocessed writes: {err:?}");
    };
    assert_eq!((left.attempts, left.processed), (6, 999));
    assert_eq!(
        left.actions,
        [ItemAction {
            kind: "Put",
            model: "User",
            table: "batch-users".into(),
            key: users[42].key().to_key_item().unwrap(),
            version: None,
            existence: None,
        }]
    );
    assert_eq!(
        err.to_string(),
        r#"BatchWriteItem left 1 of 1000 writes unprocessed after 6 attempts: Put User {id: "u42"} in `batch-users`"#
    );
    // Everything else was written; the stuck user was not.
    assert_eq!(plain.scan::<User>().count().await.unwrap(), 999);
    assert_eq!(plain.get::<User>("u42").await.unwrap(), None);
}

#[tokio::test]
async fn errors_name_the_model_table_and_key() {
    let engine = MemBackend::new();
    let db = db_on(&engine).await;
    let users = users();

    // Two writes to one item: refused before anything is sent.
    let err = db
        .batch_write()
        .put_all(&users[..30])
        .delete(&users[3])
        .await
        .unwrap_err();
    assert_eq!(err.code(), "ValidationException");
    assert!(
        err.message().starts_with(
            r#"batch_write: two writes to one item: Put User {id: "u3"} in `batch-users` and Delete User {id: "u3"} in `batch-users`"#
        ),
        "{err}"
    );
    assert_eq!(
        db.scan::<User>().count().await.unwrap(),
        0,
        "nothing written"
    );

    // An item that does not fit its model, written behind the mapper's back.
    let bad: Item = [
        ("id".to_owned(), AttributeValue::S("u1".into())),
        ("name".to_owned(), AttributeValue::S("Ada".into())),
        ("age".to_owned(), AttributeValue::S("old".into())),
    ]
    .into();
    let table_name = db.table_name::<User>();
    engine
        .put_item(PutItemInput {
            table_name,
            item: bad,
            ..Default::default()
        })
        .await
        .unwrap();
    let read = db.batch_get().keys::<User>(["u1", "u2"]).await.unwrap();
    let Err(Error::ItemDecode(e)) = read.get::<User>("u1") else {
        panic!("a decoding error");
    };
    assert_eq!((e.model, e.table.as_str()), ("User", "batch-users"));
    assert!(
        e.to_string().starts_with(
            r#"the item of User {id: "u1"} in `batch-users` does not decode: attribute `age`"#
        ),
        "{e}"
    );

    // A table that does not exist: the engine's error, as DynamoDB gives it.
    let other = Db::new(engine.clone()).with_namespace("nowhere-");
    let err = other.batch_get().key::<User>("u1").await.unwrap_err();
    assert_eq!(err.code(), "ResourceNotFoundException");
    let err = other.batch_write().put(&users[0]).await.unwrap_err();
    assert_eq!(err.code(), "ResourceNotFoundException");
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "docs")]
struct Doc {
    #[hash_key]
    id: String,
    text: String,
    #[version]
    version: u64,
}

#[tokio::test]
async fn a_stale_copy_cannot_move_a_version_back_through_a_batch() {
    let db = Db::new(MemBackend::new()).with_namespace("batch-");
    db.create_schema::<Doc>().await.unwrap();
    let mut doc = Doc {
        id: "d".into(),
        text: "first".into(),
        version: 0,
    };
    db.save(&mut doc).await.unwrap();
    let stale = doc.clone();
    doc.text = "second".into();
    db.save(&mut doc).await.unwrap(); // version 2

    // Unchecked, this put would store version 1 again, and every copy read at version 1 could then
    // overwrite "second" (each save then "succeeding" over the other's).
    let err = db.batch_write().put(&stale).await.unwrap_err();
    assert_eq!(err.code(), "ValidationException");
    assert!(err.message().contains("cannot check"), "{err}");
    let err = db.batch_write().delete(&stale).await.unwrap_err();
    assert_eq!(err.code(), "ValidationException");
    assert_eq!(db.get::<Doc>("d").await.unwrap(), Some(doc.clone()));
    let mut other = stale.clone();
    assert!(db.save(&mut other).await.unwrap_err().is_version_conflict());

    // Asked for explicitly, the copy is stored as it is.
    db.batch_write().put(&stale).ignore_version().await.unwrap();
    assert_eq!(db.get::<Doc>("d").await.unwrap(), Some(stale));
}

// The same round trip on every backend of the dual suite: the engine, Amazon DynamoDB Local through
// `AwsBackend`, and the engine's HTTP server through `AwsBackend`. The tables are the models' own,
// under a namespace unique to the test and run, deleted at the end.
dynomodel_tests::dual_test!(batches_round_trip_on_every_backend, |t| {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Tweet>());
    t.register_table(&db.table_name::<User>());
    db.create_schema::<Tweet>().await.unwrap();
    db.create_schema::<User>().await.unwrap();
    let tweets: Vec<Tweet> = tweets().into_iter().take(260).collect();
    let users: Vec<User> = users().into_iter().take(140).collect();

    db.batch_write()
        .put_all(&tweets)
        .put_all(&users)
        .await
        .unwrap();
    let mut read = db
        .batch_get()
        .keys::<Tweet>(tweets.iter().map(Model::key))
        .key::<Tweet>(("u0", "none"))
        .keys::<User>(users.iter().map(|u| u.id.as_str()))
        .consistent::<User>()
        .await
        .unwrap();
    assert_eq!(read.missing::<Tweet>(), [&TweetKey::from(("u0", "none"))]);
    assert_eq!(read.take::<Tweet>().unwrap(), tweets);
    assert_eq!(read.take::<User>().unwrap(), users);

    let mut names = db
        .batch_get()
        .keys::<User>(["u1", "u2"])
        .project(User::name())
        .await
        .unwrap()
        .take_partial::<User>()
        .into_iter()
        .map(|p| p.get(User::name()).unwrap());
    assert_eq!(names.next(), Some(Some("user 1".to_owned())));

    let streamed: Vec<Tweet> = db
        .batch_get_stream::<Tweet>(tweets.iter().map(Model::key))
        .consistent()
        .try_collect()
        .await
        .unwrap();
    assert_eq!(streamed, tweets);

    db.batch_write()
        .delete_all(&tweets)
        .delete_all(&users[..40])
        .await
        .unwrap();
    assert_eq!(db.scan::<Tweet>().count().await.unwrap(), 0);
    assert_eq!(db.scan::<User>().count().await.unwrap(), 100);

    // A table that does not exist fails the batch with the backend's own error.
    let nowhere = t.namespaced_db(); // no table created in it
    let err = nowhere.batch_get().key::<User>("u1").await.unwrap_err();
    assert_eq!(err.code(), "ResourceNotFoundException");
});
