//! The hooks of the reads: `AttributesToGet` (GetItem, Query, Scan, BatchGetItem), `KeyConditions`
//! and `QueryFilter` (Query), `ScanFilter` (Scan), `ConditionalOperator` (Query, Scan).

use std::sync::Arc;

use dynomodel::backend::{
    BatchGetItemInput, ConditionalOperator, Conditions, GetItemInput, QueryInput,
    ScalarAttributeType, ScanInput, Select,
};
use dynomodel::{Error, Result};

use super::{condition, keys, mixing, tree, ReadTrees};
use crate::expr::ast::{Condition, Path, Projection};
use crate::expr::{Expression, Parsed};
use crate::read;
use crate::storage::request_hash;
use crate::validate;

/// Checks `AttributesToGet`.
///
/// A name given twice is "One or more parameter values were invalid: Duplicate value in attribute
/// name: a" in every operation (dynalite's recordings of GetItem, Query, Scan and BatchGetItem; DynamoDB
/// Local 3.3.1 says so for BatchGetItem only, "Cannot have two attributes with the same name" for the
/// others). An empty name is "Empty attribute name", as anywhere (as the service answers).
pub(super) fn check_attributes(attributes: &[String]) -> Result<()> {
    // Distinct names are the rule: their keyed 64-bit hashes go in a table of `u64`s (cheaper to
    // probe than a table of the names, whose probes compare strings). Only a hash seen twice (a
    // duplicate, or a collision no client can aim for: the keys are random) looks at the names,
    // from the start, so that the first fault in the list's order is still the one reported.
    let state = request_hash::RequestState::new();
    let mut hashes = request_hash::hashes_with_capacity(attributes.len());
    for name in attributes {
        validate::attribute_name(name)?;
        if !hashes.insert(state.hash_one(name.as_str())) {
            return check_attributes_by_name(attributes);
        }
    }
    Ok(())
}

/// [`check_attributes`] by the names themselves.
pub(super) fn check_attributes_by_name(attributes: &[String]) -> Result<()> {
    // By hash: the list has no maximum length, and a scan of the names before each was quadratic.
    let mut seen = request_hash::set_with_capacity(attributes.len());
    for name in attributes {
        validate::attribute_name(name)?;
        if !seen.insert(name.as_str()) {
            return Err(Error::validation(format!(
                "{}Duplicate value in attribute name: {name}",
                condition::INVALID
            )));
        }
    }
    Ok(())
}

/// `AttributesToGet` as projection paths (`None` for an empty list, which DynamoDB Local answers with
/// whole items; the service model's minimum length of 1 is the model validator's to enforce). The
/// names are distinct top-level attributes, so they cannot overlap: the projection needs none of an
/// expression's checks. Each name moves into its path: the callers that own their request (GetItem,
/// Query, Scan) hand its list over, BatchGetItem a copy.
pub(super) fn projection(attributes: Vec<String>) -> Result<Option<Vec<Path>>> {
    check_attributes(&attributes)?;
    Ok((!attributes.is_empty()).then(|| attributes.into_iter().map(tree::path).collect()))
}

/// A projection's paths as an item request's expression.
fn projection_expression(paths: Option<Vec<Path>>) -> Option<Arc<Expression>> {
    paths.map(|paths| {
        Arc::new(Expression::Projection(Parsed {
            tree: Projection { paths },
            redundant_parens: false,
        }))
    })
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

/// A filter (`QueryFilter`, `ScanFilter`) as a condition: its names and values move into it.
pub(super) fn filter(
    conditions: Option<Conditions>,
    op: Option<ConditionalOperator>,
) -> Result<Option<Condition>> {
    let count = conditions.as_ref().map(Conditions::len);
    let mut parts = Vec::with_capacity(count.unwrap_or(0));
    for (name, c) in conditions.into_iter().flatten() {
        parts.push(condition::condition(name, c)?);
    }
    condition::conditional_operator(op, count)?;
    Ok(condition::join(parts, op))
}

/// `GetItem`: the projection of `AttributesToGet` (`None` without it, or for an empty list), given
/// apart from the rest of the request (taken out of it by the caller, which owns the request), so
/// that its names move into the projection's paths.
pub(crate) fn get_item(
    input: &GetItemInput,
    attributes_to_get: Option<Vec<String>>,
) -> Result<Option<Arc<Expression>>> {
    mixing(
        &[("AttributesToGet", attributes_to_get.is_some())],
        &[(
            "ProjectionExpression",
            input.projection_expression.is_some(),
        )],
    )?;
    let Some(attributes) = attributes_to_get else {
        return Ok(None);
    };
    if input.expression_attribute_names.is_some() {
        return Err(Error::validation(
            "ExpressionAttributeNames can only be specified when using expressions",
        ));
    }
    Ok(projection_expression(projection(attributes)?))
}

/// The legacy members of a Query or a Scan whose names and values move into its trees: the caller,
/// which owns the request, takes them out of it before its hook runs (nothing after the hook reads
/// them; a copy and a free of each name and value of a long filter or list).
#[derive(Debug, Default)]
pub(crate) struct Taken {
    /// `QueryFilter` or `ScanFilter`.
    pub(crate) filter: Option<Conditions>,
    /// `AttributesToGet`.
    pub(crate) attributes_to_get: Option<Vec<String>>,
}

impl Taken {
    /// Takes a Query's `QueryFilter` and `AttributesToGet` out of `input`.
    pub(crate) fn query(input: &mut QueryInput) -> Taken {
        Taken {
            filter: input.query_filter.take(),
            attributes_to_get: input.attributes_to_get.take(),
        }
    }

    /// Takes a Scan's `ScanFilter` and `AttributesToGet` out of `input`.
    pub(crate) fn scan(input: &mut ScanInput) -> Taken {
        Taken {
            filter: input.scan_filter.take(),
            attributes_to_get: input.attributes_to_get.take(),
        }
    }
}

/// `Scan`: the trees of `ScanFilter` and `AttributesToGet` (none without legacy members), given
/// apart from the rest of the request ([`Taken::scan`]).
pub(crate) fn scan(input: &ScanInput, taken: Taken) -> Result<ReadTrees> {
    mixing(
        &[
            ("AttributesToGet", taken.attributes_to_get.is_some()),
            ("ScanFilter", taken.filter.is_some()),
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
    if taken.attributes_to_get.is_none()
        && taken.filter.is_none()
        && input.conditional_operator.is_none()
    {
        return Ok(ReadTrees::default());
    }
    let (names, values) = (
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values.as_ref(),
    );
    read::placeholder_maps(names, values, false)?;
    let filter = filter(taken.filter, input.conditional_operator)?;
    let projection = match taken.attributes_to_get {
        Some(attributes) => {
            select_with_attributes(input.select)?;
            projection(attributes)?
        }
        None => None,
    };
    Ok(ReadTrees {
        key_condition: None,
        filter,
        projection,
    })
}

/// `Query`: the trees of `KeyConditions`, `QueryFilter` and `AttributesToGet` (none without legacy
/// members). `key_schema` gives the key attributes of the table or index queried (`None` when it does
/// not exist: the query itself then reports it). `QueryFilter` and `AttributesToGet` are given apart
/// from the rest of the request ([`Taken::query`]).
pub(crate) fn query(
    input: &QueryInput,
    taken: Taken,
    key_schema: impl FnOnce() -> Option<Vec<(String, ScalarAttributeType)>>,
) -> Result<ReadTrees> {
    // KeyConditions may come with a FilterExpression, not with a KeyConditionExpression (dynalite's
    // validateExpressionParams; DynamoDB Local agrees).
    let key_conditions_clash =
        input.key_conditions.is_some() && input.key_condition_expression.is_some();
    mixing(
        &[
            ("AttributesToGet", taken.attributes_to_get.is_some()),
            ("QueryFilter", taken.filter.is_some()),
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
    if taken.attributes_to_get.is_none()
        && taken.filter.is_none()
        && input.conditional_operator.is_none()
        && input.key_conditions.is_none()
    {
        return Ok(ReadTrees::default());
    }
    let (names, values) = (
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values.as_ref(),
    );
    let any_expression = input.filter_expression.is_some()
        || input.projection_expression.is_some()
        || input.key_condition_expression.is_some();
    read::placeholder_maps(names, values, any_expression)?;
    let key_condition = match &input.key_conditions {
        Some(conditions) => Some(keys::key_condition(conditions, key_schema)?),
        None => None,
    };
    let filter = match taken.filter {
        Some(conditions) => filter(Some(conditions), input.conditional_operator)?,
        None => {
            condition::conditional_operator(input.conditional_operator, None)?;
            None
        }
    };
    let projection = match taken.attributes_to_get {
        Some(attributes) => {
            select_with_attributes(input.select)?;
            projection(attributes)?
        }
        None => None,
    };
    Ok(ReadTrees {
        key_condition,
        filter,
        projection,
    })
}

/// `BatchGetItem`: the projection of each table's `AttributesToGet`, in the request's table order
/// (empty when no table has one). DynamoDB refuses the two forms in one request even on different
/// tables.
pub(crate) fn batch_get_item(input: &BatchGetItemInput) -> Result<Vec<Option<Arc<Expression>>>> {
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
        return Ok(Vec::new());
    }
    let mut out = Vec::with_capacity(input.request_items.len());
    for ka in tables() {
        let Some(attributes) = &ka.attributes_to_get else {
            out.push(None);
            continue;
        };
        if ka.expression_attribute_names.is_some() {
            return Err(Error::validation(
                "ExpressionAttributeNames can only be specified when using expressions",
            ));
        }
        out.push(projection_expression(projection(attributes.to_vec())?));
    }
    Ok(out)
}
