//! The admin endpoints over the wire (`Server::bind_mem`, what `dynomodel-mem serve` runs): fault
//! rules armed with `POST /_dynomodel/faults` fire on DynamoDB requests with the service's bodies,
//! and `POST /_dynomodel/clock/advance` moves the engine's manual clock.

use dynomodel_mem::{Clock, ManualClock};

use super::*;

/// An admin request: `method path` with a JSON body; the status and the JSON answer.
pub(super) async fn admin(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.unwrap();
    let reply = parse_reply(&bytes);
    (reply.status, reply.json())
}

async fn admin_server(clock: Option<ManualClock>) -> ServerHandle {
    let mut backend = MemBackend::builder();
    if let Some(clock) = &clock {
        backend = backend.clock(clock.clone());
    }
    let server = Server::bind_mem("127.0.0.1:0", backend.build(), clock)
        .await
        .unwrap();
    create_table(server.local_addr(), "tweets").await;
    server
}

fn put(pk: &str) -> Value {
    json!({"TableName": "tweets", "Item": {"pk": {"S": pk}}})
}

fn get(pk: &str) -> Value {
    json!({"TableName": "tweets", "Key": {"pk": {"S": pk}}})
}

#[tokio::test]
async fn a_rule_armed_over_http_fires_on_the_nth_request_after_the_write() {
    let server = admin_server(None).await;
    let addr = server.local_addr();
    let rule = json!({"operation": "PutItem", "table": "tweets", "nth": 2,
                      "error": "InternalServerError", "timing": "after"});
    let (status, armed) = admin(addr, "POST", "/_dynomodel/faults", Some(rule)).await;
    assert_eq!((status, &armed), (200, &json!({"id": 1})));

    assert_eq!(call(addr, "PutItem", put("a")).await.status, 200);
    let failed = call(addr, "PutItem", put("b")).await;
    assert_eq!(failed.status, 500, "DynamoDB's status for its own fault");
    assert_eq!(
        failed.error(),
        (
            "InternalServerError".to_owned(),
            Some("Internal server error".to_owned())
        )
    );
    // Written although the call failed.
    assert_eq!(
        call(addr, "GetItem", get("b")).await.json(),
        json!({"Item": {"pk": {"S": "b"}}})
    );
    let (_, fired) = admin(addr, "GET", "/_dynomodel/faults/1", None).await;
    assert_eq!(fired, json!({"id": 1, "fired": 1}));

    // A throttle on every read, then cleared.
    let rule = json!({"operation": "reads", "error": "ProvisionedThroughputExceededException"});
    admin(addr, "POST", "/_dynomodel/faults", Some(rule)).await;
    let refused = call(addr, "GetItem", get("a")).await;
    assert_eq!(refused.status, 400);
    assert_eq!(refused.error().0, "ProvisionedThroughputExceededException");
    let (status, _) = admin(addr, "DELETE", "/_dynomodel/faults", None).await;
    assert_eq!(status, 200);
    assert_eq!(call(addr, "GetItem", get("a")).await.status, 200);
    server.shutdown().await;
}

#[tokio::test]
async fn partial_batches_and_conflicting_transactions_have_the_service_s_bodies() {
    let server = admin_server(None).await;
    let addr = server.local_addr();
    let rule = json!({"operation": "BatchWriteItem", "unprocessed": "half"});
    admin(addr, "POST", "/_dynomodel/faults", Some(rule)).await;
    let writes: Vec<Value> = ["a", "b", "c", "d"]
        .iter()
        .map(|pk| json!({"PutRequest": {"Item": {"pk": {"S": pk}}}}))
        .collect();
    let reply = call(
        addr,
        "BatchWriteItem",
        json!({"RequestItems": {"tweets": writes}}),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json()["UnprocessedItems"],
        json!({"tweets": [
            {"PutRequest": {"Item": {"pk": {"S": "c"}}}},
            {"PutRequest": {"Item": {"pk": {"S": "d"}}}}
        ]})
    );
    admin(addr, "DELETE", "/_dynomodel/faults", None).await;

    let rule = json!({"operation": "TransactWriteItems", "key": {"pk": {"S": "y"}},
                      "times": 1, "error": "TransactionConflict"});
    admin(addr, "POST", "/_dynomodel/faults", Some(rule)).await;
    let transaction = json!({"TransactItems": [
        {"Put": {"TableName": "tweets", "Item": {"pk": {"S": "x"}}}},
        {"Put": {"TableName": "tweets", "Item": {"pk": {"S": "y"}}}}
    ]});
    let reply = call(addr, "TransactWriteItems", transaction.clone()).await;
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.json(),
        json!({
            "__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
            "Message": "Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]",
            "CancellationReasons": [
                {"Code": "None"},
                {"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}
            ]
        })
    );
    assert_eq!(call(addr, "GetItem", get("x")).await.json(), json!({}));
    assert_eq!(
        call(addr, "TransactWriteItems", transaction).await.status,
        200
    );
    server.shutdown().await;
}

#[tokio::test]
async fn the_manual_clock_moves_over_http() {
    let clock = ManualClock::default();
    let server = admin_server(Some(clock.clone())).await;
    let addr = server.local_addr();
    let (_, now) = admin(addr, "GET", "/_dynomodel/clock", None).await;
    assert_eq!(now, json!({"now": "2025-01-01T00:00:00.000Z"}));
    let (status, now) = admin(
        addr,
        "POST",
        "/_dynomodel/clock/advance",
        Some(json!({"seconds": 90.5})),
    )
    .await;
    assert_eq!(
        (status, now),
        (200, json!({"now": "2025-01-01T00:01:30.500Z"}))
    );
    assert_eq!(
        clock.now().timestamp(),
        1_735_689_690,
        "the engine's clock itself"
    );
    let (status, _) = admin(
        addr,
        "POST",
        "/_dynomodel/clock/advance",
        Some(json!({"seconds": -1})),
    )
    .await;
    assert_eq!(status, 400);
    server.shutdown().await;

    // Without a manual clock there is nothing to advance.
    let server = admin_server(None).await;
    let (status, answer) = admin(
        server.local_addr(),
        "POST",
        "/_dynomodel/clock/advance",
        Some(json!({"seconds": 1})),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["message"],
        "the clock is not manual: start the server with --manual-clock"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn bad_rules_unknown_paths_and_servers_without_admin() {
    let server = admin_server(None).await;
    let addr = server.local_addr();
    let (status, answer) = admin(
        addr,
        "POST",
        "/_dynomodel/faults",
        Some(json!({"operation": "Nope"})),
    )
    .await;
    assert_eq!(
        (status, answer),
        (400, json!({"message": "unknown operation \"Nope\""}))
    );
    let (status, _) = admin(addr, "POST", "/_dynomodel/elsewhere", Some(json!({}))).await;
    assert_eq!(status, 404);
    // DynamoDB's endpoint is untouched.
    assert_eq!(call(addr, "PutItem", put("a")).await.status, 200);
    server.shutdown().await;

    let plain = start().await;
    let (status, answer) = admin(plain.local_addr(), "DELETE", "/_dynomodel/faults", None).await;
    assert_eq!(status, 404);
    assert_eq!(
        answer["message"],
        "admin endpoints are not enabled on this server"
    );
    plain.shutdown().await;
}
