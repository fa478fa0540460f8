//! The hooks of the reads: `AttributesToGet` (GetItem, Query, Scan, BatchGetItem), `KeyConditions`
//! and `QueryFilter` (Query), `ScanFilter` (Scan), `ConditionalOperator` (Query, Scan).

use std::collections::HashSet;

use dynomodel::backend::{
    BatchGetItemInput, BatchGetItemOutput, ConditionalOperator, Conditions, GetItemInput,
    QueryInput, ScalarAttributeType, ScanInput, Select,
};
use dynomodel::{Error, Result};

use super::{condition, keys, mixing, Placeholders};
use crate::expr::Origin;
use crate::read::{self, ReadOrigins};
use crate::validate;

/// `AttributesToGet` as a ProjectionExpression (`None` for an empty list, which DynamoDB Local answers
/// with whole items; the service model's minimum length of 1 is the model validator's to enforce).
///
/// A name given twice is "One or more parameter values were invalid: Duplicate value in attribute
/// name: a" in every operation (dynalite's recordings of GetItem, Query, Scan and BatchGetItem; DynamoDB
/// Local 3.3.1 says so for BatchGetItem only, "Cannot have two attributes with the same name" for the
/// others). An empty name is "Empty attribute name", as anywhere (as the service answers).
fn projection(attributes: &[String], p: &mut Placeholders) -> Result<Option<String>> {
    // By hash: the list has no maximum length, and a scan of the names before each was quadratic.
    let mut seen = HashSet::with_capacity(attributes.len());
    for name in attributes {
        validate::attribute_name(name)?;
        if !seen.insert(name.as_str()) {
            return Err(Error::validation(format!(
                "{}Duplicate value in attribute name: {name}",
                condition::INVALID
            )));
        }
    }
    let names: Vec<String> = attributes.iter().map(|a| p.name(a)).collect();
    Ok((!names.is_empty()).then(|| names.join(", ")))
}

/// `Select` values that leave no room for `AttributesToGet`.
fn select_with_attributes(select: Option<Select>) -> Result<()> {
    let what = match select {
        Some(Select::Count) => "only the Count",
        Some(Select::AllAttributes) => "ALL_ATTRIBUTES",
        Some(Select::AllProjectedAttributes) => "ALL_PROJECTED_ATTRIBUTES",
        _ => return Ok(()),
    };
    Err(Error::validation(format!(
        "Cannot specify the AttributesToGet when choosing to get {what}"
    )))
}

/// A filter (`QueryFilter`, `ScanFilter`) as a FilterExpression.
fn filter(
    conditions: Option<&Conditions>,
    op: Option<ConditionalOperator>,
    p: &mut Placeholders,
) -> Result<Option<String>> {
    let mut parts = Vec::new();
    for (name, c) in conditions.into_iter().flatten() {
        parts.push(condition::condition(name, c, p)?);
    }
    condition::conditional_operator(op, conditions.map(Conditions::len))?;
    Ok(condition::join(parts, op))
}

/// `GetItem`: the request with `AttributesToGet` as its ProjectionExpression, `None` without it.
pub(crate) fn get_item(input: &GetItemInput) -> Result<Option<GetItemInput>> {
    mixing(
        &[("AttributesToGet", input.attributes_to_get.is_some())],
        &[(
            "ProjectionExpression",
            input.projection_expression.is_some(),
        )],
    )?;
    let Some(attributes) = &input.attributes_to_get else {
        return Ok(None);
    };
    if input.expression_attribute_names.is_some() {
        return Err(Error::validation(
            "ExpressionAttributeNames can only be specified when using expressions",
        ));
    }
    let mut p = Placeholders::default();
    let projection_expression = projection(attributes, &mut p)?;
    Ok(Some(GetItemInput {
        projection_expression,
        expression_attribute_names: p.merge(None, None).0,
        attributes_to_get: None,
        ..input.clone()
    }))
}

/// Who wrote each expression of a Query once [`query`] translated it.
pub(crate) fn query_origins(input: &QueryInput) -> ReadOrigins {
    ReadOrigins {
        key_condition: Origin::of(input.key_conditions.is_some()),
        filter: Origin::of(input.query_filter.is_some()),
        projection: Origin::of(input.attributes_to_get.is_some()),
    }
}

/// Who wrote each expression of a Scan once [`scan`] translated it.
pub(crate) fn scan_origins(input: &ScanInput) -> ReadOrigins {
    ReadOrigins {
        key_condition: Origin::Request,
        filter: Origin::of(input.scan_filter.is_some()),
        projection: Origin::of(input.attributes_to_get.is_some()),
    }
}

/// `Scan`: the request with `ScanFilter` as its FilterExpression and `AttributesToGet` as its
/// ProjectionExpression, `None` without legacy members.
pub(crate) fn scan(input: &ScanInput) -> Result<Option<ScanInput>> {
    mixing(
        &[
            ("AttributesToGet", input.attributes_to_get.is_some()),
            ("ScanFilter", input.scan_filter.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        &[
            (
                "ProjectionExpression",
                input.projection_expression.is_some(),
            ),
            ("FilterExpression", input.filter_expression.is_some()),
        ],
    )?;
    if input.attributes_to_get.is_none()
        && input.scan_filter.is_none()
        && input.conditional_operator.is_none()
    {
        return Ok(None);
    }
    let (names, values) = (
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values.as_ref(),
    );
    read::placeholder_maps(names, values, false)?;
    let mut p = Placeholders::default();
    let filter_expression = filter(
        input.scan_filter.as_ref(),
        input.conditional_operator,
        &mut p,
    )?;
    let projection_expression = match &input.attributes_to_get {
        Some(attributes) => {
            select_with_attributes(input.select)?;
            projection(attributes, &mut p)?
        }
        None => None,
    };
    let (names, values) = p.merge(None, None);
    Ok(Some(ScanInput {
        filter_expression,
        projection_expression,
        expression_attribute_names: names,
        expression_attribute_values: values,
        attributes_to_get: None,
        scan_filter: None,
        conditional_operator: None,
        ..input.clone()
    }))
}

/// `Query`: the request with `KeyConditions`, `QueryFilter` and `AttributesToGet` as expressions,
/// `None` without legacy members. `key_schema` gives the key attributes of the table or index queried
/// (`None` when it does not exist: the query itself then reports it).
pub(crate) fn query(
    input: &QueryInput,
    key_schema: impl FnOnce() -> Option<Vec<(String, ScalarAttributeType)>>,
) -> Result<Option<QueryInput>> {
    // KeyConditions may come with a FilterExpression, not with a KeyConditionExpression (dynalite's
    // validateExpressionParams; DynamoDB Local agrees).
    let key_conditions_clash =
        input.key_conditions.is_some() && input.key_condition_expression.is_some();
    mixing(
        &[
            ("AttributesToGet", input.attributes_to_get.is_some()),
            ("QueryFilter", input.query_filter.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
            ("KeyConditions", key_conditions_clash),
        ],
        &[
            (
                "ProjectionExpression",
                input.projection_expression.is_some(),
            ),
            ("FilterExpression", input.filter_expression.is_some()),
            (
                "KeyConditionExpression",
                input.key_condition_expression.is_some(),
            ),
        ],
    )?;
    if input.attributes_to_get.is_none()
        && input.query_filter.is_none()
        && input.conditional_operator.is_none()
        && input.key_conditions.is_none()
    {
        return Ok(None);
    }
    let (names, values) = (
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values.as_ref(),
    );
    let any_expression = input.filter_expression.is_some()
        || input.projection_expression.is_some()
        || input.key_condition_expression.is_some();
    read::placeholder_maps(names, values, any_expression)?;
    let mut p = Placeholders::avoiding(names, values);
    let key_condition_expression = match &input.key_conditions {
        Some(conditions) => Some(keys::key_condition(conditions, key_schema, &mut p)?),
        None => input.key_condition_expression.clone(),
    };
    let filter_expression = match &input.query_filter {
        Some(_) => filter(
            input.query_filter.as_ref(),
            input.conditional_operator,
            &mut p,
        )?,
        None => {
            condition::conditional_operator(input.conditional_operator, None)?;
            input.filter_expression.clone()
        }
    };
    let projection_expression = match &input.attributes_to_get {
        Some(attributes) => {
            select_with_attributes(input.select)?;
            projection(attributes, &mut p)?
        }
        None => input.projection_expression.clone(),
    };
    let (names, values) = p.merge(names, values);
    Ok(Some(QueryInput {
        key_condition_expression,
        filter_expression,
        projection_expression,
        expression_attribute_names: names,
        expression_attribute_values: values,
        attributes_to_get: None,
        key_conditions: None,
        query_filter: None,
        conditional_operator: None,
        ..input.clone()
    }))
}

/// `BatchGetItem`: the request with each table's `AttributesToGet` as its ProjectionExpression, `None`
/// when no table has one. DynamoDB refuses the two forms in one request even on different tables.
pub(crate) fn batch_get_item(input: &BatchGetItemInput) -> Result<Option<BatchGetItemInput>> {
    let tables = || input.request_items.values();
    mixing(
        &[(
            "AttributesToGet",
            tables().any(|ka| ka.attributes_to_get.is_some()),
        )],
        &[(
            "ProjectionExpression",
            tables().any(|ka| ka.projection_expression.is_some()),
        )],
    )?;
    if tables().all(|ka| ka.attributes_to_get.is_none()) {
        return Ok(None);
    }
    let mut out = input.clone();
    for ka in out.request_items.values_mut() {
        let Some(attributes) = ka.attributes_to_get.take() else {
            continue;
        };
        if ka.expression_attribute_names.is_some() {
            return Err(Error::validation(
                "ExpressionAttributeNames can only be specified when using expressions",
            ));
        }
        let mut p = Placeholders::default();
        ka.projection_expression = projection(&attributes, &mut p)?;
        ka.expression_attribute_names = p.merge(None, None).0;
    }
    Ok(Some(out))
}

/// Puts the tables' `AttributesToGet` back into the unprocessed keys of a translated BatchGetItem, so
/// that they can be sent again as the caller wrote them.
pub(crate) fn restore_unprocessed(original: &BatchGetItemInput, output: &mut BatchGetItemOutput) {
    for (table, ka) in output.unprocessed_keys.iter_mut() {
        if let Some(asked) = original.request_items.get(table)
            && asked.attributes_to_get.is_some()
        {
            ka.attributes_to_get = asked.attributes_to_get.clone();
            ka.projection_expression = None;
            ka.expression_attribute_names = None;
        }
    }
}
