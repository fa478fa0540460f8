//! Round trips (byte-identical), the validation contract, and malformed dumps.

#![allow(clippy::unwrap_used)]

use serde_json::{json, Value};

use super::*;

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

/// A provisioned table with both kinds of index, a stream, tags; TTL enabled separately.
fn orders_table() -> Value {
    json!({
        "TableName": "orders",
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
            {"AttributeName": "customer", "AttributeType": "S"},
            {"AttributeName": "placed", "AttributeType": "B"}
        ],
        "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"}
        ],
        "BillingMode": "PROVISIONED",
        "ProvisionedThroughput": {"ReadCapacityUnits": 7, "WriteCapacityUnits": 3},
        "LocalSecondaryIndexes": [{
            "IndexName": "by-placed",
            "KeySchema": [
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "placed", "KeyType": "RANGE"}
            ],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["s"]}
        }],
        "GlobalSecondaryIndexes": [{
            "IndexName": "by-customer",
            "KeySchema": [{"AttributeName": "customer", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 1}
        }],
        "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"},
        "TableClass": "STANDARD_INFREQUENT_ACCESS",
        "Tags": [{"Key": "team", "Value": "payments"}, {"Key": "env", "Value": "test"}]
    })
}

/// An item with every attribute type, nested, empty strings and binaries outside the key, and
/// numbers at the ends of DynamoDB's range.
fn every_type(i: u32) -> Value {
    json!({
        "pk": {"S": format!("customer#{}", i % 3)},
        "sk": {"N": format!("{i}")},
        "customer": {"S": format!("c{}", i % 2)},
        "placed": {"B": "AAEC/w=="},
        "s": {"S": ""},
        "emoji": {"S": "żółw 🐢 \"quoted\" \\ \n"},
        "big": {"N": "99999999999999999999999999999999999999"},
        "tiny": {"N": "-1E-130"},
        "huge": {"N": "9.9999999999999999999999999999999999999E+125"},
        "b": {"B": ""},
        "yes": {"BOOL": true},
        "no": {"BOOL": false},
        "nothing": {"NULL": true},
        "ss": {"SS": ["b", "a", ""]},
        "ns": {"NS": ["1", "-0.5", "12345678901234567890123456789012345678"]},
        "bs": {"BS": ["AQ==", "Ag=="]},
        "l": {"L": [{"S": "x"}, {"N": "1"}, {"L": []}, {"M": {}}, {"NULL": true}]},
        "m": {"M": {"deep": {"M": {"deeper": {"L": [{"M": {"s": {"S": ""}, "ss": {"SS": ["z"]}}}]}}}}}
    })
}

async fn call(backend: &MemBackend, operation: &str, request: Value) -> Value {
    Target::call(backend, operation, request).await.unwrap()
}

/// An engine holding `orders` (TTL on, 50 items of every type) and an empty on-demand `empty`.
async fn fixture() -> MemBackend {
    let backend = MemBackend::new();
    call(&backend, "CreateTable", orders_table()).await;
    let ttl = json!({"TableName": "orders", "TimeToLiveSpecification": {"AttributeName": "expires", "Enabled": true}});
    call(&backend, "UpdateTimeToLive", ttl).await;
    call(
        &backend,
        "CreateTable",
        json!({
            "TableName": "empty",
            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "B"}],
            "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
            "BillingMode": "PAY_PER_REQUEST"
        }),
    )
    .await;
    for i in 0..50 {
        let put = json!({"TableName": "orders", "Item": every_type(i)});
        call(&backend, "PutItem", put).await;
    }
    backend
}

async fn dump_bytes(backend: &MemBackend) -> Vec<u8> {
    let mut out = Vec::new();
    dump_all(backend, &mut out).await.unwrap();
    out
}

#[test]
fn a_full_dump_round_trips_byte_for_byte() {
    block_on(async {
        let first = dump_bytes(&fixture().await).await;
        let copy = MemBackend::new();
        let loaded = load_dump(&copy, &mut first.as_slice()).await.unwrap();
        assert_eq!(
            loaded,
            Summary {
                tables: 2,
                items: 50
            }
        );
        let second = dump_bytes(&copy).await;
        assert_eq!(
            String::from_utf8(second).unwrap(),
            String::from_utf8(first.clone()).unwrap()
        );

        // What the dump carries came back: indexes, billing, stream, class, TTL, tags.
        let text = String::from_utf8(first).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], r#"{"Format":"dynomodel-dump","Version":1}"#);
        assert_eq!(
            lines[1],
            r#"{"Table":{"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"B"}],"BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"TableName":"empty"}}"#
        );
        let orders: Value = serde_json::from_str(lines[2]).unwrap();
        let mut expected = orders_table();
        // Tags come back in ListTagsOfResource's (key) order.
        expected["Tags"] =
            json!([{"Key": "env", "Value": "test"}, {"Key": "team", "Value": "payments"}]);
        assert_eq!(orders["Table"], expected);
        assert_eq!(
            orders["TimeToLive"],
            json!({"AttributeName": "expires", "Enabled": true})
        );
        assert_eq!(lines.last(), Some(&r#"{"End":{"Items":50,"Tables":2}}"#));
        // The seed path loads the same.
        let seeded = MemBackend::new();
        seed(&seeded, &mut text.as_bytes()).await.unwrap();
        assert_eq!(dump_bytes(&seeded).await, text.as_bytes());
    });
}

#[test]
fn a_table_export_round_trips_byte_for_byte() {
    block_on(async {
        let source = fixture().await;
        let mut first = Vec::new();
        assert_eq!(
            export_table(&source, "orders", &mut first).await.unwrap(),
            50
        );
        let text = String::from_utf8(first.clone()).unwrap();
        assert!(
            text.starts_with("{\"Item\":{\"b\":{\"B\":\"\"},\"big\":{\"N\":\"99999999999999999999999999999999999999\"},"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 50);

        let target = MemBackend::new();
        call(&target, "CreateTable", orders_table()).await;
        assert_eq!(
            import_table(&target, "orders", &mut first.as_slice())
                .await
                .unwrap(),
            50
        );
        let mut second = Vec::new();
        export_table(&target, "orders", &mut second).await.unwrap();
        assert_eq!(String::from_utf8(second).unwrap(), text);
    });
}

#[test]
fn a_bad_line_is_reported_by_number_and_nothing_is_written() {
    block_on(async {
        let target = MemBackend::new();
        call(&target, "CreateTable", orders_table()).await;
        let mut lines: Vec<String> = (0..60)
            .map(|i| json!({"Item": every_type(i)}).to_string())
            .collect();
        // Line 41: a set with a duplicate, which only the engine's validation catches.
        let mut bad = every_type(40);
        bad["ss"] = json!({"SS": ["a", "a"]});
        lines[40] = json!({"Item": bad}).to_string();
        let file = lines.join("\n");
        let err = import_table(&target, "orders", &mut file.as_bytes())
            .await
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 41: ValidationException: One or more parameter values were invalid: Input collection [a, a] contains duplicates."
        );
        let mut out = Vec::new();
        assert_eq!(export_table(&target, "orders", &mut out).await.unwrap(), 0);

        for (file, message) in [
            ("{\"Item\":{}}\nnot json", "line 2: invalid JSON: expected ident at line 1 column 2"),
            ("\n[1]", "line 2: expected a JSON object"),
            ("{\"Item\":{\"pk\":{\"S\":\"a\"}},\"x\":1}", "line 1: expected {\"Item\": {…attribute values…}}"),
            (
                "{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}}}",
                "line 1: ValidationException: One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S",
            ),
            (
                "{\"Item\":{\"pk\":{\"N\":5}}}",
                "line 1: SerializationException: class java.lang.Short can not be converted to an String",
            ),
        ] {
            let err = import_table(&target, "orders", &mut file.as_bytes()).await.unwrap_err();
            assert_eq!(err.to_string(), message, "{file}");
        }
        let err = import_table(&target, "nope", &mut "".as_bytes())
            .await
            .unwrap_err();
        assert_eq!(err.code(), Some("ResourceNotFoundException"));
    });
}

#[test]
fn of_two_lines_with_one_key_the_later_wins() {
    block_on(async {
        let target = MemBackend::new();
        call(&target, "CreateTable", orders_table()).await;
        let item = |v: &str| {
            json!({"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": v}}}).to_string()
        };
        let file = [item("first"), item("second")].join("\n");
        assert_eq!(
            import_table(&target, "orders", &mut file.as_bytes())
                .await
                .unwrap(),
            2
        );
        let mut out = Vec::new();
        export_table(&target, "orders", &mut out).await.unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"second\"}}}\n"
        );
    });
}

#[test]
fn malformed_dumps_are_refused_before_anything_is_created() {
    let table = json!({"Table": {"TableName": "tab", "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}], "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}}).to_string();
    let header = r#"{"Format":"dynomodel-dump","Version":1}"#;
    let item = r#"{"Item":{"id":{"S":"a"}}}"#;
    let end = r#"{"End":{"Tables":1,"Items":1}}"#;
    let cases = [
        (String::new(), "line 1: empty: not a dynomodel dump"),
        (
            r#"{"Format":"dynomodel-dump","Version":2}"#.to_owned(),
            "line 1: dump format version 2 is newer than this dynomodel-mem reads (1): use a newer dynomodel-mem",
        ),
        (
            item.to_owned(),
            "line 1: not a dynomodel dump: the first line is not {\"Format\":\"dynomodel-dump\",\"Version\":N}",
        ),
        (
            [header, &table, item].join("\n"),
            "line 3: the dump ends without its \"End\" line: truncated",
        ),
        (
            [header, item, &table, end].join("\n"),
            "line 2: an item before the first \"Table\" line",
        ),
        (
            [header, &table, r#"{"End":{"Tables":1,"Items":2}}"#].join("\n"),
            "line 3: the end line counts {\"Items\":2,\"Tables\":1}, the dump holds 1 tables and 0 items",
        ),
        (
            [header, &table, item, end, item].join("\n"),
            "line 5: a line after the \"End\" line",
        ),
        (
            [header, &table.replace("\"S\"}]", "\"X\"}]"), item, end].join("\n"),
            "line 2: ValidationException: 1 validation error detected: Value 'X' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]",
        ),
        (
            [header, &table, r#"{"Item":{"id":{"S":""}}}"#, end].join("\n"),
            "line 3: ValidationException: One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: id",
        ),
    ];
    block_on(async {
        for (file, message) in cases {
            let backend = MemBackend::new();
            let err = load_dump(&backend, &mut file.as_bytes()).await.unwrap_err();
            assert_eq!(err.to_string(), message, "{file}");
            let tables = call(&backend, "ListTables", json!({})).await;
            assert_eq!(tables["TableNames"], json!([]), "{file}");
        }
        // A table that exists already: the target's own error, at the table's line.
        let backend = MemBackend::new();
        let file = [header, &table, item, end].join("\n");
        load_dump(&backend, &mut file.as_bytes()).await.unwrap();
        let err = load_dump(&backend, &mut file.as_bytes()).await.unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: ResourceInUseException: Table already exists: tab"
        );
    });
}

#[test]
fn http_targets_take_plain_http_urls() {
    assert!(HttpTarget::new("http://127.0.0.1:8000").is_ok());
    assert!(HttpTarget::new("http://localhost/").is_ok());
    for url in [
        "https://dynamodb.us-east-1.amazonaws.com",
        "127.0.0.1:8000",
        "http://",
        "http://h:1/x",
    ] {
        assert!(HttpTarget::new(url).is_err(), "{url}");
    }
}

#[test]
fn seeded_tables_are_active_at_once_whatever_the_transition_time() {
    block_on(async {
        let dump = dump_bytes(&fixture().await).await;
        let clock = crate::ManualClock::default();
        let backend = MemBackend::builder()
            .clock(clock)
            .transition_time(std::time::Duration::from_secs(60))
            .build();
        seed(&backend, &mut dump.as_slice()).await.unwrap();
        let described = call(&backend, "DescribeTable", json!({"TableName": "orders"})).await;
        assert_eq!(described["Table"]["TableStatus"], json!("ACTIVE"));
        let ttl = call(
            &backend,
            "DescribeTimeToLive",
            json!({"TableName": "orders"}),
        )
        .await;
        assert_eq!(
            ttl["TimeToLiveDescription"]["TimeToLiveStatus"],
            json!("ENABLED")
        );
        // Tables created afterwards take the transition time again.
        let created = call(
            &backend,
            "CreateTable",
            json!({"TableName": "later", "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
                   "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}),
        )
        .await;
        assert_eq!(
            created["TableDescription"]["TableStatus"],
            json!("CREATING")
        );
    });
}

/// `Fixture::from_dump`: a dump file loads once, each fork holds its tables and items; a missing file
/// fails every fork with an error naming it.
#[test]
fn a_fixture_loads_from_a_dump_file() {
    let path = std::env::temp_dir().join(format!("dynomodel-fixture-{}.dump", std::process::id()));
    let bytes = block_on(async { dump_bytes(&fixture().await).await });
    std::fs::write(&path, &bytes).unwrap();
    let path: &'static str = Box::leak(path.to_string_lossy().into_owned().into_boxed_str());
    let from_file = Box::leak(Box::new(crate::Fixture::from_dump(path)));
    let (first, second) = block_on(async {
        (
            from_file.fork_backend().await.unwrap(),
            from_file.fork_backend().await.unwrap(),
        )
    });
    call_blocking_put(&first);
    assert_eq!(
        block_on(dump_bytes(&second)),
        bytes,
        "the second fork is the dump, unchanged"
    );
    let _ = std::fs::remove_file(path);

    let missing = crate::Fixture::from_dump("/nonexistent/fixture.dump");
    let err = block_on(missing.fork()).unwrap_err();
    assert!(
        err.message()
            .contains("the fixture's dump file /nonexistent/fixture.dump"),
        "{err}"
    );
}

/// One more item in `orders` of `backend`.
fn call_blocking_put(backend: &MemBackend) {
    let put = json!({"TableName": "orders", "Item": every_type(999)});
    block_on(call(backend, "PutItem", put));
}
