//! Unused `ExpressionAttributeValues` at the top of a request, checked and not built (issue 25).
//!
//! As for the names (`unused`): a request can send hundreds of thousands of values its expressions
//! do not use, which the engine refuses with a message listing their keys once every other check
//! has passed; building each one (its key, its value, the tree, the engine's checks of it, its
//! drop) only for that was most of such a request's cost. Unlike a name, a value cannot wait as
//! borrowed text for the expressions to be known: it has to be read to be checked. So the map is
//! read as far as its expressions can use it ([`budget_of`]: one entry for two bytes of the
//! expressions read before it, and a few more for a map sent before them) into the request's
//! values, as before; every entry past that is *checked* as it is read and not built, its key kept
//! borrowed with where its value lies in the body ([`Values`]). Once the whole request is read
//! ([`values`]):
//!
//! - a map with no entry past the budget (every valid request whose map follows its expressions)
//!   is the request's values, as before;
//! - a map with no more entries than the expressions have `:` (a valid request whose map precedes
//!   them) is built whole: the entries checked are read again from the body and built;
//! - otherwise the expressions' value placeholders are taken from the lexer and, if some keys are
//!   unused, the engine gets a *reduced* map: the used entries (those checked read again and
//!   built) and the last unused one sent. [`Reduced`] puts back the message listing them all;
//! - a reduced map whose request's maps are past their caps (`expr::substitution`, which the
//!   engine checks before the unused values; the entries checked are measured as they are read)
//!   has its kept unused value replaced by a string standing for the rest's measure ([`resize`]),
//!   so that the engine refuses it as the whole map; with a key sent twice the measure is only a
//!   bound, and the map is built whole.
//!
//! The engine's checks of the map itself see the reduced map as they see the whole one only if
//! every unused value passes them, so the checks here are the engine's and the decoder's: an entry
//! checked goes through `oversized`'s checker (the exact decoder's anomalies and flaws, an empty
//! name, an empty set, a set's duplicate, nesting past 32 levels, all sending the request to the
//! exact path, which reports them in its order); a value built and unused must pass
//! `validate::attribute` (Query and Scan check the map by the item rules, the others by
//! `validate::expression_value`, whose rules are the item's but for a deeper nesting), else the map
//! goes whole; a key that is not a placeholder sends it whole too (the engine's "invalid key"), and
//! a flaw in the entries built sends the request to the exact path.

use std::borrow::Cow;
use std::fmt;

use dynomodel::{AttributeValue, Item};
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde_json::{Map, Value};

use super::oversized::{self, Name};
use super::unused::{count, used, Reduced};
use super::value::{anomaly, Av, FirstFlaw, MapReader};
use super::{Predecoded, Slot};
use crate::expr::lexer::TokenKind;
use crate::expr::request::is_placeholder;
use crate::expr::substitution;
use crate::protocol::model::{self, Service};
use crate::validate;

/// The map's member name, and the start of the engine's message about its unused keys.
pub(super) const VALUES: &str = "ExpressionAttributeValues";

/// The expression members that take values, of the requests that carry `ExpressionAttributeValues`
/// at their top level (PutItem, DeleteItem, UpdateItem, Query, Scan).
const EXPRESSIONS: &[&str] = &[
    "UpdateExpression",
    "ConditionExpression",
    "KeyConditionExpression",
    "FilterExpression",
];

/// Entries built before any is checked, beyond what the expressions read before the map can use:
/// a valid map sent before its expressions is built as before up to this many (past them, each is
/// checked, then read again and built). One in the tests (see [`budget_of`]).
const BUILT_FIRST: usize = if cfg!(test) { 1 } else { 64 };

/// How many entries of the map are built as they are read, for a request whose members read before
/// it are `request`: [`BUILT_FIRST`], and as many as the expressions read before it could use, at
/// most one for two of their bytes (a placeholder is `:` and a character at least). Their lengths,
/// not their `:`, which counted cost a valid request of long expressions 4 %. In the tests, one:
/// every map of more entries that the oracle sees takes the path of the entries checked.
fn budget_of(request: &Map<String, Value>) -> usize {
    if cfg!(test) {
        return BUILT_FIRST;
    }
    let bytes: usize = expressions(request).iter().map(|text| text.len()).sum();
    BUILT_FIRST + bytes / 2
}

/// The expressions of `request` that take values.
fn expressions(request: &Map<String, Value>) -> Vec<&str> {
    EXPRESSIONS
        .iter()
        .filter_map(|member| request.get(*member)?.as_str())
        .collect()
}

/// How many `:` `expressions` hold: at least as many as their value placeholders.
fn colons(expressions: &[&str]) -> usize {
    expressions.iter().map(|text| count(text, b':')).sum()
}

/// The map as read: the entries built (a map, and its first flaw in the exact decoder's order),
/// how many were read, and the entries checked after them (each key, and the offset in the body
/// just past it, where its value follows a `:`), with what they measure for the maps' caps.
pub(super) struct Read<'de> {
    built: Item,
    flaw: Option<String>,
    read: usize,
    checked: Vec<(&'de str, usize)>,
    checked_size: usize,
}

impl Read<'_> {
    /// The map's measure for the maps' caps (`expr::substitution`): the entries built measured
    /// here (only for a map about to be reduced), the entries checked as they were read. A key sent
    /// twice counts twice: a bound above the engine's measure of the map it gets whole.
    pub(super) fn size(&self) -> usize {
        substitution::values_size(&self.built) + self.checked_size
    }
}

/// The map of shape `map` (keys of shape `key`), of a request whose members read before it are
/// `request`: its first entries built (its [`budget`]) and the rest checked; `text` is the body
/// parsed. `None` for `null`.
pub(super) struct Values<'t> {
    pub(super) service: &'static Service,
    pub(super) key: usize,
    pub(super) text: &'t str,
    pub(super) request: &'t Map<String, Value>,
}

impl<'de> DeserializeSeed<'de> for Values<'_> {
    type Value = Option<Read<'de>>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Values<'_> {
    type Value = Option<Read<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of attribute values")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let flaw = FirstFlaw::default();
        let mut reader = MapReader::new(map.size_hint().unwrap_or(0), true, &flaw);
        let mut read = 0;
        // Looked at only past the entries every map builds (a valid request's map is small).
        let mut budget = BUILT_FIRST;
        let mut known = false;
        let mut checked = Vec::new();
        let mut checked_size = 0;
        while let Some(key) = map.next_key_seed(Name)? {
            if !model::key_is_valid(self.service, self.key, &key) {
                return Err(A::Error::custom(anomaly()));
            }
            if read == budget && !known {
                budget = budget_of(self.request);
                known = true;
            }
            if read < budget {
                reader.member(&mut map, key.into_owned())?;
                read += 1;
                continue;
            }
            // A key with an escape does not say where it lies: the exact path's.
            let Cow::Borrowed(key) = key else {
                return Err(A::Error::custom(anomaly()));
            };
            let at = after(self.text, key).ok_or_else(|| A::Error::custom(anomaly()))?;
            checked_size += key.len() + oversized::check_value(&mut map)?;
            checked.push((key, at));
        }
        let (built, flaw) = reader.finish()?;
        Ok(Some(Read {
            built,
            flaw,
            read,
            checked,
            checked_size,
        }))
    }
}

/// The offset in `text` just past the key `key` (a slice of `text`) and its closing quote.
fn after(text: &str, key: &str) -> Option<usize> {
    let start = key.as_ptr().addr().checked_sub(text.as_ptr().addr())?;
    let end = start.checked_add(key.len())?;
    (text.as_bytes().get(end) == Some(&b'"')).then_some(end + 1)
}

/// The value that follows the `:` at `at` in `text`, read again and built (it was checked: no flaw).
fn value_at(text: &str, at: usize) -> Option<AttributeValue> {
    let rest = text
        .get(at..)?
        .trim_start_matches([' ', '\t', '\n', '\r'])
        .strip_prefix(':')?;
    Av.deserialize(&mut serde_json::Deserializer::from_str(rest))
        .ok()
}

/// The request's `ExpressionAttributeValues` as `read`, for a request whose other members are
/// `request`, whose names measure `names_size` for the maps' caps and whose body is `text`: marked
/// as the map the engine gets (see the module docs), with a [`Reduced`] slot when it is reduced.
/// `None`: the exact path's to answer.
pub(super) fn values(
    read: Read<'_>,
    request: &Map<String, Value>,
    slots: &mut Vec<Slot>,
    text: &str,
    names_size: usize,
) -> Option<Value> {
    let Read {
        mut built,
        flaw,
        read,
        checked,
        checked_size,
    } = read;
    if checked.is_empty() {
        let slot = match flaw {
            None => Slot::Item(built),
            Some(message) => Slot::FlawedItem(built, message),
        };
        return Some(Predecoded::mark(slots, slot));
    }
    // A flaw among the entries built: which one the exact decoder reports first, with entries
    // checked after it that may replace it, is not worth proving here.
    if flaw.is_some() {
        return None;
    }
    let expressions = expressions(request);
    // The entries checked read again after those built, in the order sent, and the tree built in
    // bulk (which keeps the last of a key, as inserting them in turn does): inserted one by one,
    // 256,000 keys that share their start were half of a refused request's cost, in comparisons.
    let mut whole = |built: Item| {
        let mut entries: Vec<(String, AttributeValue)> =
            Vec::with_capacity(built.len() + checked.len());
        entries.extend(built);
        for (key, at) in &checked {
            entries.push(((*key).to_owned(), value_at(text, *at)?));
        }
        Some(Predecoded::mark(
            slots,
            Slot::Item(entries.into_iter().collect()),
        ))
    };
    if read + checked.len() <= colons(&expressions) {
        return whole(built);
    }
    // Maps past their caps: the engine refuses them, and would measure less of the reduced map
    // (see `resize`). A bound above the map's measure: exact when no key is sent twice.
    let values_size = substitution::values_size(&built) + checked_size;
    let over = substitution::over(names_size, values_size).is_some();
    let used = used(&expressions, TokenKind::ValuePlaceholder);
    let is_used = |key: &str| used.binary_search(&key).is_ok();
    // A map the engine refuses for itself (a key that is not a placeholder, an unused value built
    // that it finds invalid) is built whole.
    let mut unused: Vec<&str> = Vec::with_capacity(built.len() + checked.len());
    for (key, value) in &built {
        if !is_placeholder(key, ':') {
            return whole(built);
        }
        if !is_used(key) {
            if validate::attribute(key, value).is_err() {
                return whole(built);
            }
            unused.push(key);
        }
    }
    // The entries checked, each looked at once: the used ones, to build.
    let mut wanted = Vec::new();
    let built_unused = unused.len();
    for &(key, at) in &checked {
        if !is_placeholder(key, ':') {
            return whole(built);
        }
        if is_used(key) {
            wanted.push((key, at));
        } else {
            unused.push(key);
        }
    }
    // The last unused entry sent: no later entry of its key replaces its value (a later one would
    // be unused too). The entries built come before those checked.
    let (kept, at) = match unused.last() {
        // Every key used (a used key sent more often than the expressions have `:`): nothing to
        // reduce.
        None => return whole(built),
        Some(&key) if unused.len() > built_unused => {
            let at = checked
                .iter()
                .rev()
                .find(|(k, _)| *k == key)
                .map(|(_, at)| *at);
            (key.to_owned(), at)
        }
        Some(&key) => (key.to_owned(), None),
    };
    let reduced = Reduced::new(VALUES, &kept, unused);
    if over {
        // Every key sent once: the bound is the measure. Else the whole map, for the engine to
        // measure.
        let mut wanted_keys: Vec<&str> = wanted.iter().map(|(key, _)| *key).collect();
        wanted_keys.sort_unstable();
        wanted_keys.dedup();
        let used_built = built.len() - built_unused;
        let wanted_new = wanted_keys
            .iter()
            .filter(|key| !built.contains_key(**key))
            .count();
        if read + checked.len() != used_built + wanted_new + reduced.distinct() {
            return whole(built);
        }
    }
    built.retain(|key, _| is_used(key) || *key == kept);
    for (key, at) in wanted {
        built.insert(key.to_owned(), value_at(text, at)?);
    }
    if let Some(at) = at {
        built.insert(kept.clone(), value_at(text, at)?);
    }
    slots.push(Slot::Unused(reduced));
    if over {
        resize(&mut built, &kept, values_size);
        return Some(Predecoded::mark(slots, Slot::ResizedValues(built)));
    }
    Some(Predecoded::mark(slots, Slot::ReducedValues(built)))
}

/// Brings `reduced`, a map past the maps' caps reduced to its used entries and the unused one
/// `kept`, to the whole map's measure `whole` (exact), or to one byte past the cap when that is
/// less, by replacing `kept`'s value with a string: the engine then refuses it as it refuses the
/// whole map (the names, whole, and the values' measure give the same answer, names past their
/// cap first, then values past theirs, then the sum), without building every unused entry. Every
/// check before the caps sees a valid unused value either way; past them nothing is looked at.
fn resize(reduced: &mut Item, kept: &str, whole: usize) {
    let target = whole.min(substitution::MAX_MAP_BYTES + 1);
    let size = substitution::values_size(reduced);
    if size >= target {
        return;
    }
    if let Some(value) = reduced.get_mut(kept) {
        let len = target - size + dynomodel::attribute_size(value);
        *value = AttributeValue::S("x".repeat(len));
    }
}

#[cfg(test)]
mod tests {
    use crate::protocol::fast::{decode, Outcome, Slot};

    /// What the one pass makes of an UpdateItem's values map `values` sent `before` or after
    /// `expression`: `Some(true)` reduced, `Some(false)` whole, `None` left to the exact path.
    fn reduced(expression: &str, values: &str, before: bool) -> Option<bool> {
        shaped(expression, values, before).map(|shape| shape != "whole")
    }

    /// As [`reduced`]: "reduced", "resized" (reduced, past the maps' caps) or "whole".
    fn shaped(expression: &str, values: &str, before: bool) -> Option<&'static str> {
        let expression = format!(r#""UpdateExpression": "{expression}""#);
        let values = format!(r#""ExpressionAttributeValues": {{{values}}}"#);
        let (first, last) = if before {
            (&values, &expression)
        } else {
            (&expression, &values)
        };
        let body =
            format!(r#"{{"TableName": "t", "Key": {{"pk": {{"S": "a"}}}}, {first}, {last}}}"#);
        let Outcome::Decoded(_, predecoded) = decode("UpdateItem", body.as_bytes()) else {
            return None;
        };
        // The key's slot comes first, the values' last.
        let shape = match predecoded.slots.last()? {
            Slot::ReducedValues(_) => "reduced",
            Slot::ResizedValues(_) => "resized",
            Slot::Item(_) => return Some("whole"),
            _ => return None,
        };
        let unused = predecoded.slots.iter();
        assert_eq!(unused.filter(|s| matches!(s, Slot::Unused(_))).count(), 1);
        Some(shape)
    }

    const THREE: &str = r#"":a": {"N": "1"}, ":b": {"N": "2"}, ":c": {"N": "3"}"#;

    #[test]
    fn a_map_with_unused_values_is_reduced_and_a_valid_one_is_not() {
        for before in [false, true] {
            assert_eq!(reduced("SET x = :a", THREE, before), Some(true));
            assert_eq!(reduced("SET x = :c", THREE, before), Some(true));
            assert_eq!(
                reduced("SET x = :a, y = :b, z = :c", THREE, before),
                Some(false)
            );
            // More entries than `:`, none unused.
            let twice = r#"":a": {"N": "1"}, ":a": {"N": "2"}, ":a": {"N": "3"}"#;
            assert_eq!(reduced("SET x = :a", twice, before), Some(false));
            // A key that is not a placeholder: whole, for the engine to refuse.
            let bad_key = r#"":a": {"N": "1"}, "b": {"N": "2"}, ":c": {"N": "3"}"#;
            assert_eq!(reduced("SET x = :a", bad_key, before), Some(false));
            // An invalid value checked: the exact path's.
            let empty_set = r#"":a": {"N": "1"}, ":b": {"N": "2"}, ":c": {"SS": []}"#;
            assert_eq!(reduced("SET x = :a", empty_set, before), None);
        }
        // An invalid unused value built (the first, within the budget): whole.
        let first = r#"":b": {"SS": []}, ":a": {"N": "1"}, ":c": {"N": "3"}"#;
        assert_eq!(reduced("SET x = :a", first, true), Some(false));
        // A flaw among the values built, with values checked after it: the exact path's.
        let flawed = r#"":a": {"N": "x"}, ":b": {"N": "2"}, ":c": {"N": "3"}"#;
        assert_eq!(reduced("SET x = :a", flawed, true), None);
        // A key with an escape past the budget: the exact path's.
        let escaped = r#"":a": {"N": "1"}, ":b": {"N": "2"}, ":\u0063": {"N": "3"}"#;
        assert_eq!(reduced("SET x = :a", escaped, true), None);
    }

    #[test]
    fn a_map_past_the_maps_caps_is_resized_or_built_whole() {
        // Entries of every type, checked (past the first) and measured as the engine measures
        // them, and a filler bringing the map to `total`: reduced up to the cap, resized past it
        // (its kept value standing for the rest's measure), whole past it with a key sent twice.
        let typed = [
            (r#"":s": {"S": "0123456789"}"#, 2 + 10),
            (r#"":e": {"S": "\u00e9"}"#, 2 + 2),
            (r#"":n": {"N": "-0.5"}"#, 2 + 3),
            (r#"":b": {"B": "MDEyMzQ1Njc4OQ=="}"#, 2 + 10),
            (r#"":t": {"BOOL": true}"#, 2 + 1),
            (r#"":u": {"NULL": true}"#, 2 + 1),
            (
                r#"":l": {"L": [{"S": "0123456789"}, {"L": []}]}"#,
                2 + 3 + 11 + 4,
            ),
            (
                r#"":m": {"M": {"abcdefghij": {"M": {"k": {"N": "1"}}}}}"#,
                2 + 21,
            ),
            (r#"":ss": {"SS": ["abc", "de"]}"#, 3 + 5),
            (r#"":ns": {"NS": ["1", "22", "333"]}"#, 3 + 7),
            (r#"":bs": {"BS": ["YWJj", "ZGU="]}"#, 3 + 5),
        ];
        let json: Vec<&str> = typed.iter().map(|(json, _)| *json).collect();
        let size: usize = typed.iter().map(|(_, size)| size).sum();
        let cap = crate::expr::substitution::MAX_MAP_BYTES;
        let at = |total: usize| {
            // `:a` (N 1) is 4 bytes, `:f` two and its filler.
            let filler = "q".repeat(total - 4 - size - 2);
            format!(
                r#"":a": {{"N": "1"}}, {}, ":f": {{"S": "{filler}"}}"#,
                json.join(", ")
            )
        };
        for before in [false, true] {
            assert_eq!(shaped("SET x = :a", &at(cap), before), Some("reduced"));
            assert_eq!(shaped("SET x = :a", &at(cap + 1), before), Some("resized"));
            // Past it by the bound only (`:s` sent twice counts twice): whole, for the engine.
            let twice = format!("{}, {}", at(cap - 11), typed[0].0);
            assert_eq!(shaped("SET x = :a", &twice, before), Some("whole"));
            let twice = format!("{}, {}", at(cap + 1), typed[0].0);
            assert_eq!(shaped("SET x = :a", &twice, before), Some("whole"));
            // The used value sent twice: whole too.
            let twice = format!(r#"{}, ":a": {{"N": "2"}}"#, at(cap + 1));
            assert_eq!(shaped("SET x = :a", &twice, before), Some("whole"));
        }
    }

    #[test]
    fn a_checked_value_is_found_again_in_the_body() {
        let text = r#"{":k" :  {"N": "12"}, ":l":{"S":"x"}}"#;
        let key = &text[2..4];
        let at = super::after(text, key).unwrap();
        assert_eq!(
            super::value_at(text, at),
            Some(dynomodel::AttributeValue::N("12".parse().unwrap()))
        );
        // A key that is not the body's, or not followed by its quote.
        assert_eq!(super::after(text, ":k"), None);
        assert_eq!(super::after(text, &text[2..3]), None);
        assert_eq!(super::value_at(text, 1), None);
    }
}
