//! Requests and responses of the table operations, shaped like DynamoDB's API.

use chrono::{DateTime, Utc};

use crate::backend::{RestoreSummary, StreamSpecification, TableClass, Tag};

/// The type of a key attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarAttributeType {
    /// String.
    S,
    /// Number.
    N,
    /// Binary.
    B,
}

impl ScalarAttributeType {
    /// DynamoDB's name for it: `"S"`, `"N"` or `"B"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ScalarAttributeType::S => "S",
            ScalarAttributeType::N => "N",
            ScalarAttributeType::B => "B",
        }
    }
}

/// An attribute used in a key schema, with its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeDefinition {
    /// The attribute's name.
    pub attribute_name: String,
    /// Its type.
    pub attribute_type: ScalarAttributeType,
}

/// Whether a key attribute is the partition (`HASH`) or sort (`RANGE`) key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyType {
    /// Partition key.
    Hash,
    /// Sort key.
    Range,
}

impl KeyType {
    /// DynamoDB's name for it: `"HASH"` or `"RANGE"`.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyType::Hash => "HASH",
            KeyType::Range => "RANGE",
        }
    }
}

/// One element of a key schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySchemaElement {
    /// The attribute's name.
    pub attribute_name: String,
    /// Partition or sort key.
    pub key_type: KeyType,
}

impl KeySchemaElement {
    /// A partition-key element.
    pub fn hash(name: impl Into<String>) -> Self {
        KeySchemaElement {
            attribute_name: name.into(),
            key_type: KeyType::Hash,
        }
    }

    /// A sort-key element.
    pub fn range(name: impl Into<String>) -> Self {
        KeySchemaElement {
            attribute_name: name.into(),
            key_type: KeyType::Range,
        }
    }
}

/// Which attributes a secondary index holds besides the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProjectionType {
    /// Every attribute.
    All,
    /// Only the index and table keys.
    KeysOnly,
    /// The keys plus the listed non-key attributes.
    Include,
}

impl ProjectionType {
    /// DynamoDB's name for it: `"ALL"`, `"KEYS_ONLY"` or `"INCLUDE"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProjectionType::All => "ALL",
            ProjectionType::KeysOnly => "KEYS_ONLY",
            ProjectionType::Include => "INCLUDE",
        }
    }
}

/// An index's projection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection {
    /// The projection type.
    pub projection_type: ProjectionType,
    /// For `INCLUDE`: the non-key attributes the index holds.
    pub non_key_attributes: Vec<String>,
}

/// Provisioned read and write capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProvisionedThroughput {
    /// Read capacity units per second.
    pub read_capacity_units: i64,
    /// Write capacity units per second.
    pub write_capacity_units: i64,
}

/// How a table is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BillingMode {
    /// Provisioned capacity (requires [`ProvisionedThroughput`]).
    Provisioned,
    /// On-demand.
    PayPerRequest,
}

impl BillingMode {
    /// DynamoDB's name for it: `"PROVISIONED"` or `"PAY_PER_REQUEST"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BillingMode::Provisioned => "PROVISIONED",
            BillingMode::PayPerRequest => "PAY_PER_REQUEST",
        }
    }
}

/// A local secondary index definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalSecondaryIndex {
    /// The index's name.
    pub index_name: String,
    /// Same partition key as the table, another sort key.
    pub key_schema: Vec<KeySchemaElement>,
    /// What the index holds.
    pub projection: Projection,
}

/// A global secondary index definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalSecondaryIndex {
    /// The index's name.
    pub index_name: String,
    /// Any partition key and optional sort key.
    pub key_schema: Vec<KeySchemaElement>,
    /// What the index holds.
    pub projection: Projection,
    /// Its own capacity (provisioned tables only).
    pub provisioned_throughput: Option<ProvisionedThroughput>,
}

/// `CreateTable`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CreateTableInput {
    /// The table's name (3–255 characters of `[A-Za-z0-9_.-]`).
    pub table_name: String,
    /// Types of the key attributes of the table and its indexes.
    pub attribute_definitions: Vec<AttributeDefinition>,
    /// The table's partition key and optional sort key.
    pub key_schema: Vec<KeySchemaElement>,
    /// Billing mode; DynamoDB's default is `PROVISIONED`.
    pub billing_mode: Option<BillingMode>,
    /// Capacity, required for provisioned tables.
    pub provisioned_throughput: Option<ProvisionedThroughput>,
    /// Local secondary indexes (at most 5).
    pub local_secondary_indexes: Vec<LocalSecondaryIndex>,
    /// Global secondary indexes (at most 20).
    pub global_secondary_indexes: Vec<GlobalSecondaryIndex>,
    /// DynamoDB Streams for the table (off when `None`).
    pub stream_specification: Option<StreamSpecification>,
    /// The storage class; DynamoDB's default is `STANDARD`.
    pub table_class: Option<TableClass>,
    /// Whether DeleteTable is refused; DynamoDB's default is `false`.
    pub deletion_protection_enabled: Option<bool>,
    /// Tags for the new table (at most 50).
    pub tags: Vec<Tag>,
}

/// `CreateTable`'s response.
#[derive(Debug, Clone, PartialEq)]
pub struct CreateTableOutput {
    /// The new table.
    pub table_description: TableDescription,
}

/// The lifecycle state of a table or index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableStatus {
    /// Being created.
    Creating,
    /// Being updated.
    Updating,
    /// Being deleted.
    Deleting,
    /// Ready.
    Active,
}

impl TableStatus {
    /// DynamoDB's name for it, e.g. `"ACTIVE"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TableStatus::Creating => "CREATING",
            TableStatus::Updating => "UPDATING",
            TableStatus::Deleting => "DELETING",
            TableStatus::Active => "ACTIVE",
        }
    }
}

/// Capacity settings as described by DynamoDB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ProvisionedThroughputDescription {
    /// Read capacity units (0 for on-demand tables).
    pub read_capacity_units: i64,
    /// Write capacity units (0 for on-demand tables).
    pub write_capacity_units: i64,
    /// Decreases so far today.
    pub number_of_decreases_today: i64,
    /// When the capacity was last increased.
    pub last_increase_date_time: Option<DateTime<Utc>>,
    /// When the capacity was last decreased.
    pub last_decrease_date_time: Option<DateTime<Utc>>,
}

/// A local secondary index as described by DynamoDB.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalSecondaryIndexDescription {
    /// The index's name.
    pub index_name: String,
    /// Its key schema.
    pub key_schema: Vec<KeySchemaElement>,
    /// Its projection.
    pub projection: Projection,
    /// Entries in the index.
    pub item_count: i64,
    /// Total size of the entries, in bytes.
    pub index_size_bytes: i64,
    /// The index's ARN.
    pub index_arn: String,
}

/// A global secondary index as described by DynamoDB.
#[derive(Debug, Clone, PartialEq)]
pub struct GlobalSecondaryIndexDescription {
    /// The index's name.
    pub index_name: String,
    /// Its key schema.
    pub key_schema: Vec<KeySchemaElement>,
    /// Its projection.
    pub projection: Projection,
    /// Its state.
    pub index_status: TableStatus,
    /// While `CREATING`: whether existing items are still being copied into it.
    pub backfilling: Option<bool>,
    /// Its capacity.
    pub provisioned_throughput: Option<ProvisionedThroughputDescription>,
    /// Entries in the index.
    pub item_count: i64,
    /// Total size of the entries, in bytes.
    pub index_size_bytes: i64,
    /// The index's ARN.
    pub index_arn: String,
}

/// A table as described by DynamoDB.
#[derive(Debug, Clone, PartialEq)]
pub struct TableDescription {
    /// The table's name.
    pub table_name: String,
    /// Its state.
    pub table_status: TableStatus,
    /// Types of the key attributes.
    pub attribute_definitions: Vec<AttributeDefinition>,
    /// The table's key schema.
    pub key_schema: Vec<KeySchemaElement>,
    /// When it was created.
    pub creation_date_time: DateTime<Utc>,
    /// Its capacity.
    pub provisioned_throughput: ProvisionedThroughputDescription,
    /// Billing mode, when DynamoDB reports it (`BillingModeSummary.BillingMode`).
    pub billing_mode: Option<BillingMode>,
    /// When the table last switched to on-demand (`BillingModeSummary.LastUpdateToPayPerRequestDateTime`).
    pub last_update_to_pay_per_request_date_time: Option<DateTime<Utc>>,
    /// Number of items (DynamoDB refreshes this about every six hours; the engine keeps it exact).
    pub item_count: i64,
    /// Total size of the items, in bytes.
    pub table_size_bytes: i64,
    /// The table's ARN.
    pub table_arn: String,
    /// The table's unique id.
    pub table_id: String,
    /// Local secondary indexes.
    pub local_secondary_indexes: Vec<LocalSecondaryIndexDescription>,
    /// Global secondary indexes.
    pub global_secondary_indexes: Vec<GlobalSecondaryIndexDescription>,
    /// The stream settings, when a stream is or was enabled.
    pub stream_specification: Option<StreamSpecification>,
    /// The ARN of the table's latest stream.
    pub latest_stream_arn: Option<String>,
    /// The label (a timestamp) of the table's latest stream.
    pub latest_stream_label: Option<String>,
    /// The storage class, when DynamoDB reports it (`TableClassSummary.TableClass`).
    pub table_class: Option<TableClass>,
    /// Whether DeleteTable is refused.
    pub deletion_protection_enabled: bool,
    /// For a table created by a restore: where from (`RestoreSummary`).
    pub restore_summary: Option<RestoreSummary>,
}

/// `DescribeTable`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DescribeTableInput {
    /// The table's name.
    pub table_name: String,
}

/// `DescribeTable`'s response.
#[derive(Debug, Clone, PartialEq)]
pub struct DescribeTableOutput {
    /// The table.
    pub table: TableDescription,
}

/// `ListTables`: table names in order, a page at a time.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListTablesInput {
    /// Start after this name (the previous page's `last_evaluated_table_name`).
    pub exclusive_start_table_name: Option<String>,
    /// At most this many names (1–100; DynamoDB's default is 100).
    pub limit: Option<i32>,
}

/// `ListTables`' response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListTablesOutput {
    /// The names, in order.
    pub table_names: Vec<String>,
    /// Present when more names follow.
    pub last_evaluated_table_name: Option<String>,
}

/// `DeleteTable`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DeleteTableInput {
    /// The table's name.
    pub table_name: String,
}

/// `DeleteTable`'s response.
#[derive(Debug, Clone, PartialEq)]
pub struct DeleteTableOutput {
    /// The table with status `DELETING`, as DynamoDB describes it there: name, ARN, id, throughput,
    /// billing summary, size and item count. DynamoDB sends no schema, indexes, stream or creation time
    /// in this answer, so those are empty (`creation_date_time` is the Unix epoch; DynamoDB Local fills
    /// them in); call `describe_table` before deleting for the rest.
    pub table_description: TableDescription,
}
