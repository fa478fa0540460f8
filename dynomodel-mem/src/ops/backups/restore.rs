//! What a restore builds, from a backup or from point-in-time recovery's history: a new table with
//! the source's key schema, its indexes (or those of the overrides), its capacity and billing mode
//! (or the overrides'), its table class and the items; with a `RestoreSummary`, `CREATING` for the
//! engine's transition time like a created table.
//!
//! Not restored, as the API reference lists ("You must manually set up the following on the
//! restored table"): tags, stream settings, Time to Live settings, point-in-time recovery
//! settings (and auto scaling, IAM policies, alarms, which the engine does not model). Deletion
//! protection starts off. Encryption is not modelled: `SSESpecificationOverride` is accepted and
//! has no effect.
//!
//! A restore runs in two steps: [`plan`] reads the source (a backup, or the history at an instant)
//! under the catalog's read lock and derives the new table's CreateTable request; [`State::restore`]
//! adds it under the write lock. In durable mode the second step is logged as that CreateTable
//! request and the item writes it makes, so the restored table survives a restart (without its
//! `RestoreSummary`, which the log does not carry), though backups and history do not.

use std::collections::BTreeSet;

use dynomodel::backend::{
    AttributeDefinition, BillingMode, CreateTableInput, GlobalSecondaryIndex, LocalSecondaryIndex,
    RestoreOverrides, RestoreSummary, TableDescription,
};
use dynomodel::{Error, Result};

use super::service_error;
use crate::metering::throughput::Throughput;
use crate::storage::key::PrimaryKey;
use crate::storage::lifecycle::View;
use crate::storage::partition::TablePartitions;
use crate::storage::schema::TableSchema;
use crate::storage::state::State;

/// A restore, read and checked, ready to add.
#[derive(Debug)]
pub(crate) struct Plan {
    /// The new table as a CreateTable request (what durable mode logs).
    pub create: CreateTableInput,
    items: TablePartitions,
    summary: RestoreSummary,
}

/// The restore of `items` (the source's at the restored instant) into a table `target` shaped
/// like `schema` with `overrides`, checked as CreateTable checks the table it describes.
pub(crate) fn plan(
    schema: &TableSchema,
    items: TablePartitions,
    target: &str,
    overrides: &RestoreOverrides,
    summary: RestoreSummary,
) -> Result<Plan> {
    let billing_mode = overrides.billing_mode_override.or(schema.billing_mode);
    let on_demand = billing_mode == Some(BillingMode::PayPerRequest);
    let global_secondary_indexes = kept_indexes(
        &schema.global_secondary_indexes,
        overrides.global_secondary_index_override.as_deref(),
        "GlobalSecondaryIndexOverride",
        |i| (&i.index_name, &i.key_schema),
    )?
    .into_iter()
    .map(|(source, given)| GlobalSecondaryIndex {
        provisioned_throughput: if on_demand {
            None
        } else {
            given
                .and_then(|g| g.provisioned_throughput)
                .or(source.provisioned_throughput)
        },
        ..source.clone()
    })
    .collect::<Vec<_>>();
    let local_secondary_indexes: Vec<LocalSecondaryIndex> = kept_indexes(
        &schema.local_secondary_indexes,
        overrides.local_secondary_index_override.as_deref(),
        "LocalSecondaryIndexOverride",
        |i| (&i.index_name, &i.key_schema),
    )?
    .into_iter()
    .map(|(source, _)| source.clone())
    .collect();
    let used: BTreeSet<&str> = schema
        .key_schema
        .iter()
        .chain(global_secondary_indexes.iter().flat_map(|i| &i.key_schema))
        .chain(local_secondary_indexes.iter().flat_map(|i| &i.key_schema))
        .map(|k| k.attribute_name.as_str())
        .collect();
    let attribute_definitions: Vec<AttributeDefinition> = schema
        .attribute_definitions
        .iter()
        .filter(|d| used.contains(d.attribute_name.as_str()))
        .cloned()
        .collect();
    let create = CreateTableInput {
        table_name: target.to_owned(),
        attribute_definitions,
        key_schema: schema.key_schema.clone(),
        billing_mode,
        provisioned_throughput: if on_demand {
            None
        } else {
            overrides
                .provisioned_throughput_override
                .or(schema.provisioned_throughput)
        },
        local_secondary_indexes,
        global_secondary_indexes,
        stream_specification: None,
        table_class: schema.table_class,
        deletion_protection_enabled: None,
        tags: Vec::new(),
    };
    crate::ops::create::create_table(&create)?;
    Ok(Plan {
        create,
        items,
        summary,
    })
}

/// The source's indexes a restore keeps: all of them without an override, else those the override
/// names (each must be one of the source's, with its key schema), paired with the override's entry.
fn kept_indexes<'a, I>(
    source: &'a [I],
    given: Option<&'a [I]>,
    member: &str,
    id: impl Fn(&I) -> (&String, &Vec<dynomodel::backend::KeySchemaElement>),
) -> Result<Vec<(&'a I, Option<&'a I>)>> {
    let Some(given) = given else {
        return Ok(source.iter().map(|i| (i, None)).collect());
    };
    given
        .iter()
        .map(|g| {
            let (name, keys) = id(g);
            source
                .iter()
                .find(|s| id(s) == (name, keys))
                .map(|s| (s, Some(g)))
                .ok_or_else(|| {
                    Error::validation(format!(
                        "{member}: index {name} is not an index of the source table with this \
                         key schema"
                    ))
                })
        })
        .collect()
}

impl State {
    /// Adds the table a restore [`plan`]ned: `TableAlreadyExistsException` when a table of its
    /// name exists, `TableInUseException` while one is being created or deleted.
    pub(crate) fn restore(
        &mut self,
        plan: Plan,
        throughput: &Throughput,
    ) -> Result<TableDescription> {
        let now = self.clock().now();
        self.forget_gone_tables(now);
        let name = plan.create.table_name.clone();
        if let Some(existing) = self.existing_table(&name) {
            let life = &existing.lifecycle;
            if life.creating_table(&View::at(now)) || life.deleting_table() {
                return Err(service_error(
                    "TableInUseException",
                    format!("Table is being created or deleted: {name}"),
                ));
            }
            return Err(service_error(
                "TableAlreadyExistsException",
                format!("Table already exists: {name}"),
            ));
        }
        if self.has_table(&name) {
            return Err(service_error(
                "TableInUseException",
                format!("Table is being deleted: {name}"),
            ));
        }
        let Plan {
            create,
            items,
            summary,
        } = plan;
        let created = self.add_table(create, now, throughput, |table| {
            table.lifecycle.restored = Some(summary);
            for ((_, hash), partition) in &items {
                for (range, stored) in partition {
                    let key = PrimaryKey {
                        hash: hash.clone(),
                        range: range.clone(),
                    };
                    table.put(key, stored.decode());
                }
            }
        });
        Ok(created.table_description)
    }
}
