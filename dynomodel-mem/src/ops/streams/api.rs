//! `ListStreams`, `DescribeStream`, `GetShardIterator` and `GetRecords` on the engine's state.
//!
//! Error texts and where they come from:
//! - A missing stream: `Requested resource not found: Stream: <arn> not found` (a live capture against
//!   eu-west-1 in a published test suite; DynamoDB Local 3.3 says the same for DescribeStream and
//!   "Stream does not exist" for GetShardIterator).
//! - A missing shard: "Requested resource not found: Shard does not exist" (the text the DynamoDB Streams
//!   Kinesis adapter's tests and KCL-based consumers expect from the service; DynamoDB Local 3.3 says
//!   "Shard does not exist").
//! - Trimmed data: TrimmedDataAccessException "The data you are trying to access has been trimmed"
//!   (a user's report of the service's answer, ironSource/node-dynamodb-stream#13; the SDKs' docs say
//!   the same words).
//! - An expired iterator: ExpiredIteratorException in the words of the Kinesis back end that serves
//!   DynamoDB Streams ("Iterator expired. The iterator was created at time … while right now it is …
//!   which is further in the future than the tolerated delay of N milliseconds.", captured from Kinesis
//!   with its 300000 ms); the 900000 ms here is DynamoDB Streams' 15 minutes. No live DynamoDB Streams
//!   capture was found: treat the exact text as best evidence.
//! - The limits above the model's (which has only `min: 1`) and the sequence number checks use DynamoDB
//!   Local 3.3's texts (probed), for want of a live capture.

use std::cmp::Ordering;

use chrono::{DateTime, Utc};
use dynomodel::backend::{
    DescribeStreamInput, DescribeStreamOutput, GetRecordsInput, GetRecordsOutput,
    GetShardIteratorInput, GetShardIteratorOutput, ListStreamsInput, ListStreamsOutput,
    ShardIteratorType, StreamDescription, StreamSummary,
};
use dynomodel::{Error, Result};

use super::iterator::{Iterator, HORIZON};
use super::ITERATOR_LIFETIME;
use crate::storage::lock::Locked;
use crate::storage::state::State;
use crate::storage::stream::Stream;
use crate::validate::{self, Constraints};

/// ListStreams' and DescribeStream's default and largest page.
const MAX_PAGE: i32 = 100;
/// GetRecords' default and largest number of records.
const MAX_RECORDS: i32 = 1000;
/// GetRecords returns at most about 1 MB ("GetRecords can retrieve a maximum of 1 MB of data or 1000
/// stream records, whichever comes first", the API reference).
const MAX_BYTES: i64 = 1024 * 1024;

/// DynamoDB Local 3.3's texts for limits above the maximum (probed; the model has no maximum).
const LIST_LIMIT_TOO_HIGH: &str =
    "One or more parameter values were invalid: Limit cannot be greater than the maximum allowed size: 100";
const DESCRIBE_LIMIT_TOO_HIGH: &str =
    "One or more parameter values were invalid: Limit cannot be greater than the maximum: 100";
const RECORDS_LIMIT_TOO_HIGH: &str =
    "One or more parameter values were invalid: Limit should be less than or equal to 1000";
/// DynamoDB Local 3.3 (probed): AT/AFTER_SEQUENCE_NUMBER without a sequence number.
const SEQUENCE_MISSING: &str = "One or more parameter values were invalid: Invalid SequenceNumber";
/// DynamoDB Local 3.3 (probed): TRIM_HORIZON or LATEST with a sequence number.
const SEQUENCE_UNWANTED: &str = "One or more parameter values were invalid: SequenceNumber should not be passed for this iterator type";
/// DynamoDB Local 3.3 (probed): a sequence number outside the shard.
const SEQUENCE_OUTSIDE: &str = "Invalid SequenceNumber for the shard";
/// See the module documentation.
const TRIMMED: &str = "The data you are trying to access has been trimmed";

/// ResourceNotFoundException for a stream.
fn stream_not_found(arn: &str) -> Error {
    Error::resource_not_found(format!(
        "Requested resource not found: Stream: {arn} not found"
    ))
}

/// ResourceNotFoundException for a shard.
fn shard_not_found() -> Error {
    Error::resource_not_found("Requested resource not found: Shard does not exist")
}

/// TrimmedDataAccessException.
fn trimmed() -> Error {
    Error::Service {
        code: "TrimmedDataAccessException".into(),
        message: TRIMMED.into(),
    }
}

/// ExpiredIteratorException for an iterator issued at `issued`, used at `now`.
fn expired(issued: DateTime<Utc>, now: DateTime<Utc>) -> Error {
    const JAVA_DATE: &str = "%a %b %d %H:%M:%S UTC %Y";
    Error::Service {
        code: "ExpiredIteratorException".into(),
        message: format!(
            "Iterator expired. The iterator was created at time {} while right now it is {} which \
             is further in the future than the tolerated delay of {} milliseconds.",
            issued.format(JAVA_DATE),
            now.format(JAVA_DATE),
            ITERATOR_LIFETIME.num_milliseconds()
        ),
    }
}

/// Checks a `limit` member: at least 1 (the model's constraint, in the service's form) and at most
/// `max` (`too_high`).
fn check_limit(limit: Option<i32>, max: i32, too_high: &str) -> Result<usize> {
    let Some(limit) = limit else {
        return Ok(usize::try_from(max).unwrap_or(0));
    };
    let mut c = Constraints::default();
    c.at_least(i64::from(limit), 1, "limit");
    c.finish()?;
    if limit > max {
        return Err(Error::validation(too_high));
    }
    Ok(usize::try_from(limit).unwrap_or(0))
}

/// Checks a string member's length against the model (`StreamArn` 37–1024, `ShardId` 28–65, …).
fn check_length(c: &mut Constraints, value: &str, path: &str, min: usize, max: usize) {
    let n = value.chars().count();
    if n < min {
        let text = format!("Member must have length greater than or equal to {min}");
        c.fail(validate::quoted(value), path, &text);
    }
    if n > max {
        let text = format!("Member must have length less than or equal to {max}");
        c.fail(validate::quoted(value), path, &text);
    }
}

/// ListStreams' order: newest stream first (DynamoDB Local 3.3 lists a re-enabled table's new stream
/// before its old one), then by table name. The key is read from the ARN, so that an
/// `ExclusiveStartStreamArn` of a stream that no longer exists still places the page.
fn list_order(a: &str, b: &str) -> Ordering {
    fn key(arn: &str) -> (&str, &str) {
        let (table, label) = arn.rsplit_once("/stream/").unwrap_or((arn, ""));
        (label, table)
    }
    let (la, ta) = key(a);
    let (lb, tb) = key(b);
    lb.cmp(la).then(ta.cmp(tb))
}

impl State {
    /// `ListStreams`.
    pub(crate) fn list_streams(&mut self, input: &ListStreamsInput) -> Result<ListStreamsOutput> {
        let mut c = Constraints::default();
        if let Some(name) = &input.table_name {
            c.name(name, "tableName");
        }
        if let Some(arn) = &input.exclusive_start_stream_arn {
            check_length(&mut c, arn, "exclusiveStartStreamArn", 37, 1024);
        }
        c.finish()?;
        let limit = check_limit(input.limit, MAX_PAGE, LIST_LIMIT_TOO_HIGH)?;
        let now = self.clock().now();
        let mut streams: Vec<StreamSummary> = self
            .streams_mut()
            .filter(|s| !s.gone(now))
            .filter(|s| {
                input
                    .table_name
                    .as_ref()
                    .is_none_or(|t| *t == s.origin.table_name)
            })
            .map(|s| StreamSummary {
                stream_arn: s.origin.arn.clone(),
                table_name: s.origin.table_name.clone(),
                stream_label: s.origin.label.clone(),
            })
            .collect();
        streams.sort_by(|a, b| list_order(&a.stream_arn, &b.stream_arn));
        if let Some(start) = &input.exclusive_start_stream_arn {
            let start = self.config().own_arn(start);
            streams.retain(|s| list_order(&s.stream_arn, &start) == Ordering::Greater);
        }
        let more = streams.len() > limit;
        streams.truncate(limit);
        let last_evaluated_stream_arn = more
            .then(|| streams.last().map(|s| s.stream_arn.clone()))
            .flatten();
        Ok(ListStreamsOutput {
            streams,
            last_evaluated_stream_arn,
        })
    }
}

/// Where DescribeStream, GetShardIterator and GetRecords find a stream: the whole engine (under the
/// catalog's write lock) or the one table its ARN names (under that table's lock, see `lock.rs`), so
/// that a stream's readers do not stop the other tables.
pub(crate) trait StreamSource {
    /// The engine's "now".
    fn now(&self) -> DateTime<Utc>;

    /// The stream `arn`, unless it is gone at `now`.
    fn find_stream(&mut self, arn: &str, now: DateTime<Utc>) -> Option<&mut Stream>;

    /// `DescribeStream`.
    fn describe_stream(&mut self, input: &DescribeStreamInput) -> Result<DescribeStreamOutput> {
        let mut c = Constraints::default();
        check_length(&mut c, &input.stream_arn, "streamArn", 37, 1024);
        if let Some(id) = &input.exclusive_start_shard_id {
            check_length(&mut c, id, "exclusiveStartShardId", 28, 65);
        }
        if let Some(filter) = &input.shard_filter {
            check_length(&mut c, &filter.shard_id, "shardFilter.shardId", 28, 65);
        }
        c.finish()?;
        let limit = check_limit(input.limit, MAX_PAGE, DESCRIBE_LIMIT_TOO_HIGH)?;
        let now = self.now();
        let stream = self.live_stream(&input.stream_arn, now)?;
        let mut shards: Vec<&crate::storage::stream::shard::Shard> = stream
            .shards
            .iter()
            .filter(|s| {
                input
                    .shard_filter
                    .as_ref()
                    .is_none_or(|f| s.parent.as_deref() == Some(f.shard_id.as_str()))
            })
            .collect();
        // An unknown ExclusiveStartShardId starts from the first shard (DynamoDB Local 3.3, probed).
        let start = input.exclusive_start_shard_id.as_deref();
        if let Some(at) = shards.iter().position(|s| Some(s.id.as_str()) == start) {
            shards.drain(..=at);
        }
        let more = shards.len() > limit;
        shards.truncate(limit);
        let last_evaluated_shard_id = more.then(|| shards.last().map(|s| s.id.clone())).flatten();
        let o = &stream.origin;
        Ok(DescribeStreamOutput {
            stream_description: StreamDescription {
                stream_arn: o.arn.clone(),
                stream_label: o.label.clone(),
                stream_status: stream.status(now),
                stream_view_type: o.view_type,
                creation_request_date_time: stream.enabled.started,
                table_name: o.table_name.clone(),
                key_schema: o.key_schema.clone(),
                shards: shards.iter().map(|s| s.describe()).collect(),
                last_evaluated_shard_id,
            },
        })
    }

    /// `GetShardIterator`.
    fn get_shard_iterator(
        &mut self,
        input: &GetShardIteratorInput,
    ) -> Result<GetShardIteratorOutput> {
        let mut c = Constraints::default();
        check_length(&mut c, &input.stream_arn, "streamArn", 37, 1024);
        check_length(&mut c, &input.shard_id, "shardId", 28, 65);
        if let Some(n) = &input.sequence_number {
            check_length(&mut c, n, "sequenceNumber", 21, 40);
        }
        c.finish()?;
        let by_number = matches!(
            input.shard_iterator_type,
            ShardIteratorType::AtSequenceNumber | ShardIteratorType::AfterSequenceNumber
        );
        let number = match (&input.sequence_number, by_number) {
            (Some(_), false) => return Err(Error::validation(SEQUENCE_UNWANTED)),
            (None, true) => return Err(Error::validation(SEQUENCE_MISSING)),
            (Some(n), true) if !n.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(Error::validation(SEQUENCE_MISSING));
            }
            // A number of more digits than u64 holds is past every shard.
            (Some(n), true) => Some(n.parse::<u64>().unwrap_or(u64::MAX)),
            (None, false) => None,
        };
        let now = self.now();
        let stream = self.live_stream(&input.stream_arn, now)?;
        let next = stream.next_sequence();
        let shard = stream.shard(&input.shard_id).ok_or_else(shard_not_found)?;
        let position = match (input.shard_iterator_type, number) {
            (ShardIteratorType::TrimHorizon, _) => HORIZON,
            (ShardIteratorType::Latest, _) => shard.end.map_or(next, |end| end + 1),
            (kind, Some(n)) => {
                if !shard.contains(n, next.saturating_sub(1)) {
                    return Err(Error::validation(SEQUENCE_OUTSIDE));
                }
                if n <= shard.trimmed_to {
                    return Err(trimmed());
                }
                if kind == ShardIteratorType::AfterSequenceNumber {
                    n + 1
                } else {
                    n
                }
            }
            (_, None) => HORIZON,
        };
        let iterator = Iterator {
            arn: stream.origin.arn.clone(),
            shard: shard.id.clone(),
            position,
            issued: now,
        };
        Ok(GetShardIteratorOutput {
            shard_iterator: Some(iterator.encode()),
        })
    }

    /// `GetRecords`.
    fn get_records(&mut self, input: &GetRecordsInput) -> Result<GetRecordsOutput> {
        let mut c = Constraints::default();
        check_length(&mut c, &input.shard_iterator, "shardIterator", 1, 2048);
        c.finish()?;
        let limit = check_limit(input.limit, MAX_RECORDS, RECORDS_LIMIT_TOO_HIGH)?;
        let iterator = Iterator::decode(&input.shard_iterator)?;
        let now = self.now();
        if now - iterator.issued > ITERATOR_LIFETIME {
            return Err(expired(iterator.issued, now));
        }
        let stream = self.live_stream(&iterator.arn, now)?;
        // The checksum proves the engine issued the iterator, so its shard existed: a shard no longer
        // there is a closed one whose every record was trimmed.
        let shard = stream.shard(&iterator.shard).ok_or_else(trimmed)?;
        if iterator.position != HORIZON && iterator.position <= shard.trimmed_to {
            return Err(trimmed());
        }
        let mut records = Vec::new();
        let mut bytes = 0;
        let mut next = iterator.position;
        for stored in shard
            .records
            .iter()
            .filter(|r| r.sequence >= iterator.position)
        {
            let size = stored.record.dynamodb.size_bytes;
            if records.len() >= limit || (!records.is_empty() && bytes + size > MAX_BYTES) {
                break;
            }
            bytes += size;
            next = stored.sequence + 1;
            records.push(stored.record.clone());
        }
        // A closed shard read to its end has no next iterator: the reader moves on to its children.
        let at_end = shard
            .end
            .is_some_and(|end| next > end || !shard.records.iter().any(|r| r.sequence >= next));
        let next_shard_iterator = (!at_end).then(|| {
            Iterator {
                position: next,
                issued: now,
                ..iterator
            }
            .encode()
        });
        Ok(GetRecordsOutput {
            records,
            next_shard_iterator,
        })
    }

    /// The stream `arn` with its records trimmed at `now`, unless nothing is left of it.
    fn live_stream(&mut self, arn: &str, now: DateTime<Utc>) -> Result<&Stream> {
        let stream = self
            .find_stream(arn, now)
            .ok_or_else(|| stream_not_found(arn))?;
        stream.trim(now);
        Ok(stream)
    }
}

impl StreamSource for State {
    fn now(&self) -> DateTime<Utc> {
        self.clock().now()
    }

    fn find_stream(&mut self, arn: &str, now: DateTime<Utc>) -> Option<&mut Stream> {
        // The client may hold the ARN in its own region (an engine without one of its own).
        let arn = self.config().own_arn(arn);
        self.streams_mut()
            .find(|s| s.origin.arn == arn && !s.gone(now))
    }
}

impl StreamSource for Locked<'_> {
    fn now(&self) -> DateTime<Utc> {
        self.clock().now()
    }

    fn find_stream(&mut self, arn: &str, now: DateTime<Utc>) -> Option<&mut Stream> {
        // The client may hold the ARN in its own region (an engine without one of its own).
        let arn = self.config().own_arn(arn);
        self.streams_mut()
            .find(|s| s.origin.arn == arn && !s.gone(now))
    }
}

/// The table whose stream `arn` is (`arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL`).
pub(crate) fn stream_table(arn: &str) -> Option<&str> {
    arn.split_once(":table/")?
        .1
        .split_once("/stream/")
        .map(|(table, _)| table)
}

/// The stream a shard iterator reads, if it is one the engine issued.
pub(crate) fn iterator_stream(iterator: &str) -> Option<String> {
    Iterator::decode(iterator).ok().map(|i| i.arn)
}
