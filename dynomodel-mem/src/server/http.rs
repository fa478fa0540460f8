//! One HTTP exchange: limits, target dispatch, DynamoDB's response headers, a log line.
//!
//! Decisions:
//! - A body over [`MAX_BODY_BYTES`] (16 MB, DynamoDB's request limit) is answered with HTTP 413, as
//!   dynalite does, but with a DynamoDB-style JSON error body (`RequestEntityTooLarge`) so that SDKs, which
//!   look for `__type`, report a code rather than an unparseable response. A declared `Content-Length`
//!   over the limit is refused before a byte of the body is read; a chunked body is cut off at the limit.
//! - The `Content-Type` is not checked, nor the SigV4 signature: any client that speaks the protocol is
//!   served, whatever its credentials.
//! - `GET /health` answers `200 {"status":"ok"}` for process supervisors (never on DynamoDB's `POST /`),
//!   and `503 {"status":"degraded"|"failed","reason":…}` while the engine's data directory cannot be
//!   written ([`MemBackend::health`](crate::MemBackend::health));
//!   `GET /` answers `200 healthy: dynomodel-mem`, as before; any other non-POST request is an
//!   `UnknownOperationException`.
//! - The backend runs in its own task, so that even a bug that panics it costs one request a 500
//!   (`InternalServerError`), not the connection or the server.

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use dynomodel::Backend;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};

use super::admin::{self, Admin};
use super::wire::{self, Fault};

/// The largest request body served: DynamoDB's 16 MB request limit.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// The health check's path, for process supervisors.
const HEALTH: &str = "/health";

/// The response content type of DynamoDB's JSON 1.0 protocol.
const JSON_1_0: &str = "application/x-amz-json-1.0";

/// Handles one request; never fails (every problem is a DynamoDB-shaped response).
pub(crate) async fn handle(
    backend: Arc<dyn Backend>,
    context: Arc<wire::Context>,
    admin: Option<Arc<Admin>>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let started = Instant::now();
    let request_id = request_id();
    let target = request
        .headers()
        .get("x-amz-target")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let path = request.uri().path();
    let (status, body) = if request.method() == Method::GET && path == HEALTH {
        health(admin.as_deref())
    } else if path.starts_with(admin::PREFIX) {
        administer(admin.as_deref(), request).await
    } else {
        respond(backend, &context, request).await
    };
    log::debug!(
        "{request_id} {target} -> {status} ({} bytes, {:?})",
        body.len(),
        started.elapsed()
    );
    Ok(finish(status, body, &request_id))
}

async fn respond(
    backend: Arc<dyn Backend>,
    context: &wire::Context,
    request: Request<Incoming>,
) -> (u16, Vec<u8>) {
    if request.method() == Method::GET && request.uri().path() == "/" {
        return (200, b"healthy: dynomodel-mem".to_vec());
    }
    if request.method() != Method::POST {
        return fault(&Fault::UnknownOperation);
    }
    let declared = request
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return too_large();
    }
    let operation = request
        .headers()
        .get("x-amz-target")
        .and_then(|v| v.to_str().ok())
        .and_then(wire::operation_of)
        .map(str::to_owned);
    let body = match Limited::new(request.into_body(), MAX_BODY_BYTES)
        .collect()
        .await
    {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.downcast_ref::<LengthLimitError>().is_some() => return too_large(),
        // The client went away or sent a broken chunked encoding: nothing sensible was received.
        Err(_) => return fault(&Fault::Serialization(None)),
    };
    let Some(operation) = operation else {
        return fault(&Fault::UnknownOperation);
    };
    // A panic in the backend (a bug: the engine never panics on input) costs this request a 500, not
    // the connection or the server. Caught on this task rather than by spawning one per request, which
    // would add a hand-off between worker threads to every request.
    let call = std::panic::AssertUnwindSafe(wire::respond(context, &*backend, &operation, &body));
    match futures::FutureExt::catch_unwind(call).await {
        Ok(Ok(body)) => (200, body),
        Ok(Err(f)) => fault(&f),
        Err(_) => {
            log::error!("the backend panicked while answering {operation}");
            let body = json!({
                "__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                "message": "Internal server error",
            });
            (500, encode(&body))
        }
    }
}

/// `GET /health`: 200 while the engine serves reads and writes, 503 with the reason when its data
/// directory failed (a server over another backend is always ok).
fn health(admin: Option<&Admin>) -> (u16, Vec<u8>) {
    match admin.map_or(crate::Health::Ok, |a| a.engine.health()) {
        crate::Health::Degraded { reason } => (
            503,
            encode(
                &json!({"status": "degraded", "reason": reason, "reads": true, "writes": false}),
            ),
        ),
        crate::Health::Failed { reason } => (
            503,
            encode(&json!({"status": "failed", "reason": reason, "reads": false, "writes": false})),
        ),
        _ => (200, encode(&json!({ "status": "ok" }))),
    }
}

/// The largest admin request body: a rule is a few hundred bytes.
const MAX_ADMIN_BODY_BYTES: usize = 64 * 1024;

/// An admin request (`/_dynomodel/…`, never DynamoDB's `POST /`); 404 when the server was not
/// started with them.
async fn administer(admin: Option<&Admin>, request: Request<Incoming>) -> (u16, Vec<u8>) {
    let Some(admin) = admin else {
        let body = json!({ "message": "admin endpoints are not enabled on this server" });
        return (404, encode(&body));
    };
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    let body = match Limited::new(request.into_body(), MAX_ADMIN_BODY_BYTES)
        .collect()
        .await
    {
        Ok(collected) => collected.to_bytes(),
        Err(_) => {
            let body = json!({ "message": "unreadable or oversized body" });
            return (400, encode(&body));
        }
    };
    let (status, value) = admin::handle(admin, &method, &path, &body);
    (status, encode(&value))
}

fn encode(value: &Value) -> Vec<u8> {
    // Serialising a `Value` cannot fail (its keys are strings); "{}" keeps the response well-formed anyway.
    serde_json::to_vec(value).unwrap_or_else(|_| b"{}".to_vec())
}

fn fault(f: &Fault) -> (u16, Vec<u8>) {
    let (status, body) = wire::error_response(f);
    (status, encode(&body))
}

fn too_large() -> (u16, Vec<u8>) {
    let body = json!({
        "__type": "com.amazon.coral.service#RequestEntityTooLarge",
        "message": format!("Request body exceeds the limit of {MAX_BODY_BYTES} bytes"),
    });
    (413, encode(&body))
}

/// Adds DynamoDB's headers: content type, `x-amz-crc32` (the body's CRC32, which the SDKs verify) and
/// `x-amzn-RequestId`.
fn finish(status: u16, body: Vec<u8>, request_id: &str) -> Response<Full<Bytes>> {
    let crc = crc32fast::hash(&body);
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    let headers = response.headers_mut();
    let content_type = if status == 200 || status >= 400 {
        JSON_1_0
    } else {
        "text/plain"
    };
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert("x-amz-crc32", HeaderValue::from(crc));
    if let Ok(id) = HeaderValue::from_str(request_id) {
        headers.insert("x-amzn-RequestId", id);
    }
    response
}

/// A 52-character request id of `[A-Z0-9]`, the shape DynamoDB's have: unique per process (a counter)
/// and unlikely to repeat across processes (seeded from the clock).
fn request_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut state = seed
        ^ COUNTER
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (0..52)
        .map(|_| {
            // splitmix64: cheap, well-distributed, no dependency.
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            ALPHABET[(z % ALPHABET.len() as u64) as usize] as char
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids_look_like_dynamodb_s() {
        let a = request_id();
        let b = request_id();
        assert_eq!(a.len(), 52);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()));
        assert_ne!(a, b);
    }

    #[test]
    fn headers() {
        let r = finish(200, b"{}".to_vec(), "ID");
        assert_eq!(
            r.headers()["x-amz-crc32"],
            crc32fast::hash(b"{}").to_string()
        );
        assert_eq!(r.headers()["x-amzn-requestid"], "ID");
        assert_eq!(r.headers()[CONTENT_TYPE], JSON_1_0);
    }
}
