//! Writes against an open data directory: each logged before it is acknowledged (and, under
//! `always`, fsynced, writers waiting together sharing one fsync), snapshots in the background, the
//! `Nms` policy's fsync thread. What happens when the disk fails is in `failure.rs`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock, PoisonError, RwLock, Weak};
use std::time::{Duration, Instant};

use dynomodel::{Error, Result};

use super::clock::Pin;
use super::dir::{self, Kind};
use super::failure::{lost_error, not_applied, Cause, Faulted};
use super::journal;
use super::log::Log;
use super::report::RecoveryReport;
use super::settings::{Options, SyncPolicy};
use super::storage::{Appender, Storage};
use super::{snapshot, Logged};
use crate::storage::clock::EngineClock;
use crate::storage::settings::EngineConfig;
use crate::storage::state::State;

/// How long the snapshot thread waits after a failed snapshot before it tries again.
const SNAPSHOT_RETRY: Duration = Duration::from_secs(10);

/// An engine's data directory, open.
#[derive(Debug)]
pub(crate) struct Durable {
    pub(super) storage: Arc<dyn Storage>,
    pub(super) dir: PathBuf,
    pub(super) log: Mutex<Log>,
    pub(super) options: Options,
    pub(super) pin: Pin,
    /// The engine's (pinned) clock and settings, to rebuild the engine from the directory.
    pub(super) clock: EngineClock,
    pub(super) config: EngineConfig,
    /// The clock under the pin (the time a write is pinned at).
    pub(super) real: EngineClock,
    /// The engine's state (set once the engine exists; weak: the engine owns this, not the reverse).
    pub(super) state: OnceLock<Weak<RwLock<State>>>,
    /// This value itself, for the threads it starts.
    pub(super) me: OnceLock<Weak<Durable>>,
    /// Wakes the compaction thread.
    pub(super) compactor: mpsc::Sender<()>,
    /// Held while a snapshot is written (one at a time); when the last one failed.
    pub(super) compacting: Mutex<Option<Instant>>,
    /// Records appended by this process: a write's position (to wait for) is its number here.
    pub(super) appended: AtomicU64,
    /// Positions known to be on disk (`always`).
    pub(super) synced: AtomicU64,
    /// Held by the one thread fsyncing for everyone (group commit).
    pub(super) syncing: Mutex<()>,
    /// Failures of the disk, and what they lost (`failure.rs`).
    pub(super) faulted: Faulted,
    pub(super) report: RecoveryReport,
    pub(super) _lock: Box<dyn std::fmt::Debug + Send + Sync>,
}

/// What a request must do before it answers (returned under its locks, settled after them).
#[derive(Debug)]
pub(crate) enum Ticket {
    /// Nothing: it wrote nothing, and read nothing that may not be on disk.
    Done,
    /// Its record is at this position: wait until the log is on disk up to it (`always`), or learn
    /// that it was lost (its write was not applied).
    Wrote(u64),
    /// It may have seen the writes up to this position: wait until the log is on disk up to it
    /// (`always`), or learn that one was lost (it is not answered).
    Saw(u64),
    /// Its record could not be logged: put the engine back to what the log holds, then answer the
    /// request's error.
    RollBack,
    /// Answer this error instead of the request's result (it may have seen a write that did not
    /// reach the disk).
    Refuse(Error),
}

/// What an fsync of the log came to.
enum Synced {
    /// Everything appended before it is on disk.
    Done,
    /// A failure is being rolled back: nothing was fsynced (the rollback fsyncs what it keeps).
    Poisoned,
    /// It failed: what it covered is lost (and was rolled back).
    Failed(std::io::Error),
}

/// A write being run: the clock pinned and its record being captured, both undone when it ends,
/// even by a panic (which would otherwise leave the clock stopped).
struct Running<'a> {
    pin: &'a Pin,
}

impl<'a> Running<'a> {
    fn start(pin: &'a Pin, at: chrono::DateTime<chrono::Utc>) -> Running<'a> {
        pin.set(at);
        journal::begin(at);
        Running { pin }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.pin.clear();
        journal::end();
    }
}

/// DynamoDB's answer for a fault of its own (500, which SDKs retry).
pub(crate) fn internal(message: impl Into<String>) -> Error {
    Error::Service {
        code: "InternalServerError".into(),
        message: message.into(),
    }
}

impl Durable {
    /// Runs the write `op` on `state` (the engine, or the tables of an item write, held locked by the
    /// caller until the record is appended), logging what it did; `command` is the request of a table
    /// operation. Returns the result and what to [`Durable::settle`] once the locks are released.
    pub(crate) fn run<S, T>(
        &self,
        state: &mut S,
        command: Logged,
        op: impl FnOnce(&mut S) -> Result<T>,
    ) -> (Result<T>, Ticket) {
        if let Some(refused) = self.faulted.refusal() {
            return (Err(refused), Ticket::Done);
        }
        let at = self.real.now();
        let running = Running::start(&self.pin, at);
        let result = op(state);
        if let (Some((name, request)), true) = (&command, result.is_ok()) {
            journal::command(name, request);
        }
        let changed = journal::end();
        drop(running);
        if !changed {
            // It may still show what it read (the item a condition failed on, `ALL_OLD`, or only
            // that the condition failed): it waits like a read for the writes it may have seen.
            return (result, self.read_ticket());
        }
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        if self.faulted.poisoned() {
            // A failure is being rolled back: this write goes with the rest.
            return (Err(self.faulted.being_undone()), Ticket::RollBack);
        }
        match journal::with_frame(|frame| log.append(frame)) {
            Ok((_, _)) => {
                // Under the log's lock, so that a position read under it covers what the file holds.
                let position = self.appended.fetch_add(1, Ordering::AcqRel) + 1;
                if log.len() > self.options.compact_after {
                    // The thread may be busy with the last request; requests pile up as one.
                    let _ = self.compactor.send(());
                }
                (result, Ticket::Wrote(position))
            }
            Err(e) => {
                // Still under the request's locks: whoever sees this write next refuses its answer.
                let cause = Cause::Append {
                    error: e.to_string(),
                };
                let reason = self.faulted.poison(&self.dir, &cause);
                (Err(not_applied(&reason)), Ticket::RollBack)
            }
        }
    }

    /// What a read that ran under its locks must settle: wait for what it may have seen (`always`),
    /// or refuse its answer if it may have seen a write that did not reach the disk.
    pub(crate) fn read_ticket(&self) -> Ticket {
        if let Some(refused) = self.faulted.read_refusal() {
            return Ticket::Refuse(refused);
        }
        match self.options.sync {
            SyncPolicy::Always => Ticket::Saw(self.appended.load(Ordering::Acquire)),
            SyncPolicy::Every(_) => Ticket::Done,
        }
    }

    /// Settles `ticket` once the request's locks are released, before it answers. Under `always`
    /// returns once the log is on disk up to the position: a write is answered only then, and so is
    /// a read that may have seen it, so no client ever sees what a crash can take back. Writers that
    /// wait together share one fsync (group commit): the first to get here fsyncs everything
    /// written so far, the others find their position covered. If the position was lost, the
    /// answer is the same whichever of them ran the failed fsync: a write says that it was not
    /// applied and why, a read that it is not answered.
    pub(crate) fn settle(&self, ticket: Ticket) -> Result<()> {
        let (position, wrote) = match ticket {
            Ticket::Done => return Ok(()),
            Ticket::Refuse(e) => return Err(e),
            Ticket::RollBack => {
                self.roll_back();
                // The request answers its own error (that its write was not applied).
                return Ok(());
            }
            Ticket::Wrote(position) => (position, true),
            Ticket::Saw(position) => (position, false),
        };
        if self.options.sync != SyncPolicy::Always || self.is_synced(position) {
            return Ok(());
        }
        let wait = || loop {
            let leader = self.syncing.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(reason) = self.faulted.lost(position) {
                return Err(if wrote {
                    not_applied(&reason)
                } else {
                    lost_error(&reason)
                });
            }
            if self.synced.load(Ordering::Acquire) >= position {
                return Ok(());
            }
            match self.sync_now() {
                Synced::Done => return Ok(()),
                // What it covered is marked lost (this position, unless a rollback settled it
                // meanwhile): the next turn answers.
                Synced::Failed(_) => {}
                Synced::Poisoned => {
                    // Another write failed: once the engine is put back, this position is either
                    // lost or kept, and fsynced (the rollback cuts the log and fsyncs it).
                    drop(leader);
                    self.roll_back();
                    if let Some(refused) = self.faulted.read_refusal() {
                        return Err(refused);
                    }
                }
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

    /// Whether `position` is certainly on disk: synced, and after every position a failed fsync
    /// lost (`synced` is read before the loss mark, which is set before anything after it can be
    /// synced). False may still be on disk: [`Durable::settle`] then looks closer.
    fn is_synced(&self, position: u64) -> bool {
        let synced = self.synced.load(Ordering::Acquire);
        synced >= position && !self.faulted.may_be_lost(position)
    }

    /// Fsyncs what the log holds; on a failure, the records not known to be on disk are lost: the
    /// engine is put back to what the log holds without them.
    fn sync_now(&self) -> Synced {
        let (file, generation, len, target) = {
            let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
            if self.faulted.poisoned() {
                return Synced::Poisoned;
            }
            log.take_dirty();
            let (file, generation, len) = log.sync_target();
            (file, generation, len, self.appended.load(Ordering::Acquire))
        };
        // Outside the log's lock: writers go on appending meanwhile.
        match file.sync_data() {
            Ok(()) => {
                self.synced.fetch_max(target, Ordering::AcqRel);
                self.log
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .synced(generation, len);
                Synced::Done
            }
            Err(e) => {
                self.fsync_failed(&e);
                self.roll_back();
                Synced::Failed(e)
            }
        }
    }

    /// Fsyncs the log if anything was written since the last fsync (the `Nms` thread, a clean
    /// shutdown).
    pub(crate) fn sync(&self) -> std::io::Result<()> {
        let _leader = self.syncing.lock().unwrap_or_else(PoisonError::into_inner);
        let dirty = self
            .log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take_dirty();
        if !dirty {
            return Ok(());
        }
        match self.sync_now() {
            Synced::Done => Ok(()),
            Synced::Failed(e) => Err(e),
            Synced::Poisoned => Err(std::io::Error::other(
                "a failed write is being undone; the log is fsynced as part of it",
            )),
        }
    }

    /// What recovery did.
    pub(crate) fn report(&self) -> &RecoveryReport {
        &self.report
    }

    /// Writes a snapshot of `state` and drops the logs it covers. A failure leaves no temporary file
    /// and changes nothing else: the log goes on, in a new segment if the old one was closed.
    pub(crate) fn compact(&self, state: &RwLock<State>) -> std::io::Result<snapshot::Totals> {
        let mut failed_at = self
            .compacting
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let done = self.write_snapshot(state);
        *failed_at = done.is_err().then(Instant::now);
        done
    }

    fn write_snapshot(&self, state: &RwLock<State>) -> std::io::Result<snapshot::Totals> {
        if let Some(refused) = self.faulted.refusal() {
            return Err(std::io::Error::other(refused.message()));
        }
        let started = Instant::now();
        let guard = state.read().unwrap_or_else(PoisonError::into_inner);
        // Every table's read lock, in the locking order, before the log is cut: no write runs while
        // they are held (a write appends its record before releasing its tables), so the snapshot is
        // exactly the state after the last record of the segment that ends here.
        let tables = guard.read_all();
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        // The segment being closed, fsynced whole. A failure here is the log's own: what it held
        // beyond the last good fsync is lost, as for a write's fsync.
        let (file, current, len) = log.sync_target();
        if let Err(e) = file.sync_data() {
            drop(log);
            drop(tables);
            drop(guard);
            self.fsync_failed(&e);
            self.roll_back();
            return Err(e);
        }
        log.synced(current, len);
        self.synced
            .fetch_max(self.appended.load(Ordering::Acquire), Ordering::AcqRel);
        let generation = log.rotate()?;
        let last = log.last();
        drop(log);
        let path = dir::path(&self.dir, Kind::Snapshot, generation);
        let tmp = path.with_extension("dyno.tmp");
        let file = self.storage.create(&tmp);
        let written = file.and_then(|file| {
            let totals = snapshot::write(&guard, &tables, self.real.now(), last, Appender(&*file))?;
            Ok((file, totals))
        });
        // The engine goes on while the snapshot is made durable.
        drop(tables);
        drop(guard);
        let written = written.and_then(|(file, totals)| {
            file.sync_all()?;
            drop(file);
            self.storage.rename(&tmp, &path)?;
            self.storage.sync_dir(&self.dir)?;
            Ok(totals)
        });
        let totals = match written {
            Ok(totals) => totals,
            Err(e) => {
                let _ = self.storage.remove(&tmp);
                return Err(e);
            }
        };
        self.log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .snapshot_written(generation, last)?;
        for kind in [Kind::Log, Kind::Snapshot] {
            for (g, path) in dir::list(&*self.storage, &self.dir, kind)? {
                if g < generation {
                    self.storage.remove(&path)?;
                }
            }
        }
        self.storage.sync_dir(&self.dir)?;
        tracing::info!(
            "snapshot {}: {} tables, {} items in {:.1?}",
            path.display(),
            totals.tables,
            totals.items,
            started.elapsed()
        );
        Ok(totals)
    }

    /// Whether the snapshot thread should try now (not within [`SNAPSHOT_RETRY`] of a failure).
    fn may_compact(&self) -> bool {
        let failed_at = *self
            .compacting
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        failed_at.is_none_or(|at| at.elapsed() >= SNAPSHOT_RETRY)
    }
}

impl Drop for Durable {
    fn drop(&mut self) {
        if let Err(e) = self.sync() {
            tracing::error!("final fsync of {}: {e}", self.dir.display());
        }
    }
}

/// The thread that writes a snapshot when the log has grown past its threshold.
pub(super) fn spawn_compactor(durable: Weak<Durable>, rx: mpsc::Receiver<()>) {
    let spawned = std::thread::Builder::new()
        .name("dynomodel-compact".into())
        .spawn(move || {
            while rx.recv().is_ok() {
                // Requests that piled up while a snapshot was written are one request.
                while rx.try_recv().is_ok() {}
                let Some(durable) = durable.upgrade() else {
                    return;
                };
                let Some(state) = durable.state.get().and_then(Weak::upgrade) else {
                    return;
                };
                if !durable.may_compact() {
                    continue;
                }
                if let Err(e) = durable.compact(&state) {
                    tracing::error!(
                        "snapshot of {}: {e}; the log goes on, another snapshot is tried in {:?}",
                        durable.dir.display(),
                        SNAPSHOT_RETRY
                    );
                }
            }
        });
    if let Err(e) = spawned {
        tracing::error!("cannot start the snapshot thread: {e}");
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
                tracing::error!("fsync of {}: {e}", durable.dir.display());
            }
        });
    if let Err(e) = spawned {
        tracing::error!("cannot start the fsync thread: {e}");
    }
}
