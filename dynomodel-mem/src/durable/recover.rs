//! Reading a data directory back into an engine: the snapshot, then the log segments since, each file
//! checked against the manifest and each record against its sequence number.
//!
//! What a crash leaves is told from damage (the guide's durability section, `docs/guide/server.md`):
//! - a short or torn frame at the end of the last segment, with nothing readable after it, is a torn
//!   tail: a write the crash interrupted, never acknowledged under `always`. The caller cuts it,
//!   keeping its bytes aside;
//! - anything else is damage, and refuses the directory: a bad frame followed by frames that parse,
//!   a bad frame anywhere but the end of the last segment, a frame that passes its checksum but does
//!   not decode, a sequence number out of turn, a file the manifest names that is missing, a closed
//!   segment of another length than the manifest recorded, a damaged snapshot or manifest. The
//!   refusal says where, and what starting there would lose.
//!
//! A last segment cut exactly at a record boundary is the one loss no check can see: only a record
//! of its length written with every write could, which would cost an fsync per write. The rule's
//! price in the other direction: a power cut that wrote a later unsynced record but tore an earlier
//! one (a disk writing pages out of order) is refused as damage, and needs `repair`, which then
//! drops only records no fsync had covered (under `always`, none acknowledged); nothing on disk
//! says which records were fsynced, so recovery cannot tell this from damage by itself.

use std::path::{Path, PathBuf};

use super::clock::Pin;
use super::dir::{self, Kind};
use super::frame::{next_parsing, Frames, HEADER};
use super::log::parse_header;
use super::manifest::{self, LogEntry, Manifest, SnapshotEntry};
use super::record::{seq_of, Effect, Record};
use super::report::{io_at, Damage, DamageReport, OpenError, Readable, RecoveryReport};
use super::snapshot;
use super::storage::Storage;
use super::writer::internal;
use crate::storage::clock::EngineClock;
use crate::storage::settings::EngineConfig;
use crate::MemBackend;

/// The output of `future`, which must be ready at once: the engine's operations never wait (no
/// fault rules are armed on the engine being recovered, and only they sleep). Polled by hand rather
/// than with an executor so that recovery works inside any runtime, or none.
pub(crate) fn ready<T>(
    future: impl std::future::Future<Output = crate::protocol::WireResult<T>>,
) -> crate::protocol::WireResult<T> {
    let mut future = std::pin::pin!(future);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(out) => out,
        std::task::Poll::Pending => Err(crate::protocol::Fault::Backend(internal(
            "a replayed request did not complete at once",
        ))),
    }
}

/// Replays one record on the engine being recovered.
pub(crate) fn replay(backend: &MemBackend, pin: &Pin, record: &Record, warnings: &mut Vec<String>) {
    pin.set(record.at);
    if let Some((op, request)) = &record.command {
        let ran = ready(crate::protocol::call(backend, op, request));
        if let Err(e) = ran {
            warnings.push(format!("{op} at {}: {e:?}", record.at));
        }
    }
    if !record.effects.is_empty() {
        let mut state = backend.write();
        for effect in &record.effects {
            let missing = |table: &str| format!("write at {}: no table {table}", record.at);
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

/// What recovery reads with.
#[derive(Debug, Clone)]
pub(crate) struct Source<'a> {
    pub storage: &'a dyn Storage,
    pub dir: &'a Path,
    pub pin: &'a Pin,
    /// The engine's (pinned) clock and settings, for the engine being rebuilt.
    pub clock: &'a EngineClock,
    pub config: &'a EngineConfig,
}

impl Source<'_> {
    /// An empty engine to recover into (no fault rules: nothing may fire during a replay).
    pub(crate) fn engine(&self) -> MemBackend {
        MemBackend::from_parts(
            self.clock.clone(),
            self.config.clone(),
            crate::faults::Faults::default(),
        )
    }

    fn read(&self, path: &Path) -> Result<Option<Vec<u8>>, OpenError> {
        match self.storage.read(path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_at(path)(e)),
        }
    }
}

/// How much of the log to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Everything, as at startup.
    All,
    /// Segment `generation` only up to `len` bytes: rebuilding the engine after a write that failed
    /// to reach the disk, from what the log is known to hold.
    Upto { generation: u64, len: u64 },
}

/// A torn record at the end of the last segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Torn {
    /// Where it starts (the end of the last good record).
    pub offset: u64,
    pub damage: Damage,
    /// Its sequence number, if its first bytes hold one.
    pub record: Option<u64>,
}

/// A directory read back.
#[derive(Debug)]
pub(crate) struct Recovered {
    /// The engine, holding the state.
    pub backend: MemBackend,
    pub report: RecoveryReport,
    pub manifest: Manifest,
    /// Where the good records of the last segment end.
    pub good_len: u64,
    /// A torn record after them, for the caller to cut.
    pub torn: Option<Torn>,
    /// Files no longer needed (segments and snapshots older than the snapshot loaded, a segment
    /// created by an interrupted rotation that holds no record).
    pub leftovers: Vec<PathBuf>,
    /// The snapshot loaded.
    pub loaded: Option<SnapshotEntry>,
}

/// The fewest bytes a framed record takes: a frame header, a sequence number, a time, one entry tag.
const MIN_RECORD: u64 = (HEADER + 8 + 8 + 4 + 1) as u64;

/// Records readable in `bytes` from `from` on, numbered after `after` and at most `upto` (format 2),
/// and their last. A frame counts only if its number is in that range (checked before its checksum,
/// which keeps scanning damaged bytes linear).
fn readable_in(bytes: &[u8], from: usize, after: u64, upto: u64) -> (u64, Option<u64>) {
    let plausible = |payload: &[u8]| {
        payload.len() > 20 && seq_of(payload).is_some_and(|s| s > after && s <= upto)
    };
    let (mut count, mut last) = (0, None);
    let mut at = from;
    while let Some(start) = next_parsing(bytes, at, plausible) {
        let mut frames = Frames::new(&bytes[start..]);
        for payload in frames.by_ref() {
            count += 1;
            last = seq_of(payload).max(last);
        }
        at = start + frames.offset().max(1);
    }
    (count, last)
}

/// What is readable after record `after`: in `bytes` from `from`, then in the segments `later`.
fn readable_after(
    source: &Source<'_>,
    bytes: &[u8],
    from: usize,
    after: u64,
    later: &[LogEntry],
) -> Readable {
    let from = from.min(bytes.len());
    let files: Vec<Vec<u8>> = later
        .iter()
        .filter_map(|entry| {
            let path = dir::path(source.dir, Kind::Log, entry.generation);
            source.read(&path).ok().flatten()
        })
        .collect();
    let mut total = (bytes.len() - from) as u64;
    total += files.iter().map(|f| f.len() as u64).sum::<u64>();
    let upto = after + total / MIN_RECORD + 1;
    let (mut records, mut last) = readable_in(bytes, from, after, upto);
    for file in &files {
        let (n, l) = readable_in(file, 0, after, upto);
        records += n;
        last = last.max(l);
    }
    Readable {
        records,
        last,
        bytes: total,
    }
}

fn damaged(
    file: PathBuf,
    offset: u64,
    damage: Damage,
    last_good: u64,
    after: Readable,
    repairable: bool,
) -> OpenError {
    OpenError::Damaged(Box::new(DamageReport {
        file,
        offset,
        damage,
        last_good,
        after,
        repairable,
    }))
}

/// Reads the format-2 directory of `source` into a new engine.
pub(crate) fn recover(source: &Source<'_>, scope: Scope) -> Result<Recovered, OpenError> {
    let (storage, dir) = (source.storage, source.dir);
    let manifest = Manifest::read(storage, dir)?.ok_or_else(|| {
        damaged(
            dir.join(manifest::FILE),
            0,
            Damage::Missing,
            0,
            Readable::default(),
            true,
        )
    })?;
    let backend = source.engine();
    let mut report = RecoveryReport {
        dir: dir.to_path_buf(),
        ..RecoveryReport::default()
    };
    let mut leftovers = Vec::new();
    let snapshots = dir::list(storage, dir, Kind::Snapshot).map_err(io_at(dir))?;
    // The snapshot to load: the manifest's, or a newer one (a compaction interrupted between renaming
    // its snapshot into place and recording it in the manifest; it is complete, or it would not
    // have been renamed).
    let named = manifest.snapshot.map(|s| s.generation);
    let newest = snapshots
        .last()
        .filter(|(g, _)| named.is_none_or(|n| *g >= n));
    let mut loaded = None;
    let (start, mut last) = match (newest, manifest.snapshot) {
        (Some((generation, path)), _) => {
            let bytes = source.read(path)?.unwrap_or_default();
            let totals = snapshot::restore(&backend, source.pin, &bytes).map_err(|e| {
                let after = Readable {
                    bytes: bytes.len() as u64 - e.offset.min(bytes.len() as u64),
                    ..Readable::default()
                };
                damaged(path.clone(), e.offset, e.damage, 0, after, false)
            })?;
            report.snapshot = Some(path.clone());
            report.snapshot_tables = totals.tables;
            report.snapshot_items = totals.items;
            loaded = Some(SnapshotEntry {
                generation: *generation,
                last: totals.last,
            });
            (*generation, totals.last)
        }
        (None, Some(s)) => {
            let path = dir::path(dir, Kind::Snapshot, s.generation);
            return Err(damaged(
                path,
                0,
                Damage::Missing,
                0,
                Readable::default(),
                false,
            ));
        }
        (None, None) => {
            let first = manifest.logs.first().map_or(1, |l| l.first);
            (manifest.logs.first().map_or(0, |l| l.generation), first - 1)
        }
    };
    for (generation, path) in snapshots
        .iter()
        .chain(&dir::list(storage, dir, Kind::Log).map_err(io_at(dir))?)
    {
        if *generation < start {
            leftovers.push(path.clone());
        }
    }
    let needed: Vec<LogEntry> = manifest
        .logs
        .iter()
        .filter(|l| l.generation >= start)
        .copied()
        .collect();
    if needed.first().map(|l| l.generation) != Some(start) {
        let path = dir::path(dir, Kind::Log, start);
        let after = readable_after(source, &[], 0, last, &needed);
        return Err(damaged(path, 0, Damage::Missing, last, after, true));
    }
    let mut good_len = 0;
    let mut torn = None;
    for (i, entry) in needed.iter().enumerate() {
        let path = dir::path(dir, Kind::Log, entry.generation);
        let later = &needed[i + 1..];
        let Some(mut bytes) = source.read(&path)? else {
            let after = readable_after(source, &[], 0, last, later);
            return Err(damaged(path, 0, Damage::Missing, last, after, true));
        };
        if let Scope::Upto { generation, len } = scope
            && generation == entry.generation
        {
            bytes.truncate(usize::try_from(len).unwrap_or(usize::MAX));
        }
        let bad = |offset: usize, damage: Damage, last: u64| {
            let after = readable_after(source, &bytes, offset + 1, last, later);
            damaged(path.clone(), offset as u64, damage, last, after, true)
        };
        let mut frames = Frames::new(&bytes);
        match frames.next().and_then(parse_header) {
            Some((g, first)) if g == entry.generation && first == entry.first => {
                if first != last + 1 {
                    let damage = Damage::Sequence {
                        expected: last + 1,
                        found: first,
                    };
                    return Err(bad(0, damage, last));
                }
            }
            Some((g, first)) if g == entry.generation => {
                let damage = Damage::Sequence {
                    expected: entry.first,
                    found: first,
                };
                return Err(bad(0, damage, last));
            }
            Some(_) => return Err(bad(0, Damage::Undecodable, last)),
            None => return Err(bad(0, frames.damage().unwrap_or(Damage::Truncated), last)),
        }
        let mut good = frames.offset();
        loop {
            let at = frames.offset();
            let Some(payload) = frames.next() else { break };
            let Some(record) = Record::from_bytes(payload) else {
                return Err(bad(at, Damage::Undecodable, last));
            };
            if record.seq != last + 1 {
                let damage = Damage::Sequence {
                    expected: last + 1,
                    found: record.seq,
                };
                return Err(bad(at, damage, last));
            }
            replay(&backend, source.pin, &record, &mut report.warnings);
            last = record.seq;
            report.records += 1;
            good = frames.offset();
        }
        report.log_files += 1;
        let current = later.is_empty() && entry.end.is_none();
        if let Some(damage) = frames.damage() {
            let upto = last + bytes.len() as u64 / MIN_RECORD + 1;
            let (after, _) = readable_in(&bytes, good + 1, last, upto);
            if !current || after > 0 || scope != Scope::All {
                return Err(bad(good, damage, last));
            }
            let record = bytes
                .get(good + HEADER..)
                .and_then(seq_of)
                .filter(|s| *s == last + 1);
            torn = Some(Torn {
                offset: good as u64,
                damage,
                record,
            });
        }
        if let Some(end) = entry.end
            && (bytes.len() as u64 != end.bytes || last != end.last)
        {
            let offset = bytes
                .len()
                .min(usize::try_from(end.bytes).unwrap_or(usize::MAX));
            let damage = Damage::Length {
                expected: end.bytes,
            };
            return Err(bad(offset, damage, last));
        }
        good_len = good as u64;
    }
    // Segments after the manifest's last: a rotation interrupted before it recorded the new
    // segment, which then holds its header and nothing more. One with records is damage.
    let current = needed.last().map_or(start, |l| l.generation);
    for (generation, path) in dir::list(storage, dir, Kind::Log).map_err(io_at(dir))? {
        if generation <= current {
            continue;
        }
        let bytes = source.read(&path)?.unwrap_or_default();
        let mut frames = Frames::new(&bytes);
        let header_only = frames.next().and_then(parse_header).is_some() && frames.next().is_none();
        let upto = last + bytes.len() as u64 / MIN_RECORD + 1;
        if !header_only && readable_in(&bytes, 0, 0, upto).0 > 0 {
            let after = readable_after(source, &bytes, 0, last, &[]);
            return Err(damaged(path, 0, Damage::Unexpected, last, after, true));
        }
        leftovers.push(path);
    }
    report.last_record = last;
    // Eventual consistency on demand: the replay made each write's changes pending again, at the
    // instant of the replay. The log holds writes, not their delays: a restart settles them, so
    // that the recovered engine shows every acknowledged write to every reader.
    backend.settle();
    Ok(Recovered {
        backend,
        report,
        manifest,
        good_len,
        torn,
        leftovers,
        loaded,
    })
}
