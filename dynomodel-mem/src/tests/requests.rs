//! Request validation around expressions (placeholder maps, unused and undefined placeholders, their
//! order), GetItem projections, and the shared parse cache.

use dynomodel::backend::{
    Backend, DeleteItemInput, GetItemInput, PutItemInput, ReturnValue, ScalarAttributeType as T,
    UpdateItemInput,
};
use dynomodel::{AttributeValue, Item};
use proptest::prelude::*;

use super::{assert_validation, backend_with, item, n, names, s, ss, table_input, values};
use crate::MemBackend;

fn key() -> Item {
    item(&[("pk", s("k"))])
}

fn put(condition: Option<&str>) -> PutItemInput {
    PutItemInput {
        table_name: "tbl".into(),
        item: key(),
        condition_expression: condition.map(Into::into),
        ..Default::default()
    }
}

async fn backend() -> MemBackend {
    backend_with(table_input("tbl", T::S, None)).await
}

#[tokio::test]
async fn placeholder_maps_need_expressions() {
    let b = backend().await;
    let mut r = put(None);
    r.expression_attribute_names = names(&[("#a", "a")]);
    assert_validation(
        b.put_item(r).await,
        "ExpressionAttributeNames can only be specified when using expressions",
    );
    let mut r = put(None);
    r.expression_attribute_values = values(&[(":a", s("a"))]);
    assert_validation(
        b.put_item(r).await,
        "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression \
         is null",
    );
    let r = UpdateItemInput {
        table_name: "tbl".into(),
        key: key(),
        expression_attribute_values: values(&[(":a", s("a"))]),
        ..Default::default()
    };
    assert_validation(
        b.update_item(r).await,
        "ExpressionAttributeValues can only be specified when using expressions: UpdateExpression \
         and ConditionExpression are null",
    );
    let r = GetItemInput {
        table_name: "tbl".into(),
        key: key(),
        expression_attribute_names: names(&[("#a", "a")]),
        ..Default::default()
    };
    assert_validation(
        b.get_item(r).await,
        "ExpressionAttributeNames can only be specified when using expressions",
    );
    // Checked before the attribute values of the request (dynalite's order).
    let r = DeleteItemInput {
        table_name: "tbl".into(),
        key: item(&[("pk", ss(&[]))]),
        expression_attribute_names: names(&[("#a", "a")]),
        ..Default::default()
    };
    assert_validation(
        b.delete_item(r).await,
        "ExpressionAttributeNames can only be specified when using expressions",
    );
}

#[tokio::test]
async fn placeholder_map_contents() {
    let b = backend().await;
    let cases: Vec<(PutItemInput, &str)> = vec![
        (
            PutItemInput {
                expression_attribute_names: names(&[]),
                ..put(Some("a = a"))
            },
            "ExpressionAttributeNames must not be empty",
        ),
        (
            PutItemInput {
                expression_attribute_values: values(&[]),
                ..put(Some("a = a"))
            },
            "ExpressionAttributeValues must not be empty",
        ),
        (
            PutItemInput {
                expression_attribute_names: names(&[("a", "a")]),
                ..put(Some("a = a"))
            },
            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"",
        ),
        (
            PutItemInput {
                expression_attribute_values: values(&[(":ok", n("1")), ("v", n("1"))]),
                ..put(Some("a = :ok"))
            },
            "ExpressionAttributeValues contains invalid key: Syntax error; key: \"v\"",
        ),
        (
            PutItemInput {
                expression_attribute_values: values(&[(":v", ss(&[]))]),
                ..put(Some("a <> :v"))
            },
            "ExpressionAttributeValues contains invalid value: One or more parameter values were \
             invalid: An string set  may not be empty for key :v",
        ),
        (
            PutItemInput {
                expression_attribute_values: values(&[(":v", ss(&["x", "x"]))]),
                ..put(Some("a <> :v"))
            },
            "ExpressionAttributeValues contains invalid value: One or more parameter values were \
             invalid: Input collection [x, x] contains duplicates. for key :v",
        ),
        (
            PutItemInput {
                expression_attribute_names: names(&[("#x", "x"), ("#y", "y")]),
                expression_attribute_values: values(&[(":v", n("1")), (":w", n("1"))]),
                ..put(Some("a <> :v"))
            },
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x, #y}",
        ),
        (
            PutItemInput {
                expression_attribute_values: values(&[(":v", n("1")), (":w", n("1"))]),
                ..put(Some("a <> :v"))
            },
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}",
        ),
        (
            PutItemInput {
                expression_attribute_values: values(&[(":v", n("1"))]),
                ..put(Some("#q <> :v"))
            },
            "Invalid ConditionExpression: An expression attribute name used in the document path is \
             not defined; attribute name: #q",
        ),
        (
            put(Some("a <> :nope")),
            "Invalid ConditionExpression: An expression attribute value used in expression is not \
             defined; attribute value: :nope",
        ),
        (put(Some("")), "Invalid ConditionExpression: The expression can not be empty;"),
    ];
    for (input, message) in cases {
        assert_validation(b.put_item(input).await, message);
    }
    // Nothing was written by any of them.
    let got = b
        .get_item(GetItemInput {
            table_name: "tbl".into(),
            key: key(),
            ..Default::default()
        })
        .await
        .expect("get");
    assert_eq!(got.item, None);
}

#[tokio::test]
async fn placeholders_are_shared_across_expressions() {
    let b = backend().await;
    // `#a` used only by the condition and `:v` only by the update: both count as used.
    let r = UpdateItemInput {
        table_name: "tbl".into(),
        key: key(),
        update_expression: Some("SET x = :v".into()),
        condition_expression: Some("attribute_not_exists(#a)".into()),
        expression_attribute_names: names(&[("#a", "a")]),
        expression_attribute_values: values(&[(":v", n("1"))]),
        ..Default::default()
    };
    b.update_item(r.clone()).await.expect("all used");
    // The update expression is validated before the condition.
    let r = UpdateItemInput {
        update_expression: Some("SET x = :nope".into()),
        condition_expression: Some("#undefined = :v".into()),
        ..r
    };
    assert_validation(
        b.update_item(r).await,
        "Invalid UpdateExpression: An expression attribute value used in expression is not defined; \
         attribute value: :nope",
    );
}

#[tokio::test]
async fn validation_comes_before_the_table() {
    let b = backend().await;
    let mut r = put(Some("a = :v"));
    r.table_name = "missing".into();
    r.expression_attribute_values = values(&[(":v", ss(&[]))]);
    // Real DynamoDB validates the request first (DynamoDB Local 3.3 reports the missing table).
    assert!(matches!(
        b.put_item(r).await,
        Err(dynomodel::Error::Validation { .. })
    ));
}

#[tokio::test]
async fn return_values_per_operation() {
    let b = backend().await;
    for rv in [
        ReturnValue::AllNew,
        ReturnValue::UpdatedOld,
        ReturnValue::UpdatedNew,
    ] {
        let mut r = put(None);
        r.return_values = Some(rv);
        assert_validation(b.put_item(r).await, "Return values set to invalid value");
        let r = DeleteItemInput {
            table_name: "tbl".into(),
            key: key(),
            return_values: Some(rv),
            ..Default::default()
        };
        assert_validation(b.delete_item(r).await, "Return values set to invalid value");
    }
}

#[tokio::test]
async fn projections() {
    let b = backend().await;
    let mut full = key();
    full.extend(item(&[
        ("a", n("1")),
        ("name", s("x")),
        (
            "d",
            AttributeValue::M(item(&[("x", n("1")), ("y", n("2"))])),
        ),
        ("l", AttributeValue::L(vec![n("0"), n("1"), n("2")])),
    ]));
    b.put_item(PutItemInput {
        table_name: "tbl".into(),
        item: full,
        ..Default::default()
    })
    .await
    .expect("put");
    let get = |p: &str, ean| GetItemInput {
        table_name: "tbl".into(),
        key: key(),
        projection_expression: Some(p.into()),
        expression_attribute_names: ean,
        ..Default::default()
    };
    let got = b
        .get_item(get("#n, d.y, l[2], l[0], nope", names(&[("#n", "name")])))
        .await
        .expect("project");
    assert_eq!(
        got.item,
        Some(item(&[
            ("name", s("x")),
            ("d", AttributeValue::M(item(&[("y", n("2"))]))),
            ("l", AttributeValue::L(vec![n("0"), n("2")])),
        ]))
    );
    // An existing item with none of the attributes is an empty item, not a missing one.
    let got = b.get_item(get("nope", None)).await.expect("empty");
    assert_eq!(got.item, Some(Item::new()));
    assert_validation(
        b.get_item(get("name", None)).await,
        "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name",
    );
    assert_validation(
        b.get_item(get("a", names(&[("#n", "name")]))).await,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n}",
    );
    assert_validation(
        b.get_item(get("a, d.x, a", None)).await,
        "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or \
         rewrite one of these paths; path one: [a], path two: [a]",
    );
}

#[tokio::test]
async fn repeated_expressions_are_parsed_once() {
    let b = backend().await;
    for _ in 0..3 {
        b.put_item(PutItemInput {
            expression_attribute_values: values(&[(":v", n("1"))]),
            ..put(Some("attribute_not_exists(x) OR x = :v"))
        })
        .await
        .expect("put");
    }
    assert_eq!(b.services.cache().len(), 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Arbitrary expression texts never panic the engine and never half-apply: each request either
    /// succeeds or leaves the item as it was.
    #[test]
    fn arbitrary_expressions_never_panic(
        update in "[a-zA-Z:#\\[\\]0-9 ,.()=+-]{0,40}",
        condition in "[a-zA-Z:#\\[\\]0-9 ,.()=<>]{0,30}",
    ) {
        let rt = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
        rt.block_on(async {
            let b = backend().await;
            let before = item(&[("pk", s("k")), ("a", n("1")), ("l", AttributeValue::L(vec![n("1")]))]);
            b.put_item(PutItemInput { table_name: "tbl".into(), item: before.clone(), ..Default::default() })
                .await
                .expect("put");
            let r = UpdateItemInput {
                table_name: "tbl".into(),
                key: key(),
                update_expression: Some(update),
                condition_expression: (!condition.is_empty()).then_some(condition),
                expression_attribute_names: names(&[("#a", "a")]),
                expression_attribute_values: values(&[(":v", n("2"))]),
                ..Default::default()
            };
            let result = b.update_item(r).await;
            let after = b
                .get_item(GetItemInput { table_name: "tbl".into(), key: key(), ..Default::default() })
                .await
                .expect("get")
                .item;
            if result.is_err() {
                prop_assert_eq!(after, Some(before));
            }
            Ok(())
        })?;
    }
}
