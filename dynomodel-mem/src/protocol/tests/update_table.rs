//! UpdateTable's decoding: every member into the typed request, the model's constraints at their paths
//! (dynalite's `test/updateTable.js` recordings where they exist), the elements of
//! `GlobalSecondaryIndexUpdates` with none or several actions, and type errors first.

use dynomodel::backend::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, GlobalSecondaryIndexUpdate,
    KeySchemaElement, KeyType, Projection, ProjectionType, ProvisionedThroughput,
    ScalarAttributeType, StreamSpecification, StreamViewType, TableClass,
    UpdateGlobalSecondaryIndexAction, UpdateTableInput,
};
use serde_json::json;

use super::fake::{Fake, Seen};
use super::{enum_at, errors, null_at};
use crate::protocol::update_table::NO_ACTION;

fn units(read: i64, write: i64) -> ProvisionedThroughput {
    ProvisionedThroughput {
        read_capacity_units: read,
        write_capacity_units: write,
    }
}

fn at(value: &str, path: &str, constraint: &str) -> String {
    format!("Value '{value}' at '{path}' failed to satisfy constraint: {constraint}")
}

const PATTERN: &str = "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+";

fn at_least_length(n: usize) -> String {
    format!("Member must have length greater than or equal to {n}")
}

fn at_most_length(n: usize) -> String {
    format!("Member must have length less than or equal to {n}")
}

fn value_at_least(n: i64) -> String {
    format!("Member must have value greater than or equal to {n}")
}

#[tokio::test]
async fn every_member_is_decoded() {
    let fake = Fake::default();
    let body = json!({
        "TableName": "arn:aws:dynamodb:ddblocal:000000000000:table/users",
        "AttributeDefinitions": [{"AttributeName": "email", "AttributeType": "S"}],
        "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 6},
        "GlobalSecondaryIndexUpdates": [
            {"Create": {
                "IndexName": "by_email",
                "KeySchema": [{"AttributeName": "email", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["name"]},
                "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 2}
            }},
            {"Update": {"IndexName": "by_age",
                        "ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 4}}},
            {"Delete": {"IndexName": "old"}}
        ],
        "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        "TableClass": "STANDARD_INFREQUENT_ACCESS",
        "DeletionProtectionEnabled": true,
        // Members the backend has no field for are accepted and ignored.
        "SSESpecification": {"Enabled": true},
        "OnDemandThroughput": {"MaxReadRequestUnits": 10}
    });
    let expected = UpdateTableInput {
        table_name: "arn:aws:dynamodb:ddblocal:000000000000:table/users".into(),
        attribute_definitions: vec![AttributeDefinition {
            attribute_name: "email".into(),
            attribute_type: ScalarAttributeType::S,
        }],
        billing_mode: Some(BillingMode::Provisioned),
        provisioned_throughput: Some(units(5, 6)),
        global_secondary_index_updates: vec![
            GlobalSecondaryIndexUpdate::Create(GlobalSecondaryIndex {
                index_name: "by_email".into(),
                key_schema: vec![KeySchemaElement {
                    attribute_name: "email".into(),
                    key_type: KeyType::Hash,
                }],
                projection: Projection {
                    projection_type: ProjectionType::Include,
                    non_key_attributes: vec!["name".into()],
                },
                provisioned_throughput: Some(units(1, 2)),
            }),
            GlobalSecondaryIndexUpdate::Update(UpdateGlobalSecondaryIndexAction {
                index_name: "by_age".into(),
                provisioned_throughput: units(3, 4),
            }),
            GlobalSecondaryIndexUpdate::Delete {
                index_name: "old".into(),
            },
        ],
        stream_specification: Some(StreamSpecification::enabled(
            StreamViewType::NewAndOldImages,
        )),
        table_class: Some(TableClass::StandardInfrequentAccess),
        deletion_protection_enabled: Some(true),
    };
    assert_eq!(
        fake.decoded("UpdateTable", body).await,
        Seen::UpdateTable(expected)
    );
    // A bare table name and nothing else reaches the backend, whose rules answer it.
    assert_eq!(
        fake.decoded("UpdateTable", json!({"TableName": "t"})).await,
        Seen::UpdateTable(UpdateTableInput {
            table_name: "t".into(),
            ..Default::default()
        })
    );
    // A disabled stream needs no view type.
    let disable = json!({"TableName": "t", "StreamSpecification": {"StreamEnabled": false}});
    match fake.decoded("UpdateTable", disable).await {
        Seen::UpdateTable(input) => assert_eq!(
            input.stream_specification,
            Some(StreamSpecification::disabled())
        ),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn an_element_with_several_actions_is_several_updates_in_model_order() {
    let fake = Fake::default();
    let body = json!({"TableName": "t", "GlobalSecondaryIndexUpdates": [{
        "Delete": {"IndexName": "gone"},
        "Create": {"IndexName": "new", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
                   "Projection": {"ProjectionType": "KEYS_ONLY"}},
        "Update": {"IndexName": "kept",
                   "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}
    }]});
    let Seen::UpdateTable(input) = fake.decoded("UpdateTable", body).await else {
        panic!("not an UpdateTable");
    };
    let names: Vec<(&str, &str)> = input
        .global_secondary_index_updates
        .iter()
        .map(|u| match u {
            GlobalSecondaryIndexUpdate::Update(a) => ("update", a.index_name.as_str()),
            GlobalSecondaryIndexUpdate::Create(i) => ("create", i.index_name.as_str()),
            GlobalSecondaryIndexUpdate::Delete { index_name } => ("delete", index_name.as_str()),
        })
        .collect();
    assert_eq!(
        names,
        [("update", "kept"), ("create", "new"), ("delete", "gone")]
    );
}

#[tokio::test]
async fn an_element_without_an_action_is_dynamodb_s_message_after_the_constraints() {
    let fake = Fake::default();
    // dynalite's recordings: `[{}]` and `[{}, {}, {}, {}, {}, {}]` give the same single message.
    for updates in [json!([{}]), json!([{}, {}, {}, {}, {}, {}])] {
        let body = json!({"TableName": "t", "GlobalSecondaryIndexUpdates": updates});
        assert_eq!(fake.validation("UpdateTable", body).await, NO_ACTION);
    }
    // Null members count as absent; a null element is a null constraint, listed before the message.
    let body = json!({"TableName": "t", "GlobalSecondaryIndexUpdates": [{"Create": null}, null]});
    assert_eq!(
        fake.validation("UpdateTable", body).await,
        errors(&[null_at("globalSecondaryIndexUpdates.2.member")])
    );
    let body = json!({"TableName": "t", "GlobalSecondaryIndexUpdates": [{"Create": null}]});
    assert_eq!(fake.validation("UpdateTable", body).await, NO_ACTION);
}

#[tokio::test]
async fn constraints_at_their_paths() {
    let fake = Fake::default();
    let cases = [
        (json!({}), vec![null_at("tableName")]),
        (
            json!({"TableName": ""}),
            vec![at("", "tableName", &at_least_length(1))],
        ),
        (
            json!({"TableName": "a".repeat(1025)}),
            vec![at(&"a".repeat(1025), "tableName", &at_most_length(1024))],
        ),
        // dynalite: "should return ValidationException for empty ProvisionedThroughput".
        (
            json!({"TableName": "abc", "ProvisionedThroughput": {}}),
            vec![
                null_at("provisionedThroughput.writeCapacityUnits"),
                null_at("provisionedThroughput.readCapacityUnits"),
            ],
        ),
        // dynalite: "low ProvisionedThroughput.WriteCapacityUnits"; an out-of-bounds value is not a
        // constraint (the backend's "Given value … is out of bounds").
        (
            json!({"TableName": "abc",
                   "ProvisionedThroughput": {"ReadCapacityUnits": -1, "WriteCapacityUnits": -1}}),
            vec![
                at(
                    "-1",
                    "provisionedThroughput.writeCapacityUnits",
                    &value_at_least(1),
                ),
                at(
                    "-1",
                    "provisionedThroughput.readCapacityUnits",
                    &value_at_least(1),
                ),
            ],
        ),
        (
            json!({"TableName": "abc", "ProvisionedThroughput":
                   {"ReadCapacityUnits": 1_000_000_000_001_i64, "WriteCapacityUnits": -1}}),
            vec![at(
                "-1",
                "provisionedThroughput.writeCapacityUnits",
                &value_at_least(1),
            )],
        ),
        // dynalite: "should return ValidationException for empty Update".
        (
            json!({"TableName": "abc", "GlobalSecondaryIndexUpdates": [{"Update": {}}]}),
            vec![
                null_at("globalSecondaryIndexUpdates.1.member.update.indexName"),
                null_at("globalSecondaryIndexUpdates.1.member.update.provisionedThroughput"),
            ],
        ),
        // dynalite: "should return ValidationException for bad IndexName and ProvisionedThroughput".
        (
            json!({"TableName": "abc", "GlobalSecondaryIndexUpdates": [
                {"Update": {"IndexName": "a", "ProvisionedThroughput": {}}},
                {"Update": {"IndexName": "abc;", "ProvisionedThroughput":
                    {"ReadCapacityUnits": 1_000_000_000_001_i64, "WriteCapacityUnits": 0}}}
            ]}),
            vec![
                at(
                    "a",
                    "globalSecondaryIndexUpdates.1.member.update.indexName",
                    &at_least_length(3),
                ),
                null_at(
                    "globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.writeCapacityUnits",
                ),
                null_at(
                    "globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.readCapacityUnits",
                ),
                at(
                    "abc;",
                    "globalSecondaryIndexUpdates.2.member.update.indexName",
                    PATTERN,
                ),
                at(
                    "0",
                    "globalSecondaryIndexUpdates.2.member.update.provisionedThroughput.writeCapacityUnits",
                    &value_at_least(1),
                ),
            ],
        ),
        (
            json!({"TableName": "abc", "GlobalSecondaryIndexUpdates": [
                {"Create": {}},
                {"Delete": {}},
                {"Delete": {"IndexName": ""}},
                {"Delete": {"IndexName": "i".repeat(256)}}
            ]}),
            vec![
                null_at("globalSecondaryIndexUpdates.1.member.create.indexName"),
                null_at("globalSecondaryIndexUpdates.1.member.create.keySchema"),
                null_at("globalSecondaryIndexUpdates.1.member.create.projection"),
                null_at("globalSecondaryIndexUpdates.2.member.delete.indexName"),
                at(
                    "",
                    "globalSecondaryIndexUpdates.3.member.delete.indexName",
                    PATTERN,
                ),
                at(
                    "",
                    "globalSecondaryIndexUpdates.3.member.delete.indexName",
                    &at_least_length(3),
                ),
                at(
                    &"i".repeat(256),
                    "globalSecondaryIndexUpdates.4.member.delete.indexName",
                    &at_most_length(255),
                ),
            ],
        ),
        (
            json!({"TableName": "abc", "GlobalSecondaryIndexUpdates": [{"Create": {
                "IndexName": "idx",
                "KeySchema": [],
                "Projection": {"ProjectionType": "SOME", "NonKeyAttributes": []},
                "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 1}
            }}, {"Create": {
                "IndexName": "idx2",
                "KeySchema": [{"AttributeName": "", "KeyType": "SIDEWAYS"}, {}],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": [""]}
            }}]}),
            vec![
                at(
                    "[]",
                    "globalSecondaryIndexUpdates.1.member.create.keySchema",
                    &at_least_length(1),
                ),
                enum_at(
                    "SOME",
                    "globalSecondaryIndexUpdates.1.member.create.projection.projectionType",
                    "ALL, INCLUDE, KEYS_ONLY",
                ),
                at(
                    "[]",
                    "globalSecondaryIndexUpdates.1.member.create.projection.nonKeyAttributes",
                    &at_least_length(1),
                ),
                at(
                    "0",
                    "globalSecondaryIndexUpdates.1.member.create.provisionedThroughput.readCapacityUnits",
                    &value_at_least(1),
                ),
                at(
                    "",
                    "globalSecondaryIndexUpdates.2.member.create.keySchema.1.member.attributeName",
                    &at_least_length(1),
                ),
                enum_at(
                    "SIDEWAYS",
                    "globalSecondaryIndexUpdates.2.member.create.keySchema.1.member.keyType",
                    "HASH, RANGE",
                ),
                null_at(
                    "globalSecondaryIndexUpdates.2.member.create.keySchema.2.member.attributeName",
                ),
                null_at("globalSecondaryIndexUpdates.2.member.create.keySchema.2.member.keyType"),
                at(
                    "",
                    "globalSecondaryIndexUpdates.2.member.create.projection.nonKeyAttributes.1.member",
                    &at_least_length(1),
                ),
            ],
        ),
        (
            json!({"TableName": "abc",
                   "AttributeDefinitions": [{"AttributeName": "", "AttributeType": "X"}, {}],
                   "BillingMode": "FREE",
                   "StreamSpecification": {"StreamViewType": "ALL_IMAGES"},
                   "TableClass": "GLACIER"}),
            vec![
                at(
                    "",
                    "attributeDefinitions.1.member.attributeName",
                    &at_least_length(1),
                ),
                enum_at(
                    "X",
                    "attributeDefinitions.1.member.attributeType",
                    "B, N, S",
                ),
                null_at("attributeDefinitions.2.member.attributeName"),
                null_at("attributeDefinitions.2.member.attributeType"),
                enum_at("FREE", "billingMode", "PROVISIONED, PAY_PER_REQUEST"),
                null_at("streamSpecification.streamEnabled"),
                enum_at(
                    "ALL_IMAGES",
                    "streamSpecification.streamViewType",
                    "NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY",
                ),
                enum_at(
                    "GLACIER",
                    "tableClass",
                    "STANDARD, STANDARD_INFREQUENT_ACCESS",
                ),
            ],
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(
            fake.validation("UpdateTable", body.clone()).await,
            errors(&expected),
            "{body}"
        );
    }
    // Constraints win over the element without an action.
    let both = json!({"TableName": "", "GlobalSecondaryIndexUpdates": [{}]});
    assert_eq!(
        fake.validation("UpdateTable", both).await,
        errors(&[at("", "tableName", &at_least_length(1))])
    );
    // 21 non-key attributes break the list's maximum; the value is Java's rendering of the list.
    let names: Vec<String> = (0..21).map(|i| format!("n{i}")).collect();
    let body = json!({"TableName": "abc", "GlobalSecondaryIndexUpdates": [{"Create": {
        "IndexName": "idx", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": names}}}]});
    assert_eq!(
        fake.validation("UpdateTable", body).await,
        errors(&[at(
            &format!("[{}]", names.join(", ")),
            "globalSecondaryIndexUpdates.1.member.create.projection.nonKeyAttributes",
            &at_most_length(20),
        )])
    );
}

#[tokio::test]
async fn type_errors_come_first_at_any_depth() {
    let fake = Fake::default();
    let short = "class java.lang.Short can not be converted to an String";
    for body in [
        json!({"TableName": 1}),
        json!({"TableName": "", "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": 7}}]}),
        json!({"GlobalSecondaryIndexUpdates": [{"Create": {"Projection": {"NonKeyAttributes": [1]}}}]}),
        json!({"StreamSpecification": {"StreamViewType": 3}}),
        json!({"TableClass": 2}),
    ] {
        assert_eq!(
            fake.serialization("UpdateTable", body.clone())
                .await
                .as_deref(),
            Some(short),
            "{body}"
        );
    }
    let cases = [
        (
            json!({"ProvisionedThroughput": {"ReadCapacityUnits": "1"}}),
            "class java.lang.String can not be converted to an Long",
        ),
        (
            json!({"GlobalSecondaryIndexUpdates": {}}),
            "Start of structure or map found where not expected.",
        ),
        (
            json!({"GlobalSecondaryIndexUpdates": [{"Update": []}]}),
            "Start of list found where not expected",
        ),
        (
            json!({"StreamSpecification": {"StreamEnabled": "yes"}}),
            "'YES' can not be converted to an Boolean",
        ),
        (
            json!({"DeletionProtectionEnabled": 1}),
            "class java.lang.Short can not be converted to an Boolean",
        ),
    ];
    for (body, message) in cases {
        assert_eq!(
            fake.serialization("UpdateTable", body.clone())
                .await
                .as_deref(),
            Some(message),
            "{body}"
        );
    }
}
