//! The mapper's PutItem, its item written into the request's body, against the SDK's map: both
//! backends must send the same JSON and answer alike.

use crate::aws::canned::Sent;
use crate::aws::item::tests::Failing;
use crate::aws::request_body::NOT_FOUND;
use crate::aws::value::tests::every_type;
use crate::backend::{AttributeSink, AttributeWriter, PutItemInput, PutItemOutput};
use crate::error::ConversionError;

use super::*;

fn put_input() -> PutItemInput {
    PutItemInput {
        table_name: "t".into(),
        ..Default::default()
    }
}

/// A request's body as JSON, its `Content-Length` checked against it.
fn json(sent: &Sent) -> serde_json::Value {
    assert_eq!(sent.content_length, Some(sent.body.len().to_string()));
    serde_json::from_slice(&sent.body).unwrap()
}

/// `put_item_from` of `writer` through both backends, which must answer alike and send the same
/// JSON: the hooked one's answer and requests.
async fn alike_put(
    responses: &[(u16, &str)],
    writer: &dyn AttributeWriter,
) -> (Result<PutItemOutput>, Vec<Sent>) {
    let mut answers = Vec::new();
    for (backend, canned) in backends(responses) {
        let out = backend.put_item_from(put_input(), writer).await;
        answers.push((out, canned.requests()));
    }
    let [hooked, plain]: [_; 2] = answers.try_into().unwrap();
    assert_eq!(hooked.0, plain.0);
    assert_eq!(hooked.1.len(), plain.1.len(), "the same requests sent");
    for (ours, sdks) in hooked.1.iter().zip(&plain.1) {
        assert_eq!(json(ours), json(sdks));
    }
    hooked
}

#[tokio::test]
async fn a_put_sends_its_item_as_the_sdk_sends_the_map() {
    let (out, sent) = alike_put(&[(200, "{}")], &every_type()).await;
    assert!(out.is_ok());
    assert_eq!(sent.len(), 1);
    let body = json(&sent[0]);
    assert_eq!(body["Item"]["pk"]["S"], "a\"\\\n\u{1}é😀");
    assert_eq!(body["Item"].as_object().unwrap().len(), every_type().len());
    // The returned attributes of a put still come from the SDK.
    let old = r#"{"Attributes":{"pk":{"S":"a"},"n":{"N":"2"}}}"#;
    let (out, _) = alike_put(&[(200, old)], &every_type()).await;
    assert_eq!(out.unwrap().attributes.unwrap().len(), 2);
}

#[tokio::test]
async fn a_models_put_through_the_db_sends_its_item_as_the_sdk_sends_the_map() {
    let row = Row {
        pk: "a".into(),
        sk: 3,
        n: -4,
        tags: ["t".to_owned(), "u\"".to_owned()].into(),
    };
    let mut bodies = Vec::new();
    for (db, canned) in dbs(&[(200, "{}")]) {
        db.put(&row).await.unwrap();
        bodies.push(json(&canned.requests()[0]));
    }
    assert_eq!(bodies[0], bodies[1]);
    assert_eq!(bodies[0]["TableName"], "rows");
    assert_eq!(bodies[0]["Item"]["tags"]["SS"][1], "u\"");
}

#[tokio::test]
async fn a_put_error_response_is_the_sdks_error() {
    let failed = r#"{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed"}"#;
    let (out, sent) = alike_put(&[(400, failed)], &every_type()).await;
    assert!(
        matches!(out, Err(crate::Error::ConditionalCheckFailed { .. })),
        "{out:?}"
    );
    assert_eq!(sent.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_retried_put_sends_its_whole_item_each_time() {
    let failed =
        r#"{"__type":"com.amazon.coral.service#InternalServerError","message":"try again"}"#;
    let (out, sent) = alike_put(&[(500, failed), (200, "{}")], &every_type()).await;
    assert!(out.is_ok());
    assert_eq!(sent.len(), 2, "one retry");
    assert_eq!(sent[0].body, sent[1].body);
}

/// Writes the names given, each with the value `N` of its place.
struct Names(&'static [&'static str]);

impl AttributeWriter for Names {
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        for (i, name) in self.0.iter().enumerate() {
            sink.insert_static(name, AttributeValue::N(i.into()));
        }
        Ok(())
    }
}

#[tokio::test]
async fn a_name_written_twice_keeps_its_last_value_as_the_sdks_map_does() {
    let (out, sent) = alike_put(&[(200, "{}")], &Names(&["pk", "n", "pk"])).await;
    assert!(out.is_ok());
    let body = json(&sent[0]);
    assert_eq!(body["Item"]["pk"]["N"], "2");
    assert_eq!(body["Item"].as_object().unwrap().len(), 2);
}

#[tokio::test]
async fn an_item_that_cannot_be_written_is_not_sent() {
    for (backend, canned) in backends(&[(200, "{}")]) {
        let err = backend.put_item_from(put_input(), &Failing).await;
        let expected: crate::Error = Failing::error().into();
        assert_eq!(err.unwrap_err().to_string(), expected.to_string());
        assert_eq!(canned.sent(), 0);
    }
}

/// The error of a put of a backend that writes JSON over a client without the hook, answered
/// `response`, and the item its request went out with.
async fn put_unhooked(response: (u16, &str)) -> (String, serde_json::Value) {
    let canned = Canned::new(&[response]);
    let backend = AwsBackend {
        sender: canned.client(1),
        ..AwsBackend::new(canned.client(1))
    };
    let err = backend
        .put_item_from(put_input(), &every_type())
        .await
        .unwrap_err();
    (err.to_string(), json(&canned.requests()[0])["Item"].clone())
}

#[tokio::test]
async fn an_item_that_missed_the_body_fails_and_says_so() {
    // The request goes out with the empty item the SDK was given, and whatever comes back, the
    // put fails saying so.
    let (err, sent) = put_unhooked((200, "{}")).await;
    assert!(
        err.contains("the PutItem request's Item was not put into the request's body"),
        "{err}"
    );
    assert_eq!(sent, serde_json::json!({}));
    // The service's answer to such a request is part of the error.
    let refused = r#"{"__type":"com.amazon.coral.validate#ValidationException","message":"One or more parameter values were invalid: Missing the key pk in the item"}"#;
    let (err, _) = put_unhooked((400, refused)).await;
    assert!(err.contains("nothing was written"), "{err}");
    assert!(err.contains("Missing the key pk in the item"), "{err}");
    // The hook's own refusal reads as what it is.
    assert!(NOT_FOUND.contains("the request was not sent"));
}

#[tokio::test]
async fn a_client_hooked_twice_writes_the_item_once() {
    let [(hooked, canned), _] = backends(&[(200, "{}")]);
    let mut twice = hooked.clone();
    twice.sender = super::super::hooked(&hooked.sender);
    twice
        .put_item_from(put_input(), &every_type())
        .await
        .unwrap();
    let body = json(&canned.requests()[0]);
    assert_eq!(body["Item"].as_object().unwrap().len(), every_type().len());
    assert!(ARMED.with(|armed| armed.borrow().is_none()));
}
