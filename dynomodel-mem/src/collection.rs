//! Item collections of tables with local secondary indexes: their size, the limit on it
//! (`ItemCollectionSizeLimitExceededException`), and `ItemCollectionMetrics` on writes.
//!
//! An item collection is every item with one partition key value "plus the size of all attributes
//! projected into all of the local secondary indexes" (API `ItemCollectionMetrics`); a table without LSIs
//! has none, and reports no metrics.

use dynomodel::{
    item_size, Error, Item, ItemCollectionMetrics, Result, ReturnItemCollectionMetrics,
};

use crate::capacity::entry_size;
use crate::index::Index;
use crate::key::PrimaryKey;
use crate::table::Table;

/// DynamoDB's limit on an item collection: 10 GB (DG `LSI.html`, "Item collection size limit").
pub(crate) const DEFAULT_LIMIT: usize = 10 * 1024 * 1024 * 1024;

/// Bytes per GB in `SizeEstimateRangeGB`.
const GB: f64 = 1024.0 * 1024.0 * 1024.0;

/// What one item adds to its collection: the item and its LSI entries.
pub(crate) fn share(indexes: &[Index], item: Option<&Item>) -> usize {
    let Some(item) = item else {
        return 0;
    };
    let entries: usize = indexes
        .iter()
        .filter(|i| !i.global && i.holds(item))
        .map(|i| entry_size(i, item))
        .sum();
    item_size(item) + entries
}

/// Refuses a write of `new` over the item at `key` that would grow its collection past `limit`
/// (a write that shrinks or keeps the size always passes).
pub(crate) fn check_limit(
    table: &Table,
    key: &PrimaryKey,
    new: Option<&Item>,
    limit: usize,
) -> Result<()> {
    if table.schema.local_secondary_indexes.is_empty() {
        return Ok(());
    }
    let current = table.collection_size(&key.hash);
    let old = share(table.indexes(), table.get(key));
    let new = share(table.indexes(), new);
    if new > old && (current + new).saturating_sub(old) > limit {
        // The service's wording as reported by SDK users ("Collection size exceeded."); the API
        // reference names the exception only.
        return Err(Error::Service {
            code: "ItemCollectionSizeLimitExceededException".into(),
            message: "Collection size exceeded.".into(),
        });
    }
    Ok(())
}

/// `ItemCollectionMetrics` of the collection of `key` (after the write), when asked for and the table
/// has LSIs. `SizeEstimateRangeGB` brackets the size by whole gigabytes: `[floor, floor + 1]`, the
/// `[0.0, 1.0]` that responses of small collections show.
pub(crate) fn metrics(
    table: &Table,
    key: &PrimaryKey,
    mode: Option<ReturnItemCollectionMetrics>,
) -> Option<ItemCollectionMetrics> {
    if mode != Some(ReturnItemCollectionMetrics::Size)
        || table.schema.local_secondary_indexes.is_empty()
    {
        return None;
    }
    let (name, _) = table.schema.key_attributes().next()?;
    let lower = (table.collection_size(&key.hash) as f64 / GB).floor();
    Some(ItemCollectionMetrics {
        item_collection_key: Item::from([(name.to_owned(), key.hash.to_attribute())]),
        size_estimate_range_gb: vec![lower, lower + 1.0],
    })
}
