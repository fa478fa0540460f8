//! The translator on its own: which expressions and placeholders each legacy member becomes, and the
//! checks that come before (the dual suite runs the same requests end to end on every target).

use std::collections::BTreeMap;

use dynomodel::backend::{
    AttributeAction, AttributeValueUpdate, ComparisonOperator as Op, ConditionalOperator,
    DeleteItemInput, ExpectedAttributeValue, GetItemInput, LegacyCondition, PutItemInput,
    QueryInput, ScalarAttributeType, ScanInput, UpdateItemInput,
};
use dynomodel::AttributeValue;

use super::*;
use crate::expr::Origin;

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.parse().unwrap_or_default())
}

fn map<T, const LEN: usize>(pairs: [(&str, T); LEN]) -> BTreeMap<String, T> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

fn message<T: std::fmt::Debug>(r: Result<T>) -> String {
    match r {
        Err(e) => e.message(),
        Ok(v) => format!("Ok({v:?})"),
    }
}

#[test]
fn expected_becomes_a_condition_with_generated_placeholders() {
    let input = PutItemInput {
        expected: Some(map([
            (
                "a.b",
                ExpectedAttributeValue {
                    value: Some(s("x")),
                    ..Default::default()
                },
            ),
            (
                "c",
                ExpectedAttributeValue {
                    exists: Some(false),
                    ..Default::default()
                },
            ),
        ])),
        conditional_operator: Some(ConditionalOperator::Or),
        ..Default::default()
    };
    let (out, origin) = put_item(input).unwrap_or_default();
    assert_eq!(origin, Origin::Legacy);
    assert_eq!(
        out.condition_expression.as_deref(),
        Some("(#legacy0 = :legacy1) OR (attribute_not_exists(#legacy2))")
    );
    // A name with a dot stays one attribute name.
    assert_eq!(
        out.expression_attribute_names,
        Some(map([
            ("#legacy0", "a.b".to_owned()),
            ("#legacy2", "c".to_owned())
        ]))
    );
    assert_eq!(
        out.expression_attribute_values,
        Some(map([(":legacy1", s("x"))]))
    );
    assert_eq!((out.expected, out.conditional_operator), (None, None));
}

#[test]
fn every_operator_has_its_expression() {
    let rows = [
        (Op::Eq, vec![n("1")], "#legacy0 = :legacy1"),
        (Op::Ne, vec![n("1")], "#legacy0 <> :legacy1"),
        (Op::Le, vec![n("1")], "#legacy0 <= :legacy1"),
        (Op::Lt, vec![n("1")], "#legacy0 < :legacy1"),
        (Op::Ge, vec![n("1")], "#legacy0 >= :legacy1"),
        (Op::Gt, vec![n("1")], "#legacy0 > :legacy1"),
        (Op::NotNull, vec![], "attribute_exists(#legacy0)"),
        (Op::Null, vec![], "attribute_not_exists(#legacy0)"),
        (Op::Contains, vec![s("x")], "contains(#legacy0, :legacy1)"),
        (
            Op::NotContains,
            vec![s("x")],
            "attribute_exists(#legacy0) AND NOT contains(#legacy0, :legacy1)",
        ),
        (
            Op::BeginsWith,
            vec![s("x")],
            "begins_with(#legacy0, :legacy1)",
        ),
        (
            Op::In,
            vec![n("1"), n("2"), n("3")],
            "#legacy0 IN (:legacy1, :legacy2, :legacy3)",
        ),
        (
            Op::Between,
            vec![n("1"), n("2")],
            "#legacy0 BETWEEN :legacy1 AND :legacy2",
        ),
    ];
    for (op, list, want) in rows {
        let mut p = Placeholders::default();
        let c = LegacyCondition {
            comparison_operator: op,
            attribute_value_list: Some(list),
        };
        assert_eq!(
            condition::condition("a", &c, &mut p).ok().as_deref(),
            Some(want),
            "{op:?}"
        );
    }
}

#[test]
fn attribute_updates_become_one_update_expression() {
    let input = UpdateItemInput {
        attribute_updates: Some(map([
            (
                "a",
                AttributeValueUpdate {
                    value: Some(s("v")),
                    action: None,
                },
            ),
            (
                "b",
                AttributeValueUpdate {
                    value: None,
                    action: Some(AttributeAction::Delete),
                },
            ),
            (
                "c",
                AttributeValueUpdate {
                    value: Some(n("1")),
                    action: Some(AttributeAction::Add),
                },
            ),
            (
                "d",
                AttributeValueUpdate {
                    value: Some(AttributeValue::Ss(vec!["x".into()])),
                    action: Some(AttributeAction::Delete),
                },
            ),
            (
                "e",
                AttributeValueUpdate {
                    value: Some(AttributeValue::L(vec![n("1")])),
                    action: Some(AttributeAction::Add),
                },
            ),
        ])),
        ..Default::default()
    };
    let out = update_item(&input).ok().flatten().unwrap_or_default();
    assert_eq!(
        out.update_expression.as_deref(),
        Some(
            "SET #legacy0 = :legacy1, #legacy7 = list_append(if_not_exists(#legacy7, :legacy8), \
             :legacy9) REMOVE #legacy2 ADD #legacy3 :legacy4 DELETE #legacy5 :legacy6"
        )
    );
    assert_eq!(out.condition_expression, None);
    // No legacy member: nothing to translate.
    assert!(matches!(update_item(&UpdateItemInput::default()), Ok(None)));
}

#[test]
fn key_conditions_put_the_partition_key_first_and_avoid_the_request_placeholders() {
    let input = QueryInput {
        key_conditions: Some(map([
            (
                "a_sort",
                LegacyCondition {
                    comparison_operator: Op::Gt,
                    attribute_value_list: Some(vec![n("1")]),
                },
            ),
            (
                "z_hash",
                LegacyCondition {
                    comparison_operator: Op::Eq,
                    attribute_value_list: Some(vec![s("h")]),
                },
            ),
        ])),
        filter_expression: Some("#legacy0 > :legacy0".into()),
        expression_attribute_names: Some(map([("#legacy0", "f".to_owned())])),
        expression_attribute_values: Some(map([(":legacy0", n("3"))])),
        ..Default::default()
    };
    let schema = || {
        Some(vec![
            ("z_hash".to_owned(), ScalarAttributeType::S),
            ("a_sort".to_owned(), ScalarAttributeType::N),
        ])
    };
    let out = query(&input, schema).ok().flatten().unwrap_or_default();
    assert_eq!(
        out.key_condition_expression.as_deref(),
        Some("#legacy1 = :legacy2 AND #legacy3 > :legacy4")
    );
    assert_eq!(
        out.filter_expression.as_deref(),
        Some("#legacy0 > :legacy0")
    );
    let names = out.expression_attribute_names.unwrap_or_default();
    assert_eq!(names.get("#legacy0").map(String::as_str), Some("f"));
    assert_eq!(names.get("#legacy1").map(String::as_str), Some("z_hash"));
    assert_eq!(names.get("#legacy3").map(String::as_str), Some("a_sort"));
    assert_eq!(out.expression_attribute_values.map(|v| v.len()), Some(3));
}

#[test]
fn checks_come_before_translation() {
    let bad_count = LegacyCondition {
        comparison_operator: Op::Eq,
        attribute_value_list: None,
    };
    let scan_input = ScanInput {
        scan_filter: Some(map([("a", bad_count.clone())])),
        ..Default::default()
    };
    assert_eq!(
        message(scan(&scan_input)),
        "One or more parameter values were invalid: Invalid number of argument(s) for the EQ \
         ComparisonOperator"
    );
    let query_input = QueryInput {
        key_conditions: Some(map([("a", bad_count)])),
        ..Default::default()
    };
    assert_eq!(
        message(query(&query_input, || None)),
        "One or more parameter values were invalid: Invalid number of argument(s) for the EQ \
         ComparisonOperator"
    );
    let get = GetItemInput {
        attributes_to_get: Some(vec!["a".into(), "b".into(), "a".into()]),
        ..Default::default()
    };
    assert_eq!(
        message(get_item(&get)),
        "One or more parameter values were invalid: Duplicate value in attribute name: a"
    );
    let delete = DeleteItemInput {
        expected: Some(BTreeMap::new()),
        condition_expression: Some("x".into()),
        ..Default::default()
    };
    assert_eq!(
        message(delete_item(&delete)),
        "Can not use both expression and non-expression parameters in the same request: \
         Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"
    );
    let between = ExpectedAttributeValue {
        comparison_operator: Some(Op::Between),
        attribute_value_list: Some(vec![s("b"), s("a")]),
        ..Default::default()
    };
    let mut p = Placeholders::default();
    assert_eq!(
        message(condition::expected("a", &between, &mut p)),
        "The BETWEEN condition was provided a range where the lower bound is greater than the upper \
         bound"
    );
}

#[test]
fn rewording_touches_only_the_named_message() {
    let e = update_error(Error::validation(
        "An operand in the update expression has an incorrect data type",
    ));
    assert_eq!(e.message(), "Type mismatch for attribute to update");
    let other = update_error(Error::validation("something else"));
    assert_eq!(other.message(), "something else");
}

#[test]
fn conditions_join_as_a_balanced_tree() {
    let parts = |n: usize| (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>();
    assert_eq!(condition::join(parts(0), None), None);
    assert_eq!(condition::join(parts(1), None).as_deref(), Some("(c0)"));
    assert_eq!(
        condition::join(parts(2), Some(ConditionalOperator::Or)).as_deref(),
        Some("(c0) OR (c1)")
    );
    assert_eq!(
        condition::join(parts(3), None).as_deref(),
        Some("((c0) AND (c1)) AND (c2)")
    );
    assert_eq!(
        condition::join(parts(5), None).as_deref(),
        Some("(((c0) AND (c1)) AND ((c2) AND (c3))) AND (c4)")
    );
    // 100,000 conditions nest 17 parentheses deep (log2), not 100,000.
    let joined = condition::join(parts(100_000), None).unwrap_or_default();
    let mut depth = 0usize;
    let mut deepest = 0;
    for b in joined.bytes() {
        match b {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        deepest = deepest.max(depth);
    }
    assert_eq!(deepest, 17);
}

/// The tree `join` writes in one pass is the one pairing neighbours level by level gives.
#[test]
fn conditions_join_as_level_by_level_pairing_would() {
    fn paired(parts: Vec<String>) -> String {
        let mut level: Vec<String> = parts.into_iter().map(|p| format!("({p})")).collect();
        while level.len() > 1 {
            let last = level.len() == 2;
            let mut next = Vec::new();
            let mut conditions = level.into_iter();
            while let Some(left) = conditions.next() {
                next.push(match conditions.next() {
                    Some(right) if last => format!("{left} AND {right}"),
                    Some(right) => format!("({left} AND {right})"),
                    None => left,
                });
            }
            level = next;
        }
        level.pop().unwrap_or_default()
    }
    for n in 1..=300 {
        let parts: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
        assert_eq!(
            condition::join(parts.clone(), None),
            Some(paired(parts)),
            "{n} conditions"
        );
    }
}
