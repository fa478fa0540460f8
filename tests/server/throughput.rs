//! Throttling over the wire: a server whose engine enforces provisioned throughput answers a spent
//! table with DynamoDB's `ProvisionedThroughputExceededException` body (status 400, the service's
//! text), which the AWS SDK reports as a throttling error and `AwsBackend` as `Error::Throughput`.

use std::time::Duration;

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use dynomodel::backend::{Backend, GetItemInput};
use dynomodel::{AwsBackend, Error};
use dynomodel_mem::__private::TABLE_EXCEEDED;
use dynomodel_mem::ManualClock;

use super::*;

/// A server enforcing provisioned throughput on a clock the test moves, with a 1 RCU / 1 WCU table.
async fn throttling_server() -> (ServerHandle, ManualClock) {
    let clock = ManualClock::default();
    let backend = MemBackend::builder()
        .clock(clock.clone())
        .enforce_provisioned_throughput(true)
        .build();
    let server = Server::bind("127.0.0.1:0", backend).await.unwrap();
    let reply = call(
        server.local_addr(),
        "CreateTable",
        json!({
            "TableName": "slow",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
        }),
    )
    .await;
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    (server, clock)
}

fn put(pk: &str) -> Value {
    json!({"TableName": "slow", "Item": {"pk": {"S": pk}}})
}

#[tokio::test]
async fn a_spent_table_answers_the_service_error_body() {
    let (server, clock) = throttling_server().await;
    assert_eq!(
        call(server.local_addr(), "PutItem", put("a")).await.status,
        200
    );
    let refused = call(server.local_addr(), "PutItem", put("b")).await;
    assert_eq!(refused.status, 400);
    assert_eq!(
        refused.error(),
        (
            "ProvisionedThroughputExceededException".to_owned(),
            Some(TABLE_EXCEEDED.to_owned())
        )
    );
    let get = json!({"TableName": "slow", "Key": {"pk": {"S": "b"}}, "ConsistentRead": true});
    assert_eq!(
        call(server.local_addr(), "GetItem", get).await.json(),
        json!({}),
        "nothing written"
    );
    clock.advance(Duration::from_secs(1));
    assert_eq!(
        call(server.local_addr(), "PutItem", put("b")).await.status,
        200
    );
}

#[tokio::test]
async fn the_sdk_reports_a_throttled_request_as_a_throughput_error() {
    let (server, _clock) = throttling_server().await;
    // Retries off: the SDK's standard policy would retry the throttled request (with back-off)
    // against a clock that does not move.
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("k", "s", None, None, "test"))
        .endpoint_url(server.url())
        .retry_config(RetryConfig::disabled())
        .build();
    let aws = AwsBackend::new(aws_sdk_dynamodb::Client::from_conf(config));
    let read = || GetItemInput {
        table_name: "slow".into(),
        key: [("pk".to_owned(), dynomodel::AttributeValue::S("a".into()))].into(),
        consistent_read: Some(true),
        ..Default::default()
    };
    aws.get_item(read()).await.unwrap();
    match aws.get_item(read()).await {
        Err(Error::Throughput { code, message }) => {
            assert_eq!(code, "ProvisionedThroughputExceededException");
            assert_eq!(message, TABLE_EXCEEDED);
        }
        other => panic!("expected a throughput error, got {other:?}"),
    }
}
