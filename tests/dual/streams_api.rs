//! The DynamoDB Streams API: ListStreams, DescribeStream, GetShardIterator of each type, GetRecords
//! paging, their errors, the stream settings on CreateTable/DescribeTable, and disabling/re-enabling.

use chrono::Utc;
use dynomodel::backend::*;
use dynomodel::*;

use super::streams::{describe, iterator, put, read_all, stream_table};
use super::*;

async fn records(t: &Dual, it: &str, limit: Option<i32>) -> Result<GetRecordsOutput> {
    t.backend()
        .get_records(GetRecordsInput {
            shard_iterator: it.into(),
            limit,
        })
        .await
}

fn sequences(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .map(|r| r.dynamodb.sequence_number.clone())
        .collect()
}

async fn describe_table(t: &Dual, table: &str) -> TableDescription {
    t.backend()
        .describe_table(DescribeTableInput {
            table_name: table.into(),
        })
        .await
        .unwrap()
        .table
}

async fn set_stream(t: &Dual, table: &str, spec: StreamSpecification) -> TableDescription {
    t.backend()
        .update_table(UpdateTableInput {
            table_name: table.into(),
            stream_specification: Some(spec),
            ..Default::default()
        })
        .await
        .unwrap()
        .table_description
}

dual_test!(streams_settings_on_create_and_describe_table, |t| {
    let plain = t.create_table("nostream", ("pk", S), None).await;
    let d = describe_table(&t, &plain).await;
    assert_eq!(
        (
            d.stream_specification,
            d.latest_stream_arn,
            d.latest_stream_label
        ),
        (None, None, None)
    );
    let (table, arn) = stream_table(&t, "spec", StreamViewType::NewImage).await;
    let d = describe_table(&t, &table).await;
    assert_eq!(
        d.stream_specification,
        Some(StreamSpecification::enabled(StreamViewType::NewImage))
    );
    assert_eq!(d.latest_stream_arn.as_deref(), Some(arn.as_str()));
    let label = d.latest_stream_label.unwrap();
    // `<table ARN>/stream/<label>`, the label a millisecond timestamp such as 2026-11-25T18:55:00.696.
    assert_eq!(arn, format!("{}/stream/{label}", d.table_arn));
    assert_eq!(label.len(), 23, "{label}");
    assert_eq!((&label[10..11], &label[19..20]), ("T", "."));
});

dual_test!(streams_list_and_describe, |t| {
    let before = Utc::now().timestamp();
    let (table, arn) = stream_table(&t, "list", StreamViewType::KeysOnly).await;
    let (_, other) = stream_table(&t, "list", StreamViewType::KeysOnly).await;
    // All streams of the account (DynamoDB Local is shared with other tests): ours among them.
    let mut all = Vec::new();
    let mut start = None;
    loop {
        let page = t
            .backend()
            .list_streams(ListStreamsInput {
                exclusive_start_stream_arn: start,
                ..Default::default()
            })
            .await
            .unwrap();
        all.extend(page.streams);
        match page.last_evaluated_stream_arn {
            Some(last) => start = Some(last),
            None => break,
        }
    }
    assert!(all.iter().any(|s| s.stream_arn == arn));
    assert!(all.iter().any(|s| s.stream_arn == other));
    // By table: exactly its stream.
    let listed = t
        .backend()
        .list_streams(ListStreamsInput {
            table_name: Some(table.clone()),
            ..Default::default()
        })
        .await
        .unwrap();
    let label = arn.rsplit('/').next().unwrap().to_owned();
    assert_eq!(
        listed.streams,
        [StreamSummary {
            stream_arn: arn.clone(),
            table_name: table.clone(),
            stream_label: label.clone(),
        }]
    );
    assert_eq!(listed.last_evaluated_stream_arn, None);

    let d = describe(&t, &arn).await;
    assert_eq!(d.stream_arn, arn);
    assert_eq!(d.stream_label, label);
    assert_eq!(d.stream_status, StreamStatus::Enabled);
    assert_eq!(d.stream_view_type, StreamViewType::KeysOnly);
    assert_eq!(d.table_name, table);
    assert_eq!(d.key_schema, [KeySchemaElement::hash("pk")]);
    let created = d.creation_request_date_time.timestamp();
    assert!(
        (before..=Utc::now().timestamp()).contains(&created),
        "{created}"
    );
    assert_eq!(d.last_evaluated_shard_id, None);
    assert!(!d.shards.is_empty());
    let open = d.shards.last().unwrap();
    assert!(open.shard_id.starts_with("shardId-"), "{open:?}");
    assert_eq!(open.sequence_number_range.ending_sequence_number, None);
    let first = open
        .sequence_number_range
        .starting_sequence_number
        .clone()
        .unwrap();
    assert!(first.bytes().all(|b| b.is_ascii_digit()), "{first}");
});

dual_test!(streams_iterator_types_and_paging, |t| {
    let (table, arn) = stream_table(&t, "iter", StreamViewType::KeysOnly).await;
    put(&t, &table, item([("pk", s("a"))])).await.unwrap();
    let shard = describe(&t, &arn).await.shards.pop().unwrap().shard_id;
    let latest = iterator(&t, &arn, &shard, ShardIteratorType::Latest, None)
        .await
        .unwrap();
    for pk in ["b", "c"] {
        put(&t, &table, item([("pk", s(pk))])).await.unwrap();
    }
    let all = read_all(&t, &arn).await;
    let seq = sequences(&all);
    assert_eq!(seq.len(), 3);
    // LATEST sees only what was written after it was issued.
    let page = records(&t, &latest, None).await.unwrap();
    assert_eq!(sequences(&page.records), &seq[1..]);
    assert!(page.next_shard_iterator.is_some());
    // AT_ / AFTER_SEQUENCE_NUMBER.
    let at = iterator(
        &t,
        &arn,
        &shard,
        ShardIteratorType::AtSequenceNumber,
        Some(&seq[1]),
    )
    .await
    .unwrap();
    assert_eq!(
        sequences(&records(&t, &at, None).await.unwrap().records),
        &seq[1..]
    );
    let after = iterator(
        &t,
        &arn,
        &shard,
        ShardIteratorType::AfterSequenceNumber,
        Some(&seq[1]),
    )
    .await
    .unwrap();
    assert_eq!(
        sequences(&records(&t, &after, None).await.unwrap().records),
        &seq[2..]
    );
    // Limit and paging: one record per page, each page's iterator continues where it stopped.
    let mut it = iterator(&t, &arn, &shard, ShardIteratorType::TrimHorizon, None)
        .await
        .unwrap();
    let mut paged = Vec::new();
    for _ in 0..3 {
        let page = records(&t, &it, Some(1)).await.unwrap();
        assert_eq!(page.records.len(), 1);
        paged.extend(sequences(&page.records));
        it = page.next_shard_iterator.unwrap();
    }
    assert_eq!(paged, seq);
    let end = records(&t, &it, Some(1)).await.unwrap();
    assert!(end.records.is_empty());
    assert!(
        end.next_shard_iterator.is_some(),
        "an open shard always continues"
    );
});

dual_test!(streams_api_errors, |t| {
    let (first_table, first_arn) = stream_table(&t, "err", StreamViewType::KeysOnly).await;
    put(&t, &first_table, item([("pk", s("a"))])).await.unwrap();
    let other_shard_seq = sequences(&read_all(&t, &first_arn).await).remove(0);
    let (table, arn) = stream_table(&t, "err", StreamViewType::KeysOnly).await;
    put(&t, &table, item([("pk", s("a"))])).await.unwrap();
    let shard = describe(&t, &arn).await.shards.pop().unwrap().shard_id;

    let missing = format!("{arn}x");
    let described = t
        .backend()
        .describe_stream(DescribeStreamInput {
            stream_arn: missing.clone(),
            ..Default::default()
        })
        .await;
    let not_found = format!("Requested resource not found: Stream: {missing} not found");
    let e = t.expect_error(described, "ResourceNotFoundException", &not_found);
    assert!(matches!(e, Error::ResourceNotFound { .. }));
    // KNOWN DIFFERENCE: DynamoDB Local's GetShardIterator words a missing stream "Stream does not exist".
    t.expect_error_differs(
        iterator(&t, &missing, &shard, ShardIteratorType::TrimHorizon, None).await,
        "ResourceNotFoundException",
        &not_found,
        "Stream does not exist",
    );
    // KNOWN DIFFERENCE: DynamoDB Local omits the "Requested resource not found: " prefix.
    t.expect_error_differs(
        iterator(
            &t,
            &arn,
            "shardId-00000001700000000000-deadbeef",
            ShardIteratorType::TrimHorizon,
            None,
        )
        .await,
        "ResourceNotFoundException",
        "Requested resource not found: Shard does not exist",
        "Shard does not exist",
    );
    t.expect_error(
        iterator(&t, &arn, &shard, ShardIteratorType::AtSequenceNumber, None).await,
        "ValidationException",
        "One or more parameter values were invalid: Invalid SequenceNumber",
    );
    // A sequence number of another (earlier) shard.
    t.expect_error(
        iterator(
            &t,
            &arn,
            &shard,
            ShardIteratorType::AtSequenceNumber,
            Some(&other_shard_seq),
        )
        .await,
        "ValidationException",
        "Invalid SequenceNumber for the shard",
    );
    let too_large = iterator(
        &t,
        &arn,
        &shard,
        ShardIteratorType::AfterSequenceNumber,
        Some(&"9".repeat(30)),
    )
    .await;
    match t.target() {
        // KNOWN DIFFERENCE: DynamoDB Local fails internally on a sequence number beyond its range.
        Target::DynamoDbLocal => assert_eq!(too_large.unwrap_err().code(), "InternalFailure"),
        Target::Mem | Target::Server => {
            t.expect_error(
                too_large,
                "ValidationException",
                "Invalid SequenceNumber for the shard",
            );
        }
    }
    t.expect_error(
        records(&t, "not-an-iterator", None).await,
        "ValidationException",
        "Invalid ShardIterator",
    );
});

dual_test!(streams_disable_closes_and_enable_makes_a_new_stream, |t| {
    let (table, arn) = stream_table(&t, "toggle", StreamViewType::NewImage).await;
    for pk in ["a", "b"] {
        put(&t, &table, item([("pk", s(pk))])).await.unwrap();
    }
    let written = sequences(&read_all(&t, &arn).await);
    set_stream(&t, &table, StreamSpecification::disabled()).await;
    let d = describe(&t, &arn).await;
    assert_eq!(d.stream_status, StreamStatus::Disabled);
    let last = d.shards.last().unwrap();
    assert_eq!(
        last.sequence_number_range.ending_sequence_number.as_deref(),
        written.last().map(String::as_str)
    );
    // Still readable; the closed shard ends (no next iterator once read to its end).
    let it = iterator(
        &t,
        &arn,
        &last.shard_id,
        ShardIteratorType::TrimHorizon,
        None,
    )
    .await
    .unwrap();
    let page = records(&t, &it, None).await.unwrap();
    assert_eq!(sequences(&page.records), written);
    assert_eq!(page.next_shard_iterator, None);
    // The table still names its latest stream.
    assert_eq!(
        describe_table(&t, &table)
            .await
            .latest_stream_arn
            .as_deref(),
        Some(arn.as_str())
    );
    // Writes while disabled are not recorded anywhere.
    put(&t, &table, item([("pk", s("c"))])).await.unwrap();
    assert_eq!(sequences(&read_all(&t, &arn).await), written);

    // The label has millisecond resolution: make sure the new one differs.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let enabled = set_stream(
        &t,
        &table,
        StreamSpecification::enabled(StreamViewType::KeysOnly),
    )
    .await;
    let new_arn = enabled.latest_stream_arn.unwrap();
    assert_ne!(new_arn, arn);
    assert_ne!(
        enabled.latest_stream_label.as_deref(),
        Some(arn.rsplit('/').next().unwrap())
    );
    assert_eq!(
        describe(&t, &new_arn).await.stream_status,
        StreamStatus::Enabled
    );
    // Both streams are listed for the table; Limit 1 pages through them.
    let mut seen = Vec::new();
    let mut start = None;
    for _ in 0..3 {
        let page = t
            .backend()
            .list_streams(ListStreamsInput {
                table_name: Some(table.clone()),
                limit: Some(1),
                exclusive_start_stream_arn: start,
            })
            .await
            .unwrap();
        assert!(page.streams.len() <= 1);
        seen.extend(page.streams.into_iter().map(|s| s.stream_arn));
        start = page.last_evaluated_stream_arn;
        if start.is_none() {
            break;
        }
    }
    seen.sort();
    let mut expected = vec![arn.clone(), new_arn.clone()];
    expected.sort();
    assert_eq!(seen, expected);
    put(&t, &table, item([("pk", s("d"))])).await.unwrap();
    let fresh = read_all(&t, &new_arn).await;
    assert_eq!(fresh.len(), 1);
    assert_eq!(fresh[0].dynamodb.keys, item([("pk", s("d"))]));
});
