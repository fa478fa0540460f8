//! BatchWriteItem: up to 25 puts and deletes on one or more tables, all validated before the first
//! write, then made in table-name order and request order.
//!
//! Each write is a plain PutItem or DeleteItem (no conditions, no return values), so the rules are
//! theirs: attribute values and the 400 KB item limit (`validate::sized_attribute_values`,
//! `validate::item_size_within_limit`), the key schema (`validate::item_key` for a put,
//! `validate::request_key` for a delete, in the wording of `KeyContext::BatchWrite`: PutItem's
//! missing-key and type-mismatch texts become "The provided key element does not match the schema",
//! as dynalite recorded), and the index keys of a put (`validate::index_keys`, PutItem's messages).
//! The batch adds one rule: one write per item, "Provided list of item keys contains duplicates" for
//! two puts, two deletes or a put and a delete of one key (dynalite's recordings, put first and
//! delete first). The same key in two tables is two items.

use std::collections::{BTreeMap, HashSet};

use dynomodel::backend::{
    BatchWriteItemInput, BatchWriteItemOutput, ReturnItemCollectionMetrics, WriteRequest,
};
use dynomodel::{Error, Result};

use super::{constraints, DUPLICATES};
use crate::metering::capacity::{self, PerTable};
use crate::metering::throughput::Kind;
use crate::ops::context::ItemRequest;
use crate::storage::collection;
use crate::storage::key::PrimaryKey;
use crate::storage::table::Table;
use crate::validate::{self, KeyContext};

/// The checks that need no table: attribute values, then the item size of a put (per write, in order).
/// Returns a put's item size (measured by the checks, for the store); 0 for a delete.
fn check_values(request: &WriteRequest) -> Result<usize> {
    match request {
        WriteRequest::Put { item } => {
            let size = validate::sized_attribute_values(item)?;
            validate::item_size_within_limit(size)?;
            Ok(size)
        }
        WriteRequest::Delete { key } => validate::attribute_values(key).map(|()| 0),
    }
}

/// The primary key a write addresses, checked against the table as PutItem/DeleteItem would, in
/// BatchWriteItem's wording.
fn write_key(request: &WriteRequest, table: &Table) -> Result<PrimaryKey> {
    let context = KeyContext::BatchWrite;
    match request {
        WriteRequest::Put { item } => {
            let key = validate::item_key(item, &table.schema, context)?;
            validate::index_keys(item, &table.schema)?;
            Ok(key)
        }
        WriteRequest::Delete { key } => validate::request_key(key, &table.schema),
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

impl ItemRequest<'_> {
    /// `BatchWriteItem`.
    pub(crate) fn batch_write_item(
        &mut self,
        input: BatchWriteItemInput,
    ) -> Result<BatchWriteItemOutput> {
        constraints::write_request(&input)?;
        // Each put's size, in the order the writes are made below (at most 25).
        let sizes = input
            .request_items
            .values()
            .flatten()
            .map(check_values)
            .collect::<Result<Vec<usize>>>()?;
        constraints::write_total(&input)?;
        let mut plans = Vec::with_capacity(input.request_items.len());
        for (name, requests) in &input.request_items {
            plans.push(plan_table(self.table(name)?, requests)?);
        }
        // The item-collection limit over the whole batch, before the first write (API
        // `BatchWriteItem` lists `ItemCollectionSizeLimitExceededException` among its errors).
        // Only tables with LSIs have collections; the plain path skips this.
        let limit = self.config().item_collection_size_limit;
        let mut writes = Vec::new();
        for ((name, requests), keys) in input.request_items.iter().zip(&plans) {
            let table = self.table(name)?;
            if table.schema.local_secondary_indexes.is_empty() {
                continue;
            }
            for (request, key) in requests.iter().zip(keys) {
                let new = match request {
                    WriteRequest::Put { item } => Some(std::borrow::Cow::Borrowed(item)),
                    WriteRequest::Delete { .. } => None,
                };
                writes.push((table, key, new));
            }
        }
        if collection::check_writes(writes, limit).is_err() {
            return Err(collection::limit_exceeded());
        }
        // The collections to report on, kept only when asked for (their tables have LSIs).
        let metrics_keys: Vec<(String, PrimaryKey)> =
            if input.return_item_collection_metrics == Some(ReturnItemCollectionMetrics::Size) {
                input
                    .request_items
                    .keys()
                    .zip(&plans)
                    .filter(|(name, _)| {
                        self.table(name)
                            .is_ok_and(|t| !t.schema.local_secondary_indexes.is_empty())
                    })
                    .flat_map(|(name, keys)| keys.iter().map(move |k| (name.clone(), k.clone())))
                    .collect()
            } else {
                Vec::new()
            };
        // Everything is valid: write. Every table exists (checked above, under this same lock).
        // With throughput enforced, a write whose table or GSI has spent its write capacity is
        // returned in UnprocessedItems, and a batch none of whose writes could be made fails with
        // `ProvisionedThroughputExceededException` (API `BatchWriteItem`: "If none of the items can
        // be processed due to insufficient provisioned throughput on all of the tables in the
        // request, then BatchWriteItem returns a ProvisionedThroughputExceededException").
        let mode = input.return_consumed_capacity;
        let mut consumed = PerTable::default();
        let mut unprocessed_items: BTreeMap<String, Vec<WriteRequest>> = BTreeMap::new();
        let mut throttled = None;
        let mut made = 0usize;
        let mut sizes = sizes.into_iter();
        for ((name, requests), keys) in input.request_items.into_iter().zip(plans) {
            let (table, meter) = self.table_mut_metered(&name)?;
            for (request, key) in requests.into_iter().zip(keys) {
                let size = sizes.next();
                let cost = (capacity::wanted(mode) || meter.is_some()).then(|| {
                    // Each item rounded by itself, then summed per table.
                    let new = match &request {
                        WriteRequest::Put { item } => Some(item),
                        WriteRequest::Delete { .. } => None,
                    };
                    capacity::item_write(table, table.get(&key).as_ref(), new)
                });
                if let (Some(meter), Some(cost)) = (meter, &cost)
                    && let Err(why) = meter.admit_write(table, cost)
                {
                    throttled.get_or_insert(why);
                    unprocessed_items
                        .entry(name.clone())
                        .or_default()
                        .push(request);
                    continue;
                }
                made += 1;
                if let Some(cost) = &cost {
                    consumed.add(&table.schema.name, cost);
                }
                match request {
                    WriteRequest::Put { item } => {
                        match size {
                            Some(size) => table.put_measured(key, item, size),
                            None => table.put(key, item),
                        };
                    }
                    WriteRequest::Delete { .. } => {
                        table.delete(&key);
                    }
                }
                if let (Some(meter), Some(cost)) = (meter, &cost) {
                    meter.debit(table, Kind::Write, cost);
                }
            }
        }
        if let Some(why) = throttled
            && made == 0
        {
            return Err(why.error());
        }
        let mut written = Vec::with_capacity(metrics_keys.len());
        for (name, key) in &metrics_keys {
            written.push((self.table(name)?, key));
        }
        Ok(BatchWriteItemOutput {
            consumed_capacity: consumed.report(mode),
            item_collection_metrics: collection::metrics_by_table(written),
            unprocessed_items,
        })
    }
}
