//! CORS on DynamoDB's API (issue 26, item 29), as dynalite's tests recorded the service answering it:
//! a preflight is `200` with an empty body, the requested method and headers echoed and a two-day
//! `Access-Control-Max-Age`; every answer to an allowed origin carries `Access-Control-Allow-Origin`
//! (errors too) and the headers a page may read. Which origins: pages served from loopback by default,
//! others with `cors_origin` (`--cors-origin`), every one on a server that verifies signatures (see
//! `dynomodel-mem/src/server/cors.rs` for why). DynamoDB Local 3.3 answers a preflight without any
//! `Access-Control-Allow-Origin` (probed), so these are the server's own tests. The admin endpoints
//! never answer CORS: `admin_safety.rs`.

use dynomodel_mem::server::ServerBuilder;

use super::*;

/// A browser's preflight of a DynamoDB call from a page of `origin`.
async fn preflight(addr: SocketAddr, origin: &str) -> Reply {
    let host = addr.to_string();
    request(
        addr,
        "OPTIONS",
        "/",
        &[
            ("Host", &host),
            ("Origin", origin),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "authorization,content-type,x-amz-date,x-amz-target",
            ),
        ],
        "",
    )
    .await
}

/// The call the page then makes (a `ListTables` or, with a bad target, an error).
async fn from_page(addr: SocketAddr, origin: &str, target: &str) -> Reply {
    let host = addr.to_string();
    let headers = [
        ("Host", host.as_str()),
        ("Origin", origin),
        ("X-Amz-Target", target),
        ("Content-Type", "application/x-amz-json-1.0"),
    ];
    request(addr, "POST", "/", &headers, "{}").await
}

fn cors_headers(reply: &Reply) -> Vec<(String, String)> {
    reply
        .headers
        .iter()
        .filter(|(name, _)| name.to_ascii_lowercase().starts_with("access-control-"))
        .cloned()
        .collect()
}

async fn serve(builder: ServerBuilder) -> ServerHandle {
    builder
        .bind("127.0.0.1:0", MemBackend::new())
        .await
        .unwrap()
}

#[tokio::test]
async fn preflights_from_loopback_pages_are_granted_as_dynamodb_grants_them() {
    let server = serve(Server::builder()).await;
    let addr = server.local_addr();
    for origin in [
        "http://localhost:5173",
        "http://127.0.0.1:3000",
        "https://app.localhost",
    ] {
        let reply = preflight(addr, origin).await;
        assert_eq!(reply.status, 200, "{origin}");
        assert!(reply.body.is_empty());
        assert_eq!(reply.header("content-length"), Some("0"));
        assert_eq!(reply.header("access-control-allow-origin"), Some(origin));
        assert_eq!(reply.header("vary"), Some("Origin"));
        assert_eq!(reply.header("access-control-allow-methods"), Some("POST"));
        assert_eq!(
            reply.header("access-control-allow-headers"),
            Some("authorization,content-type,x-amz-date,x-amz-target")
        );
        assert_eq!(reply.header("access-control-max-age"), Some("172800"));
        assert_eq!(reply.header("x-amzn-RequestId").map(str::len), Some(52));
    }
    server.shutdown().await;
}

#[tokio::test]
async fn answers_to_an_allowed_origin_carry_cors_headers_errors_too() {
    let server = serve(Server::builder()).await;
    let addr = server.local_addr();
    let origin = "http://localhost:5173";
    for (target, status) in [
        ("DynamoDB_20120810.ListTables", 200),
        ("DynamoDB_20120810.Nope", 400),
    ] {
        let reply = from_page(addr, origin, target).await;
        assert_eq!(reply.status, status);
        assert_eq!(reply.header("access-control-allow-origin"), Some(origin));
        assert_eq!(
            reply.header("access-control-expose-headers"),
            Some("x-amzn-RequestId,x-amzn-ErrorType,x-amz-request-id,x-amz-id-2,x-amzn-ErrorMessage,Date")
        );
    }
    // No Origin, no CORS headers (curl, SDKs).
    let reply = call(addr, "ListTables", json!({})).await;
    assert_eq!(cors_headers(&reply), vec![]);
    server.shutdown().await;
}

#[tokio::test]
async fn other_origins_are_refused_unless_listed() {
    let server = serve(Server::builder().cors_origin("https://app.example")).await;
    let addr = server.local_addr();
    let refused = preflight(addr, "https://evil.example").await;
    assert_eq!(refused.status, 403);
    assert_eq!(cors_headers(&refused), vec![]);
    let (code, message) = refused.error();
    assert_eq!(code, "AccessDeniedException");
    assert!(
        message
            .unwrap()
            .contains("--cors-origin https://evil.example"),
        "the refusal says how to allow the origin"
    );
    let answered = from_page(addr, "https://evil.example", "DynamoDB_20120810.ListTables").await;
    assert_eq!(cors_headers(&answered), vec![]);
    // The listed origin, and loopback pages still.
    for origin in ["https://app.example", "http://localhost:8080"] {
        let granted = preflight(addr, origin).await;
        assert_eq!(granted.status, 200, "{origin}");
        assert_eq!(granted.header("access-control-allow-origin"), Some(origin));
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_star_or_verified_signatures_allow_every_origin() {
    let star = serve(Server::builder().cors_origin("*")).await;
    let verified = serve(
        Server::builder()
            .access_key("AKIDEXAMPLE", "secret")
            .verify_signatures(),
    )
    .await;
    for server in [star, verified] {
        let addr = server.local_addr();
        let reply = preflight(addr, "https://anywhere.example").await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
        assert_eq!(reply.header("vary"), None);
        // DynamoDB answers a preflight before any signature check: it carries none.
        server.shutdown().await;
    }
}
