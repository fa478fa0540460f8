//! BatchGetItem, BatchWriteItem, TransactGetItems and TransactWriteItems at the protocol level: the
//! exact bodies of type errors, of the wire layer's validation errors, and of successful and cancelled
//! requests, as a client that parses JSON itself sees them.

use super::*;

const SERIALIZATION: &str = "com.amazon.coral.service#SerializationException";
const VALIDATION: &str = "com.amazon.coral.validate#ValidationException";

fn null_at(path: &str) -> String {
    format!("Value null at '{path}' failed to satisfy constraint: Member must not be null")
}

fn enum_at(value: &str, path: &str, set: &str) -> String {
    format!(
        "Value '{value}' at '{path}' failed to satisfy constraint: Member must satisfy enum value \
         set: [{set}]"
    )
}

/// "N validation error(s) detected: a; b; …".
fn listed(errors: &[String]) -> String {
    let plural = if errors.len() == 1 { "" } else { "s" };
    format!(
        "{} validation error{plural} detected: {}",
        errors.len(),
        errors.join("; ")
    )
}

#[tokio::test]
async fn wrong_json_types_are_serialization_exceptions() {
    let server = start().await;
    let addr = server.local_addr();
    let short = "class java.lang.Short can not be converted to an String";
    // dynalite's `assertType` cases for the four operations (test/batchGetItem.js,
    // test/batchWriteItem.js, test/transactWriteItem.js), one per level of nesting.
    let cases: Vec<(&str, Value, &str)> = vec![
        ("BatchGetItem", json!({"RequestItems": []}), "Start of list found where not expected"),
        ("BatchGetItem", json!({"RequestItems": {"t": true}}), "Expected null"),
        ("BatchGetItem", json!({"RequestItems": {"t": {"Keys": {}}}}), "Start of structure or map found where not expected."),
        ("BatchGetItem", json!({"RequestItems": {"t": {"Keys": [5]}}}), "Expected map or null"),
        ("BatchGetItem", json!({"RequestItems": {"t": {"Keys": [{"pk": {"S": 5}}]}}}), short),
        ("BatchGetItem", json!({"RequestItems": {"t": {"Keys": [], "ConsistentRead": 1}}}), "class java.lang.Short can not be converted to an Boolean"),
        ("BatchWriteItem", json!({"RequestItems": 7}), "Expected map or null"),
        ("BatchWriteItem", json!({"RequestItems": {"t": {}}}), "Start of structure or map found where not expected."),
        ("BatchWriteItem", json!({"RequestItems": {"t": ["x"]}}), "Expected null"),
        ("BatchWriteItem", json!({"RequestItems": {"t": [{"DeleteRequest": {"Key": []}}]}}), "Start of list found where not expected"),
        ("BatchWriteItem", json!({"RequestItems": {"t": [{"PutRequest": {"Item": {"a": {"B": "abc"}}}}]}}),
            "'abc' can not be converted to a Blob: Base64 encoded length is expected a multiple of 4 bytes but found: 3"),
        ("TransactGetItems", json!({"TransactItems": {}}), "Start of structure or map found where not expected."),
        ("TransactGetItems", json!({"TransactItems": [{"Get": {"TableName": 1}}]}), short),
        ("TransactWriteItems", json!({"TransactItems": "x"}), "Expected list or null"),
        ("TransactWriteItems", json!({"TransactItems": [{"Put": 1}]}), "Expected null"),
        ("TransactWriteItems", json!({"TransactItems": [{"Update": {"UpdateExpression": 70000}}]}),
            "class java.lang.Integer can not be converted to an String"),
        ("TransactWriteItems", json!({"TransactItems": [], "ClientRequestToken": []}), "Start of list found where not expected"),
    ];
    for (operation, body, message) in cases {
        let reply = call(addr, operation, body.clone()).await;
        assert_eq!(
            (reply.status, reply.json()),
            (400, json!({"__type": SERIALIZATION, "Message": message})),
            "{operation} {body}"
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn validation_errors_of_the_wire_layer() {
    let server = start().await;
    let addr = server.local_addr();
    let p = "transactItems.1.member";
    let cases: Vec<(&str, Value, String)> = vec![
        // dynalite's early recording of this request, word for word (the table name's own constraint
        // is the engine's, reported once these are fixed).
        (
            "BatchWriteItem",
            json!({
                "RequestItems": {"aa;": [{"PutRequest": {}, "DeleteRequest": {}}]},
                "ReturnConsumedCapacity": "hi",
                "ReturnItemCollectionMetrics": "hi"
            }),
            listed(&[
                enum_at("hi", "returnConsumedCapacity", "INDEXES, TOTAL, NONE"),
                enum_at("hi", "returnItemCollectionMetrics", "SIZE, NONE"),
                null_at("requestItems.aa;.member.1.member.deleteRequest.key"),
                null_at("requestItems.aa;.member.1.member.putRequest.item"),
            ]),
        ),
        (
            "BatchGetItem",
            json!({"RequestItems": {"abc": {}, "abd": {"Keys": [null]}}, "ReturnConsumedCapacity": "hi"}),
            listed(&[
                enum_at("hi", "returnConsumedCapacity", "INDEXES, TOTAL, NONE"),
                null_at("requestItems.abc.member.keys"),
                null_at("requestItems.abd.member.keys.1.member"),
            ]),
        ),
        (
            "BatchWriteItem",
            json!({"RequestItems": {"abc": [{}]}}),
            "Supplied AttributeValue has more than one datatypes set, must contain exactly one of \
             the supported datatypes"
                .into(),
        ),
        (
            "BatchGetItem",
            json!({"RequestItems": {"abc": {"Keys": [{"a": {"S": "x"}}], "AttributesToGet": ["a", "a"]}}}),
            "One or more parameter values were invalid: Duplicate value in attribute name: a"
                .into(),
        ),
        (
            "TransactWriteItems",
            json!({}),
            listed(&[null_at("transactItems")]),
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Update": {"Key": {"pk": {"S": "a"}}}}], "ClientRequestToken": "t"}),
            listed(&[
                null_at(&format!("{p}.update.updateExpression")),
                null_at(&format!("{p}.update.tableName")),
            ]),
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"ConditionCheck": {"TableName": "t", "Key": {}}}]}),
            listed(&[null_at(&format!("{p}.conditionCheck.conditionExpression"))]),
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Put": {"Item": {}}}]}),
            listed(&[null_at(&format!("{p}.put.tableName"))]),
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{}]}),
            "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request"
                .into(),
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{
                "Put": {"TableName": "t", "Item": {"pk": {"S": "a"}}},
                "Delete": {"TableName": "t", "Key": {"pk": {"S": "a"}}}
            }]}),
            "TransactItems can only contain one of Check, Put, Update or Delete".into(),
        ),
        (
            "TransactGetItems",
            json!({"TransactItems": [{}]}),
            listed(&[null_at(&format!("{p}.get"))]),
        ),
        (
            "TransactGetItems",
            json!({"TransactItems": [{"Get": {"Key": {"pk": {"S": "a"}}}}]}),
            listed(&[null_at(&format!("{p}.get.tableName"))]),
        ),
    ];
    for (operation, body, message) in cases {
        let reply = call(addr, operation, body.clone()).await;
        assert_eq!(
            (reply.status, reply.json()),
            (400, json!({"__type": VALIDATION, "message": message})),
            "{operation} {body}"
        );
    }
    server.shutdown().await;
}

/// Sorts a list of items by their `pk`, for comparing a batch's answer (which has no order).
fn by_pk(items: &Value) -> Vec<Value> {
    let mut items = items.as_array().cloned().unwrap_or_default();
    items.sort_by_key(|item| item["pk"]["S"].as_str().unwrap_or_default().to_owned());
    items
}

#[tokio::test]
async fn batches_on_the_engine() {
    let server = start().await;
    let addr = server.local_addr();
    create_table(addr, "tbl").await;
    let item = |pk: &str, n: &str| json!({"pk": {"S": pk}, "n": {"N": n}, "x": {"S": "x"}});
    let written = call(
        addr,
        "BatchWriteItem",
        json!({"RequestItems": {"tbl": [
            {"PutRequest": {"Item": item("a", "1")}},
            {"PutRequest": {"Item": item("b", "2")}},
            {"DeleteRequest": {"Key": {"pk": {"S": "zz"}}}}
        ]}, "ReturnConsumedCapacity": "TOTAL", "ReturnItemCollectionMetrics": "SIZE"}),
    )
    .await;
    // dynalite's recording of a fully processed batch, with the capacity the engine reports: one unit
    // per write of at most 1 KB, rounded per item (the developer guide's `ProvisionedThroughput.html`), the delete of a missing item
    // included, and no ItemCollectionMetrics on a table without local secondary indexes. (DynamoDB
    // Local 3.3.1 reports 4.0 for this batch.)
    assert_eq!(
        (written.status, written.json()),
        (
            200,
            json!({"UnprocessedItems": {},
                   "ConsumedCapacity": [{"TableName": "tbl", "CapacityUnits": 3.0}]})
        )
    );

    let read = call(
        addr,
        "BatchGetItem",
        json!({"RequestItems": {"tbl": {
            "Keys": [{"pk": {"S": "b"}}, {"pk": {"S": "missing"}}, {"pk": {"S": "a"}}],
            "ProjectionExpression": "pk, #n",
            "ExpressionAttributeNames": {"#n": "n"},
            "ConsistentRead": true
        }}}),
    )
    .await
    .json();
    assert_eq!(
        read.as_object()
            .map(|o| o.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["Responses".to_owned(), "UnprocessedKeys".to_owned()])
    );
    assert_eq!(
        by_pk(&read["Responses"]["tbl"]),
        vec![
            json!({"pk": {"S": "a"}, "n": {"N": "1"}}),
            json!({"pk": {"S": "b"}, "n": {"N": "2"}})
        ]
    );
    assert_eq!(read["UnprocessedKeys"], json!({}));

    // Every requested table is in Responses, with [] when none of its keys has an item (dynalite's
    // recording "should return empty responses if keys do not exist").
    let none = call(
        addr,
        "BatchGetItem",
        json!({"RequestItems": {"tbl": {"Keys": [{"pk": {"S": "missing"}}]}}}),
    )
    .await;
    assert_eq!(
        (none.status, none.json()),
        (
            200,
            json!({"Responses": {"tbl": []}, "UnprocessedKeys": {}})
        )
    );

    // A missing RequestItems is answered as an empty one, by the engine.
    for operation in ["BatchGetItem", "BatchWriteItem"] {
        let reply = call(addr, operation, json!({"ReturnConsumedCapacity": "hi"})).await;
        assert_eq!(
            (reply.status, reply.json()),
            (
                400,
                json!({
                    "__type": VALIDATION,
                    "message": format!("The requestItems parameter is required for {operation}")
                })
            )
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn transactions_on_the_engine() {
    let server = start().await;
    let addr = server.local_addr();
    create_table(addr, "tbl").await;
    let a = json!({"pk": {"S": "a"}, "n": {"N": "1"}});
    let put_a = json!({"Put": {"TableName": "tbl", "Item": a,
        "ConditionExpression": "attribute_not_exists(pk)"}});
    let created = call(
        addr,
        "TransactWriteItems",
        json!({"TransactItems": [put_a], "ClientRequestToken": "tok-a",
               "ReturnConsumedCapacity": "NONE", "ReturnItemCollectionMetrics": "NONE"}),
    )
    .await;
    assert_eq!((created.status, created.json()), (200, json!({})));

    let read = call(
        addr,
        "TransactGetItems",
        json!({"TransactItems": [
            {"Get": {"TableName": "tbl", "Key": {"pk": {"S": "a"}}}},
            {"Get": {"TableName": "tbl", "Key": {"pk": {"S": "nope"}}}}
        ]}),
    )
    .await;
    assert_eq!(
        (read.status, read.json()),
        (200, json!({"Responses": [{"Item": a}, {}]}))
    );

    // The body of a cancelled transaction, as the service sends it (aws-sdk-net issue 1292, erlcloud
    // PR 607): `Message` capitalised, `{"Code": "None"}` alone for the action that did not fail, the
    // old item with ALL_OLD. (A failed Delete's reason, whose message both record; a ConditionCheck's
    // is the engine's business.)
    let cancelled = call(
        addr,
        "TransactWriteItems",
        json!({"TransactItems": [
            {"Put": {"TableName": "tbl", "Item": {"pk": {"S": "b"}}}},
            {"Delete": {"TableName": "tbl", "Key": {"pk": {"S": "a"}},
                "ConditionExpression": "n > :n", "ExpressionAttributeValues": {":n": {"N": "1"}},
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}
        ]}),
    )
    .await;
    assert_eq!(
        (cancelled.status, cancelled.json()),
        (
            400,
            json!({
                "__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
                "Message": "Transaction cancelled, please refer cancellation reasons for specific \
                            reasons [None, ConditionalCheckFailed]",
                "CancellationReasons": [
                    {"Code": "None"},
                    {"Code": "ConditionalCheckFailed",
                     "Message": "The conditional request failed",
                     "Item": a}
                ]
            })
        )
    );
    let b = call(
        addr,
        "GetItem",
        json!({"TableName": "tbl", "Key": {"pk": {"S": "b"}}}),
    )
    .await;
    assert_eq!(
        b.json(),
        json!({}),
        "nothing of a cancelled transaction is written"
    );

    // The same token with other actions.
    let mismatch = call(
        addr,
        "TransactWriteItems",
        json!({"TransactItems": [{"Delete": {"TableName": "tbl", "Key": {"pk": {"S": "a"}}}}],
               "ClientRequestToken": "tok-a"}),
    )
    .await
    .json();
    assert_eq!(
        mismatch["__type"],
        "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException"
    );
    assert!(mismatch["Message"].is_string(), "{mismatch}");
    assert!(mismatch.get("message").is_none(), "{mismatch}");
    server.shutdown().await;
}
