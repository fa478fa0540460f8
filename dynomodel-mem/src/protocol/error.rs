//! Error responses as DynamoDB sends them: HTTP 400 and `{"__type": "<namespace>#<Code>", "message": …}`.
//!
//! The namespace is the one DynamoDB puts there (dynalite records them): protocol errors come from the
//! Coral framework (`com.amazon.coral.service#SerializationException`, `…#UnknownOperationException`),
//! validation from its validator (`com.amazon.coral.validate#ValidationException`), everything else from
//! the DynamoDB model (`com.amazonaws.dynamodb.v20120810#ResourceNotFoundException`). SDKs keep only the
//! part after `#`. A type error's message is under `Message` (capitalised, as DynamoDB sends it; SDKs read
//! both spellings), as is that of the three transaction errors whose model spells it so
//! (`TransactionCanceledException`, `IdempotentParameterMismatchException`,
//! `TransactionInProgressException`); a malformed body's and an unknown target's errors carry no message
//! at all. Every error a request can cause is HTTP 400, including the transaction ones
//! (`TransactionConflictException`, `ItemCollectionSizeLimitExceededException`, …).

use dynomodel::{CancellationReason, Error};
use serde_json::{json, Map, Value};

use super::value::item_to_json;
use super::Fault;

const CORAL: &str = "com.amazon.coral.service#";
const VALIDATE: &str = "com.amazon.coral.validate#";
const DYNAMODB: &str = "com.amazonaws.dynamodb.v20120810#";

/// The HTTP status and JSON body for a fault.
pub fn error_response(fault: &Fault) -> (u16, Value) {
    match fault {
        Fault::Serialization(None) => (
            400,
            json!({ "__type": format!("{CORAL}SerializationException") }),
        ),
        Fault::Serialization(Some(message)) => (
            400,
            json!({ "__type": format!("{CORAL}SerializationException"), "Message": message }),
        ),
        Fault::UnknownOperation => (
            400,
            json!({ "__type": format!("{CORAL}UnknownOperationException") }),
        ),
        Fault::Backend(e) => backend_error(e),
    }
}

/// The HTTP status and encoded body for a fault: [`error_response`]'s, encoded. A `ValidationException`,
/// the answer to most refused requests, is written straight from its message: an over-long list's
/// message echoes every entry (megabytes), which the `Value` would copy, and its encoding grow as it
/// escapes it.
#[cfg(feature = "server")]
pub(crate) fn error_body(fault: &Fault) -> (u16, Vec<u8>) {
    if let Fault::Backend(Error::Validation { message }) = fault {
        const HEAD: &str = concat!(
            r#"{"__type":"com.amazon.coral.validate#ValidationException","#,
            r#""message":"#
        );
        // Room for the quotes and a few escapes; a message of many escapes grows the body.
        let mut body = Vec::with_capacity(HEAD.len() + message.len() + 16);
        body.extend_from_slice(HEAD.as_bytes());
        if serde_json::to_writer(&mut body, message.as_str()).is_ok() {
            body.push(b'}');
            return (400, body);
        }
    }
    let (status, value) = error_response(fault);
    // Serialising a `Value` cannot fail (its keys are strings); "{}" keeps the response well-formed.
    let body = serde_json::to_vec(&value).unwrap_or_else(|_| b"{}".to_vec());
    (status, body)
}

fn backend_error(e: &Error) -> (u16, Value) {
    let code = e.code();
    let namespace = match code {
        "ValidationException" => VALIDATE,
        // IAM's refusal is the framework's, not DynamoDB's model's.
        "UnknownOperationException" | "SerializationException" | "AccessDeniedException" => CORAL,
        _ => DYNAMODB,
    };
    let mut body = Map::new();
    body.insert("__type".into(), Value::String(format!("{namespace}{code}")));
    body.insert(message_member(code).into(), Value::String(e.message()));
    let status = match e {
        Error::ConditionalCheckFailed {
            item: Some(item), ..
        } => {
            body.insert("Item".into(), item_to_json(item));
            400
        }
        Error::TransactionCanceled { reasons, .. } => {
            body.insert(
                "CancellationReasons".into(),
                Value::Array(reasons.iter().map(reason).collect()),
            );
            400
        }
        // Not something a request can cause on the engine: a backend that lost its connection (an
        // `AwsBackend` behind the server) or failed to convert a value (`one()`'s errors come from the
        // mapper, never from a backend). DynamoDB's answer for "our fault" is a 500 InternalServerError,
        // and that is what a client should retry.
        Error::Transport(_) | Error::Conversion(_) | Error::NoResult | Error::MoreThanOneResult => {
            body.insert(
                "__type".into(),
                Value::String(format!("{DYNAMODB}InternalServerError")),
            );
            500
        }
        // An `InternalServerError` a backend answers (the engine's fault injection): DynamoDB's
        // status for it, which SDKs treat as retryable.
        Error::Service { code, .. } if code == "InternalServerError" => 500,
        // A durable engine whose data directory cannot be written refuses writes so: DynamoDB's
        // "currently unavailable (this should be a temporary state)", which SDKs retry.
        Error::Service { code, .. } if code == "ServiceUnavailable" => 503,
        _ => 400,
    };
    (status, Value::Object(body))
}

/// The member that carries an error's message: `Message` for the three errors whose model shape spells
/// it so (botocore's `service-2.json`: `TransactionCanceledException`,
/// `IdempotentParameterMismatchException`, `TransactionInProgressException`; a cancelled transaction's
/// body is recorded with `"Message"` in aws-sdk-net issue 1292 and erlcloud PR 607), `message` for the
/// others. SDKs read either, but a client that parses the body itself sees the difference.
fn message_member(code: &str) -> &'static str {
    match code {
        "TransactionCanceledException"
        | "IdempotentParameterMismatchException"
        | "TransactionInProgressException" => "Message",
        _ => "message",
    }
}

/// One entry of `CancellationReasons`: `Code`, then `Message` and `Item` only when there are any. A
/// `None` reason is exactly `{"Code": "None"}`, with no `"Message": null` (the service's body in
/// erlcloud PR 607 and aws-sdk-net issue 1292; DynamoDB Local 3.3.1 sends the same).
fn reason(r: &CancellationReason) -> Value {
    let mut out = Map::new();
    out.insert("Code".into(), Value::String(r.code.as_str().to_owned()));
    if let Some(message) = &r.message {
        out.insert("Message".into(), Value::String(message.clone()));
    }
    if let Some(item) = &r.item {
        out.insert("Item".into(), item_to_json(item));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use dynomodel::{AttributeValue, Item};

    #[test]
    fn shapes() {
        assert_eq!(
            error_response(&Fault::Serialization(None)),
            (
                400,
                json!({"__type": "com.amazon.coral.service#SerializationException"})
            )
        );
        assert_eq!(
            error_response(&Fault::Backend(Error::validation("bad"))),
            (
                400,
                json!({"__type": "com.amazon.coral.validate#ValidationException", "message": "bad"})
            )
        );
        let item: Item = [("pk".to_owned(), AttributeValue::S("a".into()))].into();
        let e = Error::ConditionalCheckFailed {
            message: "The conditional request failed".into(),
            item: Some(item),
        };
        assert_eq!(
            error_response(&Fault::Backend(e)).1,
            json!({
                "__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                "message": "The conditional request failed",
                "Item": {"pk": {"S": "a"}}
            })
        );
        let e = Error::TransactionCanceled {
            message: "Transaction cancelled".into(),
            reasons: vec![CancellationReason::none()],
        };
        assert_eq!(
            error_response(&Fault::Backend(e)).1["CancellationReasons"],
            json!([{"Code": "None"}])
        );
    }

    #[cfg(feature = "server")]
    #[test]
    fn validation_bodies_are_the_values_encoded() {
        let long = format!(
            "1 validation error detected: Value '[{}]'",
            "x, ".repeat(10_000)
        );
        for message in [
            "bad",
            "",
            "quote \" and \\ and \n\u{1} and é",
            long.as_str(),
        ] {
            let fault = Fault::Backend(Error::validation(message));
            let (status, value) = error_response(&fault);
            assert_eq!(
                error_body(&fault),
                (status, serde_json::to_vec(&value).unwrap())
            );
        }
        let fault = Fault::Serialization(Some("x".into()));
        let (status, value) = error_response(&fault);
        assert_eq!(
            error_body(&fault),
            (status, serde_json::to_vec(&value).unwrap())
        );
    }

    #[test]
    fn cancelled_transaction_as_dynamodb_sends_it() {
        let item: Item = [("pk".to_owned(), AttributeValue::S("a".into()))].into();
        let e = Error::TransactionCanceled {
            message: "Transaction cancelled, please refer cancellation reasons for specific \
                      reasons [None, ConditionalCheckFailed, ConditionalCheckFailed, ValidationError]"
                .into(),
            reasons: vec![
                CancellationReason::none(),
                CancellationReason::new("ConditionalCheckFailed", "The conditional request failed")
                    .with_item(Some(item)),
                // ALL_OLD on an item that does not exist: no `Item` member at all.
                CancellationReason::new("ConditionalCheckFailed", "The conditional request failed")
                    .with_item(None),
                CancellationReason::new("ValidationError", "Item size has exceeded the maximum allowed size"),
            ],
        };
        assert_eq!(
            error_response(&Fault::Backend(e)),
            (
                400,
                json!({
                    "__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
                    "Message": "Transaction cancelled, please refer cancellation reasons for \
                                specific reasons [None, ConditionalCheckFailed, \
                                ConditionalCheckFailed, ValidationError]",
                    "CancellationReasons": [
                        {"Code": "None"},
                        {"Code": "ConditionalCheckFailed",
                         "Message": "The conditional request failed",
                         "Item": {"pk": {"S": "a"}}},
                        {"Code": "ConditionalCheckFailed",
                         "Message": "The conditional request failed"},
                        {"Code": "ValidationError",
                         "Message": "Item size has exceeded the maximum allowed size"}
                    ]
                })
            )
        );
    }

    #[test]
    fn transaction_errors_namespace_status_and_message_member() {
        for (code, member) in [
            ("IdempotentParameterMismatchException", "Message"),
            ("TransactionInProgressException", "Message"),
            ("TransactionConflictException", "message"),
            ("ItemCollectionSizeLimitExceededException", "message"),
        ] {
            let e = Error::Service {
                code: code.into(),
                message: "why".into(),
            };
            let mut expected = Map::new();
            expected.insert(
                "__type".into(),
                json!(format!("com.amazonaws.dynamodb.v20120810#{code}")),
            );
            expected.insert(member.into(), json!("why"));
            assert_eq!(
                error_response(&Fault::Backend(e)),
                (400, Value::Object(expected)),
                "{code}"
            );
        }
    }
}
