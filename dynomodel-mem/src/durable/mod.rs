//! Durable mode: the engine's state kept in a data directory, so that a server (or an embedded
//! engine) survives restarts and crashes. [`MemBackend::open`](crate::MemBackend::open) and
//! `dynomodel-mem serve --data-dir DIR [--sync always|Nms]`.
//!
//! # The storage: a write-ahead log of effects plus snapshots
//!
//! The engine stays what it is, an in-memory engine with one lock; durability is a log beside it.
//! Every write request, while it still holds the write lock, appends one record of what it *did* (its
//! effects: items put, items deleted, items expired by TTL, a transaction's token; for a table
//! operation, its request), and answers only once the record is where the sync policy wants it. Log
//! order is therefore apply order, and no reader sees a write before it is in the log (nor, under
//! `always`, is answered before it is on disk). Records are binary (`record.rs`, items in
//! `codec.rs`), framed by length and CRC-32 (`frame.rs`). Recovery loads the latest snapshot and
//! replays the log written since: item effects through the same `Table::put`/`delete` as live writes
//! (so indexes, TTL indexes, item-collection sizes and stream records are rebuilt by the code that
//! builds them live), table operations through the server's own request decoder and the engine's
//! operation, each at the instant it first ran (the clock is pinned per write, see `clock.rs`), which
//! makes replay deterministic: table ids, stream ARNs, sequence numbers and transition times come
//! back exactly. When the log grows past a threshold a background thread writes a snapshot (under the
//! read lock: readers go on, writers wait), renames it into place and drops the logs it covers.
//!
//! Why this rather than an embedded store (redb 4.6, fjall 3.1 on crates.io: both well kept, both
//! crash-safe, both needing Rust 1.90): the engine's data already lives in memory in the shape its
//! operations need (ordered partitions, indexes, streams, lifecycle), so a store would be a second
//! copy kept in step, not the primary one; what is needed is only "redo what was acknowledged", which
//! an append-only log does with one `write` (plus a shared `fdatasync` under `always`) per request,
//! no read path, and about 1,500 lines with no new dependency (crc32fast and serde_json are the
//! server's already). A store would add a B-tree's or an LSM tree's write amplification to every put,
//! its own compaction, a dependency tree to the server, and still need a mapping of streams, tokens
//! and lifecycle onto keys. The cost of the choice: recovery time grows with the data (a snapshot is
//! loaded whole: 1M small items in about 1.3 s, see the README's figures), and the whole data set
//! must fit in memory, which it already must. Under `always` durable writes are bounded by the disk's
//! fsync rate per writer (concurrent writers share fsyncs); `Nms` costs a `write` per request.
//!
//! # Sync policies: what a crash can lose
//!
//! - `always` (the default): a write is answered only once its record is fsynced (`fdatasync`).
//!   Neither `kill -9` nor a power cut loses an acknowledged write. The fsync happens after the
//!   engine's lock is released, and writers waiting together share one (group commit: the first
//!   fsyncs everything written so far); a read is answered only once every write it may have seen is
//!   on disk, so no client sees a write that a crash could take back.
//! - `Nms` (e.g. `10ms`): the record is written to the file (one `write` system call) before the
//!   response and a background thread fsyncs every N ms. `kill -9` loses nothing (the kernel has the
//!   data); a power cut or kernel crash loses at most the writes of the last N ms (which a client
//!   may have read).
//!
//! A crash can tear the last record (a power cut mid-write). Recovery reads records up to the first
//! one that is short or fails its checksum, reports it ([`RecoveryReport::torn_tail`], and a warning in
//! the server's log), cuts the file there and goes on: the torn record was never acknowledged (under
//! `always`), or belongs to the window the policy allows to lose. Damage anywhere else (an older log
//! segment, a snapshot) is not what a crash leaves behind; the directory is refused with
//! [`OpenError::CorruptLog`] or [`OpenError::CorruptSnapshot`] rather than served with acknowledged
//! writes missing. A directory written by a newer format is refused ([`OpenError::NewerFormat`]); one
//! process at a time serves a directory ([`OpenError::InUse`], an OS file lock the kernel drops when
//! the process dies).
//!
//! # What comes back
//!
//! Tables (definitions, indexes, status, ids, ARNs), items, TTL settings, tags, streams (of live and
//! of deleted tables) with their shards and retained records, the stream sequence counter, and
//! transactions' `ClientRequestToken`s (for their 10 minutes). A snapshot does not carry a table's
//! capacity-change history (`NumberOfDecreasesToday`) nor changes still in progress, which count as
//! settled after it (see `snapshot.rs`); the log alone carries both.

pub(crate) mod journal;

#[cfg(feature = "durable")]
mod backend;
mod check;
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

use dynomodel::{
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
        use crate::server::wire::records as r;
        let (name, body) = match self {
            Command::CreateTable(i) => ("CreateTable", r::create_table_json(i)),
            Command::DeleteTable(i) => ("DeleteTable", r::delete_table_json(i)),
            Command::UpdateTable(i) => ("UpdateTable", r::update_table_json(i)),
            Command::UpdateTimeToLive(i) => ("UpdateTimeToLive", r::update_time_to_live_json(i)),
            Command::TagResource(i) => ("TagResource", r::tag_resource_json(i)),
            Command::UntagResource(i) => ("UntagResource", r::untag_resource_json(i)),
            Command::SweepExpired => return None,
        };
        Some((name, serde_json::to_vec(&body).unwrap_or_default()))
    }
}
