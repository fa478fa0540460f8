//! Random condition, update and projection expressions with random placeholders (`#n`/`:v`), sometimes
//! bare names, and their invalid variants — syntax errors, undefined or unused placeholders, reserved
//! words, redundant parentheses, wrong operand types — applied one per request.

use std::collections::BTreeMap;

use dynomodel::{AttributeValue, Item, ScalarAttributeType};

use super::items::{key_value, number, random_value, wrong_type, ATTRIBUTE_NAMES};
use super::{Exprs, TableSpec};
use crate::rng::Rng;

/// Names that are valid without a placeholder (not reserved, no special characters).
const BARE: [&str; 7] = ["a", "b", "pk", "sk", "ia", "ib", "ic"];
/// Reserved words the generator never uses as attribute names, for the "bare reserved word" defect.
const RESERVED: [&str; 3] = ["zone", "abort", "Comment"];
/// Sorted value pools (UTF-8 byte order, numeric order, unsigned byte order) for BETWEEN bounds.
const SORTED_S: [&str; 9] = ["0", "A", "a", "a b", "aa", "b", "é", "\u{FF61}", "😀"];
const SORTED_N: [&str; 8] = ["-2.25", "-1", "0", "0.001", "1", "1.5", "100", "1e10"];
const SORTED_B: [&[u8]; 5] = [&[0], &[0, 0], &[1, 2], &[7, 7, 7, 7, 7], &[255]];

/// Collects the placeholders an expression uses.
#[derive(Debug, Default)]
pub(super) struct Builder {
    names: BTreeMap<String, String>,
    by_name: BTreeMap<String, String>,
    values: Item,
    /// Numbers placeholders: never reused, even after a placeholder is dropped as a defect (numbering
    /// by map length would reuse one and silently overwrite another placeholder).
    next: usize,
}

impl Builder {
    /// `attr` as a placeholder, or bare now and then where that is valid.
    pub(super) fn name(&mut self, rng: &mut Rng, attr: &str) -> String {
        if BARE.contains(&attr) && rng.chance(40) {
            return attr.to_owned();
        }
        if let Some(p) = self.by_name.get(attr) {
            return p.clone();
        }
        let p = format!("#{}{}", rng.pick(&["n", "N", "attr", "k9"]), self.next);
        self.next += 1;
        self.names.insert(p.clone(), attr.to_owned());
        self.by_name.insert(attr.to_owned(), p.clone());
        p
    }

    /// How `attr` is written in this request: its placeholder if it has one, else the bare name.
    pub(super) fn name_of(&self, attr: &str) -> String {
        self.by_name
            .get(attr)
            .cloned()
            .unwrap_or_else(|| attr.to_owned())
    }

    pub(super) fn value(&mut self, rng: &mut Rng, value: AttributeValue) -> String {
        let p = format!(":{}{}", rng.pick(&["v", "V", "val", "x_"]), self.next);
        self.next += 1;
        self.values.insert(p.clone(), value);
        p
    }

    /// Puts the maps into `exprs`; an empty map is left out (an empty one is a defect of its own).
    pub(super) fn finish(self, exprs: &mut Exprs) {
        exprs.names = (!self.names.is_empty()).then_some(self.names);
        exprs.values = (!self.values.is_empty()).then_some(self.values);
    }

    /// Defect: one placeholder that the expression uses is removed from its map.
    fn drop_one(&mut self, rng: &mut Rng, text: &str) -> bool {
        let used: Vec<String> = self
            .names
            .keys()
            .chain(self.values.keys())
            .filter(|p| text.contains(p.as_str()))
            .cloned()
            .collect();
        if used.is_empty() {
            return false;
        }
        let victim = rng.pick(&used).clone();
        self.names.remove(&victim);
        self.values.remove(&victim);
        true
    }
}

/// Attribute names an expression may refer to: the items' attributes, and the keys when `keys`.
pub(super) fn pool(spec: &TableSpec, keys: bool) -> Vec<String> {
    let mut names: Vec<String> = ATTRIBUTE_NAMES.iter().map(|n| (*n).to_owned()).collect();
    if keys {
        names.extend(spec.key_names());
    }
    names
}

/// A document path: a top-level name, sometimes with a map key or list index below it.
pub(super) fn path(rng: &mut Rng, b: &mut Builder, pool: &[String]) -> String {
    let top = rng.pick(pool).clone();
    let mut text = b.name(rng, &top);
    // Only ordinary attributes get nested paths: a path inside a table or index key attribute is an
    // error of its own, and a request must carry at most one defect.
    let depth = if ATTRIBUTE_NAMES.contains(&top.as_str()) {
        rng.below(3).saturating_sub(1)
    } else {
        0
    };
    for _ in 0..depth {
        if rng.chance(50) {
            text.push_str(&format!("[{}]", rng.below(3)));
        } else {
            let key = *rng.pick(ATTRIBUTE_NAMES);
            text.push('.');
            text.push_str(&b.name(rng, key));
        }
    }
    text
}

/// A scalar that orders (S, N or B) from the key pools, so comparisons sometimes hold.
pub(super) fn scalar(rng: &mut Rng) -> AttributeValue {
    let ty = [
        ScalarAttributeType::S,
        ScalarAttributeType::N,
        ScalarAttributeType::B,
    ][rng.below(3)];
    key_value(rng, ty)
}

/// Two bounds of one type with `lo <= hi` (or reversed, for the defect).
pub(super) fn bounds(
    rng: &mut Rng,
    ty: ScalarAttributeType,
    reversed: bool,
) -> (AttributeValue, AttributeValue) {
    let len = match ty {
        ScalarAttributeType::S => SORTED_S.len(),
        ScalarAttributeType::N => SORTED_N.len(),
        ScalarAttributeType::B => SORTED_B.len(),
    };
    let (mut i, mut j) = (rng.below(len), rng.below(len));
    if i > j || (reversed && i == j) {
        std::mem::swap(&mut i, &mut j);
    }
    if reversed {
        if i == j {
            j = (i + 1) % len;
        }
        std::mem::swap(&mut i, &mut j);
    }
    let at = |k: usize| match ty {
        ScalarAttributeType::S => AttributeValue::S(SORTED_S[k].to_owned()),
        ScalarAttributeType::N => AttributeValue::N(number(SORTED_N[k])),
        ScalarAttributeType::B => AttributeValue::B(SORTED_B[k].to_vec()),
    };
    (at(i), at(j))
}

/// A random condition (ConditionExpression or FilterExpression) over `pool`, `depth` levels of
/// AND/OR/NOT at most. Compound operands are parenthesized; the whole is not (so wrapping it is fine).
pub(super) fn condition(rng: &mut Rng, b: &mut Builder, pool: &[String], depth: usize) -> String {
    if depth > 0 && rng.chance(35) {
        let operand = |rng: &mut Rng, b: &mut Builder| {
            let text = condition(rng, b, pool, depth - 1);
            if text.contains(" AND ") || text.contains(" OR ") || text.starts_with("NOT ") {
                format!("({text})")
            } else {
                text
            }
        };
        return match rng.below(5) {
            0 | 1 => format!("{} AND {}", operand(rng, b), operand(rng, b)),
            2 | 3 => format!("{} OR {}", operand(rng, b), operand(rng, b)),
            _ => format!("NOT {}", operand(rng, b)),
        };
    }
    let p = path(rng, b, pool);
    match rng.below(10) {
        0 | 1 => {
            let op = *rng.pick(&["=", "<>", "<", "<=", ">", ">="]);
            // A path on the right must name another attribute: `a = a` is an error of its own
            // ("The first operand must be distinct…"), and a request carries one defect at most.
            let top = p.split(['.', '[']).next().unwrap_or_default().to_owned();
            let others: Vec<String> = pool
                .iter()
                .filter(|n| b.name_of(n) != top && **n != top)
                .cloned()
                .collect();
            let right = if rng.chance(20) && !others.is_empty() {
                path(rng, b, &others)
            } else if op == "=" || op == "<>" {
                let v = if rng.chance(50) {
                    scalar(rng)
                } else {
                    random_value(rng, 1)
                };
                b.value(rng, v)
            } else {
                let v = scalar(rng);
                b.value(rng, v)
            };
            format!("{p} {op} {right}")
        }
        2 => {
            let ty = *rng.pick(&super::items::SCALARS);
            let (lo, hi) = bounds(rng, ty, false);
            format!("{p} BETWEEN {} AND {}", b.value(rng, lo), b.value(rng, hi))
        }
        3 => {
            let list: Vec<String> = (0..1 + rng.below(4))
                .map(|_| {
                    let v = scalar(rng);
                    b.value(rng, v)
                })
                .collect();
            format!("{p} IN ({})", list.join(", "))
        }
        4 => format!("attribute_exists({p})"),
        5 => format!("attribute_not_exists({p})"),
        6 => {
            let ty = *rng.pick(&["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"]);
            format!(
                "attribute_type({p}, {})",
                b.value(rng, AttributeValue::S(ty.into()))
            )
        }
        7 => {
            let v = if rng.chance(70) {
                AttributeValue::S((*rng.pick(&["a", "", "é", "x"])).into())
            } else {
                AttributeValue::B(vec![rng.below(3) as u8])
            };
            format!("begins_with({p}, {})", b.value(rng, v))
        }
        8 => {
            let v = scalar(rng);
            format!("contains({p}, {})", b.value(rng, v))
        }
        _ => {
            let op = *rng.pick(&["=", "<", ">="]);
            let n = AttributeValue::N(number(rng.pick::<&str>(&["0", "1", "2", "3", "300"])));
            format!("size({p}) {op} {}", b.value(rng, n))
        }
    }
}

/// Breaks a condition (or filter) once.
pub(super) fn break_condition(rng: &mut Rng, b: &mut Builder, text: &mut String) {
    match rng.below(9) {
        0 if b.drop_one(rng, text) => {}
        1 => {
            b.names.insert("#unused".into(), "a".into());
        }
        2 => {
            b.values
                .insert(":unused".into(), AttributeValue::S("x".into()));
        }
        3 => text.push_str(&format!(" AND attribute_exists({})", rng.pick(&RESERVED))),
        4 => *text = format!("(({text}))"),
        5 => {
            let ty = *rng.pick(&super::items::SCALARS);
            let (hi, lo) = bounds(rng, ty, true);
            let (lo, hi) = (b.value(rng, hi), b.value(rng, lo));
            text.push_str(&format!(" AND a BETWEEN {lo} AND {hi}"));
        }
        6 => {
            let bad_type = AttributeValue::S((*rng.pick(&["STRING", "s", "LIST"])).into());
            let t = b.value(rng, bad_type);
            text.push_str(&format!(" AND attribute_type(a, {t})"));
        }
        7 => {
            let n = b.value(rng, AttributeValue::N(number("1")));
            text.push_str(&format!(" AND begins_with(a, {n})"));
        }
        _ => syntax_error(rng, text, &[" AND", " )", "( ", " = ", " BETWEEN :"]),
    }
}

/// Breaks a key condition once, without adding conditions (a third condition, or one on a non-key
/// attribute, would be a second defect).
pub(super) fn break_generic(rng: &mut Rng, b: &mut Builder, text: &mut String) {
    match rng.below(5) {
        0 if b.drop_one(rng, text) => {}
        1 => {
            b.names.insert("#unused".into(), "a".into());
        }
        2 => {
            b.values
                .insert(":unused".into(), AttributeValue::S("x".into()));
        }
        3 => *text = format!("(({text}))"),
        _ => syntax_error(rng, text, &[" )", "( ", " = ", " BETWEEN :"]),
    }
}

fn syntax_error(rng: &mut Rng, text: &mut String, variants: &[&str]) {
    let v = *rng.pick(variants);
    if v.ends_with(' ') {
        text.insert_str(0, v);
    } else {
        text.push_str(v);
    }
}

/// A ProjectionExpression of one to three paths.
pub(super) fn projection(rng: &mut Rng, b: &mut Builder, pool: &[String]) -> String {
    // Distinct paths: overlapping ones are an error whose second path DynamoDB Local names oddly
    // (`[empty], [empty], [é]` reports "path one: [empty], path two: [é]"); left for a dedicated probe.
    // Distinct top-level attributes (compared by name, so `#n` and a bare `a` naming the same
    // attribute count as one).
    let mut tops: Vec<String> = Vec::new();
    let mut paths: Vec<String> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let top = rng.pick(pool).clone();
        if tops.contains(&top) {
            continue;
        }
        paths.push(path(rng, b, std::slice::from_ref(&top)));
        tops.push(top);
    }
    paths.join(", ")
}

pub(super) fn break_projection(rng: &mut Rng, b: &mut Builder, text: &mut String) {
    match rng.below(5) {
        0 if b.drop_one(rng, text) => {}
        1 => {
            b.names.insert("#unused".into(), "a".into());
        }
        2 => text.push_str(&format!(", {}", rng.pick(&RESERVED))),
        _ => syntax_error(rng, text, &[",", ", ", " a", "[x]"]),
    }
}

/// A random UpdateExpression: SET (with `+`/`-`, `if_not_exists`, `list_append`, list indexes),
/// REMOVE, ADD and DELETE clauses in random order. Every action writes a different top-level
/// attribute, so paths never overlap (that would be a second defect).
pub(super) fn update(rng: &mut Rng, b: &mut Builder, spec: &TableSpec) -> String {
    let mut targets: Vec<String> = pool(spec, false);
    targets.extend(spec.index_attributes.iter().map(|a| a.0.clone()));
    let index_attributes: Vec<String> = spec.index_attributes.iter().map(|a| a.0.clone()).collect();
    // ADD and DELETE never target index keys: DynamoDB Local accepts `ADD` of a number into an
    // S-typed LSI key when the update creates the item (the docs make it a ValidationException), after
    // which every read of that item would differ. The rule itself is covered by the dual suite.
    let mut target = |rng: &mut Rng, b: &mut Builder, nested: bool, index_ok: bool| {
        let allowed: Vec<usize> = (0..targets.len())
            .filter(|&i| index_ok || !index_attributes.contains(&targets[i]))
            .collect();
        let top = targets.remove(allowed[rng.below(allowed.len())]);
        let mut text = b.name(rng, &top);
        if nested && rng.chance(25) {
            if rng.chance(50) {
                text.push_str(&format!("[{}]", rng.below(4)));
            } else {
                text.push('.');
                let key = *rng.pick(ATTRIBUTE_NAMES);
                text.push_str(&b.name(rng, key));
            }
        }
        (text, top)
    };
    let read_pool = pool(spec, true);
    let mut clauses: Vec<String> = Vec::new();
    let mut kinds = vec!["SET", "REMOVE", "ADD", "DELETE"];
    let most = if rng.chance(70) { 1 } else { 3 };
    let count = 1 + rng.below(most);
    let mut chosen: Vec<&str> = (0..count)
        .map(|_| kinds.remove(rng.below(kinds.len())))
        .collect();
    // An update that only takes away (REMOVE, DELETE) creates nothing when the item is missing
    // (as on the service), where DynamoDB Local creates the key-only item, after which every read of
    // it would differ: every generated update also sets or adds. The rule itself is covered by the
    // dual suite (update_semantics.rs).
    if !chosen.iter().any(|k| matches!(*k, "SET" | "ADD")) {
        chosen.push("SET");
    }
    for kind in chosen {
        let actions: Vec<String> = (0..1 + rng.below(2))
            .map(|_| match kind {
                "SET" => {
                    let (t, top) = target(rng, b, true, true);
                    // An index key gets a value of its own type (a wrong type is a separate defect).
                    let rhs = match spec.index_attributes.iter().find(|a| a.0 == top) {
                        Some((_, ty)) if !t.contains(['.', '[']) => {
                            let v = key_value(rng, *ty);
                            b.value(rng, v)
                        }
                        _ => set_value(rng, b, &read_pool),
                    };
                    format!("{t} = {rhs}")
                }
                "REMOVE" => target(rng, b, true, true).0,
                "ADD" => {
                    let (t, _) = target(rng, b, false, false);
                    let v = match rng.below(4) {
                        0 | 1 => AttributeValue::N(number(
                            rng.pick::<&str>(&["1", "-1", "2.5", "1e-130"]),
                        )),
                        _ => set_value_of(rng),
                    };
                    format!("{t} {}", b.value(rng, v))
                }
                _ => {
                    let (t, _) = target(rng, b, false, false);
                    let v = set_value_of(rng);
                    format!("{t} {}", b.value(rng, v))
                }
            })
            .collect();
        clauses.push(format!("{kind} {}", actions.join(", ")));
    }
    clauses.join(" ")
}

fn set_value_of(rng: &mut Rng) -> AttributeValue {
    match rng.below(3) {
        0 => AttributeValue::Ss(vec!["a".into(), "hello".into()][..1 + rng.below(2)].to_vec()),
        1 => AttributeValue::Ns(vec![number("1"), number("2")][..1 + rng.below(2)].to_vec()),
        _ => AttributeValue::Bs(vec![vec![0], vec![1, 2]][..1 + rng.below(2)].to_vec()),
    }
}

/// The right-hand side of a SET action.
fn set_value(rng: &mut Rng, b: &mut Builder, pool: &[String]) -> String {
    let operand = |rng: &mut Rng, b: &mut Builder| match rng.below(4) {
        0 => path(rng, b, pool),
        1 => {
            let p = path(rng, b, pool);
            let v = AttributeValue::N(number(rng.pick::<&str>(&["0", "1", "5"])));
            format!("if_not_exists({p}, {})", b.value(rng, v))
        }
        _ => {
            let v = AttributeValue::N(number(rng.pick::<&str>(&["1", "-2.25", "100", "0.001"])));
            b.value(rng, v)
        }
    };
    match rng.below(7) {
        0 => format!("{} + {}", operand(rng, b), operand(rng, b)),
        1 => format!("{} - {}", operand(rng, b), operand(rng, b)),
        2 => {
            let list = AttributeValue::L(vec![random_value(rng, 1)]);
            let list = b.value(rng, list);
            let p = path(rng, b, pool);
            if rng.chance(50) {
                format!("list_append({p}, {list})")
            } else {
                format!("list_append({list}, {p})")
            }
        }
        3 => operand(rng, b),
        _ => {
            let v = random_value(rng, 2);
            b.value(rng, v)
        }
    }
}

/// Breaks an update expression once.
pub(super) fn break_update(rng: &mut Rng, b: &mut Builder, spec: &TableSpec, text: &mut String) {
    match rng.below(8) {
        0 if b.drop_one(rng, text) => {}
        1 => {
            b.values
                .insert(":unused".into(), AttributeValue::N(number("1")));
        }
        2 if !text.contains("REMOVE") => {
            text.push_str(&format!(" REMOVE {}", rng.pick(&RESERVED)));
        }
        3 if !text.contains("SET") => {
            // A table key cannot be updated.
            let v = key_value(rng, spec.hash.1);
            text.push_str(&format!(" SET {} = {}", spec.hash.0, b.value(rng, v)));
        }
        4 if !text.contains("ADD") => {
            let v = AttributeValue::S("x".into());
            text.push_str(&format!(" ADD b {}", b.value(rng, v)));
        }
        5 if !text.contains("DELETE") => {
            let v = AttributeValue::N(number("1"));
            text.push_str(&format!(" DELETE b {}", b.value(rng, v)));
        }
        // A wrongly typed key for a *global* index only: DynamoDB Local does not check LSI key types
        // on UpdateItem (it does on PutItem), and accepting the write would leave the two backends
        // with different items (deviations.md).
        6 if !global_keys(spec).is_empty() && !text.contains("SET") => {
            let (name, ty) = rng.pick(&global_keys(spec)).clone();
            let v = wrong_type(rng, ty);
            text.push_str(&format!(" SET {name} = {}", b.value(rng, v)));
        }
        _ => syntax_error(rng, text, &[",", " SET", "= ", " + "]),
    }
}

/// Index-only attributes that key a global index (and no local one).
fn global_keys(spec: &TableSpec) -> Vec<(String, ScalarAttributeType)> {
    let keys_of = |global: bool| -> Vec<&str> {
        spec.indexes
            .iter()
            .filter(|i| i.global == global)
            .flat_map(|i| {
                std::iter::once(i.hash.0.as_str()).chain(i.range.as_ref().map(|r| r.0.as_str()))
            })
            .collect()
    };
    let (global, local) = (keys_of(true), keys_of(false));
    spec.index_attributes
        .iter()
        .filter(|(name, _)| global.contains(&name.as_str()) && !local.contains(&name.as_str()))
        .cloned()
        .collect()
}
