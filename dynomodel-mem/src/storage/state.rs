//! The catalog: tables by name, the clock, the settings and the transactions'
//! `ClientRequestToken`s, the streams' sequence and the streams of forgotten tables, with the primitives the table operations use (their rules are in
//! [`ops::tables`](crate::ops::tables) and [`ops::update_table`](crate::ops::update_table)). Each
//! table sits behind a lock of its own; what holds which lock, and in which order, is in
//! [`lock`](super::lock).

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use dynomodel::{Error, Result};

use crate::storage::backups::Backups;
use crate::storage::clock::EngineClock;
use crate::storage::settings::EngineConfig;
use crate::storage::table::Table;
use crate::storage::tokens::Tokens;

/// Real DynamoDB's message for item operations on a missing table. DynamoDB Local 3.3 says "Cannot do
/// operations on a non-existent table" for every operation.
const NOT_FOUND: &str = "Requested resource not found";

/// Real DynamoDB's ResourceNotFoundException for item operations on a missing table.
pub(crate) fn missing_table() -> Error {
    Error::resource_not_found(NOT_FOUND)
}

/// A table's read lock; a panic in another thread that held a table cannot leave it half written
/// (each operation validates before it mutates), so a poisoned lock is recovered.
pub(crate) fn read(table: &RwLock<Table>) -> RwLockReadGuard<'_, Table> {
    table.read().unwrap_or_else(PoisonError::into_inner)
}

/// A table's write lock, recovered from poisoning as [`read`] is.
pub(crate) fn write(table: &RwLock<Table>) -> RwLockWriteGuard<'_, Table> {
    table.write().unwrap_or_else(PoisonError::into_inner)
}

/// A table reached under the catalog's write lock, without locking it.
pub(crate) fn owned(table: &mut RwLock<Table>) -> &mut Table {
    table.get_mut().unwrap_or_else(PoisonError::into_inner)
}

/// All tables.
#[derive(Debug, Default)]
pub(crate) struct State {
    /// Each table behind its own lock (see `lock.rs`).
    tables: BTreeMap<String, RwLock<Table>>,
    /// Tables created so far, for unique table ids.
    created: u64,
    /// Where "now" comes from.
    clock: EngineClock,
    /// The `ClientRequestToken`s of the transactions of the last 10 minutes.
    tokens: Mutex<Tokens>,
    /// ARN region and account, transition times.
    config: EngineConfig,
    /// The engine's stream sequence numbers (one counter for all streams).
    sequence: crate::storage::stream::Sequence,
    /// The streams of deleted tables, readable until their records age out.
    retired_streams: Vec<crate::storage::stream::Stream>,
    /// On-demand backups (`backups.rs`), locked on their own: a backup copies its table under the
    /// catalog's read lock and the table's, so that requests on other tables go on meanwhile.
    backups: Mutex<Backups>,
}

impl State {
    /// An engine with no tables that reads the time from `clock`.
    pub(crate) fn new(clock: EngineClock, config: EngineConfig) -> State {
        State {
            clock,
            config,
            ..State::default()
        }
    }

    /// The engine's settings.
    pub(crate) fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// A table by name for writing under the catalog's write lock, or DynamoDB's
    /// ResourceNotFoundException: a table still being created answers as a missing one ("Requested
    /// resource not found", dynalite's recording; the ack-api-quirks lab's catalogue DDB-TABLE-446: the
    /// bare text on the data plane). Item requests look tables up in their [`crate::storage::lock::Locked`].
    ///
    /// The clock is read only for a table whose creation or deletion takes time: the lookup is on every
    /// item operation's path.
    pub(crate) fn table_mut(&mut self, name: &str) -> Result<&mut Table> {
        let clock = &self.clock;
        self.tables
            .get_mut(name)
            .map(owned)
            .filter(|t| {
                t.lifecycle.serves_items_at_any_time() || t.lifecycle.serves_items(clock.now())
            })
            .ok_or_else(missing_table)
    }

    /// A table serving items, read-locked, for the table operations that read under the catalog's
    /// read lock (see [`State::table_mut`]).
    pub(crate) fn table(&self, name: &str) -> Result<RwLockReadGuard<'_, Table>> {
        let clock = &self.clock;
        self.tables
            .get(name)
            .map(read)
            .filter(|t| {
                t.lifecycle.serves_items_at_any_time() || t.lifecycle.serves_items(clock.now())
            })
            .ok_or_else(missing_table)
    }

    /// A table that exists at the engine's clock, whatever its status (the table operations').
    pub(crate) fn existing_table(&self, name: &str) -> Option<RwLockReadGuard<'_, Table>> {
        let now = self.clock.now();
        self.tables
            .get(name)
            .map(read)
            .filter(|t| !t.lifecycle.gone(now))
    }

    /// A table that exists at the engine's clock, for writing.
    pub(crate) fn existing_table_mut(&mut self, name: &str) -> Option<&mut Table> {
        let now = self.clock.now();
        self.tables
            .get_mut(name)
            .map(owned)
            .filter(|t| !t.lifecycle.gone(now))
    }

    /// The engine's clock.
    pub(crate) fn clock(&self) -> &EngineClock {
        &self.clock
    }

    /// The on-demand backups, locked (taken after any table lock, never before one).
    pub(crate) fn backups(&self) -> MutexGuard<'_, Backups> {
        self.backups.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The `ClientRequestToken`s of recent transactions, for recovery (under the catalog's write
    /// lock; requests use [`Locked::tokens_mut`]).
    #[cfg(feature = "durable")]
    pub(crate) fn tokens_mut(&mut self) -> &mut Tokens {
        self.tokens
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The `ClientRequestToken`s of recent transactions, locked, for a request holding only the
    /// catalog's read lock.
    pub(crate) fn tokens_locked(&self) -> MutexGuard<'_, Tokens> {
        self.tokens.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A table's lock and the map's own copy of its name.
    pub(crate) fn cell(&self, name: &str) -> Option<(&str, &RwLock<Table>)> {
        self.tables
            .get_key_value(name)
            .map(|(name, cell)| (name.as_str(), cell))
    }

    /// Every table's lock, in name order (the locking order).
    pub(crate) fn cells(&self) -> impl Iterator<Item = &RwLock<Table>> + '_ {
        self.tables.values()
    }
}

/// Real DynamoDB's message for DescribeTable/DeleteTable on a missing table (dynalite's recording).
pub(crate) fn table_not_found(name: &str) -> Error {
    Error::resource_not_found(format!("{NOT_FOUND}: Table: {name} not found"))
}

/// Every table, for the TTL sweep (`ttl/`), and every stream, for the Streams API (`ops/streams/`).
impl State {
    /// What a new stream needs from the engine.
    pub(crate) fn stream_context(&self) -> crate::storage::stream::StreamContext {
        crate::storage::stream::StreamContext {
            clock: self.clock.clone(),
            sequence: self.sequence.clone(),
            region: self.config.region.clone(),
        }
    }

    /// Every stream: those of the tables (deleted ones included until forgotten), then those of
    /// forgotten tables. Streams of forgotten tables with nothing left are dropped first.
    pub(crate) fn streams_mut(
        &mut self,
    ) -> impl Iterator<Item = &mut crate::storage::stream::Stream> + '_ {
        let now = self.clock.now();
        self.retired_streams.retain(|s| !s.gone(now));
        self.tables
            .values_mut()
            .map(owned)
            .flat_map(Table::streams_mut)
            .chain(self.retired_streams.iter_mut())
    }

    /// Forgets the tables whose deletion is over (their streams stay readable until they age out).
    pub(crate) fn forget_gone_tables(&mut self, now: chrono::DateTime<chrono::Utc>) {
        let gone: Vec<String> = self
            .tables
            .iter_mut()
            .filter_map(|(name, t)| owned(t).lifecycle.gone(now).then(|| name.clone()))
            .collect();
        for name in gone {
            self.forget_table(&name);
        }
    }

    /// Whether a table of that name exists (in any status).
    pub(crate) fn has_table(&self, name: &str) -> bool {
        self.tables.contains_key(name)
    }

    /// Counts one more table created in this engine; answers its serial number.
    pub(crate) fn next_table_serial(&mut self) -> u64 {
        self.created += 1;
        self.created
    }

    /// Adds a table to the catalog (every table comes in here: created, restored, recovered), which
    /// follows the engine's eventual consistency when it has it on.
    pub(crate) fn insert_table(&mut self, name: String, mut table: Table) {
        if let Some(settings) = &self.config.consistency {
            table.follow(settings, &self.clock);
        }
        self.tables.insert(name, RwLock::new(table));
    }

    /// The tables whose names follow `from`, in name order.
    pub(crate) fn tables_from<'a>(
        &'a self,
        from: std::ops::Bound<&'a str>,
    ) -> impl Iterator<Item = (&'a String, &'a RwLock<Table>)> + 'a {
        self.tables
            .range::<str, _>((from, std::ops::Bound::Unbounded))
    }

    /// Removes table `name`, keeping its streams.
    pub(crate) fn forget_table(&mut self, name: &str) {
        if let Some(table) = self.tables.remove(name) {
            let mut table = table.into_inner().unwrap_or_else(PoisonError::into_inner);
            self.retired_streams.extend(table.take_streams());
        }
    }

    /// Makes every pending change of every table visible (eventual consistency on demand).
    pub(crate) fn settle(&mut self) {
        for table in self.tables_mut() {
            table.settle();
        }
    }

    /// Models eventual consistency on demand with `settings` from now on, in place of the engine's
    /// setting (a fork's own, [`crate::ForkOptions::eventual_consistency`]): every table's later
    /// writes lag by these delays, counted from the table's first write after this; changes already
    /// pending keep their instants.
    pub(crate) fn follow(&mut self, settings: std::sync::Arc<crate::EventualConsistency>) {
        for table in self.tables.values_mut().map(owned) {
            table.follow(&settings, &self.clock);
        }
        self.config.consistency = Some(settings);
    }

    /// The tables, for writing.
    pub(crate) fn tables_mut(&mut self) -> impl Iterator<Item = &mut Table> + '_ {
        self.tables.values_mut().map(owned)
    }
}

/// What durable mode reads and restores beyond the tables' own operations.
#[cfg(feature = "durable")]
impl State {
    /// The table called `name`, whatever its status, for replaying a logged write.
    pub(crate) fn table_for_replay(&mut self, name: &str) -> Option<&mut Table> {
        self.tables.get_mut(name).map(owned)
    }

    /// Tables created so far (table ids are derived from it).
    pub(crate) fn created_count(&self) -> u64 {
        self.created
    }

    /// Restores [`State::created_count`] from a snapshot.
    pub(crate) fn set_created_count(&mut self, created: u64) {
        self.created = created;
    }

    /// The last stream sequence number handed out.
    pub(crate) fn last_sequence(&self) -> u64 {
        self.sequence.last()
    }

    /// Restores [`State::last_sequence`] from a snapshot.
    pub(crate) fn set_last_sequence(&mut self, last: u64) {
        self.sequence.set_last(last);
    }

    /// The remembered transaction tokens.
    pub(crate) fn tokens(&self) -> MutexGuard<'_, Tokens> {
        self.tokens_locked()
    }

    /// The streams of tables deleted and forgotten, readable until their records age out.
    pub(crate) fn retired_streams(&self) -> &[crate::storage::stream::Stream] {
        &self.retired_streams
    }

    /// Restores a stream of a forgotten table.
    pub(crate) fn retire_stream(&mut self, stream: crate::storage::stream::Stream) {
        self.retired_streams.push(stream);
    }
}

/// Seeding (`dump::seed`): a fixture's tables are `ACTIVE` at once, whatever the transition time.
#[cfg(feature = "server")]
impl State {
    /// Sets the transition time of what is created from now on; answers the previous one.
    pub(crate) fn replace_transition(
        &mut self,
        transition: std::time::Duration,
    ) -> std::time::Duration {
        std::mem::replace(&mut self.config.transition, transition)
    }
}

#[cfg(test)]
impl State {
    /// How many `ClientRequestToken`s the engine remembers.
    pub(crate) fn tokens_len(&self) -> usize {
        self.tokens_locked().len()
    }

    /// Every table's name, for tests that lock them all.
    pub(crate) fn table_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.tables.keys().map(String::as_str)
    }

    /// A table, for tests that look inside.
    pub(crate) fn tables_for_test(&self, name: &str) -> Option<RwLockReadGuard<'_, Table>> {
        self.tables.get(name).map(read)
    }
}

/// Forks, snapshots and resets (`crate::fork`): an independent copy of the catalog.
impl State {
    /// How many tables the catalog holds (in any status).
    pub(crate) fn table_count(&self) -> usize {
        self.tables.len()
    }

    /// An independent copy of every table (items and index entries shared until either side
    /// writes: docs/performance.md, "Forks"), the on-demand backups, the transactions' tokens, the
    /// table counter, the streams and the point-in-time histories, which record with `clock` (and
    /// the streams with a sequence counter of the copy's own) from here on. Takes every table's
    /// read lock (in name order, under the caller's lock on this catalog) before copying any, so
    /// that the copy holds all or nothing of a transaction that writes several tables.
    pub(crate) fn fork(&self, clock: EngineClock) -> State {
        let sequence = self.sequence.detached();
        let context = crate::storage::stream::StreamContext {
            clock: clock.clone(),
            sequence: sequence.clone(),
            region: self.config.region.clone(),
        };
        let rebind = |mut stream: crate::storage::stream::Stream| {
            stream.rebind(context.clone());
            stream
        };
        let held: Vec<_> = self
            .tables
            .iter()
            .map(|(name, cell)| (name, read(cell)))
            .collect();
        let tables = held
            .iter()
            .map(|(name, table)| {
                let mut table = Table::clone(table);
                let streams = table.take_streams().into_iter().map(rebind).collect();
                table.replace_streams(streams);
                table.rebind_history(&clock);
                ((*name).clone(), RwLock::new(table))
            })
            .collect();
        drop(held);
        State {
            tables,
            created: self.created,
            clock,
            tokens: Mutex::new(self.tokens_locked().clone()),
            config: self.config.clone(),
            sequence,
            retired_streams: self.retired_streams.iter().cloned().map(rebind).collect(),
            backups: Mutex::new(self.backups().clone()),
        }
    }
}
