//! How a table holds its items: one compact byte string per item ([`StoredItem`]), with the item's
//! DynamoDB size computed once, when it is written.
//!
//! Why this form (issue 15, measured with `benches/memory.rs` on 149-byte items of 8 attributes): an
//! [`Item`] is a `BTreeMap<String, AttributeValue>`, whose one leaf node is ~800 bytes whatever the item
//! holds (11 slots of a 24-byte name and a 48-byte value), plus one allocation per name and per string
//! value: 1,442 resident bytes per item, 9.7× its size. Interning the names or sharing items behind an
//! `Arc` leaves that node in place; encoding the item into one allocation removes it, and the names with
//! it, at ~323 bytes (2.2×; Dynoxide's SQLite holds 480). The page-size rule of Query and Scan reads
//! the stored size instead of walking the item again.
//!
//! Reads hand out an owned `Item` (the `Backend` API returns them), so where the engine used to
//! deep-copy the stored map, it now builds one. Building a `BTreeMap` from the decoded attributes
//! (by insert, or by its sorted bulk build) made a Scan page of 100 ~70% slower than the copy; the
//! cheapest way to build a map is `Clone`, so a decode clones a *skeleton* of the item's shape — its
//! names, each with a placeholder — from a small per-thread cache ([`shapes`]) and writes the values
//! into its slots.
//! What remains is the decoding of the values themselves. CPU time per operation
//! (`benches/datapath_cpu.rs`, best of three runs alternating with the engine that stored `Item`s,
//! "before", on a shared 2-core VM, 2026-11-26):
//!
//! | operation | before | built from the attributes | skeleton clone (this) | this / before |
//! |---|---|---|---|---|
//! | PutItem | 2.38 µs | | 1.96 µs | 0.82 |
//! | GetItem | 1.36 µs | 1.55 µs | 0.98 µs | 0.72 |
//! | Query of 20 | 10.7 µs | 16.1 µs | 12.2 µs | 1.14 |
//! | Scan page of 100 | 35.2 µs | 60.7 µs | 45.0 µs | 1.28 |
//! | UpdateItem with a condition | 4.51 µs | | 3.23 µs | 0.72 |
//!
//! Single-item operations are faster than before (among other things, no item size is recomputed), but a Query of 20 stays ~14% and a Scan page ~28% slower than the deep copy was: about
//! 80 ns per item returned, the decoding of its values (varints, numbers from their parts, a string
//! allocated per string value, as the copy did). That is the price of a 4.4× smaller table, which
//! decides whether a developer's million-item fixture fits in memory. A cache of decoded items would
//! close the gap only for items read again and again (the Scan bench reads the same page), at the
//! memory this form saves, so it was not done.
//!
//! The encoding (lengths and counts as LEB128 varints): the item's size; the block of its top-level
//! names (their count, then each name's length and UTF-8), which is also the key of its shape; then
//! the values' structure — each value as a tag byte and its payload (lengths of strings, binaries
//! inline, numbers as their exponent and coefficient, sets, lists and maps by count, a nested map's
//! names inline) — then the text of every string value and nested name, one after the other, so that
//! a decode validates the item's UTF-8 once rather than once per string. It is private to this
//! module and never leaves the process.

use dynomodel::{item_size, AttributeValue, Item, Number};

mod shapes;

/// One stored item: its encoded attributes and its DynamoDB size.
#[derive(Clone, PartialEq, Eq)]
pub struct StoredItem(Box<[u8]>);

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
    pub fn encode(item: &Item) -> StoredItem {
        let size = item_size(item);
        SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut w) => w.finish(item, size),
            // Only a re-entrant encode could find the scratch taken; it gets buffers of its own.
            Err(_) => Writer::default().finish(item, size),
        })
    }

    /// The item's size by DynamoDB's rule.
    pub fn size(&self) -> usize {
        Reader::new(&self.0).varint().unwrap_or(0)
    }

    /// The item. Only ever given bytes [`StoredItem::encode`] wrote, so decoding cannot fail; were the
    /// bytes damaged, the attributes decoded up to the damage would be returned.
    pub fn decode(&self) -> Item {
        // Damaged bytes (never written by the encoder) give what decodes up to the damage.
        self.try_decode().unwrap_or_else(|| self.decode_partial())
    }

    /// The item, as a clone of its shape's skeleton (see [`shapes`]) with the values filled in, or
    /// built from its names and values for a shape not cached; `None` when the bytes are damaged.
    fn try_decode(&self) -> Option<Item> {
        let (names, mut values) = Reader::body(&self.0)?;
        if let Some(mut item) = shapes::skeleton(names, parse_names) {
            // The skeleton's names are the item's, and a map iterates in the order they were encoded.
            for v in item.values_mut() {
                values.value_into(v)?;
            }
            return Some(item);
        }
        let mut names = Reader::new(names);
        let count = names.varint()?;
        collect_map(count, || Some((names.name()?, values.value()?)))
    }

    /// The item's attributes one by one, each name borrowed from the encoding and each value decoded:
    /// for a reader that builds its own value from them rather than an `Item` (the mapper's typed
    /// reads, `typed_read.rs`), which saves the map and a copy of every name. Yields what
    /// [`StoredItem::decode`] would hold, in the same order; damaged bytes end it where
    /// `decode_partial` stops.
    pub fn attributes(&self) -> impl Iterator<Item = (&str, AttributeValue)> + '_ {
        let (mut names, mut values, mut count) = match Reader::body(&self.0) {
            Some((names, values)) => {
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
    fn decode_partial(&self) -> Item {
        let mut item = Item::new();
        if let Some((names, mut values)) = Reader::body(&self.0) {
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

    /// An item's names block and the reader of its values: past the size, the names, then the
    /// values' structure and their text (validated here, once).
    fn body(bytes: &'a [u8]) -> Option<(&'a [u8], Reader<'a>)> {
        let mut header = Reader::new(bytes);
        header.varint()?;
        let names = header.bytes()?;
        let len = header.varint()?;
        let (structure, text) = header.structure.split_at_checked(len)?;
        let values = Reader {
            structure,
            text: std::str::from_utf8(text).ok()?,
        };
        Some((names, values))
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

    fn varint(&mut self) -> Option<usize> {
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

    fn string(&mut self) -> Option<String> {
        let len = self.varint()?;
        let (head, rest) = self.text.split_at_checked(len)?;
        self.text = rest;
        Some(head.to_owned())
    }

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
    /// ~10% of a Scan page.
    fn value_into(&mut self, slot: &mut AttributeValue) -> Option<()> {
        *slot = match self.byte()? {
            S => AttributeValue::S(self.string()?),
            N => AttributeValue::N(self.number()?),
            B => AttributeValue::B(self.bytes()?.to_vec()),
            FALSE => AttributeValue::Bool(false),
            TRUE => AttributeValue::Bool(true),
            NULL => AttributeValue::Null,
            SS => AttributeValue::Ss(self.list(Self::string)?),
            NS => AttributeValue::Ns(self.list(Self::number)?),
            BS => AttributeValue::Bs(self.list(|r| r.bytes().map(<[u8]>::to_vec))?),
            L => AttributeValue::L(self.list(Self::value)?),
            M => AttributeValue::M(self.map()?),
            _ => return None,
        };
        Some(())
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
