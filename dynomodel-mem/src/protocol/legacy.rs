//! DynamoDB's legacy request members on the wire: `Expected`, `AttributeUpdates`, `KeyConditions`,
//! `QueryFilter`, `ScanFilter`, `ConditionalOperator` and `AttributesToGet`.
//!
//! As everywhere in this layer, a member of the wrong JSON type is a `SerializationException` (returned
//! at once) and a member constraint (an enum value, a required `ComparisonOperator`) is recorded in the
//! [`Decoder`] at its path (`expected.<name>.member.comparisonOperator`). What the members mean is the
//! engine's business (`dynomodel_mem::legacy`).
//!
//! A request decoded in one pass has its legacy parameters decoded already (`fast::legacy`): each is
//! then a marker, taken here.

use dynomodel::backend::{
    AttributeAction, AttributeUpdates, AttributeValueUpdate, ComparisonOperator,
    ConditionalOperator, Conditions, Expected, ExpectedAttributeValue, LegacyCondition,
};
use dynomodel::AttributeValue;
use serde_json::Value;

use super::fast::legacy::Legacy;
use super::types::{list, string, structure};
use super::value::parse_attribute_value;
use super::{Decoder, Members, WireResult};

/// DynamoDB's order of the ComparisonOperator enum in its messages (recorded by several emulators).
pub(super) const COMPARISON_OPERATORS: &[(&str, ComparisonOperator)] = &[
    ("IN", ComparisonOperator::In),
    ("NULL", ComparisonOperator::Null),
    ("BETWEEN", ComparisonOperator::Between),
    ("LT", ComparisonOperator::Lt),
    ("NOT_CONTAINS", ComparisonOperator::NotContains),
    ("EQ", ComparisonOperator::Eq),
    ("GT", ComparisonOperator::Gt),
    ("NOT_NULL", ComparisonOperator::NotNull),
    ("NE", ComparisonOperator::Ne),
    ("LE", ComparisonOperator::Le),
    ("BEGINS_WITH", ComparisonOperator::BeginsWith),
    ("GE", ComparisonOperator::Ge),
    ("CONTAINS", ComparisonOperator::Contains),
];
/// DynamoDB's order again (`[OR, AND]`, as the generated service model lists it).
const CONDITIONAL_OPERATORS: &[(&str, ConditionalOperator)] = &[
    ("OR", ConditionalOperator::Or),
    ("AND", ConditionalOperator::And),
];
pub(super) const ATTRIBUTE_ACTIONS: &[(&str, AttributeAction)] = &[
    ("ADD", AttributeAction::Add),
    ("PUT", AttributeAction::Put),
    ("DELETE", AttributeAction::Delete),
];

/// An optional attribute value member.
fn value(m: &Members<'_>, name: &str, d: &mut Decoder) -> WireResult<Option<AttributeValue>> {
    m.get(name).map(|v| parse_attribute_value(v, d)).transpose()
}

/// `AttributeValueList`: a list of attribute values (`null` elements are skipped).
fn value_list(m: &Members<'_>, d: &mut Decoder) -> WireResult<Option<Vec<AttributeValue>>> {
    let Some(elements) = m.list("AttributeValueList")? else {
        return Ok(None);
    };
    let mut out = Vec::with_capacity(elements.len());
    for element in elements.iter().filter(|e| !e.is_null()) {
        out.push(parse_attribute_value(element, d)?);
    }
    Ok(Some(out))
}

/// A map member whose values are structures, each decoded at `<member>.<key>.member`.
fn map_of<T>(
    m: &Members<'_>,
    name: &str,
    d: &mut Decoder,
    mut decode: impl FnMut(&Members<'_>, &mut Decoder) -> WireResult<Option<T>>,
) -> WireResult<Option<std::collections::BTreeMap<String, T>>> {
    let Some(fields) = m.map(name)? else {
        return Ok(None);
    };
    let map_path = m.path_of(name);
    // In the map's order (serde_json's maps are sorted), so that the result is built in one pass.
    let mut out = Vec::with_capacity(fields.len());
    for (key, v) in fields {
        match structure(v)? {
            Some(inner) => {
                if let Some(decoded) = decode(&Members::entry(inner, &map_path, key), d)? {
                    out.push((key.clone(), decoded));
                }
            }
            None => d.null(&super::entry_path(&map_path, key)),
        }
    }
    Ok(Some(out.into_iter().collect()))
}

/// The member `name` as the one pass decoded it (`fast::legacy`), if it did; `pick` takes it from
/// its slot.
fn predecoded<T>(
    m: &Members<'_>,
    name: &str,
    d: &mut Decoder,
    pick: fn(Legacy) -> Option<T>,
) -> Option<WireResult<Option<T>>> {
    let decoded = d.predecoded.legacy(m.get(name)?, pick)?;
    Some(decoded.map(Some))
}

/// `Expected`.
pub(super) fn expected(m: &Members<'_>, d: &mut Decoder) -> WireResult<Option<Expected>> {
    if let Some(decoded) = predecoded(m, "Expected", d, Legacy::expected) {
        return decoded;
    }
    map_of(m, "Expected", d, |e, d| {
        Ok(Some(ExpectedAttributeValue {
            value: value(e, "Value", d)?,
            exists: e.boolean("Exists")?,
            comparison_operator: e.enumeration("ComparisonOperator", COMPARISON_OPERATORS, d)?,
            attribute_value_list: value_list(e, d)?,
        }))
    })
}

/// `AttributeUpdates`.
pub(super) fn attribute_updates(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Option<AttributeUpdates>> {
    if let Some(decoded) = predecoded(m, "AttributeUpdates", d, Legacy::updates) {
        return decoded;
    }
    map_of(m, "AttributeUpdates", d, |u, d| {
        Ok(Some(AttributeValueUpdate {
            value: value(u, "Value", d)?,
            action: u.enumeration("Action", ATTRIBUTE_ACTIONS, d)?,
        }))
    })
}

/// `KeyConditions`, `QueryFilter` or `ScanFilter` (member `name`).
pub(super) fn conditions(
    m: &Members<'_>,
    name: &str,
    d: &mut Decoder,
) -> WireResult<Option<Conditions>> {
    if let Some(decoded) = predecoded(m, name, d, Legacy::conditions) {
        return decoded;
    }
    map_of(m, name, d, |c, d| {
        let op = c.required_enumeration("ComparisonOperator", COMPARISON_OPERATORS, d)?;
        let list = value_list(c, d)?;
        Ok(op.map(|comparison_operator| LegacyCondition {
            comparison_operator,
            attribute_value_list: list,
        }))
    })
}

/// `ConditionalOperator`.
pub(super) fn conditional_operator(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Option<ConditionalOperator>> {
    m.enumeration("ConditionalOperator", CONDITIONAL_OPERATORS, d)
}

/// `AttributesToGet`: a list of names (`null` elements are skipped).
pub(super) fn attributes_to_get(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Option<Vec<String>>> {
    if let Some(decoded) = predecoded(m, "AttributesToGet", d, Legacy::names) {
        return decoded;
    }
    let Some(elements) = m.get("AttributesToGet").map(list).transpose()?.flatten() else {
        return Ok(None);
    };
    elements
        .iter()
        .filter(|v| !Value::is_null(v))
        .map(string)
        .collect::<WireResult<Vec<String>>>()
        .map(Some)
}
