//! The write-ahead log's current segment: appended to by each acknowledged write, fsynced as the sync
//! policy says, rotated when a snapshot starts.

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::dir::{self, Kind};
use super::frame;

/// The segment being appended to.
#[derive(Debug)]
pub(crate) struct Log {
    dir: PathBuf,
    file: Arc<File>,
    generation: u64,
    len: u64,
    /// Written since the last fsync.
    dirty: bool,
}

impl Log {
    /// A new, empty segment of `generation` (its directory entry made durable).
    pub(crate) fn create(dir: &Path, generation: u64) -> io::Result<Log> {
        let path = dir.join(dir::file_name(Kind::Log, generation));
        let file = OpenOptions::new()
            .create(true)
            .truncate(true)
            .write(true)
            .open(&path)?;
        file.sync_all()?;
        dir::sync_dir(dir)?;
        Ok(Log {
            dir: dir.to_path_buf(),
            file: Arc::new(file),
            generation,
            len: 0,
            dirty: false,
        })
    }

    /// The existing segment at `path`, cut to its first `good` bytes (what recovery could read) and
    /// appended to from there.
    pub(crate) fn reopen(dir: &Path, path: &Path, generation: u64, good: u64) -> io::Result<Log> {
        let mut file = OpenOptions::new().write(true).open(path)?;
        if file.metadata()?.len() != good {
            file.set_len(good)?;
            file.sync_all()?;
        }
        file.seek(SeekFrom::Start(good))?;
        Ok(Log {
            dir: dir.to_path_buf(),
            file: Arc::new(file),
            generation,
            len: good,
            dirty: false,
        })
    }

    /// Appends one record (written, not fsynced); returns the bytes written.
    pub(crate) fn append(&mut self, payload: &[u8]) -> io::Result<u64> {
        let written = frame::write(&mut &*self.file, payload)? as u64;
        self.len += written;
        self.dirty = true;
        Ok(written)
    }

    /// The segment's file, to fsync without holding the log (group commit).
    pub(crate) fn sync_handle(&self) -> Arc<File> {
        Arc::clone(&self.file)
    }

    /// Fsyncs what was written since the last fsync.
    pub(crate) fn sync(&mut self) -> io::Result<()> {
        if self.dirty {
            self.file.sync_data()?;
            self.dirty = false;
        }
        Ok(())
    }

    /// Whether anything was written since the last call (or fsync), forgetting it: the caller
    /// fsyncs [`Log::sync_handle`] outside the lock.
    pub(crate) fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
    }

    /// Bytes in the segment.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Fsyncs this segment and starts the next; returns the new generation.
    pub(crate) fn rotate(&mut self) -> io::Result<u64> {
        self.sync()?;
        let next = Log::create(&self.dir, self.generation + 1)?;
        *self = next;
        Ok(self.generation)
    }
}
