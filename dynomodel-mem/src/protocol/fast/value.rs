//! Attribute values read straight from the parser into [`AttributeValue`]s: exactly one known type
//! member, not `null`, of its JSON type, with a valid number or base64 text; anything else is an
//! anomaly that sends the request to the exact path (`super`), which has the messages.

use std::collections::BTreeMap;
use std::fmt;

use dynomodel::{AttributeValue, Item, Number};
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor,
};

use crate::protocol::json;
use crate::protocol::types::blob_text;
use crate::protocol::value::{spelling_matters, write_base64};

/// The text of the error by which a seed stops the one pass (never shown: the exact path answers).
pub(super) fn anomaly() -> &'static str {
    "not decoded in one pass"
}

/// One attribute value, `{"S": "x"}`.
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
        read::<A, false>(map, &mut None)
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
        let value = read::<A, true>(map, &mut text)?;
        Ok((value, text))
    }
}

/// The members of an attribute value's object; with `SPELLED`, an `N`'s text is kept in
/// `number_text` (a constant, so that the values of other requests pay nothing for it).
fn read<'de, A: MapAccess<'de>, const SPELLED: bool>(
    mut map: A,
    number_text: &mut Option<String>,
) -> Result<AttributeValue, A::Error> {
    let Some(tag) = map.next_key_seed(TagSeed)? else {
        return Err(A::Error::custom(anomaly()));
    };
    let value = match tag {
        Tag::S => AttributeValue::S(map.next_value()?),
        Tag::N if SPELLED => {
            let text: String = map.next_value()?;
            let number = Number::parse(&text).map_err(|_| A::Error::custom(anomaly()))?;
            *number_text = Some(text);
            AttributeValue::N(number)
        }
        Tag::N => AttributeValue::N(map.next_value_seed(NumberText)?),
        Tag::B => AttributeValue::B(map.next_value_seed(BlobText)?),
        Tag::Bool => AttributeValue::Bool(map.next_value()?),
        Tag::Null => {
            if !map.next_value::<bool>()? {
                return Err(A::Error::custom(anomaly()));
            }
            AttributeValue::Null
        }
        Tag::Ss => AttributeValue::Ss(map.next_value_seed(Elements(Text))?),
        Tag::Ns => AttributeValue::Ns(map.next_value_seed(Elements(NumberText))?),
        Tag::Bs => AttributeValue::Bs(map.next_value_seed(Elements(BlobText))?),
        Tag::L => AttributeValue::L(map.next_value_seed(Elements(Av))?),
        Tag::M => AttributeValue::M(map.next_value_seed(Members)?),
    };
    // A second member, known or not, is the exact path's business.
    if map.next_key::<IgnoredAny>()?.is_some() {
        return Err(A::Error::custom(anomaly()));
    }
    Ok(value)
}

/// The ten type descriptors.
#[derive(Clone, Copy)]
enum Tag {
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
struct TagSeed;

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

/// The members of an `M`.
struct Members;

impl<'de> DeserializeSeed<'de> for Members {
    type Value = BTreeMap<String, AttributeValue>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Members {
    type Value = BTreeMap<String, AttributeValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of attribute values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(name) = map.next_key::<String>()? {
            members.push((name, map.next_value_seed(Av)?));
        }
        Ok(sorted(members))
    }
}

/// A map of `members` in the order they were read. Sorted and built at once rather than inserted one
/// by one (a tree insert per member was an eighth of a large item's cost); of members of the same
/// name the last one is kept, as serde_json's `Value` keeps it for the exact path.
pub(super) fn sorted(members: Vec<(String, AttributeValue)>) -> BTreeMap<String, AttributeValue> {
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
struct Text;

impl<'de> DeserializeSeed<'de> for Text {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<String, D::Error> {
        serde::Deserialize::deserialize(de)
    }
}

/// An `N`'s text, parsed as the exact path parses it.
#[derive(Clone, Copy)]
struct NumberText;

impl<'de> DeserializeSeed<'de> for NumberText {
    type Value = Number;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Number, D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for NumberText {
    type Value = Number;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number's text")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Number, E> {
        Number::parse(text).map_err(|_| E::custom(anomaly()))
    }
}

/// A `B`'s base64 text, decoded with the exact path's checks.
#[derive(Clone, Copy)]
struct BlobText;

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
