//! Query and Scan take their legacy filter and `AttributesToGet` out of the request they own
//! ([`Taken`](super::super::Taken)): through the backend, plain and typed (`query_into`, `scan_into`),
//! they read the same items and refuse with the same messages as a request whose members stayed in
//! it (the refusals name the members the request had, the QueryFilter's own wording included).

use dynomodel::backend::{
    Backend, ComparisonOperator as Op, LegacyCondition, QueryInput, ScalarAttributeType, ScanInput,
};
use dynomodel::{AttributeValue, Item};

use crate::tests::{assert_validation, backend_with, item, n, s, table_input, Collect};
use crate::MemBackend;

fn cond(op: Op, values: Vec<AttributeValue>) -> LegacyCondition {
    LegacyCondition {
        comparison_operator: op,
        attribute_value_list: (!values.is_empty()).then_some(values),
    }
}

/// `tbl` (pk S, sk N) with ten items of partition `p`, `f` = sk, `g` on the even ones.
async fn backend() -> MemBackend {
    let be = backend_with(table_input(
        "tbl",
        ScalarAttributeType::S,
        Some(ScalarAttributeType::N),
    ))
    .await;
    for i in 0..10 {
        let mut it = item(&[
            ("pk", s("p")),
            ("sk", n(&i.to_string())),
            ("f", n(&i.to_string())),
        ]);
        if i % 2 == 0 {
            it.insert("g".into(), s(&format!("v{i}")));
        }
        be.put_item(dynomodel::backend::PutItemInput {
            table_name: "tbl".into(),
            item: it,
            ..Default::default()
        })
        .await
        .expect("put");
    }
    be
}

fn sks(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .filter_map(|it| match it.get("sk") {
            Some(AttributeValue::N(v)) => Some(v.to_string()),
            _ => None,
        })
        .collect()
}

fn scan_in() -> ScanInput {
    // `f IN (1, 2, …, 6)`, `g` present, and the projection: sk 2, 4, 6.
    ScanInput {
        table_name: "tbl".into(),
        scan_filter: Some(
            [
                (
                    "f".to_owned(),
                    cond(Op::In, (1..=6).map(|i| n(&i.to_string())).collect()),
                ),
                ("g".to_owned(), cond(Op::NotNull, vec![])),
            ]
            .into(),
        ),
        attributes_to_get: Some(vec!["sk".into(), "g".into()]),
        ..Default::default()
    }
}

fn query_in() -> QueryInput {
    QueryInput {
        table_name: "tbl".into(),
        key_conditions: Some(
            [
                ("pk".to_owned(), cond(Op::Eq, vec![s("p")])),
                ("sk".to_owned(), cond(Op::Ge, vec![n("3")])),
            ]
            .into(),
        ),
        query_filter: Some([("g".to_owned(), cond(Op::Null, vec![]))].into()),
        attributes_to_get: Some(vec!["sk".into()]),
        ..Default::default()
    }
}

#[tokio::test]
async fn moved_filters_read_the_same_items_plain_and_typed() {
    let be = backend().await;
    let out = be.scan(scan_in()).await.expect("scan");
    let items = out.items.unwrap_or_default();
    assert_eq!(sks(&items), ["2", "4", "6"]);
    assert!(items.iter().all(|it| it.len() == 2), "{items:?}");
    let mut sink = Collect::default();
    be.scan_into(scan_in(), &mut sink).await.expect("scan_into");
    assert_eq!(sink.0, items);

    let out = be.query(query_in()).await.expect("query");
    let items = out.items.unwrap_or_default();
    assert_eq!(sks(&items), ["3", "5", "7", "9"]);
    assert!(items.iter().all(|it| it.len() == 1), "{items:?}");
    let mut sink = Collect::default();
    be.query_into(query_in(), &mut sink)
        .await
        .expect("query_into");
    assert_eq!(sink.0, items);
}

#[tokio::test]
async fn moved_filters_refuse_as_the_request_had_them() {
    let be = backend().await;
    // Both forms: the message lists the legacy members the request had, taken or not.
    let mixed = ScanInput {
        filter_expression: Some("f > :v".into()),
        expression_attribute_values: Some([(":v".to_owned(), n("1"))].into()),
        ..scan_in()
    };
    let both = "Can not use both expression and non-expression parameters in the same request: \
                Non-expression parameters: {AttributesToGet, ScanFilter} Expression parameters: \
                {FilterExpression}";
    assert_validation(be.scan(mixed.clone()).await, both);
    assert_validation(be.scan_into(mixed, &mut Collect::default()).await, both);
    let mixed = QueryInput {
        projection_expression: Some("sk".into()),
        ..query_in()
    };
    assert_validation(
        be.query(mixed).await,
        "Can not use both expression and non-expression parameters in the same request: \
         Non-expression parameters: {AttributesToGet, QueryFilter} Expression parameters: \
         {ProjectionExpression}",
    );
    // A QueryFilter on a key attribute keeps its own wording once the filter is taken.
    let on_key = QueryInput {
        query_filter: Some([("sk".to_owned(), cond(Op::NotNull, vec![]))].into()),
        ..query_in()
    };
    let message =
        "QueryFilter can only contain non-primary key attributes: Primary key attribute: sk";
    assert_validation(be.query(on_key.clone()).await, message);
    assert_validation(
        be.query_into(on_key, &mut Collect::default()).await,
        message,
    );
    // A bad entry of the taken filter is refused with the legacy text.
    let bad = ScanInput {
        scan_filter: Some([("f".to_owned(), cond(Op::Eq, vec![]))].into()),
        ..scan_in()
    };
    assert_validation(
        be.scan(bad).await,
        "One or more parameter values were invalid: Invalid number of argument(s) for the EQ \
         ComparisonOperator",
    );
}
