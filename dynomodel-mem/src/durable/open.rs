//! Opening a data directory (lock, format check, recovery) and running writes against it.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError, RwLock, Weak};
use std::time::{Duration, Instant};

use dynomodel::{Error, Result};

use super::clock::{pinnable, Pin};
use super::dir::{self, DirLock, Kind};
use super::frame::{Damage, Frames};
use super::journal::{self, Effect};
use super::log::Log;
use super::record::Record;
use super::{snapshot, Logged};
use crate::clock::EngineClock;
use crate::state::State;
use crate::MemBackend;

/// When a write's log record reaches the disk (see the [module docs](crate::durable) for what each
/// can lose).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SyncPolicy {
    /// Fsync every record before the write is acknowledged (the default).
    #[default]
    Always,
    /// Write every record before the write is acknowledged; fsync at this interval.
    Every(Duration),
}

impl std::str::FromStr for SyncPolicy {
    type Err = String;

    /// `always`, or an interval: `10ms`, `1s`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel_mem::SyncPolicy;
    ///
    /// assert_eq!("always".parse(), Ok(SyncPolicy::Always));
    /// assert_eq!("10ms".parse(), Ok(SyncPolicy::Every(Duration::from_millis(10))));
    /// assert_eq!("2s".parse(), Ok(SyncPolicy::Every(Duration::from_secs(2))));
    /// assert!("sometimes".parse::<SyncPolicy>().is_err());
    /// ```
    fn from_str(s: &str) -> std::result::Result<SyncPolicy, String> {
        let bad = || {
            format!("invalid sync policy {s:?}: expected `always` or an interval such as `10ms` or `1s`")
        };
        if s == "always" {
            return Ok(SyncPolicy::Always);
        }
        let (digits, unit) = match s.strip_suffix("ms") {
            Some(d) => (d, 1),
            None => (s.strip_suffix('s').ok_or_else(bad)?, 1000),
        };
        let n: u64 = digits.parse().map_err(|_| bad())?;
        if n == 0 {
            return Err(bad());
        }
        Ok(SyncPolicy::Every(Duration::from_millis(
            n.saturating_mul(unit),
        )))
    }
}

impl fmt::Display for SyncPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncPolicy::Always => f.write_str("always"),
            SyncPolicy::Every(d) => write!(f, "{}ms", d.as_millis()),
        }
    }
}

/// Durable mode's settings.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// When records reach the disk.
    pub sync: SyncPolicy,
    /// Log bytes after which a snapshot is taken in the background.
    pub compact_after: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            sync: SyncPolicy::Always,
            compact_after: 64 << 20,
        }
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
}

/// What recovery found and did when a data directory was opened.
#[derive(Debug, Clone, Default)]
pub struct RecoveryReport {
    /// The data directory.
    pub dir: PathBuf,
    /// The snapshot loaded, if any.
    pub snapshot: Option<PathBuf>,
    /// Tables and items it held.
    pub snapshot_tables: u64,
    /// Items it held.
    pub snapshot_items: u64,
    /// Log files replayed.
    pub log_files: usize,
    /// Log records replayed.
    pub records: u64,
    /// A torn or corrupt record at the end of the last log, cut off.
    pub torn_tail: Option<TornTail>,
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
            ", {} records from {} log files",
            self.records, self.log_files
        )?;
        if let Some(t) = &self.torn_tail {
            write!(
                f,
                "; {} at offset {} of {}: cut there ({} bytes dropped)",
                t.damage,
                t.offset,
                t.file.display(),
                t.dropped
            )?;
        }
        if !self.warnings.is_empty() {
            write!(f, "; {} warnings", self.warnings.len())?;
        }
        Ok(())
    }
}

/// Where a snapshot stopped making sense.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotError {
    /// The offset of the bad frame.
    pub offset: u64,
    /// What is wrong with it.
    pub damage: Damage,
}

/// Why a data directory could not be opened.
#[derive(Debug)]
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
    /// Its `FORMAT` file is not one of ours.
    NotADataDir {
        /// The directory.
        dir: PathBuf,
    },
    /// A snapshot is damaged (not what a crash leaves: snapshots are renamed into place whole).
    CorruptSnapshot {
        /// The snapshot.
        file: PathBuf,
        /// Where.
        offset: u64,
        /// How.
        damage: Damage,
    },
    /// A log other than the last is damaged (a crash only tears the end of the last).
    CorruptLog {
        /// The log.
        file: PathBuf,
        /// Where its good records end.
        offset: u64,
        /// How.
        damage: Damage,
    },
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
                "{} is not a dynomodel-mem data directory (unreadable FORMAT file)",
                dir.display()
            ),
            OpenError::CorruptSnapshot {
                file,
                offset,
                damage,
            } => write!(
                f,
                "snapshot {} is damaged ({damage} at offset {offset}); refusing to start with \
                 acknowledged writes missing",
                file.display()
            ),
            OpenError::CorruptLog {
                file,
                offset,
                damage,
            } => write!(
                f,
                "log {} is damaged ({damage} at offset {offset}) and later logs follow it; refusing \
                 to start with acknowledged writes missing",
                file.display()
            ),
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

fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> OpenError + '_ {
    move |source| OpenError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// An engine's data directory, open.
#[derive(Debug)]
pub(crate) struct Durable {
    dir: PathBuf,
    log: Mutex<Log>,
    options: Options,
    pin: Pin,
    /// The clock under the pin (the time a write is pinned at).
    real: EngineClock,
    /// Set when the log could not be written: from then on writes are refused, since the memory
    /// holds a write the disk does not.
    failed: AtomicBool,
    /// Wakes the compaction thread.
    compactor: mpsc::Sender<()>,
    /// Held while a snapshot is written (one at a time).
    compacting: Mutex<()>,
    report: RecoveryReport,
    _lock: DirLock,
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

fn internal(message: impl Into<String>) -> Error {
    Error::Service {
        code: "InternalServerError".into(),
        message: message.into(),
    }
}

impl Durable {
    /// Runs the write `op` on `state` (held under the write lock by the caller), logging what it
    /// did; `command` is the request of a table operation.
    pub(crate) fn run<T>(
        &self,
        state: &mut State,
        command: Logged,
        op: impl FnOnce(&mut State) -> Result<T>,
    ) -> Result<T> {
        if self.failed.load(Ordering::Acquire) {
            return Err(internal(
                "the data directory could not be written; the server refuses writes",
            ));
        }
        let at = self.real.now();
        let running = Running::start(&self.pin, at);
        let result = op(state);
        let effects = journal::take();
        drop(running);
        let command = command.filter(|_| result.is_ok());
        if command.is_none() && effects.is_empty() {
            return result;
        }
        let record = Record {
            at,
            command,
            effects,
        };
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        let appended = log.append(&record.to_bytes(), self.options.sync == SyncPolicy::Always);
        if let Err(e) = appended {
            self.failed.store(true, Ordering::Release);
            log::error!(
                "durable log {}: {e}; refusing writes from now on",
                self.dir.display()
            );
            return Err(internal(format!("could not write the data directory: {e}")));
        }
        if log.len() > self.options.compact_after {
            // The thread may be busy with the last request; requests pile up as one.
            let _ = self.compactor.send(());
        }
        result
    }

    /// Fsyncs what the log holds.
    pub(crate) fn sync(&self) -> std::io::Result<()> {
        self.log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .sync()
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
        // No write runs while the read lock is held, so the snapshot is exactly the state after the
        // last record of the segment that ends here.
        let generation = self
            .log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .rotate()?;
        let name = dir::file_name(Kind::Snapshot, generation);
        let tmp = self.dir.join(format!("{name}.tmp"));
        let file = fs::File::create(&tmp)?;
        let totals = snapshot::write(&guard, self.real.now(), &file)?;
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

/// The output of `future`, which must be ready at once: the engine's operations never wait (no
/// fault rules are armed during recovery, and only they sleep). Polled by hand rather than with an
/// executor so that recovery works inside any runtime, or none.
pub(crate) fn ready<T>(
    future: impl std::future::Future<Output = crate::server::wire::WireResult<T>>,
) -> crate::server::wire::WireResult<T> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => out,
        std::task::Poll::Pending => Err(crate::server::wire::Fault::Backend(internal(
            "a replayed request did not complete at once",
        ))),
    }
}

/// Replays one record on the engine being recovered.
fn replay(backend: &MemBackend, pin: &Pin, record: &Record, warnings: &mut Vec<String>) {
    pin.set(record.at);
    if let Some((op, body)) = &record.command {
        let request = serde_json::to_vec(body).unwrap_or_default();
        let ran = ready(crate::server::wire::call(backend, op, &request));
        if let Err(e) = ran {
            warnings.push(format!("{op} at {}: {e:?}", record.at));
        }
    }
    if !record.effects.is_empty() {
        let mut state = backend.write();
        for effect in &record.effects {
            let missing = |table: &str| format!("{} at {}: no table {table}", "write", record.at);
            match effect {
                Effect::Put { table, key, item } => match state.table_for_replay(table) {
                    Some(t) => {
                        t.put(key.clone(), item.clone());
                    }
                    None => warnings.push(missing(table)),
                },
                Effect::Delete { table, key } => match state.table_for_replay(table) {
                    Some(t) => {
                        t.delete(key);
                    }
                    None => warnings.push(missing(table)),
                },
                Effect::Expire { table, key } => match state.table_for_replay(table) {
                    Some(t) => {
                        t.delete_as_service(key);
                    }
                    None => warnings.push(missing(table)),
                },
                Effect::Token { token, actions } => {
                    state.tokens_mut().record(token, actions, record.at);
                }
            }
        }
    }
    pin.clear();
}

/// Opens (creating if needed) the data directory `dir`: locks it, recovers its state into a new
/// engine with `clock`, `config` and `faults`, and logs the engine's writes there from then on.
pub(crate) fn open(
    dir: &Path,
    options: Options,
    clock: EngineClock,
    config: crate::config::EngineConfig,
    faults: crate::faults::Faults,
) -> std::result::Result<MemBackend, OpenError> {
    let started = Instant::now();
    let lock = dir::lock(dir)?;
    dir::check_format(dir)?;
    // Leftovers of a snapshot interrupted before its rename.
    for entry in fs::read_dir(dir).map_err(io_at(dir))?.flatten() {
        if entry.file_name().to_string_lossy().ends_with(".dyno.tmp") {
            let _ = fs::remove_file(entry.path());
        }
    }
    let (clock, pin, real) = pinnable(clock);
    let backend = MemBackend::from_parts(clock, config, faults);
    let mut report = RecoveryReport {
        dir: dir.to_path_buf(),
        ..RecoveryReport::default()
    };
    let mut first_log = 0;
    if let Some((generation, path)) = dir::list(dir, Kind::Snapshot).map_err(io_at(dir))?.pop() {
        let bytes = fs::read(&path).map_err(io_at(&path))?;
        let totals =
            snapshot::restore(&backend, &pin, &bytes).map_err(|e| OpenError::CorruptSnapshot {
                file: path.clone(),
                offset: e.offset,
                damage: e.damage,
            })?;
        report.snapshot = Some(path);
        report.snapshot_tables = totals.tables;
        report.snapshot_items = totals.items;
        first_log = generation;
    }
    let logs: Vec<(u64, PathBuf)> = dir::list(dir, Kind::Log)
        .map_err(io_at(dir))?
        .into_iter()
        .filter(|(g, _)| *g >= first_log)
        .collect();
    let mut current = None;
    for (i, (generation, path)) in logs.iter().enumerate() {
        let last = i + 1 == logs.len();
        let bytes = fs::read(path).map_err(io_at(path))?;
        let mut frames = Frames::new(&bytes);
        let mut good = 0usize;
        let mut damage = None;
        while let Some(payload) = frames.next() {
            let Some(record) = Record::from_bytes(payload) else {
                damage = Some(Damage::Undecodable);
                break;
            };
            replay(&backend, &pin, &record, &mut report.warnings);
            report.records += 1;
            good = frames.offset();
        }
        let damage = damage.or(frames.damage());
        report.log_files += 1;
        if let Some(damage) = damage {
            if !last {
                return Err(OpenError::CorruptLog {
                    file: path.clone(),
                    offset: good as u64,
                    damage,
                });
            }
            let tail = TornTail {
                file: path.clone(),
                offset: good as u64,
                dropped: (bytes.len() - good) as u64,
                damage,
            };
            log::warn!(
                "{}: {damage} at offset {good}: the log is cut there ({} bytes dropped)",
                path.display(),
                tail.dropped
            );
            report.torn_tail = Some(tail);
        }
        if last {
            current = Some((*generation, path.clone(), good as u64));
        }
    }
    let log = match current {
        Some((generation, path, good)) => Log::reopen(dir, &path, generation, good),
        None => Log::create(dir, first_log),
    }
    .map_err(io_at(dir))?;
    for warning in &report.warnings {
        log::warn!("recovery: {warning}");
    }
    report.duration = started.elapsed();
    let (tx, rx) = mpsc::channel();
    let durable = Arc::new(Durable {
        dir: dir.to_path_buf(),
        log: Mutex::new(log),
        options: options.clone(),
        pin,
        real,
        failed: AtomicBool::new(false),
        compactor: tx,
        compacting: Mutex::new(()),
        report,
        _lock: lock,
    });
    let backend = backend.with_durable(Arc::clone(&durable));
    spawn_compactor(Arc::downgrade(&durable), backend.state_weak(), rx);
    if let SyncPolicy::Every(interval) = options.sync {
        spawn_syncer(Arc::downgrade(&durable), interval);
    }
    Ok(backend)
}

/// The thread that writes a snapshot when the log has grown past its threshold.
fn spawn_compactor(durable: Weak<Durable>, state: Weak<RwLock<State>>, rx: mpsc::Receiver<()>) {
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
fn spawn_syncer(durable: Weak<Durable>, interval: Duration) {
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
