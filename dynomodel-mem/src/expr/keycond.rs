//! Narrowing a parsed KeyConditionExpression to its typed form.
//!
//! A key condition is `=` on the partition key, optionally `AND` one of `= < <= > >= BETWEEN begins_with`
//! on the sort key. Which attribute is which is checked later against the table or index schema; here the
//! shape is checked, with DynamoDB's messages (dynalite's, recorded against DynamoDB; these are not
//! prefixed with "Invalid KeyConditionExpression:").

use dynomodel::Error;

use super::ast::{exists_function, Comparator, Condition, Operand, Path};

/// The operator of one key condition; values are the value operands (placeholders, or literals in a
/// `KeyConditions` translation; `None` where the condition had some other operand there).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum KeyOp {
    /// `k = :v`
    Eq(Option<Operand>),
    /// `k < :v`
    Lt(Option<Operand>),
    /// `k <= :v`
    Le(Option<Operand>),
    /// `k > :v`
    Gt(Option<Operand>),
    /// `k >= :v`
    Ge(Option<Operand>),
    /// `k BETWEEN :a AND :b`
    Between(Option<Operand>, Option<Operand>),
    /// `begins_with(k, :p)`
    BeginsWith(Option<Operand>),
}

/// One condition on one key attribute.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct KeyTerm {
    /// The key attribute (one name; placeholders resolved by the caller).
    pub(crate) attribute: Path,
    /// The condition.
    pub(crate) op: KeyOp,
}

/// A KeyConditionExpression: one or two terms.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct KeyCondition {
    /// The terms, in source order.
    pub(crate) terms: Vec<KeyTerm>,
}

fn fail<T>(message: &str) -> Result<T, Error> {
    Err(Error::validation(message))
}

fn value(op: &Operand) -> Option<Operand> {
    match op.unparen() {
        v @ (Operand::Value(_) | Operand::Literal(_)) => Some(v.clone()),
        _ => None,
    }
}

fn key_path(op: &Operand) -> Result<Option<Path>, Error> {
    match op.unparen() {
        Operand::Path(p) if p.elements.len() > 1 => {
            fail("KeyConditionExpressions cannot have conditions on nested attributes")
        }
        Operand::Path(p) => Ok(Some(p.clone())),
        Operand::Function(_) => fail("KeyConditionExpressions cannot contain nested operations"),
        _ => Ok(None),
    }
}

fn term(c: &Condition, terms: &mut Vec<KeyTerm>) -> Result<(), Error> {
    let op_name = |s: &str| {
        Error::validation(format!(
            "Invalid operator used in KeyConditionExpression: {s}"
        ))
    };
    let new = match c {
        Condition::Paren(inner) => return term(inner, terms),
        Condition::And(a, b) => {
            term(a, terms)?;
            return term(b, terms);
        }
        Condition::All(parts) => return parts.iter().try_for_each(|c| term(c, terms)),
        Condition::Or(..) | Condition::Any(_) => return Err(op_name("OR")),
        Condition::Not(_) => return Err(op_name("NOT")),
        Condition::Exists(exists, _) => return Err(op_name(exists_function(*exists))),
        Condition::In(..) => return Err(op_name("IN")),
        Condition::Compare(Comparator::Ne, ..) => return Err(op_name("<>")),
        Condition::Compare(cmp, a, b) => {
            let (pa, pb) = (key_path(a)?, key_path(b)?);
            let (attribute, v, flipped) = match (pa, pb) {
                (Some(_), Some(_)) => return fail("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"),
                (Some(p), None) => (p, value(b), false),
                (None, Some(p)) => (p, value(a), true),
                (None, None) => return fail("Invalid condition in KeyConditionExpression: No key attribute specified"),
            };
            // `:v < k` is `k > :v`.
            let op = match (cmp, flipped) {
                (Comparator::Eq, _) => KeyOp::Eq(v),
                (Comparator::Lt, false) | (Comparator::Gt, true) => KeyOp::Lt(v),
                (Comparator::Le, false) | (Comparator::Ge, true) => KeyOp::Le(v),
                (Comparator::Gt, false) | (Comparator::Lt, true) => KeyOp::Gt(v),
                _ => KeyOp::Ge(v),
            };
            KeyTerm { attribute, op }
        }
        Condition::Between(a, lo, hi) => match key_path(a)? {
            Some(attribute) => KeyTerm {
                attribute,
                op: KeyOp::Between(value(lo), value(hi)),
            },
            None => return fail("Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand"),
        },
        Condition::Function(f) => match &*f.name {
            "begins_with" => match f.args.first().map(key_path).transpose()?.flatten() {
                Some(attribute) => KeyTerm {
                    attribute,
                    op: KeyOp::BeginsWith(f.args.get(1).and_then(value)),
                },
                None => return fail("Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand"),
            },
            "size" => return fail("KeyConditionExpressions cannot contain nested operations"),
            other => return Err(op_name(other)),
        },
    };
    if terms.iter().any(|t| t.attribute == new.attribute) {
        return fail("KeyConditionExpressions must only contain one condition per key");
    }
    terms.push(new);
    Ok(())
}

/// Narrows a validated condition to a key condition.
pub(crate) fn key_condition(c: &Condition) -> Result<KeyCondition, Error> {
    // One term or two in a valid condition: reserved once (a Vec grows to four at its first push).
    let mut terms = Vec::with_capacity(2);
    term(c, &mut terms)?;
    if terms.len() > 2 {
        return fail("Conditions can be of length 1 or 2 only");
    }
    Ok(KeyCondition { terms })
}
