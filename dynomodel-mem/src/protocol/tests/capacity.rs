//! `ReturnConsumedCapacity` / `ReturnItemCollectionMetrics` decoded on every operation that takes
//! them, and `ConsumedCapacity` / `ItemCollectionMetrics` encoded on every response that carries them.

use std::collections::BTreeMap;

use dynomodel::backend::{
    BatchGetItemOutput, BatchWriteItemOutput, Capacity, ConsumedCapacity, DeleteItemOutput,
    GetItemOutput, ItemCollectionMetrics, PutItemOutput, QueryOutput, ReturnConsumedCapacity,
    ReturnItemCollectionMetrics, TransactGetItemsOutput, TransactWriteItemsOutput,
    UpdateItemOutput,
};
use dynomodel::{AttributeValue, Error};
use serde_json::{json, Value};

use super::fake::{Fake, Seen};
use super::{enum_at, errors, key, null_at};
use crate::protocol::{error_response, Fault};

/// The operations that take `ReturnConsumedCapacity`.
const READS_AND_WRITES: [&str; 10] = [
    "PutItem",
    "GetItem",
    "DeleteItem",
    "UpdateItem",
    "Query",
    "Scan",
    "BatchGetItem",
    "BatchWriteItem",
    "TransactGetItems",
    "TransactWriteItems",
];

/// The operations that also take `ReturnItemCollectionMetrics`.
const WRITES: [&str; 5] = [
    "PutItem",
    "DeleteItem",
    "UpdateItem",
    "BatchWriteItem",
    "TransactWriteItems",
];

const RCC_SET: &str = "INDEXES, TOTAL, NONE";
const RICM_SET: &str = "SIZE, NONE";

/// A valid request of `operation` on the table `t`.
fn minimal(operation: &str) -> Value {
    let k = json!({"pk": {"S": "a"}});
    match operation {
        "PutItem" => json!({"TableName": "t", "Item": k}),
        "GetItem" | "DeleteItem" => json!({"TableName": "t", "Key": k}),
        "UpdateItem" => json!({"TableName": "t", "Key": k, "UpdateExpression": "SET v = :v",
                               "ExpressionAttributeValues": {":v": {"N": "1"}}}),
        "Query" => json!({"TableName": "t", "KeyConditionExpression": "pk = :p",
                          "ExpressionAttributeValues": {":p": {"S": "a"}}}),
        "Scan" => json!({"TableName": "t"}),
        "BatchGetItem" => json!({"RequestItems": {"t": {"Keys": [k]}}}),
        "BatchWriteItem" => json!({"RequestItems": {"t": [{"PutRequest": {"Item": k}}]}}),
        "TransactGetItems" => json!({"TransactItems": [{"Get": {"TableName": "t", "Key": k}}]}),
        "TransactWriteItems" => {
            json!({"TransactItems": [{"Put": {"TableName": "t", "Item": k}}]})
        }
        other => panic!("not an item operation: {other}"),
    }
}

/// `minimal(operation)` with `member` set to `value`.
fn with(operation: &str, member: &str, value: Value) -> Value {
    let mut body = minimal(operation);
    body[member] = value;
    body
}

/// The `ReturnConsumedCapacity` the backend was handed.
fn rcc_of(seen: &Seen) -> Option<ReturnConsumedCapacity> {
    match seen {
        Seen::Put(i) => i.return_consumed_capacity,
        Seen::Get(i) => i.return_consumed_capacity,
        Seen::Delete(i) => i.return_consumed_capacity,
        Seen::Update(i) => i.return_consumed_capacity,
        Seen::Query(i) => i.return_consumed_capacity,
        Seen::Scan(i) => i.return_consumed_capacity,
        Seen::BatchGet(i) => i.return_consumed_capacity,
        Seen::BatchWrite(i) => i.return_consumed_capacity,
        Seen::TransactGet(i) => i.return_consumed_capacity,
        Seen::TransactWrite(i) => i.return_consumed_capacity,
        other => panic!("not an item operation: {other:?}"),
    }
}

/// The `ReturnItemCollectionMetrics` the backend was handed.
fn ricm_of(seen: &Seen) -> Option<ReturnItemCollectionMetrics> {
    match seen {
        Seen::Put(i) => i.return_item_collection_metrics,
        Seen::Delete(i) => i.return_item_collection_metrics,
        Seen::Update(i) => i.return_item_collection_metrics,
        Seen::BatchWrite(i) => i.return_item_collection_metrics,
        Seen::TransactWrite(i) => i.return_item_collection_metrics,
        other => panic!("not a write: {other:?}"),
    }
}

#[tokio::test]
async fn return_consumed_capacity_is_handed_over_on_every_operation() {
    let fake = Fake::default();
    for operation in READS_AND_WRITES {
        let absent = fake.decoded(operation, minimal(operation)).await;
        assert_eq!(rcc_of(&absent), None, "{operation}");
        let null = fake
            .decoded(
                operation,
                with(operation, "ReturnConsumedCapacity", Value::Null),
            )
            .await;
        assert_eq!(rcc_of(&null), None, "{operation}");
        for (text, value) in [
            ("NONE", ReturnConsumedCapacity::None),
            ("TOTAL", ReturnConsumedCapacity::Total),
            ("INDEXES", ReturnConsumedCapacity::Indexes),
        ] {
            let body = with(operation, "ReturnConsumedCapacity", json!(text));
            let seen = fake.decoded(operation, body).await;
            assert_eq!(rcc_of(&seen), Some(value), "{operation} {text}");
        }
    }
}

#[tokio::test]
async fn return_item_collection_metrics_is_handed_over_on_every_write() {
    let fake = Fake::default();
    for operation in WRITES {
        let absent = fake.decoded(operation, minimal(operation)).await;
        assert_eq!(ricm_of(&absent), None, "{operation}");
        for (text, value) in [
            ("NONE", ReturnItemCollectionMetrics::None),
            ("SIZE", ReturnItemCollectionMetrics::Size),
        ] {
            let body = with(operation, "ReturnItemCollectionMetrics", json!(text));
            let seen = fake.decoded(operation, body).await;
            assert_eq!(ricm_of(&seen), Some(value), "{operation} {text}");
        }
    }
}

#[tokio::test]
async fn a_value_outside_the_enum_is_the_models_constraint_error() {
    let fake = Fake::default();
    for operation in READS_AND_WRITES {
        // Lower case is not accepted: the enum is matched exactly, as by the service.
        for bad in ["hi", "total", ""] {
            let body = with(operation, "ReturnConsumedCapacity", json!(bad));
            assert_eq!(
                fake.validation(operation, body).await,
                errors(&[enum_at(bad, "returnConsumedCapacity", RCC_SET)]),
                "{operation}"
            );
        }
    }
    for operation in WRITES {
        let body = with(operation, "ReturnItemCollectionMetrics", json!("INDEXES"));
        assert_eq!(
            fake.validation(operation, body).await,
            errors(&[enum_at("INDEXES", "returnItemCollectionMetrics", RICM_SET)]),
            "{operation}"
        );
    }
}

#[tokio::test]
async fn wrong_json_types_are_serialization_errors() {
    let fake = Fake::default();
    for operation in READS_AND_WRITES {
        let body = with(operation, "ReturnConsumedCapacity", json!(1));
        assert_eq!(
            fake.serialization(operation, body).await.as_deref(),
            Some("class java.lang.Short can not be converted to an String"),
            "{operation}"
        );
    }
    for operation in WRITES {
        let body = with(operation, "ReturnItemCollectionMetrics", json!(["SIZE"]));
        assert_eq!(
            fake.serialization(operation, body).await.as_deref(),
            Some("Start of list found where not expected"),
            "{operation}"
        );
    }
}

/// The order of the constraint messages, as dynalite recorded it against the service: its "incorrect
/// attributes" cases, less the table name's pattern (which the backend reports, see `mod.rs`).
#[tokio::test]
async fn constraints_are_listed_in_the_services_order() {
    let fake = Fake::default();
    let bad = json!({"TableName": "abc", "ReturnConsumedCapacity": "hi",
                     "ReturnItemCollectionMetrics": "hi", "ReturnValues": "hi"});
    let rcc = enum_at("hi", "returnConsumedCapacity", RCC_SET);
    let ricm = enum_at("hi", "returnItemCollectionMetrics", RICM_SET);
    let return_values = enum_at(
        "hi",
        "returnValues",
        "ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW",
    );
    // test/putItem.js.
    assert_eq!(
        fake.validation("PutItem", bad.clone()).await,
        errors(&[
            rcc.clone(),
            null_at("item"),
            return_values.clone(),
            ricm.clone()
        ])
    );
    // test/deleteItem.js; UpdateItem has the same members (see item.rs).
    for operation in ["DeleteItem", "UpdateItem"] {
        assert_eq!(
            fake.validation(operation, bad.clone()).await,
            errors(&[
                rcc.clone(),
                return_values.clone(),
                ricm.clone(),
                null_at("key")
            ]),
            "{operation}"
        );
    }
    // test/transactWriteItems.js.
    let missing = json!({"ReturnConsumedCapacity": "hi", "ReturnItemCollectionMetrics": "hi"});
    assert_eq!(
        fake.validation("TransactWriteItems", missing).await,
        errors(&[rcc.clone(), ricm.clone(), null_at("transactItems")])
    );
    // test/batchWriteItem.js lists the enums before the table's entries.
    let body = json!({"ReturnConsumedCapacity": "hi", "ReturnItemCollectionMetrics": "hi",
                      "RequestItems": {"t": [{"PutRequest": {}}]}});
    assert_eq!(
        fake.validation("BatchWriteItem", body).await,
        errors(&[
            rcc,
            ricm,
            null_at("requestItems.t.member.1.member.putRequest.item")
        ])
    );
}

/// Every member of `ConsumedCapacity`, for a table with both kinds of index.
fn full_capacity(table: &str) -> ConsumedCapacity {
    let units = |read: f64, write: f64| Capacity {
        read_capacity_units: Some(read),
        write_capacity_units: Some(write),
        capacity_units: Some(read + write),
    };
    ConsumedCapacity {
        table_name: table.into(),
        capacity_units: Some(6.5),
        read_capacity_units: Some(0.5),
        write_capacity_units: Some(6.0),
        table: Some(units(0.5, 2.0)),
        local_secondary_indexes: BTreeMap::from([("by-date".to_owned(), units(0.0, 2.0))]),
        global_secondary_indexes: BTreeMap::from([
            ("by-team".to_owned(), units(0.0, 1.0)),
            ("by-name".to_owned(), units(0.0, 1.0)),
        ]),
    }
}

/// [`full_capacity`] as DynamoDB sends it: units as doubles, every member present.
fn full_capacity_json(table: &str) -> Value {
    json!({
        "TableName": table,
        "CapacityUnits": 6.5,
        "ReadCapacityUnits": 0.5,
        "WriteCapacityUnits": 6.0,
        "Table": {"ReadCapacityUnits": 0.5, "WriteCapacityUnits": 2.0, "CapacityUnits": 2.5},
        "LocalSecondaryIndexes": {
            "by-date": {"ReadCapacityUnits": 0.0, "WriteCapacityUnits": 2.0, "CapacityUnits": 2.0}
        },
        "GlobalSecondaryIndexes": {
            "by-name": {"ReadCapacityUnits": 0.0, "WriteCapacityUnits": 1.0, "CapacityUnits": 1.0},
            "by-team": {"ReadCapacityUnits": 0.0, "WriteCapacityUnits": 1.0, "CapacityUnits": 1.0}
        }
    })
}

/// `TOTAL` as DynamoDB Local 3.3.1 reports it: only the table and the total.
fn total(table: &str, units: f64) -> ConsumedCapacity {
    ConsumedCapacity {
        table_name: table.into(),
        capacity_units: Some(units),
        ..Default::default()
    }
}

fn metrics(pk: &str, low: f64, high: f64) -> ItemCollectionMetrics {
    ItemCollectionMetrics {
        item_collection_key: key(pk),
        size_estimate_range_gb: vec![low, high],
    }
}

#[tokio::test]
async fn single_item_responses_carry_what_the_backend_reported() {
    let fake = Fake {
        put: PutItemOutput {
            attributes: None,
            consumed_capacity: Some(full_capacity("t")),
            item_collection_metrics: Some(metrics("a", 0.0, 1.0)),
        },
        get: GetItemOutput {
            item: Some(key("a")),
            consumed_capacity: Some(total("t", 0.5)),
        },
        delete: DeleteItemOutput {
            attributes: Some(key("a")),
            consumed_capacity: Some(total("t", 1.0)),
            item_collection_metrics: None,
        },
        update: UpdateItemOutput {
            attributes: None,
            consumed_capacity: None,
            item_collection_metrics: Some(metrics("a", 0.0, 1.0)),
        },
        ..Fake::default()
    };
    let run = |operation: &'static str| {
        let fake = &fake;
        async move { fake.run(operation, minimal(operation)).await.0.unwrap() }
    };
    let collection = json!({
        "ItemCollectionKey": {"pk": {"S": "a"}},
        "SizeEstimateRangeGB": [0.0, 1.0]
    });
    assert_eq!(
        run("PutItem").await,
        json!({"ConsumedCapacity": full_capacity_json("t"), "ItemCollectionMetrics": collection})
    );
    assert_eq!(
        run("GetItem").await,
        json!({"Item": {"pk": {"S": "a"}},
               "ConsumedCapacity": {"TableName": "t", "CapacityUnits": 0.5}})
    );
    assert_eq!(
        run("DeleteItem").await,
        json!({"Attributes": {"pk": {"S": "a"}},
               "ConsumedCapacity": {"TableName": "t", "CapacityUnits": 1.0}})
    );
    assert_eq!(
        run("UpdateItem").await,
        json!({ "ItemCollectionMetrics": collection })
    );
}

#[tokio::test]
async fn units_are_written_as_doubles() {
    let fake = Fake {
        get: GetItemOutput {
            item: None,
            consumed_capacity: Some(total("t", 1.0)),
        },
        put: PutItemOutput {
            item_collection_metrics: Some(metrics("a", 0.0, 1.0)),
            ..Default::default()
        },
        ..Fake::default()
    };
    let (out, _) = fake.run("GetItem", minimal("GetItem")).await;
    // DynamoDB writes `1.0`, as DynamoDB Local does (`"CapacityUnits":1.0`), not `1`.
    assert_eq!(
        out.unwrap().to_string(),
        r#"{"ConsumedCapacity":{"CapacityUnits":1.0,"TableName":"t"}}"#
    );
    let (out, _) = fake.run("PutItem", minimal("PutItem")).await;
    let body = out.unwrap();
    let range = &body["ItemCollectionMetrics"]["SizeEstimateRangeGB"];
    assert_eq!(range.to_string(), "[0.0,1.0]");
}

#[tokio::test]
async fn nothing_reported_means_no_member() {
    let fake = Fake {
        get: GetItemOutput {
            item: Some(key("a")),
            consumed_capacity: None,
        },
        page: QueryOutput {
            items: Some(vec![]),
            ..Default::default()
        },
        ..Fake::default()
    };
    let asked = |operation: &str| {
        let mut body = with(operation, "ReturnConsumedCapacity", json!("TOTAL"));
        if WRITES.contains(&operation) {
            body["ReturnItemCollectionMetrics"] = json!("SIZE");
        }
        body
    };
    let expected = [
        ("PutItem", json!({})),
        ("GetItem", json!({"Item": {"pk": {"S": "a"}}})),
        ("DeleteItem", json!({})),
        ("UpdateItem", json!({})),
        ("Query", json!({"Items": [], "Count": 0, "ScannedCount": 0})),
        ("Scan", json!({"Items": [], "Count": 0, "ScannedCount": 0})),
        (
            "BatchGetItem",
            json!({"Responses": {}, "UnprocessedKeys": {}}),
        ),
        ("BatchWriteItem", json!({"UnprocessedItems": {}})),
        ("TransactGetItems", json!({"Responses": []})),
        ("TransactWriteItems", json!({})),
    ];
    for (operation, body) in expected {
        let (out, _) = fake.run(operation, asked(operation)).await;
        assert_eq!(out.unwrap(), body, "{operation}");
    }
}

#[tokio::test]
async fn query_and_scan_carry_one_consumed_capacity() {
    let fake = Fake {
        page: QueryOutput {
            items: None,
            count: 3,
            scanned_count: 27,
            last_evaluated_key: Some(key("z")),
            consumed_capacity: Some(total("t", 132.0)),
        },
        ..Fake::default()
    };
    for operation in ["Query", "Scan"] {
        let (out, _) = fake.run(operation, minimal(operation)).await;
        assert_eq!(
            out.unwrap(),
            json!({
                "Count": 3,
                "ScannedCount": 27,
                "LastEvaluatedKey": {"pk": {"S": "z"}},
                "ConsumedCapacity": {"TableName": "t", "CapacityUnits": 132.0}
            }),
            "{operation}"
        );
    }
}

#[tokio::test]
async fn batches_and_transactions_carry_a_list_per_table() {
    let both = vec![full_capacity("a"), total("b", 1.5)];
    let both_json = json!([full_capacity_json("a"), {"TableName": "b", "CapacityUnits": 1.5}]);
    let per_table = BTreeMap::from([
        (
            "a".to_owned(),
            vec![metrics("x", 0.0, 1.0), metrics("y", 1.0, 2.0)],
        ),
        ("b".to_owned(), vec![metrics("z", 9.0, 10.0)]),
    ]);
    let per_table_json = json!({
        "a": [
            {"ItemCollectionKey": {"pk": {"S": "x"}}, "SizeEstimateRangeGB": [0.0, 1.0]},
            {"ItemCollectionKey": {"pk": {"S": "y"}}, "SizeEstimateRangeGB": [1.0, 2.0]}
        ],
        "b": [{"ItemCollectionKey": {"pk": {"S": "z"}}, "SizeEstimateRangeGB": [9.0, 10.0]}]
    });
    let fake = Fake {
        batch_get: BatchGetItemOutput {
            consumed_capacity: both.clone(),
            ..Default::default()
        },
        batch_write: BatchWriteItemOutput {
            consumed_capacity: both.clone(),
            item_collection_metrics: per_table.clone(),
            ..Default::default()
        },
        transact_get: TransactGetItemsOutput {
            responses: vec![None],
            consumed_capacity: both.clone(),
        },
        transact_write: TransactWriteItemsOutput {
            consumed_capacity: both,
            item_collection_metrics: per_table,
        },
        ..Fake::default()
    };
    let expected = [
        (
            "BatchGetItem",
            json!({"Responses": {}, "UnprocessedKeys": {}, "ConsumedCapacity": both_json}),
        ),
        (
            "BatchWriteItem",
            json!({"UnprocessedItems": {}, "ConsumedCapacity": both_json,
                   "ItemCollectionMetrics": per_table_json}),
        ),
        (
            "TransactGetItems",
            json!({"Responses": [{}], "ConsumedCapacity": both_json}),
        ),
        (
            "TransactWriteItems",
            json!({"ConsumedCapacity": both_json, "ItemCollectionMetrics": per_table_json}),
        ),
    ];
    for (operation, body) in expected {
        let (out, _) = fake.run(operation, minimal(operation)).await;
        assert_eq!(out.unwrap(), body, "{operation}");
    }
}

#[tokio::test]
async fn an_item_collection_over_its_limit_is_dynamodbs_error() {
    // The engine's error is a service error with DynamoDB's type name; the wire layer gives it the
    // model's namespace, `message` and HTTP 400 (botocore's model: `ItemCollectionSizeLimitExceededException`
    // with a lower-case `message`).
    let message = "Item collection size limit exceeded";
    let fake = Fake {
        error: Some(Error::Service {
            code: "ItemCollectionSizeLimitExceededException".into(),
            message: message.into(),
        }),
        ..Fake::default()
    };
    for operation in WRITES {
        let (out, _) = fake.run(operation, minimal(operation)).await;
        let fault = out.unwrap_err();
        assert!(matches!(fault, Fault::Backend(_)), "{operation}");
        assert_eq!(
            error_response(&fault),
            (
                400,
                json!({
                    "__type":
                        "com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException",
                    "message": message
                })
            ),
            "{operation}"
        );
    }
}

/// A number attribute in a collection key keeps its text, as every attribute value does.
#[tokio::test]
async fn item_collection_keys_are_attribute_values() {
    let number_key: dynomodel::Item =
        [("pk".to_owned(), AttributeValue::N("10.50".parse().unwrap()))].into();
    let fake = Fake {
        delete: DeleteItemOutput {
            item_collection_metrics: Some(ItemCollectionMetrics {
                item_collection_key: number_key,
                size_estimate_range_gb: vec![0.0, 1.0],
            }),
            ..Default::default()
        },
        ..Fake::default()
    };
    let (out, _) = fake.run("DeleteItem", minimal("DeleteItem")).await;
    assert_eq!(
        out.unwrap()["ItemCollectionMetrics"]["ItemCollectionKey"],
        json!({"pk": {"N": "10.5"}})
    );
}
