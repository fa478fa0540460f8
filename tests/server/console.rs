//! The web console's page (`GET /_dynomodel/console`, issue 31 part 4) at the protocol level: its
//! headers (HTML, a hashed Content-Security-Policy, no framing), served without the admin token that
//! its calls need, only where the admin endpoints are, and `GET /_dynomodel/faults`, the listing it
//! shows. The page in a real browser: `console_browser.rs`.

use dynomodel_mem::server::ServerBuilder;

use super::*;

const PAGE: &str = "/_dynomodel/console";

async fn get(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Reply {
    let host = addr.to_string();
    let mut all = vec![("Host", host.as_str())];
    all.extend_from_slice(headers);
    request(addr, "GET", path, &all, "").await
}

async fn admin_server(builder: ServerBuilder) -> ServerHandle {
    builder
        .bind_mem("127.0.0.1:0", MemBackend::new(), None)
        .await
        .unwrap()
}

#[tokio::test]
async fn the_page_is_html_with_a_strict_policy() {
    let server = admin_server(Server::builder()).await;
    let reply = get(server.local_addr(), PAGE, &[]).await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(reply.header("x-frame-options"), Some("DENY"));
    assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let policy = reply.header("content-security-policy").unwrap();
    assert!(
        policy.starts_with("default-src 'none'; script-src 'sha256-"),
        "{policy}"
    );
    for part in [
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'none'",
    ] {
        assert!(policy.contains(part), "{policy}");
    }
    assert!(!policy.contains("unsafe"), "{policy}");
    let page = String::from_utf8(reply.body).unwrap();
    assert!(page.starts_with("<!doctype html>"), "{}", &page[..40]);
    assert!(page.contains("<title>dynomodel console</title>"));
    // Self-contained: nothing is loaded from another origin.
    assert!(!page.contains("src=\"http") && !page.contains("href=\"http"));
    // A final slash is the same page; HEAD has the headers only; other methods are refused.
    assert_eq!(
        get(server.local_addr(), "/_dynomodel/console/", &[])
            .await
            .status,
        200
    );
    let head = request(
        server.local_addr(),
        "HEAD",
        PAGE,
        &[("Host", "localhost")],
        "",
    )
    .await;
    assert_eq!(head.status, 200);
    let post = request(
        server.local_addr(),
        "POST",
        PAGE,
        &[("Host", "localhost"), ("Content-Type", "application/json")],
        "{}",
    )
    .await;
    assert_eq!(post.status, 405);
    assert_eq!(post.header("allow"), Some("GET, HEAD"));
    server.shutdown().await;
}

#[tokio::test]
async fn the_page_needs_no_token_but_its_calls_do() {
    let server = admin_server(Server::builder().admin_token("s3cret")).await;
    let addr = server.local_addr();
    // A browser's navigation carries no token: the page (which holds no data) is served.
    assert_eq!(get(addr, PAGE, &[]).await.status, 200);
    // What the page then calls is guarded as for any client.
    assert_eq!(get(addr, "/_dynomodel/faults", &[]).await.status, 401);
    let with_token = get(
        addr,
        "/_dynomodel/faults",
        &[("Authorization", "Bearer s3cret")],
    )
    .await;
    assert_eq!(
        (with_token.status, with_token.json()),
        (200, json!({"rules": []}))
    );
    // A rebound page's Host is refused before anything else, the console included.
    let rebound = request(addr, "GET", PAGE, &[("Host", "evil.example")], "").await;
    assert_eq!(rebound.status, 403);
    server.shutdown().await;
}

#[tokio::test]
async fn the_page_is_served_only_where_the_admin_endpoints_are() {
    // A server of another backend than the engine has no admin endpoints, hence no console.
    let other = Server::bind_shared(
        "127.0.0.1:0",
        Arc::new(MemBackend::new()) as Arc<dyn Backend>,
    )
    .await
    .unwrap();
    let reply = get(other.local_addr(), PAGE, &[]).await;
    assert_eq!(reply.status, 404);
    assert_eq!(
        reply.json()["message"],
        "admin endpoints are not enabled on this server"
    );
    other.shutdown().await;
}

#[tokio::test]
async fn the_armed_rules_are_listed_in_words() {
    let server = admin_server(Server::builder()).await;
    let addr = server.local_addr();
    let host = addr.to_string();
    let headers = [
        ("Host", host.as_str()),
        ("Content-Type", "application/json"),
    ];
    for rule in [
        r#"{"operation": "PutItem", "table": "tweets", "nth": 3, "error": "InternalServerError", "timing": "after"}"#,
        r#"{"operation": "reads", "latency_ms": 50}"#,
    ] {
        let armed = request(addr, "POST", "/_dynomodel/faults", &headers, rule).await;
        assert_eq!(armed.status, 200);
    }
    let listed = get(addr, "/_dynomodel/faults", &[]).await;
    assert_eq!(
        listed.json(),
        json!({"rules": [
            {"id": 1, "rule": "PutItem on table \"tweets\", the 3rd, fails with InternalServerError after the write", "fired": 0},
            {"id": 2, "rule": "GetItem|Query|Scan|BatchGetItem|TransactGetItems, every time, delayed by 50ms", "fired": 0},
        ]})
    );
    server.shutdown().await;
}
