//! The service's wording of request validation, through the in-process `Backend`, where the typed requests can
//! express them: the same answers as the server's (`tests/dual/request_wording.rs` sends the raw JSON
//! to the engine's wire layer, the server and DynamoDB Local).

use dynomodel::backend::{
    AttributeAction, AttributeValueUpdate, Backend, CreateTableInput, DeleteItemInput,
    ExpectedAttributeValue, GetItemInput, KeySchemaElement, LocalSecondaryIndex, Projection,
    ProjectionType, PutItemInput, ScalarAttributeType as T, ScanInput, UpdateItemInput,
};
use dynomodel::{AttributeValue, Error, Item};

use super::{assert_validation, backend_with, def, item, names, s, table_input, values};
use crate::MemBackend;

const PATTERN: &str = "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+";

fn one(value: &str, path: &str, constraint: &str) -> String {
    format!(
        "1 validation error detected: Value '{value}' at '{path}' failed to satisfy constraint: \
         {constraint}"
    )
}

fn put(table: &str, item: Item) -> PutItemInput {
    PutItemInput {
        table_name: table.into(),
        item,
        ..Default::default()
    }
}

fn key(pk: &str) -> Item {
    item(&[("pk", s(pk))])
}

/// Fact 1: PutItem, UpdateItem and DeleteItem take a table name or ARN (the model's `TableArn`), a
/// name held to 255 characters and the name pattern; the name's error comes alone and first.
#[tokio::test]
async fn item_writes_check_their_table_name_first_and_alone() {
    let b = backend_with(table_input("things", T::S, None)).await;
    let long = "a".repeat(256);
    let cases = [
        (
            String::new(),
            one(
                "",
                "tableName",
                "Member must have length greater than or equal to 1",
            ),
        ),
        (
            long.clone(),
            one(
                &long,
                "tableName",
                "Member must have length less than or equal to 255",
            ),
        ),
        ("x!".to_owned(), one("x!", "tableName", PATTERN)),
    ];
    for (name, message) in &cases {
        // An item that breaks rules of its own, and a ReturnValues the operation refuses: the name's
        // error wins over them.
        let mut input = put(name, Item::new());
        input.return_values = Some(dynomodel::backend::ReturnValue::AllNew);
        assert_validation(b.put_item(input).await, message);
        let update = UpdateItemInput {
            table_name: name.clone(),
            key: Item::new(),
            ..Default::default()
        };
        assert_validation(b.update_item(update).await, message);
        let delete = DeleteItemInput {
            table_name: name.clone(),
            key: Item::new(),
            ..Default::default()
        };
        assert_validation(b.delete_item(delete).await, message);
    }
    // Two characters are a name the model allows (its minimum is 1): no such table.
    let r = b.put_item(put("ab", key("a"))).await;
    assert!(
        matches!(&r, Err(e) if e.code() == "ResourceNotFoundException"),
        "{r:?}"
    );
}

/// Fact 1: an item write may name its table by ARN (the engine's region and account).
#[tokio::test]
async fn item_writes_name_their_table_by_arn() {
    let b = backend_with(table_input("things", T::S, None)).await;
    let arn = b
        .describe_table(dynomodel::backend::DescribeTableInput {
            table_name: "things".into(),
        })
        .await
        .expect("describe")
        .table
        .table_arn;
    b.put_item(put(&arn, key("a"))).await.expect("put by ARN");
    let update = UpdateItemInput {
        table_name: arn.clone(),
        key: key("a"),
        update_expression: Some("SET v = :v".into()),
        expression_attribute_values: values(&[(":v", s("x"))]),
        ..Default::default()
    };
    b.update_item(update).await.expect("update by ARN");
    let got = b
        .get_item(GetItemInput {
            table_name: "things".into(),
            key: key("a"),
            ..Default::default()
        })
        .await
        .expect("get");
    assert_eq!(got.item, Some(item(&[("pk", s("a")), ("v", s("x"))])));
    let delete = DeleteItemInput {
        table_name: arn,
        key: key("a"),
        ..Default::default()
    };
    b.delete_item(delete).await.expect("delete by ARN");
    // Another account's ARN names no table here.
    let foreign = "arn:aws:dynamodb:us-east-1:123456789012:table/things";
    let r = b.put_item(put(foreign, key("a"))).await;
    assert!(
        matches!(&r, Err(e) if e.code() == "ResourceNotFoundException"),
        "{r:?}"
    );
}

/// Fact 11: key attribute names of more than 255 characters (or none) fail on the member's length,
/// with the other constraints and before any consistency check.
#[tokio::test]
async fn key_attribute_names_longer_than_255_characters() {
    let long = "k".repeat(256);
    let too_long = "Member must have length less than or equal to 255";
    // In the key schema and the definitions: both paths, definitions first (the model's order).
    let mut input = table_input("tbl", T::S, None);
    input.attribute_definitions = vec![def(&long, T::S)];
    input.key_schema = vec![KeySchemaElement::hash(&long)];
    assert_validation(
        MemBackend::new().create_table(input).await,
        &format!(
            "2 validation errors detected: Value '{long}' at \
             'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: {too_long}; \
             Value '{long}' at 'keySchema.1.member.attributeName' failed to satisfy constraint: \
             {too_long}"
        ),
    );
    // In the key schema only: the length, not the missing definition.
    let mut input = table_input("tbl", T::S, None);
    input.key_schema = vec![KeySchemaElement::hash(&long)];
    assert_validation(
        MemBackend::new().create_table(input).await,
        &one(&long, "keySchema.1.member.attributeName", too_long),
    );
    // In an index's key schema.
    let mut input = table_input("tbl", T::S, None);
    input.global_secondary_indexes = vec![dynomodel::backend::GlobalSecondaryIndex {
        index_name: "by-g".into(),
        key_schema: vec![KeySchemaElement::hash(&long)],
        projection: Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: vec![],
        },
        provisioned_throughput: None,
    }];
    assert_validation(
        MemBackend::new().create_table(input).await,
        &one(
            &long,
            "globalSecondaryIndexes.1.member.keySchema.1.member.attributeName",
            too_long,
        ),
    );
    let mut input = table_input("tbl", T::S, Some(T::S));
    input.local_secondary_indexes = vec![LocalSecondaryIndex {
        index_name: "by-l".into(),
        key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("")],
        projection: Projection {
            projection_type: ProjectionType::KeysOnly,
            non_key_attributes: vec![],
        },
    }];
    assert_validation(
        MemBackend::new().create_table(input).await,
        &one(
            "",
            "localSecondaryIndexes.1.member.keySchema.2.member.attributeName",
            "Member must have length greater than or equal to 1",
        ),
    );
    // 255 characters are a name.
    let name = "k".repeat(255);
    let mut input: CreateTableInput = table_input("tbl", T::S, None);
    input.attribute_definitions = vec![def(&name, T::S)];
    input.key_schema = vec![KeySchemaElement::hash(&name)];
    MemBackend::new()
        .create_table(input)
        .await
        .expect("255 characters");
}

/// Fact 12: an empty attribute name is refused wherever a request gives one.
#[tokio::test]
async fn empty_attribute_names_are_refused() {
    let b = backend_with(table_input("things", T::S, None)).await;
    let empty = "Empty attribute name";
    let nested = AttributeValue::M(item(&[("", s("x"))]));
    for bad in [
        item(&[("pk", s("a")), ("", s("x"))]),
        item(&[("pk", s("a")), ("m", nested.clone())]),
        item(&[
            ("pk", s("a")),
            ("l", AttributeValue::L(vec![nested.clone()])),
        ]),
    ] {
        assert_validation(b.put_item(put("things", bad)).await, empty);
    }
    let get = GetItemInput {
        table_name: "things".into(),
        key: key("a"),
        attributes_to_get: Some(vec!["a".into(), String::new()]),
        ..Default::default()
    };
    assert_validation(b.get_item(get).await, empty);
    let get = GetItemInput {
        table_name: "things".into(),
        key: item(&[("", s("a"))]),
        ..Default::default()
    };
    assert_validation(b.get_item(get).await, empty);
    let scan = ScanInput {
        table_name: "things".into(),
        attributes_to_get: Some(vec![String::new()]),
        ..Default::default()
    };
    assert_validation(b.scan(scan).await, empty);
    let update = UpdateItemInput {
        table_name: "things".into(),
        key: key("a"),
        attribute_updates: Some(
            [(
                String::new(),
                AttributeValueUpdate {
                    value: None,
                    action: Some(AttributeAction::Delete),
                },
            )]
            .into(),
        ),
        ..Default::default()
    };
    assert_validation(b.update_item(update).await, empty);
    let mut input = put("things", key("a"));
    input.expected = Some(
        [(
            String::new(),
            ExpectedAttributeValue {
                exists: Some(false),
                ..Default::default()
            },
        )]
        .into(),
    );
    assert_validation(b.put_item(input).await, empty);
    // In the placeholder maps, with the maps' own wording.
    let update = UpdateItemInput {
        table_name: "things".into(),
        key: key("a"),
        update_expression: Some("SET #name = :v".into()),
        expression_attribute_names: names(&[("#name", "")]),
        expression_attribute_values: values(&[(":v", s("x"))]),
        ..Default::default()
    };
    assert_validation(
        b.update_item(update).await,
        "ExpressionAttributeNames contains invalid value: Empty attribute name for key #name",
    );
    let update = UpdateItemInput {
        table_name: "things".into(),
        key: key("a"),
        update_expression: Some("SET m = :v".into()),
        expression_attribute_values: values(&[(":v", nested)]),
        ..Default::default()
    };
    assert_validation(
        b.update_item(update).await,
        "ExpressionAttributeValues contains invalid value: Empty attribute name for key :v",
    );
    // Nothing was written.
    let scan = b
        .scan(ScanInput {
            table_name: "things".into(),
            ..Default::default()
        })
        .await
        .map_err(|e: Error| e.message());
    assert_eq!(scan.map(|o| o.count), Ok(0));
}
