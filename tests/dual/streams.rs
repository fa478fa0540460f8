//! DynamoDB Streams records: what each view type records for INSERT / MODIFY / REMOVE, that no-op and
//! failed writes record nothing, per-item order across single, batch and transactional writes, and the
//! Time to Live deletion record (engine only: DynamoDB Local deletes nothing on a test's timescale).
//!
//! Expected values come from the DynamoDB Streams API reference (`Record`, `StreamRecord`) and the
//! Developer Guide (`Streams.html`); `SizeBytes` is the item size of the keys plus that of each image the
//! record carries (measured on DynamoDB Local: `{pk: "a", v: 1}` INSERT 9, MODIFY 15, REMOVE 9).

use std::collections::BTreeMap;

use chrono::Utc;
use dynomodel::backend::*;
use dynomodel::*;

use super::*;

/// Creates a table keyed `pk` (S) with a stream of `view`; returns its name and the stream's ARN.
pub(crate) async fn stream_table(t: &Dual, label: &str, view: StreamViewType) -> (String, String) {
    let table_name = t.table_name(label);
    let out = t
        .backend()
        .create_table(CreateTableInput {
            table_name: table_name.clone(),
            billing_mode: Some(BillingMode::PayPerRequest),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: S,
            }],
            key_schema: vec![KeySchemaElement::hash("pk")],
            stream_specification: Some(StreamSpecification::enabled(view)),
            ..Default::default()
        })
        .await
        .unwrap();
    let arn = out.table_description.latest_stream_arn.unwrap();
    (table_name, arn)
}

/// Every record of the stream's shards, each shard read from TRIM_HORIZON until a page comes back empty
/// (an open shard always answers a next iterator) or the shard ends.
pub(crate) async fn read_all(t: &Dual, arn: &str) -> Vec<Record> {
    let shards = describe(t, arn).await.shards;
    let mut records = Vec::new();
    for shard in shards {
        let mut iterator = iterator(
            t,
            arn,
            &shard.shard_id,
            ShardIteratorType::TrimHorizon,
            None,
        )
        .await
        .unwrap();
        loop {
            let page = t
                .backend()
                .get_records(GetRecordsInput {
                    shard_iterator: iterator,
                    limit: None,
                })
                .await
                .unwrap();
            let empty = page.records.is_empty();
            records.extend(page.records);
            match page.next_shard_iterator {
                Some(next) if !empty => iterator = next,
                _ => break,
            }
        }
    }
    records
}

pub(crate) async fn describe(t: &Dual, arn: &str) -> StreamDescription {
    t.backend()
        .describe_stream(DescribeStreamInput {
            stream_arn: arn.into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .stream_description
}

pub(crate) async fn iterator(
    t: &Dual,
    arn: &str,
    shard: &str,
    kind: ShardIteratorType,
    sequence_number: Option<&str>,
) -> Result<String> {
    Ok(t.backend()
        .get_shard_iterator(GetShardIteratorInput {
            stream_arn: arn.into(),
            shard_id: shard.into(),
            shard_iterator_type: kind,
            sequence_number: sequence_number.map(str::to_owned),
        })
        .await?
        .shard_iterator
        .unwrap())
}

pub(crate) async fn put(t: &Dual, table: &str, it: Item) -> Result<PutItemOutput> {
    t.backend()
        .put_item(PutItemInput {
            table_name: table.into(),
            item: it,
            ..Default::default()
        })
        .await
}

async fn update(t: &Dual, table: &str, pk: &str, v: &str) {
    t.backend()
        .update_item(UpdateItemInput {
            table_name: table.into(),
            key: item([("pk", s(pk))]),
            update_expression: Some("SET v = :v".into()),
            expression_attribute_values: Some([(":v".to_owned(), num(v))].into_iter().collect()),
            ..Default::default()
        })
        .await
        .unwrap();
}

async fn delete(t: &Dual, table: &str, pk: &str) {
    t.backend()
        .delete_item(DeleteItemInput {
            table_name: table.into(),
            key: item([("pk", s(pk))]),
            ..Default::default()
        })
        .await
        .unwrap();
}

/// The region part of an ARN (`arn:aws:dynamodb:<region>:…`).
fn region_of(arn: &str) -> &str {
    arn.split(':').nth(3).unwrap()
}

/// The `SizeBytes` DynamoDB reports: the keys' size plus each carried image's.
fn expected_size(r: &StreamRecord) -> i64 {
    let images = [&r.new_image, &r.old_image];
    let size = item_size(&r.keys)
        + images
            .iter()
            .flat_map(|i| i.iter())
            .map(item_size)
            .sum::<usize>();
    size as i64
}

dual_test!(streams_records_of_each_view_type, |t| {
    for view in [
        StreamViewType::KeysOnly,
        StreamViewType::NewImage,
        StreamViewType::OldImage,
        StreamViewType::NewAndOldImages,
    ] {
        let (table, arn) = stream_table(&t, "views", view).await;
        let before = Utc::now().timestamp();
        let v1 = item([("pk", s("a")), ("v", num("1"))]);
        let v2 = item([("pk", s("a")), ("v", num("2")), ("w", s("é"))]);
        put(&t, &table, v1.clone()).await.unwrap();
        put(&t, &table, v2.clone()).await.unwrap();
        delete(&t, &table, "a").await;
        let after = Utc::now().timestamp();
        let records = read_all(&t, &arn).await;
        let names: Vec<_> = records.iter().map(|r| r.event_name).collect();
        assert_eq!(
            names,
            [
                OperationType::Insert,
                OperationType::Modify,
                OperationType::Remove
            ],
            "{view:?}"
        );
        let new = matches!(
            view,
            StreamViewType::NewImage | StreamViewType::NewAndOldImages
        );
        let old = matches!(
            view,
            StreamViewType::OldImage | StreamViewType::NewAndOldImages
        );
        let images = [(None, Some(&v1)), (Some(&v1), Some(&v2)), (Some(&v2), None)];
        let mut previous: Option<u128> = None;
        for (r, (old_image, new_image)) in records.iter().zip(images) {
            assert_eq!(r.event_source, "aws:dynamodb");
            assert_eq!(r.event_version, "1.1");
            assert_eq!(r.aws_region, region_of(&arn));
            assert!(!r.event_id.is_empty());
            assert_eq!(r.user_identity, None);
            let d = &r.dynamodb;
            assert_eq!(d.stream_view_type, view);
            assert_eq!(d.keys, item([("pk", s("a"))]));
            assert_eq!(
                d.new_image.as_ref(),
                new_image.filter(|_| new),
                "{view:?} {r:?}"
            );
            assert_eq!(
                d.old_image.as_ref(),
                old_image.filter(|_| old),
                "{view:?} {r:?}"
            );
            assert_eq!(d.size_bytes, expected_size(d), "{view:?} {r:?}");
            // Epoch seconds, rounded down, within the test's window.
            let at = d.approximate_creation_date_time.unwrap();
            assert_eq!(at.timestamp_subsec_nanos(), 0);
            // KNOWN DIFFERENCE: DynamoDB Local rounds down to the minute, not the second.
            let earliest = match t.target() {
                Target::DynamoDbLocal => before - before.rem_euclid(60),
                Target::Mem | Target::Server => before,
            };
            assert!(
                (earliest..=after).contains(&at.timestamp()),
                "{at} {before} {after}"
            );
            assert!(d.sequence_number.bytes().all(|b| b.is_ascii_digit()));
            let n: u128 = d.sequence_number.parse().unwrap();
            assert!(previous.is_none_or(|p| p < n), "{previous:?} {n}");
            previous = Some(n);
        }
    }
    // The measured figures for a small item on NEW_AND_OLD_IMAGES.
    let (table, arn) = stream_table(&t, "sizes", StreamViewType::NewAndOldImages).await;
    put(&t, &table, item([("pk", s("a")), ("v", num("1"))]))
        .await
        .unwrap();
    update(&t, &table, "a", "2").await;
    delete(&t, &table, "a").await;
    let sizes: Vec<_> = read_all(&t, &arn)
        .await
        .iter()
        .map(|r| r.dynamodb.size_bytes)
        .collect();
    assert_eq!(sizes, [9, 15, 9]);
});

dual_test!(streams_no_record_for_a_no_op_write, |t| {
    let (table, arn) = stream_table(&t, "noop", StreamViewType::NewAndOldImages).await;
    let it = item([("pk", s("a")), ("v", num("1"))]);
    put(&t, &table, it.clone()).await.unwrap();
    // An identical PutItem, an UpdateItem that sets the same value, a DeleteItem of a missing key and a
    // failed conditional write change nothing, so they record nothing.
    put(&t, &table, it.clone()).await.unwrap();
    update(&t, &table, "a", "1").await;
    delete(&t, &table, "missing").await;
    let failed = t
        .backend()
        .put_item(PutItemInput {
            table_name: table.clone(),
            item: item([("pk", s("a")), ("v", num("9"))]),
            condition_expression: Some("attribute_not_exists(pk)".into()),
            ..Default::default()
        })
        .await;
    t.expect_error(
        failed,
        "ConditionalCheckFailedException",
        "The conditional request failed",
    );
    let records = read_all(&t, &arn).await;
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].event_name, OperationType::Insert);
});

dual_test!(streams_order_per_item_across_writes, |t| {
    let (table, arn) = stream_table(&t, "order", StreamViewType::NewImage).await;
    for round in 1..=5 {
        for pk in ["a", "b", "c"] {
            put(
                &t,
                &table,
                item([("pk", s(pk)), ("v", num(&round.to_string()))]),
            )
            .await
            .unwrap();
        }
    }
    // BatchWriteItem: a put and a delete, each one record.
    let mut requests = BTreeMap::new();
    requests.insert(
        table.clone(),
        vec![
            WriteRequest::Put {
                item: item([("pk", s("a")), ("v", num("6"))]),
            },
            WriteRequest::Delete {
                key: item([("pk", s("b"))]),
            },
        ],
    );
    let out = t
        .backend()
        .batch_write_item(BatchWriteItemInput {
            request_items: requests,
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(out.unprocessed_items.is_empty());
    // TransactWriteItems: a put and an update.
    t.backend()
        .transact_write_items(TransactWriteItemsInput {
            transact_items: vec![
                TransactWriteItem::Put(TransactPut {
                    table_name: table.clone(),
                    item: item([("pk", s("b")), ("v", num("7"))]),
                    ..Default::default()
                }),
                TransactWriteItem::Update(TransactUpdate {
                    table_name: table.clone(),
                    key: item([("pk", s("c"))]),
                    update_expression: "SET v = :v".into(),
                    expression_attribute_values: Some(
                        [(":v".to_owned(), num("7"))].into_iter().collect(),
                    ),
                    ..Default::default()
                }),
            ],
            ..Default::default()
        })
        .await
        .unwrap();
    let records = read_all(&t, &arn).await;
    let mut per_item: BTreeMap<String, Vec<(OperationType, Option<AttributeValue>)>> =
        BTreeMap::new();
    for r in &records {
        let pk = r.dynamodb.keys["pk"].as_s().unwrap().to_owned();
        let v = r.dynamodb.new_image.as_ref().map(|i| i["v"].clone());
        per_item.entry(pk).or_default().push((r.event_name, v));
    }
    let modify = |v: &str| (OperationType::Modify, Some(num(v)));
    let insert = |v: &str| (OperationType::Insert, Some(num(v)));
    let history = |last: Vec<(OperationType, Option<AttributeValue>)>| {
        let mut h = vec![
            insert("1"),
            modify("2"),
            modify("3"),
            modify("4"),
            modify("5"),
        ];
        h.extend(last);
        h
    };
    assert_eq!(per_item["a"], history(vec![modify("6")]));
    assert_eq!(
        per_item["b"],
        history(vec![(OperationType::Remove, None), insert("7")])
    );
    assert_eq!(per_item["c"], history(vec![modify("7")]));
    assert_eq!(records.len(), 19);
});

dual_test!(streams_ttl_deletion_is_a_service_record, |t| {
    let (table, arn) = stream_table(&t, "ttl", StreamViewType::OldImage).await;
    t.backend()
        .update_time_to_live(UpdateTimeToLiveInput {
            table_name: table.clone(),
            time_to_live_specification: TimeToLiveSpecification {
                enabled: true,
                attribute_name: "expires".into(),
            },
        })
        .await
        .unwrap();
    // Expired a minute ago (more than five years in the past would be ignored).
    let at = (Utc::now().timestamp() - 60).to_string();
    let expired = item([("pk", s("gone")), ("expires", num(&at))]);
    put(&t, &table, expired.clone()).await.unwrap();
    delete(&t, &table, "missing").await;
    // DynamoDB Local deletes nothing on a test's timescale; the engine deletes when swept.
    let Some(engine) = t.engine() else { return };
    assert_eq!(engine.sweep_expired(), 1);
    let records = read_all(&t, &arn).await;
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].user_identity, None);
    let ttl = &records[1];
    assert_eq!(ttl.event_name, OperationType::Remove);
    assert_eq!(ttl.user_identity, Some(Identity::time_to_live()));
    assert_eq!(ttl.dynamodb.keys, item([("pk", s("gone"))]));
    assert_eq!(ttl.dynamodb.old_image, Some(expired));
});
