//! The DynamoDB Streams API over `aws-sdk-dynamodbstreams`: requests built field by field, responses
//! converted to the backend's types ([`crate::backend::streams`]).
//!
//! Dates become `chrono` values, images convert exactly as `GetItem` results do (the same conversion,
//! instantiated for the streams SDK's `AttributeValue`), and errors keep the service's code and message
//! (`ResourceNotFoundException` → [`Error::ResourceNotFound`](crate::Error::ResourceNotFound),
//! `ExpiredIteratorException`, `TrimmedDataAccessException`, `LimitExceededException` →
//! [`Error::Service`](crate::Error::Service) with that code, `ValidationException` →
//! [`Error::Validation`](crate::Error::Validation)).

use aws_sdk_dynamodbstreams::operation as op;
use aws_sdk_dynamodbstreams::types as sdk;
use aws_sdk_dynamodbstreams::Client;
use chrono::{DateTime, Utc};

use super::error::{map_sdk_error, ErrorDetails};
use super::table::unexpected;
use super::value::from_streams_sdk_item;
use crate::backend::*;
use crate::error::{ConversionError, Result};
use crate::value::Item;

impl ErrorDetails for op::list_streams::ListStreamsError {}
impl ErrorDetails for op::describe_stream::DescribeStreamError {}
impl ErrorDetails for op::get_shard_iterator::GetShardIteratorError {}
impl ErrorDetails for op::get_records::GetRecordsError {}

pub(crate) async fn list_streams(
    client: &Client,
    input: ListStreamsInput,
) -> Result<ListStreamsOutput> {
    let output = client
        .list_streams()
        .set_table_name(input.table_name)
        .set_limit(input.limit)
        .set_exclusive_start_stream_arn(input.exclusive_start_stream_arn)
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(ListStreamsOutput {
        streams: output.streams().iter().map(stream_summary).collect(),
        last_evaluated_stream_arn: output.last_evaluated_stream_arn,
    })
}

pub(crate) async fn describe_stream(
    client: &Client,
    input: DescribeStreamInput,
) -> Result<DescribeStreamOutput> {
    let filter = input.shard_filter.map(|f| {
        sdk::ShardFilter::builder()
            // The only filter type the service model defines.
            .r#type(sdk::ShardFilterType::ChildShards)
            .shard_id(f.shard_id)
            .build()
    });
    let output = client
        .describe_stream()
        .stream_arn(input.stream_arn)
        .set_limit(input.limit)
        .set_exclusive_start_shard_id(input.exclusive_start_shard_id)
        .set_shard_filter(filter)
        .send()
        .await
        .map_err(map_sdk_error)?;
    let description = output
        .stream_description
        .ok_or_else(|| ConversionError::missing("StreamDescription"))?;
    Ok(DescribeStreamOutput {
        stream_description: stream_description(description)?,
    })
}

pub(crate) async fn get_shard_iterator(
    client: &Client,
    input: GetShardIteratorInput,
) -> Result<GetShardIteratorOutput> {
    let output = client
        .get_shard_iterator()
        .stream_arn(input.stream_arn)
        .shard_id(input.shard_id)
        .shard_iterator_type(sdk::ShardIteratorType::from(
            input.shard_iterator_type.as_str(),
        ))
        .set_sequence_number(input.sequence_number)
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(GetShardIteratorOutput {
        shard_iterator: output.shard_iterator,
    })
}

pub(crate) async fn get_records(
    client: &Client,
    input: GetRecordsInput,
) -> Result<GetRecordsOutput> {
    let output = client
        .get_records()
        .shard_iterator(input.shard_iterator)
        .set_limit(input.limit)
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(GetRecordsOutput {
        records: output
            .records
            .unwrap_or_default()
            .into_iter()
            .map(record)
            .collect::<Result<_>>()?,
        next_shard_iterator: output.next_shard_iterator,
    })
}

fn stream_summary(s: &sdk::Stream) -> StreamSummary {
    StreamSummary {
        stream_arn: s.stream_arn().unwrap_or_default().to_owned(),
        table_name: s.table_name().unwrap_or_default().to_owned(),
        stream_label: s.stream_label().unwrap_or_default().to_owned(),
    }
}

fn time(t: &aws_smithy_types::DateTime) -> Result<DateTime<Utc>> {
    DateTime::from_timestamp(t.secs(), t.subsec_nanos())
        .ok_or_else(|| unexpected("a date", t.to_string()))
}

fn view_type(v: Option<&sdk::StreamViewType>) -> Result<StreamViewType> {
    Ok(match v {
        Some(sdk::StreamViewType::KeysOnly) => StreamViewType::KeysOnly,
        Some(sdk::StreamViewType::NewImage) => StreamViewType::NewImage,
        Some(sdk::StreamViewType::OldImage) => StreamViewType::OldImage,
        Some(sdk::StreamViewType::NewAndOldImages) => StreamViewType::NewAndOldImages,
        other => {
            return Err(unexpected(
                "a stream view type",
                format!("{:?}", other.map(sdk::StreamViewType::as_str)),
            ));
        }
    })
}

fn status(s: Option<&sdk::StreamStatus>) -> Result<StreamStatus> {
    Ok(match s {
        Some(sdk::StreamStatus::Enabling) => StreamStatus::Enabling,
        Some(sdk::StreamStatus::Enabled) => StreamStatus::Enabled,
        Some(sdk::StreamStatus::Disabling) => StreamStatus::Disabling,
        Some(sdk::StreamStatus::Disabled) => StreamStatus::Disabled,
        other => {
            return Err(unexpected(
                "a stream status",
                format!("{:?}", other.map(sdk::StreamStatus::as_str)),
            ));
        }
    })
}

fn stream_description(d: sdk::StreamDescription) -> Result<StreamDescription> {
    let key_schema = d
        .key_schema()
        .iter()
        .map(|e| {
            let key_type = match e.key_type() {
                sdk::KeyType::Hash => KeyType::Hash,
                sdk::KeyType::Range => KeyType::Range,
                other => return Err(unexpected("a key type (HASH, RANGE)", other.as_str())),
            };
            Ok(KeySchemaElement {
                attribute_name: e.attribute_name().to_owned(),
                key_type,
            })
        })
        .collect::<Result<_>>()?;
    Ok(StreamDescription {
        stream_arn: d.stream_arn().unwrap_or_default().to_owned(),
        stream_label: d.stream_label().unwrap_or_default().to_owned(),
        stream_status: status(d.stream_status())?,
        stream_view_type: view_type(d.stream_view_type())?,
        creation_request_date_time: d
            .creation_request_date_time()
            .map(time)
            .transpose()?
            .unwrap_or(DateTime::UNIX_EPOCH),
        table_name: d.table_name().unwrap_or_default().to_owned(),
        key_schema,
        shards: d.shards().iter().map(shard).collect(),
        last_evaluated_shard_id: d.last_evaluated_shard_id().map(str::to_owned),
    })
}

fn shard(s: &sdk::Shard) -> Shard {
    let range = s.sequence_number_range();
    Shard {
        shard_id: s.shard_id().unwrap_or_default().to_owned(),
        sequence_number_range: SequenceNumberRange {
            starting_sequence_number: range
                .and_then(|r| r.starting_sequence_number())
                .map(str::to_owned),
            ending_sequence_number: range
                .and_then(|r| r.ending_sequence_number())
                .map(str::to_owned),
        },
        parent_shard_id: s.parent_shard_id().map(str::to_owned),
    }
}

fn image(
    name: &str,
    item: Option<std::collections::HashMap<String, sdk::AttributeValue>>,
) -> Result<Option<Item>> {
    Ok(item
        .map(|i| from_streams_sdk_item(i).map_err(|e| e.at(name)))
        .transpose()?)
}

fn record(r: sdk::Record) -> Result<Record> {
    let event_name = match r.event_name() {
        Some(sdk::OperationType::Insert) => OperationType::Insert,
        Some(sdk::OperationType::Modify) => OperationType::Modify,
        Some(sdk::OperationType::Remove) => OperationType::Remove,
        other => {
            return Err(unexpected(
                "an event name (INSERT, MODIFY, REMOVE)",
                format!("{:?}", other.map(sdk::OperationType::as_str)),
            ));
        }
    };
    let change = r
        .dynamodb
        .ok_or_else(|| ConversionError::missing("a record's dynamodb member"))?;
    let dynamodb = StreamRecord {
        approximate_creation_date_time: change
            .approximate_creation_date_time()
            .map(time)
            .transpose()?,
        stream_view_type: view_type(change.stream_view_type())?,
        sequence_number: change.sequence_number.unwrap_or_default(),
        size_bytes: change.size_bytes.unwrap_or_default(),
        keys: image("Keys", change.keys)?.unwrap_or_default(),
        new_image: image("NewImage", change.new_image)?,
        old_image: image("OldImage", change.old_image)?,
    };
    Ok(Record {
        event_id: r.event_id.unwrap_or_default(),
        event_name,
        event_version: r.event_version.unwrap_or_default(),
        event_source: r.event_source.unwrap_or_default(),
        aws_region: r.aws_region.unwrap_or_default(),
        dynamodb,
        user_identity: r.user_identity.map(|i| Identity {
            principal_id: i.principal_id.unwrap_or_default(),
            type_: i.r#type.unwrap_or_default(),
        }),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::value::AttributeValue;

    fn s(v: &str) -> sdk::AttributeValue {
        sdk::AttributeValue::S(v.into())
    }

    #[test]
    fn a_record_converts_every_member() {
        let change = sdk::StreamRecord::builder()
            .approximate_creation_date_time(aws_smithy_types::DateTime::from_secs(1_700_000_000))
            .keys("pk", s("a"))
            .new_image("pk", s("a"))
            .new_image("n", sdk::AttributeValue::N("1.50".into()))
            .old_image("pk", s("a"))
            .sequence_number("000000000000000000001")
            .size_bytes(42)
            .stream_view_type(sdk::StreamViewType::NewAndOldImages)
            .build();
        let sdk_record = sdk::Record::builder()
            .event_id("e1")
            .event_name(sdk::OperationType::Modify)
            .event_version("1.1")
            .event_source("aws:dynamodb")
            .aws_region("us-east-1")
            .dynamodb(change)
            .user_identity(
                sdk::Identity::builder()
                    .principal_id("dynamodb.amazonaws.com")
                    .r#type("Service")
                    .build(),
            )
            .build();
        let r = record(sdk_record).unwrap();
        assert_eq!(r.event_name, OperationType::Modify);
        assert_eq!(
            (r.event_id.as_str(), r.event_version.as_str()),
            ("e1", "1.1")
        );
        assert_eq!(r.event_source, "aws:dynamodb");
        assert_eq!(r.aws_region, "us-east-1");
        assert!(r.user_identity.unwrap().is_time_to_live());
        let d = r.dynamodb;
        assert_eq!(
            d.approximate_creation_date_time.unwrap().timestamp(),
            1_700_000_000
        );
        assert_eq!(d.keys["pk"], AttributeValue::S("a".into()));
        let new = d.new_image.unwrap();
        assert_eq!(new["n"], AttributeValue::N("1.5".parse().unwrap()));
        assert_eq!(d.old_image.unwrap().len(), 1);
        assert_eq!(d.sequence_number, "000000000000000000001");
        assert_eq!(d.size_bytes, 42);
        assert_eq!(d.stream_view_type, StreamViewType::NewAndOldImages);
    }

    #[test]
    fn a_bad_image_value_names_its_path() {
        let change = sdk::StreamRecord::builder()
            .keys("pk", s("a"))
            .new_image("n", sdk::AttributeValue::N("NaN".into()))
            .stream_view_type(sdk::StreamViewType::NewImage)
            .build();
        let r = sdk::Record::builder()
            .event_name(sdk::OperationType::Insert)
            .dynamodb(change)
            .build();
        let err = record(r).unwrap_err();
        assert!(err.to_string().contains("NewImage.n"), "{err}");
    }

    #[test]
    fn a_description_converts_shards_and_schema() {
        let d = sdk::StreamDescription::builder()
            .stream_arn("arn:aws:dynamodb:us-east-1:1:table/t/stream/2024-01-01T00:00:00.000")
            .stream_label("2024-01-01T00:00:00.000")
            .stream_status(sdk::StreamStatus::Disabled)
            .stream_view_type(sdk::StreamViewType::KeysOnly)
            .creation_request_date_time(aws_smithy_types::DateTime::from_secs(1_704_067_200))
            .table_name("t")
            .key_schema(
                sdk::KeySchemaElement::builder()
                    .attribute_name("pk")
                    .key_type(sdk::KeyType::Hash)
                    .build()
                    .unwrap(),
            )
            .shards(
                sdk::Shard::builder()
                    .shard_id("shardId-1")
                    .parent_shard_id("shardId-0")
                    .sequence_number_range(
                        sdk::SequenceNumberRange::builder()
                            .starting_sequence_number("100")
                            .ending_sequence_number("200")
                            .build(),
                    )
                    .build(),
            )
            .build();
        let d = stream_description(d).unwrap();
        assert_eq!(d.stream_status, StreamStatus::Disabled);
        assert_eq!(d.stream_view_type, StreamViewType::KeysOnly);
        assert_eq!(d.key_schema, vec![KeySchemaElement::hash("pk")]);
        assert_eq!(d.creation_request_date_time.timestamp(), 1_704_067_200);
        let shard = &d.shards[0];
        assert_eq!(shard.parent_shard_id.as_deref(), Some("shardId-0"));
        assert_eq!(
            shard.sequence_number_range,
            SequenceNumberRange {
                starting_sequence_number: Some("100".into()),
                ending_sequence_number: Some("200".into()),
            }
        );
        assert_eq!(d.last_evaluated_shard_id, None);
    }

    #[test]
    fn iterator_types_travel_by_their_service_names() {
        for t in [
            ShardIteratorType::TrimHorizon,
            ShardIteratorType::Latest,
            ShardIteratorType::AtSequenceNumber,
            ShardIteratorType::AfterSequenceNumber,
        ] {
            let sdk_type = sdk::ShardIteratorType::from(t.as_str());
            assert!(
                sdk::ShardIteratorType::values().contains(&t.as_str()),
                "{t:?}"
            );
            assert_eq!(sdk_type.as_str(), t.as_str());
        }
    }
}
