//! What one client may hold of the server (a slow client must not hold resources forever, one
//! request must not stall the server): real sockets on 127.0.0.1 against a server with short limits, so that
//! each runs in a fraction of a second.
//!
//! - a client that sends a head and stalls its body is answered 408 and disconnected after the body
//!   timeout, and the bytes it held are released;
//! - a client that sends nothing is disconnected after the header timeout;
//! - a client that does not read its answer is disconnected after the write timeout;
//! - bodies wait for room in the budget of bodies in flight;
//! - connections beyond the cap wait in the listen queue, and are served once one closes;
//! - a large request is answered off the runtime's workers, so that small ones are not held up.

use std::time::{Duration, Instant};

use dynomodel::backend::{Backend, PutItemInput};
use dynomodel::{AttributeValue, Item};
use dynomodel_mem::server::ServerBuilder;

use super::*;

/// The test's patience for something the server should do within its (short) limits.
const PATIENCE: Duration = Duration::from_secs(10);

/// A request head for `operation` with a declared body length.
fn head(addr: SocketAddr, operation: &str, length: usize) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Amz-Target: DynamoDB_20120810.{operation}\r\n\
         Content-Type: application/x-amz-json-1.0\r\nContent-Length: {length}\r\n\r\n"
    )
}

/// Reads until the server closes the connection (an error such as a reset counts as closed); `None`
/// if it has not within `limit`.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    let read = async {
        let mut chunk = [0u8; 64 * 1024];
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            }
        }
    };
    tokio::time::timeout(limit, read).await.ok()?;
    Some(bytes)
}

async fn serve(builder: ServerBuilder, backend: MemBackend) -> ServerHandle {
    builder.bind("127.0.0.1:0", backend).await.unwrap()
}

#[tokio::test]
async fn a_stalled_body_is_answered_408_and_disconnected_after_the_body_timeout() {
    let builder = Server::builder().body_timeout(Duration::from_millis(200));
    let server = serve(builder, MemBackend::new()).await;
    let addr = server.local_addr();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let started = Instant::now();
    stream
        .write_all(head(addr, "ListTables", 1000).as_bytes())
        .await
        .unwrap();
    stream.write_all(b"{\"Limit\":").await.unwrap();
    // …and nothing more: the server answers and closes.
    let bytes = read_until_closed(&mut stream, PATIENCE)
        .await
        .expect("closed after the body timeout");
    assert!(started.elapsed() >= Duration::from_millis(200));
    let reply = parse_reply(&bytes);
    assert_eq!(reply.status, 408);
    assert_eq!(reply.header("connection"), Some("close"));
    let (code, message) = reply.error();
    assert_eq!(code, "RequestTimeoutException");
    assert_eq!(
        message.unwrap(),
        "The request body did not arrive within 200ms, the server's body timeout: 9 bytes received"
    );
    // The server goes on serving others.
    assert_eq!(call(addr, "ListTables", json!({})).await.status, 200);
    server.shutdown().await;
}

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_after_the_header_timeout() {
    let builder = Server::builder().header_timeout(Duration::from_millis(200));
    let server = serve(builder, MemBackend::new()).await;
    let mut stream = TcpStream::connect(server.local_addr()).await.unwrap();
    let bytes = read_until_closed(&mut stream, PATIENCE)
        .await
        .expect("closed after the header timeout");
    assert!(
        bytes.is_empty() || bytes.starts_with(b"HTTP/1.1 408"),
        "{bytes:?}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn bodies_wait_for_room_in_the_budget_and_a_stalled_one_gives_it_back() {
    // Room for 64 KiB of bodies: a stalled client declares all of it, so the next request waits until
    // the stalled one times out.
    let builder = Server::builder()
        .max_body_memory(64 * 1024)
        .body_timeout(Duration::from_millis(300));
    let server = serve(builder, MemBackend::new()).await;
    let addr = server.local_addr();
    let mut stalled = TcpStream::connect(addr).await.unwrap();
    stalled
        .write_all(head(addr, "ListTables", 64 * 1024).as_bytes())
        .await
        .unwrap();
    // Let the server take the stalled request's head and reserve its room.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let started = Instant::now();
    let reply = tokio::time::timeout(PATIENCE, call(addr, "ListTables", json!({})))
        .await
        .expect("served once the room is given back");
    assert_eq!(reply.status, 200);
    assert!(
        started.elapsed() >= Duration::from_millis(200),
        "waited for the stalled body's room: {:?}",
        started.elapsed()
    );
    let stalled_reply = read_until_closed(&mut stalled, PATIENCE).await.unwrap();
    assert_eq!(parse_reply(&stalled_reply).status, 408);
    server.shutdown().await;
}

#[tokio::test]
async fn a_client_that_does_not_read_its_answer_is_disconnected_after_the_write_timeout() {
    // A BatchGetItem answering 40 items of 390 KB (15.6 MB): far more than the sockets' buffers hold
    // while the client reads nothing.
    let backend = MemBackend::new();
    backend
        .create_table(dynomodel::backend::CreateTableInput {
            table_name: "big".into(),
            attribute_definitions: vec![dynomodel::backend::AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: dynomodel::ScalarAttributeType::S,
            }],
            key_schema: vec![dynomodel::backend::KeySchemaElement::hash("pk")],
            billing_mode: Some(dynomodel::backend::BillingMode::PayPerRequest),
            ..Default::default()
        })
        .await
        .unwrap();
    for i in 0..40 {
        let item = Item::from([
            ("pk".to_owned(), AttributeValue::S(format!("k{i}"))),
            ("blob".to_owned(), AttributeValue::B(vec![7u8; 390_000])),
        ]);
        let put = PutItemInput {
            table_name: "big".into(),
            item,
            ..Default::default()
        };
        backend.put_item(put).await.unwrap();
    }
    let builder = Server::builder()
        .write_timeout(Duration::from_millis(300))
        .max_connections(1);
    let server = serve(builder, backend).await;
    let addr = server.local_addr();
    let keys: Vec<Value> = (0..40)
        .map(|i| json!({"pk": {"S": format!("k{i}")}}))
        .collect();
    let body = json!({"RequestItems": {"big": {"Keys": keys}}}).to_string();
    let mut sluggard = TcpStream::connect(addr).await.unwrap();
    sluggard
        .write_all(head(addr, "BatchGetItem", body.len()).as_bytes())
        .await
        .unwrap();
    sluggard.write_all(body.as_bytes()).await.unwrap();
    // Read nothing. The next client waits in the listen queue for the one connection slot, so its
    // answer arriving proves the server gave up on the stalled response and closed that connection
    // (waiting for the answer rather than sleeping keeps this right however slow the machine is).
    let reply = tokio::time::timeout(PATIENCE, call(addr, "ListTables", json!({})))
        .await
        .expect("the slot was released");
    assert_eq!(reply.json(), json!({"TableNames": ["big"]}));
    // Only what the sockets' buffers held before the server gave up reaches the sluggard.
    let received = read_until_closed(&mut sluggard, PATIENCE)
        .await
        .expect("closed after the write timeout");
    assert!(
        received.len() < 15_000_000,
        "{} bytes: the whole response was sent",
        received.len()
    );
    server.shutdown().await;
}

/// Sends a ListTables on a kept-alive connection.
async fn ask(stream: &mut TcpStream, addr: SocketAddr) {
    let request = format!("{}{{}}", head(addr, "ListTables", 2));
    stream.write_all(request.as_bytes()).await.unwrap();
}

/// Reads the answer to [`ask`] on an empty engine (a head and `{"TableNames":[]}`); the status.
async fn answer(stream: &mut TcpStream) -> u16 {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    while !bytes.ends_with(b"{\"TableNames\":[]}") {
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "closed early");
        bytes.extend_from_slice(&chunk[..n]);
    }
    parse_reply(&bytes).status
}

#[tokio::test]
async fn connections_beyond_the_cap_wait_until_one_closes() {
    let server = serve(Server::builder().max_connections(2), MemBackend::new()).await;
    let addr = server.local_addr();
    let mut first = TcpStream::connect(addr).await.unwrap();
    let mut second = TcpStream::connect(addr).await.unwrap();
    for stream in [&mut first, &mut second] {
        ask(stream, addr).await;
        assert_eq!(answer(stream).await, 200);
    }
    // The third connects (the kernel queues it) but is not served while both stay open…
    let mut third = TcpStream::connect(addr).await.unwrap();
    ask(&mut third, addr).await;
    let mut byte = [0u8; 1];
    let waiting = tokio::time::timeout(Duration::from_millis(300), third.read(&mut byte)).await;
    assert!(waiting.is_err(), "served beyond the cap");
    // …and is, once one of them closes.
    drop(first);
    let served = tokio::time::timeout(PATIENCE, answer(&mut third))
        .await
        .expect("served once a connection closed");
    assert_eq!(served, 200);
    ask(&mut second, addr).await;
    assert_eq!(answer(&mut second).await, 200);
    server.shutdown().await;
}

#[tokio::test]
async fn a_large_request_does_not_hold_up_small_ones() {
    // A test runtime has one thread, shared by the server and this test: a large request answered on
    // it would hold everything else until it is done. 200,000 placeholders (a 4 MB body, past the
    // names map's 2 MiB cap) take a debug build about a second to read and refuse.
    let server = start().await;
    let addr = server.local_addr();
    create_table(addr, "tbl").await;
    let names: serde_json::Map<String, Value> = (0..200_000)
        .map(|i| (format!("#n{i}"), json!(format!("a{i}"))))
        .collect();
    let big = json!({"TableName": "tbl", "Key": {"pk": {"S": "k"}}, "ProjectionExpression": "#n0",
                     "ExpressionAttributeNames": names})
    .to_string();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let (sent, was_sent) = tokio::sync::oneshot::channel();
    let big = tokio::spawn(async move {
        stream
            .write_all(head(addr, "GetItem", big.len()).as_bytes())
            .await
            .unwrap();
        stream.write_all(big.as_bytes()).await.unwrap();
        let _ = sent.send(());
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 64 * 1024];
        // The answer is a short JSON error ending with `"}`.
        while !bytes.ends_with(b"\"}") {
            let n = stream.read(&mut chunk).await.unwrap();
            assert!(n > 0, "closed early");
            bytes.extend_from_slice(&chunk[..n]);
        }
        (parse_reply(&bytes).status, Instant::now())
    });
    // Once the whole body is sent, the server reads it and starts on it…
    was_sent.await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    // …and answers a small request meanwhile.
    let small = call(addr, "ListTables", json!({})).await;
    let small_done = Instant::now();
    assert_eq!(small.status, 200);
    let (big_status, big_done) = big.await.unwrap();
    assert_eq!(big_status, 400, "the names map past its cap");
    assert!(
        small_done < big_done,
        "the small request waited for the large one"
    );
    server.shutdown().await;
}
