//! The DynamoDB API's JSON shapes of a table's parts (key schema, attribute definitions, indexes,
//! throughput, tags), which CloudFormation's `AWS::DynamoDB::Table` properties share, and
//! [`requests`]: the API requests that create the tables.

use serde_json::{json, Map, Value};

use crate::backend::{
    AttributeDefinition, CreateTableInput, GlobalSecondaryIndex, KeySchemaElement,
    LocalSecondaryIndex, Projection, ProjectionType, ProvisionedThroughput, Tag,
};
use crate::migrate::definition::Definition;

pub(super) fn attribute_definitions(definitions: &[AttributeDefinition]) -> Value {
    definitions
        .iter()
        .map(|d| {
            json!({
                "AttributeName": d.attribute_name,
                "AttributeType": d.attribute_type.as_str(),
            })
        })
        .collect()
}

pub(super) fn key_schema(keys: &[KeySchemaElement]) -> Value {
    keys.iter()
        .map(|k| json!({ "AttributeName": k.attribute_name, "KeyType": k.key_type.as_str() }))
        .collect()
}

pub(super) fn projection(projection: &Projection) -> Value {
    let mut out = Map::new();
    out.insert(
        "ProjectionType".into(),
        projection.projection_type.as_str().into(),
    );
    if projection.projection_type == ProjectionType::Include {
        out.insert(
            "NonKeyAttributes".into(),
            projection.non_key_attributes.clone().into(),
        );
    }
    Value::Object(out)
}

pub(super) fn throughput(throughput: ProvisionedThroughput) -> Value {
    json!({
        "ReadCapacityUnits": throughput.read_capacity_units,
        "WriteCapacityUnits": throughput.write_capacity_units,
    })
}

pub(super) fn global_indexes(indexes: &[GlobalSecondaryIndex]) -> Value {
    indexes
        .iter()
        .map(|index| {
            let mut out = Map::new();
            out.insert("IndexName".into(), index.index_name.clone().into());
            out.insert("KeySchema".into(), key_schema(&index.key_schema));
            out.insert("Projection".into(), projection(&index.projection));
            if let Some(t) = index.provisioned_throughput {
                out.insert("ProvisionedThroughput".into(), throughput(t));
            }
            Value::Object(out)
        })
        .collect()
}

pub(super) fn local_indexes(indexes: &[LocalSecondaryIndex]) -> Value {
    indexes
        .iter()
        .map(|index| {
            json!({
                "IndexName": index.index_name,
                "KeySchema": key_schema(&index.key_schema),
                "Projection": projection(&index.projection),
            })
        })
        .collect()
}

pub(super) fn tags(tags: &[Tag]) -> Value {
    tags.iter()
        .map(|t| json!({ "Key": t.key, "Value": t.value }))
        .collect()
}

/// The members CloudFormation's table properties and CreateTable's input share, each only where
/// the schema sets it (the billing mode always: DynamoDB's default is `PROVISIONED`, which a
/// reader should not have to know).
pub(super) fn shared_members(schema: &CreateTableInput) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("TableName".into(), schema.table_name.clone().into());
    out.insert(
        "AttributeDefinitions".into(),
        attribute_definitions(&schema.attribute_definitions),
    );
    out.insert("KeySchema".into(), key_schema(&schema.key_schema));
    out.insert(
        "BillingMode".into(),
        schema
            .billing_mode
            .unwrap_or(crate::backend::BillingMode::Provisioned)
            .as_str()
            .into(),
    );
    if let Some(t) = schema.provisioned_throughput {
        out.insert("ProvisionedThroughput".into(), throughput(t));
    }
    if !schema.global_secondary_indexes.is_empty() {
        out.insert(
            "GlobalSecondaryIndexes".into(),
            global_indexes(&schema.global_secondary_indexes),
        );
    }
    if !schema.local_secondary_indexes.is_empty() {
        out.insert(
            "LocalSecondaryIndexes".into(),
            local_indexes(&schema.local_secondary_indexes),
        );
    }
    if let Some(class) = schema.table_class {
        out.insert("TableClass".into(), class.as_str().into());
    }
    if let Some(enabled) = schema.deletion_protection_enabled {
        out.insert("DeletionProtectionEnabled".into(), enabled.into());
    }
    if !schema.tags.is_empty() {
        out.insert("Tags".into(), tags(&schema.tags));
    }
    out
}

/// CreateTable's input as the API takes it.
fn create_table(schema: &CreateTableInput) -> Value {
    let mut out = shared_members(schema);
    if let Some(spec) = schema.stream_specification.filter(|s| s.stream_enabled) {
        let mut stream = Map::new();
        stream.insert("StreamEnabled".into(), true.into());
        if let Some(view) = spec.stream_view_type {
            stream.insert("StreamViewType".into(), view.as_str().into());
        }
        out.insert("StreamSpecification".into(), Value::Object(stream));
    }
    Value::Object(out)
}

/// For each table, `{"CreateTable": …, "UpdateTimeToLive": …, "UpdateContinuousBackups": …}` (the
/// last two only where the model has them), pretty-printed, ending in a newline.
pub(super) fn requests(tables: &[Definition]) -> String {
    let tables: Vec<Value> = tables
        .iter()
        .map(|definition| {
            let name = definition.table_name();
            let mut out = Map::new();
            out.insert("CreateTable".into(), create_table(&definition.schema));
            if let Some(attribute) = &definition.ttl_attribute {
                out.insert(
                    "UpdateTimeToLive".into(),
                    json!({
                        "TableName": name,
                        "TimeToLiveSpecification": { "AttributeName": attribute, "Enabled": true },
                    }),
                );
            }
            if let Some(recovery) = &definition.point_in_time_recovery {
                out.insert(
                    "UpdateContinuousBackups".into(),
                    json!({
                        "TableName": name,
                        "PointInTimeRecoverySpecification": recovery_specification(
                            recovery.recovery_period_in_days,
                        ),
                    }),
                );
            }
            Value::Object(out)
        })
        .collect();
    pretty(&json!({ "Tables": tables }))
}

/// `PointInTimeRecoverySpecification`, on, in the API's and CloudFormation's shared shape.
pub(super) fn recovery_specification(days: Option<i32>) -> Value {
    let mut out = Map::new();
    out.insert("PointInTimeRecoveryEnabled".into(), true.into());
    if let Some(days) = days {
        out.insert("RecoveryPeriodInDays".into(), days.into());
    }
    Value::Object(out)
}

/// Two-space indented JSON with a final newline. Serializing a `Value` cannot fail (its keys are
/// strings); should it ever, the compact form is still the same document.
pub(super) fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string());
    text.push('\n');
    text
}
