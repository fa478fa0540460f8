//! Backups and point-in-time recovery, converted between dynomodel and `aws-sdk-dynamodb`.
//!
//! The restores' index overrides are sent as given: an empty list is sent as `[]` (keep no index),
//! unlike CreateTable's lists, whose empty form is "absent".

use aws_sdk_dynamodb::types as sdk;
use aws_sdk_dynamodb::Client;
use chrono::{DateTime, Utc};

use super::error::map_sdk_error;
use super::schema::ttl_status_from;
use super::table::{
    billing_mode, built, description_from, global_index, key_schema_from, local_index,
    projection_from, stream_specification_from, throughput, time_from, unexpected,
};
use crate::backend::*;
use crate::error::Result;

fn sdk_time(t: DateTime<Utc>) -> aws_smithy_types::DateTime {
    aws_smithy_types::DateTime::from_millis(t.timestamp_millis())
}

fn some_time(t: &aws_smithy_types::DateTime) -> DateTime<Utc> {
    time_from(Some(t))
}

fn backup_status_from(s: &sdk::BackupStatus) -> Result<BackupStatus> {
    Ok(match s {
        sdk::BackupStatus::Creating => BackupStatus::Creating,
        sdk::BackupStatus::Deleted => BackupStatus::Deleted,
        sdk::BackupStatus::Available => BackupStatus::Available,
        other => return Err(unexpected("a backup status", other.as_str())),
    })
}

fn backup_type_from(t: &sdk::BackupType) -> Result<BackupType> {
    Ok(match t {
        sdk::BackupType::User => BackupType::User,
        sdk::BackupType::System => BackupType::System,
        sdk::BackupType::AwsBackup => BackupType::AwsBackup,
        other => return Err(unexpected("a backup type", other.as_str())),
    })
}

fn billing_mode_from(m: &sdk::BillingMode) -> Result<BillingMode> {
    Ok(match m {
        sdk::BillingMode::Provisioned => BillingMode::Provisioned,
        sdk::BillingMode::PayPerRequest => BillingMode::PayPerRequest,
        other => return Err(unexpected("a billing mode", other.as_str())),
    })
}

fn throughput_from(t: &sdk::ProvisionedThroughput) -> ProvisionedThroughput {
    ProvisionedThroughput {
        read_capacity_units: t.read_capacity_units(),
        write_capacity_units: t.write_capacity_units(),
    }
}

fn details_from(d: &sdk::BackupDetails) -> Result<BackupDetails> {
    Ok(BackupDetails {
        backup_arn: d.backup_arn().to_owned(),
        backup_name: d.backup_name().to_owned(),
        backup_size_bytes: d.backup_size_bytes(),
        backup_status: backup_status_from(d.backup_status())?,
        backup_type: backup_type_from(d.backup_type())?,
        backup_creation_date_time: some_time(d.backup_creation_date_time()),
        backup_expiry_date_time: d.backup_expiry_date_time().map(some_time),
    })
}

fn description_of(d: Option<&sdk::BackupDescription>) -> Result<BackupDescription> {
    let d = d.ok_or_else(|| unexpected("a BackupDescription", "nothing"))?;
    let details = d
        .backup_details()
        .ok_or_else(|| unexpected("BackupDetails", "nothing"))?;
    let s = d
        .source_table_details()
        .ok_or_else(|| unexpected("SourceTableDetails", "nothing"))?;
    let features = match d.source_table_feature_details() {
        None => SourceTableFeatureDetails::default(),
        Some(f) => SourceTableFeatureDetails {
            local_secondary_indexes: f
                .local_secondary_indexes()
                .iter()
                .map(|i| {
                    Ok(LocalSecondaryIndex {
                        index_name: i.index_name().unwrap_or_default().to_owned(),
                        key_schema: key_schema_from(i.key_schema())?,
                        projection: projection_from(i.projection())?,
                    })
                })
                .collect::<Result<_>>()?,
            global_secondary_indexes: f
                .global_secondary_indexes()
                .iter()
                .map(|i| {
                    Ok(GlobalSecondaryIndex {
                        index_name: i.index_name().unwrap_or_default().to_owned(),
                        key_schema: key_schema_from(i.key_schema())?,
                        projection: projection_from(i.projection())?,
                        provisioned_throughput: i.provisioned_throughput().map(throughput_from),
                    })
                })
                .collect::<Result<_>>()?,
            stream_description: f
                .stream_description()
                .map(stream_specification_from)
                .transpose()?,
            time_to_live_description: f
                .time_to_live_description()
                .map(|t| {
                    Ok::<_, crate::Error>(TimeToLiveDescription {
                        time_to_live_status: ttl_status_from(t.time_to_live_status())?,
                        attribute_name: t.attribute_name().map(str::to_owned),
                    })
                })
                .transpose()?,
        },
    };
    Ok(BackupDescription {
        backup_details: details_from(details)?,
        source_table_details: SourceTableDetails {
            table_name: s.table_name().to_owned(),
            table_id: s.table_id().to_owned(),
            table_arn: s.table_arn().map(str::to_owned),
            table_size_bytes: s.table_size_bytes(),
            key_schema: key_schema_from(s.key_schema())?,
            table_creation_date_time: some_time(s.table_creation_date_time()),
            provisioned_throughput: s.provisioned_throughput().map(throughput_from).unwrap_or(
                ProvisionedThroughput {
                    read_capacity_units: 0,
                    write_capacity_units: 0,
                },
            ),
            item_count: s.item_count(),
            billing_mode: s.billing_mode().map(billing_mode_from).transpose()?,
        },
        source_table_feature_details: features,
    })
}

/// A table description's `RestoreSummary`.
pub(crate) fn restore_summary_from(r: &sdk::RestoreSummary) -> RestoreSummary {
    RestoreSummary {
        source_backup_arn: r.source_backup_arn().map(str::to_owned),
        source_table_arn: r.source_table_arn().map(str::to_owned),
        restore_date_time: some_time(r.restore_date_time()),
        restore_in_progress: r.restore_in_progress(),
    }
}

fn continuous_from(
    c: Option<&sdk::ContinuousBackupsDescription>,
) -> Result<ContinuousBackupsDescription> {
    let c = c.ok_or_else(|| unexpected("a ContinuousBackupsDescription", "nothing"))?;
    let continuous_backups_status = match c.continuous_backups_status() {
        sdk::ContinuousBackupsStatus::Enabled => ContinuousBackupsStatus::Enabled,
        sdk::ContinuousBackupsStatus::Disabled => ContinuousBackupsStatus::Disabled,
        other => return Err(unexpected("a continuous backups status", other.as_str())),
    };
    let point_in_time_recovery_description = c
        .point_in_time_recovery_description()
        .map(|p| {
            let status = match p.point_in_time_recovery_status() {
                Some(sdk::PointInTimeRecoveryStatus::Enabled) => PointInTimeRecoveryStatus::Enabled,
                Some(sdk::PointInTimeRecoveryStatus::Disabled) => {
                    PointInTimeRecoveryStatus::Disabled
                }
                other => {
                    return Err(unexpected(
                        "a point in time recovery status",
                        format!("{other:?}"),
                    ))
                }
            };
            Ok(PointInTimeRecoveryDescription {
                point_in_time_recovery_status: status,
                recovery_period_in_days: p.recovery_period_in_days(),
                earliest_restorable_date_time: p.earliest_restorable_date_time().map(some_time),
                latest_restorable_date_time: p.latest_restorable_date_time().map(some_time),
            })
        })
        .transpose()?;
    Ok(ContinuousBackupsDescription {
        continuous_backups_status,
        point_in_time_recovery_description,
    })
}

/// The overrides' SDK forms: GSIs, LSIs, throughput, SSE.
type SdkOverrides = (
    Option<Vec<sdk::GlobalSecondaryIndex>>,
    Option<Vec<sdk::LocalSecondaryIndex>>,
    Option<sdk::ProvisionedThroughput>,
    Option<sdk::SseSpecification>,
);

fn overrides(o: &RestoreOverrides) -> Result<SdkOverrides> {
    let gsis = o
        .global_secondary_index_override
        .as_ref()
        .map(|list| list.iter().map(global_index).collect::<Result<Vec<_>>>())
        .transpose()?;
    let lsis = o
        .local_secondary_index_override
        .as_ref()
        .map(|list| list.iter().map(local_index).collect::<Result<Vec<_>>>())
        .transpose()?;
    let capacity = o
        .provisioned_throughput_override
        .as_ref()
        .map(throughput)
        .transpose()?;
    let sse = o.sse_specification_override.as_ref().map(|s| {
        sdk::SseSpecification::builder()
            .set_enabled(s.enabled)
            .set_sse_type(s.sse_type.as_deref().map(sdk::SseType::from))
            .set_kms_master_key_id(s.kms_master_key_id.clone())
            .build()
    });
    Ok((gsis, lsis, capacity, sse))
}

pub(crate) async fn create_backup(
    client: &Client,
    input: CreateBackupInput,
) -> Result<CreateBackupOutput> {
    let output = client
        .create_backup()
        .table_name(input.table_name)
        .backup_name(input.backup_name)
        .send()
        .await
        .map_err(map_sdk_error)?;
    let details = output
        .backup_details()
        .ok_or_else(|| unexpected("BackupDetails", "nothing"))?;
    Ok(CreateBackupOutput {
        backup_details: details_from(details)?,
    })
}

pub(crate) async fn describe_backup(
    client: &Client,
    input: DescribeBackupInput,
) -> Result<DescribeBackupOutput> {
    let output = client
        .describe_backup()
        .backup_arn(input.backup_arn)
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(DescribeBackupOutput {
        backup_description: description_of(output.backup_description())?,
    })
}

pub(crate) async fn delete_backup(
    client: &Client,
    input: DeleteBackupInput,
) -> Result<DeleteBackupOutput> {
    let output = client
        .delete_backup()
        .backup_arn(input.backup_arn)
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(DeleteBackupOutput {
        backup_description: description_of(output.backup_description())?,
    })
}

pub(crate) async fn list_backups(
    client: &Client,
    input: ListBackupsInput,
) -> Result<ListBackupsOutput> {
    let output = client
        .list_backups()
        .set_table_name(input.table_name)
        .set_limit(input.limit)
        .set_time_range_lower_bound(input.time_range_lower_bound.map(sdk_time))
        .set_time_range_upper_bound(input.time_range_upper_bound.map(sdk_time))
        .set_exclusive_start_backup_arn(input.exclusive_start_backup_arn)
        .set_backup_type(
            input
                .backup_type
                .map(|t| sdk::BackupTypeFilter::from(t.as_str())),
        )
        .send()
        .await
        .map_err(map_sdk_error)?;
    let backup_summaries = output
        .backup_summaries()
        .iter()
        .map(|s| {
            let time = s
                .backup_creation_date_time()
                .ok_or_else(|| unexpected("a BackupCreationDateTime", "nothing"))?;
            Ok(BackupSummary {
                table_name: s.table_name().unwrap_or_default().to_owned(),
                table_id: s.table_id().unwrap_or_default().to_owned(),
                table_arn: s.table_arn().unwrap_or_default().to_owned(),
                backup_arn: s
                    .backup_arn()
                    .ok_or_else(|| unexpected("a BackupArn", "nothing"))?
                    .to_owned(),
                backup_name: s.backup_name().unwrap_or_default().to_owned(),
                backup_creation_date_time: some_time(time),
                backup_expiry_date_time: s.backup_expiry_date_time().map(some_time),
                backup_status: s
                    .backup_status()
                    .ok_or_else(|| unexpected("a BackupStatus", "nothing"))
                    .and_then(backup_status_from)?,
                backup_type: s
                    .backup_type()
                    .ok_or_else(|| unexpected("a BackupType", "nothing"))
                    .and_then(backup_type_from)?,
                backup_size_bytes: s.backup_size_bytes(),
            })
        })
        .collect::<Result<_>>()?;
    Ok(ListBackupsOutput {
        backup_summaries,
        last_evaluated_backup_arn: output.last_evaluated_backup_arn().map(str::to_owned),
    })
}

pub(crate) async fn restore_table_from_backup(
    client: &Client,
    input: RestoreTableFromBackupInput,
) -> Result<RestoreTableFromBackupOutput> {
    let (gsis, lsis, capacity, sse) = overrides(&input.overrides)?;
    let output = client
        .restore_table_from_backup()
        .target_table_name(input.target_table_name)
        .backup_arn(input.backup_arn)
        .set_billing_mode_override(input.overrides.billing_mode_override.map(billing_mode))
        .set_global_secondary_index_override(gsis)
        .set_local_secondary_index_override(lsis)
        .set_provisioned_throughput_override(capacity)
        .set_sse_specification_override(sse)
        .send()
        .await
        .map_err(map_sdk_error)?;
    let table = output
        .table_description
        .ok_or_else(|| unexpected("a TableDescription", "nothing"))?;
    Ok(RestoreTableFromBackupOutput {
        table_description: description_from(table)?,
    })
}

pub(crate) async fn describe_continuous_backups(
    client: &Client,
    input: DescribeContinuousBackupsInput,
) -> Result<DescribeContinuousBackupsOutput> {
    let output = client
        .describe_continuous_backups()
        .table_name(input.table_name)
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(DescribeContinuousBackupsOutput {
        continuous_backups_description: continuous_from(output.continuous_backups_description())?,
    })
}

pub(crate) async fn update_continuous_backups(
    client: &Client,
    input: UpdateContinuousBackupsInput,
) -> Result<UpdateContinuousBackupsOutput> {
    let spec = &input.point_in_time_recovery_specification;
    let output = client
        .update_continuous_backups()
        .table_name(input.table_name)
        .point_in_time_recovery_specification(built(
            sdk::PointInTimeRecoverySpecification::builder()
                .point_in_time_recovery_enabled(spec.point_in_time_recovery_enabled)
                .set_recovery_period_in_days(spec.recovery_period_in_days)
                .build(),
        )?)
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(UpdateContinuousBackupsOutput {
        continuous_backups_description: continuous_from(output.continuous_backups_description())?,
    })
}

pub(crate) async fn restore_table_to_point_in_time(
    client: &Client,
    input: RestoreTableToPointInTimeInput,
) -> Result<RestoreTableToPointInTimeOutput> {
    let (gsis, lsis, capacity, sse) = overrides(&input.overrides)?;
    let output = client
        .restore_table_to_point_in_time()
        .set_source_table_name(input.source_table_name)
        .set_source_table_arn(input.source_table_arn)
        .target_table_name(input.target_table_name)
        .set_use_latest_restorable_time(input.use_latest_restorable_time)
        .set_restore_date_time(input.restore_date_time.map(sdk_time))
        .set_billing_mode_override(input.overrides.billing_mode_override.map(billing_mode))
        .set_global_secondary_index_override(gsis)
        .set_local_secondary_index_override(lsis)
        .set_provisioned_throughput_override(capacity)
        .set_sse_specification_override(sse)
        .send()
        .await
        .map_err(map_sdk_error)?;
    let table = output
        .table_description
        .ok_or_else(|| unexpected("a TableDescription", "nothing"))?;
    Ok(RestoreTableToPointInTimeOutput {
        table_description: description_from(table)?,
    })
}
