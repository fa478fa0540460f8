//! UpdateTable, DescribeLimits and DescribeEndpoints.
//!
//! UpdateTable runs every check first ([`request`], then [`busy`] and [`rules`] against the table) and
//! only then changes anything, so a refused request writes nothing. Changes take the engine's
//! transition time to finish ([`lifecycle`](crate::storage::lifecycle)): a new index is CREATING (allocated, then backfilling),
//! a deleted one DELETING, the table UPDATING, and the response shows them so even when the transition
//! time is zero, as DynamoDB's responses do.

mod busy;
mod request;
mod rules;

use chrono::{DateTime, TimeDelta, Utc};
use dynomodel::backend::{
    BillingMode, DescribeEndpointsInput, DescribeEndpointsOutput, DescribeLimitsInput,
    DescribeLimitsOutput, Endpoint, GlobalSecondaryIndexUpdate, UpdateTableInput,
    UpdateTableOutput,
};
use dynomodel::Result;

use crate::storage::lifecycle::{
    stream_label, DeletingIndex, IndexChange, TableChange, Transition, View,
};
pub(crate) use busy::delete_table as check_delete_table;
#[cfg(test)]
pub(crate) use request::NOTHING_TO_UPDATE;

use crate::metering::throughput::Throughput;
use crate::storage::index::Index;
use crate::storage::state::State;
use crate::storage::stream::{Stream, StreamContext, StreamOrigin};
use crate::storage::table::Table;

/// DescribeLimits' answer: the default quotas of an AWS account per region ("Service, account, and
/// table quotas in Amazon DynamoDB": 80,000 read and write capacity units per account, 40,000 per
/// table), as DynamoDB Local 3.3 answers too.
const ACCOUNT_MAX_CAPACITY: i64 = 80_000;
/// See [`ACCOUNT_MAX_CAPACITY`].
const TABLE_MAX_CAPACITY: i64 = 40_000;

/// How long a client may cache DescribeEndpoints' answer (the API reference's example answers 1440).
const ENDPOINT_CACHE_MINUTES: i64 = 1440;

impl State {
    /// `UpdateTable`.
    pub(crate) fn update_table(
        &mut self,
        input: UpdateTableInput,
        throughput: &Throughput,
    ) -> Result<UpdateTableOutput> {
        request::check(&input)?;
        let now = self.clock().now();
        let streams = self.stream_context();
        let transition = self.config().transition;
        if throughput.on()
            && let Some(table) = self.existing_table(&input.table_name)
        {
            // The time before the change is refilled at the old rates.
            throughput.settle(&table, now);
        }
        let table = self.existing_table_mut(&input.table_name).ok_or_else(|| {
            dynomodel::Error::resource_not_found(format!(
                "Requested resource not found: Table: {} not found",
                input.table_name
            ))
        })?;
        table.lifecycle.settle(now);
        let view = View::at(now);
        busy::update_table(table, &input, &view)?;
        rules::check(table, &input)?;
        rules::billing_switch_window(table, &input, now)?;

        let generation = table.lifecycle.next_generation();
        let change = Transition::new(now, transition, generation);
        apply(table, &input, now, change)?;
        if let Some(spec) = input.stream_specification {
            // Disabling closes the stream's shard; enabling starts a new stream (a new ARN).
            table.disable_stream(change);
            if spec.stream_enabled {
                start_stream(table, change, streams);
            }
        }
        let table_description = table.describe(&View::fresh(now, generation));
        if throughput.on()
            && let Some(table) = self.existing_table(&input.table_name)
        {
            // Buckets for what became provisioned (the table, a new index) start now; those of what
            // became on demand are dropped.
            throughput.settle(&table, now);
        }
        Ok(UpdateTableOutput { table_description })
    }

    /// `DescribeLimits`.
    pub(crate) fn describe_limits(
        &self,
        _input: &DescribeLimitsInput,
    ) -> Result<DescribeLimitsOutput> {
        Ok(DescribeLimitsOutput {
            account_max_read_capacity_units: ACCOUNT_MAX_CAPACITY,
            account_max_write_capacity_units: ACCOUNT_MAX_CAPACITY,
            table_max_read_capacity_units: TABLE_MAX_CAPACITY,
            table_max_write_capacity_units: TABLE_MAX_CAPACITY,
        })
    }

    /// `DescribeEndpoints`: the regional endpoint, `dynamodb.<region>.amazonaws.com`. A server that
    /// answers on its own address substitutes it (the engine does not know where it is reached).
    pub(crate) fn describe_endpoints(
        &self,
        _input: &DescribeEndpointsInput,
    ) -> Result<DescribeEndpointsOutput> {
        Ok(DescribeEndpointsOutput {
            endpoints: vec![Endpoint {
                address: format!("dynamodb.{}.amazonaws.com", self.config().region),
                cache_period_in_minutes: ENDPOINT_CACHE_MINUTES,
            }],
        })
    }
}

/// Applies a checked request to `table`.
fn apply(
    table: &mut Table,
    input: &UpdateTableInput,
    now: DateTime<Utc>,
    change: Transition,
) -> Result<()> {
    let mut table_change = None;
    let was_on_demand = table.schema.is_on_demand();
    let on_demand = rules::target_on_demand(table, input);

    if let Some(mode) = input.billing_mode {
        table.schema.billing_mode = Some(mode);
        table_change = Some(TableChange::Iops);
        if mode == BillingMode::PayPerRequest && !was_on_demand {
            // Capacity goes to zero on the table and its indexes.
            table.lifecycle.last_update_to_pay_per_request = Some(now);
            let switches = &mut table.lifecycle.switches_to_pay_per_request;
            switches.retain(|at| now - *at < rules::SWITCH_WINDOW);
            switches.push(now);
            table.schema.provisioned_throughput = None;
            for gsi in &mut table.schema.global_secondary_indexes {
                gsi.provisioned_throughput = None;
            }
        }
    }
    if let Some(requested) = input.provisioned_throughput {
        if let Some(old) = table.schema.provisioned_throughput
            && !was_on_demand
        {
            table.lifecycle.capacity.record(old, requested, now);
        }
        table.schema.provisioned_throughput = Some(requested);
        table_change = Some(TableChange::Iops);
    }

    for update in &input.global_secondary_index_updates {
        match update {
            GlobalSecondaryIndexUpdate::Update(action) => {
                let name = &action.index_name;
                let life = &mut table.lifecycle;
                if let Some(gsi) = table
                    .schema
                    .global_secondary_indexes
                    .iter_mut()
                    .find(|g| &g.index_name == name)
                {
                    if let Some(old) = gsi.provisioned_throughput
                        && !was_on_demand
                    {
                        life.index_capacity.entry(name.clone()).or_default().record(
                            old,
                            action.provisioned_throughput,
                            now,
                        );
                    }
                    gsi.provisioned_throughput = Some(action.provisioned_throughput);
                    life.indexes
                        .insert(name.clone(), (IndexChange::Updating, change));
                }
            }
            GlobalSecondaryIndexUpdate::Create(index) => {
                let definitions = rules::new_index_definitions(table, input, index)?;
                table.schema.attribute_definitions.extend(definitions);
                let mut gsi = index.clone();
                if on_demand {
                    gsi.provisioned_throughput = None;
                }
                let store = Index::new(
                    &gsi.index_name,
                    true,
                    &gsi.key_schema,
                    &gsi.projection,
                    &table.schema,
                );
                table.schema.global_secondary_indexes.push(gsi);
                table.add_index(store);
                table
                    .lifecycle
                    .indexes
                    .insert(index.index_name.clone(), (IndexChange::Creating, change));
            }
            GlobalSecondaryIndexUpdate::Delete { index_name } => {
                delete_index(table, index_name, now, change);
            }
        }
    }

    if let Some(spec) = input.stream_specification {
        if spec.stream_enabled {
            let label = next_stream_label(table, now);
            let arn = format!("{}/stream/{label}", table.schema.arn);
            table.schema.stream_specification = Some(spec);
            table.lifecycle.latest_stream = Some((arn, label.clone()));
            table_change = Some(TableChange::Stream {
                label,
                enabling: true,
            });
        } else {
            table.schema.stream_specification = None;
            let label = table
                .lifecycle
                .latest_stream
                .as_ref()
                .map(|(_, l)| l.clone())
                .unwrap_or_default();
            table_change = Some(TableChange::Stream {
                label,
                enabling: false,
            });
        }
    }
    if let Some(class) = input.table_class {
        table.schema.table_class = Some(class);
        table_change = Some(TableChange::TableClass);
    }
    if let Some(protect) = input.deletion_protection_enabled {
        table.schema.deletion_protection_enabled = protect;
    }
    if let Some(c) = table_change {
        table.lifecycle.table = Some((c, change));
    }
    Ok(())
}

/// Removes index `name` from the schema and the store; DescribeTable shows it DELETING (with the
/// attribute definitions only it used) until the transition is over.
fn delete_index(table: &mut Table, name: &str, now: DateTime<Utc>, change: Transition) {
    let on_demand = table.schema.is_on_demand();
    let Some(position) = table
        .schema
        .global_secondary_indexes
        .iter()
        .position(|g| g.index_name == name)
    else {
        return;
    };
    let description = {
        let gsi = &table.schema.global_secondary_indexes[position];
        table.describe_gsi(gsi, &View::at(now), on_demand)
    };
    table.schema.global_secondary_indexes.remove(position);
    table.remove_index(name);
    table.lifecycle.indexes.remove(name);
    table.lifecycle.index_capacity.remove(name);
    // DynamoDB drops the definitions no remaining key uses once the index is gone (DDB-TABLE-151).
    let s = &table.schema;
    let used = |attr: &str| {
        s.key_schema.iter().any(|k| k.attribute_name == attr)
            || s.local_secondary_indexes
                .iter()
                .flat_map(|i| &i.key_schema)
                .any(|k| k.attribute_name == attr)
            || s.global_secondary_indexes
                .iter()
                .flat_map(|i| &i.key_schema)
                .any(|k| k.attribute_name == attr)
    };
    let (kept, dropped) = s
        .attribute_definitions
        .iter()
        .cloned()
        .partition(|d| used(&d.attribute_name));
    table.schema.attribute_definitions = kept;
    table.lifecycle.deleting.push(DeletingIndex {
        description,
        attribute_definitions: dropped,
        transition: change,
    });
}

/// A stream label for a stream enabled at `now`, distinct from the table's previous one (a stream
/// enabled again gets a new ARN, even within the same millisecond of a stopped clock).
fn next_stream_label(table: &Table, now: DateTime<Utc>) -> String {
    let mut at = now;
    loop {
        let label = stream_label(at);
        match &table.lifecycle.latest_stream {
            Some((_, previous)) if *previous >= label => at += TimeDelta::milliseconds(1),
            _ => return label,
        }
    }
}

/// The stream ARN and label of a table created with a stream, and the stream itself.
pub(crate) fn created_stream(table: &mut Table, created: Transition, streams: StreamContext) {
    if table
        .schema
        .stream_specification
        .is_some_and(|s| s.stream_enabled)
    {
        let label = stream_label(created.started);
        let arn = format!("{}/stream/{label}", table.schema.arn);
        table.lifecycle.latest_stream = Some((arn, label));
        start_stream(table, created, streams);
    } else {
        table.schema.stream_specification = None;
    }
}

/// Starts the stream that `latest_stream` names, with the table's view type.
fn start_stream(table: &mut Table, change: Transition, streams: StreamContext) {
    let (Some((arn, label)), Some(view_type)) = (
        table.lifecycle.latest_stream.clone(),
        table
            .schema
            .stream_specification
            .and_then(|s| s.stream_view_type),
    ) else {
        return;
    };
    let origin = StreamOrigin {
        arn,
        label,
        table_name: table.schema.name.clone(),
        key_schema: table.schema.key_schema.clone(),
        view_type,
    };
    table.start_stream(Stream::new(origin, change, streams));
}
