//! Secondary indexes (LSI and GSI): their stores and their maintenance.
//!
//! An index is ordered like a table: partitions by `(stable_hash(index pk), index pk)` (the Scan order),
//! then entries by index sort key. Index keys need not be unique, so the position of an entry is the
//! index sort key *then the table key* ([`Tie`]), which is also the order DynamoDB returns ties in and
//! what makes an index `LastEvaluatedKey` (index keys plus table keys) resume at exactly one place.
//!
//! How an index holds its entries (measured in docs/performance.md): one `BTreeSet` of [`IndexEntry`]s, each one allocation
//! holding the entry's *position* and its projected item (encoded as the table encodes its items,
//! `stored.rs`). The position is a byte string whose byte order is the order above: the partition's
//! stable hash (8 bytes, big-endian), the index partition key, the index sort key, then the parts of
//! the table key that the index keys do not already hold (an LSI's tie leaves the table partition key
//! out: it is the index partition key), each key value in an order-preserving, prefix-free encoding
//! (`index/position.rs`: S and B by unsigned bytes, N numerically). So a Query is one range of the set
//! (from the position of its first bound within the partition), a Scan one range from a hash, and an
//! `ExclusiveStartKey` a position like any other: the Scan order, the paging and the tie order are the
//! ones the engine had when it held a map of partitions (`index/tests.rs` checks them against a model
//! that orders by key values).
//!
//! Why this form. `benches/memory.rs` loads the `datapath` items (149 bytes by DynamoDB's rule; 173
//! bytes encoded) into a table with an index on their unique `email` attribute; resident bytes per item
//! and entry at 100k and 1M items (the plain table: 323 / 322), and what an entry costs beyond its
//! encoded projected item (173, 86 and 59 bytes for ALL, INCLUDE one attribute, KEYS_ONLY):
//!
//! | layout | GSI ALL | GSI INCLUDE | GSI KEYS_ONLY | LSI ALL | entry beyond its item |
//! |---|---|---|---|---|---|
//! | map of partitions by `(hash, KeyValue)`, then by `(Option<KeyValue>, Tie)` | 929 / 930 | 835 / 835 | 819 / 818 | 909 / 908 | 414–438 B |
//! | one map from boxed encoded position to `StoredItem` | 679 / 679 | 583 / 583 | 568 / 568 | 695 / 694 | 175–200 B |
//! | one set of entries, position and item in one allocation (this) | 593 / 592 | 512 / 512 | 480 / 480 | 602 / 601 | 97–106 B |
//!
//! The old layout paid for a B-tree slot of two key tuples (each `KeyValue` 48 bytes, a `Tie` a
//! whole `PrimaryKey`), a leaf of eleven such slots for every partition of one entry (every entry of
//! an index on a unique attribute) and heap copies of every key string. An entry now costs its
//! position (53 bytes here: 8 of hash, 30 of email, 14 of table key, 1 of length), the allocator's
//! header and rounding of its one allocation, and a 16-byte slot in a B-tree whose nodes are not
//! full (~30 bytes an entry, measured apart). A map from position to item costs a second allocation
//! and a 32-byte slot (71–94 bytes more an entry, above). Sharing the table item's bytes with ALL entries (an `Arc`) would save the item's copy but
//! put a reference count and a pointer on every table item, and leave KEYS_ONLY and INCLUDE entries
//! as they are.
//!
//! Every write of the table goes through [`Index::insert`] / [`Index::remove`] (called by `Table::put`
//! and `Table::delete`), one `BTreeSet` operation each: O(log n). CPU cost (instructions per operation
//! under callgrind, `benches/datapath_cpu.rs` on a table of 10,000 items with a GSI keyed by `age` and
//! `email`, against the map of partitions): a put that replaces an item (its entry removed and
//! written) 47,319 → 47,782 (+1.0%: the position is encoded, and the projected item copied behind
//! it); a Query of 20 entries 210,639 → 214,852 (+2.0%: the descent of one tree of every entry,
//! rather than of 60 partitions then one, and the far bound checked per entry); a Scan page of 100
//! 883,823 → 881,237. In CPU time (best of three runs alternating with the old layout, on a shared
//! 2-core VM, 2026-11-26): 3.59 → 3.39 µs, 11.72 → 12.00 µs and 45.67 → 43.79 µs; the smaller tree
//! misses the cache less. Operations on tables without indexes do not touch this code.

mod entry;
mod lag;
mod lagging;
mod position;
#[cfg(test)]
mod tests;

pub(crate) use entry::IndexEntry;

use std::collections::BTreeSet;
use std::ops::Bound;

use dynomodel::backend::{
    KeySchemaElement, KeyType, Projection, ProjectionType, ScalarAttributeType,
};
use dynomodel::Item;

use crate::storage::key::{KeyRef, KeyValue, PrimaryKey};
use crate::storage::schema::TableSchema;
use crate::storage::stored::{AttributeLookup, StoredItem};
use lag::{IndexLag, Merge};

/// The tie-breaker of an index position: the table key of the entry, bracketed by `Min` and `Max` so that
/// a range over "every entry with index sort key v" can be written without knowing any table key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Tie {
    /// Before every entry with the same index sort key (only ever a range bound).
    Min,
    /// A stored entry's table key.
    Key(PrimaryKey),
    /// After every entry with the same index sort key (only ever a range bound).
    Max,
}

/// The position of an entry inside one index partition, as a read names it (from a key condition or
/// an `ExclusiveStartKey`); the index stores it encoded (see the module docs).
pub(crate) type IndexPosition = (Option<KeyValue>, Tie);

/// The entries of an index in Scan order (by their encoded positions: see the module docs).
/// A persistent set, shared by a copy of the index until either writes (docs/performance.md, "Forks").
pub(crate) type IndexEntries = imbl::OrdSet<IndexEntry>;

/// One secondary index: its definition and its entries.
#[derive(Debug, Clone)]
pub(crate) struct Index {
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
    /// Which parts of the table key (partition key, sort key) a position holds: not those that are
    /// also an index key attribute, which are equal wherever the index keys are.
    tie: (bool, bool),
    entries: IndexEntries,
    count: usize,
    size: usize,
    /// A GSI's changes that readers have not seen yet (eventual consistency on demand:
    /// `consistency/`); `None` when none are pending.
    lag: Option<Box<IndexLag>>,
}

impl Index {
    /// An empty index of `schema`'s table.
    pub(crate) fn new(
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
        let index_key = |n: &String| *n == hash.0 || range.as_ref().is_some_and(|r| r.0 == *n);
        let tie = (
            table_keys.first().is_some_and(|n| !index_key(n)),
            table_keys.get(1).is_some_and(|n| !index_key(n)),
        );
        Index {
            name: name.to_owned(),
            global,
            hash,
            range,
            projected,
            table_keys,
            tie,
            entries: IndexEntries::new(),
            count: 0,
            size: 0,
            lag: None,
        }
    }

    /// The key attribute names that identify an entry: table keys then index keys, without repeats
    /// (the attributes of an index `LastEvaluatedKey` / `ExclusiveStartKey`).
    pub(crate) fn entry_key_names(&self) -> Vec<String> {
        self.entry_key_name_refs().map(str::to_owned).collect()
    }

    /// [`entry_key_names`](Self::entry_key_names) borrowed, in the same order (a page's
    /// `LastEvaluatedKey` is built from these without copying the names twice).
    pub(crate) fn entry_key_name_refs(&self) -> impl Iterator<Item = &str> + Clone {
        let index_keys = std::iter::once(&self.hash.0)
            .chain(self.range.as_ref().map(|r| &r.0))
            .filter(|n| !self.table_keys.contains(n));
        self.table_keys.iter().chain(index_keys).map(String::as_str)
    }

    /// Whether an entry holds attribute `name`.
    pub(crate) fn projects(&self, name: &str) -> bool {
        self.projected.as_ref().is_none_or(|p| p.contains(name))
    }

    /// The size of `item`'s entry in this index: its projected attributes, by DynamoDB's size rule
    /// (what an index write and an item collection's size count).
    pub(crate) fn entry_size(&self, item: &(impl AttributeLookup + ?Sized)) -> usize {
        match self.projected {
            None => item.item_size(),
            Some(_) => item.kept_size(&|name| self.projects(name)),
        }
    }

    /// Whether entries hold every attribute of the item (projection ALL).
    pub(crate) fn projects_all(&self) -> bool {
        self.projected.is_none()
    }

    /// Whether both hold the same entries (positions and items): an index against its rebuild.
    pub(crate) fn same_entries(&self, other: &Index) -> bool {
        self.entries.len() == other.entries.len()
            && self
                .entries
                .iter()
                .zip(&other.entries)
                .all(|(a, b)| a.same(b))
    }

    /// Whether `item` has an entry in this index: it holds the index key attributes with the key types
    /// (a sparse index leaves the others out).
    pub(crate) fn holds(&self, item: &(impl AttributeLookup + ?Sized)) -> bool {
        let typed = |(name, ty): &(String, ScalarAttributeType)| {
            item.attribute(name)
                .and_then(|v| KeyValue::from_attribute(&v, *ty))
                .is_some()
        };
        typed(&self.hash) && self.range.as_ref().is_none_or(typed)
    }

    /// Whether two items have the same index key (both held by the index).
    pub(crate) fn same_key(&self, a: &Item, b: &Item) -> bool {
        std::iter::once(&self.hash.0)
            .chain(self.range.as_ref().map(|r| &r.0))
            .all(|name| a.get(name) == b.get(name))
    }

    /// Whether two items have the same entry in this index: equal projected attributes.
    pub(crate) fn same_entry(&self, a: &Item, b: &Item) -> bool {
        let count = |item: &Item| item.keys().filter(|n| self.projects(n)).count();
        count(a) == count(b)
            && a.iter()
                .filter(|(n, _)| self.projects(n))
                .all(|(n, v)| b.get(n) == Some(v))
    }

    /// Calls `f` with the position of `item` (stored under table key `key`) in this index; `None` when
    /// it lacks an index key attribute (sparse index) or holds one of the wrong type (validation
    /// rejects those writes). The position is written into this thread's scratch buffer: a look-up
    /// allocates nothing, and an entry copies it into its own allocation.
    /// (An associated function, so that a caller can hold the entries mutably meanwhile.)
    fn with_position<R>(
        (hash, range, tie): (&KeyAttribute, Option<&KeyAttribute>, (bool, bool)),
        key: &PrimaryKey,
        item: &(impl AttributeLookup + ?Sized),
        f: impl FnOnce(&[u8]) -> R,
    ) -> Option<R> {
        // Borrowed from an `Item`; decoded, the key attributes alone, from a stored item.
        let hash_value = item.attribute(&hash.0)?;
        let hash = KeyRef::from_attribute(&hash_value, hash.1)?;
        let range_value = match range {
            Some((name, ty)) => Some((item.attribute(name)?, *ty)),
            None => None,
        };
        let range = match &range_value {
            Some((value, ty)) => Some(KeyRef::from_attribute(value, *ty)?),
            None => None,
        };
        let write = |out: &mut Vec<u8>| {
            out.clear();
            push_prefix(out, hash);
            if let Some(range) = range {
                position::push_key(out, range);
            }
            push_tie(out, tie, key);
        };
        Some(SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut out) => {
                write(&mut out);
                f(&out)
            }
            // Only a re-entrant call could find the scratch taken; it gets a buffer of its own.
            Err(_) => {
                let mut out = Vec::new();
                write(&mut out);
                f(&out)
            }
        }))
    }

    /// The index key attributes and the tie: what [`Index::with_position`] reads.
    fn keys(&self) -> (&KeyAttribute, Option<&KeyAttribute>, (bool, bool)) {
        (&self.hash, self.range.as_ref(), self.tie)
    }

    /// Writes the byte bound of position bound `bound` into `at`, which holds the start of its
    /// partition (see [`push_prefix`]), as the lower (`lower`) or upper end of a range; returns
    /// which kind of bound the bytes are (`Unbounded`: none, and `at` is to be ignored), or `None`
    /// when nothing can follow a lower bound.
    fn write_bound(
        &self,
        at: &mut Vec<u8>,
        bound: Bound<IndexPosition>,
        lower: bool,
    ) -> Option<Bound<()>> {
        let (included, (range, tie)) = match bound {
            Bound::Unbounded if lower => return Some(Bound::Included(())),
            Bound::Unbounded => return Some(after(at)),
            Bound::Included(p) => (true, p),
            Bound::Excluded(p) => (false, p),
        };
        if let Some(range) = &range {
            position::push_key(at, range.as_key_ref());
        }
        Some(match tie {
            Tie::Key(key) => {
                push_tie(at, self.tie, &key);
                if included {
                    Bound::Included(())
                } else {
                    Bound::Excluded(())
                }
            }
            // Before every entry that extends `at`: they are all greater than it.
            Tie::Min if lower => Bound::Included(()),
            Tie::Min => Bound::Excluded(()),
            // After every entry that extends `at`.
            Tie::Max if lower => successor(at).then_some(Bound::Included(()))?,
            Tie::Max => after(at),
        })
    }

    /// The entries of partition `hash` between position bounds `lo` and `hi`, in the direction of
    /// the read (a Query). The tree is descended once, to the end the read starts from; the other end
    /// is checked on each entry read, which costs less than a second descent for the few entries of a
    /// partition a Query page reads. The near end is written into this thread's scratch buffer, the
    /// far end (kept by the iterator) into the one allocation a Query makes here.
    pub(crate) fn range(
        &self,
        hash: &KeyValue,
        lo: Bound<IndexPosition>,
        hi: Bound<IndexPosition>,
        forward: bool,
    ) -> impl Iterator<Item = &IndexEntry> + use<'_> {
        self.range_of(&self.entries, hash, lo, hi, forward)
    }

    /// [`Index::range`] of `entries` (the index's, or its shadow entries).
    fn range_of<'s>(
        &self,
        entries: &'s IndexEntries,
        hash: &KeyValue,
        lo: Bound<IndexPosition>,
        hi: Bound<IndexPosition>,
        forward: bool,
    ) -> impl Iterator<Item = &'s IndexEntry> + use<'s> {
        let (near, far) = if forward { (lo, hi) } else { (hi, lo) };
        let mut far_bytes = Vec::with_capacity(96);
        push_prefix(&mut far_bytes, hash.as_key_ref());
        let with_near = |scratch: &mut Vec<u8>| {
            scratch.clear();
            scratch.extend_from_slice(&far_bytes);
            let kind = self.write_bound(scratch, near, forward)?;
            let near = with_bytes(kind, scratch.as_slice());
            Some(if forward {
                Directed::Forward(entries.range::<_, [u8]>((near, Bound::Unbounded)))
            } else {
                Directed::Backward(entries.range::<_, [u8]>((Bound::Unbounded, near)).rev())
            })
        };
        let entries = SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => with_near(&mut scratch),
            // Only a re-entrant call could find the scratch taken; it gets a buffer of its own.
            Err(_) => with_near(&mut Vec::new()),
        });
        let far_kind = self.write_bound(&mut far_bytes, far, !forward);
        let (Some(entries), Some(far_kind)) = (entries, far_kind) else {
            return Directed::Nothing;
        };
        let within = move |e: &&IndexEntry| {
            let position = e.position();
            match with_bytes(far_kind, far_bytes.as_slice()) {
                Bound::Included(far) if forward => position <= far,
                Bound::Excluded(far) if forward => position < far,
                Bound::Included(far) => position >= far,
                Bound::Excluded(far) => position > far,
                Bound::Unbounded => true,
            }
        };
        match entries {
            Directed::Forward(f) => Directed::Forward(f.take_while(within)),
            Directed::Backward(b) => Directed::Backward(b.take_while(within)),
            Directed::Nothing => Directed::Nothing,
        }
    }

    /// The entries of the partitions whose hashes are in `[from, to)`, in Scan order, after `start`
    /// when given (an `ExclusiveStartKey`: index partition key and position).
    pub(crate) fn scan(
        &self,
        from: u64,
        to: Option<u64>,
        start: Option<(KeyValue, IndexPosition)>,
    ) -> impl Iterator<Item = &IndexEntry> + use<'_> {
        self.scan_of(&self.entries, from, to, start)
    }

    /// [`Index::scan`] of `entries` (the index's, or its shadow entries).
    fn scan_of<'s>(
        &self,
        entries: &'s IndexEntries,
        from: u64,
        to: Option<u64>,
        start: Option<(KeyValue, IndexPosition)>,
    ) -> impl Iterator<Item = &'s IndexEntry> + use<'s> {
        let lo = match start {
            Some((hash, position)) => {
                let mut at = Vec::with_capacity(96);
                push_prefix(&mut at, hash.as_key_ref());
                self.write_bound(&mut at, Bound::Excluded(position), true)
                    .map(|kind| with_bytes(kind, at))
            }
            None => Some(Bound::Included(from.to_be_bytes().to_vec())),
        };
        // A hash alone sorts before every position with that hash.
        let hi = to.map_or(Bound::Unbounded, |to| {
            Bound::Excluded(to.to_be_bytes().to_vec())
        });
        lo.and_then(|lo| checked_range(entries, lo, hi))
            .into_iter()
            .flatten()
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
    pub(crate) fn insert(&mut self, key: &PrimaryKey, item: &Item) {
        // Entries are stored compactly too (see `stored.rs`), behind their positions.
        let entry = Self::with_position(self.keys(), key, item, |pos| {
            let stored = match &self.projected {
                None => StoredItem::encode(item),
                Some(_) => StoredItem::encode(&self.entry(item)),
            };
            IndexEntry::new(pos, &stored)
        });
        self.add(entry);
    }

    /// [`Index::insert`] of an item in its stored form, which an entry of projection ALL copies as
    /// it is (a projected entry decodes the item's attributes, without an `Item` of them all).
    pub(crate) fn insert_stored(&mut self, key: &PrimaryKey, item: &StoredItem) {
        let entry = Self::with_position(self.keys(), key, item, |pos| match &self.projected {
            None => IndexEntry::new(pos, item),
            Some(names) => {
                let projected: Item = StoredItem::attributes_of(item.as_bytes())
                    .filter(|(name, _)| names.contains(*name))
                    .map(|(name, value)| (name.to_owned(), value))
                    .collect();
                IndexEntry::new(pos, &StoredItem::encode(&projected))
            }
        });
        self.add(entry);
    }

    /// Adds `entry` (`None`: the item does not belong in the index).
    fn add(&mut self, entry: Option<IndexEntry>) {
        let Some(entry) = entry else {
            return;
        };
        self.size += entry.size();
        match self.entries.insert(entry) {
            Some(old) => self.size = self.size.saturating_sub(old.size()),
            None => self.count += 1,
        }
    }

    /// Removes the entry of `item` (stored under `key`), if it had one.
    pub(crate) fn remove(&mut self, key: &PrimaryKey, item: &(impl AttributeLookup + ?Sized)) {
        let entries = &mut self.entries;
        let keys = (&self.hash, self.range.as_ref(), self.tie);
        let Some(Some(old)) = Self::with_position(keys, key, item, |pos| entries.remove(pos))
        else {
            return;
        };
        self.count = self.count.saturating_sub(1);
        self.size = self.size.saturating_sub(old.size());
    }

    /// DescribeTable's `ItemCount`.
    pub(crate) fn item_count(&self) -> i64 {
        i64::try_from(self.count).unwrap_or(i64::MAX)
    }

    /// DescribeTable's `IndexSizeBytes`: the sum of the entries' sizes.
    pub(crate) fn size_bytes(&self) -> i64 {
        i64::try_from(self.size).unwrap_or(i64::MAX)
    }
}

/// `entries.range((lo, hi))`, or `None` where `BTreeMap::range` would panic (inverted bounds, or
/// equal ones not both included) or could find nothing.
fn checked_range(
    entries: &IndexEntries,
    lo: Bound<Vec<u8>>,
    hi: Bound<Vec<u8>>,
) -> Option<impl Iterator<Item = &IndexEntry> + use<'_>> {
    let holds = match (&lo, &hi) {
        (Bound::Included(a), Bound::Included(b)) => a <= b,
        (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) => a < b,
        _ => true,
    };
    holds.then(|| entries.range::<_, [u8]>((as_slice(&lo), as_slice(&hi))))
}

/// An index key attribute: its name and declared type.
type KeyAttribute = (String, ScalarAttributeType);

/// Appends the encoded start of partition `hash`: its stable hash (big-endian, so that bytes order as
/// the numbers do), then the key.
fn push_prefix(out: &mut Vec<u8>, hash: KeyRef<'_>) {
    out.extend_from_slice(&hash.stable_hash().to_be_bytes());
    position::push_key(out, hash);
}

/// Appends the parts of table key `key` that a position holds (`tie`: see [`Index::tie`]).
fn push_tie(out: &mut Vec<u8>, tie: (bool, bool), key: &PrimaryKey) {
    if tie.0 {
        position::push_key(out, key.hash.as_key_ref());
    }
    if let (true, Some(range)) = (tie.1, &key.range) {
        position::push_key(out, range.as_key_ref());
    }
}

thread_local! {
    /// The buffer positions are written into.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Makes `bytes` the upper bound "before anything that starts with `bytes`" (positions never end in
/// a run of 0xFF bytes alone, so the successor exists; were it missing, the bound would be the end).
fn after(bytes: &mut Vec<u8>) -> Bound<()> {
    if successor(bytes) {
        Bound::Excluded(())
    } else {
        Bound::Unbounded
    }
}

/// Makes `bytes` the least byte string greater than every string that starts with them; `false`
/// when there is none.
fn successor(bytes: &mut Vec<u8>) -> bool {
    while let Some(last) = bytes.pop() {
        if last < u8::MAX {
            bytes.push(last + 1);
            return true;
        }
    }
    false
}

/// A bound of kind `kind` on `bytes`.
fn with_bytes<T>(kind: Bound<()>, bytes: T) -> Bound<T> {
    kind.map(|()| bytes)
}

fn as_slice(bound: &Bound<Vec<u8>>) -> Bound<&[u8]> {
    match bound {
        Bound::Included(b) => Bound::Included(b.as_slice()),
        Bound::Excluded(b) => Bound::Excluded(b.as_slice()),
        Bound::Unbounded => Bound::Unbounded,
    }
}

/// The entries a Query reads: forward, backward, or none.
enum Directed<F, B> {
    Forward(F),
    Backward(B),
    Nothing,
}

impl<'a, F, B> Iterator for Directed<F, B>
where
    F: Iterator<Item = &'a IndexEntry>,
    B: Iterator<Item = &'a IndexEntry>,
{
    type Item = &'a IndexEntry;

    fn next(&mut self) -> Option<&'a IndexEntry> {
        match self {
            Directed::Forward(f) => f.next(),
            Directed::Backward(b) => b.next(),
            Directed::Nothing => None,
        }
    }
}

/// The indexes of a table: LSIs first, then GSIs, each in definition order.
pub(crate) fn indexes_of(schema: &TableSchema) -> Vec<Index> {
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
