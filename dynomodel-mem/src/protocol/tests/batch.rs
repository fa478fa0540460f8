//! BatchGetItem and BatchWriteItem: decoding into the typed requests, encoding of the responses, and
//! the errors of each stage (see `wire/batch.rs`).

use std::collections::BTreeMap;

use dynomodel::backend::{
    BatchGetItemInput, BatchGetItemOutput, BatchWriteItemInput, BatchWriteItemOutput,
    KeysAndAttributes, ReturnConsumedCapacity, ReturnItemCollectionMetrics, WriteRequest,
};
use dynomodel::{AttributeValue, Item};
use serde_json::json;

use super::fake::{Fake, Seen};
use super::{enum_at, key, null_at, s};
use crate::protocol::types::{START_OF_LIST, START_OF_STRUCTURE};
use crate::protocol::value::{EMPTY_VALUE, SEVERAL_TYPES};
use crate::protocol::Fault;

#[tokio::test]
async fn batch_get_decodes_every_member() {
    let fake = Fake::default();
    let seen = fake
        .decoded(
            "BatchGetItem",
            json!({
                "ReturnConsumedCapacity": "TOTAL",
                "RequestItems": {
                    "users": {
                        "Keys": [{"pk": {"S": "a"}}, {"pk": {"S": "b"}}],
                        "ConsistentRead": true,
                        "ProjectionExpression": "#n",
                        "ExpressionAttributeNames": {"#n": "name", "#x": null}
                    },
                    "teams": {"Keys": [{"pk": {"S": "t"}}], "ConsistentRead": null}
                }
            }),
        )
        .await;
    let expected = BatchGetItemInput {
        request_items: BTreeMap::from([
            (
                "users".to_owned(),
                KeysAndAttributes {
                    attributes_to_get: None,
                    keys: vec![key("a"), key("b")],
                    consistent_read: Some(true),
                    projection_expression: Some("#n".into()),
                    expression_attribute_names: Some(BTreeMap::from([(
                        "#n".to_owned(),
                        "name".to_owned(),
                    )])),
                },
            ),
            (
                "teams".to_owned(),
                KeysAndAttributes {
                    keys: vec![key("t")],
                    ..Default::default()
                },
            ),
        ]),
        return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
    };
    assert_eq!(seen, Seen::BatchGet(expected));
}

#[tokio::test]
async fn batch_get_response_always_has_both_members() {
    let fake = Fake::default();
    let body = json!({"RequestItems": {"users": {"Keys": [{"pk": {"S": "a"}}]}}});
    let (out, _) = fake.run("BatchGetItem", body.clone()).await;
    assert_eq!(
        out.unwrap(),
        json!({"Responses": {}, "UnprocessedKeys": {}})
    );

    let item: Item = [("pk".to_owned(), s("a")), ("n".to_owned(), s("x"))].into();
    let fake = Fake {
        batch_get: BatchGetItemOutput {
            responses: BTreeMap::from([
                ("users".to_owned(), vec![item]),
                ("empty".to_owned(), vec![]),
            ]),
            unprocessed_keys: BTreeMap::from([
                (
                    "teams".to_owned(),
                    KeysAndAttributes {
                        attributes_to_get: None,
                        keys: vec![key("t1"), key("t2")],
                        consistent_read: Some(false),
                        projection_expression: Some("#n, pk".into()),
                        expression_attribute_names: Some(BTreeMap::from([(
                            "#n".to_owned(),
                            "name".to_owned(),
                        )])),
                    },
                ),
                (
                    "plain".to_owned(),
                    KeysAndAttributes {
                        keys: vec![key("p")],
                        ..Default::default()
                    },
                ),
            ]),
            ..Default::default()
        },
        ..Fake::default()
    };
    let (out, _) = fake.run("BatchGetItem", body).await;
    assert_eq!(
        out.unwrap(),
        json!({
            "Responses": {
                "users": [{"pk": {"S": "a"}, "n": {"S": "x"}}],
                "empty": []
            },
            "UnprocessedKeys": {
                "teams": {
                    "Keys": [{"pk": {"S": "t1"}}, {"pk": {"S": "t2"}}],
                    "ConsistentRead": false,
                    "ProjectionExpression": "#n, pk",
                    "ExpressionAttributeNames": {"#n": "name"}
                },
                "plain": {"Keys": [{"pk": {"S": "p"}}]}
            }
        })
    );
}

#[tokio::test]
async fn batch_write_decodes_puts_and_deletes_and_encodes_unprocessed_items() {
    let fake = Fake {
        batch_write: BatchWriteItemOutput {
            unprocessed_items: BTreeMap::from([(
                "users".to_owned(),
                vec![
                    WriteRequest::Delete { key: key("b") },
                    WriteRequest::Put { item: key("c") },
                ],
            )]),
            ..Default::default()
        },
        ..Fake::default()
    };
    let body = json!({
        "ReturnConsumedCapacity": "INDEXES",
        "ReturnItemCollectionMetrics": "SIZE",
        "RequestItems": {
            "users": [
                {"PutRequest": {"Item": {"pk": {"S": "a"}, "n": {"N": "1"}}}},
                {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}, "PutRequest": null}
            ]
        }
    });
    let (out, seen) = fake.run("BatchWriteItem", body).await;
    let item: Item = [
        ("pk".to_owned(), s("a")),
        ("n".to_owned(), AttributeValue::N("1".parse().unwrap())),
    ]
    .into();
    let expected = BatchWriteItemInput {
        request_items: BTreeMap::from([(
            "users".to_owned(),
            vec![
                WriteRequest::Put { item },
                WriteRequest::Delete { key: key("b") },
            ],
        )]),
        return_consumed_capacity: Some(ReturnConsumedCapacity::Indexes),
        return_item_collection_metrics: Some(ReturnItemCollectionMetrics::Size),
    };
    assert_eq!(seen, Some(Seen::BatchWrite(expected)));
    assert_eq!(
        out.unwrap(),
        json!({"UnprocessedItems": {"users": [
            {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}},
            {"PutRequest": {"Item": {"pk": {"S": "c"}}}}
        ]}})
    );
    let fake = Fake::default();
    let body = json!({"RequestItems": {"users": [{"PutRequest": {"Item": {}}}]}});
    let (out, _) = fake.run("BatchWriteItem", body).await;
    assert_eq!(out.unwrap(), json!({"UnprocessedItems": {}}));
}

#[tokio::test]
async fn wrong_json_types_are_serialization_errors() {
    let fake = Fake::default();
    let short = "class java.lang.Short can not be converted to an String";
    let get_cases = [
        (json!({"RequestItems": []}), START_OF_LIST),
        (json!({"RequestItems": "t"}), "Expected map or null"),
        (json!({"RequestItems": {"t": "x"}}), "Expected null"),
        (json!({"RequestItems": {"t": []}}), START_OF_LIST),
        (
            json!({"RequestItems": {"t": {"Keys": {}}}}),
            START_OF_STRUCTURE,
        ),
        (
            json!({"RequestItems": {"t": {"Keys": 1}}}),
            "Expected list or null",
        ),
        (
            json!({"RequestItems": {"t": {"Keys": ["k"]}}}),
            "Expected map or null",
        ),
        (
            json!({"RequestItems": {"t": {"Keys": [{"pk": "x"}]}}}),
            "Expected null",
        ),
        (
            json!({"RequestItems": {"t": {"Keys": [{"pk": {"S": 1}}]}}}),
            short,
        ),
        (
            json!({"RequestItems": {"t": {"Keys": [], "ConsistentRead": "yes"}}}),
            "'YES' can not be converted to an Boolean",
        ),
        (
            json!({"RequestItems": {"t": {"Keys": [], "AttributesToGet": "a"}}}),
            "Expected list or null",
        ),
        (
            json!({"RequestItems": {"t": {"Keys": [], "AttributesToGet": [1]}}}),
            short,
        ),
        (
            json!({"RequestItems": {"t": {"Keys": [], "ProjectionExpression": 1}}}),
            short,
        ),
        (
            json!({"RequestItems": {"t": {"Keys": [], "ExpressionAttributeNames": {"#a": 1}}}}),
            short,
        ),
        (
            json!({"RequestItems": {}, "ReturnConsumedCapacity": 1}),
            short,
        ),
    ];
    for (body, message) in get_cases {
        let got = fake.serialization("BatchGetItem", body.clone()).await;
        assert_eq!(got.as_deref(), Some(message), "{body}");
    }
    let write_cases = [
        (json!({"RequestItems": {"t": {}}}), START_OF_STRUCTURE),
        (json!({"RequestItems": {"t": "x"}}), "Expected list or null"),
        (json!({"RequestItems": {"t": ["x"]}}), "Expected null"),
        (
            json!({"RequestItems": {"t": [{"PutRequest": []}]}}),
            START_OF_LIST,
        ),
        (
            json!({"RequestItems": {"t": [{"DeleteRequest": "x"}]}}),
            "Expected null",
        ),
        (
            json!({"RequestItems": {"t": [{"PutRequest": {"Item": []}}]}}),
            START_OF_LIST,
        ),
        (
            json!({"RequestItems": {"t": [{"DeleteRequest": {"Key": 1}}]}}),
            "Expected map or null",
        ),
        (
            json!({"RequestItems": {"t": [{"PutRequest": {"Item": {"a": true}}}]}}),
            "Expected null",
        ),
        (
            json!({"RequestItems": {}, "ReturnItemCollectionMetrics": true}),
            "class java.lang.Boolean can not be converted to an String",
        ),
        // A type error anywhere wins over validation errors found before it.
        (
            json!({
                "ReturnConsumedCapacity": "hi",
                "RequestItems": {"a": [{}], "b": [{"PutRequest": {"Item": {"x": {"N": 5}}}}]}
            }),
            short,
        ),
        // Of two type errors, the first in the list: elements are checked in order, each to the
        // bottom (dynalite's `checkTypes`).
        (
            json!({"RequestItems": {"t": [{"PutRequest": {"Item": []}}, 5]}}),
            START_OF_LIST,
        ),
    ];
    for (body, message) in write_cases {
        let got = fake.serialization("BatchWriteItem", body.clone()).await;
        assert_eq!(got.as_deref(), Some(message), "{body}");
    }
}

#[tokio::test]
async fn constraints_with_dynamodb_paths() {
    let fake = Fake::default();
    // A missing RequestItems goes to the backend as an empty one, whatever else is wrong.
    for body in [
        json!({}),
        json!({"RequestItems": null}),
        json!({"ReturnConsumedCapacity": "hi", "ReturnItemCollectionMetrics": "hi"}),
    ] {
        assert_eq!(
            fake.decoded("BatchWriteItem", body.clone()).await,
            Seen::BatchWrite(BatchWriteItemInput::default()),
            "{body}"
        );
        let (out, seen) = fake.run("BatchGetItem", body.clone()).await;
        assert_eq!(seen, Some(Seen::BatchGet(BatchGetItemInput::default())));
        assert_eq!(
            out.unwrap(),
            json!({"Responses": {}, "UnprocessedKeys": {}})
        );
    }
    // But not before type errors.
    let typed = json!({"ReturnItemCollectionMetrics": 1});
    assert!(fake.serialization("BatchWriteItem", typed).await.is_some());
    // dynalite's recordings (test/batchWriteItem.js, test/batchGetItem.js), without the table-name
    // constraints that the engine reports.
    assert_eq!(
        fake.validation(
            "BatchWriteItem",
            json!({
                "ReturnConsumedCapacity": "hi",
                "ReturnItemCollectionMetrics": "hi",
                "RequestItems": {"abc": [{"PutRequest": {"Item": {}}}]}
            })
        )
        .await,
        format!(
            "2 validation errors detected: {}; {}",
            enum_at("hi", "returnConsumedCapacity", "INDEXES, TOTAL, NONE"),
            enum_at("hi", "returnItemCollectionMetrics", "SIZE, NONE"),
        )
    );
    assert_eq!(
        fake.validation(
            "BatchWriteItem",
            json!({"RequestItems": {"aa;": [{"PutRequest": {}, "DeleteRequest": {}}]}})
        )
        .await,
        format!(
            "2 validation errors detected: {}; {}",
            null_at("requestItems.aa;.member.1.member.deleteRequest.key"),
            null_at("requestItems.aa;.member.1.member.putRequest.item")
        )
    );
    assert_eq!(
        fake.validation(
            "BatchGetItem",
            json!({"RequestItems": {"aa;": {}}, "ReturnConsumedCapacity": "hi"})
        )
        .await,
        format!(
            "2 validation errors detected: {}; {}",
            enum_at("hi", "returnConsumedCapacity", "INDEXES, TOTAL, NONE"),
            null_at("requestItems.aa;.member.keys")
        )
    );
    // JSON nulls where a table's entry, a key or a write request belongs.
    let nulls = [
        ("BatchGetItem", json!({"t": null}), "requestItems.t.member"),
        (
            "BatchGetItem",
            json!({"t": {"Keys": [{"pk": {"S": "a"}}, null]}}),
            "requestItems.t.member.keys.2.member",
        ),
        (
            "BatchWriteItem",
            json!({"t": null}),
            "requestItems.t.member",
        ),
        (
            "BatchWriteItem",
            json!({"t": [null]}),
            "requestItems.t.member.1.member",
        ),
        (
            "BatchWriteItem",
            json!({"t": [{"PutRequest": {"Item": null}}]}),
            "requestItems.t.member.1.member.putRequest.item",
        ),
    ];
    for (operation, items, path) in nulls {
        let body = json!({ "RequestItems": items });
        assert_eq!(
            fake.validation(operation, body).await,
            format!("1 validation error detected: {}", null_at(path)),
            "{operation} {items}"
        );
    }
}

#[tokio::test]
async fn write_request_shape_and_custom_messages() {
    let fake = Fake::default();
    let put = json!({"PutRequest": {"Item": {"pk": {"S": "a"}}}});
    let delete = json!({"DeleteRequest": {"Key": {"pk": {"S": "a"}}}});
    let both = json!({
        "PutRequest": {"Item": {"pk": {"S": "a"}}},
        "DeleteRequest": {"Key": {"pk": {"S": "a"}}}
    });
    for requests in [
        json!([{}]),
        json!([{"PutRequest": null, "DeleteRequest": null}]),
        json!([put, both]),
        // The shape of a table's requests is checked before the values in them.
        json!([{"PutRequest": {"Item": {"pk": {}}}}, {}]),
        json!([delete, {"Other": {}}]),
    ] {
        let body = json!({"RequestItems": {"abc": requests}});
        assert_eq!(
            fake.validation("BatchWriteItem", body).await,
            SEVERAL_TYPES,
            "{requests}"
        );
    }
    let bad_value = json!({"RequestItems": {"abc": [{"PutRequest": {"Item": {"a": {}}}}]}});
    assert_eq!(
        fake.validation("BatchWriteItem", bad_value).await,
        EMPTY_VALUE
    );
    let bad_key = json!({"RequestItems": {"abc": {"Keys": [{"a": {"S": "x", "N": "1"}}]}}});
    assert_eq!(
        fake.validation("BatchGetItem", bad_key).await,
        SEVERAL_TYPES
    );
    // The legacy AttributesToGet is decoded (the engine turns it into a projection).
    let legacy =
        json!({"RequestItems": {"abc": {"Keys": [{"a": {"S": "x"}}], "AttributesToGet": ["a"]}}});
    match fake.decoded("BatchGetItem", legacy).await {
        Seen::BatchGet(input) => assert_eq!(
            input.request_items["abc"].attributes_to_get,
            Some(vec!["a".to_owned()])
        ),
        other => panic!("{other:?}"),
    }
    // Member constraints come before custom messages.
    let both_kinds = json!({
        "ReturnConsumedCapacity": "hi",
        "RequestItems": {"abc": [{}]}
    });
    assert!(fake
        .validation("BatchWriteItem", both_kinds)
        .await
        .starts_with("1 validation error detected: Value 'hi'"));
}

#[tokio::test]
async fn backend_errors_pass_through() {
    let fake = Fake {
        error: Some(dynomodel::Error::resource_not_found(
            "Requested resource not found",
        )),
        ..Fake::default()
    };
    let body = json!({"RequestItems": {"nope": {"Keys": [{"pk": {"S": "a"}}]}}});
    let (out, seen) = fake.run("BatchGetItem", body).await;
    assert!(seen.is_some());
    assert_eq!(
        out.unwrap_err(),
        Fault::Backend(dynomodel::Error::resource_not_found(
            "Requested resource not found"
        ))
    );
}
