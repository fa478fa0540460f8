//! [`MigrationError`]: why a plan was refused or stopped.

use std::fmt;
use std::time::Duration;

use crate::error::Error;
use crate::migrate::step::{Blocker, Step};

/// Why [`Plan::apply`](crate::migrate::Plan::apply) refused a plan or stopped; inside
/// [`Error::Migration`].
#[derive(Debug, Clone, PartialEq)]
pub struct MigrationError {
    /// What happened.
    pub kind: MigrationErrorKind,
    /// A one-line description (also the error's `message()`).
    pub message: String,
}

/// The kinds of [`MigrationError`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MigrationErrorKind {
    /// The plan has differences DynamoDB cannot apply in place; nothing was sent.
    Blocked(Vec<Blocker>),
    /// The plan deletes indexes and [`ApplyOptions::allow_index_drops`](crate::migrate::ApplyOptions::allow_index_drops)
    /// was not given; nothing was sent.
    IndexDropsNotAllowed(Vec<Step>),
    /// The plan turns point-in-time recovery off (its recovery window is lost) and
    /// [`ApplyOptions::allow_recovery_off`](crate::migrate::ApplyOptions::allow_recovery_off) was
    /// not given; nothing was sent.
    RecoveryOffNotAllowed(Vec<Step>),
    /// A table was not ACTIVE again within the timeout.
    Timeout {
        /// The table.
        table: String,
        /// How long apply waited.
        waited: Duration,
    },
    /// A step's request failed; the steps before it were applied.
    StepFailed {
        /// The step.
        step: Box<Step>,
        /// DynamoDB's answer.
        source: Box<Error>,
    },
}

impl MigrationError {
    pub(crate) fn new(kind: MigrationErrorKind) -> MigrationError {
        let message = match &kind {
            MigrationErrorKind::Blocked(blockers) => format!(
                "the plan is blocked: {}",
                blockers
                    .iter()
                    .map(|b| format!("{} ({})", b.reason, b.table))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            MigrationErrorKind::IndexDropsNotAllowed(steps) => format!(
                "the plan deletes indexes ({}); pass ApplyOptions::allow_index_drops to run it",
                steps
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            MigrationErrorKind::RecoveryOffNotAllowed(steps) => format!(
                "the plan turns point-in-time recovery off ({}); pass ApplyOptions::allow_recovery_off to run it",
                steps
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            MigrationErrorKind::Timeout { table, waited } => {
                format!("table {table} was not ACTIVE with all its indexes after {waited:?}")
            }
            MigrationErrorKind::StepFailed { step, source } => {
                format!("step `{step}` failed: {source}")
            }
        };
        MigrationError { kind, message }
    }
}

impl fmt::Display for MigrationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MigrationError {}

impl From<MigrationError> for Error {
    fn from(e: MigrationError) -> Error {
        Error::Migration(Box::new(e))
    }
}
