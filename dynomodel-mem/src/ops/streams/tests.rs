//! Streams on a `ManualClock`: recording through every write path, the four view types, shards,
//! retention, iterators, and every error of the Streams API.

use std::time::Duration;

use dynomodel::backend::{
    AttributeDefinition, BatchWriteItemInput, BillingMode, CreateTableInput, DeleteItemInput,
    DeleteTableInput, DescribeStreamInput, DescribeTableInput, GetRecordsInput,
    GetShardIteratorInput, Identity, KeySchemaElement, ListStreamsInput, OperationType,
    PutItemInput, Record, ScalarAttributeType, ShardFilter, ShardIteratorType, StreamSpecification,
    StreamStatus, StreamViewType, TimeToLiveSpecification, TransactDelete, TransactPut,
    TransactWriteItem, TransactWriteItemsInput, UpdateItemInput, UpdateTableInput,
    UpdateTimeToLiveInput, WriteRequest,
};
use dynomodel::{AttributeValue, Item, Number};

use crate::metering::throughput::Throughput;
use crate::ops::streams::api::StreamSource;
use crate::storage::clock::{Clock, EngineClock, ManualClock};
use crate::storage::settings::EngineConfig;
use crate::storage::state::State;

fn engine() -> (State, ManualClock) {
    let clock = ManualClock::default();
    let state = State::new(EngineClock::new(clock.clone()), EngineConfig::default());
    (state, clock)
}

fn create(state: &mut State, name: &str, view: Option<StreamViewType>) -> Option<String> {
    let def = |name: &str, t| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: t,
    };
    let out = state
        .create_table(
            CreateTableInput {
                table_name: name.into(),
                attribute_definitions: vec![
                    def("pk", ScalarAttributeType::S),
                    def("sk", ScalarAttributeType::N),
                ],
                key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
                billing_mode: Some(BillingMode::PayPerRequest),
                stream_specification: view.map(StreamSpecification::enabled),
                ..Default::default()
            },
            &Throughput::default(),
        )
        .expect("create");
    out.table_description.latest_stream_arn
}

fn item(pk: &str, sk: i64, x: &str) -> Item {
    Item::from([
        ("pk".to_owned(), AttributeValue::S(pk.into())),
        ("sk".to_owned(), AttributeValue::N(Number::from(sk))),
        ("x".to_owned(), AttributeValue::S(x.into())),
    ])
}

fn key(pk: &str, sk: i64) -> Item {
    Item::from([
        ("pk".to_owned(), AttributeValue::S(pk.into())),
        ("sk".to_owned(), AttributeValue::N(Number::from(sk))),
    ])
}

fn put(state: &mut State, table: &str, item: Item) {
    state
        .put_item(PutItemInput {
            table_name: table.into(),
            item,
            ..Default::default()
        })
        .expect("put");
}

fn delete(state: &mut State, table: &str, key: Item) {
    state
        .delete_item(&DeleteItemInput {
            table_name: table.into(),
            key,
            ..Default::default()
        })
        .expect("delete");
}

fn shards(state: &mut State, arn: &str) -> Vec<dynomodel::backend::Shard> {
    describe(state, arn).shards
}

fn describe(state: &mut State, arn: &str) -> dynomodel::backend::StreamDescription {
    state
        .describe_stream(&DescribeStreamInput {
            stream_arn: arn.into(),
            ..Default::default()
        })
        .expect("describe")
        .stream_description
}

fn iterator(state: &mut State, arn: &str, shard: &str, kind: ShardIteratorType) -> String {
    iterator_at(state, arn, shard, kind, None).expect("iterator")
}

fn iterator_at(
    state: &mut State,
    arn: &str,
    shard: &str,
    kind: ShardIteratorType,
    sequence: Option<&str>,
) -> dynomodel::Result<String> {
    Ok(state
        .get_shard_iterator(&GetShardIteratorInput {
            stream_arn: arn.into(),
            shard_id: shard.into(),
            shard_iterator_type: kind,
            sequence_number: sequence.map(str::to_owned),
        })?
        .shard_iterator
        .unwrap_or_default())
}

fn read(state: &mut State, it: &str) -> (Vec<Record>, Option<String>) {
    let out = state
        .get_records(&GetRecordsInput {
            shard_iterator: it.into(),
            limit: None,
        })
        .expect("records");
    (out.records, out.next_shard_iterator)
}

/// Every record of the stream, shard after shard, from the trim horizon.
fn all_records(state: &mut State, arn: &str) -> Vec<Record> {
    let mut records = Vec::new();
    for shard in shards(state, arn) {
        let mut it = Some(iterator(
            state,
            arn,
            &shard.shard_id,
            ShardIteratorType::TrimHorizon,
        ));
        while let Some(i) = it {
            let (mut page, next) = read(state, &i);
            if page.is_empty() {
                break;
            }
            records.append(&mut page);
            it = next;
        }
    }
    records
}

fn names(records: &[Record]) -> Vec<OperationType> {
    records.iter().map(|r| r.event_name).collect()
}

fn code_and_message<T>(r: dynomodel::Result<T>) -> (String, String) {
    match r {
        Ok(_) => ("ok".into(), String::new()),
        Err(e) => (e.code().to_owned(), e.message()),
    }
}

#[test]
fn records_each_change_once_with_the_view_types_images() {
    for view in [
        StreamViewType::KeysOnly,
        StreamViewType::NewImage,
        StreamViewType::OldImage,
        StreamViewType::NewAndOldImages,
    ] {
        let (mut state, clock) = engine();
        clock.advance(Duration::from_millis(1500));
        let arn = create(&mut state, "ttt", Some(view)).expect("arn");
        put(&mut state, "ttt", item("p", 1, "hello"));
        // The same item again changes nothing: no record.
        put(&mut state, "ttt", item("p", 1, "hello"));
        put(&mut state, "ttt", item("p", 1, "hello2"));
        delete(&mut state, "ttt", key("p", 1));
        // Deleting a missing item writes nothing.
        delete(&mut state, "ttt", key("p", 1));
        let records = all_records(&mut state, &arn);
        assert_eq!(
            names(&records),
            [
                OperationType::Insert,
                OperationType::Modify,
                OperationType::Remove
            ],
            "{view:?}"
        );
        let (new, old) = match view {
            StreamViewType::KeysOnly => (false, false),
            StreamViewType::NewImage => (true, false),
            StreamViewType::OldImage => (false, true),
            StreamViewType::NewAndOldImages => (true, true),
        };
        let r = &records[1].dynamodb;
        assert_eq!(r.keys, key("p", 1));
        assert_eq!(r.new_image, new.then(|| item("p", 1, "hello2")));
        assert_eq!(r.old_image, old.then(|| item("p", 1, "hello")));
        assert_eq!(r.stream_view_type, view);
        assert!(records[0].dynamodb.old_image.is_none());
        assert!(records[2].dynamodb.new_image.is_none());
        // Whole seconds, rounded down.
        assert_eq!(
            r.approximate_creation_date_time.map(|t| t.timestamp()),
            Some(clock.now().timestamp())
        );
        assert_eq!(
            r.approximate_creation_date_time
                .map(|t| t.timestamp_subsec_millis()),
            Some(0)
        );
        // Keys 7 bytes, each image 13 or 14 (DynamoDB Local's SizeBytes for NEW_AND_OLD_IMAGES: 20, 34, 21).
        let sizes: Vec<i64> = records.iter().map(|r| r.dynamodb.size_bytes).collect();
        let expected = match view {
            StreamViewType::KeysOnly => [7, 7, 7],
            StreamViewType::NewImage => [20, 21, 7],
            StreamViewType::OldImage => [7, 20, 21],
            StreamViewType::NewAndOldImages => [20, 34, 21],
        };
        assert_eq!(sizes, expected, "{view:?}");
        for r in &records {
            assert_eq!(r.event_version, "1.1");
            assert_eq!(r.event_source, "aws:dynamodb");
            assert_eq!(r.aws_region, "ddblocal");
            assert_eq!(r.event_id.len(), 32);
            assert!(r.event_id.bytes().all(|b| b.is_ascii_hexdigit()));
            assert!(r.user_identity.is_none());
            assert_eq!(r.dynamodb.sequence_number.len(), 21);
        }
        let ids: std::collections::BTreeSet<&str> =
            records.iter().map(|r| r.event_id.as_str()).collect();
        assert_eq!(ids.len(), 3);
    }
}

#[test]
fn sequence_numbers_increase_across_the_engine() {
    let (mut state, _clock) = engine();
    let a = create(&mut state, "aaa", Some(StreamViewType::KeysOnly)).expect("a");
    let b = create(&mut state, "bbb", Some(StreamViewType::KeysOnly)).expect("b");
    for i in 0..3 {
        put(&mut state, "aaa", item("p", i, ""));
        put(&mut state, "bbb", item("p", i, ""));
    }
    let mut seen: Vec<(u128, &str)> = Vec::new();
    let ra = all_records(&mut state, &a);
    let rb = all_records(&mut state, &b);
    for (records, table) in [(&ra, "a"), (&rb, "b")] {
        for r in records {
            seen.push((r.dynamodb.sequence_number.parse().unwrap_or(0), table));
        }
    }
    seen.sort();
    let order: Vec<&str> = seen.iter().map(|(_, t)| *t).collect();
    assert_eq!(order, ["a", "b", "a", "b", "a", "b"]);
}

#[test]
fn batches_transactions_and_updates_are_recorded() {
    let (mut state, _clock) = engine();
    let arn = create(&mut state, "ttt", Some(StreamViewType::NewAndOldImages)).expect("arn");
    let put_request = |i: Item| WriteRequest::Put { item: i };
    state
        .batch_write_item(BatchWriteItemInput {
            request_items: [(
                "ttt".to_owned(),
                vec![put_request(item("a", 1, "")), put_request(item("b", 1, ""))],
            )]
            .into(),
            ..Default::default()
        })
        .expect("batch");
    state
        .transact_write_items(&TransactWriteItemsInput {
            transact_items: vec![
                TransactWriteItem::Put(TransactPut {
                    table_name: "ttt".into(),
                    item: item("c", 1, ""),
                    ..Default::default()
                }),
                TransactWriteItem::Delete(TransactDelete {
                    table_name: "ttt".into(),
                    key: key("a", 1),
                    ..Default::default()
                }),
            ],
            ..Default::default()
        })
        .expect("transact");
    let update = |state: &mut State, value: &str| {
        state
            .update_item(&UpdateItemInput {
                table_name: "ttt".into(),
                key: key("b", 1),
                update_expression: Some("SET x = :v".into()),
                expression_attribute_values: Some(
                    [(":v".to_owned(), AttributeValue::S(value.into()))].into(),
                ),
                ..Default::default()
            })
            .expect("update");
    };
    update(&mut state, "v");
    // Setting the same value again is a no-op write: no record.
    update(&mut state, "v");
    let records = all_records(&mut state, &arn);
    use OperationType::{Insert, Modify, Remove};
    assert_eq!(names(&records), [Insert, Insert, Insert, Remove, Modify]);
}

#[test]
fn ttl_deletions_are_service_records() {
    let (mut state, clock) = engine();
    let arn = create(&mut state, "ttt", Some(StreamViewType::OldImage)).expect("arn");
    state
        .update_time_to_live(&UpdateTimeToLiveInput {
            table_name: "ttt".into(),
            time_to_live_specification: TimeToLiveSpecification {
                enabled: true,
                attribute_name: "exp".into(),
            },
        })
        .expect("ttl");
    let mut expiring = item("p", 1, "");
    expiring.insert(
        "exp".into(),
        AttributeValue::N(Number::from(clock.now().timestamp())),
    );
    put(&mut state, "ttt", expiring.clone());
    put(&mut state, "ttt", item("p", 2, ""));
    delete(&mut state, "ttt", key("p", 2));
    assert_eq!(state.sweep_expired(), 1);
    let records = all_records(&mut state, &arn);
    let identities: Vec<Option<Identity>> =
        records.iter().map(|r| r.user_identity.clone()).collect();
    assert_eq!(
        identities,
        [None, None, None, Some(Identity::time_to_live())]
    );
    assert_eq!(records[3].event_name, OperationType::Remove);
    assert_eq!(records[3].dynamodb.old_image, Some(expiring));
}

#[test]
fn no_stream_no_records_and_describe_table_names_the_stream() {
    let (mut state, _clock) = engine();
    assert_eq!(create(&mut state, "plain", None), None);
    put(&mut state, "plain", item("p", 1, ""));
    let listed = state
        .list_streams(&ListStreamsInput::default())
        .expect("list");
    assert!(listed.streams.is_empty());
    let arn = create(&mut state, "ttt", Some(StreamViewType::KeysOnly)).expect("arn");
    let table = state
        .describe_table(&DescribeTableInput {
            table_name: "ttt".into(),
        })
        .expect("describe")
        .table;
    assert_eq!(table.latest_stream_arn.as_deref(), Some(arn.as_str()));
    let d = describe(&mut state, &arn);
    assert_eq!(d.stream_status, StreamStatus::Enabled);
    assert_eq!(d.table_name, "ttt");
    assert_eq!(d.key_schema.len(), 2);
    assert_eq!(
        d.stream_label,
        table.latest_stream_label.unwrap_or_default()
    );
    let shard = &d.shards[0];
    assert!(shard.shard_id.starts_with("shardId-"));
    assert!((28..=65).contains(&shard.shard_id.len()));
    assert!(shard.sequence_number_range.ending_sequence_number.is_none());
}

#[test]
fn disable_reenable_and_delete_table() {
    let (mut state, clock) = engine();
    let first = create(&mut state, "ttt", Some(StreamViewType::KeysOnly)).expect("arn");
    let empty = create(&mut state, "uuu", Some(StreamViewType::KeysOnly)).expect("arn");
    put(&mut state, "ttt", item("p", 1, ""));
    let first_shard = shards(&mut state, &first)[0].shard_id.clone();
    let open = iterator(
        &mut state,
        &first,
        &first_shard,
        ShardIteratorType::TrimHorizon,
    );
    let spec = |s| UpdateTableInput {
        table_name: "ttt".into(),
        stream_specification: Some(s),
        ..Default::default()
    };
    state
        .update_table(
            spec(StreamSpecification::disabled()),
            &Throughput::default(),
        )
        .expect("disable");
    put(&mut state, "ttt", item("p", 2, ""));
    let d = describe(&mut state, &first);
    assert_eq!(d.stream_status, StreamStatus::Disabled);
    let range = &d.shards[0].sequence_number_range;
    assert!(range.ending_sequence_number.is_some());
    // The closed shard reads to its end, then there is no next iterator.
    let (records, next) = read(&mut state, &open);
    assert_eq!(records.len(), 1);
    assert_eq!(next, None);
    assert_eq!(
        Some(records[0].dynamodb.sequence_number.clone()),
        range.ending_sequence_number
    );

    clock.advance(Duration::from_millis(5));
    let out = state
        .update_table(
            spec(StreamSpecification::enabled(StreamViewType::NewImage)),
            &Throughput::default(),
        )
        .expect("enable");
    let second = out.table_description.latest_stream_arn.expect("arn");
    assert_ne!(first, second);
    put(&mut state, "ttt", item("p", 3, ""));
    assert_eq!(all_records(&mut state, &second).len(), 1);
    let listed = state
        .list_streams(&ListStreamsInput {
            table_name: Some("ttt".into()),
            ..Default::default()
        })
        .expect("list");
    let arns: Vec<&str> = listed
        .streams
        .iter()
        .map(|s| s.stream_arn.as_str())
        .collect();
    assert_eq!(arns, [second.as_str(), first.as_str()]);

    // Deleting a table disables its stream; a shard that got no record ends where it starts.
    state
        .delete_table(&DeleteTableInput {
            table_name: "uuu".into(),
        })
        .expect("delete");
    let d = describe(&mut state, &empty);
    assert_eq!(d.stream_status, StreamStatus::Disabled);
    let range = &d.shards[0].sequence_number_range;
    assert_eq!(range.ending_sequence_number, range.starting_sequence_number);
    state
        .delete_table(&DeleteTableInput {
            table_name: "ttt".into(),
        })
        .expect("delete");
    assert_eq!(all_records(&mut state, &second).len(), 1);
    assert_eq!(
        state
            .list_streams(&ListStreamsInput::default())
            .expect("list")
            .streams
            .len(),
        3
    );
    // 24 hours later nothing is left.
    clock.advance(Duration::from_secs(24 * 3600));
    let listed = state
        .list_streams(&ListStreamsInput::default())
        .expect("list");
    assert!(listed.streams.is_empty());
    let (code, message) = code_and_message(state.describe_stream(&DescribeStreamInput {
        stream_arn: second.clone(),
        ..Default::default()
    }));
    assert_eq!(code, "ResourceNotFoundException");
    assert_eq!(
        message,
        format!("Requested resource not found: Stream: {second} not found")
    );
}

#[test]
fn shards_roll_every_four_hours_and_records_age_out_after_a_day() {
    let (mut state, clock) = engine();
    let arn = create(&mut state, "ttt", Some(StreamViewType::KeysOnly)).expect("arn");
    put(&mut state, "ttt", item("p", 1, ""));
    let first = shards(&mut state, &arn)[0].shard_id.clone();
    let old = iterator(&mut state, &arn, &first, ShardIteratorType::TrimHorizon);
    let first_sequence = read(&mut state, &old).0[0].dynamodb.sequence_number.clone();
    clock.advance(Duration::from_secs(4 * 3600));
    put(&mut state, "ttt", item("p", 2, ""));
    let listed = shards(&mut state, &arn);
    assert_eq!(listed.len(), 2);
    assert!(listed[0]
        .sequence_number_range
        .ending_sequence_number
        .is_some());
    assert_eq!(listed[1].parent_shard_id.as_deref(), Some(first.as_str()));
    let children = state
        .describe_stream(&DescribeStreamInput {
            stream_arn: arn.clone(),
            shard_filter: Some(ShardFilter {
                shard_id: first.clone(),
            }),
            ..Default::default()
        })
        .expect("children")
        .stream_description
        .shards;
    assert_eq!(children, listed[1..]);
    // Paging through the shards.
    let page = state
        .describe_stream(&DescribeStreamInput {
            stream_arn: arn.clone(),
            limit: Some(1),
            ..Default::default()
        })
        .expect("page")
        .stream_description;
    assert_eq!(page.shards, listed[..1]);
    assert_eq!(
        page.last_evaluated_shard_id.as_deref(),
        Some(first.as_str())
    );
    let rest = state
        .describe_stream(&DescribeStreamInput {
            stream_arn: arn.clone(),
            exclusive_start_shard_id: Some(first.clone()),
            ..Default::default()
        })
        .expect("rest")
        .stream_description;
    assert_eq!(rest.shards, listed[1..]);
    assert_eq!(rest.last_evaluated_shard_id, None);
    assert_eq!(all_records(&mut state, &arn).len(), 2);

    // 28 hours after the first write: the first shard (closed at 4 h, its one record trimmed) is
    // gone; the second's record (written at 4 h) is trimmed, but the shard stays while it is open or
    // closed less than 24 hours ago.
    let second_sequence = all_records(&mut state, &arn)[1]
        .dynamodb
        .sequence_number
        .clone();
    clock.advance(Duration::from_secs(24 * 3600 + 1));
    let now_listed = shards(&mut state, &arn);
    assert_eq!(now_listed[0].shard_id, listed[1].shard_id);
    // Opened at 0, 4, …, 28 h: eight, less the first.
    assert_eq!(now_listed.len(), 7);
    let (code, _) = code_and_message(iterator_at(
        &mut state,
        &arn,
        &first,
        ShardIteratorType::AtSequenceNumber,
        Some(&first_sequence),
    ));
    assert_eq!(code, "ResourceNotFoundException");
    let (code, _) = code_and_message(iterator_at(
        &mut state,
        &arn,
        &listed[1].shard_id,
        ShardIteratorType::AtSequenceNumber,
        Some(&second_sequence),
    ));
    assert_eq!(code, "TrimmedDataAccessException");
}

#[test]
fn trimmed_positions_are_refused() {
    let (mut state, clock) = engine();
    let arn = create(&mut state, "ttt", Some(StreamViewType::KeysOnly)).expect("arn");
    put(&mut state, "ttt", item("p", 1, ""));
    let shard = shards(&mut state, &arn)[0].shard_id.clone();
    let horizon = iterator(&mut state, &arn, &shard, ShardIteratorType::TrimHorizon);
    let first = read(&mut state, &horizon).0[0]
        .dynamodb
        .sequence_number
        .clone();
    let at_first = iterator_at(
        &mut state,
        &arn,
        &shard,
        ShardIteratorType::AtSequenceNumber,
        Some(&first),
    )
    .expect("at");
    // 3h59: still open; the record is kept until 24 h.
    clock.advance(Duration::from_secs(3 * 3600 + 59 * 60));
    put(&mut state, "ttt", item("p", 2, ""));
    clock.advance(Duration::from_secs(20 * 3600 + 2 * 60));
    let trimmed = (
        "TrimmedDataAccessException".to_owned(),
        "The data you are trying to access has been trimmed".to_owned(),
    );
    assert_eq!(
        code_and_message(iterator_at(
            &mut state,
            &arn,
            &shard,
            ShardIteratorType::AtSequenceNumber,
            Some(&first),
        )),
        trimmed
    );
    // An iterator issued long ago has expired first.
    assert_eq!(
        code_and_message(state.get_records(&GetRecordsInput {
            shard_iterator: at_first,
            limit: None
        }))
        .0,
        "ExpiredIteratorException"
    );
    // The horizon skips what was trimmed.
    let horizon = iterator(&mut state, &arn, &shard, ShardIteratorType::TrimHorizon);
    assert_eq!(read(&mut state, &horizon).0.len(), 1);
    // An iterator at the first record, issued before it was trimmed, used within 15 minutes after.
    clock.advance(Duration::from_secs(3 * 3600 + 50 * 60));
    let horizon = iterator(&mut state, &arn, &shard, ShardIteratorType::TrimHorizon);
    let (records, _) = read(&mut state, &horizon);
    assert_eq!(records.len(), 1);
    let second = records[0].dynamodb.sequence_number.clone();
    let at_second = iterator_at(
        &mut state,
        &arn,
        &shard,
        ShardIteratorType::AtSequenceNumber,
        Some(&second),
    )
    .expect("at");
    clock.advance(Duration::from_secs(11 * 60));
    assert_eq!(
        code_and_message(state.get_records(&GetRecordsInput {
            shard_iterator: at_second,
            limit: None
        })),
        trimmed
    );
}

#[test]
fn iterators_expire_after_fifteen_minutes() {
    let (mut state, clock) = engine();
    let arn = create(&mut state, "ttt", Some(StreamViewType::KeysOnly)).expect("arn");
    let shard = shards(&mut state, &arn)[0].shard_id.clone();
    let latest = iterator(&mut state, &arn, &shard, ShardIteratorType::Latest);
    clock.advance(Duration::from_secs(15 * 60));
    // Exactly 15 minutes: still valid; an open shard always gives a next iterator.
    let (records, next) = read(&mut state, &latest);
    assert!(records.is_empty());
    let next = next.expect("next");
    put(&mut state, "ttt", item("p", 1, ""));
    assert_eq!(read(&mut state, &next).0.len(), 1);
    clock.advance(Duration::from_secs(15 * 60 + 1));
    let (code, message) = code_and_message(state.get_records(&GetRecordsInput {
        shard_iterator: next,
        limit: None,
    }));
    assert_eq!(code, "ExpiredIteratorException");
    assert_eq!(
        message,
        "Iterator expired. The iterator was created at time Wed Jan 01 00:15:00 UTC 2025 while \
         right now it is Wed Jan 01 00:30:01 UTC 2025 which is further in the future than the \
         tolerated delay of 900000 milliseconds."
    );
}

#[test]
fn positions_by_sequence_number_and_paging_records() {
    let (mut state, _clock) = engine();
    let arn = create(&mut state, "ttt", Some(StreamViewType::KeysOnly)).expect("arn");
    for i in 0..5 {
        put(&mut state, "ttt", item("p", i, ""));
    }
    let shard = shards(&mut state, &arn)[0].shard_id.clone();
    let horizon = iterator(&mut state, &arn, &shard, ShardIteratorType::TrimHorizon);
    let page = state
        .get_records(&GetRecordsInput {
            shard_iterator: horizon,
            limit: Some(2),
        })
        .expect("page");
    assert_eq!(page.records.len(), 2);
    let (rest, _) = read(&mut state, &page.next_shard_iterator.expect("next"));
    assert_eq!(rest.len(), 3);
    let third = rest[0].dynamodb.sequence_number.clone();
    let at = iterator_at(
        &mut state,
        &arn,
        &shard,
        ShardIteratorType::AtSequenceNumber,
        Some(&third),
    )
    .expect("at");
    assert_eq!(read(&mut state, &at).0.len(), 3);
    let after = iterator_at(
        &mut state,
        &arn,
        &shard,
        ShardIteratorType::AfterSequenceNumber,
        Some(&third),
    )
    .expect("after");
    assert_eq!(read(&mut state, &after).0.len(), 2);
    let latest = iterator(&mut state, &arn, &shard, ShardIteratorType::Latest);
    assert!(read(&mut state, &latest).0.is_empty());
}

#[test]
fn list_streams_pages_newest_first() {
    let (mut state, clock) = engine();
    let mut arns = Vec::new();
    for name in ["aaa", "bbb", "ccc"] {
        arns.push(create(&mut state, name, Some(StreamViewType::KeysOnly)).expect("arn"));
        clock.advance(Duration::from_millis(1));
    }
    arns.reverse();
    let mut seen = Vec::new();
    let mut start = None;
    loop {
        let page = state
            .list_streams(&ListStreamsInput {
                limit: Some(2),
                exclusive_start_stream_arn: start,
                ..Default::default()
            })
            .expect("page");
        seen.extend(page.streams.into_iter().map(|s| s.stream_arn));
        start = page.last_evaluated_stream_arn;
        if start.is_none() {
            break;
        }
    }
    assert_eq!(seen, arns);
}

#[test]
fn errors() {
    let (mut state, _clock) = engine();
    let arn = create(&mut state, "ttt", Some(StreamViewType::KeysOnly)).expect("arn");
    let shard = shards(&mut state, &arn)[0].shard_id.clone();
    let ve = |m: &str| ("ValidationException".to_owned(), m.to_owned());
    let limit = |v: i32| {
        ve(&format!(
            "1 validation error detected: Value '{v}' at 'limit' failed to satisfy constraint: \
             Member must have value greater than or equal to 1"
        ))
    };
    let list = |state: &mut State, limit| {
        code_and_message(state.list_streams(&ListStreamsInput {
            limit: Some(limit),
            ..Default::default()
        }))
    };
    assert_eq!(list(&mut state, 0), limit(0));
    assert_eq!(
        list(&mut state, 101),
        ve("One or more parameter values were invalid: Limit cannot be greater than the maximum allowed size: 100")
    );
    let describe_limit = |state: &mut State, limit| {
        code_and_message(state.describe_stream(&DescribeStreamInput {
            stream_arn: arn.clone(),
            limit: Some(limit),
            ..Default::default()
        }))
    };
    assert_eq!(describe_limit(&mut state, 0), limit(0));
    assert_eq!(
        describe_limit(&mut state, 101),
        ve("One or more parameter values were invalid: Limit cannot be greater than the maximum: 100")
    );
    let short = code_and_message(state.describe_stream(&DescribeStreamInput {
        stream_arn: "arn:aws:x".into(),
        ..Default::default()
    }));
    assert_eq!(
        short,
        ve("1 validation error detected: Value 'arn:aws:x' at 'streamArn' failed to satisfy constraint: Member must have length greater than or equal to 37")
    );
    let missing = format!("{arn}x");
    assert_eq!(
        code_and_message(iterator_at(
            &mut state,
            &missing,
            &shard,
            ShardIteratorType::TrimHorizon,
            None
        )),
        (
            "ResourceNotFoundException".to_owned(),
            format!("Requested resource not found: Stream: {missing} not found")
        )
    );
    assert_eq!(
        code_and_message(iterator_at(
            &mut state,
            &arn,
            "shardId-00000000000000000000-00000000",
            ShardIteratorType::TrimHorizon,
            None
        )),
        (
            "ResourceNotFoundException".to_owned(),
            "Requested resource not found: Shard does not exist".to_owned()
        )
    );
    let mut it = |kind, seq: Option<&str>| {
        code_and_message(iterator_at(&mut state, &arn, &shard, kind, seq))
    };
    assert_eq!(
        it(ShardIteratorType::AtSequenceNumber, None),
        ve("One or more parameter values were invalid: Invalid SequenceNumber")
    );
    assert_eq!(
        it(ShardIteratorType::TrimHorizon, Some("000000000000000000001")),
        ve("One or more parameter values were invalid: SequenceNumber should not be passed for this iterator type")
    );
    assert_eq!(
        it(
            ShardIteratorType::AtSequenceNumber,
            Some("000000000000000000000")
        ),
        ve("Invalid SequenceNumber for the shard")
    );
    assert_eq!(
        it(
            ShardIteratorType::AfterSequenceNumber,
            Some(&"9".repeat(30))
        ),
        ve("Invalid SequenceNumber for the shard")
    );
    let records = |state: &mut State, it: &str, limit| {
        code_and_message(state.get_records(&GetRecordsInput {
            shard_iterator: it.into(),
            limit,
        }))
    };
    assert_eq!(
        records(&mut state, "garbage", None),
        ve("Invalid ShardIterator")
    );
    let good = iterator(&mut state, &arn, &shard, ShardIteratorType::TrimHorizon);
    assert_eq!(records(&mut state, &good, Some(0)), limit(0));
    assert_eq!(
        records(&mut state, &good, Some(1001)),
        ve("One or more parameter values were invalid: Limit should be less than or equal to 1000")
    );
    assert_eq!(records(&mut state, &good, Some(1000)).0, "ok");
}
