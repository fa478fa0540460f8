//! [`Consumed`]: the capacity some requests consumed, summed per table (and per index when the
//! requests asked for `INDEXES`). What [`with_capacity`](super::CapacityExt::with_capacity) returns and
//! what the [`Meter`](super::Meter) accumulates.

use std::collections::BTreeMap;

use crate::backend::{Capacity, ConsumedCapacity};

/// Whether an operation reads or writes: DynamoDB's `TOTAL` answer gives only `CapacityUnits`, and
/// the operation says which kind of units they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// GetItem, Query, Scan, BatchGetItem, TransactGetItems.
    Read,
    /// PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems.
    Write,
}

/// The capacity consumed by one or more requests, one [`ConsumedCapacity`] per table (sorted by
/// name), each the sum of what the responses reported for that table.
///
/// Entries always carry the read/write split: where a response gave only `CapacityUnits` (the
/// `TOTAL` answer), the units count as read units for a read operation and write units for a write.
/// The per-index shares (`table`, `global_secondary_indexes`, `local_secondary_indexes`) are present
/// only when the requests asked for `INDEXES`.
///
/// ```
/// use dynomodel::{Consumed, ConsumedCapacity};
///
/// let nothing = Consumed::default();
/// assert_eq!((nothing.capacity_units(), nothing.requests()), (0.0, 0));
/// assert!(nothing.table("users").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Consumed {
    tables: Vec<ConsumedCapacity>,
    requests: usize,
}

impl Consumed {
    /// Each table's total, sorted by table name.
    pub fn tables(&self) -> &[ConsumedCapacity] {
        &self.tables
    }

    /// One table's total (the full name, namespace included: [`Db::table_name`](crate::Db::table_name)).
    pub fn table(&self, name: &str) -> Option<&ConsumedCapacity> {
        self.tables.iter().find(|c| c.table_name == name)
    }

    /// All units, read and write, on every table.
    pub fn capacity_units(&self) -> f64 {
        self.tables.iter().filter_map(|c| c.capacity_units).sum()
    }

    /// All read units on every table.
    pub fn read_units(&self) -> f64 {
        self.tables
            .iter()
            .filter_map(|c| c.read_capacity_units)
            .sum()
    }

    /// All write units on every table.
    pub fn write_units(&self) -> f64 {
        self.tables
            .iter()
            .filter_map(|c| c.write_capacity_units)
            .sum()
    }

    /// How many responses reported capacity (a query of three pages: three).
    pub fn requests(&self) -> usize {
        self.requests
    }

    /// Whether no response reported anything.
    pub fn is_empty(&self) -> bool {
        self.requests == 0
    }

    /// Adds one response's report (one entry per table it touched).
    pub(crate) fn add(&mut self, kind: Kind, reported: &[ConsumedCapacity]) {
        self.requests += 1;
        for c in reported {
            let at = match self
                .tables
                .binary_search_by(|t| t.table_name.as_str().cmp(&c.table_name))
            {
                Ok(at) => at,
                Err(at) => {
                    let empty = ConsumedCapacity {
                        table_name: c.table_name.clone(),
                        ..Default::default()
                    };
                    self.tables.insert(at, empty);
                    at
                }
            };
            add_table(&mut self.tables[at], kind, c);
        }
    }
}

fn add_table(total: &mut ConsumedCapacity, kind: Kind, c: &ConsumedCapacity) {
    let (read, write) = split(
        kind,
        c.capacity_units,
        c.read_capacity_units,
        c.write_capacity_units,
    );
    total.capacity_units = sum(total.capacity_units, c.capacity_units);
    total.read_capacity_units = sum(total.read_capacity_units, read);
    total.write_capacity_units = sum(total.write_capacity_units, write);
    if let Some(table) = &c.table {
        let into = total.table.get_or_insert_with(Capacity::default);
        add_capacity(into, kind, table);
    }
    add_indexes(
        &mut total.global_secondary_indexes,
        kind,
        &c.global_secondary_indexes,
    );
    add_indexes(
        &mut total.local_secondary_indexes,
        kind,
        &c.local_secondary_indexes,
    );
}

fn add_indexes(
    totals: &mut BTreeMap<String, Capacity>,
    kind: Kind,
    reported: &BTreeMap<String, Capacity>,
) {
    for (name, c) in reported {
        add_capacity(totals.entry(name.clone()).or_default(), kind, c);
    }
}

fn add_capacity(total: &mut Capacity, kind: Kind, c: &Capacity) {
    let (read, write) = split(
        kind,
        c.capacity_units,
        c.read_capacity_units,
        c.write_capacity_units,
    );
    total.capacity_units = sum(total.capacity_units, c.capacity_units);
    total.read_capacity_units = sum(total.read_capacity_units, read);
    total.write_capacity_units = sum(total.write_capacity_units, write);
}

/// The read and write units of a report: as given, or, when it gives neither, its `CapacityUnits`
/// counted as the operation's kind.
fn split(
    kind: Kind,
    units: Option<f64>,
    read: Option<f64>,
    write: Option<f64>,
) -> (Option<f64>, Option<f64>) {
    match (read, write, kind) {
        (None, None, Kind::Read) => (units, None),
        (None, None, Kind::Write) => (None, units),
        given => (given.0, given.1),
    }
}

fn sum(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a + b),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(table: &str, units: f64) -> ConsumedCapacity {
        ConsumedCapacity {
            table_name: table.into(),
            capacity_units: Some(units),
            ..Default::default()
        }
    }

    #[test]
    fn sums_per_table_and_splits_total_by_operation_kind() {
        let mut c = Consumed::default();
        c.add(Kind::Read, &[total("b", 0.5)]);
        c.add(Kind::Write, &[total("a", 2.0), total("b", 1.0)]);
        c.add(Kind::Read, &[total("b", 1.5)]);
        assert_eq!(c.requests(), 3);
        let names: Vec<_> = c.tables().iter().map(|t| t.table_name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        let b = c.table("b").cloned().unwrap_or_default();
        assert_eq!(b.capacity_units, Some(3.0));
        assert_eq!(b.read_capacity_units, Some(2.0));
        assert_eq!(b.write_capacity_units, Some(1.0));
        assert_eq!(
            (c.read_units(), c.write_units(), c.capacity_units()),
            (2.0, 3.0, 5.0)
        );
    }

    #[test]
    fn keeps_a_given_split_and_sums_index_shares() {
        let gsi = Capacity {
            write_capacity_units: Some(1.0),
            capacity_units: Some(1.0),
            ..Default::default()
        };
        let report = ConsumedCapacity {
            table_name: "t".into(),
            capacity_units: Some(3.0),
            write_capacity_units: Some(3.0),
            table: Some(Capacity {
                capacity_units: Some(2.0),
                ..Default::default()
            }),
            global_secondary_indexes: BTreeMap::from([("g".to_owned(), gsi)]),
            ..Default::default()
        };
        let mut c = Consumed::default();
        c.add(Kind::Write, std::slice::from_ref(&report));
        c.add(Kind::Write, &[report]);
        let t = c.table("t").cloned().unwrap_or_default();
        assert_eq!(t.write_capacity_units, Some(6.0));
        assert_eq!(t.read_capacity_units, None);
        let table = t.table.unwrap_or_default();
        assert_eq!(
            (table.capacity_units, table.write_capacity_units),
            (Some(4.0), Some(4.0))
        );
        assert_eq!(
            t.global_secondary_indexes["g"].write_capacity_units,
            Some(2.0)
        );
    }
}
