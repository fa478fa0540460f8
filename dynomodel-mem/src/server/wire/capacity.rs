//! `ReturnConsumedCapacity` / `ReturnItemCollectionMetrics` in requests, `ConsumedCapacity` /
//! `ItemCollectionMetrics` in responses.
//!
//! Decoding: both are enums of botocore's model, reported in its smithy form and in the model's order of
//! values ("Member must satisfy enum value set: [INDEXES, TOTAL, NONE]", "… [SIZE, NONE]", recorded
//! against the service by dynalite's `test/putItem.js`, `deleteItem.js`, `batchWriteItem.js`,
//! `transactWriteItems.js`). Where each is reported among a request's other constraints is the
//! operation's business (see `item.rs`, `batch.rs`, `transact.rs`).
//!
//! Encoding, as DynamoDB sends it (API reference `ConsumedCapacity`, `Capacity`, `ItemCollectionMetrics`;
//! the raw bodies of DynamoDB Local 3.3.1, e.g. `{"TableName":"t","CapacityUnits":1.0,"Table":
//! {"CapacityUnits":1.0}}`; dynalite's recordings):
//!
//! - A member the backend did not report is absent, never `null`; so are index maps without entries
//!   (DynamoDB Local leaves out `GlobalSecondaryIndexes` when no global index was touched).
//! - Units are JSON numbers written as doubles (`0.5`, `1.0`, `132.0`): the model's
//!   `ConsumedCapacityUnits` is a `double`, and the service and DynamoDB Local both write `1.0`.
//! - `SizeEstimateRangeGB` is a list of (two) doubles, the lower and upper bound.
//! - The whole member is absent when the backend reported nothing: `ConsumedCapacity` an object on
//!   single-table operations (PutItem, GetItem, DeleteItem, UpdateItem, Query, Scan), a list with one
//!   entry per table on the batches and transactions, absent rather than `[]` when empty (DynamoDB
//!   Local: a BatchWriteItem without `ReturnConsumedCapacity` answers only `{"UnprocessedItems":{}}`);
//!   `ItemCollectionMetrics` an object on the single-item writes, a map of table to list on
//!   BatchWriteItem and TransactWriteItems, likewise absent when empty.

use std::collections::BTreeMap;

use dynomodel::{
    Capacity, ConsumedCapacity, ItemCollectionMetrics, ReturnConsumedCapacity,
    ReturnItemCollectionMetrics,
};
use serde_json::{Map, Value};

use super::value::item_to_json;
use super::{Decoder, Members, WireResult};

/// The model's `ReturnConsumedCapacity` values, in its order.
const RETURN_CONSUMED_CAPACITY: &[(&str, ReturnConsumedCapacity)] = &[
    ("INDEXES", ReturnConsumedCapacity::Indexes),
    ("TOTAL", ReturnConsumedCapacity::Total),
    ("NONE", ReturnConsumedCapacity::None),
];

/// The model's `ReturnItemCollectionMetrics` values, in its order.
const RETURN_ITEM_COLLECTION_METRICS: &[(&str, ReturnItemCollectionMetrics)] = &[
    ("SIZE", ReturnItemCollectionMetrics::Size),
    ("NONE", ReturnItemCollectionMetrics::None),
];

/// The request's `ReturnConsumedCapacity`; a value outside the enum is recorded in `d`.
pub(super) fn return_consumed_capacity(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Option<ReturnConsumedCapacity>> {
    m.enumeration("ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY, d)
}

/// The request's `ReturnItemCollectionMetrics`; a value outside the enum is recorded in `d`.
pub(super) fn return_item_collection_metrics(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Option<ReturnItemCollectionMetrics>> {
    m.enumeration(
        "ReturnItemCollectionMetrics",
        RETURN_ITEM_COLLECTION_METRICS,
        d,
    )
}

/// `value` as a JSON number; a unit count is always finite, but a non-finite one (which JSON cannot
/// hold) is written as `0.0` rather than as `null`, which no SDK would accept for a double.
fn units(value: f64) -> Value {
    serde_json::Number::from_f64(value)
        .or_else(|| serde_json::Number::from_f64(0.0))
        .map_or(Value::Null, Value::Number)
}

/// Inserts `name: value` when the backend reported the value.
fn insert_units(out: &mut Map<String, Value>, name: &str, value: Option<f64>) {
    if let Some(value) = value {
        out.insert(name.into(), units(value));
    }
}

/// One table's or index's `Capacity`.
fn capacity_json(c: &Capacity) -> Value {
    let mut out = Map::new();
    insert_units(&mut out, "ReadCapacityUnits", c.read_capacity_units);
    insert_units(&mut out, "WriteCapacityUnits", c.write_capacity_units);
    insert_units(&mut out, "CapacityUnits", c.capacity_units);
    Value::Object(out)
}

/// `LocalSecondaryIndexes` / `GlobalSecondaryIndexes`: index name → `Capacity`.
fn indexes_json(indexes: &BTreeMap<String, Capacity>) -> Value {
    Value::Object(
        indexes
            .iter()
            .map(|(name, c)| (name.clone(), capacity_json(c)))
            .collect(),
    )
}

/// One `ConsumedCapacity` structure.
pub fn consumed_capacity_json(c: &ConsumedCapacity) -> Value {
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
pub fn item_collection_metrics_json(m: &ItemCollectionMetrics) -> Value {
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
