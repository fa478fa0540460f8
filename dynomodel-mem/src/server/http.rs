//! One HTTP exchange: limits, target dispatch, DynamoDB's response headers, a log line.
//!
//! Decisions:
//! - A body over [`MAX_BODY_BYTES`] (16 MB, DynamoDB's request limit) is answered with HTTP 413, as
//!   dynalite does, but with a DynamoDB-style JSON error body (`RequestEntityTooLarge`) so that SDKs, which
//!   look for `__type`, report a code rather than an unparseable response. A declared `Content-Length`
//!   over the limit is refused before a byte of the body is read; a chunked body is cut off at the limit.
//! - A body must arrive within the body timeout, and takes its bytes from the budget of bodies in
//!   flight, waiting for room within that same time: a client that stalls is answered `408
//!   RequestTimeoutException` and disconnected, and its bytes are released (see `limits.rs`).
//! - The `Content-Type` of DynamoDB's requests is not checked, nor the SigV4 signature: any client that
//!   speaks the protocol is served, whatever its credentials. The `Host` of a request that reached the
//!   server on loopback must name loopback (`access.rs`: DNS rebinding), else `403
//!   AccessDeniedException`.
//! - `GET /health` answers `200 {"status":"ok"}` for process supervisors (never on DynamoDB's `POST /`),
//!   and `503 {"status":"degraded"|"failed","reason":…}` while the engine's data directory cannot be
//!   written ([`MemBackend::health`](crate::MemBackend::health));
//!   `GET /` answers `200 healthy: dynomodel-mem`, as before; any other non-POST request is an
//!   `UnknownOperationException`. No response carries CORS headers: no web page of another origin may
//!   read an answer, or send DynamoDB's `X-Amz-Target` at all.
//! - A panic in the backend (a bug: the engine never panics on input) costs one request a 500
//!   (`InternalServerError`), not the connection or the server.
//! - A request with a large body ([`OFF_THE_WORKERS_BYTES`]) is answered on Tokio's blocking pool rather
//!   than on a worker thread: its cost is linear in its size, but that is tens of milliseconds for the
//!   largest, and a few of them at once would otherwise hold every worker while small requests wait.
//!   Small requests, the usual ones, stay on the worker: a hand-off between threads would cost each of
//!   them more than its work.

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use dynomodel::Backend;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, HeaderValue, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};
use tokio::sync::OwnedSemaphorePermit;

use super::access::Hosts;
use super::admin::{self, Endpoints};
use super::limits::{BodyMemory, Limits};
use super::wire::{self, Fault};

/// The largest request body served: DynamoDB's 16 MB request limit.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// Bodies from this size on are answered on the blocking pool (see the module documentation): about a
/// millisecond of work, against a hand-off of a few microseconds.
pub(crate) const OFF_THE_WORKERS_BYTES: usize = 256 * 1024;

/// The largest admin request body: a rule is a few hundred bytes.
const MAX_ADMIN_BODY_BYTES: usize = 64 * 1024;

/// The health check's path, for process supervisors.
const HEALTH: &str = "/health";

/// The response content type of DynamoDB's JSON 1.0 protocol.
const JSON_1_0: &str = "application/x-amz-json-1.0";

/// What every connection of a server shares.
pub(crate) struct Shared {
    pub(crate) backend: Arc<dyn Backend>,
    /// The engine, when the backend is one, for `/health` (served whether or not the admin
    /// endpoints are).
    pub(crate) engine: Option<crate::MemBackend>,
    pub(crate) admin: Endpoints,
    pub(crate) hosts: Hosts,
    pub(crate) limits: Limits,
    pub(crate) body_memory: BodyMemory,
}

/// What the server knows about one connection.
pub(crate) struct Connection {
    pub(crate) context: wire::Context,
    /// The connection reached the server on a loopback address.
    pub(crate) on_loopback: bool,
}

/// A status and body to send; `close` ends the connection after it.
struct Answer {
    status: u16,
    body: Vec<u8>,
    close: bool,
}

impl From<(u16, Vec<u8>)> for Answer {
    fn from((status, body): (u16, Vec<u8>)) -> Answer {
        Answer {
            status,
            body,
            close: false,
        }
    }
}

/// Handles one request; never fails (every problem is a DynamoDB-shaped response).
pub(crate) async fn handle(
    shared: Arc<Shared>,
    connection: Arc<Connection>,
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
    let host = request.headers().get(HOST).map(HeaderValue::as_bytes);
    let answer = match shared.hosts.permit(host, connection.on_loopback) {
        Err(message) => forbidden(&message).into(),
        Ok(()) if request.uri().path().starts_with(admin::PREFIX) => {
            administer(&shared, request).await
        }
        Ok(()) => respond(&shared, &connection, request).await,
    };
    log::debug!(
        "{request_id} {target} -> {} ({} bytes, {:?})",
        answer.status,
        answer.body.len(),
        started.elapsed()
    );
    Ok(finish(answer, &request_id))
}

async fn respond(
    shared: &Arc<Shared>,
    connection: &Arc<Connection>,
    request: Request<Incoming>,
) -> Answer {
    if request.method() == Method::GET && request.uri().path() == "/" {
        return (200, b"healthy: dynomodel-mem".to_vec()).into();
    }
    if request.method() == Method::GET && request.uri().path() == HEALTH {
        return health(shared.engine.as_ref()).into();
    }
    if request.method() != Method::POST {
        return fault(&Fault::UnknownOperation).into();
    }
    let operation = request
        .headers()
        .get("x-amz-target")
        .and_then(|v| v.to_str().ok())
        .and_then(wire::operation_of)
        .map(str::to_owned);
    // The body's share of the budget is held until the request is answered.
    let (body, _room) = match read_body(shared, request, MAX_BODY_BYTES).await {
        Ok(read) => read,
        Err(BodyError::TooLarge) => return too_large().into(),
        Err(BodyError::TimedOut { received }) => return timed_out(&shared.limits, received),
        // The client went away or sent a broken chunked encoding: nothing sensible was received.
        Err(BodyError::Broken) => return fault(&Fault::Serialization(None)).into(),
    };
    let Some(operation) = operation else {
        return fault(&Fault::UnknownOperation).into();
    };
    let answered = match body.len() >= OFF_THE_WORKERS_BYTES {
        true => off_the_workers(shared, connection, operation.clone(), body).await,
        false => {
            // Caught on this task rather than by spawning one per request, which would add a
            // hand-off between worker threads to every request.
            let call = wire::respond(&connection.context, &*shared.backend, &operation, &body);
            futures::FutureExt::catch_unwind(std::panic::AssertUnwindSafe(call))
                .await
                .ok()
        }
    };
    match answered {
        Some(Ok(body)) => (200, body).into(),
        Some(Err(f)) => fault(&f).into(),
        None => {
            log::error!("the backend panicked while answering {operation}");
            let body = json!({
                "__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                "message": "Internal server error",
            });
            (500, encode(&body)).into()
        }
    }
}

/// `GET /health`: 200 while the engine serves reads and writes, 503 with the reason when its data
/// directory failed (a server over another backend is always ok).
fn health(engine: Option<&crate::MemBackend>) -> (u16, Vec<u8>) {
    match engine.map_or(crate::Health::Ok, crate::MemBackend::health) {
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

/// Answers a large request on the blocking pool; `None` if the backend panicked.
async fn off_the_workers(
    shared: &Arc<Shared>,
    connection: &Arc<Connection>,
    operation: String,
    body: Bytes,
) -> Option<wire::WireResult<Vec<u8>>> {
    let (shared, connection) = (Arc::clone(shared), Arc::clone(connection));
    // The backend's futures run on this runtime's timers (fault injection's latency) from the
    // blocking thread.
    let runtime = tokio::runtime::Handle::current();
    let work = move || {
        let call = wire::respond(&connection.context, &*shared.backend, &operation, &body);
        runtime.block_on(call)
    };
    tokio::task::spawn_blocking(work).await.ok()
}

/// Why a body could not be read.
enum BodyError {
    /// Longer than the limit.
    TooLarge,
    /// Not all there within the body timeout (waiting for room in the budget included).
    TimedOut {
        /// The bytes that did arrive.
        received: usize,
    },
    /// The client went away or broke the encoding.
    Broken,
}

/// Reads a request's body, at most `limit` bytes, within the body timeout and the budget of bodies in
/// flight. Returns the body and its share of the budget.
async fn read_body(
    shared: &Shared,
    request: Request<Incoming>,
    limit: usize,
) -> Result<(Bytes, Vec<OwnedSemaphorePermit>), BodyError> {
    let declared = declared_length(request.headers());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(BodyError::TooLarge);
    }
    let mut body = request.into_body();
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

/// The `Content-Length` the client declared, if it did.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
}

/// An admin request (`/_dynomodel/…`, never DynamoDB's `POST /`), once `shared.admin` admits it.
async fn administer(shared: &Shared, request: Request<Incoming>) -> Answer {
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    if let Err((status, message)) = shared.admin.admit(&method, request.headers()) {
        return (status, encode(&json!({ "message": message }))).into();
    }
    let body = match read_body(shared, request, MAX_ADMIN_BODY_BYTES).await {
        Ok((body, _room)) => body,
        Err(BodyError::TimedOut { received }) => return timed_out(&shared.limits, received),
        Err(_) => {
            let body = json!({ "message": "unreadable or oversized body" });
            return (400, encode(&body)).into();
        }
    };
    let (status, value) = shared.admin.handle(&method, &path, &body);
    (status, encode(&value)).into()
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

/// A body that did not arrive within the body timeout: answered, and the connection closed (the client
/// is stalled; the rest of its body is not waited for).
fn timed_out(limits: &Limits, received: usize) -> Answer {
    let body = json!({
        "__type": "com.amazon.coral.service#RequestTimeoutException",
        "message": format!(
            "The request body did not arrive within {:?}, the server's body timeout: {received} bytes received",
            limits.body_timeout
        ),
    });
    Answer {
        status: 408,
        body: encode(&body),
        close: true,
    }
}

/// A request refused for its `Host` (DNS rebinding).
fn forbidden(message: &str) -> (u16, Vec<u8>) {
    let body = json!({
        "__type": "com.amazon.coral.service#AccessDeniedException",
        "message": message,
    });
    (403, encode(&body))
}

/// Adds DynamoDB's headers: content type, `x-amz-crc32` (the body's CRC32, which the SDKs verify) and
/// `x-amzn-RequestId`; `Connection: close` when the connection ends after it.
fn finish(answer: Answer, request_id: &str) -> Response<Full<Bytes>> {
    let Answer {
        status,
        body,
        close,
    } = answer;
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
    if close {
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
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
        let r = finish((200, b"{}".to_vec()).into(), "ID");
        assert_eq!(
            r.headers()["x-amz-crc32"],
            crc32fast::hash(b"{}").to_string()
        );
        assert_eq!(r.headers()["x-amzn-requestid"], "ID");
        assert_eq!(r.headers()[CONTENT_TYPE], JSON_1_0);
    }
}
