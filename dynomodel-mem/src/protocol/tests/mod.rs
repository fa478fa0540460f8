//! Request-level tests of the wire layer: each body goes through [`call`](super::call), as the server
//! hands it over, to a [`fake::Fake`] backend that records the typed request and answers what it is
//! told, so that decoding, encoding and the order of errors are tested apart from the engine (the
//! multi-item operations, CreateTable's nested paths, UpdateTable, TTL, tags and the account
//! operations).
//!
//! The unit tests of attribute values (`value.rs`) and of error bodies (`error.rs`) stay beside their
//! code; these need the fake backend and are long enough to deserve files of their own.

#![allow(clippy::unwrap_used)]

// The one pass off for the exact path's answers needs the server's fuzzing entry points.
#[cfg(feature = "server")]
mod apply;
mod backups;
mod batch;
mod capacity;
mod direct;
mod entry_points;
mod fake;
mod legacy;
mod lifecycle;
// The one pass off for the exact path's answers needs the server's fuzzing entry points.
#[cfg(feature = "server")]
mod map_cap;
// The one pass off for the exact path's answers needs the server's fuzzing entry points.
#[cfg(feature = "server")]
mod moved;
mod oracle;
mod overlong;
// The one pass off for the exact path's answers needs the server's fuzzing entry points.
#[cfg(feature = "server")]
mod parameters;
// The one pass off for the exact path's answers needs the server's fuzzing entry points.
#[cfg(feature = "server")]
mod oversized;
// The one pass off for the exact path's answers needs the server's fuzzing entry points.
#[cfg(feature = "server")]
mod refused;
#[cfg(feature = "server")]
mod reserved;
mod streams;
// The one pass off for the exact path's answers needs the server's fuzzing entry points.
#[cfg(feature = "server")]
mod substitution_cap;
mod table;
mod transact;
// The one pass off for the exact path's answers needs the server's fuzzing entry points.
#[cfg(feature = "server")]
mod unused;
mod update_table;
// The one pass off for the exact path's answers needs the server's fuzzing entry points.
#[cfg(feature = "server")]
mod whole_lists;

use dynomodel::{AttributeValue, Item};

/// Runs `future` to its end on a runtime of its own (the tests that call the engine through the wire).
fn run<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

/// [`respond_to`]'s answer as text: the response's body, a backend error's message, or the fault.
#[cfg(feature = "server")]
fn answer_text(backend: &crate::MemBackend, operation: &str, body: &str) -> String {
    match respond_to(backend, operation, body) {
        Ok(bytes) => String::from_utf8(bytes).unwrap(),
        Err(crate::protocol::Fault::Backend(e)) => e.to_string(),
        Err(other) => format!("{other:?}"),
    }
}

/// A backend with a table `tbl` keyed by `pk` (S) and an index `gsi` on `gk` (S): the updates of a
/// set ADD keep their paths (the ADD tests' table).
#[cfg(feature = "server")]
fn table_with_index() -> crate::MemBackend {
    let backend = crate::MemBackend::new();
    let create = r#"{"TableName": "tbl",
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "gk", "AttributeType": "S"}],
        "GlobalSecondaryIndexes": [{"IndexName": "gsi",
            "KeySchema": [{"AttributeName": "gk", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}],
        "BillingMode": "PAY_PER_REQUEST"}"#;
    let created = answer_text(&backend, "CreateTable", create);
    assert!(created.contains("TableDescription"), "{created}");
    backend
}

/// The answer to `body` for `operation` on a fresh table `tbl` (hash key `pk`, S) holding the item
/// `a`: "ok" for a success, else the message, held to the exact path's answer (the one pass off).
/// The caps' tests ask this of every request.
#[cfg(feature = "server")]
fn held_answer(operation: &str, body: &str) -> String {
    let backend = || {
        let backend = crate::MemBackend::new();
        let create = r#"{"TableName": "tbl", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST"}"#;
        let put = r#"{"TableName": "tbl", "Item": {"pk": {"S": "a"}}}"#;
        for (operation, body) in [("CreateTable", create), ("PutItem", put)] {
            respond_to(&backend, operation, body).unwrap();
        }
        backend
    };
    let call = || respond_to(&backend(), operation, body);
    let context = format!("{operation}: {}", &body[body.len().saturating_sub(300)..]);
    match crate::protocol::fast::oracle::held_to_exact(call, &context) {
        Ok(_) => "ok".to_owned(),
        Err(crate::protocol::Fault::Backend(e)) => e.message(),
        Err(other) => format!("{other:?}"),
    }
}

/// Set elements as JSON strings, comma-separated (the ADD tests' operands).
#[cfg(feature = "server")]
fn quoted(elements: &[String]) -> String {
    elements
        .iter()
        .map(|e| format!("\"{e}\""))
        .collect::<Vec<_>>()
        .join(",")
}

/// The wire's answer to `body` for `operation` on `backend` (a default context), run to its end.
fn respond_to(
    backend: &crate::MemBackend,
    operation: &str,
    body: &str,
) -> crate::protocol::WireResult<Vec<u8>> {
    run(crate::protocol::respond(
        &crate::protocol::Context::default(),
        backend,
        operation,
        body.as_bytes(),
    ))
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

/// A key (or a small item) of the tests' tables, whose hash key is `pk`.
fn key(pk: &str) -> Item {
    [("pk".to_owned(), s(pk))].into()
}

/// DynamoDB's constraint message for a missing member at `path`.
fn null_at(path: &str) -> String {
    format!("Value null at '{path}' failed to satisfy constraint: Member must not be null")
}

/// DynamoDB's constraint message for `value` outside the enum `set` at `path`.
fn enum_at(value: &str, path: &str, set: &str) -> String {
    format!(
        "Value '{value}' at '{path}' failed to satisfy constraint: Member must satisfy enum value \
         set: [{set}]"
    )
}

/// The `ValidationException` message listing `list`: "N validation error(s) detected: a; b; …".
fn errors(list: &[String]) -> String {
    let plural = if list.len() == 1 { "" } else { "s" };
    format!(
        "{} validation error{plural} detected: {}",
        list.len(),
        list.join("; ")
    )
}
