//! What a backfill did: [`BackfillProgress`] (the running counts a progress callback sees) and
//! [`BackfillReport`] (the outcome: the counts, the items that failed, how the run ended).

use std::fmt;
use std::time::Duration;

use crate::error::Error;
use crate::value::Item;

/// The running counts of a backfill, handed to its [progress callback](crate::Backfill::on_progress)
/// after each item and kept in its [`BackfillReport`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BackfillProgress {
    /// Items of the model read (in a shared table, other entities' items are not counted).
    pub scanned: u64,
    /// Items rewritten (in a dry run: that would be).
    pub rewritten: u64,
    /// Items already up to date, left alone.
    pub unchanged: u64,
    /// Items deleted between their read and their rewrite (nothing to do).
    pub vanished: u64,
    /// Items that could not be rewritten (see [`BackfillReport::failures`]).
    pub failed: u64,
    /// Rewrites that lost a race with another writer (the item changed since it was read), each
    /// retried from the item as it then was.
    pub races: u64,
    /// Requests throttled (`ProvisionedThroughputExceededException` and the like), each retried
    /// after a backoff.
    pub throttled: u64,
    /// Write capacity units the rewrites consumed, as the backend reported them (estimated from
    /// the items' sizes where it reports none).
    pub write_units: f64,
    /// Read capacity units the scan and re-reads consumed, as reported.
    pub read_units: f64,
}

/// An item a backfill could not rewrite: its key (the table's key attributes) and why.
#[derive(Debug, Clone, PartialEq)]
pub struct BackfillFailure {
    /// The item's key.
    pub key: Item,
    /// What went wrong: an [`Error::ItemDecode`] naming the attribute, a conversion error of the
    /// rewritten item, or the error DynamoDB answered the rewrite with.
    pub error: Error,
}

/// How a backfill ended, and what it did. A report with [`failed`](BackfillProgress::failed) items
/// is still `Ok`: the other items were rewritten. [`BackfillReport::into_result`] turns failures or an
/// unfinished run into an error for callers that want all or nothing.
#[derive(Debug, Clone, PartialEq, Default)]
#[must_use = "a backfill's report says how many items failed and whether it finished"]
pub struct BackfillReport {
    /// The table (namespace included).
    pub table: String,
    /// The counts.
    pub progress: BackfillProgress,
    /// The items that failed, at most [`MAX_FAILURES_KEPT`] of them (the count is in
    /// [`progress.failed`](BackfillProgress::failed)).
    pub failures: Vec<BackfillFailure>,
    /// A dry run: nothing was written, `rewritten` counts what would have been.
    pub dry_run: bool,
    /// The run resumed from a saved checkpoint.
    pub resumed: bool,
    /// Every segment was read to its end (not stopped).
    pub complete: bool,
    /// The run was [stopped](crate::backfill::StopHandle) before its end; its checkpoint (if it has a
    /// store) says where it stood.
    pub stopped: bool,
    /// The time the run took on its clock; with a write budget, the time its writes were paced
    /// over (so `progress.write_units / elapsed` is the rate they went at).
    pub elapsed: Duration,
}

/// How many failed items a [`BackfillReport`] names (the rest are only counted).
pub const MAX_FAILURES_KEPT: usize = 1000;

impl BackfillReport {
    /// `Ok(self)` when the run finished with no failed item; otherwise an [`Error::Backfill`] that
    /// holds this report and says how many items failed (naming the first) or that it was stopped.
    pub fn into_result(self) -> Result<BackfillReport, Error> {
        if self.complete && self.progress.failed == 0 {
            return Ok(self);
        }
        let message = if self.progress.failed > 0 {
            let first = self
                .failures
                .first()
                .map(|f| format!("; the first: {}", f.error))
                .unwrap_or_default();
            format!(
                "the backfill of `{}` could not rewrite {} item(s){first}",
                self.table, self.progress.failed
            )
        } else {
            format!(
                "the backfill of `{}` was stopped before its end",
                self.table
            )
        };
        Err(super::error::BackfillError::with_report(message, self))
    }
}

impl fmt::Display for BackfillProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} scanned, {} rewritten, {} unchanged, {} failed ({} races, {} throttled, {:.1} WCU)",
            self.scanned,
            self.rewritten,
            self.unchanged,
            self.failed,
            self.races,
            self.throttled,
            self.write_units
        )
    }
}
