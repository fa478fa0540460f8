//! A table's stream as data: what the engine records for each item change (the Streams API that
//! reads it is the operations', `ops/streams/`).
//!
//! - [`Stream`] is one stream of one table (a new one every time the table's stream is enabled). The
//!   table holds its streams ([`crate::storage::table::Table`]); `Table::put` and `Table::delete` are the one
//!   funnel of every write (single-item operations, batches, transactions, TTL sweeps), and they hand
//!   each change to the table's recording stream, so that no write path can forget to record.
//! - [`shard`]: a stream's shards; one is open while the stream records, and it is rolled (closed, with a
//!   child continuing it) every [`SHARD_ROLL`] by the engine's clock, as DynamoDB rolls its shards
//!   roughly every four hours.
//! - [`record`]: the record of one change (keys and images per view type, `SizeBytes`).
//! - [`Sequence`]: the engine's one sequence counter, which the catalog holds.
//!
//! Records are kept [`RETENTION`] (24 hours) by the engine's clock and trimmed lazily when a stream is
//! read. A disabled stream (its table's stream turned off, or its table deleted) stays readable until
//! its records have aged out; the streams of deleted tables wait in `State` for that.

pub(crate) mod record;
pub(crate) mod shard;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use chrono::{DateTime, TimeDelta, Utc};
use dynomodel::backend::{Identity, KeySchemaElement, StreamStatus, StreamViewType};
use dynomodel::Item;

use crate::storage::clock::EngineClock;
use crate::storage::lifecycle::{Transition, View};
use shard::Shard;

/// How long DynamoDB keeps a stream record (DG "Change data capture for DynamoDB Streams": "data in
/// the stream is retained for 24 hours").
pub(crate) const RETENTION: TimeDelta = TimeDelta::hours(24);

/// How long a shard stays open before it is closed and continued by a child (DG "Reading and
/// processing a stream": shards are "ephemeral", a stream's shards roll over roughly every four
/// hours).
pub(crate) const SHARD_ROLL: TimeDelta = TimeDelta::hours(4);

/// The engine's sequence numbers: one counter for every stream of the engine, so that sequence
/// numbers increase across shards and streams and a reader can compare them as numbers.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sequence(Arc<AtomicU64>);

impl Sequence {
    /// The next sequence number (the first is 1).
    pub(crate) fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// The last sequence number handed out (0 before the first).
    pub(crate) fn last(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    /// A counter of its own that continues from this one's last number (a fork's).
    pub(crate) fn detached(&self) -> Sequence {
        Sequence(Arc::new(AtomicU64::new(self.last())))
    }

    /// Continues numbering after `last` (durable mode, restoring a snapshot).
    #[cfg(feature = "durable")]
    pub(crate) fn set_last(&self, last: u64) {
        self.0.store(last, Ordering::Relaxed);
    }
}

/// A sequence number as DynamoDB writes it: a string of digits (21, zero-padded, as DynamoDB Local
/// writes them; the model allows 21 to 40).
pub(crate) fn sequence_text(n: u64) -> String {
    format!("{n:021}")
}

/// What a stream needs from the engine to record: the clock, the sequence counter, the region.
#[derive(Debug, Clone)]
pub(crate) struct StreamContext {
    /// The engine's clock (read only when a change is recorded).
    pub clock: EngineClock,
    /// The engine's sequence counter.
    pub sequence: Sequence,
    /// The region the records name (`awsRegion`).
    pub region: String,
}

/// What a new stream records about its table.
#[derive(Debug, Clone)]
pub(crate) struct StreamOrigin {
    /// `<table ARN>/stream/<label>`.
    pub arn: String,
    /// The label (the instant it was enabled, to the millisecond).
    pub label: String,
    /// The table's name.
    pub table_name: String,
    /// The table's key schema.
    pub key_schema: Vec<KeySchemaElement>,
    /// What each record holds.
    pub view_type: StreamViewType,
}

/// One stream of one table. A clone records into the same sequence as the original
/// ([`Stream::rebind`] moves it to another engine's).
#[derive(Debug, Clone)]
pub(crate) struct Stream {
    /// ARN, label, table, key schema, view type.
    pub origin: StreamOrigin,
    /// When it was enabled, and until when it is ENABLING.
    pub enabled: Transition,
    /// When it was disabled (table stream turned off, or table deleted), and until when it is DISABLING.
    pub disabled: Option<Transition>,
    /// Its shards, parents before children.
    pub shards: Vec<Shard>,
    context: StreamContext,
}

impl Stream {
    /// A stream enabled by `enabled`, with one open shard.
    pub(crate) fn new(origin: StreamOrigin, enabled: Transition, context: StreamContext) -> Stream {
        let first = Shard::open(&origin.arn, enabled.started, context.sequence.next(), None);
        Stream {
            origin,
            enabled,
            disabled: None,
            shards: vec![first],
            context,
        }
    }

    /// A stream as a snapshot kept it (durable mode).
    #[cfg(feature = "durable")]
    pub(crate) fn restored(
        origin: StreamOrigin,
        enabled: Transition,
        disabled: Option<Transition>,
        shards: Vec<Shard>,
        context: StreamContext,
    ) -> Stream {
        Stream {
            origin,
            enabled,
            disabled,
            shards,
            context,
        }
    }

    /// Moves a copy of the stream to another engine: it records with that engine's clock and
    /// sequence from now on (a fork's, `storage/state.rs`).
    pub(crate) fn rebind(&mut self, context: StreamContext) {
        self.context = context;
    }

    /// Whether it records changes (it has not been disabled).
    pub(crate) fn recording(&self) -> bool {
        self.disabled.is_none()
    }

    /// The status at `now`.
    pub(crate) fn status(&self, now: DateTime<Utc>) -> StreamStatus {
        let view = View::at(now);
        match &self.disabled {
            Some(t) if view.pending(t) => StreamStatus::Disabling,
            Some(_) => StreamStatus::Disabled,
            None if view.pending(&self.enabled) => StreamStatus::Enabling,
            None => StreamStatus::Enabled,
        }
    }

    /// Stops recording: the open shard is closed (a shard that got no record ends at its starting
    /// sequence number, as DynamoDB Local shows it, probed).
    pub(crate) fn disable(&mut self, change: Transition) {
        if self.disabled.is_some() {
            return;
        }
        if let Some(open) = self.shards.last_mut() {
            open.close(change.started);
        }
        self.disabled = Some(change);
    }

    /// Records one change of an item: `old` the item before (`None`: it did not exist), `new` after
    /// (`None`: deleted). No record for a write that changes nothing. `identity` is set for the
    /// service's own deletions (Time to Live).
    pub(crate) fn record(
        &mut self,
        old: Option<&Item>,
        new: Option<&Item>,
        identity: Option<Identity>,
    ) {
        if old == new || !self.recording() {
            return;
        }
        let now = self.context.clock.now();
        self.roll(now);
        let sequence = self.context.sequence.next();
        let change = record::Change {
            old,
            new,
            identity,
            key_schema: &self.origin.key_schema,
            view_type: self.origin.view_type,
            region: &self.context.region,
            arn: &self.origin.arn,
        };
        let Some(record) = change.into_record(sequence, now) else {
            return;
        };
        if let Some(open) = self.shards.last_mut() {
            open.push(sequence, now, record);
        }
    }

    /// Closes the open shard when it has been open [`SHARD_ROLL`] and opens its child; repeated for a
    /// clock that jumped several periods (each period gets its shard, as a reader of the real service
    /// would see them).
    pub(crate) fn roll(&mut self, now: DateTime<Utc>) {
        if !self.recording() {
            return;
        }
        while let Some(open) = self.shards.last_mut() {
            let due = open.opened + SHARD_ROLL;
            if open.is_closed() || now < due {
                return;
            }
            open.close(due);
            let parent = open.id.clone();
            let child = Shard::open(
                &self.origin.arn,
                due,
                self.context.sequence.next(),
                Some(parent),
            );
            self.shards.push(child);
        }
    }

    /// Drops the records older than [`RETENTION`] at `now`, and the closed shards that kept nothing
    /// and closed before the retention window (DescribeStream no longer lists them).
    pub(crate) fn trim(&mut self, now: DateTime<Utc>) {
        self.roll(now);
        let horizon = now - RETENTION;
        for shard in &mut self.shards {
            shard.trim(horizon);
        }
        self.shards.retain(|s| !s.expired(horizon));
    }

    /// Whether nothing is left of it at `now`: disabled, and every record aged out (ListStreams no
    /// longer lists it, DescribeStream no longer finds it).
    pub(crate) fn gone(&self, now: DateTime<Utc>) -> bool {
        self.disabled
            .as_ref()
            .is_some_and(|t| t.started + RETENTION <= now)
    }

    /// The next sequence number the engine will hand out (a LATEST iterator's position).
    pub(crate) fn next_sequence(&self) -> u64 {
        self.context.sequence.last() + 1
    }

    /// The shard called `id`.
    pub(crate) fn shard(&self, id: &str) -> Option<&Shard> {
        self.shards.iter().find(|s| s.id == id)
    }
}

/// FNV-1a-64 of some bytes: stable ids and checksums (not security; the engine has no secrets).
pub(crate) fn fnv(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in *part {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        hash ^= 0xff;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}
