//! How a table holds its items: one compact byte string per item ([`StoredItem`]), with the item's
//! DynamoDB size computed once, when it is written.
//!
//! Why this form (issue 15, measured with `benches/memory.rs` on 149-byte items of 8 attributes): an
//! [`Item`] is a `BTreeMap<String, AttributeValue>`, whose one leaf node is ~800 bytes whatever the item
//! holds (11 slots of a 24-byte name and a 48-byte value), plus one allocation per name and per string
//! value: 1,442 resident bytes per item, 9.7× its size. Interning the names or sharing items behind an
//! `Arc` leaves that node in place; encoding the item into one allocation removes it, and the names with
//! it, at 322 bytes (2.2×; Dynoxide's SQLite holds 480). Reads decode the bytes into a fresh `Item`
//! where they used to deep-copy the stored one (every read hands out an owned item anyway), and Query
//! and Scan move the decoded item into the page; the page-size rule reads the stored size instead of
//! walking the item again. Decoding costs more than the copy did (`benches/datapath.rs`, same run: a
//! GetItem +3%, a Query of 20 +24%, a Scan page of 100 +47%; writes +10–15%, which encode the item and
//! free the request's): the price of a 4.5× smaller table, which is what decides whether a developer's
//! million-item fixture fits in memory.
//!
//! The encoding (lengths and counts as LEB128 varints): the item's size, then its structure — the
//! number of attributes, each attribute's name length and value as a tag byte and its payload (lengths
//! of strings, binaries inline, numbers as their exponent and coefficient, sets, lists and maps by
//! count) — then the text of every name and string value, one after the other, so that a decode
//! validates the item's UTF-8 once rather than once per string. It is private to this
//! module and never leaves the process.

use dynomodel::{item_size, AttributeValue, Item, Number};

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
        let mut item = Item::new();
        if let Some(mut r) = Reader::body(&self.0) {
            r.map_into(&mut item);
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
    structure: Vec<u8>,
    text: String,
}

impl Writer {
    /// Encodes `item` (of DynamoDB size `size`), leaving the buffers empty for the next one.
    fn finish(&mut self, item: &Item, size: usize) -> StoredItem {
        self.structure.clear();
        self.text.clear();
        self.map(item);
        let len = varint_len(size)
            + varint_len(self.structure.len())
            + self.structure.len()
            + self.text.len();
        let mut out = Vec::with_capacity(len);
        varint(&mut out, size);
        varint(&mut out, self.structure.len());
        out.extend_from_slice(&self.structure);
        out.extend_from_slice(self.text.as_bytes());
        // A scratch buffer grown by one huge item is not kept.
        if self.text.capacity() > 64 * 1024 {
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

    /// The reader of an item's attributes: past the size, the structure, then the text (validated
    /// here, once).
    fn body(bytes: &'a [u8]) -> Option<Reader<'a>> {
        let mut header = Reader::new(bytes);
        header.varint()?;
        let len = header.varint()?;
        let (structure, text) = header.structure.split_at_checked(len)?;
        Some(Reader {
            structure,
            text: std::str::from_utf8(text).ok()?,
        })
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
        let head = self.text.get(..len)?;
        self.text = self.text.get(len..)?;
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
        let mut coefficient = 0u128;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            coefficient |= u128::from(b & 0x7f).checked_shl(shift)?;
            if b < 0x80 {
                break;
            }
            shift += 7;
        }
        Number::try_from_parts(negative, coefficient, exponent).ok()
    }

    fn list<T>(&mut self, mut one: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let count = self.varint()?;
        // The count comes from our own encoder; the cap only keeps damaged bytes from reserving much.
        let mut out = Vec::with_capacity(count.min(self.structure.len()));
        for _ in 0..count {
            out.push(one(self)?);
        }
        Some(out)
    }

    /// Decodes a map's attributes into `into`, stopping at the first damaged one.
    fn map_into(&mut self, into: &mut Item) -> Option<()> {
        let count = self.varint()?;
        for _ in 0..count {
            let name = self.string()?;
            let v = self.value()?;
            into.insert(name, v);
        }
        Some(())
    }

    fn value(&mut self) -> Option<AttributeValue> {
        Some(match self.byte()? {
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
            M => {
                let mut m = Item::new();
                self.map_into(&mut m)?;
                AttributeValue::M(m)
            }
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
            stored.encoded_len() <= item_size(&item) + 3 * 3 + 2,
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
