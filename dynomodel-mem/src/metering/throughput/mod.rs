//! Provisioned throughput that can bite: with [`MemBackendBuilder::enforce_provisioned_throughput`]
//! (off by default), every PROVISIONED table and global secondary index gets a token bucket for reads
//! and one for writes, refilled at its provisioned RCU / WCU per second by the engine's clock, and a
//! request that finds its bucket empty fails with `ProvisionedThroughputExceededException`.
//!
//! The model, and where each rule comes from:
//! - **Burst.** A bucket holds at most 300 seconds of unused capacity: "DynamoDB currently retains up
//!   to five minutes (300 seconds) of unused read and write capacity" (DG, "Burst capacity",
//!   <https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html>).
//!   [`ThroughputEnforcement::burst_window`] changes it.
//! - **A new bucket** (a new table or index, a table switched to PROVISIONED, an engine just started)
//!   holds one second of its rate ([`ThroughputEnforcement::initial_credit`]): it has no idle history
//!   to have saved a burst from, but its first second of capacity is there. With 1 RCU a test reads
//!   once, is throttled on the second read, and reads again after advancing a `ManualClock` by a
//!   second.
//! - **Admission, then debit.** A request is refused, before anything is read or written, when a
//!   bucket it draws from holds nothing (≤ 0); an admitted request is charged what it actually
//!   consumed (the figures of `ReturnConsumedCapacity`), so one large Query may take the balance
//!   below zero, and later requests wait until the refill brings it back above zero.
//! - **Which buckets.** Reads of a table or a local secondary index draw from the table's read bucket
//!   (LSIs share the table's capacity); reads of a GSI from the GSI's. A write draws from the table's
//!   write bucket and from the write bucket of every GSI it writes to; an exhausted GSI throttles the
//!   base-table write (DG `GSI.html`, "Provisioned throughput considerations for global secondary
//!   indexes": "the write activity on the table will be throttled"), with the GSI message.
//! - **On-demand** (PAY_PER_REQUEST) tables are never throttled. UpdateTable's new capacities (and
//!   switches between the modes) apply from the request on; the time before it is refilled at the old
//!   rates.
//!
//! The messages are the service's (see [`TABLE_EXCEEDED`], [`INDEX_EXCEEDED`]); batches and
//! transactions answer as `batch/` and `transact/` describe.
//!
//! [`MemBackendBuilder::enforce_provisioned_throughput`]: crate::MemBackendBuilder::enforce_provisioned_throughput

mod bucket;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use chrono::{DateTime, Utc};
use dynomodel::{CancellationCode, CancellationReason, Error};

use crate::metering::capacity::Consumed;
use crate::storage::settings::ThroughputEnforcement;
use crate::storage::table::Table;
use bucket::Bucket;

/// The message for a table whose capacity is spent. Live captures (boto3 and the AWS SDK for
/// JavaScript and Java, 2018-2024, quoted in public repositories) end it with a period, as the API
/// reference's list of cancellation messages (`TransactionCanceledException`) does.
pub const TABLE_EXCEEDED: &str =
    "The level of configured provisioned throughput for the table was \
                                  exceeded. Consider increasing your provisioning level with the \
                                  UpdateTable API.";

/// The message for a global secondary index whose capacity is spent. Live captures (boto3 errors of
/// PutItem and BatchWriteItem quoted in public repositories) have no final period, nor does DynamoDB
/// Local's error table; only the API reference's list of cancellation messages adds one.
pub const INDEX_EXCEEDED: &str = "The level of configured provisioned throughput for one or more \
                                  global secondary indexes of the table was exceeded. Consider \
                                  increasing your provisioning level for the under-provisioned \
                                  global secondary indexes with the UpdateTable API";

/// The error code of a refused request.
const CODE: &str = "ProvisionedThroughputExceededException";

/// The cancellation reason code of a throttled transaction action (the API reference's
/// `TransactionCanceledException`: "Provisioned Throughput Exceeded: Code:
/// ProvisionedThroughputExceeded").
const REASON: CancellationCode = CancellationCode::ProvisionedThroughputExceeded;

/// Reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Read capacity.
    Read,
    /// Write capacity.
    Write,
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Throttled {
    /// The table's bucket is empty.
    Table,
    /// A global secondary index's bucket is empty.
    Index,
}

impl Throttled {
    /// The service's message.
    fn message(self) -> &'static str {
        match self {
            Throttled::Table => TABLE_EXCEEDED,
            Throttled::Index => INDEX_EXCEEDED,
        }
    }

    /// `ProvisionedThroughputExceededException`.
    pub(crate) fn error(self) -> Error {
        Error::Throughput {
            code: CODE.into(),
            message: self.message().into(),
        }
    }

    /// The cancellation reason of a throttled transaction action.
    pub(crate) fn reason(self) -> CancellationReason {
        CancellationReason::new(REASON, self.message())
    }
}

/// A read and a write bucket.
#[derive(Debug, Clone)]
struct Pair {
    read: Bucket,
    write: Bucket,
}

impl Pair {
    /// Takes `units` from the bucket of `kind`.
    fn debit(&mut self, kind: Kind, units: f64) {
        match kind {
            Kind::Read => self.read.debit(units),
            Kind::Write => self.write.debit(units),
        }
    }
}

/// The buckets of one table: its own and its GSIs'.
#[derive(Debug, Clone)]
struct TableBuckets {
    /// The table these belong to: a table created again under the same name starts afresh.
    table_id: String,
    table: Pair,
    indexes: HashMap<String, Pair>,
}

/// The engine's enforcement: off, or the settings and every table's buckets.
#[derive(Debug, Default)]
pub(crate) struct Throughput {
    settings: Option<ThroughputEnforcement>,
    /// By table name. Behind a mutex of its own so that reads, which hold the engine's read lock,
    /// can be charged.
    buckets: Mutex<HashMap<String, TableBuckets>>,
}

/// Read and write units per second.
type Rate = (f64, f64);

/// The provisioned rates of a table (`None` when it is on demand): table, then GSIs by name.
fn rates(table: &Table) -> Option<(Rate, Vec<(&str, Rate)>)> {
    let schema = &table.schema;
    if schema.is_on_demand() {
        return None;
    }
    let pair = |p: &dynomodel::backend::ProvisionedThroughput| {
        // Capacities are at most 40,000 here, exact in f64.
        (p.read_capacity_units as f64, p.write_capacity_units as f64)
    };
    let own = schema.provisioned_throughput.as_ref().map(pair)?;
    let gsis = schema
        .global_secondary_indexes
        .iter()
        .filter_map(|g| {
            Some((
                g.index_name.as_str(),
                pair(g.provisioned_throughput.as_ref()?),
            ))
        })
        .collect();
    Some((own, gsis))
}

impl Throughput {
    /// Enforcement with `settings`, or none.
    pub(crate) fn new(settings: Option<ThroughputEnforcement>) -> Throughput {
        Throughput {
            settings,
            buckets: Mutex::default(),
        }
    }

    /// Whether throughput is enforced: the one check the plain path pays.
    #[inline]
    pub(crate) fn on(&self) -> bool {
        self.settings.is_some()
    }

    /// Runs `f` on `table`'s buckets brought up to `now` (created when missing, dropped and `None` for
    /// an on-demand table), with the bucket of `kind` of the table and of each GSI by name.
    fn with<R>(
        &self,
        table: &Table,
        now: DateTime<Utc>,
        f: impl FnOnce(&mut TableBuckets) -> R,
    ) -> Option<R> {
        let settings = self.settings?;
        let mut all = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        let name = &table.schema.name;
        let Some((own, gsis)) = rates(table) else {
            all.remove(name);
            return None;
        };
        let fresh = |(r, w): (f64, f64)| Pair {
            read: Bucket::new(settings.start(r), now),
            write: Bucket::new(settings.start(w), now),
        };
        let entry = all.entry(name.clone()).or_insert_with(|| TableBuckets {
            table_id: table.schema.table_id.clone(),
            table: fresh(own),
            indexes: HashMap::new(),
        });
        if entry.table_id != table.schema.table_id {
            *entry = TableBuckets {
                table_id: table.schema.table_id.clone(),
                table: fresh(own),
                indexes: HashMap::new(),
            };
        }
        let refill = |pair: &mut Pair, (r, w): (f64, f64)| {
            pair.read.refill(now, r, settings.cap(r));
            pair.write.refill(now, w, settings.cap(w));
        };
        refill(&mut entry.table, own);
        entry
            .indexes
            .retain(|index, _| gsis.iter().any(|(n, _)| n == index));
        for (index, rate) in gsis {
            match entry.indexes.get_mut(index) {
                Some(pair) => refill(pair, rate),
                None => {
                    entry.indexes.insert(index.to_owned(), fresh(rate));
                }
            }
        }
        Some(f(entry))
    }

    /// Brings `table`'s buckets up to `now` at the rates it has now (creating them): CreateTable
    /// calls this, so a table's buckets fill from its creation on, and UpdateTable before it changes
    /// the rates (so the time before the change is refilled at the old rates) and after (so a table
    /// switched to PROVISIONED starts then).
    pub(crate) fn settle(&self, table: &Table, now: DateTime<Utc>) {
        self.with(table, now, |_| ());
    }

    /// Admits a request that draws `kind` capacity from the table itself (when `on_table`) and from
    /// the GSIs `indexes` names, or says which bucket is empty (the table's first).
    pub(crate) fn admit<'a>(
        &self,
        table: &Table,
        kind: Kind,
        on_table: bool,
        indexes: impl IntoIterator<Item = &'a str>,
        now: DateTime<Utc>,
    ) -> Result<(), Throttled> {
        self.with(table, now, |b| {
            let pick = |pair: &Pair| match kind {
                Kind::Read => pair.read.admits(),
                Kind::Write => pair.write.admits(),
            };
            if on_table && !pick(&b.table) {
                return Err(Throttled::Table);
            }
            for index in indexes {
                if b.indexes.get(index).is_some_and(|pair| !pick(pair)) {
                    return Err(Throttled::Index);
                }
            }
            Ok(())
        })
        .unwrap_or(Ok(()))
    }

    /// Admits a write whose cost is `consumed`: the table and every GSI it writes to.
    pub(crate) fn admit_write(
        &self,
        table: &Table,
        consumed: &Consumed,
        now: DateTime<Utc>,
    ) -> Result<(), Throttled> {
        let indexes = consumed.global.keys().map(String::as_str);
        self.admit(table, Kind::Write, true, indexes, now)
    }

    /// Charges `consumed` to `table`'s buckets of `kind`: the table's units and its LSIs' to the
    /// table, each GSI's to the GSI.
    pub(crate) fn debit(&self, table: &Table, kind: Kind, consumed: &Consumed, now: DateTime<Utc>) {
        self.with(table, now, |b| {
            b.table
                .debit(kind, consumed.table + consumed.local.values().sum::<f64>());
            for (index, units) in &consumed.global {
                if let Some(pair) = b.indexes.get_mut(index) {
                    pair.debit(kind, *units);
                }
            }
        });
    }
}

/// Enforcement at one instant: what a request admits and charges through. Only made when
/// enforcement is on, so the plain path reads no clock.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Meter<'a> {
    throughput: &'a Throughput,
    now: DateTime<Utc>,
}

impl Throughput {
    /// A meter reading `clock` once, or `None` when enforcement is off.
    #[inline]
    pub(crate) fn meter(&self, clock: &crate::storage::clock::EngineClock) -> Option<Meter<'_>> {
        if self.on() {
            Some(Meter {
                throughput: self,
                now: clock.now(),
            })
        } else {
            None
        }
    }
}

impl Meter<'_> {
    /// [`Throughput::admit`], as the request's error.
    pub(crate) fn admit<'i>(
        &self,
        table: &Table,
        kind: Kind,
        on_table: bool,
        indexes: impl IntoIterator<Item = &'i str>,
    ) -> dynomodel::Result<()> {
        self.throughput
            .admit(table, kind, on_table, indexes, self.now)
            .map_err(Throttled::error)
    }

    /// [`Throughput::admit_write`].
    pub(crate) fn admit_write(&self, table: &Table, consumed: &Consumed) -> Result<(), Throttled> {
        self.throughput.admit_write(table, consumed, self.now)
    }

    /// [`Throughput::debit`].
    pub(crate) fn debit(&self, table: &Table, kind: Kind, consumed: &Consumed) {
        self.throughput.debit(table, kind, consumed, self.now);
    }
}
