//! The typed pages read from the body, against the SDK's path: every case runs through a hooked
//! backend and through one over the same client without the hook (what `AwsBackend` was before),
//! on canned HTTP responses, and the two must answer alike.
#![allow(clippy::unwrap_used)]

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};

use aws_credential_types::provider::{self, ProvideCredentials};
use aws_sdk_dynamodb::config::Credentials;
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::http::StatusCode;

use super::*;
use crate::aws::canned::Canned;
use crate::aws::AwsBackend;
use crate::backend::{Backend, ItemSink, QueryInput, QueryOutput, ScanInput};
use crate::error::Result;
use crate::value::{AttributeValue, Item};
use crate::{Db, Model};

mod get;
mod put;

/// The backend as it is (hooked) and as it was (the same client, no hook), each on its own
/// canned responses.
fn backends(responses: &[(u16, &str)]) -> [(AwsBackend, Canned); 2] {
    let hooked = Canned::new(responses);
    let plain = Canned::new(responses);
    [
        (AwsBackend::new(hooked.client(3)), hooked),
        (AwsBackend::new(plain.client(3)).with_sdk_item_maps(), plain),
    ]
}

/// Collects what a typed read hands over.
#[derive(Debug, Default, PartialEq)]
struct Collect(Vec<Item>);

impl ItemSink for Collect {
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        self.0
            .push(attributes.map(|(k, v)| (k.into_owned(), v)).collect());
    }
}

fn query_input() -> QueryInput {
    QueryInput {
        table_name: "t".into(),
        key_condition_expression: Some("pk = :pk".into()),
        ..Default::default()
    }
}

/// A typed Query of `responses` through both backends: what each answered, what its sink got,
/// and the requests it sent.
async fn typed_query(responses: &[(u16, &str)]) -> [(Result<QueryOutput>, Collect, usize); 2] {
    let mut answers = Vec::new();
    for (backend, canned) in backends(responses) {
        let mut sink = Collect::default();
        let out = backend.query_into(query_input(), &mut sink).await;
        answers.push((out, sink, canned.sent()));
    }
    answers.try_into().unwrap()
}

/// Both backends' typed Query of `body`, which must answer alike; the hooked one's answer.
async fn alike(responses: &[(u16, &str)]) -> (Result<QueryOutput>, Collect) {
    let [hooked, plain] = typed_query(responses).await;
    assert_eq!(hooked.0, plain.0);
    assert_eq!(hooked.1, plain.1);
    assert_eq!(hooked.2, plain.2, "the same requests sent");
    (hooked.0, hooked.1)
}

const PAGE: &str = r#"{"Count":2,"Items":[{"pk":{"S":"a"},"sk":{"N":"1"},"ok":{"BOOL":true},"tags":{"SS":["x","y"]},"l":{"L":[{"N":"2.5"},{"NULL":true}]},"m":{"M":{"in":{"S":"é\u00e9"}}}},{"pk":{"S":"a"},"sk":{"N":"2"}}],"ScannedCount":3,"LastEvaluatedKey":{"pk":{"S":"a"},"sk":{"N":"2"}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":1.5}}"#;

#[tokio::test]
async fn a_page_read_from_the_body_is_the_sdks_page_with_every_other_field() {
    let (out, sink) = alike(&[(200, PAGE)]).await;
    let out = out.unwrap();
    assert_eq!(sink.0.len(), 2);
    assert_eq!(
        sink.0[0]["tags"],
        AttributeValue::Ss(vec!["x".into(), "y".into()])
    );
    assert_eq!(sink.0[1].len(), 2);
    assert_eq!(out.items, None, "a typed page's items went to the sink");
    assert_eq!((out.count, out.scanned_count), (2, 3));
    assert_eq!(
        out.last_evaluated_key.unwrap()["sk"],
        AttributeValue::N(2.into())
    );
    assert_eq!(out.consumed_capacity.unwrap().capacity_units, Some(1.5));
    // And the untyped read of the hooked client still gets the SDK's items.
    let [(hooked, _), (plain, _)] = backends(&[(200, PAGE)]);
    let untyped = hooked.query(query_input()).await.unwrap();
    assert_eq!(untyped, plain.query(query_input()).await.unwrap());
    assert_eq!(untyped.items.unwrap().len(), 2);
}

#[tokio::test]
async fn the_wrapped_deserializer_reads_the_items_and_gives_the_sdk_the_rest() {
    let slot = PageSlot::default();
    let (inner, member) = sdk_deserializer("Query").unwrap();
    assert_eq!(member, Member::Items);
    let wrapper = PageDeserializer {
        inner,
        member,
        slot: Arc::clone(&slot),
    };
    let mut response = HttpResponse::new(StatusCode::try_from(200).unwrap(), SdkBody::from(PAGE));
    response.headers_mut().insert("x-amzn-requestid", "r-1");
    let cfg = ConfigBag::base();
    let output = wrapper.deserialize_nonstreaming_with_config(&response, &cfg);
    let output = output.ok().unwrap();
    let output = output
        .downcast::<aws_sdk_dynamodb::operation::query::QueryOutput>()
        .unwrap();
    assert_eq!(
        output.items,
        Some(vec![]),
        "the SDK was given `\"Items\":[]`"
    );
    assert_eq!((output.count, output.scanned_count), (2, 3));
    assert!(output.last_evaluated_key.is_some());
    use aws_sdk_dynamodb::operation::RequestId;
    assert_eq!(output.request_id(), Some("r-1"), "the headers went with it");
    let page = take_page(&slot).unwrap();
    assert_eq!(page.lengths, [6, 2]);
    assert_eq!(&PAGE.as_bytes()[page.items.clone()][..2], b"[{");
    // A response the reader does not read (here, not a 200) leaves no page, even over an
    // earlier attempt's.
    *slot.lock().unwrap() = read_items(PAGE.as_bytes());
    let response = HttpResponse::new(StatusCode::try_from(201).unwrap(), SdkBody::from(PAGE));
    let output = wrapper.deserialize_nonstreaming_with_config(&response, &cfg);
    assert!(output.is_ok());
    assert!(take_page(&slot).is_none());
    assert_eq!(sdk_deserializer("PutItem").map(|_| ()), None);
    assert_eq!(
        sdk_deserializer("Scan").map(|(_, member)| member),
        Some(Member::Items)
    );
}

#[tokio::test]
async fn a_body_the_reader_refuses_answers_as_the_sdk_did() {
    // A type this SDK version does not know: the SDK reads it as `Unknown`, which the
    // conversion refuses, naming the attribute.
    let unknown = r#"{"Count":1,"Items":[{"pk":{"S":"a"},"odd":{"X":"1"}}],"ScannedCount":1}"#;
    let (out, sink) = alike(&[(200, unknown)]).await;
    let err = out.unwrap_err().to_string();
    assert!(err.contains("odd") && err.contains("unknown"), "{err}");
    assert!(sink.0.is_empty());
    // Bad base64: the SDK refuses the body.
    let bad = r#"{"Count":1,"Items":[{"pk":{"S":"a"},"b":{"B":"!!!"}}],"ScannedCount":1}"#;
    let (out, _) = alike(&[(200, bad)]).await;
    assert!(out.is_err());
    // A number the conversion refuses, with its text.
    let nan = r#"{"Count":1,"Items":[{"pk":{"S":"a"},"n":{"N":"NaN"}}],"ScannedCount":1}"#;
    let (out, _) = alike(&[(200, nan)]).await;
    let err = out.unwrap_err().to_string();
    assert!(err.contains("NaN") && err.contains('n'), "{err}");
}

#[tokio::test]
async fn an_error_response_is_the_sdks_error() {
    let refused = r#"{"__type":"com.amazon.coral.validate#ValidationException","message":"Query condition missed key schema element: pk"}"#;
    let (out, sink) = alike(&[(400, refused)]).await;
    assert_eq!(
        out.unwrap_err().to_string(),
        "ValidationException: Query condition missed key schema element: pk"
    );
    assert!(sink.0.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_retried_page_is_handed_over_once() {
    let failed =
        r#"{"__type":"com.amazon.coral.service#InternalServerError","message":"try again"}"#;
    let [hooked, plain] = typed_query(&[(500, failed), (200, PAGE)]).await;
    assert_eq!(hooked.0, plain.0);
    assert_eq!(hooked.1, plain.1);
    assert_eq!((hooked.2, plain.2), (2, 2), "one retry each");
    assert_eq!(hooked.1 .0.len(), 2, "the page's two items, once");
    // Items the reader reads in a body whose other members the SDK refuses: the SDK's error,
    // and nothing handed over.
    let refused = PAGE.replace(r#""Count":2"#, r#""Count":"two""#);
    let (out, sink) = alike(&[(200, &refused)]).await;
    assert!(out.is_err());
    assert!(sink.0.is_empty());
    // After the items, too: the same error, its byte offset in the body as it came.
    let refused = PAGE.replace(r#""ScannedCount":3"#, r#""ScannedCount":"three""#);
    let (out, sink) = alike(&[(200, &refused)]).await;
    let err = format!("{:?}", out.unwrap_err());
    assert!(err.contains("offset"), "{err}");
    assert!(sink.0.is_empty());
}

#[tokio::test]
async fn a_count_only_page_has_no_items() {
    let count = r#"{"Count":4,"ScannedCount":9}"#;
    let (out, sink) = alike(&[(200, count)]).await;
    let out = out.unwrap();
    assert_eq!((out.items, out.count, out.scanned_count), (None, 4, 9));
    assert!(sink.0.is_empty());
    // An empty page is still a page.
    let empty = r#"{"Count":0,"Items":[],"ScannedCount":9}"#;
    let (out, sink) = alike(&[(200, empty)]).await;
    assert_eq!(out.unwrap().scanned_count, 9);
    assert!(sink.0.is_empty());
}

#[tokio::test]
async fn a_typed_scan_reads_its_page_from_the_body_too() {
    let mut answers = Vec::new();
    for (backend, _) in backends(&[(200, PAGE)]) {
        let mut sink = Collect::default();
        let input = ScanInput {
            table_name: "t".into(),
            ..Default::default()
        };
        let out = backend.scan_into(input, &mut sink).await.unwrap();
        answers.push((out, sink));
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0].1 .0.len(), 2);
}

#[tokio::test]
async fn no_request_is_left_armed() {
    let [(hooked, _), _] = backends(&[(200, PAGE)]);
    let mut sink = Collect::default();
    hooked.query_into(query_input(), &mut sink).await.unwrap();
    assert!(ARMED.with(|armed| armed.borrow().is_none()));
    // A future dropped before it completes leaves nothing armed either.
    let mut sink = Collect::default();
    let future = hooked.query_into(query_input(), &mut sink);
    drop(future);
    assert!(ARMED.with(|armed| armed.borrow().is_none()));
    // A client hooked twice reads the page once and hands it over whole.
    let mut twice = hooked.clone();
    twice.sender = super::hooked(&hooked.sender);
    let mut sink = Collect::default();
    twice.query_into(query_input(), &mut sink).await.unwrap();
    assert_eq!(sink.0.len(), 2);
    assert_eq!(sink.0[0].len(), 6);
}

#[tokio::test]
async fn client_is_the_client_as_given() {
    let [(hooked, canned), _] = backends(&[(200, PAGE)]);
    // The client the application gave is the one `client()` returns, without the hook; the
    // backend's requests go through its hooked copy.
    let untyped = hooked
        .client()
        .query()
        .table_name("t")
        .send()
        .await
        .unwrap();
    assert_eq!(untyped.items.unwrap().len(), 2);
    let mut sink = Collect::default();
    hooked.query_into(query_input(), &mut sink).await.unwrap();
    assert_eq!(sink.0.len(), 2);
    // Both copies send through the application's HTTP client.
    assert_eq!(canned.sent(), 2);
}

/// Credentials that count how often they are resolved.
#[derive(Debug)]
struct Counted(Arc<AtomicUsize>);

impl ProvideCredentials for Counted {
    fn provide_credentials<'a>(&'a self) -> provider::future::ProvideCredentials<'a>
    where
        Self: 'a,
    {
        self.0.fetch_add(1, Ordering::SeqCst);
        let credentials = Credentials::new("k", "s", None, None, "counted");
        provider::future::ProvideCredentials::ready(Ok(credentials))
    }
}

#[tokio::test]
async fn every_request_goes_through_one_client() {
    // A client whose configuration names no identity cache (nor HTTP client): the SDK builds one
    // for each client, so two clients resolve the credentials twice (and keep two pools).
    let canned = Canned::new(&[(200, PAGE)]);
    let resolved = Arc::new(AtomicUsize::new(0));
    let config = canned
        .config(1)
        .credentials_provider(Counted(Arc::clone(&resolved)));
    let backend = AwsBackend::new(Client::from_conf(config.build()));
    let untyped = backend.query(query_input()).await.unwrap();
    assert_eq!(untyped.items.map(|items| items.len()), Some(2));
    let mut sink = Collect::default();
    backend.query_into(query_input(), &mut sink).await.unwrap();
    assert_eq!(sink.0.len(), 2);
    assert_eq!(canned.sent(), 2);
    assert_eq!(
        resolved.load(Ordering::SeqCst),
        1,
        "one identity cache for every request"
    );
}

/// The model of the `Db` cases.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "rows")]
struct Row {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: i64,
    n: i64,
    tags: BTreeSet<String>,
}

fn row_item(sk: i64, n: &str) -> String {
    format!(r#"{{"pk":{{"S":"a"}},"sk":{{"N":"{sk}"}},"n":{{"N":"{n}"}},"tags":{{"SS":["t"]}}}}"#)
}

fn dbs(responses: &[(u16, &str)]) -> [(Db, Canned); 2] {
    backends(responses).map(|(backend, canned)| (Db::new(backend), canned))
}

#[tokio::test]
async fn a_decoding_failure_names_table_key_and_attribute() {
    let body = format!(
        r#"{{"Count":2,"Items":[{},{}],"ScannedCount":2}}"#,
        row_item(1, "1"),
        row_item(2, "2.5")
    );
    let mut errors = Vec::new();
    for (db, _) in dbs(&[(200, &body)]) {
        errors.push(db.query::<Row>("a").all().await.unwrap_err().to_string());
    }
    assert_eq!(errors[0], errors[1]);
    for part in ["rows", "sk", "2", "n", "2.5"] {
        assert!(errors[0].contains(part), "{part}: {}", errors[0]);
    }
    // Lenient, the good item decodes and the bad one is reported.
    let mut lenient = Vec::new();
    for (db, _) in dbs(&[(200, &body)]) {
        let decoded = db.query::<Row>("a").lenient().all().await.unwrap();
        lenient.push(format!("{decoded:?}"));
    }
    assert_eq!(lenient[0], lenient[1]);
    assert!(lenient[0].contains("2.5"), "{}", lenient[0]);
}

#[tokio::test]
async fn all_reads_every_page_from_the_body() {
    let first = format!(
        r#"{{"Count":2,"Items":[{},{}],"ScannedCount":2,"LastEvaluatedKey":{{"pk":{{"S":"a"}},"sk":{{"N":"2"}}}}}}"#,
        row_item(1, "10"),
        row_item(2, "20")
    );
    let last = format!(
        r#"{{"Count":1,"Items":[{}],"ScannedCount":1}}"#,
        row_item(3, "30")
    );
    let mut rows = Vec::new();
    for (db, canned) in dbs(&[(200, &first), (200, &last)]) {
        rows.push(db.query::<Row>("a").all().await.unwrap());
        assert_eq!(canned.sent(), 2, "two pages");
    }
    assert_eq!(rows[0], rows[1]);
    let n: Vec<i64> = rows[0].iter().map(|row| row.n).collect();
    assert_eq!(n, [10, 20, 30]);
    // Streamed, the same rows.
    use futures::StreamExt;
    let (db, _) = dbs(&[(200, &first), (200, &last)])
        .into_iter()
        .next()
        .unwrap();
    let streamed: Vec<Row> = db
        .query::<Row>("a")
        .stream()
        .map(|row| row.unwrap())
        .collect()
        .await;
    assert_eq!(streamed, rows[0]);
}

#[test]
fn a_hooked_client_keeps_its_configuration() {
    let canned = Canned::new(&[(200, PAGE)]);
    let plain = canned.client(3);
    let hooked = hooked(&plain);
    assert_eq!(hooked.config().region(), plain.config().region());
    assert_eq!(
        hooked.config().retry_config().map(|r| r.max_attempts()),
        Some(3)
    );
    assert!(hooked.config().http_client().is_some());
}
