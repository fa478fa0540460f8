//! The generated tables and the validator's messages.

use serde_json::{json, Value};

use super::{check, generated, matches, Kind};
use crate::protocol::Fault;

/// The message of the `ValidationException` `check` reports for `body`, or `None` when it passes.
fn message(operation: &str, body: Value) -> Option<String> {
    let Value::Object(map) = body else {
        panic!("a request is an object")
    };
    match check(operation, &map) {
        Ok(()) => None,
        Err(Fault::Backend(e)) => {
            assert_eq!(e.code(), "ValidationException");
            Some(e.message().to_owned())
        }
        Err(other) => panic!("unexpected {other:?}"),
    }
}

fn one(violation: &str) -> Option<String> {
    Some(format!("1 validation error detected: {violation}"))
}

#[test]
fn every_pattern_of_the_models_has_a_matcher() {
    for service in [&generated::DYNAMODB, &generated::DYNAMODB_STREAMS] {
        for shape in service.shapes {
            if let Kind::String {
                pattern: Some(p), ..
            } = shape.kind
            {
                assert!(matches(p, "x").is_some(), "{}: {p}", shape.name);
            }
        }
        // Operations are sorted (looked up by binary search) and inputs are structures.
        for pair in service.operations.windows(2) {
            assert!(pair[0].0 < pair[1].0);
        }
        for (name, input) in service.operations {
            if let Some(i) = input {
                assert!(
                    matches!(service.shapes[*i].kind, Kind::Structure(_)),
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn the_checked_in_table_is_the_scripts_output() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let script = format!("{root}/scripts/gen-service-model.py");
    let probe = std::process::Command::new("python3")
        .args(["-c", "import botocore"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: python3 with botocore is not available");
        return;
    }
    let out = std::process::Command::new("python3")
        .args([script.as_str(), "-"])
        .output()
        .expect("the generator runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let generated = String::from_utf8(out.stdout).expect("utf-8");
    let checked_in = include_str!("generated.rs");
    assert!(
        generated == checked_in,
        "generated.rs is stale: run scripts/gen-service-model.py"
    );
}

#[test]
fn lengths_ranges_and_enums_in_the_services_form() {
    assert_eq!(
        message("UpdateTable", json!({"TableName": ""})),
        one("Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1")
    );
    assert_eq!(
        message("Scan", json!({"TableName": "t", "Limit": 0})),
        one("Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
    );
    // Query's Limit without its value, capitalised (issue 26 fact 2).
    assert_eq!(
        message("Query", json!({"TableName": "t", "Limit": 0})),
        one("Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
    );
    assert_eq!(
        message("Scan", json!({"TableName": "t", "Segment": 1_000_000, "TotalSegments": 1})),
        one("Value '1000000' at 'segment' failed to satisfy constraint: Member must have value less than or equal to 999999")
    );
    assert_eq!(
        message("Query", json!({"TableName": "t", "Select": "SOME"})),
        one("Value 'SOME' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]")
    );
    assert_eq!(
        message("Query", json!({"TableName": "t", "IndexName": "a;"})),
        Some("2 validation errors detected: Value 'a;' at 'indexName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value 'a;' at 'indexName' failed to satisfy constraint: Member must have length greater than or equal to 3".to_owned())
    );
    // Satisfied constraints pass.
    assert_eq!(
        message("Query", json!({"TableName": "t", "Limit": 1})),
        None
    );
    assert_eq!(message("ListTables", json!({})), None);
}

#[test]
fn nested_list_and_map_paths() {
    let create = json!({
        "TableName": "users",
        "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "X"}],
        "KeySchema": [{"AttributeName": "id"}],
        "BillingMode": "PAY_PER_REQUEST",
    });
    assert_eq!(
        message("CreateTable", create),
        Some("2 validation errors detected: Value 'X' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]; Value null at 'keySchema.1.member.keyType' failed to satisfy constraint: Member must not be null".to_owned())
    );
    let batch =
        json!({"RequestItems": {"users": {"Keys": [{"id": {"S": "1"}}], "AttributesToGet": []}}});
    assert_eq!(
        message("BatchGetItem", batch),
        one("Value '[]' at 'requestItems.users.member.attributesToGet' failed to satisfy constraint: Member must have length greater than or equal to 1")
    );
    let write = json!({"RequestItems": {"aa;": [{"PutRequest": {}, "DeleteRequest": {}}]}});
    assert_eq!(
        message("BatchWriteItem", write),
        Some("2 validation errors detected: Value null at 'requestItems.aa;.member.1.member.deleteRequest.key' failed to satisfy constraint: Member must not be null; Value null at 'requestItems.aa;.member.1.member.putRequest.item' failed to satisfy constraint: Member must not be null".to_owned())
    );
}

#[test]
fn clean_elements_and_entries_are_skipped_without_changing_what_is_reported() {
    // Clean entries and elements are passed over without a path; those after them that break a
    // constraint are reported at their own paths, in order, and a wrong type still wins.
    let filter = json!({
        "a": {"ComparisonOperator": "NOT_NULL"},
        "b": {"AttributeValueList": [{"S": "x"}]},
        "c": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "x"}]},
        "d": {"ComparisonOperator": "LIKE"},
    });
    let long = "x".repeat(65536);
    let body = json!({"TableName": "t", "ScanFilter": filter, "AttributesToGet": ["a", long, "c"]});
    assert_eq!(
        message("Scan", body),
        Some(format!("3 validation errors detected: Value '{long}' at 'attributesToGet.2.member' failed to satisfy constraint: Member must have length less than or equal to 65535; Value null at 'scanFilter.b.member.comparisonOperator' failed to satisfy constraint: Member must not be null; Value 'LIKE' at 'scanFilter.d.member.comparisonOperator' failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]"))
    );
    let body = json!({"TableName": "t", "ScanFilter": {"a": {"ComparisonOperator": "NULL"}, "b": {"AttributeValueList": [{"S": 1}]}}});
    assert_eq!(message("Scan", body), None, "a type error is the decoder's");
    let body = json!({"TableName": "t", "AttributesToGet": ["a", null, "c"]});
    assert_eq!(
        message("Scan", body),
        one("Value null at 'attributesToGet.2.member' failed to satisfy constraint: Member must not be null")
    );
}

#[test]
fn map_values_are_reported_once_with_all_their_constraints() {
    let body = json!({
        "TableName": "t",
        "Key": {"id": {"S": "1"}},
        "ExpressionAttributeNames": {"#a": "x".repeat(65536)},
    });
    let text = message("GetItem", body).expect("a violation");
    assert!(
        text.ends_with("at 'expressionAttributeNames' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 65535]"),
        "{text}"
    );
}

#[test]
fn type_errors_are_left_to_the_decoders() {
    // A wrong JSON type anywhere (even inside an attribute value) wins over constraints.
    assert_eq!(
        message(
            "Query",
            json!({"TableName": "t", "Limit": 0, "ConsistentRead": "yes"})
        ),
        None
    );
    let body = json!({"TableName": "t", "Limit": 0, "ExclusiveStartKey": {"a": {"N": 1}}});
    assert_eq!(message("Query", body), None);
    let body = json!({"TableName": "t", "Limit": 0, "ExclusiveStartKey": {"a": {"B": "%%%%"}}});
    assert_eq!(message("Query", body), None);
}

#[test]
fn attribute_values_are_only_type_checked() {
    // Empty values, nulls inside lists and maps: value.rs answers them with its own messages.
    let body = json!({"TableName": "t", "Item": {"a": {}, "b": {"L": [null]}, "c": null}});
    assert_eq!(message("PutItem", body), None);
}

#[test]
fn at_most_ten_violations_are_listed_and_all_are_counted() {
    let elements: Vec<Value> = (0..12).map(|_| Value::Null).collect();
    let body = json!({"TransactItems": elements});
    let text = message("TransactGetItems", body).expect("violations");
    assert!(
        text.starts_with("12 validation errors detected: "),
        "{text}"
    );
    assert_eq!(text.matches("Member must not be null").count(), 10);
}

#[test]
fn streams_operations_use_the_streams_model() {
    let body = json!({"StreamArn": "short", "Limit": 0});
    let text = message("DynamoDBStreams_20120810.DescribeStream", body).expect("violations");
    assert_eq!(
        text,
        "2 validation errors detected: Value 'short' at 'streamArn' failed to satisfy constraint: Member must have length greater than or equal to 37; Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"
    );
}

#[test]
fn item_writes_and_create_table_report_the_table_name_alone() {
    // Issue 26 fact 1: the name's errors alone, whatever else is wrong (an enum, an empty item).
    let empty = one(
        "Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
    for operation in ["PutItem", "UpdateItem", "DeleteItem"] {
        let body = json!({"TableName": "", "ReturnValues": "INVALID", "Item": {}, "Key": {}});
        assert_eq!(message(operation, body), empty, "{operation}");
    }
    assert_eq!(
        message("PutItem", json!({"TableName": "x!", "Item": {}})),
        one("Value 'x!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")
    );
    // A name of the model's minimum length, and an ARN, pass here; the enum is then reported.
    assert_eq!(
        message("PutItem", json!({"TableName": "ab", "Item": {}})),
        None
    );
    let arn = json!({"TableName": "arn:aws:dynamodb:r:1:table/t", "ReturnValues": "X", "Item": {}});
    assert!(message("PutItem", arn).is_some_and(|m| m.contains("'returnValues'")));
    // A missing name is the model's null constraint for the item writes.
    assert_eq!(
        message("PutItem", json!({"Item": {}})),
        one("Value null at 'tableName' failed to satisfy constraint: Member must not be null")
    );
    // CreateTable: its own sentence for a missing name, the name's constraints alone otherwise.
    assert_eq!(
        message("CreateTable", json!({"KeySchema": [], "BillingMode": "X"})),
        Some("The parameter 'TableName' is required but was not present in the request".to_owned())
    );
    assert_eq!(
        message("CreateTable", json!({"TableName": "ab", "KeySchema": [], "BillingMode": "X"})),
        one("Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3")
    );
    // A wrong JSON type anywhere is the decoder's, first.
    assert_eq!(
        message("PutItem", json!({"TableName": "", "Item": "x"})),
        None
    );
}

/// The quick validity check agrees with the messages: lengths in characters (multi-byte ones too)
/// at and around each bound, enums and patterns.
#[test]
fn string_is_valid_agrees_with_string_violations() {
    use super::walk::{string_is_valid, string_violations};
    use super::Bounds;
    let strings = [
        "",
        "a",
        "ab",
        "abc",
        "é",
        "éé",
        "ééé",
        "€€€€",
        "a€",
        "😀😀",
        "x y",
    ];
    let bounds = [None, Some(0), Some(1), Some(2), Some(3), Some(4), Some(6)];
    for s in strings {
        for min in bounds {
            for max in bounds {
                let length = Bounds { min, max };
                for (pattern, values) in [
                    (None, &[][..]),
                    (Some("[a-zA-Z0-9_.-]+"), &[][..]),
                    (None, &["ab", "é"][..]),
                ] {
                    assert_eq!(
                        string_is_valid(s, length, pattern, values),
                        string_violations(s, length, pattern, values).is_empty(),
                        "{s:?} {length:?} {pattern:?} {values:?}"
                    );
                }
            }
        }
    }
}
