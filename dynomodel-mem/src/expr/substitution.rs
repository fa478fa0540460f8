//! DynamoDB's cap on what one expression substitutes: the Developer Guide's "The maximum length of
//! all substitution variables in an expression is 2 MB" (Constraints → Expression parameters).
//!
//! Measured as DynamoDB Local 3.3.1 measures it: the expression's own text, plus, for every
//! placeholder *occurrence* in it, the size of what it stands for: a `#name` its name's UTF-8 bytes,
//! a `:value` its value's size by the item-size rule ([`attribute_size`]: an S or B its bytes, an N
//! its number size, BOOL and NULL one, an L or M three plus one per element plus the elements (a map's
//! names too), a set its elements). A placeholder used twice counts twice; what the request's other
//! expressions use does not count. Local refuses past 1 MiB (1,048,576); the engine follows the
//! docs' 2 MB (2,097,152): see `tests/dual/substitution_cap.rs` for what each answers.
//!
//! The check comes after every other check of the request's expressions, the unused placeholders
//! included; the operations raise it where Local does ([`Oversized::check`]).

use dynomodel::{attribute_size, Error};

use super::lexer::{Token, TokenKind};
use super::{invalid, ExprKind, Placeholders};

/// Most bytes one expression may substitute, its text included (the docs' 2 MB).
pub(crate) const MAX_SUBSTITUTED_BYTES: usize = 2 * 1024 * 1024;

/// The byte ranges of an expression text's placeholders, each occurrence once, in order: what
/// the parser saw, kept with the (cached) tree so that measuring a request costs no second lexing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Occurrences(Vec<(u32, u32)>);

impl Occurrences {
    /// The placeholders among `tokens` (of a text within the 4 KB limit, so offsets fit a `u32`).
    pub(crate) fn of(tokens: &[Token]) -> Occurrences {
        Occurrences(
            tokens
                .iter()
                .filter(|t| {
                    matches!(
                        t.kind,
                        TokenKind::NamePlaceholder | TokenKind::ValuePlaceholder
                    )
                })
                .filter_map(|t| Some((u32::try_from(t.start).ok()?, u32::try_from(t.end).ok()?)))
                .collect(),
        )
    }
}

/// Whether `text` (of `occurrences`) substitutes more than [`MAX_SUBSTITUTED_BYTES`] from
/// `placeholders`. Stops counting at the first byte past the cap. A placeholder the maps lack counts
/// nothing (validation has refused it before this is asked).
pub(crate) fn exceeds(
    text: &str,
    occurrences: &Occurrences,
    placeholders: Placeholders<'_>,
) -> bool {
    let mut size = text.len();
    for &(start, end) in &occurrences.0 {
        if size > MAX_SUBSTITUTED_BYTES {
            break;
        }
        let Some(key) = text.get(start as usize..end as usize) else {
            continue;
        };
        size = size.saturating_add(if key.starts_with('#') {
            placeholders.names.get(key).map_or(0, String::len)
        } else {
            placeholders.values.get(key).map_or(0, attribute_size)
        });
    }
    size > MAX_SUBSTITUTED_BYTES
}

/// The refusal: "Invalid <Kind>Expression: Expression size has exceeded the maximum allowed size;"
/// (unlike the 4 KB text limit's, without the size).
pub(crate) fn exceeded(kind: ExprKind) -> Error {
    invalid(
        kind,
        "Expression size has exceeded the maximum allowed size;",
    )
}

/// The first of a request's expressions past the cap, measured with the other checks of its
/// expressions and raised where DynamoDB Local raises it (after the table's existence and the key's
/// shape for the item operations, before a table is looked up for a transaction's actions).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Oversized(Option<ExprKind>);

impl Oversized {
    /// Records `kind` as past the cap when it is the first such expression of the request.
    pub(crate) fn note(
        &mut self,
        kind: ExprKind,
        text: &str,
        occurrences: &Occurrences,
        p: Placeholders<'_>,
    ) {
        if self.0.is_none() && exceeds(text, occurrences, p) {
            self.0 = Some(kind);
        }
    }

    /// The refusal of the first expression past the cap, if any.
    pub(crate) fn check(self) -> Result<(), Error> {
        match self.0 {
            Some(kind) => Err(exceeded(kind)),
            None => Ok(()),
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

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    fn n(v: &str) -> AttributeValue {
        AttributeValue::N(v.parse().expect("number"))
    }

    /// What `text` substitutes past its own length, by the bisection Local's probe used: the
    /// largest filler `:f` (an S) that keeps `text` within the cap, subtracted from the cap.
    fn counted(text: &str, names: &BTreeMap<String, String>, values: &Item) -> usize {
        let occurrences = parse_condition(text).expect("parses").occurrences;
        let over = |len: usize| {
            let mut values = values.clone();
            values.insert(":f".into(), s(&"q".repeat(len)));
            let p = Placeholders {
                names,
                values: &values,
            };
            exceeds(text, &occurrences, p)
        };
        let (mut lo, mut hi) = (0, MAX_SUBSTITUTED_BYTES + 1);
        assert!(!over(lo) && over(hi));
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if over(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        MAX_SUBSTITUTED_BYTES - lo - text.len()
    }

    fn value_counts(v: AttributeValue) -> usize {
        let values: Item = [(":v".to_owned(), v)].into_iter().collect();
        counted("b <> :f AND x <> :v", &BTreeMap::new(), &values)
    }

    #[test]
    fn the_text_and_each_value_by_the_item_size_rule() {
        assert_eq!(
            counted("b <> :f", &BTreeMap::new(), &Item::new()),
            0,
            "the text and the filler only"
        );
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
        assert_eq!(
            counted("b <> :f AND x <> :v AND y <> :v", &BTreeMap::new(), &values),
            20
        );
        let names = |name: &str| -> BTreeMap<String, String> {
            [("#n".to_owned(), name.to_owned())].into_iter().collect()
        };
        let text = "b <> :f AND #n <> c";
        assert_eq!(counted(text, &names(&"n".repeat(50)), &Item::new()), 50);
        assert_eq!(counted(text, &names("n"), &Item::new()), 1);
        assert_eq!(counted(text, &names(&"é".repeat(25)), &Item::new()), 50);
        let twice = "b <> :f AND #n <> c AND #n <> d";
        assert_eq!(counted(twice, &names(&"n".repeat(50)), &Item::new()), 100);
        // The filler twice: half the cap each.
        let occurrences = parse_condition("b <> :f AND c <> :f")
            .expect("parses")
            .occurrences;
        let at = |len: usize| {
            let values: Item = [(":f".to_owned(), s(&"q".repeat(len)))]
                .into_iter()
                .collect();
            let names = BTreeMap::new();
            let p = Placeholders {
                names: &names,
                values: &values,
            };
            exceeds("b <> :f AND c <> :f", &occurrences, p)
        };
        let half = (MAX_SUBSTITUTED_BYTES - "b <> :f AND c <> :f".len()) / 2;
        assert!(!at(half));
        assert!(at(half + 1));
    }

    #[test]
    fn the_bound_is_inclusive_for_every_kind() {
        let cap = MAX_SUBSTITUTED_BYTES;
        let names_of = |name: String| -> BTreeMap<String, String> {
            [("#n".to_owned(), name)].into_iter().collect()
        };
        let values_of = |len: usize| -> Item {
            [(":v".to_owned(), s(&"q".repeat(len)))]
                .into_iter()
                .collect()
        };
        let update = "SET a = :v";
        let occ = parse_update(update).expect("parses").occurrences;
        let names = BTreeMap::new();
        for (len, over) in [(cap - update.len(), false), (cap - update.len() + 1, true)] {
            let values = values_of(len);
            let p = Placeholders {
                names: &names,
                values: &values,
            };
            assert_eq!(exceeds(update, &occ, p), over, "update, value of {len}");
        }
        // A projection substitutes names only: 2 MB of them is 33 names of 64 KB.
        let projection = "#n";
        let occ = parse_projection(projection).expect("parses").occurrences;
        let values = Item::new();
        for (len, over) in [(cap - 2, false), (cap - 1, true)] {
            let names = names_of("n".repeat(len));
            let p = Placeholders {
                names: &names,
                values: &values,
            };
            assert_eq!(
                exceeds(projection, &occ, p),
                over,
                "projection, name of {len}"
            );
        }
    }

    #[test]
    fn a_missing_placeholder_counts_nothing_and_the_count_stops_past_the_cap() {
        let text = "a = :v AND b = :w AND #x = :v";
        let occ = parse_condition(text).expect("parses").occurrences;
        assert_eq!(occ.0.len(), 4);
        let names = BTreeMap::new();
        let values = Item::new();
        let p = Placeholders {
            names: &names,
            values: &values,
        };
        assert!(!exceeds(text, &occ, p));
        let big: Item = [(":v".to_owned(), s(&"q".repeat(MAX_SUBSTITUTED_BYTES)))]
            .into_iter()
            .collect();
        let p = Placeholders {
            names: &names,
            values: &big,
        };
        assert!(exceeds(text, &occ, p));
    }

    #[test]
    fn the_refusal_names_the_kind_without_a_size() {
        assert_eq!(
            exceeded(ExprKind::KeyCondition).message(),
            "Invalid KeyConditionExpression: Expression size has exceeded the maximum allowed size;"
        );
        assert_eq!(Oversized::default().check(), Ok(()));
        let names = BTreeMap::new();
        let big: Item = [(":v".to_owned(), s(&"q".repeat(MAX_SUBSTITUTED_BYTES)))]
            .into_iter()
            .collect();
        let p = Placeholders {
            names: &names,
            values: &big,
        };
        let mut oversized = Oversized::default();
        let occ = parse_condition("a = :v").expect("parses").occurrences;
        oversized.note(ExprKind::Filter, "a = :v", &occ, p);
        oversized.note(ExprKind::KeyCondition, "a = :v", &occ, p);
        assert_eq!(
            oversized.check(),
            Err(exceeded(ExprKind::Filter)),
            "the first noted"
        );
    }
}
