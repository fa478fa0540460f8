//! `Db::changes` on a scripted fake of DynamoDB Streams: lineage, polling, expired iterators,
//! resuming, view types, and the errors.

mod fake;

use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use tokio::time::Instant;

use self::fake::{expired, item, user, Fake, User, ARN};
use crate::backend::{OperationType, StreamStatus, StreamViewType};
use crate::db::testing::s;
use crate::db::{Change, ChangeRecord, Changes};
use crate::error::{Error, Result};

const POLL: Duration = Duration::from_millis(10);

/// The next `n` records of a stream.
async fn take(changes: &mut Changes<User>, n: usize) -> Vec<ChangeRecord<User>> {
    let mut out = Vec::new();
    for _ in 0..n {
        match changes.next().await {
            Some(Ok(record)) => out.push(record),
            other => panic!("record {} of {n}: {other:?}", out.len()),
        }
    }
    out
}

/// Everything until the stream ends.
async fn all(changes: Changes<User>) -> Result<Vec<ChangeRecord<User>>> {
    changes.try_collect().await
}

fn sequences(records: &[ChangeRecord<User>]) -> Vec<&str> {
    records.iter().map(|r| r.sequence_number.as_str()).collect()
}

fn insert(fake: &Fake, shard: &str, id: &str, name: &str) -> String {
    fake.change(shard, OperationType::Insert, None, Some(item(id, name)))
}

fn modify(fake: &Fake, shard: &str, id: &str, old: &str, new: &str) -> String {
    fake.change(
        shard,
        OperationType::Modify,
        Some(item(id, old)),
        Some(item(id, new)),
    )
}

#[tokio::test]
async fn a_disabled_stream_is_read_parent_first_then_ends() {
    let (db, fake) = Fake::db(StreamViewType::NewAndOldImages);
    fake.shard("a", None);
    fake.shard("b", Some("a"));
    let first = insert(&fake, "a", "u1", "Ada");
    let second = modify(&fake, "a", "u1", "Ada", "Ada L.");
    fake.close("a");
    let third = fake.change("b", OperationType::Remove, Some(item("u1", "Ada L.")), None);
    fake.close("b");
    fake.status(StreamStatus::Disabled);
    // Children listed first: the reader still waits for the parent.
    fake.reverse_listing();

    let records = all(db.changes::<User>().poll_interval(POLL)).await.unwrap();
    assert_eq!(sequences(&records), [&first, &second, &third]);
    assert_eq!(
        records[0].change,
        Change::Insert {
            key: [("id".to_owned(), s("u1"))].into(),
            new: Some(user("u1", "Ada")),
        }
    );
    assert_eq!(
        records[1].change.old_image(),
        Some(&user("u1", "Ada")),
        "{records:?}"
    );
    assert_eq!(records[1].change.new_image(), Some(&user("u1", "Ada L.")));
    assert_eq!(records[2].change.operation(), OperationType::Remove);
    assert_eq!(
        (records[0].shard_id.as_str(), records[2].shard_id.as_str()),
        ("a", "b")
    );
    assert_eq!(records[0].at.map(|t| t.timestamp()), Some(1_700_000_000));
    assert!(!records[2].by_time_to_live);
    let log = fake.log();
    assert_eq!(log[0], "DescribeTable");
    assert_eq!(log[1], "DescribeStream");
    assert_eq!(log[2], "GetShardIterator a TRIM_HORIZON");
}

#[tokio::test(start_paused = true)]
async fn an_open_shard_is_polled_and_a_new_child_is_followed() {
    let (db, fake) = Fake::db(StreamViewType::NewImage);
    fake.shard("a", None);
    let first = insert(&fake, "a", "u1", "Ada");
    let mut changes = db.changes::<User>().poll_interval(POLL);
    assert_eq!(sequences(&take(&mut changes, 1).await), [&first]);

    // Nothing new: the reader waits a poll interval between empty pages.
    let started = Instant::now();
    let next = tokio::time::timeout(Duration::from_millis(35), changes.next()).await;
    assert!(next.is_err(), "no record yet: {next:?}");
    let reads = fake
        .log()
        .iter()
        .filter(|l| l.starts_with("GetRecords"))
        .count();
    assert!(
        (3..=5).contains(&reads),
        "one read per interval, not a busy loop: {reads}"
    );
    assert!(started.elapsed() >= Duration::from_millis(35));

    // The shard closes with a last record; its child appears and gets the next change.
    let second = modify(&fake, "a", "u1", "Ada", "Ada L.");
    fake.close("a");
    fake.shard("b", Some("a"));
    let third = insert(&fake, "b", "u2", "Bob");
    let records = take(&mut changes, 2).await;
    assert_eq!(sequences(&records), [&second, &third]);
    assert_eq!(
        records[0].change,
        Change::Modify {
            key: [("id".to_owned(), s("u1"))].into(),
            old: None,
            new: Some(user("u1", "Ada L.")),
        },
        "NEW_IMAGE: no old image"
    );
    assert!(fake
        .log()
        .contains(&"GetShardIterator b TRIM_HORIZON".to_owned()));
}

#[tokio::test(start_paused = true)]
async fn an_expired_iterator_is_replaced_after_the_last_record_seen() {
    let (db, fake) = Fake::db(StreamViewType::KeysOnly);
    fake.shard("a", None);
    fake.page(1, 100);
    let first = insert(&fake, "a", "u1", "Ada");
    let second = insert(&fake, "a", "u2", "Bob");
    let mut changes = db.changes::<User>().poll_interval(POLL);
    assert_eq!(sequences(&take(&mut changes, 1).await), [&first]);

    fake.fail("GetRecords", expired());
    let records = take(&mut changes, 1).await;
    assert_eq!(
        sequences(&records),
        [&second],
        "nothing twice, nothing lost"
    );
    let log = fake.log();
    let after = format!("GetShardIterator a AFTER_SEQUENCE_NUMBER {first}");
    assert!(log.contains(&after), "{log:#?}");
}

#[tokio::test(start_paused = true)]
async fn an_iterator_that_keeps_expiring_is_an_error() {
    let (db, fake) = Fake::db(StreamViewType::KeysOnly);
    fake.shard("a", None);
    for _ in 0..4 {
        fake.fail("GetRecords", expired());
    }
    let mut changes = db.changes::<User>().poll_interval(POLL);
    let error = changes.next().await.unwrap().unwrap_err();
    assert_eq!(error.code(), "ExpiredIteratorException");
    assert!(
        changes.next().await.is_none(),
        "an error from the backend ends the stream"
    );
}

#[tokio::test]
async fn resuming_after_a_sequence_number_reads_the_rest_of_its_shard_then_the_children() {
    let (db, fake) = Fake::db(StreamViewType::KeysOnly);
    fake.shard("a", None);
    fake.shard("b", Some("a"));
    let first = insert(&fake, "a", "u1", "Ada");
    let second = insert(&fake, "a", "u2", "Bob");
    fake.close("a");
    let third = insert(&fake, "b", "u3", "Cy");
    fake.close("b");
    fake.status(StreamStatus::Disabled);

    let records = all(db.changes::<User>().after(&first)).await.unwrap();
    assert_eq!(sequences(&records), [&second, &third]);
    let log = fake.log();
    let after = format!("GetShardIterator a AFTER_SEQUENCE_NUMBER {first}");
    assert!(log.contains(&after), "{log:#?}");

    // After the last record of a closed shard: its child only.
    let records = all(db.changes::<User>().after(&second)).await.unwrap();
    assert_eq!(sequences(&records), [&third]);

    // A sequence number no shard holds.
    let error = all(db.changes::<User>().after("99")).await.unwrap_err();
    assert_eq!(
        error,
        Error::SequenceNumberNotFound {
            sequence_number: "99".into(),
            stream_arn: ARN.into()
        }
    );
}

#[tokio::test(start_paused = true)]
async fn latest_reads_only_what_is_written_after_the_first_poll() {
    let (db, fake) = Fake::db(StreamViewType::KeysOnly);
    fake.shard("old", None);
    insert(&fake, "old", "u0", "Old");
    fake.close("old");
    fake.shard("a", Some("old"));
    insert(&fake, "a", "u1", "Ada");
    let mut changes = db.changes::<User>().latest().poll_interval(POLL);
    // The first poll places the iterator; only then is the new change written.
    let next = tokio::time::timeout(Duration::from_millis(5), changes.next()).await;
    assert!(next.is_err());
    let new = insert(&fake, "a", "u2", "Bob");
    assert_eq!(sequences(&take(&mut changes, 1).await), [&new]);
    assert!(fake.log().contains(&"GetShardIterator a LATEST".to_owned()));
}

#[tokio::test]
async fn keys_only_records_carry_the_key_and_no_images() {
    let (db, fake) = Fake::db(StreamViewType::KeysOnly);
    fake.shard("a", None);
    insert(&fake, "a", "u1", "Ada");
    modify(&fake, "a", "u1", "Ada", "Ada L.");
    fake.ttl_remove("a", item("u1", "Ada L."));
    fake.close("a");
    fake.status(StreamStatus::Disabled);

    let records = all(db.changes::<User>()).await.unwrap();
    let key: crate::value::Item = [("id".to_owned(), s("u1"))].into();
    let changes: Vec<_> = records.iter().map(|r| r.change.clone()).collect();
    assert_eq!(
        changes,
        [
            Change::Insert {
                key: key.clone(),
                new: None
            },
            Change::Modify {
                key: key.clone(),
                old: None,
                new: None
            },
            Change::Remove { key, old: None },
        ]
    );
    assert_eq!(
        records
            .iter()
            .map(|r| r.by_time_to_live)
            .collect::<Vec<_>>(),
        [false, false, true]
    );
}

#[tokio::test]
async fn old_image_records_carry_the_item_before() {
    let (db, fake) = Fake::db(StreamViewType::OldImage);
    fake.shard("a", None);
    insert(&fake, "a", "u1", "Ada");
    modify(&fake, "a", "u1", "Ada", "Ada L.");
    fake.close("a");
    fake.status(StreamStatus::Disabled);
    let records = all(db.changes::<User>()).await.unwrap();
    assert_eq!(records[0].change.new_image(), None);
    assert_eq!(records[1].change.old_image(), Some(&user("u1", "Ada")));
    assert_eq!(records[1].change.new_image(), None);
}

#[tokio::test]
async fn a_table_without_a_stream_is_an_error_at_the_first_poll() {
    let (db, fake) = Fake::db(StreamViewType::KeysOnly);
    fake.no_stream();
    let mut changes = db.changes::<User>();
    assert!(
        fake.log().is_empty(),
        "nothing is requested before the first poll"
    );
    let error = changes.next().await.unwrap().unwrap_err();
    assert_eq!(
        error,
        Error::NoStream {
            table: "users".into()
        }
    );
    assert_eq!(error.to_string(), "NoStream: table `users` has no stream");
    assert!(changes.next().await.is_none());
}

#[tokio::test]
async fn a_record_that_does_not_decode_is_an_error_and_reading_goes_on() {
    let (db, fake) = Fake::db(StreamViewType::NewImage);
    fake.shard("a", None);
    let mut bad = item("u1", "Ada");
    bad.remove("name");
    fake.change("a", OperationType::Insert, None, Some(bad));
    let good = insert(&fake, "a", "u2", "Bob");
    fake.close("a");
    fake.status(StreamStatus::Disabled);

    let results: Vec<_> = db.changes::<User>().collect().await;
    assert_eq!(results.len(), 2);
    let Err(Error::ItemDecode(decode)) = &results[0] else {
        panic!("an ItemDecode error: {results:?}");
    };
    assert_eq!((decode.model, decode.table.as_str()), ("User", "users"));
    assert_eq!(decode.key, [("id".to_owned(), s("u1"))].into());
    assert_eq!(
        results[1].as_ref().map(|r| r.sequence_number.clone()),
        Ok(good)
    );
}

#[tokio::test]
async fn a_backend_error_ends_the_stream() {
    let (db, fake) = Fake::db(StreamViewType::KeysOnly);
    fake.shard("a", None);
    fake.fail(
        "DescribeStream",
        Error::resource_not_found("Requested resource not found: Stream not found"),
    );
    let results: Vec<_> = db.changes::<User>().collect().await;
    assert_eq!(
        results,
        [Err(Error::resource_not_found(
            "Requested resource not found: Stream not found"
        ))]
    );
}

#[tokio::test]
async fn a_shard_listing_in_pages_is_read_whole() {
    let (db, fake) = Fake::db(StreamViewType::KeysOnly);
    fake.page(100, 1);
    for (i, id) in ["a", "b", "c"].into_iter().enumerate() {
        fake.shard(id, None);
        insert(&fake, id, &format!("u{i}"), "x");
        fake.close(id);
    }
    fake.status(StreamStatus::Disabled);
    let records = all(db.changes::<User>()).await.unwrap();
    let shards: Vec<_> = records.iter().map(|r| r.shard_id.as_str()).collect();
    assert_eq!(shards, ["a", "b", "c"]);
    assert!(fake.log().contains(&"DescribeStream after b".to_owned()));
}

#[tokio::test]
async fn a_shard_trimmed_away_after_listing_is_skipped() {
    let (db, fake) = Fake::db(StreamViewType::KeysOnly);
    fake.shard("a", None);
    let only = insert(&fake, "a", "u1", "Ada");
    fake.close("a");
    fake.status(StreamStatus::Disabled);
    fake.fail(
        "GetShardIterator",
        Error::resource_not_found("Requested resource not found: Shard does not exist"),
    );
    fake.shard("b", None);
    insert(&fake, "b", "u2", "Bob");
    fake.close("b");
    let records = all(db.changes::<User>()).await.unwrap();
    assert_eq!(sequences(&records).len(), 1);
    assert_ne!(records[0].sequence_number, only, "shard a was gone");
}
