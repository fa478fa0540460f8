//! DynamoDB's cap on what one expression substitutes: the Developer Guide's "The maximum length of
//! all substitution variables in an expression is 2 MB" (Constraints → Expression parameters).
//!
//! Measured as DynamoDB Local 3.3.1 measures it: the expression's own text, plus, for every
//! placeholder *occurrence* in it, the size of what it stands for: a `#name` its name's UTF-8 bytes,
//! a `:value` its value's size by the item-size rule ([`attribute_size`](dynomodel::attribute_size):
//! an S or B its bytes, an N its number size, BOOL and NULL one, an L or M three plus one per element
//! plus the elements (a map's names too), a set its elements). A placeholder used twice counts twice;
//! what the request's other expressions use does not count. The validation of an expression
//! (`expr::validate`) measures it, as it looks each occurrence up anyway. Local refuses past 1 MiB (1,048,576); the engine follows the
//! docs' 2 MB (2,097,152): see `tests/dual/substitution_cap.rs` for what each answers.
//!
//! The check comes after every other check of the request's expressions, the unused placeholders
//! included; the operations raise it where Local does ([`Oversized::check`]).
//!
//! DynamoDB Local 3.3.1 also caps the maps themselves ([`maps_over`]), which the docs' sentence
//! ("the sum of the lengths of all ExpressionAttributeNames and ExpressionAttributeValues") reads
//! as too: each map, and the two together, at most 2 MiB, a map measured as its keys' bytes (with
//! their `#` or `:`) plus each name's UTF-8 bytes or each value's size by the item-size rule. That
//! check comes right after the maps' own checks (a set's duplicates, an empty set) and before the
//! expressions' (syntax, unused placeholders): an operation whose maps are over does not read its
//! expressions, and raises the refusal where it raises the expression's (after the table and the
//! key, as Local answers).
//!
//! Neither cap applies to the maps a frontend generated (PartiQL's parameters, as Local answers):
//! see `expr::generated`.

use std::collections::BTreeMap;

use dynomodel::{attribute_size, AttributeValue, Error};

use super::{generated, invalid, ExprKind};

/// Most bytes one expression may substitute, its text included (the docs' 2 MB).
pub(crate) const MAX_SUBSTITUTED_BYTES: usize = 2 * 1024 * 1024;

/// Whether an expression of `text` whose placeholders stand for `substituted` bytes (measured by its
/// validation, `expr::validate`) is past the cap.
pub(crate) fn exceeds(text: &str, substituted: usize) -> bool {
    text.len().saturating_add(substituted) > MAX_SUBSTITUTED_BYTES
}

/// The refusal: "Invalid <Kind>Expression: Expression size has exceeded the maximum allowed size;"
/// (unlike the 4 KB text limit's, without the size).
pub(crate) fn exceeded(kind: ExprKind) -> Error {
    invalid(
        kind,
        "Expression size has exceeded the maximum allowed size;",
    )
}

/// Most bytes each placeholder map, and the two together, may hold (Local's 2 MiB, the docs' 2 MB).
pub(crate) const MAX_MAP_BYTES: usize = 2 * 1024 * 1024;

/// Which of the caps on the placeholder maps a request is past, the first in Local's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MapsOver {
    /// `ExpressionAttributeNames` alone.
    Names,
    /// `ExpressionAttributeValues` alone.
    Values,
    /// The two together, each within the cap.
    Combined,
}

impl MapsOver {
    /// The refusal, in DynamoDB Local 3.3.1's words.
    pub(crate) fn error(self) -> Error {
        Error::validation(match self {
            MapsOver::Names => "ExpressionAttributeNames exceeds max size",
            MapsOver::Values => "ExpressionAttributeValues exceeds max size",
            MapsOver::Combined => {
                "Combined size of ExpressionAttributeNames and ExpressionAttributeValues exceeds max size"
            }
        })
    }
}

/// What one `ExpressionAttributeNames` entry counts: its key's bytes and its name's.
#[inline]
pub(crate) fn name_entry_size(key: &str, name: &str) -> usize {
    key.len() + name.len()
}

/// What one `ExpressionAttributeValues` entry counts: its key's bytes and its value's size.
#[inline]
pub(crate) fn value_entry_size(key: &str, value: &AttributeValue) -> usize {
    key.len() + attribute_size(value)
}

/// The measure of `names`.
pub(crate) fn names_size(names: &BTreeMap<String, String>) -> usize {
    names.iter().map(|(k, v)| name_entry_size(k, v)).sum()
}

/// The measure of `values`.
pub(crate) fn values_size(values: &BTreeMap<String, AttributeValue>) -> usize {
    values.iter().map(|(k, v)| value_entry_size(k, v)).sum()
}

/// Which cap maps measuring `names` and `values` bytes are past: the names', then the values',
/// then the two together (Local's order when several are).
pub(crate) fn over(names: usize, values: usize) -> Option<MapsOver> {
    if names > MAX_MAP_BYTES {
        Some(MapsOver::Names)
    } else if values > MAX_MAP_BYTES {
        Some(MapsOver::Values)
    } else if names + values > MAX_MAP_BYTES {
        Some(MapsOver::Combined)
    } else {
        None
    }
}

/// The most an N measures: 38 significant digits in 19 bytes, with the exponent's byte, an
/// alignment byte and a sign byte.
const MAX_NUMBER_SIZE: usize = 22;

/// A bound above what one `ExpressionAttributeValues` entry counts, taken without walking a
/// scalar: an N's size is costly to take (its digits), and a request's values are mostly scalars.
/// With whether it is the entry's measure (all but an N's).
#[inline]
fn value_entry_bound(key: &str, value: &AttributeValue) -> (usize, bool) {
    let (size, exact) = match value {
        AttributeValue::S(s) => (s.len(), true),
        AttributeValue::B(b) => (b.len(), true),
        AttributeValue::N(_) => (MAX_NUMBER_SIZE, false),
        AttributeValue::Bool(_) | AttributeValue::Null => (1, true),
        other => (attribute_size(other), true),
    };
    (key.len() + size, exact)
}

/// Which cap a request's maps are past, measured here (an absent map measures nothing). The
/// values are measured exactly only when a bound above their measure is past a cap. None for maps
/// a frontend generated (`expr::generated`).
#[inline]
pub(crate) fn maps_over(
    names: Option<&BTreeMap<String, String>>,
    values: Option<&BTreeMap<String, AttributeValue>>,
) -> Option<MapsOver> {
    if names.is_none() && values.is_none() {
        return None;
    }
    maps_over_measured(names, values).filter(|_| !generated::exempt())
}

fn maps_over_measured(
    names: Option<&BTreeMap<String, String>>,
    values: Option<&BTreeMap<String, AttributeValue>>,
) -> Option<MapsOver> {
    let names = names.map_or(0, names_size);
    let (mut bound, mut exact) = (0, true);
    for (k, v) in values.into_iter().flatten() {
        let (size, measured) = value_entry_bound(k, v);
        bound += size;
        exact &= measured;
    }
    let over_bound = over(names, bound)?;
    if exact {
        return Some(over_bound);
    }
    over(names, values.map_or(0, values_size))
}

/// A refusal a request's expressions or maps earned, raised later in the operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    Expression(ExprKind),
    Maps(MapsOver),
}

/// The first of a request's expressions past the cap, measured with the other checks of its
/// expressions, or its maps past theirs ([`maps_over`]), raised where DynamoDB Local raises it
/// (after the table's existence and the key's shape for the item operations, before a table is
/// looked up for a transaction's actions).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Oversized(Option<Refusal>);

impl Oversized {
    /// The maps' refusal, if they are past a cap: their expressions are then not read.
    pub(crate) fn of_maps(over: Option<MapsOver>) -> Self {
        Oversized(over.map(Refusal::Maps))
    }

    /// Records `kind` as past the cap when it is the first such expression of the request (see
    /// [`exceeds`]), unless its maps were generated by a frontend (`expr::generated`).
    pub(crate) fn note(&mut self, kind: ExprKind, text: &str, substituted: usize) {
        if self.0.is_none() && exceeds(text, substituted) && !generated::exempt() {
            self.0 = Some(Refusal::Expression(kind));
        }
    }

    /// The refusal of the maps, or of the first expression past the cap, if any.
    #[inline]
    pub(crate) fn check(self) -> Result<(), Error> {
        match self.0 {
            Some(Refusal::Expression(kind)) => Err(exceeded(kind)),
            Some(Refusal::Maps(over)) => Err(over.error()),
            None => Ok(()),
        }
    }

    /// The refusal of the maps alone, if they are past a cap.
    #[inline]
    pub(crate) fn check_maps(self) -> Result<(), Error> {
        match self.0 {
            Some(Refusal::Maps(over)) => Err(over.error()),
            _ => Ok(()),
        }
    }

    /// The refusal of the first expression past the cap alone, if any.
    #[inline]
    pub(crate) fn check_expressions(self) -> Result<(), Error> {
        match self.0 {
            Some(Refusal::Expression(kind)) => Err(exceeded(kind)),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    //! The measure, as DynamoDB Local 3.3.1 counts it (probed 2026-11-30 by the largest S filler
    //! that still passes `b <> :f AND x <> :v` at Local's 1 MiB: what `:v` moves the bound by).

    use std::collections::BTreeMap;

    use dynomodel::{AttributeValue, Item};

    use super::*;
    use crate::expr::parser::{parse_condition, parse_projection, parse_update};
    use crate::expr::validate::{
        validate_condition_sized, validate_projection_sized, validate_update_sized,
    };
    use crate::expr::{Origin, Placeholders, Usage};

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    fn n(v: &str) -> AttributeValue {
        AttributeValue::N(v.parse().expect("number"))
    }

    /// What a condition substitutes, its text aside.
    fn substituted(text: &str, names: &BTreeMap<String, String>, values: &Item) -> usize {
        let parsed = parse_condition(text).expect("parses");
        let p = Placeholders { names, values };
        let kind = ExprKind::Condition;
        validate_condition_sized(kind, &parsed, p, &mut Usage::default(), Origin::Request)
            .expect("valid")
    }

    fn value_counts(v: AttributeValue) -> usize {
        let values: Item = [(":v".to_owned(), v)].into_iter().collect();
        substituted("x <> :v", &BTreeMap::new(), &values)
    }

    fn names_of(name: &str) -> BTreeMap<String, String> {
        [("#n".to_owned(), name.to_owned())].into_iter().collect()
    }

    #[test]
    fn each_value_by_the_item_size_rule() {
        // Local's figures, each what `:v` moved its bound by.
        assert_eq!(value_counts(n("12345678901")), 7);
        assert_eq!(value_counts(n("1E+10")), 2);
        assert_eq!(value_counts(n("100")), 2);
        assert_eq!(value_counts(n("-0.5")), 3);
        assert_eq!(value_counts(AttributeValue::Bool(true)), 1);
        assert_eq!(value_counts(AttributeValue::Null), 1);
        assert_eq!(value_counts(AttributeValue::B(b"0123456789".to_vec())), 10);
        assert_eq!(value_counts(s("0123456789")), 10);
        assert_eq!(value_counts(s("")), 0);
        assert_eq!(value_counts(s("é")), 2, "UTF-8 bytes");
        assert_eq!(value_counts(AttributeValue::L(vec![s("0123456789")])), 14);
        assert_eq!(
            value_counts(AttributeValue::L(vec![s("0123456789"), s("0123456789")])),
            25
        );
        assert_eq!(value_counts(AttributeValue::L(vec![])), 3);
        let m = |k: &str, v| AttributeValue::M([(k.to_owned(), v)].into_iter().collect());
        assert_eq!(value_counts(m("abcdefghij", s("1"))), 15);
        assert_eq!(value_counts(AttributeValue::M(Item::new())), 3);
        assert_eq!(value_counts(m("abcdefghij", m("k", n("1")))), 21);
        let strings = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(value_counts(AttributeValue::Ss(strings(&["abc", "de"]))), 5);
        let numbers = ["1", "22", "333"].iter().map(|v| v.parse().expect("n"));
        assert_eq!(value_counts(AttributeValue::Ns(numbers.collect())), 7);
        let bytes = vec![b"abc".to_vec(), b"de".to_vec()];
        assert_eq!(value_counts(AttributeValue::Bs(bytes)), 5);
    }

    #[test]
    fn every_occurrence_counts_and_names_count_their_bytes() {
        let values: Item = [(":v".to_owned(), s("0123456789"))].into_iter().collect();
        let none = BTreeMap::new();
        assert_eq!(substituted("x <> :v AND y <> :v", &none, &values), 20);
        // In a function, in IN, in BETWEEN, in size(): once each.
        let text = "begins_with(a, :v) AND b IN (:v, :v) AND c BETWEEN :v AND :v AND size(d) > :n";
        let mut more = values.clone();
        more.insert(":n".into(), n("1"));
        assert_eq!(substituted(text, &none, &more), 52);
        let empty = Item::new();
        assert_eq!(
            substituted("#n <> c", &names_of(&"n".repeat(50)), &empty),
            50
        );
        assert_eq!(substituted("#n <> c", &names_of("n"), &empty), 1);
        assert_eq!(
            substituted("#n <> c", &names_of(&"é".repeat(25)), &empty),
            50
        );
        let twice = "#n <> c AND #n.#n <> d";
        assert_eq!(substituted(twice, &names_of(&"n".repeat(50)), &empty), 150);
        // An update expression: its paths' names and its values, wherever they are.
        let parsed =
            parse_update("SET #n = :v, a = #n + :n ADD c.#n :n REMOVE d[1], e.#n").expect("parses");
        let p = Placeholders {
            names: &names_of("nn"),
            values: &more,
        };
        let size = validate_update_sized(&parsed, p, &mut Usage::default(), Origin::Request);
        assert_eq!(size, Ok(2 * 4 + 10 + 2 + 2));
    }

    #[test]
    fn the_bound_is_inclusive_for_every_kind() {
        let cap = MAX_SUBSTITUTED_BYTES;
        let text = "b <> :v";
        for (len, over) in [(cap - text.len(), false), (cap - text.len() + 1, true)] {
            let values: Item = [(":v".to_owned(), s(&"q".repeat(len)))]
                .into_iter()
                .collect();
            let size = substituted(text, &BTreeMap::new(), &values);
            assert_eq!(exceeds(text, size), over, "condition, value of {len}");
        }
        let update = "SET a = :v";
        let parsed = parse_update(update).expect("parses");
        for (len, over) in [(cap - update.len(), false), (cap - update.len() + 1, true)] {
            let values: Item = [(":v".to_owned(), s(&"q".repeat(len)))]
                .into_iter()
                .collect();
            let p = Placeholders {
                names: &BTreeMap::new(),
                values: &values,
            };
            let size = validate_update_sized(&parsed, p, &mut Usage::default(), Origin::Request)
                .expect("valid");
            assert_eq!(exceeds(update, size), over, "update, value of {len}");
        }
        // A projection substitutes names alone.
        let projection = "#n";
        let parsed = parse_projection(projection).expect("parses");
        for (len, over) in [(cap - 2, false), (cap - 1, true)] {
            let names = names_of(&"n".repeat(len));
            let p = Placeholders {
                names: &names,
                values: &Item::new(),
            };
            let size =
                validate_projection_sized(&parsed, p, &mut Usage::default(), Origin::Request)
                    .expect("valid");
            assert_eq!(exceeds(projection, size), over, "projection, name of {len}");
        }
    }

    #[test]
    fn a_number_measures_at_most_its_bound() {
        for text in [
            "-1.1111111111111111111111111111111111111E+125",
            "11111111111111111111111111111111111111",
            "-99999999999999999999999999999999999999",
            "-0.0000000000000000000000000000000000000001",
            "1E-130",
        ] {
            assert!(attribute_size(&n(text)) <= MAX_NUMBER_SIZE, "{text}");
        }
        assert_eq!(
            attribute_size(&n("-111111111111111111111111111111111111110")),
            MAX_NUMBER_SIZE
        );
    }

    #[test]
    fn the_maps_measure_keys_and_values_and_their_sum() {
        let cap = MAX_MAP_BYTES;
        let values = |entries: Vec<(&str, AttributeValue)>| -> Item {
            entries
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect()
        };
        // Numbers within the cap by their size, past it by their bound: measured exactly.
        let mut numbers = values(vec![(":f", s(&"q".repeat(cap - 2 - 4 * 4)))]);
        for k in [":a", ":b", ":c", ":d"] {
            numbers.insert(k.into(), n("1"));
        }
        assert_eq!(values_size(&numbers), cap);
        assert_eq!(maps_over(None, Some(&numbers)), None);
        numbers.insert(":e".into(), n("1"));
        assert_eq!(maps_over(None, Some(&numbers)), Some(MapsOver::Values));
        let names: BTreeMap<String, String> = [("#n".to_owned(), "é".repeat(10))].into();
        assert_eq!(names_size(&names), 22);
        assert_eq!(maps_over(Some(&names), None), None);
        assert_eq!(maps_over(None, None), None);
        assert_eq!(over(cap, 0), None);
        assert_eq!(over(cap + 1, cap + 1), Some(MapsOver::Names));
        assert_eq!(over(cap, cap + 1), Some(MapsOver::Values));
        assert_eq!(over(cap / 2, cap / 2 + 1), Some(MapsOver::Combined));
        assert_eq!(
            MapsOver::Combined.error().message(),
            "Combined size of ExpressionAttributeNames and ExpressionAttributeValues exceeds max size"
        );
        let mut refused = Oversized::of_maps(Some(MapsOver::Names));
        refused.note(ExprKind::Update, "a = :v", MAX_SUBSTITUTED_BYTES);
        assert_eq!(
            refused.check(),
            Err(MapsOver::Names.error()),
            "the maps first"
        );
        assert_eq!(refused.check_expressions(), Ok(()));
        assert_eq!(refused.check_maps(), Err(MapsOver::Names.error()));
    }

    #[test]
    fn the_refusal_names_the_kind_without_a_size() {
        assert_eq!(
            exceeded(ExprKind::KeyCondition).message(),
            "Invalid KeyConditionExpression: Expression size has exceeded the maximum allowed size;"
        );
        assert_eq!(Oversized::default().check(), Ok(()));
        let mut oversized = Oversized::default();
        oversized.note(ExprKind::Update, "a = :v", MAX_SUBSTITUTED_BYTES - 6);
        assert_eq!(oversized.check(), Ok(()), "at the cap");
        oversized.note(ExprKind::Filter, "a = :v", MAX_SUBSTITUTED_BYTES);
        oversized.note(ExprKind::KeyCondition, "a = :v", MAX_SUBSTITUTED_BYTES);
        assert_eq!(
            oversized.check(),
            Err(exceeded(ExprKind::Filter)),
            "the first noted"
        );
    }
}
