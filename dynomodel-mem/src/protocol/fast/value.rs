//! Attribute values read straight from the parser into [`AttributeValue`]s: exactly one known type
//! member, not `null`, of its JSON type, with valid base64 text; anything else is an anomaly that
//! sends the request to the exact path (`super`), which has the messages. A value the exact decoder
//! decodes on while recording a validation message (an `N` that is not a number, `NULL` other than
//! `true`, an empty value: a *flaw*) is read on too where its order is known ([`Attribute`],
//! [`MapReader`]): decoded to the exact decoder's placeholder, with its first flaw kept for the
//! decoder to record where the exact decoder would (see `super`).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;

use dynomodel::{AttributeValue, Item, Number, NumberError};
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};

use super::oversized::{self, own_size, Budget, SetSeed};
use crate::protocol::json;
use crate::protocol::types::blob_text;
use crate::protocol::value::{spelling_matters, write_base64, EMPTY_VALUE, NULL_NOT_TRUE};

/// The text of the error by which a seed stops the one pass (never shown: the exact path answers).
pub(super) fn anomaly() -> &'static str {
    "not decoded in one pass"
}

/// The first flaw of a value in the exact decoder's order: the validation message it records for a
/// value that it still decodes (to a placeholder) and then refuses. Only these are read on; every
/// other anomaly stops the one pass (see `super`).
#[derive(Default)]
pub(super) struct FirstFlaw {
    /// Whether a flaw was recorded: what a map's reader looks at after each member, cheaper than
    /// the message's `Option`.
    set: Cell<bool>,
    message: Cell<Option<String>>,
}

impl FirstFlaw {
    /// Records `message` unless a flaw was recorded before it (the first one counts, as in the
    /// exact decoder's [`crate::protocol::Decoder`]).
    pub(super) fn record(&self, message: impl FnOnce() -> String) {
        if !self.set.replace(true) {
            self.message.set(Some(message()));
        }
    }

    /// Whether a flaw was recorded.
    fn is_set(&self) -> bool {
        self.set.get()
    }

    /// The flaw recorded, if any, leaving none.
    pub(super) fn take(&self) -> Option<String> {
        self.set.set(false);
        self.message.take()
    }
}

/// One attribute value, `{"S": "x"}`, without flaws (a flaw is an anomaly).
#[derive(Clone, Copy)]
pub(super) struct Av;

impl<'de> DeserializeSeed<'de> for Av {
    type Value = AttributeValue;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<AttributeValue, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Av {
    type Value = AttributeValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<AttributeValue, A::Error> {
        read::<A, false>(map, &mut None, None, None)
    }
}

/// One attribute value whose flaws are recorded in `flaw` (the first in the exact decoder's order);
/// a flawed value is its exact decoder's placeholder. `None`: a flaw is an anomaly, as for [`Av`].
/// With a `budget`, a part of a PutItem's item: what is past its size limit is checked and not
/// built (`oversized`).
#[derive(Clone, Copy)]
pub(super) struct Attribute<'f> {
    pub(super) flaw: Option<&'f FirstFlaw>,
    pub(super) budget: Option<&'f Budget>,
}

impl<'de> DeserializeSeed<'de> for Attribute<'_> {
    type Value = AttributeValue;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<AttributeValue, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Attribute<'_> {
    type Value = AttributeValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<AttributeValue, A::Error> {
        read::<A, false>(map, &mut None, self.flaw, self.budget)
    }
}

/// One attribute value of a BatchGetItem key, with the text of an `N` as sent: the key's spelling
/// (see `crate::protocol::batch`) tells `1e3` from `1000`, which one [`Number`] holds alike.
#[derive(Clone, Copy)]
pub(super) struct SpelledAv;

impl<'de> DeserializeSeed<'de> for SpelledAv {
    type Value = (AttributeValue, Option<String>);

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for SpelledAv {
    type Value = (AttributeValue, Option<String>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let mut text = None;
        let value = read::<A, true>(map, &mut text, None, None)?;
        Ok((value, text))
    }
}

/// The members of an attribute value's object; with `SPELLED`, an `N`'s text is kept in
/// `number_text` (a constant, so that the values of other requests pay nothing for it). With a
/// `flaw`, what the exact decoder records and decodes on (`crate::protocol::value`) is recorded
/// there and the value is its placeholder: an empty value (`NULL`), an `N` that is not a number
/// (zero), `NULL` other than `true` (`NULL`). With a `budget`, see [`Attribute`].
fn read<'de, A: MapAccess<'de>, const SPELLED: bool>(
    mut map: A,
    number_text: &mut Option<String>,
    flaw: Option<&FirstFlaw>,
    budget: Option<&Budget>,
) -> Result<AttributeValue, A::Error> {
    let Some(tag) = map.next_key_seed(TagSeed)? else {
        let flaw = flaw.ok_or_else(|| A::Error::custom(anomaly()))?;
        flaw.record(|| EMPTY_VALUE.to_owned());
        return Ok(AttributeValue::Null);
    };
    read_tagged::<A, SPELLED>(tag, map, number_text, flaw, budget)
}

/// The rest of an attribute value whose type member's name, `tag`, was read: its value, then no
/// other member (see [`read`]).
pub(super) fn read_tagged<'de, A: MapAccess<'de>, const SPELLED: bool>(
    tag: Tag,
    mut map: A,
    number_text: &mut Option<String>,
    flaw: Option<&FirstFlaw>,
    budget: Option<&Budget>,
) -> Result<AttributeValue, A::Error> {
    if let Some(budget) = budget
        && let Some(value) = read_budgeted(tag, &mut map, flaw, budget)?
    {
        // A second member, as below.
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(A::Error::custom(anomaly()));
        }
        return Ok(value);
    }
    let value = match tag {
        Tag::S => AttributeValue::S(map.next_value()?),
        Tag::N if SPELLED => {
            let text: String = map.next_value()?;
            let number = Number::parse(&text).map_err(|_| A::Error::custom(anomaly()))?;
            *number_text = Some(text);
            AttributeValue::N(number)
        }
        Tag::N => AttributeValue::N(map.next_value_seed(NumberText { flaw })?),
        Tag::B => AttributeValue::B(map.next_value_seed(BlobText)?),
        Tag::Bool => AttributeValue::Bool(map.next_value()?),
        Tag::Null => {
            if !map.next_value::<bool>()? {
                let flaw = flaw.ok_or_else(|| A::Error::custom(anomaly()))?;
                flaw.record(|| NULL_NOT_TRUE.to_owned());
            }
            AttributeValue::Null
        }
        Tag::Ss => AttributeValue::Ss(map.next_value_seed(Elements(Text))?),
        Tag::Ns => AttributeValue::Ns(map.next_value_seed(Elements(NumberText { flaw }))?),
        Tag::Bs => AttributeValue::Bs(map.next_value_seed(Elements(BlobText))?),
        // A list's elements share its flaw: the first in the list's order is the exact decoder's.
        Tag::L => {
            AttributeValue::L(map.next_value_seed(Elements(Attribute { flaw, budget: None }))?)
        }
        Tag::M => {
            let (members, first) = map.next_value_seed(Members {
                flawed: flaw.is_some(),
                budget: None,
            })?;
            if let (Some(flaw), Some(message)) = (flaw, first) {
                flaw.record(|| message);
            }
            AttributeValue::M(members)
        }
    };
    // A second member, known or not, is the exact path's business.
    if map.next_key::<IgnoredAny>()?.is_some() {
        return Err(A::Error::custom(anomaly()));
    }
    Ok(value)
}

/// The sets, lists and maps of a PutItem's item (see [`Attribute`]), each counted in `budget` as
/// it is read and checked, not built, from where the item is past its limit; `None` for the other
/// types, read as any value is.
fn read_budgeted<'de, A: MapAccess<'de>>(
    tag: Tag,
    map: &mut A,
    flaw: Option<&FirstFlaw>,
    budget: &Budget,
) -> Result<Option<AttributeValue>, A::Error> {
    let value = match tag {
        Tag::Ss => AttributeValue::Ss(map.next_value_seed(BudgetedSet(Text, budget))?),
        Tag::Bs => AttributeValue::Bs(map.next_value_seed(BudgetedSet(BlobText, budget))?),
        Tag::L => {
            budget.enter();
            let list = map.next_value_seed(BudgetedList(Attribute {
                flaw,
                budget: Some(budget),
            }))?;
            budget.leave();
            AttributeValue::L(list)
        }
        Tag::M => {
            budget.enter();
            let (members, first) = map.next_value_seed(Members {
                flawed: flaw.is_some(),
                budget: Some(budget),
            })?;
            budget.leave();
            if let (Some(flaw), Some(message)) = (flaw, first) {
                flaw.record(|| message);
            }
            AttributeValue::M(members)
        }
        // Numbers are built whole: a `Number` is a copy without an allocation, cheaper to build
        // than to hash (docs/performance.md, "Then an item past its size limit").
        _ => return Ok(None),
    };
    Ok(Some(value))
}

/// The ten type descriptors.
#[derive(Clone, Copy)]
pub(super) enum Tag {
    S,
    N,
    B,
    Bool,
    Null,
    Ss,
    Ns,
    Bs,
    L,
    M,
}

/// A type descriptor, read without a copy of the key.
pub(super) struct TagSeed;

impl<'de> DeserializeSeed<'de> for TagSeed {
    type Value = Tag;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Tag, D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for TagSeed {
    type Value = Tag;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value's type")
    }

    fn visit_str<E: serde::de::Error>(self, tag: &str) -> Result<Tag, E> {
        Ok(match tag {
            "S" => Tag::S,
            "N" => Tag::N,
            "B" => Tag::B,
            "BOOL" => Tag::Bool,
            "NULL" => Tag::Null,
            "SS" => Tag::Ss,
            "NS" => Tag::Ns,
            "BS" => Tag::Bs,
            "L" => Tag::L,
            "M" => Tag::M,
            _ => return Err(E::custom(anomaly())),
        })
    }
}

/// The members of an `M`, and with `flawed` their first flaw in the exact decoder's order (see
/// [`MapReader`]); without, a flaw is an anomaly. With a `budget`, see [`Attribute`].
struct Members<'b> {
    flawed: bool,
    budget: Option<&'b Budget>,
}

impl<'de> DeserializeSeed<'de> for Members<'_> {
    type Value = (BTreeMap<String, AttributeValue>, Option<String>);

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Members<'_> {
    type Value = (BTreeMap<String, AttributeValue>, Option<String>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of attribute values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let flaw = FirstFlaw::default();
        let mut reader = MapReader::new(map.size_hint().unwrap_or(0), self.flawed, &flaw);
        reader.budget = self.budget;
        while let Some(name) = map.next_key::<String>()? {
            reader.member(&mut map, name)?;
            if reader.over() {
                reader.check_rest(&mut map, |_| true)?;
                break;
            }
        }
        reader.finish()
    }
}

/// A map of attribute values (an `M`, an item, a key, expression values) as its members are read,
/// with the first flaw of the map in the exact decoder's order: that of the member first in name
/// order (the exact decoder walks its tree's sorted members), each member's own first flaw. A
/// flawed map with a member named twice is an anomaly (the exact tree keeps the last of them, and
/// which one's flaw counts is not worth proving here).
pub(super) struct MapReader<'f> {
    members: Vec<(String, AttributeValue)>,
    /// How each member is read: with `flaw` to record its flaws in, or without (a flaw is then an
    /// anomaly).
    seed: Attribute<'f>,
    /// Where a member's flaw is recorded, and taken after it.
    flaw: &'f FirstFlaw,
    /// The flawed member first in name order so far: its index in `members`, its flaw.
    first: Option<(usize, String)>,
    /// A PutItem's item, or a map in it (see [`Attribute`]).
    pub(super) budget: Option<&'f Budget>,
    /// The first flaw in name order of the members checked and not built, with the member's name.
    unbuilt: Option<(String, String)>,
}

impl<'f> MapReader<'f> {
    /// A reader of a map of about `capacity` members, reading on past flaws with `flawed` and
    /// recording each member's in `flaw`.
    pub(super) fn new(capacity: usize, flawed: bool, flaw: &'f FirstFlaw) -> Self {
        MapReader {
            members: Vec::with_capacity(capacity),
            seed: Attribute {
                flaw: flawed.then_some(flaw),
                budget: None,
            },
            flaw,
            first: None,
            budget: None,
            unbuilt: None,
        }
    }

    /// Reads the value of the member `name` from `map`. Inlined by force: with a third caller it
    /// was no longer inlined into an item's loop (1-3 % more for a valid item of thousands of
    /// members).
    #[inline(always)]
    pub(super) fn member<'de, A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        name: String,
    ) -> Result<(), A::Error> {
        // Pushed as read (as before flaws were read on: the value goes straight into its place),
        // then looked at; never flawed without `flawed`.
        let value = map.next_value_seed(Attribute {
            budget: self.budget,
            ..self.seed
        })?;
        if let Some(budget) = self.budget {
            budget.add(name.len() + own_size(&value));
        }
        self.members.push((name, value));
        if self.flaw.is_set() {
            self.flawed_last();
        }
        Ok(())
    }

    /// The member read last has a flaw: kept if it is the first in name order so far. Out of line:
    /// the valid members' loop stays as small as it was.
    #[cold]
    #[inline(never)]
    fn flawed_last(&mut self) {
        let (Some(message), Some(((name, _), earlier))) =
            (self.flaw.take(), self.members.split_last())
        else {
            return;
        };
        let first = self.first.as_ref();
        if first.is_none_or(|(at, _)| earlier.get(*at).is_none_or(|(kept, _)| name < kept)) {
            self.first = Some((earlier.len(), message));
        }
    }

    /// Whether the item this map is part of is past its size limit (see [`Attribute`]).
    #[inline]
    pub(super) fn over(&self) -> bool {
        self.budget.is_some_and(Budget::over)
    }

    /// Checks the rest of the map, not built (see `oversized`); `name_ok`: what a member's name
    /// must be.
    #[cold]
    #[inline(never)]
    pub(super) fn check_rest<'de, A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        name_ok: impl Fn(&str) -> bool,
    ) -> Result<(), A::Error> {
        let Some(budget) = self.budget else {
            return Ok(());
        };
        self.unbuilt =
            oversized::check_members(map, &self.members, self.seed.flaw, budget, name_ok)?;
        Ok(())
    }

    /// The map, and its first flaw.
    pub(super) fn finish<E: serde::de::Error>(
        self,
    ) -> Result<(BTreeMap<String, AttributeValue>, Option<String>), E> {
        let read = self.members.len();
        // The first flaw in name order: of the members built, or of those checked after them.
        let built = self
            .first
            .map(|(at, message)| (self.members.get(at).map(|(name, _)| name.clone()), message));
        let first = match (built, self.unbuilt) {
            (Some((Some(name), message)), Some((unbuilt, later))) => {
                Some(if unbuilt < name { later } else { message })
            }
            (Some((_, message)), _) | (None, Some((_, message))) => Some(message),
            (None, None) => None,
        };
        let members = sorted(self.members);
        match first {
            Some(_) if members.len() != read => Err(E::custom(anomaly())),
            first => Ok((members, first)),
        }
    }
}

/// A map of `members` in the order they were read. Sorted and built at once rather than inserted one
/// by one (a tree insert per member was an eighth of a large item's cost); of members of the same
/// name the last one is kept, as serde_json's `Value` keeps it for the exact path.
pub(super) fn sorted(
    mut members: Vec<(String, AttributeValue)>,
) -> BTreeMap<String, AttributeValue> {
    // One member (a key, an action's item, a nested map of one): one insert into an empty tree
    // rather than the sort and bulk build (a third of reading a one-member item).
    if members.len() == 1
        && let Some((name, value)) = members.pop()
    {
        let mut map = BTreeMap::new();
        map.insert(name, value);
        return map;
    }
    members.into_iter().collect()
}

/// A member of a BatchGetItem key as read: its name, its value and its `N`'s text.
pub(super) type KeyMember = (String, AttributeValue, Option<String>);

/// A BatchGetItem key of one member, the usual key: as [`spelled_key`] makes it, without its sort
/// and its vector (a key's own sort and tree build were a quarter of a large BatchGetItem's cost).
pub(super) fn spelled_key_of_one(member: KeyMember) -> (Item, Option<Vec<u8>>) {
    let spelling = spelling(std::slice::from_ref(&member));
    let (name, value, _) = member;
    let mut key = Item::new();
    key.insert(name, value);
    (key, spelling)
}

/// A BatchGetItem key from its `members` as read, each with its `N`'s text: the key (of members of the
/// same name the last one, as [`sorted`] keeps it) and its spelling where it matters
/// ([`spelling_matters`]): the JSON text serde_json prints for the key's `Value`, which the exact path
/// takes as the key's spelling (`crate::protocol::batch`).
pub(super) fn spelled_key(mut members: Vec<KeyMember>) -> (Item, Option<Vec<u8>>) {
    // A stable sort, then the last of each run of equal names.
    if members.len() > 1 {
        members.sort_by(|a, b| a.0.cmp(&b.0));
        members.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                std::mem::swap(later, earlier);
            }
            same
        });
    }
    let spelling = spelling(&members);
    let key = members
        .into_iter()
        .map(|(name, value, _)| (name, value))
        .collect();
    (key, spelling)
}

/// The spelling of a key of `members` (sorted, of distinct names) where it matters.
fn spelling(members: &[KeyMember]) -> Option<Vec<u8>> {
    spelling_matters(members.iter().map(|(_, value, _)| value)).then(|| {
        let mut out = Vec::with_capacity(32 * members.len());
        out.push(b'{');
        for (i, (name, value, text)) in members.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json::string(&mut out, name);
            // Only scalars here (`spelling_matters`); an `N` read by [`SpelledAv`] has its text.
            match value {
                AttributeValue::S(s) => {
                    out.extend_from_slice(br#":{"S":"#);
                    json::string(&mut out, s);
                }
                AttributeValue::N(_) => {
                    out.extend_from_slice(br#":{"N":"#);
                    json::string(&mut out, text.as_deref().unwrap_or_default());
                }
                AttributeValue::B(bytes) => {
                    out.extend_from_slice(br#":{"B":"#);
                    write_base64(&mut out, bytes);
                }
                _ => {}
            }
            out.push(b'}');
        }
        out.push(b'}');
        out
    })
}

/// The elements of a set or an `L`, each read by the seed `T`.
struct Elements<T>(T);

impl<'de, T: DeserializeSeed<'de> + Copy> DeserializeSeed<'de> for Elements<T> {
    type Value = Vec<T::Value>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de, T: DeserializeSeed<'de> + Copy> Visitor<'de> for Elements<T> {
    type Value = Vec<T::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(element) = seq.next_element_seed(self.0)? {
            out.push(element);
        }
        Ok(out)
    }
}

/// A string element of an `SS`.
#[derive(Clone, Copy)]
pub(super) struct Text;

impl<'de> DeserializeSeed<'de> for Text {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<String, D::Error> {
        serde::Deserialize::deserialize(de)
    }
}

/// An `N`'s text, parsed as the exact path parses it; one that is not a number is a flaw (zero, as
/// the exact decoder's placeholder) with a `flaw` to record it in, else an anomaly.
#[derive(Clone, Copy)]
pub(super) struct NumberText<'f> {
    pub(super) flaw: Option<&'f FirstFlaw>,
}

impl<'de> DeserializeSeed<'de> for NumberText<'_> {
    type Value = Number;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Number, D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for NumberText<'_> {
    type Value = Number;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number's text")
    }

    #[inline]
    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Number, E> {
        match Number::parse(text) {
            Ok(number) => Ok(number),
            Err(e) => self.not_a_number(e),
        }
    }
}

impl NumberText<'_> {
    /// A text that is not a number: a flaw (zero, the exact decoder's placeholder) or an anomaly.
    #[cold]
    #[inline(never)]
    fn not_a_number<E: serde::de::Error>(self, e: NumberError) -> Result<Number, E> {
        let flaw = self.flaw.ok_or_else(|| E::custom(anomaly()))?;
        flaw.record(|| e.to_string());
        Ok(Number::ZERO)
    }
}

/// A `B`'s base64 text, decoded with the exact path's checks.
#[derive(Clone, Copy)]
pub(super) struct BlobText;

impl<'de> DeserializeSeed<'de> for BlobText {
    type Value = Vec<u8>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Vec<u8>, D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for BlobText {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("base64 text")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Vec<u8>, E> {
        blob_text(text).map_err(|_| E::custom(anomaly()))
    }
}

/// The elements of a PutItem's list (see [`Attribute`]): counted, and checked and not built from
/// where the item is past its limit.
struct BudgetedList<'f>(Attribute<'f>);

impl<'de> DeserializeSeed<'de> for BudgetedList<'_> {
    type Value = Vec<AttributeValue>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for BudgetedList<'_> {
    type Value = Vec<AttributeValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        let Some(budget) = self.0.budget else {
            return Err(A::Error::custom(anomaly()));
        };
        while let Some(element) = seq.next_element_seed(self.0)? {
            // An element's byte, and its own.
            budget.add(1 + own_size(&element));
            out.push(element);
            if budget.over() {
                oversized::check_list(&mut seq, self.0.flaw, budget)?;
                break;
            }
        }
        Ok(out)
    }
}

/// The elements of a PutItem's set (see [`Attribute`]), read by the seed `T`: counted, and checked
/// and not built from where the item is past its limit.
struct BudgetedSet<'b, T>(T, &'b Budget);

impl<'de, T: SetSeed<'de>> DeserializeSeed<'de> for BudgetedSet<'_, T> {
    type Value = Vec<T::Value>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de, T: SetSeed<'de>> Visitor<'de> for BudgetedSet<'_, T> {
    type Value = Vec<T::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a set")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let BudgetedSet(seed, budget) = self;
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(element) = seq.next_element_seed(seed)? {
            budget.add(T::size(&element));
            out.push(element);
            if budget.over() {
                oversized::check_set(&mut seq, seed, &out, budget)?;
                break;
            }
        }
        Ok(out)
    }
}
