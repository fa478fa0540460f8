//! Signature verification, opt-in: with `verify_signatures` and configured access
//! keys the server checks SigV4 and refuses as DynamoDB does, all with HTTP 400 (the Developer Guide's
//! "Error handling" lists `MissingAuthenticationTokenException` and `UnrecognizedClientException` under
//! 400; dynalite recorded the service's texts and its 400 `InvalidSignatureException`); by default
//! nothing is checked. Requests here are signed by AWS's own signer (`aws-sigv4`) and by the AWS SDK,
//! not by the server's code. DynamoDB Local checks no signature (any key is a database), so these are
//! the server's own tests.

use std::io::Write;
use std::time::{Duration, SystemTime};

use aws_credential_types::Credentials;
use aws_sigv4::http_request::{sign, SignableBody, SignableRequest, SigningSettings};
use aws_sigv4::sign::v4;
use dynomodel::{AwsBackend, Db};

use super::*;

const KEY_ID: &str = "AKIDLOCAL";
const SECRET: &str = "local-secret/with+chars";

async fn verifying() -> ServerHandle {
    Server::builder()
        .access_key(KEY_ID, SECRET)
        .access_key("AKIDOTHER", "other-secret")
        .verify_signatures()
        .bind("127.0.0.1:0", MemBackend::new())
        .await
        .unwrap()
}

/// `operation` with `body` (sent as these bytes, with these extra headers), signed by `aws-sigv4` with
/// `key_id`/`secret` for `region` at `time`.
#[allow(clippy::too_many_arguments)]
pub(super) async fn signed_call(
    addr: SocketAddr,
    operation: &str,
    body: &[u8],
    extra: &[(&str, &str)],
    (key_id, secret): (&str, &str),
    region: &str,
    time: SystemTime,
) -> Reply {
    let target = format!("DynamoDB_20120810.{operation}");
    let mut headers: Vec<(String, String)> = vec![
        ("x-amz-target".into(), target),
        ("content-type".into(), "application/x-amz-json-1.0".into()),
    ];
    headers.extend(extra.iter().map(|(n, v)| (n.to_string(), v.to_string())));
    let identity = Credentials::new(key_id, secret, None, None, "test").into();
    let params = v4::SigningParams::builder()
        .identity(&identity)
        .region(region)
        .name("dynamodb")
        .time(time)
        .settings(SigningSettings::default())
        .build()
        .unwrap()
        .into();
    let url = format!("http://{addr}/");
    let signable = SignableRequest::new(
        "POST",
        &url,
        headers.iter().map(|(n, v)| (n.as_str(), v.as_str())),
        SignableBody::Bytes(body),
    )
    .unwrap();
    let (instructions, _) = sign(signable, &params).unwrap().into_parts();
    headers.extend(
        instructions
            .headers()
            .map(|(n, v)| (n.to_owned(), v.to_owned())),
    );
    headers.push(("host".into(), addr.to_string()));
    let pairs: Vec<(&str, &str)> = headers
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    request(addr, "POST", "/", &pairs, body).await
}

async fn list_tables(addr: SocketAddr, key: (&str, &str), time: SystemTime) -> Reply {
    signed_call(addr, "ListTables", b"{}", &[], key, "eu-west-1", time).await
}

fn refusal(reply: &Reply) -> (u16, String, String) {
    let (code, message) = reply.error();
    (reply.status, code, message.unwrap_or_default())
}

#[tokio::test]
async fn by_default_nothing_is_checked() {
    let server = start().await;
    let addr = server.local_addr();
    assert_eq!(call(addr, "ListTables", json!({})).await.status, 200);
    let reply = list_tables(addr, ("ANY", "thing"), SystemTime::UNIX_EPOCH).await;
    assert_eq!(reply.status, 200);
    server.shutdown().await;
}

#[tokio::test]
async fn requests_signed_with_a_configured_key_are_served() {
    let server = verifying().await;
    let addr = server.local_addr();
    for key in [(KEY_ID, SECRET), ("AKIDOTHER", "other-secret")] {
        let reply = list_tables(addr, key, SystemTime::now()).await;
        assert_eq!(reply.status, 200, "{:?}", reply.json());
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_request_without_authorization_is_missing_a_token() {
    let server = verifying().await;
    let addr = server.local_addr();
    let reply = call(addr, "ListTables", json!({})).await;
    assert_eq!(
        refusal(&reply),
        (
            400,
            "MissingAuthenticationTokenException".into(),
            "Request is missing Authentication Token".into()
        )
    );
    assert_eq!(
        reply.json()["__type"],
        "com.amazon.coral.service#MissingAuthenticationTokenException"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn an_unknown_access_key_is_an_unrecognized_client() {
    let server = verifying().await;
    let addr = server.local_addr();
    let reply = list_tables(addr, ("AKIDUNKNOWN", SECRET), SystemTime::now()).await;
    assert_eq!(
        refusal(&reply),
        (
            400,
            "UnrecognizedClientException".into(),
            "The security token included in the request is invalid.".into()
        )
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_wrong_secret_or_an_altered_body_is_an_invalid_signature() {
    let server = verifying().await;
    let addr = server.local_addr();
    let wrong = list_tables(addr, (KEY_ID, "not the secret"), SystemTime::now()).await;
    let (status, code, message) = refusal(&wrong);
    assert_eq!((status, code.as_str()), (400, "InvalidSignatureException"));
    assert!(
        message.starts_with(
            "The request signature we calculated does not match the signature you provided. \
             Check your AWS Secret Access Key and signing method. Consult the service \
             documentation for details.\n\nThe Canonical String for this request should have \
             been\n'POST\n/\n\n"
        ),
        "{message}"
    );
    // Signed for one body, sent with another.
    let target = "DynamoDB_20120810.ListTables";
    let identity = Credentials::new(KEY_ID, SECRET, None, None, "test").into();
    let params = v4::SigningParams::builder()
        .identity(&identity)
        .region("eu-west-1")
        .name("dynamodb")
        .time(SystemTime::now())
        .settings(SigningSettings::default())
        .build()
        .unwrap()
        .into();
    let url = format!("http://{addr}/");
    let signable = SignableRequest::new(
        "POST",
        &url,
        [("x-amz-target", target)].into_iter(),
        SignableBody::Bytes(b"{}"),
    )
    .unwrap();
    let (instructions, _) = sign(signable, &params).unwrap().into_parts();
    let mut headers: Vec<(&str, &str)> = instructions.headers().collect();
    let host = addr.to_string();
    headers.extend([("x-amz-target", target), ("host", host.as_str())]);
    let altered = request(addr, "POST", "/", &headers, r#"{"Limit": 1}"#).await;
    assert_eq!(refusal(&altered).1, "InvalidSignatureException");
    server.shutdown().await;
}

#[tokio::test]
async fn an_expired_or_future_signature_is_refused() {
    let server = verifying().await;
    let addr = server.local_addr();
    let twenty_minutes = Duration::from_secs(20 * 60);
    let old = list_tables(addr, (KEY_ID, SECRET), SystemTime::now() - twenty_minutes).await;
    let (status, code, message) = refusal(&old);
    assert_eq!((status, code.as_str()), (400, "InvalidSignatureException"));
    assert!(message.starts_with("Signature expired: "), "{message}");
    assert!(message.ends_with(" - 15 min.)"), "{message}");
    let future = list_tables(addr, (KEY_ID, SECRET), SystemTime::now() + twenty_minutes).await;
    let (_, code, message) = refusal(&future);
    assert_eq!(code, "InvalidSignatureException");
    assert!(
        message.starts_with("Signature not yet current: "),
        "{message}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_compressed_body_is_verified_as_sent() {
    let server = verifying().await;
    let addr = server.local_addr();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(b"{\"Limit\": 5}").unwrap();
    let gzipped = encoder.finish().unwrap();
    let reply = signed_call(
        addr,
        "ListTables",
        &gzipped,
        &[("content-encoding", "gzip")],
        (KEY_ID, SECRET),
        "eu-west-1",
        SystemTime::now(),
    )
    .await;
    assert_eq!(reply.status, 200, "{:?}", reply.json());
    server.shutdown().await;
}

#[tokio::test]
async fn verifying_needs_an_access_key() {
    let refused = Server::builder()
        .verify_signatures()
        .bind("127.0.0.1:0", MemBackend::new())
        .await
        .unwrap_err();
    assert_eq!(refused.kind(), std::io::ErrorKind::InvalidInput);
    assert!(refused.to_string().contains("--access-key"), "{refused}");
}

#[tokio::test]
async fn the_aws_sdk_signs_what_the_server_verifies() {
    // `AwsBackend::local` signs with the key `dynomodel`/`dynomodel`, for us-east-1.
    let server = Server::builder()
        .access_key("dynomodel", "dynomodel")
        .verify_signatures()
        .bind("127.0.0.1:0", MemBackend::new())
        .await
        .unwrap();
    let backend = AwsBackend::local(server.url());
    let created = backend
        .create_table(dynomodel::backend::CreateTableInput {
            table_name: "signed".into(),
            attribute_definitions: vec![dynomodel::backend::AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: dynomodel::ScalarAttributeType::S,
            }],
            key_schema: vec![dynomodel::backend::KeySchemaElement::hash("pk")],
            billing_mode: Some(dynomodel::backend::BillingMode::PayPerRequest),
            stream_specification: Some(dynomodel::backend::StreamSpecification::enabled(
                dynomodel::backend::StreamViewType::KeysOnly,
            )),
            ..Default::default()
        })
        .await
        .unwrap();
    // The Streams API is signed (for the `dynamodb` service) and verified too.
    let described = backend
        .describe_stream(dynomodel::backend::DescribeStreamInput {
            stream_arn: created.table_description.latest_stream_arn.unwrap(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(described.stream_description.table_name, "signed");
    server.shutdown().await;

    // A server that knows another secret for that key refuses the SDK's requests.
    let server = Server::builder()
        .access_key("dynomodel", "another secret")
        .verify_signatures()
        .bind("127.0.0.1:0", MemBackend::new())
        .await
        .unwrap();
    let db = Db::new(AwsBackend::local(server.url()));
    let err = db
        .backend()
        .list_tables(dynomodel::backend::ListTablesInput::default())
        .await
        .unwrap_err();
    assert_eq!(err.code(), "InvalidSignatureException");
    server.shutdown().await;
}
