//! The engine's on-demand backups: each a copy of a table's schema and items at the instant it was
//! requested ([`ops::backups`](crate::ops::backups) serves the API). A copy is a clone of the table's
//! partitions: a deep copy today, and as cheap as the storage's sharing makes a clone.

use chrono::{DateTime, Utc};
use dynomodel::backend::{BackupStatus, TimeToLiveDescription};

use crate::storage::partition::TablePartitions;
use crate::storage::schema::TableSchema;

/// One backup.
#[derive(Debug, Clone)]
pub(crate) struct Backup {
    /// Its ARN's resource part, `table/<name>/backup/<id>` (the region and account are the engine's;
    /// an engine answering every region accepts the ARN in any region).
    pub resource: String,
    /// `BackupName`.
    pub name: String,
    /// When it was requested: the instant whose items it holds.
    pub created: DateTime<Utc>,
    /// When it becomes `AVAILABLE` (after the engine's transition time).
    pub available_at: DateTime<Utc>,
    /// The source table's schema then.
    pub schema: TableSchema,
    /// The source table's items then.
    pub items: TablePartitions,
    /// The source table's item count and size then.
    pub item_count: usize,
    /// In bytes.
    pub size_bytes: usize,
    /// The source table's Time to Live then, when it was on.
    pub ttl: Option<TimeToLiveDescription>,
}

impl Backup {
    /// Its status at `now`.
    pub(crate) fn status(&self, now: DateTime<Utc>) -> BackupStatus {
        if now < self.available_at {
            BackupStatus::Creating
        } else {
            BackupStatus::Available
        }
    }
}

/// Every backup of the engine, in the order they were taken.
#[derive(Debug, Default, Clone)]
pub(crate) struct Backups {
    backups: Vec<Backup>,
    /// Backups taken so far, for unique ids.
    taken: u64,
}

impl Backups {
    /// Counts one more backup; answers its serial number.
    pub(crate) fn next_serial(&mut self) -> u64 {
        self.taken += 1;
        self.taken
    }

    /// Adds a backup.
    pub(crate) fn insert(&mut self, backup: Backup) {
        self.backups.push(backup);
    }

    /// The backup whose ARN has this resource part.
    pub(crate) fn get(&self, resource: &str) -> Option<&Backup> {
        self.backups.iter().find(|b| b.resource == resource)
    }

    /// Removes the backup whose ARN has this resource part.
    pub(crate) fn remove(&mut self, resource: &str) -> Option<Backup> {
        let at = self.backups.iter().position(|b| b.resource == resource)?;
        Some(self.backups.remove(at))
    }

    /// Every backup, in the order they were taken.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Backup> + '_ {
        self.backups.iter()
    }
}
