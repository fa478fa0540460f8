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

use super::json::{self, Array, Object};
use super::value::write_item;
use super::{Decoder, Members, WireResult};
use dynomodel::backend::{
    Capacity, ConsumedCapacity, ItemCollectionMetrics, ReturnConsumedCapacity,
    ReturnItemCollectionMetrics,
};

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

/// Appends `value` as a JSON number written as a double; a unit count is always finite, but a
/// non-finite one (which JSON cannot hold) is written as `0.0` rather than as `null`, which no SDK would
/// accept for a double.
pub(super) fn write_units(out: &mut Vec<u8>, value: f64) {
    json::double(out, if value.is_finite() { value } else { 0.0 });
}

/// One table's or index's `Capacity` (members in serde_json's order, see `json.rs`).
fn write_capacity(out: &mut Vec<u8>, c: &Capacity) {
    let mut object = Object::begin(out);
    if let Some(units) = c.capacity_units {
        write_units(object.member("CapacityUnits"), units);
    }
    if let Some(units) = c.read_capacity_units {
        write_units(object.member("ReadCapacityUnits"), units);
    }
    if let Some(units) = c.write_capacity_units {
        write_units(object.member("WriteCapacityUnits"), units);
    }
    object.end();
}

/// `LocalSecondaryIndexes` / `GlobalSecondaryIndexes`: index name → `Capacity`.
fn write_indexes(out: &mut Vec<u8>, indexes: &BTreeMap<String, Capacity>) {
    let mut object = Object::begin(out);
    for (name, c) in indexes {
        write_capacity(object.member(name), c);
    }
    object.end();
}

/// One `ConsumedCapacity` structure.
pub(super) fn write_consumed_capacity(out: &mut Vec<u8>, c: &ConsumedCapacity) {
    let mut object = Object::begin(out);
    if let Some(units) = c.capacity_units {
        write_units(object.member("CapacityUnits"), units);
    }
    if !c.global_secondary_indexes.is_empty() {
        write_indexes(
            object.member("GlobalSecondaryIndexes"),
            &c.global_secondary_indexes,
        );
    }
    if !c.local_secondary_indexes.is_empty() {
        write_indexes(
            object.member("LocalSecondaryIndexes"),
            &c.local_secondary_indexes,
        );
    }
    if let Some(units) = c.read_capacity_units {
        write_units(object.member("ReadCapacityUnits"), units);
    }
    if let Some(table) = &c.table {
        write_capacity(object.member("Table"), table);
    }
    json::string(object.member("TableName"), &c.table_name);
    if let Some(units) = c.write_capacity_units {
        write_units(object.member("WriteCapacityUnits"), units);
    }
    object.end();
}

/// One `ItemCollectionMetrics` structure: `ItemCollectionKey` (an attribute map) and
/// `SizeEstimateRangeGB` (a list of doubles).
pub(super) fn write_item_collection_metrics(out: &mut Vec<u8>, m: &ItemCollectionMetrics) {
    let mut object = Object::begin(out);
    write_item(object.member("ItemCollectionKey"), &m.item_collection_key);
    let mut range = Array::begin(object.member("SizeEstimateRangeGB"));
    for &gb in &m.size_estimate_range_gb {
        write_units(range.element(), gb);
    }
    range.end();
    object.end();
}

/// A single-table operation's `ConsumedCapacity` member, when the backend reported one.
pub(super) fn consumed_member(body: &mut Object<'_>, c: Option<&ConsumedCapacity>) {
    if let Some(c) = c {
        write_consumed_capacity(body.member("ConsumedCapacity"), c);
    }
}

/// A batch's or a transaction's `ConsumedCapacity` member (one entry per table), when there is any.
pub(super) fn consumed_list_member(body: &mut Object<'_>, list: &[ConsumedCapacity]) {
    if list.is_empty() {
        return;
    }
    let mut out = Array::begin(body.member("ConsumedCapacity"));
    for c in list {
        write_consumed_capacity(out.element(), c);
    }
    out.end();
}

/// A single-item write's `ItemCollectionMetrics` member, when the backend reported one.
pub(super) fn metrics_member(body: &mut Object<'_>, m: Option<&ItemCollectionMetrics>) {
    if let Some(m) = m {
        write_item_collection_metrics(body.member("ItemCollectionMetrics"), m);
    }
}

/// BatchWriteItem's or TransactWriteItems' `ItemCollectionMetrics` member (table → list), when there
/// are any.
pub(super) fn metrics_per_table_member(
    body: &mut Object<'_>,
    per_table: &BTreeMap<String, Vec<ItemCollectionMetrics>>,
) {
    if per_table.is_empty() {
        return;
    }
    let mut tables = Object::begin(body.member("ItemCollectionMetrics"));
    for (table, list) in per_table {
        let mut out = Array::begin(tables.member(table));
        for m in list {
            write_item_collection_metrics(out.element(), m);
        }
        out.end();
    }
    tables.end();
}
