//! Real DynamoDB's first validation step: the service model's member
//! constraints, every violation listed in one `ValidationException` ("N validation errors detected:
//! …"), before any semantic check.
//!
//! Most of these requests cannot be built with the typed `Backend` API (an enum outside its set, a
//! missing required member), so they are sent as raw JSON: on the engine through the wire protocol
//! without HTTP (`wire::call`), on the server and on DynamoDB Local over HTTP. Requests the typed API
//! can express (limits, capacities, names) also go through `Backend`. DynamoDB Local checks few of
//! these constraints and words them in its own, older forms: each such case is a `// KNOWN
//! DIFFERENCE:` with a line in `deviations.md`.

use dynomodel::backend::{
    AttributeDefinition, BillingMode, CreateTableInput, KeySchemaElement, ListTablesInput,
    ProvisionedThroughput, QueryInput, ScanInput,
};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::*;

/// An answer to a raw request: the error's code and message, or `None` for a success.
pub(super) type Answer = Option<(String, String)>;

/// Sends `body` as `operation` (`PutItem`, or a whole streams target) to the scenario's backend.
pub(super) async fn send(t: &Dual, operation: &str, body: Value) -> Answer {
    call(t, operation, body).await.err()
}

/// [`send`], with the response's body on success.
pub(super) async fn call(
    t: &Dual,
    operation: &str,
    body: Value,
) -> Result<Value, (String, String)> {
    let target = if operation.contains('_') {
        operation.to_owned()
    } else {
        format!("DynamoDB_20120810.{operation}")
    };
    match t.target() {
        Target::Mem => {
            let engine = t.engine().expect("the engine");
            let op =
                dynomodel_mem::__private::wire::operation_of(&target).expect("a DynamoDB target");
            match dynomodel_mem::__private::wire::call(engine, op, body.to_string().as_bytes())
                .await
            {
                Ok(reply) => Ok(reply),
                Err(fault) => {
                    let (_, body) = dynomodel_mem::__private::wire::error_response(&fault);
                    Err(error_of(&body))
                }
            }
        }
        Target::Server => {
            let url = t.server_url().expect("the server's address");
            http(&url, &target, &body).await
        }
        Target::DynamoDbLocal => {
            let url = std::env::var("DYNAMODB_ENDPOINT").expect("DYNAMODB_ENDPOINT");
            http(&url, &target, &body).await
        }
    }
}

/// The code (after `#`) and message of an error body (`message` or, from DynamoDB Local, `Message`).
fn error_of(body: &Value) -> (String, String) {
    let kind = body["__type"].as_str().unwrap_or_default();
    let code = kind.rsplit('#').next().unwrap_or_default().to_owned();
    let message = body
        .get("message")
        .or_else(|| body.get("Message"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    (code, message)
}

/// One raw HTTP/1.1 request (`Connection: close`), with a placeholder signature: DynamoDB Local
/// reads the access key from it (its database is per key and region: `AwsBackend::local`'s) and
/// checks nothing else.
async fn http(url: &str, target: &str, body: &Value) -> Result<Value, (String, String)> {
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(host).await.unwrap();
    let body = body.to_string();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-amz-json-1.0\r\n\
         X-Amz-Target: {target}\r\nX-Amz-Date: 20240101T000000Z\r\n\
         Authorization: AWS4-HMAC-SHA256 Credential=dynomodel/20240101/us-east-1/dynamodb/aws4_request, \
         SignedHeaders=host;x-amz-date, Signature=0000\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.unwrap();
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let status_line = String::from_utf8_lossy(&bytes[..split]).to_string();
    let reply: Value = serde_json::from_slice(&bytes[split + 4..]).unwrap();
    if status_line.starts_with("HTTP/1.1 200") {
        return Ok(reply);
    }
    Err(error_of(&reply))
}

/// Asserts a `ValidationException` with `message` on the engine and the server, and `local` on
/// DynamoDB Local (`None`: Local accepts the request).
pub(super) fn expect(t: &Dual, got: Answer, message: &str, local: Option<&str>) {
    let expected = match t.target() {
        Target::Mem | Target::Server => Some(message),
        Target::DynamoDbLocal => local,
    };
    let expected = expected.map(|m| ("ValidationException".to_owned(), m.to_owned()));
    assert_eq!(got, expected, "[{:?}]", t.target());
}

pub(super) fn violation(value: &str, path: &str, constraint: &str) -> String {
    format!("Value {value} at '{path}' failed to satisfy constraint: {constraint}")
}

pub(super) fn one(v: String) -> String {
    format!("1 validation error detected: {v}")
}

pub(super) fn several(vs: &[String]) -> String {
    format!("{} validation errors detected: {}", vs.len(), vs.join("; "))
}

pub(super) async fn hash_table(t: &Dual, label: &str) -> String {
    t.create_table(label, ("pk", S), None).await
}

pub(super) fn key_condition(table: &str) -> Value {
    json!({
        "TableName": table,
        "KeyConditionExpression": "pk = :v",
        "ExpressionAttributeValues": {":v": {"S": "a"}},
    })
}

pub(super) fn with(mut base: Value, extra: Value) -> Value {
    if let (Value::Object(base), Value::Object(extra)) = (&mut base, extra) {
        base.extend(extra);
    }
    base
}

const SELECT: &str = "Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]";
const NOT_NULL: &str = "Member must not be null";

dual_test!(ranges_limit_and_segments, |t| {
    let table = hash_table(&t, "ranges").await;
    // KNOWN DIFFERENCE: DynamoDB Local has its own sentence for a Limit below 1. Query's is worded
    // without the value (recorded on the service), Scan's in the usual form.
    let query_limit =
        "1 validation error detected: Value at 'Limit' failed to satisfy constraint: \
                       Member must have value greater than or equal to 1";
    let limit = json!({"Limit": 0});
    expect(
        &t,
        send(&t, "Query", with(key_condition(&table), limit.clone())).await,
        query_limit,
        Some("Limit must be greater than or equal to 1"),
    );
    expect(
        &t,
        send(&t, "Scan", with(json!({"TableName": table}), limit)).await,
        &one(violation(
            "'0'",
            "limit",
            "Member must have value greater than or equal to 1",
        )),
        Some("Limit must be greater than or equal to 1"),
    );
    // Through the typed API too (the engine checks it for Rust callers in the same form).
    let query = QueryInput {
        table_name: table.clone(),
        key_condition_expression: Some("pk = :v".into()),
        expression_attribute_values: Some(
            [(":v".to_owned(), AttributeValue::S("a".into()))].into(),
        ),
        limit: Some(0),
        ..QueryInput::default()
    };
    t.expect_error_differs(
        t.backend().query(query).await,
        "ValidationException",
        query_limit,
        "Limit must be greater than or equal to 1",
    );
    let list = ListTablesInput {
        limit: Some(0),
        ..ListTablesInput::default()
    };
    t.expect_error_differs(
        t.backend().list_tables(list).await,
        "ValidationException",
        &one(violation(
            "'0'",
            "limit",
            "Member must have value greater than or equal to 1",
        )),
        "Limit must be greater than or equal to 1",
    );
    // Both segment members out of range: the service lists both, Local the first it checks.
    // KNOWN DIFFERENCE: DynamoDB Local reports only totalSegments.
    let scan = json!({"TableName": table, "Segment": 1_000_000, "TotalSegments": 1_000_001});
    let total = violation(
        "'1000001'",
        "totalSegments",
        "Member must have value less than or equal to 1000000",
    );
    let segment = violation(
        "'1000000'",
        "segment",
        "Member must have value less than or equal to 999999",
    );
    expect(
        &t,
        send(&t, "Scan", scan).await,
        &several(&[total.clone(), segment]),
        Some(&one(total)),
    );
    let scan = ScanInput {
        table_name: table.clone(),
        segment: Some(0),
        total_segments: Some(0),
        ..ScanInput::default()
    };
    let r = t.backend().scan(scan).await;
    assert!(r.is_err(), "[{:?}] TotalSegments 0 is refused", t.target());
});

dual_test!(capacity_zero_in_the_services_form, |t| {
    let name = t.table_name("capacity");
    let input = CreateTableInput {
        table_name: name,
        attribute_definitions: vec![AttributeDefinition {
            attribute_name: "pk".into(),
            attribute_type: S,
        }],
        key_schema: vec![KeySchemaElement::hash("pk")],
        billing_mode: Some(BillingMode::Provisioned),
        provisioned_throughput: Some(ProvisionedThroughput {
            read_capacity_units: 0,
            write_capacity_units: 0,
        }),
        ..CreateTableInput::default()
    };
    // KNOWN DIFFERENCE: DynamoDB Local's own sentence; the service lists both members, write first.
    t.expect_error_differs(
        t.backend().create_table(input).await,
        "ValidationException",
        &several(&[
            violation(
                "'0'",
                "provisionedThroughput.writeCapacityUnits",
                "Member must have value greater than or equal to 1",
            ),
            violation(
                "'0'",
                "provisionedThroughput.readCapacityUnits",
                "Member must have value greater than or equal to 1",
            ),
        ]),
        "Table read and write throughput must be at least 1, and cannot be null",
    );
});

dual_test!(enums_list_their_value_set, |t| {
    let table = hash_table(&t, "enums").await;
    // KNOWN DIFFERENCE: DynamoDB Local names the values in its own sentence.
    expect(
        &t,
        send(&t, "Query", with(key_condition(&table), json!({"Select": "SOME"}))).await,
        &one(violation("'SOME'", "select", SELECT)),
        Some("Select must be ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, COUNT, or SPECIFIC_ATTRIBUTES"),
    );
    // KNOWN DIFFERENCE: DynamoDB Local does not check ReturnValuesOnConditionCheckFailure's set in a
    // transaction (the write is made).
    let put = json!({"TransactItems": [{"Put": {
        "TableName": table, "Item": {"pk": {"S": "x"}},
        "ReturnValuesOnConditionCheckFailure": "SOME"}}]});
    expect(
        &t,
        send(&t, "TransactWriteItems", put).await,
        &one(violation(
            "'SOME'",
            "transactItems.1.member.put.returnValuesOnConditionCheckFailure",
            "Member must satisfy enum value set: [ALL_OLD, NONE]",
        )),
        None,
    );
});

dual_test!(patterns_and_lengths_of_names, |t| {
    let table = hash_table(&t, "patterns").await;
    // An index name breaks its pattern and its length: the pattern first (dynalite's recording).
    // KNOWN DIFFERENCE: DynamoDB Local looks the index up instead.
    let query = with(key_condition(&table), json!({"IndexName": "a;"}));
    expect(
        &t,
        send(&t, "Query", query).await,
        &several(&[
            violation(
                "'a;'",
                "indexName",
                "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
            ),
            violation(
                "'a;'",
                "indexName",
                "Member must have length greater than or equal to 3",
            ),
        ]),
        Some("The table does not have the specified index: a;"),
    );
    // A stream ARN's length, in the streams model, with a range violation beside it.
    let describe = json!({"StreamArn": "short", "Limit": 0});
    let answer = send(&t, "DynamoDBStreams_20120810.DescribeStream", describe).await;
    let limit = violation(
        "'0'",
        "limit",
        "Member must have value greater than or equal to 1",
    );
    // KNOWN DIFFERENCE: DynamoDB Local checks only the limit.
    expect(
        &t,
        answer,
        &several(&[
            violation(
                "'short'",
                "streamArn",
                "Member must have length greater than or equal to 37",
            ),
            limit.clone(),
        ]),
        Some(&one(limit)),
    );
});

dual_test!(several_violations_in_one_request, |t| {
    let table = hash_table(&t, "several").await;
    // ReturnConsumedCapacity first, then the model's order (dynalite's recordings of PutItem and
    // Query).
    let body = json!({"TableName": table, "Item": {"pk": {"S": "x"}},
        "ReturnValues": "SOME", "ReturnConsumedCapacity": "ALL"});
    // KNOWN DIFFERENCE: DynamoDB Local reports only ReturnValues, in its own words.
    expect(
        &t,
        send(&t, "PutItem", body).await,
        &several(&[
            violation(
                "'ALL'",
                "returnConsumedCapacity",
                "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
            ),
            violation(
                "'SOME'",
                "returnValues",
                "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]",
            ),
        ]),
        Some("Return values set to invalid value"),
    );
    let body = with(
        key_condition(&table),
        json!({"Limit": 0, "Select": "SOME", "ReturnConsumedCapacity": "ALL"}),
    );
    // KNOWN DIFFERENCE: DynamoDB Local stops at the first (the limit).
    expect(
        &t,
        send(&t, "Query", body).await,
        &several(&[
            violation(
                "'ALL'",
                "returnConsumedCapacity",
                "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
            ),
            violation("'SOME'", "select", SELECT),
            // Query's Limit without its value (recorded on the service).
            "Value at 'Limit' failed to satisfy constraint: Member must have value greater than or \
             equal to 1"
                .to_owned(),
        ]),
        Some("Limit must be greater than or equal to 1"),
    );
});

dual_test!(nested_list_and_map_paths, |t| {
    let table = hash_table(&t, "nested").await;
    // List positions count from 1; a missing member inside an element is a null constraint.
    let create = json!({
        "TableName": t.table_name("nested-create"),
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "X"}],
        "KeySchema": [{"AttributeName": "pk"}],
        "BillingMode": "PAY_PER_REQUEST",
    });
    // KNOWN DIFFERENCE: DynamoDB Local answers the missing key type alone, in its own words.
    expect(
        &t,
        send(&t, "CreateTable", create).await,
        &several(&[
            violation(
                "'X'",
                "attributeDefinitions.1.member.attributeType",
                "Member must satisfy enum value set: [B, N, S]",
            ),
            violation("null", "keySchema.1.member.keyType", NOT_NULL),
        ]),
        Some("One or more keys is not specified as being hash or range."),
    );
    // A map's key is part of the path: `requestItems.<table>.member.<n>.member…`.
    let write = json!({"RequestItems": {table.clone(): [{"PutRequest": {}}]}});
    // KNOWN DIFFERENCE: DynamoDB Local's own sentence.
    expect(
        &t,
        send(&t, "BatchWriteItem", write).await,
        &one(violation(
            "null",
            &format!("requestItems.{table}.member.1.member.putRequest.item"),
            NOT_NULL,
        )),
        Some("The supplied Item contains a null AttributeValue"),
    );
    // A nested structure's members and ranges: a new index's name and capacity.
    let update = json!({"TableName": table, "AttributeDefinitions":
        [{"AttributeName": "pk", "AttributeType": "S"}],
        "GlobalSecondaryIndexUpdates": [{"Create": {
        "IndexName": "a;", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "ALL"},
        "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 1}}}]});
    let path = "globalSecondaryIndexUpdates.1.member.create";
    let answer = send(&t, "UpdateTable", update).await;
    if t.target() == Target::DynamoDbLocal {
        // KNOWN DIFFERENCE: DynamoDB Local checks neither constraint (its answer is about the
        // table's billing mode or the index, not these members).
        assert!(answer.is_some(), "Local refuses the update");
    } else {
        expect(
            &t,
            answer,
            &several(&[
                violation(
                    "'a;'",
                    &format!("{path}.indexName"),
                    "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                ),
                violation(
                    "'a;'",
                    &format!("{path}.indexName"),
                    "Member must have length greater than or equal to 3",
                ),
                violation(
                    "'0'",
                    &format!("{path}.provisionedThroughput.readCapacityUnits"),
                    "Member must have value greater than or equal to 1",
                ),
            ]),
            None,
        );
    }
    // A map's values that break their shape's constraints: one message at the map's path listing
    // them all (dynalite's recording of the service's form).
    let get = json!({"TableName": table, "Key": {"pk": {"S": "x"}},
        "ExpressionAttributeNames": {"#a": "x".repeat(65_536)}, "ProjectionExpression": "#a"});
    let answer = send(&t, "GetItem", get).await;
    match t.target() {
        // KNOWN DIFFERENCE: DynamoDB Local's own sentence about the name's size.
        Target::DynamoDbLocal => expect(
            &t,
            answer,
            "",
            Some("ExpressionAttributeNames contains invalid value: Attribute name is too large, must be less than 65536 bytes for key #a"),
        ),
        _ => {
            let (code, message) = answer.expect("an error");
            assert_eq!(code, "ValidationException");
            assert!(message.starts_with("1 validation error detected: Value '{#a=xxx"), "{message}");
            assert!(
                message.ends_with("}' at 'expressionAttributeNames' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 65535]"),
                "{}",
                &message[message.len() - 200..]
            );
        }
    }
});

dual_test!(type_errors_win_over_constraints, |t| {
    let table = hash_table(&t, "types").await;
    // A number where a boolean belongs, beside a constraint violation: the serialization error is
    // reported (DynamoDB type-checks the whole request first).
    let body = with(
        key_condition(&table),
        json!({"Limit": 0, "ConsistentRead": 1}),
    );
    let answer = send(&t, "Query", body).await;
    match t.target() {
        // KNOWN DIFFERENCE: DynamoDB Local reports the limit.
        Target::DynamoDbLocal => assert_eq!(
            answer.map(|(code, _)| code).as_deref(),
            Some("ValidationException")
        ),
        _ => assert_eq!(
            answer,
            Some((
                "SerializationException".to_owned(),
                "class java.lang.Short can not be converted to an Boolean".to_owned()
            ))
        ),
    }
});
