//! The data directory: its lock, its format version and the names of its files.
//!
//! ```text
//! DIR/LOCK                       held (flock) by the process serving DIR; holds its pid
//! DIR/FORMAT                     "dynomodel-mem data directory, format 1"
//! DIR/snapshot-00000000000000000007.dyno   the state after every log before generation 7
//! DIR/log-00000000000000000007.dyno        the writes since (generation 7, then 8, …)
//! ```

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use super::OpenError;

/// The format this version writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

const FORMAT_FILE: &str = "FORMAT";
const LOCK_FILE: &str = "LOCK";
const FORMAT_PREFIX: &str = "dynomodel-mem data directory, format ";

/// The lock on a data directory, held as long as this value lives (the OS releases it when the
/// process dies, however it dies: no stale lock after a `kill -9`).
#[derive(Debug)]
pub(crate) struct DirLock {
    _file: File,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> OpenError + '_ {
    move |source| OpenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Creates `dir` if needed and locks it, or says which process holds it.
pub(crate) fn lock(dir: &Path) -> Result<DirLock, OpenError> {
    fs::create_dir_all(dir).map_err(io(dir))?;
    let path = dir.join(LOCK_FILE);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io(&path))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            return Err(OpenError::InUse {
                dir: dir.to_path_buf(),
                pid: text.trim().parse().ok(),
            });
        }
        Err(fs::TryLockError::Error(e)) => return Err(io(&path)(e)),
    }
    // The pid is informative only (the lock is the flock, not the file's content).
    file.set_len(0).map_err(io(&path))?;
    file.rewind().map_err(io(&path))?;
    write!(file, "{}", std::process::id()).map_err(io(&path))?;
    file.sync_all().map_err(io(&path))?;
    Ok(DirLock { _file: file })
}

/// Checks the directory's format version, writing it into a new directory.
pub(crate) fn check_format(dir: &Path) -> Result<(), OpenError> {
    let path = dir.join(FORMAT_FILE);
    match fs::read_to_string(&path) {
        Ok(text) => {
            let found = text
                .trim()
                .strip_prefix(FORMAT_PREFIX)
                .and_then(|v| v.parse::<u32>().ok())
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
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => write_atomically(
            dir,
            FORMAT_FILE,
            format!("{FORMAT_PREFIX}{FORMAT_VERSION}\n").as_bytes(),
        )
        .map_err(io(&path)),
        Err(e) => Err(io(&path)(e)),
    }
}

/// Writes `name` in `dir` so that it is either absent or complete, even after a power cut: write a
/// temporary file, fsync it, rename it over the name, fsync the directory.
pub(crate) fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = dir.join(format!("{name}.tmp"));
    let mut file = File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&tmp, dir.join(name))?;
    sync_dir(dir)
}

/// Makes the directory's entries (creations, renames, removals) durable.
pub(crate) fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

/// A log or snapshot file's name.
pub(crate) fn file_name(kind: Kind, generation: u64) -> String {
    format!("{}-{generation:020}.dyno", kind.prefix())
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
pub(crate) fn list(dir: &Path, kind: Kind) -> std::io::Result<Vec<(u64, PathBuf)>> {
    let prefix = format!("{}-", kind.prefix());
    let mut found = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let generation = name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".dyno"))
            .and_then(|g| g.parse::<u64>().ok());
        if let Some(generation) = generation {
            found.push((generation, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}
