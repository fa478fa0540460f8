//! DynamoDB's endpoint beyond its operations (issue 26, item 31): `GET /` answers `healthy: <the host
//! the client used> ` (with the final space: dynalite's tests record the service's
//! `healthy: dynamodb.<region>.amazonaws.com `), every response says `Server: Server`, and TagResource
//! and UntagResource answer an empty body. Also the tag operations on another account's table ARN: the
//! service's IAM `AccessDeniedException` (the SDK's view is in `tests/dual/tags.rs`).

use super::*;

#[tokio::test]
async fn get_root_answers_healthy_with_the_host_the_client_used() {
    let server = start().await;
    let addr = server.local_addr();
    for host in [addr.to_string(), format!("localhost:{}", addr.port())] {
        let reply = request(addr, "GET", "/", &[("Host", &host)], "").await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body, format!("healthy: {host} ").into_bytes());
        assert_eq!(reply.header("content-type"), Some("text/plain"));
        let crc: u32 = reply.header("x-amz-crc32").unwrap().parse().unwrap();
        assert_eq!(crc, crc32fast::hash(&reply.body));
        assert_eq!(reply.header("x-amzn-RequestId").map(str::len), Some(52));
    }
    server.shutdown().await;
}

#[tokio::test]
async fn every_response_says_server() {
    let server = start().await;
    let addr = server.local_addr();
    let host = addr.to_string();
    for reply in [
        call(addr, "ListTables", json!({})).await,
        call(addr, "DescribeTable", json!({"TableName": "missing"})).await,
        raw(addr, Some("Nope"), b"{}").await,
        request(addr, "GET", "/", &[("Host", &host)], "").await,
        request(addr, "GET", "/health", &[("Host", &host)], "").await,
    ] {
        assert_eq!(reply.header("server"), Some("Server"));
    }
    server.shutdown().await;
}

async fn table_arn(addr: SocketAddr, name: &str) -> String {
    let described = call(addr, "DescribeTable", json!({"TableName": name})).await;
    described.json()["Table"]["TableArn"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn tag_and_untag_answer_an_empty_body() {
    let server = start().await;
    let addr = server.local_addr();
    create_table(addr, "tagged").await;
    let arn = table_arn(addr, "tagged").await;
    let tag = call(
        addr,
        "TagResource",
        json!({"ResourceArn": arn, "Tags": [{"Key": "team", "Value": "db"}]}),
    )
    .await;
    assert_eq!(tag.status, 200);
    assert!(tag.body.is_empty());
    assert_eq!(tag.header("content-length"), Some("0"));
    assert_eq!(tag.header("x-amz-crc32"), Some("0"));
    let untag = call(
        addr,
        "UntagResource",
        json!({"ResourceArn": arn, "TagKeys": ["team"]}),
    )
    .await;
    assert_eq!((untag.status, untag.body.len()), (200, 0));
    // The other operations still answer JSON.
    let listed = call(addr, "ListTagsOfResource", json!({"ResourceArn": arn})).await;
    assert_eq!(listed.json(), json!({"Tags": []}));
    server.shutdown().await;
}

#[tokio::test]
async fn tag_operations_on_another_account_s_table_are_access_denied() {
    let server = start().await;
    let addr = server.local_addr();
    create_table(addr, "tagged").await;
    let theirs = "arn:aws:dynamodb:ddblocal:111122223333:table/tagged";
    for (operation, body) in [
        ("ListTagsOfResource", json!({"ResourceArn": theirs})),
        (
            "TagResource",
            json!({"ResourceArn": theirs, "Tags": [{"Key": "k", "Value": "v"}]}),
        ),
        (
            "UntagResource",
            json!({"ResourceArn": theirs, "TagKeys": ["k"]}),
        ),
    ] {
        let reply = call(addr, operation, body).await;
        assert_eq!(reply.status, 400);
        assert_eq!(
            reply.error(),
            (
                "AccessDeniedException".into(),
                Some(format!(
                    "User: arn:aws:iam::000000000000:root is not authorized to perform: \
                     dynamodb:{operation} on resource: {theirs} because no resource-based policy \
                     allows the dynamodb:{operation} action"
                ))
            )
        );
    }
    server.shutdown().await;
}
