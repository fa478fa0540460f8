//! What opening a data directory reports: the recovery report, the damage that stops it, and what a
//! repair dropped.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What is wrong with a file of a data directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Damage {
    /// Fewer bytes than a frame's header, or than the payload it declares: a write cut short.
    Truncated,
    /// A frame's payload does not match its checksum (or it declares an impossible length).
    Checksum,
    /// A frame passed its checksum but is not what this version writes there.
    Undecodable,
    /// A file the directory's manifest names is not there.
    Missing,
    /// A closed log segment is not as long as the manifest recorded when it was closed.
    Length {
        /// The length the manifest recorded.
        expected: u64,
    },
    /// A record's sequence number is not the next one: records are missing before it.
    Sequence {
        /// The number that should have come.
        expected: u64,
        /// The number found.
        found: u64,
    },
    /// A log segment the manifest does not name holds records.
    Unexpected,
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Truncated => f.write_str("truncated record"),
            Damage::Checksum => f.write_str("checksum mismatch"),
            Damage::Undecodable => f.write_str("undecodable record"),
            Damage::Missing => f.write_str("missing file, which the manifest names"),
            Damage::Length { expected } => {
                write!(
                    f,
                    "length differs from the {expected} bytes the manifest recorded"
                )
            }
            Damage::Sequence { expected, found } => {
                write!(f, "record {found} where record {expected} was expected")
            }
            Damage::Unexpected => {
                f.write_str("log segment with records that the manifest does not name")
            }
        }
    }
}

/// Records that can still be read after a point of damage (in the damaged file and the log
/// segments after it): what starting at the damage would lose, or what a repair dropped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Readable {
    /// How many records.
    pub records: u64,
    /// The highest sequence number among them.
    pub last: Option<u64>,
    /// Bytes from the damage to the end of the damaged file, plus the later log segments.
    pub bytes: u64,
}

impl fmt::Display for Readable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.last {
            Some(last) => write!(
                f,
                "{} readable records (up to record {last}) in {} bytes",
                self.records, self.bytes
            ),
            None => write!(f, "{} bytes with no readable record", self.bytes),
        }
    }
}

/// Why a data directory is refused: damage that a crash does not leave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamageReport {
    /// The damaged (or missing) file.
    pub file: PathBuf,
    /// Where in it: the end of the last good frame.
    pub offset: u64,
    /// What is wrong.
    pub damage: Damage,
    /// The sequence number of the last record before the damage (0: none).
    pub last_good: u64,
    /// What follows the damage, which starting there would lose.
    pub after: Readable,
    /// Whether a repair can cut the log there (not for a damaged snapshot or manifest, which later
    /// records build on).
    pub repairable: bool,
}

impl fmt::Display for DamageReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.display();
        let manifest = self.file.file_name() == Some(std::ffi::OsStr::new(super::manifest::FILE));
        match self.damage {
            Damage::Missing if manifest => write!(f, "{file} is missing")?,
            Damage::Missing => write!(
                f,
                "{file} is missing (the manifest names it); after it: {}",
                self.after
            )?,
            _ if manifest => write!(f, "{file} is unreadable")?,
            _ if !self.repairable => write!(
                f,
                "{file} is damaged at offset {} ({}); the {} bytes from there hold state that \
                 every later record builds on",
                self.offset, self.damage, self.after.bytes
            )?,
            _ => write!(
                f,
                "{file} is damaged at offset {} ({}); from there: {}",
                self.offset, self.damage, self.after
            )?,
        }
        f.write_str("; refusing to start with acknowledged writes missing. ")?;
        let dir = self.file.parent().unwrap_or(Path::new("."));
        let aside = dir.join(super::dir::ASIDE);
        match (self.repairable, manifest) {
            (true, true) => write!(
                f,
                "`dynomodel-mem repair --data-dir {}` rebuilds it from the log segments (keeping \
                 the old one in {})",
                dir.display(),
                aside.display()
            ),
            (true, false) => write!(
                f,
                "Keep a copy of the directory, then `dynomodel-mem repair --data-dir {}` cuts the \
                 log after record {} (the files it changes are kept in {})",
                dir.display(),
                self.last_good,
                aside.display()
            ),
            (false, _) => {
                f.write_str("It cannot be repaired in place: restore the directory from a backup")
            }
        }
    }
}

/// What an explicit repair dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// The damage it cut at.
    pub damage: DamageReport,
    /// The last record kept (its sequence number; 0: none).
    pub kept_last: u64,
    /// The records dropped (readable after the damage) and their bytes.
    pub dropped: Readable,
    /// Where the original files went, unchanged.
    pub aside: PathBuf,
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "repaired: {} at offset {} of {}: kept records up to {}, dropped {}; the original \
             files are in {}",
            self.damage.damage,
            self.damage.offset,
            self.damage.file.display(),
            self.kept_last,
            self.dropped,
            self.aside.display()
        )
    }
}

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
    /// The sequence number of the torn record, when its first bytes say it.
    pub record: Option<u64>,
    /// Where the dropped bytes were kept.
    pub kept: PathBuf,
}

/// What recovery found and did when a data directory was opened.
#[derive(Debug, Clone, Default)]
pub struct RecoveryReport {
    /// The data directory.
    pub dir: PathBuf,
    /// The snapshot loaded, if any.
    pub snapshot: Option<PathBuf>,
    /// Tables it held.
    pub snapshot_tables: u64,
    /// Items it held.
    pub snapshot_items: u64,
    /// Log files replayed.
    pub log_files: usize,
    /// Log records replayed.
    pub records: u64,
    /// The sequence number of the last record (0: none yet).
    pub last_record: u64,
    /// A torn record at the end of the last log, cut off (its bytes kept aside).
    pub torn_tail: Option<TornTail>,
    /// What an explicit repair dropped, when one ran (one entry per damage it cut at).
    pub repairs: Vec<Repair>,
    /// The format the directory was converted from, when it was written by an older version.
    pub converted_from: Option<u32>,
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
            ", {} records from {} log files (last record {})",
            self.records, self.log_files, self.last_record
        )?;
        if let Some(t) = &self.torn_tail {
            write!(
                f,
                "; torn last record ({}{}) at offset {} of {}: cut there, {} bytes kept in {}",
                t.damage,
                t.record
                    .map(|r| format!(", record {r}"))
                    .unwrap_or_default(),
                t.offset,
                t.file.display(),
                t.dropped,
                t.kept.display()
            )?;
        }
        for r in &self.repairs {
            write!(f, "; {r}")?;
        }
        if let Some(from) = self.converted_from {
            write!(f, "; converted from format {from}")?;
        }
        if !self.warnings.is_empty() {
            write!(f, "; {} warnings", self.warnings.len())?;
        }
        Ok(())
    }
}

/// Where a snapshot stopped making sense.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SnapshotError {
    /// The offset of the bad frame.
    pub offset: u64,
    /// What is wrong with it.
    pub damage: Damage,
}

/// Why a data directory could not be opened.
#[derive(Debug)]
#[non_exhaustive]
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
    /// Its `FORMAT` file is not one of ours, or missing beside data files.
    NotADataDir {
        /// The directory.
        dir: PathBuf,
    },
    /// A file is damaged, or missing, in a way a crash does not leave: starting would serve the
    /// directory with acknowledged writes missing.
    Damaged(Box<DamageReport>),
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
                "{} is not a dynomodel-mem data directory (its FORMAT file is unreadable or \
                 missing)",
                dir.display()
            ),
            OpenError::Damaged(report) => write!(f, "data directory damaged: {report}"),
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
