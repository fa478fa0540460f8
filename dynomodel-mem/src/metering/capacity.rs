//! What a request consumed: read and write capacity units, computed only when the request asked for
//! `ReturnConsumedCapacity` (TOTAL or INDEXES), so the plain path pays nothing.
//!
//! Every figure comes from one size function, dynomodel's [`item_size`] (the developer guide's
//! `CapacityUnitCalculations.html`), through the rules of the developer guide (`ProvisionedThroughput.html`, `GSI.html`, `LSI.html`):
//! - reads round the bytes read **up** to 4 KB units; eventually consistent ×½, transactional ×2; a
//!   read of nothing still costs one unit;
//! - writes round **up** to 1 KB units; a Put/Update costs the larger of the old and new item, a Delete
//!   the deleted item (one unit when there was none); transactional ×2;
//! - an index write costs its entry: appearing or disappearing 1×, a changed index key 2× (delete and
//!   put), a changed projection 1×, nothing when absent before and after or unchanged.
//!
//! The report's shape is DynamoDB Local 3.3's and the API reference examples': TOTAL gives
//! `{TableName, CapacityUnits}`; INDEXES adds `Table` and each index that consumed something, each with
//! `CapacityUnits` only.

use std::collections::BTreeMap;

use dynomodel::backend::{Capacity, ConsumedCapacity, ReturnConsumedCapacity};
use dynomodel::{item_size, Item, ItemSize};

use crate::storage::index::Index;
use crate::storage::table::Table;

// The unit sizes and their rounding are the mapper's (`dynomodel::ItemSize`), which applications
// use to predict what the engine charges.

/// How a read was made, which scales its units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Consistency {
    /// Eventually consistent: half a unit per 4 KB (every GSI read).
    Eventual,
    /// Strongly consistent (`ConsistentRead=true`): one unit per 4 KB.
    Strong,
    /// Inside a transaction: two units per 4 KB (or per 1 KB for writes).
    Transactional,
}

impl Consistency {
    /// The consistency of a read with this `ConsistentRead` (eventual unless true).
    pub(crate) fn of(consistent_read: Option<bool>) -> Consistency {
        if consistent_read == Some(true) {
            Consistency::Strong
        } else {
            Consistency::Eventual
        }
    }

    fn factor(self) -> f64 {
        match self {
            Consistency::Eventual => 0.5,
            Consistency::Strong => 1.0,
            Consistency::Transactional => 2.0,
        }
    }
}

/// Whether the request asked for a report (TOTAL or INDEXES).
pub(crate) fn wanted(mode: Option<ReturnConsumedCapacity>) -> bool {
    matches!(
        mode,
        Some(ReturnConsumedCapacity::Total | ReturnConsumedCapacity::Indexes)
    )
}

/// The read units of `bytes` read at once (one item, or a whole Query/Scan page): whole 4 KB units,
/// at least one (an empty read still costs the minimum).
pub(crate) fn read_units(bytes: usize, consistency: Consistency) -> f64 {
    ItemSize::new(bytes).strongly_consistent_read_units() * consistency.factor()
}

/// The write units of writing `bytes` once: whole 1 KB units, at least one (the delete of a missing
/// item still costs the minimum).
pub(crate) fn write_units(bytes: usize) -> f64 {
    ItemSize::new(bytes).write_units()
}

/// The units one request consumed on one table and its indexes, before they are reported.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Consumed {
    /// Units on the table itself.
    pub(crate) table: f64,
    /// Units per local secondary index.
    pub(crate) local: BTreeMap<String, f64>,
    /// Units per global secondary index.
    pub(crate) global: BTreeMap<String, f64>,
}

impl Consumed {
    /// Units on the table only.
    pub(crate) fn table(units: f64) -> Consumed {
        Consumed {
            table: units,
            ..Consumed::default()
        }
    }

    /// Adds `units` on `index` (an index that consumed nothing is not listed).
    pub(crate) fn add_index(&mut self, index: &Index, units: f64) {
        if units <= 0.0 {
            return;
        }
        let map = if index.global {
            &mut self.global
        } else {
            &mut self.local
        };
        *map.entry(index.name.clone()).or_default() += units;
    }

    /// Adds everything `other` consumed (several items of one table in a batch or a transaction).
    pub(crate) fn add(&mut self, other: &Consumed) {
        self.table += other.table;
        for (name, units) in &other.local {
            *self.local.entry(name.clone()).or_default() += units;
        }
        for (name, units) in &other.global {
            *self.global.entry(name.clone()).or_default() += units;
        }
    }

    /// Every figure multiplied by `factor` (×2 for a transaction's writes).
    pub(crate) fn scaled(mut self, factor: f64) -> Consumed {
        self.table *= factor;
        self.local.values_mut().for_each(|u| *u *= factor);
        self.global.values_mut().for_each(|u| *u *= factor);
        self
    }

    fn total(&self) -> f64 {
        self.table + self.local.values().sum::<f64>() + self.global.values().sum::<f64>()
    }

    /// The report for `table_name` in the requested mode (`None` for NONE or no mode).
    pub(crate) fn report(
        &self,
        table_name: &str,
        mode: Option<ReturnConsumedCapacity>,
    ) -> Option<ConsumedCapacity> {
        let capacity = |units: f64| Capacity {
            capacity_units: Some(units),
            ..Capacity::default()
        };
        let mut report = ConsumedCapacity {
            table_name: table_name.to_owned(),
            capacity_units: Some(self.total()),
            ..ConsumedCapacity::default()
        };
        match mode {
            Some(ReturnConsumedCapacity::Total) => {}
            Some(ReturnConsumedCapacity::Indexes) => {
                report.table = Some(capacity(self.table));
                let each = |m: &BTreeMap<String, f64>| -> BTreeMap<String, Capacity> {
                    m.iter().map(|(n, u)| (n.clone(), capacity(*u))).collect()
                };
                report.local_secondary_indexes = each(&self.local);
                report.global_secondary_indexes = each(&self.global);
            }
            Some(ReturnConsumedCapacity::None) | None => return None,
        }
        Some(report)
    }
}

/// What one request consumed on each table, in the order the tables first appear (TransactItems
/// order; a batch's map order), reported one entry per table.
#[derive(Debug, Default)]
pub(crate) struct PerTable(Vec<(String, Consumed)>);

impl PerTable {
    /// Adds `consumed` to the entry of `table_name`.
    pub(crate) fn add(&mut self, table_name: &str, consumed: &Consumed) {
        match self.0.iter_mut().find(|(name, _)| name == table_name) {
            Some((_, c)) => c.add(consumed),
            None => self.0.push((table_name.to_owned(), consumed.clone())),
        }
    }

    /// The reports, one per table (empty for NONE).
    pub(crate) fn report(&self, mode: Option<ReturnConsumedCapacity>) -> Vec<ConsumedCapacity> {
        self.0
            .iter()
            .filter_map(|(name, c)| c.report(name, mode))
            .collect()
    }
}

/// The read cost of one item by key (GetItem, a key of BatchGetItem, a Get of a transaction): the
/// whole item (of `size` bytes, 0 when missing), whatever the projection; a missing item costs the
/// minimum.
pub(crate) fn item_read(size: usize, consistency: Consistency) -> Consumed {
    Consumed::table(read_units(size, consistency))
}

/// The write cost of replacing `old` by `new` in `table` (a Put or an Update: both present or `old`
/// absent; a Delete: `new` absent), on the table and on every index.
pub(crate) fn item_write(table: &Table, old: Option<&Item>, new: Option<&Item>) -> Consumed {
    let bytes = old.map_or(0, item_size).max(new.map_or(0, item_size));
    let mut consumed = Consumed::table(write_units(bytes));
    for index in table.indexes() {
        consumed.add_index(index, index_write(index, old, new));
    }
    consumed
}

/// The write units of an item change on one index (the developer guide's `GSI.html`, "Write
/// capacity units").
fn index_write(index: &Index, old: Option<&Item>, new: Option<&Item>) -> f64 {
    let old = old.filter(|item| index.holds(*item));
    let new = new.filter(|item| index.holds(*item));
    match (old, new) {
        (None, None) => 0.0,
        (Some(entry), None) | (None, Some(entry)) => write_units(index.entry_size(entry)),
        (Some(old), Some(new)) => {
            if !index.same_key(old, new) {
                // The old entry is deleted and the new one put.
                write_units(index.entry_size(old)) + write_units(index.entry_size(new))
            } else if index.same_entry(old, new) {
                0.0
            } else {
                write_units(index.entry_size(old).max(index.entry_size(new)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_round_up_to_4_kb_units() {
        assert_eq!(read_units(0, Consistency::Strong), 1.0);
        assert_eq!(read_units(1, Consistency::Strong), 1.0);
        assert_eq!(read_units(4096, Consistency::Strong), 1.0);
        assert_eq!(read_units(4097, Consistency::Strong), 2.0);
        assert_eq!(read_units(4097, Consistency::Eventual), 1.0);
        assert_eq!(read_units(4096, Consistency::Eventual), 0.5);
        assert_eq!(read_units(8193, Consistency::Transactional), 6.0);
        // The guide's Query example: 27 items of 40 KB read at once, eventually consistent.
        assert_eq!(read_units(1_080_351, Consistency::Eventual), 132.0);
    }

    #[test]
    fn writes_round_up_to_1_kb_units() {
        assert_eq!(write_units(0), 1.0);
        assert_eq!(write_units(1024), 1.0);
        assert_eq!(write_units(1025), 2.0);
        assert_eq!(write_units(1500), 2.0);
        assert_eq!(write_units(409_600), 400.0);
    }

    #[test]
    fn multi_byte_utf8_counts_bytes_not_characters() {
        let mut item = Item::new();
        // 'é' is two bytes in UTF-8: "d" (1) + 512 × 2 = 1025 bytes.
        item.insert("d".into(), dynomodel::AttributeValue::S("é".repeat(512)));
        assert_eq!(item_size(&item), 1025);
        assert_eq!(write_units(item_size(&item)), 2.0);
        let mut item = Item::new();
        // '€' is three bytes: "d" (1) + 1365 × 3 = 4096 bytes, one read unit exactly.
        item.insert("d".into(), dynomodel::AttributeValue::S("€".repeat(1365)));
        assert_eq!(item_size(&item), 4096);
        assert_eq!(
            item_read(item_size(&item), Consistency::Strong),
            Consumed::table(1.0)
        );
    }

    #[test]
    fn reports_follow_the_mode() {
        let mut c = Consumed::table(2.0);
        c.local.insert("lsi".into(), 1.0);
        c.global.insert("gsi".into(), 3.0);
        assert_eq!(c.report("t", None), None);
        assert_eq!(c.report("t", Some(ReturnConsumedCapacity::None)), None);
        let total = c.report("t", Some(ReturnConsumedCapacity::Total)).unwrap();
        assert_eq!(total.capacity_units, Some(6.0));
        assert!(total.table.is_none() && total.global_secondary_indexes.is_empty());
        let indexes = c
            .report("t", Some(ReturnConsumedCapacity::Indexes))
            .unwrap();
        assert_eq!(indexes.capacity_units, Some(6.0));
        assert_eq!(indexes.table.unwrap().capacity_units, Some(2.0));
        assert_eq!(
            indexes.local_secondary_indexes["lsi"].capacity_units,
            Some(1.0)
        );
        assert_eq!(
            indexes.global_secondary_indexes["gsi"].capacity_units,
            Some(3.0)
        );
        assert_eq!(c.clone().scaled(2.0).total(), 12.0);
    }

    #[test]
    fn per_table_entries_keep_first_appearance_order() {
        let mut p = PerTable::default();
        p.add("b", &Consumed::table(1.0));
        p.add("a", &Consumed::table(2.0));
        p.add("b", &Consumed::table(0.5));
        let r = p.report(Some(ReturnConsumedCapacity::Total));
        let names: Vec<_> = r
            .iter()
            .map(|c| (c.table_name.as_str(), c.capacity_units))
            .collect();
        assert_eq!(names, [("b", Some(1.5)), ("a", Some(2.0))]);
        assert!(p.report(None).is_empty());
    }
}
