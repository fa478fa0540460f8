//! On-demand backups: CreateBackup, DescribeBackup, ListBackups, DeleteBackup and
//! RestoreTableFromBackup; point-in-time recovery is in [`pitr`], what a restore builds in
//! [`restore`].
//!
//! Behaviour follows the API reference (CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
//! RestoreTableFromBackup, and the data types `BackupDetails`, `BackupDescription`,
//! `BackupSummary`, `SourceTableDetails`, `SourceTableFeatureDetails`):
//! - a backup holds the table's items as they were when it was requested, its key schema, its
//!   indexes, its capacity and billing mode, and describes its stream and TTL settings; it is
//!   `CREATING` for the engine's transition time, then `AVAILABLE` (with no transition time,
//!   `AVAILABLE` at once); `BackupType` is `USER`, with no expiry;
//! - its ARN is the table's followed by `/backup/` and an id of the request's instant in
//!   milliseconds, fourteen digits, and eight hex digits (the API reference's examples:
//!   `…:table/Music/backup/01489173575360-b308cd7d`);
//! - ListBackups lists by creation time, `TimeRangeLowerBound` inclusive and `TimeRangeUpperBound`
//!   exclusive, `USER` backups unless `BackupType` says otherwise, `Limit` (1–100) per page with
//!   `LastEvaluatedBackupArn` when the page is full (the reference: "If `LastEvaluatedBackupArn`
//!   is empty, then the last page of results has been processed and there are no more results to
//!   be retrieved");
//! - DeleteBackup answers the backup's description with status `DELETED`.
//!
//! Error types are the reference's (`TableNotFoundException`, `BackupNotFoundException`,
//! `BackupInUseException`, `TableAlreadyExistsException`, `TableInUseException`). Their messages
//! are not documented; the engine's texts name the table or backup ARN: "Backup not found: ARN" is
//! the service's own (an error reported from DynamoDB's DescribeBackup in us-east-1,
//! turbot/steampipe-plugin-aws issue 1913), "Table not found: NAME" and "Table already exists:
//! NAME" follow the same form, as moto writes them. DynamoDB Local 3.3 implements none of these operations (it answers
//! `UnknownOperationException`).
//!
//! No `LimitExceededException`: the reference sets no limit on backups ("There is no limit to the
//! number of on-demand backups that can be taken", CreateBackup; the exception's own text says the
//! same of daily backups, and counts RestoreTableFromBackup and RestoreTableToPointInTime among the
//! 500 simultaneous *table* operations, not CreateBackup). What it does bound, "CreateBackup at a
//! maximum rate of 50 times per second", is a rate in wall-clock time with no documented error, which
//! a test could not observe deterministically: not modelled.
//!
//! Backups live in memory only: an engine in durable mode does not log them, so they do not
//! survive a restart (a table restored from one does: see [`restore`]).

pub(crate) mod pitr;
pub(crate) mod restore;

use chrono::{DateTime, TimeDelta, Utc};
use dynomodel::backend::{
    BackupDescription, BackupDetails, BackupStatus, BackupSummary, BackupType, BackupTypeFilter,
    CreateBackupInput, CreateBackupOutput, DeleteBackupInput, DeleteBackupOutput,
    DescribeBackupInput, DescribeBackupOutput, ListBackupsInput, ListBackupsOutput,
    ProvisionedThroughput, RestoreSummary, RestoreTableFromBackupInput, SourceTableDetails,
    SourceTableFeatureDetails, TimeToLiveDescription,
};
use dynomodel::{Error, Result};

use crate::storage::backups::{Backup, Backups};
use crate::storage::lifecycle::View;
use crate::storage::settings::split_arn;
use crate::storage::state::State;
use crate::storage::table::Table;
use crate::validate::{self, Constraints};

/// ListBackups' default and largest page.
const MAX_LIST_LIMIT: i32 = 100;

/// An error of one of the backup operations' own types.
pub(crate) fn service_error(code: &str, message: impl Into<String>) -> Error {
    Error::Service {
        code: code.into(),
        message: message.into(),
    }
}

/// `TableNotFoundException` for the table `name`.
pub(crate) fn table_not_found(name: &str) -> Error {
    service_error("TableNotFoundException", format!("Table not found: {name}"))
}

fn backup_not_found(arn: &str) -> Error {
    service_error(
        "BackupNotFoundException",
        format!("Backup not found: {arn}"),
    )
}

/// `BackupInUseException`, in the API reference's words.
fn backup_in_use(arn: &str) -> Error {
    service_error(
        "BackupInUseException",
        format!(
            "There is another ongoing conflicting backup control plane operation on the table. \
             The backup is either being created, deleted or restored to a table: {arn}"
        ),
    )
}

impl State {
    /// `CreateBackup`.
    pub(crate) fn create_backup(&self, input: &CreateBackupInput) -> Result<CreateBackupOutput> {
        let mut c = Constraints::default();
        c.name(&input.backup_name, "backupName");
        c.finish()?;
        let name = self.source_table_name(&input.table_name)?;
        let now = self.clock().now();
        let transition = self.config().transition;
        let resource_prefix = format!("table/{name}/backup/");
        let busy = |store: &Backups| {
            store
                .iter()
                .find(|b| {
                    b.resource.starts_with(&resource_prefix)
                        && b.status(now) == BackupStatus::Creating
                })
                .map(|b| backup_in_use(&self.backup_arn(&b.resource)))
        };
        if let Some(in_use) = busy(&self.backups()) {
            return Err(in_use);
        }
        let table = self.ready_source(&name)?;
        let (item_count, size_bytes) = table.totals();
        let ttl = table
            .ttl()
            .attribute_at(now)
            .map(|attribute| TimeToLiveDescription {
                time_to_live_status: table.ttl().status(now),
                attribute_name: Some(attribute.to_owned()),
            });
        let schema = table.schema.clone();
        let items = table.partitions().clone();
        drop(table);
        let mut store = self.backups();
        // Again under the store's lock: another backup of the table may have started meanwhile.
        if let Some(in_use) = busy(&store) {
            return Err(in_use);
        }
        let serial = store.next_serial();
        let millis = now.timestamp_millis().max(0);
        let suffix = crate::storage::key::KeyValue::S(format!("{name}\u{0}{serial}")).stable_hash();
        let backup = Backup {
            resource: format!("{resource_prefix}{millis:014}-{:08x}", suffix & 0xffff_ffff),
            name: input.backup_name.clone(),
            created: now,
            available_at: now
                .checked_add_signed(TimeDelta::from_std(transition).unwrap_or(TimeDelta::MAX))
                .unwrap_or(DateTime::<Utc>::MAX_UTC),
            schema,
            items,
            item_count,
            size_bytes,
            ttl,
        };
        let backup_details = self.details(&backup, now);
        store.insert(backup);
        Ok(CreateBackupOutput { backup_details })
    }

    /// `DescribeBackup`.
    pub(crate) fn describe_backup(
        &self,
        input: &DescribeBackupInput,
    ) -> Result<DescribeBackupOutput> {
        let store = self.backups();
        let backup = self.find(&store, &input.backup_arn)?;
        Ok(DescribeBackupOutput {
            backup_description: self.description(backup, self.clock().now()),
        })
    }

    /// `DeleteBackup`: refused while the backup is being created.
    pub(crate) fn delete_backup(&self, input: &DeleteBackupInput) -> Result<DeleteBackupOutput> {
        let now = self.clock().now();
        let mut store = self.backups();
        let backup = self.find(&store, &input.backup_arn)?;
        if backup.status(now) == BackupStatus::Creating {
            return Err(backup_in_use(&input.backup_arn));
        }
        let mut backup_description = self.description(backup, now);
        backup_description.backup_details.backup_status = BackupStatus::Deleted;
        let resource = backup.resource.clone();
        store.remove(&resource);
        Ok(DeleteBackupOutput { backup_description })
    }

    /// RestoreTableFromBackup's first step (under the read lock): the backup's items and the new
    /// table's request; refused while the backup is being created.
    pub(crate) fn plan_backup_restore(
        &self,
        input: &RestoreTableFromBackupInput,
    ) -> Result<restore::Plan> {
        validate::new_table_name(&input.target_table_name)?;
        let store = self.backups();
        let backup = self.find(&store, &input.backup_arn)?;
        if backup.status(self.clock().now()) == BackupStatus::Creating {
            return Err(backup_in_use(&input.backup_arn));
        }
        let summary = RestoreSummary {
            source_backup_arn: Some(self.backup_arn(&backup.resource)),
            source_table_arn: Some(backup.schema.arn.clone()),
            restore_date_time: backup.created,
            restore_in_progress: true,
        };
        restore::plan(
            &backup.schema,
            backup.items.clone(),
            &input.target_table_name,
            &input.overrides,
            summary,
        )
    }

    /// `ListBackups`.
    pub(crate) fn list_backups(&self, input: &ListBackupsInput) -> Result<ListBackupsOutput> {
        let mut c = Constraints::default();
        if let Some(limit) = input.limit {
            c.at_least(i64::from(limit), 1, "limit");
            if limit > MAX_LIST_LIMIT {
                c.fail(
                    validate::quoted(&limit.to_string()),
                    "limit",
                    "Member must have value less than or equal to 100",
                );
            }
        }
        c.finish()?;
        if let (Some(lower), Some(upper)) =
            (input.time_range_lower_bound, input.time_range_upper_bound)
            && lower > upper
        {
            return Err(Error::validation(
                "TimeRangeUpperBound must be greater than TimeRangeLowerBound",
            ));
        }
        let table = match &input.table_name {
            Some(name) => Some(self.source_table_name(name)?),
            None => None,
        };
        let filter = input.backup_type.unwrap_or(BackupTypeFilter::User);
        let now = self.clock().now();
        let store = self.backups();
        let mut backups: Vec<&Backup> = store
            .iter()
            .filter(|b| table.as_deref().is_none_or(|t| b.schema.name == t))
            // Every backup the engine takes is a USER one.
            .filter(|_| filter.admits(BackupType::User))
            .filter(|b| {
                input
                    .time_range_lower_bound
                    .is_none_or(|lower| b.created >= lower)
            })
            .filter(|b| {
                input
                    .time_range_upper_bound
                    .is_none_or(|upper| b.created < upper)
            })
            .collect();
        backups.sort_by(|a, b| (a.created, &a.resource).cmp(&(b.created, &b.resource)));
        if let Some(start) = &input.exclusive_start_backup_arn {
            let start = self.find(&store, start)?;
            let after = (start.created, &start.resource);
            backups.retain(|b| (b.created, &b.resource) > after);
        }
        let limit = usize::try_from(input.limit.unwrap_or(MAX_LIST_LIMIT)).unwrap_or(0);
        let full = backups.len() > limit;
        backups.truncate(limit);
        let backup_summaries: Vec<BackupSummary> =
            backups.iter().map(|b| self.summary(b, now)).collect();
        let last_evaluated_backup_arn = full
            .then(|| backup_summaries.last().map(|s| s.backup_arn.clone()))
            .flatten();
        Ok(ListBackupsOutput {
            backup_summaries,
            last_evaluated_backup_arn,
        })
    }

    /// The backup of `store` an ARN names, or `BackupNotFoundException`.
    fn find<'a>(&self, store: &'a Backups, arn: &str) -> Result<&'a Backup> {
        self.backup_resource(arn)
            .and_then(|resource| store.get(resource))
            .ok_or_else(|| backup_not_found(arn))
    }

    /// The resource part of a backup ARN of this engine's account (and region, when pinned).
    fn backup_resource<'a>(&self, arn: &'a str) -> Option<&'a str> {
        let (region, account, resource) = split_arn(arn)?;
        (account == self.config().account && self.config().serves_region(region))
            .then_some(resource)
            .filter(|r| r.starts_with("table/") && r.contains("/backup/"))
    }

    /// A backup's ARN.
    fn backup_arn(&self, resource: &str) -> String {
        let config = self.config();
        format!(
            "arn:aws:dynamodb:{}:{}:{resource}",
            config.region, config.account
        )
    }

    /// The table a backup or PITR request names (name or ARN), checked.
    pub(crate) fn source_table_name(&self, name_or_arn: &str) -> Result<String> {
        if name_or_arn.starts_with("arn:") {
            return self
                .config()
                .table_name_of(name_or_arn)
                .map(str::to_owned)
                .ok_or_else(|| table_not_found(name_or_arn));
        }
        validate::table_name(name_or_arn)?;
        Ok(name_or_arn.to_owned())
    }

    /// The table `name` if it can be backed up or restored from: `TableNotFoundException` when it
    /// does not exist, `TableInUseException` while it is being created or deleted.
    pub(crate) fn ready_source(&self, name: &str) -> Result<std::sync::RwLockReadGuard<'_, Table>> {
        let table = self
            .existing_table(name)
            .ok_or_else(|| table_not_found(name))?;
        let now = self.clock().now();
        if table.lifecycle.creating_table(&View::at(now)) || table.lifecycle.deleting_table() {
            let state = if table.lifecycle.deleting_table() {
                "deleted"
            } else {
                "created"
            };
            return Err(service_error(
                "TableInUseException",
                format!("Table is being {state}: {name}"),
            ));
        }
        Ok(table)
    }

    fn details(&self, b: &Backup, now: DateTime<Utc>) -> BackupDetails {
        BackupDetails {
            backup_arn: self.backup_arn(&b.resource),
            backup_name: b.name.clone(),
            backup_size_bytes: Some(i64::try_from(b.size_bytes).unwrap_or(i64::MAX)),
            backup_status: b.status(now),
            backup_type: BackupType::User,
            backup_creation_date_time: b.created,
            backup_expiry_date_time: None,
        }
    }

    /// A backup's `BackupDescription` at `now`.
    fn description(&self, b: &Backup, now: DateTime<Utc>) -> BackupDescription {
        let s = &b.schema;
        BackupDescription {
            backup_details: self.details(b, now),
            source_table_details: SourceTableDetails {
                table_name: s.name.clone(),
                table_id: s.table_id.clone(),
                table_arn: Some(s.arn.clone()),
                table_size_bytes: Some(i64::try_from(b.size_bytes).unwrap_or(i64::MAX)),
                key_schema: s.key_schema.clone(),
                table_creation_date_time: s.created,
                provisioned_throughput: s.provisioned_throughput.unwrap_or(ProvisionedThroughput {
                    read_capacity_units: 0,
                    write_capacity_units: 0,
                }),
                item_count: Some(i64::try_from(b.item_count).unwrap_or(i64::MAX)),
                billing_mode: s.billing_mode,
            },
            source_table_feature_details: SourceTableFeatureDetails {
                local_secondary_indexes: s.local_secondary_indexes.clone(),
                global_secondary_indexes: s.global_secondary_indexes.clone(),
                stream_description: s.stream_specification.filter(|spec| spec.stream_enabled),
                time_to_live_description: b.ttl.clone(),
            },
        }
    }

    fn summary(&self, b: &Backup, now: DateTime<Utc>) -> BackupSummary {
        let details = self.details(b, now);
        BackupSummary {
            table_name: b.schema.name.clone(),
            table_id: b.schema.table_id.clone(),
            table_arn: b.schema.arn.clone(),
            backup_arn: details.backup_arn,
            backup_name: details.backup_name,
            backup_creation_date_time: details.backup_creation_date_time,
            backup_expiry_date_time: None,
            backup_status: details.backup_status,
            backup_type: details.backup_type,
            backup_size_bytes: details.backup_size_bytes,
        }
    }
}

#[cfg(test)]
mod tests;
