//! A PutItem whose `Item` the model wrote as JSON (`item_json`), put into the body the SDK
//! serialized: the write side of the page hook. (A GetItem's key of one or two attributes costs
//! more this way than through the SDK's map, measured: docs/performance.md.)
//!
//! The SDK is given the request with an empty map in the member's place, so that it serializes
//! everything else as it always does (the table name, expressions, maps, flags). For an execution
//! armed with a [`WrittenMember`], [`PageHook`] then replaces the member's `{}` in the serialized
//! body with the model's JSON and sets `Content-Length` to match ([`WrittenMember::write_into`]),
//! before the retry loop, so every attempt signs and sends the whole item.
//!
//! How it fails, and how that shows:
//! - the member's `{}` is not in the body (an SDK that serialized it otherwise): the request fails
//!   before anything is sent, with [`NOT_FOUND`] in the error;
//! - the request goes out without the hook (nothing armed it, or a client without the hook): the
//!   item went out empty, which DynamoDB refuses for every table (an item without its key
//!   attributes), and the caller answers [`WrittenMember::not_written`] whatever came back,
//!   never the service's puzzling "missing the key" — nor a success.
//!
//! [`PageHook`]: super::page_hook::PageHook

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::orchestrator::HttpRequest;
use aws_smithy_types::body::SdkBody;
use http::header::CONTENT_LENGTH;

use super::page_body::empty_object_span;
use crate::error::Error;

/// What the hook's error says when the member's `{}` is not in the serialized body.
pub(crate) const NOT_FOUND: &str = "dynomodel: the SDK serialized the request without the empty \
                                    member the model's JSON goes in; the request was not sent";

/// The operation whose member the model writes, and that member.
const OPERATION: &str = "PutItem";
const MEMBER: &str = "Item";

/// A PutItem's `Item` written by the model: its JSON, and whether the hook put it into the
/// request's body.
#[derive(Debug)]
pub(crate) struct WrittenMember {
    json: String,
    written: AtomicBool,
}

impl WrittenMember {
    /// PutItem's `Item`, as the JSON object `json`.
    pub(crate) fn put_item(json: String) -> Arc<WrittenMember> {
        Arc::new(WrittenMember {
            json,
            written: AtomicBool::new(false),
        })
    }

    /// Whether the member went into the request's body (the request was then sent whole, or not
    /// at all).
    pub(crate) fn written(&self) -> bool {
        self.written.load(Ordering::Acquire)
    }

    /// The error of a request whose member did not go into its body: what was sent, if anything,
    /// held no item, so nothing was written, whatever `outcome` (the SDK's answer) says.
    #[cold]
    pub(crate) fn not_written(&self, outcome: Option<&Error>) -> Error {
        let outcome = match outcome {
            Some(error) => format!(" (the SDK answered: {error})"),
            None => String::new(),
        };
        Error::Transport(format!(
            "dynomodel: the {OPERATION} request's {MEMBER} was not put into the request's body, so \
             it was sent without it or not at all, and nothing was written{outcome}"
        ))
    }

    /// Puts the member into `request`, the body the SDK serialized for operation `op` with an
    /// empty map in its place, and sets `Content-Length` to match. An operation not the member's
    /// is left as it is (its caller then sees the member was not written); a body without the
    /// empty member is [`NOT_FOUND`], and the request is not sent.
    pub(crate) fn write_into(&self, op: &str, request: &mut HttpRequest) -> Result<(), BoxError> {
        if op != OPERATION {
            return Ok(());
        }
        let body = request.body().bytes().ok_or(NOT_FOUND)?;
        let span = item_span(body).ok_or(NOT_FOUND)?;
        let mut whole = Vec::with_capacity(body.len() - span.len() + self.json.len());
        whole.extend_from_slice(&body[..span.start]);
        whole.extend_from_slice(self.json.as_bytes());
        whole.extend_from_slice(&body[span.end..]);
        // The name as `http`'s constant, which the SDK's headers take as it is (a `&str` is parsed).
        request
            .headers_mut()
            .insert(CONTENT_LENGTH, whole.len().to_string());
        *request.body_mut() = SdkBody::from(whole);
        self.written.store(true, Ordering::Release);
        Ok(())
    }
}

/// Where the `{}` of a serialized PutItem's `Item` stands: right after the table name, where the
/// SDK writes it (`{"TableName":"…","Item":{}`; a table name needs no escape), or else wherever
/// the walk of the body's object finds the member. The first is a few comparisons of code that
/// runs on every put; the walk (`page_body`'s, with serde_json skipping the members before it)
/// runs ~100 lines of code more a request.
fn item_span(body: &[u8]) -> Option<Range<usize>> {
    const TABLE: &[u8] = b"{\"TableName\":\"";
    const ITEM: &[u8] = b"\",\"Item\":{}";
    let after_table = body.strip_prefix(TABLE).and_then(|name| {
        let end = name.iter().position(|&b| b == b'"' || b == b'\\')?;
        name[end..]
            .starts_with(ITEM)
            .then_some(TABLE.len() + end + ITEM.len() - 2)
    });
    match after_table {
        Some(start) => Some(start..start + 2),
        None => empty_object_span(body, MEMBER),
    }
}

#[cfg(test)]
pub(crate) mod tests;
