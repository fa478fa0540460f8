//! Each CloudFormation table, read back into a CreateTable input, equals the CreateTable request the
//! mapper sends for the same models (the creation step of `db.plan_all`, which `create_schema`
//! runs); its time to live and point-in-time recovery equal the steps that follow it.

use dynomodel::backend::{
    AttributeDefinition, BillingMode, CreateTableInput, GlobalSecondaryIndex, KeySchemaElement,
    KeyType, LocalSecondaryIndex, Projection, ProjectionType, ProvisionedThroughput,
    ScalarAttributeType, StreamSpecification, StreamViewType, TableClass, Tag,
};
use dynomodel::migrate::{Action, Definition};
use dynomodel::Db;
use dynomodel_mem::MemoryDb as _;
use serde_json::Value;

use crate::models::examples;

fn text(v: &Value) -> String {
    v.as_str()
        .unwrap_or_else(|| panic!("not a string: {v}"))
        .to_owned()
}

fn list(v: &Value) -> &[Value] {
    v.as_array().map_or(&[], Vec::as_slice)
}

fn keys(v: &Value) -> Vec<KeySchemaElement> {
    list(v)
        .iter()
        .map(|k| KeySchemaElement {
            attribute_name: text(&k["AttributeName"]),
            key_type: match k["KeyType"].as_str() {
                Some("HASH") => KeyType::Hash,
                Some("RANGE") => KeyType::Range,
                other => panic!("KeyType {other:?}"),
            },
        })
        .collect()
}

fn projection(v: &Value) -> Projection {
    Projection {
        projection_type: match v["ProjectionType"].as_str() {
            Some("ALL") => ProjectionType::All,
            Some("KEYS_ONLY") => ProjectionType::KeysOnly,
            Some("INCLUDE") => ProjectionType::Include,
            other => panic!("ProjectionType {other:?}"),
        },
        non_key_attributes: list(&v["NonKeyAttributes"]).iter().map(text).collect(),
    }
}

fn throughput(v: &Value) -> Option<ProvisionedThroughput> {
    v.is_object().then(|| ProvisionedThroughput {
        read_capacity_units: v["ReadCapacityUnits"].as_i64().unwrap(),
        write_capacity_units: v["WriteCapacityUnits"].as_i64().unwrap(),
    })
}

/// The `AWS::DynamoDB::Table` properties as the CreateTable input they describe, by the
/// CloudFormation reference's names (an independent reading: nothing here shares the exporter's code).
fn create_table_of(p: &Value) -> CreateTableInput {
    CreateTableInput {
        table_name: text(&p["TableName"]),
        attribute_definitions: list(&p["AttributeDefinitions"])
            .iter()
            .map(|d| AttributeDefinition {
                attribute_name: text(&d["AttributeName"]),
                attribute_type: match d["AttributeType"].as_str() {
                    Some("S") => ScalarAttributeType::S,
                    Some("N") => ScalarAttributeType::N,
                    Some("B") => ScalarAttributeType::B,
                    other => panic!("AttributeType {other:?}"),
                },
            })
            .collect(),
        key_schema: keys(&p["KeySchema"]),
        billing_mode: Some(match p["BillingMode"].as_str() {
            Some("PAY_PER_REQUEST") => BillingMode::PayPerRequest,
            Some("PROVISIONED") => BillingMode::Provisioned,
            other => panic!("BillingMode {other:?}"),
        }),
        provisioned_throughput: throughput(&p["ProvisionedThroughput"]),
        local_secondary_indexes: list(&p["LocalSecondaryIndexes"])
            .iter()
            .map(|i| LocalSecondaryIndex {
                index_name: text(&i["IndexName"]),
                key_schema: keys(&i["KeySchema"]),
                projection: projection(&i["Projection"]),
            })
            .collect(),
        global_secondary_indexes: list(&p["GlobalSecondaryIndexes"])
            .iter()
            .map(|i| GlobalSecondaryIndex {
                index_name: text(&i["IndexName"]),
                key_schema: keys(&i["KeySchema"]),
                projection: projection(&i["Projection"]),
                provisioned_throughput: throughput(&i["ProvisionedThroughput"]),
            })
            .collect(),
        stream_specification: p["StreamSpecification"]["StreamViewType"]
            .as_str()
            .map(|view| {
                StreamSpecification::enabled(match view {
                    "KEYS_ONLY" => StreamViewType::KeysOnly,
                    "NEW_IMAGE" => StreamViewType::NewImage,
                    "OLD_IMAGE" => StreamViewType::OldImage,
                    "NEW_AND_OLD_IMAGES" => StreamViewType::NewAndOldImages,
                    other => panic!("StreamViewType {other}"),
                })
            }),
        table_class: p["TableClass"].as_str().map(|class| match class {
            "STANDARD" => TableClass::Standard,
            "STANDARD_INFREQUENT_ACCESS" => TableClass::StandardInfrequentAccess,
            other => panic!("TableClass {other}"),
        }),
        deletion_protection_enabled: p["DeletionProtectionEnabled"].as_bool(),
        tags: list(&p["Tags"])
            .iter()
            .map(|t| Tag::new(text(&t["Key"]), text(&t["Value"])))
            .collect(),
    }
}

/// What the mapper sends to create `definitions`' tables, table by table: the CreateTable input and
/// the steps after it, as the CloudFormation properties would say them.
async fn mapper_requests(definitions: &[Definition]) -> Vec<(CreateTableInput, Value, Value)> {
    let plan = Db::memory().plan_all(definitions).await.unwrap();
    let mut out: Vec<(CreateTableInput, Value, Value)> = Vec::new();
    for step in plan.steps() {
        match &step.action {
            Action::CreateTable(input) => {
                out.push((CreateTableInput::clone(input), Value::Null, Value::Null))
            }
            Action::EnableTtl { attribute_name } => {
                out.last_mut().unwrap().1 =
                    serde_json::json!({ "AttributeName": attribute_name, "Enabled": true });
            }
            Action::SetPointInTimeRecovery {
                enabled: true,
                recovery_period_in_days,
            } => {
                let mut spec = serde_json::json!({ "PointInTimeRecoveryEnabled": true });
                if let Some(days) = recovery_period_in_days {
                    spec["RecoveryPeriodInDays"] = serde_json::json!(days);
                }
                out.last_mut().unwrap().2 = spec;
            }
            other => panic!("a creation plan holds {other:?}"),
        }
    }
    out
}

#[tokio::test]
async fn each_cloudformation_table_is_the_create_table_request_the_mapper_sends() {
    for (example, models) in examples() {
        let template: Value = serde_json::from_str(&models.cloudformation().unwrap()).unwrap();
        let resources = template["Resources"].as_object().unwrap();
        let mut exported: Vec<(CreateTableInput, Value, Value)> = resources
            .values()
            .map(|resource| {
                assert_eq!(resource["Type"], "AWS::DynamoDB::Table");
                let p = &resource["Properties"];
                (
                    create_table_of(p),
                    p["TimeToLiveSpecification"].clone(),
                    p["PointInTimeRecoverySpecification"].clone(),
                )
            })
            .collect();
        exported.sort_by(|a, b| a.0.table_name.cmp(&b.0.table_name));
        let mut sent = mapper_requests(&models.definitions().unwrap()).await;
        // The model leaves an on-demand table's billing mode implicit only if it says nothing; the
        // template always names it.
        for (input, _, _) in &mut sent {
            input.billing_mode.get_or_insert(BillingMode::Provisioned);
        }
        assert_eq!(exported, sent, "{example}");
        assert!(!sent.is_empty(), "{example}");
    }
}
