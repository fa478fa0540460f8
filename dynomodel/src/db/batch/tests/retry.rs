//! Retries of unprocessed keys and writes with paused time: what is resent, the pauses between
//! attempts, exhaustion and its error, errors during retries, and the concurrency bound.

use std::time::Duration;

use super::fake::*;
use crate::backend::WriteRequest;
use crate::db::batch::options::BatchOptions;
use crate::error::Error;
use crate::model::Model;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Base 50 ms, cap 1 s, pauses at their caps (no jitter) so that they can be asserted exactly.
fn exact() -> BatchOptions {
    BatchOptions::default()
        .base_delay(ms(50))
        .max_delay(ms(1000))
        .without_jitter()
}

fn store_tweets(fake: &Fake, n: usize) {
    for t in tweets(n) {
        fake.insert("tweets", &["userid", "id"], t.to_item().expect("converts"));
    }
}

#[tokio::test(start_paused = true)]
async fn unprocessed_keys_are_resent_alone_after_doubling_pauses() {
    let (db, fake) = Fake::db();
    store_tweets(&fake, 100);
    fake.script([Script::Leave(60), Script::Leave(30), Script::Leave(10)]);
    let keys = tweets(100).iter().map(Model::key).collect::<Vec<_>>();
    let mut read = db
        .batch_get()
        .keys::<Tweet>(keys)
        .options(exact())
        .await
        .expect("reads");

    assert_eq!(fake.sizes(), [100, 60, 30, 10]);
    assert_eq!(fake.gaps(), [ms(50), ms(100), ms(200)]);
    // Each retry holds exactly what the previous answer left: its last keys.
    let calls = fake.calls();
    for (call, size) in calls[1..].iter().zip([60, 30, 10]) {
        let sent = &call.get().request_items["tweets"].keys;
        let expected: Vec<_> = tweets(100)[100 - size..]
            .iter()
            .map(|t| crate::model::PrimaryKey::to_key_item(&t.key()).expect("converts"))
            .collect();
        assert_eq!(sent, &expected);
    }
    assert_eq!(
        read.take::<Tweet>(),
        Ok(tweets(100)),
        "every item read, in key order"
    );
}

#[tokio::test(start_paused = true)]
async fn a_retry_keeps_the_table_settings_even_when_the_answer_omits_them() {
    let (db, fake) = Fake::db();
    store_tweets(&fake, 10);
    fake.script([Script::LeaveBare(4)]);
    let keys = tweets(10).iter().map(Model::key).collect::<Vec<_>>();
    let mut read = db
        .batch_get()
        .keys::<Tweet>(keys)
        .consistent::<Tweet>()
        .project(Tweet::text())
        .options(exact())
        .await
        .expect("reads");
    let calls = fake.calls();
    let (first, retry) = (
        &calls[0].get().request_items["tweets"],
        &calls[1].get().request_items["tweets"],
    );
    assert_eq!(retry.keys.len(), 4);
    assert_eq!(retry.consistent_read, Some(true));
    assert_eq!(retry.projection_expression, first.projection_expression);
    assert_eq!(
        retry.expression_attribute_names,
        first.expression_attribute_names
    );
    assert_eq!(read.take_partial::<Tweet>().len(), 10);
}

#[tokio::test(start_paused = true)]
async fn unprocessed_writes_are_resent_with_pauses_capped_at_max_delay() {
    let (db, fake) = Fake::db();
    fake.script([
        Script::Leave(20),
        Script::Leave(15),
        Script::Leave(10),
        Script::Leave(5),
    ]);
    let options = exact().max_delay(ms(150));
    let tweets = tweets(25);
    db.batch_write()
        .put_all(&tweets)
        .options(options)
        .await
        .expect("writes");
    assert_eq!(fake.sizes(), [25, 20, 15, 10, 5]);
    assert_eq!(fake.gaps(), [ms(50), ms(100), ms(150), ms(150)]);
    let puts = |tweets: &[Tweet]| -> Vec<WriteRequest> {
        let item = |t: &Tweet| t.to_item().expect("converts");
        tweets
            .iter()
            .map(|t| WriteRequest::Put { item: item(t) })
            .collect()
    };
    // Each retry resends exactly the writes left, whole.
    assert_eq!(
        fake.calls()[1].write().request_items["tweets"],
        puts(&tweets[5..])
    );
    assert_eq!(
        fake.calls()[4].write().request_items["tweets"],
        puts(&tweets[20..])
    );
    let stored: Vec<WriteRequest> = fake
        .items("tweets")
        .into_iter()
        .map(|item| WriteRequest::Put { item })
        .collect();
    assert_eq!(stored, puts(&tweets), "every write made");
}

#[tokio::test(start_paused = true)]
async fn jittered_pauses_stay_below_their_caps() {
    let (db, fake) = Fake::db();
    fake.always(Script::LeaveAll);
    let options = BatchOptions::default().base_delay(ms(50)).max_attempts(8);
    let err = db
        .batch_write()
        .put(&user(1))
        .options(options)
        .await
        .expect_err("never processed");
    assert_eq!(fake.sizes(), [1; 8]);
    let caps = [50, 100, 200, 400, 800, 1600, 3200].map(ms);
    for (gap, cap) in fake.gaps().into_iter().zip(caps) {
        assert!(gap <= cap, "{gap:?} over {cap:?}");
    }
    let Error::BatchUnprocessed(e) = err else {
        panic!("unprocessed: {err:?}");
    };
    assert_eq!(e.attempts, 8);
}

#[tokio::test(start_paused = true)]
async fn exhausted_writes_are_named_and_the_other_chunks_still_written() {
    let (db, fake) = Fake::db();
    // The first chunk is never processed; the two others are at once.
    fake.script([Script::LeaveAll, Script::LeaveAll, Script::LeaveAll]);
    let options = exact().max_attempts(3).concurrency(1);
    let err = db
        .batch_write()
        .put_all(&tweets(60))
        .options(options)
        .await
        .expect_err("stuck");
    assert_eq!(fake.sizes(), [25, 25, 25, 25, 10]);
    assert_eq!(fake.items("tweets").len(), 35);

    let Error::BatchUnprocessed(e) = &err else {
        panic!("unprocessed: {err:?}");
    };
    assert_eq!(
        (e.operation, e.attempts, e.processed),
        ("BatchWriteItem", 3, 35)
    );
    let left: Vec<&str> = e
        .actions
        .iter()
        .map(|a| a.key["id"].as_s().expect("S"))
        .collect();
    let expected: Vec<String> = (0..25).map(|i| format!("{i:04}")).collect();
    assert_eq!(left, expected, "in the order given");
    assert!(e
        .actions
        .iter()
        .all(|a| (a.kind, a.model, a.table.as_str()) == ("Put", "Tweet", "tweets")));
    assert_eq!(err.code(), "BatchUnprocessed");
    assert!(err.to_string().starts_with(
        r#"BatchWriteItem left 25 of 60 writes unprocessed after 3 attempts: Put Tweet {id: "0000", userid: "abc"} in `tweets`, "#
    ));
    assert!(
        err.to_string()
            .ends_with(r#"Put Tweet {id: "0009", userid: "abc"} in `tweets` and 15 more"#),
        "{err}"
    );
}

#[tokio::test(start_paused = true)]
async fn exhausted_reads_name_their_keys() {
    let (db, fake) = Fake::db();
    store_tweets(&fake, 150);
    fake.script([Script::Leave(2), Script::Leave(2)]);
    let keys = tweets(150).iter().map(Model::key).collect::<Vec<_>>();
    let options = exact().max_attempts(2).concurrency(1);
    let err = db
        .batch_get()
        .keys::<Tweet>(keys)
        .options(options)
        .await
        .expect_err("stuck");
    assert_eq!(fake.sizes(), [100, 2, 50]);
    assert_eq!(
        err.to_string(),
        r#"BatchGetItem left 2 of 150 keys unprocessed after 2 attempts: Get Tweet {id: "0098", userid: "abc"} in `tweets`, Get Tweet {id: "0099", userid: "abc"} in `tweets`"#
    );
}

#[tokio::test(start_paused = true)]
async fn an_error_during_retries_ends_the_call_with_it() {
    let (db, fake) = Fake::db();
    let internal = Error::Service {
        code: "InternalServerError".into(),
        message: "Internal server error".into(),
    };
    fake.script([Script::Leave(5), Script::Fail(internal.clone())]);
    let err = db
        .batch_write()
        .put_all(&tweets(25))
        .options(exact())
        .await
        .expect_err("fails");
    assert_eq!(err, internal);
    assert_eq!(fake.sizes(), [25, 5]);
}

fn throttled() -> Error {
    Error::Throughput {
        code: "ProvisionedThroughputExceededException".into(),
        message: "The level of configured provisioned throughput for the table was exceeded".into(),
    }
}

#[tokio::test(start_paused = true)]
async fn a_request_refused_for_throughput_is_sent_again_whole_with_the_same_backoff() {
    let (db, fake) = Fake::db();
    fake.script([
        Script::Fail(throttled()),
        Script::Leave(5),
        Script::Fail(throttled()),
    ]);
    let start = tokio::time::Instant::now();
    db.batch_write()
        .put_all(&tweets(25))
        .options(exact())
        .await
        .expect("written in the end");
    assert_eq!(fake.sizes(), [25, 25, 5, 5]);
    // The same writes, resent as they were.
    assert_eq!(
        fake.calls()[0].write().request_items,
        fake.calls()[1].write().request_items
    );
    assert_eq!(
        start.elapsed(),
        ms(50 + 100 + 200),
        "the backoff of unprocessed items"
    );

    // Reads too; and when the attempts run out, every key of the chunk is reported.
    let (db, fake) = Fake::db();
    fake.script([Script::Fail(throttled()), Script::Fail(throttled())]);
    let keys = tweets(3).iter().map(Model::key).collect::<Vec<_>>();
    let err = db
        .batch_get()
        .keys::<Tweet>(keys)
        .options(exact().max_attempts(2))
        .await
        .expect_err("still throttled");
    assert_eq!(fake.sizes(), [3, 3]);
    let Error::BatchUnprocessed(left) = err else {
        panic!("{err:?}");
    };
    assert_eq!(
        (left.actions.len(), left.attempts, left.processed),
        (3, 2, 0)
    );
}

#[tokio::test(start_paused = true)]
async fn chunks_in_flight_never_exceed_the_concurrency() {
    let (db, fake) = Fake::db();
    fake.latency(ms(100));
    let start = tokio::time::Instant::now();
    db.batch_write()
        .put_all(&tweets(500))
        .options(BatchOptions::default().concurrency(3))
        .await
        .expect("writes");
    assert_eq!(fake.sizes().len(), 20);
    assert_eq!(fake.max_in_flight(), 3);
    assert_eq!(
        start.elapsed(),
        ms(700),
        "20 chunks, 3 at a time, 100 ms each"
    );

    // The default is 4, for reads as well.
    let (db, fake) = Fake::db();
    fake.latency(ms(100));
    let keys = tweets(1000).iter().map(Model::key).collect::<Vec<_>>();
    db.batch_get().keys::<Tweet>(keys).await.expect("reads");
    assert_eq!(fake.sizes().len(), 10);
    assert_eq!(fake.max_in_flight(), 4);
}

#[tokio::test(start_paused = true)]
async fn the_database_default_applies_unless_a_batch_sets_its_own() {
    let (db, fake) = Fake::db();
    let db = db.with_batch_options(exact().max_attempts(2));
    fake.always(Script::LeaveAll);
    let err = db.batch_write().put(&user(1)).await.expect_err("stuck");
    assert!(matches!(&err, Error::BatchUnprocessed(e) if e.attempts == 2));
    assert_eq!(fake.sizes(), [1, 1]);

    let err = db
        .batch_get()
        .key::<User>("u1")
        .options(exact().max_attempts(4))
        .await
        .expect_err("stuck");
    assert!(matches!(&err, Error::BatchUnprocessed(e) if e.attempts == 4));
    assert_eq!(fake.sizes(), [1, 1, 1, 1, 1, 1]);
}
