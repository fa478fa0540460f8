//! The hooks of the single-item writes: `Expected` and `ConditionalOperator` (PutItem, DeleteItem,
//! UpdateItem) and `AttributeUpdates` (UpdateItem).

use std::sync::Arc;

use dynomodel::backend::{
    ConditionalOperator, DeleteItemInput, Expected, ExpressionAttributeNames, PutItemInput,
    UpdateItemInput,
};
use dynomodel::{Item, Result};

use super::{condition, mixing, update, WriteTrees};
use crate::expr::ast::Condition;
use crate::expr::request::{self, Maps};
use crate::expr::{ExprKind, Expression, Parsed};
use crate::validate;

/// The condition `Expected` stands for, joined by `ConditionalOperator` (its names move into it).
pub(super) fn expected_condition(
    expected: Option<Expected>,
    op: Option<ConditionalOperator>,
) -> Result<Option<Condition>> {
    condition::conditional_operator(op, expected.as_ref().map(Expected::len))?;
    let mut parts = Vec::with_capacity(expected.as_ref().map_or(0, Expected::len));
    for (name, e) in expected.into_iter().flatten() {
        parts.push(condition::expected(name, e)?);
    }
    Ok(condition::join(parts, op))
}

/// [`expected_condition`] as an item request's expression.
fn expected_expression(
    expected: Option<Expected>,
    op: Option<ConditionalOperator>,
) -> Result<Option<Arc<Expression>>> {
    Ok(expected_condition(expected, op)?.map(|tree| {
        Arc::new(Expression::Condition(Parsed {
            tree,
            redundant_parens: false,
        }))
    }))
}

/// Placeholder maps given with a legacy request are refused as with no expression at all.
fn maps_without_expressions(
    names: Option<&ExpressionAttributeNames>,
    values: Option<&Item>,
    kinds: &[ExprKind],
) -> Result<()> {
    let params: Vec<request::Param<'_>> = kinds.iter().map(|k| (*k, None)).collect();
    request::params_present(Maps { names, values }, &params)
}

/// `PutItem`: the condition `Expected` stands for (`None` without legacy members or for an empty
/// `Expected`). `expected` is the request's, taken out of `input` so that its names move into the
/// tree.
pub(crate) fn put_item(
    input: &PutItemInput,
    expected: Option<Expected>,
) -> Result<Option<Arc<Expression>>> {
    mixing(
        &[
            ("Expected", expected.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        &[("ConditionExpression", input.condition_expression.is_some())],
    )?;
    if expected.is_none() && input.conditional_operator.is_none() {
        return Ok(None);
    }
    maps_without_expressions(
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values.as_ref(),
        &[ExprKind::Condition],
    )?;
    // DynamoDB checks the item and ReturnValues before `Expected` (dynalite's putItem.js); the
    // engine's own checks repeat these on the request, cheaply.
    let size = validate::sized_attribute_values(&input.item)?;
    validate::return_values_none_or_all_old(input.return_values)?;
    validate::item_size_within_limit(size)?;
    expected_expression(expected, input.conditional_operator)
}

/// `DeleteItem`: the condition `Expected` stands for (`None` without legacy members or for an empty
/// `Expected`), `expected` taken out of `input` as in [`put_item`].
pub(crate) fn delete_item(
    input: &DeleteItemInput,
    expected: Option<Expected>,
) -> Result<Option<Arc<Expression>>> {
    mixing(
        &[
            ("Expected", expected.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        &[("ConditionExpression", input.condition_expression.is_some())],
    )?;
    if expected.is_none() && input.conditional_operator.is_none() {
        return Ok(None);
    }
    maps_without_expressions(
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values.as_ref(),
        &[ExprKind::Condition],
    )?;
    // The key and ReturnValues come before `Expected`, as in PutItem.
    validate::attribute_values(&input.key)?;
    validate::return_values_none_or_all_old(input.return_values)?;
    expected_expression(expected, input.conditional_operator)
}

/// `UpdateItem`: the trees of `AttributeUpdates` and `Expected`, `None` without legacy members.
/// Both are taken out of `input` (their names and values move into the trees).
pub(crate) fn update_item(input: &mut UpdateItemInput) -> Result<Option<WriteTrees>> {
    let (updates, expected) = (input.attribute_updates.take(), input.expected.take());
    let input = &*input;
    mixing(
        &[
            ("AttributeUpdates", updates.is_some()),
            ("Expected", expected.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        &[
            ("UpdateExpression", input.update_expression.is_some()),
            ("ConditionExpression", input.condition_expression.is_some()),
        ],
    )?;
    if updates.is_none() && expected.is_none() && input.conditional_operator.is_none() {
        return Ok(None);
    }
    maps_without_expressions(
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values.as_ref(),
        &[ExprKind::Update, ExprKind::Condition],
    )?;
    // The key first, then AttributeUpdates, then Expected (dynalite's updateItem.js).
    validate::attribute_values(&input.key)?;
    let update = match updates {
        Some(updates) => update::expression(updates)?.map(|tree| {
            Arc::new(Expression::Update(Parsed {
                tree,
                redundant_parens: false,
            }))
        }),
        None => None,
    };
    let condition = expected_expression(expected, input.conditional_operator)?;
    Ok(Some(WriteTrees { update, condition }))
}
