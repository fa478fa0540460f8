//! The text of PartiQL statements: values as literals or `?` parameters, attribute names quoted or
//! bare, nested paths, and the conditions of a `WHERE` clause.

use dynomodel::{AttributeValue, ScalarAttributeType};

use super::super::expressions::{bounds, scalar};
use super::super::items::{key_value, ATTRIBUTE_NAMES};
use crate::rng::Rng;

/// A statement being written: its `?` parameters in order.
#[derive(Debug, Default)]
pub(super) struct Text {
    pub params: Vec<AttributeValue>,
    /// The key attributes of the table and its indexes, with their types: conditions compare them
    /// with values of their type most of the time (another type, or a path into a key, is a defect).
    pub keys: Vec<(String, ScalarAttributeType)>,
    /// The key of the item a single-item statement names (to keep batches on distinct items).
    pub key: String,
}

impl Text {
    /// `value` as a literal, or as a `?` parameter now and then (always for binaries, which PartiQL
    /// has no literal for, and for long strings, which would push the statement over its 8,192
    /// characters).
    pub(super) fn value(&mut self, rng: &mut Rng, value: &AttributeValue) -> String {
        match literal(value) {
            Some(text) if !rng.chance(25) => text,
            _ => {
                self.params.push(value.clone());
                "?".to_owned()
            }
        }
    }

    /// The parameters, absent when there are none (as clients send them).
    pub(super) fn parameters(self) -> Option<Vec<AttributeValue>> {
        (!self.params.is_empty()).then_some(self.params)
    }
}

/// A PartiQL literal for `value`: `'text'`, numbers as written, `TRUE`, `NULL`, `<<…>>` sets, `[…]`
/// lists and `{'k': …}` maps. `None` for binaries and long strings.
pub(super) fn literal(value: &AttributeValue) -> Option<String> {
    let join = |items: Vec<Option<String>>| -> Option<String> {
        items
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .map(|v| v.join(", "))
    };
    Some(match value {
        AttributeValue::S(s) => string(s)?,
        AttributeValue::N(n) => n.to_string(),
        AttributeValue::Bool(b) => if *b { "TRUE" } else { "false" }.to_owned(),
        AttributeValue::Null => "NULL".to_owned(),
        AttributeValue::Ss(v) => format!("<<{}>>", join(v.iter().map(|s| string(s)).collect())?),
        AttributeValue::Ns(v) => format!(
            "<<{}>>",
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttributeValue::L(v) => format!("[{}]", join(v.iter().map(literal).collect())?),
        AttributeValue::M(m) => format!(
            "{{{}}}",
            join(
                m.iter()
                    .map(|(k, v)| Some(format!("{}: {}", string(k)?, literal(v)?)))
                    .collect()
            )?
        ),
        AttributeValue::B(_) | AttributeValue::Bs(_) => return None,
    })
}

fn string(s: &str) -> Option<String> {
    (s.len() <= 200).then(|| format!("'{}'", s.replace('\'', "''")))
}

/// An attribute name: double-quoted, or bare now and then when it is a plain lowercase word that is
/// no PartiQL keyword.
pub(super) fn name(rng: &mut Rng, name: &str) -> String {
    const BARE: [&str; 7] = ["a", "b", "pk", "sk", "ia", "ib", "ic"];
    if BARE.contains(&name) && rng.chance(40) {
        name.to_owned()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

/// A path into an item: a top-level attribute of `pool`, or now and then a nested one (rarely below
/// one of `keys`: that is a defect); with its top-level attribute and whether it goes below it.
pub(super) fn path_with_root(
    rng: &mut Rng,
    pool: &[String],
    keys: &[(String, ScalarAttributeType)],
) -> (String, String, bool) {
    let root = rng.pick(pool).clone();
    let mut text = name(rng, &root);
    let is_key = keys.iter().any(|(k, _)| *k == root);
    let nested = rng.chance(25) && (!is_key || rng.chance(15));
    if nested {
        for _ in 0..=rng.below(2) {
            if rng.chance(50) {
                text.push_str(&format!("[{}]", rng.below(3)));
            } else {
                let field = (*rng.pick(ATTRIBUTE_NAMES)).to_owned();
                text.push('.');
                text.push_str(&name(rng, &field));
            }
        }
    }
    (root, text, nested)
}

/// The non-key attributes items carry, and the given key attributes.
pub(super) fn pool(keys: &[String]) -> Vec<String> {
    let mut pool: Vec<String> = ATTRIBUTE_NAMES.iter().map(|s| (*s).to_owned()).collect();
    pool.extend(keys.iter().cloned());
    pool
}

const COMPARISONS: [&str; 7] = ["=", "<>", "!=", "<", "<=", ">", ">="];

/// A random condition over `pool`, with `depth` levels of AND/OR/NOT at most; compound operands are
/// parenthesized, so the whole can be appended to a key equality with `AND`.
pub(super) fn condition(rng: &mut Rng, t: &mut Text, pool: &[String], depth: usize) -> String {
    if depth > 0 && rng.chance(30) {
        let left = condition(rng, t, pool, depth - 1);
        return match rng.below(3) {
            0 => format!("({left} AND {})", condition(rng, t, pool, depth - 1)),
            1 => format!("({left} OR {})", condition(rng, t, pool, depth - 1)),
            _ => format!("NOT ({left})"),
        };
    }
    let (root, p, nested) = path_with_root(rng, pool, &t.keys);
    // A key attribute itself is compared with values of its type, except now and then (a defect).
    let key_type = if nested {
        None
    } else {
        t.keys.iter().find(|(k, _)| *k == root).map(|(_, ty)| *ty)
    };
    let well_typed = key_type.filter(|_| !rng.chance(10));
    let scalar = |rng: &mut Rng| match well_typed {
        Some(ty) => key_value(rng, ty),
        None => scalar(rng),
    };
    match rng.below(10) {
        // Functions of strings on a key of another type would be a defect too.
        5 | 7 if well_typed.is_some_and(|ty| ty != ScalarAttributeType::S) => {
            let op = rng.pick(&COMPARISONS);
            let v = scalar(rng);
            format!("{p} {op} {}", t.value(rng, &v))
        }
        // Any value can be tested for (in)equality; order comparisons take scalars (anything else is an
        // operand-type defect, which the generator does not add on top of another).
        0..=2 if well_typed.is_none() && rng.chance(15) => {
            let op = rng.pick(&["=", "<>", "!="]);
            let v = super::super::items::random_value(rng, 1);
            format!("{p} {op} {}", t.value(rng, &v))
        }
        0..=2 => {
            let op = rng.pick(&COMPARISONS);
            let v = scalar(rng);
            format!("{p} {op} {}", t.value(rng, &v))
        }
        3 => {
            let ty = well_typed.unwrap_or_else(|| *rng.pick(&super::super::items::SCALARS));
            let (lo, hi) = bounds(rng, ty, false);
            format!(
                "{p} BETWEEN {} AND {}",
                t.value(rng, &lo),
                t.value(rng, &hi)
            )
        }
        4 => {
            let values: Vec<String> = (0..=rng.below(3))
                .map(|_| {
                    let v = scalar(rng);
                    t.value(rng, &v)
                })
                .collect();
            let not = if rng.chance(20) { "NOT " } else { "" };
            format!("{p} {not}IN [{}]", values.join(", "))
        }
        5 => {
            let ty = match well_typed {
                Some(ty) => ty,
                None => *rng.pick(&[ScalarAttributeType::S, ScalarAttributeType::B]),
            };
            let v = key_value(rng, ty);
            format!("begins_with({p}, {})", t.value(rng, &v))
        }
        6 => {
            let v = scalar(rng);
            format!("contains({p}, {})", t.value(rng, &v))
        }
        7 => {
            let ty = rng.pick(&["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"]);
            let v = AttributeValue::S((*ty).to_owned());
            format!("attribute_type({p}, {})", t.value(rng, &v))
        }
        8 => {
            let not = if rng.chance(50) { "NOT " } else { "" };
            format!("{p} IS {not}MISSING")
        }
        _ => {
            let op = rng.pick(&COMPARISONS);
            let n = AttributeValue::N(super::super::items::number(
                rng.pick::<&str>(&["0", "1", "2", "5"]),
            ));
            format!("size({p}) {op} {}", t.value(rng, &n))
        }
    }
}
