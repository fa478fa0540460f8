//! How a table holds its items: one compact byte string per item ([`StoredItem`]), with the item's
//! DynamoDB size computed once, when it is written.
//!
//! Why this form (measured with `benches/memory.rs` on 149-byte items of 8 attributes): an
//! [`Item`] is a `BTreeMap<String, AttributeValue>`, whose one leaf node was ~800 bytes whatever the
//! item holds (11 slots of a 24-byte name and a 48-byte value; 32 since `Number` is 24 bytes), plus
//! one allocation per name and per string value: 1,442 resident bytes per item, 9.7× its size.
//! Interning the names or sharing items behind an `Arc` leaves that node in place; encoding the item
//! into one allocation removes it, and the names with it, at ~293 bytes (2.0×; Dynoxide's SQLite
//! holds 480). The page-size rule of Query and Scan reads the stored size instead of walking the item
//! again.
//!
//! Reads hand out an owned `Item` (the `Backend` API returns them), so where the engine used to
//! deep-copy the stored map, it now builds one. Building a `BTreeMap` from the decoded attributes
//! (by insert, or by its sorted bulk build) made a Scan page of 100 ~70% slower than the copy; the
//! cheapest way to build a map is `Clone`, so a decode clones a *skeleton* of the item's shape — its
//! names, each with a placeholder — from a small per-thread cache ([`shapes`]) and writes the values
//! into its slots. A [`Decoder`] keeps the last shape, so the items of a page (which mostly share
//! one) look it up once.
//!
//! What the read path does per item, and why (each measured with callgrind on the `datapath_cpu`
//! bench, a Scan page of 100, instructions per page; the first decoder cost 880,000, the deep copy
//! before compact storage 748,000):
//! - `Number` holds its `u128` coefficient as two `u64`s: 16-byte alignment had made it 32 bytes
//!   and every `AttributeValue` 48 (now 24 and 32), so every map node, value move and stored key is
//!   smaller; numbers without a trailing zero that fit a `u64` are built without a digit count
//!   (855,000 with both).
//! - Varints of one byte are read inline (842,000).
//! - A value is decoded straight into its slot, inline in the loop over the item's values: the
//!   placeholder is forgotten rather than dropped (a call per value), and nothing is returned
//!   through memory — an `Option<Number>` or a value built in one common place and then copied
//!   into the slot stalled on store forwarding, the hottest instructions of the decode under
//!   `perf` (842,000 to 766,000, with the page's `Decoder`).
//! - Paging decodes entries from references in its own loop and moves them into the page unless a
//!   projection or an LSI fetch asks for another item (760,000), and gathers a page's items in runs
//!   before its one vector (548,000; see `paging.rs`: glibc's consolidation of its fast bins, which
//!   the vector reserved up front for `Limit` triggered before the items' 1,300 small allocations,
//!   was a fifth of the page).
//!
//! CPU time per operation (`benches/datapath_cpu.rs`, best of three runs alternating "before" — the
//! engine that stored `Item`s —, "main" — the first compact decoder — and this; a shared 2-core VM,
//! 2026-11-26; instructions per operation by callgrind, which other work on the machine does not
//! move):
//!
//! | operation | before | main | this | this / before | instructions: before | main | this |
//! |---|---|---|---|---|---|---|---|
//! | PutItem | 2.47 µs | 2.20 µs | 1.96 µs | 0.79 | 30,491 | 30,436 | 28,962 |
//! | GetItem | 1.43 µs | 0.98 µs | 0.84 µs | 0.59 | 14,025 | 13,989 | 12,837 |
//! | Query of 20 | 10.98 µs | 12.09 µs | 10.20 µs | 0.93 | 191,926 | 214,220 | 185,877 |
//! | Scan page of 100 | 34.4 µs | 44.5 µs | 25.3 µs | 0.73 | 747,581 | 880,259 | 547,964 |
//! | UpdateItem with a condition | 4.40 µs | 3.14 µs | 3.18 µs | 0.72 | 48,694 | 47,362 | 45,000 |
//!
//! Without the gathering of a page's items (which the "before" engine would have gained from too),
//! the decode alone came to 760,000 instructions and ~36.7 µs for the Scan page (1.02× and ~1.07×
//! before) and 190,600 and ~10.2 µs for the Query. What is left of the decode is mostly the
//! allocation of each name and string value (as the copy did), the clone of the skeleton's node,
//! and the item's one UTF-8 validation. Tried and not kept: reading two-byte varints inline too
//! (the item's size; 3,000 instructions more per page, the one-byte path got slower). Not tried:
//! a cache of decoded items (it would give back the memory this form saves), skipping the UTF-8
//! validation (it needs `unsafe`).
//!
//! The encoding (lengths and counts as LEB128 varints): the item's size; the block of its top-level
//! names (their count, then each name's length and UTF-8), which is also the key of its shape; then
//! the values' structure — each value as a tag byte and its payload (lengths of strings, binaries
//! inline, numbers as their exponent and coefficient, sets, lists and maps by count, a nested map's
//! names inline) — then the text of every string value and nested name, one after the other, so that
//! a decode validates the item's UTF-8 once rather than once per string. It is private to this
//! module and never leaves the process.

use std::rc::Rc;

use dynomodel::{item_size, AttributeValue, Item, Number};

mod lookup;
mod shapes;
mod written;

pub(crate) use lookup::AttributeLookup;
pub(crate) use written::WrittenItem;

use shapes::Skeleton;

/// One stored item: its encoded attributes and its DynamoDB size.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct StoredItem(Box<[u8]>);

impl std::fmt::Debug for StoredItem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.decode().fmt(f)
    }
}

const S: u8 = 0;
const N: u8 = 1;
const B: u8 = 2;
const FALSE: u8 = 3;
const TRUE: u8 = 4;
const NULL: u8 = 5;
const SS: u8 = 6;
const NS: u8 = 7;
const BS: u8 = 8;
const L: u8 = 9;
const M: u8 = 10;

impl StoredItem {
    /// Encodes `item`: one allocation of exactly the encoded length (the two parts are written into
    /// this thread's scratch buffers first, then copied).
    pub(crate) fn encode(item: &Item) -> StoredItem {
        Self::encode_measured(item, item_size(item))
    }

    /// [`StoredItem::encode`] of an item whose size (`item_size`) the caller already measured (the
    /// write's checks do), which saves a walk over the item.
    pub(crate) fn encode_measured(item: &Item, size: usize) -> StoredItem {
        debug_assert_eq!(size, item_size(item), "a measured size is the item's");
        SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut w) => w.finish(item, size),
            // Only a re-entrant encode could find the scratch taken; it gets buffers of its own.
            Err(_) => Writer::default().finish(item, size),
        })
    }

    /// The item's size by DynamoDB's rule.
    pub(crate) fn size(&self) -> usize {
        Self::size_of_bytes(&self.0)
    }

    /// The item. Only ever given bytes [`StoredItem::encode`] wrote, so decoding cannot fail; were the
    /// bytes damaged, the attributes decoded up to the damage would be returned.
    pub(crate) fn decode(&self) -> Item {
        Decoder::default().decode(self).0
    }

    /// How many top-level attributes the item has (0 for damaged bytes).
    #[cfg(any(feature = "durable", test))]
    pub(crate) fn attribute_count(&self) -> usize {
        Reader::body(&self.0)
            .and_then(|(_, names, _)| Reader::new(names).varint())
            .unwrap_or(0)
    }

    /// The encoded bytes, for a holder that keeps them inside an allocation of its own (an index
    /// entry keeps them behind its position: `index/entry.rs`) and reads them with
    /// [`StoredItem::size_of_bytes`] and [`Decoder::decode_bytes`].
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// [`StoredItem::size`] of bytes [`StoredItem::as_bytes`] gave.
    pub(crate) fn size_of_bytes(bytes: &[u8]) -> usize {
        Reader::new(bytes).varint().unwrap_or(0)
    }

    /// The attributes of the item whose bytes [`StoredItem::as_bytes`] gave (a table item's or an
    /// index entry's) one by one, each name borrowed from the encoding and each value decoded:
    /// for a reader that builds its own value from them rather than an `Item` (the mapper's typed
    /// reads, `read/typed.rs`), which saves the map and a copy of every name. Yields what
    /// [`StoredItem::decode`] would hold, in the same order; damaged bytes end it where
    /// `decode_partial` stops.
    pub(crate) fn attributes_of(bytes: &[u8]) -> impl Iterator<Item = (&str, AttributeValue)> + '_ {
        let (mut names, mut values, mut count) = match Reader::body(bytes) {
            Some((_, names, values)) => {
                let mut names = Reader::new(names);
                let count = names.varint().unwrap_or(0);
                (names, values, count)
            }
            None => (Reader::new(&[]), Reader::new(&[]), 0),
        };
        std::iter::from_fn(move || {
            count = count.checked_sub(1)?;
            let name = std::str::from_utf8(names.bytes()?).ok()?;
            Some((name, values.value()?))
        })
    }

    /// The attributes that decode, up to the first damaged one.
    fn decode_partial(bytes: &[u8]) -> Item {
        let mut item = Item::new();
        if let Some((_, names, mut values)) = Reader::body(bytes) {
            let mut names = Reader::new(names);
            let count = names.varint().unwrap_or(0);
            for _ in 0..count {
                let (Some(name), Some(v)) = (names.name(), values.value()) else {
                    break;
                };
                item.insert(name, v);
            }
        }
        item
    }

    /// The encoded length (for the module's tests).
    #[cfg(test)]
    fn encoded_len(&self) -> usize {
        self.0.len()
    }
}

/// Decodes items one after the other, keeping the shape of the last one (see [`shapes`]): the items
/// of a page mostly share one, so a page looks it up in the per-thread cache once rather than per
/// item.
#[derive(Default)]
pub(crate) struct Decoder {
    shape: Option<Rc<Skeleton>>,
}

impl Decoder {
    /// The item and its size by DynamoDB's rule (see [`StoredItem::decode`]).
    #[inline]
    pub(crate) fn decode(&mut self, item: &StoredItem) -> (Item, usize) {
        self.decode_bytes(&item.0)
    }

    /// [`Decoder::decode`] of bytes [`StoredItem::as_bytes`] gave.
    #[inline]
    pub(crate) fn decode_bytes(&mut self, bytes: &[u8]) -> (Item, usize) {
        // Damaged bytes (never written by the encoder) give what decodes up to the damage.
        self.try_decode(bytes).unwrap_or_else(|| {
            (
                StoredItem::decode_partial(bytes),
                StoredItem::size_of_bytes(bytes),
            )
        })
    }

    /// The item, as a clone of its shape's skeleton with the values filled in, or built from its
    /// names and values for a shape not cached; `None` when the bytes are damaged.
    fn try_decode(&mut self, bytes: &[u8]) -> Option<(Item, usize)> {
        let (size, names, mut values) = Reader::body(bytes)?;
        if !self.shape.as_ref().is_some_and(|s| s.is_of(names)) {
            self.shape = shapes::skeleton(names, parse_names);
        }
        if let Some(shape) = &self.shape {
            let mut item = shape.item();
            // The skeleton's names are the item's, and a map iterates in the order they were encoded.
            for v in item.values_mut() {
                values.value_into(v)?;
            }
            return Some((item, size));
        }
        let mut names = Reader::new(names);
        let count = names.varint()?;
        let item = collect_map(count, || Some((names.name()?, values.value()?)))?;
        Some((item, size))
    }
}

fn varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        // Truncation intended: the low seven bits, with the continuation bit.
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn varint_len(mut n: usize) -> usize {
    let mut len = 1;
    while n >= 0x80 {
        n >>= 7;
        len += 1;
    }
    len
}

thread_local! {
    /// The encoder's buffers, kept between writes so that a write allocates only its result.
    static SCRATCH: std::cell::RefCell<Writer> = std::cell::RefCell::default();
}

/// The encoder: the structure (tags, lengths, counts, numbers, binaries) and, apart, the text of every
/// name and string, so that a decode validates the UTF-8 of an item once instead of once per string.
#[derive(Default)]
struct Writer {
    names: Vec<u8>,
    structure: Vec<u8>,
    text: String,
}

impl Writer {
    /// Encodes `item` (of DynamoDB size `size`), leaving the buffers empty for the next one.
    fn finish(&mut self, item: &Item, size: usize) -> StoredItem {
        self.names.clear();
        self.structure.clear();
        self.text.clear();
        // The top level's names go apart, in a block of their own: the key of the item's shape.
        varint(&mut self.names, item.len());
        for (name, v) in item {
            varint(&mut self.names, name.len());
            self.names.extend_from_slice(name.as_bytes());
            self.value(v);
        }
        let len = varint_len(size)
            + varint_len(self.names.len())
            + self.names.len()
            + varint_len(self.structure.len())
            + self.structure.len()
            + self.text.len();
        let mut out = Vec::with_capacity(len);
        varint(&mut out, size);
        varint(&mut out, self.names.len());
        out.extend_from_slice(&self.names);
        varint(&mut out, self.structure.len());
        out.extend_from_slice(&self.structure);
        out.extend_from_slice(self.text.as_bytes());
        // A scratch buffer grown by one huge item is not kept.
        if self.text.capacity() > 64 * 1024 || self.structure.capacity() > 64 * 1024 {
            *self = Writer::default();
        }
        StoredItem(out.into_boxed_slice())
    }

    fn string(&mut self, s: &str) {
        varint(&mut self.structure, s.len());
        self.text.push_str(s);
    }

    fn bytes(&mut self, b: &[u8]) {
        varint(&mut self.structure, b.len());
        self.structure.extend_from_slice(b);
    }

    /// A number as two varints: the zigzagged exponent with the sign in its low bit, then the
    /// coefficient.
    fn number(&mut self, n: &Number) {
        let (negative, coefficient, exponent) = n.parts();
        let zigzag = (u64::from(exponent.unsigned_abs()) << 1) - u64::from(exponent < 0);
        varint(
            &mut self.structure,
            ((zigzag << 1) | u64::from(negative)) as usize,
        );
        let mut c = coefficient;
        while c >= 0x80 {
            self.structure.push((c as u8 & 0x7f) | 0x80);
            c >>= 7;
        }
        self.structure.push(c as u8);
    }

    fn tag(&mut self, tag: u8) {
        self.structure.push(tag);
    }

    fn map(&mut self, m: &Item) {
        varint(&mut self.structure, m.len());
        for (name, v) in m {
            self.string(name);
            self.value(v);
        }
    }

    fn value(&mut self, v: &AttributeValue) {
        match v {
            AttributeValue::S(s) => {
                self.tag(S);
                self.string(s);
            }
            AttributeValue::N(n) => {
                self.tag(N);
                self.number(n);
            }
            AttributeValue::B(b) => {
                self.tag(B);
                self.bytes(b);
            }
            AttributeValue::Bool(b) => self.tag(if *b { TRUE } else { FALSE }),
            AttributeValue::Null => self.tag(NULL),
            AttributeValue::Ss(set) => {
                self.tag(SS);
                varint(&mut self.structure, set.len());
                set.iter().for_each(|s| self.string(s));
            }
            AttributeValue::Ns(set) => {
                self.tag(NS);
                varint(&mut self.structure, set.len());
                set.iter().for_each(|n| self.number(n));
            }
            AttributeValue::Bs(set) => {
                self.tag(BS);
                varint(&mut self.structure, set.len());
                set.iter().for_each(|b| self.bytes(b));
            }
            AttributeValue::L(list) => {
                self.tag(L);
                varint(&mut self.structure, list.len());
                list.iter().for_each(|v| self.value(v));
            }
            AttributeValue::M(m) => {
                self.tag(M);
                self.map(m);
            }
        }
    }
}

/// The names of a names block (for a shape's skeleton).
fn parse_names(block: &[u8]) -> Option<Vec<String>> {
    let mut r = Reader::new(block);
    let count = r.varint()?;
    r.list_of(count, Reader::name)
}

/// A map of the `count` attributes `next` gives, in name order, built without a search per insert:
/// by `BTreeMap`'s sorted bulk build, from an array on the stack for up to 16 attributes (its
/// `From<[_; N]>`), else from a vector. `None` when `next` fails (damaged bytes).
fn collect_map(
    count: usize,
    mut next: impl FnMut() -> Option<(String, AttributeValue)>,
) -> Option<Item> {
    fn array<const K: usize>(
        next: &mut impl FnMut() -> Option<(String, AttributeValue)>,
    ) -> Option<Item> {
        let mut whole = true;
        let attributes: [(String, AttributeValue); K] = std::array::from_fn(|_| match next() {
            Some(attribute) => attribute,
            None => {
                whole = false;
                (String::new(), AttributeValue::Null)
            }
        });
        whole.then(|| Item::from(attributes))
    }
    macro_rules! by_count {
        ($($n:literal)*) => {
            match count {
                0 => Some(Item::new()),
                $($n => array::<$n>(&mut next),)*
                _ => {
                    // The count comes from our own encoder; the cap keeps damaged bytes from
                    // reserving much.
                    let mut attributes = Vec::with_capacity(count.min(1024));
                    for _ in 0..count {
                        attributes.push(next()?);
                    }
                    Some(attributes.into_iter().collect())
                }
            }
        };
    }
    by_count!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
}

/// Writes a decoded value into its slot, written where it is built, in each branch of the decode (a
/// value built in one common place went through a stack copy that stalled on store forwarding).
/// Every slot given holds a placeholder `Null` (a skeleton's, or [`Reader::value`]'s): there is
/// nothing to drop, and forgetting it saves a call to the value's drop glue per value.
#[inline(always)]
fn fill(slot: &mut AttributeValue, value: AttributeValue) {
    let placeholder = std::mem::replace(slot, value);
    debug_assert!(matches!(placeholder, AttributeValue::Null));
    std::mem::forget(placeholder);
}

/// A cursor over an encoded item's structure and its text; every read is `None` past the end.
struct Reader<'a> {
    structure: &'a [u8],
    text: &'a str,
}

impl<'a> Reader<'a> {
    fn new(structure: &'a [u8]) -> Reader<'a> {
        Reader {
            structure,
            text: "",
        }
    }

    /// An item's size, its names block and the reader of its values: the size, the names, then the
    /// values' structure and their text (validated here, once).
    // Inline: its seven words returned through memory stalled the decode that read them.
    #[inline(always)]
    fn body(bytes: &'a [u8]) -> Option<(usize, &'a [u8], Reader<'a>)> {
        let mut header = Reader::new(bytes);
        let size = header.varint()?;
        let names = header.bytes()?;
        let len = header.varint()?;
        let (structure, text) = header.structure.split_at_checked(len)?;
        let values = Reader {
            structure,
            text: std::str::from_utf8(text).ok()?,
        };
        Some((size, names, values))
    }

    /// A name of a names block: its length and its UTF-8.
    fn name(&mut self) -> Option<String> {
        let bytes = self.bytes()?;
        std::str::from_utf8(bytes).ok().map(str::to_owned)
    }

    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.structure.split_first()?;
        self.structure = rest;
        Some(b)
    }

    /// A varint: inline for one byte (the lengths, counts and small numbers of most items), out of
    /// line beyond.
    #[inline]
    fn varint(&mut self) -> Option<usize> {
        match self.structure.split_first() {
            Some((&b, rest)) if b < 0x80 => {
                self.structure = rest;
                Some(usize::from(b))
            }
            _ => self.long_varint(),
        }
    }

    #[inline(never)]
    fn long_varint(&mut self) -> Option<usize> {
        let mut n = 0usize;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            n |= usize::from(b & 0x7f).checked_shl(shift)?;
            if b < 0x80 {
                return Some(n);
            }
            shift += 7;
        }
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let len = self.varint()?;
        let (head, rest) = self.structure.split_at_checked(len)?;
        self.structure = rest;
        Some(head)
    }

    // Inline in `value_into`: an `Option<String>` or `Option<Number>` returned through memory and
    // copied into the slot stalled on store forwarding.
    #[inline(always)]
    fn string(&mut self) -> Option<String> {
        let len = self.varint()?;
        let (head, rest) = self.text.split_at_checked(len)?;
        self.text = rest;
        Some(head.to_owned())
    }

    #[inline(always)]
    fn number(&mut self) -> Option<Number> {
        let head = self.varint()?;
        let negative = head & 1 == 1;
        let zigzag = head >> 1;
        let magnitude = i32::try_from(zigzag >> 1).ok()?;
        let exponent = if zigzag & 1 == 1 {
            -magnitude - 1
        } else {
            magnitude
        };
        // In u64 while it fits (nine groups of seven bits): u128 shifts cost more, and most
        // coefficients are small.
        let mut small = 0u64;
        let mut shift = 0;
        let coefficient = loop {
            let b = self.byte()?;
            small |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                break u128::from(small);
            }
            shift += 7;
            if shift == 63 {
                break self.wide_coefficient(u128::from(small))?;
            }
        };
        Number::try_from_parts(negative, coefficient, exponent).ok()
    }

    /// The rest of a coefficient beyond its first 63 bits.
    fn wide_coefficient(&mut self, mut coefficient: u128) -> Option<u128> {
        let mut shift = 63;
        loop {
            let b = self.byte()?;
            coefficient |= u128::from(b & 0x7f).checked_shl(shift)?;
            if b < 0x80 {
                return Some(coefficient);
            }
            shift += 7;
        }
    }

    fn list<T>(&mut self, one: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let count = self.varint()?;
        self.list_of(count, one)
    }

    /// `count` elements.
    fn list_of<T>(
        &mut self,
        count: usize,
        mut one: impl FnMut(&mut Self) -> Option<T>,
    ) -> Option<Vec<T>> {
        // The count comes from our own encoder; the cap only keeps damaged bytes from reserving much.
        let mut out = Vec::with_capacity(count.min(self.structure.len()));
        for _ in 0..count {
            out.push(one(self)?);
        }
        Some(out)
    }

    /// A nested map (its names and values interleaved).
    fn map(&mut self) -> Option<Item> {
        let count = self.varint()?;
        collect_map(count, || Some((self.string()?, self.value()?)))
    }

    fn value(&mut self) -> Option<AttributeValue> {
        let mut v = AttributeValue::Null;
        self.value_into(&mut v)?;
        Some(v)
    }

    /// Decodes a value into `slot`. Written in place rather than returned: an `Option` of a value
    /// returned through memory and then copied into a map's slot stalled on store forwarding,
    /// ~10% of a Scan page. The scalars most items are made of are decoded here, inline in the
    /// loop over an item's values; the rest ([`Reader::compound`]) out of line, so that this stays
    /// small (its frame had held the nested maps' arrays, saved and restored per value).
    #[inline(always)]
    fn value_into(&mut self, slot: &mut AttributeValue) -> Option<()> {
        match self.byte()? {
            S => fill(slot, AttributeValue::S(self.string()?)),
            N => fill(slot, AttributeValue::N(self.number()?)),
            FALSE => fill(slot, AttributeValue::Bool(false)),
            TRUE => fill(slot, AttributeValue::Bool(true)),
            NULL => {}
            tag => fill(slot, self.compound(tag)?),
        }
        Some(())
    }

    /// A value of a type other than S, N, BOOL and NULL, past its tag.
    #[inline(never)]
    fn compound(&mut self, tag: u8) -> Option<AttributeValue> {
        Some(match tag {
            B => AttributeValue::B(self.bytes()?.to_vec()),
            SS => AttributeValue::Ss(self.list(Self::string)?),
            NS => AttributeValue::Ns(self.list(Self::number)?),
            BS => AttributeValue::Bs(self.list(|r| r.bytes().map(<[u8]>::to_vec))?),
            L => AttributeValue::L(self.list(Self::value)?),
            M => AttributeValue::M(self.map()?),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Number {
        text.parse().expect("number")
    }

    #[test]
    fn every_type_round_trips_with_its_size() {
        let mut nested = Item::new();
        nested.insert(
            "inner".into(),
            AttributeValue::L(vec![AttributeValue::Null]),
        );
        let item = Item::from([
            ("s".to_string(), AttributeValue::S("héllo".into())),
            ("empty".to_string(), AttributeValue::S(String::new())),
            ("n".to_string(), AttributeValue::N(n("-1.5E+30"))),
            ("b".to_string(), AttributeValue::B(vec![0, 255, 7])),
            ("t".to_string(), AttributeValue::Bool(true)),
            ("f".to_string(), AttributeValue::Bool(false)),
            ("z".to_string(), AttributeValue::Null),
            (
                "ss".to_string(),
                AttributeValue::Ss(vec!["b".into(), "a".into()]),
            ),
            (
                "ns".to_string(),
                AttributeValue::Ns(vec![n("1"), n("0.001")]),
            ),
            ("bs".to_string(), AttributeValue::Bs(vec![vec![1], vec![]])),
            (
                "l".to_string(),
                AttributeValue::L(vec![AttributeValue::M(nested.clone())]),
            ),
            ("m".to_string(), AttributeValue::M(nested)),
            ("long".to_string(), AttributeValue::S("x".repeat(400_000))),
        ]);
        let stored = StoredItem::encode(&item);
        let back = stored.decode();
        assert_eq!(back, item);
        // Set order is kept too (equality treats sets as sets).
        assert_eq!(format!("{back:?}"), format!("{item:?}"));
        assert_eq!(stored.size(), item_size(&item));
        assert_eq!(StoredItem::encode(&Item::new()).decode(), Item::new());
    }

    #[test]
    fn numbers_round_trip_to_the_limits() {
        for text in [
            "0",
            "-0.5",
            "42",
            "1E-130",
            "-1E-130",
            "9.9999999999999999999999999999999999999E+125",
            "-99999999999999999999999999999999999999",
            "0.00000000000000000000000000000000000001",
            "123456789012345678901234567890.12345678",
        ] {
            let item = Item::from([("n".to_string(), AttributeValue::N(n(text)))]);
            assert_eq!(StoredItem::encode(&item).decode(), item, "{text}");
        }
    }

    #[test]
    fn the_encoding_is_close_to_the_item_size() {
        let item = Item::from([
            ("pk".to_string(), AttributeValue::S("user0042".into())),
            ("sk".to_string(), AttributeValue::N(n("42"))),
            ("bio".to_string(), AttributeValue::S("x".repeat(100))),
        ]);
        let stored = StoredItem::encode(&item);
        assert!(
            stored.encoded_len() <= item_size(&item) + 3 * 3 + 3,
            "{}",
            stored.encoded_len()
        );
    }

    #[test]
    fn one_decoder_reads_items_of_changing_shapes() {
        let a = |i: i64| {
            Item::from([
                ("pk".to_string(), AttributeValue::S(format!("p{i}"))),
                ("n".to_string(), AttributeValue::N(Number::from(i))),
            ])
        };
        let b = |i: i64| {
            Item::from([
                ("pk".to_string(), AttributeValue::S(format!("q{i}"))),
                ("flag".to_string(), AttributeValue::Bool(i % 2 == 0)),
                ("m".to_string(), AttributeValue::M(a(i))),
            ])
        };
        // Runs of one shape, switches, a shape seen once, and a damaged item in between: each comes
        // back whole (the damaged one as far as it decodes), with its size.
        let mut items: Vec<Item> = (0..4).map(a).chain((0..3).map(b)).collect();
        items.extend([a(9), b(9), Item::new(), a(10)]);
        let mut decoder = Decoder::default();
        for _round in 0..2 {
            for item in &items {
                let stored = StoredItem::encode(item);
                assert_eq!(decoder.decode(&stored), (item.clone(), item_size(item)));
            }
            let stored = StoredItem::encode(&items[0]);
            let damaged = StoredItem(stored.0[..stored.0.len() - 1].into());
            assert!(decoder.decode(&damaged).0.len() < 2);
        }
    }

    #[test]
    fn damaged_bytes_decode_without_panicking() {
        let item = Item::from([
            ("a".to_string(), AttributeValue::S("x".into())),
            (
                "b".to_string(),
                AttributeValue::L(vec![AttributeValue::Null]),
            ),
        ]);
        let full = StoredItem::encode(&item);
        for cut in 0..full.0.len() {
            let damaged = StoredItem(full.0[..cut].into());
            assert!(damaged.decode().len() <= 2);
            let mut flipped = full.0.to_vec();
            flipped[cut] ^= 0xa5;
            let damaged = StoredItem(flipped.into());
            assert!(damaged.decode().len() <= 2);
        }
        assert_eq!(StoredItem(Box::new([0xff; 12])).size(), 0);
    }
}
