//! The differential test: generated legacy parameters (a fixed-seed generator: valid and broken, every
//! operator, names with dots, brackets and reserved words, AND and OR) go through the tree translation
//! the engine uses and through the earlier text translation (`text.rs`: expression text, parsed and
//! validated as before); both must give the same evaluation on a set of items, or the same error.

use std::collections::BTreeMap;

use dynomodel::backend::{
    AttributeAction, AttributeValueUpdate, ComparisonOperator as Op, ConditionalOperator,
    Conditions, Expected, ExpectedAttributeValue, LegacyCondition, ScalarAttributeType,
};
use dynomodel::{AttributeValue, Item, Number, Result};

use super::super::{keys, read, update, update_error, write};
use super::text::{self, Placeholders};
use crate::expr::ast::{Condition, Path};
use crate::expr::eval::{self, evaluate};
use crate::expr::keycond::{self, KeyOp};
use crate::expr::{self, projection, ExprKind, Expression, Origin, Usage};

/// A small deterministic generator (xorshift64*), so that a failure reproduces.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Attribute names: plain, reserved words, with the characters of paths and placeholders, and
/// (rarely) the empty name, which is an error.
const NAMES: [&str; 10] = [
    "a", "b", "n", "status", "a.b", "l[0]", "#x", ":y", "s", "set",
];

fn number(text: &str) -> AttributeValue {
    AttributeValue::N(text.parse::<Number>().unwrap_or_default())
}

/// A value of any type; `broken` allows invalid ones (an empty set).
fn value(g: &mut Gen, depth: usize) -> AttributeValue {
    let strings = ["", "a", "ab", "abc", "b", "ba"];
    let numbers = ["1", "2", "-3", "10.5", "0"];
    match g.below(if depth > 1 { 5 } else { 11 }) {
        0 | 1 => AttributeValue::S((*g.pick(&strings)).to_owned()),
        2 | 3 => number(g.pick::<&str>(&numbers)),
        4 => AttributeValue::B(g.pick(&strings).as_bytes().to_vec()),
        5 => AttributeValue::Bool(g.chance(50)),
        6 => AttributeValue::Null,
        7 => AttributeValue::L((0..g.below(3)).map(|_| value(g, depth + 1)).collect()),
        8 => AttributeValue::M(
            (0..g.below(3))
                .map(|_| ((*g.pick(&NAMES)).to_owned(), value(g, depth + 1)))
                .collect(),
        ),
        9 => {
            let mut set: Vec<String> = (0..g.below(3))
                .map(|_| (*g.pick(&strings)).to_owned())
                .collect();
            set.sort();
            set.dedup();
            AttributeValue::Ss(set)
        }
        _ => {
            let mut set: Vec<Number> = (0..g.below(3) + 1)
                .map(|_| g.pick(&numbers).parse::<Number>().unwrap_or_default())
                .collect();
            set.sort();
            set.dedup();
            AttributeValue::Ns(set)
        }
    }
}

/// A scalar of one type (mostly), for operands of ordering operators.
fn scalar(g: &mut Gen, kind: usize) -> AttributeValue {
    match kind % 3 {
        0 => AttributeValue::S((*g.pick(&["", "a", "ab", "b", "c"])).to_owned()),
        1 => number(g.pick::<&str>(&["1", "2", "-3", "10.5"])),
        _ => AttributeValue::B(g.pick(&["a", "b", "ab"]).as_bytes().to_vec()),
    }
}

const OPS: [Op; 13] = [
    Op::Eq,
    Op::Ne,
    Op::Le,
    Op::Lt,
    Op::Ge,
    Op::Gt,
    Op::NotNull,
    Op::Null,
    Op::Contains,
    Op::NotContains,
    Op::BeginsWith,
    Op::In,
    Op::Between,
];

fn name(g: &mut Gen) -> String {
    if g.chance(2) {
        return String::new();
    }
    (*g.pick(&NAMES)).to_owned()
}

/// Operands for `op`: mostly the right count and types, sometimes not.
fn operands(g: &mut Gen, op: Op) -> Vec<AttributeValue> {
    let kind = g.below(3);
    let count = match op {
        _ if g.chance(8) => g.below(4),
        Op::NotNull | Op::Null => 0,
        Op::Between => 2,
        Op::In => 1 + g.below(4),
        _ => 1,
    };
    (0..count)
        .map(|_| {
            if g.chance(15) {
                value(g, 1)
            } else {
                scalar(g, kind)
            }
        })
        .collect()
}

fn legacy_condition(g: &mut Gen) -> LegacyCondition {
    let op = *g.pick(&OPS);
    LegacyCondition {
        comparison_operator: op,
        attribute_value_list: if g.chance(3) {
            None
        } else {
            Some(operands(g, op))
        },
    }
}

fn expected_value(g: &mut Gen) -> ExpectedAttributeValue {
    match g.below(6) {
        0 => ExpectedAttributeValue {
            value: Some(value(g, 1)),
            ..Default::default()
        },
        1 => ExpectedAttributeValue {
            exists: Some(g.chance(30)),
            value: g.chance(30).then(|| value(g, 1)),
            ..Default::default()
        },
        2 => {
            let op = *g.pick(&OPS);
            let mut list = operands(g, op);
            ExpectedAttributeValue {
                comparison_operator: Some(op),
                value: (list.len() == 1 && g.chance(50)).then(|| list.remove(0)),
                attribute_value_list: (!list.is_empty() || g.chance(50)).then_some(list),
                exists: g.chance(3).then_some(true),
            }
        }
        _ => {
            let c = legacy_condition(g);
            ExpectedAttributeValue {
                comparison_operator: Some(c.comparison_operator),
                attribute_value_list: c.attribute_value_list,
                value: g.chance(3).then(|| value(g, 1)),
                exists: None,
            }
        }
    }
}

fn conditional_operator(g: &mut Gen) -> Option<ConditionalOperator> {
    match g.below(4) {
        0 => Some(ConditionalOperator::And),
        1 => Some(ConditionalOperator::Or),
        _ => None,
    }
}

/// Items to evaluate on: attributes of every type under the generated names, and an empty item.
fn items(g: &mut Gen) -> Vec<Item> {
    let mut items = vec![Item::new()];
    for _ in 0..12 {
        let item: Item = (0..g.below(6) + 1)
            .map(|_| {
                let v = if g.chance(60) {
                    let kind = g.below(3);
                    scalar(g, kind)
                } else {
                    value(g, 1)
                };
                ((*g.pick(&NAMES)).to_owned(), v)
            })
            .collect();
        items.push(item);
    }
    items
}

/// An outcome both translations must agree on: the value, or the error's message.
fn outcome<T>(r: Result<T>) -> std::result::Result<T, String> {
    r.map_err(|e| e.message())
}

/// The earlier path of a condition: text, parsed and validated as a legacy translation was, then
/// evaluated with its placeholders.
fn text_condition(
    kind: ExprKind,
    text: Option<String>,
    p: &Placeholders,
) -> Result<Option<Condition>> {
    let Some(text) = text else {
        return Ok(None);
    };
    let ph = expr::Placeholders {
        names: &p.names,
        values: &p.values,
    };
    match expr::parse(kind, &text, Origin::Legacy)? {
        Expression::Condition(parsed) => {
            expr::validate::validate_condition(
                kind,
                &parsed,
                ph,
                &mut Usage::default(),
                Origin::Legacy,
            )?;
            Ok(Some(parsed.tree))
        }
        _ => Ok(None),
    }
}

fn eval_all(c: Option<&Condition>, items: &[Item], p: &Placeholders) -> Vec<bool> {
    let ph = expr::Placeholders {
        names: &p.names,
        values: &p.values,
    };
    items
        .iter()
        .map(|item| c.is_none_or(|c| evaluate(c, item, &ph)))
        .collect()
}

fn entries<T>(g: &mut Gen, max: usize, mut make: impl FnMut(&mut Gen) -> T) -> BTreeMap<String, T> {
    (0..g.below(max + 1)).map(|_| (name(g), make(g))).collect()
}

#[test]
fn expected_and_filters_evaluate_alike_in_both_translations() {
    let mut g = Gen(0x5EED_0001);
    let items = items(&mut g);
    let (mut valid, mut broken) = (0, 0);
    for case in 0..4000 {
        let op = conditional_operator(&mut g);
        let (old, new) = if case % 2 == 0 {
            let expected: Expected = entries(&mut g, 5, expected_value);
            let expected = (!g.chance(3)).then_some(expected);
            let mut p = Placeholders::default();
            let old = text::expected_condition(expected.as_ref(), op, &mut p)
                .and_then(|t| text_condition(ExprKind::Condition, t, &p))
                .map(|c| eval_all(c.as_ref(), &items, &p));
            let new = write::expected_condition(expected.clone(), op)
                .map(|c| eval_all(c.as_ref(), &items, &Placeholders::default()));
            (outcome(old), outcome(new))
        } else {
            let conditions: Conditions = entries(&mut g, 5, legacy_condition);
            let conditions = (!g.chance(3)).then_some(conditions);
            let mut p = Placeholders::default();
            let old = text::filter(conditions.as_ref(), op, &mut p)
                .and_then(|t| text_condition(ExprKind::Filter, t, &p))
                .map(|c| eval_all(c.as_ref(), &items, &p));
            let new = read::filter(conditions.clone(), op)
                .map(|c| eval_all(c.as_ref(), &items, &Placeholders::default()));
            (outcome(old), outcome(new))
        };
        assert_eq!(old, new, "case {case}");
        if old.is_ok() {
            valid += 1;
        } else {
            broken += 1;
        }
    }
    // The generator exercises both sides.
    assert!(
        valid > 1000 && broken > 1000,
        "{valid} valid, {broken} broken"
    );
}

/// A key condition as the query uses it: each term's attribute, operator and resolved values.
type Terms = Vec<(String, String, Vec<AttributeValue>)>;

fn terms(c: &Condition, p: &Placeholders) -> Result<Terms> {
    let ph = expr::Placeholders {
        names: &p.names,
        values: &p.values,
    };
    let narrowed = keycond::key_condition(c)?;
    let value = |op: &Option<crate::expr::ast::Operand>| {
        op.as_ref().and_then(|op| eval::value(op, &ph)).cloned()
    };
    Ok(narrowed
        .terms
        .iter()
        .map(|t| {
            let name = eval::top_name(&t.attribute, &ph)
                .unwrap_or_default()
                .to_owned();
            let (kind, values) = match &t.op {
                KeyOp::Eq(v) => ("=", vec![value(v)]),
                KeyOp::Lt(v) => ("<", vec![value(v)]),
                KeyOp::Le(v) => ("<=", vec![value(v)]),
                KeyOp::Gt(v) => (">", vec![value(v)]),
                KeyOp::Ge(v) => (">=", vec![value(v)]),
                KeyOp::Between(a, b) => ("BETWEEN", vec![value(a), value(b)]),
                KeyOp::BeginsWith(v) => ("begins_with", vec![value(v)]),
            };
            (
                name,
                kind.to_owned(),
                values.into_iter().flatten().collect(),
            )
        })
        .collect())
}

#[test]
fn key_conditions_narrow_and_evaluate_alike_in_both_translations() {
    let mut g = Gen(0x5EED_0002);
    let items = items(&mut g);
    let schemas: [Option<Vec<(String, ScalarAttributeType)>>; 3] = [
        None,
        Some(vec![("a".into(), ScalarAttributeType::S)]),
        Some(vec![
            ("a".into(), ScalarAttributeType::S),
            ("n".into(), ScalarAttributeType::N),
        ]),
    ];
    let mut valid = 0;
    for case in 0..3000 {
        let conditions: Conditions = (0..g.below(4))
            .map(|_| {
                (
                    (*g.pick(&["a", "n", "b", "status"])).to_owned(),
                    legacy_condition(&mut g),
                )
            })
            .collect();
        let schema = g.pick(&schemas).clone();
        let mut p = Placeholders::default();
        let old = text::key_condition(&conditions, || schema.clone(), &mut p)
            .and_then(|t| text_condition(ExprKind::KeyCondition, Some(t), &p))
            .and_then(|c| match c {
                Some(c) => Ok((terms(&c, &p)?, eval_all(Some(&c), &items, &p))),
                None => Err(dynomodel::Error::validation("no key condition")),
            });
        let none = Placeholders::default();
        let new = keys::key_condition(&conditions, || schema.clone())
            .and_then(|c| Ok((terms(&c, &none)?, eval_all(Some(&c), &items, &none))));
        let (old, new) = (outcome(old), outcome(new));
        assert_eq!(old, new, "case {case}: {conditions:?} on {schema:?}");
        valid += usize::from(old.is_ok());
    }
    assert!(valid > 150, "{valid} valid");
}

fn attribute_update(g: &mut Gen) -> AttributeValueUpdate {
    let action = match g.below(4) {
        0 => None,
        1 => Some(AttributeAction::Put),
        2 => Some(AttributeAction::Add),
        _ => Some(AttributeAction::Delete),
    };
    let value = match g.below(5) {
        0 => None,
        1 => Some(number(g.pick::<&str>(&["1", "-2", "0.5"]))),
        _ => Some(value(g, 1)),
    };
    AttributeValueUpdate { value, action }
}

#[test]
fn attribute_updates_apply_alike_in_both_translations() {
    let mut g = Gen(0x5EED_0003);
    let items = items(&mut g);
    let keys = ["s"];
    let mut valid = 0;
    for case in 0..3000 {
        let updates = entries(&mut g, 5, attribute_update);
        let mut p = Placeholders::default();
        let old = text::update_expression(&updates, &mut p).and_then(|t| {
            let ph = expr::Placeholders {
                names: &p.names,
                values: &p.values,
            };
            let Some(t) = t else {
                return Ok(None);
            };
            let Expression::Update(parsed) = expr::parse(ExprKind::Update, &t, Origin::Legacy)?
            else {
                return Ok(None);
            };
            expr::validate::validate_update(&parsed, ph, &mut Usage::default(), Origin::Legacy)?;
            Ok(Some(parsed.tree))
        });
        let new = update::expression(updates.clone());
        let apply = |tree: Option<crate::expr::ast::UpdateExpression>, p: &Placeholders| {
            let ph = expr::Placeholders {
                names: &p.names,
                values: &p.values,
            };
            items
                .iter()
                .map(|item| match &tree {
                    Some(t) => outcome(
                        expr::update::check_key_attributes(t, &ph, &keys)
                            .and_then(|()| {
                                expr::update::apply(
                                    std::borrow::Cow::Borrowed(t),
                                    item.clone(),
                                    &ph,
                                    true,
                                    &crate::validate::SetTables::default(),
                                    Item::new(),
                                )
                            })
                            .map(|u| (u.item, u.paths))
                            .map_err(update_error),
                    ),
                    None => Ok((item.clone(), Vec::new())),
                })
                .collect::<Vec<_>>()
        };
        let old = outcome(old).map(|t| apply(t, &p));
        let new = outcome(new).map(|t| apply(t, &Placeholders::default()));
        assert_eq!(old, new, "case {case}: {updates:?}");
        valid += usize::from(old.is_ok());
    }
    assert!(valid > 500, "{valid} valid");
}

#[test]
fn attributes_to_get_project_alike_in_both_translations() {
    let mut g = Gen(0x5EED_0004);
    let items = items(&mut g);
    for case in 0..1000 {
        let attributes: Vec<String> = (0..g.below(5)).map(|_| name(&mut g)).collect();
        let mut p = Placeholders::default();
        let project = |paths: Option<Vec<Path>>, p: &Placeholders| {
            let ph = expr::Placeholders {
                names: &p.names,
                values: &p.values,
            };
            paths.map(|paths| {
                let steps = crate::read::projection_steps(&paths, &ph);
                items
                    .iter()
                    .map(|i| projection::project(i, &steps))
                    .collect::<Vec<_>>()
            })
        };
        let old = text::projection(&attributes, &mut p).and_then(|t| {
            let Some(t) = t else {
                return Ok(None);
            };
            let ph = expr::Placeholders {
                names: &p.names,
                values: &p.values,
            };
            let Expression::Projection(parsed) =
                expr::parse(ExprKind::Projection, &t, Origin::Legacy)?
            else {
                return Ok(None);
            };
            expr::validate::validate_projection(
                &parsed,
                ph,
                &mut Usage::default(),
                Origin::Legacy,
            )?;
            Ok(Some(parsed.tree.paths))
        });
        let old = outcome(old).map(|paths| project(paths, &p));
        let new = outcome(read::projection(attributes.clone()))
            .map(|paths| project(paths, &Placeholders::default()));
        assert_eq!(old, new, "case {case}: {attributes:?}");
    }
}
