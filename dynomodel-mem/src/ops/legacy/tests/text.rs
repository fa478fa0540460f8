//! The earlier translation of the legacy parameters: expression text with generated `#legacyN` /
//! `:legacyN` placeholders, which the engine then parsed and validated as an expression. Kept in test
//! builds only, as the differential test's oracle (`differential.rs`): it shares the legacy checks
//! with the tree translation and differs only in what it builds.

use std::collections::BTreeMap;

use dynomodel::backend::{
    AttributeUpdates, ComparisonOperator, ConditionalOperator, Conditions, Expected,
    ExpectedAttributeValue, ExpressionAttributeNames, LegacyCondition, ScalarAttributeType,
};
use dynomodel::{AttributeValue, Item, Result};

use super::super::condition::{self, Form};
use super::super::{keys, read, update};

/// Generated placeholders.
#[derive(Debug, Default)]
pub(super) struct Placeholders {
    pub(super) names: ExpressionAttributeNames,
    by_name: BTreeMap<String, String>,
    pub(super) values: Item,
    next: usize,
}

impl Placeholders {
    fn fresh(&mut self, sigil: char) -> String {
        let key = format!("{sigil}legacy{}", self.next);
        self.next += 1;
        key
    }

    /// The placeholder for the attribute `name` (one per name).
    fn name(&mut self, name: &str) -> String {
        if let Some(key) = self.by_name.get(name) {
            return key.clone();
        }
        let key = self.fresh('#');
        self.names.insert(key.clone(), name.to_owned());
        self.by_name.insert(name.to_owned(), key.clone());
        key
    }

    /// A new placeholder for `value`.
    fn value(&mut self, value: AttributeValue) -> String {
        let key = self.fresh(':');
        self.values.insert(key.clone(), value);
        key
    }
}

/// The ConditionExpression form of one checked condition on the attribute `name`.
fn render(name: &str, form: &Form<'_>, p: &mut Placeholders) -> String {
    use ComparisonOperator::*;
    let c = match form {
        Form::Absent => return format!("attribute_not_exists({})", p.name(name)),
        Form::Compare(c) => c,
    };
    let n = p.name(name);
    let mut vals = c.args.iter().map(|v| p.value((*v).clone()));
    let mut next = || vals.next().unwrap_or_default();
    match c.op {
        Eq => format!("{n} = {}", next()),
        Ne => format!("{n} <> {}", next()),
        Le => format!("{n} <= {}", next()),
        Lt => format!("{n} < {}", next()),
        Ge => format!("{n} >= {}", next()),
        Gt => format!("{n} > {}", next()),
        NotNull => format!("attribute_exists({n})"),
        Null => format!("attribute_not_exists({n})"),
        Contains => format!("contains({n}, {})", next()),
        NotContains => format!("attribute_exists({n}) AND NOT contains({n}, {})", next()),
        BeginsWith => format!("begins_with({n}, {})", next()),
        Between => {
            let lo = next();
            format!("{n} BETWEEN {lo} AND {}", next())
        }
        In => {
            let list: Vec<String> = std::iter::from_fn(|| vals.next()).collect();
            format!("{n} IN ({})", list.join(", "))
        }
    }
}

/// One `KeyConditions`/`QueryFilter`/`ScanFilter` entry as text.
pub(super) fn condition(name: &str, c: &LegacyCondition, p: &mut Placeholders) -> Result<String> {
    Ok(render(name, &condition::checked(name, c)?, p))
}

/// One `Expected` entry as text.
pub(super) fn expected(
    name: &str,
    e: &ExpectedAttributeValue,
    p: &mut Placeholders,
) -> Result<String> {
    Ok(render(name, &condition::checked_expected(name, e)?, p))
}

/// Conditions joined with `ConditionalOperator`, each in parentheses, as a balanced tree.
pub(super) fn join(parts: Vec<String>, op: Option<ConditionalOperator>) -> Option<String> {
    if parts.is_empty() {
        return None;
    }
    let sep = match op.unwrap_or_default() {
        ConditionalOperator::And => " AND ",
        ConditionalOperator::Or => " OR ",
    };
    let mut out = String::new();
    write_tree(&parts, sep, true, &mut out);
    Some(out)
}

fn write_tree(parts: &[String], sep: &str, root: bool, out: &mut String) {
    if let [only] = parts {
        out.push('(');
        out.push_str(only);
        out.push(')');
        return;
    }
    let half = parts.len().next_power_of_two() / 2;
    if !root {
        out.push('(');
    }
    write_tree(&parts[..half], sep, false, out);
    out.push_str(sep);
    write_tree(&parts[half..], sep, false, out);
    if !root {
        out.push(')');
    }
}

/// `Expected` as a ConditionExpression.
pub(super) fn expected_condition(
    expected: Option<&Expected>,
    op: Option<ConditionalOperator>,
    p: &mut Placeholders,
) -> Result<Option<String>> {
    condition::conditional_operator(op, expected.map(Expected::len))?;
    let mut parts = Vec::new();
    for (name, e) in expected.into_iter().flatten() {
        parts.push(self::expected(name, e, p)?);
    }
    Ok(join(parts, op))
}

/// A filter (`QueryFilter`, `ScanFilter`) as a FilterExpression.
pub(super) fn filter(
    conditions: Option<&Conditions>,
    op: Option<ConditionalOperator>,
    p: &mut Placeholders,
) -> Result<Option<String>> {
    let mut parts = Vec::new();
    for (name, c) in conditions.into_iter().flatten() {
        parts.push(self::condition(name, c, p)?);
    }
    condition::conditional_operator(op, conditions.map(Conditions::len))?;
    Ok(join(parts, op))
}

/// `KeyConditions` as a KeyConditionExpression.
pub(super) fn key_condition(
    conditions: &Conditions,
    key_schema: impl FnOnce() -> Option<Vec<(String, ScalarAttributeType)>>,
    p: &mut Placeholders,
) -> Result<String> {
    let mut parts = Vec::new();
    for (name, c) in keys::ordered(conditions, key_schema)? {
        parts.push(self::condition(name, c, p)?);
    }
    Ok(parts.join(" AND "))
}

/// `AttributeUpdates` as an UpdateExpression.
pub(super) fn update_expression(
    updates: &AttributeUpdates,
    p: &mut Placeholders,
) -> Result<Option<String>> {
    let (mut set, mut remove, mut add, mut delete) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (name, u) in updates {
        match update::checked(name, u.clone())? {
            update::Action::Remove => remove.push(p.name(name)),
            update::Action::Put(v) => {
                let (n, v) = (p.name(name), p.value(v.clone()));
                set.push(format!("{n} = {v}"));
            }
            update::Action::Append(v) => {
                let n = p.name(name);
                let empty = p.value(AttributeValue::L(Vec::new()));
                let v = p.value(v.clone());
                set.push(format!(
                    "{n} = list_append(if_not_exists({n}, {empty}), {v})"
                ));
            }
            update::Action::Add(v) => {
                let (n, v) = (p.name(name), p.value(v.clone()));
                add.push(format!("{n} {v}"));
            }
            update::Action::Delete(v) => {
                let (n, v) = (p.name(name), p.value(v.clone()));
                delete.push(format!("{n} {v}"));
            }
        }
    }
    let clauses: Vec<String> = [
        ("SET", set),
        ("REMOVE", remove),
        ("ADD", add),
        ("DELETE", delete),
    ]
    .into_iter()
    .filter(|(_, actions)| !actions.is_empty())
    .map(|(word, actions)| format!("{word} {}", actions.join(", ")))
    .collect();
    Ok((!clauses.is_empty()).then(|| clauses.join(" ")))
}

/// `AttributesToGet` as a ProjectionExpression.
pub(super) fn projection(attributes: &[String], p: &mut Placeholders) -> Result<Option<String>> {
    read::check_attributes(attributes)?;
    let names: Vec<String> = attributes.iter().map(|a| p.name(a)).collect();
    Ok((!names.is_empty()).then(|| names.join(", ")))
}
