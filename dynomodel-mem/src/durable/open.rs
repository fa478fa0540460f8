//! Opening a data directory: lock, format check, recovery (the latest snapshot, then the log since).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use super::clock::{pinnable, Pin};
use super::dir::{self, Kind};
use super::frame::{Damage, Frames};
use super::journal::Effect;
use super::log::Log;
use super::record::Record;
use super::report::{io_at, OpenError, RecoveryReport, TornTail};
use super::settings::{Options, SyncPolicy};
use super::snapshot;
use super::writer::{internal, spawn_compactor, spawn_syncer, Durable};
use crate::clock::EngineClock;
use crate::MemBackend;

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
        appended: AtomicU64::new(0),
        synced: AtomicU64::new(0),
        syncing: Mutex::new(()),
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
