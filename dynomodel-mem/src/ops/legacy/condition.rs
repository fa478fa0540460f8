//! The legacy conditions (`Expected`, `QueryFilter`, `ScanFilter`, `KeyConditions`): DynamoDB's checks
//! of each one, with its legacy texts, and its translation into ConditionExpression syntax.
//!
//! Texts and order: dynalite's `validateAttributeConditions` and `validateConditions` (recorded against
//! DynamoDB), confirmed against DynamoDB Local 3.3. Allowed operand types are the API reference's
//! (`Condition`: EQ and NE "supported for all data types, including lists and maps"; CONTAINS,
//! NOT_CONTAINS, the ordering operators, IN and BETWEEN S, N or B; BEGINS_WITH S or B). DynamoDB Local
//! also lets CONTAINS and NOT_CONTAINS take BOOL and NULL (tests/dual/deviations.md).

use std::cmp::Ordering;

use dynomodel::backend::{
    ComparisonOperator, ConditionalOperator, ExpectedAttributeValue, LegacyCondition,
};
use dynomodel::{AttributeValue, Error, Result};

use super::Placeholders;
use crate::expr::eval::compare_values;
use crate::validate;

/// DynamoDB's prefix of most legacy parameter errors.
pub(crate) const INVALID: &str = "One or more parameter values were invalid: ";

/// One condition, as checked and translated: the operator and its operands.
struct Comparison<'a> {
    op: ComparisonOperator,
    args: Vec<&'a AttributeValue>,
}

fn arity_ok(op: ComparisonOperator, n: usize) -> bool {
    use ComparisonOperator::*;
    match op {
        Null | NotNull => n == 0,
        In => n >= 1,
        Between => n == 2,
        Eq | Ne | Le | Lt | Ge | Gt | Contains | NotContains | BeginsWith => n == 1,
    }
}

fn type_ok(op: ComparisonOperator, v: &AttributeValue) -> bool {
    use AttributeValue as V;
    use ComparisonOperator::*;
    match op {
        Eq | Ne | Null | NotNull => true,
        Contains | NotContains | Le | Lt | Ge | Gt | In | Between => {
            matches!(v, V::S(_) | V::N(_) | V::B(_))
        }
        BeginsWith => matches!(v, V::S(_) | V::B(_)),
    }
}

/// The operator's argument count: "Invalid number of argument(s) for the EQ ComparisonOperator", in
/// every legacy condition (`KeyConditions` included: DynamoDB Local 3.3.1 and recordings of the service).
pub(super) fn arity(op: ComparisonOperator, n: usize) -> Result<()> {
    if arity_ok(op, n) {
        return Ok(());
    }
    Err(Error::validation(format!(
        "{INVALID}Invalid number of argument(s) for the {} ComparisonOperator",
        op.as_str()
    )))
}

/// The checks every comparison makes once its operands are known: argument count, one type for all,
/// the operator's types, BETWEEN's order.
fn check(c: &Comparison<'_>) -> Result<()> {
    let op = c.op.as_str();
    for v in &c.args {
        validate::expression_value(v)?;
    }
    arity(c.op, c.args.len())?;
    if let Some(first) = c.args.first()
        && c.args.iter().any(|v| v.type_name() != first.type_name())
    {
        return Err(Error::validation(format!(
            "{INVALID}AttributeValues inside AttributeValueList must be of same type"
        )));
    }
    if let Some(v) = c.args.iter().find(|v| !type_ok(c.op, v)) {
        return Err(Error::validation(format!(
            "{INVALID}ComparisonOperator {op} is not valid for {} AttributeValue type",
            v.type_name()
        )));
    }
    if let [lo, hi] = c.args.as_slice()
        && c.op == ComparisonOperator::Between
        && compare_values(lo, hi) == Some(Ordering::Greater)
    {
        return Err(Error::validation(
            "The BETWEEN condition was provided a range where the lower bound is greater than the \
             upper bound",
        ));
    }
    Ok(())
}

/// The ConditionExpression form of one comparison on the attribute `name`.
fn render(name: &str, c: &Comparison<'_>, p: &mut Placeholders) -> String {
    use ComparisonOperator::*;
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
        // A missing attribute does not meet NOT_CONTAINS (DynamoDB Local), where `NOT contains(…)`
        // alone would hold.
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

/// Checks one `KeyConditions`/`QueryFilter`/`ScanFilter` entry and returns its expression.
pub(crate) fn condition(name: &str, c: &LegacyCondition, p: &mut Placeholders) -> Result<String> {
    validate::attribute_name(name)?;
    let cmp = Comparison {
        op: c.comparison_operator,
        args: c.attribute_value_list.iter().flatten().collect(),
    };
    check(&cmp)?;
    Ok(render(name, &cmp, p))
}

/// Checks one `Expected` entry and returns its expression.
pub(crate) fn expected(
    name: &str,
    e: &ExpectedAttributeValue,
    p: &mut Placeholders,
) -> Result<String> {
    validate::attribute_name(name)?;
    if e.value.is_some() && e.attribute_value_list.is_some() {
        return Err(Error::validation(format!(
            "{INVALID}Value and AttributeValueList cannot be used together for Attribute: {name}"
        )));
    }
    if let Some(op) = e.comparison_operator {
        if e.exists.is_some() {
            return Err(Error::validation(format!(
                "{INVALID}Exists and ComparisonOperator cannot be used together for Attribute: {name}"
            )));
        }
        let cmp = Comparison {
            op,
            args: match (&e.value, &e.attribute_value_list) {
                (Some(v), _) => vec![v],
                (None, list) => list.iter().flatten().collect(),
            },
        };
        let no_operands = e.value.is_none() && e.attribute_value_list.is_none();
        if no_operands && !matches!(op, ComparisonOperator::Null | ComparisonOperator::NotNull) {
            return Err(Error::validation(format!(
                "{INVALID}Value or AttributeValueList must be used with ComparisonOperator: {} for \
                 Attribute: {name}",
                op.as_str()
            )));
        }
        check(&cmp)?;
        return Ok(render(name, &cmp, p));
    }
    if e.attribute_value_list.is_some() {
        return Err(Error::validation(format!(
            "{INVALID}AttributeValueList can only be used with a ComparisonOperator for Attribute: {name}"
        )));
    }
    match (e.exists, &e.value) {
        (Some(false), None) => Ok(format!("attribute_not_exists({})", p.name(name))),
        (Some(false), Some(_)) => Err(Error::validation(format!(
            "{INVALID}Value cannot be used when Exists is false for Attribute: {name}"
        ))),
        (exists, None) => Err(Error::validation(format!(
            "{INVALID}Value must be provided when Exists is {} for Attribute: {name}",
            if exists.is_some() { "true" } else { "null" }
        ))),
        (_, Some(v)) => {
            validate::expression_value(v)?;
            let (n, v) = (p.name(name), p.value(v.clone()));
            Ok(format!("{n} = {v}"))
        }
    }
}

/// Joins conditions with `ConditionalOperator` (AND by default), each in parentheses, as a balanced
/// tree: neighbours are paired level by level (`((a) AND (b)) AND ((c) AND (d))`), so that the tree
/// the parser builds is log2(n) deep rather than n. A legacy translation has no operator limit, and
/// the evaluator recurses on the tree: 100,000 `Expected` entries chained one after another would
/// overflow the stack. AND and OR are associative and the conditions keep their order, so the
/// meaning, the order of evaluation and the order of validation errors are those of the flat chain.
pub(crate) fn join(parts: Vec<String>, op: Option<ConditionalOperator>) -> Option<String> {
    if parts.is_empty() {
        return None;
    }
    let sep = match op.unwrap_or_default() {
        ConditionalOperator::And => " AND ",
        ConditionalOperator::Or => " OR ",
    };
    // Written once, into one string: pairing level by level rebuilt the whole text at each of the
    // log2(n) levels. The tree is the same: the level-by-level pairing puts the first 2^(k-1) of n
    // conditions (2^k ≥ n > 2^(k-1)) left of the root and the rest right, and so on down.
    let length = parts.iter().map(|p| p.len() + sep.len() + 4).sum();
    let mut out = String::with_capacity(length);
    write_tree(&parts, sep, true, &mut out);
    Some(out)
}

/// The balanced tree of `parts` (see [`join`]); `root`: without parentheses around it.
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

/// `ConditionalOperator` needs at least two conditions to combine (`count` is `None` when the request
/// has no `Expected`/filter at all).
pub(crate) fn conditional_operator(
    op: Option<ConditionalOperator>,
    count: Option<usize>,
) -> Result<()> {
    match (op, count) {
        (None, _) => Ok(()),
        (Some(_), None) => Err(Error::validation(
            "ConditionalOperator cannot be used without Filter or Expected",
        )),
        (Some(_), Some(n)) if n < 2 => Err(Error::validation(
            "ConditionalOperator can only be used when Filter or Expected has two or more elements",
        )),
        _ => Ok(()),
    }
}
