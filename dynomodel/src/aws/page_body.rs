//! A Query or Scan page's `Items`, or a GetItem's `Item`, read straight from the response body,
//! for the typed reads.
//!
//! The SDK's own deserializer builds a `HashMap<String, AttributeValue>` per item (SipHash, an
//! allocation per name and per value), which `hand_over` then converts again: about half of a
//! Query's client CPU (docs/performance.md, "The mapper on the AWS path"). [`read_items`] reads the
//! same items in one pass into `hand_over`'s page buffer ([`read_item`], GetItem's one item, by the
//! same walk and the same item reader). It answers only for what it reads exactly
//! as the SDK followed by `value::from_sdk` would; for anything else it gives `None`, and the caller
//! leaves the whole body to the SDK.
//!
//! The items are read by hand ([`text`]: strict JSON, strings only where the SDK takes strings):
//! serde_json's `DeserializeSeed`s into the same buffers, measured, cost 1.75 times the
//! instructions (its per-token and per-string machinery); over a quarter of what is left here is
//! the strings' allocations, which any reader pays. serde_json only skips the members beside
//! `Items` (and tells where they end).
//!
//! Exact means, for the SDK's JSON reader (`aws-smithy-json`) and its generated deserializers:
//! - the body must be UTF-8 (the SDK checks every string; JSON is ASCII outside them), and strings
//!   unescape alike (see [`text`]);
//! - `B` is decoded from the string's *escaped* text (`expect_blob_or_null`), so an escape in a
//!   binary, never valid base64, is refused; the alphabet and strict padding are base64-simd's
//!   `STANDARD`, which the `base64` crate's `STANDARD` engine matches;
//! - `NULL` with either boolean is `Null` (`from_sdk` drops the flag);
//! - a duplicated name in a nested `M` keeps the last value, as the SDK's map does.
//!
//! What it leaves to the SDK (`None`): no `Items` member, or one that is not an array, or two of
//! them; a value object with other than exactly one member of a known type (the SDK skips members
//! whose value is `null` and a `__type` member: never sent by DynamoDB, so not reproduced); a
//! duplicated attribute name within an item; documents nested deeper than [`MAX_NESTING`]; a number
//! `Number::parse` refuses; invalid base64; a JSON type the SDK does not accept in its place; invalid
//! JSON. The members beside `Items` are only skipped, not judged: the caller hands the SDK the body
//! with `Items` emptied (`[]` in place of the [`BodyPage::items`] span), and the SDK reads them, or
//! refuses the response, as it does today. GetItem's `Item` alike: left to the SDK when absent or
//! not an object (`null` included), emptied to `{}` (which the SDK reads as an empty item).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

use base64::Engine as _;
use serde::de::IgnoredAny;

use self::text::Text;
use crate::value::{AttributeValue, Number};

mod text;

#[cfg(test)]
mod tests;

/// A Query or Scan page's items, or a GetItem's item, read from the response body (for the typed
/// reads), in `hand_over`'s form: every item's attributes in one buffer, in body order, item after
/// item.
#[derive(Debug)]
pub(crate) struct BodyPage {
    pub(crate) attributes: Vec<(String, AttributeValue)>,
    /// The number of attributes of each item, in order.
    pub(crate) lengths: Vec<usize>,
    /// The byte range, in the body, of the member's value: the `Items` array (its `[` to its `]`
    /// inclusive) or the `Item` object (`{` to `}`).
    pub(crate) items: Range<usize>,
}

/// An attribute of an item: its name and value.
type Attribute = (String, AttributeValue);

/// The deepest a document read here may nest: a list or map value inside this many enclosing lists
/// and maps is left to the SDK. DynamoDB allows 32 levels; the SDK refuses from 62 (its deserializers'
/// depth limit of 128, two a level).
const MAX_NESTING: u32 = 48;

/// The items of a successful Query or Scan response `body`; `None` when the body is not one this
/// reader reads exactly as the SDK would (the caller then leaves it all to the SDK).
pub(crate) fn read_items(body: &[u8]) -> Option<BodyPage> {
    read_member(body, "Items", read_array).map(page)
}

/// A page of the attributes and lengths a member's reader read, and the member's span.
fn page(((attributes, lengths), items): ((Vec<Attribute>, Vec<usize>), Range<usize>)) -> BodyPage {
    BodyPage {
        attributes,
        lengths,
        items,
    }
}

/// The item of a successful GetItem response `body`, as a page of one item whose `items` span is
/// the `Item` object (`{` to `}`); `None` when there is no `Item` (not found: the SDK's answer is
/// cheap), when it is `null`, or when the body is not one this reader reads exactly as the SDK
/// would, by the same rules as [`read_items`].
pub(crate) fn read_item(body: &[u8]) -> Option<BodyPage> {
    read_member(body, "Item", |text| {
        let mut attributes = Vec::new();
        let length = read_attributes(text, &mut attributes)?;
        Some((attributes, vec![length]))
    })
    .map(page)
}

/// Where the top-level member `member` of a request `body` the SDK serialized stands, when its
/// value is the empty object `{}` (its `{` to its `}` inclusive): the place `request_body` writes
/// an item the model wrote into, by the same walk as the readers'.
pub(crate) fn empty_object_span(body: &[u8], member: &str) -> Option<Range<usize>> {
    let ((), span) = read_member(body, member, |text| {
        text.expect(b'{')?;
        text.empty(b'}')?.then_some(())
    })?;
    Some(span)
}

/// Reads the top-level member `member` of a response `body` by `read`, and gives it with the
/// span of its value: the walk of the response object shared by the readers; the members beside
/// it are only skipped.
fn read_member<T>(
    body: &[u8],
    member: &str,
    read: impl Fn(&mut Text<'_>) -> Option<T>,
) -> Option<(T, Range<usize>)> {
    // The SDK refuses a body with invalid UTF-8 anywhere (it validates every string, and JSON is
    // ASCII outside strings). Validated once, the strings are not validated again one by one.
    let body = std::str::from_utf8(body).ok()?;
    let mut text = Text::new(body, 0);
    let mut page = None;
    text.expect(b'{')?;
    if text.empty(b'}')? {
        return None;
    }
    loop {
        // Compared unescaped, as the SDK compares them.
        let name = text.string()?;
        text.expect(b':')?;
        text.peek()?;
        let at = text.at();
        if name == member {
            if page.is_some() {
                return None;
            }
            page = Some((read(&mut text)?, at..text.at()));
        } else {
            // Skipped, not read: serde_json's stream reader tells where the value ends.
            let mut value =
                serde_json::Deserializer::from_str(body.get(at..)?).into_iter::<IgnoredAny>();
            value.next()?.ok()?;
            text = Text::new(body, at + value.byte_offset());
        }
        if !text.next_or_close(b'}')? {
            break;
        }
    }
    // Nothing but whitespace after the object (the SDK refuses more tokens).
    if text.peek().is_some() {
        return None;
    }
    page
}

/// The `Items` array at `text`: the attributes of all its items in one buffer, and their counts.
fn read_array(text: &mut Text<'_>) -> Option<(Vec<Attribute>, Vec<usize>)> {
    let start = text.at();
    let mut attributes = Vec::new();
    let mut lengths = Vec::new();
    text.expect(b'[')?;
    if text.empty(b']')? {
        return Some((attributes, lengths));
    }
    loop {
        lengths.push(read_attributes(text, &mut attributes)?);
        if lengths.len() == 1 {
            // The rest of the page sized on its first item (a page's items are alike), so that
            // the buffer seldom grows, and never many times.
            let first = text.at() - start;
            let more = text.rest() / first + 1;
            attributes.reserve(more * attributes.len());
            lengths.reserve(more);
        }
        if !text.next_or_close(b']')? {
            return Some((attributes, lengths));
        }
    }
}

/// One item, appended to the page's buffer; the number of its attributes.
fn read_attributes(text: &mut Text<'_>, attributes: &mut Vec<Attribute>) -> Option<usize> {
    let start = attributes.len();
    text.expect(b'{')?;
    if !text.empty(b'}')? {
        loop {
            let name = text.string()?.into_owned();
            text.expect(b':')?;
            let value = read_value(text, 0)?;
            attributes.push((name, value));
            if !text.next_or_close(b'}')? {
                break;
            }
        }
    }
    let item = &attributes[start..];
    if has_duplicate(item) {
        return None;
    }
    Some(item.len())
}

/// Whether two of an item's attributes have the same name: pairwise for the usual few attributes,
/// through sorted names for many (never quadratic in a large item).
fn has_duplicate(item: &[Attribute]) -> bool {
    if item.len() <= 16 {
        // Length and first byte first: an item's names seldom share both, so the pairs are
        // told apart without comparing the names whole.
        let same = |a: &str, b: &str| {
            a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
        };
        item.iter()
            .enumerate()
            .any(|(i, (a, _))| item[i + 1..].iter().any(|(b, _)| same(a, b)))
    } else {
        let mut names: Vec<&str> = item.iter().map(|(name, _)| name.as_str()).collect();
        names.sort_unstable();
        names.windows(2).any(|pair| pair[0] == pair[1])
    }
}

/// A value object (`{"S": "…"}`) inside `nesting` enclosing lists and maps: exactly one member, of
/// a known type.
fn read_value(text: &mut Text<'_>, nesting: u32) -> Option<AttributeValue> {
    text.expect(b'{')?;
    let kind = text.string()?;
    text.expect(b':')?;
    let value = match &*kind {
        "S" => AttributeValue::S(text.string()?.into_owned()),
        "N" => AttributeValue::N(read_number(text)?),
        "B" => AttributeValue::B(read_binary(text)?),
        "BOOL" => AttributeValue::Bool(text.boolean()?),
        "NULL" => {
            text.boolean()?;
            AttributeValue::Null
        }
        "SS" => AttributeValue::Ss(read_set(text, |text| text.string().map(Cow::into_owned))?),
        "NS" => AttributeValue::Ns(read_set(text, read_number)?),
        "BS" => AttributeValue::Bs(read_set(text, read_binary)?),
        "L" if nesting < MAX_NESTING => {
            AttributeValue::L(read_set(text, |text| read_value(text, nesting + 1))?)
        }
        "M" if nesting < MAX_NESTING => AttributeValue::M(read_map(text, nesting + 1)?),
        _ => return None,
    };
    text.expect(b'}')?;
    Some(value)
}

/// An `N` string, parsed as `from_sdk` parses it.
fn read_number(text: &mut Text<'_>) -> Option<Number> {
    Number::parse(&text.string()?).ok()
}

/// A `B` string, decoded as the SDK decodes it: from the string as it stands in the body (an
/// escape's backslash is never base64).
fn read_binary(text: &mut Text<'_>) -> Option<Vec<u8>> {
    match text.string()? {
        Cow::Borrowed(base64) => base64::engine::general_purpose::STANDARD
            .decode(base64)
            .ok(),
        Cow::Owned(_) => None,
    }
}

/// A set's or a list's array, each element read by `element`.
fn read_set<T>(
    text: &mut Text<'_>,
    mut element: impl FnMut(&mut Text<'_>) -> Option<T>,
) -> Option<Vec<T>> {
    let mut elements = Vec::new();
    text.expect(b'[')?;
    if text.empty(b']')? {
        return Some(elements);
    }
    loop {
        elements.push(element(text)?);
        if !text.next_or_close(b']')? {
            return Some(elements);
        }
    }
}

/// An `M` object; a duplicated name keeps its last value, as the SDK's map does.
fn read_map(text: &mut Text<'_>, nesting: u32) -> Option<BTreeMap<String, AttributeValue>> {
    let mut values = BTreeMap::new();
    text.expect(b'{')?;
    if text.empty(b'}')? {
        return Some(values);
    }
    loop {
        let name = text.string()?.into_owned();
        text.expect(b':')?;
        values.insert(name, read_value(text, nesting)?);
        if !text.next_or_close(b'}')? {
            return Some(values);
        }
    }
}
