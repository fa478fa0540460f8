//! One index entry: its position and its projected item, in one allocation.
//!
//! The bytes are the position's length (LEB128), the position (`position.rs`: bytes that order as the
//! entry does), then the projected item as [`StoredItem`] encodes it. Entries compare by their
//! positions alone, and borrow as them (`Borrow<[u8]>`), so a `BTreeSet` of entries is a map from
//! position to item that looks positions up as plain byte slices, without a key of its own: one
//! 16-byte slot per entry in the tree, where a map of boxed positions to stored items needs 32 bytes
//! and a second allocation.

use std::borrow::Borrow;
use std::cmp::Ordering;

use dynomodel::Item;

use crate::storage::stored::{Decoder, StoredItem};

/// An index entry (see the module docs).
#[derive(Clone)]
pub(crate) struct IndexEntry(Box<[u8]>);

impl IndexEntry {
    /// The entry at `position` holding `item`.
    pub(crate) fn new(position: &[u8], item: &StoredItem) -> IndexEntry {
        let item = item.as_bytes();
        let prefix = if position.len() < 0x80 { 1 } else { 3 };
        // Exactly the length, so that the boxing below does not reallocate.
        let mut bytes = Vec::with_capacity(prefix + position.len() + item.len());
        let mut len = position.len();
        if prefix == 3 {
            // Three LEB128 bytes (positions are far below 2^21 bytes; a longer one would take more).
            for _ in 0..2 {
                bytes.push((len as u8 & 0x7f) | 0x80);
                len >>= 7;
            }
        }
        while len >= 0x80 {
            // Truncation intended: the low seven bits, with the continuation bit.
            bytes.push((len as u8 & 0x7f) | 0x80);
            len >>= 7;
        }
        // Below 0x80 here.
        bytes.push(len as u8);
        bytes.extend_from_slice(position);
        bytes.extend_from_slice(item);
        IndexEntry(bytes.into_boxed_slice())
    }

    /// The position and the item's bytes.
    #[inline]
    fn parts(&self) -> (&[u8], &[u8]) {
        // The length: one byte below 128 (most positions: the path every comparison takes).
        if let Some((&len, body)) = self.0.split_first()
            && len < 0x80
            && let Some(parts) = body.split_at_checked(usize::from(len))
        {
            return parts;
        }
        self.parts_long()
    }

    /// [`IndexEntry::parts`] of a position of 128 bytes or more (LEB128 length). Only `new` writes
    /// these bytes; were they damaged, the split falls back to the whole as the position.
    fn parts_long(&self) -> (&[u8], &[u8]) {
        let mut len = 0usize;
        let mut shift = 0;
        for (i, &byte) in self.0.iter().enumerate().take(3) {
            len |= usize::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                let body = &self.0[i + 1..];
                return body.split_at_checked(len).unwrap_or((body, &[]));
            }
            shift += 7;
        }
        (&self.0, &[])
    }

    /// The position.
    #[inline]
    pub(crate) fn position(&self) -> &[u8] {
        self.parts().0
    }

    /// The projected item's bytes, as [`StoredItem::as_bytes`] gives them.
    #[inline]
    pub(crate) fn item_bytes(&self) -> &[u8] {
        self.parts().1
    }

    /// The projected item's size by DynamoDB's rule.
    pub(crate) fn size(&self) -> usize {
        StoredItem::size_of_bytes(self.item_bytes())
    }

    /// The projected item.
    pub(crate) fn decode(&self) -> Item {
        Decoder::default().decode_bytes(self.item_bytes()).0
    }

    /// Whether both hold the same position and the same item (`==` compares positions only).
    pub(crate) fn same(&self, other: &IndexEntry) -> bool {
        self.0 == other.0
    }
}

impl std::fmt::Debug for IndexEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("IndexEntry")
            .field(&self.position())
            .field(&self.decode())
            .finish()
    }
}

// Equality and order are the positions': what `Borrow<[u8]>` requires for look-ups by position.
impl PartialEq for IndexEntry {
    fn eq(&self, other: &Self) -> bool {
        self.position() == other.position()
    }
}

impl Eq for IndexEntry {}

impl PartialOrd for IndexEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for IndexEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.position(), other.position());
        // Every position starts with its partition's 8-byte hash, and entries of other partitions
        // are most of the comparisons a look-up makes: one integer comparison decides those.
        match (a.split_first_chunk::<8>(), b.split_first_chunk::<8>()) {
            (Some((x, a)), Some((y, b))) => u64::from_be_bytes(*x)
                .cmp(&u64::from_be_bytes(*y))
                .then_with(|| a.cmp(b)),
            _ => a.cmp(b),
        }
    }
}

impl Borrow<[u8]> for IndexEntry {
    fn borrow(&self) -> &[u8] {
        self.position()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynomodel::AttributeValue;

    #[test]
    fn position_and_item_round_trip() {
        let item = Item::from([("a".to_string(), AttributeValue::S("x".into()))]);
        let stored = StoredItem::encode(&item);
        for len in [0usize, 1, 7, 8, 9, 127, 128, 300, 20_000] {
            let position: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let entry = IndexEntry::new(&position, &stored);
            assert_eq!(entry.position(), position.as_slice(), "{len}");
            assert_eq!(entry.decode(), item);
            assert_eq!(entry.size(), stored.size());
            assert_eq!(
                Decoder::default().decode_bytes(entry.item_bytes()).1,
                stored.size()
            );
        }
        let (a, b) = (
            IndexEntry::new(b"a", &stored),
            IndexEntry::new(b"ab", &stored),
        );
        assert!(a < b);
        // Past the hash, as bytes too.
        let entry = |p: &[u8]| IndexEntry::new(p, &stored);
        let positions: [&[u8]; 6] = [b"", b"\xff", b"01234567", b"01234567a", b"01234568", b"1"];
        for x in positions {
            for y in positions {
                assert_eq!(entry(x).cmp(&entry(y)), x.cmp(y), "{x:?} {y:?}");
            }
        }
        assert_eq!(a, IndexEntry::new(b"a", &StoredItem::encode(&Item::new())));
        assert!(!a.same(&IndexEntry::new(b"a", &StoredItem::encode(&Item::new()))));
        assert!(a.same(&IndexEntry::new(b"a", &stored)));
    }
}
