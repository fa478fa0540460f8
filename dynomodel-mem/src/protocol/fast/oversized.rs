//! A PutItem's `Item` past the point where it is sure to be refused for its size: the rest of it is
//! checked as the one pass reads it, and not built.
//!
//! The engine checks a put's item (`validate::sized_attribute_values`: names not empty, sets not
//! empty and without duplicates, nesting within 32 levels, in the item's name order) and then its
//! size ("Item size has exceeded the maximum allowed size", which prints nothing of the item), before
//! anything else looks at it (its key, its table); what the wire decoder finds in it first (a
//! *flaw*, see `super`) wins over all of these. So once the part of the item built so far is larger
//! than the limit, the rest changes the answer only through
//! - an anomaly (the exact path's answer, as before): the checker refuses what the one pass refuses;
//! - a flaw: kept as the one pass keeps it (a list's first, a map's first in its members' name order);
//! - an engine error in it (an empty name, an empty set, a set's duplicate, nesting past 32 levels):
//!   an anomaly here, so that the exact path reports it in its order;
//! - a member named as one built at the same level (which it replaces), or as a flawed one before it
//!   (which then does not count): an anomaly too.
//!
//! Everything else leaves the answer to the part built ([`Budget`] counts a lower bound of its size
//! by the engine's rule as it is read): the partial item, refused by the engine exactly as the whole
//! one would be. Its size is measured once more at the end (`super::skeleton`): one that is not past
//! the limit after all (members named twice, counted twice) is an anomaly, never a different answer.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

use dynomodel::{attribute_size, AttributeValue, Number, MAX_ITEM_SIZE};
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};

use super::value::{anomaly, BlobText, FirstFlaw, NumberText, Tag, TagSeed, Text};
use crate::protocol::value::{EMPTY_VALUE, NULL_NOT_TRUE};
use crate::storage::request_hash::{HashesSeen, RequestState};
use crate::validate::MAX_NESTING_DEPTH;

/// Flawed members of one unbuilt map beyond this many are an anomaly: each later name is compared
/// with every flawed one (see the module docs), which must stay linear.
const MAX_FLAWED: usize = 8;

/// The item being read: a lower bound of the size of what was built of it, by the engine's rule,
/// and the nesting depth of the values being read.
#[derive(Debug)]
pub(super) struct Budget {
    built: Cell<usize>,
    depth: Cell<usize>,
    skipped: Cell<bool>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            built: Cell::new(0),
            // An item's attributes are at level 1, as in `validate::attribute_values`.
            depth: Cell::new(1),
            skipped: Cell::new(false),
        }
    }
}

impl Budget {
    /// Counts `bytes` more of the item built.
    #[inline]
    pub(super) fn add(&self, bytes: usize) {
        self.built.set(self.built.get() + bytes);
    }

    /// Whether the part built is sure to be past the limit.
    #[inline]
    pub(super) fn over(&self) -> bool {
        self.built.get() > MAX_ITEM_SIZE
    }

    /// Whether a part of the item was checked and not built.
    pub(super) fn skipped(&self) -> bool {
        self.skipped.get()
    }

    /// The depth of the values being read.
    pub(super) fn depth(&self) -> usize {
        self.depth.get()
    }

    /// One level deeper (a list's elements, a map's members), then back with [`Budget::leave`].
    #[inline]
    pub(super) fn enter(&self) {
        self.depth.set(self.depth.get() + 1);
    }

    #[inline]
    pub(super) fn leave(&self) {
        self.depth.set(self.depth.get() - 1);
    }
}

/// A lower bound of the size of `value` by the engine's rule (`dynomodel::attribute_size`), but for
/// the elements of its sets, lists and maps, which their readers count.
#[inline]
pub(super) fn own_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::B(b) => b.len(),
        AttributeValue::N(_) => attribute_size(value),
        // Numbers are a byte at least; the other sets' elements are counted as they are read.
        AttributeValue::Ns(set) => set.len(),
        AttributeValue::Ss(_) | AttributeValue::Bs(_) => 0,
        // A list or a map is at least 3.
        _ => 1,
    }
}

/// The rest of a list of attribute values whose flaws go to `flaw`, checked and not built.
pub(super) fn check_list<'de, A: SeqAccess<'de>>(
    seq: &mut A,
    flaw: Option<&FirstFlaw>,
    budget: &Budget,
) -> Result<(), A::Error> {
    let seed = Unbuilt {
        flaw,
        depth: budget.depth(),
    };
    while seq.next_element_seed(seed)?.is_some() {
        budget.skipped.set(true);
    }
    Ok(())
}

/// The rest of a set of which `built` was read, checked and not built: no element equal to another.
pub(super) fn check_set<'de, A: SeqAccess<'de>, T: SetSeed<'de>>(
    seq: &mut A,
    seed: T,
    built: &[T::Value],
    budget: &Budget,
) -> Result<(), A::Error> {
    let state = RequestState::new();
    let mut hashes: Vec<u64> = built
        .iter()
        .map(|element| T::hash(element, &state))
        .collect();
    while let Some((hash, _)) = seed.next_hash(seq, &state)? {
        budget.skipped.set(true);
        hashes.push(hash);
    }
    // Equal hashes (a duplicate, or two elements that collide) are the exact path's to judge; so
    // is a duplicate among the elements built, whose message may print the whole set.
    if any_equal(hashes) {
        return Err(A::Error::custom(anomaly()));
    }
    Ok(())
}

/// The rest of a map of attribute values whose members `built` were read, checked and not built;
/// `name_ok`: what the one pass requires of a member's name. Returns the first flaw of the members
/// checked, in name order, with the member's name.
pub(super) fn check_members<'de, A: MapAccess<'de>>(
    map: &mut A,
    built: &[(String, AttributeValue)],
    flaw: Option<&FirstFlaw>,
    budget: &Budget,
    name_ok: impl Fn(&str) -> bool,
) -> Result<Option<(String, String)>, A::Error> {
    let state = RequestState::new();
    let names: HashesSeen = built
        .iter()
        .map(|(name, _)| state.hash_one(name.as_str()))
        .collect();
    // Equal hashes are settled by the names themselves, sorted once, if it comes to that.
    let mut sorted: Option<Vec<&str>> = None;
    let mut replaces = |name: &str| {
        names.contains(&state.hash_one(name))
            && sorted
                .get_or_insert_with(|| {
                    let mut names: Vec<&str> =
                        built.iter().map(|(name, _)| name.as_str()).collect();
                    names.sort_unstable();
                    names
                })
                .binary_search(&name)
                .is_ok()
    };
    let mut members = Members::new(flaw);
    while let Some(name) = map.next_key_seed(Name)? {
        budget.skipped.set(true);
        if !name_ok(&name) || replaces(&name) {
            return Err(A::Error::custom(anomaly()));
        }
        members.member(map, name, budget.depth())?;
    }
    Ok(members.first)
}

/// The value of the next entry of `map`, an `ExpressionAttributeValues` entry, checked and not built
/// (`unused_values`): every flaw, and every error of the engine's checks, is an anomaly. Nesting is
/// held to an item's 32 levels, which Query and Scan apply to these values (the others allow more:
/// a value nested deeper is then the exact path's to decode). Returns its size by the item-size
/// rule (`dynomodel::attribute_size`), counted as it is read, for the maps' caps
/// (`expr::substitution`).
pub(super) fn check_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<usize, A::Error> {
    map.next_value_seed(Unbuilt {
        flaw: None,
        depth: 1,
    })
}

/// The next element of `seq`, a PartiQL parameter, checked and not built (`parameters`), as
/// [`check_value`] checks a value: every flaw, and every error of the engine's checks, is an
/// anomaly. `false` at the list's end.
pub(super) fn check_element<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<bool, A::Error> {
    let seed = Unbuilt {
        flaw: None,
        depth: 1,
    };
    Ok(seq.next_element_seed(seed)?.is_some())
}

/// The members of a map checked and not built: each one's flaw, the first in name order kept.
struct Members<'f> {
    flaw: Option<&'f FirstFlaw>,
    /// Where a member's flaw is recorded, and taken after it.
    member: FirstFlaw,
    /// The names of the flawed members so far (see the module docs).
    flawed: Vec<String>,
    /// The flawed member first in name order so far: its name and flaw.
    first: Option<(String, String)>,
}

impl<'f> Members<'f> {
    fn new(flaw: Option<&'f FirstFlaw>) -> Self {
        Members {
            flaw,
            member: FirstFlaw::default(),
            flawed: Vec::new(),
            first: None,
        }
    }

    /// Checks the value of the member `name`, at `depth`. Returns what the member adds to its
    /// map's size: its name's bytes and its value's size.
    fn member<'de, A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        name: Cow<'_, str>,
        depth: usize,
    ) -> Result<usize, A::Error> {
        // An empty name is the engine's error; a name of a flawed member before is not worth
        // telling apart (the later one replaces it).
        if name.is_empty() || self.flawed.iter().any(|flawed| *flawed == *name) {
            return Err(A::Error::custom(anomaly()));
        }
        let flaw = self.flaw.map(|_| &self.member);
        let size = name.len() + map.next_value_seed(Unbuilt { flaw, depth })?;
        if let Some(message) = self.member.take() {
            if self.flawed.len() == MAX_FLAWED {
                return Err(A::Error::custom(anomaly()));
            }
            self.flawed.push(name.to_string());
            if self.first.as_ref().is_none_or(|(first, _)| *name < **first) {
                self.first = Some((name.into_owned(), message));
            }
        }
        Ok(size)
    }
}

/// A member's name (or a map's key), without a copy unless it has escapes.
pub(super) struct Name;

impl<'de> DeserializeSeed<'de> for Name {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Name {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a name")
    }

    fn visit_borrowed_str<E>(self, name: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(name))
    }

    fn visit_str<E>(self, name: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(name.to_owned()))
    }
}

/// One attribute value at level `depth`, checked as `value::read` reads it (the same anomalies and
/// flaws, recorded in `flaw`), with the engine's errors as anomalies, and not built: its size by the
/// item-size rule.
#[derive(Clone, Copy)]
struct Unbuilt<'f> {
    flaw: Option<&'f FirstFlaw>,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for Unbuilt<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<usize, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Unbuilt<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
        if self.depth > MAX_NESTING_DEPTH {
            return Err(A::Error::custom(anomaly()));
        }
        let flaw = self.flaw;
        let Some(tag) = map.next_key_seed(TagSeed)? else {
            let flaw = flaw.ok_or_else(|| A::Error::custom(anomaly()))?;
            flaw.record(|| EMPTY_VALUE.to_owned());
            return Ok(0);
        };
        let deeper = self.depth + 1;
        let size = match tag {
            Tag::S => map.next_value_seed(AnyText)?,
            Tag::N => attribute_size(&AttributeValue::N(
                map.next_value_seed(NumberText { flaw })?,
            )),
            Tag::B => map.next_value_seed(BlobText)?.len(),
            Tag::Bool => {
                map.next_value::<bool>()?;
                1
            }
            Tag::Null => {
                if !map.next_value::<bool>()? {
                    let flaw = flaw.ok_or_else(|| A::Error::custom(anomaly()))?;
                    flaw.record(|| NULL_NOT_TRUE.to_owned());
                }
                1
            }
            Tag::Ss => map.next_value_seed(UnbuiltSet(Text))?,
            Tag::Ns => map.next_value_seed(UnbuiltSet(NumberText { flaw }))?,
            Tag::Bs => map.next_value_seed(UnbuiltSet(BlobText))?,
            Tag::L => map.next_value_seed(UnbuiltList(Unbuilt {
                flaw,
                depth: deeper,
            }))?,
            Tag::M => map.next_value_seed(UnbuiltMap(Unbuilt {
                flaw,
                depth: deeper,
            }))?,
        };
        // A second member, known or not, is the exact path's business.
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(A::Error::custom(anomaly()));
        }
        Ok(size)
    }
}

/// The elements of an `L` checked and not built, each with the list's `flaw`: the list's size.
#[derive(Clone, Copy)]
struct UnbuiltList<'f>(Unbuilt<'f>);

impl<'de> DeserializeSeed<'de> for UnbuiltList<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<usize, D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for UnbuiltList<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        // Three, and one more for each element (`dynomodel::attribute_size`).
        let mut size = 3;
        while let Some(element) = seq.next_element_seed(self.0)? {
            size += 1 + element;
        }
        Ok(size)
    }
}

/// The members of an `M` checked and not built; its first flaw in name order goes to the outer
/// `flaw`. The map's size.
#[derive(Clone, Copy)]
struct UnbuiltMap<'f>(Unbuilt<'f>);

impl<'de> DeserializeSeed<'de> for UnbuiltMap<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<usize, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for UnbuiltMap<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of attribute values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
        let mut members = Members::new(self.0.flaw);
        // Three, and one more for each member (`dynomodel::attribute_size`); a name sent twice
        // counts twice, a bound above the map's size, which is all the maps' caps need
        // (`unused_values`).
        let mut size = 3;
        while let Some(name) = map.next_key_seed(Name)? {
            size += 1 + members.member(&mut map, name, self.0.depth)?;
        }
        if let (Some(flaw), Some((_, message))) = (self.0.flaw, members.first) {
            flaw.record(|| message);
        }
        Ok(size)
    }
}

/// A set's elements checked and not built: at least one, none equal to another (by hash: equal
/// hashes are an anomaly). The set's size.
#[derive(Clone, Copy)]
struct UnbuiltSet<T>(T);

impl<'de, T: SetSeed<'de>> DeserializeSeed<'de> for UnbuiltSet<T> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<usize, D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de, T: SetSeed<'de>> Visitor<'de> for UnbuiltSet<T> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a set")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let state = RequestState::new();
        let mut hashes = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        let mut size = 0;
        while let Some((hash, element)) = self.0.next_hash(&mut seq, &state)? {
            hashes.push(hash);
            size += element;
        }
        // An empty set is the engine's error; equal hashes the exact path's to judge.
        if hashes.is_empty() || any_equal(hashes) {
            return Err(A::Error::custom(anomaly()));
        }
        Ok(size)
    }
}

/// How a set's elements are read ([`Text`], [`NumberText`], [`BlobText`]) and compared: by the
/// hash of their value, equal for elements the engine calls duplicates.
pub(super) trait SetSeed<'de>: DeserializeSeed<'de> + Copy {
    /// The size of `element` by the engine's rule.
    fn size(element: &Self::Value) -> usize;

    /// The hash of `element` by `state`.
    fn hash(element: &Self::Value, state: &Quick) -> u64;

    /// The hash and the size of the next element of `seq`, read as this seed reads it, not kept.
    fn next_hash<A: SeqAccess<'de>>(
        self,
        seq: &mut A,
        state: &Quick,
    ) -> Result<Option<(u64, usize)>, A::Error> {
        Ok(seq
            .next_element_seed(self)?
            .map(|element| (Self::hash(&element, state), Self::size(&element))))
    }
}

impl<'de> SetSeed<'de> for Text {
    fn size(element: &String) -> usize {
        element.len()
    }

    fn hash(element: &String, state: &Quick) -> u64 {
        state.hash_one(element.as_str())
    }

    /// Hashed where it lies, without a copy.
    fn next_hash<A: SeqAccess<'de>>(
        self,
        seq: &mut A,
        state: &Quick,
    ) -> Result<Option<(u64, usize)>, A::Error> {
        seq.next_element_seed(HashedText(state))
    }
}

impl<'de> SetSeed<'de> for NumberText<'_> {
    fn size(element: &Number) -> usize {
        attribute_size(&AttributeValue::N(*element))
    }

    fn hash(element: &Number, state: &Quick) -> u64 {
        state.hash_one(element)
    }
}

impl<'de> SetSeed<'de> for BlobText {
    fn size(element: &Vec<u8>) -> usize {
        element.len()
    }

    fn hash(element: &Vec<u8>, state: &Quick) -> u64 {
        state.hash_one(element.as_slice())
    }
}

/// Whether two of `hashes` are equal: by their buckets (`validate`'s large sets' check), not in a
/// table, whose random accesses past the caches made a large set three times slower.
fn any_equal(hashes: Vec<u64>) -> bool {
    !crate::validate::hashes_distinct(&hashes)
}

/// The hash of names and elements: the request tables' keyed hash (`storage::request_hash`). Its
/// collisions only cost time: two names are then compared, two elements sent to the exact path.
type Quick = RequestState;

/// A string's hash, as `state` hashes a `str`, and its bytes.
struct HashedText<'s>(&'s Quick);

impl<'de> DeserializeSeed<'de> for HashedText<'_> {
    type Value = (u64, usize);

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(u64, usize), D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for HashedText<'_> {
    type Value = (u64, usize);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E>(self, text: &str) -> Result<(u64, usize), E> {
        Ok((self.0.hash_one(text), text.len()))
    }
}

/// A string, checked without a copy: its bytes.
struct AnyText;

impl<'de> DeserializeSeed<'de> for AnyText {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<usize, D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for AnyText {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E>(self, text: &str) -> Result<usize, E> {
        Ok(text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{decode, Outcome, Slot};

    /// Whether the one pass built `body`'s item only in part: `Some(true)`; in whole: `Some(false)`;
    /// `None` when it left the body to the exact path.
    fn partial(body: &str) -> Option<bool> {
        let Outcome::Decoded(_, predecoded) = decode("PutItem", body.as_bytes()) else {
            return None;
        };
        Some(
            predecoded
                .slots
                .iter()
                .any(|slot| matches!(slot, Slot::PartialItem(..))),
        )
    }

    fn joined(n: usize, element: impl Fn(usize) -> String) -> String {
        (0..n).map(element).collect::<Vec<_>>().join(",")
    }

    fn put(attributes: &str) -> String {
        format!(r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}{attributes}}}}}"#)
    }

    /// A map of `n` members, of 16 bytes each by the engine's rule, then `rest`.
    fn map(n: usize, rest: &str) -> String {
        let members = joined(n, |i| format!(r#""m{i:05}": {{"S": "xxxxxxxxxx"}}"#));
        format!(r#","a": {{"M": {{{members}{rest}}}}}"#)
    }

    #[test]
    fn an_item_past_the_limit_is_built_in_part() {
        // 16 bytes a member: 25,000 of them are the limit.
        assert_eq!(partial(&put(&map(24_000, ""))), Some(false));
        assert_eq!(partial(&put(&map(40_000, ""))), Some(true));
        // Its dimensions in `request_scaling`: attributes, a list, sets.
        let attributes = joined(60_000, |i| format!(r#""a{i:05}": {{"S": "xxxxxxxxxx"}}"#));
        assert_eq!(partial(&put(&format!(",{attributes}"))), Some(true));
        let list = joined(60_000, |_| r#"{"S": "xxxxxxxxxx"}"#.into());
        assert_eq!(
            partial(&put(&format!(r#","l": {{"L": [{list}]}}"#))),
            Some(true)
        );
        let strings = joined(60_000, |i| format!(r#""e{i:09}""#));
        assert_eq!(
            partial(&put(&format!(r#","s": {{"SS": [{strings}]}}"#))),
            Some(true)
        );
        let numbers = joined(500_000, |i| format!(r#""{i}""#));
        // A set of numbers is built whole (they are cheaper to build than to hash), what follows
        // it is not.
        let set = format!(r#","s": {{"NS": [{numbers}]}}"#);
        assert_eq!(partial(&put(&set)), Some(false));
        assert_eq!(
            partial(&put(&format!(r#"{set},"t": {{"S": "x"}}"#))),
            Some(true)
        );
        // Other operations' maps of values are built whole.
        let update = format!(
            r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "k"}}}}, "UpdateExpression": "SET a = :a", "ExpressionAttributeValues": {{":a": {{"M": {{{}}}}}}}}}"#,
            joined(40_000, |i| format!(r#""m{i:05}": {{"S": "xxxxxxxxxx"}}"#))
        );
        assert!(matches!(
            decode("UpdateItem", update.as_bytes()),
            Outcome::Decoded(..)
        ));
    }

    #[test]
    fn flaws_after_the_point_are_read_on() {
        assert_eq!(
            partial(&put(&map(40_000, r#","zz": {"N": "x"}"#))),
            Some(true)
        );
        let after = format!("{}{}", map(40_000, ""), r#","z": {"N": "x"}"#);
        assert_eq!(partial(&put(&after)), Some(true));
        let null = format!("{}{}", map(40_000, ""), r#","z": {"NULL": false}, "y": {}"#);
        assert_eq!(partial(&put(&null)), Some(true));
    }

    #[test]
    fn what_the_exact_path_must_judge_is_left_to_it() {
        for rest in [
            r#","zz": {"SS": []}"#,
            r#","zz": {"NS": ["1", "1.0"]}"#,
            r#","": {"S": "x"}"#,
            r#","m00005": {"S": "x"}"#,
            r#","zz": {"N": "x"}, "zz": {"N": "1"}"#,
            r#","zz": {"S": 1}"#,
        ] {
            assert_eq!(partial(&put(&map(40_000, rest))), None, "{rest}");
        }
        // A name that replaces a large part built: the part left is not past the limit.
        let replaced = format!("{}{}", map(40_000, ""), r#","a": {"S": "x"}"#);
        assert_eq!(partial(&put(&replaced)), None);
        // Members named twice, counted twice, but not past the limit: the guard at the end.
        let half = "x".repeat(250_000);
        let twice =
            format!(r#","d": {{"S": "{half}"}}, "d": {{"S": "{half}"}}, "e": {{"S": "y"}}"#);
        assert_eq!(partial(&put(&twice)), None);
    }
}
