//! ConditionExpression on PutItem and DeleteItem: every comparator and function, the empty item a
//! absent item is evaluated as, and ReturnValuesOnConditionCheckFailure.

use dynomodel::backend::{
    Backend, DeleteItemInput, PutItemInput, ReturnValue,
    ReturnValuesOnConditionCheckFailure as OnFailure, ScalarAttributeType as T,
};
use dynomodel::{AttributeValue, Item};

use super::{assert_condition_failed, backend_with, item, n, names, s, ss, table_input, values};
use crate::MemBackend;

/// The stored item every condition below is evaluated against.
fn stored() -> Item {
    item(&[
        ("pk", s("k")),
        ("name", s("Ada Lovelace")),
        ("age", n("36")),
        ("tags", ss(&["math", "poetry"])),
        ("lst", AttributeValue::L(vec![s("x"), n("2")])),
        (
            "doc",
            AttributeValue::M(item(&[("deep", s("v")), ("n1", n("1.5"))])),
        ),
        ("bin", AttributeValue::B(vec![1, 2, 3])),
        ("flag", AttributeValue::Bool(true)),
        ("nothing", AttributeValue::Null),
    ])
}

async fn setup() -> MemBackend {
    let b = backend_with(table_input("tbl", T::S, None)).await;
    b.put_item(PutItemInput {
        table_name: "tbl".into(),
        item: stored(),
        ..Default::default()
    })
    .await
    .expect("put");
    b
}

/// A conditional put of the same item: `Ok(true)` when the condition held.
async fn put_if(b: &MemBackend, condition: &str, vals: &[(&str, AttributeValue)]) -> bool {
    let r = b
        .put_item(PutItemInput {
            table_name: "tbl".into(),
            item: stored(),
            condition_expression: Some(condition.into()),
            expression_attribute_names: names(&[("#n", "name")])
                .filter(|_| condition.contains("#n")),
            expression_attribute_values: (!vals.is_empty()).then(|| item(vals)),
            ..Default::default()
        })
        .await;
    match r {
        Ok(_) => true,
        Err(e) => {
            assert_condition_failed::<()>(Err(e), None);
            false
        }
    }
}

#[tokio::test]
async fn comparators() {
    let b = setup().await;
    let cases: &[(&str, AttributeValue, bool)] = &[
        ("age = :v", n("36.0"), true),
        ("age = :v", s("36"), false),
        ("age <> :v", s("36"), true),
        ("age < :v", n("100"), true),
        ("age <= :v", n("36"), true),
        ("age > :v", n("36"), false),
        ("age >= :v", n("36"), true),
        ("#n < :v", s("B"), true),
        // Different types never order: both directions are false.
        ("age < :v", s("1"), false),
        ("age > :v", s("1"), false),
        ("bin < :v", AttributeValue::B(vec![1, 2, 4]), true),
        ("tags = :v", ss(&["poetry", "math"]), true),
        ("absent = :v", n("1"), false),
        ("absent <> :v", n("1"), true),
        ("doc.n1 = :v", n("1.50"), true),
        ("lst[1] = :v", n("2"), true),
        ("lst[5] = :v", n("2"), false),
        ("flag = :v", AttributeValue::Bool(true), true),
        ("nothing = :v", AttributeValue::Null, true),
    ];
    for (cond, v, want) in cases {
        assert_eq!(
            put_if(&b, cond, &[(":v", v.clone())]).await,
            *want,
            "{cond}"
        );
    }
}

#[tokio::test]
async fn between_in_and_logic() {
    let b = setup().await;
    let two = |lo: &str, hi: &str| vec![(":lo", n(lo)), (":hi", n(hi))];
    assert!(put_if(&b, "age BETWEEN :lo AND :hi", &two("36", "40")).await);
    assert!(!put_if(&b, "age BETWEEN :lo AND :hi", &two("37", "40")).await);
    let vals = [(":a", n("1")), (":b", n("36"))];
    assert!(put_if(&b, "age IN (:a, :b)", &vals).await);
    assert!(!put_if(&b, "absent IN (:a, :b)", &vals).await);
    assert!(put_if(&b, "age = :a OR age = :b", &vals).await);
    assert!(!put_if(&b, "age = :a AND age = :b", &vals).await);
    assert!(put_if(&b, "NOT age = :a", &vals[..1]).await);
    assert!(put_if(&b, "(age = :a OR age = :b) AND NOT (age = :a)", &vals).await);
}

#[tokio::test]
async fn functions() {
    let b = setup().await;
    assert!(put_if(&b, "attribute_exists(doc.deep)", &[]).await);
    assert!(!put_if(&b, "attribute_exists(doc.nope)", &[]).await);
    assert!(put_if(&b, "attribute_not_exists(lst[2])", &[]).await);
    assert!(!put_if(&b, "attribute_not_exists(#n)", &[]).await);
    for (path, ty, want) in [
        ("tags", "SS", true),
        ("age", "N", true),
        ("doc", "L", false),
    ] {
        let cond = format!("attribute_type({path}, :t)");
        assert_eq!(put_if(&b, &cond, &[(":t", s(ty))]).await, want, "{cond}");
    }
    assert!(put_if(&b, "begins_with(#n, :p)", &[(":p", s("Ada"))]).await);
    assert!(!put_if(&b, "begins_with(age, :p)", &[(":p", s("3"))]).await);
    assert!(
        put_if(
            &b,
            "begins_with(bin, :p)",
            &[(":p", AttributeValue::B(vec![1, 2]))]
        )
        .await
    );
    assert!(put_if(&b, "contains(#n, :p)", &[(":p", s("Love"))]).await);
    assert!(put_if(&b, "contains(tags, :p)", &[(":p", s("math"))]).await);
    assert!(!put_if(&b, "contains(tags, :p)", &[(":p", s("art"))]).await);
    assert!(put_if(&b, "contains(lst, :p)", &[(":p", n("2"))]).await);
    assert!(put_if(&b, "size(#n) = :v", &[(":v", n("12"))]).await);
    assert!(put_if(&b, "size(tags) = :v", &[(":v", n("2"))]).await);
    assert!(put_if(&b, "size(doc) < :v", &[(":v", n("3"))]).await);
    assert!(put_if(&b, "size(bin) = :v", &[(":v", n("3"))]).await);
    // size of a number is no size: the comparison is false, not an error.
    assert!(!put_if(&b, "size(age) = :v", &[(":v", n("2"))]).await);
}

#[tokio::test]
async fn absent_item_is_evaluated_as_empty() {
    let b = backend_with(table_input("tbl", T::S, None)).await;
    let fresh = item(&[("pk", s("new"))]);
    let put = |cond: &str| PutItemInput {
        table_name: "tbl".into(),
        item: fresh.clone(),
        condition_expression: Some(cond.into()),
        return_values_on_condition_check_failure: Some(OnFailure::AllOld),
        ..Default::default()
    };
    // No item: nothing to return, even with ALL_OLD.
    assert_condition_failed(b.put_item(put("attribute_exists(pk)")).await, None);
    b.put_item(put("attribute_not_exists(pk)"))
        .await
        .expect("put");
    // Now it exists: the same condition fails and returns the item when asked.
    assert_condition_failed(
        b.put_item(put("attribute_not_exists(pk)")).await,
        Some(fresh.clone()),
    );
    let mut without = put("attribute_not_exists(pk)");
    without.return_values_on_condition_check_failure = Some(OnFailure::None);
    assert_condition_failed(b.put_item(without).await, None);
}

#[tokio::test]
async fn delete_with_condition() {
    let b = setup().await;
    let key = item(&[("pk", s("k"))]);
    let delete = |cond: &str, v: AttributeValue| DeleteItemInput {
        table_name: "tbl".into(),
        key: key.clone(),
        condition_expression: Some(cond.into()),
        expression_attribute_values: values(&[(":v", v)]),
        return_values: Some(ReturnValue::AllOld),
        return_values_on_condition_check_failure: Some(OnFailure::AllOld),
        ..Default::default()
    };
    assert_condition_failed(
        b.delete_item(delete("age > :v", n("40"))).await,
        Some(stored()),
    );
    // The failed delete changed nothing.
    let out = b
        .delete_item(delete("age < :v", n("40")))
        .await
        .expect("delete");
    assert_eq!(out.attributes, Some(stored()));
    // Gone: a condition on the item now sees an empty item.
    assert_condition_failed(b.delete_item(delete("age < :v", n("40"))).await, None);
    let out = b
        .delete_item(delete("attribute_not_exists(age) OR age = :v", n("1")))
        .await
        .expect("delete of nothing");
    assert_eq!(out.attributes, None);
}

/// A write condition that looks inside a key attribute is a ValidationException before it is
/// evaluated, as in reads (DynamoDB Local 3.3.1; found by the differential test, seed 1).
#[tokio::test]
async fn conditions_may_not_look_inside_key_attributes() {
    let b = setup().await;
    let expected =
        "Key attributes must be scalars; list random access '[]' and map lookup '.' are \
                    not allowed: Key: pk";
    for condition in [
        "pk.x = :v",
        "attribute_exists(pk[0])",
        "NOT begins_with(#k.a, :v)",
    ] {
        let put = b
            .put_item(PutItemInput {
                table_name: "tbl".into(),
                item: stored(),
                condition_expression: Some(condition.into()),
                expression_attribute_names: names(&[("#k", "pk")])
                    .filter(|_| condition.contains("#k")),
                expression_attribute_values: values(&[(":v", s("k"))])
                    .filter(|_| condition.contains(":v")),
                ..Default::default()
            })
            .await;
        assert_eq!(put.unwrap_err().message(), expected, "{condition}");
    }
    let delete = b
        .delete_item(DeleteItemInput {
            table_name: "tbl".into(),
            key: item(&[("pk", s("k"))]),
            condition_expression: Some("attribute_exists(pk.x)".into()),
            ..Default::default()
        })
        .await;
    assert_eq!(delete.unwrap_err().message(), expected);
}
