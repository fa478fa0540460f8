//! What opening a data directory reports: the recovery report, and why it could not be opened.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::frame::Damage;

/// A log record cut off at the end of the last log: what a crash during a write leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TornTail {
    /// The log file.
    pub file: PathBuf,
    /// Where its last good record ends (the file was cut there).
    pub offset: u64,
    /// Bytes dropped after it.
    pub dropped: u64,
    /// What was wrong with them.
    pub damage: Damage,
}

/// What recovery found and did when a data directory was opened.
#[derive(Debug, Clone, Default)]
pub struct RecoveryReport {
    /// The data directory.
    pub dir: PathBuf,
    /// The snapshot loaded, if any.
    pub snapshot: Option<PathBuf>,
    /// Tables and items it held.
    pub snapshot_tables: u64,
    /// Items it held.
    pub snapshot_items: u64,
    /// Log files replayed.
    pub log_files: usize,
    /// Log records replayed.
    pub records: u64,
    /// A torn or corrupt record at the end of the last log, cut off.
    pub torn_tail: Option<TornTail>,
    /// Records that did not apply as they did the first time (none, unless the directory was
    /// written by a different engine version with different rules).
    pub warnings: Vec<String>,
    /// How long recovery took.
    pub duration: Duration,
}

impl fmt::Display for RecoveryReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "recovered {} in {:.1?}: ",
            self.dir.display(),
            self.duration
        )?;
        match &self.snapshot {
            Some(s) => write!(
                f,
                "snapshot {} ({} tables, {} items)",
                s.display(),
                self.snapshot_tables,
                self.snapshot_items
            )?,
            None => f.write_str("no snapshot")?,
        }
        write!(
            f,
            ", {} records from {} log files",
            self.records, self.log_files
        )?;
        if let Some(t) = &self.torn_tail {
            write!(
                f,
                "; {} at offset {} of {}: cut there ({} bytes dropped)",
                t.damage,
                t.offset,
                t.file.display(),
                t.dropped
            )?;
        }
        if !self.warnings.is_empty() {
            write!(f, "; {} warnings", self.warnings.len())?;
        }
        Ok(())
    }
}

/// Where a snapshot stopped making sense.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotError {
    /// The offset of the bad frame.
    pub offset: u64,
    /// What is wrong with it.
    pub damage: Damage,
}

/// Why a data directory could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// Another process serves it.
    InUse {
        /// The directory.
        dir: PathBuf,
        /// The other process, as its lock file says.
        pid: Option<u32>,
    },
    /// It was written by a newer version of the engine.
    NewerFormat {
        /// The directory.
        dir: PathBuf,
        /// Its format version.
        found: u32,
        /// The newest this version reads.
        supported: u32,
    },
    /// Its `FORMAT` file is not one of ours.
    NotADataDir {
        /// The directory.
        dir: PathBuf,
    },
    /// A snapshot is damaged (not what a crash leaves: snapshots are renamed into place whole).
    CorruptSnapshot {
        /// The snapshot.
        file: PathBuf,
        /// Where.
        offset: u64,
        /// How.
        damage: Damage,
    },
    /// A log other than the last is damaged (a crash only tears the end of the last).
    CorruptLog {
        /// The log.
        file: PathBuf,
        /// Where its good records end.
        offset: u64,
        /// How.
        damage: Damage,
    },
    /// Reading or writing failed.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::InUse { dir, pid } => {
                write!(
                    f,
                    "data directory {} is in use by another dynomodel-mem process",
                    dir.display()
                )?;
                match pid {
                    Some(pid) => write!(f, " (pid {pid})"),
                    None => Ok(()),
                }
            }
            OpenError::NewerFormat {
                dir,
                found,
                supported,
            } => write!(
                f,
                "data directory {} has format version {found}, newer than this dynomodel-mem reads \
                 ({supported}); use a newer dynomodel-mem",
                dir.display()
            ),
            OpenError::NotADataDir { dir } => write!(
                f,
                "{} is not a dynomodel-mem data directory (unreadable FORMAT file)",
                dir.display()
            ),
            OpenError::CorruptSnapshot {
                file,
                offset,
                damage,
            } => write!(
                f,
                "snapshot {} is damaged ({damage} at offset {offset}); refusing to start with \
                 acknowledged writes missing",
                file.display()
            ),
            OpenError::CorruptLog {
                file,
                offset,
                damage,
            } => write!(
                f,
                "log {} is damaged ({damage} at offset {offset}) and later logs follow it; refusing \
                 to start with acknowledged writes missing",
                file.display()
            ),
            OpenError::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

pub(crate) fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> OpenError + '_ {
    move |source| OpenError::Io {
        path: path.to_path_buf(),
        source,
    }
}
