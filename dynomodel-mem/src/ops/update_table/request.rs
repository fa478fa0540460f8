//! UpdateTable's checks that need no table: parameter constraints, an update that names nothing, the
//! shape of each index action, and which changes may share a request.
//!
//! Sources: the parameter constraints and "Given value ... is out of bounds" as dynalite recorded them
//! on the live service; the rest from the ack-api-quirks lab's catalogue of live-service messages
//! (ValidationException catalogue DDB-TABLE-442 and the index findings DDB-TABLE-015, 160, 174,
//! recorded in 2026). DynamoDB Local 3.3 answers "Nothing to update" to an update that names nothing.

use std::collections::BTreeSet;

use dynomodel::backend::{GlobalSecondaryIndexUpdate, UpdateTableInput};
use dynomodel::Result;

use crate::ops::create::{capacity_bounds, invalid, key_schema_length, throughput_bounds};
use crate::validate::{self, Constraints};

/// The live service's answer to an UpdateTable that changes nothing (DDB-TABLE-015, 2026). The list
/// names every member that could have made the request valid.
pub(crate) const NOTHING_TO_UPDATE: &str = "At least one of ProvisionedThroughput, BillingMode, \
    UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, \
    MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, \
    DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required";

/// The name an index action names.
pub(super) fn index_name(update: &GlobalSecondaryIndexUpdate) -> &str {
    match update {
        GlobalSecondaryIndexUpdate::Create(c) => &c.index_name,
        GlobalSecondaryIndexUpdate::Update(u) => &u.index_name,
        GlobalSecondaryIndexUpdate::Delete { index_name } => index_name,
    }
}

/// Whether an index action creates or deletes an index (an "online index" operation).
pub(super) fn is_online(update: &GlobalSecondaryIndexUpdate) -> bool {
    !matches!(update, GlobalSecondaryIndexUpdate::Update(_))
}

/// Parameter constraints: the smithy "N validation error(s) detected" message.
fn constraints(input: &UpdateTableInput) -> Result<()> {
    let mut c = Constraints::default();
    c.name(&input.table_name, "tableName");
    throughput_bounds(
        &mut c,
        &input.provisioned_throughput,
        "provisionedThroughput",
    );
    for (i, update) in input.global_secondary_index_updates.iter().enumerate() {
        let path = format!("globalSecondaryIndexUpdates.{}.member", i + 1);
        match update {
            GlobalSecondaryIndexUpdate::Create(index) => {
                let path = format!("{path}.create");
                c.name(&index.index_name, &format!("{path}.indexName"));
                key_schema_length(&mut c, &index.key_schema, &format!("{path}.keySchema"));
                throughput_bounds(
                    &mut c,
                    &index.provisioned_throughput,
                    &format!("{path}.provisionedThroughput"),
                );
            }
            GlobalSecondaryIndexUpdate::Update(action) => {
                let path = format!("{path}.update");
                c.name(&action.index_name, &format!("{path}.indexName"));
                throughput_bounds(
                    &mut c,
                    &Some(action.provisioned_throughput),
                    &format!("{path}.provisionedThroughput"),
                );
            }
            GlobalSecondaryIndexUpdate::Delete { index_name } => {
                c.name(index_name, &format!("{path}.delete.indexName"));
            }
        }
    }
    c.finish()
}

/// Everything UpdateTable checks before it looks at the table.
pub(super) fn check(input: &UpdateTableInput) -> Result<()> {
    validate::table_name(&input.table_name).or_else(|e| {
        // As for CreateTable: the short length message wins, a bad character joins the constraints.
        if e.message() == validate::TABLE_NAME_LENGTH {
            Err(e)
        } else {
            Ok(())
        }
    })?;
    constraints(input)?;
    // An empty GlobalSecondaryIndexUpdates counts as absent here (DDB-TABLE-359), and so do
    // AttributeDefinitions alone (DDB-TABLE-162).
    let changes_something = input.billing_mode.is_some()
        || input.provisioned_throughput.is_some()
        || !input.global_secondary_index_updates.is_empty()
        || input.stream_specification.is_some()
        || input.table_class.is_some()
        || input.deletion_protection_enabled.is_some();
    if !changes_something {
        return Err(dynomodel::Error::validation(NOTHING_TO_UPDATE));
    }
    if let Some(t) = &input.provisioned_throughput {
        capacity_bounds(t)?;
    }
    let mut names = BTreeSet::new();
    for update in &input.global_secondary_index_updates {
        let name = index_name(update);
        if !names.insert(name) {
            return Err(invalid(format!(
                "Only one global secondary index update per index is allowed simultaneously. Index: \
                 {name}"
            )));
        }
        if let GlobalSecondaryIndexUpdate::Create(index) = update {
            crate::ops::create::projection_shape(&index.projection)?;
        }
    }
    if let Some(spec) = &input.stream_specification {
        if spec.stream_enabled && spec.stream_view_type.is_none() {
            // DynamoDB Local 3.3: "Invalid StreamViewType: Stream ViewType must not be null or empty
            // when enabling streams."
            return Err(invalid(
                "If stream is being enabled then UpdateViewType is required",
            ));
        }
        if !spec.stream_enabled && spec.stream_view_type.is_some() {
            // DynamoDB Local 3.3: "Invalid StreamViewType: Stream StreamEnabled was false but a
            // StreamViewType was present."
            return Err(invalid(
                "If stream is being disabled, then UpdateViewType must not be specified",
            ));
        }
    }
    combinations(input)
}

/// Which changes may share one request (DDB-TABLE-174 and the catalogue): deletion protection and the
/// table class only alone; index creation or deletion neither with a table throughput change nor with
/// a stream change; a stream change not with a throughput change. A billing-mode switch may join an
/// index creation.
fn combinations(input: &UpdateTableInput) -> Result<()> {
    let online = input.global_secondary_index_updates.iter().any(is_online);
    let iops = input.provisioned_throughput.is_some();
    let stream = input.stream_specification.is_some();
    let others = |own: usize| {
        [
            input.billing_mode.is_some(),
            iops,
            !input.global_secondary_index_updates.is_empty(),
            stream,
            input.table_class.is_some(),
            input.deletion_protection_enabled.is_some(),
        ]
        .iter()
        .enumerate()
        .any(|(i, set)| i != own && *set)
    };
    if input.deletion_protection_enabled.is_some() && others(5) {
        return Err(invalid(
            "DeletionProtection modification must be the only operation in the request",
        ));
    }
    if input.table_class.is_some() && others(4) {
        return Err(invalid(
            "TableClass modification must be the only operation in the request",
        ));
    }
    if online && iops {
        return Err(invalid(
            "You cannot create or delete index while updating table IOPS",
        ));
    }
    if online && stream {
        return Err(invalid(
            "You cannot create or delete index while changing stream status",
        ));
    }
    if stream && (iops || input.billing_mode.is_some()) {
        return Err(invalid(
            "You cannot modify stream status while updating table IOPS",
        ));
    }
    Ok(())
}
