//! Eventual consistency on demand over HTTP (`serve --eventual-consistency`): a GSI write arrives
//! after its delay on the manual clock or at `POST /_dynomodel/settle`, reads without
//! ConsistentRead are stale within the window only; with isolation by access key, settle and the
//! TTL sweeper reach every key's database.

use std::time::{Duration, SystemTime};

use dynomodel_mem::{EventualConsistency, ManualClock};

use super::faults::admin;
use super::signatures::signed_call;
use super::*;

/// `users` (`id`) with GSI `by-email` (`email`, ALL).
fn users() -> Value {
    json!({
        "TableName": "users",
        "AttributeDefinitions": [
            {"AttributeName": "id", "AttributeType": "S"},
            {"AttributeName": "email", "AttributeType": "S"}
        ],
        "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "by-email",
            "KeySchema": [{"AttributeName": "email", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}
        }],
        "BillingMode": "PAY_PER_REQUEST"
    })
}

fn user(id: &str, email: &str) -> Value {
    json!({"TableName": "users", "Item": {"id": {"S": id}, "email": {"S": email}}})
}

fn by_email(email: &str) -> Value {
    json!({"TableName": "users", "IndexName": "by-email",
           "KeyConditionExpression": "email = :e",
           "ExpressionAttributeValues": {":e": {"S": email}}})
}

fn get(id: &str, consistent: bool) -> Value {
    json!({"TableName": "users", "Key": {"id": {"S": id}}, "ConsistentRead": consistent})
}

/// A server over an engine with GSI delay 2 s and stale reads 1 s on a manual clock.
async fn lagging(isolate: bool) -> (ServerHandle, ManualClock) {
    let clock = ManualClock::default();
    let engine = MemBackend::builder()
        .clock(clock.clone())
        .eventual_consistency(
            EventualConsistency::new()
                .gsi_delay(Duration::from_secs(2))
                .stale_reads(Duration::from_secs(1)),
        )
        .build();
    // The table is made in the seed, before isolation gives each key a fork of it.
    let seeding = Server::bind_mem("127.0.0.1:0", engine.clone(), None)
        .await
        .unwrap();
    let created = call(seeding.local_addr(), "CreateTable", users()).await;
    assert_eq!(created.status, 200);
    drop(seeding);
    let mut builder = Server::builder();
    if isolate {
        builder = builder.isolate_by_access_key(10);
    }
    let server = builder
        .bind_mem("127.0.0.1:0", engine, Some(clock.clone()))
        .await
        .unwrap();
    (server, clock)
}

async fn count(addr: SocketAddr, query: Value) -> i64 {
    let reply = call(addr, "Query", query).await;
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.json()["Count"].as_i64().unwrap()
}

async fn advance(addr: SocketAddr, seconds: f64) {
    let (status, _) = admin(
        addr,
        "POST",
        "/_dynomodel/clock/advance",
        Some(json!({ "seconds": seconds })),
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_gsi_write_arrives_after_the_delay_or_at_settle() {
    let (server, _clock) = lagging(false).await;
    let addr = server.local_addr();
    assert_eq!(call(addr, "PutItem", user("u1", "ada@x")).await.status, 200);
    assert_eq!(
        count(addr, by_email("ada@x")).await,
        0,
        "not on the GSI yet"
    );
    // Within the stale window only, and never for ConsistentRead.
    let item = |reply: Reply| reply.json().get("Item").cloned();
    assert_eq!(item(call(addr, "GetItem", get("u1", false)).await), None);
    assert!(item(call(addr, "GetItem", get("u1", true)).await).is_some());
    advance(addr, 1.0).await;
    assert!(item(call(addr, "GetItem", get("u1", false)).await).is_some());
    assert_eq!(count(addr, by_email("ada@x")).await, 0);
    advance(addr, 1.0).await;
    assert_eq!(count(addr, by_email("ada@x")).await, 1);

    // A later write, settled at once.
    assert_eq!(call(addr, "PutItem", user("u2", "bob@x")).await.status, 200);
    assert_eq!(count(addr, by_email("bob@x")).await, 0);
    let (status, body) = admin(addr, "POST", "/_dynomodel/settle", Some(json!({}))).await;
    assert_eq!((status, body), (200, json!({"settled": 1})));
    assert_eq!(count(addr, by_email("bob@x")).await, 1);
    assert!(item(call(addr, "GetItem", get("u2", false)).await).is_some());
}

#[tokio::test]
async fn settle_is_guarded_as_every_admin_endpoint() {
    let (server, _clock) = lagging(false).await;
    let addr = server.local_addr();
    // A cross-site "simple" POST (no JSON content type) is refused.
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /_dynomodel/settle HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/plain\r\n\
         Content-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.unwrap();
    assert_eq!(parse_reply(&bytes).status, 415);
    let (status, body) = admin(addr, "POST", "/_dynomodel/settle", Some(json!([]))).await;
    assert_eq!(
        (status, body),
        (400, json!({"message": "the body is a JSON object"}))
    );
}

/// `operation` signed with access key `key`.
async fn as_key(addr: SocketAddr, key: &str, operation: &str, body: Value) -> Reply {
    let bytes = body.to_string();
    signed_call(
        addr,
        operation,
        bytes.as_bytes(),
        &[],
        (key, "any-secret"),
        "us-east-1",
        SystemTime::now(),
    )
    .await
}

#[tokio::test]
async fn settle_reaches_every_isolated_database_or_the_one_named() {
    let (server, _clock) = lagging(true).await;
    let addr = server.local_addr();
    for key in ["AKIDA", "AKIDB"] {
        let put = as_key(addr, key, "PutItem", user("u1", "ada@x")).await;
        assert_eq!(put.status, 200);
    }
    let counted = |key: &'static str| async move {
        let reply = as_key(addr, key, "Query", by_email("ada@x")).await;
        reply.json()["Count"].as_i64().unwrap()
    };
    assert_eq!((counted("AKIDA").await, counted("AKIDB").await), (0, 0));
    let named = json!({"access_key": "AKIDA"});
    let (status, body) = admin(addr, "POST", "/_dynomodel/settle", Some(named)).await;
    assert_eq!((status, body), (200, json!({"settled": 1})));
    assert_eq!((counted("AKIDA").await, counted("AKIDB").await), (1, 0));
    let (status, body) = admin(addr, "POST", "/_dynomodel/settle", None).await;
    // The seed and both keys' databases.
    assert_eq!((status, body), (200, json!({"settled": 3})));
    assert_eq!(counted("AKIDB").await, 1);
}

#[tokio::test]
async fn the_ttl_sweeper_sweeps_every_isolated_database() {
    let clock = ManualClock::default();
    let engine = MemBackend::builder().clock(clock.clone()).build();
    let server = Server::builder()
        .isolate_by_access_key(10)
        .bind_mem("127.0.0.1:0", engine.clone(), Some(clock.clone()))
        .await
        .unwrap()
        .with_ttl_sweeper(engine, Duration::from_millis(20));
    let addr = server.local_addr();
    for key in ["AKIDA", "AKIDB"] {
        // Each key's database is a fork of the seed made on its first request: its own table.
        let created = as_key(
            addr,
            key,
            "CreateTable",
            json!({"TableName": "sessions",
                   "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                   "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                   "BillingMode": "PAY_PER_REQUEST"}),
        )
        .await;
        assert_eq!(created.status, 200);
        let on_sessions = json!({"TableName": "sessions",
            "TimeToLiveSpecification": {"Enabled": true, "AttributeName": "exp"}});
        let enabled = as_key(addr, key, "UpdateTimeToLive", on_sessions).await;
        assert_eq!(enabled.status, 200);
        let expires = dynomodel_mem::Clock::now(&clock).timestamp() + 10;
        let item = json!({"TableName": "sessions",
                          "Item": {"pk": {"S": "s1"}, "exp": {"N": expires.to_string()}}});
        assert_eq!(as_key(addr, key, "PutItem", item).await.status, 200);
    }
    advance(addr, 60.0).await;
    let scanned = |key: &'static str| async move {
        let reply = as_key(
            addr,
            key,
            "Scan",
            json!({"TableName": "sessions", "ConsistentRead": true}),
        )
        .await;
        reply.json()["Count"].as_i64().unwrap()
    };
    // The sweeper runs every 20 ms of real time: both databases are swept within a few.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while (scanned("AKIDA").await, scanned("AKIDB").await) != (0, 0) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the expired items of the isolated databases were never swept"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.shutdown().await;
}
