//! `batch_write`: chunks, per-table request shapes, duplicates and the checks made before sending.

use super::fake::*;
use crate::backend::WriteRequest;
use crate::error::Error;
use crate::model::{Model, PrimaryKey};
use crate::value::Item;

#[tokio::test]
async fn sixty_writes_are_three_requests_of_25_25_and_10() {
    let (db, fake) = Fake::db();
    db.batch_write().put_all(&tweets(60)).await.expect("writes");
    assert_eq!(fake.sizes(), [25, 25, 10]);
    assert_eq!(fake.items("tweets").len(), 60);
}

#[tokio::test]
async fn an_empty_batch_sends_nothing() {
    let (db, fake) = Fake::db();
    db.batch_write().await.expect("nothing to write");
    db.batch_write()
        .put_all(&Vec::<Tweet>::new())
        .delete_keys::<User>(Vec::<String>::new())
        .await
        .expect("nothing");
    assert!(fake.calls().is_empty());
}

#[tokio::test]
async fn puts_and_deletes_of_several_models_go_to_their_namespaced_tables() {
    let (db, fake) = Fake::db();
    let db = db.with_namespace("test-");
    db.batch_write()
        .put(&tweet(1))
        .put(&user(1))
        .delete(&tweet(2))
        .delete_key::<User>("u2")
        .delete_all([&tweet(3)])
        .delete_keys::<Tweet>([("abc", "0004")])
        .await
        .expect("writes");
    let calls = fake.calls();
    assert_eq!(calls.len(), 1);
    let items = &calls[0].write().request_items;
    let key = |t: &Tweet| t.key().to_key_item().expect("converts");
    assert_eq!(
        items["test-tweets"],
        [
            WriteRequest::Put {
                item: tweet(1).to_item().expect("converts")
            },
            WriteRequest::Delete {
                key: key(&tweet(2))
            },
            WriteRequest::Delete {
                key: key(&tweet(3))
            },
            WriteRequest::Delete {
                key: key(&tweet(4))
            },
        ]
    );
    assert_eq!(
        items["test-users"],
        [
            WriteRequest::Put {
                item: user(1).to_item().expect("converts")
            },
            WriteRequest::Delete {
                key: Item::from([("id".to_owned(), s("u2"))])
            },
        ]
    );
    assert_eq!(items.len(), 2);
}

#[tokio::test]
async fn two_writes_to_one_item_are_refused_naming_it_before_anything_is_sent() {
    let (db, fake) = Fake::db();
    // Far apart, in different chunks: still refused, since chunks run concurrently.
    let err = db
        .batch_write()
        .put(&tweet(7))
        .put_all(&tweets(40))
        .await
        .expect_err("a duplicate");
    assert_eq!(err.code(), "ValidationException");
    assert!(
        err.message().starts_with(
            r#"batch_write: two writes to one item: Put Tweet {id: "0007", userid: "abc"} in `tweets` and Put Tweet {id: "0007", userid: "abc"} in `tweets`;"#
        ),
        "{err}"
    );
    let err = db
        .batch_write()
        .delete_key::<User>("u1")
        .put(&user(1))
        .await
        .expect_err("a duplicate");
    assert!(
        err.message()
            .contains(r#"Delete User {id: "u1"} in `users` and Put User {id: "u1"} in `users`"#),
        "{err}"
    );
    assert!(fake.calls().is_empty());

    // Two models on one table write one item when their keys match...
    let profile = Profile { id: "u1".into() };
    let err = db
        .batch_write()
        .put(&user(1))
        .put(&profile)
        .await
        .expect_err("one item");
    assert!(err
        .message()
        .contains(r#"Put User {id: "u1"} in `users` and Put Profile {id: "u1"} in `users`"#));
    assert!(fake.calls().is_empty());
    // ...but the same key in two tables is two items.
    let group = Group { id: "u1".into() };
    db.batch_write()
        .put(&user(1))
        .put(&group)
        .await
        .expect("distinct items");
    assert_eq!(fake.sizes(), [2]);
}

#[tokio::test]
async fn an_item_over_400_kb_is_refused_before_anything_is_sent() {
    let (db, fake) = Fake::db();
    let mut big = tweet(30);
    big.text = "x".repeat(410_000);
    let err = db
        .batch_write()
        .put_all(&tweets(30))
        .put(&big)
        .await
        .expect_err("too big");
    assert_eq!(err.code(), "ItemTooLarge");
    assert!(
        err.message()
            .starts_with(r#"the item of Tweet {id: "0030", userid: "abc"} in `tweets` is 410"#),
        "{err}"
    );
    assert!(
        err.message()
            .ends_with("largest attributes: `text` 410004 bytes, `userid` 9 bytes, `id` 6 bytes"),
        "{err}"
    );
    assert!(fake.calls().is_empty());
}

#[tokio::test]
async fn an_empty_string_key_is_refused_before_anything_is_sent() {
    let (db, fake) = Fake::db();
    let err = db
        .batch_write()
        .put(&user(1))
        .delete_key::<User>("")
        .await
        .expect_err("invalid");
    assert_eq!(err.code(), "ValidationException");
    assert!(
        err.message()
            .contains(r#"the key of User {id: ""} in `users` is not valid"#),
        "{err}"
    );
    assert!(fake.calls().is_empty());
}

#[tokio::test]
async fn a_failing_chunk_fails_the_call_with_dynamodb_s_error() {
    let (db, fake) = Fake::db();
    fake.missing_table("users");
    let err = db
        .batch_write()
        .put_all(&tweets(50))
        .put(&user(1))
        .put_all(&tweets(60)[50..])
        .options(crate::BatchOptions::default().concurrency(1))
        .await
        .expect_err("no users table");
    assert_eq!(
        err,
        Error::resource_not_found("Requested resource not found: users")
    );
    // Chunks run in order with a concurrency of 1: the first two (tweets only) were written, the
    // third (the user and 10 tweets) failed as a whole. Batches are not transactions.
    assert_eq!(fake.sizes(), [25, 25, 11]);
    assert_eq!(fake.items("tweets").len(), 50);
}

#[tokio::test]
async fn values_of_a_versioned_model_are_refused_unless_the_version_is_ignored() {
    let (db, fake) = Fake::db();
    let doc = |id: &str, version: u64| Doc {
        id: id.into(),
        version,
    };
    let (fresh, stale) = (doc("d1", 0), doc("d2", 3));
    for batch in [
        db.batch_write().put(&user(1)).put(&fresh),
        db.batch_write().put_all([&stale, &fresh]),
        db.batch_write().delete(&stale),
        db.batch_write().delete_all([&stale]),
    ] {
        let err = batch.await.expect_err("no version check possible");
        assert_eq!(err.code(), "ValidationException");
        assert!(
            err.message().starts_with(
                "batch_write: `Doc` has a #[version] field, which a batch cannot check"
            ),
            "{err}"
        );
    }
    assert!(fake.calls().is_empty(), "nothing was sent");

    // By key there is no version to check, as with `Db::delete_key`; no value, no refusal.
    db.batch_write()
        .delete_key::<Doc>("d1")
        .delete_keys::<Doc>(["d2"])
        .put_all(&Vec::<Doc>::new())
        .delete_all(&Vec::<Doc>::new())
        .await
        .expect("by key");
    assert_eq!(fake.sizes(), [2]);

    // Told to, the values are written exactly as they are in memory (before or after the writes).
    db.batch_write()
        .ignore_version()
        .put(&stale)
        .await
        .expect("unchecked");
    db.batch_write()
        .put(&fresh)
        .delete(&doc("d3", 1))
        .ignore_version()
        .await
        .expect("unchecked");
    let calls = fake.calls();
    assert_eq!(
        calls[1].write().request_items["docs"],
        [WriteRequest::Put {
            item: stale.to_item().expect("converts")
        }]
    );
    assert_eq!(
        calls[2].write().request_items["docs"],
        [
            WriteRequest::Put {
                item: fresh.to_item().expect("converts")
            },
            WriteRequest::Delete {
                key: Item::from([("id".to_owned(), s("d3"))])
            },
        ]
    );
    let mut stored: Vec<Doc> = fake
        .items("docs")
        .into_iter()
        .map(|item| Doc::from_item(item).expect("decodes"))
        .collect();
    stored.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(stored, [fresh, stale], "versions stored as given: 0 and 3");
}
