//! The DynamoDB Streams API: `ListStreams`, `DescribeStream`, `GetShardIterator`, `GetRecords`.
//!
//! A table with a [`StreamSpecification`](crate::backend::StreamSpecification) keeps a stream: one record per
//! item change, kept 24 hours, in order per item. A stream is split into shards (each an ordered run of
//! records with increasing sequence numbers); a reader asks for a shard iterator at a position and pages
//! through the shard with `GetRecords`, following each closed shard into its children. DynamoDB serves
//! this API on its own endpoint (`streams.dynamodb.<region>.amazonaws.com`, JSON target
//! `DynamoDBStreams_20120810`); the types mirror that API.

use chrono::{DateTime, Utc};

use crate::backend::{KeySchemaElement, StreamViewType};
use crate::value::Item;

/// `ListStreams`: the streams of the account, or of one table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListStreamsInput {
    /// Only this table's streams.
    pub table_name: Option<String>,
    /// At most this many streams (1 to 100; DynamoDB's default is 100).
    pub limit: Option<i32>,
    /// Start after this stream (the previous page's `last_evaluated_stream_arn`).
    pub exclusive_start_stream_arn: Option<String>,
}

/// `ListStreams`' response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListStreamsOutput {
    /// The streams of this page.
    pub streams: Vec<StreamSummary>,
    /// Where the next page starts; `None` on the last page.
    pub last_evaluated_stream_arn: Option<String>,
}

/// One stream as `ListStreams` lists it (DynamoDB's `Stream`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StreamSummary {
    /// The stream's ARN: `<table ARN>/stream/<label>`.
    pub stream_arn: String,
    /// The table it records.
    pub table_name: String,
    /// The stream's label: when it was enabled, e.g. `2026-11-25T18:42:15.123`.
    pub stream_label: String,
}

/// `DescribeStream`: a stream's settings and shards.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescribeStreamInput {
    /// The stream's ARN.
    pub stream_arn: String,
    /// At most this many shards (1 to 100; DynamoDB's default is 100).
    pub limit: Option<i32>,
    /// Start after this shard (the previous page's `last_evaluated_shard_id`).
    pub exclusive_start_shard_id: Option<String>,
    /// Only the children of one shard.
    pub shard_filter: Option<ShardFilter>,
}

/// `DescribeStream`'s filter: the child shards of one shard.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShardFilter {
    /// The parent shard.
    pub shard_id: String,
}

/// `DescribeStream`'s response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeStreamOutput {
    /// The stream.
    pub stream_description: StreamDescription,
}

/// A stream's settings and shards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamDescription {
    /// The stream's ARN.
    pub stream_arn: String,
    /// The stream's label (a timestamp).
    pub stream_label: String,
    /// Whether it is recording.
    pub stream_status: StreamStatus,
    /// What each record holds.
    pub stream_view_type: StreamViewType,
    /// When the stream was enabled.
    pub creation_request_date_time: DateTime<Utc>,
    /// The table it records.
    pub table_name: String,
    /// The table's key schema.
    pub key_schema: Vec<KeySchemaElement>,
    /// The shards of this page, parents before children.
    pub shards: Vec<Shard>,
    /// Where the next page of shards starts; `None` on the last page.
    pub last_evaluated_shard_id: Option<String>,
}

/// Whether a stream is recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamStatus {
    /// Being turned on.
    Enabling,
    /// Recording.
    Enabled,
    /// Being turned off.
    Disabling,
    /// Off: its shards are closed; its records stay readable for 24 hours.
    Disabled,
}

impl StreamStatus {
    /// DynamoDB's name for it, e.g. `"ENABLED"`.
    pub fn as_str(self) -> &'static str {
        match self {
            StreamStatus::Enabling => "ENABLING",
            StreamStatus::Enabled => "ENABLED",
            StreamStatus::Disabling => "DISABLING",
            StreamStatus::Disabled => "DISABLED",
        }
    }
}

/// One shard of a stream.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shard {
    /// The shard's id, e.g. `shardId-00000001732561335123-8f3a9c1e`.
    pub shard_id: String,
    /// The sequence numbers it holds.
    pub sequence_number_range: SequenceNumberRange,
    /// The shard it continues, if any.
    pub parent_shard_id: Option<String>,
}

/// The first and (once the shard is closed) last sequence number of a shard.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SequenceNumberRange {
    /// The first sequence number.
    pub starting_sequence_number: Option<String>,
    /// The last one; `None` while the shard is open.
    pub ending_sequence_number: Option<String>,
}

/// Where a shard iterator starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShardIteratorType {
    /// At the oldest record still kept.
    TrimHorizon,
    /// After the newest record: only records written from now on.
    Latest,
    /// At the record with `sequence_number`.
    AtSequenceNumber,
    /// Just after the record with `sequence_number`.
    AfterSequenceNumber,
}

impl ShardIteratorType {
    /// DynamoDB's name for it, e.g. `"TRIM_HORIZON"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ShardIteratorType::TrimHorizon => "TRIM_HORIZON",
            ShardIteratorType::Latest => "LATEST",
            ShardIteratorType::AtSequenceNumber => "AT_SEQUENCE_NUMBER",
            ShardIteratorType::AfterSequenceNumber => "AFTER_SEQUENCE_NUMBER",
        }
    }
}

/// `GetShardIterator`: a position in a shard to read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GetShardIteratorInput {
    /// The stream's ARN.
    pub stream_arn: String,
    /// The shard.
    pub shard_id: String,
    /// Where to start.
    pub shard_iterator_type: ShardIteratorType,
    /// The sequence number, for `AtSequenceNumber` and `AfterSequenceNumber`.
    pub sequence_number: Option<String>,
}

/// `GetShardIterator`'s response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GetShardIteratorOutput {
    /// The iterator: an opaque string, valid for 15 minutes.
    pub shard_iterator: Option<String>,
}

/// `GetRecords`: the records at an iterator's position.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GetRecordsInput {
    /// The iterator (from `GetShardIterator` or the previous `GetRecords`).
    pub shard_iterator: String,
    /// At most this many records (1 to 1000; DynamoDB's default is 1000).
    pub limit: Option<i32>,
}

/// `GetRecords`' response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GetRecordsOutput {
    /// The records, oldest first (possibly none, even when more follow).
    pub records: Vec<Record>,
    /// Where to read next; `None` once a closed shard has been read to its end.
    pub next_shard_iterator: Option<String>,
}

/// One change to one item, as the stream reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// A unique id of the record.
    pub event_id: String,
    /// What happened to the item.
    pub event_name: OperationType,
    /// The record format's version (`"1.1"`).
    pub event_version: String,
    /// `"aws:dynamodb"`.
    pub event_source: String,
    /// The table's region.
    pub aws_region: String,
    /// The change.
    pub dynamodb: StreamRecord,
    /// Who made the change, when it was not the application: Time to Live deletions carry
    /// `Identity { principal_id: "dynamodb.amazonaws.com", type_: "Service" }`.
    pub user_identity: Option<Identity>,
}

/// What a write did to an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OperationType {
    /// A new item was written.
    Insert,
    /// An existing item was changed.
    Modify,
    /// An item was deleted.
    Remove,
}

impl OperationType {
    /// DynamoDB's name for it, e.g. `"INSERT"`.
    pub fn as_str(self) -> &'static str {
        match self {
            OperationType::Insert => "INSERT",
            OperationType::Modify => "MODIFY",
            OperationType::Remove => "REMOVE",
        }
    }
}

/// The change itself: keys, images (as the view type says), sequence number, size.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamRecord {
    /// When the change was made, in whole seconds.
    pub approximate_creation_date_time: Option<DateTime<Utc>>,
    /// The item's key attributes.
    pub keys: Item,
    /// The item after the change (`NEW_IMAGE`, `NEW_AND_OLD_IMAGES`; not for a REMOVE).
    pub new_image: Option<Item>,
    /// The item before the change (`OLD_IMAGE`, `NEW_AND_OLD_IMAGES`; not for an INSERT).
    pub old_image: Option<Item>,
    /// The record's position in its shard: a string of digits, increasing within the shard.
    pub sequence_number: String,
    /// The record's size in bytes.
    pub size_bytes: i64,
    /// The stream's view type.
    pub stream_view_type: StreamViewType,
}

/// Who made a change (DynamoDB's `Identity`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Identity {
    /// `"dynamodb.amazonaws.com"` for Time to Live deletions.
    pub principal_id: String,
    /// `"Service"` for Time to Live deletions.
    pub type_: String,
}

impl Identity {
    /// The identity of a Time to Live deletion.
    ///
    /// ```
    /// let ttl = dynomodel::backend::Identity::time_to_live();
    /// assert_eq!((ttl.principal_id.as_str(), ttl.type_.as_str()), ("dynamodb.amazonaws.com", "Service"));
    /// ```
    pub fn time_to_live() -> Identity {
        Identity {
            principal_id: "dynamodb.amazonaws.com".into(),
            type_: "Service".into(),
        }
    }

    /// Whether this is the identity of a Time to Live deletion.
    pub fn is_time_to_live(&self) -> bool {
        self.principal_id == "dynamodb.amazonaws.com" && self.type_ == "Service"
    }
}
