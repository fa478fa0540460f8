//! The legacy members on the wire (see `wire/legacy.rs`): decoded into the typed requests, with type
//! errors as SerializationExceptions and enum/required constraints as ValidationExceptions.

use dynomodel::backend::{
    AttributeAction, AttributeValueUpdate, ComparisonOperator, ConditionalOperator,
    ExpectedAttributeValue, LegacyCondition,
};
use serde_json::json;

use super::fake::{Fake, Seen};
use super::{enum_at, errors, null_at, s};

const OPERATORS: &str =
    "IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS";

#[tokio::test]
async fn update_item_decodes_expected_and_attribute_updates() {
    let fake = Fake::default();
    let seen = fake
        .decoded(
            "UpdateItem",
            json!({
                "TableName": "users",
                "Key": {"pk": {"S": "a"}},
                "AttributeUpdates": {
                    "n": {"Action": "ADD", "Value": {"N": "1"}},
                    "gone": {"Action": "DELETE"},
                    "x": {"Value": {"S": "v"}}
                },
                "Expected": {
                    "a": {"Exists": false},
                    "b": {"Value": {"S": "v"}, "Exists": true},
                    "c": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"S": "a"}, {"S": "b"}]}
                },
                "ConditionalOperator": "OR"
            }),
        )
        .await;
    let Seen::Update(input) = seen else {
        panic!("{seen:?}");
    };
    let updates = input.attribute_updates.unwrap_or_default();
    assert_eq!(
        updates.get("n"),
        Some(&AttributeValueUpdate {
            value: Some(dynomodel::AttributeValue::N("1".parse().unwrap())),
            action: Some(AttributeAction::Add),
        })
    );
    assert_eq!(updates["gone"].action, Some(AttributeAction::Delete));
    assert_eq!(updates["x"].action, None);
    assert_eq!(updates.len(), 3);
    let expected = input.expected.unwrap_or_default();
    assert_eq!(expected["a"].exists, Some(false));
    assert_eq!(
        expected["b"],
        ExpectedAttributeValue {
            value: Some(s("v")),
            exists: Some(true),
            ..Default::default()
        }
    );
    assert_eq!(
        expected["c"].comparison_operator,
        Some(ComparisonOperator::Between)
    );
    assert_eq!(
        expected["c"].attribute_value_list,
        Some(vec![s("a"), s("b")])
    );
    assert_eq!(input.conditional_operator, Some(ConditionalOperator::Or));
}

#[tokio::test]
async fn reads_decode_their_legacy_members() {
    let fake = Fake::default();
    let seen = fake
        .decoded(
            "Query",
            json!({
                "TableName": "users",
                "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
                "QueryFilter": {"x": {"ComparisonOperator": "NOT_NULL"}},
                "AttributesToGet": ["x", "y"],
                "ConditionalOperator": "AND"
            }),
        )
        .await;
    let Seen::Query(q) = seen else {
        panic!("{seen:?}");
    };
    assert_eq!(
        q.key_conditions.unwrap_or_default()["pk"],
        LegacyCondition {
            comparison_operator: ComparisonOperator::Eq,
            attribute_value_list: Some(vec![s("a")]),
        }
    );
    assert_eq!(
        q.query_filter.unwrap_or_default()["x"].comparison_operator,
        ComparisonOperator::NotNull
    );
    assert_eq!(q.attributes_to_get, Some(vec!["x".into(), "y".into()]));
    assert_eq!(q.conditional_operator, Some(ConditionalOperator::And));
    let seen = fake
        .decoded(
            "Scan",
            json!({"TableName": "users", "ScanFilter": {"x": {"ComparisonOperator": "NULL"}}}),
        )
        .await;
    let Seen::Scan(scan) = seen else {
        panic!("{seen:?}");
    };
    assert!(scan.scan_filter.is_some_and(|f| f.contains_key("x")));
    let seen = fake
        .decoded(
            "GetItem",
            json!({"TableName": "users", "Key": {"pk": {"S": "a"}}, "AttributesToGet": ["x"]}),
        )
        .await;
    let Seen::Get(get) = seen else {
        panic!("{seen:?}");
    };
    assert_eq!(get.attributes_to_get, Some(vec!["x".into()]));
    // The service model's lists are dense (Smithy lists without @sparse): a null entry is refused
    // where it stands, not skipped.
    let message = fake
        .validation(
            "GetItem",
            json!({"TableName": "users", "Key": {"pk": {"S": "a"}}, "AttributesToGet": ["x", null]}),
        )
        .await;
    assert_eq!(
        message,
        "1 validation error detected: Value null at 'attributesToGet.2.member' failed to satisfy \
         constraint: Member must not be null"
    );
}

#[tokio::test]
async fn legacy_member_constraints_are_validation_errors() {
    let fake = Fake::default();
    let message = fake
        .validation(
            "PutItem",
            json!({
                "TableName": "users",
                "Item": {"pk": {"S": "a"}},
                "Expected": {"a": {"ComparisonOperator": "FOO"}},
                "ConditionalOperator": "XOR"
            }),
        )
        .await;
    assert_eq!(
        message,
        errors(&[
            enum_at("FOO", "expected.a.member.comparisonOperator", OPERATORS),
            enum_at("XOR", "conditionalOperator", "OR, AND"),
        ])
    );
    let message = fake
        .validation(
            "Scan",
            json!({"TableName": "users", "ScanFilter": {"a": {"AttributeValueList": []}}}),
        )
        .await;
    assert_eq!(
        message,
        errors(&[null_at("scanFilter.a.member.comparisonOperator")])
    );
    let message = fake
        .validation(
            "UpdateItem",
            json!({
                "TableName": "users",
                "Key": {"pk": {"S": "a"}},
                "AttributeUpdates": {"a": {"Action": "REPLACE"}}
            }),
        )
        .await;
    assert_eq!(
        message,
        errors(&[enum_at(
            "REPLACE",
            "attributeUpdates.a.member.action",
            "ADD, PUT, DELETE"
        )])
    );
}

#[tokio::test]
async fn legacy_member_types_are_serialization_errors() {
    let fake = Fake::default();
    for body in [
        json!({"TableName": "users", "Key": {"pk": {"S": "a"}}, "AttributesToGet": "x"}),
        json!({"TableName": "users", "Key": {"pk": {"S": "a"}}, "AttributesToGet": [1]}),
    ] {
        assert!(fake.serialization("GetItem", body).await.is_some());
    }
    let body = json!({
        "TableName": "users",
        "Item": {"pk": {"S": "a"}},
        "Expected": {"a": {"Exists": "yes"}}
    });
    assert!(fake.serialization("PutItem", body).await.is_some());
}

#[test]
fn map_entry_paths_are_made_only_when_asked_for_and_read_as_before() {
    use crate::protocol::{entry_path, Members};
    let fields = serde_json::Map::new();
    // A key with a dot stays as sent, as in the path formatted per entry before.
    let entry = Members::entry(&fields, "scanFilter", "a.b");
    assert_eq!(
        entry.path_of("ComparisonOperator"),
        "scanFilter.a.b.member.comparisonOperator"
    );
    assert_eq!(entry_path("expected", "x"), "expected.x.member");
    assert_eq!(
        Members::at(&fields, entry_path("expected", "x")).path_of("Value"),
        Members::entry(&fields, "expected", "x").path_of("Value")
    );
}

#[test]
fn member_paths_lower_their_first_character_only() {
    use crate::protocol::types::push_lower_first;
    for (name, expected) in [
        ("ComparisonOperator", "comparisonOperator"),
        ("SSEType", "sSEType"),
        ("x", "x"),
        ("", ""),
        ("Éa", "éa"),
    ] {
        let mut path = String::from("p.");
        push_lower_first(&mut path, name);
        assert_eq!(path, format!("p.{expected}"), "{name}");
    }
}
