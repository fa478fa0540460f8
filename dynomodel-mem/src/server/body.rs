//! Reading a request's body within the server's limits: its size, the body timeout and the budget of
//! bodies in flight (`limits.rs`); and inflating a compressed one within the same limits
//! (`encoding.rs`).

use http_body_util::BodyExt;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, CONTENT_LENGTH};
use tokio::sync::OwnedSemaphorePermit;

use super::encoding::{self, Coding, DecodeError};
use super::http::Shared;

/// Why a body could not be read.
#[derive(Debug)]
pub(crate) enum BodyError {
    /// Longer than the limit (inflated, for a compressed body).
    TooLarge,
    /// Not all there within the body timeout (waiting for room in the budget included).
    TimedOut {
        /// The bytes that did arrive.
        received: usize,
    },
    /// The client went away or broke the encoding.
    Broken,
    /// `Content-Encoding` names a coding the server does not read.
    Unsupported(String),
    /// The body does not inflate (why).
    Corrupt(String),
}

/// A body and its share of the budget of bodies in flight, held until the request is answered.
pub(crate) type Body = (Bytes, Vec<OwnedSemaphorePermit>);

/// Reads a request's body, at most `limit` bytes, within the body timeout and the budget of bodies in
/// flight. Returns the body and its share of the budget.
pub(crate) async fn read(
    shared: &Shared,
    headers: &HeaderMap,
    mut body: Incoming,
    limit: usize,
) -> Result<Body, BodyError> {
    let declared = declared_length(headers);
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(BodyError::TooLarge);
    }
    let mut received = 0usize;
    let mut parts: Vec<Bytes> = Vec::new();
    let mut room = Vec::new();
    let read = async {
        // A declared length is reserved whole before the first byte: reserving as bytes arrive would
        // let bodies that each hold part of the budget wait on one another.
        if let Some(n) = declared.filter(|n| *n > 0) {
            room.extend(shared.body_memory.reserve(n as usize).await);
        }
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|_| BodyError::Broken)?;
            let Ok(data) = frame.into_data() else {
                continue;
            };
            received += data.len();
            if received > limit {
                return Err(BodyError::TooLarge);
            }
            if declared.is_none() {
                room.extend(shared.body_memory.reserve(data.len()).await);
            }
            parts.push(data);
        }
        Ok(())
    };
    match tokio::time::timeout(shared.limits.body_timeout, read).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(e),
        Err(_) => return Err(BodyError::TimedOut { received }),
    }
    let bytes = match parts.as_slice() {
        [] => Bytes::new(),
        [one] => one.clone(),
        many => Bytes::from(many.concat()),
    };
    Ok((bytes, room))
}

/// The body as the operation reads it: `raw` inflated when `headers` say it is compressed (within
/// `limit` bytes, and within the body timeout for its room in the budget), else `raw` itself. The raw
/// body's room is given back once it is inflated.
pub(crate) async fn decoded(
    shared: &Shared,
    headers: &HeaderMap,
    raw: Body,
    limit: usize,
) -> Result<Body, BodyError> {
    let coding = match encoding::request_coding(headers) {
        Ok(Some(coding)) => coding,
        Ok(None) => return Ok(raw),
        Err(DecodeError::Unsupported(name)) => return Err(BodyError::Unsupported(name)),
        Err(_) => return Err(BodyError::Broken),
    };
    let (compressed, raw_room) = raw;
    let held = raw_room.iter().map(OwnedSemaphorePermit::num_permits).sum();
    inflate(shared, coding, &compressed, limit, held).await
}

async fn inflate(
    shared: &Shared,
    coding: Coding,
    compressed: &[u8],
    limit: usize,
    held: usize,
) -> Result<Body, BodyError> {
    let inflating = encoding::decode(coding, compressed, limit, &shared.body_memory, held);
    match tokio::time::timeout(shared.limits.body_timeout, inflating).await {
        Ok(Ok(body)) => Ok(body),
        Ok(Err(DecodeError::TooLarge)) => Err(BodyError::TooLarge),
        Ok(Err(DecodeError::Corrupt(why))) => Err(BodyError::Corrupt(why)),
        Ok(Err(DecodeError::Unsupported(name))) => Err(BodyError::Unsupported(name)),
        Err(_) => Err(BodyError::TimedOut {
            received: compressed.len(),
        }),
    }
}

/// The `Content-Length` the client declared, if it did.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
}
