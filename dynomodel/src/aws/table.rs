//! Table requests and descriptions, converted between dynomodel and `aws-sdk-dynamodb`.
//!
//! Requests are built field by field; descriptions are read field by field. Fields the SDK models as
//! optional but dynomodel's [`TableDescription`] holds as plain values (counts, sizes, ARNs, the
//! provisioned throughput) default to zero or empty when a DynamoDB-compatible server omits them (some
//! emulators do); the table name, status and key schema are required and their absence is an error.

use aws_sdk_dynamodb::types as sdk;
use chrono::{DateTime, Utc};

use crate::backend::*;
use crate::error::{ConversionError, Error, Result};

/// Turns an SDK builder failure into an error. The SDK only fails to build a value when a required field
/// is missing, and every builder below sets all of them, so this is a bug report rather than user error.
pub(crate) fn built<T>(
    result: Result<T, aws_smithy_types::error::operation::BuildError>,
) -> Result<T> {
    result.map_err(|e| Error::Transport(format!("building the request failed: {e}")))
}

/// Converts each element; an empty list is sent as absent (DynamoDB rejects empty lists such as
/// `Tags: []` or `GlobalSecondaryIndexUpdates: []`, and the SDKs omit them).
pub(crate) fn list<T, U>(items: &[T], convert: impl Fn(&T) -> Result<U>) -> Result<Option<Vec<U>>> {
    if items.is_empty() {
        return Ok(None);
    }
    items.iter().map(convert).collect::<Result<_>>().map(Some)
}

/// Converts an optional member.
pub(crate) fn optional<T, U>(
    item: &Option<T>,
    convert: impl Fn(&T) -> Result<U>,
) -> Result<Option<U>> {
    item.as_ref().map(convert).transpose()
}

pub(crate) fn table_class(c: TableClass) -> sdk::TableClass {
    sdk::TableClass::from(c.as_str())
}

pub(crate) fn attribute_definition(d: &AttributeDefinition) -> Result<sdk::AttributeDefinition> {
    built(
        sdk::AttributeDefinition::builder()
            .attribute_name(&d.attribute_name)
            .attribute_type(sdk::ScalarAttributeType::from(d.attribute_type.as_str()))
            .build(),
    )
}

pub(crate) fn key_schema(elements: &[KeySchemaElement]) -> Result<Vec<sdk::KeySchemaElement>> {
    elements
        .iter()
        .map(|e| {
            built(
                sdk::KeySchemaElement::builder()
                    .attribute_name(&e.attribute_name)
                    .key_type(sdk::KeyType::from(e.key_type.as_str()))
                    .build(),
            )
        })
        .collect()
}

pub(crate) fn projection(p: &Projection) -> sdk::Projection {
    sdk::Projection::builder()
        .projection_type(sdk::ProjectionType::from(p.projection_type.as_str()))
        // An empty list is sent as absent: DynamoDB rejects `NonKeyAttributes: []`.
        .set_non_key_attributes(
            (!p.non_key_attributes.is_empty()).then(|| p.non_key_attributes.clone()),
        )
        .build()
}

pub(crate) fn throughput(t: &ProvisionedThroughput) -> Result<sdk::ProvisionedThroughput> {
    built(
        sdk::ProvisionedThroughput::builder()
            .read_capacity_units(t.read_capacity_units)
            .write_capacity_units(t.write_capacity_units)
            .build(),
    )
}

pub(crate) fn local_index(i: &LocalSecondaryIndex) -> Result<sdk::LocalSecondaryIndex> {
    built(
        sdk::LocalSecondaryIndex::builder()
            .index_name(&i.index_name)
            .set_key_schema(Some(key_schema(&i.key_schema)?))
            .projection(projection(&i.projection))
            .build(),
    )
}

pub(crate) fn global_index(i: &GlobalSecondaryIndex) -> Result<sdk::GlobalSecondaryIndex> {
    built(
        sdk::GlobalSecondaryIndex::builder()
            .index_name(&i.index_name)
            .set_key_schema(Some(key_schema(&i.key_schema)?))
            .projection(projection(&i.projection))
            .set_provisioned_throughput(
                i.provisioned_throughput
                    .as_ref()
                    .map(throughput)
                    .transpose()?,
            )
            .build(),
    )
}

/// A new global secondary index, as UpdateTable's `CreateGlobalSecondaryIndexAction`.
pub(crate) fn global_index_action(
    i: &GlobalSecondaryIndex,
) -> Result<sdk::CreateGlobalSecondaryIndexAction> {
    built(
        sdk::CreateGlobalSecondaryIndexAction::builder()
            .index_name(&i.index_name)
            .set_key_schema(Some(key_schema(&i.key_schema)?))
            .projection(projection(&i.projection))
            .set_provisioned_throughput(
                i.provisioned_throughput
                    .as_ref()
                    .map(throughput)
                    .transpose()?,
            )
            .build(),
    )
}

pub(crate) fn billing_mode(m: BillingMode) -> sdk::BillingMode {
    sdk::BillingMode::from(m.as_str())
}

/// A field DynamoDB always sends was missing or held a value this crate has no variant for.
pub(crate) fn unexpected(expected: &str, found: impl Into<String>) -> Error {
    Error::Conversion(ConversionError::new(expected, found))
}

fn scalar_type(t: &sdk::ScalarAttributeType) -> Result<ScalarAttributeType> {
    Ok(match t {
        sdk::ScalarAttributeType::S => ScalarAttributeType::S,
        sdk::ScalarAttributeType::N => ScalarAttributeType::N,
        sdk::ScalarAttributeType::B => ScalarAttributeType::B,
        other => return Err(unexpected("a key attribute type (S, N, B)", other.as_str())),
    })
}

pub(crate) fn key_schema_from(elements: &[sdk::KeySchemaElement]) -> Result<Vec<KeySchemaElement>> {
    elements
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
        .collect()
}

pub(crate) fn projection_from(p: Option<&sdk::Projection>) -> Result<Projection> {
    let p = p.ok_or_else(|| unexpected("an index projection", "nothing"))?;
    let projection_type = match p.projection_type() {
        Some(sdk::ProjectionType::All) => ProjectionType::All,
        Some(sdk::ProjectionType::KeysOnly) => ProjectionType::KeysOnly,
        Some(sdk::ProjectionType::Include) => ProjectionType::Include,
        other => {
            return Err(unexpected(
                "a projection type (ALL, KEYS_ONLY, INCLUDE)",
                format!("{other:?}"),
            ))
        }
    };
    Ok(Projection {
        projection_type,
        non_key_attributes: p.non_key_attributes().to_vec(),
    })
}

fn throughput_from(t: &sdk::ProvisionedThroughputDescription) -> ProvisionedThroughputDescription {
    ProvisionedThroughputDescription {
        read_capacity_units: t.read_capacity_units().unwrap_or(0),
        write_capacity_units: t.write_capacity_units().unwrap_or(0),
        number_of_decreases_today: t.number_of_decreases_today().unwrap_or(0),
        last_increase_date_time: t.last_increase_date_time().map(|t| time_from(Some(t))),
        last_decrease_date_time: t.last_decrease_date_time().map(|t| time_from(Some(t))),
    }
}

/// Table and index states. DynamoDB also has `ARCHIVING`, `ARCHIVED`,
/// `INACCESSIBLE_ENCRYPTION_CREDENTIALS` and `REPLICATION_NOT_AUTHORIZED`, which [`TableStatus`] has no
/// variant for; they are reported as a conversion error naming the status rather than mislabelled.
fn status_from(status: &str) -> Result<TableStatus> {
    Ok(match status {
        "CREATING" => TableStatus::Creating,
        "UPDATING" => TableStatus::Updating,
        "DELETING" => TableStatus::Deleting,
        "ACTIVE" => TableStatus::Active,
        other => {
            return Err(unexpected(
                "a table status dynomodel models (CREATING, UPDATING, DELETING, ACTIVE)",
                other,
            ))
        }
    })
}

pub(crate) fn time_from(t: Option<&aws_smithy_types::DateTime>) -> DateTime<Utc> {
    t.and_then(|t| DateTime::from_timestamp(t.secs(), t.subsec_nanos()))
        .unwrap_or(DateTime::UNIX_EPOCH)
}

/// Converts DynamoDB's description of a table.
pub(crate) fn description_from(t: sdk::TableDescription) -> Result<TableDescription> {
    let table_name = t
        .table_name()
        .ok_or_else(|| unexpected("a table name", "nothing"))?
        .to_owned();
    let table_status = status_from(
        t.table_status()
            .ok_or_else(|| unexpected("a table status", "nothing"))?
            .as_str(),
    )?;
    let attribute_definitions = t
        .attribute_definitions()
        .iter()
        .map(|d| {
            Ok(AttributeDefinition {
                attribute_name: d.attribute_name().to_owned(),
                attribute_type: scalar_type(d.attribute_type())?,
            })
        })
        .collect::<Result<_>>()?;
    let billing_mode = match t.billing_mode_summary().and_then(|s| s.billing_mode()) {
        None => None,
        Some(sdk::BillingMode::Provisioned) => Some(BillingMode::Provisioned),
        Some(sdk::BillingMode::PayPerRequest) => Some(BillingMode::PayPerRequest),
        Some(other) => return Err(unexpected("a billing mode", other.as_str())),
    };
    let last_update_to_pay_per_request_date_time = t
        .billing_mode_summary()
        .and_then(|s| s.last_update_to_pay_per_request_date_time())
        .map(|t| time_from(Some(t)));
    let table_class = match t.table_class_summary().and_then(|s| s.table_class()) {
        None => None,
        Some(sdk::TableClass::Standard) => Some(TableClass::Standard),
        Some(sdk::TableClass::StandardInfrequentAccess) => {
            Some(TableClass::StandardInfrequentAccess)
        }
        Some(other) => return Err(unexpected("a table class", other.as_str())),
    };
    let stream_specification = t
        .stream_specification()
        .map(stream_specification_from)
        .transpose()?;
    let local_secondary_indexes = t
        .local_secondary_indexes()
        .iter()
        .map(|i| {
            Ok(LocalSecondaryIndexDescription {
                index_name: i.index_name().unwrap_or_default().to_owned(),
                key_schema: key_schema_from(i.key_schema())?,
                projection: projection_from(i.projection())?,
                item_count: i.item_count().unwrap_or(0),
                index_size_bytes: i.index_size_bytes().unwrap_or(0),
                index_arn: i.index_arn().unwrap_or_default().to_owned(),
            })
        })
        .collect::<Result<_>>()?;
    let global_secondary_indexes = t
        .global_secondary_indexes()
        .iter()
        .map(|i| {
            Ok(GlobalSecondaryIndexDescription {
                index_name: i.index_name().unwrap_or_default().to_owned(),
                key_schema: key_schema_from(i.key_schema())?,
                projection: projection_from(i.projection())?,
                index_status: status_from(
                    i.index_status()
                        .ok_or_else(|| unexpected("an index status", "nothing"))?
                        .as_str(),
                )?,
                backfilling: i.backfilling(),
                provisioned_throughput: i.provisioned_throughput().map(throughput_from),
                item_count: i.item_count().unwrap_or(0),
                index_size_bytes: i.index_size_bytes().unwrap_or(0),
                index_arn: i.index_arn().unwrap_or_default().to_owned(),
            })
        })
        .collect::<Result<_>>()?;
    let restore_summary = t.restore_summary().map(super::backup::restore_summary_from);
    Ok(TableDescription {
        restore_summary,
        table_name,
        table_status,
        attribute_definitions,
        key_schema: key_schema_from(t.key_schema())?,
        creation_date_time: time_from(t.creation_date_time()),
        provisioned_throughput: t
            .provisioned_throughput()
            .map(throughput_from)
            .unwrap_or_default(),
        billing_mode,
        item_count: t.item_count().unwrap_or(0),
        table_size_bytes: t.table_size_bytes().unwrap_or(0),
        table_arn: t.table_arn().unwrap_or_default().to_owned(),
        table_id: t.table_id().unwrap_or_default().to_owned(),
        local_secondary_indexes,
        global_secondary_indexes,
        stream_specification,
        latest_stream_arn: t.latest_stream_arn,
        latest_stream_label: t.latest_stream_label,
        last_update_to_pay_per_request_date_time,
        table_class,
        deletion_protection_enabled: t.deletion_protection_enabled.unwrap_or(false),
    })
}

/// Converts a stream specification from DynamoDB.
pub(crate) fn stream_specification_from(
    s: &sdk::StreamSpecification,
) -> Result<StreamSpecification> {
    let stream_view_type = match s.stream_view_type() {
        None => None,
        Some(sdk::StreamViewType::KeysOnly) => Some(StreamViewType::KeysOnly),
        Some(sdk::StreamViewType::NewImage) => Some(StreamViewType::NewImage),
        Some(sdk::StreamViewType::OldImage) => Some(StreamViewType::OldImage),
        Some(sdk::StreamViewType::NewAndOldImages) => Some(StreamViewType::NewAndOldImages),
        Some(other) => return Err(unexpected("a stream view type", other.as_str())),
    };
    Ok(StreamSpecification {
        stream_enabled: s.stream_enabled(),
        stream_view_type,
    })
}

/// A stream specification for DynamoDB.
pub(crate) fn stream_specification(s: &StreamSpecification) -> Result<sdk::StreamSpecification> {
    built(
        sdk::StreamSpecification::builder()
            .stream_enabled(s.stream_enabled)
            .set_stream_view_type(
                s.stream_view_type
                    .map(|v| sdk::StreamViewType::from(v.as_str())),
            )
            .build(),
    )
}

/// A tag for DynamoDB.
pub(crate) fn tag(t: &Tag) -> Result<sdk::Tag> {
    built(sdk::Tag::builder().key(&t.key).value(&t.value).build())
}

/// Converts a description that DynamoDB always sends in this response.
pub(crate) fn required_description(t: Option<sdk::TableDescription>) -> Result<TableDescription> {
    description_from(t.ok_or_else(|| unexpected("a table description", "nothing"))?)
}
