//! When the disk fails: a write whose record cannot be appended, or whose fsync fails, is visible to
//! no one, now or after a restart, and the server stays up for reads.
//!
//! The policy (the guide's durability section, `docs/guide/server.md`, states it for users):
//! 1. The request is answered `InternalServerError` (HTTP 500, DynamoDB's own answer for a fault of
//!    the service, which SDKs retry), its message saying that the write was *not* applied and why:
//!    the failure that lost its own record, whichever thread ran the failed fsync for it (group
//!    commit) and whatever the health is by the time it answers.
//! 2. Until the engine is put back, its memory may hold that write (it was applied before its
//!    record was appended, under the same locks): the engine is *poisoned*, under the request's
//!    locks, before anyone else can look. Every request that would answer from it refuses (500, to
//!    retry), and so does a read that may have seen a write whose fsync then failed.
//! 3. The engine is rebuilt from what the log holds for sure: after a failed append, the log as it
//!    was before the record (the segment is cut back to there at once); after a failed fsync, the
//!    log up to the last fsync that worked (the segment is cut there and fsynced: PostgreSQL's
//!    lesson, "fsyncgate" 2018: after a failed fsync the kernel may have dropped the dirty pages and
//!    a retried fsync succeeds without writing them, so they are never trusted; what was not known
//!    to be on disk is dropped, its bytes kept in `DIR/aside/` as far as the disk lets them be).
//!    Under `always` none of the dropped writes was acknowledged; under
//!    `Nms` a failed fsync drops the writes since the last fsync that worked, exactly as a power cut
//!    then would.
//! 4. The server is then *degraded*: [`Health::Degraded`] (`/health` answers 503 with the reason),
//!    writes refused with `ServiceUnavailable` (503, retried by SDKs) naming the reason, reads
//!    served. A probe writes and fsyncs a scratch file every `probe_interval` (1 s); once that works,
//!    writes resume by themselves.
//! 5. If even the rebuild fails (the directory cannot be read back, the segment cannot be cut), the
//!    engine's memory cannot be trusted and the disk's content is unknown: [`Health::Failed`], every
//!    request refused, until an operator restarts the server (whose recovery then reads what the
//!    disk holds).
//!
//! Why not fail-stop, as PostgreSQL does after a failed fsync: it panics so that crash recovery
//! rebuilds its state from the write-ahead log, since the dirty pages of its data files may be gone.
//! This engine's state is in memory and is rebuilt from its log the same way, without a restart, so
//! reads go on and writes come back by themselves when the disk does. Rebuilding reads the whole
//! directory (the time of a restart's recovery, and memory for a second copy of the data while it
//! runs, on the failure path only): no undo information is kept on the write path, which stays as
//! cheap as it was.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError, Weak};
use std::time::Duration;

use dynomodel::Error;

use super::dir::{self, Kind};
use super::recover::{recover, Scope, Source};
use super::writer::{internal, Durable};

/// Bytes the probe writes and fsyncs before writes resume.
const PROBE_BYTES: usize = 64 << 10;

/// The health of an engine's data directory ([`MemBackend::health`](crate::MemBackend::health)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Health {
    /// Reads and writes are served (always so in memory).
    #[default]
    Ok,
    /// The data directory could not be written: writes are refused, reads served; writes resume by
    /// themselves once the directory can be written again.
    Degraded {
        /// What failed, and since when.
        reason: String,
    },
    /// The engine could not be brought back to what the directory holds after a failure: every
    /// request is refused until the server is restarted.
    Failed {
        /// What failed.
        reason: String,
    },
}

/// What failed.
#[derive(Debug, Clone)]
pub(crate) enum Cause {
    /// Appending a record (the segment was cut back to before it, or will be).
    Append { error: String },
    /// An fsync: what was not known to be on disk is lost.
    Fsync { error: String },
}

impl Cause {
    /// What failed, in words, naming the directory.
    fn reason(&self, dir: &Path) -> String {
        match self {
            Cause::Append { error } => {
                format!("could not append to the log in {}: {error}", dir.display())
            }
            Cause::Fsync { error } => {
                format!("could not fsync the log in {}: {error}", dir.display())
            }
        }
    }
}

/// Positions `(from, to]`, lost to a failed fsync, and that failure in words.
#[derive(Debug)]
struct Lost {
    from: u64,
    to: u64,
    reason: String,
}

/// The failures of a data directory and their consequences.
#[derive(Debug, Default)]
pub(crate) struct Faulted {
    /// The engine's memory may hold writes the log does not: no answer may come from it.
    poisoned: AtomicBool,
    /// Writes are refused (degraded or failed).
    refusing: AtomicBool,
    /// The failure to roll back, while poisoned.
    cause: Mutex<Option<Cause>>,
    /// The latest failure, in words (set before `poisoned`): what a request refused while it is
    /// rolled back is told, whatever the health is by then.
    latest: Mutex<Option<String>>,
    /// The end of the last range of positions lost to a failed fsync.
    lost_upto: AtomicU64,
    /// The ranges of positions lost, each with its failure.
    lost: Mutex<Vec<Lost>>,
    health: Mutex<Health>,
    /// Held while rolling back (one at a time).
    rolling: Mutex<()>,
    /// Failures so far (a probe resumes writes only if none came since it started).
    failures: AtomicU64,
    /// Whether a probe thread runs.
    probing: AtomicBool,
    /// How often the probe tries.
    pub(super) probe_interval: Duration,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Faulted {
    /// No failure yet; probing every `probe_interval` after one.
    pub(crate) fn new(probe_interval: Duration) -> Faulted {
        Faulted {
            probe_interval,
            ..Faulted::default()
        }
    }

    pub(crate) fn health(&self) -> Health {
        lock(&self.health).clone()
    }

    pub(crate) fn poisoned(&self) -> bool {
        self.poisoned.load(Ordering::Acquire)
    }

    /// Why a write is refused now, if it is.
    pub(crate) fn refusal(&self) -> Option<Error> {
        if !self.refusing.load(Ordering::Acquire) {
            return None;
        }
        Some(match self.health() {
            Health::Ok => return None,
            Health::Degraded { reason } => Error::Service {
                code: "ServiceUnavailable".into(),
                message: format!(
                    "writes are refused: {reason}; reads are served, and writes resume once the \
                     data directory can be written again"
                ),
            },
            Health::Failed { reason } => Error::Service {
                code: "ServiceUnavailable".into(),
                message: format!("the server refuses every request: {reason}; restart it"),
            },
        })
    }

    /// Why a read is refused now, if it is: the engine failed for good, or its memory may hold a
    /// write that did not reach the disk (being undone).
    pub(crate) fn read_refusal(&self) -> Option<Error> {
        if !self.poisoned() {
            return None;
        }
        match self.health() {
            Health::Failed { .. } => self.refusal(),
            _ => Some(self.being_undone()),
        }
    }

    /// A failure: from now on (the caller still holds the locks under which the failed write ran)
    /// nothing answers from the engine's memory, and writes are refused. Returns the failure in
    /// words.
    pub(crate) fn poison(&self, dir: &Path, cause: &Cause) -> String {
        let reason = cause.reason(dir);
        let mut health = lock(&self.health);
        *lock(&self.latest) = Some(reason.clone());
        self.failures.fetch_add(1, Ordering::AcqRel);
        self.poisoned.store(true, Ordering::Release);
        self.refusing.store(true, Ordering::Release);
        let since = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        tracing::error!("data directory {}: {reason}; writes refused", dir.display());
        *health = Health::Degraded {
            reason: format!("{reason} (since {since})"),
        };
        drop(health);
        // A failed fsync outweighs a failed append: more is rolled back.
        let mut pending = lock(&self.cause);
        if !matches!(*pending, Some(Cause::Fsync { .. })) {
            *pending = Some(cause.clone());
        }
        reason
    }

    /// The error of a request refused because a failure is being rolled back: it may have seen a
    /// write that did not reach the disk.
    pub(crate) fn being_undone(&self) -> Error {
        let latest = lock(&self.latest).clone();
        lost_error(
            latest
                .as_deref()
                .unwrap_or("a write did not reach the disk"),
        )
    }

    /// Positions `(from, to]` were lost to the failure `reason` (a failed fsync); `to` is the
    /// highest there can be.
    fn mark_lost(&self, from: u64, to: u64, reason: String) {
        if to > from {
            lock(&self.lost).push(Lost { from, to, reason });
        }
        self.lost_upto.fetch_max(to, Ordering::AcqRel);
    }

    /// Whether `position` may have been lost (the fast check: false is certain).
    pub(crate) fn may_be_lost(&self, position: u64) -> bool {
        position <= self.lost_upto.load(Ordering::Acquire)
    }

    /// The failure that lost `position`, in words, if one did.
    pub(crate) fn lost(&self, position: u64) -> Option<String> {
        if !self.may_be_lost(position) {
            return None;
        }
        lock(&self.lost)
            .iter()
            .find(|lost| lost.from < position && position <= lost.to)
            .map(|lost| lost.reason.clone())
    }

    /// Writes resume, unless a failure came after `seen` failures or is being rolled back; whether
    /// they did (the probe thread then ends).
    fn resume(&self, seen: u64) -> bool {
        let mut health = lock(&self.health);
        if self.failures.load(Ordering::Acquire) != seen
            || self.poisoned()
            || !matches!(*health, Health::Degraded { .. })
        {
            return false;
        }
        *health = Health::Ok;
        self.refusing.store(false, Ordering::Release);
        self.probing.store(false, Ordering::Release);
        true
    }
}

/// The error of a write that was not applied because of the failure `reason` (its record could not
/// be appended, or an fsync that covered it failed).
pub(crate) fn not_applied(reason: &str) -> Error {
    internal(format!(
        "the write was not applied: {reason}; the server refuses writes until the data directory \
         can be written again"
    ))
}

/// The error of a request that may have seen a write lost to the failure `reason`: it is not
/// answered (and what it wrote, if anything, was not applied).
pub(crate) fn lost_error(reason: &str) -> Error {
    internal(format!(
        "not applied, not answered: {reason}; writes that were not on disk were undone, and this \
         request may have seen one; retry it"
    ))
}

impl Durable {
    /// The directory's health.
    pub(crate) fn health(&self) -> super::Health {
        self.faulted.health()
    }

    /// An fsync failed: every position appended and not known to be on disk is lost, to be rolled
    /// back.
    pub(super) fn fsync_failed(&self, e: &std::io::Error) {
        let _log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        let cause = Cause::Fsync {
            error: e.to_string(),
        };
        let reason = self.faulted.poison(&self.dir, &cause);
        let synced = self.synced.load(Ordering::Acquire);
        let appended = self.appended.load(Ordering::Acquire);
        self.faulted.mark_lost(synced, appended, reason);
    }

    /// Puts the engine back to what the log holds for sure, after a failure (see the module docs);
    /// a no-op when that was done already.
    pub(super) fn roll_back(&self) {
        let _one = lock(&self.faulted.rolling);
        let Some(cause) = lock(&self.faulted.cause).take() else {
            return;
        };
        let Some(state) = self.state.get().and_then(Weak::upgrade) else {
            return;
        };
        // Every request in flight has left (they hold the catalog's lock while they run).
        let mut engine = state.write().unwrap_or_else(PoisonError::into_inner);
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        let (generation, len) = match cause {
            Cause::Append { .. } => log.end(),
            Cause::Fsync { .. } => log.durable_end(),
        };
        if log.end().1 > len {
            self.keep_dropped(generation, len);
        }
        let source = Source {
            storage: &*self.storage,
            dir: &self.dir,
            pin: &self.pin,
            clock: &self.clock,
            config: &self.config,
        };
        let rebuilt = recover(&source, Scope::Upto { generation, len })
            .map_err(|e| e.to_string())
            .and_then(|r| {
                let next = r.report.last_record + 1;
                log.cut(len, next)
                    .map(|()| r)
                    .map_err(|e| format!("cutting the log: {e}"))
            });
        match rebuilt {
            Ok(recovered) => {
                *engine = std::mem::take(&mut *recovered.backend.write());
                // Positions from here on are after every lost one; all before are settled.
                let mark = self.appended.fetch_add(1, Ordering::AcqRel) + 1;
                self.synced.fetch_max(mark, Ordering::AcqRel);
                self.faulted.poisoned.store(false, Ordering::Release);
                tracing::warn!(
                    "data directory {}: the engine was put back to the log's {} records ({} of \
                     {}); writes stay refused until the directory can be written",
                    self.dir.display(),
                    recovered.report.last_record,
                    len,
                    dir::path(&self.dir, Kind::Log, generation).display()
                );
                drop(log);
                drop(engine);
                self.spawn_prober();
            }
            Err(e) => {
                let reason = format!(
                    "after a failure ({cause:?}), the engine could not be put back to what the \
                     data directory holds: {e}"
                );
                tracing::error!("data directory {}: {reason}", self.dir.display());
                *lock(&self.faulted.health) = Health::Failed { reason };
            }
        }
    }

    /// Keeps, as far as the failing disk lets it, the bytes of segment `generation` from `len` on,
    /// which the rollback is about to cut: records whose fsync failed (under `Nms`, acknowledged
    /// ones), as evidence for the operator.
    fn keep_dropped(&self, generation: u64, len: u64) {
        let path = dir::path(&self.dir, Kind::Log, generation);
        let offset = usize::try_from(len).unwrap_or(usize::MAX);
        let kept = (|| {
            let bytes = self.storage.read(&path)?;
            let dropped = bytes.get(offset..).unwrap_or_default();
            let aside = dir::aside_path(
                &*self.storage,
                &self.dir,
                &path,
                &format!("undone-at-{offset}"),
            )?;
            let file = self.storage.create(&aside)?;
            file.append(dropped)?;
            file.sync_all()?;
            Ok::<_, std::io::Error>((aside, dropped.len()))
        })();
        match kept {
            Ok((aside, bytes)) => tracing::warn!(
                "{}: the {bytes} bytes after offset {offset}, whose fsync failed, are cut; they \
                 are kept in {}",
                path.display(),
                aside.display()
            ),
            Err(e) => tracing::warn!(
                "{}: the bytes after offset {offset}, whose fsync failed, are cut; they could \
                 not be kept: {e}",
                path.display()
            ),
        }
    }

    /// Whether the directory can be written: a scratch file written, fsynced and removed.
    fn probe(&self) -> std::io::Result<()> {
        let path = self.dir.join("probe.tmp");
        let tried = (|| {
            let file = self.storage.create(&path)?;
            file.append(&[0u8; PROBE_BYTES])?;
            file.sync_all()
        })();
        let removed = self.storage.remove(&path);
        tried.and(removed)?;
        self.storage.sync_dir(&self.dir)
    }

    /// Starts the thread that resumes writes once the directory can be written (one at a time: it
    /// goes on until it resumes them, through later failures).
    fn spawn_prober(&self) {
        let Some(me) = self.me.get().cloned() else {
            return;
        };
        if self.faulted.probing.swap(true, Ordering::AcqRel) {
            return;
        }
        let interval = self.faulted.probe_interval;
        let spawned = std::thread::Builder::new()
            .name("dynomodel-probe".into())
            .spawn(move || loop {
                std::thread::sleep(interval);
                let Some(durable) = me.upgrade() else {
                    return;
                };
                let faulted = &durable.faulted;
                if matches!(faulted.health(), Health::Failed { .. }) {
                    return;
                }
                let seen = faulted.failures.load(Ordering::Acquire);
                if durable.probe().is_ok() && faulted.resume(seen) {
                    tracing::warn!(
                        "data directory {}: it can be written again; writes resume",
                        durable.dir.display()
                    );
                    return;
                }
            });
        if let Err(e) = spawned {
            self.faulted.probing.store(false, Ordering::Release);
            tracing::error!("cannot start the probe thread: {e}");
        }
    }
}
