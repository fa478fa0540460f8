//! The table operations on the catalog: CreateTable, DescribeTable, DeleteTable and ListTables.
//! (UpdateTable is in [`update_table`](super::update_table); the catalog itself, which tables exist
//! and the locks they sit behind, is [`State`].)

use dynomodel::backend::{
    BillingMode, CreateTableInput, CreateTableOutput, DeleteTableInput, DeleteTableOutput,
    DescribeTableInput, DescribeTableOutput, ListTablesInput, ListTablesOutput,
};
use dynomodel::{Error, Result};

use crate::metering::throughput::Throughput;
use crate::storage::lifecycle::{Transition, View};
use crate::storage::schema::TableSchema;
use crate::storage::state::read;
use crate::storage::state::{table_not_found, State};
use crate::storage::table::Table;
use crate::validate::{self, Constraints};

/// ListTables' default and maximum page size.
const MAX_LIST_LIMIT: i32 = 100;

impl State {
    /// `CreateTable`. The table and its indexes are CREATING for the engine's transition time; the
    /// response says CREATING even when that is zero, as DynamoDB's does ("Upon receiving a CreateTable
    /// request, DynamoDB immediately returns a response with a TableStatus of CREATING", the API
    /// reference; DynamoDB Local 3.3 answers ACTIVE). The new table's throughput buckets (when
    /// `throughput` is enforced) start now.
    pub(crate) fn create_table(
        &mut self,
        input: CreateTableInput,
        throughput: &Throughput,
    ) -> Result<CreateTableOutput> {
        super::create::create_table(&input)?;
        // Tags are checked with the rest of the request: an invalid tag creates no table.
        super::tags::validate_create_tags(&input.tags)?;
        let now = self.clock().now();
        // Tables whose deletion is over are forgotten here, the one place a name is taken again; their
        // streams stay readable until they age out.
        self.forget_gone_tables(now);
        if self.has_table(&input.table_name) {
            // Real DynamoDB, for an ACTIVE, CREATING or DELETING table alike (the ack-api-quirks lab's
            // catalogue, DDB-TABLE-444); DynamoDB Local 3.3 says "Cannot create preexisting table".
            return Err(Error::ResourceInUse {
                message: format!("Table already exists: {}", input.table_name),
            });
        }
        Ok(self.add_table(input, now, throughput, |_| {}))
    }

    /// Adds the table a validated CreateTable `input` describes (its name free), `fill`ed before
    /// it is described (a restore's items and summary): CreateTable's effect, shared with the
    /// restores (`restore.rs`).
    pub(crate) fn add_table(
        &mut self,
        input: CreateTableInput,
        now: chrono::DateTime<chrono::Utc>,
        throughput: &Throughput,
        fill: impl FnOnce(&mut Table),
    ) -> CreateTableOutput {
        let serial = self.next_table_serial();
        let schema = TableSchema {
            table_id: table_id(&input.table_name, serial),
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
            arn: self.config().table_arn(&input.table_name),
            created: now,
        };
        let on_demand = schema.billing_mode == Some(BillingMode::PayPerRequest);
        let mut table = Table::new(schema);
        if on_demand {
            table.lifecycle.last_update_to_pay_per_request = Some(now);
        }
        super::tags::store_create_tags(&mut table, &input.tags);
        let generation = table.lifecycle.next_generation();
        let created = Transition::new(now, self.config().transition, generation);
        super::update_table::created_stream(&mut table, created, self.stream_context());
        table.lifecycle.created = Some(created);
        fill(&mut table);
        let table_description = table.describe(&View::fresh(now, generation));
        // Its buckets start now (and fill while it is idle), not at its first request.
        throughput.settle(&table, now);
        self.insert_table(input.table_name, table);
        CreateTableOutput { table_description }
    }

    /// `DescribeTable`.
    pub(crate) fn describe_table(&self, input: &DescribeTableInput) -> Result<DescribeTableOutput> {
        validate::table_name(&input.table_name)?;
        let table = self
            .existing_table(&input.table_name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        Ok(DescribeTableOutput {
            table: table.describe(&View::at(self.clock().now())),
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
        let now = self.clock().now();
        let transition = self.config().transition;
        let view = View::at(now);
        let table = self
            .existing_table_mut(&input.table_name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        if table.lifecycle.deleting_table() {
            return Ok(DeleteTableOutput {
                table_description: table.describe_deleted(&view),
            });
        }
        super::update_table::check_delete_table(table, &view)?;
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
        let now = self.clock().now();
        // A DELETING table is listed until its deletion is over.
        let mut names = self
            .tables_from(from)
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
