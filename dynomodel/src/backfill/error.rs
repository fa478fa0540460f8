//! [`BackfillError`]: the content of [`Error::Backfill`].

use std::fmt;

use super::report::BackfillReport;
use crate::error::Error;

/// A backfill that could not run or did not finish: its checkpoint could not be read or written,
/// belongs to another table, or the run was interrupted by an error it could not retry past (the
/// report then says what was done, and the checkpoint where it stood), or a finished run's
/// failures turned into an error by [`BackfillReport::into_result`].
#[derive(Debug, Clone, PartialEq)]
pub struct BackfillError {
    /// What happened, naming the table (and the file or checkpoint).
    pub message: String,
    /// What the run did before it stopped, when it had started.
    pub report: Option<Box<BackfillReport>>,
    /// The error that interrupted the run, if one did.
    pub cause: Option<Box<Error>>,
}

impl BackfillError {
    pub(crate) fn checkpoint(message: String) -> Error {
        Error::Backfill(Box::new(BackfillError {
            message,
            report: None,
            cause: None,
        }))
    }

    pub(crate) fn with_report(message: String, report: BackfillReport) -> Error {
        Error::Backfill(Box::new(BackfillError {
            message,
            report: Some(Box::new(report)),
            cause: None,
        }))
    }

    pub(crate) fn interrupted(cause: Error, report: BackfillReport) -> Error {
        Error::Backfill(Box::new(BackfillError {
            message: format!(
                "the backfill of `{}` stopped after {}: {cause}",
                report.table, report.progress
            ),
            report: Some(Box::new(report)),
            cause: Some(Box::new(cause)),
        }))
    }
}

impl fmt::Display for BackfillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BackfillError {}
