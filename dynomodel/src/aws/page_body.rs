//! A Query or Scan page's `Items` read straight from the response body, for the typed reads.
//!
//! The SDK's own deserializer builds a `HashMap<String, AttributeValue>` per item (SipHash, an
//! allocation per name and per value), which `hand_over` then converts again: about half of a
//! Query's client CPU (docs/performance.md, "The mapper on the AWS path"). [`read_items`] reads the
//! same items in one pass into `hand_over`'s page buffer, with serde_json. It answers only for what it
//! reads exactly as the SDK followed by `value::from_sdk` would; for anything else it gives `None`,
//! and the caller leaves the whole body to the SDK.
//!
//! Exact means, for the SDK's JSON reader (`aws-smithy-json`) and its generated deserializers:
//! - JSON strings unescape alike (serde_json refuses lone surrogates, raw control characters and
//!   invalid UTF-8 in every string it reads, as the SDK does);
//! - `B` is decoded from the string's *escaped* text (`expect_blob_or_null`), so an escape in a
//!   binary, never valid base64, is refused; the alphabet and strict padding are base64-simd's
//!   `STANDARD`, which the `base64` crate's `STANDARD` engine matches;
//! - `NULL` with either boolean is `Null` (`from_sdk` drops the flag);
//! - a duplicated name in a nested `M` keeps the last value, as the SDK's map does.
//!
//! What it leaves to the SDK (`None`): no `Items` member, or one that is not an array, or two of them;
//! a top-level name with an escape; a value object with other than exactly one member of a known
//! type (the SDK skips members whose value is `null` and a `__type` member: never sent by DynamoDB, so
//! not reproduced); a duplicated attribute name within an item; documents nested deeper than
//! [`MAX_NESTING`]; any number `Number::parse` refuses, invalid base64, a JSON type the SDK does not
//! accept in its place, and invalid JSON. The members other than `Items` are only skipped: the SDK
//! reads them (and judges them) from the body with `Items` emptied.

// Until `AwsBackend`'s typed reads call it (issue 28's second half), only the tests do.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use base64::Engine as _;
use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};

use crate::value::{AttributeValue, Number};

#[cfg(test)]
mod tests;

/// A Query or Scan page's items read from the response body (for the typed reads), in
/// `hand_over`'s form: every item's attributes in one buffer, in body order, item after item.
#[derive(Debug)]
pub(crate) struct BodyPage {
    pub(crate) attributes: Vec<(String, AttributeValue)>,
    /// The number of attributes of each item, in order.
    pub(crate) lengths: Vec<usize>,
    /// The byte range, in the body, of the `Items` member's value (its `[` to its `]` inclusive).
    pub(crate) items: Range<usize>,
}

/// The deepest a document read here may nest: a list or map value inside this many enclosing lists
/// and maps is left to the SDK. DynamoDB allows 32 levels; the SDK refuses from 62 (its deserializers'
/// depth limit of 128, two a level), serde_json near there too (its recursion limit).
const MAX_NESTING: u32 = 48;

/// The items of a successful Query or Scan response `body`; `None` when the body is not one this
/// reader reads exactly as the SDK would (the caller then leaves it all to the SDK).
pub(crate) fn read_items(body: &[u8]) -> Option<BodyPage> {
    let mut at = whitespace(body, 0);
    if body.get(at) != Some(&b'{') {
        return None;
    }
    at = whitespace(body, at + 1);
    let mut page = None;
    if body.get(at) == Some(&b'}') {
        return None;
    }
    loop {
        // A member's name, unescaped: one with an escape is left to the SDK, which compares names
        // after unescaping them.
        if body.get(at) != Some(&b'"') {
            return None;
        }
        let name_start = at + 1;
        let name_end = name_start
            + body
                .get(name_start..)?
                .iter()
                .position(|&b| b == b'"' || b == b'\\')?;
        if body[name_end] != b'"' {
            return None;
        }
        let is_items = &body[name_start..name_end] == b"Items";
        at = whitespace(body, name_end + 1);
        if body.get(at) != Some(&b':') {
            return None;
        }
        at = whitespace(body, at + 1);
        let rest = body.get(at..)?;
        if is_items {
            if page.is_some() || rest.first() != Some(&b'[') {
                return None;
            }
            // The stream reader tells where the array ended.
            let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<Items>();
            let items = values.next()?.ok()?;
            let end = at + values.byte_offset();
            page = Some(BodyPage {
                attributes: items.attributes,
                lengths: items.lengths,
                items: at..end,
            });
            at = end;
        } else {
            let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<IgnoredAny>();
            values.next()?.ok()?;
            at += values.byte_offset();
        }
        at = whitespace(body, at);
        match body.get(at) {
            Some(b',') => at = whitespace(body, at + 1),
            Some(b'}') => break,
            _ => return None,
        }
    }
    // Nothing but whitespace after the object (the SDK refuses more tokens).
    if whitespace(body, at + 1) != body.len() {
        return None;
    }
    page
}

/// The index of the first byte at or after `at` that is not JSON whitespace (`body.len()` if none).
fn whitespace(body: &[u8], mut at: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = body.get(at) {
        at += 1;
    }
    at
}

/// The `Items` array read into one buffer.
struct Items {
    attributes: Vec<(String, AttributeValue)>,
    lengths: Vec<usize>,
}

impl<'de> Deserialize<'de> for Items {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Items, D::Error> {
        deserializer.deserialize_seq(ItemsVisitor)
    }
}

struct ItemsVisitor;

impl<'de> Visitor<'de> for ItemsVisitor {
    type Value = Items;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of items")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Items, A::Error> {
        let mut items = Items {
            attributes: Vec::new(),
            lengths: Vec::new(),
        };
        while let Some(length) = seq.next_element_seed(Item(&mut items.attributes))? {
            items.lengths.push(length);
        }
        Ok(items)
    }
}

/// One item, appended to the page's buffer; its value is the number of its attributes.
struct Item<'a>(&'a mut Vec<(String, AttributeValue)>);

impl<'de> DeserializeSeed<'de> for Item<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Item<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an item")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
        let start = self.0.len();
        while let Some(name) = map.next_key::<String>()? {
            let value = map.next_value_seed(Value { nesting: 0 })?;
            self.0.push((name, value));
        }
        if has_duplicate(&self.0[start..]) {
            return Err(de::Error::custom("a duplicated attribute name"));
        }
        Ok(self.0.len() - start)
    }
}

/// Whether two of an item's attributes have the same name: pairwise for the usual few attributes,
/// through sorted names for many (never quadratic in a large item).
fn has_duplicate(item: &[(String, AttributeValue)]) -> bool {
    if item.len() <= 16 {
        item.iter()
            .enumerate()
            .any(|(i, (a, _))| item[i + 1..].iter().any(|(b, _)| a == b))
    } else {
        let mut names: Vec<&str> = item.iter().map(|(name, _)| name.as_str()).collect();
        names.sort_unstable();
        names.windows(2).any(|pair| pair[0] == pair[1])
    }
}

/// A value object (`{"S": "…"}`) inside `nesting` enclosing lists and maps.
#[derive(Clone, Copy)]
struct Value {
    nesting: u32,
}

impl<'de> DeserializeSeed<'de> for Value {
    type Value = AttributeValue;

    fn deserialize<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<AttributeValue, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Value {
    type Value = AttributeValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AttributeValue, A::Error> {
        let Some(kind) = map.next_key::<Kind>()? else {
            return Err(de::Error::custom("a value without a type"));
        };
        let inner = Value {
            nesting: self.nesting + 1,
        };
        let value = match kind {
            Kind::S => AttributeValue::S(map.next_value()?),
            Kind::N => AttributeValue::N(map.next_value_seed(NumberText)?),
            Kind::B => AttributeValue::B(map.next_value_seed(Base64Text)?),
            Kind::Bool => AttributeValue::Bool(map.next_value()?),
            Kind::Null => {
                map.next_value::<bool>()?;
                AttributeValue::Null
            }
            Kind::Ss => AttributeValue::Ss(map.next_value()?),
            Kind::Ns => AttributeValue::Ns(map.next_value_seed(Set(NumberText))?),
            Kind::Bs => AttributeValue::Bs(map.next_value_seed(Set(Base64Text))?),
            Kind::L if self.nesting < MAX_NESTING => {
                AttributeValue::L(map.next_value_seed(Set(inner))?)
            }
            Kind::M if self.nesting < MAX_NESTING => {
                AttributeValue::M(map.next_value_seed(Map(inner))?)
            }
            Kind::L | Kind::M => return Err(de::Error::custom("a document nested too deep")),
        };
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom("a value with more than one member"));
        }
        Ok(value)
    }
}

/// A value object's type name.
enum Kind {
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

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Kind, D::Error> {
        deserializer.deserialize_str(KindVisitor)
    }
}

struct KindVisitor;

impl<'de> Visitor<'de> for KindVisitor {
    type Value = Kind;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a DynamoDB type")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Kind, E> {
        Ok(match name {
            "S" => Kind::S,
            "N" => Kind::N,
            "B" => Kind::B,
            "BOOL" => Kind::Bool,
            "NULL" => Kind::Null,
            "SS" => Kind::Ss,
            "NS" => Kind::Ns,
            "BS" => Kind::Bs,
            "L" => Kind::L,
            "M" => Kind::M,
            _ => return Err(E::custom("a type unknown to this reader")),
        })
    }
}

/// An `N` string, parsed as `from_sdk` parses it.
#[derive(Clone, Copy)]
struct NumberText;

impl<'de> DeserializeSeed<'de> for NumberText {
    type Value = Number;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Number, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for NumberText {
    type Value = Number;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number string")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Number, E> {
        Number::parse(text).map_err(E::custom)
    }
}

/// A `B` string, decoded as the SDK decodes it: from the string as it stands in the body.
#[derive(Clone, Copy)]
struct Base64Text;

impl<'de> DeserializeSeed<'de> for Base64Text {
    type Value = Vec<u8>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<u8>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Base64Text {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a base64 string")
    }

    /// serde_json lends the body's own text when the string has no escape.
    fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Vec<u8>, E> {
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .map_err(E::custom)
    }

    /// An unescaped copy: the string had an escape, whose backslash the SDK's decoder refuses.
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Vec<u8>, E> {
        Err(E::custom("an escape in a base64 string"))
    }
}

/// A set's or a list's array, each element read by the seed.
struct Set<S>(S);

impl<'de, S: DeserializeSeed<'de> + Copy> DeserializeSeed<'de> for Set<S> {
    type Value = Vec<S::Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, S: DeserializeSeed<'de> + Copy> Visitor<'de> for Set<S> {
    type Value = Vec<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut elements = Vec::new();
        while let Some(element) = seq.next_element_seed(self.0)? {
            elements.push(element);
        }
        Ok(elements)
    }
}

/// An `M` object; a duplicated name keeps its last value, as the SDK's map does.
struct Map(Value);

impl<'de> DeserializeSeed<'de> for Map {
    type Value = BTreeMap<String, AttributeValue>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Map {
    type Value = BTreeMap<String, AttributeValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of attribute values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut values = BTreeMap::new();
        while let Some(name) = map.next_key::<String>()? {
            let value = map.next_value_seed(self.0)?;
            values.insert(name, value);
        }
        Ok(values)
    }
}
