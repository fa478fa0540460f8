//! `AttributeUpdates`: DynamoDB's checks of each entry (legacy texts, DynamoDB Local 3.3's wording)
//! and its translation into an UpdateExpression.
//!
//! PUT is `SET`, DELETE without a value is `REMOVE`, DELETE with a set is `DELETE`, ADD of a number or
//! set is `ADD`. ADD of a list appends to the list (or starts one), which UpdateExpression's ADD does
//! not do: it becomes `SET a = list_append(if_not_exists(a, []), v)`.

use dynomodel::backend::{AttributeAction, AttributeUpdates};
use dynomodel::{AttributeValue, Error, Item, Result};

use super::condition::INVALID;
use super::Placeholders;
use crate::validate;

/// DynamoDB's name of a value's type in the AttributeUpdates messages.
fn type_word(v: &AttributeValue) -> &'static str {
    match v {
        AttributeValue::S(_) => "STRING",
        AttributeValue::N(_) => "NUMBER",
        AttributeValue::B(_) => "BINARY",
        AttributeValue::Bool(_) => "BOOLEAN",
        AttributeValue::Null => "NULL",
        AttributeValue::M(_) => "MAP",
        AttributeValue::L(_) => "LIST",
        AttributeValue::Ss(_) => "STRING_SET",
        AttributeValue::Ns(_) => "NUMBER_SET",
        AttributeValue::Bs(_) => "BINARY_SET",
    }
}

fn is_set(v: &AttributeValue) -> bool {
    matches!(
        v,
        AttributeValue::Ss(_) | AttributeValue::Ns(_) | AttributeValue::Bs(_)
    )
}

/// The UpdateExpression for `updates` (`None` when there are none, as for an empty map).
pub(crate) fn expression(
    updates: &AttributeUpdates,
    p: &mut Placeholders,
) -> Result<Option<String>> {
    let (mut set, mut remove, mut add, mut delete) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (name, update) in updates {
        validate::attribute_name(name)?;
        let action = update.action.unwrap_or_default();
        let Some(value) = &update.value else {
            if action != AttributeAction::Delete {
                return Err(Error::validation(format!(
                    "{INVALID}Only DELETE action is allowed when no attribute value is specified"
                )));
            }
            remove.push(p.name(name));
            continue;
        };
        // The value is stored as it is: the item rules apply (empty sets, nesting).
        validate::attribute_values(&Item::from([(name.clone(), value.clone())]))?;
        match action {
            AttributeAction::Put => {
                let (n, v) = (p.name(name), p.value(value.clone()));
                set.push(format!("{n} = {v}"));
            }
            AttributeAction::Add if matches!(value, AttributeValue::L(_)) => {
                let n = p.name(name);
                let empty = p.value(AttributeValue::L(Vec::new()));
                let v = p.value(value.clone());
                set.push(format!(
                    "{n} = list_append(if_not_exists({n}, {empty}), {v})"
                ));
            }
            AttributeAction::Add if is_set(value) || matches!(value, AttributeValue::N(_)) => {
                let (n, v) = (p.name(name), p.value(value.clone()));
                add.push(format!("{n} {v}"));
            }
            AttributeAction::Add => {
                return Err(Error::validation(format!(
                    "{INVALID}ADD action is not supported for the type {}",
                    type_word(value)
                )));
            }
            AttributeAction::Delete if is_set(value) => {
                let (n, v) = (p.name(name), p.value(value.clone()));
                delete.push(format!("{n} {v}"));
            }
            AttributeAction::Delete => {
                return Err(Error::validation(format!(
                    "{INVALID}DELETE action with value is not supported for the type {}",
                    type_word(value)
                )));
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
