//! Format 1 directories (before records had sequence numbers and directories a manifest): read with
//! the same rules that tell a torn tail from damage, and converted in place when opened: a snapshot
//! of everything, a first segment after it, a manifest naming both, then the `FORMAT` file. The
//! format-1 files are kept, unchanged, in `DIR/aside/format-1/`.
//!
//! Each step can be interrupted: with no manifest yet, the format-2 files a conversion left are
//! removed and it starts over; with one, only the last steps remain.

use std::path::Path;
use std::sync::Arc;

use super::dir::{self, Kind};
use super::frame::{next_parsing, Frames};
use super::log::{parse_header, Log};
use super::manifest::{Manifest, SnapshotEntry};
use super::record::Record;
use super::recover::{replay, Source};
use super::report::{io_at, Damage, DamageReport, OpenError, Readable};
use super::snapshot;
use super::storage::{Appender, Storage};
use crate::MemBackend;

/// Whether a format-1 record may start `payload` (its time's nanoseconds, its command flag).
fn plausible_v1(payload: &[u8]) -> bool {
    let nanos = payload
        .get(8..12)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    payload.len() >= 17 && nanos.is_some_and(|n| n < 1_000_000_000) && payload[12] <= 1
}

fn damaged(file: &Path, offset: usize, damage: Damage, after: Readable) -> OpenError {
    OpenError::Damaged(Box::new(DamageReport {
        file: file.to_path_buf(),
        offset: offset as u64,
        damage,
        last_good: 0,
        after,
        repairable: false,
    }))
}

/// Whether the file at `path` was written in format 2 (a conversion's leftover).
fn is_format_2(storage: &dyn Storage, kind: Kind, path: &Path) -> bool {
    let Ok(bytes) = storage.read(path) else {
        return false;
    };
    let Some(first) = Frames::new(&bytes).next() else {
        return false;
    };
    match kind {
        Kind::Log => parse_header(first).is_some(),
        Kind::Snapshot => {
            serde_json::from_slice::<serde_json::Value>(first)
                .ok()
                .and_then(|v| v.get("snapshot")?.get("format")?.as_u64())
                == Some(2)
        }
    }
}

/// Reads a format-1 directory into a new engine.
fn read(source: &Source<'_>) -> Result<MemBackend, OpenError> {
    let (storage, dir) = (source.storage, source.dir);
    let backend = source.engine();
    let mut warnings = Vec::new();
    let mut first_log = 0;
    if let Some((generation, path)) = dir::list(storage, dir, Kind::Snapshot)
        .map_err(io_at(dir))?
        .pop()
    {
        let bytes = storage.read(&path).map_err(io_at(&path))?;
        snapshot::restore(&backend, source.pin, &bytes).map_err(|e| {
            let after = Readable {
                bytes: bytes.len() as u64 - e.offset.min(bytes.len() as u64),
                ..Readable::default()
            };
            damaged(&path, e.offset as usize, e.damage, after)
        })?;
        first_log = generation;
    }
    let logs: Vec<_> = dir::list(storage, dir, Kind::Log)
        .map_err(io_at(dir))?
        .into_iter()
        .filter(|(g, _)| *g >= first_log)
        .collect();
    for (i, (_, path)) in logs.iter().enumerate() {
        let bytes = storage.read(path).map_err(io_at(path))?;
        let mut frames = Frames::new(&bytes);
        let mut good = 0;
        while let Some(payload) = frames.next() {
            let Some(record) = Record::from_v1(payload) else {
                return Err(damaged(
                    path,
                    good,
                    Damage::Undecodable,
                    Readable::default(),
                ));
            };
            replay(&backend, source.pin, &record, &mut warnings);
            good = frames.offset();
        }
        if let Some(damage) = frames.damage() {
            let follows = next_parsing(&bytes, good + 1, plausible_v1).is_some();
            let after = Readable {
                bytes: (bytes.len() - good) as u64,
                ..Readable::default()
            };
            if i + 1 < logs.len() || follows {
                return Err(damaged(path, good, damage, after));
            }
            // A torn tail: the file goes aside whole, so its bytes are kept.
            tracing::warn!(
                "{}: torn last record ({damage}) at offset {good}: not converted",
                path.display()
            );
        }
    }
    for warning in warnings {
        tracing::warn!("recovery: {warning}");
    }
    Ok(backend)
}

/// Converts the format-1 directory of `source` to the current format (see the module docs).
pub(crate) fn convert(source: &Source<'_>, storage: &Arc<dyn Storage>) -> Result<(), OpenError> {
    let dir = source.dir;
    if Manifest::read(&**storage, dir)?.is_none() {
        for kind in [Kind::Log, Kind::Snapshot] {
            for (_, path) in dir::list(&**storage, dir, kind).map_err(io_at(dir))? {
                if is_format_2(&**storage, kind, &path) {
                    storage.remove(&path).map_err(io_at(&path))?;
                }
            }
        }
        let backend = read(source)?;
        let newest = [Kind::Log, Kind::Snapshot]
            .into_iter()
            .filter_map(|kind| {
                dir::list(&**storage, dir, kind)
                    .ok()?
                    .last()
                    .map(|(g, _)| *g)
            })
            .max();
        let generation = newest.map_or(0, |g| g + 1);
        let path = dir::path(dir, Kind::Snapshot, generation);
        let tmp = path.with_extension("dyno.tmp");
        let written = (|| {
            let file = storage.create(&tmp)?;
            let state = backend.read();
            let tables = state.read_all();
            snapshot::write(&state, &tables, source.clock.now(), 0, Appender(&*file))?;
            file.sync_all()?;
            storage.rename(&tmp, &path)?;
            storage.sync_dir(dir)
        })();
        if let Err(e) = written {
            let _ = storage.remove(&tmp);
            return Err(io_at(&path)(e));
        }
        let manifest = Manifest {
            snapshot: Some(SnapshotEntry {
                generation,
                last: 0,
            }),
            logs: Vec::new(),
        };
        Log::initial(Arc::clone(storage), dir, generation, manifest).map_err(io_at(dir))?;
    }
    let manifest = Manifest::read(&**storage, dir)?.unwrap_or_default();
    let keep_from = manifest.snapshot.map_or(0, |s| s.generation);
    let aside = dir.join(dir::ASIDE).join("format-1");
    storage.create_dir(&aside).map_err(io_at(&aside))?;
    for kind in [Kind::Log, Kind::Snapshot] {
        for (g, path) in dir::list(&**storage, dir, kind).map_err(io_at(dir))? {
            if g < keep_from {
                let name = path.file_name().unwrap_or_default();
                storage
                    .rename(&path, &aside.join(name))
                    .map_err(io_at(&path))?;
            }
        }
    }
    storage.sync_dir(dir).map_err(io_at(dir))?;
    dir::write_format(&**storage, dir)?;
    tracing::warn!(
        "data directory {}: converted from format 1; the format-1 files are in {} (delete them \
         once the server runs well)",
        dir.display(),
        aside.display()
    );
    Ok(())
}
