//! What the sampled values of one attribute look like, merged over the sample: the evidence the
//! field types are inferred from.

use std::collections::{BTreeMap, BTreeSet};

use crate::value::{AttributeValue, Item, Number};

/// Which Rust number types hold every sampled number of an attribute exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Numbers {
    pub(crate) i64: bool,
    pub(crate) u64: bool,
    /// The number is the shortest decimal text of an `f64` (what `f64` writes back).
    pub(crate) f64: bool,
    pub(crate) decimal: bool,
}

impl Numbers {
    fn of(n: &Number) -> Numbers {
        let text = n.to_string();
        let f64 = text
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .is_some_and(|f| Number::parse(&format!("{f:e}")).is_ok_and(|back| back == *n));
        Numbers {
            i64: text.parse::<i64>().is_ok(),
            u64: text.parse::<u64>().is_ok(),
            f64,
            decimal: rust_decimal::Decimal::from_str_exact(&text).is_ok(),
        }
    }

    fn and(self, other: Numbers) -> Numbers {
        Numbers {
            i64: self.i64 && other.i64,
            u64: self.u64 && other.u64,
            f64: self.f64 && other.f64,
            decimal: self.decimal && other.decimal,
        }
    }

    /// A JSON number holds it exactly (see `convert::json`).
    fn json(self) -> bool {
        self.i64 || self.u64 || self.f64
    }
}

/// The shape of the values seen at one place (an attribute, a map key, a list's elements).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shape {
    S,
    N(Numbers),
    B,
    Bool,
    Null,
    Ss,
    Ns(Numbers),
    Bs,
    /// A list; `None` while only empty lists were seen.
    L(Option<Box<Shape>>),
    M(Maps),
    /// Values of several DynamoDB types (their type names); `json` when every one has a JSON form.
    Mixed {
        types: BTreeSet<&'static str>,
        json: bool,
    },
}

/// The maps seen at one place: how many, and for each key how many of them hold it and its shape.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Maps {
    pub(crate) count: usize,
    pub(crate) keys: BTreeMap<String, (usize, Shape)>,
}

impl Maps {
    /// The shape of every item of a sample, as the maps they are.
    pub(crate) fn of_items<'a>(items: impl IntoIterator<Item = &'a Item>) -> Maps {
        let mut maps = Maps::default();
        for item in items {
            maps.observe(item.iter());
        }
        maps
    }

    fn observe<'a>(&mut self, entries: impl Iterator<Item = (&'a String, &'a AttributeValue)>) {
        self.count += 1;
        for (key, value) in entries {
            let shape = Shape::of(value);
            match self.keys.get_mut(key) {
                Some((count, seen)) => {
                    *count += 1;
                    let merged = std::mem::replace(seen, Shape::Null).merge(shape);
                    *seen = merged;
                }
                None => {
                    self.keys.insert(key.clone(), (1, shape));
                }
            }
        }
    }

    fn merge(mut self, other: Maps) -> Maps {
        self.count += other.count;
        for (key, (count, shape)) in other.keys {
            match self.keys.remove(&key) {
                Some((seen_count, seen)) => {
                    self.keys
                        .insert(key, (seen_count + count, seen.merge(shape)));
                }
                None => {
                    self.keys.insert(key, (count, shape));
                }
            }
        }
        self
    }

    /// The shape of every value of every map, merged (a map used as a dictionary).
    pub(crate) fn values(&self) -> Option<Shape> {
        self.keys
            .values()
            .map(|(_, shape)| shape.clone())
            .reduce(Shape::merge)
    }
}

impl Shape {
    /// The shape of one value.
    pub(crate) fn of(value: &AttributeValue) -> Shape {
        match value {
            AttributeValue::S(_) => Shape::S,
            AttributeValue::N(n) => Shape::N(Numbers::of(n)),
            AttributeValue::B(_) => Shape::B,
            AttributeValue::Bool(_) => Shape::Bool,
            AttributeValue::Null => Shape::Null,
            AttributeValue::Ss(_) => Shape::Ss,
            AttributeValue::Ns(ns) => Shape::Ns(ns.iter().map(Numbers::of).fold(
                Numbers {
                    i64: true,
                    u64: true,
                    f64: true,
                    decimal: true,
                },
                Numbers::and,
            )),
            AttributeValue::Bs(_) => Shape::Bs,
            AttributeValue::L(list) => Shape::L(
                list.iter()
                    .map(Shape::of)
                    .reduce(Shape::merge)
                    .map(Box::new),
            ),
            AttributeValue::M(map) => {
                let mut maps = Maps::default();
                maps.observe(map.iter());
                Shape::M(maps)
            }
        }
    }

    /// DynamoDB's name of the shape's type (`"M"`), or the types of a mixed one joined by `/`.
    pub(crate) fn type_names(&self) -> BTreeSet<&'static str> {
        let name = match self {
            Shape::S => "S",
            Shape::N(_) => "N",
            Shape::B => "B",
            Shape::Bool => "BOOL",
            Shape::Null => "NULL",
            Shape::Ss => "SS",
            Shape::Ns(_) => "NS",
            Shape::Bs => "BS",
            Shape::L(_) => "L",
            Shape::M(_) => "M",
            Shape::Mixed { types, .. } => return types.clone(),
        };
        BTreeSet::from([name])
    }

    /// Every value seen has a JSON form that stores back as the same value (no binary, no set, no
    /// number JSON cannot hold exactly).
    pub(crate) fn json(&self) -> bool {
        match self {
            Shape::S | Shape::Bool | Shape::Null => true,
            Shape::N(numbers) => numbers.json(),
            Shape::B | Shape::Ss | Shape::Ns(_) | Shape::Bs => false,
            Shape::L(element) => element.as_deref().is_none_or(Shape::json),
            Shape::M(maps) => maps.keys.values().all(|(_, shape)| shape.json()),
            Shape::Mixed { json, .. } => *json,
        }
    }

    /// The shape of two places' values together.
    pub(crate) fn merge(self, other: Shape) -> Shape {
        match (self, other) {
            (Shape::N(a), Shape::N(b)) => Shape::N(a.and(b)),
            (Shape::Ns(a), Shape::Ns(b)) => Shape::Ns(a.and(b)),
            (Shape::L(a), Shape::L(b)) => Shape::L(match (a, b) {
                (Some(a), Some(b)) => Some(Box::new(a.merge(*b))),
                (a, b) => a.or(b),
            }),
            (Shape::M(a), Shape::M(b)) => Shape::M(a.merge(b)),
            (a, b) if a == b => a,
            (a, b) => {
                let json = a.json() && b.json();
                let mut types = a.type_names();
                types.extend(b.type_names());
                Shape::Mixed { types, json }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.parse().expect("a number"))
    }

    #[test]
    fn numbers_keep_what_every_value_fits() {
        let Shape::N(int) = Shape::of(&n("42")).merge(Shape::of(&n("-7"))) else {
            panic!()
        };
        assert!(int.i64 && !int.u64 && int.f64 && int.decimal);
        let Shape::N(big) = Shape::of(&n("18446744073709551615")) else {
            panic!()
        };
        assert!(!big.i64 && big.u64);
        let Shape::N(fraction) = Shape::of(&n("19.99")) else {
            panic!()
        };
        assert!(!fraction.i64 && fraction.f64 && fraction.decimal);
        let Shape::N(precise) = Shape::of(&n("0.12345678901234567891")) else {
            panic!()
        };
        assert!(!precise.f64 && precise.decimal);
        let Shape::N(huge) = Shape::of(&n("1E100")) else {
            panic!()
        };
        assert!(!huge.decimal && !huge.i64);
    }

    #[test]
    fn different_types_are_mixed() {
        let mixed = Shape::of(&AttributeValue::S("a".into())).merge(Shape::of(&n("1")));
        assert_eq!(mixed.type_names(), BTreeSet::from(["N", "S"]));
        assert!(mixed.json());
        let binary = mixed.merge(Shape::of(&AttributeValue::B(vec![1])));
        assert!(!binary.json());
    }

    #[test]
    fn maps_count_their_keys() {
        let map = |keys: &[&str]| {
            AttributeValue::M(keys.iter().map(|k| ((*k).to_owned(), n("1"))).collect())
        };
        let Shape::M(maps) = Shape::of(&map(&["a", "b"])).merge(Shape::of(&map(&["a"]))) else {
            panic!()
        };
        assert_eq!(maps.count, 2);
        assert_eq!(maps.keys["a"].0, 2);
        assert_eq!(maps.keys["b"].0, 1);
    }
}
