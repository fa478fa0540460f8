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

mod differential;
mod taken;
mod text;

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.parse().unwrap_or_default())
}

fn map<T, const LEN: usize>(pairs: [(&str, T); LEN]) -> BTreeMap<String, T> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// The Query hook as the engine calls it: `QueryFilter` and `AttributesToGet` taken out of a copy.
fn query_of(
    input: &QueryInput,
    key_schema: impl FnOnce() -> Option<Vec<(String, ScalarAttributeType)>>,
) -> dynomodel::Result<ReadTrees> {
    let mut input = input.clone();
    let taken = Taken::query(&mut input);
    query(&input, taken, key_schema)
}

/// The Scan hook as the engine calls it: `ScanFilter` and `AttributesToGet` taken out of a copy.
fn scan_of(input: &ScanInput) -> dynomodel::Result<ReadTrees> {
    let mut input = input.clone();
    let taken = Taken::scan(&mut input);
    scan(&input, taken)
}

fn message<T: std::fmt::Debug>(r: Result<T>) -> String {
    match r {
        Err(e) => e.message(),
        Ok(v) => format!("Ok({v:?})"),
    }
}

#[test]
fn expected_becomes_a_condition_tree_of_its_names_and_values() {
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
    let condition = put_item(&input, input.expected.clone()).ok().flatten();
    // A name with a dot stays one attribute name; values are the request's own.
    assert_eq!(
        condition.map(|c| shown(&c)).as_deref(),
        Some("a.b = S(\"x\") OR attribute_not_exists(c)")
    );
}

/// An item request's expression tree as text (names as they are, values by `Debug`).
fn shown(e: &crate::expr::Expression) -> String {
    match e {
        crate::expr::Expression::Condition(c) => c.tree.to_string(),
        crate::expr::Expression::Update(u) => u.tree.to_string(),
        crate::expr::Expression::Projection(p) => p.tree.to_string(),
    }
}

#[test]
fn every_operator_has_its_expression_in_the_text_oracle() {
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
        let mut p = text::Placeholders::default();
        let c = LegacyCondition {
            comparison_operator: op,
            attribute_value_list: Some(list),
        };
        assert_eq!(
            text::condition("a", &c, &mut p).ok().as_deref(),
            Some(want),
            "{op:?}"
        );
        // The tree is the one the text parses to, the placeholders' names and values in place.
        let mut text = want.replace("#legacy0", "a");
        for (i, v) in c.attribute_value_list.iter().flatten().enumerate() {
            text = text.replace(&format!(":legacy{}", i + 1), &format!("{v:?}"));
        }
        let tree = condition::condition("a".into(), c.clone()).map(|t| t.to_string());
        assert_eq!(tree.ok(), Some(text), "{op:?}");
    }
}

/// An `Expected` entry moves its values into its tree: the same tree as the borrowed conditions'
/// copies, whether the operand comes as `Value` or in `AttributeValueList`, and the same refusals.
#[test]
fn expected_entries_move_their_values_into_the_borrowed_conditions_trees() {
    let rows = [
        (Op::Eq, vec![n("1")]),
        (Op::Ne, vec![s("x")]),
        (Op::Lt, vec![n("1")]),
        (Op::NotNull, vec![]),
        (Op::Null, vec![]),
        (Op::Contains, vec![s("x")]),
        (Op::NotContains, vec![s("x")]),
        (Op::BeginsWith, vec![s("x")]),
        (Op::In, vec![n("1"), n("2"), n("3")]),
        (Op::Between, vec![n("1"), n("2")]),
    ];
    let tree = |r: Result<crate::expr::ast::Condition>| message(r.map(|t| t.to_string()));
    for (op, list) in rows {
        let borrowed = LegacyCondition {
            comparison_operator: op,
            attribute_value_list: Some(list.clone()),
        };
        let want = tree(condition::condition("a".into(), borrowed.clone()));
        assert!(want.starts_with("Ok("), "{op:?}: {want}");
        let listed = ExpectedAttributeValue {
            comparison_operator: Some(op),
            attribute_value_list: Some(list.clone()),
            ..Default::default()
        };
        assert_eq!(
            tree(condition::expected("a".into(), listed)),
            want,
            "{op:?}"
        );
        if let [one] = list.as_slice() {
            let valued = ExpectedAttributeValue {
                comparison_operator: Some(op),
                value: Some(one.clone()),
                ..Default::default()
            };
            assert_eq!(
                tree(condition::expected("a".into(), valued)),
                want,
                "{op:?}"
            );
        }
    }
    // `Value` alone (with or without `Exists: true`) is EQ.
    let eq = LegacyCondition {
        comparison_operator: Op::Eq,
        attribute_value_list: Some(vec![s("x")]),
    };
    for exists in [None, Some(true)] {
        let valued = ExpectedAttributeValue {
            value: Some(s("x")),
            exists,
            ..Default::default()
        };
        assert_eq!(
            tree(condition::expected("a".into(), valued)),
            tree(condition::condition("a".into(), eq.clone()))
        );
    }
    // The refusals are the checks' own, before anything moves.
    let refused = [
        (
            ExpectedAttributeValue {
                comparison_operator: Some(Op::Between),
                attribute_value_list: Some(vec![n("1")]),
                ..Default::default()
            },
            "One or more parameter values were invalid: Invalid number of argument(s) for the \
             BETWEEN ComparisonOperator",
        ),
        (
            ExpectedAttributeValue {
                comparison_operator: Some(Op::In),
                attribute_value_list: Some(vec![]),
                ..Default::default()
            },
            "One or more parameter values were invalid: Invalid number of argument(s) for the IN \
             ComparisonOperator",
        ),
        (
            ExpectedAttributeValue {
                comparison_operator: Some(Op::Eq),
                value: Some(n("1")),
                attribute_value_list: Some(vec![n("2")]),
                ..Default::default()
            },
            "One or more parameter values were invalid: Value and AttributeValueList cannot be \
             used together for Attribute: a",
        ),
        (
            ExpectedAttributeValue {
                comparison_operator: Some(Op::Eq),
                value: Some(n("1")),
                exists: Some(true),
                ..Default::default()
            },
            "One or more parameter values were invalid: Exists and ComparisonOperator cannot be \
             used together for Attribute: a",
        ),
    ];
    for (entry, want) in refused {
        assert_eq!(tree(condition::expected("a".into(), entry)), want);
    }
}

#[test]
fn attribute_updates_become_one_update_tree() {
    let mut input = UpdateItemInput {
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
    let out = update_item(&mut input).ok().flatten().unwrap_or_default();
    assert_eq!(
        out.update.map(|u| shown(&u)).as_deref(),
        Some(
            "SET a = S(\"v\"), e = list_append(if_not_exists(e, L([])), L([N(Number(1))])) \
             REMOVE b ADD c N(Number(1)) DELETE d Ss([\"x\"])"
        )
    );
    assert!(out.condition.is_none());
    // No legacy member: nothing to translate.
    assert!(matches!(
        update_item(&mut UpdateItemInput::default()),
        Ok(None)
    ));
}

#[test]
fn key_conditions_put_the_partition_key_first() {
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
    let out = query_of(&input, schema).unwrap_or_default();
    assert_eq!(
        out.key_condition.map(|c| c.to_string()).as_deref(),
        Some("z_hash = S(\"h\") AND a_sort > N(Number(1))")
    );
    // The request's own filter stays its own, its placeholders untouched.
    assert!(out.filter.is_none());
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
        message(scan_of(&scan_input)),
        "One or more parameter values were invalid: Invalid number of argument(s) for the EQ \
         ComparisonOperator"
    );
    let query_input = QueryInput {
        key_conditions: Some(map([("a", bad_count)])),
        ..Default::default()
    };
    assert_eq!(
        message(query_of(&query_input, || None)),
        "One or more parameter values were invalid: Invalid number of argument(s) for the EQ \
         ComparisonOperator"
    );
    let get = GetItemInput {
        attributes_to_get: Some(vec!["a".into(), "b".into(), "a".into()]),
        ..Default::default()
    };
    assert_eq!(
        message(get_item(&get, get.attributes_to_get.clone())),
        "One or more parameter values were invalid: Duplicate value in attribute name: a"
    );
    let delete = DeleteItemInput {
        expected: Some(BTreeMap::new()),
        condition_expression: Some("x".into()),
        ..Default::default()
    };
    assert_eq!(
        message(delete_item(&delete, delete.expected.clone())),
        "Can not use both expression and non-expression parameters in the same request: \
         Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"
    );
    let between = ExpectedAttributeValue {
        comparison_operator: Some(Op::Between),
        attribute_value_list: Some(vec![s("b"), s("a")]),
        ..Default::default()
    };
    assert_eq!(
        message(condition::expected("a".to_owned(), between)),
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

/// A condition with each chain of ANDs or ORs as one parenthesized list, whether nested pairs or
/// one flat node (the same meaning: both are associative), and the others' parentheses left out:
/// its shape.
fn shape(c: &crate::expr::ast::Condition) -> String {
    use crate::expr::ast::Condition as C;
    let chain = |word: &str| {
        let mut terms = Vec::new();
        chain_terms(c, word == "AND", &mut terms);
        format!("({})", terms.join(&format!(" {word} ")))
    };
    match c {
        C::And(..) | C::All(_) => chain("AND"),
        C::Or(..) | C::Any(_) => chain("OR"),
        C::Paren(inner) => shape(inner),
        other => other.to_string(),
    }
}

/// The shapes of the terms of the chain of ANDs (`and`) or ORs `c` is.
fn chain_terms(c: &crate::expr::ast::Condition, and: bool, out: &mut Vec<String>) {
    use crate::expr::ast::Condition as C;
    match (c, and) {
        (C::And(a, b), true) | (C::Or(a, b), false) => {
            chain_terms(a, and, out);
            chain_terms(b, and, out);
        }
        (C::All(parts), true) | (C::Any(parts), false) => {
            parts.iter().for_each(|p| chain_terms(p, and, out));
        }
        (C::Paren(inner), _) => chain_terms(inner, and, out),
        _ => out.push(shape(c)),
    }
}

fn depth(c: &crate::expr::ast::Condition) -> usize {
    use crate::expr::ast::Condition as C;
    match c {
        C::And(a, b) | C::Or(a, b) => 1 + depth(a).max(depth(b)),
        C::All(parts) | C::Any(parts) => 1 + parts.iter().map(depth).max().unwrap_or(0),
        C::Paren(inner) => depth(inner),
        _ => 0,
    }
}

fn exists(i: usize) -> crate::expr::ast::Condition {
    super::tree::call(
        "attribute_exists",
        vec![super::tree::attribute(format!("c{i}"))],
    )
}

#[test]
fn conditions_join_as_one_flat_node() {
    let parts = |n: usize| (0..n).map(exists).collect::<Vec<_>>();
    assert_eq!(condition::join(parts(0), None), None);
    let shown = |n: usize, op| condition::join(parts(n), op).map(|c| shape(&c));
    assert_eq!(shown(1, None).as_deref(), Some("attribute_exists(c0)"));
    assert_eq!(
        shown(2, Some(ConditionalOperator::Or)).as_deref(),
        Some("(attribute_exists(c0) OR attribute_exists(c1))")
    );
    assert_eq!(
        shown(3, None).as_deref(),
        Some("(attribute_exists(c0) AND attribute_exists(c1) AND attribute_exists(c2))")
    );
    // 100,000 conditions are one level deep, not 100,000, and evaluate on a small stack.
    let joined = condition::join(parts(100_000), None);
    assert_eq!(joined.as_ref().map(depth), Some(1));
    let evaluated = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let item = dynomodel::Item::new();
            let names = std::collections::BTreeMap::new();
            let values = std::collections::BTreeMap::new();
            let ph = crate::expr::Placeholders {
                names: &names,
                values: &values,
            };
            joined.map(|c| crate::expr::eval::evaluate(&c, &item, &ph))
        })
        .map(|t| t.join());
    assert!(matches!(evaluated, Ok(Ok(Some(false)))));
}

/// The tree `join` builds is the one the text oracle's balanced text parses to.
#[test]
fn conditions_join_as_the_text_translation_parses() {
    for n in 1..=300 {
        let texts: Vec<String> = (0..n).map(|i| format!("attribute_exists(c{i})")).collect();
        let text = text::join(texts, None).unwrap_or_default();
        let parsed = crate::expr::parser::parse_condition(&text).map(|p| shape(&p.tree));
        let built = condition::join((0..n).map(exists).collect(), None).map(|c| shape(&c));
        assert_eq!(parsed.ok(), built, "{n} conditions");
    }
}

/// A name given twice among tens of thousands is still found, and named, when the names all share
/// one hash of a fixed-key function (Java's `String.hashCode`): the duplicate check's table is keyed
/// at random, so they do not pile into one bucket (the test asserts the answer, not the time).
#[test]
fn a_duplicate_among_many_colliding_names_is_reported() {
    let mut names = crate::storage::request_hash::colliding_names(16);
    let get = |names: &[String]| GetItemInput {
        attributes_to_get: Some(names.to_vec()),
        ..Default::default()
    };
    let whole = get_item(&get(&names), Some(names.clone())).expect("distinct names");
    match whole.as_deref() {
        Some(Expression::Projection(p)) => assert_eq!(p.tree.paths.len(), 1 << 16),
        other => panic!("{other:?}"),
    }
    let again = names[40_000].clone();
    names.insert(50_000, again.clone());
    names.push(names[1].clone());
    assert_eq!(
        message(get_item(&get(&names), Some(names.clone()))),
        format!(
            "One or more parameter values were invalid: Duplicate value in attribute name: {again}"
        )
    );
}

/// `AttributesToGet`'s check by hashes reports what the check by names reports: the first fault in
/// the list's order (an empty name before a duplicate, or the reverse), and the check by names alone
/// (the path of a hash seen twice) passes distinct names.
#[test]
fn the_names_check_by_hashes_reports_the_first_fault_in_order() {
    let names = |list: &[&str]| -> Vec<String> { list.iter().map(|n| (*n).to_owned()).collect() };
    let duplicate =
        "One or more parameter values were invalid: Duplicate value in attribute name: b";
    let cases: [(&[&str], &str); 5] = [
        (&["a", "b", "c"], "Ok(())"),
        (&["a", "b", "c", "b"], duplicate),
        (&["a", "b", "b", ""], duplicate),
        (&["a", "", "b", "b"], "Empty attribute name"),
        (&["b", "a", "b", "a"], duplicate),
    ];
    for (list, want) in cases {
        let list = names(list);
        assert_eq!(message(read::check_attributes(&list)), want, "{list:?}");
        assert_eq!(
            message(read::check_attributes_by_name(&list)),
            want,
            "{list:?}"
        );
    }
    let many: Vec<String> = (0..100_000).map(|i| format!("a{i}")).collect();
    assert_eq!(message(read::check_attributes_by_name(&many)), "Ok(())");
}

#[test]
fn a_legacy_name_is_a_path_of_one_inline_step() {
    // A name with dots and brackets stays one attribute, held in the path without an allocation.
    for name in ["a", "a.b[1]", ""] {
        let path = super::tree::path(name.to_owned());
        assert_eq!(path.elements.len(), 1);
        assert!(!path.elements.spilled());
        assert_eq!(path.to_string(), name);
        assert!(matches!(
            path.elements.first(),
            Some(crate::expr::ast::PathElement::Name(crate::expr::ast::Name::Attribute(n))) if n == name
        ));
    }
}
