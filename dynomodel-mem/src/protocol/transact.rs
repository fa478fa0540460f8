//! TransactGetItems and TransactWriteItems on the wire.
//!
//! What DynamoDB sends back, and where that is recorded:
//!
//! - TransactGetItems: `{"Responses": [{"Item": {…}}, {}, …]}`, one entry per `Get` in request order,
//!   `{}` for a key without an item (API reference, `ItemResponse`; DynamoDB Local 3.3.1 answers the
//!   same).
//! - TransactWriteItems: `{}`.
//! - Both: `ConsumedCapacity` (a list, one entry per table) and, on TransactWriteItems,
//!   `ItemCollectionMetrics` (table → list) when the backend reported them (see `capacity.rs`).
//! - A cancelled transaction is `TransactionCanceledException` with `CancellationReasons` (encoded in
//!   `error.rs`).
//!
//! What is checked here, in DynamoDB's order (see [`super::Decoder`]):
//!
//! 1. Types (`SerializationException`): `TransactItems` a list of structures, each action a
//!    structure, `Key`/`Item`/`ExpressionAttributeValues` maps of attribute values, expressions and
//!    `ClientRequestToken` strings (dynalite's `test/transactWriteItem.js` `assertType` cases). The
//!    elements are checked in order, each to the bottom, so of two type errors the first in the body
//!    is reported (dynalite's `checkTypes`).
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

use dynomodel::backend::{
    Backend, ConsumedCapacity, TransactConditionCheck, TransactDelete, TransactGet,
    TransactGetItemsInput, TransactGetItemsOutput, TransactPut, TransactUpdate, TransactWriteItem,
    TransactWriteItemsInput, TransactWriteItemsOutput,
};
use serde_json::{Map, Value};

use super::capacity::{
    consumed_list_member, metrics_per_table_member, return_consumed_capacity,
    return_item_collection_metrics,
};
use super::fast::Predecoded;
use super::item::{names, optional_item, required_item, ON_CONDITION_FAILURE};
use super::json::{Array, Object};
use super::value::write_item;
use super::{each_structure, Decoder, Members, WireResult};

/// A `TransactWriteItem` that sets none of its actions (DynamoDB Local 3.3.1's text).
pub(super) const NO_ACTION: &str =
    "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request";
/// A `TransactWriteItem` that sets more than one action (DynamoDB Local 3.3.1; the service's answer in
/// moto issue 5496).
pub(super) const SEVERAL_ACTIONS: &str =
    "TransactItems can only contain one of Check, Put, Update or Delete";

/// The `TransactItems` of either operation, each element decoded by `decode` (`None` for one that
/// hands the backend nothing, its errors recorded); an absent list is recorded as a null constraint.
fn transact_items<'a, T>(
    m: &Members<'a>,
    d: &mut Decoder,
    decode: impl FnMut(Members<'a>, &mut Decoder) -> WireResult<Option<T>>,
) -> WireResult<Vec<T>> {
    match m.each("TransactItems", d, decode)? {
        Some(items) => Ok(items.into_iter().flatten().collect()),
        None => {
            d.null(&m.path_of("TransactItems"));
            Ok(Vec::new())
        }
    }
}

pub(super) async fn transact_get_items(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = return_consumed_capacity(&m, &mut d)?;
    let transact_items = transact_items(&m, &mut d, |element, d| {
        let Some(get) = element.structure("Get")? else {
            d.null(&element.path_of("Get"));
            return Ok(None);
        };
        Ok(Some(TransactGet {
            key: required_item(&get, "Key", d)?,
            table_name: get.required_string("TableName", d)?,
            projection_expression: get.string("ProjectionExpression")?,
            expression_attribute_names: names(&get, d)?,
        }))
    })?;
    let input = d.finish(TransactGetItemsInput {
        transact_items,
        return_consumed_capacity,
    })?;
    let out = backend.transact_get_items(input).await?;
    Ok(transact_get_response(&out))
}

/// TransactGetItems' response: `Responses` always, `ConsumedCapacity` when reported (in serde_json's
/// order of keys, see `json.rs`).
pub(super) fn transact_get_response(out: &TransactGetItemsOutput) -> Vec<u8> {
    responses_body(&out.responses, &out.consumed_capacity)
}

/// TransactGetItems' and ExecuteTransaction's body: `ConsumedCapacity` when reported, `Responses`.
pub(super) fn responses_body(
    responses: &[Option<dynomodel::Item>],
    consumed: &[ConsumedCapacity],
) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(64 + responses.len() * 256);
    let mut body = Object::begin(&mut bytes);
    consumed_list_member(&mut body, consumed);
    write_responses(body.member("Responses"), responses);
    body.end();
    bytes
}

/// `Responses` of TransactGetItems: `{"Item": …}` per item found, `{}` per key without one.
fn write_responses(out: &mut Vec<u8>, responses: &[Option<dynomodel::Item>]) {
    let mut list = Array::begin(out);
    for found in responses {
        let mut entry = Object::begin(list.element());
        if let Some(item) = found {
            write_item(entry.member("Item"), item);
        }
        entry.end();
    }
    list.end();
}

/// The four actions of a `TransactWriteItem`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Update,
    Delete,
    Put,
    ConditionCheck,
}

impl Action {
    /// In the order DynamoDB reports their errors when one element sets several (see the module docs).
    const ALL: [Action; 4] = [
        Action::Update,
        Action::Delete,
        Action::Put,
        Action::ConditionCheck,
    ];

    /// The action's member in a `TransactWriteItem`.
    fn member(self) -> &'static str {
        match self {
            Action::Update => "Update",
            Action::Delete => "Delete",
            Action::Put => "Put",
            Action::ConditionCheck => "ConditionCheck",
        }
    }

    /// The action whose member is `name`, as its position in [`Action::ALL`].
    fn position(name: &str) -> Option<usize> {
        Action::ALL
            .iter()
            .position(|action| action.member() == name)
    }
}

/// One write action. The four share their members but for three differences: a Put has an `Item`
/// where the others have a `Key`, an Update has an `UpdateExpression`, and a ConditionCheck's
/// `ConditionExpression` is required. Members are decoded, and their errors recorded, in the order of
/// botocore's `Put`, `Update`, `Delete` and `ConditionCheck` shapes: the item or key,
/// `UpdateExpression`, `TableName`, `ConditionExpression`, `ExpressionAttributeNames`,
/// `ExpressionAttributeValues`, `ReturnValuesOnConditionCheckFailure`.
fn write_action(action: Action, a: &Members<'_>, d: &mut Decoder) -> WireResult<TransactWriteItem> {
    let key_member = if action == Action::Put { "Item" } else { "Key" };
    let key = required_item(a, key_member, d)?;
    let update_expression = match action {
        Action::Update => a.required_string("UpdateExpression", d)?,
        _ => String::new(),
    };
    let table_name = a.required_string("TableName", d)?;
    let condition_expression = match action {
        Action::ConditionCheck => Some(a.required_string("ConditionExpression", d)?),
        _ => a.string("ConditionExpression")?,
    };
    let expression_attribute_names = names(a, d)?;
    let expression_attribute_values = optional_item(a, "ExpressionAttributeValues", d)?;
    let return_values_on_condition_check_failure = a.enumeration(
        "ReturnValuesOnConditionCheckFailure",
        ON_CONDITION_FAILURE,
        d,
    )?;
    Ok(match action {
        Action::Update => TransactWriteItem::Update(TransactUpdate {
            table_name,
            key,
            update_expression,
            condition_expression,
            expression_attribute_names,
            expression_attribute_values,
            return_values_on_condition_check_failure,
        }),
        Action::Delete => TransactWriteItem::Delete(TransactDelete {
            table_name,
            key,
            condition_expression,
            expression_attribute_names,
            expression_attribute_values,
            return_values_on_condition_check_failure,
        }),
        Action::Put => TransactWriteItem::Put(TransactPut {
            table_name,
            item: key,
            condition_expression,
            expression_attribute_names,
            expression_attribute_values,
            return_values_on_condition_check_failure,
        }),
        Action::ConditionCheck => TransactWriteItem::ConditionCheck(TransactConditionCheck {
            table_name,
            key,
            // Always `Some`: required above.
            condition_expression: condition_expression.unwrap_or_default(),
            expression_attribute_names,
            expression_attribute_values,
            return_values_on_condition_check_failure,
        }),
    })
}

pub(super) async fn transact_write_items(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = return_consumed_capacity(&m, &mut d)?;
    let return_item_collection_metrics = return_item_collection_metrics(&m, &mut d)?;
    let client_request_token = m.string("ClientRequestToken")?;
    let transact_items = decode_transact_items(&m, &mut d)?;
    let input = d.finish(TransactWriteItemsInput {
        transact_items,
        client_request_token,
        return_consumed_capacity,
        return_item_collection_metrics,
    })?;
    let out = backend.transact_write_items(input).await?;
    Ok(transact_write_response(&out))
}

/// TransactWriteItems' `TransactItems`, decoded.
pub(super) fn decode_transact_items(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Vec<TransactWriteItem>> {
    let Some(elements) = m.list("TransactItems")? else {
        d.null(&m.path_of("TransactItems"));
        return Ok(Vec::new());
    };
    // Past the limit, the one pass read the actions in compact form (`fast::writes`): one marker at
    // the list's end stands for them, each decoded as below would decode it without a message.
    let (elements, past_limit) = match elements.split_last() {
        Some((last, first)) => match d.predecoded.actions(last) {
            Some(past_limit) => (first, Some(past_limit?)),
            None => (elements.as_slice(), None),
        },
        None => (elements.as_slice(), None),
    };
    let path = m.path_of("TransactItems");
    let decoded = each_structure(elements, &path, d, |element, d| {
        // The actions set, found in one walk of the element's members (usually one) rather than a
        // lookup of each action's name, twice.
        let mut actions = [None; 4];
        for (name, value) in element.present() {
            if let Some(position) = Action::position(name) {
                actions[position] = Some(value);
            }
        }
        // The element's shape before the values in it, like a BatchWriteItem's `WriteRequest`.
        let set = actions.iter().flatten().count();
        match set {
            0 => d.custom(NO_ACTION),
            1 => {}
            _ => d.custom(SEVERAL_ACTIONS),
        }
        let mut decoded = None;
        for (action, value) in Action::ALL.into_iter().zip(actions) {
            let Some(value) = value else { continue };
            if let Some(a) = element.nested(action.member(), value)? {
                let item = write_action(action, &a, d)?;
                // Several actions are all decoded, for their errors, but none is handed over.
                if set == 1 {
                    decoded = Some(item);
                }
            }
        }
        Ok(decoded)
    })?;
    Ok(joined(decoded, past_limit))
}

/// The entries decoded (`None` for one that hands the backend nothing) and those read past the
/// limit, in one vector of their size (growing it by the thousands read past the limit copied them
/// again at each doubling).
pub(super) fn joined<T>(decoded: Vec<Option<T>>, past_limit: Option<Vec<T>>) -> Vec<T> {
    let past_limit = past_limit.unwrap_or_default();
    let mut all = Vec::with_capacity(decoded.len() + past_limit.len());
    all.extend(decoded.into_iter().flatten());
    all.extend(past_limit);
    all
}

/// TransactWriteItems' response: `{}`, with `ConsumedCapacity` and `ItemCollectionMetrics` when
/// reported.
pub(super) fn transact_write_response(out: &TransactWriteItemsOutput) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(64);
    let mut body = Object::begin(&mut bytes);
    consumed_list_member(&mut body, &out.consumed_capacity);
    metrics_per_table_member(&mut body, &out.item_collection_metrics);
    body.end();
    bytes
}
