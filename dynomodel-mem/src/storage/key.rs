//! Key values and their ordering, and the stable hash that orders partitions.
//!
//! DynamoDB orders sort keys by value: strings and binaries as unsigned bytes (for strings that is UTF-8
//! byte order, which Rust's `str` and `[u8]` `Ord` already are), numbers numerically. Partitions have no
//! documented order; a Scan walks them in hash order. The engine keys its partition map by
//! `(stable_hash(pk), pk)` so that scans are deterministic across runs and platforms, and can be split into
//! segments by hash range later. `std`'s `DefaultHasher` is deliberately not used: its output may change
//! between Rust releases.

use std::borrow::Cow;

use dynomodel::backend::ScalarAttributeType;
use dynomodel::{AttributeValue, Number};

/// A value of a key attribute: DynamoDB allows only strings, numbers and binaries as keys.
///
/// The derived `Ord` compares the variant first; within one table a key attribute always has one type,
/// so only the per-variant orders matter: S and B by unsigned bytes, N numerically.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum KeyValue {
    /// A string key (compared as UTF-8 bytes).
    S(String),
    /// A number key (compared numerically).
    N(Number),
    /// A binary key (compared as unsigned bytes).
    B(Vec<u8>),
}

impl KeyValue {
    /// `Some("string")` or `Some("binary")` for an empty S or B, which no key may hold; the word is the
    /// one DynamoDB's messages use.
    pub(crate) fn empty_kind(&self) -> Option<&'static str> {
        match self {
            KeyValue::S(s) if s.is_empty() => Some("string"),
            KeyValue::B(b) if b.is_empty() => Some("binary"),
            _ => None,
        }
    }

    /// The key value held by `value` when it has the type `expected`, else `None`.
    pub(crate) fn from_attribute(
        value: &AttributeValue,
        expected: ScalarAttributeType,
    ) -> Option<KeyValue> {
        match (value, expected) {
            (AttributeValue::S(s), ScalarAttributeType::S) => Some(KeyValue::S(s.clone())),
            (AttributeValue::N(n), ScalarAttributeType::N) => Some(KeyValue::N(*n)),
            (AttributeValue::B(b), ScalarAttributeType::B) => Some(KeyValue::B(b.clone())),
            _ => None,
        }
    }

    /// [`KeyValue::from_attribute`] of a value it may take (`Cow::Owned`: moved, not copied);
    /// the value back when it is not of the type `expected`.
    pub(crate) fn from_cow(
        value: Cow<'_, AttributeValue>,
        expected: ScalarAttributeType,
    ) -> Result<KeyValue, Cow<'_, AttributeValue>> {
        let value = match value {
            Cow::Borrowed(v) => return KeyValue::from_attribute(v, expected).ok_or(value),
            Cow::Owned(v) => v,
        };
        match (value, expected) {
            (AttributeValue::S(s), ScalarAttributeType::S) => Ok(KeyValue::S(s)),
            (AttributeValue::N(n), ScalarAttributeType::N) => Ok(KeyValue::N(n)),
            (AttributeValue::B(b), ScalarAttributeType::B) => Ok(KeyValue::B(b)),
            (other, _) => Err(Cow::Owned(other)),
        }
    }

    /// Back to an attribute value.
    pub(crate) fn to_attribute(&self) -> AttributeValue {
        match self {
            KeyValue::S(s) => AttributeValue::S(s.clone()),
            KeyValue::N(n) => AttributeValue::N(*n),
            KeyValue::B(b) => AttributeValue::B(b.clone()),
        }
    }

    /// FNV-1a-64 over a canonical encoding (see `KeyRef::stable_hash`).
    pub(crate) fn stable_hash(&self) -> u64 {
        self.as_key_ref().stable_hash()
    }

    /// The value, borrowed.
    pub(crate) fn as_key_ref(&self) -> KeyRef<'_> {
        match self {
            KeyValue::S(s) => KeyRef::S(s),
            KeyValue::N(n) => KeyRef::N(n),
            KeyValue::B(b) => KeyRef::B(b),
        }
    }
}

/// A key value borrowed from an attribute value or a [`KeyValue`]: what hashing and the index
/// positions read, without copying a string out of the item first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyRef<'a> {
    /// A string key.
    S(&'a str),
    /// A number key.
    N(&'a Number),
    /// A binary key.
    B(&'a [u8]),
}

impl<'a> KeyRef<'a> {
    /// The key value held by `value` when it has the type `expected`, else `None`
    /// (as [`KeyValue::from_attribute`]).
    pub(crate) fn from_attribute(
        value: &'a AttributeValue,
        expected: ScalarAttributeType,
    ) -> Option<Self> {
        match (value, expected) {
            (AttributeValue::S(s), ScalarAttributeType::S) => Some(KeyRef::S(s)),
            (AttributeValue::N(n), ScalarAttributeType::N) => Some(KeyRef::N(n)),
            (AttributeValue::B(b), ScalarAttributeType::B) => Some(KeyRef::B(b)),
            _ => None,
        }
    }

    /// FNV-1a-64 over a canonical encoding: a type tag, then the UTF-8 bytes of a string, the canonical
    /// decimal text of a number (equal numbers print alike: "1.0" and "1" are both "1"), or the raw bytes.
    pub(crate) fn stable_hash(self) -> u64 {
        let mut hash = Fnv1a::new();
        match self {
            KeyRef::S(s) => {
                hash.write(b"S");
                hash.write(s.as_bytes());
            }
            KeyRef::N(n) => {
                hash.write(b"N");
                // The text formatted straight into the hash (no string allocated): the same bytes.
                let _ = std::fmt::write(&mut hash, format_args!("{n}"));
            }
            KeyRef::B(b) => {
                hash.write(b"B");
                hash.write(b);
            }
        }
        hash.finish()
    }
}

/// The position of a partition in the table: its key's stable hash, then the key itself (so that two
/// keys with the same hash stay distinct and ordered).
pub(crate) type PartitionSlot = (u64, KeyValue);

/// The slot of partition key `pk`.
pub(crate) fn partition_slot(pk: KeyValue) -> PartitionSlot {
    (pk.stable_hash(), pk)
}

/// A full primary key: partition key and, for tables with a sort key, the sort key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct PrimaryKey {
    /// The partition (hash) key.
    pub hash: KeyValue,
    /// The sort (range) key, `None` for hash-only tables.
    pub range: Option<KeyValue>,
}

/// 64-bit FNV-1a: tiny, fast, and the same on every platform and release.
struct Fnv1a(u64);

impl Fnv1a {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn new() -> Self {
        Fnv1a(Self::OFFSET_BASIS)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl std::fmt::Write for Fnv1a {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.write(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> KeyValue {
        KeyValue::N(s.parse().expect("number"))
    }

    #[test]
    fn fnv_matches_reference_vectors() {
        // Published FNV-1a-64 test vectors.
        let mut h = Fnv1a::new();
        assert_eq!(h.finish(), 0xcbf29ce484222325);
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
        let mut h = Fnv1a::new();
        h.write(b"foobar");
        assert_eq!(h.finish(), 0x85944171f73967e8);
    }

    #[test]
    fn hash_is_stable_and_canonical_for_numbers() {
        assert_eq!(n("1.0").stable_hash(), n("1").stable_hash());
        assert_eq!(n("1E2").stable_hash(), n("100").stable_hash());
        let mut h = Fnv1a::new();
        h.write(b"N-12.5");
        assert_eq!(n("-1.25E1").stable_hash(), h.finish());
        assert_ne!(
            KeyValue::S("1".into()).stable_hash(),
            n("1").stable_hash(),
            "the type tag separates S from N"
        );
        // Pinned so that a change of encoding (which would reorder every scan) is noticed.
        let mut h = Fnv1a::new();
        h.write(b"Sabc");
        assert_eq!(KeyValue::S("abc".into()).stable_hash(), h.finish());
    }

    #[test]
    fn strings_order_by_utf8_bytes() {
        let mut keys: Vec<KeyValue> = ["\u{1F600}", "\u{FF61}", "é", "a", "Z"]
            .iter()
            .map(|s| KeyValue::S((*s).to_owned()))
            .collect();
        keys.sort();
        let order: Vec<String> = keys
            .iter()
            .map(|k| match k {
                KeyValue::S(s) => s.clone(),
                _ => String::new(),
            })
            .collect();
        assert_eq!(order, ["Z", "a", "é", "\u{FF61}", "\u{1F600}"]);
    }

    #[test]
    fn numbers_order_numerically_and_binaries_unsigned() {
        let mut keys = vec![n("10"), n("-1E3"), n("2"), n("-0.5"), n("1E-5"), n("0")];
        keys.sort();
        assert_eq!(
            keys,
            vec![n("-1000"), n("-0.5"), n("0"), n("0.00001"), n("2"), n("10")]
        );
        assert!(KeyValue::B(vec![0x7f]) < KeyValue::B(vec![0x80]));
        assert!(KeyValue::B(vec![0x01]) < KeyValue::B(vec![0x01, 0x00]));
    }

    #[test]
    fn attribute_round_trip() {
        let v = AttributeValue::B(vec![1, 2]);
        let k = KeyValue::from_attribute(&v, ScalarAttributeType::B).expect("binary key");
        assert_eq!(k.to_attribute(), v);
        assert!(KeyValue::from_attribute(&v, ScalarAttributeType::S).is_none());
        assert_eq!(partition_slot(k.clone()).1, k);
    }
}
