//! CreateTable's member constraints at their DynamoDB paths (see `wire/table.rs`): the paths of nested
//! structures and list elements, as dynalite's `test/createTable.js` records them (e.g. "Value null at
//! 'localSecondaryIndexes.1.member.projection'"). Within one structure the members are listed in the
//! model's order, which is this layer's choice (the service lists them in its hash order).

use serde_json::json;

use super::fake::Fake;
use super::{enum_at, errors, null_at};
use crate::protocol::Fault;

#[tokio::test]
async fn create_table_constraints_at_their_paths() {
    let fake = Fake::default();
    let cases = [
        (
            json!({"TableName": "tbl"}),
            vec![null_at("attributeDefinitions"), null_at("keySchema")],
        ),
        (
            json!({"AttributeDefinitions": [null, {}], "KeySchema": [{}, null], "TableName": "tbl"}),
            vec![
                null_at("attributeDefinitions.1.member"),
                null_at("attributeDefinitions.2.member.attributeName"),
                null_at("attributeDefinitions.2.member.attributeType"),
                null_at("keySchema.1.member.attributeName"),
                null_at("keySchema.1.member.keyType"),
                null_at("keySchema.2.member"),
            ],
        ),
        (
            json!({
                "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "X"}],
                "KeySchema": [{"AttributeName": "a", "KeyType": "Y"}],
                "TableName": "tbl",
                "BillingMode": "Z"
            }),
            vec![
                enum_at(
                    "X",
                    "attributeDefinitions.1.member.attributeType",
                    "B, N, S",
                ),
                enum_at("Y", "keySchema.1.member.keyType", "HASH, RANGE"),
                enum_at("Z", "billingMode", "PROVISIONED, PAY_PER_REQUEST"),
            ],
        ),
        (
            json!({"AttributeDefinitions": [], "KeySchema": [], "TableName": "tbl",
                   "ProvisionedThroughput": {}}),
            vec![
                null_at("provisionedThroughput.writeCapacityUnits"),
                null_at("provisionedThroughput.readCapacityUnits"),
            ],
        ),
        (
            json!({
                "AttributeDefinitions": [], "KeySchema": [], "TableName": "tbl",
                "LocalSecondaryIndexes": [{}, null],
                "GlobalSecondaryIndexes": [{
                    "KeySchema": [{}],
                    "Projection": {"ProjectionType": "NOPE"},
                    "ProvisionedThroughput": {"ReadCapacityUnits": 1}
                }]
            }),
            vec![
                null_at("localSecondaryIndexes.1.member.indexName"),
                null_at("localSecondaryIndexes.1.member.keySchema"),
                null_at("localSecondaryIndexes.1.member.projection"),
                null_at("localSecondaryIndexes.2.member"),
                null_at("globalSecondaryIndexes.1.member.indexName"),
                null_at("globalSecondaryIndexes.1.member.keySchema.1.member.attributeName"),
                null_at("globalSecondaryIndexes.1.member.keySchema.1.member.keyType"),
                enum_at(
                    "NOPE",
                    "globalSecondaryIndexes.1.member.projection.projectionType",
                    "ALL, INCLUDE, KEYS_ONLY",
                ),
                null_at("globalSecondaryIndexes.1.member.provisionedThroughput.writeCapacityUnits"),
            ],
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(
            fake.validation("CreateTable", body.clone()).await,
            errors(&expected),
            "{body}"
        );
    }
    // Without a name, the service's own sentence, before the other members' (issue 26 fact 1).
    assert_eq!(
        fake.validation("CreateTable", json!({})).await,
        "The parameter 'TableName' is required but was not present in the request"
    );
    // A projection without a type is an operation-specific message, not a constraint.
    let untyped = json!({"AttributeDefinitions": [], "KeySchema": [], "TableName": "tbl",
        "GlobalSecondaryIndexes": [{"IndexName": "i", "KeySchema": [], "Projection": {}}]});
    assert_eq!(
        fake.validation("CreateTable", untyped).await,
        "One or more parameter values were invalid: Unknown ProjectionType: null"
    );
    // Type errors at any depth, before every constraint.
    let short = "class java.lang.Short can not be converted to an String";
    for body in [
        json!({"AttributeDefinitions": [{"AttributeName": 1}]}),
        json!({"KeySchema": [{"KeyType": 5}]}),
        json!({"GlobalSecondaryIndexes": [{"Projection": {"NonKeyAttributes": [1]}}]}),
    ] {
        assert_eq!(
            fake.serialization("CreateTable", body.clone())
                .await
                .as_deref(),
            Some(short),
            "{body}"
        );
    }
    let wrong_element = json!({"KeySchema": [7]});
    assert_eq!(
        fake.run("CreateTable", wrong_element).await.0,
        Err(Fault::Serialization(Some("Expected null".into())))
    );
}
