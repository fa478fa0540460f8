//! CreateBackup, DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup,
//! DescribeContinuousBackups, UpdateContinuousBackups and RestoreTableToPointInTime on the wire.
//!
//! The model's constraints (checked before decoding, by `model`): `TableName`/`BackupName` 3–255
//! characters of `[a-zA-Z0-9_.-]+` (`TableName` also an ARN of up to 1024), `BackupArn` 37–1024,
//! `Limit` 1–100, `RecoveryPeriodInDays` 1–35, the enums' value sets. Timestamps travel as epoch
//! seconds (a JSON number). `OnDemandThroughput…` overrides are ignored, as CreateTable ignores
//! members the [`Backend`] has no field for. The responses' shapes are the API reference's.

use dynomodel::backend::{
    Backend, BackupDescription, BackupDetails, BackupSummary, BackupTypeFilter,
    ContinuousBackupsDescription, CreateBackupInput, DeleteBackupInput, DescribeBackupInput,
    DescribeContinuousBackupsInput, GlobalSecondaryIndex, ListBackupsInput, LocalSecondaryIndex,
    PointInTimeRecoverySpecification, ProvisionedThroughput, RestoreOverrides,
    RestoreTableFromBackupInput, RestoreTableToPointInTimeInput, SseSpecification,
    UpdateContinuousBackupsInput,
};
use serde_json::{json, Map, Value};

use super::description::{epoch_seconds, key_schema_json, projection_json, table_description};
use super::table::{key_schema, projection, throughput, BILLING_MODES};
use super::update_table::table_arn;
use super::{types, Decoder, Members, WireResult};

const BACKUP_TYPE_FILTERS: &[(&str, BackupTypeFilter)] = &[
    ("USER", BackupTypeFilter::User),
    ("SYSTEM", BackupTypeFilter::System),
    ("AWS_BACKUP", BackupTypeFilter::AwsBackup),
    ("ALL", BackupTypeFilter::All),
];

/// An optional `Timestamp` member.
fn timestamp(m: &Members<'_>, name: &str) -> WireResult<Option<chrono::DateTime<chrono::Utc>>> {
    m.get(name).map(types::timestamp).transpose()
}

pub(super) async fn create_backup(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = table_arn(&m, &mut d)?;
    let backup_name = m.required_string("BackupName", &mut d)?;
    let input = d.finish(CreateBackupInput {
        table_name,
        backup_name,
    })?;
    let out = backend.create_backup(input).await?;
    Ok(json!({ "BackupDetails": details_json(&out.backup_details) }))
}

pub(super) async fn describe_backup(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let backup_arn = m.required_string("BackupArn", &mut d)?;
    let input = d.finish(DescribeBackupInput { backup_arn })?;
    let out = backend.describe_backup(input).await?;
    Ok(json!({ "BackupDescription": description_json(&out.backup_description) }))
}

pub(super) async fn delete_backup(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let backup_arn = m.required_string("BackupArn", &mut d)?;
    let input = d.finish(DeleteBackupInput { backup_arn })?;
    let out = backend.delete_backup(input).await?;
    Ok(json!({ "BackupDescription": description_json(&out.backup_description) }))
}

pub(super) async fn list_backups(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = m.string("TableName")?;
    let limit = m.integer("Limit")?;
    let time_range_lower_bound = timestamp(&m, "TimeRangeLowerBound")?;
    let time_range_upper_bound = timestamp(&m, "TimeRangeUpperBound")?;
    let exclusive_start_backup_arn = m.string("ExclusiveStartBackupArn")?;
    let backup_type = m.enumeration("BackupType", BACKUP_TYPE_FILTERS, &mut d)?;
    let input = d.finish(ListBackupsInput {
        table_name,
        limit,
        time_range_lower_bound,
        time_range_upper_bound,
        exclusive_start_backup_arn,
        backup_type,
    })?;
    let out = backend.list_backups(input).await?;
    let mut body = Map::new();
    body.insert(
        "BackupSummaries".into(),
        Value::Array(out.backup_summaries.iter().map(summary_json).collect()),
    );
    if let Some(last) = out.last_evaluated_backup_arn {
        body.insert("LastEvaluatedBackupArn".into(), Value::String(last));
    }
    Ok(Value::Object(body))
}

/// The `…Override` members both restores share.
fn overrides(m: &Members<'_>, d: &mut Decoder) -> WireResult<RestoreOverrides> {
    let billing_mode_override = m.enumeration("BillingModeOverride", BILLING_MODES, d)?;
    let global_secondary_index_override = m.each("GlobalSecondaryIndexOverride", d, |e, d| {
        Ok(GlobalSecondaryIndex {
            index_name: e.required_string("IndexName", d)?,
            key_schema: key_schema(&e, d)?,
            projection: projection(&e, d)?,
            provisioned_throughput: throughput(&e, d)?,
        })
    })?;
    let local_secondary_index_override = m.each("LocalSecondaryIndexOverride", d, |e, d| {
        Ok(LocalSecondaryIndex {
            index_name: e.required_string("IndexName", d)?,
            key_schema: key_schema(&e, d)?,
            projection: projection(&e, d)?,
        })
    })?;
    let provisioned_throughput_override = match m.structure("ProvisionedThroughputOverride")? {
        // The same members as `ProvisionedThroughput`, under another name.
        Some(t) => {
            let units = |name: &str| -> WireResult<i64> {
                t.get(name).map_or(Ok(0), |v| types::long(v, "an Long"))
            };
            Some(ProvisionedThroughput {
                write_capacity_units: units("WriteCapacityUnits")?,
                read_capacity_units: units("ReadCapacityUnits")?,
            })
        }
        None => None,
    };
    let sse_specification_override = match m.structure("SSESpecificationOverride")? {
        Some(s) => Some(SseSpecification {
            enabled: s.boolean("Enabled")?,
            sse_type: s.string("SSEType")?,
            kms_master_key_id: s.string("KMSMasterKeyId")?,
        }),
        None => None,
    };
    Ok(RestoreOverrides {
        billing_mode_override,
        global_secondary_index_override,
        local_secondary_index_override,
        provisioned_throughput_override,
        sse_specification_override,
    })
}

pub(super) async fn restore_table_from_backup(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let target_table_name = m.required_string("TargetTableName", &mut d)?;
    let backup_arn = m.required_string("BackupArn", &mut d)?;
    let overrides = overrides(&m, &mut d)?;
    let input = d.finish(RestoreTableFromBackupInput {
        target_table_name,
        backup_arn,
        overrides,
    })?;
    let out = backend.restore_table_from_backup(input).await?;
    Ok(json!({ "TableDescription": table_description(&out.table_description) }))
}

pub(super) async fn restore_table_to_point_in_time(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let source_table_arn = m.string("SourceTableArn")?;
    let source_table_name = m.string("SourceTableName")?;
    let target_table_name = m.required_string("TargetTableName", &mut d)?;
    let use_latest_restorable_time = m.boolean("UseLatestRestorableTime")?;
    let restore_date_time = timestamp(&m, "RestoreDateTime")?;
    let overrides = overrides(&m, &mut d)?;
    let input = d.finish(RestoreTableToPointInTimeInput {
        source_table_name,
        source_table_arn,
        target_table_name,
        use_latest_restorable_time,
        restore_date_time,
        overrides,
    })?;
    let out = backend.restore_table_to_point_in_time(input).await?;
    Ok(json!({ "TableDescription": table_description(&out.table_description) }))
}

pub(super) async fn describe_continuous_backups(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = table_arn(&m, &mut d)?;
    let input = d.finish(DescribeContinuousBackupsInput { table_name })?;
    let out = backend.describe_continuous_backups(input).await?;
    Ok(json!({
        "ContinuousBackupsDescription": continuous_json(&out.continuous_backups_description)
    }))
}

pub(super) async fn update_continuous_backups(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = table_arn(&m, &mut d)?;
    let mut spec = PointInTimeRecoverySpecification::default();
    match m.structure("PointInTimeRecoverySpecification")? {
        Some(s) => {
            match s.boolean("PointInTimeRecoveryEnabled")? {
                Some(enabled) => spec.point_in_time_recovery_enabled = enabled,
                None => d.null(&s.path_of("PointInTimeRecoveryEnabled")),
            }
            spec.recovery_period_in_days = s.integer("RecoveryPeriodInDays")?;
        }
        None => d.null(&m.path_of("PointInTimeRecoverySpecification")),
    }
    let input = d.finish(UpdateContinuousBackupsInput {
        table_name,
        point_in_time_recovery_specification: spec,
    })?;
    let out = backend.update_continuous_backups(input).await?;
    Ok(json!({
        "ContinuousBackupsDescription": continuous_json(&out.continuous_backups_description)
    }))
}

/// Inserts `value` under `name` when present.
fn optional(out: &mut Map<String, Value>, name: &str, value: Option<Value>) {
    if let Some(value) = value {
        out.insert(name.into(), value);
    }
}

fn details_json(b: &BackupDetails) -> Value {
    let mut out = Map::new();
    out.insert("BackupArn".into(), json!(b.backup_arn));
    out.insert("BackupName".into(), json!(b.backup_name));
    optional(
        &mut out,
        "BackupSizeBytes",
        b.backup_size_bytes.map(|n| json!(n)),
    );
    out.insert("BackupStatus".into(), json!(b.backup_status.as_str()));
    out.insert("BackupType".into(), json!(b.backup_type.as_str()));
    out.insert(
        "BackupCreationDateTime".into(),
        epoch_seconds(&b.backup_creation_date_time),
    );
    optional(
        &mut out,
        "BackupExpiryDateTime",
        b.backup_expiry_date_time.as_ref().map(epoch_seconds),
    );
    Value::Object(out)
}

fn description_json(b: &BackupDescription) -> Value {
    let s = &b.source_table_details;
    let mut source = Map::new();
    source.insert("TableName".into(), json!(s.table_name));
    source.insert("TableId".into(), json!(s.table_id));
    optional(
        &mut source,
        "TableArn",
        s.table_arn.as_ref().map(|a| json!(a)),
    );
    optional(
        &mut source,
        "TableSizeBytes",
        s.table_size_bytes.map(|n| json!(n)),
    );
    source.insert("KeySchema".into(), key_schema_json(&s.key_schema));
    source.insert(
        "TableCreationDateTime".into(),
        epoch_seconds(&s.table_creation_date_time),
    );
    source.insert(
        "ProvisionedThroughput".into(),
        json!({
            "ReadCapacityUnits": s.provisioned_throughput.read_capacity_units,
            "WriteCapacityUnits": s.provisioned_throughput.write_capacity_units,
        }),
    );
    optional(&mut source, "ItemCount", s.item_count.map(|n| json!(n)));
    optional(
        &mut source,
        "BillingMode",
        s.billing_mode.map(|m| json!(m.as_str())),
    );
    let f = &b.source_table_feature_details;
    let mut features = Map::new();
    if !f.local_secondary_indexes.is_empty() {
        let lsis = f.local_secondary_indexes.iter().map(|i| {
            json!({
                "IndexName": i.index_name,
                "KeySchema": key_schema_json(&i.key_schema),
                "Projection": projection_json(&i.projection),
            })
        });
        features.insert("LocalSecondaryIndexes".into(), Value::Array(lsis.collect()));
    }
    if !f.global_secondary_indexes.is_empty() {
        let gsis = f.global_secondary_indexes.iter().map(|i| {
            let mut gsi = Map::new();
            gsi.insert("IndexName".into(), json!(i.index_name));
            gsi.insert("KeySchema".into(), key_schema_json(&i.key_schema));
            gsi.insert("Projection".into(), projection_json(&i.projection));
            optional(
                &mut gsi,
                "ProvisionedThroughput",
                i.provisioned_throughput.map(|t| {
                    json!({
                        "ReadCapacityUnits": t.read_capacity_units,
                        "WriteCapacityUnits": t.write_capacity_units,
                    })
                }),
            );
            Value::Object(gsi)
        });
        features.insert(
            "GlobalSecondaryIndexes".into(),
            Value::Array(gsis.collect()),
        );
    }
    if let Some(stream) = &f.stream_description {
        let mut spec = Map::new();
        spec.insert("StreamEnabled".into(), json!(stream.stream_enabled));
        optional(
            &mut spec,
            "StreamViewType",
            stream.stream_view_type.map(|v| json!(v.as_str())),
        );
        features.insert("StreamDescription".into(), Value::Object(spec));
    }
    if let Some(ttl) = &f.time_to_live_description {
        let mut d = Map::new();
        d.insert(
            "TimeToLiveStatus".into(),
            json!(ttl.time_to_live_status.as_str()),
        );
        optional(
            &mut d,
            "AttributeName",
            ttl.attribute_name.as_ref().map(|a| json!(a)),
        );
        features.insert("TimeToLiveDescription".into(), Value::Object(d));
    }
    json!({
        "BackupDetails": details_json(&b.backup_details),
        "SourceTableDetails": source,
        "SourceTableFeatureDetails": features,
    })
}

fn summary_json(s: &BackupSummary) -> Value {
    let mut out = Map::new();
    out.insert("TableName".into(), json!(s.table_name));
    out.insert("TableId".into(), json!(s.table_id));
    out.insert("TableArn".into(), json!(s.table_arn));
    out.insert("BackupArn".into(), json!(s.backup_arn));
    out.insert("BackupName".into(), json!(s.backup_name));
    out.insert(
        "BackupCreationDateTime".into(),
        epoch_seconds(&s.backup_creation_date_time),
    );
    optional(
        &mut out,
        "BackupExpiryDateTime",
        s.backup_expiry_date_time.as_ref().map(epoch_seconds),
    );
    out.insert("BackupStatus".into(), json!(s.backup_status.as_str()));
    out.insert("BackupType".into(), json!(s.backup_type.as_str()));
    optional(
        &mut out,
        "BackupSizeBytes",
        s.backup_size_bytes.map(|n| json!(n)),
    );
    Value::Object(out)
}

fn continuous_json(c: &ContinuousBackupsDescription) -> Value {
    let mut out = Map::new();
    out.insert(
        "ContinuousBackupsStatus".into(),
        json!(c.continuous_backups_status.as_str()),
    );
    if let Some(p) = &c.point_in_time_recovery_description {
        let mut pitr = Map::new();
        pitr.insert(
            "PointInTimeRecoveryStatus".into(),
            json!(p.point_in_time_recovery_status.as_str()),
        );
        optional(
            &mut pitr,
            "RecoveryPeriodInDays",
            p.recovery_period_in_days.map(|d| json!(d)),
        );
        optional(
            &mut pitr,
            "EarliestRestorableDateTime",
            p.earliest_restorable_date_time.as_ref().map(epoch_seconds),
        );
        optional(
            &mut pitr,
            "LatestRestorableDateTime",
            p.latest_restorable_date_time.as_ref().map(epoch_seconds),
        );
        out.insert("PointInTimeRecoveryDescription".into(), Value::Object(pitr));
    }
    Value::Object(out)
}
