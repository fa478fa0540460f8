//! `AttributeUpdates`: DynamoDB's checks of each entry (legacy texts, DynamoDB Local 3.3's wording)
//! and the update expression tree it stands for.
//!
//! PUT is `SET`, DELETE without a value is `REMOVE`, DELETE with a set is `DELETE`, ADD of a number or
//! set is `ADD`. ADD of a list appends to the list (or starts one), which UpdateExpression's ADD does
//! not do: it becomes `SET a = list_append(if_not_exists(a, []), v)`.

use dynomodel::backend::{AttributeAction, AttributeUpdates, AttributeValueUpdate};
use dynomodel::{AttributeValue, Error, Result};

use super::condition::INVALID;
use super::tree;
use crate::expr::ast::{Clause, Operand, SetAction, UpdateExpression, ValueAction};
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

/// What one `AttributeUpdates` entry does, once checked (holding the entry's value).
pub(super) enum Action {
    /// PUT: `SET a = v`.
    Put(AttributeValue),
    /// ADD of a list: `SET a = list_append(if_not_exists(a, []), v)`.
    Append(AttributeValue),
    /// ADD of a number or a set: `ADD a v`.
    Add(AttributeValue),
    /// DELETE of a set: `DELETE a v`.
    Delete(AttributeValue),
    /// DELETE without a value: `REMOVE a`.
    Remove,
}

/// Checks one `AttributeUpdates` entry, whose value moves into its action.
pub(super) fn checked(name: &str, update: AttributeValueUpdate) -> Result<Action> {
    validate::attribute_name(name)?;
    let action = update.action.unwrap_or_default();
    let Some(value) = update.value else {
        if action != AttributeAction::Delete {
            return Err(Error::validation(format!(
                "{INVALID}Only DELETE action is allowed when no attribute value is specified"
            )));
        }
        return Ok(Action::Remove);
    };
    // The value is stored as it is: the item rules apply (empty sets, nesting).
    validate::attribute(name, &value)?;
    Ok(match action {
        AttributeAction::Put => Action::Put(value),
        AttributeAction::Add if matches!(value, AttributeValue::L(_)) => Action::Append(value),
        AttributeAction::Add if is_set(&value) || matches!(value, AttributeValue::N(_)) => {
            Action::Add(value)
        }
        AttributeAction::Add => {
            return Err(Error::validation(format!(
                "{INVALID}ADD action is not supported for the type {}",
                type_word(&value)
            )));
        }
        AttributeAction::Delete if is_set(&value) => Action::Delete(value),
        AttributeAction::Delete => {
            return Err(Error::validation(format!(
                "{INVALID}DELETE action with value is not supported for the type {}",
                type_word(&value)
            )));
        }
    })
}

/// The update expression `updates` stand for (`None` when there are none, as for an empty map):
/// its SET, REMOVE, ADD and DELETE clauses, in that order, each with its entries in the map's order.
/// The entries' names and values move into the tree.
pub(crate) fn expression(updates: AttributeUpdates) -> Result<Option<UpdateExpression>> {
    // PUT is the usual action: its clause is sized at once (growing it moved every action again).
    let (mut set, mut remove, mut add, mut delete) = (
        Vec::with_capacity(updates.len()),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for (name, update) in updates {
        let action = checked(&name, update)?;
        let value_action = |name, v| ValueAction {
            path: tree::path(name),
            value: tree::literal(v),
        };
        match action {
            Action::Put(v) => set.push(SetAction {
                path: tree::path(name),
                value: tree::literal(v),
            }),
            Action::Append(v) => {
                let current = tree::function(
                    "if_not_exists",
                    vec![
                        tree::attribute(name.clone()),
                        tree::literal(AttributeValue::L(Vec::new())),
                    ],
                );
                set.push(SetAction {
                    path: tree::path(name),
                    value: Operand::Function(tree::function(
                        "list_append",
                        vec![Operand::Function(current), tree::literal(v)],
                    )),
                });
            }
            Action::Add(v) => add.push(value_action(name, v)),
            Action::Delete(v) => delete.push(value_action(name, v)),
            Action::Remove => remove.push(tree::path(name)),
        }
    }
    let clauses: Vec<Clause> = [
        Clause::Set(set),
        Clause::Remove(remove),
        Clause::Add(add),
        Clause::Delete(delete),
    ]
    .into_iter()
    .filter(|clause| match clause {
        Clause::Set(a) => !a.is_empty(),
        Clause::Remove(a) => !a.is_empty(),
        Clause::Add(a) | Clause::Delete(a) => !a.is_empty(),
    })
    .collect();
    Ok((!clauses.is_empty()).then_some(UpdateExpression { clauses }))
}
