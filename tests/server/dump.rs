//! Seed and export over HTTP (`dynomodel_mem::dump` with an `HttpTarget`, what `dynomodel-mem
//! export`/`import` run): through the engine's server, byte for byte, and against DynamoDB Local, whose
//! export of the same items must be the same lines (in its own scan order).

use dynomodel_mem::dump::{self, HttpTarget, Target};
use dynomodel_mem::MemBackend;

use super::*;

fn table(name: &str) -> Value {
    json!({
        "TableName": name,
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
            {"AttributeName": "g", "AttributeType": "B"}
        ],
        "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"}
        ],
        "GlobalSecondaryIndexes": [{
            "IndexName": "by-g",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}
        }],
        "BillingMode": "PAY_PER_REQUEST"
    })
}

/// DynamoDB JSON lines of `n` items with every attribute type.
fn lines(n: u32) -> String {
    (0..n)
        .map(|i| {
            let item = json!({"Item": {
                "pk": {"S": format!("p{}", i % 4)},
                "sk": {"N": format!("{i}")},
                "g": {"B": "AQI="},
                "s": {"S": ""},
                "n": {"N": "-12345678901234567890123456789.012345678"},
                "b": {"B": "/w=="},
                "t": {"BOOL": true},
                "z": {"NULL": true},
                "ss": {"SS": ["x", "y"]},
                "ns": {"NS": ["1", "2.5"]},
                "bs": {"BS": ["AA=="]},
                "l": {"L": [{"S": "a"}, {"M": {"k": {"L": []}}}]},
                "m": {"M": {"inner": {"M": {"e": {"S": ""}}}}}
            }});
            format!("{item}\n")
        })
        .collect()
}

#[tokio::test]
async fn a_dump_through_the_server_is_the_engines_byte_for_byte() {
    let engine = MemBackend::new();
    engine.call("CreateTable", table("items")).await.unwrap();
    dump::import_table(&engine, "items", &mut lines(40).as_bytes())
        .await
        .unwrap();
    let mut direct = Vec::new();
    dump::dump_all(&engine, &mut direct).await.unwrap();

    let server = Server::bind_mem("127.0.0.1:0", engine, None).await.unwrap();
    let remote = HttpTarget::new(&server.url()).unwrap();
    let mut over_http = Vec::new();
    let summary = dump::dump_all(&remote, &mut over_http).await.unwrap();
    assert_eq!((summary.tables, summary.items), (1, 40));
    assert_eq!(over_http, direct);

    // Loaded into another server over HTTP, it dumps the same again.
    let other = Server::bind_mem("127.0.0.1:0", MemBackend::new(), None)
        .await
        .unwrap();
    let other_target = HttpTarget::new(&other.url()).unwrap();
    dump::load_dump(&other_target, &mut direct.as_slice())
        .await
        .unwrap();
    let mut again = Vec::new();
    dump::dump_all(&other_target, &mut again).await.unwrap();
    assert_eq!(again, direct);

    // The server's errors come back as DynamoDB's.
    let err = dump::export_table(&remote, "nope", &mut Vec::new())
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some("ResourceNotFoundException"));
    server.shutdown().await;
    other.shutdown().await;
}

#[tokio::test]
async fn dynamodb_local_imports_and_exports_the_same_lines() {
    let Some(endpoint) = dynomodel_tests::support::dynamodb_local_endpoint(
        "dynamodb_local_imports_and_exports_the_same_lines",
    ) else {
        return;
    };
    let name = format!("dm-dump-{}", std::process::id());
    let local = HttpTarget::new(&endpoint).unwrap();
    local.call("CreateTable", table(&name)).await.unwrap();
    let input = lines(30);
    let imported = dump::import_table(&local, &name, &mut input.as_bytes()).await;
    let mut exported = Vec::new();
    let exported_count = dump::export_table(&local, &name, &mut exported).await;
    // The engine's export of the same input, for comparison.
    let engine = MemBackend::new();
    engine.call("CreateTable", table(&name)).await.unwrap();
    dump::import_table(&engine, &name, &mut input.as_bytes())
        .await
        .unwrap();
    let mut expected = Vec::new();
    dump::export_table(&engine, &name, &mut expected)
        .await
        .unwrap();
    local
        .call("DeleteTable", json!({"TableName": name}))
        .await
        .unwrap();
    assert_eq!(imported.unwrap(), 30);
    assert_eq!(exported_count.unwrap(), 30);
    let sorted = |bytes: Vec<u8>| {
        let text = String::from_utf8(bytes).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(exported), sorted(expected));
}
