//! The write-ahead log's current segment: appended to by each acknowledged write, fsynced as the sync
//! policy says, rotated when a snapshot starts. It keeps the manifest (`manifest.rs`), which changes
//! when segments do.
//!
//! A segment starts with a header frame (`DYNOLOG2`, its generation, the sequence number of its
//! first record), written and fsynced when the segment is created, before the manifest names it: a
//! segment the manifest names always has one, so an emptied or overwritten segment is damage, not
//! an empty log.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::dir::{self, Kind};
use super::frame::{self, HEADER};
use super::manifest::{End, LogEntry, Manifest};
use super::storage::{Storage, StorageFile};

const MAGIC: &[u8; 8] = b"DYNOLOG2";

/// A segment header's payload.
pub(crate) fn header_payload(generation: u64, first: u64) -> Vec<u8> {
    let mut payload = MAGIC.to_vec();
    payload.extend_from_slice(&generation.to_le_bytes());
    payload.extend_from_slice(&first.to_le_bytes());
    payload
}

/// The generation and first sequence number a segment header's payload holds.
pub(crate) fn parse_header(payload: &[u8]) -> Option<(u64, u64)> {
    let rest = payload.strip_prefix(MAGIC)?;
    let word = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(rest.get(at..at + 8)?);
        Some(u64::from_le_bytes(b))
    };
    (rest.len() == 16).then_some((word(0)?, word(8)?))
}

/// The segment being appended to.
#[derive(Debug)]
pub(crate) struct Log {
    storage: Arc<dyn Storage>,
    dir: PathBuf,
    file: Arc<dyn StorageFile>,
    generation: u64,
    /// Bytes in the segment: its header and the records appended.
    len: u64,
    /// Bytes of it known to be on disk.
    synced_len: u64,
    /// The next record's sequence number.
    next: u64,
    /// Written since the last fsync.
    dirty: bool,
    /// A failed append could not be cut back: no more appends until recovery cuts the segment.
    broken: bool,
    /// The files that must exist.
    manifest: Manifest,
}

impl Log {
    /// Creates segment `generation`, whose first record will be `first`: its header written and
    /// fsynced, its directory entry made durable. The manifest is the caller's to update.
    fn create_segment(
        storage: &Arc<dyn Storage>,
        dir: &Path,
        generation: u64,
        first: u64,
    ) -> io::Result<(Arc<dyn StorageFile>, u64)> {
        let path = dir::path(dir, Kind::Log, generation);
        let made = (|| {
            let file = storage.create(&path)?;
            let mut frame = Vec::new();
            frame::encode(&header_payload(generation, first), &mut frame);
            file.append(&frame)?;
            file.sync_all()?;
            storage.sync_dir(dir)?;
            Ok((file, frame.len() as u64))
        })();
        if made.is_err() {
            let _ = storage.remove(&path);
        }
        made
    }

    /// A new directory's first segment (generation 0, first record 1) and its manifest.
    pub(crate) fn initial(
        storage: Arc<dyn Storage>,
        dir: &Path,
        generation: u64,
        manifest: Manifest,
    ) -> io::Result<Log> {
        let first = manifest.snapshot.map_or(0, |s| s.last) + 1;
        let (file, len) = Log::create_segment(&storage, dir, generation, first)?;
        let mut manifest = manifest;
        manifest.logs = vec![LogEntry {
            generation,
            first,
            end: None,
        }];
        manifest.write(&*storage, dir)?;
        Ok(Log {
            storage,
            dir: dir.to_path_buf(),
            file,
            generation,
            len,
            synced_len: len,
            next: first,
            dirty: false,
            broken: false,
            manifest,
        })
    }

    /// The existing segment the manifest ends with, `len` bytes long (recovery cut it there), whose
    /// next record is `next`.
    pub(crate) fn reopen(
        storage: Arc<dyn Storage>,
        dir: &Path,
        manifest: Manifest,
        len: u64,
        next: u64,
    ) -> io::Result<Log> {
        let generation = manifest.current().map_or(0, |c| c.generation);
        let file = storage.open(&dir::path(dir, Kind::Log, generation))?;
        Ok(Log {
            storage,
            dir: dir.to_path_buf(),
            file,
            generation,
            len,
            synced_len: len,
            next,
            dirty: false,
            broken: false,
            manifest,
        })
    }

    /// Numbers, seals and appends the record in `frame` (room for the frame's header, then the
    /// record, its sequence number to fill in: `journal.rs`); returns its sequence number and the
    /// bytes written. On a failure the segment is cut back to before it (if that fails too, it may
    /// end with part of the record, and takes no more appends until [`Log::cut`]).
    pub(crate) fn append(&mut self, frame: &mut [u8]) -> io::Result<(u64, u64)> {
        if self.broken {
            return Err(io::Error::other(
                "the log ends with part of a record that could not be cut off",
            ));
        }
        let seq = self.next;
        if let Some(at) = frame.get_mut(HEADER..HEADER + 8) {
            at.copy_from_slice(&seq.to_le_bytes());
        }
        frame::seal(frame);
        if let Err(error) = self.file.append(frame) {
            // Part of the frame may be there (a short write): cut it off, or nothing appended after
            // it would be readable (a damaged frame followed by good ones is damage).
            self.broken = self.file.set_len(self.len).is_err();
            return Err(error);
        }
        let written = frame.len() as u64;
        self.len += written;
        self.next += 1;
        self.dirty = true;
        Ok((seq, written))
    }

    /// The segment's file, generation and length: what to fsync without holding the log (group
    /// commit), and what [`Log::synced`] is told when it worked.
    pub(crate) fn sync_target(&self) -> (Arc<dyn StorageFile>, u64, u64) {
        (Arc::clone(&self.file), self.generation, self.len)
    }

    /// Whether anything was written since the last call, forgetting it: the caller fsyncs
    /// [`Log::sync_target`] outside the lock.
    pub(crate) fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
    }

    /// An fsync of `generation` up to `len` worked.
    pub(crate) fn synced(&mut self, generation: u64, len: u64) {
        if generation == self.generation {
            self.synced_len = self.synced_len.max(len);
        }
    }

    /// The segment's generation and the bytes of it known to be on disk.
    pub(crate) fn durable_end(&self) -> (u64, u64) {
        (self.generation, self.synced_len)
    }

    /// The segment's generation and length.
    pub(crate) fn end(&self) -> (u64, u64) {
        (self.generation, self.len)
    }

    /// Cuts the segment to `len` bytes (records after it were lost: recovery put the engine back
    /// to what it holds) and fsyncs it; the next record is `next`. Appends work again after it.
    pub(crate) fn cut(&mut self, len: u64, next: u64) -> io::Result<()> {
        self.file.set_len(len)?;
        self.file.sync_all()?;
        self.len = len;
        self.synced_len = len;
        self.next = next;
        self.dirty = false;
        self.broken = false;
        Ok(())
    }

    /// Bytes in the segment.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// The sequence number of the last record appended (0: none yet).
    pub(crate) fn last(&self) -> u64 {
        self.next - 1
    }

    /// Closes this segment (which the caller fsynced whole: [`Log::synced`]) and starts the next,
    /// recorded in the manifest; returns the new generation. A failure leaves the log as it was
    /// (the new segment removed).
    pub(crate) fn rotate(&mut self) -> io::Result<u64> {
        debug_assert_eq!(
            self.synced_len, self.len,
            "rotating a segment not fsynced whole"
        );
        self.dirty = false;
        let generation = self.generation + 1;
        let (file, len) = Log::create_segment(&self.storage, &self.dir, generation, self.next)?;
        let mut manifest = self.manifest.clone();
        if let Some(current) = manifest.logs.last_mut() {
            current.end = Some(End {
                last: self.next - 1,
                bytes: self.len,
            });
        }
        manifest.logs.push(LogEntry {
            generation,
            first: self.next,
            end: None,
        });
        if let Err(e) = manifest.write(&*self.storage, &self.dir) {
            let _ = self
                .storage
                .remove(&dir::path(&self.dir, Kind::Log, generation));
            return Err(e);
        }
        self.manifest = manifest;
        self.file = file;
        self.generation = generation;
        self.len = len;
        self.synced_len = len;
        Ok(generation)
    }

    /// A snapshot of generation `generation` holding every record up to `last` is in place: the
    /// manifest names it, and no longer the segments before it (which the caller then removes).
    pub(crate) fn snapshot_written(&mut self, generation: u64, last: u64) -> io::Result<()> {
        let mut manifest = self.manifest.clone();
        manifest.snapshot = Some(super::manifest::SnapshotEntry { generation, last });
        manifest.logs.retain(|l| l.generation >= generation);
        manifest.write(&*self.storage, &self.dir)?;
        self.manifest = manifest;
        Ok(())
    }
}
