//! The DynamoDB Streams API on the wire: `X-Amz-Target: DynamoDBStreams_20120810.<Op>` on the same
//! port as DynamoDB's own target, as DynamoDB Local serves it (so an SDK's streams client and its
//! DynamoDB client can share one endpoint).
//!
//! The members' constraints are botocore's `dynamodbstreams` model, checked before decoding by
//! `model`: `StreamArn` 37–1024 characters, `ShardId` 28–65, `SequenceNumber` 21–40, `ShardIterator`
//! 1–2048, every `Limit` at least 1, the `ShardIteratorType` and `ShardFilter.Type` enums (the model
//! has no `AT_TIMESTAMP`, so it gets the enum constraint error), and the required members. Errors have DynamoDB's JSON shape and namespaces
//! (DynamoDB Local 3.3 answers a streams request with `com.amazon.coral.validate#ValidationException`
//! and `com.amazonaws.dynamodb.v20120810#ResourceNotFoundException`, probed). Dates are epoch seconds.

use dynomodel::backend::{
    Backend, DescribeStreamInput, GetRecordsInput, GetRecordsOutput, GetShardIteratorInput,
    ListStreamsInput, Record, ShardFilter, ShardIteratorType,
};
use serde_json::{json, Map, Value};

use super::description::epoch_seconds;
use super::json::{self, Array, Object};
use super::value::{item_to_json, write_item};
use super::{encode, Decoder, Members, WireResult};

/// The `X-Amz-Target` prefix of the DynamoDB Streams API.
pub(crate) const STREAMS_TARGET_PREFIX: &str = "DynamoDBStreams_20120810.";

/// The streams operations, by their full target.
pub(crate) const STREAM_OPERATIONS: &[&str] = &[
    "DynamoDBStreams_20120810.ListStreams",
    "DynamoDBStreams_20120810.DescribeStream",
    "DynamoDBStreams_20120810.GetShardIterator",
    "DynamoDBStreams_20120810.GetRecords",
];

const ITERATOR_TYPES: &[(&str, ShardIteratorType)] = &[
    ("TRIM_HORIZON", ShardIteratorType::TrimHorizon),
    ("LATEST", ShardIteratorType::Latest),
    ("AT_SEQUENCE_NUMBER", ShardIteratorType::AtSequenceNumber),
    (
        "AFTER_SEQUENCE_NUMBER",
        ShardIteratorType::AfterSequenceNumber,
    ),
];

/// Runs one streams operation (`operation` without the prefix), answering in `region` when one is
/// given (see `region.rs`).
pub(super) async fn call(
    backend: &dyn Backend,
    operation: &str,
    request: &Map<String, Value>,
    region: Option<&str>,
) -> WireResult<Vec<u8>> {
    let mut value = match operation {
        "ListStreams" => list_streams(backend, request).await?,
        "DescribeStream" => describe_stream(backend, request).await?,
        "GetShardIterator" => get_shard_iterator(backend, request).await?,
        "GetRecords" => return get_records(backend, request, region).await,
        _ => return Err(super::Fault::UnknownOperation),
    };
    if let Some(region) = region {
        super::region::present(&mut value, region);
    }
    Ok(encode(&value))
}

/// A required string member. Its length, and every other constraint of the streams model, was checked
/// before decoding (see `model`).
fn required(m: &Members<'_>, name: &str, d: &mut Decoder) -> WireResult<String> {
    if m.get(name).is_none() {
        d.null(&m.path_of(name));
    }
    Ok(m.string(name)?.unwrap_or_default())
}

async fn list_streams(backend: &dyn Backend, request: &Map<String, Value>) -> WireResult<Value> {
    let m = Members::new(request);
    let d = Decoder::default();
    let table_name = m.string("TableName")?;
    let limit = m.integer("Limit")?;
    let exclusive_start_stream_arn = m.string("ExclusiveStartStreamArn")?;
    let input = d.finish(ListStreamsInput {
        table_name,
        limit,
        exclusive_start_stream_arn,
    })?;
    let out = backend.list_streams(input).await?;
    let streams: Vec<Value> = out
        .streams
        .iter()
        .map(|s| {
            json!({
                "StreamArn": s.stream_arn,
                "TableName": s.table_name,
                "StreamLabel": s.stream_label,
            })
        })
        .collect();
    let mut body = Map::new();
    body.insert("Streams".into(), Value::Array(streams));
    if let Some(arn) = out.last_evaluated_stream_arn {
        body.insert("LastEvaluatedStreamArn".into(), Value::String(arn));
    }
    Ok(Value::Object(body))
}

async fn describe_stream(backend: &dyn Backend, request: &Map<String, Value>) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let stream_arn = required(&m, "StreamArn", &mut d)?;
    let limit = m.integer("Limit")?;
    let exclusive_start_shard_id = m.string("ExclusiveStartShardId")?;
    let shard_filter = match m.structure("ShardFilter")? {
        Some(f) => {
            let kind = f.required_enumeration("Type", &[("CHILD_SHARDS", ())], &mut d)?;
            let shard_id = required(&f, "ShardId", &mut d)?;
            kind.map(|()| ShardFilter { shard_id })
        }
        None => None,
    };
    let input = d.finish(DescribeStreamInput {
        stream_arn,
        limit,
        exclusive_start_shard_id,
        shard_filter,
    })?;
    let s = backend.describe_stream(input).await?.stream_description;
    let shards: Vec<Value> = s
        .shards
        .iter()
        .map(|shard| {
            let mut range = Map::new();
            let r = &shard.sequence_number_range;
            if let Some(n) = &r.starting_sequence_number {
                range.insert("StartingSequenceNumber".into(), json!(n));
            }
            if let Some(n) = &r.ending_sequence_number {
                range.insert("EndingSequenceNumber".into(), json!(n));
            }
            let mut out = Map::new();
            out.insert("ShardId".into(), json!(shard.shard_id));
            out.insert("SequenceNumberRange".into(), Value::Object(range));
            if let Some(parent) = &shard.parent_shard_id {
                out.insert("ParentShardId".into(), json!(parent));
            }
            Value::Object(out)
        })
        .collect();
    let key_schema: Vec<Value> = s
        .key_schema
        .iter()
        .map(|k| json!({ "AttributeName": k.attribute_name, "KeyType": k.key_type.as_str() }))
        .collect();
    let mut body = Map::new();
    body.insert("StreamArn".into(), json!(s.stream_arn));
    body.insert("StreamLabel".into(), json!(s.stream_label));
    body.insert("StreamStatus".into(), json!(s.stream_status.as_str()));
    body.insert("StreamViewType".into(), json!(s.stream_view_type.as_str()));
    body.insert(
        "CreationRequestDateTime".into(),
        epoch_seconds(&s.creation_request_date_time),
    );
    body.insert("TableName".into(), json!(s.table_name));
    body.insert("KeySchema".into(), Value::Array(key_schema));
    body.insert("Shards".into(), Value::Array(shards));
    if let Some(id) = s.last_evaluated_shard_id {
        body.insert("LastEvaluatedShardId".into(), json!(id));
    }
    Ok(json!({ "StreamDescription": body }))
}

async fn get_shard_iterator(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let stream_arn = required(&m, "StreamArn", &mut d)?;
    let shard_id = required(&m, "ShardId", &mut d)?;
    let kind = m.required_enumeration("ShardIteratorType", ITERATOR_TYPES, &mut d)?;
    let sequence_number = m.string("SequenceNumber")?;
    let input = d.finish(GetShardIteratorInput {
        stream_arn,
        shard_id,
        shard_iterator_type: kind.unwrap_or(ShardIteratorType::TrimHorizon),
        sequence_number,
    })?;
    let out = backend.get_shard_iterator(input).await?;
    let mut body = Map::new();
    if let Some(it) = out.shard_iterator {
        body.insert("ShardIterator".into(), Value::String(it));
    }
    Ok(Value::Object(body))
}

async fn get_records(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    region: Option<&str>,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let shard_iterator = required(&m, "ShardIterator", &mut d)?;
    let limit = m.integer("Limit")?;
    let input = d.finish(GetRecordsInput {
        shard_iterator,
        limit,
    })?;
    let mut out = backend.get_records(input).await?;
    // "The region in which the GetRecords request was received" (the Streams API reference).
    if let Some(region) = region {
        for record in &mut out.records {
            region.clone_into(&mut record.aws_region);
        }
    }
    Ok(get_records_response(&out))
}

/// GetRecords' response: `Records` always, `NextShardIterator` while the shard is open; in
/// serde_json's order of keys (see `json.rs`).
pub(super) fn get_records_response(out: &GetRecordsOutput) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(128 + out.records.len() * 512);
    let mut body = Object::begin(&mut bytes);
    if let Some(it) = &out.next_shard_iterator {
        json::string(body.member("NextShardIterator"), it);
    }
    let mut records = Array::begin(body.member("Records"));
    for r in &out.records {
        write_record(records.element(), r);
    }
    records.end();
    body.end();
    bytes
}

/// One record as the service writes it: byte for byte what [`record_json`] prints as.
fn write_record(out: &mut Vec<u8>, r: &Record) {
    let mut object = Object::begin(out);
    json::string(object.member("awsRegion"), &r.aws_region);
    let s = &r.dynamodb;
    let mut change = Object::begin(object.member("dynamodb"));
    if let Some(at) = &s.approximate_creation_date_time {
        json::double(
            change.member("ApproximateCreationDateTime"),
            at.timestamp_millis() as f64 / 1000.0,
        );
    }
    write_item(change.member("Keys"), &s.keys);
    if let Some(new) = &s.new_image {
        write_item(change.member("NewImage"), new);
    }
    if let Some(old) = &s.old_image {
        write_item(change.member("OldImage"), old);
    }
    json::string(change.member("SequenceNumber"), &s.sequence_number);
    json::integer(change.member("SizeBytes"), s.size_bytes);
    json::string(change.member("StreamViewType"), s.stream_view_type.as_str());
    change.end();
    json::string(object.member("eventID"), &r.event_id);
    json::string(object.member("eventName"), r.event_name.as_str());
    json::string(object.member("eventSource"), &r.event_source);
    json::string(object.member("eventVersion"), &r.event_version);
    if let Some(who) = &r.user_identity {
        let mut identity = Object::begin(object.member("userIdentity"));
        json::string(identity.member("PrincipalId"), &who.principal_id);
        json::string(identity.member("Type"), &who.type_);
        identity.end();
    }
    object.end();
}

/// One record as the service writes it, as a `Value`: the durable log's stream records
/// (`records.rs`); responses use [`write_record`], which writes the same bytes.
pub(super) fn record_json(r: &Record) -> Value {
    let s = &r.dynamodb;
    let mut change = Map::new();
    if let Some(at) = &s.approximate_creation_date_time {
        change.insert("ApproximateCreationDateTime".into(), epoch_seconds(at));
    }
    change.insert("Keys".into(), item_to_json(&s.keys));
    if let Some(new) = &s.new_image {
        change.insert("NewImage".into(), item_to_json(new));
    }
    if let Some(old) = &s.old_image {
        change.insert("OldImage".into(), item_to_json(old));
    }
    change.insert("SequenceNumber".into(), json!(s.sequence_number));
    change.insert("SizeBytes".into(), json!(s.size_bytes));
    change.insert("StreamViewType".into(), json!(s.stream_view_type.as_str()));
    let mut out = Map::new();
    out.insert("eventID".into(), json!(r.event_id));
    out.insert("eventName".into(), json!(r.event_name.as_str()));
    out.insert("eventVersion".into(), json!(r.event_version));
    out.insert("eventSource".into(), json!(r.event_source));
    out.insert("awsRegion".into(), json!(r.aws_region));
    out.insert("dynamodb".into(), Value::Object(change));
    if let Some(who) = &r.user_identity {
        out.insert(
            "userIdentity".into(),
            json!({ "PrincipalId": who.principal_id, "Type": who.type_ }),
        );
    }
    Value::Object(out)
}
