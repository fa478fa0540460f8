//! DynamoDB's legacy request parameters (`Expected`, `ConditionalOperator`, `AttributeUpdates`,
//! `AttributesToGet`, `KeyConditions`, `QueryFilter`, `ScanFilter`), translated into the expression
//! parameters they stand for, so that they mean exactly what the expression evaluator makes of them.
//!
//! Each operation calls its hook here first: the hook refuses a request that mixes the two forms, checks
//! the legacy members with DynamoDB's legacy texts (which are not the expression ones), and returns the
//! request rewritten with generated `#legacyN`/`:legacyN` placeholders, or `None` when the request has
//! no legacy member. Some errors the expression machinery raises later are worded differently for the
//! legacy form; [`reword`] maps those back. The translations are not expressions to DynamoDB: they
//! go through the expression machinery as [`Origin::Legacy`](crate::expr::Origin), without the
//! limits on expressions (4 KB of text, 300 operators, 100 `IN` operands), so that 200
//! `AttributeUpdates` or `Expected` entries work as they do on DynamoDB.
//!
//! Sources: dynalite's `validations/index.js` and per-operation tests (recorded against DynamoDB),
//! DynamoDB Local 3.3 (probed with boto3); differences are listed in tests/dual/deviations.md.

mod condition;
mod keys;
mod read;
mod update;
mod write;

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashSet};

use dynomodel::backend::ExpressionAttributeNames;
use dynomodel::{AttributeValue, Error, Item, Result};

pub(crate) use read::{
    batch_get_item, get_item, query, query_origins, restore_unprocessed, scan, scan_origins,
};
pub(crate) use write::{delete_item, put_item, update_item};

/// Generated placeholders, merged into a request's own maps (which are only non-empty when a
/// `KeyConditions` comes with a `FilterExpression`, the one mix DynamoDB allows).
#[derive(Debug, Default)]
pub(crate) struct Placeholders {
    names: ExpressionAttributeNames,
    by_name: BTreeMap<String, String>,
    values: Item,
    /// The request's own placeholders, which generated ones avoid: by hash, as a request can hold
    /// hundreds of thousands, and they can be the very names generated (`#legacy0`, `#legacy1`, …).
    taken_names: HashSet<String>,
    taken_values: HashSet<String>,
    next: usize,
}

impl Placeholders {
    /// Placeholders that avoid the keys of the request's own maps.
    fn avoiding(names: Option<&ExpressionAttributeNames>, values: Option<&Item>) -> Placeholders {
        Placeholders {
            taken_names: names.into_iter().flat_map(|n| n.keys().cloned()).collect(),
            taken_values: values.into_iter().flat_map(|v| v.keys().cloned()).collect(),
            ..Placeholders::default()
        }
    }

    fn fresh(&mut self, sigil: char) -> String {
        loop {
            let key = format!("{sigil}legacy{}", self.next);
            self.next += 1;
            let taken = match sigil {
                '#' => &self.taken_names,
                _ => &self.taken_values,
            };
            if !taken.contains(&key) {
                return key;
            }
        }
    }

    /// The placeholder for the attribute `name` (one per name).
    pub(crate) fn name(&mut self, name: &str) -> String {
        if let Some(key) = self.by_name.get(name) {
            return key.clone();
        }
        let key = self.fresh('#');
        self.names.insert(key.clone(), name.to_owned());
        self.by_name.insert(name.to_owned(), key.clone());
        key
    }

    /// A new placeholder for `value`.
    pub(crate) fn value(&mut self, value: AttributeValue) -> String {
        let key = self.fresh(':');
        self.values.insert(key.clone(), value);
        key
    }

    /// The request's maps with the generated placeholders added (`None` for an empty map).
    fn merge(
        self,
        names: Option<&ExpressionAttributeNames>,
        values: Option<&Item>,
    ) -> (Option<ExpressionAttributeNames>, Option<Item>) {
        let mut all_names = names.cloned().unwrap_or_default();
        all_names.extend(self.names);
        let mut all_values = values.cloned().unwrap_or_default();
        all_values.extend(self.values);
        (
            (!all_names.is_empty()).then_some(all_names),
            (!all_values.is_empty()).then_some(all_values),
        )
    }
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
pub(crate) fn query_error(input: &dynomodel::backend::QueryInput, e: Error) -> Error {
    if input.query_filter.is_none() {
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
