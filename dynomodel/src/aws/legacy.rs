//! The legacy request parameters (`Expected`, `AttributeUpdates`, `KeyConditions`, `QueryFilter`,
//! `ScanFilter`, `ConditionalOperator`) in the SDK's shapes. Empty maps are sent as empty maps, so that
//! DynamoDB (not this module) decides what they mean.

use std::collections::HashMap;

use aws_sdk_dynamodb::types as sdk;

use super::table::built;
use super::value::to_sdk;
use crate::backend::*;
use crate::error::Result;
use crate::value::AttributeValue;

fn value_list(list: Option<Vec<AttributeValue>>) -> Option<Vec<sdk::AttributeValue>> {
    list.map(|l| l.into_iter().map(to_sdk).collect())
}

fn comparison(op: ComparisonOperator) -> sdk::ComparisonOperator {
    sdk::ComparisonOperator::from(op.as_str())
}

/// `ConditionalOperator` in the SDK's shape.
pub(crate) fn conditional_operator(
    op: Option<ConditionalOperator>,
) -> Option<sdk::ConditionalOperator> {
    op.map(|op| sdk::ConditionalOperator::from(op.as_str()))
}

/// `Expected` in the SDK's shape. Inline, the absent member's check only: the conversion of a
/// legacy member is out of line, so a request without one (nearly every request) runs none of it.
#[inline]
pub(crate) fn expected(
    expected: Option<Expected>,
) -> Option<HashMap<String, sdk::ExpectedAttributeValue>> {
    expected.map(expected_of)
}

#[cold]
#[inline(never)]
fn expected_of(expected: Expected) -> HashMap<String, sdk::ExpectedAttributeValue> {
    expected
        .into_iter()
        .map(|(name, c)| {
            let c = sdk::ExpectedAttributeValue::builder()
                .set_value(c.value.map(to_sdk))
                .set_exists(c.exists)
                .set_comparison_operator(c.comparison_operator.map(comparison))
                .set_attribute_value_list(value_list(c.attribute_value_list))
                .build();
            (name, c)
        })
        .collect()
}

/// `AttributeUpdates` in the SDK's shape.
pub(crate) fn attribute_updates(
    updates: Option<AttributeUpdates>,
) -> Option<HashMap<String, sdk::AttributeValueUpdate>> {
    updates.map(|u| {
        u.into_iter()
            .map(|(name, u)| {
                let u = sdk::AttributeValueUpdate::builder()
                    .set_value(u.value.map(to_sdk))
                    .set_action(u.action.map(|a| sdk::AttributeAction::from(a.as_str())))
                    .build();
                (name, u)
            })
            .collect()
    })
}

/// `KeyConditions`, `QueryFilter` or `ScanFilter` in the SDK's shape (inline, the absent member's
/// check only, as [`expected`]).
#[inline]
pub(crate) fn conditions(
    conditions: Option<Conditions>,
) -> Result<Option<HashMap<String, sdk::Condition>>> {
    conditions.map(conditions_of).transpose()
}

#[cold]
#[inline(never)]
fn conditions_of(conditions: Conditions) -> Result<HashMap<String, sdk::Condition>> {
    let mut out = HashMap::with_capacity(conditions.len());
    for (name, c) in conditions {
        let c = built(
            sdk::Condition::builder()
                .comparison_operator(comparison(c.comparison_operator))
                .set_attribute_value_list(value_list(c.attribute_value_list))
                .build(),
        )?;
        out.insert(name, c);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_member_reaches_the_sdk_shape() {
        let n = AttributeValue::S("1".into());
        let e = expected(Some(Expected::from([(
            "a".to_owned(),
            ExpectedAttributeValue {
                value: Some(n.clone()),
                exists: Some(true),
                comparison_operator: Some(ComparisonOperator::BeginsWith),
                attribute_value_list: Some(vec![n.clone()]),
            },
        )])))
        .unwrap_or_default();
        let a = &e["a"];
        assert_eq!(a.exists, Some(true));
        assert_eq!(
            a.comparison_operator,
            Some(sdk::ComparisonOperator::BeginsWith)
        );
        assert_eq!(a.attribute_value_list.as_ref().map(Vec::len), Some(1));
        let u = attribute_updates(Some(AttributeUpdates::from([(
            "b".to_owned(),
            AttributeValueUpdate {
                value: None,
                action: Some(AttributeAction::Delete),
            },
        )])))
        .unwrap_or_default();
        assert_eq!(u["b"].action, Some(sdk::AttributeAction::Delete));
        let c = conditions(Some(Conditions::from([(
            "c".to_owned(),
            LegacyCondition {
                comparison_operator: ComparisonOperator::NotNull,
                attribute_value_list: None,
            },
        )])))
        .ok()
        .flatten()
        .unwrap_or_default();
        assert_eq!(c["c"].comparison_operator, sdk::ComparisonOperator::NotNull);
        assert_eq!(
            conditional_operator(Some(ConditionalOperator::Or)),
            Some(sdk::ConditionalOperator::Or)
        );
    }
}
