//! The planner proper: a pure comparison of a [`Definition`] with a [`LiveTable`], giving the steps
//! in the order DynamoDB can run them and the differences it cannot apply.
//!
//! Order on an existing table: index deletions first (they free the index slots and, when an index is
//! replaced, its name), then the billing mode, the capacities, index creations (each one UpdateTable),
//! the stream, the table class, deletion protection, and last the time to live, point-in-time
//! recovery and the tags, which are separate APIs and need no wait.

use std::collections::{BTreeMap, BTreeSet};

use crate::backend::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, GlobalSecondaryIndexDescription,
    KeySchemaElement, PointInTimeRecoveryStatus, Projection, ProvisionedThroughput,
    ScalarAttributeType, StreamViewType, TableClass, TableStatus, Tag, TimeToLiveStatus,
};
use crate::migrate::definition::Definition;
use crate::migrate::live::LiveTable;
use crate::migrate::step::{Action, Blocker, Keys, ShowProjection, Step};

/// What the comparison of one table gives.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct TableDiff {
    pub(crate) steps: Vec<Step>,
    pub(crate) blockers: Vec<Blocker>,
    pub(crate) notes: Vec<String>,
}

/// The steps that make the live table (or its absence) match the definition.
pub(crate) fn diff(definition: &Definition, live: Option<&LiveTable>) -> TableDiff {
    let schema = &definition.schema;
    let table = schema.table_name.as_str();
    let mut out = TableDiff::default();
    let Some(live) = live else {
        out.steps.push(Step::new(
            table,
            Action::CreateTable(Box::new(schema.clone())),
        ));
        if let Some(attribute) = &definition.ttl_attribute {
            out.steps.push(Step::new(
                table,
                Action::EnableTtl {
                    attribute_name: attribute.clone(),
                },
            ));
        }
        if let Some(recovery) = &definition.point_in_time_recovery {
            out.steps.push(Step::new(
                table,
                Action::SetPointInTimeRecovery {
                    enabled: true,
                    recovery_period_in_days: recovery.recovery_period_in_days,
                },
            ));
        }
        return out;
    };
    let desc = &live.table;
    let desired_types = types(&schema.attribute_definitions);
    let live_types = types(&desc.attribute_definitions);

    // Keys and local indexes are fixed at creation.
    if schema.key_schema != desc.key_schema {
        out.blockers.push(Blocker {
            table: table.to_owned(),
            reason: format!(
                "the key schema differs (live: {}; model: {}); DynamoDB cannot change a table's keys: \
                 create a new table and copy the items",
                Keys(&desc.key_schema),
                Keys(&schema.key_schema)
            ),
        });
    } else {
        for key in &schema.key_schema {
            let name = key.attribute_name.as_str();
            if let (Some(want), Some(have)) = (desired_types.get(name), live_types.get(name))
                && want != have
            {
                out.blockers.push(Blocker {
                    table: table.to_owned(),
                    reason: format!(
                        "key attribute {name} is {} live and {} in the model; DynamoDB cannot change the \
                         type of a table key: create a new table and copy the items",
                        have.as_str(),
                        want.as_str()
                    ),
                });
            }
        }
    }
    local_indexes(definition, live, &mut out);

    // Global indexes: deletions, replacements, creations.
    let live_gsis: BTreeMap<&str, &GlobalSecondaryIndexDescription> = desc
        .global_secondary_indexes
        .iter()
        .filter(|index| index.index_status != TableStatus::Deleting)
        .map(|index| (index.index_name.as_str(), index))
        .collect();
    let wanted: BTreeMap<&str, &GlobalSecondaryIndex> = schema
        .global_secondary_indexes
        .iter()
        .map(|index| (index.index_name.as_str(), index))
        .collect();
    let mut deletes = Vec::new();
    let mut creates = Vec::new();
    let mut kept = Vec::new();
    for (name, have) in &live_gsis {
        match wanted.get(name) {
            None => deletes.push(name.to_string()),
            Some(want) if same_shape(want, have, &desired_types, &live_types) => {
                kept.push((*want, *have));
            }
            Some(want) => {
                out.notes.push(format!(
                    "GSI {name} on {table} is replaced: live ({}; {}), model ({}; {})",
                    Keys(&have.key_schema),
                    ShowProjection(&have.projection),
                    Keys(&want.key_schema),
                    ShowProjection(&want.projection)
                ));
                deletes.push(name.to_string());
                creates.push(*want);
            }
        }
    }
    creates.extend(
        schema
            .global_secondary_indexes
            .iter()
            .filter(|index| !live_gsis.contains_key(index.index_name.as_str())),
    );
    for index_name in deletes {
        out.steps
            .push(Step::new(table, Action::DeleteIndex { index_name }));
    }

    // Billing and capacity.
    let live_mode = desc.billing_mode.unwrap_or(BillingMode::Provisioned);
    let want_mode = schema.billing_mode.unwrap_or(BillingMode::Provisioned);
    let live_throughput = ProvisionedThroughput {
        read_capacity_units: desc.provisioned_throughput.read_capacity_units,
        write_capacity_units: desc.provisioned_throughput.write_capacity_units,
    };
    if live_mode != want_mode {
        let index_throughput = match want_mode {
            BillingMode::Provisioned => kept
                .iter()
                .filter_map(|(want, _)| {
                    want.provisioned_throughput
                        .map(|t| (want.index_name.clone(), t))
                })
                .collect(),
            BillingMode::PayPerRequest => Vec::new(),
        };
        out.steps.push(Step::new(
            table,
            Action::SetBillingMode {
                from: live_mode,
                to: want_mode,
                throughput: schema
                    .provisioned_throughput
                    .filter(|_| want_mode == BillingMode::Provisioned),
                index_throughput,
            },
        ));
    } else if want_mode == BillingMode::Provisioned {
        if let Some(want) = schema.provisioned_throughput
            && want != live_throughput
        {
            out.steps.push(Step::new(
                table,
                Action::SetThroughput {
                    from: live_throughput,
                    to: want,
                },
            ));
        }
        for (want, have) in &kept {
            let have = have.provisioned_throughput.map(|t| ProvisionedThroughput {
                read_capacity_units: t.read_capacity_units,
                write_capacity_units: t.write_capacity_units,
            });
            if let (Some(to), Some(from)) = (want.provisioned_throughput, have)
                && to != from
            {
                out.steps.push(Step::new(
                    table,
                    Action::SetIndexThroughput {
                        index_name: want.index_name.clone(),
                        from,
                        to,
                    },
                ));
            }
        }
    }
    for index in creates {
        let attribute_definitions = index
            .key_schema
            .iter()
            .filter_map(|key| {
                desired_types
                    .get(key.attribute_name.as_str())
                    .map(|t| AttributeDefinition {
                        attribute_name: key.attribute_name.clone(),
                        attribute_type: *t,
                    })
            })
            .collect();
        out.steps.push(Step::new(
            table,
            Action::CreateIndex {
                index: index.clone(),
                attribute_definitions,
            },
        ));
    }

    // Stream, class, protection: the model is the truth (absent means DynamoDB's default).
    let want_stream = schema
        .stream_specification
        .filter(|s| s.stream_enabled)
        .and_then(|s| s.stream_view_type);
    let live_stream = desc
        .stream_specification
        .filter(|s| s.stream_enabled)
        .and_then(|s| s.stream_view_type);
    stream_steps(table, live_stream, want_stream, &mut out);
    let want_class = schema.table_class.unwrap_or(TableClass::Standard);
    let live_class = desc.table_class.unwrap_or(TableClass::Standard);
    if want_class != live_class {
        out.steps.push(Step::new(
            table,
            Action::SetTableClass {
                from: live_class,
                to: want_class,
            },
        ));
    }
    let want_protection = schema.deletion_protection_enabled.unwrap_or(false);
    if want_protection != desc.deletion_protection_enabled {
        out.steps.push(Step::new(
            table,
            Action::SetDeletionProtection {
                enabled: want_protection,
            },
        ));
    }

    ttl_steps(definition, live, &mut out);
    recovery_steps(definition, live, &mut out);
    tag_steps(definition, live, &mut out);
    out
}

fn types(definitions: &[AttributeDefinition]) -> BTreeMap<&str, ScalarAttributeType> {
    definitions
        .iter()
        .map(|d| (d.attribute_name.as_str(), d.attribute_type))
        .collect()
}

fn same_projection(a: &Projection, b: &Projection) -> bool {
    let set = |p: &Projection| {
        p.non_key_attributes
            .iter()
            .cloned()
            .collect::<BTreeSet<_>>()
    };
    a.projection_type == b.projection_type && set(a) == set(b)
}

fn key_types(
    keys: &[KeySchemaElement],
    types: &BTreeMap<&str, ScalarAttributeType>,
) -> Vec<Option<ScalarAttributeType>> {
    keys.iter()
        .map(|k| types.get(k.attribute_name.as_str()).copied())
        .collect()
}

/// Same keys (names, roles and types) and same projection: only the capacity may differ.
fn same_shape(
    want: &GlobalSecondaryIndex,
    have: &GlobalSecondaryIndexDescription,
    desired_types: &BTreeMap<&str, ScalarAttributeType>,
    live_types: &BTreeMap<&str, ScalarAttributeType>,
) -> bool {
    want.key_schema == have.key_schema
        && key_types(&want.key_schema, desired_types) == key_types(&have.key_schema, live_types)
        && same_projection(&want.projection, &have.projection)
}

/// Local indexes exist only as created with the table: any difference blocks.
fn local_indexes(definition: &Definition, live: &LiveTable, out: &mut TableDiff) {
    let table = definition.schema.table_name.as_str();
    let have: BTreeMap<&str, _> = live
        .table
        .local_secondary_indexes
        .iter()
        .map(|i| (i.index_name.as_str(), (&i.key_schema, &i.projection)))
        .collect();
    let want: BTreeMap<&str, _> = definition
        .schema
        .local_secondary_indexes
        .iter()
        .map(|i| (i.index_name.as_str(), (&i.key_schema, &i.projection)))
        .collect();
    let why =
        "DynamoDB creates local indexes with the table only: create a new table and copy the items";
    for (name, (keys, projection)) in &want {
        let reason = match have.get(name) {
            None => format!("LSI {name} is in the model but not on the table; {why}"),
            Some((live_keys, live_projection))
                if live_keys != keys || !same_projection(projection, live_projection) =>
            {
                format!(
                    "LSI {name} differs (live: {}; {}; model: {}; {}); {why}",
                    Keys(live_keys),
                    ShowProjection(live_projection),
                    Keys(keys),
                    ShowProjection(projection)
                )
            }
            Some(_) => continue,
        };
        out.blockers.push(Blocker {
            table: table.to_owned(),
            reason,
        });
    }
    for name in have.keys().filter(|name| !want.contains_key(*name)) {
        out.blockers.push(Blocker {
            table: table.to_owned(),
            reason: format!(
                "LSI {name} is on the table but not in the model; DynamoDB deletes local indexes only \
                 with the table"
            ),
        });
    }
}

/// A view type cannot be changed in place: DynamoDB refuses to enable a stream on a table that has
/// one, so a change is off, then on.
fn stream_steps(
    table: &str,
    live: Option<StreamViewType>,
    want: Option<StreamViewType>,
    out: &mut TableDiff,
) {
    match (live, want) {
        (a, b) if a == b => {}
        (Some(from), Some(to)) => {
            out.steps.push(Step::new(
                table,
                Action::SetStream {
                    from: Some(from),
                    to: None,
                },
            ));
            out.steps.push(Step::new(
                table,
                Action::SetStream {
                    from: None,
                    to: Some(to),
                },
            ));
        }
        (from, to) => out
            .steps
            .push(Step::new(table, Action::SetStream { from, to })),
    }
}

fn ttl_steps(definition: &Definition, live: &LiveTable, out: &mut TableDiff) {
    let table = definition.schema.table_name.as_str();
    let Some(description) = &live.ttl else {
        if definition.ttl_attribute.is_some() {
            out.notes.push(format!(
                "time to live on {table}: this database does not describe it (DescribeTimeToLive is \
                 unknown), so it is left alone"
            ));
        }
        return;
    };
    let enabled = match description.time_to_live_status {
        TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling => {
            description.attribute_name.as_deref()
        }
        TimeToLiveStatus::Disabled | TimeToLiveStatus::Disabling => None,
    };
    let want = definition.ttl_attribute.as_deref();
    if enabled == want {
        return;
    }
    if let Some(attribute) = enabled {
        out.steps.push(Step::new(
            table,
            Action::DisableTtl {
                attribute_name: attribute.to_owned(),
            },
        ));
    }
    if let Some(attribute) = want {
        if enabled.is_some() {
            out.notes.push(format!(
                "time to live on {table} moves from {} to {attribute}: Amazon DynamoDB allows one change \
                 per hour, so the enable fails until an hour after the disable; plan again then",
                enabled.unwrap_or_default()
            ));
        }
        out.steps.push(Step::new(
            table,
            Action::EnableTtl {
                attribute_name: attribute.to_owned(),
            },
        ));
    }
}

/// DynamoDB's recovery window when UpdateContinuousBackups names none.
const DEFAULT_RECOVERY_PERIOD_DAYS: i32 = 35;

/// Point-in-time recovery: on with the model's window (35 days when it names none), or off.
fn recovery_steps(definition: &Definition, live: &LiveTable, out: &mut TableDiff) {
    let table = definition.schema.table_name.as_str();
    let Some(description) = &live.point_in_time_recovery else {
        if definition.point_in_time_recovery.is_some() {
            out.notes.push(format!(
                "point-in-time recovery of {table}: this database does not describe it \
                 (DescribeContinuousBackups is unknown), so it is left alone"
            ));
        }
        return;
    };
    let live_on = description.point_in_time_recovery_status == PointInTimeRecoveryStatus::Enabled;
    match &definition.point_in_time_recovery {
        Some(want) => {
            let want_days = want
                .recovery_period_in_days
                .unwrap_or(DEFAULT_RECOVERY_PERIOD_DAYS);
            let live_days = description
                .recovery_period_in_days
                .unwrap_or(DEFAULT_RECOVERY_PERIOD_DAYS);
            if !live_on || want_days != live_days {
                out.steps.push(Step::new(
                    table,
                    Action::SetPointInTimeRecovery {
                        enabled: true,
                        recovery_period_in_days: want.recovery_period_in_days,
                    },
                ));
            }
        }
        None if live_on => out.steps.push(Step::new(
            table,
            Action::SetPointInTimeRecovery {
                enabled: false,
                recovery_period_in_days: None,
            },
        )),
        None => {}
    }
}

/// The prefix of the tags the mapper keeps on a table itself (the item versions of
/// [`ITEM_VERSION_TAG`](crate::migrate::ITEM_VERSION_TAG)): never removed by a plan.
const DYNOMODEL_TAGS: &str = "dynomodel:";

/// Tags are the model's, except the `aws:` ones AWS assigns and the mapper's own
/// (`dynomodel:`), which are never touched.
fn tag_steps(definition: &Definition, live: &LiveTable, out: &mut TableDiff) {
    let table = definition.schema.table_name.as_str();
    let Some(live_tags) = &live.tags else {
        if !definition.schema.tags.is_empty() {
            out.notes.push(format!(
                "tags of {table}: this database has no tagging (ListTagsOfResource is unknown), so they \
                 are left alone"
            ));
        }
        return;
    };
    let have: BTreeMap<&str, &str> = live_tags
        .iter()
        .map(|t| (t.key.as_str(), t.value.as_str()))
        .collect();
    let want: BTreeMap<&str, &str> = definition
        .schema
        .tags
        .iter()
        .map(|t| (t.key.as_str(), t.value.as_str()))
        .collect();
    let add: Vec<Tag> = want
        .iter()
        .filter(|(key, value)| have.get(*key) != Some(*value))
        .map(|(key, value)| Tag::new(*key, *value))
        .collect();
    let remove: Vec<String> = have
        .keys()
        .filter(|key| {
            !want.contains_key(*key) && !key.starts_with("aws:") && !key.starts_with(DYNOMODEL_TAGS)
        })
        .map(|key| (*key).to_owned())
        .collect();
    let resource_arn = live.table.table_arn.clone();
    if !remove.is_empty() {
        out.steps.push(Step::new(
            table,
            Action::Untag {
                resource_arn: resource_arn.clone(),
                keys: remove,
            },
        ));
    }
    if !add.is_empty() {
        out.steps.push(Step::new(
            table,
            Action::Tag {
                resource_arn,
                tags: add,
            },
        ));
    }
}
