//! Who may drive the server (issue 25, "admin endpoints can be driven from any web page"): a
//! cross-site "simple" POST cannot arm a fault rule, a page that rebinds its domain to 127.0.0.1 is
//! refused by its `Host`, no response grants CORS to another site's page (and the admin endpoints to
//! none), an admin token is enforced when set (and required beyond loopback), and the rule list is
//! bounded.

use dynomodel_mem::server::ServerBuilder;

use super::*;

async fn admin_server(builder: ServerBuilder) -> ServerHandle {
    let server = builder
        .bind_mem("127.0.0.1:0", MemBackend::new(), None)
        .await
        .unwrap();
    create_table(server.local_addr(), "tweets").await;
    server
}

fn get() -> Value {
    json!({"TableName": "tweets", "Key": {"pk": {"S": "a"}}})
}

/// A rule that fails every request.
const FAIL_EVERYTHING: &str = r#"{"error": "InternalServerError"}"#;

#[tokio::test]
async fn a_cross_site_simple_post_cannot_arm_a_rule() {
    let server = admin_server(Server::builder()).await;
    let addr = server.local_addr();
    let host = addr.to_string();
    // What a web page's form or `fetch(…, {mode: "no-cors"})` can send without a CORS preflight.
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let headers = [("Host", host.as_str()), ("Content-Type", content_type)];
        let reply = request(
            addr,
            "POST",
            "/_dynomodel/faults",
            &headers,
            FAIL_EVERYTHING,
        )
        .await;
        assert_eq!(reply.status, 415, "{content_type}");
        assert_eq!(
            reply.json()["message"],
            "admin requests send JSON: their Content-Type must be application/json"
        );
    }
    let no_type = request(
        addr,
        "POST",
        "/_dynomodel/faults",
        &[("Host", &host)],
        FAIL_EVERYTHING,
    )
    .await;
    assert_eq!(no_type.status, 415);
    // Nothing was armed.
    assert_eq!(call(addr, "GetItem", get()).await.status, 200);
    // JSON, as the guide's clients send it, is served.
    let headers = [
        ("Host", host.as_str()),
        ("Content-Type", "application/json"),
    ];
    let armed = request(
        addr,
        "POST",
        "/_dynomodel/faults",
        &headers,
        FAIL_EVERYTHING,
    )
    .await;
    assert_eq!((armed.status, armed.json()), (200, json!({"id": 1})));
    assert_eq!(call(addr, "GetItem", get()).await.status, 500);
    server.shutdown().await;
}

#[tokio::test]
async fn a_rebound_domain_is_refused_by_its_host() {
    let server = admin_server(Server::builder()).await;
    let addr = server.local_addr();
    let port = addr.port();
    let evil = format!("evil.example:{port}");
    let json_type = ("Content-Type", "application/json");
    // A page on evil.example whose name now resolves to 127.0.0.1: its requests name evil.example.
    let armed = request(
        addr,
        "POST",
        "/_dynomodel/faults",
        &[("Host", &evil), json_type],
        FAIL_EVERYTHING,
    )
    .await;
    assert_eq!(armed.status, 403);
    let listed = request(
        addr,
        "POST",
        "/",
        &[
            ("Host", &evil),
            ("X-Amz-Target", "DynamoDB_20120810.ListTables"),
        ],
        "{}",
    )
    .await;
    assert_eq!(listed.status, 403);
    let (code, message) = listed.error();
    assert_eq!(code, "AccessDeniedException");
    assert!(
        message.unwrap().starts_with(&format!(
            "Host \"{evil}\" does not name this server: a request that reaches it on a loopback address must name localhost or an IP address"
        ))
    );
    // The names loopback clients use are served.
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        "localhost".to_owned(),
    ] {
        let reply = request(
            addr,
            "POST",
            "/",
            &[
                ("Host", &host),
                ("X-Amz-Target", "DynamoDB_20120810.ListTables"),
            ],
            "{}",
        )
        .await;
        assert_eq!(reply.status, 200, "{host}");
    }
    server.shutdown().await;

    // A name allowed explicitly (an /etc/hosts alias of 127.0.0.1).
    let server = admin_server(Server::builder().allow_host("dynamodb.test")).await;
    let reply = request(
        server.local_addr(),
        "POST",
        "/",
        &[
            ("Host", "dynamodb.test:8000"),
            ("X-Amz-Target", "DynamoDB_20120810.ListTables"),
        ],
        "{}",
    )
    .await;
    assert_eq!(reply.status, 200);
    server.shutdown().await;
}

#[tokio::test]
async fn no_response_grants_cors() {
    let server = admin_server(Server::builder()).await;
    let addr = server.local_addr();
    let host = addr.to_string();
    let origin = ("Origin", "http://evil.example");
    let preflight = request(
        addr,
        "OPTIONS",
        "/_dynomodel/faults",
        &[
            ("Host", &host),
            origin,
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type"),
        ],
        "",
    )
    .await;
    let api = request(
        addr,
        "OPTIONS",
        "/",
        &[
            ("Host", &host),
            origin,
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "x-amz-target"),
        ],
        "",
    )
    .await;
    let answered = call(addr, "ListTables", json!({})).await;
    // The API grants CORS to pages served from loopback (tests/server/cors.rs); the admin
    // endpoints to none.
    let local_page = request(
        addr,
        "OPTIONS",
        "/_dynomodel/faults",
        &[
            ("Host", &host),
            ("Origin", "http://localhost:3000"),
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type"),
        ],
        "",
    )
    .await;
    assert_eq!(api.status, 403);
    for reply in [preflight, api, answered, local_page] {
        let cors: Vec<_> = reply
            .headers
            .iter()
            .filter(|(name, _)| name.to_ascii_lowercase().starts_with("access-control-"))
            .collect();
        assert!(cors.is_empty(), "{cors:?}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn an_admin_token_is_required_when_set() {
    let server = admin_server(Server::builder().admin_token("s3cret")).await;
    let addr = server.local_addr();
    let host = addr.to_string();
    let json_type = ("Content-Type", "application/json");
    for authorization in [
        None,
        Some("Bearer wrong"),
        Some("s3cret"),
        Some("Basic s3cret"),
    ] {
        let mut headers = vec![("Host", host.as_str()), json_type];
        headers.extend(authorization.map(|a| ("Authorization", a)));
        let reply = request(addr, "POST", "/_dynomodel/faults", &headers, "{}").await;
        assert_eq!(reply.status, 401, "{authorization:?}");
        let reply = request(addr, "GET", "/_dynomodel/clock", &headers, "").await;
        assert_eq!(reply.status, 401, "{authorization:?}");
    }
    let headers = [
        ("Host", host.as_str()),
        json_type,
        ("Authorization", "Bearer s3cret"),
    ];
    let reply = request(addr, "POST", "/_dynomodel/faults", &headers, "{}").await;
    assert_eq!((reply.status, reply.json()), (200, json!({"id": 1})));
    // DynamoDB's own API needs no token.
    let headers = [("Host", host.as_str()), ("Authorization", "Bearer s3cret")];
    let reply = request(addr, "DELETE", "/_dynomodel/faults", &headers, "").await;
    assert_eq!(reply.status, 200);
    assert_eq!(call(addr, "ListTables", json!({})).await.status, 200);
    server.shutdown().await;
}

#[tokio::test]
async fn beyond_loopback_the_admin_endpoints_need_a_token() {
    let reach =
        |server: &ServerHandle| SocketAddr::from(([127, 0, 0, 1], server.local_addr().port()));
    let open = Server::builder()
        .bind_mem("0.0.0.0:0", MemBackend::new(), None)
        .await
        .unwrap();
    let addr = reach(&open);
    let host = addr.to_string();
    let headers = [
        ("Host", host.as_str()),
        ("Content-Type", "application/json"),
    ];
    let reply = request(addr, "POST", "/_dynomodel/faults", &headers, "{}").await;
    assert_eq!(reply.status, 404);
    assert_eq!(
        reply.json()["message"],
        "admin endpoints are disabled: this server listens beyond loopback, where it serves them \
         only with an admin token (--admin-token)"
    );
    assert_eq!(call(addr, "ListTables", json!({})).await.status, 200);
    open.shutdown().await;

    let guarded = Server::builder()
        .admin_token("s3cret")
        .bind_mem("0.0.0.0:0", MemBackend::new(), None)
        .await
        .unwrap();
    let addr = reach(&guarded);
    let host = addr.to_string();
    let headers = [
        ("Host", host.as_str()),
        ("Content-Type", "application/json"),
        ("Authorization", "Bearer s3cret"),
    ];
    let reply = request(addr, "POST", "/_dynomodel/faults", &headers, "{}").await;
    assert_eq!(reply.status, 200);
    guarded.shutdown().await;
}

#[tokio::test]
async fn the_rule_list_is_bounded() {
    let server = admin_server(Server::builder()).await;
    let addr = server.local_addr();
    let host = addr.to_string();
    let headers = [
        ("Host", host.as_str()),
        ("Content-Type", "application/json"),
    ];
    let rule = r#"{"operation": "PutItem", "table": "nowhere"}"#;
    for id in 1..=256 {
        let reply = request(addr, "POST", "/_dynomodel/faults", &headers, rule).await;
        assert_eq!((reply.status, reply.json()), (200, json!({ "id": id })));
    }
    let refused = request(addr, "POST", "/_dynomodel/faults", &headers, rule).await;
    assert_eq!(refused.status, 400);
    assert_eq!(
        refused.json()["message"],
        "256 fault rules are armed, the most this server holds: disarm some first \
         (DELETE /_dynomodel/faults/N, or DELETE /_dynomodel/faults for all)"
    );
    let cleared = request(addr, "DELETE", "/_dynomodel/faults", &headers, "").await;
    assert_eq!(cleared.status, 200);
    let reply = request(addr, "POST", "/_dynomodel/faults", &headers, rule).await;
    assert_eq!(reply.status, 200);
    server.shutdown().await;
}
