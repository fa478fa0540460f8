//! What a request cost: `ReturnConsumedCapacity` / `ConsumedCapacity`, and
//! `ReturnItemCollectionMetrics` / `ItemCollectionMetrics` for tables with local secondary indexes.

use std::collections::BTreeMap;

use crate::value::Item;

/// Whether a response reports the capacity the request consumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ReturnConsumedCapacity {
    /// Nothing (DynamoDB's default).
    #[default]
    None,
    /// The total per table.
    Total,
    /// The total per table, and the table's and each index's share.
    Indexes,
}

impl ReturnConsumedCapacity {
    /// DynamoDB's name for it: `"NONE"`, `"TOTAL"` or `"INDEXES"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReturnConsumedCapacity::None => "NONE",
            ReturnConsumedCapacity::Total => "TOTAL",
            ReturnConsumedCapacity::Indexes => "INDEXES",
        }
    }
}

/// Whether a write reports the size of the item collections it touched (tables with local secondary
/// indexes only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ReturnItemCollectionMetrics {
    /// Nothing (DynamoDB's default).
    #[default]
    None,
    /// `ItemCollectionKey` and `SizeEstimateRangeGB`.
    Size,
}

impl ReturnItemCollectionMetrics {
    /// DynamoDB's name for it: `"NONE"` or `"SIZE"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReturnItemCollectionMetrics::None => "NONE",
            ReturnItemCollectionMetrics::Size => "SIZE",
        }
    }
}

/// Capacity units consumed on a table or one index (DynamoDB's `Capacity`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Capacity {
    /// Read units.
    pub read_capacity_units: Option<f64>,
    /// Write units.
    pub write_capacity_units: Option<f64>,
    /// Read and write units together.
    pub capacity_units: Option<f64>,
}

/// The capacity one request consumed on one table (DynamoDB's `ConsumedCapacity`).
///
/// ```
/// use dynomodel::ConsumedCapacity;
///
/// let c = ConsumedCapacity { table_name: "users".into(), capacity_units: Some(0.5), ..Default::default() };
/// assert_eq!(c.capacity_units, Some(0.5));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ConsumedCapacity {
    /// The table.
    pub table_name: String,
    /// All units consumed on the table and its indexes.
    pub capacity_units: Option<f64>,
    /// All read units.
    pub read_capacity_units: Option<f64>,
    /// All write units.
    pub write_capacity_units: Option<f64>,
    /// The table's share (`INDEXES` only).
    pub table: Option<Capacity>,
    /// Each local secondary index's share, by name (`INDEXES` only).
    pub local_secondary_indexes: BTreeMap<String, Capacity>,
    /// Each global secondary index's share, by name (`INDEXES` only).
    pub global_secondary_indexes: BTreeMap<String, Capacity>,
}

/// The size of the item collection a write touched (DynamoDB's `ItemCollectionMetrics`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ItemCollectionMetrics {
    /// The partition key of the collection.
    pub item_collection_key: Item,
    /// An estimate of the collection's size in GB: a lower and an upper bound.
    pub size_estimate_range_gb: Vec<f64>,
}
