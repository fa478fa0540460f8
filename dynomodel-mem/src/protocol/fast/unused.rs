//! Unused `ExpressionAttributeNames` at the top of a request, not built (issue 25).
//!
//! A request can send hundreds of thousands of names its expressions do not use; the engine refuses
//! it with a message that lists them all, once every other check has passed. Building each unused
//! name into the request's map (a `String` per key and value, the tree, its drop) only for the
//! engine to list it was most of such a request's cost. The one pass reads a top-level map into its
//! entries borrowed from the body and decides once the whole request is read, when the request's
//! expressions are known ([`names`]):
//!
//! - a map with no more entries than the expressions have `#` (every valid request: each name used
//!   appears in an expression) is built as before;
//! - otherwise the expressions' name placeholders are taken from the lexer and, if some keys are
//!   unused (and every key is a well-formed placeholder with a non-empty name, so that the engine's
//!   checks of the map itself pass alike), the engine gets a *reduced* map: the used entries and the
//!   last unused one sent. Every check before the unused one sees what it sees in the whole map (the
//!   map's presence, its keys' syntax, the names the expressions resolve), so the engine answers
//!   alike up to the unused check, where it lists the one unused key. [`Unused::restore`] then
//!   puts back the message listing them all, written here from the borrowed keys.
//!
//! The lexer's placeholders are those the engine records as used when the expressions validate
//! (each placeholder token is a path's name or an operand's value in the tree). Should the engine
//! report more keys than the one kept, [`Unused::restore`] lists the union, which is then the
//! engine's own answer to the whole map.

use dynomodel::Error;
use serde_json::{Map, Value};

use super::names::{owned, Entry};
use super::{Predecoded, Slot};
use crate::expr::lexer::{tokenize, TokenKind};
use crate::expr::request::is_placeholder;
use crate::expr::substitution;
use crate::expr::unused_message;
use crate::storage::java_order::{java_hash_set_order_of_distinct, java_hash_set_order_of_sorted};

/// The map's member name, and the start of the engine's message about its unused keys.
const NAMES: &str = "ExpressionAttributeNames";

/// The expression members of the requests that carry `ExpressionAttributeNames` at their top level
/// (GetItem, PutItem, DeleteItem, UpdateItem, Query, Scan).
const EXPRESSIONS: &[&str] = &[
    "UpdateExpression",
    "ConditionExpression",
    "KeyConditionExpression",
    "FilterExpression",
    "ProjectionExpression",
];

/// One reduced map: the engine's message for it, and the request's own, listing every unused key.
#[derive(Debug)]
pub(super) struct Reduced {
    /// The map's member name (`ExpressionAttributeNames` or `ExpressionAttributeValues`).
    map: &'static str,
    /// What the engine answers to the reduced map once every other check passed.
    reduced: String,
    /// What it answers to the request's whole map.
    whole: String,
    /// How many distinct keys the request leaves unused.
    distinct: usize,
}

impl Reduced {
    /// The messages of the map `map` reduced to keep the unused key `kept`, whose request leaves
    /// `unused` unused (in the order sent, with repeats).
    pub(super) fn new(map: &'static str, kept: &str, unused: Vec<&str>) -> Self {
        let distinct = java_hash_set_order_of_sorted(unused);
        Reduced {
            map,
            reduced: unused_message(map, &[kept]),
            whole: unused_message(map, &distinct),
            distinct: distinct.len(),
        }
    }

    /// How many distinct keys the request leaves unused.
    pub(super) fn distinct(&self) -> usize {
        self.distinct
    }

    /// `e`, the engine's answer to the request with this map reduced, as its answer to the whole
    /// map.
    fn restore(&self, e: Error) -> Error {
        match e {
            Error::Validation { message } if message == self.reduced => {
                Error::validation(self.whole.clone())
            }
            Error::Validation { message } if listed(self.map, &message).is_some() => {
                Error::validation(union(self.map, &self.whole, &message))
            }
            other => other,
        }
    }
}

/// What the engine's messages about the request's reduced maps stand for: the names' and the
/// values' (the engine reports the names' first, and only one message).
#[derive(Debug)]
pub(crate) struct Unused(Vec<Reduced>);

impl Unused {
    /// The maps reduced of a request.
    pub(super) fn new(reduced: Vec<Reduced>) -> Self {
        Unused(reduced)
    }

    /// `e`, the engine's answer to the request with the reduced maps, as its answer to the whole
    /// maps.
    pub(crate) fn restore(self, e: Error) -> Error {
        self.0.iter().fold(e, |e, reduced| reduced.restore(e))
    }
}

/// The keys a message about the unused keys of `map` lists, if it is one.
fn listed<'m>(map: &str, message: &'m str) -> Option<impl Iterator<Item = &'m str>> {
    let keys = message
        .strip_prefix("Value provided in ")?
        .strip_prefix(map)?
        .strip_prefix(" unused in expressions: keys: {")?
        .strip_suffix('}')?;
    Some(keys.split(", "))
}

/// The message listing the keys of both messages about `map` (each lists placeholders, which hold
/// no `, `), in the order the engine lists a map's keys: sorted, then Java's.
fn union(map: &'static str, whole: &str, engine: &str) -> String {
    let mut keys: Vec<&str> = listed(map, whole)
        .into_iter()
        .flatten()
        .chain(listed(map, engine).into_iter().flatten())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    unused_message(map, &java_hash_set_order_of_distinct(keys))
}

/// The measure of the names map sent as `entries`, for the maps' caps (`expr::substitution`): each
/// entry's key and name bytes. A key sent twice counts twice: a bound above the engine's measure
/// of the map it gets whole.
pub(super) fn size(entries: &[Entry<'_>]) -> usize {
    entries
        .iter()
        .map(|(key, name)| substitution::name_entry_size(key, name.as_deref().unwrap_or_default()))
        .sum()
}

/// The top-level `ExpressionAttributeNames` map read as `entries`, for a request whose other
/// members are `request`: marked as the map the engine gets (see the module docs), with an
/// [`Unused`] slot when it is reduced. `maps_over`: whether the request's maps are past their caps
/// (asked only of a map about to be reduced), which the engine then refuses given the whole map.
pub(super) fn names(
    entries: Vec<Entry<'_>>,
    request: &Map<String, Value>,
    slots: &mut Vec<Slot>,
    maps_over: impl FnOnce() -> bool,
) -> Value {
    let expressions: Vec<&str> = EXPRESSIONS
        .iter()
        .filter_map(|member| request.get(*member)?.as_str())
        .collect();
    let sigils: usize = expressions.iter().map(|text| count(text, b'#')).sum();
    // A `null` entry (absent, but hiding an earlier entry of its key) is left to the whole map.
    let sent = entries.iter().filter(|(_, value)| value.is_some()).count();
    if sent <= sigils || sent < entries.len() || maps_over() {
        return Predecoded::mark(slots, Slot::Names(owned(entries)));
    }
    let used = used(&expressions, TokenKind::NamePlaceholder);
    let mut kept = Vec::with_capacity(used.len() + 1);
    let mut unused = Vec::with_capacity(entries.len());
    let mut last = None;
    let mut well_formed = true;
    for (key, name) in &entries {
        let name = name.as_deref().unwrap_or_default();
        // A map the engine refuses for itself is built whole.
        if !is_placeholder(key, '#') || name.is_empty() {
            well_formed = false;
            break;
        }
        if used.binary_search(&&**key).is_ok() {
            kept.push((String::from(&**key), name.to_owned()));
        } else {
            // The last unused entry sent: no later entry of its key replaces its name.
            last = Some((&**key, name));
            unused.push(&**key);
        }
    }
    let Some((key, name)) = last.filter(|_| well_formed) else {
        return Predecoded::mark(slots, Slot::Names(owned(entries)));
    };
    kept.push((key.to_owned(), name.to_owned()));
    slots.push(Slot::Unused(Reduced::new(NAMES, key, unused)));
    // Of entries of one key the tree's bulk build keeps the last, as the exact path's map does.
    Predecoded::mark(slots, Slot::ReducedNames(kept.into_iter().collect()))
}

/// How many `sigil` bytes `text` holds (`#` or `:`): counted by chunks into bytes, which the
/// compiler does 16 at a time (a valid request's expressions are read whole here: byte by byte, it
/// was 5 % of a request of many SET actions).
pub(super) fn count(text: &str, sigil: u8) -> usize {
    text.as_bytes()
        .chunks(255)
        .map(|chunk| usize::from(chunk.iter().map(|&b| u8::from(b == sigil)).sum::<u8>()))
        .sum()
}

/// The placeholders of `kind` (names' or values') in `expressions`, sorted and distinct.
pub(super) fn used<'t>(expressions: &[&'t str], kind: TokenKind) -> Vec<&'t str> {
    let mut used: Vec<&str> = expressions
        .iter()
        .flat_map(|text| {
            tokenize(text)
                .into_iter()
                .filter(|token| token.kind == kind)
                .map(|token| token.text(text))
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}

/// A reduced map and the keys it stands for, as the oracle checks them: whether `reduced` is part
/// of `whole`, and every key of `whole` it lacks is listed by the request's message about `map`,
/// one of `slots`.
#[cfg(test)]
pub(super) fn stands_for<V: PartialEq>(
    map: &str,
    reduced: &std::collections::BTreeMap<String, V>,
    whole: &std::collections::BTreeMap<String, V>,
    slots: &[Slot],
) -> bool {
    let Some(unused) = slots.iter().find_map(|slot| match slot {
        Slot::Unused(unused) if unused.map == map => Some(unused),
        _ => None,
    }) else {
        return false;
    };
    let mut listed: Vec<&str> = listed(map, &unused.whole).into_iter().flatten().collect();
    listed.sort_unstable();
    let is_listed = |key: &String| listed.binary_search(&key.as_str()).is_ok();
    reduced
        .iter()
        .all(|(key, name)| whole.get(key) == Some(name))
        && reduced.keys().any(is_listed)
        && whole
            .keys()
            .filter(|key| !reduced.contains_key(*key))
            .all(is_listed)
}

#[cfg(test)]
mod tests {
    use super::{union, Reduced, Unused, NAMES};
    use crate::expr::unused_message;
    use crate::protocol::fast::{decode, Outcome, Slot};
    use dynomodel::Error;

    const VALUES: &str = "ExpressionAttributeValues";

    fn reduced(map: &'static str, whole: &[&str], kept: &str) -> Reduced {
        Reduced {
            map,
            reduced: unused_message(map, &[kept]),
            whole: unused_message(map, whole),
            distinct: whole.len(),
        }
    }

    fn unused(whole: &[&str], kept: &str) -> Unused {
        Unused(vec![reduced(NAMES, whole, kept)])
    }

    #[test]
    fn sigils_are_counted_past_a_chunk() {
        assert_eq!(super::count("", b'#'), 0);
        assert_eq!(super::count("SET #a = :v, #b = #c", b'#'), 3);
        assert_eq!(super::count("SET #a = :v, #b = #c", b':'), 1);
        assert_eq!(super::count(&"#".repeat(1000), b'#'), 1000);
        assert_eq!(super::count(&"a#é".repeat(300), b'#'), 300);
    }

    #[test]
    fn each_maps_message_is_put_back_by_its_own_reduction() {
        let both = || {
            Unused(vec![
                reduced(NAMES, &["#c", "#b"], "#b"),
                reduced(VALUES, &[":z", ":y"], ":y"),
            ])
        };
        let names = both().restore(Error::validation(unused_message(NAMES, &["#b"])));
        assert_eq!(names.message(), unused_message(NAMES, &["#c", "#b"]));
        let values = both().restore(Error::validation(unused_message(VALUES, &[":y"])));
        assert_eq!(values.message(), unused_message(VALUES, &[":z", ":y"]));
        // The values' message listing more than the one kept: the union, in the engine's order.
        let more = both().restore(Error::validation(unused_message(VALUES, &[":a", ":y"])));
        assert_eq!(
            more.message(),
            union(VALUES, "", &unused_message(VALUES, &[":a", ":y", ":z"]))
        );
    }

    #[test]
    fn the_engines_message_is_put_back_as_the_whole_maps() {
        let restored =
            unused(&["#c", "#b"], "#b").restore(Error::validation(unused_message(NAMES, &["#b"])));
        assert_eq!(restored.message(), unused_message(NAMES, &["#c", "#b"]));
        // Another answer is the engine's own.
        let other = Error::validation("ExpressionAttributeNames must not be empty");
        assert_eq!(unused(&["#b"], "#b").restore(other.clone()), other);
        let values = Error::validation(
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}",
        );
        assert_eq!(unused(&["#b"], "#b").restore(values.clone()), values);
        // Keys the engine lists beyond the one kept are listed too, in its order.
        let more = Error::validation(unused_message(NAMES, &["#a", "#b"]));
        assert_eq!(
            unused(&["#c", "#b"], "#b").restore(more).message(),
            union(NAMES, "", &unused_message(NAMES, &["#a", "#b", "#c"]))
        );
    }

    #[test]
    fn a_map_with_unused_names_is_reduced_and_a_valid_one_is_not() {
        let body = |names: &str| {
            format!(
                r##"{{"TableName": "t", "Key": {{"pk": {{"S": "a"}}}}, "ExpressionAttributeNames": {names},
                "UpdateExpression": "SET #a = :v", "ExpressionAttributeValues": {{":v": {{"N": "1"}}}}}}"##
            )
        };
        let names = |body: &str| match decode("UpdateItem", body.as_bytes()) {
            Outcome::Decoded(_, predecoded) => predecoded
                .slots
                .into_iter()
                .filter_map(|slot| match slot {
                    Slot::Names(names) => Some((false, names)),
                    Slot::ReducedNames(names) => Some((true, names)),
                    _ => None,
                })
                .next(),
            other => panic!("{other:?}"),
        };
        let (reduced, map) = names(&body(r##"{"#b": "b", "#a": "a", "#c": "c"}"##)).unwrap();
        assert!(reduced);
        assert_eq!(map.keys().collect::<Vec<_>>(), ["#a", "#c"]);
        let (reduced, map) = names(&body(r##"{"#a": "a"}"##)).unwrap();
        assert!(!reduced);
        assert_eq!(map.len(), 1);
        // More entries than `#`s, none unused: built whole.
        let (reduced, map) = names(&body(r##"{"#a": "x", "#a": "a"}"##)).unwrap();
        assert!(!reduced);
        assert_eq!(map.get("#a").map(String::as_str), Some("a"));
        // Names past the maps' caps (with the values' 4 bytes): whole, for the engine to refuse.
        let cap = crate::expr::substitution::MAX_MAP_BYTES;
        let at = |total: usize| {
            // `#a` and `#b` (2 + 1, and 2 + 2 as the name' `\u00e9` decodes), then fillers of
            // 64,000 bytes with their keys.
            let mut left = total - 4 - 3 - 4;
            let mut members = vec![
                r##""#a": "a""##.to_owned(),
                r##""#b": "\u00e9""##.to_owned(),
            ];
            for i in 0.. {
                if left == 0 {
                    break;
                }
                let share = left.min(64_000);
                left -= share;
                members.push(format!(r##""#f{i:03}": "{}""##, "n".repeat(share - 5)));
            }
            format!("{{{}}}", members.join(", "))
        };
        assert!(names(&body(&at(cap))).unwrap().0);
        assert!(!names(&body(&at(cap + 1))).unwrap().0);
    }
}
