//! What CreateTable fixed about a table (its name, keys, indexes' definitions, billing, ARN): what
//! the table's items and its secondary indexes are built from.

use chrono::{DateTime, Utc};
use dynomodel::backend::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, LocalSecondaryIndex,
    ProvisionedThroughput, ScalarAttributeType, StreamSpecification, TableClass,
};

/// Everything CreateTable fixed about a table.
#[derive(Debug, Clone)]
pub(crate) struct TableSchema {
    /// The table's name.
    pub name: String,
    /// Types of the key attributes of the table and its indexes, in request order.
    pub attribute_definitions: Vec<AttributeDefinition>,
    /// HASH then optional RANGE (validated).
    pub key_schema: Vec<KeySchemaElement>,
    /// As requested (`None`: DynamoDB's default, provisioned).
    pub billing_mode: Option<BillingMode>,
    /// Capacity of a provisioned table.
    pub provisioned_throughput: Option<ProvisionedThroughput>,
    /// Local secondary index definitions.
    pub local_secondary_indexes: Vec<LocalSecondaryIndex>,
    /// Global secondary index definitions.
    pub global_secondary_indexes: Vec<GlobalSecondaryIndex>,
    /// When the table was created.
    pub created: DateTime<Utc>,
    /// A unique id in UUID form.
    pub table_id: String,
    /// `arn:aws:dynamodb:<region>:<account>:table/<name>`.
    pub arn: String,
    /// The stream settings, as last set.
    pub stream_specification: Option<StreamSpecification>,
    /// The storage class, as requested.
    pub table_class: Option<TableClass>,
    /// Whether DeleteTable is refused.
    pub deletion_protection_enabled: bool,
}

impl TableSchema {
    /// The key attributes, partition key first, with their declared types.
    pub(crate) fn key_attributes(&self) -> impl Iterator<Item = (&str, ScalarAttributeType)> + '_ {
        self.key_schema.iter().map(move |k| {
            let name = k.attribute_name.as_str();
            (name, self.attribute_type(name))
        })
    }

    /// The declared type of `name`. CreateTable validation guarantees every key attribute is defined; the
    /// fallback only keeps this total.
    pub(crate) fn attribute_type(&self, name: &str) -> ScalarAttributeType {
        self.attribute_definitions
            .iter()
            .find(|d| d.attribute_name == name)
            .map_or(ScalarAttributeType::S, |d| d.attribute_type)
    }

    /// Whether the table bills per request.
    pub(crate) fn is_on_demand(&self) -> bool {
        self.billing_mode == Some(BillingMode::PayPerRequest)
    }
}
