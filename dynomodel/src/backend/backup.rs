//! On-demand backups and point-in-time recovery: `CreateBackup`, `DescribeBackup`, `ListBackups`,
//! `DeleteBackup`, `RestoreTableFromBackup`, `DescribeContinuousBackups`, `UpdateContinuousBackups`
//! and `RestoreTableToPointInTime`, shaped like DynamoDB's API reference.

use chrono::{DateTime, Utc};

use crate::backend::{
    BillingMode, GlobalSecondaryIndex, KeySchemaElement, LocalSecondaryIndex,
    ProvisionedThroughput, StreamSpecification, TableDescription, TimeToLiveDescription,
};

/// Where a backup stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackupStatus {
    /// Being taken.
    Creating,
    /// Deleted (DeleteBackup's answer).
    Deleted,
    /// Ready to restore from.
    Available,
}

impl BackupStatus {
    /// DynamoDB's name for it, e.g. `"AVAILABLE"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BackupStatus::Creating => "CREATING",
            BackupStatus::Deleted => "DELETED",
            BackupStatus::Available => "AVAILABLE",
        }
    }
}

/// Who took a backup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackupType {
    /// CreateBackup.
    User,
    /// DynamoDB itself (when a table with point-in-time recovery is deleted).
    System,
    /// AWS Backup.
    AwsBackup,
}

impl BackupType {
    /// DynamoDB's name for it, e.g. `"USER"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BackupType::User => "USER",
            BackupType::System => "SYSTEM",
            BackupType::AwsBackup => "AWS_BACKUP",
        }
    }
}

/// ListBackups' `BackupType` filter: one type, or `ALL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackupTypeFilter {
    /// `USER` backups (DynamoDB's default).
    User,
    /// `SYSTEM` backups.
    System,
    /// `AWS_BACKUP` backups.
    AwsBackup,
    /// Every type.
    All,
}

impl BackupTypeFilter {
    /// DynamoDB's name for it, e.g. `"ALL"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BackupTypeFilter::User => "USER",
            BackupTypeFilter::System => "SYSTEM",
            BackupTypeFilter::AwsBackup => "AWS_BACKUP",
            BackupTypeFilter::All => "ALL",
        }
    }

    /// Whether a backup of type `ty` passes the filter.
    pub fn admits(self, ty: BackupType) -> bool {
        match self {
            BackupTypeFilter::All => true,
            BackupTypeFilter::User => ty == BackupType::User,
            BackupTypeFilter::System => ty == BackupType::System,
            BackupTypeFilter::AwsBackup => ty == BackupType::AwsBackup,
        }
    }
}

/// A backup's own details (`BackupDetails`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupDetails {
    /// `arn:aws:dynamodb:<region>:<account>:table/<table>/backup/<id>`.
    pub backup_arn: String,
    /// The name given to CreateBackup.
    pub backup_name: String,
    /// The table's size when the backup was taken, in bytes.
    pub backup_size_bytes: Option<i64>,
    /// Where it stands.
    pub backup_status: BackupStatus,
    /// Who took it.
    pub backup_type: BackupType,
    /// When it was requested: the instant whose data it holds.
    pub backup_creation_date_time: DateTime<Utc>,
    /// When a `SYSTEM` backup expires (none for `USER` backups).
    pub backup_expiry_date_time: Option<DateTime<Utc>>,
}

/// The table a backup was taken of, as it was then (`SourceTableDetails`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceTableDetails {
    /// Its name.
    pub table_name: String,
    /// Its unique id.
    pub table_id: String,
    /// Its ARN.
    pub table_arn: Option<String>,
    /// Its size, in bytes.
    pub table_size_bytes: Option<i64>,
    /// Its key schema.
    pub key_schema: Vec<KeySchemaElement>,
    /// When it was created.
    pub table_creation_date_time: DateTime<Utc>,
    /// Its capacity (zeros for an on-demand table).
    pub provisioned_throughput: ProvisionedThroughput,
    /// Its item count.
    pub item_count: Option<i64>,
    /// Its billing mode.
    pub billing_mode: Option<BillingMode>,
}

/// The features of the table a backup was taken of (`SourceTableFeatureDetails`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceTableFeatureDetails {
    /// Its local secondary indexes (`LocalSecondaryIndexInfo`).
    pub local_secondary_indexes: Vec<LocalSecondaryIndex>,
    /// Its global secondary indexes (`GlobalSecondaryIndexInfo`).
    pub global_secondary_indexes: Vec<GlobalSecondaryIndex>,
    /// Its stream settings, when a stream was on.
    pub stream_description: Option<StreamSpecification>,
    /// Its Time to Live, when it was on.
    pub time_to_live_description: Option<TimeToLiveDescription>,
}

/// Everything about a backup (`BackupDescription`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupDescription {
    /// The backup itself.
    pub backup_details: BackupDetails,
    /// The table it was taken of.
    pub source_table_details: SourceTableDetails,
    /// That table's indexes, stream and TTL.
    pub source_table_feature_details: SourceTableFeatureDetails,
}

/// A backup as ListBackups shows it (`BackupSummary`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupSummary {
    /// The source table's name.
    pub table_name: String,
    /// The source table's id.
    pub table_id: String,
    /// The source table's ARN.
    pub table_arn: String,
    /// The backup's ARN.
    pub backup_arn: String,
    /// The backup's name.
    pub backup_name: String,
    /// When it was requested.
    pub backup_creation_date_time: DateTime<Utc>,
    /// When a `SYSTEM` backup expires.
    pub backup_expiry_date_time: Option<DateTime<Utc>>,
    /// Where it stands.
    pub backup_status: BackupStatus,
    /// Who took it.
    pub backup_type: BackupType,
    /// Its size, in bytes.
    pub backup_size_bytes: Option<i64>,
}

/// `CreateBackup`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CreateBackupInput {
    /// The table to back up: its name or ARN.
    pub table_name: String,
    /// A name for the backup (3–255 characters of `[A-Za-z0-9_.-]`).
    pub backup_name: String,
}

/// `CreateBackup`'s response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateBackupOutput {
    /// The new backup.
    pub backup_details: BackupDetails,
}

/// `DescribeBackup`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescribeBackupInput {
    /// The backup's ARN.
    pub backup_arn: String,
}

/// `DescribeBackup`'s response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeBackupOutput {
    /// The backup.
    pub backup_description: BackupDescription,
}

/// `DeleteBackup`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeleteBackupInput {
    /// The backup's ARN.
    pub backup_arn: String,
}

/// `DeleteBackup`'s response: the backup, `DELETED`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeleteBackupOutput {
    /// The backup as it was, with status `DELETED`.
    pub backup_description: BackupDescription,
}

/// `ListBackups`: backups by creation time, a page at a time.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListBackupsInput {
    /// Only the backups of this table (name or ARN).
    pub table_name: Option<String>,
    /// At most this many (1–100; DynamoDB's default is 100).
    pub limit: Option<i32>,
    /// Only backups created at or after this instant.
    pub time_range_lower_bound: Option<DateTime<Utc>>,
    /// Only backups created before this instant.
    pub time_range_upper_bound: Option<DateTime<Utc>>,
    /// Start after this backup (the previous page's `last_evaluated_backup_arn`).
    pub exclusive_start_backup_arn: Option<String>,
    /// Only backups of this type (DynamoDB's default: `USER`).
    pub backup_type: Option<BackupTypeFilter>,
}

/// `ListBackups`' response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListBackupsOutput {
    /// The backups, oldest first.
    pub backup_summaries: Vec<BackupSummary>,
    /// Present when more backups may follow.
    pub last_evaluated_backup_arn: Option<String>,
}

/// Server-side encryption settings of a restored table (`SSESpecification`). The in-memory
/// engine does not model encryption: it accepts them and describes no `SSEDescription`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseSpecification {
    /// Whether encryption uses an AWS-managed or customer-managed key.
    pub enabled: Option<bool>,
    /// `"KMS"` (DynamoDB's only type besides the default `AES256`).
    pub sse_type: Option<String>,
    /// The KMS key.
    pub kms_master_key_id: Option<String>,
}

/// What a restore may change from the source table (the `…Override` members of
/// `RestoreTableFromBackup` and `RestoreTableToPointInTime`). `None` keeps the source's setting.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RestoreOverrides {
    /// `BillingModeOverride`.
    pub billing_mode_override: Option<BillingMode>,
    /// `GlobalSecondaryIndexOverride`: the source's GSIs to keep (all of them when `None`, none
    /// when empty); each must match one of the source's by name and key schema.
    pub global_secondary_index_override: Option<Vec<GlobalSecondaryIndex>>,
    /// `LocalSecondaryIndexOverride`: as for GSIs.
    pub local_secondary_index_override: Option<Vec<LocalSecondaryIndex>>,
    /// `ProvisionedThroughputOverride`.
    pub provisioned_throughput_override: Option<ProvisionedThroughput>,
    /// `SSESpecificationOverride`.
    pub sse_specification_override: Option<SseSpecification>,
}

/// `RestoreTableFromBackup`: a new table from a backup.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RestoreTableFromBackupInput {
    /// The new table's name (must not exist).
    pub target_table_name: String,
    /// The backup's ARN.
    pub backup_arn: String,
    /// What the new table changes from the backup's.
    pub overrides: RestoreOverrides,
}

/// `RestoreTableFromBackup`'s response.
#[derive(Debug, Clone, PartialEq)]
pub struct RestoreTableFromBackupOutput {
    /// The new table (`CREATING`, with its `RestoreSummary`).
    pub table_description: TableDescription,
}

/// How a table came from a restore (`RestoreSummary` of its description).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoreSummary {
    /// The backup restored from.
    pub source_backup_arn: Option<String>,
    /// The table restored (point-in-time recovery).
    pub source_table_arn: Option<String>,
    /// The instant whose data the table holds.
    pub restore_date_time: DateTime<Utc>,
    /// Whether the restore is still running.
    pub restore_in_progress: bool,
}

/// Whether point-in-time recovery is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PointInTimeRecoveryStatus {
    /// On.
    Enabled,
    /// Off.
    Disabled,
}

impl PointInTimeRecoveryStatus {
    /// DynamoDB's name for it, e.g. `"ENABLED"`.
    pub fn as_str(self) -> &'static str {
        match self {
            PointInTimeRecoveryStatus::Enabled => "ENABLED",
            PointInTimeRecoveryStatus::Disabled => "DISABLED",
        }
    }
}

/// A table's point-in-time recovery (`PointInTimeRecoveryDescription`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointInTimeRecoveryDescription {
    /// On or off.
    pub point_in_time_recovery_status: PointInTimeRecoveryStatus,
    /// The retained window, in days (1–35), while on.
    pub recovery_period_in_days: Option<i32>,
    /// The earliest instant the table can be restored to, while on.
    pub earliest_restorable_date_time: Option<DateTime<Utc>>,
    /// The latest instant (5 minutes before now on DynamoDB), while on.
    pub latest_restorable_date_time: Option<DateTime<Utc>>,
}

/// Whether a table's backups work at all (`ContinuousBackupsStatus`: always `ENABLED` on
/// DynamoDB today).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ContinuousBackupsStatus {
    /// On.
    Enabled,
    /// Off.
    Disabled,
}

impl ContinuousBackupsStatus {
    /// DynamoDB's name for it, e.g. `"ENABLED"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContinuousBackupsStatus::Enabled => "ENABLED",
            ContinuousBackupsStatus::Disabled => "DISABLED",
        }
    }
}

/// A table's continuous backups (`ContinuousBackupsDescription`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinuousBackupsDescription {
    /// Whether backups work.
    pub continuous_backups_status: ContinuousBackupsStatus,
    /// Point-in-time recovery.
    pub point_in_time_recovery_description: Option<PointInTimeRecoveryDescription>,
}

/// `DescribeContinuousBackups`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescribeContinuousBackupsInput {
    /// The table's name or ARN.
    pub table_name: String,
}

/// `DescribeContinuousBackups`' response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeContinuousBackupsOutput {
    /// The table's continuous backups.
    pub continuous_backups_description: ContinuousBackupsDescription,
}

/// `PointInTimeRecoverySpecification`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PointInTimeRecoverySpecification {
    /// Turn it on or off.
    pub point_in_time_recovery_enabled: bool,
    /// The window to retain, in days (1–35; DynamoDB's default is 35).
    pub recovery_period_in_days: Option<i32>,
}

/// `UpdateContinuousBackups`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UpdateContinuousBackupsInput {
    /// The table's name or ARN.
    pub table_name: String,
    /// The new setting.
    pub point_in_time_recovery_specification: PointInTimeRecoverySpecification,
}

/// `UpdateContinuousBackups`' response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateContinuousBackupsOutput {
    /// The table's continuous backups, as now set.
    pub continuous_backups_description: ContinuousBackupsDescription,
}

/// `RestoreTableToPointInTime`: a new table as the source was at an instant.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RestoreTableToPointInTimeInput {
    /// The source table's name (or give its ARN).
    pub source_table_name: Option<String>,
    /// The source table's ARN (or give its name).
    pub source_table_arn: Option<String>,
    /// The new table's name (must not exist).
    pub target_table_name: String,
    /// Restore to the latest restorable instant (instead of `restore_date_time`).
    pub use_latest_restorable_time: Option<bool>,
    /// The instant to restore to.
    pub restore_date_time: Option<DateTime<Utc>>,
    /// What the new table changes from the source's.
    pub overrides: RestoreOverrides,
}

/// `RestoreTableToPointInTime`'s response.
#[derive(Debug, Clone, PartialEq)]
pub struct RestoreTableToPointInTimeOutput {
    /// The new table (`CREATING`, with its `RestoreSummary`).
    pub table_description: TableDescription,
}
