//! UpdateTable on the wire.
//!
//! Every member constraint of botocore's model (names' patterns and lengths, required members, enums,
//! `PositiveLongObject` capacities, list lengths) is checked before decoding, by `model`, in the smithy
//! form and at the paths DynamoDB uses, as recorded against the service in dynalite's
//! `test/updateTable.js` (e.g. "Value 'a' at 'globalSecondaryIndexUpdates.1.member.update.indexName'
//! failed to satisfy constraint: Member must have length greater than or equal to 3"). Everything that needs the table (one index change per
//! request, attribute definitions, no-op updates, throughput bounds and billing rules, states) is the
//! backend's.
//!
//! `TableName` is the model's `TableArn` (a name or an ARN, 1–1024 characters); the 3–255 characters and
//! the pattern of a table name are the backend's checks, with its messages.
//!
//! A `GlobalSecondaryIndexUpdates` element is a structure with three optional members, not a union:
//! - none of them: DynamoDB's "One or more parameter values were invalid: One of
//!   GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create,
//!   GlobalSecondaryIndexUpdate.Delete must not be null" (dynalite's recording), reported after the
//!   constraints;
//! - several: each one is an update of its own, in the model's member order (Update, Create, Delete),
//!   so that the backend's rules answer as they do for separate elements — as DynamoDB Local 3.3.1 does
//!   (probed: `{Create, Delete}` in one element is "Subscriber limit exceeded: Only 1 online index can be
//!   created or deleted simultaneously per table"; `{Update, Delete}` of one index applies both).

use dynomodel::backend::{
    AttributeDefinition, Backend, GlobalSecondaryIndex, GlobalSecondaryIndexUpdate,
    ProvisionedThroughput, UpdateGlobalSecondaryIndexAction, UpdateTableInput,
};
use serde_json::{json, Map, Value};

use super::description::table_description;
use super::table::{
    key_schema, projection, stream_specification, throughput, ATTRIBUTE_TYPES, BILLING_MODES,
    TABLE_CLASSES,
};
use super::{Decoder, Members, WireResult};

/// DynamoDB's message for a `GlobalSecondaryIndexUpdates` element with none of its three actions.
pub(super) const NO_ACTION: &str = "One or more parameter values were invalid: One of \
     GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, \
     GlobalSecondaryIndexUpdate.Delete must not be null";

/// `TableName` of the operations whose `TableName` is the model's `TableArn` (required; its 1–1024
/// characters were checked before decoding, by `model`).
pub(super) fn table_arn(m: &Members<'_>, d: &mut Decoder) -> WireResult<String> {
    m.required_string("TableName", d)
}

/// A required `IndexName` (its pattern and length: `model`).
fn index_name(m: &Members<'_>, d: &mut Decoder) -> WireResult<String> {
    m.required_string("IndexName", d)
}

/// A required attribute name (its 1–255 characters: `model`).
fn attribute_name(m: &Members<'_>, d: &mut Decoder) -> WireResult<String> {
    m.required_string("AttributeName", d)
}

fn create_action(c: Members<'_>, d: &mut Decoder) -> WireResult<GlobalSecondaryIndex> {
    let index_name = index_name(&c, d)?;
    let keys = key_schema(&c, d)?;
    let projection = projection(&c, d)?;
    Ok(GlobalSecondaryIndex {
        index_name,
        key_schema: keys,
        projection,
        provisioned_throughput: throughput(&c, d)?,
    })
}

fn update_action(u: Members<'_>, d: &mut Decoder) -> WireResult<UpdateGlobalSecondaryIndexAction> {
    let index_name = index_name(&u, d)?;
    // Required in the backend's type; the service reports it missing as a null constraint (dynalite's
    // recording: "Value null at 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput'").
    let provisioned_throughput = match throughput(&u, d)? {
        Some(t) => t,
        None => {
            d.null(&u.path_of("ProvisionedThroughput"));
            ProvisionedThroughput {
                read_capacity_units: 0,
                write_capacity_units: 0,
            }
        }
    };
    Ok(UpdateGlobalSecondaryIndexAction {
        index_name,
        provisioned_throughput,
    })
}

/// One `GlobalSecondaryIndexUpdates` element: its actions in the model's order (see the module's
/// documentation for none and several).
fn index_updates(e: Members<'_>, d: &mut Decoder) -> WireResult<Vec<GlobalSecondaryIndexUpdate>> {
    let mut updates = Vec::new();
    if let Some(u) = e.structure("Update")? {
        updates.push(GlobalSecondaryIndexUpdate::Update(update_action(u, d)?));
    }
    if let Some(c) = e.structure("Create")? {
        updates.push(GlobalSecondaryIndexUpdate::Create(create_action(c, d)?));
    }
    if let Some(del) = e.structure("Delete")? {
        let index_name = index_name(&del, d)?;
        updates.push(GlobalSecondaryIndexUpdate::Delete { index_name });
    }
    if updates.is_empty() {
        d.custom(NO_ACTION);
    }
    Ok(updates)
}

pub(super) async fn update_table(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let attribute_definitions = m
        .each("AttributeDefinitions", &mut d, |e, d| {
            let attribute_name = attribute_name(&e, d)?;
            let ty = e.required_enumeration("AttributeType", ATTRIBUTE_TYPES, d)?;
            Ok(ty.map(|attribute_type| AttributeDefinition {
                attribute_name,
                attribute_type,
            }))
        })?
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    let table_name = table_arn(&m, &mut d)?;
    let billing_mode = m.enumeration("BillingMode", BILLING_MODES, &mut d)?;
    let provisioned_throughput = throughput(&m, &mut d)?;
    let global_secondary_index_updates = m
        .each("GlobalSecondaryIndexUpdates", &mut d, index_updates)?
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect();
    let stream_specification = stream_specification(&m, &mut d)?;
    let table_class = m.enumeration("TableClass", TABLE_CLASSES, &mut d)?;
    let deletion_protection_enabled = m.boolean("DeletionProtectionEnabled")?;
    let input = d.finish(UpdateTableInput {
        table_name,
        attribute_definitions,
        billing_mode,
        provisioned_throughput,
        global_secondary_index_updates,
        stream_specification,
        table_class,
        deletion_protection_enabled,
    })?;
    let out = backend.update_table(input).await?;
    Ok(json!({ "TableDescription": table_description(&out.table_description) }))
}
