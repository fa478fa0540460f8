//! The explicit repair (`dynomodel-mem repair`, [`MemBackendBuilder::repair`](crate::MemBackendBuilder::repair)):
//! cuts the log at its last good record before the damage recovery found, and keeps every file it
//! changes, unchanged, in `DIR/aside/repair-N/`.
//!
//! - A damaged or missing log segment: it and the segments after it go aside; the segment is
//!   written back holding its header and its records before the damage (or, when none is readable,
//!   a new header), and becomes the last one.
//! - A segment the manifest does not name that holds records goes aside.
//! - A damaged or missing manifest is rebuilt from the segments' headers (the damaged one goes
//!   aside); recovery then checks what it says as always.
//! - A damaged snapshot is not repaired: every later record builds on it.

use std::path::{Path, PathBuf};

use super::dir::{self, Kind};
use super::frame::{self, Frames};
use super::log::parse_header;
use super::manifest::{self, End, LogEntry, Manifest, SnapshotEntry};
use super::record::seq_of;
use super::recover::Source;
use super::report::{io_at, DamageReport, OpenError, Repair};
use super::storage::{write_atomically, Storage};

/// A new directory under `DIR/aside` for this repair's originals.
fn aside_dir(storage: &dyn Storage, dir: &Path) -> std::io::Result<PathBuf> {
    let aside = dir.join(dir::ASIDE);
    storage.create_dir(&aside)?;
    let taken = storage.names(&aside)?;
    let mut n = 1u32;
    while taken.contains(&format!("repair-{n}")) {
        n += 1;
    }
    let path = aside.join(format!("repair-{n}"));
    storage.create_dir(&path)?;
    Ok(path)
}

/// Moves `file` into `aside`, unchanged.
fn move_aside(storage: &dyn Storage, file: &Path, aside: &Path) -> std::io::Result<()> {
    let name = file.file_name().unwrap_or_default();
    storage.rename(file, &aside.join(name))
}

/// Repairs the damage `damage` of the directory of `source` (see the module docs).
pub(crate) fn repair(source: &Source<'_>, damage: &DamageReport) -> Result<Repair, OpenError> {
    let (storage, dir) = (source.storage, source.dir);
    let aside = aside_dir(storage, dir).map_err(io_at(dir))?;
    let name = damage
        .file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    if name == manifest::FILE {
        if storage.read(&damage.file).is_ok() {
            move_aside(storage, &damage.file, &aside).map_err(io_at(&damage.file))?;
        }
        rebuild_manifest(storage, dir).map_err(io_at(dir))?;
    } else {
        cut_log(storage, dir, damage, &aside).map_err(io_at(&damage.file))?;
    }
    storage.sync_dir(dir).map_err(io_at(dir))?;
    let repair = Repair {
        damage: damage.clone(),
        kept_last: damage.last_good,
        dropped: damage.after,
        aside,
    };
    tracing::warn!("{repair}");
    Ok(repair)
}

/// The generation of a log segment's path.
fn generation_of(path: &Path) -> Option<u64> {
    path.file_name()?
        .to_str()?
        .strip_prefix("log-")?
        .strip_suffix(".dyno")?
        .parse()
        .ok()
}

/// Cuts the log at `damage`, moving the segments from the damaged one on into `aside`.
fn cut_log(
    storage: &dyn Storage,
    dir: &Path,
    damage: &DamageReport,
    aside: &Path,
) -> std::io::Result<()> {
    let generation = generation_of(&damage.file)
        .ok_or_else(|| std::io::Error::other("not a log segment: cannot be cut"))?;
    let mut manifest = Manifest::read(storage, dir)
        .map_err(|e| std::io::Error::other(e.to_string()))?
        .unwrap_or_default();
    let named = manifest.logs.iter().any(|l| l.generation == generation);
    if !named {
        // A segment the manifest does not name: it goes, nothing else changes.
        return move_aside(storage, &damage.file, aside);
    }
    let original = storage.read(&damage.file).ok();
    for (g, path) in dir::list(storage, dir, Kind::Log)? {
        if g >= generation {
            move_aside(storage, &path, aside)?;
        }
    }
    let offset = usize::try_from(damage.offset).unwrap_or(usize::MAX);
    let kept = original
        .as_deref()
        .and_then(|bytes| bytes.get(..offset))
        .filter(|kept| {
            Frames::new(kept)
                .next()
                .and_then(parse_header)
                .is_some_and(|(g, _)| g == generation)
        });
    let first = damage.last_good + 1;
    let bytes = match kept {
        Some(kept) => kept.to_vec(),
        None => {
            // No readable header: a new one, for the records after the last good one.
            let first = manifest
                .logs
                .iter()
                .find(|l| l.generation == generation)
                .map_or(first, |l| l.first);
            let mut frame = Vec::new();
            frame::encode(&super::log::header_payload(generation, first), &mut frame);
            frame
        }
    };
    write_atomically(storage, dir, &dir::file_name(Kind::Log, generation), &bytes)?;
    manifest.logs.retain(|l| l.generation <= generation);
    if let Some(last) = manifest.logs.last_mut() {
        last.end = None;
    }
    manifest.write(storage, dir)
}

/// The header and the last record's sequence number of a segment's bytes.
fn segment_span(bytes: &[u8]) -> Option<(u64, u64, u64)> {
    let mut frames = Frames::new(bytes);
    let (generation, first) = frames.next().and_then(parse_header)?;
    let mut last = first - 1;
    for payload in frames {
        last = seq_of(payload).unwrap_or(last);
    }
    Some((generation, first, last))
}

/// Writes a manifest naming what the directory holds: the newest snapshot and the segments from
/// its generation on, each closed where it ends (the last one open).
fn rebuild_manifest(storage: &dyn Storage, dir: &Path) -> std::io::Result<()> {
    let snapshot = dir::list(storage, dir, Kind::Snapshot)?
        .pop()
        .and_then(|(generation, path)| {
            let bytes = storage.read(&path).ok()?;
            let header = Frames::new(&bytes).next()?;
            let v: serde_json::Value = serde_json::from_slice(header).ok()?;
            let last = v.get("snapshot")?.get("last")?.as_u64()?;
            Some(SnapshotEntry { generation, last })
        });
    let mut logs = Vec::new();
    for (g, path) in dir::list(storage, dir, Kind::Log)? {
        if snapshot.is_some_and(|s| g < s.generation) {
            continue;
        }
        let bytes = storage.read(&path)?;
        let Some((generation, first, last)) = segment_span(&bytes) else {
            break;
        };
        if generation != g {
            break;
        }
        logs.push(LogEntry {
            generation,
            first,
            end: Some(End {
                last,
                bytes: bytes.len() as u64,
            }),
        });
    }
    if let Some(current) = logs.last_mut() {
        current.end = None;
    }
    if logs.is_empty() {
        return Err(std::io::Error::other(
            "no log segment with a readable header to rebuild the manifest from",
        ));
    }
    Manifest { snapshot, logs }.write(storage, dir)
}
