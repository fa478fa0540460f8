//! The duplicate check's tables of a request's large value sets, kept for the update that adds or
//! deletes them.
//!
//! A set ADD or DELETE hashed its operand twice: once when `ExpressionAttributeValues` was checked for
//! duplicates, then again for the union's or difference's table. The check of each large set of that
//! map now keeps its table (each element's keyed hash and its position), and `expr::update` looks the
//! stored set's elements up in it rather than building a table of the operand again.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasherDefault;

use dynomodel::AttributeValue;

use super::element::{Keyed, SetElement};
use crate::storage::request_hash::{RequestState, Taken};

/// One set's table: each element's hash (keyed with random keys, as every table of a request's
/// elements) and its position in the set. Built only when every hash is distinct.
#[derive(Debug)]
pub(crate) struct SetTable {
    state: RequestState,
    positions: HashMap<u64, u32, BuildHasherDefault<Taken>>,
}

/// What [`SetTable::of`] found.
pub(crate) enum Checked {
    /// No duplicates, and the set's table.
    Table(SetTable),
    /// No duplicates, but two elements' hashes are equal (64 random bits alike): no table.
    NoTable,
    /// Two elements are equal.
    Duplicate,
}

impl SetTable {
    /// Checks `set` for duplicates by its elements' hashes, keeping them. Two equal hashes (a
    /// duplicate, or a collision) are settled by the elements, as the plain check does.
    pub(crate) fn of<T: SetElement>(set: &[T]) -> Checked {
        let state = RequestState::new();
        let mut positions =
            HashMap::with_capacity_and_hasher(set.len(), BuildHasherDefault::default());
        for (i, x) in set.iter().enumerate() {
            let Ok(position) = u32::try_from(i) else {
                return Checked::NoTable;
            };
            if positions
                .insert(state.hash_one(Keyed(x)), position)
                .is_some()
            {
                let mut seen = crate::storage::request_hash::set_with_capacity(set.len());
                return if set.iter().all(|x| seen.insert(Keyed(x))) {
                    Checked::NoTable
                } else {
                    Checked::Duplicate
                };
            }
        }
        Checked::Table(SetTable { state, positions })
    }

    /// The position in `set` (the set this table was built of) of the element equal to `x`.
    #[inline]
    pub(crate) fn position<T: SetElement>(&self, set: &[T], x: &T) -> Option<usize> {
        let &i = self.positions.get(&self.state.hash_one(Keyed(x)))?;
        let i = usize::try_from(i).ok()?;
        // Equal hashes of unequal elements: 64 random bits alike.
        (set.get(i)? == x).then_some(i)
    }
}

/// The tables of a request's `ExpressionAttributeValues` sets, by where each set's elements lie: the
/// map is borrowed, unchanged, from its check to the update, and no other live set shares an
/// address (only sets past [`super::SCAN_UP_TO`] elements are tabled, never an empty one). No map
/// until a set is tabled: every request that prepares expressions drops this, and an empty
/// `BTreeMap`'s drop is a call.
#[derive(Debug, Default)]
pub(crate) struct SetTables(Option<BTreeMap<(usize, usize), SetTable>>);

impl SetTables {
    /// Keeps `table`, the table of `value`'s elements.
    pub(crate) fn keep(&mut self, value: &AttributeValue, table: SetTable) {
        if let Some(at) = address(value) {
            self.0.get_or_insert_default().insert(at, table);
        }
    }

    /// The table of `set`, if it is a set of the request's values that was tabled.
    #[inline]
    pub(crate) fn of<T>(&self, set: &[T]) -> Option<&SetTable> {
        self.0.as_ref()?.get(&(set.as_ptr() as usize, set.len()))
    }
}

fn address(value: &AttributeValue) -> Option<(usize, usize)> {
    match value {
        AttributeValue::Ss(set) => Some((set.as_ptr() as usize, set.len())),
        AttributeValue::Ns(set) => Some((set.as_ptr() as usize, set.len())),
        AttributeValue::Bs(set) => Some((set.as_ptr() as usize, set.len())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("e{i}")).collect()
    }

    #[test]
    fn a_table_finds_each_element_and_nothing_else() {
        let set = strings(100);
        let Checked::Table(table) = SetTable::of(&set) else {
            panic!("no table");
        };
        for (i, x) in set.iter().enumerate() {
            assert_eq!(table.position(&set, x), Some(i));
        }
        assert_eq!(table.position(&set, &"e100".to_owned()), None);
        assert_eq!(table.position(&set, &String::new()), None);
    }

    #[test]
    fn a_duplicate_is_found_and_gets_no_table() {
        let mut set = strings(40);
        set.push("e7".to_owned());
        assert!(matches!(SetTable::of(&set), Checked::Duplicate));
        let numbers: Vec<dynomodel::Number> = ["1", "2", "3", "1.0"]
            .iter()
            .map(|n| n.parse().unwrap())
            .collect();
        assert!(matches!(SetTable::of(&numbers), Checked::Duplicate));
        let binaries = vec![vec![0u8], vec![0, 0], vec![0]];
        assert!(matches!(SetTable::of(&binaries), Checked::Duplicate));
    }

    #[test]
    fn tables_are_found_by_the_set_they_were_built_of() {
        let value = AttributeValue::Ss(strings(20));
        let copy = value.clone();
        let AttributeValue::Ss(set) = &value else {
            unreachable!()
        };
        let Checked::Table(table) = SetTable::of(set) else {
            panic!("no table");
        };
        let mut tables = SetTables::default();
        assert!(tables.of(set).is_none());
        tables.keep(&value, table);
        assert!(tables.of(set).is_some());
        let AttributeValue::Ss(other) = &copy else {
            unreachable!()
        };
        assert!(tables.of(other).is_none(), "a copy is another set");
        assert!(tables.of(&set[1..]).is_none());
    }
}
