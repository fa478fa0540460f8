//! PutItem, GetItem, DeleteItem, UpdateItem, Query and Scan on the wire.
//!
//! `ReturnConsumedCapacity` and `ReturnItemCollectionMetrics` are handed to the backend, and what it
//! reports is encoded by `capacity.rs`. Member constraints are recorded in the order DynamoDB lists them
//! (dynalite's `test/putItem.js` and `test/deleteItem.js`, recorded against the service):
//! `returnConsumedCapacity` first; then PutItem's `tableName`, `item`, `returnValues`,
//! `returnItemCollectionMetrics`; DeleteItem's `tableName`, `returnValues`,
//! `returnItemCollectionMetrics`, `key`. UpdateItem, whose request has the same members as DeleteItem's
//! but for the update, is given DeleteItem's order (dynalite's later `test/updateItem.js` lists the same
//! five messages without fixing their order). DynamoDB's *legacy* parameters (`Expected`, `AttributesToGet`,
//! `KeyConditions`, …) are decoded by `legacy.rs` and translated by the engine.

use dynomodel::backend::{
    Backend, ConsumedCapacity, DeleteItemInput, ExpressionAttributeNames, GetItemInput,
    ItemCollectionMetrics, PutItemInput, QueryInput, QueryOutput, ReturnConsumedCapacity,
    ReturnValue, ReturnValuesOnConditionCheckFailure, ScanInput, Select, UpdateItemInput,
};
use dynomodel::Item;
use serde_json::{Map, Value};

use super::capacity::{
    consumed_member, metrics_member, return_consumed_capacity, return_item_collection_metrics,
};
use super::fast::Predecoded;
use super::json::{self, Array, Object};
use super::legacy::{
    attribute_updates, attributes_to_get, conditional_operator, conditions, expected,
};
use super::types::{self, string};
use super::value::{parse_item, write_item};
use super::{Decoder, Members, WireResult};

const RETURN_VALUES: &[(&str, ReturnValue)] = &[
    ("ALL_NEW", ReturnValue::AllNew),
    ("UPDATED_OLD", ReturnValue::UpdatedOld),
    ("ALL_OLD", ReturnValue::AllOld),
    ("NONE", ReturnValue::None),
    ("UPDATED_NEW", ReturnValue::UpdatedNew),
];
pub(super) const ON_CONDITION_FAILURE: &[(&str, ReturnValuesOnConditionCheckFailure)] = &[
    ("ALL_OLD", ReturnValuesOnConditionCheckFailure::AllOld),
    ("NONE", ReturnValuesOnConditionCheckFailure::None),
];
const SELECT: &[(&str, Select)] = &[
    ("SPECIFIC_ATTRIBUTES", Select::SpecificAttributes),
    ("COUNT", Select::Count),
    ("ALL_ATTRIBUTES", Select::AllAttributes),
    ("ALL_PROJECTED_ATTRIBUTES", Select::AllProjectedAttributes),
];
/// Members shared by every item operation: `ReturnConsumedCapacity`, the first constraint DynamoDB
/// lists.
fn common(m: &Members<'_>, d: &mut Decoder) -> WireResult<Option<ReturnConsumedCapacity>> {
    return_consumed_capacity(m, d)
}

/// A required item-shaped member (`Item`, `Key`): an absent one is recorded as null at its path.
pub(super) fn required_item(m: &Members<'_>, name: &str, d: &mut Decoder) -> WireResult<Item> {
    match m.get(name) {
        Some(v) => Ok(parse_item(v, d)?.unwrap_or_default()),
        None => {
            d.null(&m.path_of(name));
            Ok(Item::new())
        }
    }
}

/// An optional item-shaped member (`ExpressionAttributeValues`, `ExclusiveStartKey`).
pub(super) fn optional_item(
    m: &Members<'_>,
    name: &str,
    d: &mut Decoder,
) -> WireResult<Option<Item>> {
    match m.get(name) {
        Some(v) => parse_item(v, d),
        None => Ok(None),
    }
}

/// `ExpressionAttributeNames`: a map of strings (`null` entries are absent).
pub(super) fn names(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Option<ExpressionAttributeNames>> {
    let Some(v) = m.get("ExpressionAttributeNames") else {
        return Ok(None);
    };
    // Decoded by the one pass already (`fast::names`)?
    match d.predecoded.names(v) {
        Some(decoded) => decoded.map(Some),
        None => names_in(v),
    }
}

/// The `ExpressionAttributeNames` map `v` of the exact path's tree.
pub(crate) fn names_in(v: &Value) -> WireResult<Option<ExpressionAttributeNames>> {
    let Some(fields) = types::map(v)? else {
        return Ok(None);
    };
    // Built from the map's sorted entries at once rather than by a tree insert per entry.
    fields
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| Ok((k.clone(), string(v)?)))
        .collect::<WireResult<_>>()
        .map(Some)
}

/// A single-item operation's response: `Attributes` (or GetItem's `Item`) when there is one,
/// `ConsumedCapacity` and `ItemCollectionMetrics` when reported, else `{}`. Written in serde_json's
/// order of keys, where `ConsumedCapacity` comes before `Item` but after `Attributes`.
pub(super) fn single_item(
    member: &str,
    item: Option<&Item>,
    consumed: Option<&ConsumedCapacity>,
    metrics: Option<&ItemCollectionMetrics>,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(item.map_or(64, |_| 512));
    let mut body = Object::begin(&mut out);
    let item_first = member < "ConsumedCapacity";
    if item_first {
        item_member(&mut body, member, item);
    }
    consumed_member(&mut body, consumed);
    if !item_first {
        item_member(&mut body, member, item);
    }
    metrics_member(&mut body, metrics);
    body.end();
    out
}

/// The member `name` holding `item`, when there is one.
fn item_member(body: &mut Object<'_>, name: &str, item: Option<&Item>) {
    if let Some(item) = item {
        write_item(body.member(name), item);
    }
}

pub(super) async fn put_item(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = common(&m, &mut d)?;
    let input = PutItemInput {
        table_name: m.required_string("TableName", &mut d)?,
        item: required_item(&m, "Item", &mut d)?,
        return_values: m.enumeration("ReturnValues", RETURN_VALUES, &mut d)?,
        return_item_collection_metrics: return_item_collection_metrics(&m, &mut d)?,
        condition_expression: m.string("ConditionExpression")?,
        expression_attribute_names: names(&m, &mut d)?,
        expression_attribute_values: optional_item(&m, "ExpressionAttributeValues", &mut d)?,
        return_values_on_condition_check_failure: m.enumeration(
            "ReturnValuesOnConditionCheckFailure",
            ON_CONDITION_FAILURE,
            &mut d,
        )?,
        return_consumed_capacity,
        expected: expected(&m, &mut d)?,
        conditional_operator: conditional_operator(&m, &mut d)?,
    };
    let input = d.finish(input)?;
    let out = backend.put_item(input).await?;
    Ok(single_item(
        "Attributes",
        out.attributes.as_ref(),
        out.consumed_capacity.as_ref(),
        out.item_collection_metrics.as_ref(),
    ))
}

pub(super) async fn get_item(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = common(&m, &mut d)?;
    let input = GetItemInput {
        table_name: m.required_string("TableName", &mut d)?,
        key: required_item(&m, "Key", &mut d)?,
        consistent_read: m.boolean("ConsistentRead")?,
        projection_expression: m.string("ProjectionExpression")?,
        expression_attribute_names: names(&m, &mut d)?,
        return_consumed_capacity,
        attributes_to_get: attributes_to_get(&m, &mut d)?,
    };
    let input = d.finish(input)?;
    let out = backend.get_item(input).await?;
    Ok(single_item(
        "Item",
        out.item.as_ref(),
        out.consumed_capacity.as_ref(),
        None,
    ))
}

pub(super) async fn delete_item(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = common(&m, &mut d)?;
    let input = DeleteItemInput {
        table_name: m.required_string("TableName", &mut d)?,
        return_values: m.enumeration("ReturnValues", RETURN_VALUES, &mut d)?,
        return_item_collection_metrics: return_item_collection_metrics(&m, &mut d)?,
        key: required_item(&m, "Key", &mut d)?,
        condition_expression: m.string("ConditionExpression")?,
        expression_attribute_names: names(&m, &mut d)?,
        expression_attribute_values: optional_item(&m, "ExpressionAttributeValues", &mut d)?,
        return_values_on_condition_check_failure: m.enumeration(
            "ReturnValuesOnConditionCheckFailure",
            ON_CONDITION_FAILURE,
            &mut d,
        )?,
        return_consumed_capacity,
        expected: expected(&m, &mut d)?,
        conditional_operator: conditional_operator(&m, &mut d)?,
    };
    let input = d.finish(input)?;
    let out = backend.delete_item(input).await?;
    Ok(single_item(
        "Attributes",
        out.attributes.as_ref(),
        out.consumed_capacity.as_ref(),
        out.item_collection_metrics.as_ref(),
    ))
}

pub(super) async fn update_item(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = common(&m, &mut d)?;
    let input = UpdateItemInput {
        table_name: m.required_string("TableName", &mut d)?,
        return_values: m.enumeration("ReturnValues", RETURN_VALUES, &mut d)?,
        return_item_collection_metrics: return_item_collection_metrics(&m, &mut d)?,
        key: required_item(&m, "Key", &mut d)?,
        update_expression: m.string("UpdateExpression")?,
        condition_expression: m.string("ConditionExpression")?,
        expression_attribute_names: names(&m, &mut d)?,
        expression_attribute_values: optional_item(&m, "ExpressionAttributeValues", &mut d)?,
        return_values_on_condition_check_failure: m.enumeration(
            "ReturnValuesOnConditionCheckFailure",
            ON_CONDITION_FAILURE,
            &mut d,
        )?,
        return_consumed_capacity,
        attribute_updates: attribute_updates(&m, &mut d)?,
        expected: expected(&m, &mut d)?,
        conditional_operator: conditional_operator(&m, &mut d)?,
    };
    let input = d.finish(input)?;
    let out = backend.update_item(input).await?;
    Ok(single_item(
        "Attributes",
        out.attributes.as_ref(),
        out.consumed_capacity.as_ref(),
        out.item_collection_metrics.as_ref(),
    ))
}

/// Query's and Scan's response: `Items` (absent with `Select=COUNT`), `Count`, `ScannedCount`,
/// `LastEvaluatedKey` when more may follow, `ConsumedCapacity` when reported; in serde_json's order of
/// keys.
pub(super) fn page(out: QueryOutput) -> Vec<u8> {
    // Room for items of a few hundred bytes, so that a page seldom grows its buffer more than once.
    let items = out.items.as_ref().map_or(0, Vec::len);
    let mut bytes = Vec::with_capacity(128 + items * 256);
    let mut body = Object::begin(&mut bytes);
    consumed_member(&mut body, out.consumed_capacity.as_ref());
    json::integer(body.member("Count"), i64::from(out.count));
    if let Some(items) = &out.items {
        let mut list = Array::begin(body.member("Items"));
        for item in items {
            write_item(list.element(), item);
        }
        list.end();
    }
    if let Some(key) = &out.last_evaluated_key {
        write_item(body.member("LastEvaluatedKey"), key);
    }
    json::integer(body.member("ScannedCount"), i64::from(out.scanned_count));
    body.end();
    bytes
}

pub(super) async fn query(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = common(&m, &mut d)?;
    let input = QueryInput {
        table_name: m.required_string("TableName", &mut d)?,
        index_name: m.string("IndexName")?,
        key_condition_expression: m.string("KeyConditionExpression")?,
        filter_expression: m.string("FilterExpression")?,
        projection_expression: m.string("ProjectionExpression")?,
        expression_attribute_names: names(&m, &mut d)?,
        expression_attribute_values: optional_item(&m, "ExpressionAttributeValues", &mut d)?,
        select: m.enumeration("Select", SELECT, &mut d)?,
        scan_index_forward: m.boolean("ScanIndexForward")?,
        limit: m.integer("Limit")?,
        exclusive_start_key: optional_item(&m, "ExclusiveStartKey", &mut d)?,
        consistent_read: m.boolean("ConsistentRead")?,
        return_consumed_capacity,
        attributes_to_get: attributes_to_get(&m, &mut d)?,
        key_conditions: conditions(&m, "KeyConditions", &mut d)?,
        query_filter: conditions(&m, "QueryFilter", &mut d)?,
        conditional_operator: conditional_operator(&m, &mut d)?,
    };
    let input = d.finish(input)?;
    Ok(page(backend.query(input).await?))
}

pub(super) async fn scan(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = common(&m, &mut d)?;
    let input = ScanInput {
        table_name: m.required_string("TableName", &mut d)?,
        index_name: m.string("IndexName")?,
        filter_expression: m.string("FilterExpression")?,
        projection_expression: m.string("ProjectionExpression")?,
        expression_attribute_names: names(&m, &mut d)?,
        expression_attribute_values: optional_item(&m, "ExpressionAttributeValues", &mut d)?,
        select: m.enumeration("Select", SELECT, &mut d)?,
        limit: m.integer("Limit")?,
        exclusive_start_key: optional_item(&m, "ExclusiveStartKey", &mut d)?,
        consistent_read: m.boolean("ConsistentRead")?,
        segment: m.integer("Segment")?,
        total_segments: m.integer("TotalSegments")?,
        return_consumed_capacity,
        attributes_to_get: attributes_to_get(&m, &mut d)?,
        scan_filter: conditions(&m, "ScanFilter", &mut d)?,
        conditional_operator: conditional_operator(&m, &mut d)?,
    };
    let input = d.finish(input)?;
    Ok(page(backend.scan(input).await?))
}
