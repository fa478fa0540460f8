//! CreateTable, DescribeTable, ListTables and DeleteTable on the wire, and the structures UpdateTable
//! shares with CreateTable (key schemas, projections, throughput, streams, tags).
//!
//! Members DynamoDB accepts but the [`Backend`] has no field for (`SSESpecification`,
//! `OnDemandThroughput`, `ResourcePolicy`, …) are ignored, as unknown members are. The descriptions'
//! JSON is in `description.rs`.

use dynomodel::backend::{
    AttributeDefinition, Backend, BillingMode, CreateTableInput, DeleteTableInput,
    DescribeTableInput, GlobalSecondaryIndex, KeySchemaElement, KeyType, ListTablesInput,
    LocalSecondaryIndex, Projection, ProjectionType, ProvisionedThroughput, ScalarAttributeType,
    StreamSpecification, StreamViewType, TableClass, Tag,
};
use serde_json::{json, Map, Value};

use super::description::{deleted_table_description, table_description};
use super::types;
use super::{Decoder, Members, WireResult};

pub(super) const ATTRIBUTE_TYPES: &[(&str, ScalarAttributeType)] = &[
    ("B", ScalarAttributeType::B),
    ("N", ScalarAttributeType::N),
    ("S", ScalarAttributeType::S),
];
const KEY_TYPES: &[(&str, KeyType)] = &[("HASH", KeyType::Hash), ("RANGE", KeyType::Range)];
pub(super) const BILLING_MODES: &[(&str, BillingMode)] = &[
    ("PROVISIONED", BillingMode::Provisioned),
    ("PAY_PER_REQUEST", BillingMode::PayPerRequest),
];
const PROJECTION_TYPES: &[(&str, ProjectionType)] = &[
    ("ALL", ProjectionType::All),
    ("INCLUDE", ProjectionType::Include),
    ("KEYS_ONLY", ProjectionType::KeysOnly),
];
// The enums' value sets in botocore's model order (DynamoDB lists them so in its messages).
const STREAM_VIEW_TYPES: &[(&str, StreamViewType)] = &[
    ("NEW_IMAGE", StreamViewType::NewImage),
    ("OLD_IMAGE", StreamViewType::OldImage),
    ("NEW_AND_OLD_IMAGES", StreamViewType::NewAndOldImages),
    ("KEYS_ONLY", StreamViewType::KeysOnly),
];
pub(super) const TABLE_CLASSES: &[(&str, TableClass)] = &[
    ("STANDARD", TableClass::Standard),
    (
        "STANDARD_INFREQUENT_ACCESS",
        TableClass::StandardInfrequentAccess,
    ),
];

/// The `KeySchema` member.
pub(super) fn key_schema(m: &Members<'_>, d: &mut Decoder) -> WireResult<Vec<KeySchemaElement>> {
    let elements = m.each("KeySchema", d, |e, d| {
        let attribute_name = e.required_string("AttributeName", d)?;
        let key_type = e.required_enumeration("KeyType", KEY_TYPES, d)?;
        Ok(key_type.map(|key_type| KeySchemaElement {
            attribute_name,
            key_type,
        }))
    })?;
    match elements {
        Some(elements) => Ok(elements.into_iter().flatten().collect()),
        None => {
            d.null(&m.path_of("KeySchema"));
            Ok(Vec::new())
        }
    }
}

/// The `ProvisionedThroughput` member (its bounds: `model` for UpdateTable, the backend for
/// CreateTable).
pub(super) fn throughput(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Option<ProvisionedThroughput>> {
    let Some(t) = m.structure("ProvisionedThroughput")? else {
        return Ok(None);
    };
    let units = |name: &str, d: &mut Decoder| -> WireResult<i64> {
        match t.get(name) {
            Some(v) => types::long(v, "an Long"),
            None => {
                d.null(&t.path_of(name));
                Ok(0)
            }
        }
    };
    // DynamoDB lists write before read in its messages.
    let write_capacity_units = units("WriteCapacityUnits", d)?;
    let read_capacity_units = units("ReadCapacityUnits", d)?;
    Ok(Some(ProvisionedThroughput {
        read_capacity_units,
        write_capacity_units,
    }))
}

pub(super) fn projection(m: &Members<'_>, d: &mut Decoder) -> WireResult<Projection> {
    let Some(p) = m.structure("Projection")? else {
        d.null(&m.path_of("Projection"));
        return Ok(Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: Vec::new(),
        });
    };
    let projection_type = match p.get("ProjectionType") {
        Some(_) => p.enumeration("ProjectionType", PROJECTION_TYPES, d)?,
        None => {
            d.custom("One or more parameter values were invalid: Unknown ProjectionType: null");
            None
        }
    };
    let mut non_key_attributes = Vec::new();
    for v in p.list("NonKeyAttributes")?.into_iter().flatten() {
        non_key_attributes.push(types::string(v)?);
    }
    Ok(Projection {
        projection_type: projection_type.unwrap_or(ProjectionType::All),
        non_key_attributes,
    })
}

/// The `StreamSpecification` member: `StreamEnabled` is required, `StreamViewType` an enum.
pub(super) fn stream_specification(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Option<StreamSpecification>> {
    let Some(s) = m.structure("StreamSpecification")? else {
        return Ok(None);
    };
    let stream_enabled = match s.boolean("StreamEnabled")? {
        Some(enabled) => enabled,
        None => {
            d.null(&s.path_of("StreamEnabled"));
            false
        }
    };
    let stream_view_type = s.enumeration("StreamViewType", STREAM_VIEW_TYPES, d)?;
    Ok(Some(StreamSpecification {
        stream_enabled,
        stream_view_type,
    }))
}

/// One `Tag` of a `Tags` list: `Key` and `Value` required. Their lengths (1–128, 0–256) and
/// characters are the backend's checks, with the service's "The Tag Key provided is invalid, Key: …"
/// (the engine's `tags.rs` cites captures of the service for it), so that the engine and the server
/// answer alike; an older observation quotes the smithy form for an empty key instead ("1 validation
/// error detected: Value '' at 'tags.1.member.key' …", scylladb/scylladb#16904, 2024).
pub(super) fn tag(t: Members<'_>, d: &mut Decoder) -> WireResult<Tag> {
    let key = t.required_string("Key", d)?;
    let value = t.required_string("Value", d)?;
    Ok(Tag { key, value })
}

pub(super) async fn create_table(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let attribute_definitions = m.each("AttributeDefinitions", &mut d, |e, d| {
        let attribute_name = e.required_string("AttributeName", d)?;
        let ty = e.required_enumeration("AttributeType", ATTRIBUTE_TYPES, d)?;
        Ok(ty.map(|attribute_type| AttributeDefinition {
            attribute_name,
            attribute_type,
        }))
    })?;
    let attribute_definitions = match attribute_definitions {
        Some(defs) => defs.into_iter().flatten().collect(),
        None => {
            d.null("attributeDefinitions");
            Vec::new()
        }
    };
    let table_name = m.required_string("TableName", &mut d)?;
    let table_key_schema = key_schema(&m, &mut d)?;
    let billing_mode = m.enumeration("BillingMode", BILLING_MODES, &mut d)?;
    let provisioned_throughput = throughput(&m, &mut d)?;
    let local_secondary_indexes = m
        .each("LocalSecondaryIndexes", &mut d, |e, d| {
            Ok(LocalSecondaryIndex {
                index_name: e.required_string("IndexName", d)?,
                key_schema: key_schema(&e, d)?,
                projection: projection(&e, d)?,
            })
        })?
        .unwrap_or_default();
    let global_secondary_indexes = m
        .each("GlobalSecondaryIndexes", &mut d, |e, d| {
            Ok(GlobalSecondaryIndex {
                index_name: e.required_string("IndexName", d)?,
                key_schema: key_schema(&e, d)?,
                projection: projection(&e, d)?,
                provisioned_throughput: throughput(&e, d)?,
            })
        })?
        .unwrap_or_default();
    let stream_specification = stream_specification(&m, &mut d)?;
    let tags = m.each("Tags", &mut d, tag)?.unwrap_or_default();
    let table_class = m.enumeration("TableClass", TABLE_CLASSES, &mut d)?;
    let deletion_protection_enabled = m.boolean("DeletionProtectionEnabled")?;
    let input = d.finish(CreateTableInput {
        table_name,
        attribute_definitions,
        key_schema: table_key_schema,
        billing_mode,
        provisioned_throughput,
        local_secondary_indexes,
        global_secondary_indexes,
        stream_specification,
        table_class,
        deletion_protection_enabled,
        tags,
    })?;
    let out = backend.create_table(input).await?;
    Ok(json!({ "TableDescription": table_description(&out.table_description) }))
}

pub(super) async fn describe_table(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = m.required_string("TableName", &mut d)?;
    let input = d.finish(DescribeTableInput { table_name })?;
    let out = backend.describe_table(input).await?;
    Ok(json!({ "Table": table_description(&out.table) }))
}

pub(super) async fn delete_table(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = m.required_string("TableName", &mut d)?;
    let input = d.finish(DeleteTableInput { table_name })?;
    let out = backend.delete_table(input).await?;
    Ok(json!({ "TableDescription": deleted_table_description(&out.table_description) }))
}

pub(super) async fn list_tables(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let input = ListTablesInput {
        exclusive_start_table_name: m.string("ExclusiveStartTableName")?,
        limit: m.integer("Limit")?,
    };
    let out = backend.list_tables(input).await?;
    let mut body = Map::new();
    body.insert("TableNames".into(), json!(out.table_names));
    if let Some(last) = out.last_evaluated_table_name {
        body.insert("LastEvaluatedTableName".into(), Value::String(last));
    }
    Ok(Value::Object(body))
}
