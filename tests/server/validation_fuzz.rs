//! Fuzzing the service model's validation: valid requests of every operation, mutated at
//! random places (a member dropped, `null`, an empty or over-long string, an enum outside its set, a
//! number out of range or of the wrong type, an empty or `null`-filled list, an unknown member). The
//! answer is a success or a 400 with one of DynamoDB's error types, never a panic or a 500. Fixed
//! seed, so that a failure reproduces.

use dynomodel_mem::__private::wire;
use dynomodel_mem::MemBackend;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};

/// The error types a DynamoDB client may get back from these requests.
const ERROR_TYPES: &[&str] = &[
    "ValidationException",
    "SerializationException",
    "ResourceNotFoundException",
    "ResourceInUseException",
    "ConditionalCheckFailedException",
    "TransactionCanceledException",
    "LimitExceededException",
    "AccessDeniedException",
    "TrimmedDataAccessException",
    "ExpiredIteratorException",
];

/// One valid request per operation, over the table `tbl` (hash key `pk`, a stream, an index `byX`).
fn valid_requests() -> Vec<(&'static str, Value)> {
    let key = json!({"pk": {"S": "a"}});
    vec![
        (
            "PutItem",
            json!({"TableName": "tbl", "Item": {"pk": {"S": "a"}, "x": {"N": "1"}},
            "ReturnValues": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL",
            "ConditionExpression": "attribute_not_exists(pk) OR x = :v",
            "ExpressionAttributeValues": {":v": {"N": "1"}}}),
        ),
        (
            "GetItem",
            json!({"TableName": "tbl", "Key": key, "ConsistentRead": true,
            "ProjectionExpression": "#p", "ExpressionAttributeNames": {"#p": "pk"}}),
        ),
        (
            "UpdateItem",
            json!({"TableName": "tbl", "Key": key, "UpdateExpression": "SET x = :v",
            "ExpressionAttributeValues": {":v": {"N": "2"}}, "ReturnValues": "UPDATED_NEW",
            "ReturnItemCollectionMetrics": "SIZE"}),
        ),
        (
            "DeleteItem",
            json!({"TableName": "tbl", "Key": key, "ReturnValues": "ALL_OLD",
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}),
        ),
        (
            "Query",
            json!({"TableName": "tbl", "KeyConditionExpression": "pk = :v",
            "ExpressionAttributeValues": {":v": {"S": "a"}}, "Limit": 5, "Select": "COUNT",
            "ScanIndexForward": false, "ExclusiveStartKey": key}),
        ),
        (
            "Scan",
            json!({"TableName": "tbl", "IndexName": "byX", "Segment": 0, "TotalSegments": 2,
            "Limit": 10, "Select": "ALL_PROJECTED_ATTRIBUTES"}),
        ),
        (
            "BatchGetItem",
            json!({"RequestItems": {"tbl": {"Keys": [key], "ConsistentRead": true}},
            "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "BatchWriteItem",
            json!({"RequestItems": {"tbl": [{"PutRequest": {"Item": key}},
            {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}}]}}),
        ),
        (
            "TransactGetItems",
            json!({"TransactItems": [{"Get": {"TableName": "tbl", "Key": key}}]}),
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [
            {"Put": {"TableName": "tbl", "Item": {"pk": {"S": "c"}}}},
            {"Update": {"TableName": "tbl", "Key": key, "UpdateExpression": "SET x = :v",
                "ExpressionAttributeValues": {":v": {"N": "3"}}}},
            {"ConditionCheck": {"TableName": "tbl", "Key": {"pk": {"S": "d"}},
                "ConditionExpression": "attribute_not_exists(pk)"}}],
            "ClientRequestToken": "token-1"}),
        ),
        (
            "CreateTable",
            json!({"TableName": "other",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "g", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "GlobalSecondaryIndexes": [{"IndexName": "byG",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a"]},
                "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}],
            "BillingMode": "PROVISIONED",
            "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
            "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"},
            "Tags": [{"Key": "k", "Value": "v"}]}),
        ),
        (
            "UpdateTable",
            json!({"TableName": "tbl",
            "AttributeDefinitions": [{"AttributeName": "y", "AttributeType": "S"}],
            "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "byY",
                "KeySchema": [{"AttributeName": "y", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}),
        ),
        ("DescribeTable", json!({"TableName": "tbl"})),
        (
            "ListTables",
            json!({"Limit": 10, "ExclusiveStartTableName": "abc"}),
        ),
        (
            "UpdateTimeToLive",
            json!({"TableName": "tbl",
            "TimeToLiveSpecification": {"Enabled": true, "AttributeName": "ttl"}}),
        ),
        ("DescribeTimeToLive", json!({"TableName": "tbl"})),
        (
            "TagResource",
            json!({"ResourceArn": "arn:aws:dynamodb:us-east-1:000000000000:table/tbl",
            "Tags": [{"Key": "k", "Value": "v"}]}),
        ),
        (
            "DynamoDBStreams_20120810.ListStreams",
            json!({"TableName": "tbl", "Limit": 5}),
        ),
        (
            "DynamoDBStreams_20120810.GetShardIterator",
            json!({
            "StreamArn": "arn:aws:dynamodb:ddblocal:000000000000:table/tbl/stream/2024-01-01T00:00:00.000",
            "ShardId": "shardId-00000000000000000000-00000000",
            "ShardIteratorType": "TRIM_HORIZON"}),
        ),
        ("DeleteTable", json!({"TableName": "tbl"})),
    ]
}

/// Replacements for a value, each breaking a constraint or a type somewhere.
fn replacement(kind: usize) -> Option<Value> {
    Some(match kind % 14 {
        0 => return None, // the member is dropped
        1 => Value::Null,
        2 => json!(""),
        3 => json!("a;"),
        4 => json!("SOME"),
        5 => Value::String("x".repeat(1100)),
        6 => json!(0),
        7 => json!(-1),
        8 => json!(2_000_000_000_000_i64),
        9 => json!(1.5),
        10 => json!([]),
        11 => json!([null, null]),
        12 => json!({}),
        _ => json!(true),
    })
}

/// A replacement of the same JSON type as `original` (half the time), so that most mutations pass
/// the type checks and reach the model's constraints; else any [`replacement`].
fn typed_replacement(original: Option<&Value>, kind: usize) -> Option<Value> {
    if kind % 2 == 1 {
        return replacement(kind / 2);
    }
    let pick = |options: &[Value]| options[(kind / 2) % options.len()].clone();
    Some(match original {
        Some(Value::String(_)) => pick(&[
            json!(""),
            json!("a;"),
            json!("SOME"),
            Value::String("x".repeat(1100)),
            json!("ab"),
        ]),
        Some(Value::Number(_)) => pick(&[json!(0), json!(-1), json!(1_000_001), json!(101)]),
        Some(Value::Array(_)) => pick(&[json!([]), json!([null]), json!(["a;"])]),
        Some(Value::Object(_)) => pick(&[json!({}), json!({"a;": null})]),
        _ => return replacement(kind / 2),
    })
}

/// The value at `path`, if there is one.
fn at<'a>(body: &'a Value, path: &[Value]) -> Option<&'a Value> {
    path.iter().try_fold(body, |v, step| match (v, step) {
        (Value::Object(map), Value::String(k)) => map.get(k),
        (Value::Array(a), Value::Number(i)) => a.get(i.as_u64().unwrap_or(0) as usize),
        _ => None,
    })
}

/// Every place in `value` (as a path of keys and indexes), in pre-order.
fn places(value: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                path.push(json!(k));
                out.push(path.clone());
                places(v, path, out);
                path.pop();
            }
        }
        Value::Array(elements) => {
            for (i, v) in elements.iter().enumerate() {
                path.push(json!(i));
                out.push(path.clone());
                places(v, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Applies one mutation: replaces (or removes) the value at `path`, or adds an unknown member.
fn mutate(body: &mut Value, path: &[Value], with: Option<Value>) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = body;
    for step in parents {
        at = match (at, step) {
            (Value::Object(map), Value::String(k)) => match map.get_mut(k) {
                Some(v) => v,
                None => return,
            },
            (Value::Array(a), Value::Number(i)) => {
                match a.get_mut(i.as_u64().unwrap_or(0) as usize) {
                    Some(v) => v,
                    None => return,
                }
            }
            _ => return,
        };
    }
    match (at, last, with) {
        (Value::Object(map), Value::String(k), Some(v)) => {
            map.insert(k.clone(), v);
        }
        (Value::Object(map), Value::String(k), None) => {
            map.remove(k);
        }
        (Value::Array(a), Value::Number(i), with) => {
            let i = i.as_u64().unwrap_or(0) as usize;
            match with {
                Some(v) if i < a.len() => a[i] = v,
                None if i < a.len() => {
                    a.remove(i);
                }
                _ => {}
            }
        }
        _ => {}
    }
}

async fn setup(backend: &MemBackend) {
    let create = json!({
        "TableName": "tbl",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "x", "AttributeType": "N"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{"IndexName": "byX",
            "KeySchema": [{"AttributeName": "x", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}],
        "BillingMode": "PAY_PER_REQUEST",
        "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"},
    });
    wire::call(backend, "CreateTable", create.to_string().as_bytes())
        .await
        .unwrap();
}

#[test]
fn mutated_valid_requests_get_dynamodb_errors() {
    let requests = valid_requests();
    let strategy = (
        0..requests.len(),
        prop::collection::vec((any::<usize>(), any::<usize>()), 1..4),
        any::<bool>(),
    );
    let config = Config {
        cases: 1500,
        failure_persistence: None,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[14; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let outcome = runner.run(&strategy, |(which, mutations, unknown)| {
        let (operation, valid) = &requests[which];
        let mut body = valid.clone();
        for (place, kind) in mutations {
            let mut all = Vec::new();
            places(&body, &mut Vec::new(), &mut all);
            if all.is_empty() {
                break;
            }
            let path = &all[place % all.len()];
            let with = typed_replacement(at(&body, path), kind);
            mutate(&mut body, path, with);
        }
        if let (true, Value::Object(map)) = (unknown, &mut body) {
            map.insert("NotAMember".to_owned(), json!({"x": [1]}));
        }
        runtime.block_on(async {
            let backend = MemBackend::new();
            setup(&backend).await;
            let op = wire::operation_of(&format!("DynamoDB_20120810.{operation}"))
                .or_else(|| wire::operation_of(operation))
                .unwrap()
                .to_owned();
            let result = wire::call(&backend, &op, body.to_string().as_bytes()).await;
            if let Err(fault) = result {
                let (status, reply) = wire::error_response(&fault);
                prop_assert_eq!(status, 400, "{} {} → {}", operation, body, reply);
                let kind = reply["__type"].as_str().unwrap_or_default();
                let name = kind.rsplit('#').next().unwrap_or_default();
                prop_assert!(
                    ERROR_TYPES.contains(&name),
                    "{} {} → {}",
                    operation,
                    body,
                    reply
                );
            }
            Ok(())
        })
    });
    if let Err(e) = outcome {
        panic!("{e}");
    }
}

#[test]
fn the_mutations_reach_the_validator() {
    // A sanity check of the harness: a valid request passes, and an enum outside its set is the
    // model's violation.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        let backend = MemBackend::new();
        setup(&backend).await;
        let mut body = json!({"TableName": "tbl", "Key": {"pk": {"S": "a"}}});
        assert!(wire::call(&backend, "GetItem", body.to_string().as_bytes())
            .await
            .is_ok());
        mutate(&mut body, &[json!("ReturnConsumedCapacity")], replacement(4));
        let fault = wire::call(&backend, "GetItem", body.to_string().as_bytes())
            .await
            .unwrap_err();
        let (_, reply) = wire::error_response(&fault);
        assert_eq!(
            reply["message"],
            "1 validation error detected: Value 'SOME' at 'returnConsumedCapacity' failed to satisfy \
             constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"
        );
    });
}
