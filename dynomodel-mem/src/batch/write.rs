//! BatchWriteItem: up to 25 puts and deletes on one or more tables, all validated before the first
//! write, then made in table-name order and request order.
//!
//! Each write is a plain PutItem or DeleteItem (no conditions, no return values), so the rules are
//! theirs: attribute values and the 400 KB item limit (`validate::attribute_values`,
//! `validate::item_size_limit`), the key schema (`validate::item_key` for a put, `validate::request_key`
//! for a delete, in the wording of `KeyContext::BatchWrite`: PutItem's missing-key and type-mismatch
//! texts become "The provided key element does not match the schema", as dynalite recorded), and the
//! index keys of a put (`validate::index_keys`, PutItem's messages). The batch adds one rule:
//! one write per item, "Provided list of item keys contains duplicates" for two puts, two deletes or a
//! put and a delete of one key (dynalite's recordings, put first and delete first). The same key in two
//! tables is two items.

use std::collections::HashSet;

use dynomodel::{BatchWriteItemInput, BatchWriteItemOutput, Error, Result, WriteRequest};

use super::{constraints, DUPLICATES};
use crate::capacity::{self, PerTable};
use crate::key::PrimaryKey;
use crate::state::State;
use crate::table::Table;
use crate::validate::{self, KeyContext};

/// The checks that need no table: attribute values, then the item size of a put (per write, in order).
fn check_values(request: &WriteRequest) -> Result<()> {
    match request {
        WriteRequest::Put { item } => {
            validate::attribute_values(item)?;
            validate::item_size_limit(item)
        }
        WriteRequest::Delete { key } => validate::attribute_values(key),
    }
}

/// The primary key a write addresses, checked against the table as PutItem/DeleteItem would, in
/// BatchWriteItem's wording.
fn write_key(request: &WriteRequest, table: &Table) -> Result<PrimaryKey> {
    let context = KeyContext::BatchWrite;
    match request {
        WriteRequest::Put { item } => {
            let key = validate::item_key(item, &table.schema, context)?;
            validate::index_keys(item, &table.schema, context)?;
            Ok(key)
        }
        WriteRequest::Delete { key } => validate::request_key(key, &table.schema, context),
    }
}

/// The keys of one table's writes, in order, with no item written twice.
fn plan_table(table: &Table, requests: &[WriteRequest]) -> Result<Vec<PrimaryKey>> {
    let mut seen = HashSet::with_capacity(requests.len());
    let mut keys = Vec::with_capacity(requests.len());
    for request in requests {
        let key = write_key(request, table)?;
        if !seen.insert(key.clone()) {
            return Err(Error::validation(DUPLICATES));
        }
        keys.push(key);
    }
    Ok(keys)
}

impl State {
    /// `BatchWriteItem`.
    pub fn batch_write_item(&mut self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        constraints::write_request(&input)?;
        input
            .request_items
            .values()
            .flatten()
            .try_for_each(check_values)?;
        constraints::write_total(&input)?;
        let mut plans = Vec::with_capacity(input.request_items.len());
        for (name, requests) in &input.request_items {
            plans.push(plan_table(self.table(name)?, requests)?);
        }
        // Everything is valid: write. Every table exists (checked above, under this same lock).
        let mode = input.return_consumed_capacity;
        let mut consumed = PerTable::default();
        for ((name, requests), keys) in input.request_items.into_iter().zip(plans) {
            let table = self.table_mut(&name)?;
            for (request, key) in requests.into_iter().zip(keys) {
                if capacity::wanted(mode) {
                    // Each item rounded by itself, then summed per table.
                    let new = match &request {
                        WriteRequest::Put { item } => Some(item),
                        WriteRequest::Delete { .. } => None,
                    };
                    let cost = capacity::item_write(table, table.get(&key), new);
                    consumed.add(&table.schema.name, &cost);
                }
                match request {
                    WriteRequest::Put { item } => {
                        table.put(key, item);
                    }
                    WriteRequest::Delete { .. } => {
                        table.delete(&key);
                    }
                }
            }
        }
        Ok(BatchWriteItemOutput {
            consumed_capacity: consumed.report(mode),
            ..Default::default()
        })
    }
}
