//! The binary encoding of items and keys in log records and snapshots.
//!
//! Items are the bulk of both (a snapshot is almost only items), and recovery time is mostly decoding
//! them, so they are not JSON: a value is a type tag and its data, strings and binaries
//! length-prefixed, numbers in their canonical decimal text. About 10x faster to write and read than
//! DynamoDB JSON through `serde_json::Value`, and smaller.

use dynomodel::{AttributeValue, Item, Number};

use crate::storage::key::{KeyValue, PrimaryKey};
use crate::storage::stored::StoredItem;

const S: u8 = 0;
const N: u8 = 1;
const B: u8 = 2;
const SS: u8 = 3;
const NS: u8 = 4;
const BS: u8 = 5;
const M: u8 = 6;
const L: u8 = 7;
const NULL: u8 = 8;
const FALSE: u8 = 9;
const TRUE: u8 = 10;

/// Appends to a byte buffer.
pub(crate) struct Writer<'a>(pub &'a mut Vec<u8>);

impl Writer<'_> {
    pub(crate) fn u8(&mut self, v: u8) {
        self.0.push(v);
    }

    pub(crate) fn u32(&mut self, v: usize) {
        let v = u32::try_from(v).unwrap_or(u32::MAX);
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn i64(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len());
        self.0.extend_from_slice(b);
    }

    pub(crate) fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    fn number(&mut self, n: &Number) {
        self.str(&n.to_string());
    }

    fn value(&mut self, v: &AttributeValue) {
        match v {
            AttributeValue::S(s) => {
                self.u8(S);
                self.str(s);
            }
            AttributeValue::N(n) => {
                self.u8(N);
                self.number(n);
            }
            AttributeValue::B(b) => {
                self.u8(B);
                self.bytes(b);
            }
            AttributeValue::Bool(b) => self.u8(if *b { TRUE } else { FALSE }),
            AttributeValue::Null => self.u8(NULL),
            AttributeValue::Ss(set) => {
                self.u8(SS);
                self.u32(set.len());
                set.iter().for_each(|s| self.str(s));
            }
            AttributeValue::Ns(set) => {
                self.u8(NS);
                self.u32(set.len());
                set.iter().for_each(|n| self.number(n));
            }
            AttributeValue::Bs(set) => {
                self.u8(BS);
                self.u32(set.len());
                set.iter().for_each(|b| self.bytes(b));
            }
            AttributeValue::L(list) => {
                self.u8(L);
                self.u32(list.len());
                list.iter().for_each(|v| self.value(v));
            }
            AttributeValue::M(map) => {
                self.u8(M);
                self.item(map);
            }
        }
    }

    /// An item (or a map's fields).
    pub(crate) fn item(&mut self, item: &Item) {
        self.u32(item.len());
        for (name, value) in item {
            self.str(name);
            self.value(value);
        }
    }

    /// A stored item, written as [`Writer::item`] writes the `Item` it decodes to (the same bytes:
    /// the attributes in name order), without building the map.
    pub(crate) fn stored_item(&mut self, item: &StoredItem) {
        self.u32(item.attribute_count());
        for (name, value) in StoredItem::attributes_of(item.as_bytes()) {
            self.str(name);
            self.value(&value);
        }
    }

    fn key_value(&mut self, k: &KeyValue) {
        match k {
            KeyValue::S(s) => {
                self.u8(S);
                self.str(s);
            }
            KeyValue::N(n) => {
                self.u8(N);
                self.number(n);
            }
            KeyValue::B(b) => {
                self.u8(B);
                self.bytes(b);
            }
        }
    }

    /// A primary key.
    pub(crate) fn key(&mut self, key: &PrimaryKey) {
        self.key_value(&key.hash);
        match &key.range {
            Some(r) => {
                self.u8(1);
                self.key_value(r);
            }
            None => self.u8(0),
        }
    }
}

/// Reads what a [`Writer`] wrote; every method answers `None` on bytes that are not that.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    /// Whether everything was read.
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (self.bytes.get(..n)?, self.bytes.get(n..)?);
        self.bytes = rest;
        Some(head)
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    pub(crate) fn u32(&mut self) -> Option<usize> {
        let mut b = [0u8; 4];
        b.copy_from_slice(self.take(4)?);
        usize::try_from(u32::from_le_bytes(b)).ok()
    }

    pub(crate) fn i64(&mut self) -> Option<i64> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Some(i64::from_le_bytes(b))
    }

    pub(crate) fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()?;
        self.take(n)
    }

    pub(crate) fn string(&mut self) -> Option<String> {
        std::str::from_utf8(self.bytes()?).ok().map(str::to_owned)
    }

    fn number(&mut self) -> Option<Number> {
        std::str::from_utf8(self.bytes()?).ok()?.parse().ok()
    }

    /// A count of elements, each at least one byte: a count beyond the bytes left is garbage, not
    /// something to allocate for.
    fn count(&mut self) -> Option<usize> {
        let n = self.u32()?;
        (n <= self.bytes.len()).then_some(n)
    }

    fn value(&mut self, depth: usize) -> Option<AttributeValue> {
        // DynamoDB nests at most 32 levels; deeper is garbage (and must not overflow the stack).
        if depth > 64 {
            return None;
        }
        Some(match self.u8()? {
            S => AttributeValue::S(self.string()?),
            N => AttributeValue::N(self.number()?),
            B => AttributeValue::B(self.bytes()?.to_vec()),
            TRUE => AttributeValue::Bool(true),
            FALSE => AttributeValue::Bool(false),
            NULL => AttributeValue::Null,
            SS => AttributeValue::Ss(
                (0..self.count()?)
                    .map(|_| self.string())
                    .collect::<Option<_>>()?,
            ),
            NS => AttributeValue::Ns(
                (0..self.count()?)
                    .map(|_| self.number())
                    .collect::<Option<_>>()?,
            ),
            BS => AttributeValue::Bs(
                (0..self.count()?)
                    .map(|_| self.bytes().map(<[u8]>::to_vec))
                    .collect::<Option<_>>()?,
            ),
            L => AttributeValue::L(
                (0..self.count()?)
                    .map(|_| self.value(depth + 1))
                    .collect::<Option<_>>()?,
            ),
            M => AttributeValue::M(self.fields(depth + 1)?),
            _ => return None,
        })
    }

    fn fields(&mut self, depth: usize) -> Option<Item> {
        let mut item = Item::new();
        for _ in 0..self.count()? {
            let name = self.string()?;
            item.insert(name, self.value(depth)?);
        }
        Some(item)
    }

    /// An item.
    pub(crate) fn item(&mut self) -> Option<Item> {
        self.fields(0)
    }

    fn key_value(&mut self) -> Option<KeyValue> {
        Some(match self.u8()? {
            S => KeyValue::S(self.string()?),
            N => KeyValue::N(self.number()?),
            B => KeyValue::B(self.bytes()?.to_vec()),
            _ => return None,
        })
    }

    /// A primary key.
    pub(crate) fn key(&mut self) -> Option<PrimaryKey> {
        let hash = self.key_value()?;
        let range = match self.u8()? {
            0 => None,
            1 => Some(self.key_value()?),
            _ => return None,
        };
        Some(PrimaryKey { hash, range })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_round_trips_and_garbage_is_refused() {
        let n = |s: &str| s.parse::<Number>().unwrap_or_default();
        let item: Item = [
            ("s".to_owned(), AttributeValue::S("héllo".into())),
            ("n".to_owned(), AttributeValue::N(n("-1.5e-3"))),
            ("b".to_owned(), AttributeValue::B(vec![0, 1, 255])),
            ("t".to_owned(), AttributeValue::Bool(true)),
            ("f".to_owned(), AttributeValue::Bool(false)),
            ("z".to_owned(), AttributeValue::Null),
            (
                "ss".to_owned(),
                AttributeValue::Ss(vec!["a".into(), "b".into()]),
            ),
            (
                "ns".to_owned(),
                AttributeValue::Ns(vec![n("1"), n("12345678901234567890")]),
            ),
            ("bs".to_owned(), AttributeValue::Bs(vec![vec![1], vec![]])),
            (
                "l".to_owned(),
                AttributeValue::L(vec![AttributeValue::Null, AttributeValue::S(String::new())]),
            ),
            (
                "m".to_owned(),
                AttributeValue::M([("x".to_owned(), AttributeValue::N(n("7")))].into()),
            ),
        ]
        .into();
        let key = PrimaryKey {
            hash: KeyValue::B(vec![9]),
            range: Some(KeyValue::N(n("3"))),
        };
        let mut out = Vec::new();
        let mut w = Writer(&mut out);
        w.item(&item);
        w.key(&key);
        let mut r = Reader::new(&out);
        assert_eq!(r.item(), Some(item));
        assert_eq!(r.key(), Some(key));
        assert!(r.is_empty());
        for cut in 0..out.len() {
            let mut r = Reader::new(&out[..cut]);
            assert!(r.item().and_then(|_| r.key()).is_none(), "cut at {cut}");
        }
        let huge = [0xff, 0xff, 0xff, 0x7f];
        assert_eq!(Reader::new(&huge).item(), None);
    }
}
