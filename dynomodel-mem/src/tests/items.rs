//! PutItem, GetItem and DeleteItem.

use dynomodel::backend::{
    Backend, DeleteItemInput, DescribeTableInput, GetItemInput, PutItemInput, ReturnValue,
    ScalarAttributeType as T,
};
use dynomodel::{item_size, AttributeValue, Error, Item, MAX_ITEM_SIZE};
use proptest::prelude::*;

use super::{assert_validation, backend_with, item, n, s, table_input, INVALID, MISMATCH};
use crate::MemBackend;

async fn put(b: &MemBackend, item: Item) -> Result<Option<Item>, Error> {
    b.put_item(PutItemInput {
        table_name: "tbl".into(),
        item,
        return_values: Some(ReturnValue::AllOld),
        ..Default::default()
    })
    .await
    .map(|o| o.attributes)
}

async fn get(b: &MemBackend, key: Item) -> Result<Option<Item>, Error> {
    b.get_item(GetItemInput {
        table_name: "tbl".into(),
        key,
        consistent_read: Some(true),
        ..Default::default()
    })
    .await
    .map(|o| o.item)
}

async fn delete(b: &MemBackend, key: Item) -> Result<Option<Item>, Error> {
    b.delete_item(DeleteItemInput {
        table_name: "tbl".into(),
        key,
        return_values: Some(ReturnValue::AllOld),
        ..Default::default()
    })
    .await
    .map(|o| o.attributes)
}

async fn range_table(pk: T, sk: T) -> MemBackend {
    backend_with(table_input("tbl", pk, Some(sk))).await
}

#[tokio::test]
async fn put_get_delete_round_trip() {
    let b = range_table(T::S, T::N).await;
    let first = item(&[("pk", s("a")), ("sk", n("1")), ("v", s("one"))]);
    assert_eq!(put(&b, first.clone()).await, Ok(None));
    let second = item(&[("pk", s("a")), ("sk", n("1.0")), ("v", s("two"))]);
    assert_eq!(put(&b, second.clone()).await, Ok(Some(first)));
    let key = item(&[("pk", s("a")), ("sk", n("1"))]);
    assert_eq!(get(&b, key.clone()).await, Ok(Some(second.clone())));
    let d = b
        .describe_table(DescribeTableInput {
            table_name: "tbl".into(),
        })
        .await
        .expect("describe")
        .table;
    assert_eq!(d.item_count, 1);
    assert_eq!(d.table_size_bytes as usize, item_size(&second));
    assert_eq!(delete(&b, key.clone()).await, Ok(Some(second)));
    assert_eq!(delete(&b, key.clone()).await, Ok(None));
    assert_eq!(get(&b, key).await, Ok(None));
    // ReturnValues NONE returns nothing even when an item was replaced.
    let out = b
        .put_item(PutItemInput {
            table_name: "tbl".into(),
            item: item(&[("pk", s("a")), ("sk", n("2"))]),
            return_values: None,
            ..Default::default()
        })
        .await
        .expect("put");
    assert_eq!(out.attributes, None);
}

#[tokio::test]
async fn missing_table() {
    let b = MemBackend::new();
    let nf = Err(Error::resource_not_found("Requested resource not found"));
    assert_eq!(put(&b, item(&[("pk", s("a"))])).await, nf);
    assert_eq!(get(&b, item(&[("pk", s("a"))])).await, nf);
    assert_eq!(delete(&b, item(&[("pk", s("a"))])).await, nf);
}

#[tokio::test]
async fn put_key_errors() {
    let b = range_table(T::S, T::S).await;
    assert_validation(
        put(&b, item(&[("pk", s("a"))])).await,
        &format!("{INVALID}Missing the key sk in the item"),
    );
    assert_validation(
        put(&b, item(&[("x", s("a"))])).await,
        &format!("{INVALID}Missing the key pk in the item"),
    );
    assert_validation(
        put(&b, item(&[("pk", n("1")), ("sk", s("a"))])).await,
        &format!("{INVALID}Type mismatch for key pk expected: S actual: N"),
    );
    assert_validation(
        put(
            &b,
            item(&[("pk", s("a")), ("sk", AttributeValue::Bool(true))]),
        )
        .await,
        // A value that can never be a key is one more type mismatch (as the service answers).
        &format!("{INVALID}Type mismatch for key sk expected: S actual: BOOL"),
    );
    assert_validation(
        put(&b, item(&[("pk", s("a")), ("sk", s(""))])).await,
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
         contain an empty string value. Key: sk",
    );
    let rv = b
        .put_item(PutItemInput {
            table_name: "tbl".into(),
            item: item(&[("pk", s("a")), ("sk", s("a"))]),
            return_values: Some(ReturnValue::AllNew),
            ..Default::default()
        })
        .await;
    assert_validation(rv, "Return values set to invalid value");
    // Empty strings are fine outside keys.
    assert!(
        put(&b, item(&[("pk", s("a")), ("sk", s("b")), ("e", s(""))]))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn key_sizes() {
    let b = range_table(T::S, T::S).await;
    let hash_err =
        format!("{INVALID}Size of hashkey has exceeded the maximum size limit of2048 bytes");
    let range_err = format!(
        "{INVALID}Aggregated size of all range keys has exceeded the size limit of 1024 bytes"
    );
    let key = |pk: String, sk: String| item(&[("pk", s(&pk)), ("sk", s(&sk))]);
    assert!(put(&b, key("a".repeat(2048), "a".into())).await.is_ok());
    assert_validation(put(&b, key("a".repeat(2049), "a".into())).await, &hash_err);
    // 1100 × "é" is 1100 characters but 2200 UTF-8 bytes.
    assert_validation(put(&b, key("é".repeat(1100), "a".into())).await, &hash_err);
    assert!(put(&b, key("a".into(), "a".repeat(1024))).await.is_ok());
    assert_validation(put(&b, key("a".into(), "a".repeat(1025))).await, &range_err);
    assert_validation(get(&b, key("a".repeat(2049), "a".into())).await, &hash_err);
    assert_validation(
        delete(&b, key("a".into(), "a".repeat(1025))).await,
        &range_err,
    );
    assert!(get(&b, key("é".repeat(1024), "a".into())).await.is_ok());
}

#[tokio::test]
async fn item_size_limit() {
    let b = range_table(T::S, T::S).await;
    let mut it = item(&[("pk", s("a")), ("sk", s("b"))]);
    let base = item_size(&it) + 1; // + the name "d"
    it.insert("d".into(), s(&"x".repeat(MAX_ITEM_SIZE - base)));
    assert_eq!(item_size(&it), 409_600);
    assert!(put(&b, it.clone()).await.is_ok());
    it.insert("d".into(), s(&"x".repeat(MAX_ITEM_SIZE - base + 1)));
    assert_eq!(item_size(&it), 409_601);
    assert_validation(
        put(&b, it.clone()).await,
        "Item size has exceeded the maximum allowed size",
    );
    // The size check precedes the key checks.
    it.remove("sk");
    it.insert("d2".into(), s("x"));
    assert_validation(
        put(&b, it).await,
        "Item size has exceeded the maximum allowed size",
    );
    // Multi-byte characters count as their UTF-8 bytes.
    let utf8 = item(&[
        ("pk", s("a")),
        ("sk", s("b")),
        ("d", s(&"é".repeat(210_000))),
    ]);
    assert_validation(
        put(&b, utf8).await,
        "Item size has exceeded the maximum allowed size",
    );
}

#[tokio::test]
async fn attribute_value_errors() {
    let b = range_table(T::S, T::S).await;
    let with = |v: AttributeValue| item(&[("pk", s("a")), ("sk", s("b")), ("d", v)]);
    assert_validation(
        put(&b, with(AttributeValue::Ss(vec![]))).await,
        &format!("{INVALID}An string set  may not be empty"),
    );
    let ns = AttributeValue::Ns(vec!["1".parse().expect("n"), "1.00".parse().expect("n")]);
    assert_validation(
        put(&b, with(ns)).await,
        "Input collection contains duplicates",
    );
    let mut deep = s("x");
    for _ in 0..32 {
        deep = AttributeValue::L(vec![deep]);
    }
    let r = put(&b, with(deep)).await;
    assert!(
        matches!(&r, Err(Error::Validation { message }) if message.starts_with("Nesting Levels"))
    );
}

#[tokio::test]
async fn get_and_delete_key_errors() {
    let b = range_table(T::S, T::N).await;
    for key in [
        item(&[("pk", s("a"))]),
        item(&[("pk", s("a")), ("sk", n("1")), ("x", s("a"))]),
        item(&[("pk", s("a")), ("zz", n("1"))]),
        item(&[("pk", s("a")), ("sk", s("1"))]),
        Item::new(),
    ] {
        assert_validation(get(&b, key.clone()).await, MISMATCH);
        assert_validation(delete(&b, key).await, MISMATCH);
    }
    assert_validation(
        get(&b, item(&[("pk", s("")), ("sk", n("1"))])).await,
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
         contain an empty string value. Key: pk",
    );
    let rv = b
        .delete_item(DeleteItemInput {
            table_name: "tbl".into(),
            key: item(&[("pk", s("a")), ("sk", n("1"))]),
            return_values: Some(ReturnValue::UpdatedNew),
            ..Default::default()
        })
        .await;
    assert_validation(rv, "Return values set to invalid value");
}

#[tokio::test]
async fn binary_and_number_keys() {
    let b = range_table(T::B, T::N).await;
    let key = item(&[("pk", AttributeValue::B(vec![0, 255])), ("sk", n("-1.5E3"))]);
    let mut full = key.clone();
    full.insert("v".into(), AttributeValue::Bool(true));
    put(&b, full.clone()).await.expect("put");
    let same_number = item(&[("pk", AttributeValue::B(vec![0, 255])), ("sk", n("-1500"))]);
    assert_eq!(get(&b, same_number).await, Ok(Some(full)));
    assert_validation(
        put(&b, item(&[("pk", AttributeValue::B(vec![])), ("sk", n("1"))])).await,
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
         contain an empty binary value. Key: pk",
    );
    // Numbers sort numerically within a partition.
    for v in ["10", "9", "-2", "0.5", "1E2"] {
        put(
            &b,
            item(&[("pk", AttributeValue::B(vec![1])), ("sk", n(v))]),
        )
        .await
        .expect("put");
    }
    let state = b.read();
    let table = state.tables_for_test("tbl").expect("table");
    let order: Vec<String> = table
        .items()
        .filter(|i| i.get("pk") == Some(&AttributeValue::B(vec![1])))
        .filter_map(|i| i.get("sk").map(ToString::to_string))
        .collect();
    assert_eq!(
        order,
        [
            r#"{"N":"-2"}"#,
            r#"{"N":"0.5"}"#,
            r#"{"N":"9"}"#,
            r#"{"N":"10"}"#,
            r#"{"N":"100"}"#
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_puts() {
    let b = backend_with(table_input("tbl", T::S, None)).await;
    let tasks: Vec<_> = (0..8)
        .map(|t| {
            let b = b.clone();
            tokio::spawn(async move {
                for i in 0..100 {
                    let it = item(&[("pk", s(&format!("{t}-{i}"))), ("v", n(&i.to_string()))]);
                    put(&b, it).await.expect("put");
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("task");
    }
    let d = b
        .describe_table(DescribeTableInput {
            table_name: "tbl".into(),
        })
        .await
        .expect("describe")
        .table;
    assert_eq!(d.item_count, 800);
}

fn scalar() -> impl Strategy<Value = AttributeValue> {
    prop_oneof![
        ".{0,3}".prop_map(AttributeValue::S),
        (-1000i64..1000).prop_map(|v| AttributeValue::N(v.into())),
        proptest::collection::vec(any::<u8>(), 0..3).prop_map(AttributeValue::B),
        any::<bool>().prop_map(AttributeValue::Bool),
        Just(AttributeValue::Null),
        proptest::collection::vec(".{0,2}", 0..3).prop_map(AttributeValue::Ss),
        proptest::collection::vec(-3i64..3, 0..3)
            .prop_map(|v| AttributeValue::Ns(v.into_iter().map(Into::into).collect())),
    ]
}

fn value() -> impl Strategy<Value = AttributeValue> {
    scalar().prop_recursive(4, 16, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(AttributeValue::L),
            proptest::collection::btree_map("[a-z]{0,2}", inner, 0..3).prop_map(AttributeValue::M),
        ]
    })
}

fn any_item() -> impl Strategy<Value = Item> {
    proptest::collection::btree_map(
        prop_oneof![Just("pk".to_owned()), Just("sk".to_owned()), "[a-z]{0,2}"],
        value(),
        0..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn random_requests_never_panic(ops in proptest::collection::vec((0u8..3, any_item()), 1..8)) {
        let rt = tokio::runtime::Builder::new_current_thread().build().expect("runtime");
        rt.block_on(async {
            let b = range_table(T::S, T::N).await;
            for (op, it) in ops {
                let r = match op {
                    0 => put(&b, it.clone()).await.map(|_| ()),
                    1 => get(&b, it.clone()).await.map(|_| ()),
                    _ => delete(&b, it.clone()).await.map(|_| ()),
                };
                if let Err(e) = r {
                    prop_assert_eq!(e.code(), "ValidationException");
                }
                // A successful put is readable by its key.
                if op == 0 && put(&b, it.clone()).await.is_ok() {
                    let key: Item = it
                        .iter()
                        .filter(|(k, _)| *k == "pk" || *k == "sk")
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    prop_assert_eq!(get(&b, key).await, Ok(Some(it)));
                }
            }
            Ok(())
        })?;
    }
}

#[tokio::test]
async fn request_validation_precedes_table_lookup() {
    // Real DynamoDB validates the request before it looks for the table; DynamoDB Local 3.3 reports
    // the missing table first.
    let b = MemBackend::new();
    let r = b
        .put_item(PutItemInput {
            table_name: "nope".into(),
            item: item(&[("pk", s("a")), ("d", AttributeValue::Ss(vec![]))]),
            return_values: None,
            ..Default::default()
        })
        .await;
    assert_validation(r, &format!("{INVALID}An string set  may not be empty"));
    let r = b
        .put_item(PutItemInput {
            table_name: "nope".into(),
            item: item(&[("pk", s("a"))]),
            return_values: Some(ReturnValue::AllNew),
            ..Default::default()
        })
        .await;
    assert_validation(r, "Return values set to invalid value");
}

#[tokio::test]
async fn index_key_values() {
    use dynomodel::backend::{
        GlobalSecondaryIndex, KeySchemaElement, LocalSecondaryIndex, Projection, ProjectionType,
    };
    let mut input = table_input("tbl", T::S, Some(T::S));
    input.attribute_definitions.push(super::def("g", T::S));
    input.attribute_definitions.push(super::def("gs", T::S));
    input.attribute_definitions.push(super::def("l", T::N));
    let keys_only = Projection {
        projection_type: ProjectionType::KeysOnly,
        non_key_attributes: vec![],
    };
    input.global_secondary_indexes = vec![GlobalSecondaryIndex {
        index_name: "by-g".into(),
        key_schema: vec![KeySchemaElement::hash("g"), KeySchemaElement::range("gs")],
        projection: keys_only.clone(),
        provisioned_throughput: None,
    }];
    input.local_secondary_indexes = vec![LocalSecondaryIndex {
        index_name: "by-l".into(),
        key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
        projection: keys_only,
    }];
    let b = backend_with(input).await;
    let with = |attrs: &[(&str, AttributeValue)]| {
        let mut it = item(&[("pk", s("a")), ("sk", s("b"))]);
        it.extend(item(attrs));
        it
    };
    // Sparse: items without the index keys are fine.
    assert!(put(&b, with(&[])).await.is_ok());
    assert!(put(&b, with(&[("g", s("x")), ("l", n("1"))])).await.is_ok());
    assert_validation(
        put(&b, with(&[("g", n("1"))])).await,
        &format!("{INVALID}Type mismatch for Index Key g Expected: S Actual: N IndexName: by-g"),
    );
    assert_validation(
        put(&b, with(&[("l", s("1"))])).await,
        &format!("{INVALID}Type mismatch for Index Key l Expected: N Actual: S IndexName: by-l"),
    );
    assert_validation(
        put(&b, with(&[("g", s(""))])).await,
        "One or more parameter values are not valid. A value specified for a secondary index key is \
         not supported. The AttributeValue for a key attribute cannot contain an empty string value. \
         IndexName: by-g, IndexKey: g",
    );
    assert_validation(
        put(&b, with(&[("g", s(&"x".repeat(2049)))])).await,
        &format!("{INVALID}Size of hashkey has exceeded the maximum size limit of2048 bytes"),
    );
    assert_validation(
        put(&b, with(&[("gs", s(&"x".repeat(1025)))])).await,
        &format!(
            "{INVALID}Aggregated size of all range keys has exceeded the size limit of 1024 bytes"
        ),
    );
}
