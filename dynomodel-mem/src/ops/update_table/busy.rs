//! What a table refuses while a change is in progress: UpdateTable's and DeleteTable's
//! `ResourceInUseException`s, and the one-online-index rule (`LimitExceededException`).
//!
//! Messages: the ack-api-quirks lab's ResourceInUseException catalogue (DDB-TABLE-444) and index
//! findings (DDB-TABLE-149, 159, 375, 376, 458), recorded on the live service in 2026; "Index is being
//! updated" also in Terraform's issue #13243 (2017). DynamoDB Local 3.3 finishes every change at once
//! (or nearly), so it rarely answers any of these.

use dynomodel::backend::{BillingMode, GlobalSecondaryIndexUpdate, UpdateTableInput};
use dynomodel::{Error, Result};

use super::request::{index_name, is_online};
use crate::storage::lifecycle::{IndexChange, TableChange, View};
use crate::storage::table::Table;

/// The prefix of every regional table's ResourceInUseException for a change in progress.
const IN_USE: &str = "Attempt to change a resource which is still in use: ";

/// More than one index created or deleted at once (per request, or while another is in progress):
/// the live service's LimitExceededException (dynalite's recording; DDB-TABLE-159).
pub(super) const ONE_ONLINE_INDEX: &str =
    "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table";

fn in_use(detail: impl std::fmt::Display) -> Error {
    Error::ResourceInUse {
        message: format!("{IN_USE}{detail}"),
    }
}

/// DynamoDB's `LimitExceededException`.
pub(super) fn limit_exceeded(message: impl Into<String>) -> Error {
    Error::Service {
        code: "LimitExceededException".into(),
        message: message.into(),
    }
}

/// Whether the request changes the table's capacity ("IOPS"): a throughput, or a billing mode other
/// than the current one (re-sending PAY_PER_REQUEST to an on-demand table is admitted while an index
/// is being deleted, DDB-TABLE-375).
fn changes_iops(table: &Table, input: &UpdateTableInput) -> bool {
    input.provisioned_throughput.is_some()
        || input
            .billing_mode
            .is_some_and(|m| (m == BillingMode::PayPerRequest) != table.schema.is_on_demand())
}

/// UpdateTable's refusals while `table` has a change in progress at `view`.
pub(super) fn update_table(table: &Table, input: &UpdateTableInput, view: &View) -> Result<()> {
    let name = &table.schema.name;
    let life = &table.lifecycle;
    table_status(table, view)?;
    let online: Vec<&GlobalSecondaryIndexUpdate> = input
        .global_secondary_index_updates
        .iter()
        .filter(|u| is_online(u))
        .collect();
    if online.len() > 1 {
        return Err(limit_exceeded(ONE_ONLINE_INDEX));
    }
    let only_deletion_protection = input.deletion_protection_enabled.is_some()
        && input.global_secondary_index_updates.is_empty()
        && input.billing_mode.is_none()
        && input.provisioned_throughput.is_none()
        && input.stream_specification.is_none()
        && input.table_class.is_none();
    if only_deletion_protection {
        // Admitted even while an index is being deleted (DDB-TABLE-376) or allocated (DDB-TABLE-458).
        return Ok(());
    }
    match life.table_change(view) {
        Some(TableChange::Iops) => {
            return Err(in_use(format!(
                "Table IOPS are currently being updated. Table: {name}"
            )))
        }
        Some(TableChange::Stream { label, enabling }) => {
            let op = if *enabling { "ENABLE" } else { "DISABLE" };
            return Err(in_use(format!(
                "A stream status change is currently in progress. Table: {name} Stream: {label} \
                 Operation: {op}"
            )));
        }
        Some(TableChange::TableClass) => {
            let class = table
                .schema
                .table_class
                .map_or("STANDARD", dynomodel::backend::TableClass::as_str);
            return Err(in_use(format!(
                "Can't update table class when a table class update is in progress. Table: {name} \
                 TableClassUpdateInProgress: {class}"
            )));
        }
        None => {}
    }
    let creating = life.creating(view);
    let deleting: Vec<String> = life
        .deleting(view)
        .map(|d| d.description.index_name.clone())
        .collect();
    if let Some(update) = online.first() {
        let target = index_name(update);
        let deletes_a_new_index = matches!(update, GlobalSecondaryIndexUpdate::Delete { .. })
            && creating.iter().any(|c| c == target);
        if deletes_a_new_index {
            // A new index can be deleted once it is backfilling, not while it is allocated.
            if let Some((_, t)) = life.index_change(target, view)
                && view.allocating(&t)
            {
                return Err(in_use(format!(
                    "Index creation is in resource allocation phase. Retry deletion during \
                     backfilling phase or when the index is active. Table: {name} Index: {target}"
                )));
            }
        }
        let others_busy = creating.iter().any(|c| c != target) || !deleting.is_empty();
        if others_busy || (!creating.is_empty() && !deletes_a_new_index) {
            return Err(limit_exceeded(ONE_ONLINE_INDEX));
        }
    }
    if changes_iops(table, input) {
        if !creating.is_empty() {
            return Err(in_use(format!(
                "Can't change table IOPS when an index is being created. Table: {name} Indexes: [{}]",
                creating.join(", ")
            )));
        }
        if !deleting.is_empty() {
            return Err(in_use(format!(
                "Can't change table IOPS when an index is being deleted. Table: {name} Indexes: [{}]",
                deleting.join(", ")
            )));
        }
    }
    if input.stream_specification.is_some() && !creating.is_empty() {
        return Err(in_use(
            "Can't change stream status when an index is being created",
        ));
    }
    for update in &input.global_secondary_index_updates {
        let GlobalSecondaryIndexUpdate::Update(action) = update else {
            continue;
        };
        let index = &action.index_name;
        if deleting.contains(index) {
            return Err(in_use(format!(
                "Index is being deleted. Table: {name} Index: {index}"
            )));
        }
        match life.index_change(index, view) {
            Some((IndexChange::Updating, _)) => {
                return Err(in_use(format!(
                    "Index is being updated. Table: {name} Index: {index}"
                )))
            }
            // Two spaces before "Index:", as recorded.
            Some((IndexChange::Creating, t)) if view.allocating(&t) => {
                return Err(in_use(format!(
                    "Index is being created but is not backfilling yet. Table: {name}  Index: {index}"
                )))
            }
            _ => {}
        }
    }
    Ok(())
}

/// UpdateTable's and DeleteTable's refusal of a table that is being created or deleted: "Table is being
/// created: <name>" (dynalite's recording of DeleteTable; the catalogue DDB-TABLE-444 for both
/// operations) and "Table is being deleted: <name>" (DDB-TABLE-444).
fn table_status(table: &Table, view: &View) -> Result<()> {
    let name = &table.schema.name;
    if table.lifecycle.deleting_table() {
        return Err(in_use(format!("Table is being deleted: {name}")));
    }
    if table.lifecycle.creating_table(view) {
        return Err(in_use(format!("Table is being created: {name}")));
    }
    Ok(())
}

/// DeleteTable's refusals: a table being created, deletion protection (a ValidationException, the
/// same text on DynamoDB Local 3.3 and in the catalogue DDB-TABLE-442), then changes in progress.
pub(crate) fn delete_table(table: &Table, view: &View) -> Result<()> {
    table_status(table, view)?;
    if table.schema.deletion_protection_enabled {
        return Err(Error::validation(
            "Resource cannot be deleted as it is currently protected against deletion. Disable \
             deletion protection first.",
        ));
    }
    let life = &table.lifecycle;
    let index_busy = table
        .schema
        .global_secondary_indexes
        .iter()
        .any(|i| life.index_change(&i.index_name, view).is_some())
        || life.deleting(view).next().is_some();
    if index_busy {
        return Err(in_use(
            "Cannot delete table while indexes are being created, updated, or deleted.",
        ));
    }
    match life.table_change(view) {
        Some(TableChange::Stream { .. }) => Err(in_use(
            "Cannot delete table while stream is being enabled/disabled.",
        )),
        Some(_) => Err(in_use(format!(
            "Table: {} is in the process of being updated.",
            table.schema.name
        ))),
        None => Ok(()),
    }
}
