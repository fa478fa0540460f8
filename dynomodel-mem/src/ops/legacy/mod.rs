//! DynamoDB's legacy request parameters (`Expected`, `ConditionalOperator`, `AttributeUpdates`,
//! `AttributesToGet`, `KeyConditions`, `QueryFilter`, `ScanFilter`), translated into the expression
//! trees they stand for, so that they mean exactly what the expression evaluator makes of them.
//!
//! Each operation calls its hook here first: the hook refuses a request that mixes the two forms, checks
//! the legacy members with DynamoDB's legacy texts (which are not the expression ones), and returns the
//! trees: conditions, an update expression, projection paths, whose names are
//! [`Name::Attribute`](crate::expr::ast::Name)s and whose values are
//! [`Operand::Literal`](crate::expr::ast::Operand)s, so no text is written, no placeholder generated and
//! nothing parsed again. The operation takes them as [`Given::Built`](crate::expr::Given): neither
//! parsed nor validated, as the checks here cover what validation would find, and without the limits on
//! expressions (4 KB of text, 300 operators, 100 `IN` operands, 2 MB substituted), so that 200
//! `AttributeUpdates` or `Expected` entries work as they do on DynamoDB. Some errors the expression machinery raises later
//! are worded differently for the legacy form; [`reword`] maps those back.
//!
//! The earlier translation into expression text with generated `#legacyN`/`:legacyN` placeholders
//! is kept in test builds (`tests/text.rs`): the differential test holds both to the same results.
//!
//! Sources: dynalite's `validations/index.js` and per-operation tests (recorded against DynamoDB),
//! DynamoDB Local 3.3 (probed with boto3); differences are listed in tests/dual/deviations.md.

mod condition;
mod keys;
mod read;
mod tree;
mod update;
mod write;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use dynomodel::{Error, Result};

use crate::expr::ast::{Condition, Path};
use crate::expr::Expression;

pub(crate) use read::{batch_get_item, get_item, query, scan, Taken};
pub(crate) use write::{delete_item, put_item, update_item};

/// The trees a read's legacy members stand for (each `None` where the request has no such member).
#[derive(Debug, Default)]
pub(crate) struct ReadTrees {
    /// `KeyConditions` (Query).
    pub(crate) key_condition: Option<Condition>,
    /// `QueryFilter` or `ScanFilter`, joined by `ConditionalOperator`.
    pub(crate) filter: Option<Condition>,
    /// `AttributesToGet`.
    pub(crate) projection: Option<Vec<Path>>,
}

/// The trees an UpdateItem's legacy members stand for.
#[derive(Debug, Default)]
pub(crate) struct WriteTrees {
    /// `AttributeUpdates` (`None` without it, or for an empty map).
    pub(crate) update: Option<Arc<Expression>>,
    /// `Expected`, joined by `ConditionalOperator`.
    pub(crate) condition: Option<Arc<Expression>>,
}

/// A request that names both forms: "Can not use both expression and non-expression parameters in the
/// same request", listing each side's members present, in DynamoDB's order.
fn mixing(legacy: &[(&str, bool)], expressions: &[(&str, bool)]) -> Result<()> {
    // Every request of the data path comes here: nothing is built unless both kinds are present.
    let any = |members: &[(&str, bool)]| members.iter().any(|(_, here)| *here);
    if !any(legacy) || !any(expressions) {
        return Ok(());
    }
    let present = |members: &[(&str, bool)]| -> Vec<String> {
        members
            .iter()
            .filter(|(_, here)| *here)
            .map(|(name, _)| (*name).to_owned())
            .collect()
    };
    let (legacy, expressions) = (present(legacy), present(expressions));
    Err(Error::validation(format!(
        "Can not use both expression and non-expression parameters in the same request: \
         Non-expression parameters: {{{}}} Expression parameters: {{{}}}",
        legacy.join(", "),
        expressions.join(", ")
    )))
}

/// An UpdateItem error as DynamoDB words it for `AttributeUpdates`: an update of an attribute of
/// another type is a "Type mismatch" there (DynamoDB Local 3.3).
pub(crate) fn update_error(e: Error) -> Error {
    reword(
        e,
        "An operand in the update expression has an incorrect data type",
        "Type mismatch for attribute to update",
    )
}

/// A Query error as DynamoDB words it for `QueryFilter`.
/// `query_filter` says whether the request had one (the hook took it out of the request).
pub(crate) fn query_error(query_filter: bool, e: Error) -> Error {
    if !query_filter {
        return e;
    }
    reword(
        e,
        "Filter Expression can only contain non-primary key attributes",
        "QueryFilter can only contain non-primary key attributes",
    )
}

/// Errors the expression machinery words differently when the request used the legacy form: `from`
/// (a message prefix) becomes `to`.
pub(crate) fn reword(e: Error, from: &str, to: &str) -> Error {
    match &e {
        Error::Validation { message } if message.starts_with(from) => {
            Error::validation(format!("{to}{}", &message[from.len()..]))
        }
        _ => e,
    }
}
