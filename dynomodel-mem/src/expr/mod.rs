//! DynamoDB's expression language: ConditionExpression, FilterExpression, KeyConditionExpression,
//! UpdateExpression and ProjectionExpression.
//!
//! Pipeline: [`parse`] (syntax only, cacheable by text: `cache.rs`) → `validate` (DynamoDB's semantic
//! checks against one request's placeholders, each with DynamoDB's message) → `eval` / `update` /
//! `projection` against an item. Every error is an [`Error::Validation`] with DynamoDB's exact text,
//! prefixed `Invalid <Kind>Expression: ` where DynamoDB prefixes it.

pub(crate) mod ast;
pub(crate) mod cache;
pub(crate) mod eval;
pub(crate) mod generated;
pub(crate) mod keycond;
pub(crate) mod lexer;
pub(crate) mod parser;
pub(crate) mod projection;
pub(crate) mod request;
pub(crate) mod reserved;
pub(crate) mod substitution;
pub(crate) mod taken;
pub(crate) mod update;
pub(crate) mod validate;

#[cfg(test)]
mod tests;

use crate::storage::java_order::java_hash_set_order_of_distinct;
use std::collections::{BTreeMap, BTreeSet};

use dynomodel::{AttributeValue, Error};

pub(crate) use parser::{ParseError, Parsed};

/// Which request parameter an expression came from; it selects the grammar and the message prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum ExprKind {
    /// `ConditionExpression` (PutItem, UpdateItem, DeleteItem, transactions).
    Condition,
    /// `FilterExpression` (Query, Scan).
    Filter,
    /// `KeyConditionExpression` (Query).
    KeyCondition,
    /// `UpdateExpression` (UpdateItem).
    Update,
    /// `ProjectionExpression` (GetItem, Query, Scan, BatchGetItem, TransactGetItems).
    Projection,
}

impl ExprKind {
    /// The request parameter's name, as DynamoDB quotes it in messages.
    pub(crate) fn parameter(self) -> &'static str {
        match self {
            ExprKind::Condition => "ConditionExpression",
            ExprKind::Filter => "FilterExpression",
            ExprKind::KeyCondition => "KeyConditionExpression",
            ExprKind::Update => "UpdateExpression",
            ExprKind::Projection => "ProjectionExpression",
        }
    }
}

/// Who wrote an expression's text, which decides whether DynamoDB's limits on expressions apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Origin {
    /// An expression parameter of the request: at most 4 KB of text, 300 operators, 100 `IN`
    /// operands and 2 MB substituted ([`substitution`]).
    #[default]
    Request,
    /// The old text translation of a legacy parameter, which the differential test
    /// (`ops/legacy/tests/differential.rs`) still parses: DynamoDB does not treat legacy parameters as
    /// expressions, so none of the limits apply (issue 26 fact 15: 200 AttributeUpdates PUTs succeed;
    /// DynamoDB Local 3.3.1 also accepts 200 `Expected` or `ScanFilter` conditions and a 101-value
    /// `IN`). The engine itself builds their trees directly ([`Given::Built`]).
    #[cfg(test)]
    Legacy,
}

impl Origin {
    /// Whether DynamoDB's limits on expressions apply.
    pub(crate) fn limited(self) -> bool {
        self == Origin::Request
    }
}

/// An expression parameter as it reaches the checks: the request's text, or a tree the engine built
/// from a legacy parameter (`ops/legacy`). A built tree is neither parsed nor validated: it holds no
/// placeholders, its names and values are the ones the legacy checks accepted, and DynamoDB's limits
/// on expressions do not apply to legacy parameters (see [`Origin::Request`]).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Given<'a, T> {
    /// Expression text, parsed (through the cache where there is one) and validated.
    Text(&'a str),
    /// A tree built from a legacy parameter.
    Built(T),
}

impl<'a, T> Given<'a, T> {
    /// The tree built from a legacy parameter if there is one, else the request's own text.
    pub(crate) fn either(built: Option<T>, text: Option<&'a str>) -> Option<Given<'a, T>> {
        built.map(Given::Built).or_else(|| text.map(Given::Text))
    }
}

/// A `ValidationException` with DynamoDB's `Invalid <Kind>Expression: ` prefix.
pub(crate) fn invalid(kind: ExprKind, message: impl std::fmt::Display) -> Error {
    Error::validation(format!("Invalid {}: {message}", kind.parameter()))
}

/// The message for a parse failure.
pub(crate) fn parse_error(kind: ExprKind, e: &ParseError) -> Error {
    match e {
        ParseError::Empty => invalid(kind, "The expression can not be empty;"),
        ParseError::TooLarge(size) => invalid(
            kind,
            format!(
                "Expression size has exceeded the maximum allowed size; expression size: {size}"
            ),
        ),
        ParseError::Syntax { token, near } => invalid(
            kind,
            format!("Syntax error; token: \"{token}\", near: \"{near}\""),
        ),
    }
}

/// A parsed expression of any kind (what the cache stores).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expression {
    /// A condition, filter or key condition.
    Condition(Parsed<ast::Condition>),
    /// An update expression.
    Update(Parsed<ast::UpdateExpression>),
    /// A projection expression.
    Projection(Parsed<ast::Projection>),
}

/// Parses `text` as an expression of `kind` (syntax only), after the size limit when `origin` has
/// one.
pub(crate) fn parse(kind: ExprKind, text: &str, origin: Origin) -> Result<Expression, Error> {
    check_size(kind, text, origin)?;
    parse_syntax(kind, text)
}

/// DynamoDB's limit on an expression's text (before any other check, and before the cache).
pub(crate) fn check_size(kind: ExprKind, text: &str, origin: Origin) -> Result<(), Error> {
    if origin.limited() && text.len() > parser::MAX_EXPRESSION_BYTES {
        return Err(parse_error(kind, &ParseError::TooLarge(text.len())));
    }
    Ok(())
}

/// [`parse`] without the size limit.
pub(crate) fn parse_syntax(kind: ExprKind, text: &str) -> Result<Expression, Error> {
    let result = match kind {
        ExprKind::Condition | ExprKind::Filter | ExprKind::KeyCondition => {
            parser::parse_condition(text).map(Expression::Condition)
        }
        ExprKind::Update => parser::parse_update(text).map(Expression::Update),
        ExprKind::Projection => parser::parse_projection(text).map(Expression::Projection),
    };
    result.map_err(|e| parse_error(kind, &e))
}

/// One request's `ExpressionAttributeNames` and `ExpressionAttributeValues`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placeholders<'a> {
    /// `#name` → attribute name.
    pub(crate) names: &'a BTreeMap<String, String>,
    /// `:value` → value.
    pub(crate) values: &'a BTreeMap<String, AttributeValue>,
}

/// The placeholders the expressions of one request used, to report unused ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Usage {
    /// `#name` placeholders seen.
    pub(crate) names: BTreeSet<String>,
    /// `:value` placeholders seen.
    pub(crate) values: BTreeSet<String>,
}

/// DynamoDB's check, after all of a request's expressions are validated, that every placeholder supplied
/// was used: "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}" (names are
/// checked first, as DynamoDB does). Not prefixed: it is about the request, not one expression.
pub(crate) fn check_unused(placeholders: &Placeholders<'_>, usage: &Usage) -> Result<(), Error> {
    // A map's keys, distinct.
    let unused_names =
        java_hash_set_order_of_distinct(unused_keys(placeholders.names, &usage.names));
    if !unused_names.is_empty() {
        return Err(Error::validation(unused_message(
            "ExpressionAttributeNames",
            &unused_names,
        )));
    }
    let unused_values =
        java_hash_set_order_of_distinct(unused_keys(placeholders.values, &usage.values));
    if !unused_values.is_empty() {
        return Err(Error::validation(unused_message(
            "ExpressionAttributeValues",
            &unused_values,
        )));
    }
    Ok(())
}

/// The keys of `map` not in `used`, in order: one walk of the two sorted sequences together rather
/// than a search of `used` per key (a request can supply hundreds of thousands of placeholders).
fn unused_keys<'a, V>(map: &'a BTreeMap<String, V>, used: &BTreeSet<String>) -> Vec<&'a str> {
    let mut unused = Vec::with_capacity(map.len().saturating_sub(used.len()));
    let mut used = used.iter().peekable();
    for key in map.keys() {
        while used.next_if(|u| *u < key).is_some() {}
        if used.next_if(|u| *u == key).is_none() {
            unused.push(key.as_str());
        }
    }
    unused
}

/// "Value provided in `map` unused in expressions: keys: {`keys`}", written once into a string of
/// its length: a request can leave hundreds of thousands of placeholders unused. `keys` in the order
/// DynamoDB lists them (`java_order`). Also written by the one pass for the unused names it did not
/// build (`protocol::fast::unused`).
pub(crate) fn unused_message(map: &str, keys: &[&str]) -> String {
    let listed: usize = keys.iter().map(|k| k.len() + 2).sum();
    let mut message = String::with_capacity(64 + map.len() + listed);
    message.push_str("Value provided in ");
    message.push_str(map);
    message.push_str(" unused in expressions: keys: {");
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            message.push_str(", ");
        }
        message.push_str(key);
    }
    message.push('}');
    message
}
