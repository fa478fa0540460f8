//! `dynomodel-mem`'s HTTP server at the protocol level: raw HTTP requests over a `TcpStream`, so that
//! what is checked is exactly what goes over the wire (status, headers, body bytes), including requests
//! no SDK would send.
//!
//! This file holds the raw client and the single-item and table operations' tests; `multi_item.rs` the
//! batches' and transactions' bodies, `sdk.rs` the AWS SDK against the wire layer, `throughput.rs` throttling, `capacity.rs`
//! consumed capacity and item collection metrics through the AWS SDK, `dump.rs` seed and export over HTTP, `faults.rs` the admin endpoints
//! (fault rules, the manual clock), `fuzz.rs` generated bodies, `fuzz_partiql.rs` generated PartiQL statements,
//! `table_answers.rs` DeleteTable's and DescribeTable's members; the HTTP surface: `regions.rs` (answers in
//! the signing region), `compression.rs` (compressed requests and responses), `cors.rs`, `console.rs`
//! and `console_browser.rs` (the web console; the latter in headless Chromium), `signatures.rs`
//! (`--verify-signatures`), `endpoint.rs` (`GET /`, `Server`, empty tag answers, another account's ARN).

#![allow(clippy::unwrap_used)]

mod admin_safety;
mod capacity;
mod compression;
mod consistency;
mod console;
mod console_browser;
mod cors;
mod crash;
mod dump;
mod endpoint;
mod faults;
mod fuzz;
mod fuzz_partiql;
mod isolation;
mod lifecycle;
mod limits;
mod multi_item;
mod regions;
mod sdk;
mod signatures;
mod table_answers;
mod throughput;
mod validation_fuzz;

use std::net::SocketAddr;
use std::sync::Arc;

use dynomodel::Backend;
use dynomodel_mem::server::{Server, ServerHandle, MAX_BODY_BYTES};
use dynomodel_mem::MemBackend;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A response as received.
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }

    /// The error code after `#`, and the message (under `message` or `Message`).
    fn error(&self) -> (String, Option<String>) {
        let v = self.json();
        let ty = v["__type"].as_str().unwrap();
        let code = ty.rsplit('#').next().unwrap().to_owned();
        let message = v
            .get("message")
            .or_else(|| v.get("Message"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        (code, message)
    }
}

/// Sends one raw request (`Connection: close`) and reads the whole response.
async fn raw(addr: SocketAddr, target: Option<&str>, body: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-amz-json-1.0\r\n\
         Content-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(target) = target {
        head.push_str(&format!("X-Amz-Target: {target}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.unwrap();
    parse_reply(&bytes)
}

/// A raw request: `method path` with these header lines (`Content-Length` and `Connection: close`
/// added) and body; the reply.
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: impl AsRef<[u8]>,
) -> Reply {
    let body = body.as_ref();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body).await.unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.unwrap();
    parse_reply(&bytes)
}

fn parse_reply(bytes: &[u8]) -> Reply {
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = std::str::from_utf8(&bytes[..split]).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .map(|l| {
            let (n, v) = l.split_once(':').unwrap();
            (n.trim().to_owned(), v.trim().to_owned())
        })
        .collect();
    Reply {
        status,
        headers,
        body: bytes[split + 4..].to_vec(),
    }
}

async fn call(addr: SocketAddr, operation: &str, body: Value) -> Reply {
    let target = format!("DynamoDB_20120810.{operation}");
    raw(addr, Some(&target), body.to_string().as_bytes()).await
}

async fn start() -> ServerHandle {
    Server::bind("127.0.0.1:0", MemBackend::new())
        .await
        .unwrap()
}

async fn create_table(addr: SocketAddr, name: &str) {
    let reply = call(
        addr,
        "CreateTable",
        json!({
            "TableName": name,
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "BillingMode": "PAY_PER_REQUEST"
        }),
    )
    .await;
    assert_eq!(
        reply.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&reply.body)
    );
}

#[tokio::test]
async fn every_response_has_crc32_and_request_id() {
    let server = start().await;
    for reply in [
        call(server.local_addr(), "ListTables", json!({})).await,
        raw(
            server.local_addr(),
            Some("DynamoDB_20120810.ListTables"),
            b"{",
        )
        .await,
        raw(server.local_addr(), Some("Nope"), b"{}").await,
    ] {
        let crc: u32 = reply.header("x-amz-crc32").unwrap().parse().unwrap();
        assert_eq!(crc, crc32fast::hash(&reply.body));
        let id = reply.header("x-amzn-RequestId").unwrap();
        assert_eq!(id.len(), 52);
        assert_eq!(
            reply.header("content-type"),
            Some("application/x-amz-json-1.0")
        );
    }
    server.shutdown().await;
}

#[tokio::test]
async fn round_trip_with_exact_wire_shapes() {
    let server = start().await;
    let addr = server.local_addr();
    create_table(addr, "shapes").await;
    let item = json!({
        "pk": {"S": "a"}, "n": {"N": "1.50"}, "b": {"B": "AQID"}, "t": {"BOOL": false},
        "z": {"NULL": true}, "ss": {"SS": ["x"]}, "ns": {"NS": ["1E2"]}, "bs": {"BS": ["AA=="]},
        "l": {"L": [{"S": "y"}]}, "m": {"M": {"k": {"N": "-0"}}}
    });
    let put = call(
        addr,
        "PutItem",
        json!({"TableName": "shapes", "Item": item}),
    )
    .await;
    assert_eq!((put.status, put.json()), (200, json!({})));
    let got = call(
        addr,
        "GetItem",
        json!({"TableName": "shapes", "Key": {"pk": {"S": "a"}}}),
    )
    .await;
    // Numbers come back in canonical form, as from DynamoDB.
    let mut expected = item.clone();
    expected["n"] = json!({"N": "1.5"});
    expected["ns"] = json!({"NS": ["100"]});
    expected["m"] = json!({"M": {"k": {"N": "0"}}});
    assert_eq!(got.json(), json!({ "Item": expected }));
    let missing = call(
        addr,
        "GetItem",
        json!({"TableName": "shapes", "Key": {"pk": {"S": "b"}}}),
    )
    .await;
    assert_eq!(missing.json(), json!({}));

    let described = call(addr, "DescribeTable", json!({"TableName": "shapes"}))
        .await
        .json();
    let table = &described["Table"];
    assert_eq!(table["TableName"], "shapes");
    assert_eq!(table["TableStatus"], "ACTIVE");
    assert!(table["CreationDateTime"].is_number());
    assert_eq!(table["ItemCount"], 1);
    assert_eq!(
        table["BillingModeSummary"]["BillingMode"],
        "PAY_PER_REQUEST"
    );
    assert_eq!(
        table["KeySchema"],
        json!([{"AttributeName": "pk", "KeyType": "HASH"}])
    );
    let listed = call(addr, "ListTables", json!({})).await.json();
    assert_eq!(listed, json!({"TableNames": ["shapes"]}));
    let deleted = call(addr, "DeleteTable", json!({"TableName": "shapes"})).await;
    assert_eq!(deleted.json()["TableDescription"]["TableName"], "shapes");
    server.shutdown().await;
}

#[tokio::test]
async fn error_shapes() {
    let server = start().await;
    let addr = server.local_addr();
    let not_found = call(addr, "DescribeTable", json!({"TableName": "nope"})).await;
    assert_eq!(not_found.status, 400);
    assert_eq!(
        not_found.json()["__type"],
        "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"
    );
    let missing = call(addr, "DescribeTable", json!({})).await;
    assert_eq!(
        missing.json(),
        json!({
            "__type": "com.amazon.coral.validate#ValidationException",
            "message": "1 validation error detected: Value null at 'tableName' failed to satisfy \
                        constraint: Member must not be null"
        })
    );
    let both = call(addr, "PutItem", json!({"TableName": null})).await;
    assert_eq!(
        both.error().1.unwrap(),
        "2 validation errors detected: Value null at 'tableName' failed to satisfy constraint: \
         Member must not be null; Value null at 'item' failed to satisfy constraint: Member must \
         not be null"
    );
    let bad_enum = call(
        addr,
        "PutItem",
        json!({"TableName": "t", "Item": {}, "ReturnValues": "SOME"}),
    )
    .await;
    assert_eq!(
        bad_enum.error().1.unwrap(),
        "1 validation error detected: Value 'SOME' at 'returnValues' failed to satisfy constraint: \
         Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"
    );
    let unknown = raw(addr, Some("DynamoDB_20120810.Frobnicate"), b"{}").await;
    assert_eq!(
        (unknown.status, unknown.json()),
        (
            400,
            json!({"__type": "com.amazon.coral.service#UnknownOperationException"})
        )
    );
    let no_target = raw(addr, None, b"{}").await;
    assert_eq!(no_target.error().0, "UnknownOperationException");
    let malformed = raw(addr, Some("DynamoDB_20120810.ListTables"), b"{\"a\":").await;
    assert_eq!(
        (malformed.status, malformed.json()),
        (
            400,
            json!({"__type": "com.amazon.coral.service#SerializationException"})
        )
    );
    server.shutdown().await;
}

#[tokio::test]
async fn serialization_and_validation_of_attribute_values() {
    let server = start().await;
    let addr = server.local_addr();
    create_table(addr, "values").await;
    let put = |value: Value| {
        call(
            addr,
            "PutItem",
            json!({"TableName": "values", "Item": {"pk": {"S": "a"}, "v": value}}),
        )
    };
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!({"N": 123}), "SerializationException", "class java.lang.Short can not be converted to an String"),
        (json!({"N": 70000}), "SerializationException", "class java.lang.Integer can not be converted to an String"),
        (json!({"S": true}), "SerializationException", "class java.lang.Boolean can not be converted to an String"),
        (json!({"S": {"x": 1}}), "SerializationException", "Start of structure or map found where not expected."),
        (json!({"L": "x"}), "SerializationException", "Expected list or null"),
        (json!({"M": 1}), "SerializationException", "Expected map or null"),
        (json!({"B": "!!!!"}), "SerializationException", "'!!!!' can not be converted to a Blob: Invalid Base64 character: '!'"),
        (json!({"N": "1x"}), "ValidationException", "The parameter cannot be converted to a numeric value: 1x"),
        (json!({"N": "1E126"}), "ValidationException", "Number overflow. Attempting to store a number with magnitude larger than supported range"),
        (json!({}), "ValidationException", "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
        (json!({"S": "a", "BOOL": true}), "ValidationException", "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"),
    ];
    for (value, code, message) in cases {
        let reply = put(value.clone()).await;
        assert_eq!(reply.status, 400, "{value}");
        assert_eq!(
            reply.error(),
            (code.to_owned(), Some(message.to_owned())),
            "{value}"
        );
    }
    let wrong_table_type = call(addr, "DescribeTable", json!({"TableName": 5})).await;
    assert_eq!(
        wrong_table_type.error(),
        (
            "SerializationException".to_owned(),
            Some("class java.lang.Short can not be converted to an String".to_owned())
        )
    );
    let limit_text = call(addr, "ListTables", json!({"Limit": "5"})).await;
    assert_eq!(
        limit_text.error().1.as_deref(),
        Some("class java.lang.String can not be converted to an Integer")
    );
    server.shutdown().await;
}

#[tokio::test]
async fn bodies_over_16_mb_are_refused_with_413() {
    let server = start().await;
    let addr = server.local_addr();
    // Declared too large: refused before the body is read (only the head is sent).
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        MAX_BODY_BYTES + 1
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.unwrap();
    let reply = parse_reply(&bytes);
    assert_eq!(reply.status, 413);
    assert_eq!(reply.error().0, "RequestEntityTooLarge");
    // Exactly at the limit is read (and then rejected as the malformed JSON it is).
    let body = vec![b' '; MAX_BODY_BYTES];
    let reply = raw(addr, Some("DynamoDB_20120810.ListTables"), &body).await;
    assert_eq!(reply.error().0, "SerializationException");
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_clients_at_once() {
    let server = start().await;
    let addr = server.local_addr();
    create_table(addr, "busy").await;
    let clients: Vec<_> = (0..64)
        .map(|i| {
            tokio::spawn(async move {
                let item = json!({"pk": {"S": format!("k{i}")}, "i": {"N": i.to_string()}});
                let put = call(addr, "PutItem", json!({"TableName": "busy", "Item": item})).await;
                assert_eq!(put.status, 200);
                let got = call(
                    addr,
                    "GetItem",
                    json!({"TableName": "busy", "Key": {"pk": {"S": format!("k{i}")}}}),
                )
                .await;
                assert_eq!(got.json()["Item"], item);
            })
        })
        .collect();
    for c in clients {
        c.await.unwrap();
    }
    let described = call(addr, "DescribeTable", json!({"TableName": "busy"}))
        .await
        .json();
    assert_eq!(described["Table"]["ItemCount"], 64);
    server.shutdown().await;
}

#[tokio::test]
async fn shutdown_releases_the_port() {
    let server = start().await;
    let addr = server.local_addr();
    server.shutdown().await;
    assert!(TcpStream::connect(addr).await.is_err());
}
