//! Opening a data directory: lock, format (creating a new directory, converting an old one),
//! recovery (`recover.rs`), an explicit repair when asked for (`repair.rs`), the torn tail cut with
//! its bytes kept aside, then the engine logging its writes there.

use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::Instant;

use super::clock::pinnable;
use super::dir::{self, Kind};
use super::failure::Faulted;
use super::frame::Frames;
use super::log::{parse_header, Log};
use super::manifest::{self, Manifest};
use super::recover::{recover, Recovered, Scope, Source, Torn};
use super::report::{io_at, OpenError, TornTail};
use super::settings::{Options, SyncPolicy};
use super::storage::Storage;
use super::writer::{spawn_compactor, spawn_syncer, Durable};
use super::{legacy, repair};
use crate::storage::clock::EngineClock;
use crate::MemBackend;

/// Repairs in one open, at most (each moves files aside, so each makes progress).
const MAX_REPAIRS: usize = 8;

/// Removes what an interrupted atomic write or probe leaves: temporary files, never data.
fn remove_temporaries(storage: &dyn Storage, dir: &Path) -> Result<(), OpenError> {
    for name in storage.names(dir).map_err(io_at(dir))? {
        if name.ends_with(".tmp") {
            let _ = storage.remove(&dir.join(name));
        }
    }
    Ok(())
}

/// Whether `dir` holds no record at all: no snapshot, and no log segment with a record (what a
/// directory whose creation was interrupted holds, before its `FORMAT` file is written last).
fn holds_no_record(storage: &dyn Storage, dir: &Path) -> Result<bool, OpenError> {
    if !dir::list(storage, dir, Kind::Snapshot)
        .map_err(io_at(dir))?
        .is_empty()
    {
        return Ok(false);
    }
    for (_, path) in dir::list(storage, dir, Kind::Log).map_err(io_at(dir))? {
        let bytes = storage.read(&path).map_err(io_at(&path))?;
        let mut frames = Frames::new(&bytes);
        let header = frames.next().and_then(parse_header).is_some();
        if !header && !bytes.is_empty() || frames.next().is_some() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Creates a new directory: its first segment, its manifest, then its `FORMAT` file (last: a
/// directory without one holds nothing yet).
fn create(storage: &Arc<dyn Storage>, dir: &Path) -> Result<(), OpenError> {
    for (_, path) in dir::list(&**storage, dir, Kind::Log).map_err(io_at(dir))? {
        storage.remove(&path).map_err(io_at(&path))?;
    }
    let _ = storage.remove(&dir.join(manifest::FILE));
    Log::initial(Arc::clone(storage), dir, 0, Manifest::default()).map_err(io_at(dir))?;
    dir::write_format(&**storage, dir)
}

/// Cuts the torn record at the end of the last segment, keeping its bytes in `DIR/aside`.
fn cut_torn_tail(
    storage: &dyn Storage,
    dir: &Path,
    generation: u64,
    torn: Torn,
) -> Result<TornTail, OpenError> {
    let path = dir::path(dir, Kind::Log, generation);
    let bytes = storage.read(&path).map_err(io_at(&path))?;
    let offset = usize::try_from(torn.offset).unwrap_or(usize::MAX);
    let dropped = bytes.get(offset..).unwrap_or_default();
    let kept =
        dir::aside_path(storage, dir, &path, &format!("torn-at-{offset}")).map_err(io_at(dir))?;
    let saved = (|| {
        let file = storage.create(&kept)?;
        file.append(dropped)?;
        file.sync_all()?;
        storage.sync_dir(kept.parent().unwrap_or(dir))?;
        let log = storage.open(&path)?;
        log.set_len(torn.offset)?;
        log.sync_all()
    })();
    saved.map_err(io_at(&path))?;
    let tail = TornTail {
        file: path,
        offset: torn.offset,
        dropped: dropped.len() as u64,
        damage: torn.damage,
        record: torn.record,
        kept,
    };
    tracing::warn!(
        "{}: torn last record ({}{}) at offset {}, which a crash during a write leaves: cut there; \
         its {} bytes are kept in {}",
        tail.file.display(),
        tail.damage,
        tail.record.map(|r| format!(", record {r}")).unwrap_or_default(),
        tail.offset,
        tail.dropped,
        tail.kept.display()
    );
    Ok(tail)
}

/// Opens (creating if needed) the data directory `dir` on `storage`: locks it, recovers its state
/// into a new engine with `clock`, `config` and `faults`, and logs the engine's writes there from
/// then on.
pub(crate) fn open(
    dir: &Path,
    options: Options,
    clock: EngineClock,
    config: crate::storage::settings::EngineConfig,
    faults: crate::faults::Faults,
) -> Result<MemBackend, OpenError> {
    let started = Instant::now();
    let storage = Arc::clone(&options.storage);
    let lock = storage.lock(dir)?;
    remove_temporaries(&*storage, dir)?;
    let (clock, pin, real) = pinnable(clock);
    let source = Source {
        storage: &*storage,
        dir,
        pin: &pin,
        clock: &clock,
        config: &config,
    };
    let mut converted_from = None;
    match dir::format(&*storage, dir)? {
        Some(dir::FORMAT_VERSION) => {}
        Some(old) => {
            legacy::convert(&source, &storage)?;
            converted_from = Some(old);
        }
        None if holds_no_record(&*storage, dir)? => create(&storage, dir)?,
        None => {
            return Err(OpenError::NotADataDir {
                dir: dir.to_path_buf(),
            })
        }
    }
    let mut repairs = Vec::new();
    let Recovered {
        backend,
        mut report,
        mut manifest,
        good_len,
        torn,
        leftovers,
        loaded,
    } = loop {
        match recover(&source, Scope::All) {
            Err(OpenError::Damaged(damage))
                if options.repair && damage.repairable && repairs.len() < MAX_REPAIRS =>
            {
                repairs.push(repair::repair(&source, &damage)?);
            }
            recovered => break recovered?,
        }
    };
    let current = manifest.current().map_or(0, |c| c.generation);
    if let Some(torn) = torn {
        report.torn_tail = Some(cut_torn_tail(&*storage, dir, current, torn)?);
    }
    // A snapshot newer than the manifest's (a compaction interrupted before recording it) becomes
    // the manifest's, before the files it replaces go.
    if let Some(loaded) = loaded
        && manifest.snapshot != Some(loaded)
    {
        manifest.snapshot = Some(loaded);
        manifest.logs.retain(|l| l.generation >= loaded.generation);
        manifest.write(&*storage, dir).map_err(io_at(dir))?;
    }
    for path in &leftovers {
        let _ = storage.remove(path);
    }
    let next = report.last_record + 1;
    let log =
        Log::reopen(Arc::clone(&storage), dir, manifest, good_len, next).map_err(io_at(dir))?;
    // What the segment holds may still be in the kernel's cache only (a killed process's writes
    // under `Nms`): make it durable, so that "synced" means what it says from here on.
    log.sync_target().0.sync_data().map_err(io_at(dir))?;
    for warning in &report.warnings {
        tracing::warn!("recovery: {warning}");
    }
    report.converted_from = converted_from;
    report.repairs = repairs;
    report.duration = started.elapsed();
    let (tx, rx) = mpsc::channel();
    let durable = Arc::new(Durable {
        storage,
        dir: dir.to_path_buf(),
        log: Mutex::new(log),
        pin,
        clock,
        config,
        real,
        state: OnceLock::new(),
        me: OnceLock::new(),
        compactor: tx,
        compacting: Mutex::new(None),
        appended: AtomicU64::new(0),
        synced: AtomicU64::new(0),
        syncing: Mutex::new(()),
        faulted: Faulted::new(options.probe_interval),
        options: options.clone(),
        report,
        _lock: lock,
    });
    let _ = durable.me.set(Arc::downgrade(&durable));
    let mut backend = backend;
    backend.faults = crate::faults::FaultHandle::from(faults);
    let backend = backend.with_durable(Arc::clone(&durable));
    let _ = durable.state.set(backend.state_weak());
    spawn_compactor(Arc::downgrade(&durable), rx);
    if let SyncPolicy::Every(interval) = options.sync {
        spawn_syncer(Arc::downgrade(&durable), interval);
    }
    Ok(backend)
}
