//! `UpdateTable` and the table settings it shares with `CreateTable`: streams, the table class.

use crate::backend::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, ProvisionedThroughput, TableDescription,
};

/// What a table's stream records of each change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamViewType {
    /// Only the key attributes of the changed item.
    KeysOnly,
    /// The item as it is after the change.
    NewImage,
    /// The item as it was before the change.
    OldImage,
    /// Both.
    NewAndOldImages,
}

impl StreamViewType {
    /// DynamoDB's name for it, e.g. `"NEW_AND_OLD_IMAGES"`.
    pub fn as_str(self) -> &'static str {
        match self {
            StreamViewType::KeysOnly => "KEYS_ONLY",
            StreamViewType::NewImage => "NEW_IMAGE",
            StreamViewType::OldImage => "OLD_IMAGE",
            StreamViewType::NewAndOldImages => "NEW_AND_OLD_IMAGES",
        }
    }
}

/// Whether a table has a stream, and what it records.
///
/// ```
/// use dynomodel::backend::{StreamSpecification, StreamViewType};
///
/// let on = StreamSpecification::enabled(StreamViewType::NewAndOldImages);
/// assert!(on.stream_enabled);
/// assert_eq!(StreamSpecification::disabled().stream_view_type, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StreamSpecification {
    /// Whether the stream is on.
    pub stream_enabled: bool,
    /// What it records (required when enabling; DynamoDB refuses it when disabling).
    pub stream_view_type: Option<StreamViewType>,
}

impl StreamSpecification {
    /// A stream recording `view`.
    pub fn enabled(view: StreamViewType) -> StreamSpecification {
        StreamSpecification {
            stream_enabled: true,
            stream_view_type: Some(view),
        }
    }

    /// No stream.
    pub fn disabled() -> StreamSpecification {
        StreamSpecification {
            stream_enabled: false,
            stream_view_type: None,
        }
    }
}

/// A table's storage class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableClass {
    /// DynamoDB Standard, the default.
    Standard,
    /// DynamoDB Standard-Infrequent Access.
    StandardInfrequentAccess,
}

impl TableClass {
    /// DynamoDB's name for it: `"STANDARD"` or `"STANDARD_INFREQUENT_ACCESS"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TableClass::Standard => "STANDARD",
            TableClass::StandardInfrequentAccess => "STANDARD_INFREQUENT_ACCESS",
        }
    }
}

/// A global secondary index's new capacity (`UpdateGlobalSecondaryIndexAction`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateGlobalSecondaryIndexAction {
    /// The index.
    pub index_name: String,
    /// Its new capacity.
    pub provisioned_throughput: ProvisionedThroughput,
}

/// One change to a table's global secondary indexes. DynamoDB's `GlobalSecondaryIndexUpdate` is a
/// structure with three optional members of which exactly one is set; here it is an enum, so a request
/// with none or two cannot be built (the server's wire layer refuses those with DynamoDB's error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GlobalSecondaryIndexUpdate {
    /// Add an index (`CreateGlobalSecondaryIndexAction`): existing items are backfilled into it.
    Create(GlobalSecondaryIndex),
    /// Change an index's provisioned throughput.
    Update(UpdateGlobalSecondaryIndexAction),
    /// Remove the index with this name (`DeleteGlobalSecondaryIndexAction`).
    Delete {
        /// The index.
        index_name: String,
    },
}

/// `UpdateTable`: every member but the table's name is optional, and only what is present changes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UpdateTableInput {
    /// The table's name (or ARN).
    pub table_name: String,
    /// Types of the key attributes of the indexes being created.
    pub attribute_definitions: Vec<AttributeDefinition>,
    /// A new billing mode.
    pub billing_mode: Option<BillingMode>,
    /// The table's new capacity.
    pub provisioned_throughput: Option<ProvisionedThroughput>,
    /// Index changes (DynamoDB takes one create or delete per request).
    pub global_secondary_index_updates: Vec<GlobalSecondaryIndexUpdate>,
    /// Turn the stream on or off.
    pub stream_specification: Option<StreamSpecification>,
    /// A new storage class.
    pub table_class: Option<TableClass>,
    /// Turn deletion protection on or off.
    pub deletion_protection_enabled: Option<bool>,
}

/// `UpdateTable`'s response.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdateTableOutput {
    /// The table, typically `UPDATING`, with any new index `CREATING`.
    pub table_description: TableDescription,
}
