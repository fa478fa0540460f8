//! The data directory: its format version and the names of its files.
//!
//! ```text
//! DIR/LOCK                       held (flock) by the process serving DIR; holds its pid
//! DIR/FORMAT                     "dynomodel-mem data directory, format 2"
//! DIR/MANIFEST                   which snapshot and log segments must exist (`manifest.rs`)
//! DIR/snapshot-00000000000000000007.dyno   the state after every log before generation 7
//! DIR/log-00000000000000000007.dyno        the writes since (generation 7, then 8, …)
//! DIR/aside/                     bytes recovery cut off and files a repair replaced, kept as they were
//! ```

use std::path::{Path, PathBuf};

use super::storage::{write_atomically, Storage};
use super::OpenError;

/// The format this version writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 2;

/// The oldest format this version reads (and converts).
pub(crate) const OLDEST_FORMAT: u32 = 1;

const FORMAT_FILE: &str = "FORMAT";
const FORMAT_PREFIX: &str = "dynomodel-mem data directory, format ";

/// The directory where cut-off bytes and replaced files are kept.
pub(crate) const ASIDE: &str = "aside";

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OpenError + '_ {
    move |source| OpenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The directory's format version; `None` when it has no `FORMAT` file (a new directory, or one
/// whose creation was interrupted).
pub(crate) fn format(storage: &dyn Storage, dir: &Path) -> Result<Option<u32>, OpenError> {
    let path = dir.join(FORMAT_FILE);
    match storage.read(&path) {
        Ok(bytes) => {
            let found = std::str::from_utf8(&bytes)
                .ok()
                .and_then(|text| text.trim().strip_prefix(FORMAT_PREFIX))
                .and_then(|v| v.parse::<u32>().ok())
                .filter(|v| *v >= OLDEST_FORMAT)
                .ok_or_else(|| OpenError::NotADataDir {
                    dir: dir.to_path_buf(),
                })?;
            if found > FORMAT_VERSION {
                return Err(OpenError::NewerFormat {
                    dir: dir.to_path_buf(),
                    found,
                    supported: FORMAT_VERSION,
                });
            }
            Ok(Some(found))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(&path)(e)),
    }
}

/// Writes the current format version: the last step of creating or converting a directory.
pub(crate) fn write_format(storage: &dyn Storage, dir: &Path) -> Result<(), OpenError> {
    write_atomically(
        storage,
        dir,
        FORMAT_FILE,
        format!("{FORMAT_PREFIX}{FORMAT_VERSION}\n").as_bytes(),
    )
    .map_err(io(&dir.join(FORMAT_FILE)))
}

/// A log or snapshot file's name.
pub(crate) fn file_name(kind: Kind, generation: u64) -> String {
    format!("{}-{generation:020}.dyno", kind.prefix())
}

/// A log or snapshot file's path.
pub(crate) fn path(dir: &Path, kind: Kind, generation: u64) -> PathBuf {
    dir.join(file_name(kind, generation))
}

/// The two kinds of data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A write-ahead log segment.
    Log,
    /// A snapshot.
    Snapshot,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::Log => "log",
            Kind::Snapshot => "snapshot",
        }
    }
}

/// The files of `kind` in `dir`, by generation.
pub(crate) fn list(
    storage: &dyn Storage,
    dir: &Path,
    kind: Kind,
) -> std::io::Result<Vec<(u64, PathBuf)>> {
    let prefix = format!("{}-", kind.prefix());
    let mut found: Vec<(u64, PathBuf)> = storage
        .names(dir)?
        .into_iter()
        .filter_map(|name| {
            let generation = name
                .strip_prefix(&prefix)?
                .strip_suffix(".dyno")?
                .parse::<u64>()
                .ok()?;
            Some((generation, dir.join(name)))
        })
        .collect();
    found.sort();
    Ok(found)
}

/// A path under `DIR/aside` for a copy of `file`, named after it and `what`, not taken yet.
pub(crate) fn aside_path(
    storage: &dyn Storage,
    dir: &Path,
    file: &Path,
    what: &str,
) -> std::io::Result<PathBuf> {
    let aside = dir.join(ASIDE);
    storage.create_dir(&aside)?;
    let base = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("file")
        .to_owned();
    let taken = storage.names(&aside)?;
    let mut n = 0u32;
    loop {
        let name = match n {
            0 => format!("{base}.{what}"),
            n => format!("{base}.{what}.{n}"),
        };
        if !taken.contains(&name) {
            return Ok(aside.join(name));
        }
        n += 1;
    }
}
