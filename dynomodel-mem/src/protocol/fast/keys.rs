//! A BatchGetItem table's `Keys`, past the point where the list is sure to be refused as too long.
//!
//! A table's list of more than 100 keys is refused by the backend with a message that echoes no key
//! ("Value at 'RequestItems.tbl.member.Keys' failed to satisfy constraint: Member must have
//! length less than or equal to 100"), after the wire decoder's own messages, which a key makes only
//! when it is not well formed (an anomaly here: the exact path reports it). So once the keys read so
//! far are sure to leave more than 100 in the typed request, the rest are only checked, exactly as
//! the one pass reads a key (the same anomalies), and neither built nor kept: one [`COUNTED_KEY`]
//! at the end of the skeleton's list stands for all of them, and the decoder (`protocol::batch`)
//! skips it. What the request's answer needs of them is that they are well formed; a `null` among
//! them (whose message names its position) is an anomaly, as the model check makes it anywhere in
//! the list.
//!
//! "Sure to leave more than 100": `protocol::batch` drops a key equal in value to an earlier one
//! but spelled apart (a number among scalars, `1e3` after `1000`), so a key with a spelling counts
//! only when its value is new. Values are compared by a hash, so two distinct values that collide
//! count once: the count can only be low, and the list is then read further, as before.
//! Keys without a spelling are never dropped.
//!
//! The typed request then holds the first keys only (more than 100 of them): the backend refuses it
//! by its length, whose message does not show them. The one message that does show every key, the
//! echo of the whole `RequestItems` map when it has more than 100 tables or a table name the service
//! refuses, is made from the exact path: [`needs_every_key`] sends such a request there.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};

use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::{Map, Value};

use dynomodel::{AttributeValue, Item, Number};

use super::skeleton::Seed;
use super::value::{anomaly, read_tagged, Tag, TagSeed};
use super::Slot;
use crate::ops::batch::{MAX_GET_KEYS, MAX_GET_TABLES};
use crate::protocol::model::{self, Service};

/// The skeleton's stand-in for a key that was checked and not built (see the module docs): a JSON
/// number, as markers are (the model check accepts it where a key belongs), that indexes no slot.
pub(super) const COUNTED_KEY: u64 = u64::MAX;

/// A table's `Keys`, a list of `member` (a key) shapes whose names have the shape `key_shape`.
pub(super) struct KeyList<'b> {
    pub(super) seed: Seed<'b>,
    pub(super) member: usize,
    pub(super) key_shape: usize,
}

impl<'de> Visitor<'de> for KeyList<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of keys")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        let mut kept = Kept::default();
        while kept.count <= MAX_GET_KEYS {
            let Some(element) = seq.next_element_seed(self.seed.at(self.member))? else {
                return Ok(Value::Array(out));
            };
            kept.saw(&element, self.seed.slots());
            out.push(element);
        }
        let checked = Checked {
            service: self.seed.service(),
            key_shape: self.key_shape,
        };
        if check_rest(&mut seq, checked)? {
            out.push(Value::from(COUNTED_KEY));
        }
        Ok(Value::Array(out))
    }
}

/// The keys after those kept, checked by `checked`: whether there were any. Out of line, so that
/// what the loop inlines does not depend on the size of the keys' reading before it (a larger
/// item reader put the checks out of line: +6 % for the keys past the limit).
#[inline(never)]
fn check_rest<'de, A: SeqAccess<'de>>(seq: &mut A, checked: Checked) -> Result<bool, A::Error> {
    let mut any = false;
    while seq.next_element_seed(checked)?.is_some() {
        any = true;
    }
    Ok(any)
}

/// How many of the keys read so far are sure to stay in the typed request (see the module docs).
#[derive(Default)]
struct Kept {
    count: usize,
    /// The hashes of the values of the keys with a spelling, counted once each.
    values: HashSet<u64>,
}

impl Kept {
    /// Counts `element`, a key's marker (or `null`, not a key).
    fn saw(&mut self, element: &Value, slots: &[Slot]) {
        let slot = element
            .as_u64()
            .and_then(|index| usize::try_from(index).ok())
            .and_then(|index| slots.get(index));
        let Some(Slot::Key(key, spelling)) = slot else {
            return;
        };
        // Without a spelling, a key is never dropped.
        let new = spelling.is_none() || self.values.insert(value_hash(key));
        if new {
            self.count += 1;
        }
    }
}

/// A hash of a key of scalars, equal for keys equal in value (as `ops::batch::hashable`'s forms
/// compare them: numbers by value), without building the form.
fn value_hash(key: &Item) -> u64 {
    let mut hasher = DefaultHasher::new();
    for (name, value) in key {
        name.hash(&mut hasher);
        match value {
            AttributeValue::S(s) => (0u8, s).hash(&mut hasher),
            AttributeValue::N(n) => (1u8, n).hash(&mut hasher),
            AttributeValue::B(b) => (2u8, b).hash(&mut hasher),
            // Not in a key with a spelling (`protocol::value::spelling_matters`).
            _ => 3u8.hash(&mut hasher),
        }
    }
    hasher.finish()
}

/// A key checked as the one pass reads it (`skeleton::key_member` and `value::SpelledAv`: the same
/// anomalies), and not built; `null` is an anomaly.
#[derive(Clone, Copy)]
struct Checked {
    service: &'static Service,
    key_shape: usize,
}

impl<'de> DeserializeSeed<'de> for Checked {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Checked {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let name = Name(self);
        while map.next_key_seed(name)?.is_some() {
            map.next_value_seed(CheckedValue)?;
        }
        Ok(())
    }
}

/// One attribute value of a key, checked as `value::SpelledAv` reads it: strings and numbers here,
/// without a copy; the other types (not valid in a key, but well formed) read and dropped.
#[derive(Clone, Copy)]
struct CheckedValue;

impl<'de> DeserializeSeed<'de> for CheckedValue {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for CheckedValue {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value")
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Some(tag) = map.next_key_seed(TagSeed)? else {
            return Err(A::Error::custom(anomaly()));
        };
        match tag {
            Tag::S => map.next_value_seed(Text::<false>)?,
            Tag::N => map.next_value_seed(Text::<true>)?,
            _ => {
                read_tagged::<A, true>(tag, map, &mut None, None, None)?;
                return Ok(());
            }
        };
        // A second member, as `read_tagged` refuses it.
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(A::Error::custom(anomaly()));
        }
        Ok(())
    }
}

/// A key's member name, checked as the model's key shape allows, without a copy; anything but a
/// string is a type error, as for a `String`. Each of the three string readers is a type of its
/// own, so that serde_json's `deserialize_str` is made once for each, called from one site, and
/// inlined there (shared, it was called out of line for every string: +2.4 % past the limit).
#[derive(Clone, Copy)]
struct Name(Checked);

impl<'de> DeserializeSeed<'de> for Name {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for Name {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    #[inline]
    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<(), E> {
        valid(model::key_is_valid(self.0.service, self.0.key_shape, text))
    }
}

/// An attribute value's string (`NUMBER` false: any) or number (`NUMBER`: as `Number::parse`
/// takes it), checked without a copy; anything but a string is a type error.
#[derive(Clone, Copy)]
struct Text<const NUMBER: bool>;

impl<'de, const NUMBER: bool> DeserializeSeed<'de> for Text<NUMBER> {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_str(self)
    }
}

impl<const NUMBER: bool> Visitor<'_> for Text<NUMBER> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    #[inline]
    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<(), E> {
        valid(!NUMBER || Number::parse(text).is_ok())
    }
}

/// A string reader's answer: the anomaly when the string is not `valid`.
#[inline]
fn valid<E: serde::de::Error>(valid: bool) -> Result<(), E> {
    if valid {
        Ok(())
    } else {
        Err(E::custom(anomaly()))
    }
}

/// Whether a BatchGetItem skeleton holds a key that was checked and not built where the backend's
/// answer echoes every key: `RequestItems` with more than [`MAX_GET_TABLES`] tables or a table
/// name the service refuses (see the module docs). Such a request is decoded by the exact path.
pub(super) fn needs_every_key(skeleton: &Map<String, Value>) -> bool {
    let Some(Value::Object(tables)) = skeleton.get("RequestItems") else {
        return false;
    };
    let echoed = tables.len() > MAX_GET_TABLES
        || tables
            .keys()
            .any(|name| crate::validate::table_name(name).is_err());
    echoed
        && tables.values().any(|table| {
            table
                .get("Keys")
                .and_then(Value::as_array)
                .is_some_and(|keys| keys.iter().any(|key| key.as_u64() == Some(COUNTED_KEY)))
        })
}

#[cfg(test)]
mod tests {
    use super::super::{decode, Outcome};
    use super::COUNTED_KEY;

    /// How many of the `Keys` of table `t` in `body` were checked and not built; `None` when the
    /// one pass left the body to the exact path.
    fn counted(body: &str) -> Option<usize> {
        let Outcome::Decoded(skeleton, _) = decode("BatchGetItem", body.as_bytes()) else {
            return None;
        };
        let keys = skeleton["RequestItems"]["tbl"]["Keys"].as_array()?;
        let built = keys
            .iter()
            .filter(|k| k.as_u64() != Some(COUNTED_KEY))
            .count();
        let sent = body.matches(r#"{"pk""#).count();
        // One stand-in at the end for all the keys that were only checked.
        match keys.last().and_then(serde_json::Value::as_u64) {
            Some(COUNTED_KEY) => Some(sent - built),
            _ => Some(0),
        }
    }

    fn body(keys: impl Iterator<Item = String>, table: &str) -> String {
        let keys: Vec<String> = keys.collect();
        format!(
            r#"{{"RequestItems": {{"{table}": {{"Keys": [{}]}}}}}}"#,
            keys.join(",")
        )
    }

    fn strings(n: usize) -> impl Iterator<Item = String> {
        (0..n).map(|i| format!(r#"{{"pk": {{"S": "k{i}"}}}}"#))
    }

    #[test]
    fn keys_past_the_101st_kept_are_only_checked() {
        assert_eq!(counted(&body(strings(100), "tbl")), Some(0));
        assert_eq!(counted(&body(strings(101), "tbl")), Some(0));
        assert_eq!(counted(&body(strings(102), "tbl")), Some(1));
        assert_eq!(counted(&body(strings(250), "tbl")), Some(149));
        // A `null`, before the limit or after it, is the exact path's (the model check reports it).
        let with_null = strings(1).chain(["null".to_owned()]).chain(strings(200));
        assert_eq!(counted(&body(with_null, "tbl")), None);
        let with_null = strings(200).chain(["null".to_owned()]);
        assert_eq!(counted(&body(with_null, "tbl")), None);
        // Numbers count once per value: 150 keys of 75 values, then 100 strings.
        let numbers = (0..150).map(|i| format!(r#"{{"pk": {{"N": "{}e0"}}}}"#, i % 75));
        let numbers = numbers.chain(strings(100));
        assert_eq!(counted(&body(numbers, "tbl")), Some(74));
    }

    #[test]
    fn a_map_that_is_echoed_whole_is_the_exact_paths() {
        assert_eq!(counted(&body(strings(250), "t")), None);
        let tables: Vec<String> = (0..101)
            .map(|i| format!(r#""t{i:03}": {{"Keys": []}}"#))
            .collect();
        let many = format!(
            r#"{{"RequestItems": {{"tbl": {{"Keys": [{}]}}, {}}}}}"#,
            strings(250).collect::<Vec<_>>().join(","),
            tables.join(",")
        );
        assert_eq!(counted(&many), None);
        // Without a key checked and not built, the one pass reads it as before (here without a
        // key at all: its tree is the exact path's).
        let few = many.replace(&strings(250).collect::<Vec<_>>().join(","), "");
        assert!(matches!(
            decode("BatchGetItem", few.as_bytes()),
            Outcome::Exact(..)
        ));
    }
}
