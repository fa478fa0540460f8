//! The DynamoDB Streams target on the wire, against the engine: routing, the members' constraints,
//! the responses' shapes and an error body.

use serde_json::{json, Value};

use super::{enum_at, errors, null_at};
use crate::protocol::{call, error_response, Fault};
use crate::MemBackend;

async fn run(backend: &MemBackend, operation: &str, body: Value) -> Result<Value, Fault> {
    call(backend, operation, body.to_string().as_bytes()).await
}

async fn streams(backend: &MemBackend, operation: &str, body: Value) -> Result<Value, Fault> {
    run(
        backend,
        &format!("DynamoDBStreams_20120810.{operation}"),
        body,
    )
    .await
}

fn validation(fault: Result<Value, Fault>) -> (u16, Value) {
    match fault {
        Ok(v) => panic!("expected an error, got {v}"),
        Err(f) => error_response(&f),
    }
}

#[tokio::test]
async fn a_stream_is_read_through_the_streams_target() {
    let backend = MemBackend::new();
    let create = json!({
        "TableName": "events",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "BillingMode": "PAY_PER_REQUEST",
        "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    });
    let created = run(&backend, "CreateTable", create).await.unwrap();
    let arn = created["TableDescription"]["LatestStreamArn"]
        .as_str()
        .unwrap()
        .to_owned();
    let put = json!({"TableName": "events", "Item": {"pk": {"S": "a"}, "n": {"N": "1"}}});
    run(&backend, "PutItem", put).await.unwrap();

    let listed = streams(&backend, "ListStreams", json!({})).await.unwrap();
    assert_eq!(listed["Streams"][0]["StreamArn"], json!(arn));
    assert_eq!(listed["Streams"][0]["TableName"], json!("events"));
    assert!(listed.get("LastEvaluatedStreamArn").is_none());

    let described = streams(&backend, "DescribeStream", json!({"StreamArn": arn}))
        .await
        .unwrap();
    let d = &described["StreamDescription"];
    assert_eq!(d["StreamStatus"], json!("ENABLED"));
    assert_eq!(d["StreamViewType"], json!("NEW_AND_OLD_IMAGES"));
    assert_eq!(
        d["KeySchema"],
        json!([{"AttributeName": "pk", "KeyType": "HASH"}])
    );
    assert!(d["CreationRequestDateTime"].is_number());
    let shard = d["Shards"][0]["ShardId"].as_str().unwrap().to_owned();
    assert!(d["Shards"][0]["SequenceNumberRange"]["StartingSequenceNumber"].is_string());
    assert!(d["Shards"][0]["SequenceNumberRange"]
        .get("EndingSequenceNumber")
        .is_none());

    let it = streams(
        &backend,
        "GetShardIterator",
        json!({"StreamArn": arn, "ShardId": shard, "ShardIteratorType": "TRIM_HORIZON"}),
    )
    .await
    .unwrap();
    let iterator = it["ShardIterator"].as_str().unwrap();
    let records = streams(&backend, "GetRecords", json!({"ShardIterator": iterator}))
        .await
        .unwrap();
    let r = &records["Records"][0];
    assert_eq!(r["eventName"], json!("INSERT"));
    assert_eq!(r["eventSource"], json!("aws:dynamodb"));
    assert_eq!(r["dynamodb"]["Keys"], json!({"pk": {"S": "a"}}));
    assert_eq!(
        r["dynamodb"]["NewImage"],
        json!({"pk": {"S": "a"}, "n": {"N": "1"}})
    );
    assert!(r["dynamodb"].get("OldImage").is_none());
    assert!(r["dynamodb"]["ApproximateCreationDateTime"].is_number());
    assert!(r.get("userIdentity").is_none());
    assert!(records["NextShardIterator"].is_string());
}

#[tokio::test]
async fn routing_and_errors() {
    let backend = MemBackend::new();
    // The streams operations answer only under their own target, and DynamoDB's only under theirs.
    assert_eq!(
        run(&backend, "ListStreams", json!({})).await,
        Err(Fault::UnknownOperation)
    );
    assert_eq!(
        streams(&backend, "ListTables", json!({})).await,
        Err(Fault::UnknownOperation)
    );
    // A garbage iterator: ValidationException, in DynamoDB's error shape.
    let (status, body) =
        validation(streams(&backend, "GetRecords", json!({"ShardIterator": "garbage"})).await);
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"__type": "com.amazon.coral.validate#ValidationException",
            "message": "Invalid ShardIterator"})
    );
    // The model's constraints, all listed at once; AT_TIMESTAMP is not in the model's enum.
    let (_, body) = validation(
        streams(
            &backend,
            "GetShardIterator",
            json!({"StreamArn": "arn", "ShardIteratorType": "AT_TIMESTAMP", "SequenceNumber": "1"}),
        )
        .await,
    );
    let set = "TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER";
    assert_eq!(
        body["message"],
        json!(errors(&[
            "Value 'arn' at 'streamArn' failed to satisfy constraint: Member must have length \
             greater than or equal to 37"
                .to_owned(),
            null_at("shardId"),
            enum_at("AT_TIMESTAMP", "shardIteratorType", set),
            "Value '1' at 'sequenceNumber' failed to satisfy constraint: Member must have length \
             greater than or equal to 21"
                .to_owned(),
        ]))
    );
    let (_, body) = validation(streams(&backend, "GetRecords", json!({"Limit": 0})).await);
    assert_eq!(
        body["message"],
        json!(errors(&[
            null_at("shardIterator"),
            "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater \
             than or equal to 1"
                .to_owned(),
        ]))
    );
    let missing = "arn:aws:dynamodb:ddblocal:000000000000:table/x/stream/2025-01-01T00:00:00.000";
    let (status, body) =
        validation(streams(&backend, "DescribeStream", json!({"StreamArn": missing})).await);
    assert_eq!(status, 400);
    assert_eq!(
        body,
        json!({"__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
            "message": format!("Requested resource not found: Stream: {missing} not found")})
    );
}
