//! `batch_get_stream`: lazy, chunked, ordered, bounded, and ending at its first error.

use std::time::Duration;

use futures::{StreamExt, TryStreamExt};

use super::fake::*;
use crate::db::batch::options::BatchOptions;
use crate::error::Error;
use crate::model::Model;
use crate::value::{AttributeValue, Item};

fn store_tweets(fake: &Fake, n: usize) {
    for t in tweets(n) {
        fake.insert("tweets", &["userid", "id"], t.to_item().expect("converts"));
    }
}

#[tokio::test]
async fn items_come_in_key_order_chunk_by_chunk_and_missing_keys_are_skipped() {
    let (db, fake) = Fake::db();
    store_tweets(&fake, 250);
    // Every other key exists, backwards, with a duplicate.
    let mut keys: Vec<(String, String)> = (0..500)
        .rev()
        .map(|i| ("abc".into(), format!("{i:04}")))
        .collect();
    keys.push(("abc".into(), "0001".into()));
    let stream = db.batch_get_stream::<Tweet>(keys).consistent();
    assert!(
        fake.calls().is_empty(),
        "nothing is read before the stream is polled"
    );

    let read: Vec<Tweet> = stream.try_collect().await.expect("reads");
    let mut expected = tweets(250);
    expected.reverse();
    assert_eq!(read, expected);
    assert_eq!(fake.sizes(), [100; 5]);
    assert!(fake
        .calls()
        .iter()
        .all(|c| c.get().request_items["tweets"].consistent_read == Some(true)));
}

#[tokio::test(start_paused = true)]
async fn it_reads_ahead_no_more_than_the_concurrency() {
    let (db, fake) = Fake::db();
    store_tweets(&fake, 1000);
    fake.latency(Duration::from_millis(10));
    let keys = tweets(1000).iter().map(Model::key).collect::<Vec<_>>();
    let mut stream = db
        .batch_get_stream::<Tweet>(keys)
        .options(BatchOptions::default().concurrency(2));
    let first = stream.next().await.expect("an item").expect("read");
    assert_eq!(first, tweet(0));
    // The first chunk is done and the next ones are in flight; nothing beyond the bound.
    assert!(fake.sizes().len() <= 3, "{:?}", fake.sizes());
    let rest: Vec<Tweet> = stream.try_collect().await.expect("reads");
    assert_eq!(rest.len(), 999);
    assert_eq!(fake.max_in_flight(), 2);
}

#[tokio::test(start_paused = true)]
async fn retries_run_inside_the_stream_and_exhaustion_ends_it_naming_the_keys() {
    let (db, fake) = Fake::db();
    store_tweets(&fake, 300);
    // Chunk one needs a retry; chunk two never completes its last key.
    fake.script([
        Script::Leave(10),
        Script::Leave(0),
        Script::Leave(1),
        Script::Leave(1),
    ]);
    let keys = tweets(300).iter().map(Model::key).collect::<Vec<_>>();
    let options = BatchOptions::default().max_attempts(2).concurrency(1);
    let read: Vec<Result<Tweet, Error>> = db
        .batch_get_stream::<Tweet>(keys)
        .options(options)
        .collect()
        .await;
    assert_eq!(
        fake.sizes(),
        [100, 10, 100, 1],
        "no chunk after the failed one"
    );
    assert_eq!(read.len(), 100 + 99 + 1);
    assert!(read[..199].iter().all(Result::is_ok));
    let Some(Err(Error::BatchUnprocessed(e))) = read.last() else {
        panic!("ends with the exhaustion error");
    };
    assert_eq!((e.attempts, e.processed, e.actions.len()), (2, 199, 1));
    assert_eq!(e.actions[0].key["id"], AttributeValue::S("0199".into()));
}

#[tokio::test]
async fn a_dynamodb_error_or_a_bad_item_ends_the_stream() {
    let (db, fake) = Fake::db();
    fake.missing_table("tweets");
    let read: Vec<Result<Tweet, Error>> =
        db.batch_get_stream::<Tweet>([("abc", "1")]).collect().await;
    assert_eq!(
        read,
        [Err(Error::resource_not_found(
            "Requested resource not found: tweets"
        ))]
    );

    let (db, fake) = Fake::db();
    let bad: Item = [("id".to_owned(), s("u1"))].into(); // no name
    fake.insert("users", &["id"], bad);
    fake.insert("users", &["id"], user(2).to_item().expect("converts"));
    let read: Vec<Result<User, Error>> = db.batch_get_stream::<User>(["u1", "u2"]).collect().await;
    assert_eq!(read.len(), 1, "ends at the error");
    assert!(matches!(&read[0], Err(Error::ItemDecode(e)) if e.model == "User"));

    let read: Vec<Result<User, Error>> = db.batch_get_stream::<User>([""]).collect().await;
    assert!(matches!(&read[..], [Err(Error::Validation { .. })]));
}
