//! Fuzzing the wire layer and the server with generated bodies: whatever a client sends, the answer is
//! a response or a DynamoDB-shaped 400 (with `__type`), never a panic and never a 500. Bodies are
//! arbitrary JSON whose keys are mostly DynamoDB's member names, and (for the multi-item operations)
//! mostly well-formed requests with arbitrary JSON spliced in, so that they reach deep into the
//! decoders and the engine.

use std::sync::Arc;

use dynomodel::Backend;
use dynomodel_mem::__private::wire;
use dynomodel_mem::server::Server;
use dynomodel_mem::MemBackend;
use proptest::prelude::*;
use serde_json::{json, Value};

use super::raw;

/// Arbitrary JSON, with object keys drawn mostly from DynamoDB's member names and type descriptors so
/// that generated bodies get past the first checks and reach deep into the decoders.
fn json_value() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        3 => prop::sample::select(vec![
            "TableName", "Item", "Key", "S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M",
            "KeySchema", "AttributeDefinitions", "AttributeName", "AttributeType", "KeyType",
            "BillingMode", "ProvisionedThroughput", "ReadCapacityUnits", "WriteCapacityUnits",
            "LocalSecondaryIndexes", "GlobalSecondaryIndexes", "IndexName", "Projection",
            "ProjectionType", "NonKeyAttributes", "Limit", "ExclusiveStartKey", "Select",
            "ReturnValues", "ConditionExpression", "ExpressionAttributeValues",
            "ExpressionAttributeNames", "Segment", "TotalSegments", "t", "pk",
            "RequestItems", "Keys", "ConsistentRead", "ProjectionExpression", "AttributesToGet",
            "PutRequest", "DeleteRequest", "TransactItems", "Get", "Put", "Update", "Delete",
            "ConditionCheck", "UpdateExpression", "ClientRequestToken", "tbl",
            "ReturnConsumedCapacity", "ReturnItemCollectionMetrics",
            "ReturnValuesOnConditionCheckFailure",
        ]).prop_map(str::to_owned),
        1 => "[a-zA-Z]{0,4}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        prop::sample::select(vec![
            "tbl",
            "pk",
            "S",
            "1",
            "1E400",
            "AQID",
            "HASH",
            "ALL",
            "PAY_PER_REQUEST",
            ""
        ])
        .prop_map(|s| Value::String(s.to_owned())),
        "\\PC{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn operation() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(wire::OPERATIONS.to_vec()).prop_map(str::to_owned),
        1 => "[A-Za-z]{0,12}",
    ]
}

proptest! {
    // 2,000 cases straight into the wire layer (fast), over a table that exists.
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
    #[test]
    fn wire_layer_never_panics(op in operation(), body in json_value()) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let backend = MemBackend::new();
            create_via_wire(&backend).await;
            let result = wire::call(&backend, &op, body.to_string().as_bytes()).await;
            if let Err(fault) = result {
                let (status, body) = wire::error_response(&fault);
                prop_assert_eq!(status, 400, "{}", body);
                prop_assert!(body["__type"].is_string());
            }
            Ok(())
        })?;
    }
}

async fn create_via_wire(backend: &MemBackend) {
    let body = json!({
        "TableName": "tbl",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "BillingMode": "PAY_PER_REQUEST"
    });
    wire::call(backend, "CreateTable", body.to_string().as_bytes())
        .await
        .unwrap();
}

proptest! {
    // 300 cases through a live server (each a real HTTP exchange): never a 500, always DynamoDB's headers.
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    #[test]
    fn live_server_never_answers_500(op in operation(), body in json_value(), garbage in any::<bool>()) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let backend: Arc<dyn Backend> = Arc::new(MemBackend::new());
            let server = Server::bind_shared("127.0.0.1:0", backend).await.unwrap();
            let target = format!("DynamoDB_20120810.{op}");
            let mut bytes = body.to_string().into_bytes();
            if garbage {
                bytes.truncate(bytes.len() / 2);
            }
            let reply = raw(server.local_addr(), Some(&target), &bytes).await;
            prop_assert!(reply.status == 200 || reply.status == 400, "{}", reply.status);
            prop_assert!(reply.header("x-amz-crc32").is_some());
            server.shutdown().await;
            Ok(())
        })?;
    }
}

/// An attribute value: usually well formed, sometimes anything.
fn attribute_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => "[a-c]{0,3}".prop_map(|s| json!({ "S": s })),
        1 => (-5i32..5).prop_map(|n| json!({ "N": n.to_string() })),
        1 => json_value(),
    ]
}

/// A key or an item over the test table (hash key `pk`), with an extra attribute now and then.
fn item() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => (attribute_value(), prop::option::of(attribute_value())).prop_map(|(pk, x)| {
            let mut item = json!({ "pk": pk });
            if let Some(x) = x {
                item["x"] = x;
            }
            item
        }),
        1 => json_value(),
    ]
}

fn table_name() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["tbl", "tbl", "tbl", "nope", "a;"]).prop_map(str::to_owned)
}

/// Members an action may carry besides its key or item, each present or not.
fn action_extras() -> impl Strategy<Value = Vec<(&'static str, Value)>> {
    prop::collection::vec(
        prop_oneof![
            Just(("ConditionExpression", json!("attribute_exists(pk)"))),
            Just(("ConditionExpression", json!("x = :v"))),
            Just(("ExpressionAttributeValues", json!({":v": {"S": "a"}}))),
            Just(("ExpressionAttributeNames", json!({"#p": "pk"}))),
            Just(("ProjectionExpression", json!("#p, x"))),
            Just(("ReturnValuesOnConditionCheckFailure", json!("ALL_OLD"))),
            Just(("UpdateExpression", json!("SET x = :v"))),
            Just(("ConsistentRead", json!(true))),
            json_value().prop_map(|v| ("ExpressionAttributeValues", v)),
        ],
        0..3,
    )
}

fn with_extras(mut base: Value, extras: Vec<(&'static str, Value)>) -> Value {
    if let Value::Object(map) = &mut base {
        for (name, value) in extras {
            map.insert(name.to_owned(), value);
        }
    }
    base
}

/// A write action of either kind of request (`PutRequest`/`DeleteRequest` or a transaction's).
fn write_action() -> impl Strategy<Value = Value> {
    let kind = prop::sample::select(vec![
        "PutRequest",
        "DeleteRequest",
        "Put",
        "Delete",
        "Update",
        "ConditionCheck",
        "Get",
    ]);
    prop_oneof![
        6 => (kind, table_name(), item(), action_extras()).prop_map(|(kind, table, item, extras)| {
            let member = if kind.starts_with("Put") { "Item" } else { "Key" };
            let mut action = json!({ member: item });
            if !kind.ends_with("Request") {
                action["TableName"] = json!(table);
            }
            json!({ kind: with_extras(action, extras) })
        }),
        1 => json_value(),
    ]
}

/// A request body for one of the four operations, mostly well formed, with arbitrary JSON spliced in.
fn multi_item_request() -> impl Strategy<Value = (&'static str, Value)> {
    let writes = || prop::collection::vec(write_action(), 0..5);
    prop_oneof![
        (
            prop::collection::btree_map(table_name(), writes(), 0..3),
            action_extras()
        )
            .prop_map(|(tables, extras)| {
                let body = json!({ "RequestItems": tables, "ReturnItemCollectionMetrics": "SIZE" });
                ("BatchWriteItem", with_extras(body, extras))
            }),
        (
            prop::collection::btree_map(
                table_name(),
                (prop::collection::vec(item(), 0..4), action_extras()),
                0..3
            ),
            any::<bool>()
        )
            .prop_map(|(tables, total)| {
                let tables: serde_json::Map<String, Value> = tables
                    .into_iter()
                    .map(|(t, (keys, extras))| (t, with_extras(json!({ "Keys": keys }), extras)))
                    .collect();
                let mut body = json!({ "RequestItems": tables });
                if total {
                    body["ReturnConsumedCapacity"] = json!("TOTAL");
                }
                ("BatchGetItem", body)
            }),
        (writes(), prop::option::of("[a-z]{0,40}")).prop_map(|(items, token)| {
            let mut body = json!({ "TransactItems": items });
            if let Some(token) = token {
                body["ClientRequestToken"] = json!(token);
            }
            ("TransactWriteItems", body)
        }),
        writes().prop_map(|items| ("TransactGetItems", json!({ "TransactItems": items }))),
        (
            prop::sample::select(vec![
                "BatchGetItem",
                "BatchWriteItem",
                "TransactGetItems",
                "TransactWriteItems"
            ]),
            json_value()
        ),
    ]
}

proptest! {
    // 2,000 requests straight into the wire layer over an engine with a table: every answer is a
    // response or a 400 with a `__type`, whatever the body.
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
    #[test]
    fn multi_item_requests_never_panic((operation, body) in multi_item_request()) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let backend = MemBackend::new();
            create_via_wire(&backend).await;
            let result = wire::call(&backend, operation, body.to_string().as_bytes()).await;
            match result {
                Ok(response) => prop_assert!(response.is_object(), "{}", response),
                Err(fault) => {
                    let (status, error) = wire::error_response(&fault);
                    prop_assert_eq!(status, 400, "{} {}", body, error);
                    prop_assert!(error["__type"].is_string());
                }
            }
            Ok(())
        })?;
    }
}
