//! The database: tables by name, the expression parse cache, the clock and the transactions'
//! `ClientRequestToken`s, and the table operations (the item operations are in `items.rs`, the batches
//! in `batch/`, the transactions in `transact/`). Each operation runs under one lock acquisition (a
//! read lock for reads, a write lock for writes), which makes every request atomic.

use std::collections::BTreeMap;

use dynomodel::{
    CreateTableInput, CreateTableOutput, DeleteTableInput, DeleteTableOutput, DescribeTableInput,
    DescribeTableOutput, Error, ListTablesInput, ListTablesOutput, Result, TableStatus,
};

use crate::clock::EngineClock;
use crate::config::EngineConfig;
use crate::expr::cache::ExpressionCache;
use crate::transact::tokens::Tokens;
use dynomodel::{QueryInput, QueryOutput, ScanInput, ScanOutput};

use crate::table::{Table, TableSchema};
use crate::update_table::lifecycle::{IndexChange, View};
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
pub struct State {
    tables: BTreeMap<String, Table>,
    /// Tables created so far, for unique table ids.
    created: u64,
    /// Parsed expressions, shared by all requests (it locks itself, so readers can fill it).
    cache: ExpressionCache,
    /// Where "now" comes from.
    clock: EngineClock,
    /// The `ClientRequestToken`s of the transactions of the last 10 minutes.
    tokens: Tokens,
    /// ARN region and account, transition times.
    config: EngineConfig,
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

    /// The expression parse cache.
    pub(crate) fn cache(&self) -> &ExpressionCache {
        &self.cache
    }

    /// A table by name, or DynamoDB's ResourceNotFoundException for item operations.
    pub(crate) fn table(&self, name: &str) -> Result<&Table> {
        self.tables.get(name).ok_or_else(missing_table)
    }

    /// A table by name, for writing.
    pub(crate) fn table_mut(&mut self, name: &str) -> Result<&mut Table> {
        self.tables.get_mut(name).ok_or_else(missing_table)
    }

    /// The engine's clock.
    pub(crate) fn clock(&self) -> &EngineClock {
        &self.clock
    }

    /// The `ClientRequestToken`s of recent transactions.
    pub(crate) fn tokens_mut(&mut self) -> &mut Tokens {
        &mut self.tokens
    }

    /// `CreateTable`. Tables are ACTIVE at once, as on DynamoDB Local.
    pub fn create_table(&mut self, input: CreateTableInput) -> Result<CreateTableOutput> {
        crate::create::create_table(&input)?;
        if self.tables.contains_key(&input.table_name) {
            // Real DynamoDB; DynamoDB Local 3.3 says "Cannot create preexisting table".
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
            created: self.clock.now(),
        };
        let mut table = Table::new(schema);
        let now = self.clock.now();
        crate::update_table::created_stream(&mut table, now);
        let table_description = table.describe(&View::at(now));
        self.tables.insert(input.table_name, table);
        Ok(CreateTableOutput { table_description })
    }

    /// `DescribeTable`.
    pub fn describe_table(&self, input: &DescribeTableInput) -> Result<DescribeTableOutput> {
        validate::table_name(&input.table_name)?;
        let table = self
            .tables
            .get(&input.table_name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        Ok(DescribeTableOutput {
            table: table.describe(&View::at(self.clock.now())),
        })
    }

    /// `DeleteTable`: removes the table at once and returns its last description, status DELETING.
    /// Refused while deletion protection is on or a change is in progress.
    pub fn delete_table(&mut self, input: &DeleteTableInput) -> Result<DeleteTableOutput> {
        validate::table_name(&input.table_name)?;
        let view = View::at(self.clock.now());
        let table = self
            .tables
            .get(&input.table_name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        crate::update_table::check_delete_table(table, &view)?;
        let mut table_description = table.describe(&view);
        self.tables.remove(&input.table_name);
        // DynamoDB Local 3.3 reports ACTIVE here; real DynamoDB reports DELETING.
        table_description.table_status = TableStatus::Deleting;
        Ok(DeleteTableOutput { table_description })
    }

    /// `ListTables`: names in order, after `ExclusiveStartTableName`, at most `Limit`.
    pub fn list_tables(&self, input: &ListTablesInput) -> Result<ListTablesOutput> {
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
        let mut names = match &input.exclusive_start_table_name {
            Some(start) => Box::new(
                self.tables
                    .range::<str, _>((
                        std::ops::Bound::Excluded(start.as_str()),
                        std::ops::Bound::Unbounded,
                    ))
                    .map(|(name, _)| name.clone()),
            ) as Box<dyn Iterator<Item = String>>,
            None => Box::new(self.tables.keys().cloned()),
        }
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
fn table_not_found(name: &str) -> Error {
    Error::resource_not_found(format!("{NOT_FOUND}: Table: {name} not found"))
}

/// A table id in UUID form, unique per table created in this engine and deterministic across runs.
fn table_id(name: &str, serial: u64) -> String {
    let a = crate::key::KeyValue::S(format!("{name}\u{0}{serial}")).stable_hash();
    let b = crate::key::KeyValue::N(serial.into()).stable_hash();
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff
    )
}

/// Query and Scan (kept apart from the item operations above so that both evolve without conflicts).
impl State {
    /// `Query`.
    pub fn query(&self, input: &QueryInput) -> Result<QueryOutput> {
        let output = crate::query::query(input, |name| self.table(name))?;
        self.readable_index(&input.table_name, input.index_name.as_deref())?;
        Ok(output)
    }

    /// `Scan`.
    pub fn scan(&self, input: &ScanInput) -> Result<ScanOutput> {
        let output = crate::scan::scan(input, |name| self.table(name))?;
        self.readable_index(&input.table_name, input.index_name.as_deref())?;
        Ok(output)
    }

    /// A read of an index that is still being created (backfilled) fails, after every other check
    /// of the request passed: "Cannot read from backfilling global secondary index: <name>" (quoted
    /// with the name in published reports of the live service's ValidationException).
    fn readable_index(&self, table: &str, index: Option<&str>) -> Result<()> {
        let (Some(index), Ok(table)) = (index, self.table(table)) else {
            return Ok(());
        };
        let creating = table
            .lifecycle
            .index_change(index, &View::at(self.clock.now()))
            .is_some_and(|(c, _)| c == IndexChange::Creating);
        if creating {
            return Err(Error::validation(format!(
                "Cannot read from backfilling global secondary index: {index}"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
impl State {
    /// How many `ClientRequestToken`s the engine remembers.
    pub fn tokens_len(&self) -> usize {
        self.tokens.len()
    }

    /// A table, for tests that look inside.
    pub fn tables_for_test(&self, name: &str) -> Option<&Table> {
        self.tables.get(name)
    }
}
