//! The database: tables by name, the expression parse cache, the clock and the transactions'
//! `ClientRequestToken`s, and the table operations (the item operations are in `items.rs`, the batches
//! in `batch/`, the transactions in `transact/`). Each table sits behind a lock of its own; what holds
//! which lock, and in which order, is in `lock.rs`.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard};

use dynomodel::backend::{
    BillingMode, CreateTableInput, CreateTableOutput, DeleteTableInput, DeleteTableOutput,
    DescribeTableInput, DescribeTableOutput, ListTablesInput, ListTablesOutput,
};
use dynomodel::{Error, Result};

use crate::config::EngineConfig;
use crate::expr::cache::ExpressionCache;
use crate::metering::throughput::{Meter, Throughput};
use crate::ops::transact::tokens::Tokens;
use crate::storage::clock::EngineClock;
use dynomodel::backend::{ItemSink, QueryInput, QueryOutput, ScanInput, ScanOutput};

use crate::read::Source;
use crate::storage::lifecycle::{Transition, View};
use crate::storage::lock::{owned, read, Locked};
use crate::storage::table::{Table, TableSchema};
use crate::validate::{self, Constraints};

/// Real DynamoDB's message for item operations on a missing table. DynamoDB Local 3.3 says "Cannot do
/// operations on a non-existent table" for every operation.
const NOT_FOUND: &str = "Requested resource not found";

/// ListTables' default and maximum page size.
const MAX_LIST_LIMIT: i32 = 100;

/// Real DynamoDB's ResourceNotFoundException for item operations on a missing table.
pub(crate) fn missing_table() -> Error {
    Error::resource_not_found(NOT_FOUND)
}

/// All tables.
#[derive(Debug, Default)]
pub(crate) struct State {
    /// Each table behind its own lock (see `lock.rs`).
    tables: BTreeMap<String, RwLock<Table>>,
    /// Tables created so far, for unique table ids.
    created: u64,
    /// Parsed expressions, shared by all requests (it locks itself, so readers can fill it).
    cache: ExpressionCache,
    /// Where "now" comes from.
    clock: EngineClock,
    /// The `ClientRequestToken`s of the transactions of the last 10 minutes.
    tokens: Mutex<Tokens>,
    /// ARN region and account, transition times.
    config: EngineConfig,
    /// Provisioned throughput enforcement (off unless configured).
    throughput: Throughput,
    /// The engine's stream sequence numbers (one counter for all streams).
    sequence: crate::ops::streams::Sequence,
    /// The streams of deleted tables, readable until their records age out.
    retired_streams: Vec<crate::ops::streams::Stream>,
}

impl State {
    /// An engine with no tables that reads the time from `clock`.
    pub(crate) fn new(clock: EngineClock, config: EngineConfig) -> State {
        State {
            clock,
            throughput: Throughput::new(config.throughput),
            config,
            ..State::default()
        }
    }

    /// The engine's settings.
    pub(crate) fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Provisioned throughput enforcement.
    pub(crate) fn throughput(&self) -> &Throughput {
        &self.throughput
    }

    /// The throughput meter at the engine's clock, or `None` (without reading the clock) when
    /// enforcement is off.
    pub(crate) fn meter(&self) -> Option<Meter<'_>> {
        self.throughput.meter(&self.clock)
    }

    /// The expression parse cache.
    pub(crate) fn cache(&self) -> &ExpressionCache {
        &self.cache
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

    /// `CreateTable`. The table and its indexes are CREATING for the engine's transition time; the
    /// response says CREATING even when that is zero, as DynamoDB's does ("Upon receiving a CreateTable
    /// request, DynamoDB immediately returns a response with a TableStatus of CREATING", the API
    /// reference; DynamoDB Local 3.3 answers ACTIVE).
    pub(crate) fn create_table(&mut self, input: CreateTableInput) -> Result<CreateTableOutput> {
        crate::ops::create::create_table(&input)?;
        // Tags are checked with the rest of the request: an invalid tag creates no table.
        crate::ops::tags::validate_create_tags(&input.tags)?;
        let now = self.clock.now();
        // Tables whose deletion is over are forgotten here, the one place a name is taken again; their
        // streams stay readable until they age out.
        let gone: Vec<String> = self
            .tables
            .iter_mut()
            .filter_map(|(name, t)| owned(t).lifecycle.gone(now).then(|| name.clone()))
            .collect();
        for name in gone {
            self.forget_table(&name);
        }
        if self.tables.contains_key(&input.table_name) {
            // Real DynamoDB, for an ACTIVE, CREATING or DELETING table alike (the ack-api-quirks lab's
            // catalogue, DDB-TABLE-444); DynamoDB Local 3.3 says "Cannot create preexisting table".
            return Err(Error::ResourceInUse {
                message: format!("Table already exists: {}", input.table_name),
            });
        }
        self.created += 1;
        let schema = TableSchema {
            table_id: table_id(&input.table_name, self.created),
            name: input.table_name.clone(),
            attribute_definitions: input.attribute_definitions,
            key_schema: input.key_schema,
            billing_mode: input.billing_mode,
            provisioned_throughput: input.provisioned_throughput,
            local_secondary_indexes: input.local_secondary_indexes,
            global_secondary_indexes: input.global_secondary_indexes,
            stream_specification: input.stream_specification,
            table_class: input.table_class,
            deletion_protection_enabled: input.deletion_protection_enabled.unwrap_or(false),
            arn: self.config.table_arn(&input.table_name),
            created: now,
        };
        let on_demand = schema.billing_mode == Some(BillingMode::PayPerRequest);
        let mut table = Table::new(schema);
        if on_demand {
            table.lifecycle.last_update_to_pay_per_request = Some(now);
        }
        crate::ops::tags::store_create_tags(&mut table, &input.tags);
        let generation = table.lifecycle.next_generation();
        let created = Transition::new(now, self.config.transition, generation);
        crate::ops::update_table::created_stream(&mut table, created, self.stream_context());
        table.lifecycle.created = Some(created);
        let table_description = table.describe(&View::fresh(now, generation));
        // Its buckets start now (and fill while it is idle), not at its first request.
        self.throughput.settle(&table, now);
        self.tables.insert(input.table_name, RwLock::new(table));
        Ok(CreateTableOutput { table_description })
    }

    /// `DescribeTable`.
    pub(crate) fn describe_table(&self, input: &DescribeTableInput) -> Result<DescribeTableOutput> {
        validate::table_name(&input.table_name)?;
        let table = self
            .existing_table(&input.table_name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        Ok(DescribeTableOutput {
            table: table.describe(&View::at(self.clock.now())),
        })
    }

    /// `DeleteTable`: the table is DELETING for the engine's transition time (still listed and
    /// described, still serving item operations), then gone; with no transition time it is removed at
    /// once. The response says DELETING either way (DynamoDB Local 3.3 says ACTIVE). Refused while
    /// deletion protection is on or a change is in progress; a table already DELETING is described
    /// again without an error ("If table is already in the DELETING state, no error is returned", the
    /// API reference).
    pub(crate) fn delete_table(&mut self, input: &DeleteTableInput) -> Result<DeleteTableOutput> {
        validate::table_name(&input.table_name)?;
        let now = self.clock.now();
        let transition = self.config.transition;
        let view = View::at(now);
        let table = self
            .existing_table_mut(&input.table_name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        if table.lifecycle.deleting_table() {
            return Ok(DeleteTableOutput {
                table_description: table.describe_deleted(&view),
            });
        }
        crate::ops::update_table::check_delete_table(table, &view)?;
        let generation = table.lifecycle.next_generation();
        let deleted = Transition::new(now, transition, generation);
        table.lifecycle.deleted = Some(deleted);
        // Deleting a table disables its stream; the records stay readable for 24 hours.
        table.disable_stream(deleted);
        let table_description = table.describe_deleted(&View::fresh(now, generation));
        if transition.is_zero() {
            self.forget_table(&input.table_name);
        }
        Ok(DeleteTableOutput { table_description })
    }

    /// `ListTables`: names in order, after `ExclusiveStartTableName`, at most `Limit`.
    pub(crate) fn list_tables(&self, input: &ListTablesInput) -> Result<ListTablesOutput> {
        let mut c = Constraints::default();
        if let Some(start) = &input.exclusive_start_table_name {
            c.name(start, "exclusiveStartTableName");
        }
        // Real DynamoDB's constraint form; DynamoDB Local 3.3 says "Limit must be greater than or equal
        // to 1" and "Limit in ListTables must be <= 100".
        if let Some(limit) = input.limit {
            c.at_least(i64::from(limit), 1, "limit");
            if limit > MAX_LIST_LIMIT {
                c.fail(
                    validate::quoted(&limit.to_string()),
                    "limit",
                    "Member must have value less than or equal to 100",
                );
            }
        }
        c.finish()?;
        let limit = usize::try_from(input.limit.unwrap_or(MAX_LIST_LIMIT)).unwrap_or(0);
        let from = match &input.exclusive_start_table_name {
            Some(start) => std::ops::Bound::Excluded(start.as_str()),
            None => std::ops::Bound::Unbounded,
        };
        let now = self.clock.now();
        // A DELETING table is listed until its deletion is over.
        let mut names = self
            .tables
            .range::<str, _>((from, std::ops::Bound::Unbounded))
            .filter(|(_, t)| !read(t).lifecycle.gone(now))
            .map(|(name, _)| name.clone())
            .peekable();
        let table_names: Vec<String> = names.by_ref().take(limit).collect();
        // Only when more names follow (as DynamoDB Local 3.3 and the API reference's "If you do not
        // receive a LastEvaluatedTableName value in the response, this means that there are no more
        // table names to be retrieved"); a page that ends exactly at the last table has none.
        let last_evaluated_table_name = match names.peek() {
            Some(_) => table_names.last().cloned(),
            None => None,
        };
        Ok(ListTablesOutput {
            table_names,
            last_evaluated_table_name,
        })
    }
}

/// Real DynamoDB's message for DescribeTable/DeleteTable on a missing table (dynalite's recording).
pub(crate) fn table_not_found(name: &str) -> Error {
    Error::resource_not_found(format!("{NOT_FOUND}: Table: {name} not found"))
}

/// A table id in UUID form, unique per table created in this engine and deterministic across runs.
fn table_id(name: &str, serial: u64) -> String {
    let a = crate::storage::key::KeyValue::S(format!("{name}\u{0}{serial}")).stable_hash();
    let b = crate::storage::key::KeyValue::N(serial.into()).stable_hash();
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff
    )
}

/// Every table, for the TTL sweep (`ttl/`), and every stream, for the Streams API (`streams/`).
impl State {
    /// What a new stream needs from the engine.
    pub(crate) fn stream_context(&self) -> crate::ops::streams::StreamContext {
        crate::ops::streams::StreamContext {
            clock: self.clock.clone(),
            sequence: self.sequence.clone(),
            region: self.config.region.clone(),
        }
    }

    /// Every stream: those of the tables (deleted ones included until forgotten), then those of
    /// forgotten tables. Streams of forgotten tables with nothing left are dropped first.
    pub(crate) fn streams_mut(
        &mut self,
    ) -> impl Iterator<Item = &mut crate::ops::streams::Stream> + '_ {
        let now = self.clock.now();
        self.retired_streams.retain(|s| !s.gone(now));
        self.tables
            .values_mut()
            .map(owned)
            .flat_map(Table::streams_mut)
            .chain(self.retired_streams.iter_mut())
    }

    /// Removes table `name`, keeping its streams.
    fn forget_table(&mut self, name: &str) {
        if let Some(table) = self.tables.remove(name) {
            let mut table = table.into_inner().unwrap_or_else(PoisonError::into_inner);
            self.retired_streams.extend(table.take_streams());
        }
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
    pub(crate) fn retired_streams(&self) -> &[crate::ops::streams::Stream] {
        &self.retired_streams
    }

    /// Restores a stream of a forgotten table.
    pub(crate) fn retire_stream(&mut self, stream: crate::ops::streams::Stream) {
        self.retired_streams.push(stream);
    }
}

/// Query and Scan (kept apart from the item operations above so that both evolve without conflicts).
impl Locked<'_> {
    /// `Query`.
    pub(crate) fn query(&self, input: &QueryInput) -> Result<QueryOutput> {
        self.query_to(input, None)
    }

    /// `Query`, its items handed to `sink` when there is one (`typed_read.rs`).
    pub(crate) fn query_to(
        &self,
        input: &QueryInput,
        sink: Option<&mut dyn ItemSink>,
    ) -> Result<QueryOutput> {
        let legacy = crate::frontends::legacy::query(input, || {
            let table = self.table(&input.table_name).ok()?;
            let source =
                Source::find(table, input.index_name.as_deref(), self.clock().now()).ok()?;
            Some(source.key_schema())
        })?;
        crate::read::query::query(
            legacy.as_ref().unwrap_or(input),
            crate::frontends::legacy::query_origins(input),
            self.clock().now(),
            |name| self.table(name),
            self.meter(),
            sink,
        )
        .map_err(|e| crate::frontends::legacy::query_error(input, e))
    }

    /// `Scan`.
    pub(crate) fn scan(&self, input: &ScanInput) -> Result<ScanOutput> {
        self.scan_to(input, None)
    }

    /// `Scan`, its items handed to `sink` when there is one (`typed_read.rs`).
    pub(crate) fn scan_to(
        &self,
        input: &ScanInput,
        sink: Option<&mut dyn ItemSink>,
    ) -> Result<ScanOutput> {
        let legacy = crate::frontends::legacy::scan(input)?;
        crate::read::scan::scan(
            legacy.as_ref().unwrap_or(input),
            crate::frontends::legacy::scan_origins(input),
            self.clock().now(),
            |name| self.table(name),
            self.meter(),
            sink,
        )
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

/// The item operations on the whole engine, for unit tests that drive a `State` directly: every
/// table locked for writing.
#[cfg(test)]
impl State {
    /// `PutItem`.
    pub(crate) fn put_item(
        &mut self,
        input: dynomodel::backend::PutItemInput,
    ) -> Result<dynomodel::backend::PutItemOutput> {
        self.everything().put_item(input)
    }

    /// `GetItem`.
    pub(crate) fn get_item(
        &self,
        input: &dynomodel::backend::GetItemInput,
    ) -> Result<dynomodel::backend::GetItemOutput> {
        self.everything().get_item(input)
    }

    /// `DeleteItem`.
    pub(crate) fn delete_item(
        &mut self,
        input: &dynomodel::backend::DeleteItemInput,
    ) -> Result<dynomodel::backend::DeleteItemOutput> {
        self.everything().delete_item(input)
    }

    /// `UpdateItem`.
    pub(crate) fn update_item(
        &mut self,
        input: &dynomodel::backend::UpdateItemInput,
    ) -> Result<dynomodel::backend::UpdateItemOutput> {
        self.everything().update_item(input)
    }

    /// `Query`.
    pub(crate) fn query(&self, input: &QueryInput) -> Result<QueryOutput> {
        self.everything().query(input)
    }

    /// `BatchWriteItem`.
    pub(crate) fn batch_write_item(
        &mut self,
        input: dynomodel::backend::BatchWriteItemInput,
    ) -> Result<dynomodel::backend::BatchWriteItemOutput> {
        self.everything().batch_write_item(input)
    }

    /// `TransactWriteItems`.
    pub(crate) fn transact_write_items(
        &mut self,
        input: &dynomodel::backend::TransactWriteItemsInput,
    ) -> Result<dynomodel::backend::TransactWriteItemsOutput> {
        self.everything().transact_write_items(input)
    }

    /// Every table locked for writing.
    fn everything(&self) -> Locked<'_> {
        self.lock(
            self.tables.keys().map(String::as_str),
            crate::storage::lock::Mode::Write,
        )
    }
}

#[cfg(test)]
impl State {
    /// How many `ClientRequestToken`s the engine remembers.
    pub(crate) fn tokens_len(&self) -> usize {
        self.tokens_locked().len()
    }

    /// A table, for tests that look inside.
    pub(crate) fn tables_for_test(&self, name: &str) -> Option<RwLockReadGuard<'_, Table>> {
        self.tables.get(name).map(read)
    }
}
