//! Durable mode: the engine's state kept in a data directory, so that a server (or an embedded
//! engine) survives restarts and crashes. [`MemBackend::open`](crate::MemBackend::open) and
//! `dynomodel-mem serve --data-dir DIR [--sync always|Nms]`.
//!
//! # The storage: a write-ahead log of effects plus snapshots
//!
//! The engine stays what it is, an in-memory engine with one lock; durability is a log beside it.
//! Every write request, while it still holds its locks, appends one record of what it *did* (its
//! effects: items put, items deleted, items expired by TTL, a transaction's token; for a table
//! operation, its request), and answers only once the record is where the sync policy wants it. Log
//! order is therefore apply order, and no reader sees a write before it is in the log (nor, under
//! `always`, is answered before it is on disk). The effects are captured where every write passes
//! (`journal.rs`: the table's puts and deletes, the token store, the catalog's write path), encoded
//! straight into the record (`record.rs`, items in `codec.rs`), numbered (a sequence number per
//! record, consecutive across segments) and framed by length and CRC-32 (`frame.rs`) in place.
//! Recovery (`recover.rs`) loads the latest snapshot and replays the log written since: item
//! effects through the same `Table::put`/`delete` as live writes (so indexes, TTL indexes,
//! item-collection sizes and stream records are rebuilt by the code that builds them live), table
//! operations through the server's own request decoder and the engine's operation, each at the
//! instant it first ran (the clock is pinned per write, see `clock.rs`), which makes replay
//! deterministic: table ids, stream ARNs, sequence numbers and transition times come back exactly.
//! When the log grows past a threshold a background thread writes a snapshot (under the read lock:
//! readers go on, writers wait), renames it into place and drops the logs it covers. A manifest
//! (`manifest.rs`), rewritten only when segments or snapshots come and go, records which files
//! must exist. All of it goes through a small file-system interface (`storage.rs`), which tests
//! replace with one that fails on purpose (`sim.rs`).
//!
//! Why this rather than an embedded store (redb 4.6, fjall 3.1 on crates.io: both well kept, both
//! crash-safe, both needing Rust 1.90): the engine's data already lives in memory in the shape its
//! operations need (ordered partitions, indexes, streams, lifecycle), so a store would be a second
//! copy kept in step, not the primary one; what is needed is only "redo what was acknowledged", which
//! an append-only log does with one `write` (plus a shared `fdatasync` under `always`) per request,
//! no read path, and a few thousand lines with no new dependency (crc32fast and serde_json are the
//! server's already). A store would add a B-tree's or an LSM tree's write amplification to every put,
//! its own compaction, a dependency tree to the server, and still need a mapping of streams, tokens
//! and lifecycle onto keys. The cost of the choice: recovery time grows with the data (a snapshot is
//! loaded whole: 1M small items in about 1.3 s, see `docs/performance.md`), and the whole data set
//! must fit in memory, which it already must. Under `always` durable writes are bounded by the disk's
//! fsync rate per writer (concurrent writers share fsyncs); `Nms` costs a `write` per request.
//!
//! # Sync policies: what is promised
//!
//! - `always` (the default): a write is answered only once its record is fsynced (`fdatasync`);
//!   a read only once every write it may have seen is. Neither `kill -9` nor a power cut loses an
//!   acknowledged write, and no client ever sees a write that a crash could take back. The fsync
//!   happens after the request's locks are released, and writers waiting together share one
//!   (group commit: the first fsyncs everything written so far).
//! - `Nms` (e.g. `10ms`): a write is answered once its record is written to the log file (one
//!   `write` system call, into the kernel's cache); a background thread fsyncs every N ms. `kill -9`
//!   loses nothing (the kernel has the data). A power cut or kernel crash loses the writes answered
//!   since the last fsync that completed: at most N ms of writes plus the time one fsync takes, and
//!   clients may have read them. A failed fsync is treated as that power cut (below).
//!
//! # When the disk fails (`failure.rs`)
//!
//! A write whose record cannot be appended (a full disk, an I/O error, a short write) or, under
//! `always`, whose fsync fails, is answered `InternalServerError` saying it was not applied, and is
//! visible to no one: not in memory (the engine is rebuilt from what the log holds for sure, and no
//! request answers from the engine between the failure and the rebuild), not after a restart (the
//! segment is cut back to before the record, or to the last fsync that worked; a failed fsync is
//! never retried, as PostgreSQL learned in 2018). The engine is then degraded
//! ([`Health::Degraded`], `/health` 503 with the reason): writes are refused with
//! `ServiceUnavailable`, reads served, and writes resume by themselves once a probe can write and
//! fsync the directory again. Under `Nms` a failed fsync puts the engine back to the last fsync
//! that worked, losing what a power cut then would. If even that rebuild fails, every request is
//! refused until a restart ([`Health::Failed`]). A failed snapshot leaves no temporary file; the
//! log goes on, and another snapshot is tried later.
//!
//! # Damage is not a torn tail (`recover.rs`)
//!
//! A crash can tear only the end of the last log segment, with nothing readable after it: that torn
//! record is cut (its bytes kept in `DIR/aside/`), reported ([`RecoveryReport::torn_tail`] and a
//! warning naming the file, the offset and the bytes), and was never acknowledged under `always` (or
//! belongs to the window `Nms` allows to lose). Anything else is damage, and the directory is refused
//! with [`OpenError::Damaged`] naming the file, the offset and what starting would lose (the records
//! still readable after it, their last sequence number, the bytes): a bad record followed by records
//! that parse, damage anywhere but the end of the last segment, a record out of sequence, a file the
//! manifest names that is missing (a deleted log, a deleted snapshot), a closed segment of another
//! length than recorded, an emptied segment, a damaged snapshot or manifest. Nothing is cut or
//! rewritten then. An explicit repair (`dynomodel-mem repair --data-dir DIR`, or
//! [`MemBackendBuilder::repair`](crate::MemBackendBuilder::repair)) cuts the log at the last good
//! record before the damage, moves the files it changes, unchanged, to `DIR/aside/repair-N/`, and
//! reports what it dropped ([`RecoveryReport::repairs`]). A damaged snapshot cannot be repaired in
//! place. The one loss no check sees: the last segment cut exactly at a record boundary (only a
//! record of its length written with every write could tell, at the price of an fsync per write).
//!
//! A directory of format 1 (before sequence numbers and the manifest) is converted when opened,
//! its files kept in `DIR/aside/format-1/`. A directory written by a newer format is refused
//! ([`OpenError::NewerFormat`]); one process at a time serves a directory ([`OpenError::InUse`], an
//! OS file lock the kernel drops when the process dies).
//!
//! # What comes back
//!
//! Tables (definitions, indexes, status, ids, ARNs), items, TTL settings, tags, streams (of live and
//! of deleted tables) with their shards and retained records, the stream sequence counter, and
//! transactions' `ClientRequestToken`s (for their 10 minutes). A snapshot does not carry a table's
//! capacity-change history (`NumberOfDecreasesToday`) nor changes still in progress, which count as
//! settled after it (see `snapshot.rs`); the log alone carries both.

#[cfg(feature = "durable")]
mod backend;
#[cfg(feature = "durable")]
pub(crate) mod clock;
#[cfg(feature = "durable")]
pub(crate) mod codec;
#[cfg(feature = "durable")]
mod dir;
#[cfg(feature = "durable")]
mod failure;
#[cfg(feature = "durable")]
pub(crate) mod frame;
#[cfg(feature = "durable")]
pub(crate) mod journal;
#[cfg(feature = "durable")]
mod legacy;
#[cfg(feature = "durable")]
mod log;
#[cfg(feature = "durable")]
mod manifest;
#[cfg(feature = "durable")]
mod open;
#[cfg(feature = "durable")]
pub(crate) mod record;
#[cfg(feature = "durable")]
mod recover;
#[cfg(feature = "durable")]
mod repair;
#[cfg(feature = "durable")]
mod report;
#[cfg(feature = "durable")]
mod settings;
#[cfg(all(test, feature = "durable"))]
mod sim;
#[cfg(feature = "durable")]
mod snapshot;
#[cfg(feature = "durable")]
pub(crate) mod storage;
#[cfg(feature = "durable")]
mod streams;
#[cfg(all(test, feature = "durable"))]
mod tests;
#[cfg(feature = "durable")]
mod writer;

#[cfg(feature = "durable")]
pub use dir::FORMAT_VERSION;
#[cfg(feature = "durable")]
pub use failure::Health;
#[cfg(feature = "durable")]
pub(crate) use open::open;
#[cfg(feature = "durable")]
pub use report::{Damage, DamageReport, OpenError, Readable, RecoveryReport, Repair, TornTail};
#[cfg(feature = "durable")]
pub(crate) use settings::Options;
#[cfg(feature = "durable")]
pub use settings::SyncPolicy;
#[cfg(feature = "durable")]
pub(crate) use writer::Durable;

use dynomodel::backend::{
    CreateTableInput, DeleteTableInput, TagResourceInput, UntagResourceInput, UpdateTableInput,
    UpdateTimeToLiveInput,
};

/// A write to the engine as a whole (under the catalog's write lock), as durable mode logs it: a
/// table operation by its request; the TTL sweep by nothing but its effects, which the tables
/// capture (`journal.rs`). Every engine-wide write names one (`access.rs`), so that a new operation
/// cannot run unlogged.
#[cfg_attr(not(feature = "durable"), allow(dead_code))]
pub(crate) enum Command<'a> {
    /// `CreateTable`.
    CreateTable(&'a CreateTableInput),
    /// `DeleteTable`.
    DeleteTable(&'a DeleteTableInput),
    /// `UpdateTable`.
    UpdateTable(&'a UpdateTableInput),
    /// `UpdateTimeToLive`.
    UpdateTimeToLive(&'a UpdateTimeToLiveInput),
    /// `TagResource`.
    TagResource(&'a TagResourceInput),
    /// `UntagResource`.
    UntagResource(&'a UntagResourceInput),
    /// The Time to Live sweep: its deletions are its record.
    SweepExpired,
    /// UpdateContinuousBackups: point-in-time recovery lives in memory only (`ops/backups/`), so
    /// nothing is logged.
    InMemoryOnly,
}

/// A command's name and request (DynamoDB JSON) encoded for the log, when durable mode is on and
/// the command has a request.
#[cfg(feature = "durable")]
pub(crate) type Logged = Option<(&'static str, Vec<u8>)>;
/// A command's request encoded for the log: nothing without the `durable` feature.
#[cfg(not(feature = "durable"))]
#[derive(Debug, Default)]
pub(crate) struct Logged;

#[cfg(feature = "durable")]
impl Command<'_> {
    /// The operation's name and its request in DynamoDB's JSON (`None` for the TTL sweep).
    pub(crate) fn encode(&self) -> Logged {
        use crate::protocol::records as r;
        let (name, body) = match self {
            Command::CreateTable(i) => ("CreateTable", r::create_table_json(i)),
            Command::DeleteTable(i) => ("DeleteTable", r::delete_table_json(i)),
            Command::UpdateTable(i) => ("UpdateTable", r::update_table_json(i)),
            Command::UpdateTimeToLive(i) => ("UpdateTimeToLive", r::update_time_to_live_json(i)),
            Command::TagResource(i) => ("TagResource", r::tag_resource_json(i)),
            Command::UntagResource(i) => ("UntagResource", r::untag_resource_json(i)),
            Command::SweepExpired | Command::InMemoryOnly => return None,
        };
        Some((name, serde_json::to_vec(&body).unwrap_or_default()))
    }
}
