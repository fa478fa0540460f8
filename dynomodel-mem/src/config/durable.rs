//! Durable mode's side of [`MemBackendBuilder`]: its settings and [`open`](MemBackendBuilder::open).

use crate::{MemBackend, MemBackendBuilder};

/// Durable mode's settings (see [`crate::durable`]).
impl MemBackendBuilder {
    /// When a write's log record reaches the disk (default: [`SyncPolicy::Always`](crate::SyncPolicy)).
    pub fn sync(mut self, policy: crate::SyncPolicy) -> Self {
        self.durable.sync = policy;
        self
    }

    /// Log bytes after which a snapshot is written in the background and the log dropped (default
    /// 64 MiB).
    pub fn compact_after(mut self, bytes: u64) -> Self {
        self.durable.compact_after = bytes;
        self
    }

    /// Lets [`open`](MemBackendBuilder::open) repair a damaged log instead of refusing it: the log
    /// is cut at its last good record before the damage, every file changed is kept unchanged in
    /// `DIR/aside/repair-N/`, and [`RecoveryReport::repairs`](crate::RecoveryReport::repairs) says
    /// what was dropped (records, their last sequence number, bytes). What `dynomodel-mem repair`
    /// runs. A damaged snapshot is still refused: every later record builds on it.
    ///
    /// ```
    /// use dynomodel_mem::{MemBackend, OpenError};
    ///
    /// let dir = std::env::temp_dir().join(format!("dynomodel-repair-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// drop(MemBackend::open(&dir)?);
    /// // The log segment the manifest names is deleted: refused, then repaired.
    /// std::fs::remove_file(dir.join("log-00000000000000000000.dyno"))?;
    /// let refused = MemBackend::open(&dir).unwrap_err();
    /// assert!(matches!(refused, OpenError::Damaged(_)), "{refused}");
    /// let repaired = MemBackend::builder().repair().open(&dir)?;
    /// let report = repaired.recovery_report().unwrap();
    /// assert_eq!(report.repairs.len(), 1);
    /// assert_eq!(report.repairs[0].dropped.records, 0);
    /// # drop(repaired);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn repair(mut self) -> Self {
        self.durable.repair = true;
        self
    }

    /// The file system the data directory lives on (tests: one that fails on purpose).
    #[cfg(test)]
    pub(crate) fn storage(
        mut self,
        storage: std::sync::Arc<dyn crate::durable::storage::Storage>,
    ) -> Self {
        self.durable.storage = storage;
        self
    }

    /// How often a degraded directory is probed (tests: quickly).
    #[cfg(test)]
    pub(crate) fn probe_interval(mut self, interval: std::time::Duration) -> Self {
        self.durable.probe_interval = interval;
        self
    }

    /// The engine, durable in `dir` (created if missing): its state recovered from the directory,
    /// every acknowledged write logged there. See [`MemBackend::open`].
    pub fn open(self, dir: impl AsRef<std::path::Path>) -> Result<MemBackend, crate::OpenError> {
        crate::durable::open(
            dir.as_ref(),
            self.durable,
            self.clock.unwrap_or_default(),
            self.config,
            self.faults,
        )
    }
}
