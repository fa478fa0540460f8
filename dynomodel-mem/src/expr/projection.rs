//! Applying a ProjectionExpression (and UPDATED_OLD / UPDATED_NEW) to an item.
//!
//! Nested paths yield nested partial documents (`a.b` gives `{a: {b: …}}`); list indexes keep only the
//! selected elements, in index order (`l[3], l[1]` gives `{l: [l[1], l[3]]}`). Paths that do not exist, or
//! that index into the wrong type, contribute nothing.

use std::collections::BTreeMap;

use dynomodel::{AttributeValue, Item};

use super::eval::{Step, Steps};

/// What to keep of one value: all of it, or parts of a map or list.
#[derive(Debug, Default)]
struct Selection {
    all: bool,
    keys: BTreeMap<String, Selection>,
    indexes: BTreeMap<usize, Selection>,
}

impl Selection {
    fn add(&mut self, steps: &[Step]) {
        match steps.split_first() {
            None => self.all = true,
            Some((Step::Key(k), rest)) => self.keys.entry(k.clone()).or_default().add(rest),
            Some((Step::Index(i), rest)) => self.indexes.entry(*i).or_default().add(rest),
        }
    }

    fn apply(&self, value: &AttributeValue) -> Option<AttributeValue> {
        if self.all {
            return Some(value.clone());
        }
        match value {
            AttributeValue::M(m) if !self.keys.is_empty() => {
                let out: BTreeMap<String, AttributeValue> = self
                    .keys
                    .iter()
                    .filter_map(|(k, sel)| Some((k.clone(), sel.apply(m.get(k)?)?)))
                    .collect();
                (!out.is_empty()).then_some(AttributeValue::M(out))
            }
            AttributeValue::L(l) if !self.indexes.is_empty() => {
                let out: Vec<AttributeValue> = self
                    .indexes
                    .iter()
                    .filter_map(|(i, sel)| sel.apply(l.get(*i)?))
                    .collect();
                (!out.is_empty()).then_some(AttributeValue::L(out))
            }
            _ => None,
        }
    }
}

/// The parts of `item` named by `paths` (resolved, top-level step first).
pub(crate) fn project(item: &Item, paths: &[Steps]) -> Item {
    let mut root = Selection::default();
    for p in paths {
        root.add(p);
    }
    root.keys
        .iter()
        .filter_map(|(k, sel)| Some((k.clone(), sel.apply(item.get(k)?)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(i: i64) -> AttributeValue {
        AttributeValue::N(dynomodel::Number::try_from(i128::from(i)).unwrap_or_default())
    }

    fn key(k: &str) -> Step {
        Step::Key(k.to_owned())
    }

    #[test]
    fn nested_paths_make_partial_documents() {
        let mut inner = BTreeMap::new();
        inner.insert("b".to_owned(), n(1));
        inner.insert("c".to_owned(), n(2));
        let item: Item = [
            ("a".to_owned(), AttributeValue::M(inner)),
            (
                "l".to_owned(),
                AttributeValue::L(vec![n(0), n(1), n(2), n(3)]),
            ),
            ("x".to_owned(), n(9)),
        ]
        .into_iter()
        .collect();
        let got = project(
            &item,
            &[
                smallvec::smallvec![key("a"), key("b")],
                smallvec::smallvec![key("l"), Step::Index(3)],
                smallvec::smallvec![key("l"), Step::Index(1)],
                smallvec::smallvec![key("l"), Step::Index(9)],
                smallvec::smallvec![key("x"), key("nope")],
                smallvec::smallvec![key("missing")],
            ],
        );
        let mut want_a = BTreeMap::new();
        want_a.insert("b".to_owned(), n(1));
        let want: Item = [
            ("a".to_owned(), AttributeValue::M(want_a)),
            ("l".to_owned(), AttributeValue::L(vec![n(1), n(3)])),
        ]
        .into_iter()
        .collect();
        assert_eq!(got, want);
    }
}
