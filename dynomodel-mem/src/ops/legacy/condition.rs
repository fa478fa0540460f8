//! The legacy conditions (`Expected`, `QueryFilter`, `ScanFilter`, `KeyConditions`): DynamoDB's checks
//! of each one, with its legacy texts, and the condition tree it stands for.
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

use super::tree;
use crate::expr::ast::{Comparator, Condition, Operand};
use crate::expr::eval::compare_values;
use crate::validate;

/// DynamoDB's prefix of most legacy parameter errors.
pub(crate) const INVALID: &str = "One or more parameter values were invalid: ";

/// One condition, as checked: the operator and its operands (borrowed from the request: a vector
/// of them per condition was an allocation per entry).
pub(super) struct Comparison<'a> {
    pub(super) op: ComparisonOperator,
    pub(super) args: &'a [AttributeValue],
}

/// What one legacy condition asks of its attribute, once checked.
pub(super) enum Form<'a> {
    /// A comparison (`ComparisonOperator` with its operands).
    Compare(Comparison<'a>),
    /// `Exists: false`: the attribute is absent.
    Absent,
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
    Err(arity_error(op))
}

fn arity_error(op: ComparisonOperator) -> Error {
    Error::validation(format!(
        "{INVALID}Invalid number of argument(s) for the {} ComparisonOperator",
        op.as_str()
    ))
}

/// The checks every comparison makes once its operands are known: argument count, one type for all,
/// the operator's types, BETWEEN's order.
fn check(c: &Comparison<'_>) -> Result<()> {
    let op = c.op.as_str();
    for v in c.args {
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
    if let [lo, hi] = c.args
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

/// What [`build`] needs of a checked [`Form`], without its borrow of the request: the caller that
/// owns the entry moves its operands into the tree once the check is done.
#[derive(Clone, Copy)]
enum Shape {
    /// A comparison: the operator and its operands' count.
    Compare(ComparisonOperator, usize),
    /// `Exists: false`.
    Absent,
}

impl Form<'_> {
    fn shape(&self) -> Shape {
        match self {
            Form::Compare(c) => Shape::Compare(c.op, c.args.len()),
            Form::Absent => Shape::Absent,
        }
    }
}

/// The condition tree of one checked condition on the attribute `name` (moved into its path: only
/// NOT_CONTAINS names it twice), its operands taken in order from `operands` (the checked form's:
/// the request's own values when the caller owns the request, copies of them otherwise).
fn build(
    name: String,
    shape: Shape,
    mut operands: impl Iterator<Item = AttributeValue>,
) -> Result<Condition> {
    use ComparisonOperator::*;
    let path = tree::path(name);
    let (op, count) = match shape {
        Shape::Absent => return Ok(Condition::Exists(false, path)),
        Shape::Compare(op, count) => (op, count),
    };
    // [`check`] let only the operator's own argument count through: a missing operand is its error.
    let mut next = || {
        operands
            .next()
            .map(tree::literal)
            .ok_or_else(|| arity_error(op))
    };
    Ok(match (op, count) {
        (Eq, 1) => Condition::Compare(Comparator::Eq, Operand::Path(path), next()?),
        (Ne, 1) => Condition::Compare(Comparator::Ne, Operand::Path(path), next()?),
        (Le, 1) => Condition::Compare(Comparator::Le, Operand::Path(path), next()?),
        (Lt, 1) => Condition::Compare(Comparator::Lt, Operand::Path(path), next()?),
        (Ge, 1) => Condition::Compare(Comparator::Ge, Operand::Path(path), next()?),
        (Gt, 1) => Condition::Compare(Comparator::Gt, Operand::Path(path), next()?),
        (NotNull, _) => Condition::Exists(true, path),
        (Null, _) => Condition::Exists(false, path),
        (Contains, 1) => tree::call("contains", vec![Operand::Path(path), next()?]),
        // A missing attribute does not meet NOT_CONTAINS (DynamoDB Local), where `NOT contains(…)`
        // alone would hold.
        (NotContains, 1) => Condition::And(
            Box::new(Condition::Exists(true, path.clone())),
            Box::new(Condition::Not(Box::new(tree::call(
                "contains",
                vec![Operand::Path(path), next()?],
            )))),
        ),
        (BeginsWith, 1) => tree::call("begins_with", vec![Operand::Path(path), next()?]),
        (Between, 2) => {
            let lo = next()?;
            Condition::Between(Operand::Path(path), lo, next()?)
        }
        (In, count) => {
            // One collect, sized at once, of the operands' own vector (no `Result` nor a check per
            // value: an `IN` can list hundreds of thousands of values); one missing is the error.
            let list: Vec<Operand> = operands.by_ref().take(count).map(tree::literal).collect();
            if list.len() != count {
                return Err(arity_error(op));
            }
            Condition::In(Operand::Path(path), list)
        }
        (Eq | Ne | Le | Lt | Ge | Gt | Contains | NotContains | BeginsWith | Between, _) => {
            return Err(arity_error(op));
        }
    })
}

/// Checks one `KeyConditions`/`QueryFilter`/`ScanFilter` entry.
pub(super) fn checked<'a>(name: &str, c: &'a LegacyCondition) -> Result<Form<'a>> {
    validate::attribute_name(name)?;
    let cmp = Comparison {
        op: c.comparison_operator,
        args: c.attribute_value_list.as_deref().unwrap_or_default(),
    };
    check(&cmp)?;
    Ok(Form::Compare(cmp))
}

/// Checks one `QueryFilter`/`ScanFilter` entry and returns its condition (`name` and the entry's
/// values move into it: the hooks of Query and Scan take the filter out of the request they own).
pub(crate) fn condition(name: String, c: LegacyCondition) -> Result<Condition> {
    let shape = checked(&name, &c)?.shape();
    // The list's own iterator (an absent list is an empty one, without an allocation): a
    // `Flatten` of the option cost a call per value of a long `IN`.
    build(
        name,
        shape,
        c.attribute_value_list.unwrap_or_default().into_iter(),
    )
}

/// Checks one `Expected` entry.
pub(super) fn checked_expected<'a>(name: &str, e: &'a ExpectedAttributeValue) -> Result<Form<'a>> {
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
                (Some(v), _) => std::slice::from_ref(v),
                (None, list) => list.as_deref().unwrap_or_default(),
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
        return Ok(Form::Compare(cmp));
    }
    if e.attribute_value_list.is_some() {
        return Err(Error::validation(format!(
            "{INVALID}AttributeValueList can only be used with a ComparisonOperator for Attribute: {name}"
        )));
    }
    match (e.exists, &e.value) {
        (Some(false), None) => Ok(Form::Absent),
        (Some(false), Some(_)) => Err(Error::validation(format!(
            "{INVALID}Value cannot be used when Exists is false for Attribute: {name}"
        ))),
        (exists, None) => Err(Error::validation(format!(
            "{INVALID}Value must be provided when Exists is {} for Attribute: {name}",
            if exists.is_some() { "true" } else { "null" }
        ))),
        (_, Some(v)) => {
            validate::expression_value(v)?;
            // `Value` without an operator: the attribute equals it.
            Ok(Form::Compare(Comparison {
                op: ComparisonOperator::Eq,
                args: std::slice::from_ref(v),
            }))
        }
    }
}

/// Checks one `Expected` entry and returns its condition (`name` and the entry's values move into
/// it rather than being copied: the request is this entry's owner).
#[inline]
pub(crate) fn expected(name: String, e: ExpectedAttributeValue) -> Result<Condition> {
    let shape = checked_expected(&name, &e)?.shape();
    // The usual entry of a long `Expected` (`Exists: false`) has no operands to take.
    if let Shape::Absent = shape {
        return Ok(Condition::Exists(false, tree::path(name)));
    }
    // The checked form's operands: `Value`, or else `AttributeValueList` (never both: checked).
    // Two calls rather than one over a chain of both, whose `next` the compiler left out of line.
    match e.value {
        Some(value) => build(name, shape, std::iter::once(value)),
        None => build(
            name,
            shape,
            e.attribute_value_list.unwrap_or_default().into_iter(),
        ),
    }
}

/// Joins conditions with `ConditionalOperator` (AND by default) as one flat node
/// ([`Condition::All`] or [`Condition::Any`]) holding them in order: AND and OR are associative, so
/// the meaning and the order of evaluation are those of the chain. A legacy translation has no
/// operator limit, and the evaluator recurses on the tree: 100,000 `Expected` entries chained one
/// after another would overflow the stack, and a balanced tree of them cost two boxes per entry.
pub(crate) fn join(
    mut parts: Vec<Condition>,
    op: Option<ConditionalOperator>,
) -> Option<Condition> {
    if parts.len() <= 1 {
        return parts.pop();
    }
    Some(match op.unwrap_or_default() {
        ConditionalOperator::Or => Condition::Any(parts),
        ConditionalOperator::And => Condition::All(parts),
    })
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
