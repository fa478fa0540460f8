//! `KeyConditions`: the argument count (the filters' text), the key schema rules (the partition key by
//! EQ, the sort key by EQ, LE, LT, GE, GT, BEGINS_WITH or BETWEEN), and the KeyConditionExpression it
//! stands for.
//!
//! Texts: the argument count is worded as in every legacy condition ("Invalid number of argument(s)
//! for the EQ ComparisonOperator": DynamoDB Local 3.3.1 and recordings of the service; dynalite's older
//! recording had "The attempted filter operation is not supported for the provided filter argument
//! count"); the length checks are dynalite's recordings (`test/query.js`); the schema texts are
//! DynamoDB Local 3.3's: more conditions than the table or index has keys (`{x, p}` on an index keyed
//! by `x` alone) is "Query key condition not supported" (a recording of the service agrees), a condition on
//! another attribute in place of a key "Query condition missed key schema element".

use dynomodel::backend::{ComparisonOperator, Conditions, LegacyCondition, ScalarAttributeType};
use dynomodel::{Error, Result};

use super::condition::{self, INVALID};
use crate::expr::ast::Condition;
use crate::read::scalar_type;

/// KeyConditions' argument-count rule, the filters' one.
fn arity(c: &LegacyCondition) -> Result<()> {
    let n = c.attribute_value_list.as_ref().map_or(0, Vec::len);
    condition::arity(c.comparison_operator, n)
}

fn missed() -> Error {
    Error::validation("Query condition missed key schema element")
}

fn not_supported() -> Error {
    Error::validation("Query key condition not supported")
}

/// The rules for the condition on one key attribute of type `ty`.
fn check_key(c: &LegacyCondition, hash: bool, ty: ScalarAttributeType) -> Result<()> {
    use ComparisonOperator::*;
    let role = if hash { "Hash" } else { "Range" };
    match c.comparison_operator {
        Null | NotNull => {
            return Err(Error::validation(format!(
                "Only scalar types can be used as {role} Key values"
            )));
        }
        Eq => {}
        _ if hash => return Err(not_supported()),
        Le | Lt | Ge | Gt | BeginsWith | Between => {}
        Ne | In | Contains | NotContains => {
            return Err(Error::validation(
                "Attempted conditional constraint is not an indexable operation",
            ));
        }
    }
    let mistyped = c
        .attribute_value_list
        .iter()
        .flatten()
        .any(|v| scalar_type(v) != Some(ty));
    if mistyped {
        return Err(Error::validation(format!(
            "{INVALID}Condition parameter type does not match schema type"
        )));
    }
    Ok(())
}

/// The conditions checked against the key schema `key_schema` gives, hash key first (in the map's
/// order when the table or index is unknown: the query then reports that).
pub(super) fn ordered(
    conditions: &Conditions,
    key_schema: impl FnOnce() -> Option<Vec<(String, ScalarAttributeType)>>,
) -> Result<Vec<(&String, &LegacyCondition)>> {
    conditions.values().try_for_each(arity)?;
    if conditions.is_empty() {
        return Err(Error::validation("Conditions must be at least length 1"));
    }
    if conditions.len() > 2 {
        return Err(Error::validation("Conditions can be of length 1 or 2 only"));
    }
    let mut ordered: Vec<(&String, &LegacyCondition)> = conditions.iter().collect();
    if let Some(schema) = key_schema() {
        let role = |name: &str| schema.iter().position(|(k, _)| k == name);
        // More conditions than the table or index has keys: one is on an attribute outside them.
        if conditions.len() > schema.len() {
            return Err(not_supported());
        }
        let hash = schema.first().ok_or_else(missed)?;
        if !conditions.contains_key(&hash.0) {
            return Err(missed());
        }
        for (name, c) in conditions {
            let i = role(name).ok_or_else(missed)?;
            check_key(c, i == 0, schema[i].1)?;
        }
        ordered.sort_by_key(|(name, _)| role(name));
    }
    Ok(ordered)
}

/// The key condition `conditions` stand for, checked against the key schema `key_schema` gives
/// (hash key first).
pub(crate) fn key_condition(
    conditions: &Conditions,
    key_schema: impl FnOnce() -> Option<Vec<(String, ScalarAttributeType)>>,
) -> Result<Condition> {
    let mut tree: Option<Condition> = None;
    for (name, c) in ordered(conditions, key_schema)? {
        // At most two conditions of one or two values: copied from the borrowed request.
        let next = condition::condition(name.clone(), c.clone())?;
        tree = Some(match tree {
            None => next,
            Some(first) => Condition::And(Box::new(first), Box::new(next)),
        });
    }
    // `ordered` refuses an empty map.
    tree.ok_or_else(|| Error::validation("Conditions must be at least length 1"))
}
