//! Secondary indexes (LSI and GSI): their stores and their maintenance.
//!
//! An index is laid out like a table: partitions by `(stable_hash(index pk), index pk)` (the Scan order),
//! then entries by index sort key. Index keys need not be unique, so the position of an entry is the
//! index sort key *then the table key* ([`Tie`]), which is also the order DynamoDB returns ties in and
//! what makes an index `LastEvaluatedKey` (index keys plus table keys) resume at exactly one place.
//!
//! Every write of the table goes through [`Index::insert`] / [`Index::remove`] (called by `Table::put`
//! and `Table::delete`), two `BTreeMap` operations: O(log n).

use std::collections::{BTreeMap, BTreeSet};

use dynomodel::{Item, KeySchemaElement, KeyType, Projection, ProjectionType, ScalarAttributeType};

use crate::key::{partition_slot, KeyValue, PartitionSlot, PrimaryKey};
use crate::partition::Partition;
use crate::stored::StoredItem;
use crate::table::TableSchema;

/// The tie-breaker of an index position: the table key of the entry, bracketed by `Min` and `Max` so that
/// a range over "every entry with index sort key v" can be written without knowing any table key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tie {
    /// Before every entry with the same index sort key (only ever a range bound).
    Min,
    /// A stored entry's table key.
    Key(PrimaryKey),
    /// After every entry with the same index sort key (only ever a range bound).
    Max,
}

/// The position of an entry inside one index partition.
pub type IndexPosition = (Option<KeyValue>, Tie);

/// Partitions of an index, in Scan order.
pub type IndexPartitions = BTreeMap<PartitionSlot, Partition<IndexPosition, StoredItem>>;

/// One secondary index: its definition and its entries.
#[derive(Debug)]
pub struct Index {
    /// The index name.
    pub name: String,
    /// A GSI (`true`) or an LSI.
    pub global: bool,
    /// The index partition key and its declared type.
    pub hash: (String, ScalarAttributeType),
    /// The index sort key and its declared type, if any.
    pub range: Option<(String, ScalarAttributeType)>,
    /// The attributes an entry holds (index keys, table keys, included attributes); `None` for ALL.
    projected: Option<BTreeSet<String>>,
    /// The table key attribute names, partition key first.
    table_keys: Vec<String>,
    entries: IndexPartitions,
    count: usize,
    size: usize,
}

impl Index {
    /// An empty index of `schema`'s table.
    pub fn new(
        name: &str,
        global: bool,
        key_schema: &[KeySchemaElement],
        projection: &Projection,
        schema: &TableSchema,
    ) -> Index {
        let key = |kt: KeyType| {
            key_schema.iter().find(|k| k.key_type == kt).map(|k| {
                (
                    k.attribute_name.clone(),
                    schema.attribute_type(&k.attribute_name),
                )
            })
        };
        // CreateTable validation guarantees a HASH element; the fallback keeps this total.
        let hash = key(KeyType::Hash).unwrap_or_else(|| (String::new(), ScalarAttributeType::S));
        let range = key(KeyType::Range);
        let table_keys: Vec<String> = schema
            .key_schema
            .iter()
            .map(|k| k.attribute_name.clone())
            .collect();
        let projected = match projection.projection_type {
            ProjectionType::All => None,
            ProjectionType::KeysOnly | ProjectionType::Include => {
                let mut names: BTreeSet<String> = table_keys.iter().cloned().collect();
                names.insert(hash.0.clone());
                names.extend(range.iter().map(|r| r.0.clone()));
                if projection.projection_type == ProjectionType::Include {
                    names.extend(projection.non_key_attributes.iter().cloned());
                }
                Some(names)
            }
        };
        Index {
            name: name.to_owned(),
            global,
            hash,
            range,
            projected,
            table_keys,
            entries: BTreeMap::new(),
            count: 0,
            size: 0,
        }
    }

    /// The key attribute names that identify an entry: table keys then index keys, without repeats
    /// (the attributes of an index `LastEvaluatedKey` / `ExclusiveStartKey`).
    pub fn entry_key_names(&self) -> Vec<String> {
        let mut names = self.table_keys.clone();
        for n in std::iter::once(&self.hash.0).chain(self.range.as_ref().map(|r| &r.0)) {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
        names
    }

    /// Whether an entry holds attribute `name`.
    pub fn projects(&self, name: &str) -> bool {
        self.projected.as_ref().is_none_or(|p| p.contains(name))
    }

    /// Whether entries hold every attribute of the item (projection ALL).
    pub fn projects_all(&self) -> bool {
        self.projected.is_none()
    }

    /// The entries, for Query and Scan.
    pub fn partitions(&self) -> &IndexPartitions {
        &self.entries
    }

    /// Where `item` (stored under table key `key`) sits in this index; `None` when it lacks an index key
    /// attribute (sparse index) or holds one of the wrong type (validation rejects those writes).
    /// Whether `item` has an entry in this index: it holds the index key attributes with the key types
    /// (a sparse index leaves the others out).
    pub fn holds(&self, item: &Item) -> bool {
        let typed = |(name, ty): &(String, ScalarAttributeType)| {
            item.get(name)
                .and_then(|v| KeyValue::from_attribute(v, *ty))
                .is_some()
        };
        typed(&self.hash) && self.range.as_ref().is_none_or(typed)
    }

    /// Whether two items have the same index key (both held by the index).
    pub fn same_key(&self, a: &Item, b: &Item) -> bool {
        std::iter::once(&self.hash.0)
            .chain(self.range.as_ref().map(|r| &r.0))
            .all(|name| a.get(name) == b.get(name))
    }

    /// Whether two items have the same entry in this index: equal projected attributes.
    pub fn same_entry(&self, a: &Item, b: &Item) -> bool {
        let count = |item: &Item| item.keys().filter(|n| self.projects(n)).count();
        count(a) == count(b)
            && a.iter()
                .filter(|(n, _)| self.projects(n))
                .all(|(n, v)| b.get(n) == Some(v))
    }

    fn position(&self, key: &PrimaryKey, item: &Item) -> Option<(PartitionSlot, IndexPosition)> {
        let hash = KeyValue::from_attribute(item.get(&self.hash.0)?, self.hash.1)?;
        let range = match &self.range {
            Some((name, ty)) => Some(KeyValue::from_attribute(item.get(name)?, *ty)?),
            None => None,
        };
        Some((partition_slot(hash), (range, Tie::Key(key.clone()))))
    }

    /// The entry of `item`: the projected attributes only.
    fn entry(&self, item: &Item) -> Item {
        match &self.projected {
            None => item.clone(),
            Some(names) => item
                .iter()
                .filter(|(k, _)| names.contains(*k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        }
    }

    /// Adds the entry of `item` (stored under `key`), if it belongs in the index.
    pub fn insert(&mut self, key: &PrimaryKey, item: &Item) {
        let Some((slot, pos)) = self.position(key, item) else {
            return;
        };
        // Entries are stored compactly too (see `stored.rs`): an entry costs its projected size plus
        // a few bytes, not a map node.
        let entry = match &self.projected {
            None => StoredItem::encode(item),
            Some(_) => StoredItem::encode(&self.entry(item)),
        };
        self.size += entry.size();
        let old = self.entries.entry(slot).or_default().insert(pos, entry);
        match old {
            Some(old) => self.size = self.size.saturating_sub(old.size()),
            None => self.count += 1,
        }
    }

    /// Removes the entry of `item` (stored under `key`), if it had one.
    pub fn remove(&mut self, key: &PrimaryKey, item: &Item) {
        let Some((slot, pos)) = self.position(key, item) else {
            return;
        };
        let Some(partition) = self.entries.get_mut(&slot) else {
            return;
        };
        if let Some(old) = partition.remove(&pos) {
            self.count = self.count.saturating_sub(1);
            self.size = self.size.saturating_sub(old.size());
        }
        if partition.is_empty() {
            self.entries.remove(&slot);
        }
    }

    /// DescribeTable's `ItemCount`.
    pub fn item_count(&self) -> i64 {
        i64::try_from(self.count).unwrap_or(i64::MAX)
    }

    /// DescribeTable's `IndexSizeBytes`: the sum of the entries' sizes.
    pub fn size_bytes(&self) -> i64 {
        i64::try_from(self.size).unwrap_or(i64::MAX)
    }
}

/// The indexes of a table: LSIs first, then GSIs, each in definition order.
pub fn indexes_of(schema: &TableSchema) -> Vec<Index> {
    let lsis = schema
        .local_secondary_indexes
        .iter()
        .map(|i| Index::new(&i.index_name, false, &i.key_schema, &i.projection, schema));
    let gsis = schema
        .global_secondary_indexes
        .iter()
        .map(|i| Index::new(&i.index_name, true, &i.key_schema, &i.projection, schema));
    lsis.chain(gsis).collect()
}
