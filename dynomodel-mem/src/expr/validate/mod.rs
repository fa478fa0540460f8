//! DynamoDB's semantic checks on a parsed expression, with its exact messages.
//!
//! DynamoDB reports one error per request. When an expression breaks several rules, which one it reports
//! depends on the rule's category, not on the position in the text (dynalite's parsers, whose test
//! expectations were recorded against DynamoDB, keep the first error of each category and report the
//! categories in a fixed order; that order is copied here per expression kind).
//!
//! The checks are methods of one `Checker`, which collects the first error of each category; they are
//! split by what they look at: `operands` resolves paths and values against the request's placeholders,
//! `targets` finds update and projection paths that overlap or conflict, `condition` checks comparisons,
//! `BETWEEN`, `IN` and the logical operators, `functions` the condition functions (name, arity, operand
//! types) and `update` the clauses of an update expression and their operands. This file holds the
//! categories, their order per expression kind, the limits and the entry points.

mod condition;
mod functions;
mod operands;
mod targets;
mod update;

use std::collections::BTreeMap;

use dynomodel::Error;

use super::ast::{Condition, Projection, UpdateExpression};
use super::eval::Step;
use super::{invalid, ExprKind, Origin, Parsed, Placeholders, Usage};

/// Most operators and functions in one expression.
pub(crate) const MAX_OPERATORS: usize = 300;
/// Most operands on the right of `IN`.
pub(crate) const MAX_IN_OPERANDS: usize = 100;
/// Most elements in a document path (names and indexes: `a.b[0]` has three), as for nested values.
pub(crate) const MAX_PATH_DEPTH: usize = 32;

/// Error categories; each kind reports them in its own order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Category {
    Limits,
    Parens,
    UnknownFunction,
    MisusedFunction,
    Reserved,
    Section,
    PathDepth,
    Placeholder,
    OperandCount,
    Distinct,
    PathOverlap,
    PathConflict,
    AddDeleteOperand,
    Function,
    /// More than [`MAX_OPERATORS`]: reported only when nothing else is wrong (DynamoDB Local 3.3.1:
    /// a reserved word, an undefined value, an unknown function, a bad operand type, redundant
    /// parentheses, a list index out of range, an IN list or a path too long all win over it).
    OperatorCount,
}

const CONDITION_ORDER: &[Category] = &[
    Category::Limits,
    Category::Parens,
    Category::UnknownFunction,
    Category::MisusedFunction,
    Category::Reserved,
    Category::PathDepth,
    Category::Placeholder,
    Category::OperandCount,
    Category::Distinct,
    Category::Function,
    Category::OperatorCount,
];

const UPDATE_ORDER: &[Category] = &[
    Category::Limits,
    Category::Parens,
    Category::Reserved,
    Category::UnknownFunction,
    Category::MisusedFunction,
    Category::Section,
    Category::PathDepth,
    Category::Placeholder,
    Category::PathOverlap,
    Category::PathConflict,
    Category::AddDeleteOperand,
    Category::Function,
    Category::OperatorCount,
];

const PROJECTION_ORDER: &[Category] = &[
    Category::Limits,
    Category::Reserved,
    Category::PathDepth,
    Category::Placeholder,
    Category::PathOverlap,
    Category::PathConflict,
];

/// DynamoDB's path notation in messages: `[a, b, [1]]`.
pub(crate) fn path_string(steps: &[Step]) -> String {
    let parts: Vec<String> = steps
        .iter()
        .map(|s| match s {
            Step::Key(k) => k.clone(),
            Step::Index(i) => format!("[{i}]"),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

struct Checker<'a, 'u> {
    kind: ExprKind,
    placeholders: Placeholders<'a>,
    usage: &'u mut Usage,
    errors: BTreeMap<Category, String>,
    /// Whether the limits on operators and `IN` operands apply (see [`Origin`]).
    limited: bool,
    operators: usize,
    /// Resolved target paths seen so far (updates, projections), for overlap checks.
    targets: targets::Targets,
    /// What the placeholders resolved so far stand for: at each occurrence, a name's bytes or a
    /// value's size by the item-size rule (the cap of `expr::substitution`, which adds the text).
    /// Measured here, where each occurrence is looked up anyway, rather than by a walk of its own.
    substituted: usize,
}

impl Checker<'_, '_> {
    fn report(&mut self, category: Category, message: impl Into<String>) {
        self.errors
            .entry(category)
            .or_insert_with(|| message.into());
    }

    /// The first error in `order`, else what the expression substitutes.
    fn finish(self, order: &[Category]) -> Result<usize, Error> {
        for category in order {
            if let Some(message) = self.errors.get(category) {
                return Err(invalid(self.kind, message));
            }
        }
        Ok(self.substituted)
    }

    fn check_operator_count(&mut self) {
        if self.limited && self.operators > MAX_OPERATORS {
            // DynamoDB stops counting at the first operator over the limit, so it always reports 301
            // (measured on DynamoDB Local: 151 comparisons + 150 ORs and 400 + 399 both say 301).
            let msg = format!(
                "The expression contains too many operators; operator count: {}",
                MAX_OPERATORS + 1
            );
            self.report(Category::OperatorCount, msg);
        }
    }
}

/// A checker for one expression, with the parser's finding about redundant parentheses already reported.
fn checker<'a, 'u, T>(
    kind: ExprKind,
    parsed: &Parsed<T>,
    placeholders: Placeholders<'a>,
    usage: &'u mut Usage,
    origin: Origin,
) -> Checker<'a, 'u> {
    let mut checker = Checker {
        kind,
        placeholders,
        usage,
        errors: BTreeMap::new(),
        limited: origin.limited(),
        operators: 0,
        targets: targets::Targets::default(),
        substituted: 0,
    };
    if parsed.redundant_parens {
        checker.report(
            Category::Parens,
            "The expression has redundant parentheses;",
        );
    }
    checker
}

/// Validates a condition, filter or key condition; records the placeholders it uses in `usage`.
pub(crate) fn validate_condition(
    kind: ExprKind,
    parsed: &Parsed<Condition>,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
    origin: Origin,
) -> Result<(), Error> {
    validate_condition_sized(kind, parsed, placeholders, usage, origin).map(|_| ())
}

/// [`validate_condition`], returning what the expression substitutes (the checker's `substituted`).
pub(crate) fn validate_condition_sized(
    kind: ExprKind,
    parsed: &Parsed<Condition>,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
    origin: Origin,
) -> Result<usize, Error> {
    let mut c = checker(kind, parsed, placeholders, usage, origin);
    c.condition(&parsed.tree);
    c.check_operator_count();
    c.finish(CONDITION_ORDER)
}

/// Validates an update expression; records the placeholders it uses in `usage`.
pub(crate) fn validate_update(
    parsed: &Parsed<UpdateExpression>,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
    origin: Origin,
) -> Result<(), Error> {
    validate_update_sized(parsed, placeholders, usage, origin).map(|_| ())
}

/// [`validate_update`], returning what the expression substitutes (the checker's `substituted`).
pub(crate) fn validate_update_sized(
    parsed: &Parsed<UpdateExpression>,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
    origin: Origin,
) -> Result<usize, Error> {
    let mut c = checker(ExprKind::Update, parsed, placeholders, usage, origin);
    c.update(&parsed.tree);
    c.check_operator_count();
    c.finish(UPDATE_ORDER)
}

/// Validates a projection expression; records the placeholders it uses in `usage`.
pub(crate) fn validate_projection(
    parsed: &Parsed<Projection>,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
    origin: Origin,
) -> Result<(), Error> {
    validate_projection_sized(parsed, placeholders, usage, origin).map(|_| ())
}

/// [`validate_projection`], returning what the expression substitutes (the
/// checker's `substituted`).
pub(crate) fn validate_projection_sized(
    parsed: &Parsed<Projection>,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
    origin: Origin,
) -> Result<usize, Error> {
    let mut c = checker(ExprKind::Projection, parsed, placeholders, usage, origin);
    for p in &parsed.tree.paths {
        c.target_path(p);
    }
    c.finish(PROJECTION_ORDER)
}
