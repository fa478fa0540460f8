//! TransactGetItems and TransactWriteItems on the wire.
//!
//! What DynamoDB sends back, and where that is recorded:
//!
//! - TransactGetItems: `{"Responses": [{"Item": {…}}, {}, …]}`, one entry per `Get` in request order,
//!   `{}` for a key without an item (API reference, `ItemResponse`; DynamoDB Local 3.3.1 answers the
//!   same).
//! - TransactWriteItems: `{}`.
//! - A cancelled transaction is `TransactionCanceledException` with `CancellationReasons` (encoded in
//!   `error.rs`).
//!
//! What is checked here, in DynamoDB's order (see [`super::Decoder`]):
//!
//! 1. Types (`SerializationException`): `TransactItems` a list of structures, each action a
//!    structure, `Key`/`Item`/`ExpressionAttributeValues` maps of attribute values, expressions and
//!    `ClientRequestToken` strings (dynalite's `test/transactWriteItem.js` `assertType` cases).
//! 2. Member constraints: the enums `ReturnConsumedCapacity`, `ReturnItemCollectionMetrics` and each
//!    action's `ReturnValuesOnConditionCheckFailure`, and the members botocore's service model marks
//!    required, at their smithy paths: `transactItems`, `transactItems.1.member.get` (a
//!    `TransactGetItem` without `Get`), `….get.key`, `….get.tableName`, `….put.item`,
//!    `….put.tableName`, `….update.key`, `….update.updateExpression`, `….update.tableName`,
//!    `….delete.key`, `….delete.tableName`, `….conditionCheck.key`, `….conditionCheck.tableName`,
//!    `….conditionCheck.conditionExpression` (DynamoDB Local 3.3.1 reports `put.tableName` and
//!    `conditionCheck.conditionExpression` with these paths; it accepts an `Update` without
//!    `UpdateExpression`, which the model and the service do not). Within an action, members are
//!    reported in the model's order; when one element sets several actions (itself an error), they
//!    are reported Update, Delete, Put, ConditionCheck, the reverse of the model's order, as DynamoDB
//!    reports a `WriteRequest`'s members (dynalite records `delete.key` before `put.item`). A JSON
//!    `null` element is reported at its own path (`transactItems.1.member`), the wire layer's rule for
//!    null list elements.
//! 3. The first operation-specific message: a `TransactWriteItem` with no action is "Invalid Request:
//!    TransactWriteRequest should contain Delete or Put or Update request", one with several is
//!    "TransactItems can only contain one of Check, Put, Update or Delete" (both DynamoDB Local 3.3.1's;
//!    the second is also what the service answered in moto's issue 5496, fixed by moto PR 5521); then
//!    attribute values ([`super::value`]).
//!
//! Members outside the model (e.g. a legacy `Expected` inside an action) are ignored, as DynamoDB
//! ignores unknown members. Everything that can be checked on the typed request (the 100-action limit,
//! table names, the token's length, one action per item, key schemas, sizes, expressions) is the
//! backend's job, so that Rust users of [`dynomodel_mem::MemBackend`](crate::MemBackend) get it too.

use dynomodel::{
    Backend, TransactConditionCheck, TransactDelete, TransactGet, TransactGetItemsInput,
    TransactPut, TransactUpdate, TransactWriteItem, TransactWriteItemsInput,
};
use serde_json::{json, Map, Value};

use super::item::{
    names, optional_item, required_item, ON_CONDITION_FAILURE, RETURN_CONSUMED_CAPACITY,
    RETURN_ITEM_COLLECTION_METRICS,
};
use super::types::{list, structure};
use super::value::item_to_json;
use super::{Decoder, Members, WireResult};

/// A `TransactWriteItem` that sets none of its actions (DynamoDB Local 3.3.1's text).
pub const NO_ACTION: &str =
    "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request";
/// A `TransactWriteItem` that sets more than one action (DynamoDB Local 3.3.1; the service's answer in
/// moto issue 5496).
pub const SEVERAL_ACTIONS: &str =
    "TransactItems can only contain one of Check, Put, Update or Delete";

/// The structures of `TransactItems` with their paths (`transactItems.1.member`); a `null` element is
/// recorded and skipped, and an absent list is recorded as a null constraint.
fn elements_of<'a>(m: &Members<'a>, d: &mut Decoder) -> WireResult<Vec<(String, Members<'a>)>> {
    let Some(elements) = m.get("TransactItems").map(list).transpose()?.flatten() else {
        d.null("transactItems");
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(elements.len());
    for (i, element) in elements.iter().enumerate() {
        let path = format!("transactItems.{}.member", i + 1);
        match structure(element)? {
            Some(fields) => out.push((path, Members::new(fields))),
            None => d.null(&path),
        }
    }
    Ok(out)
}

/// The action structure `name` of a transaction element, when present.
fn action<'a>(element: &Members<'a>, name: &str) -> WireResult<Option<Members<'a>>> {
    Ok(element
        .get(name)
        .map(structure)
        .transpose()?
        .flatten()
        .map(Members::new))
}

pub(super) async fn transact_get_items(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    m.enumeration("ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY, &mut d)?;
    let mut transact_items = Vec::new();
    for (path, element) in elements_of(&m, &mut d)? {
        let Some(get) = action(&element, "Get")? else {
            d.null(&format!("{path}.get"));
            continue;
        };
        let p = format!("{path}.get");
        transact_items.push(TransactGet {
            key: required_item(&get, "Key", &format!("{p}.key"), &mut d)?,
            table_name: get.required_string_at("TableName", &format!("{p}.tableName"), &mut d)?,
            projection_expression: get.string("ProjectionExpression")?,
            expression_attribute_names: names(&get)?,
        });
    }
    let input = d.finish(TransactGetItemsInput { transact_items })?;
    let out = backend.transact_get_items(input).await?;
    Ok(json!({ "Responses": responses_json(&out.responses) }))
}

/// `Responses` of TransactGetItems: `{"Item": …}` per item found, `{}` per key without one.
pub(super) fn responses_json(responses: &[Option<dynomodel::Item>]) -> Value {
    Value::Array(
        responses
            .iter()
            .map(|found| match found {
                Some(item) => json!({ "Item": item_to_json(item) }),
                None => json!({}),
            })
            .collect(),
    )
}

/// The members every write action shares besides its key or item.
struct Common {
    condition_expression: Option<String>,
    names: Option<dynomodel::ExpressionAttributeNames>,
    values: Option<dynomodel::ExpressionAttributeValues>,
    on_failure: Option<dynomodel::ReturnValuesOnConditionCheckFailure>,
}

/// `TableName` (required) and the members after it in the model's order; `p` is the action's path.
fn table_and_common(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<(String, Common)> {
    let table_name = a.required_string_at("TableName", &format!("{p}.tableName"), d)?;
    Ok((table_name, common(a, p, d)?))
}

fn common(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<Common> {
    Ok(Common {
        condition_expression: a.string("ConditionExpression")?,
        names: names(a)?,
        values: optional_item(a, "ExpressionAttributeValues", d)?,
        on_failure: a.enumeration_at(
            "ReturnValuesOnConditionCheckFailure",
            &format!("{p}.returnValuesOnConditionCheckFailure"),
            ON_CONDITION_FAILURE,
            d,
        )?,
    })
}

fn update(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<TransactWriteItem> {
    let key = required_item(a, "Key", &format!("{p}.key"), d)?;
    let update_expression =
        a.required_string_at("UpdateExpression", &format!("{p}.updateExpression"), d)?;
    let (table_name, c) = table_and_common(a, p, d)?;
    Ok(TransactWriteItem::Update(TransactUpdate {
        table_name,
        key,
        update_expression,
        condition_expression: c.condition_expression,
        expression_attribute_names: c.names,
        expression_attribute_values: c.values,
        return_values_on_condition_check_failure: c.on_failure,
    }))
}

fn delete(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<TransactWriteItem> {
    let key = required_item(a, "Key", &format!("{p}.key"), d)?;
    let (table_name, c) = table_and_common(a, p, d)?;
    Ok(TransactWriteItem::Delete(TransactDelete {
        table_name,
        key,
        condition_expression: c.condition_expression,
        expression_attribute_names: c.names,
        expression_attribute_values: c.values,
        return_values_on_condition_check_failure: c.on_failure,
    }))
}

fn put(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<TransactWriteItem> {
    let item = required_item(a, "Item", &format!("{p}.item"), d)?;
    let (table_name, c) = table_and_common(a, p, d)?;
    Ok(TransactWriteItem::Put(TransactPut {
        table_name,
        item,
        condition_expression: c.condition_expression,
        expression_attribute_names: c.names,
        expression_attribute_values: c.values,
        return_values_on_condition_check_failure: c.on_failure,
    }))
}

fn condition_check(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<TransactWriteItem> {
    let key = required_item(a, "Key", &format!("{p}.key"), d)?;
    let table_name = a.required_string_at("TableName", &format!("{p}.tableName"), d)?;
    let condition_expression = a.required_string_at(
        "ConditionExpression",
        &format!("{p}.conditionExpression"),
        d,
    )?;
    let c = common(a, p, d)?;
    Ok(TransactWriteItem::ConditionCheck(TransactConditionCheck {
        table_name,
        key,
        condition_expression,
        expression_attribute_names: c.names,
        expression_attribute_values: c.values,
        return_values_on_condition_check_failure: c.on_failure,
    }))
}

type ActionDecoder = fn(&Members<'_>, &str, &mut Decoder) -> WireResult<TransactWriteItem>;

/// The actions of a `TransactWriteItem`, in the order DynamoDB reports their errors, with the name of
/// each one's path segment.
const ACTIONS: [(&str, &str, ActionDecoder); 4] = [
    ("Update", "update", update),
    ("Delete", "delete", delete),
    ("Put", "put", put),
    ("ConditionCheck", "conditionCheck", condition_check),
];

pub(super) async fn transact_write_items(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    m.enumeration("ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY, &mut d)?;
    m.enumeration(
        "ReturnItemCollectionMetrics",
        RETURN_ITEM_COLLECTION_METRICS,
        &mut d,
    )?;
    let client_request_token = m.string("ClientRequestToken")?;
    let mut transact_items = Vec::new();
    for (path, element) in elements_of(&m, &mut d)? {
        // The element's shape before the values in it, like a BatchWriteItem's `WriteRequest`.
        let set = ACTIONS
            .iter()
            .filter(|(name, ..)| element.get(name).is_some())
            .count();
        match set {
            0 => d.custom(NO_ACTION),
            1 => {}
            _ => d.custom(SEVERAL_ACTIONS),
        }
        for (name, segment, decode) in ACTIONS {
            if let Some(a) = action(&element, name)? {
                let decoded = decode(&a, &format!("{path}.{segment}"), &mut d)?;
                if set == 1 {
                    transact_items.push(decoded);
                }
            }
        }
    }
    let input = d.finish(TransactWriteItemsInput {
        transact_items,
        client_request_token,
    })?;
    backend.transact_write_items(input).await?;
    Ok(json!({}))
}
