//! The TTL, tag and account operations on the wire (decoding, constraints, responses' shapes), and
//! CreateTable's streams, table class, deletion protection and tags.

use dynomodel::backend::{
    CreateTableInput, DescribeEndpointsOutput, DescribeLimitsOutput, DescribeTimeToLiveInput,
    Endpoint, ListTagsOfResourceInput, ListTagsOfResourceOutput, StreamSpecification,
    StreamViewType, TableClass, Tag, TagResourceInput, TimeToLiveDescription,
    TimeToLiveSpecification, TimeToLiveStatus, UntagResourceInput, UpdateTimeToLiveInput,
};
use serde_json::json;

use super::fake::{Fake, Seen};
use super::{enum_at, errors, null_at};
use crate::protocol::tags::NO_ARN;
use crate::protocol::{call_in, Context};

fn at(value: &str, path: &str, constraint: &str) -> String {
    format!("Value '{value}' at '{path}' failed to satisfy constraint: {constraint}")
}

const ARN: &str = "arn:aws:dynamodb:ddblocal:000000000000:table/t";

#[tokio::test]
async fn update_time_to_live_round_trips() {
    let fake = Fake::default();
    let body = json!({"TableName": "t",
        "TimeToLiveSpecification": {"Enabled": true, "AttributeName": "expires"}});
    let (result, seen) = fake.run("UpdateTimeToLive", body).await;
    assert_eq!(
        seen,
        Some(Seen::UpdateTtl(UpdateTimeToLiveInput {
            table_name: "t".into(),
            time_to_live_specification: TimeToLiveSpecification {
                enabled: true,
                attribute_name: "expires".into(),
            },
        }))
    );
    assert_eq!(
        result.unwrap(),
        json!({"TimeToLiveSpecification": {"Enabled": true, "AttributeName": "expires"}})
    );
}

#[tokio::test]
async fn update_time_to_live_constraints() {
    let fake = Fake::default();
    let name_255 = "a".repeat(256);
    let cases = [
        (
            json!({}),
            vec![null_at("tableName"), null_at("timeToLiveSpecification")],
        ),
        // dynalite: "should return ValidationException for empty TimeToLiveSpecification".
        (
            json!({"TableName": "abc", "TimeToLiveSpecification": {}}),
            vec![
                null_at("timeToLiveSpecification.enabled"),
                null_at("timeToLiveSpecification.attributeName"),
            ],
        ),
        (
            json!({"TableName": "abc",
                   "TimeToLiveSpecification": {"AttributeName": null, "Enabled": null}}),
            vec![
                null_at("timeToLiveSpecification.enabled"),
                null_at("timeToLiveSpecification.attributeName"),
            ],
        ),
        (
            json!({"TableName": "",
                   "TimeToLiveSpecification": {"AttributeName": "", "Enabled": true}}),
            vec![
                at(
                    "",
                    "tableName",
                    "Member must have length greater than or equal to 1",
                ),
                at(
                    "",
                    "timeToLiveSpecification.attributeName",
                    "Member must have length greater than or equal to 1",
                ),
            ],
        ),
        (
            json!({"TableName": "abc",
                   "TimeToLiveSpecification": {"AttributeName": name_255, "Enabled": false}}),
            vec![at(
                &name_255,
                "timeToLiveSpecification.attributeName",
                "Member must have length less than or equal to 255",
            )],
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(
            fake.validation("UpdateTimeToLive", body.clone()).await,
            errors(&expected),
            "{body}"
        );
    }
    for (body, message) in [
        (
            json!({"TimeToLiveSpecification": []}),
            "Start of list found where not expected",
        ),
        (
            json!({"TimeToLiveSpecification": {"Enabled": "true"}}),
            "'TRUE' can not be converted to an Boolean",
        ),
        (
            json!({"TimeToLiveSpecification": {"AttributeName": 5}}),
            "class java.lang.Short can not be converted to an String",
        ),
    ] {
        assert_eq!(
            fake.serialization("UpdateTimeToLive", body.clone())
                .await
                .as_deref(),
            Some(message),
            "{body}"
        );
    }
}

#[tokio::test]
async fn describe_time_to_live_omits_the_attribute_while_disabled() {
    let fake = Fake::default();
    let (result, seen) = fake
        .run("DescribeTimeToLive", json!({"TableName": "t"}))
        .await;
    assert_eq!(
        seen,
        Some(Seen::DescribeTtl(DescribeTimeToLiveInput {
            table_name: "t".into()
        }))
    );
    assert_eq!(
        result.unwrap(),
        json!({"TimeToLiveDescription": {"TimeToLiveStatus": "DISABLED"}})
    );
    let enabling = Fake {
        ttl: Some(TimeToLiveDescription {
            time_to_live_status: TimeToLiveStatus::Enabling,
            attribute_name: Some("expires".into()),
        }),
        ..Fake::default()
    };
    let (result, _) = enabling
        .run("DescribeTimeToLive", json!({"TableName": "t"}))
        .await;
    assert_eq!(
        result.unwrap(),
        json!({"TimeToLiveDescription": {"TimeToLiveStatus": "ENABLING", "AttributeName": "expires"}})
    );
    assert_eq!(
        fake.validation("DescribeTimeToLive", json!({})).await,
        errors(&[null_at("tableName")])
    );
}

#[tokio::test]
async fn tag_operations_round_trip() {
    let fake = Fake {
        tags: ListTagsOfResourceOutput {
            tags: vec![Tag::new("env", "prod"), Tag::new("team", "")],
            next_token: Some("tok".into()),
        },
        ..Fake::default()
    };
    let body = json!({"ResourceArn": ARN,
        "Tags": [{"Key": "env", "Value": "prod"}, {"Key": "team", "Value": ""}]});
    let (result, seen) = fake.run("TagResource", body).await;
    assert_eq!(result.unwrap(), json!({}));
    assert_eq!(
        seen,
        Some(Seen::Tag(TagResourceInput {
            resource_arn: ARN.into(),
            tags: vec![Tag::new("env", "prod"), Tag::new("team", "")],
        }))
    );
    let (result, seen) = fake
        .run(
            "UntagResource",
            json!({"ResourceArn": ARN, "TagKeys": ["env"]}),
        )
        .await;
    assert_eq!(result.unwrap(), json!({}));
    assert_eq!(
        seen,
        Some(Seen::Untag(UntagResourceInput {
            resource_arn: ARN.into(),
            tag_keys: vec!["env".into()],
        }))
    );
    let (result, seen) = fake
        .run(
            "ListTagsOfResource",
            json!({"ResourceArn": ARN, "NextToken": "abc"}),
        )
        .await;
    assert_eq!(
        seen,
        Some(Seen::ListTags(ListTagsOfResourceInput {
            resource_arn: ARN.into(),
            next_token: Some("abc".into()),
        }))
    );
    assert_eq!(
        result.unwrap(),
        json!({"Tags": [{"Key": "env", "Value": "prod"}, {"Key": "team", "Value": ""}],
               "NextToken": "tok"})
    );
    // No tags: `Tags` is still sent, empty (dynalite's recording).
    let (result, _) = Fake::default()
        .run("ListTagsOfResource", json!({"ResourceArn": ARN}))
        .await;
    assert_eq!(result.unwrap(), json!({"Tags": []}));
}

#[tokio::test]
async fn tag_constraints() {
    let fake = Fake::default();
    // dynalite's recordings: no ResourceArn is "Invalid TableArn", for all three operations, even
    // when the other required member is missing too.
    for operation in ["TagResource", "UntagResource", "ListTagsOfResource"] {
        assert_eq!(fake.validation(operation, json!({})).await, NO_ARN);
    }
    let cases = [
        (
            "TagResource",
            json!({"ResourceArn": ARN}),
            vec![null_at("tags")],
        ),
        (
            "TagResource",
            json!({"ResourceArn": ARN, "Tags": [
                {"Key": "k"},
                {},
                null,
                {"Value": "v"}
            ]}),
            vec![
                null_at("tags.1.member.value"),
                null_at("tags.2.member.key"),
                null_at("tags.2.member.value"),
                null_at("tags.3.member"),
                null_at("tags.4.member.key"),
            ],
        ),
        (
            "UntagResource",
            json!({"ResourceArn": ARN}),
            vec![null_at("tagKeys")],
        ),
        (
            "UntagResource",
            json!({"ResourceArn": ARN, "TagKeys": ["k", null]}),
            vec![null_at("tagKeys.2.member")],
        ),
    ];
    for (operation, body, expected) in cases {
        assert_eq!(
            fake.validation(operation, body.clone()).await,
            errors(&expected),
            "{operation} {body}"
        );
    }
    // Keys' and values' lengths and characters are the backend's to judge (in the service's words).
    let long_key = "k".repeat(129);
    let odd = json!({"ResourceArn": ARN, "Tags": [{"Key": "", "Value": "v".repeat(257)},
                                                   {"Key": long_key, "Value": "a|b"}]});
    match fake.decoded("TagResource", odd).await {
        Seen::Tag(input) => assert_eq!(
            input.tags,
            [Tag::new("", "v".repeat(257)), Tag::new(&long_key, "a|b")]
        ),
        other => panic!("{other:?}"),
    }
    let odd = json!({"ResourceArn": ARN, "TagKeys": ["", long_key]});
    match fake.decoded("UntagResource", odd).await {
        Seen::Untag(input) => assert_eq!(input.tag_keys, ["".to_owned(), long_key]),
        other => panic!("{other:?}"),
    }
    // An empty ARN is the backend's to judge.
    assert!(matches!(
        fake.decoded("ListTagsOfResource", json!({"ResourceArn": ""}))
            .await,
        Seen::ListTags(_)
    ));
    for (operation, body, message) in [
        (
            "TagResource",
            json!({"ResourceArn": 1}),
            "class java.lang.Short can not be converted to an String",
        ),
        (
            "TagResource",
            json!({"Tags": [{"Value": true}]}),
            "class java.lang.Boolean can not be converted to an String",
        ),
        (
            "UntagResource",
            json!({"TagKeys": "k"}),
            "Expected list or null",
        ),
        (
            "UntagResource",
            json!({"TagKeys": [{}]}),
            "Start of structure or map found where not expected.",
        ),
        (
            "ListTagsOfResource",
            json!({"ResourceArn": ARN, "NextToken": 3}),
            "class java.lang.Short can not be converted to an String",
        ),
    ] {
        assert_eq!(
            fake.serialization(operation, body.clone()).await.as_deref(),
            Some(message),
            "{operation} {body}"
        );
    }
}

#[tokio::test]
async fn describe_limits_and_endpoints() {
    let fake = Fake {
        limits: DescribeLimitsOutput {
            account_max_read_capacity_units: 80_000,
            account_max_write_capacity_units: 80_001,
            table_max_read_capacity_units: 40_000,
            table_max_write_capacity_units: 40_001,
        },
        endpoints: DescribeEndpointsOutput {
            endpoints: vec![Endpoint {
                address: "dynamodb.ddblocal.amazonaws.com".into(),
                cache_period_in_minutes: 1440,
            }],
        },
        ..Fake::default()
    };
    let (result, seen) = fake.run("DescribeLimits", json!({})).await;
    assert_eq!(seen, Some(Seen::Limits));
    assert_eq!(
        result.unwrap(),
        json!({"AccountMaxReadCapacityUnits": 80_000, "AccountMaxWriteCapacityUnits": 80_001,
               "TableMaxReadCapacityUnits": 40_000, "TableMaxWriteCapacityUnits": 40_001})
    );
    // Without a server address the backend's endpoint is answered…
    let (result, _) = fake.run("DescribeEndpoints", json!({})).await;
    assert_eq!(
        result.unwrap(),
        json!({"Endpoints": [{"Address": "dynamodb.ddblocal.amazonaws.com",
                              "CachePeriodInMinutes": 1440}]})
    );
    // …and the server's own address replaces it when known.
    fake.seen.lock().unwrap().clear();
    let context = Context {
        endpoint: Some("127.0.0.1:8000".into()),
        ..Context::default()
    };
    let result = call_in(&context, &fake, "DescribeEndpoints", b"{}").await;
    assert_eq!(
        result.unwrap(),
        json!({"Endpoints": [{"Address": "127.0.0.1:8000", "CachePeriodInMinutes": 1440}]})
    );
    fake.seen.lock().unwrap().clear();
    // Still a JSON object is required.
    assert_eq!(fake.serialization("DescribeLimits", json!(1)).await, None);
}

#[tokio::test]
async fn create_table_decodes_streams_class_protection_and_tags() {
    let fake = Fake::default();
    let body = json!({
        "TableName": "tbl",
        "AttributeDefinitions": [],
        "KeySchema": [],
        "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"},
        "TableClass": "STANDARD",
        "DeletionProtectionEnabled": false,
        "Tags": [{"Key": "env", "Value": "dev"}]
    });
    let Seen::CreateTable(input) = fake.decoded("CreateTable", body).await else {
        panic!("not a CreateTable");
    };
    assert_eq!(
        input,
        CreateTableInput {
            table_name: "tbl".into(),
            stream_specification: Some(StreamSpecification::enabled(StreamViewType::KeysOnly)),
            table_class: Some(TableClass::Standard),
            deletion_protection_enabled: Some(false),
            tags: vec![Tag::new("env", "dev")],
            ..Default::default()
        }
    );
    let bad = json!({
        "TableName": "tbl", "AttributeDefinitions": [], "KeySchema": [],
        "StreamSpecification": {"StreamViewType": "EVERYTHING"},
        "Tags": [{"Key": "", "Value": "v"}, {"Key": "k"}],
        "TableClass": "COLD"
    });
    assert_eq!(
        fake.validation("CreateTable", bad).await,
        errors(&[
            null_at("streamSpecification.streamEnabled"),
            enum_at(
                "EVERYTHING",
                "streamSpecification.streamViewType",
                "NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY",
            ),
            null_at("tags.2.member.value"),
            enum_at("COLD", "tableClass", "STANDARD, STANDARD_INFREQUENT_ACCESS"),
        ])
    );
    assert_eq!(
        fake.serialization("CreateTable", json!({"DeletionProtectionEnabled": "no"}))
            .await
            .as_deref(),
        Some("'NO' can not be converted to an Boolean")
    );
}
