//! Walking a table or index in Query and Scan order, and cutting the walk into pages.
//!
//! Tables and indexes share one layout: partitions by `(stable_hash(pk), pk)`, then positions in sort-key
//! order. A Query is one partition and a sort-key range: a `BTreeMap::range`, O(log n + k). A Scan walks
//! the partitions from a hash (segment start, or the `ExclusiveStartKey`) to a hash (segment end).
//! `BTreeMap::range` panics on inverted bounds, so every range goes through [`checked_range`].

use std::ops::Bound;

use imbl::OrdMap;

use std::borrow::Cow;

use dynomodel::backend::{ItemSink, QueryOutput};
use dynomodel::Item;

use crate::storage::partition::{self, Partition};
use crate::storage::stored::{Decoder, StoredItem};

use crate::storage::index::{IndexEntry, IndexPosition, Tie};
use crate::storage::key::{KeyValue, PartitionSlot};

/// DynamoDB's page limit on data read (before the filter): 1 MB.
pub(crate) const MAX_PAGE_BYTES: usize = 1024 * 1024;

/// A position inside a partition of a table (`Option<KeyValue>`: the sort key) or of an index
/// ([`IndexPosition`]: index sort key, then table key). Maps key-condition bounds on a sort key value to
/// position bounds.
pub(crate) trait Position: Ord + Clone {
    /// The bound "sort key ≥ v" (`inclusive`) or "sort key > v".
    fn lower(v: KeyValue, inclusive: bool) -> Bound<Self>;
    /// The bound "sort key ≤ v" (`inclusive`) or "sort key < v".
    fn upper(v: KeyValue, inclusive: bool) -> Bound<Self>;
}

impl Position for Option<KeyValue> {
    fn lower(v: KeyValue, inclusive: bool) -> Bound<Self> {
        if inclusive {
            Bound::Included(Some(v))
        } else {
            Bound::Excluded(Some(v))
        }
    }

    fn upper(v: KeyValue, inclusive: bool) -> Bound<Self> {
        Self::lower(v, inclusive)
    }
}

impl Position for IndexPosition {
    // Ties sit between `Tie::Min` and `Tie::Max`, so "≥ v" starts before the first tie and "> v" after
    // the last.
    fn lower(v: KeyValue, inclusive: bool) -> Bound<Self> {
        Bound::Included((Some(v), if inclusive { Tie::Min } else { Tie::Max }))
    }

    fn upper(v: KeyValue, inclusive: bool) -> Bound<Self> {
        Bound::Included((Some(v), if inclusive { Tie::Max } else { Tie::Min }))
    }
}

/// Whether `(lo, hi)` is a range `BTreeMap::range` accepts and that can hold anything.
fn non_empty<K: Ord>(lo: &Bound<K>, hi: &Bound<K>) -> bool {
    match (lo, hi) {
        (Bound::Included(a), Bound::Included(b)) => a <= b,
        (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) => a < b,
        _ => true,
    }
}

/// [`checked_range`] within one partition.
pub(crate) fn partition_range<K: Ord + Clone, V: Clone>(
    partition: &Partition<K, V>,
    lo: Bound<K>,
    hi: Bound<K>,
) -> partition::Iter<'_, K, V> {
    if non_empty(&lo, &hi) {
        partition.range(lo, hi)
    } else {
        partition::Iter::One(None)
    }
}

/// `map.range((lo, hi))`, or nothing when the bounds are inverted or equal and exclusive (where
/// `BTreeMap::range` would panic).
pub(crate) fn checked_range<K: Ord + Clone, V: Clone>(
    map: &OrdMap<K, V>,
    lo: Bound<K>,
    hi: Bound<K>,
) -> impl DoubleEndedIterator<Item = (&K, &V)> {
    non_empty(&lo, &hi)
        .then(|| map.range((lo, hi)))
        .into_iter()
        .flatten()
}

/// The tighter of two lower bounds.
pub(crate) fn max_lower<K: Ord>(a: Bound<K>, b: Bound<K>) -> Bound<K> {
    match (&a, &b) {
        (Bound::Unbounded, _) => b,
        (_, Bound::Unbounded) => a,
        (Bound::Included(x) | Bound::Excluded(x), Bound::Included(y) | Bound::Excluded(y)) => {
            match x.cmp(y) {
                std::cmp::Ordering::Less => b,
                std::cmp::Ordering::Greater => a,
                std::cmp::Ordering::Equal if matches!(a, Bound::Excluded(_)) => a,
                std::cmp::Ordering::Equal => b,
            }
        }
    }
}

/// The tighter of two upper bounds.
pub(crate) fn min_upper<K: Ord>(a: Bound<K>, b: Bound<K>) -> Bound<K> {
    match (&a, &b) {
        (Bound::Unbounded, _) => b,
        (_, Bound::Unbounded) => a,
        (Bound::Included(x) | Bound::Excluded(x), Bound::Included(y) | Bound::Excluded(y)) => {
            match x.cmp(y) {
                std::cmp::Ordering::Less => a,
                std::cmp::Ordering::Greater => b,
                std::cmp::Ordering::Equal if matches!(a, Bound::Excluded(_)) => a,
                std::cmp::Ordering::Equal => b,
            }
        }
    }
}

/// The least string greater than every string that starts with `prefix` (`None`: no such string, or
/// an empty prefix). UTF-8 byte order is code-point order, so incrementing the last incrementable
/// character gives an exact exclusive upper bound for `begins_with`.
pub(crate) fn string_successor(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match last {
            '\u{D7FF}' => Some('\u{E000}'),
            c => char::from_u32(u32::from(c) + 1),
        };
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

/// The least byte string greater than every byte string that starts with `prefix`.
pub(crate) fn bytes_successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut bytes = prefix.to_vec();
    while let Some(last) = bytes.pop() {
        if last < u8::MAX {
            bytes.push(last + 1);
            return Some(bytes);
        }
    }
    None
}

/// The first hash of segment `segment` of `total`: segments split the u64 hash space into `total`
/// contiguous slices, and a partition belongs to the slice its hash falls in.
pub(crate) fn segment_start(segment: u32, total: u32) -> u64 {
    let start = (u128::from(segment) << 64).div_ceil(u128::from(total.max(1)));
    u64::try_from(start).unwrap_or(u64::MAX)
}

/// The segment a partition hash belongs to (the inverse of [`segment_start`]).
pub(crate) fn segment_of(hash: u64, total: u32) -> u32 {
    u32::try_from((u128::from(hash) * u128::from(total)) >> 64).unwrap_or(u32::MAX)
}

/// An entry a Query or Scan reads: the item (decoded from a table or an index) and its size.
pub(crate) type Entry<'a> = (Cow<'a, Item>, usize);

/// What a Query or Scan reads: a table's items or an index's entries.
pub(crate) trait Readable {
    /// The entry as a read sees it; `decoder` is the read's, kept from entry to entry.
    fn entry(&self, decoder: &mut Decoder) -> Entry<'_>;
    /// The entry's item as [`StoredItem::as_bytes`] gives it (a typed read hands it over from these).
    fn stored(&self) -> &[u8];
}

impl Readable for StoredItem {
    #[inline]
    fn entry(&self, decoder: &mut Decoder) -> Entry<'_> {
        // The size was computed when the item was written.
        let (item, size) = decoder.decode(self);
        (Cow::Owned(item), size)
    }

    #[inline]
    fn stored(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Readable for IndexEntry {
    #[inline]
    fn entry(&self, decoder: &mut Decoder) -> Entry<'_> {
        let (item, size) = decoder.decode_bytes(self.item_bytes());
        (Cow::Owned(item), size)
    }

    #[inline]
    fn stored(&self) -> &[u8] {
        self.item_bytes()
    }
}

/// The entries of partitions `[from, to)` in Scan order, starting after `start` when given (the
/// `ExclusiveStartKey`: its slot and position).
pub(crate) fn scan_entries<'a, P: Position, V: Clone>(
    partitions: &'a OrdMap<PartitionSlot, Partition<P, V>>,
    from: u64,
    to: Option<u64>,
    start: Option<(PartitionSlot, P)>,
) -> impl Iterator<Item = &'a V> + 'a {
    scan_keyed(partitions, from, to, start).map(|(_, v)| v)
}

/// [`scan_entries`] with each entry's slot and position (what a walk in step with another store
/// of the same layout compares: `read/stale.rs`).
pub(crate) fn scan_keyed<'a, P: Position, V: Clone>(
    partitions: &'a OrdMap<PartitionSlot, Partition<P, V>>,
    from: u64,
    to: Option<u64>,
    start: Option<(PartitionSlot, P)>,
) -> impl Iterator<Item = ((&'a PartitionSlot, &'a P), &'a V)> + 'a {
    // The empty string is the least `KeyValue` (variant S first, then ""), so `(h, S(""))` is the first
    // slot with hash h.
    let slot_bound = |h: u64| (h, KeyValue::S(String::new()));
    let hi = to.map_or(Bound::Unbounded, |h| Bound::Excluded(slot_bound(h)));
    type Keyed<'a, P, V> = Box<dyn Iterator<Item = ((&'a PartitionSlot, &'a P), &'a V)> + 'a>;
    let (head, lo): (Keyed<'a, P, V>, _) = match start {
        Some((slot, pos)) => {
            // The start's own partition, through a range of one so that its slot is the map's.
            let own = checked_range(
                partitions,
                Bound::Included(slot.clone()),
                Bound::Included(slot.clone()),
            );
            let rest = own.flat_map(move |(s, p)| {
                partition_range(p, Bound::Excluded(pos.clone()), Bound::Unbounded)
                    .map(move |(k, v)| ((s, k), v))
            });
            (Box::new(rest), Bound::Excluded(slot))
        }
        None => (
            Box::new(std::iter::empty()),
            Bound::Included(slot_bound(from)),
        ),
    };
    let tail = checked_range(partitions, lo, hi)
        .flat_map(|(s, p)| p.iter().map(move |(k, v)| ((s, k), v)));
    head.chain(tail)
}

/// What a page does with the entries it reads: [`read_page`] is one loop (`Limit`, the 1 MB rule,
/// `Count`, `ScannedCount`, `LastEvaluatedKey`), whether the page decodes its entries into `Item`s
/// ([`Decoded`]) or hands them to a typed read's sink from their stored form ([`Handed`]).
pub(crate) trait Visit<'a, V: Readable + 'a> {
    /// An entry as the visitor works with it.
    type Entry;
    /// The entry `v` holds.
    fn read(&mut self, v: &'a V) -> Self::Entry;
    /// The `LastEvaluatedKey` of an entry, from its stored form.
    fn key_of(&self, v: &'a V) -> Item;
    /// Called once, before the page's last entry is read, when the page knows it is the last.
    fn last(&mut self) {}
    /// Whether an entry read counts (the filter).
    fn keep(&self, entry: &Self::Entry) -> bool;
    /// Takes a kept entry into the page (only when the page holds items).
    fn take(&mut self, entry: Self::Entry);
}

/// Reads `entries` until `Limit` items were evaluated or 1 MB was read (counting the item that crosses
/// it: DynamoDB Local and dynalite both return 27 items of 40 KB), before the filter and projection.
/// Either stop yields a `LastEvaluatedKey` (even when nothing follows, as DynamoDB Local does: only its
/// absence ends the results). Kept entries go to `visit` when `items` (`false`: Select=COUNT).
///
/// Returns the page without its items (the visitor has them) and the bytes read (every entry
/// evaluated: what the page costs).
///
/// The entries come in as references and are read here: an iterator of decoded entries (behind a
/// `dyn Iterator`) returned each through memory, which the loop then copied and stalled on (store
/// forwarding), a few percent of a Scan page.
///
/// An entry's size is read from its stored form, so that the last entry is known before it is
/// decoded: the `LastEvaluatedKey` and the page's vector are allocated before the last entry's
/// item, whose small allocations then come last (see [`Gather`]).
pub(crate) fn read_page<'a, V: Readable + 'a, W: Visit<'a, V>>(
    entries: impl Iterator<Item = &'a V>,
    limit: Option<usize>,
    items: bool,
    visit: &mut W,
) -> (QueryOutput, usize) {
    let mut out = QueryOutput::default();
    let mut read = 0usize;
    let mut scanned = 0usize;
    for v in entries {
        scanned += 1;
        read += StoredItem::size_of_bytes(v.stored());
        let last = limit.is_some_and(|l| scanned >= l) || read >= MAX_PAGE_BYTES;
        if last {
            out.last_evaluated_key = Some(visit.key_of(v));
            visit.last();
        }
        let entry = visit.read(v);
        if visit.keep(&entry) {
            out.count += 1;
            if items {
                visit.take(entry);
            }
        }
        if last {
            break;
        }
    }
    out.scanned_count = i32::try_from(scanned).unwrap_or(i32::MAX);
    (out, read)
}

/// What a page returns of a kept entry: the entry goes in, so a decoded table item is moved out rather
/// than copied.
pub(crate) type Output<'r> = &'r dyn Fn(Cow<'_, Item>) -> Item;

/// What a page of `Item`s returns of each item read, and when it stops.
pub(crate) struct PageRules<'r> {
    /// At most this many items evaluated.
    pub limit: Option<usize>,
    /// Whether an item read counts (the filter; `None`: every item).
    pub keep: Option<&'r dyn Fn(&Item) -> bool>,
    /// Whether the page holds items (`false`: Select=COUNT).
    pub items: bool,
    /// The item returned for a kept entry (`None`: the entry itself, moved into the page).
    pub output: Option<Output<'r>>,
    /// The `LastEvaluatedKey` of an entry, from its stored form ([`Readable::stored`]).
    pub key_of: &'r dyn Fn(&[u8]) -> Item,
}

/// [`read_page`] into `Item`s, by `rules`: the page with its items.
///
/// The entries are decoded by one [`Decoder`] for the page.
pub(crate) fn read_items<'a, V: Readable + 'a>(
    entries: impl Iterator<Item = &'a V>,
    rules: &PageRules<'_>,
) -> (QueryOutput, usize) {
    let mut decoded = Decoded {
        rules,
        decoder: Decoder::default(),
        items: rules.items.then(|| Gather::new(rules.limit)),
    };
    let (mut out, read) = read_page(entries, rules.limit, rules.items, &mut decoded);
    out.items = decoded.items.map(Gather::finish);
    (out, read)
}

/// The [`Visit`] of a page of `Item`s: each entry decoded, filtered by the rules, and returned as
/// they say.
pub(crate) struct Decoded<'r> {
    rules: &'r PageRules<'r>,
    decoder: Decoder,
    items: Option<Gather>,
}

impl<'a, V: Readable + 'a> Visit<'a, V> for Decoded<'_> {
    type Entry = Cow<'a, Item>;

    #[inline]
    fn read(&mut self, v: &'a V) -> Cow<'a, Item> {
        v.entry(&mut self.decoder).0
    }

    fn key_of(&self, v: &'a V) -> Item {
        (self.rules.key_of)(v.stored())
    }

    fn last(&mut self) {
        if let Some(items) = self.items.as_mut() {
            items.reserve_last();
        }
    }

    #[inline]
    fn keep(&self, entry: &Cow<'a, Item>) -> bool {
        self.rules.keep.is_none_or(|keep| keep(entry))
    }

    #[inline]
    fn take(&mut self, entry: Cow<'a, Item>) {
        if let Some(items) = self.items.as_mut() {
            // Most reads return what they read: no call through `output` then, whose result came
            // back through memory and stalled the copy into the page.
            items.push(match self.rules.output {
                Some(output) => output(entry),
                None => entry.into_owned(),
            });
        }
    }
}

/// The [`Visit`] of a typed read's page that needs no decoded item (no filter, no projection, no
/// fetch from the table): each entry is handed to the sink from its stored form, its size read
/// from its bytes, and the `LastEvaluatedKey` decoded from its key attributes alone (the values
/// up to the last of them).
pub(crate) struct Handed<'s, 'k> {
    /// Where the entries go.
    pub sink: &'s mut dyn ItemSink,
    /// The attributes of a `LastEvaluatedKey` ([`Source::lek_names`](crate::read::Source::lek_names)).
    pub key_names: &'k [String],
}

impl<'a, V: Readable + 'a> Visit<'a, V> for Handed<'_, '_> {
    type Entry = &'a [u8];

    #[inline]
    fn read(&mut self, v: &'a V) -> &'a [u8] {
        v.stored()
    }

    fn key_of(&self, v: &'a V) -> Item {
        stored_key(v.stored(), self.key_names.iter().map(String::as_str))
    }

    #[inline]
    fn keep(&self, _: &&'a [u8]) -> bool {
        true
    }

    #[inline]
    fn take(&mut self, entry: &'a [u8]) {
        crate::read::typed::hand_over(self.sink, entry);
    }
}

/// The attributes `names` of an entry's stored form (a `LastEvaluatedKey`): the values up to the
/// last of them decoded, each name copied once.
pub(crate) fn stored_key<'n>(bytes: &[u8], names: impl Iterator<Item = &'n str> + Clone) -> Item {
    let count = names.clone().count();
    StoredItem::attributes_of(bytes)
        .filter(|(name, _)| names.clone().any(|k| k == *name))
        .take(count)
        .map(|(name, value)| (name.to_owned(), value))
        .collect()
}

/// Items per run of [`Gather`]: 40 items of 24 bytes stay below glibc's large-chunk size (1,024
/// bytes with the chunk's header).
const RUN: usize = 40;

/// A page's items, gathered in runs of [`RUN`] and put into one vector at the end (or before the
/// last item, when the page knows which is last: [`Gather::reserve_last`]), so that the page's one
/// large allocation comes after its items' small ones. glibc's `malloc` consolidates
/// its fast bins (the small chunks the previous page freed) on every large request: a page vector
/// reserved up front for a `Limit` of 100 (2,400 bytes) merged them, and each of the 1,300 small
/// allocations of the items that followed then split a chunk instead of reusing one. Gathering
/// them first took the `datapath_cpu` bench's Scan page of 100 from ~760,000 instructions and
/// ~36.7 µs of CPU to ~548,000 and ~25.3 µs (its Query of 20, which never reserved a large vector,
/// from ~190,600 to ~185,900 instructions: one vector of 40 instead of growing one four times);
/// see `stored.rs` for the rest of the read path. A large request still consolidates, at the end,
/// when the items have taken what the fast bins held. Runs cost a copy of 24 bytes per item of a
/// page beyond the first run.
///
/// These are allocator effects and depend on the heap's state (measured 2026-11-26, CPU per Scan
/// page of 100): in a fresh process gathering gives ~26 µs and growing the vector as before ~39–43;
/// after 20,000 Queries and a second table's load, gathering gives ~39 µs and growing ~27 (the
/// engine that stored `Item`s: ~35 in both). Gathering stays because it also wins the Query of 20
/// in both states (~8 µs against ~11 when growing); instructions, which the heap's state moves
/// little, are ~0.74× the old engine's either way.
struct Gather {
    runs: Vec<Vec<Item>>,
    run: Vec<Item>,
}

impl Gather {
    /// For a page of at most `limit` items: the first run sized for them when they are fewer.
    fn new(limit: Option<usize>) -> Gather {
        Gather {
            runs: Vec::new(),
            run: Vec::with_capacity(limit.unwrap_or(RUN).min(RUN)),
        }
    }

    fn push(&mut self, item: Item) {
        if self.run.len() == self.run.capacity() {
            let full = std::mem::replace(&mut self.run, Vec::with_capacity(RUN));
            self.runs.push(full);
        }
        self.run.push(item);
    }

    /// Before the page's last item: the runs gathered into the page's vector now, with room for
    /// that item, so that the vector is allocated before the item rather than after it. glibc
    /// carves what it cannot reuse from its top chunk; a large chunk allocated last borders the
    /// top, and freeing it (the caller drops the page, items first) while the fast bins hold the
    /// items' names merges it into a top that may be over the 64 KB at which glibc consolidates
    /// every fast bin. Allocated before the last item, it has that item's small chunks above it.
    fn reserve_last(&mut self) {
        if self.runs.is_empty() {
            if self.run.len() == self.run.capacity() {
                self.run.reserve_exact(1);
            }
            return;
        }
        let mut all = Vec::with_capacity(self.runs.len() * RUN + self.run.len() + 1);
        self.runs.drain(..).for_each(|run| all.extend(run));
        all.append(&mut self.run);
        self.run = all;
    }

    fn finish(self) -> Vec<Item> {
        if self.runs.is_empty() {
            return self.run;
        }
        let mut all = Vec::with_capacity(self.runs.len() * RUN + self.run.len());
        self.runs.into_iter().for_each(|run| all.extend(run));
        all.extend(self.run);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `i`th item of a page.
    fn item(i: usize) -> Item {
        Item::from([(
            "i".to_string(),
            dynomodel::AttributeValue::N(dynomodel::Number::from(i)),
        )])
    }

    #[test]
    fn gathered_items_keep_their_order_across_runs() {
        for (limit, count) in [
            (None, 0),
            (None, 1),
            (Some(5), 5),
            (None, RUN),
            (None, RUN + 1),
            (Some(100), 100),
            (None, 3 * RUN + 7),
        ] {
            let mut gather = Gather::new(limit);
            (0..count).for_each(|i| gather.push(item(i)));
            let all = gather.finish();
            assert_eq!(all, (0..count).map(item).collect::<Vec<_>>(), "{count}");
            assert!(all.capacity() <= count.max(RUN), "{count}");
        }
    }

    #[test]
    fn the_vector_reserved_before_the_last_item_holds_the_page_in_order() {
        for (limit, count) in [
            (Some(1), 1),
            (Some(5), 5),
            (None, RUN),
            (None, RUN + 1),
            (Some(100), 100),
            (None, 3 * RUN + 7),
        ] {
            let mut gather = Gather::new(limit);
            (0..count - 1).for_each(|i| gather.push(item(i)));
            gather.reserve_last();
            let reserved = gather.run.as_ptr();
            gather.push(item(count - 1));
            // The last item moved into the reserved vector: no allocation after it.
            assert_eq!(gather.run.as_ptr(), reserved, "{count}");
            let all = gather.finish();
            assert_eq!(all, (0..count).map(item).collect::<Vec<_>>(), "{count}");
        }
    }

    #[test]
    fn successors_bound_prefixes_exactly() {
        assert_eq!(string_successor("ab").as_deref(), Some("ac"));
        assert_eq!(string_successor("a\u{10FFFF}").as_deref(), Some("b"));
        assert_eq!(string_successor("\u{D7FF}").as_deref(), Some("\u{E000}"));
        assert_eq!(string_successor("\u{10FFFF}"), None);
        assert_eq!(string_successor(""), None);
        assert_eq!(bytes_successor(&[1, 0xff]), Some(vec![2]));
        assert_eq!(bytes_successor(&[0xff, 0xff]), None);
    }

    #[test]
    fn segments_partition_the_hash_space() {
        for total in [1u32, 2, 3, 7, 1000, 1_000_000] {
            assert_eq!(segment_start(0, total), 0);
            for segment in [0, total / 2, total - 1] {
                let start = segment_start(segment, total);
                assert_eq!(segment_of(start, total), segment, "{segment}/{total}");
                if start > 0 {
                    assert_eq!(
                        segment_of(start - 1, total),
                        segment - 1,
                        "{segment}/{total}"
                    );
                }
            }
            assert_eq!(segment_of(u64::MAX, total), total - 1);
        }
    }

    #[test]
    fn inverted_or_empty_ranges_do_not_panic() {
        let map: OrdMap<i32, ()> = (0..10).map(|i| (i, ())).collect();
        let count = |lo, hi| checked_range(&map, lo, hi).count();
        assert_eq!(count(Bound::Included(5), Bound::Included(2)), 0);
        assert_eq!(count(Bound::Excluded(5), Bound::Excluded(5)), 0);
        assert_eq!(count(Bound::Included(5), Bound::Excluded(5)), 0);
        assert_eq!(count(Bound::Included(5), Bound::Included(5)), 1);
        assert_eq!(count(Bound::Excluded(2), Bound::Unbounded), 7);
        assert_eq!(
            max_lower(Bound::Included(3), Bound::Excluded(3)),
            Bound::Excluded(3)
        );
        assert_eq!(
            max_lower(Bound::Unbounded, Bound::Included(1)),
            Bound::Included(1)
        );
        assert_eq!(
            min_upper(Bound::Included(3), Bound::Excluded(3)),
            Bound::Excluded(3)
        );
        assert_eq!(
            min_upper(Bound::Included(2), Bound::Excluded(3)),
            Bound::Included(2)
        );
    }
}
