//! The expression parameters of one item request: `ExpressionAttributeNames`, `ExpressionAttributeValues`
//! and the expressions that use them, checked in DynamoDB's order and parsed through the shared cache.
//!
//! Order and texts follow dynalite's `validations/index.js` (`validateExpressionParams`,
//! `validateExpressions`), whose test expectations were recorded against real DynamoDB; DynamoDB Local
//! 3.3 gives the same texts except where noted.

use std::collections::BTreeMap;
use std::sync::Arc;

use dynomodel::{AttributeValue, Error, Result};

use crate::expr::ast::{Condition, Projection, UpdateExpression};
use crate::expr::cache::ExpressionCache;
use crate::expr::substitution::{self, Oversized};
use crate::expr::{self, ExprKind, Expression, Given, Origin, Parsed, Placeholders, Usage};
use crate::validate;

/// The placeholder maps of a request, `None` when the request left them out.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Maps<'a> {
    /// `ExpressionAttributeNames`.
    pub(crate) names: Option<&'a BTreeMap<String, String>>,
    /// `ExpressionAttributeValues`.
    pub(crate) values: Option<&'a BTreeMap<String, AttributeValue>>,
}

/// An item request's expression: its text, or the tree built from a legacy parameter.
pub(crate) type ItemExpr<'a> = Given<'a, &'a Arc<Expression>>;

/// One expression parameter of a request: its kind and its text or built tree, if given.
pub(crate) type Param<'a> = (ExprKind, Option<ItemExpr<'a>>);

/// The first check on a request's expression parameters, before its attribute values are looked at:
/// placeholder maps need an expression that could use them. `params` lists the operation's expression
/// parameters in DynamoDB's order (it names them in that order in the message).
pub(crate) fn params_present(maps: Maps<'_>, params: &[Param<'_>]) -> Result<()> {
    let any = params.iter().any(|(_, text)| text.is_some());
    if maps.names.is_some() && !any {
        return Err(Error::validation(
            "ExpressionAttributeNames can only be specified when using expressions",
        ));
    }
    // A ProjectionExpression takes names but never values.
    let value_params: Vec<&Param<'_>> = params
        .iter()
        .filter(|(kind, _)| *kind != ExprKind::Projection)
        .collect();
    if maps.values.is_some()
        && !value_params.is_empty()
        && value_params.iter().all(|(_, text)| text.is_none())
    {
        let names: Vec<&str> = value_params.iter().map(|(k, _)| k.parameter()).collect();
        let verb = if names.len() > 1 { "are" } else { "is" };
        return Err(Error::validation(format!(
            "ExpressionAttributeValues can only be specified when using expressions: {} {verb} null",
            names.join(" and ")
        )));
    }
    Ok(())
}

/// `#` or `:` followed by one or more of `[0-9a-zA-Z_]`.
pub(crate) fn is_placeholder(key: &str, sigil: char) -> bool {
    key.strip_prefix(sigil).is_some_and(|rest| {
        !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// The maps themselves: not empty, well-formed keys, valid values. The duplicate checks' tables of
/// the values' large sets go to `tables`.
fn check_maps(maps: Maps<'_>, tables: &mut validate::SetTables) -> Result<()> {
    if let Some(names) = maps.names {
        if names.is_empty() {
            return Err(Error::validation(
                "ExpressionAttributeNames must not be empty",
            ));
        }
        if let Some(key) = names.keys().find(|k| !is_placeholder(k, '#')) {
            return Err(Error::validation(format!(
                "ExpressionAttributeNames contains invalid key: Syntax error; key: \"{key}\""
            )));
        }
        // Issue 26 fact 12; DynamoDB Local 3.3.1 words it alike.
        if let Some((key, _)) = names.iter().find(|(_, name)| name.is_empty()) {
            return Err(Error::validation(format!(
                "ExpressionAttributeNames contains invalid value: Empty attribute name for key {key}"
            )));
        }
    }
    if let Some(values) = maps.values {
        if values.is_empty() {
            return Err(Error::validation(
                "ExpressionAttributeValues must not be empty",
            ));
        }
        if let Some(key) = values.keys().find(|k| !is_placeholder(k, ':')) {
            return Err(Error::validation(format!(
                "ExpressionAttributeValues contains invalid key: Syntax error; key: \"{key}\""
            )));
        }
        for (key, value) in values {
            if let Err(e) = validate::expression_value_tabled(value, tables) {
                return Err(Error::validation(format!(
                    "ExpressionAttributeValues contains invalid value: {} for key {key}",
                    e.message()
                )));
            }
        }
    }
    Ok(())
}

/// A request's expressions, parsed (through the cache) and validated against its placeholders.
#[derive(Debug, Default)]
pub(crate) struct Prepared {
    /// The update expression or the projection: no operation takes both, and one field for the two
    /// keeps the struct, which every item operation moves, within the size it had before
    /// `oversized` (one byte more made GetItem copy it with `memcpy`: +0.9 % instructions).
    update_or_projection: Option<Arc<Expression>>,
    condition: Option<Arc<Expression>>,
    /// The tables of `ExpressionAttributeValues`' large sets, from their duplicate checks.
    tables: validate::SetTables,
    /// The first expression past the cap on what it substitutes, raised by [`Prepared::within_cap`].
    oversized: Oversized,
}

impl Prepared {
    /// The update expression, if the request had one.
    pub(crate) fn update(&self) -> Option<&Parsed<UpdateExpression>> {
        match self.update_or_projection.as_deref() {
            Some(Expression::Update(u)) => Some(u),
            _ => None,
        }
    }

    /// The update expression, if the request had one, taken out: with no other holder (a legacy
    /// `AttributeUpdates` tree, built for this request alone, once its builder let it go) it can be
    /// unwrapped and its names and values moved into the new item (see
    /// [`apply`](crate::expr::update::apply)).
    pub(crate) fn take_update(&mut self) -> Option<Arc<Expression>> {
        self.update()?;
        self.update_or_projection.take()
    }

    /// The update expression, if the request had one, shared (a transaction's, which every plan
    /// reads in place).
    pub(crate) fn shared_update(&self) -> Option<Arc<Expression>> {
        self.update()?;
        self.update_or_projection.clone()
    }

    /// The duplicate checks' tables of the request's large value sets (for a set ADD or DELETE).
    pub(crate) fn set_tables(&self) -> &validate::SetTables {
        &self.tables
    }

    /// DynamoDB's cap on what one expression substitutes (`expr::substitution`): measured with the
    /// other checks of the expressions, refused where the operation's other checks let it be (after
    /// the table and the key for an item request, as DynamoDB Local 3.3.1 answers).
    /// The maps' caps (`expr::substitution::maps_over`) too: when the maps are past one, the
    /// expressions were not read, and this is their refusal.
    pub(crate) fn within_cap(&self) -> Result<()> {
        self.oversized.check()
    }

    /// The maps' caps alone (BatchGetItem raises them after the keys' shape, the expressions' cap
    /// before it).
    pub(crate) fn maps_within_cap(&self) -> Result<()> {
        self.oversized.check_maps()
    }

    /// The cap on what an expression substitutes alone.
    pub(crate) fn expressions_within_cap(&self) -> Result<()> {
        self.oversized.check_expressions()
    }

    /// The condition expression, if the request had one.
    pub(crate) fn condition(&self) -> Option<&Parsed<Condition>> {
        match self.condition.as_deref() {
            Some(Expression::Condition(c)) => Some(c),
            _ => None,
        }
    }

    /// The projection expression, if the request had one.
    pub(crate) fn projection(&self) -> Option<&Parsed<Projection>> {
        match self.update_or_projection.as_deref() {
            Some(Expression::Projection(p)) => Some(p),
            _ => None,
        }
    }
}

/// Checks the maps, then parses and validates each expression text in DynamoDB's order (update,
/// condition, projection), then reports unused placeholders across all of them. Maps past their
/// caps (`expr::substitution::maps_over`) stop it before the expressions, their refusal waiting
/// for the operation to raise it as the expressions' does. Each text is also
/// measured against the cap on what it substitutes, whose refusal waits for the operation to raise
/// it ([`Prepared::within_cap`]). A built tree (a legacy parameter's) is taken as it is (see
/// [`Given`]); an item request's expressions are all text or all built, as DynamoDB refuses a mix.
pub(crate) fn prepare(
    cache: &ExpressionCache,
    maps: Maps<'_>,
    params: &[Param<'_>],
) -> Result<Prepared> {
    let mut prepared = Prepared::default();
    check_maps(maps, &mut prepared.tables)?;
    let over = substitution::maps_over(maps.names, maps.values);
    if over.is_some() {
        prepared.oversized = Oversized::of_maps(over);
        return Ok(prepared);
    }
    let empty_names = BTreeMap::new();
    let empty_values = BTreeMap::new();
    let placeholders = Placeholders {
        names: maps.names.unwrap_or(&empty_names),
        values: maps.values.unwrap_or(&empty_values),
    };
    let mut usage = Usage::default();
    for kind in [ExprKind::Update, ExprKind::Condition, ExprKind::Projection] {
        let Some(given) = params
            .iter()
            .find(|(k, _)| *k == kind)
            .and_then(|(_, given)| *given)
        else {
            continue;
        };
        let parsed = match given {
            Given::Text(text) => {
                let (parsed, substituted) = validated(cache, kind, text, placeholders, &mut usage)?;
                prepared.oversized.note(kind, text, substituted);
                parsed
            }
            Given::Built(tree) => Arc::clone(tree),
        };
        match kind {
            ExprKind::Update | ExprKind::Projection => {
                prepared.update_or_projection = Some(parsed);
            }
            _ => prepared.condition = Some(parsed),
        }
    }
    expr::check_unused(&placeholders, &usage)?;
    Ok(prepared)
}

/// One expression text, parsed through the cache and validated against the request's placeholders,
/// with what it substitutes (`expr::substitution`).
fn validated(
    cache: &ExpressionCache,
    kind: ExprKind,
    text: &str,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
) -> Result<(Arc<Expression>, usize)> {
    let origin = Origin::Request;
    let parsed = cache.get(kind, text)?;
    let substituted = match &*parsed {
        Expression::Update(u) => {
            expr::validate::validate_update_sized(u, placeholders, usage, origin)?
        }
        Expression::Condition(c) => {
            expr::validate::validate_condition_sized(kind, c, placeholders, usage, origin)?
        }
        Expression::Projection(p) => {
            expr::validate::validate_projection_sized(p, placeholders, usage, origin)?
        }
    };
    Ok((parsed, substituted))
}

/// The placeholders of a request, with empty maps standing in for absent ones.
pub(crate) fn with_placeholders<T>(maps: Maps<'_>, f: impl FnOnce(&Placeholders<'_>) -> T) -> T {
    let empty_names = BTreeMap::new();
    let empty_values = BTreeMap::new();
    let placeholders = Placeholders {
        names: maps.names.unwrap_or(&empty_names),
        values: maps.values.unwrap_or(&empty_values),
    };
    f(&placeholders)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholder_keys() {
        assert!(is_placeholder("#a_1", '#'));
        assert!(is_placeholder(":A", ':'));
        assert!(!is_placeholder("#", '#'));
        assert!(!is_placeholder("a", '#'));
        assert!(!is_placeholder("#a-b", '#'));
        assert!(!is_placeholder(":é", ':'));
    }
}
