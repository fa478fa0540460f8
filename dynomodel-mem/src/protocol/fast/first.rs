//! A list of writes' first entry, in a parse that may cut (`splice`): where the list begins in the
//! body, learned from the entry's first key, so that a list of the scanner's usual entries
//! (`scan`) within its limit is cut out whole and read by the scanner rather than by serde_json
//! and the seeds (a valid BatchWriteItem or TransactWriteItems of `S` and `N` items, whose
//! members were most of its cost).
//!
//! serde_json says nowhere where it is in the text, but a key without escapes is handed to the
//! visitor as a slice of the body: the entry's `{` is the last byte before it that is not JSON
//! whitespace. From there the scanner reads entries; if it takes every one of them, at most the
//! limit's number, the cut is made (`Splice::try_cut_list`) and the parse stops. Otherwise the
//! entry is read as any other, its first key handed back to the structure's reader ([`Prepended`]):
//! the scanner's reading of the entries it took is lost, at most the limit's number of entries
//! (what the seeds then read again), so a request still costs at most about twice its parse.
//!
//! Cut whole, the list is `[marker]` in the skeleton: one element where the request has between
//! one and the limit, so the model's bounds on the list's length (1 to 25, 1 to 100) pass alike,
//! and the decoder takes every entry from the marker's slot.

use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde_json::Value;

use super::scan::Shapes;
use super::skeleton::{self, Seed};
use super::value::anomaly;

/// The seed of a list of writes' first entry (module docs).
pub(super) struct First<'b> {
    /// The seed at the entry's shape (`WriteRequest` or `TransactWriteItem`).
    pub(super) seed: Seed<'b>,
    /// The list's ordinal among the body's lists of writes.
    pub(super) list: usize,
    pub(super) transact: bool,
    /// The most entries the list may hold.
    pub(super) limit: usize,
    pub(super) shapes: Shapes,
}

impl<'de> DeserializeSeed<'de> for First<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for First<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a structure")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let first = map.next_key_seed(KeyText)?;
        if let Some(Key::Borrowed(key)) = first {
            let splice = self.seed.splice();
            if let Some(from) = entry_start(splice.text(), key)
                && splice.try_cut_list(self.list, from, self.transact, self.shapes, self.limit)
            {
                return Err(A::Error::custom(anomaly()));
            }
        }
        skeleton::structure(self.seed, Prepended { first, map })
    }
}

/// Where in `text` the entry whose first key is `key` (a slice of `text`) begins: the `{` before
/// the key's opening quote and whitespace.
fn entry_start(text: &str, key: &str) -> Option<usize> {
    let at = key.as_ptr().addr().checked_sub(text.as_ptr().addr())?;
    if !std::ptr::eq(text.get(at..at + key.len())?, key) {
        return None;
    }
    let before = text.get(..at.checked_sub(1)?)?;
    let kept = before.trim_end_matches([' ', '\t', '\n', '\r']);
    kept.strip_suffix('{').map(str::len)
}

/// A key as serde_json hands it over: a slice of the body (no escapes) or a string of its own.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

/// The seed of a [`Key`].
struct KeyText;

impl<'de> DeserializeSeed<'de> for KeyText {
    type Value = Key<'de>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Key<'de>, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyText {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
        Ok(Key::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
        Ok(Key::Owned(key.to_owned()))
    }

    fn visit_string<E>(self, key: String) -> Result<Key<'de>, E> {
        Ok(Key::Owned(key))
    }
}

/// A map whose first key was read already: that key, then the map's other members.
struct Prepended<'de, A> {
    first: Option<Key<'de>>,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Prepended<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(Key::Borrowed(key)) => seed
                .deserialize(BorrowedStrDeserializer::<A::Error>::new(key))
                .map(Some),
            Some(Key::Owned(key)) => seed
                .deserialize(StringDeserializer::<A::Error>::new(key))
                .map(Some),
            None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}
