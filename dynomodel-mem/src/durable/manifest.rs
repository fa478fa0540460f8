//! The manifest: the directory's own record of which files must exist, so that a missing snapshot, a
//! missing log segment or a closed segment cut short is told from a directory that never had them.
//!
//! It is rewritten (atomically: temporary file, fsync, rename, directory fsync) only when the set of
//! files changes, that is when a log segment is closed and the next started, and when a snapshot
//! replaces older files: never on the write path.
//!
//! ```json
//! {"format": 2,
//!  "snapshot": {"generation": 7, "last": 1234},       // the snapshot to load (or a newer one), or null
//!  "logs": [{"generation": 7, "first": 1235, "end": {"last": 1300, "bytes": 9999}},
//!           {"generation": 8, "first": 1301}]}         // the last one is being appended to
//! ```
//!
//! `first` and `last` are record sequence numbers: every record carries its number, consecutive
//! across segments, so that a gap is seen wherever it is.

use std::path::Path;

use serde_json::{json, Value};

use super::dir::FORMAT_VERSION;
use super::report::{Damage, DamageReport, Readable};
use super::storage::{write_atomically, Storage};
use super::OpenError;

/// The manifest's file name.
pub(crate) const FILE: &str = "MANIFEST";

/// The snapshot a manifest names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SnapshotEntry {
    pub generation: u64,
    /// The sequence number of the last record it holds (0: none).
    pub last: u64,
}

/// Where a closed log segment ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct End {
    /// Its last record's sequence number (`first - 1` when it holds none).
    pub last: u64,
    /// Its length.
    pub bytes: u64,
}

/// A log segment a manifest names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LogEntry {
    pub generation: u64,
    /// The sequence number of its first record.
    pub first: u64,
    /// Where it ended, once closed (`None` for the segment being appended to).
    pub end: Option<End>,
}

/// The files that must exist.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Manifest {
    pub snapshot: Option<SnapshotEntry>,
    /// Oldest first; the last is the segment being appended to.
    pub logs: Vec<LogEntry>,
}

impl Manifest {
    fn to_json(&self) -> Value {
        let logs: Vec<Value> = self
            .logs
            .iter()
            .map(|l| match l.end {
                Some(end) => json!({"generation": l.generation, "first": l.first,
                    "end": {"last": end.last, "bytes": end.bytes}}),
                None => json!({"generation": l.generation, "first": l.first}),
            })
            .collect();
        json!({
            "format": FORMAT_VERSION,
            "snapshot": self.snapshot.map(|s| json!({"generation": s.generation, "last": s.last})),
            "logs": logs,
        })
    }

    fn from_json(v: &Value) -> Option<Manifest> {
        let snapshot = match v.get("snapshot")? {
            Value::Null => None,
            s => Some(SnapshotEntry {
                generation: s.get("generation")?.as_u64()?,
                last: s.get("last")?.as_u64()?,
            }),
        };
        let logs = v
            .get("logs")?
            .as_array()?
            .iter()
            .map(|l| {
                let end = match l.get("end") {
                    None => None,
                    Some(e) => Some(End {
                        last: e.get("last")?.as_u64()?,
                        bytes: e.get("bytes")?.as_u64()?,
                    }),
                };
                Some(LogEntry {
                    generation: l.get("generation")?.as_u64()?,
                    first: l.get("first")?.as_u64()?,
                    end,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        (!logs.is_empty()).then_some(Manifest { snapshot, logs })
    }

    /// The segment being appended to.
    pub(crate) fn current(&self) -> Option<&LogEntry> {
        self.logs.last()
    }

    /// Writes the manifest of `dir` (atomically).
    pub(crate) fn write(&self, storage: &dyn Storage, dir: &Path) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(&self.to_json()).map_err(std::io::Error::other)?;
        write_atomically(storage, dir, FILE, &bytes)
    }

    /// The manifest of `dir`; `None` when it has none.
    pub(crate) fn read(storage: &dyn Storage, dir: &Path) -> Result<Option<Manifest>, OpenError> {
        let path = dir.join(FILE);
        let bytes = match storage.read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(OpenError::Io { path, source }),
        };
        let parsed = serde_json::from_slice::<Value>(&bytes)
            .ok()
            .and_then(|v| Manifest::from_json(&v));
        match parsed {
            Some(m) => Ok(Some(m)),
            None => Err(OpenError::Damaged(Box::new(DamageReport {
                file: path,
                offset: 0,
                damage: Damage::Undecodable,
                last_good: 0,
                after: Readable::default(),
                repairable: true,
            }))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_round_trip() {
        let m = Manifest {
            snapshot: Some(SnapshotEntry {
                generation: 3,
                last: 10,
            }),
            logs: vec![
                LogEntry {
                    generation: 3,
                    first: 11,
                    end: Some(End {
                        last: 20,
                        bytes: 900,
                    }),
                },
                LogEntry {
                    generation: 4,
                    first: 21,
                    end: None,
                },
            ],
        };
        assert_eq!(Manifest::from_json(&m.to_json()), Some(m));
        assert_eq!(
            Manifest::from_json(&json!({"snapshot": null, "logs": []})),
            None
        );
    }
}
