//! The file system as durable mode uses it: a handful of operations behind a trait, so that tests
//! can run the real engine on a storage that fails on purpose (`sim.rs`: full disks, failed writes
//! and fsyncs, short and torn writes, power cuts, flipped bits), as SQLite's test VFS does.
//!
//! Files are written only by appending (a log segment, a snapshot, a small file written whole), and
//! read only whole: that is all the durable layer needs, and it keeps a fault-injecting
//! implementation small.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::OpenError;

/// A data directory's file system.
pub(crate) trait Storage: Send + Sync + fmt::Debug {
    /// Creates `dir` if needed and locks it for this process: the returned value holds the lock
    /// (another process opening `dir` gets [`OpenError::InUse`]).
    fn lock(&self, dir: &Path) -> Result<Box<dyn fmt::Debug + Send + Sync>, OpenError>;
    /// The whole content of `path`.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// The names of the files in `dir`.
    fn names(&self, dir: &Path) -> io::Result<Vec<String>>;
    /// A new, empty file at `path` (an existing one is emptied), to append to.
    fn create(&self, path: &Path) -> io::Result<Arc<dyn StorageFile>>;
    /// The existing file at `path`, to append to at its end.
    fn open(&self, path: &Path) -> io::Result<Arc<dyn StorageFile>>;
    /// Renames `from` to `to`, replacing `to`.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Removes the file `path`.
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// Creates the directory `dir` (and its parents) if needed.
    fn create_dir(&self, dir: &Path) -> io::Result<()>;
    /// Makes `dir`'s entries (creations, renames, removals) durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
}

/// A file open for appending.
pub(crate) trait StorageFile: Send + Sync + fmt::Debug {
    /// Appends `bytes` at the end. On an error a prefix of them may have been written.
    fn append(&self, bytes: &[u8]) -> io::Result<()>;
    /// Makes the data written so far durable (`fdatasync`).
    fn sync_data(&self) -> io::Result<()>;
    /// Makes the data and the file's metadata (its length) durable (`fsync`).
    fn sync_all(&self) -> io::Result<()>;
    /// Cuts (or extends) the file to `len` bytes; appends go on from there.
    fn set_len(&self, len: u64) -> io::Result<()>;
}

/// The operating system's file system.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct OsStorage;

const LOCK_FILE: &str = "LOCK";

/// The lock on a data directory: an OS file lock, which the kernel drops when the process dies,
/// however it dies (no stale lock after a `kill -9`).
#[derive(Debug)]
struct DirLock {
    _file: File,
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> OpenError + '_ {
    move |source| OpenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Storage for OsStorage {
    fn lock(&self, dir: &Path) -> Result<Box<dyn fmt::Debug + Send + Sync>, OpenError> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let path = dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error(&path))?;
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
            Err(fs::TryLockError::Error(e)) => return Err(io_error(&path)(e)),
        }
        // The pid is informative only (the lock is the flock, not the file's content).
        file.set_len(0).map_err(io_error(&path))?;
        file.rewind().map_err(io_error(&path))?;
        write!(file, "{}", std::process::id()).map_err(io_error(&path))?;
        file.sync_all().map_err(io_error(&path))?;
        Ok(Box::new(DirLock { _file: file }))
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    fn names(&self, dir: &Path) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in fs::read_dir(dir)? {
            if let Some(name) = entry?.file_name().to_str() {
                names.push(name.to_owned());
            }
        }
        Ok(names)
    }

    fn create(&self, path: &Path) -> io::Result<Arc<dyn StorageFile>> {
        let file = OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .open(path)?;
        // Appending mode: every write goes to the end, also after `set_len` cut the file.
        drop(file);
        self.open(path)
    }

    fn open(&self, path: &Path) -> io::Result<Arc<dyn StorageFile>> {
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Arc::new(OsFile {
            file,
            path: path.to_path_buf(),
        }))
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }

    fn remove(&self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }

    fn create_dir(&self, dir: &Path) -> io::Result<()> {
        fs::create_dir_all(dir)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        File::open(dir)?.sync_all()
    }
}

/// A file of [`OsStorage`], opened for appending.
#[derive(Debug)]
struct OsFile {
    file: File,
    path: PathBuf,
}

impl StorageFile for OsFile {
    fn append(&self, bytes: &[u8]) -> io::Result<()> {
        // One `write` system call for a record (the file is unbuffered): a process killed between
        // requests never leaves half a record behind.
        (&self.file).write_all(bytes)
    }

    fn sync_data(&self) -> io::Result<()> {
        self.file.sync_data()
    }

    fn sync_all(&self) -> io::Result<()> {
        self.file.sync_all()
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        self.file
            .set_len(len)
            .map_err(|e| io::Error::new(e.kind(), format!("cutting {}: {e}", self.path.display())))
    }
}

/// Writes `name` in `dir` so that it is either absent (or as before) or complete, even after a power
/// cut: a temporary file written and fsynced, renamed over the name, the directory fsynced. A
/// failure leaves no temporary file behind (as far as the file system lets it be removed).
pub(crate) fn write_atomically(
    storage: &dyn Storage,
    dir: &Path,
    name: &str,
    bytes: &[u8],
) -> io::Result<()> {
    let tmp = dir.join(format!("{name}.tmp"));
    let written = (|| {
        let file = storage.create(&tmp)?;
        file.append(bytes)?;
        file.sync_all()?;
        drop(file);
        storage.rename(&tmp, &dir.join(name))
    })();
    if written.is_err() {
        let _ = storage.remove(&tmp);
    }
    written?;
    storage.sync_dir(dir)
}

/// An [`io::Write`] that appends to a [`StorageFile`] (for a `BufWriter` in front of a snapshot).
pub(crate) struct Appender<'a>(pub &'a dyn StorageFile);

impl Write for Appender<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.append(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
