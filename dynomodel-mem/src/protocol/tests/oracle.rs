//! The response builders the server used before it wrote its JSON directly (`json.rs`), kept as the
//! oracle of `direct.rs`: each built a `serde_json::Value`, which the server printed with serde_json.
//! Copied as they were (but for taking their output by reference), so that "the bytes on the wire did
//! not change" is checked against the old code itself.

use std::collections::BTreeMap;

use dynomodel::backend::{
    BatchExecuteStatementOutput, BatchGetItemOutput, BatchWriteItemOutput, Capacity,
    ConsumedCapacity, ExecuteStatementOutput, GetRecordsOutput, ItemCollectionMetrics,
    KeysAndAttributes, QueryOutput, TransactGetItemsOutput, TransactWriteItemsOutput, WriteRequest,
};
use dynomodel::Item;
use serde_json::{json, Map, Value};

use crate::protocol::streams::record_json;
use crate::protocol::value::item_to_json;

/// `value` as a JSON number; a unit count is always finite, but a non-finite one (which JSON cannot
/// hold) is written as `0.0` rather than as `null`, which no SDK would accept for a double.
pub(super) fn units(value: f64) -> Value {
    serde_json::Number::from_f64(value)
        .or_else(|| serde_json::Number::from_f64(0.0))
        .map_or(Value::Null, Value::Number)
}

/// Inserts `name: value` when the backend reported the value.
pub(super) fn insert_units(out: &mut Map<String, Value>, name: &str, value: Option<f64>) {
    if let Some(value) = value {
        out.insert(name.into(), units(value));
    }
}

/// One table's or index's `Capacity`.
pub(super) fn capacity_json(c: &Capacity) -> Value {
    let mut out = Map::new();
    insert_units(&mut out, "ReadCapacityUnits", c.read_capacity_units);
    insert_units(&mut out, "WriteCapacityUnits", c.write_capacity_units);
    insert_units(&mut out, "CapacityUnits", c.capacity_units);
    Value::Object(out)
}

/// `LocalSecondaryIndexes` / `GlobalSecondaryIndexes`: index name → `Capacity`.
pub(super) fn indexes_json(indexes: &BTreeMap<String, Capacity>) -> Value {
    Value::Object(
        indexes
            .iter()
            .map(|(name, c)| (name.clone(), capacity_json(c)))
            .collect(),
    )
}

/// One `ConsumedCapacity` structure.
pub(super) fn consumed_capacity_json(c: &ConsumedCapacity) -> Value {
    let mut out = Map::new();
    out.insert("TableName".into(), Value::String(c.table_name.clone()));
    insert_units(&mut out, "CapacityUnits", c.capacity_units);
    insert_units(&mut out, "ReadCapacityUnits", c.read_capacity_units);
    insert_units(&mut out, "WriteCapacityUnits", c.write_capacity_units);
    if let Some(table) = &c.table {
        out.insert("Table".into(), capacity_json(table));
    }
    if !c.local_secondary_indexes.is_empty() {
        out.insert(
            "LocalSecondaryIndexes".into(),
            indexes_json(&c.local_secondary_indexes),
        );
    }
    if !c.global_secondary_indexes.is_empty() {
        out.insert(
            "GlobalSecondaryIndexes".into(),
            indexes_json(&c.global_secondary_indexes),
        );
    }
    Value::Object(out)
}

/// One `ItemCollectionMetrics` structure: `ItemCollectionKey` (an attribute map) and
/// `SizeEstimateRangeGB` (a list of doubles).
pub(super) fn item_collection_metrics_json(m: &ItemCollectionMetrics) -> Value {
    let mut out = Map::new();
    out.insert(
        "ItemCollectionKey".into(),
        item_to_json(&m.item_collection_key),
    );
    out.insert(
        "SizeEstimateRangeGB".into(),
        Value::Array(
            m.size_estimate_range_gb
                .iter()
                .map(|&gb| units(gb))
                .collect(),
        ),
    );
    Value::Object(out)
}

/// Adds a single-table operation's `ConsumedCapacity` to its response body, when there is one.
pub(super) fn insert_consumed(body: &mut Map<String, Value>, c: Option<&ConsumedCapacity>) {
    if let Some(c) = c {
        body.insert("ConsumedCapacity".into(), consumed_capacity_json(c));
    }
}

/// Adds a batch's or a transaction's `ConsumedCapacity` (one entry per table) to its response body,
/// when there is any.
pub(super) fn insert_consumed_list(body: &mut Map<String, Value>, list: &[ConsumedCapacity]) {
    if !list.is_empty() {
        let list = list.iter().map(consumed_capacity_json).collect();
        body.insert("ConsumedCapacity".into(), Value::Array(list));
    }
}

/// Adds a single-item write's `ItemCollectionMetrics` to its response body, when there is one.
pub(super) fn insert_metrics(body: &mut Map<String, Value>, m: Option<&ItemCollectionMetrics>) {
    if let Some(m) = m {
        body.insert(
            "ItemCollectionMetrics".into(),
            item_collection_metrics_json(m),
        );
    }
}

/// Adds BatchWriteItem's or TransactWriteItems' `ItemCollectionMetrics` (table → list) to its response
/// body, when there are any.
pub(super) fn insert_metrics_per_table(
    body: &mut Map<String, Value>,
    per_table: &BTreeMap<String, Vec<ItemCollectionMetrics>>,
) {
    if per_table.is_empty() {
        return;
    }
    let per_table = per_table
        .iter()
        .map(|(table, list)| {
            let list = list.iter().map(item_collection_metrics_json).collect();
            (table.clone(), Value::Array(list))
        })
        .collect();
    body.insert("ItemCollectionMetrics".into(), Value::Object(per_table));
}
/// A single-item operation's response: `Attributes` (or GetItem's `Item`) when there is one,
/// `ConsumedCapacity` and `ItemCollectionMetrics` when reported, else `{}`.
pub(super) fn single_item(
    member: &str,
    item: Option<&Item>,
    consumed: Option<&ConsumedCapacity>,
    metrics: Option<&ItemCollectionMetrics>,
) -> Value {
    let mut body = Map::new();
    if let Some(item) = item {
        body.insert(member.into(), item_to_json(item));
    }
    insert_consumed(&mut body, consumed);
    insert_metrics(&mut body, metrics);
    Value::Object(body)
}

/// Query's and Scan's response: `Items` (absent with `Select=COUNT`), `Count`, `ScannedCount`,
/// `LastEvaluatedKey` when more may follow, `ConsumedCapacity` when reported.
pub(super) fn page(out: &QueryOutput) -> Value {
    let mut body = Map::new();
    if let Some(items) = &out.items {
        body.insert(
            "Items".into(),
            Value::Array(items.iter().map(item_to_json).collect()),
        );
    }
    body.insert("Count".into(), Value::from(out.count));
    body.insert("ScannedCount".into(), Value::from(out.scanned_count));
    if let Some(key) = &out.last_evaluated_key {
        body.insert("LastEvaluatedKey".into(), item_to_json(key));
    }
    insert_consumed(&mut body, out.consumed_capacity.as_ref());
    Value::Object(body)
}

/// BatchGetItem's response: `Responses` and `UnprocessedKeys` always, `ConsumedCapacity` when
/// reported.
pub(super) fn batch_get_response(out: &BatchGetItemOutput) -> Value {
    let responses: Map<String, Value> = out
        .responses
        .iter()
        .map(|(table, items)| {
            let items = items.iter().map(item_to_json).collect();
            (table.clone(), Value::Array(items))
        })
        .collect();
    let mut body = Map::new();
    body.insert("Responses".into(), Value::Object(responses));
    body.insert(
        "UnprocessedKeys".into(),
        unprocessed_keys_json(&out.unprocessed_keys),
    );
    insert_consumed_list(&mut body, &out.consumed_capacity);
    Value::Object(body)
}

/// BatchWriteItem's response: `UnprocessedItems` always, `ConsumedCapacity` and
/// `ItemCollectionMetrics` when reported.
pub(super) fn batch_write_response(out: &BatchWriteItemOutput) -> Value {
    let mut body = Map::new();
    body.insert(
        "UnprocessedItems".into(),
        unprocessed_items_json(&out.unprocessed_items),
    );
    insert_consumed_list(&mut body, &out.consumed_capacity);
    insert_metrics_per_table(&mut body, &out.item_collection_metrics);
    Value::Object(body)
}

/// `UnprocessedKeys` as DynamoDB sends it: the request's `KeysAndAttributes` for each table, `{}` when
/// there are none.
pub(super) fn unprocessed_keys_json(unprocessed: &BTreeMap<String, KeysAndAttributes>) -> Value {
    Value::Object(
        unprocessed
            .iter()
            .map(|(table, wanted)| (table.clone(), keys_and_attributes_json(wanted)))
            .collect(),
    )
}

pub(super) fn keys_and_attributes_json(wanted: &KeysAndAttributes) -> Value {
    let mut out = Map::new();
    out.insert(
        "Keys".into(),
        Value::Array(wanted.keys.iter().map(item_to_json).collect()),
    );
    if let Some(consistent) = wanted.consistent_read {
        out.insert("ConsistentRead".into(), Value::Bool(consistent));
    }
    if let Some(projection) = &wanted.projection_expression {
        out.insert(
            "ProjectionExpression".into(),
            Value::String(projection.clone()),
        );
    }
    if let Some(names) = &wanted.expression_attribute_names {
        out.insert("ExpressionAttributeNames".into(), json!(names));
    }
    if let Some(attributes) = &wanted.attributes_to_get {
        out.insert("AttributesToGet".into(), json!(attributes));
    }
    Value::Object(out)
}

/// `UnprocessedItems` as DynamoDB sends it, `{}` when there are none.
pub(super) fn unprocessed_items_json(unprocessed: &BTreeMap<String, Vec<WriteRequest>>) -> Value {
    Value::Object(
        unprocessed
            .iter()
            .map(|(table, writes)| {
                let writes = writes.iter().map(write_request_json).collect();
                (table.clone(), Value::Array(writes))
            })
            .collect(),
    )
}

pub(super) fn write_request_json(write: &WriteRequest) -> Value {
    match write {
        WriteRequest::Put { item } => json!({ "PutRequest": { "Item": item_to_json(item) } }),
        WriteRequest::Delete { key } => json!({ "DeleteRequest": { "Key": item_to_json(key) } }),
    }
}

/// TransactGetItems' response: `Responses` always, `ConsumedCapacity` when reported.
pub(super) fn transact_get_response(out: &TransactGetItemsOutput) -> Value {
    let mut body = Map::new();
    body.insert("Responses".into(), responses_json(&out.responses));
    insert_consumed_list(&mut body, &out.consumed_capacity);
    Value::Object(body)
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

/// TransactWriteItems' response: `{}`, with `ConsumedCapacity` and `ItemCollectionMetrics` when
/// reported.
pub(super) fn transact_write_response(out: &TransactWriteItemsOutput) -> Value {
    let mut body = Map::new();
    insert_consumed_list(&mut body, &out.consumed_capacity);
    insert_metrics_per_table(&mut body, &out.item_collection_metrics);
    Value::Object(body)
}

/// ExecuteStatement's response, as `partiql::execute_statement` built it.
pub(super) fn execute_statement_response(out: &ExecuteStatementOutput) -> Value {
    let mut body = Map::new();
    body.insert(
        "Items".into(),
        Value::Array(
            out.items
                .clone()
                .unwrap_or_default()
                .iter()
                .map(item_to_json)
                .collect(),
        ),
    );
    if let Some(token) = out.next_token.clone() {
        body.insert("NextToken".into(), Value::String(token));
    }
    if let Some(key) = &out.last_evaluated_key {
        body.insert("LastEvaluatedKey".into(), item_to_json(key));
    }
    insert_consumed(&mut body, out.consumed_capacity.as_ref());
    Value::Object(body)
}

/// BatchExecuteStatement's response, as `partiql::batch_execute_statement` built it.
pub(super) fn batch_execute_statement_response(out: &BatchExecuteStatementOutput) -> Value {
    let responses = out
        .responses
        .iter()
        .map(|r| {
            let mut entry = Map::new();
            if let Some(e) = &r.error {
                let mut error = Map::new();
                error.insert("Code".into(), Value::String(e.code.clone()));
                if let Some(message) = &e.message {
                    error.insert("Message".into(), Value::String(message.clone()));
                }
                if let Some(item) = &e.item {
                    error.insert("Item".into(), item_to_json(item));
                }
                entry.insert("Error".into(), Value::Object(error));
            }
            if let Some(table) = &r.table_name {
                entry.insert("TableName".into(), Value::String(table.clone()));
            }
            if let Some(item) = &r.item {
                entry.insert("Item".into(), item_to_json(item));
            }
            Value::Object(entry)
        })
        .collect();
    let mut body = Map::new();
    body.insert("Responses".into(), Value::Array(responses));
    insert_consumed_list(&mut body, &out.consumed_capacity);
    Value::Object(body)
}

/// ExecuteTransaction's response, as `partiql::execute_transaction` built it.
pub(super) fn execute_transaction_response(
    responses: &[Option<Item>],
    consumed: &[ConsumedCapacity],
) -> Value {
    let mut body = Map::new();
    body.insert("Responses".into(), responses_json(responses));
    insert_consumed_list(&mut body, consumed);
    Value::Object(body)
}

/// GetRecords' response, as `streams::get_records` built it.
pub(super) fn get_records_response(out: &GetRecordsOutput) -> Value {
    let mut body = Map::new();
    body.insert(
        "Records".into(),
        Value::Array(out.records.iter().map(record_json).collect()),
    );
    if let Some(it) = out.next_shard_iterator.clone() {
        body.insert("NextShardIterator".into(), Value::String(it));
    }
    Value::Object(body)
}
