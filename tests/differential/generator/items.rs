//! Random attribute values, items and keys: every data type, nesting and sizes near DynamoDB's limits,
//! index key attributes of the right type most of the time, and the broken variants (bad keys, empty
//! or duplicate sets, mistyped or empty index keys) that invalid requests carry — one defect each.

use dynomodel::{item_size, AttributeValue, Item, Number, ScalarAttributeType};

use super::TableSpec;
use crate::rng::Rng;

pub(super) const SCALARS: [ScalarAttributeType; 3] = [
    ScalarAttributeType::S,
    ScalarAttributeType::N,
    ScalarAttributeType::B,
];
pub(super) const ATTRIBUTE_NAMES: &[&str] = &[
    "a", "b", "name", "data", "é", "x.y", "count", "list", "map", "empty",
];

/// Key values come from small pools so that gets and deletes often find what puts wrote.
pub(super) fn key_value(rng: &mut Rng, ty: ScalarAttributeType) -> AttributeValue {
    match ty {
        ScalarAttributeType::S => AttributeValue::S(
            (*rng.pick(&["a", "b", "A", "aa", "é", "😀", "\u{FF61}", "a b", "0"])).to_owned(),
        ),
        ScalarAttributeType::N => AttributeValue::N(number(
            rng.pick::<&str>(&["0", "1", "-1", "1.5", "1e10", "-2.25", "100", "0.001"]),
        )),
        ScalarAttributeType::B => AttributeValue::B(
            rng.pick(&[&[0u8][..], &[1, 2], &[255], &[0, 0], &[7; 5]])
                .to_vec(),
        ),
    }
}

pub(super) fn number(text: &str) -> Number {
    text.parse().expect("generator numbers are valid")
}

pub(super) fn random_key(rng: &mut Rng, spec: &TableSpec) -> Item {
    let mut key = Item::new();
    key.insert(spec.hash.0.clone(), key_value(rng, spec.hash.1));
    if let Some((name, ty)) = &spec.range {
        key.insert(name.clone(), key_value(rng, *ty));
    }
    key
}

/// A random valid item, or — when `allow_defect` — one that may be over the size or nesting limit.
pub(super) fn random_item(rng: &mut Rng, spec: &TableSpec, allow_defect: bool) -> Item {
    let mut item = random_key(rng, spec);
    for _ in 0..rng.below(5) {
        let name = (*rng.pick(ATTRIBUTE_NAMES)).to_owned();
        item.insert(name, random_value(rng, 3));
    }
    for (name, ty) in &spec.index_attributes {
        // Sparse indexes: some items lack an index key attribute and are absent from the index.
        if rng.chance(80) {
            item.insert(name.clone(), key_value(rng, *ty));
        }
    }
    // Items near 400 KB only in the table without indexes: three of them pass 1 MB in a Scan, and the
    // engine sizes index pages by projected entry where DynamoDB Local sizes whole items (deviations.md).
    if spec.big_items && rng.chance(3) {
        // An item of exactly 409,600 bytes (accepted) or one byte more (rejected).
        let extra = usize::from(allow_defect && rng.chance(50));
        let base = item_size(&item) + "big".len();
        if base < 409_600 {
            item.insert(
                "big".into(),
                AttributeValue::S("x".repeat(409_600 - base + extra)),
            );
        }
    }
    if rng.chance(2) {
        item.insert(
            "deep".into(),
            nested(if allow_defect {
                *rng.pick(&[31, 32, 33])
            } else {
                31
            }),
        );
    }
    item
}

/// A value nested `depth` levels deep in alternating maps and lists.
fn nested(depth: usize) -> AttributeValue {
    let mut value = AttributeValue::S("bottom".into());
    for level in 0..depth {
        value = if level % 2 == 0 {
            AttributeValue::L(vec![value])
        } else {
            AttributeValue::M([("m".to_string(), value)].into_iter().collect())
        };
    }
    value
}

pub(super) fn random_string(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => String::new(),
        1 => "é😀\u{FF61}".repeat(rng.below(3) + 1),
        2 => "x".repeat(rng.below(300)),
        _ => (*rng.pick(&["hello", "a", "B", "zz", " space ", "tab\t", "1"])).to_owned(),
    }
}

pub(super) fn random_number(rng: &mut Rng) -> Number {
    match rng.below(4) {
        0 => number(rng.pick::<&str>(&[
            "0", "-0", "1.50", "1E2", "+3", ".5", "0001.000", "1E-130", "-1E-130",
        ])),
        1 => number(&format!("9.{}E125", "9".repeat(37))),
        _ => {
            let digits: String = (0..rng.below(38) + 1)
                .map(|_| char::from(b'0' + rng.below(10) as u8))
                .collect();
            let exponent = rng.below(80) as i64 - 40;
            let sign = if rng.chance(30) { "-" } else { "" };
            number(&format!("{sign}{digits}e{exponent}"))
        }
    }
}

pub(super) fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    (0..rng.below(6)).map(|_| rng.below(256) as u8).collect()
}

pub(super) fn random_value(rng: &mut Rng, depth: usize) -> AttributeValue {
    let kinds = if depth == 0 { 8 } else { 10 };
    match rng.below(kinds) {
        0 => AttributeValue::S(random_string(rng)),
        1 => AttributeValue::N(random_number(rng)),
        2 => AttributeValue::B(random_bytes(rng)),
        3 => AttributeValue::Bool(rng.chance(50)),
        4 => AttributeValue::Null,
        5 => AttributeValue::Ss(unique(
            (0..rng.below(3) + 1).map(|_| random_string(rng)).collect(),
        )),
        6 => AttributeValue::Ns(unique(
            (0..rng.below(3) + 1).map(|_| random_number(rng)).collect(),
        )),
        7 => AttributeValue::Bs(unique(
            (0..rng.below(3) + 1).map(|_| random_bytes(rng)).collect(),
        )),
        8 => AttributeValue::L(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth - 1))
                .collect(),
        ),
        _ => AttributeValue::M(
            (0..rng.below(4))
                .map(|_| {
                    (
                        (*rng.pick(ATTRIBUTE_NAMES)).to_owned(),
                        random_value(rng, depth - 1),
                    )
                })
                .collect(),
        ),
    }
}

fn unique<T: Ord>(mut values: Vec<T>) -> Vec<T> {
    values.sort();
    values.dedup();
    values
}

pub(super) fn wrong_type(rng: &mut Rng, ty: ScalarAttributeType) -> AttributeValue {
    let other = loop {
        let candidate = *rng.pick(&SCALARS);
        if candidate != ty {
            break candidate;
        }
    };
    if rng.chance(20) {
        AttributeValue::Bool(true)
    } else {
        key_value(rng, other)
    }
}

/// Breaks a key the way clients do: missing, mistyped, empty, too long, or with an extra attribute.
pub(super) fn break_key(rng: &mut Rng, spec: &TableSpec, key: &mut Item) {
    let (name, ty) = match &spec.range {
        Some(range) if rng.chance(50) => range.clone(),
        _ => spec.hash.clone(),
    };
    let limit = if name == spec.hash.0 { 2048 } else { 1024 };
    match rng.below(6) {
        0 => {
            key.remove(&name);
        }
        1 => {
            key.insert(name, wrong_type(rng, ty));
        }
        2 => {
            let empty = if ty == ScalarAttributeType::B {
                AttributeValue::B(vec![])
            } else {
                AttributeValue::S(String::new())
            };
            key.insert(name, empty);
        }
        3 => {
            // At the limit (valid) or one byte over; multi-byte characters count their UTF-8 bytes.
            let over = usize::from(rng.chance(60));
            let value = match ty {
                ScalarAttributeType::B => AttributeValue::B(vec![7; limit + over]),
                ScalarAttributeType::N => AttributeValue::N(number("1")),
                ScalarAttributeType::S if rng.chance(50) => {
                    AttributeValue::S("é".repeat((limit + over * 2) / 2))
                }
                ScalarAttributeType::S => AttributeValue::S("k".repeat(limit + over)),
            };
            key.insert(name, value);
        }
        4 => {
            key.insert("extra".into(), AttributeValue::S("x".into()));
        }
        _ => {
            key.clear();
        }
    }
}

/// Breaks an item: a broken key, an empty set, a duplicate set element, or a mistyped or empty index
/// key attribute.
pub(super) fn break_item(rng: &mut Rng, spec: &TableSpec, item: &mut Item) {
    if !spec.index_attributes.is_empty() && rng.chance(30) {
        let (name, ty) = rng.pick(&spec.index_attributes).clone();
        let value = match (rng.below(2), ty) {
            (0, ScalarAttributeType::B) => AttributeValue::B(vec![]),
            (0, ScalarAttributeType::S) => AttributeValue::S(String::new()),
            _ => wrong_type(rng, ty),
        };
        item.insert(name, value);
        return;
    }
    match rng.below(4) {
        0 | 1 => {
            let mut key = random_key(rng, spec);
            break_key(rng, spec, &mut key);
            // A put carries whole items, so an "extra attribute" is not an error there: only the key
            // attributes are replaced or removed.
            for name in [&spec.hash.0]
                .into_iter()
                .chain(spec.range.as_ref().map(|r| &r.0))
            {
                match key.remove(name.as_str()) {
                    Some(value) => item.insert(name.clone(), value),
                    None => item.remove(name.as_str()),
                };
            }
        }
        2 => {
            let value = match rng.below(3) {
                0 => AttributeValue::Ss(vec![]),
                1 => AttributeValue::Ns(vec![]),
                _ => AttributeValue::Bs(vec![]),
            };
            item.insert("set".into(), value);
        }
        _ => {
            let value = match rng.below(3) {
                0 => AttributeValue::Ss(vec!["a".into(), "a".into()]),
                1 => AttributeValue::Ns(vec![number("1"), number("1.0")]),
                _ => AttributeValue::Bs(vec![vec![1], vec![1]]),
            };
            item.insert("set".into(), value);
        }
    }
}
