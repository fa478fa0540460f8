//! Stream retention on the engine's clock (DynamoDB Local cannot be moved 15 minutes or 24 hours on a
//! test's timescale): an iterator expires after 15 minutes (`ExpiredIteratorException`), records are
//! trimmed after 24 hours (`TrimmedDataAccessException`).

use std::time::Duration;

use chrono::{TimeZone, Utc};
use dynomodel::backend::*;
use dynomodel::*;
use dynomodel_mem::{ManualClock, MemBackend};

use super::*;

async fn setup(clock: &ManualClock) -> (MemBackend, String, String) {
    let engine = MemBackend::builder().clock(clock.clone()).build();
    let out = engine
        .create_table(CreateTableInput {
            table_name: "retention".into(),
            billing_mode: Some(BillingMode::PayPerRequest),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: S,
            }],
            key_schema: vec![KeySchemaElement::hash("pk")],
            stream_specification: Some(StreamSpecification::enabled(StreamViewType::KeysOnly)),
            ..Default::default()
        })
        .await
        .unwrap();
    let arn = out.table_description.latest_stream_arn.unwrap();
    engine
        .put_item(PutItemInput {
            table_name: "retention".into(),
            item: item([("pk", s("a"))]),
            ..Default::default()
        })
        .await
        .unwrap();
    let shard = engine
        .describe_stream(DescribeStreamInput {
            stream_arn: arn.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .stream_description
        .shards
        .remove(0)
        .shard_id;
    (engine, arn, shard)
}

async fn horizon(engine: &MemBackend, arn: &str, shard: &str) -> Result<String> {
    Ok(engine
        .get_shard_iterator(GetShardIteratorInput {
            stream_arn: arn.into(),
            shard_id: shard.into(),
            shard_iterator_type: ShardIteratorType::TrimHorizon,
            sequence_number: None,
        })
        .await?
        .shard_iterator
        .unwrap())
}

async fn read(engine: &MemBackend, it: String) -> Result<GetRecordsOutput> {
    engine
        .get_records(GetRecordsInput {
            shard_iterator: it,
            limit: None,
        })
        .await
}

#[tokio::test]
async fn streams_iterators_expire_after_15_minutes() {
    let clock = ManualClock::new(Utc.with_ymd_and_hms(2025, 1, 1, 0, 0, 0).unwrap());
    let (engine, arn, shard) = setup(&clock).await;
    let it = horizon(&engine, &arn, &shard).await.unwrap();
    clock.advance(Duration::from_secs(15 * 60 + 1));
    let e = read(&engine, it).await.unwrap_err();
    assert_eq!(e.code(), "ExpiredIteratorException");
    assert!(e.message().starts_with("Iterator expired."), "{e:?}");
    // A fresh iterator reads the record.
    let it = horizon(&engine, &arn, &shard).await.unwrap();
    assert_eq!(read(&engine, it).await.unwrap().records.len(), 1);
}

#[tokio::test]
async fn streams_records_are_trimmed_after_24_hours() {
    let clock = ManualClock::new(Utc.with_ymd_and_hms(2025, 1, 1, 0, 0, 0).unwrap());
    let (engine, arn, shard) = setup(&clock).await;
    let it = horizon(&engine, &arn, &shard).await.unwrap();
    let first = read(&engine, it).await.unwrap().records.remove(0);
    clock.advance(Duration::from_secs(24 * 3600 + 1));
    let at = engine
        .get_shard_iterator(GetShardIteratorInput {
            stream_arn: arn.clone(),
            shard_id: shard.clone(),
            shard_iterator_type: ShardIteratorType::AtSequenceNumber,
            sequence_number: Some(first.dynamodb.sequence_number),
        })
        .await;
    let e = at.unwrap_err();
    assert_eq!(
        (e.code(), e.message().as_str()),
        (
            "TrimmedDataAccessException",
            "The data you are trying to access has been trimmed"
        )
    );
    // The horizon has moved past the trimmed record.
    let it = horizon(&engine, &arn, &shard).await.unwrap();
    assert!(read(&engine, it).await.unwrap().records.is_empty());
}
