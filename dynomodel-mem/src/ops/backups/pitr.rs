//! Point-in-time recovery: DescribeContinuousBackups, UpdateContinuousBackups and
//! RestoreTableToPointInTime, over the history the tables keep while PITR is on
//! ([`storage::pitr`](crate::storage::pitr), which says what is kept and what it costs).
//!
//! Behaviour follows the API reference (those operations, `ContinuousBackupsDescription`,
//! `PointInTimeRecoveryDescription`, `PointInTimeRecoverySpecification`):
//! - `ContinuousBackupsStatus` is always `ENABLED` for an existing table; PITR is `DISABLED` until
//!   UpdateContinuousBackups turns it on; `RecoveryPeriodInDays` is 1–35 (35 when not given);
//! - `EarliestRestorableDateTime` is when PITR was enabled, or the start of the window once the
//!   window has moved past it; `LatestRestorableDateTime` is five minutes before now ("typically
//!   5 minutes before the current time"), never before the earliest;
//! - RestoreTableToPointInTime names its source by `SourceTableName` or `SourceTableArn` and its
//!   instant by `RestoreDateTime` or `UseLatestRestorableTime`; an instant outside the window is
//!   `InvalidRestoreTimeException` (the reference's text), a source without PITR
//!   `PointInTimeRecoveryUnavailableException`; the restored table is built as [`super::restore`]
//!   says, from the source's current schema ("All these settings come from the current settings
//!   of the source table at the time of restore").
//!
//! Turning PITR off drops the history; turning it on again starts a new one. A deleted table's
//! history goes with it (DynamoDB keeps a system backup of a deleted table with PITR on; the
//! engine does not). Like backups, the history lives in memory only: durable mode does not log
//! it, and a reopened engine has PITR off on every table.

use chrono::{DateTime, TimeDelta, Utc};
use dynomodel::backend::{
    ContinuousBackupsDescription, ContinuousBackupsStatus, DescribeContinuousBackupsInput,
    DescribeContinuousBackupsOutput, PointInTimeRecoveryDescription, PointInTimeRecoveryStatus,
    RestoreSummary, RestoreTableToPointInTimeInput, UpdateContinuousBackupsInput,
    UpdateContinuousBackupsOutput,
};
use dynomodel::{Error, Result};

use super::restore::{plan, Plan};
use super::{service_error, table_not_found};
use crate::storage::lifecycle::View;
use crate::storage::pitr::History;
use crate::storage::state::State;
use crate::storage::table::Table;
use crate::validate::{self, Constraints};

/// `RecoveryPeriodInDays` when UpdateContinuousBackups does not give one (and its largest value).
pub(crate) const DEFAULT_RECOVERY_PERIOD_DAYS: i32 = 35;

/// How far `LatestRestorableDateTime` trails the clock.
pub(crate) const LATEST_LAG: TimeDelta = TimeDelta::minutes(5);

impl State {
    /// `DescribeContinuousBackups`.
    pub(crate) fn describe_continuous_backups(
        &self,
        input: &DescribeContinuousBackupsInput,
    ) -> Result<DescribeContinuousBackupsOutput> {
        let name = self.source_table_name(&input.table_name)?;
        let table = self
            .existing_table(&name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        Ok(DescribeContinuousBackupsOutput {
            continuous_backups_description: continuous_backups(&table, self.clock().now()),
        })
    }

    /// `UpdateContinuousBackups`: turns PITR on (with a new history) or off (dropping it), or
    /// changes the window of a table that has it on.
    pub(crate) fn update_continuous_backups(
        &mut self,
        input: &UpdateContinuousBackupsInput,
    ) -> Result<UpdateContinuousBackupsOutput> {
        let spec = &input.point_in_time_recovery_specification;
        let mut c = Constraints::default();
        if let Some(days) = spec.recovery_period_in_days {
            let path = "pointInTimeRecoverySpecification.recoveryPeriodInDays";
            c.at_least(i64::from(days), 1, path);
            if days > DEFAULT_RECOVERY_PERIOD_DAYS {
                c.fail(
                    validate::quoted(&days.to_string()),
                    path,
                    "Member must have value less than or equal to 35",
                );
            }
        }
        c.finish()?;
        if !spec.point_in_time_recovery_enabled && spec.recovery_period_in_days.is_some() {
            return Err(Error::validation(
                "RecoveryPeriodInDays can only be specified when PointInTimeRecoveryEnabled is true",
            ));
        }
        let name = self.source_table_name(&input.table_name)?;
        let clock = self.clock().clone();
        let now = clock.now();
        let table = self
            .existing_table_mut(&name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        if table.lifecycle.creating_table(&View::at(now)) {
            return Err(service_error(
                "ContinuousBackupsUnavailableException",
                format!("Backups are being enabled for the table: {name}. Please retry later"),
            ));
        }
        let days = spec
            .recovery_period_in_days
            .unwrap_or(DEFAULT_RECOVERY_PERIOD_DAYS);
        if !spec.point_in_time_recovery_enabled {
            *table.pitr_mut() = None;
        } else if let Some(history) = table.pitr_mut() {
            history.set_period_days(days);
        } else {
            let history = History::start(clock, days, table.partitions());
            *table.pitr_mut() = Some(history);
        }
        Ok(UpdateContinuousBackupsOutput {
            continuous_backups_description: continuous_backups(table, now),
        })
    }

    /// RestoreTableToPointInTime's first step (under the read lock): the source's items at the
    /// requested instant, and the new table's request.
    pub(crate) fn plan_point_in_time_restore(
        &self,
        input: &RestoreTableToPointInTimeInput,
    ) -> Result<Plan> {
        crate::validate::new_table_name(&input.target_table_name)?;
        let source = match (&input.source_table_name, &input.source_table_arn) {
            (Some(name), None) => self.source_table_name(name)?,
            (None, Some(arn)) => self.source_table_name(arn)?,
            (None, None) => {
                return Err(Error::validation(
                    "Either SourceTableArn or SourceTableName must be specified",
                ))
            }
            (Some(_), Some(_)) => {
                return Err(Error::validation(
                    "Only one of SourceTableArn or SourceTableName can be specified",
                ))
            }
        };
        let latest = input.use_latest_restorable_time == Some(true);
        if latest && input.restore_date_time.is_some() {
            return Err(Error::validation(
                "Only one of RestoreDateTime or UseLatestRestorableTime can be specified",
            ));
        }
        if !latest && input.restore_date_time.is_none() {
            return Err(Error::validation(
                "Either RestoreDateTime or UseLatestRestorableTime must be specified",
            ));
        }
        let table = self.ready_source(&source)?;
        let history = table.pitr().ok_or_else(|| {
            service_error(
                "PointInTimeRecoveryUnavailableException",
                format!("Point in time recovery is not enabled for table '{source}'"),
            )
        })?;
        let now = self.clock().now();
        let (earliest, latest_time) = window(history, now);
        let at = match input.restore_date_time {
            Some(at) => at,
            None => latest_time,
        };
        if at < earliest || at > latest_time {
            return Err(service_error(
                "InvalidRestoreTimeException",
                "RestoreDateTime must be between EarliestRestorableDateTime and \
                 LatestRestorableDateTime",
            ));
        }
        let summary = RestoreSummary {
            source_backup_arn: None,
            source_table_arn: Some(table.schema.arn.clone()),
            restore_date_time: at,
            restore_in_progress: true,
        };
        plan(
            &table.schema,
            history.items_at(at),
            &input.target_table_name,
            &input.overrides,
            summary,
        )
    }
}

/// The earliest and latest restorable instants of `history` at `now`.
fn window(history: &History, now: DateTime<Utc>) -> (DateTime<Utc>, DateTime<Utc>) {
    let earliest = history.earliest(now);
    let latest = now
        .checked_sub_signed(LATEST_LAG)
        .unwrap_or(DateTime::<Utc>::MIN_UTC)
        .max(earliest);
    (earliest, latest)
}

/// A table's `ContinuousBackupsDescription` at `now`.
fn continuous_backups(table: &Table, now: DateTime<Utc>) -> ContinuousBackupsDescription {
    let pitr = match table.pitr() {
        Some(history) => {
            let (earliest, latest) = window(history, now);
            PointInTimeRecoveryDescription {
                point_in_time_recovery_status: PointInTimeRecoveryStatus::Enabled,
                recovery_period_in_days: Some(history.period_days()),
                earliest_restorable_date_time: Some(earliest),
                latest_restorable_date_time: Some(latest),
            }
        }
        None => PointInTimeRecoveryDescription {
            point_in_time_recovery_status: PointInTimeRecoveryStatus::Disabled,
            recovery_period_in_days: None,
            earliest_restorable_date_time: None,
            latest_restorable_date_time: None,
        },
    };
    ContinuousBackupsDescription {
        continuous_backups_status: ContinuousBackupsStatus::Enabled,
        point_in_time_recovery_description: Some(pitr),
    }
}
