//! The hooks of the single-item writes: `Expected` and `ConditionalOperator` (PutItem, DeleteItem,
//! UpdateItem) and `AttributeUpdates` (UpdateItem).

use dynomodel::backend::{
    ConditionalOperator, DeleteItemInput, Expected, ExpressionAttributeNames, PutItemInput,
    UpdateItemInput,
};
use dynomodel::{Item, Result};

use super::{condition, mixing, update, Placeholders};
use crate::expr::request::{self, Maps};
use crate::expr::{ExprKind, Origin};
use crate::validate;

/// What the writes' legacy members come to: the ConditionExpression of `Expected`.
fn expected_condition(
    expected: Option<&Expected>,
    op: Option<ConditionalOperator>,
    p: &mut Placeholders,
) -> Result<Option<String>> {
    condition::conditional_operator(op, expected.map(Expected::len))?;
    let mut parts = Vec::new();
    for (name, e) in expected.into_iter().flatten() {
        parts.push(condition::expected(name, e, p)?);
    }
    Ok(condition::join(parts, op))
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

/// `PutItem`: the request with `Expected` as its ConditionExpression, and who wrote that.
pub(crate) fn put_item(mut input: PutItemInput) -> Result<(PutItemInput, Origin)> {
    mixing(
        &[
            ("Expected", input.expected.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        &[("ConditionExpression", input.condition_expression.is_some())],
    )?;
    if input.expected.is_none() && input.conditional_operator.is_none() {
        return Ok((input, Origin::Request));
    }
    let (names, values) = (
        input.expression_attribute_names.take(),
        input.expression_attribute_values.take(),
    );
    maps_without_expressions(names.as_ref(), values.as_ref(), &[ExprKind::Condition])?;
    // DynamoDB checks the item and ReturnValues before `Expected` (dynalite's putItem.js); the
    // engine's own checks repeat these on the translated request, cheaply.
    let size = validate::sized_attribute_values(&input.item)?;
    validate::return_values_none_or_all_old(input.return_values)?;
    validate::item_size_within_limit(size)?;
    let mut p = Placeholders::default();
    let expected = input.expected.take();
    input.condition_expression =
        expected_condition(expected.as_ref(), input.conditional_operator.take(), &mut p)?;
    (
        input.expression_attribute_names,
        input.expression_attribute_values,
    ) = p.merge(None, None);
    Ok((input, Origin::Legacy))
}

/// `DeleteItem`: the request with `Expected` as its ConditionExpression, `None` without legacy
/// members.
pub(crate) fn delete_item(input: &DeleteItemInput) -> Result<Option<DeleteItemInput>> {
    mixing(
        &[
            ("Expected", input.expected.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        &[("ConditionExpression", input.condition_expression.is_some())],
    )?;
    if input.expected.is_none() && input.conditional_operator.is_none() {
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
    let mut p = Placeholders::default();
    let condition_expression =
        expected_condition(input.expected.as_ref(), input.conditional_operator, &mut p)?;
    let (names, values) = p.merge(None, None);
    Ok(Some(DeleteItemInput {
        condition_expression,
        expression_attribute_names: names,
        expression_attribute_values: values,
        expected: None,
        conditional_operator: None,
        ..input.clone()
    }))
}

/// `UpdateItem`: the request with `AttributeUpdates` as its UpdateExpression and `Expected` as its
/// ConditionExpression, `None` without legacy members.
pub(crate) fn update_item(input: &UpdateItemInput) -> Result<Option<UpdateItemInput>> {
    mixing(
        &[
            ("AttributeUpdates", input.attribute_updates.is_some()),
            ("Expected", input.expected.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        &[
            ("UpdateExpression", input.update_expression.is_some()),
            ("ConditionExpression", input.condition_expression.is_some()),
        ],
    )?;
    if input.attribute_updates.is_none()
        && input.expected.is_none()
        && input.conditional_operator.is_none()
    {
        return Ok(None);
    }
    maps_without_expressions(
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values.as_ref(),
        &[ExprKind::Update, ExprKind::Condition],
    )?;
    // The key first, then AttributeUpdates, then Expected (dynalite's updateItem.js).
    validate::attribute_values(&input.key)?;
    let mut p = Placeholders::default();
    let update_expression = match &input.attribute_updates {
        Some(updates) => update::expression(updates, &mut p)?,
        None => None,
    };
    let condition_expression =
        expected_condition(input.expected.as_ref(), input.conditional_operator, &mut p)?;
    let (names, values) = p.merge(None, None);
    Ok(Some(UpdateItemInput {
        update_expression,
        condition_expression,
        expression_attribute_names: names,
        expression_attribute_values: values,
        attribute_updates: None,
        expected: None,
        conditional_operator: None,
        ..input.clone()
    }))
}
