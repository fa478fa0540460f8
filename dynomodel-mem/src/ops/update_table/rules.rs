//! UpdateTable's checks against the table: the indexes an action names, a new index's key schema and
//! attribute definitions, throughput for the billing mode, updates that change nothing, streams.
//!
//! Sources: the ack-api-quirks lab's live-service catalogue (DDB-TABLE-442) and index findings
//! (DDB-TABLE-152, 162, 164, 169, 375), recorded in 2026; dynalite's recordings for the unchanged
//! throughput and the out-of-bounds index capacity. DynamoDB Local 3.3 words most of these differently
//! or accepts the request (see `tests/dual/deviations.md`).

use chrono::{DateTime, TimeDelta, Utc};
use dynomodel::backend::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, GlobalSecondaryIndexUpdate,
    ProvisionedThroughput, UpdateTableInput,
};
use dynomodel::{Error, Result};

use super::busy::limit_exceeded;
use crate::ops::create::{capacity_bounds, invalid, key_schema_shape, MAX_GSI};
use crate::storage::table::Table;

/// The largest capacity value the API accepts.
const MAX_CAPACITY: i64 = 1_000_000_000_000;

/// How many times a table may switch from provisioned to on-demand in [`SWITCH_WINDOW`]
/// ("Considerations when switching capacity modes in DynamoDB": "You can switch tables from
/// provisioned capacity mode to on-demand mode up to four times in a 24-hour rolling window. You can
/// switch tables from on-demand mode to provisioned capacity mode at any time.").
pub(super) const MAX_SWITCHES_TO_PAY_PER_REQUEST: usize = 4;

/// The rolling window of [`MAX_SWITCHES_TO_PAY_PER_REQUEST`].
pub(super) const SWITCH_WINDOW: TimeDelta = TimeDelta::hours(24);

/// Refuses a fifth switch to on-demand within 24 hours. The text is the service's as recorded in 2019,
/// when the rule was one switch a day ("Subscriber limit exceeded: Update to PayPerRequest mode are
/// limited to once in 1 day(s)", a LimitExceededException quoted in aws-amplify/amplify-cli#1054),
/// with today's count in it; no capture of the four-a-day wording was found. DynamoDB Local 3.3 has no
/// such limit.
pub(super) fn billing_switch_window(
    table: &Table,
    input: &UpdateTableInput,
    now: DateTime<Utc>,
) -> Result<()> {
    let switching =
        input.billing_mode == Some(BillingMode::PayPerRequest) && !table.schema.is_on_demand();
    let recent = table
        .lifecycle
        .switches_to_pay_per_request
        .iter()
        .filter(|at| now - **at < SWITCH_WINDOW)
        .count();
    if switching && recent >= MAX_SWITCHES_TO_PAY_PER_REQUEST {
        return Err(limit_exceeded(format!(
            "Subscriber limit exceeded: Update to PayPerRequest mode are limited to \
             {MAX_SWITCHES_TO_PAY_PER_REQUEST} times in 1 day(s)."
        )));
    }
    Ok(())
}

/// The billing mode the table has once the request is applied.
pub(super) fn target_on_demand(table: &Table, input: &UpdateTableInput) -> bool {
    match input.billing_mode {
        Some(mode) => mode == BillingMode::PayPerRequest,
        None => table.schema.is_on_demand(),
    }
}

fn index_not_found(table: &Table, index: &str) -> Error {
    // DDB-TABLE-375. DynamoDB Local 3.3 says "Requested resource not found" for a Delete and
    // "Invalid global secondary index name" (a ValidationException) for an Update.
    Error::resource_not_found(format!(
        "Requested resource not found: Index {index} for table {}",
        table.schema.name
    ))
}

/// The index an Update or Delete action names must be one of the table's GSIs.
fn existing_gsi<'t>(table: &'t Table, index: &str, verb: &str) -> Result<&'t GlobalSecondaryIndex> {
    let s = &table.schema;
    if let Some(gsi) = s
        .global_secondary_indexes
        .iter()
        .find(|g| g.index_name == index)
    {
        return Ok(gsi);
    }
    if s.local_secondary_indexes
        .iter()
        .any(|l| l.index_name == index)
    {
        return Err(Error::validation(format!(
            "Cannot {verb} an index that is not a GlobalSecondaryIndex: {index}"
        )));
    }
    Err(index_not_found(table, index))
}

/// The definitions a new index's keys use, checked against the request's and the table's.
pub(super) fn new_index_definitions(
    table: &Table,
    input: &UpdateTableInput,
    index: &GlobalSecondaryIndex,
) -> Result<Vec<AttributeDefinition>> {
    if input.attribute_definitions.is_empty() {
        return Err(invalid(format!(
            "AttributeDefinitions is not specified for index: {}",
            index.index_name
        )));
    }
    let existing = &table.schema.attribute_definitions;
    let mut defined: Vec<&str> = input
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    for d in existing {
        if !defined.contains(&d.attribute_name.as_str()) {
            defined.push(&d.attribute_name);
        }
    }
    key_schema_shape(&index.key_schema, &defined)?;
    let mut needed = Vec::new();
    for key in &index.key_schema {
        let name = &key.attribute_name;
        let requested = input
            .attribute_definitions
            .iter()
            .find(|d| &d.attribute_name == name);
        let current = existing.iter().find(|d| &d.attribute_name == name);
        match (requested, current) {
            // No live-service text is known for redefining a key attribute with another type;
            // this is DynamoDB Local 3.3's.
            (Some(r), Some(c)) if r.attribute_type != c.attribute_type => {
                return Err(Error::validation(
                    "invalid attribute, SchemaElement redefined should be of same type as previously \
                     defined",
                ))
            }
            (Some(r), None) => needed.push(r.clone()),
            _ => {}
        }
    }
    Ok(needed)
}

/// `subject` is "the table" or "the index <name>", `owner` "the table" or "index <name>".
fn unchanged(
    subject: &str,
    owner: &str,
    current: ProvisionedThroughput,
    requested: ProvisionedThroughput,
) -> Error {
    let whose = owner;
    Error::validation(format!(
        "The provisioned throughput for {subject} will not change. The requested value equals the current \
         value. Current ReadCapacityUnits provisioned for {whose}: {}. Requested ReadCapacityUnits: {}. \
         Current WriteCapacityUnits provisioned for {whose}: {}. Requested WriteCapacityUnits: {}. Refer \
         to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.",
        current.read_capacity_units,
        requested.read_capacity_units,
        current.write_capacity_units,
        requested.write_capacity_units,
    ))
}

/// Everything UpdateTable checks against the table (after [`busy`](super::busy)).
pub(super) fn check(table: &Table, input: &UpdateTableInput) -> Result<()> {
    let s = &table.schema;
    let on_demand_now = s.is_on_demand();
    let on_demand = target_on_demand(table, input);
    let switching_to_provisioned = on_demand_now && !on_demand;

    for update in &input.global_secondary_index_updates {
        match update {
            GlobalSecondaryIndexUpdate::Update(action) => {
                let t = action.provisioned_throughput;
                if t.read_capacity_units > MAX_CAPACITY || t.write_capacity_units > MAX_CAPACITY {
                    // dynalite's recording, checked before the index's existence.
                    return Err(Error::validation(
                        "This operation cannot be performed with given input values. Please contact \
                         DynamoDB service team for more info: Action Blocked: IndexUpdate",
                    ));
                }
                existing_gsi(table, &action.index_name, "update")?;
            }
            GlobalSecondaryIndexUpdate::Delete { index_name } => {
                existing_gsi(table, index_name, "delete")?;
            }
            GlobalSecondaryIndexUpdate::Create(index) => {
                let name = &index.index_name;
                let taken = s
                    .global_secondary_indexes
                    .iter()
                    .any(|g| &g.index_name == name)
                    || s.local_secondary_indexes
                        .iter()
                        .any(|l| &l.index_name == name)
                    || table
                        .lifecycle
                        .deleting
                        .iter()
                        .any(|d| &d.description.index_name == name);
                if taken {
                    return Err(Error::validation(
                        "Attempting to create an index which already exists",
                    ));
                }
                if s.global_secondary_indexes.len() >= MAX_GSI {
                    return Err(limit_exceeded(format!(
                        "Subscriber limit exceeded: Number of global secondary indexes exceeds \
                         per-table limit of {MAX_GSI}"
                    )));
                }
                new_index_definitions(table, input, index)?;
                match (on_demand, &index.provisioned_throughput) {
                    (true, Some(_)) => {
                        return Err(invalid(format!(
                            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for \
                             index: {name} when BillingMode is PAY_PER_REQUEST"
                        )))
                    }
                    (false, None) => {
                        return Err(invalid(format!(
                            "Both ReadCapacityUnits and WriteCapacityUnits must be specified for \
                             index: {name}"
                        )))
                    }
                    (false, Some(t)) => capacity_bounds(t)?,
                    (true, None) => {}
                }
            }
        }
    }

    if input.billing_mode == Some(BillingMode::Provisioned)
        && input.provisioned_throughput.is_none()
    {
        // DynamoDB Local 3.3: "No provisioned throughput specified for the table".
        return Err(invalid(
            "ProvisionedThroughput must be specified when BillingMode is PROVISIONED",
        ));
    }
    if on_demand && input.provisioned_throughput.is_some() {
        return Err(invalid(
            "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is \
             PAY_PER_REQUEST",
        ));
    }
    for update in &input.global_secondary_index_updates {
        if let GlobalSecondaryIndexUpdate::Update(action) = update
            && on_demand
        {
            return Err(invalid(format!(
                "The only Updates for index: {} when TableThroughputMode is PAY_PER_REQUEST can be to \
                 OnDemandThroughput, WarmThroughput",
                action.index_name
            )));
        }
    }
    if switching_to_provisioned {
        // Every index needs its capacity in the same request: nothing is assigned (DDB-TABLE-152).
        let deleted = |name: &str| {
            input.global_secondary_index_updates.iter().any(|u| {
                matches!(u, GlobalSecondaryIndexUpdate::Delete { index_name } if index_name == name)
            })
        };
        for gsi in &s.global_secondary_indexes {
            let updated = input.global_secondary_index_updates.iter().any(|u| {
                matches!(u, GlobalSecondaryIndexUpdate::Update(a) if a.index_name == gsi.index_name)
            });
            if !updated && !deleted(&gsi.index_name) {
                return Err(invalid(format!(
                    "ProvisionedThroughput must be specified for index: {}",
                    gsi.index_name
                )));
            }
        }
    } else if !on_demand {
        // An update to the capacity it already has (DDB-TABLE-164; dynalite for the table's text).
        // DynamoDB Local 3.3: "The requested throughput value equals the current value".
        if let (Some(requested), Some(current)) =
            (input.provisioned_throughput, s.provisioned_throughput)
            && requested == current
        {
            return Err(unchanged("the table", "the table", current, requested));
        }
        for update in &input.global_secondary_index_updates {
            let GlobalSecondaryIndexUpdate::Update(action) = update else {
                continue;
            };
            let current = existing_gsi(table, &action.index_name, "update")?.provisioned_throughput;
            if current == Some(action.provisioned_throughput) {
                return Err(unchanged(
                    &format!("the index {}", action.index_name),
                    &format!("index {}", action.index_name),
                    action.provisioned_throughput,
                    action.provisioned_throughput,
                ));
            }
        }
    }

    if let Some(spec) = &input.stream_specification {
        let enabled = s.stream_specification.is_some_and(|s| s.stream_enabled);
        // DynamoDB Local 3.3 stops before ": TableName: …".
        if spec.stream_enabled && enabled {
            return Err(Error::validation(format!(
                "Table already has an enabled stream: TableName: {}",
                s.name
            )));
        }
        if !spec.stream_enabled && !enabled {
            return Err(Error::validation(format!(
                "Table has no stream to disable: TableName: {}",
                s.name
            )));
        }
    }
    Ok(())
}
