//! The wire layer's entry points on the engine itself: [`call`], [`call_in`] with a region,
//! [`respond`]'s exact bytes, [`operation_of`], and the JSON of an attribute value.

use dynomodel::AttributeValue;
use serde_json::json;

use super::run;
use crate::protocol::value::attribute_value_to_json;
use crate::protocol::{call, call_in, error_response, operation_of, respond, Context, Fault};
use crate::MemBackend;

const CREATE_TODO: &[u8] = br#"{"TableName": "todo", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}"#;

#[test]
fn call_runs_a_request_and_reports_faults_as_dynamodb_does() {
    run(async {
        let backend = MemBackend::new();
        let create = json!({
            "TableName": "users",
            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
            "BillingMode": "PAY_PER_REQUEST",
        });
        call(&backend, "CreateTable", create.to_string().as_bytes())
            .await
            .unwrap();
        let put = br#"{"TableName": "users", "Item": {"id": {"S": "u1"}, "karma": {"N": "7"}}}"#;
        call(&backend, "PutItem", put).await.unwrap();
        let get = br#"{"TableName": "users", "Key": {"id": {"S": "u1"}}}"#;
        let found = call(&backend, "GetItem", get).await.unwrap();
        assert_eq!(found["Item"]["karma"], json!({"N": "7"}));

        // A number sent as a JSON number is a type error, as DynamoDB reports it.
        let typed_wrong = br#"{"TableName": "users", "Key": {"id": {"N": 1}}}"#;
        let fault = call(&backend, "GetItem", typed_wrong).await.unwrap_err();
        assert!(matches!(fault, Fault::Serialization(Some(_))));
        let (status, body) = error_response(&fault);
        assert_eq!(status, 400);
        assert_eq!(
            body["__type"],
            "com.amazon.coral.service#SerializationException"
        );
    });
}

#[test]
fn call_in_answers_in_the_context_region() {
    run(async {
        let backend = MemBackend::new();
        let in_paris = Context {
            region: Some("eu-west-3".into()),
            ..Context::default()
        };
        let created = call_in(&in_paris, &backend, "CreateTable", CREATE_TODO)
            .await
            .unwrap();
        let arn = &created["TableDescription"]["TableArn"];
        assert_eq!(
            arn,
            &json!("arn:aws:dynamodb:eu-west-3:000000000000:table/todo")
        );
        // Without a region, the engine's own.
        let described = call(&backend, "DescribeTable", br#"{"TableName": "todo"}"#)
            .await
            .unwrap();
        assert_eq!(
            described["Table"]["TableArn"],
            "arn:aws:dynamodb:ddblocal:000000000000:table/todo"
        );
    });
}

#[test]
fn respond_writes_the_bytes_clients_receive() {
    run(async {
        let backend = MemBackend::new();
        let context = Context::default();
        respond(&context, &backend, "CreateTable", CREATE_TODO)
            .await
            .unwrap();
        let put = r#"{"TableName": "todo", "Item": {"id": {"S": "é\n"}, "n": {"N": "1.50"}}}"#;
        respond(&context, &backend, "PutItem", put.as_bytes())
            .await
            .unwrap();
        let get = r#"{"TableName": "todo", "Key": {"id": {"S": "é\n"}}}"#;
        let text = respond(&context, &backend, "GetItem", get.as_bytes())
            .await
            .unwrap();
        // Canonical numbers, member names in order, serde_json's escapes, no whitespace.
        assert_eq!(
            text,
            r#"{"Item":{"id":{"S":"é\n"},"n":{"N":"1.5"}}}"#.as_bytes()
        );
    });
}

#[test]
fn operation_of_strips_dynamodb_prefix_and_keeps_streams_targets_whole() {
    assert_eq!(operation_of("DynamoDB_20120810.PutItem"), Some("PutItem"));
    let streams = "DynamoDBStreams_20120810.GetRecords";
    assert_eq!(operation_of(streams), Some(streams));
    assert_eq!(operation_of("Kinesis_20131202.GetRecords"), None);
}

#[test]
fn attribute_values_encode_numbers_as_strings_and_binaries_in_base64() {
    let value = AttributeValue::L(vec![
        AttributeValue::N("1.50".parse().unwrap()),
        AttributeValue::B(b"hi".to_vec()),
    ]);
    assert_eq!(
        attribute_value_to_json(&value),
        json!({"L": [{"N": "1.5"}, {"B": "aGk="}]})
    );
}
