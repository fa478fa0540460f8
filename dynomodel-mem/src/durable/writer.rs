//! Writes against an open data directory: each logged before it is acknowledged, snapshots in the
//! background, the `Nms` policy's fsync thread.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Mutex, PoisonError, RwLock, Weak};
use std::time::{Duration, Instant};

use dynomodel::{Error, Result};

use super::clock::Pin;
use super::dir::{self, DirLock, Kind};
use super::journal;
use super::log::Log;
use super::record::Record;
use super::report::RecoveryReport;
use super::settings::{Options, SyncPolicy};
use super::{snapshot, Logged};
use crate::clock::EngineClock;
use crate::state::State;

/// An engine's data directory, open.
#[derive(Debug)]
pub(crate) struct Durable {
    pub(super) dir: PathBuf,
    pub(super) log: Mutex<Log>,
    pub(super) options: Options,
    pub(super) pin: Pin,
    /// The clock under the pin (the time a write is pinned at).
    pub(super) real: EngineClock,
    /// Set when the log could not be written: from then on writes are refused, since the memory
    /// holds a write the disk does not.
    pub(super) failed: AtomicBool,
    /// Wakes the compaction thread.
    pub(super) compactor: mpsc::Sender<()>,
    /// Held while a snapshot is written (one at a time).
    pub(super) compacting: Mutex<()>,
    /// Log bytes written by this process (across segments): a write's position, to wait for.
    pub(super) appended: AtomicU64,
    /// Log bytes known to be on disk (`always`): everything up to here was fsynced.
    pub(super) synced: AtomicU64,
    /// Held by the one thread fsyncing for everyone (group commit).
    pub(super) syncing: Mutex<()>,
    pub(super) report: RecoveryReport,
    pub(super) _lock: DirLock,
}

/// A write being run: the clock pinned and the journal collecting, both undone when it ends, even by
/// a panic (which would otherwise leave the clock stopped).
struct Running<'a> {
    pin: &'a Pin,
}

impl<'a> Running<'a> {
    fn start(pin: &'a Pin, at: chrono::DateTime<chrono::Utc>) -> Running<'a> {
        pin.set(at);
        journal::begin();
        Running { pin }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.pin.clear();
        // Empty unless the write panicked.
        drop(journal::take());
    }
}

pub(super) fn internal(message: impl Into<String>) -> Error {
    Error::Service {
        code: "InternalServerError".into(),
        message: message.into(),
    }
}

impl Durable {
    /// Runs the write `op` on `state` (the engine, or the tables of an item write, held locked by the
    /// caller until the record is appended), logging what it
    /// did; `command` is the request of a table operation. Returns the result and the log position
    /// to [`Durable::settle`] once the lock is released, before the result is answered.
    pub(crate) fn run<S, T>(
        &self,
        state: &mut S,
        command: Logged,
        op: impl FnOnce(&mut S) -> Result<T>,
    ) -> (Result<T>, u64) {
        if self.failed.load(Ordering::Acquire) {
            let refused = "the data directory could not be written; the server refuses writes";
            return (Err(internal(refused)), 0);
        }
        let at = self.real.now();
        let running = Running::start(&self.pin, at);
        let result = op(state);
        let effects = journal::take();
        drop(running);
        let command = command.filter(|_| result.is_ok());
        if command.is_none() && effects.is_empty() {
            return (result, 0);
        }
        let record = Record {
            at,
            command,
            effects,
        };
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        let written = match log.append(&record.to_bytes()) {
            Ok(written) => written,
            Err(e) => return (Err(self.fail("write", &e)), 0),
        };
        // Under the log's lock, so that a position read under it covers what the file holds.
        let position = self.appended.fetch_add(written, Ordering::AcqRel) + written;
        if log.len() > self.options.compact_after {
            // The thread may be busy with the last request; requests pile up as one.
            let _ = self.compactor.send(());
        }
        (result, position)
    }

    /// The log position a response read at (under the engine's lock) must wait for.
    pub(crate) fn position(&self) -> u64 {
        self.appended.load(Ordering::Acquire)
    }

    /// Under `always`, returns once the log is on disk up to `position`: a write is answered only
    /// then, and so is a read that may have seen it, so no client ever sees what a crash can take
    /// back. Writers that wait together share one fsync (group commit): the first to get here
    /// fsyncs everything written so far, the others find their position covered. A no-op under
    /// `Nms`.
    pub(crate) fn settle(&self, position: u64) -> Result<()> {
        if self.options.sync != SyncPolicy::Always
            || self.synced.load(Ordering::Acquire) >= position
        {
            return Ok(());
        }
        let wait = || {
            let _leader = self.syncing.lock().unwrap_or_else(PoisonError::into_inner);
            if self.synced.load(Ordering::Acquire) >= position {
                return Ok(());
            }
            let (file, target) = {
                let log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
                // Earlier segments were fsynced whole when they were rotated out.
                (log.sync_handle(), self.appended.load(Ordering::Acquire))
            };
            match file.sync_data() {
                Ok(()) => {
                    self.synced.fetch_max(target, Ordering::AcqRel);
                    Ok(())
                }
                Err(e) => Err(self.fail("fsync", &e)),
            }
        };
        // On a multi-threaded Tokio runtime (the server's), the worker hands its other tasks over
        // while it waits, so that more writers reach the fsync and share it; elsewhere it just waits.
        match tokio::runtime::Handle::try_current() {
            Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(wait)
            }
            _ => wait(),
        }
    }

    /// Refuses writes from now on (the memory holds what the disk may not), and says why.
    fn fail(&self, what: &str, e: &std::io::Error) -> Error {
        self.failed.store(true, Ordering::Release);
        log::error!(
            "durable log {}: {what}: {e}; refusing writes from now on",
            self.dir.display()
        );
        internal(format!("could not {what} the data directory's log: {e}"))
    }

    /// Fsyncs what the log holds.
    pub(crate) fn sync(&self) -> std::io::Result<()> {
        let (file, target) = {
            let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
            if !log.take_dirty() {
                return Ok(());
            }
            (log.sync_handle(), self.appended.load(Ordering::Acquire))
        };
        // Outside the log's lock: writers go on appending meanwhile.
        match file.sync_data() {
            Ok(()) => {
                self.synced.fetch_max(target, Ordering::AcqRel);
                Ok(())
            }
            Err(e) => {
                let _ = self.fail("fsync", &e);
                Err(e)
            }
        }
    }

    /// What recovery did.
    pub(crate) fn report(&self) -> &RecoveryReport {
        &self.report
    }

    /// Writes a snapshot of `state` and drops the logs it covers.
    pub(crate) fn compact(&self, state: &RwLock<State>) -> std::io::Result<snapshot::Totals> {
        let _one = self
            .compacting
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let started = Instant::now();
        let guard = state.read().unwrap_or_else(PoisonError::into_inner);
        // Every table's read lock, in the locking order, before the log is cut: no write runs while
        // they are held (a write appends its record before releasing its tables), so the snapshot is
        // exactly the state after the last record of the segment that ends here.
        let tables = guard.read_all();
        let generation = self
            .log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .rotate()?;
        let name = dir::file_name(Kind::Snapshot, generation);
        let tmp = self.dir.join(format!("{name}.tmp"));
        let file = fs::File::create(&tmp)?;
        let totals = snapshot::write(&guard, &tables, self.real.now(), &file)?;
        drop(tables);
        drop(guard);
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, self.dir.join(&name))?;
        dir::sync_dir(&self.dir)?;
        for kind in [Kind::Log, Kind::Snapshot] {
            for (g, path) in dir::list(&self.dir, kind)? {
                if g < generation {
                    fs::remove_file(path)?;
                }
            }
        }
        dir::sync_dir(&self.dir)?;
        log::info!(
            "snapshot {name}: {} tables, {} items in {:.1?}",
            totals.tables,
            totals.items,
            started.elapsed()
        );
        Ok(totals)
    }
}

impl Drop for Durable {
    fn drop(&mut self) {
        let _ = self.sync();
    }
}

/// The thread that writes a snapshot when the log has grown past its threshold.
pub(super) fn spawn_compactor(
    durable: Weak<Durable>,
    state: Weak<RwLock<State>>,
    rx: mpsc::Receiver<()>,
) {
    let spawned = std::thread::Builder::new()
        .name("dynomodel-compact".into())
        .spawn(move || {
            while rx.recv().is_ok() {
                // Requests that piled up while a snapshot was written are one request.
                while rx.try_recv().is_ok() {}
                let (Some(durable), Some(state)) = (durable.upgrade(), state.upgrade()) else {
                    return;
                };
                if let Err(e) = durable.compact(&state) {
                    log::error!("snapshot of {}: {e}", durable.dir.display());
                }
            }
        });
    if let Err(e) = spawned {
        log::error!("cannot start the snapshot thread: {e}");
    }
}

/// The thread that fsyncs the log every `interval` (the `Nms` policy).
pub(super) fn spawn_syncer(durable: Weak<Durable>, interval: Duration) {
    let spawned = std::thread::Builder::new()
        .name("dynomodel-sync".into())
        .spawn(move || loop {
            std::thread::sleep(interval);
            let Some(durable) = durable.upgrade() else {
                return;
            };
            if let Err(e) = durable.sync() {
                log::error!("fsync of {}: {e}", durable.dir.display());
            }
        });
    if let Err(e) = spawned {
        log::error!("cannot start the fsync thread: {e}");
    }
}
