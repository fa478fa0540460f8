//! A model's table's backups and point-in-time recovery: [`Db::backup`], [`Db::restore_backup`],
//! [`Db::point_in_time_recovery`] and [`Db::restore_to_point_in_time`], over DynamoDB's
//! `CreateBackup`, `RestoreTableFromBackup`, `UpdateContinuousBackups` and
//! `RestoreTableToPointInTime` (the other backup operations, ListBackups and friends, are raw
//! requests through [`Db::backend`]).

use chrono::{DateTime, Utc};

use super::Db;
use crate::backend::*;
use crate::error::Result;
use crate::model::Model;

impl Db {
    /// Takes an on-demand backup of `M`'s table named `backup_name` (3–255 characters of
    /// `[A-Za-z0-9_.-]`); returns its details, whose `backup_arn` names it for
    /// [`restore_backup`](Db::restore_backup).
    ///
    /// DynamoDB's errors are returned as they are: `TableNotFoundException` for a missing table,
    /// `BackupInUseException` while another backup of the table is being taken.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Order { #[hash_key] id: String, total: u32 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let db = Db::memory();
    /// db.create_schema::<Order>().await?;
    /// let order = Order { id: "o1".into(), total: 10 };
    /// db.put(&order).await?;
    /// let backup = db.backup::<Order>("before-migration").await?;
    /// db.delete(&order).await?; // oops
    ///
    /// // Restore into the same table name in another namespace, and read it as `Order`s.
    /// let restored = db.clone().with_namespace("restored-");
    /// db.restore_backup(&backup.backup_arn, &restored.table_name::<Order>()).await?;
    /// assert_eq!(restored.get::<Order>("o1").await?.map(|o| o.total), Some(10));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn backup<M: Model>(&self, backup_name: &str) -> Result<BackupDetails> {
        let input = CreateBackupInput {
            table_name: self.table_name::<M>(),
            backup_name: backup_name.to_owned(),
        };
        Ok(self.calls.create_backup(input).await?.backup_details)
    }

    /// Restores the backup `backup_arn` into a new table `target_table` (with the backup's items,
    /// indexes, capacity and billing mode; not its tags, stream, time to live or point-in-time
    /// recovery, which DynamoDB leaves to be set again). Returns the new table's description; it
    /// is `CREATING` until the restore is over (on the in-memory engine, for its transition time).
    /// For other overrides send [`RestoreTableFromBackupInput`] through [`Db::backend`].
    ///
    /// Errors: `BackupNotFoundException`, `TableAlreadyExistsException` (see [`Db::backup`] for an
    /// example).
    pub async fn restore_backup(
        &self,
        backup_arn: &str,
        target_table: &str,
    ) -> Result<TableDescription> {
        let input = RestoreTableFromBackupInput {
            target_table_name: target_table.to_owned(),
            backup_arn: backup_arn.to_owned(),
            overrides: RestoreOverrides::default(),
        };
        Ok(self
            .calls
            .restore_table_from_backup(input)
            .await?
            .table_description)
    }

    /// Turns point-in-time recovery of `M`'s table on (keeping DynamoDB's default window of 35
    /// days) or off; returns the table's point-in-time recovery as now set.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// use dynomodel::backend::PointInTimeRecoveryStatus;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Order { #[hash_key] id: String, total: u32 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Order>().await?;
    /// let pitr = db.point_in_time_recovery::<Order>(true).await?;
    /// assert_eq!(pitr.point_in_time_recovery_status, PointInTimeRecoveryStatus::Enabled);
    /// assert_eq!(pitr.recovery_period_in_days, Some(35));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn point_in_time_recovery<M: Model>(
        &self,
        enabled: bool,
    ) -> Result<PointInTimeRecoveryDescription> {
        let input = UpdateContinuousBackupsInput {
            table_name: self.table_name::<M>(),
            point_in_time_recovery_specification: PointInTimeRecoverySpecification {
                point_in_time_recovery_enabled: enabled,
                recovery_period_in_days: None,
            },
        };
        let description = self
            .calls
            .update_continuous_backups(input)
            .await?
            .continuous_backups_description;
        Ok(description.point_in_time_recovery_description.unwrap_or(
            PointInTimeRecoveryDescription {
                point_in_time_recovery_status: PointInTimeRecoveryStatus::Disabled,
                recovery_period_in_days: None,
                earliest_restorable_date_time: None,
                latest_restorable_date_time: None,
            },
        ))
    }

    /// Restores `M`'s table as it was at `at` (`None`: the latest restorable instant, five
    /// minutes before now on DynamoDB) into a new table `target_table`, as
    /// [`restore_backup`](Db::restore_backup) does. Point-in-time recovery must be on
    /// ([`point_in_time_recovery`](Db::point_in_time_recovery)), and `at` within its window.
    ///
    /// Errors: `PointInTimeRecoveryUnavailableException`, `InvalidRestoreTimeException`,
    /// `TableAlreadyExistsException`.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::{MemBackend, ManualClock};
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Order { #[hash_key] id: String, total: u32 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let clock = ManualClock::default();
    /// let db = Db::new(MemBackend::with_clock(clock.clone()));
    /// db.create_schema::<Order>().await?;
    /// db.point_in_time_recovery::<Order>(true).await?;
    /// db.put(&Order { id: "o1".into(), total: 10 }).await?;
    /// clock.advance(std::time::Duration::from_secs(60));
    /// let good = db.backend().now();
    /// clock.advance(std::time::Duration::from_secs(60));
    /// db.put(&Order { id: "o1".into(), total: 99 }).await?; // the bad write
    /// clock.advance(std::time::Duration::from_secs(600));
    ///
    /// let restored = db.clone().with_namespace("restored-");
    /// db.restore_to_point_in_time::<Order>(&restored.table_name::<Order>(), Some(good))
    ///     .await?;
    /// assert_eq!(restored.get::<Order>("o1").await?.map(|o| o.total), Some(10));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn restore_to_point_in_time<M: Model>(
        &self,
        target_table: &str,
        at: Option<DateTime<Utc>>,
    ) -> Result<TableDescription> {
        let input = RestoreTableToPointInTimeInput {
            source_table_name: Some(self.table_name::<M>()),
            source_table_arn: None,
            target_table_name: target_table.to_owned(),
            use_latest_restorable_time: at.is_none().then_some(true),
            restore_date_time: at,
            overrides: RestoreOverrides::default(),
        };
        Ok(self
            .calls
            .restore_table_to_point_in_time(input)
            .await?
            .table_description)
    }
}
