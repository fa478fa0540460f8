//! The items of one partition of a table, ordered by sort key. (An index keeps all its entries in
//! one set instead: `index.rs`.)
//!
//! A `BTreeMap` allocates a leaf of eleven slots for its first entry, which is most of the memory of a
//! partition that holds one item: every item of a table with a partition key only (and every entry of
//! an index on a unique attribute, when indexes had partitions too: `benches/memory.rs` measured
//! ~2,500 bytes per item and entry with such a GSI). A partition of one entry therefore holds it
//! inline, and becomes a map at its second.
//!
//! The map is a persistent one ([`imbl::OrdMap`]: a B-tree whose nodes are shared by reference
//! count), so that a copy of a table (a fork, a snapshot, a backup) shares every partition with the
//! table it was copied from and a write copies only the nodes on its path (docs/performance.md, "Forks"
//! explains the choice and its cost).

use std::ops::{Bound, RangeBounds};

use imbl::{ordmap, OrdMap};

use crate::storage::key::{KeyValue, PartitionSlot};
use crate::storage::stored::StoredItem;

/// The items of a table: partitions in Scan order, then items by sort key (`Table`'s, and the
/// copies backups and point-in-time recovery keep of them).
pub(crate) type TablePartitions = OrdMap<PartitionSlot, Partition<Option<KeyValue>, StoredItem>>;

/// The entries of a partition. A clone shares a map's nodes with the original.
pub enum Partition<K, V> {
    /// No entry (a partition is dropped when it empties; this is only the starting point).
    Empty,
    /// One entry, inline.
    One(K, V),
    /// Two or more.
    Many(OrdMap<K, V>),
}

impl<K: Ord + std::fmt::Debug, V: std::fmt::Debug> std::fmt::Debug for Partition<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Partition::Empty => f.write_str("Empty"),
            Partition::One(k, v) => f.debug_tuple("One").field(k).field(v).finish(),
            Partition::Many(map) => f.debug_tuple("Many").field(map).finish(),
        }
    }
}

// By hand: the derive would not require `K: Ord`, which the map's `Clone` needs.
impl<K: Ord + Clone, V: Clone> Clone for Partition<K, V> {
    fn clone(&self) -> Self {
        match self {
            Partition::Empty => Partition::Empty,
            Partition::One(k, v) => Partition::One(k.clone(), v.clone()),
            Partition::Many(map) => Partition::Many(map.clone()),
        }
    }
}

// By hand: the derive would require `K: Default` and `V: Default`, which stored items are not.
#[allow(clippy::derivable_impls)]
impl<K, V> Default for Partition<K, V> {
    fn default() -> Self {
        Partition::Empty
    }
}

/// Equal when they hold the same entries, whatever their form.
impl<K: Ord + Clone, V: PartialEq + Clone> PartialEq for Partition<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<K: Ord + Clone, V: Clone> Partition<K, V> {
    /// The entry at `k`.
    pub fn get(&self, k: &K) -> Option<&V> {
        match self {
            Partition::Empty => None,
            Partition::One(key, v) => (key == k).then_some(v),
            Partition::Many(map) => map.get(k),
        }
    }

    /// Stores `v` at `k`, returning the entry it replaced.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match std::mem::take(self) {
            Partition::Empty => {
                *self = Partition::One(k, v);
                None
            }
            Partition::One(key, old) if key == k => {
                *self = Partition::One(key, v);
                Some(old)
            }
            Partition::One(key, old) => {
                *self = Partition::Many(OrdMap::from(vec![(key, old), (k, v)]));
                None
            }
            Partition::Many(mut map) => {
                let old = map.insert(k, v);
                *self = Partition::Many(map);
                old
            }
        }
    }

    /// Removes the entry at `k`.
    pub fn remove(&mut self, k: &K) -> Option<V> {
        match std::mem::take(self) {
            Partition::One(key, v) if key == *k => Some(v),
            Partition::Many(mut map) => {
                let old = map.remove(k);
                *self = Partition::Many(map);
                old
            }
            other => {
                *self = other;
                None
            }
        }
    }

    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        match self {
            Partition::Empty => true,
            Partition::One(..) => false,
            Partition::Many(map) => map.is_empty(),
        }
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        match self {
            Partition::Empty => Iter::One(None),
            Partition::One(k, v) => Iter::One(Some((k, v))),
            Partition::Many(map) => Iter::All(map.iter()),
        }
    }

    /// The entries between `lo` and `hi`, in order; none for an inverted or empty range (which
    /// a `BTreeMap`'s range would panic on: the caller checks that, see `paging::checked_range`).
    pub fn range(&self, lo: Bound<K>, hi: Bound<K>) -> Iter<'_, K, V> {
        match self {
            Partition::Empty => Iter::One(None),
            Partition::One(k, v) => Iter::One((lo, hi).contains(k).then_some((k, v))),
            Partition::Many(map) => Iter::Range(map.range((lo, hi))),
        }
    }
}

impl<'a, K: Ord + Clone, V: Clone> IntoIterator for &'a Partition<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

/// The entries of a partition, or a range of them.
pub enum Iter<'a, K, V> {
    /// The one entry (if in range).
    One(Option<(&'a K, &'a V)>),
    /// A map's entries.
    All(ordmap::Iter<'a, K, V, imbl::shared_ptr::DefaultSharedPtr>),
    /// A map's range.
    Range(ordmap::RangedIter<'a, K, V, imbl::shared_ptr::DefaultSharedPtr>),
}

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Iter::One(one) => one.take(),
            Iter::All(i) => i.next(),
            Iter::Range(r) => r.next(),
        }
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::One(one) => one.take(),
            Iter::All(i) => i.next_back(),
            Iter::Range(r) => r.next_back(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(p: &Partition<i32, &str>, lo: Bound<i32>, hi: Bound<i32>) -> Vec<i32> {
        p.range(lo, hi).map(|(k, _)| *k).collect()
    }

    #[test]
    fn one_entry_inline_then_a_map_and_back() {
        let mut p = Partition::default();
        assert!(p.is_empty());
        assert_eq!(p.insert(5, "a"), None);
        assert!(matches!(p, Partition::One(..)));
        assert_eq!(p.insert(5, "b"), Some("a"));
        assert_eq!(p.get(&5), Some(&"b"));
        assert_eq!(p.get(&6), None);
        assert_eq!(
            keys(&p, Bound::Excluded(5), Bound::Unbounded),
            Vec::<i32>::new()
        );
        assert_eq!(keys(&p, Bound::Included(5), Bound::Included(5)), [5]);
        assert_eq!(p.insert(3, "c"), None);
        assert!(matches!(p, Partition::Many(_)));
        assert_eq!(p.iter().map(|(k, _)| *k).collect::<Vec<_>>(), [3, 5]);
        assert_eq!(p.iter().rev().map(|(k, _)| *k).collect::<Vec<_>>(), [5, 3]);
        assert_eq!(keys(&p, Bound::Excluded(3), Bound::Unbounded), [5]);
        assert_eq!(p.remove(&4), None);
        assert_eq!(p.remove(&3), Some("c"));
        assert_eq!(p.remove(&5), Some("b"));
        assert!(p.is_empty());
        let mut one = Partition::default();
        one.insert(1, "x");
        assert_eq!(one.remove(&2), None);
        assert_eq!(one.remove(&1), Some("x"));
        assert!(one.is_empty());
    }
}
