//! The legacy forms of the requests the generator makes: PutItem and DeleteItem with
//! `Expected`, UpdateItem with `AttributeUpdates` (and `Expected`), GetItem, Query and Scan with
//! `AttributesToGet`, Query with `KeyConditions` and `QueryFilter`, Scan with `ScanFilter`, and
//! `ConditionalOperator`. Every request is well-formed: what is compared is what the conditions and
//! updates mean (and the run-time errors, such as an ADD to an attribute of another type).

use dynomodel::backend::{
    AttributeAction, AttributeUpdates, AttributeValueUpdate, ComparisonOperator,
    ConditionalOperator, Conditions, Expected, ExpectedAttributeValue, LegacyCondition,
    ReturnValue, ScalarAttributeType,
};
use dynomodel::AttributeValue;

use super::expressions::{bounds, scalar};
use super::items::{key_value, number, random_item, random_key, random_value, ATTRIBUTE_NAMES};
use super::{Exprs, Op, TableRef, TableSpec};
use crate::rng::Rng;

/// The legacy members of one request (all absent by default).
#[derive(Debug, Clone, Default)]
pub(crate) struct Legacy {
    pub expected: Option<Expected>,
    pub conditional_operator: Option<ConditionalOperator>,
    pub attribute_updates: Option<AttributeUpdates>,
    pub attributes_to_get: Option<Vec<String>>,
    pub key_conditions: Option<Conditions>,
    /// `QueryFilter` or `ScanFilter`.
    pub filter: Option<Conditions>,
}

/// `count` operations in legacy form over `tables`.
pub(crate) fn operations(rng: &mut Rng, tables: &[TableSpec], count: usize) -> Vec<Op> {
    (0..count).map(|_| operation(rng, tables)).collect()
}

fn operation(rng: &mut Rng, tables: &[TableSpec]) -> Op {
    let index = rng.below(tables.len());
    let spec = &tables[index];
    let table = if rng.chance(5) {
        TableRef::Missing
    } else {
        TableRef::Table(index)
    };
    let exprs = |legacy: Legacy| Exprs {
        legacy,
        ..Exprs::default()
    };
    match rng.below(100) {
        0..=24 => Op::Put {
            table,
            item: random_item(rng, spec, false),
            exprs: exprs(expected(rng, spec)),
            return_values: Some(ReturnValue::AllOld),
            old_on_failure: rng.chance(30),
        },
        25..=34 => Op::Delete {
            table,
            key: random_key(rng, spec),
            exprs: exprs(expected(rng, spec)),
            return_values: Some(ReturnValue::AllOld),
            old_on_failure: false,
        },
        35..=64 => {
            let mut legacy = if rng.chance(30) {
                expected(rng, spec)
            } else {
                Legacy::default()
            };
            legacy.attribute_updates = Some(updates(rng, spec));
            Op::Update {
                table,
                key: random_key(rng, spec),
                exprs: exprs(legacy),
                return_values: Some(*rng.pick(&[
                    ReturnValue::AllNew,
                    ReturnValue::UpdatedNew,
                    ReturnValue::UpdatedOld,
                ])),
                old_on_failure: false,
            }
        }
        65..=74 => Op::Get {
            table,
            key: random_key(rng, spec),
            consistent: true,
            exprs: exprs(Legacy {
                attributes_to_get: Some(attribute_names(rng, spec)),
                ..Legacy::default()
            }),
        },
        75..=89 => {
            let (filter, op) = filter(rng, spec);
            Op::Query {
                table,
                index: None,
                exprs: exprs(Legacy {
                    key_conditions: Some(key_conditions(rng, spec)),
                    filter,
                    conditional_operator: op,
                    attributes_to_get: rng.chance(30).then(|| attribute_names(rng, spec)),
                    ..Legacy::default()
                }),
                select: None,
                forward: Some(rng.chance(50)),
                limit: None,
                consistent: Some(true),
            }
        }
        _ => {
            let (filter, op) = filter(rng, spec);
            Op::Scan {
                table,
                index: None,
                exprs: exprs(Legacy {
                    filter,
                    conditional_operator: op,
                    attributes_to_get: rng.chance(30).then(|| attribute_names(rng, spec)),
                    ..Legacy::default()
                }),
                select: None,
                limit: None,
                consistent: Some(true),
                segments: super::Segments::Whole,
            }
        }
    }
}

/// A non-key attribute name.
fn attribute(rng: &mut Rng) -> String {
    (*rng.pick(ATTRIBUTE_NAMES)).to_owned()
}

/// One to three distinct names, keys included now and then.
fn attribute_names(rng: &mut Rng, spec: &TableSpec) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for _ in 0..=rng.below(3) {
        let name = if rng.chance(20) {
            spec.hash.0.clone()
        } else {
            attribute(rng)
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// A comparison of a random operator with operands of types it accepts.
fn comparison(rng: &mut Rng) -> (ComparisonOperator, Vec<AttributeValue>) {
    use ComparisonOperator::*;
    let ty = *rng.pick(&[
        ScalarAttributeType::S,
        ScalarAttributeType::N,
        ScalarAttributeType::B,
    ]);
    let op = *rng.pick(&ComparisonOperator::ALL);
    let args = match op {
        Null | NotNull => Vec::new(),
        Between => {
            let (lo, hi) = bounds(rng, ty, false);
            vec![lo, hi]
        }
        In => (0..=rng.below(3)).map(|_| key_value(rng, ty)).collect(),
        BeginsWith if ty == ScalarAttributeType::N => vec![key_value(rng, ScalarAttributeType::S)],
        Eq | Ne if rng.chance(20) => vec![random_value(rng, 1)],
        // DynamoDB Local's legacy CONTAINS matches binaries as text (bytes that are not UTF-8 all
        // match one another), where its own `contains()` and the engine compare bytes:
        // tests/dual/deviations.md. Binary operands stay out of these two operators here.
        Contains | NotContains => {
            let text_or_number = *rng.pick(&[ScalarAttributeType::S, ScalarAttributeType::N]);
            vec![key_value(rng, text_or_number)]
        }
        _ => vec![scalar(rng)],
    };
    (op, args)
}

fn conditional_operator(rng: &mut Rng, conditions: usize) -> Option<ConditionalOperator> {
    if conditions < 2 || rng.chance(30) {
        return None;
    }
    Some(*rng.pick(&[ConditionalOperator::And, ConditionalOperator::Or]))
}

/// `Expected` with one to three entries (Exists false, Value, or a comparison) half of the time.
fn expected(rng: &mut Rng, spec: &TableSpec) -> Legacy {
    if rng.chance(40) {
        return Legacy::default();
    }
    let mut expected = Expected::new();
    for _ in 0..=rng.below(3) {
        let name = if rng.chance(20) {
            spec.hash.0.clone()
        } else {
            attribute(rng)
        };
        let entry = match rng.below(3) {
            0 => ExpectedAttributeValue {
                exists: Some(false),
                ..Default::default()
            },
            1 => ExpectedAttributeValue {
                value: Some(scalar(rng)),
                exists: rng.chance(50).then_some(true),
                ..Default::default()
            },
            _ => {
                let (op, args) = comparison(rng);
                ExpectedAttributeValue {
                    comparison_operator: Some(op),
                    attribute_value_list: (!args.is_empty() || rng.chance(50)).then_some(args),
                    ..Default::default()
                }
            }
        };
        expected.insert(name, entry);
    }
    let op = conditional_operator(rng, expected.len());
    Legacy {
        expected: Some(expected),
        conditional_operator: op,
        ..Legacy::default()
    }
}

/// One to three updates of non-key attributes, each with an explicit Action (DynamoDB Local ignores
/// an entry without one: tests/dual/deviations.md).
fn updates(rng: &mut Rng, spec: &TableSpec) -> AttributeUpdates {
    let mut updates = AttributeUpdates::new();
    for _ in 0..=rng.below(3) {
        let name = attribute(rng);
        if spec.key_names().contains(&name) {
            continue;
        }
        let update = match rng.below(6) {
            0 | 1 => AttributeValueUpdate {
                value: Some(random_value(rng, 2)),
                action: Some(AttributeAction::Put),
            },
            2 => AttributeValueUpdate {
                value: None,
                action: Some(AttributeAction::Delete),
            },
            3 => AttributeValueUpdate {
                value: Some(AttributeValue::Ss(vec![
                    (*rng.pick(&["a", "b", "c"])).to_owned()
                ])),
                action: Some(*rng.pick(&[AttributeAction::Add, AttributeAction::Delete])),
            },
            4 => AttributeValueUpdate {
                value: Some(AttributeValue::N(number(
                    rng.pick::<&str>(&["1", "-2.5", "10"]),
                ))),
                action: Some(AttributeAction::Add),
            },
            _ => AttributeValueUpdate {
                value: Some(AttributeValue::L(vec![scalar(rng)])),
                action: Some(AttributeAction::Add),
            },
        };
        updates.insert(name, update);
    }
    // Only DELETEs would create nothing on a missing item, where DynamoDB Local creates the key-only
    // item (the rule is covered by the dual suite): one PUT as well.
    let deletes_only = updates
        .values()
        .all(|u| u.action == Some(AttributeAction::Delete));
    let keys = spec.key_names();
    let spare = ATTRIBUTE_NAMES
        .iter()
        .find(|n| !updates.contains_key(**n) && !keys.iter().any(|k| k == *n));
    if deletes_only
        && !updates.is_empty()
        && let Some(name) = spare
    {
        let put = AttributeValueUpdate {
            value: Some(scalar(rng)),
            action: Some(AttributeAction::Put),
        };
        updates.insert((*name).to_owned(), put);
    }
    updates
}

/// EQ on the partition key, and now and then a condition on the sort key.
fn key_conditions(rng: &mut Rng, spec: &TableSpec) -> Conditions {
    use ComparisonOperator::*;
    let mut conditions = Conditions::new();
    conditions.insert(
        spec.hash.0.clone(),
        LegacyCondition {
            comparison_operator: Eq,
            attribute_value_list: Some(vec![key_value(rng, spec.hash.1)]),
        },
    );
    if let Some((name, ty)) = &spec.range
        && rng.chance(60)
    {
        let mut ops = vec![Eq, Lt, Le, Gt, Ge, Between];
        if *ty != ScalarAttributeType::N {
            ops.push(BeginsWith);
        }
        let op = *rng.pick(&ops);
        let args = match op {
            Between => {
                let (lo, hi) = bounds(rng, *ty, false);
                vec![lo, hi]
            }
            _ => vec![key_value(rng, *ty)],
        };
        conditions.insert(
            name.clone(),
            LegacyCondition {
                comparison_operator: op,
                attribute_value_list: Some(args),
            },
        );
    }
    conditions
}

/// A filter on non-key attributes half of the time, with its ConditionalOperator.
fn filter(rng: &mut Rng, spec: &TableSpec) -> (Option<Conditions>, Option<ConditionalOperator>) {
    if rng.chance(50) {
        return (None, None);
    }
    let keys = spec.key_names();
    let mut conditions = Conditions::new();
    for _ in 0..=rng.below(3) {
        let name = attribute(rng);
        if keys.contains(&name) {
            continue;
        }
        let (op, args) = comparison(rng);
        conditions.insert(
            name,
            LegacyCondition {
                comparison_operator: op,
                attribute_value_list: (!args.is_empty()).then_some(args),
            },
        );
    }
    if conditions.is_empty() {
        return (None, None);
    }
    let op = conditional_operator(rng, conditions.len());
    (Some(conditions), op)
}
