//! One HTTP exchange: the `Host` check, the admin endpoints or DynamoDB's (`api.rs`), DynamoDB's
//! response headers, a log line.
//!
//! Decisions:
//! - A body over [`MAX_BODY_BYTES`] (16 MB, DynamoDB's request limit; inflated, for a compressed one) is
//!   answered with HTTP 413, as dynalite does, but with a DynamoDB-style JSON error body
//!   (`RequestEntityTooLarge`) so that SDKs, which look for `__type`, report a code rather than an
//!   unparseable response. A declared `Content-Length` over the limit is refused before a byte of the
//!   body is read; a chunked body is cut off at the limit (`body.rs`).
//! - A body must arrive within the body timeout, and takes its bytes from the budget of bodies in
//!   flight, waiting for room within that same time: a client that stalls is answered `408
//!   RequestTimeoutException` and disconnected, and its bytes are released (see `limits.rs`). A
//!   compressed body's inflated bytes take their room too (`encoding.rs`).
//! - The `Content-Type` of DynamoDB's requests is not checked; their SigV4 signature only when the
//!   server verifies signatures (`sigv4/`): by default any client that speaks the protocol is served,
//!   whatever its credentials. The `Host` of a request that reached the server on loopback must name
//!   loopback (`access.rs`: DNS rebinding), else `403 AccessDeniedException`.
//! - `GET /health` answers `200 {"status":"ok"}` for process supervisors (never on DynamoDB's `POST /`),
//!   and `503 {"status":"degraded"|"failed","reason":…}` while the engine's data directory cannot be
//!   written ([`MemBackend::health`](crate::MemBackend::health)); `GET /` answers `200 healthy:
//!   <host> `, as DynamoDB's endpoint does; any other non-POST request is an
//!   `UnknownOperationException`. `GET /_dynomodel/console` is the web console's page (`console/`,
//!   served without the admin token, which its calls carry). DynamoDB's endpoint answers CORS for the
//!   origins the server allows
//!   (`cors.rs`); the admin endpoints never do.
//! - Every response carries `x-amz-crc32`, `x-amzn-RequestId` and `Server: Server`, as DynamoDB's do.
//! - A panic in the backend (a bug: the engine never panics on input) costs one request a 500
//!   (`InternalServerError`), not the connection or the server.
//! - A request with a large body ([`OFF_THE_WORKERS_BYTES`]) is answered on Tokio's blocking pool rather
//!   than on a worker thread: its cost is linear in its size, but that is tens of milliseconds for the
//!   largest, and a few of them at once would otherwise hold every worker while small requests wait.
//!   Small requests, the usual ones, stay on the worker: a hand-off between threads would cost each of
//!   them more than its work.

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use dynomodel::backend::Backend;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, HeaderValue, CONNECTION, CONTENT_TYPE, HOST, SERVER};
use hyper::{Request, Response, StatusCode};
use serde_json::{json, Value};

use super::access::Hosts;
use super::admin::{self, Endpoints};
use super::body::{self, BodyError};
use super::console;
use super::cors::Origins;
use super::limits::{BodyMemory, Limits};
use super::sigv4::Verifier;
use crate::protocol::{self, Fault};

/// The largest request body served: DynamoDB's 16 MB request limit.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// Bodies from this size on are answered on the blocking pool (see the module documentation): about a
/// millisecond of work, against a hand-off of a few microseconds.
pub(crate) const OFF_THE_WORKERS_BYTES: usize = 256 * 1024;

/// The largest admin request body: a rule is a few hundred bytes.
const MAX_ADMIN_BODY_BYTES: usize = 64 * 1024;

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
    /// The origins whose pages may call the API (CORS).
    pub(crate) origins: Origins,
    /// The signature check, when the server verifies signatures.
    pub(crate) verifier: Option<Verifier>,
    /// Answers name the region each request is signed for (an engine without a region of its own:
    /// see `protocol/region.rs`).
    pub(crate) present_regions: bool,
    /// A database per access key (`isolation.rs`), when the server isolates them.
    pub(crate) isolation: Option<Arc<super::isolation::Isolation>>,
}

/// What the server knows about one connection.
pub(crate) struct Connection {
    /// The address this connection reached (`host:port`), for DescribeEndpoints and `GET /`.
    pub(crate) endpoint: Option<String>,
    /// The connection reached the server on a loopback address.
    pub(crate) on_loopback: bool,
    /// The context of its last request: a connection's requests are signed for one region, so the
    /// next one usually shares it rather than building its own.
    last_context: Mutex<Arc<protocol::Context>>,
}

impl Connection {
    pub(crate) fn new(endpoint: Option<String>, on_loopback: bool) -> Connection {
        let context = protocol::Context {
            endpoint: endpoint.clone(),
            region: None,
        };
        Connection {
            endpoint,
            on_loopback,
            last_context: Mutex::new(Arc::new(context)),
        }
    }

    /// The context of a request answered in `region` (`None`: the backend's own).
    pub(crate) fn context_in(&self, region: Option<&str>) -> Arc<protocol::Context> {
        let mut last = self
            .last_context
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if last.region.as_deref() != region {
            *last = Arc::new(protocol::Context {
                endpoint: self.endpoint.clone(),
                region: region.map(str::to_owned),
            });
        }
        Arc::clone(&last)
    }
}

/// A status, body and headers to send; `close` ends the connection after it.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
    pub(crate) close: bool,
    /// `None`: no `Content-Type` (a body-less answer).
    pub(crate) content_type: Option<&'static str>,
    /// Headers beyond DynamoDB's own (CORS, `Content-Encoding`).
    pub(crate) headers: HeaderMap,
}

impl Answer {
    /// A body-less answer.
    pub(crate) fn empty(status: u16) -> Answer {
        Answer {
            content_type: None,
            ..Answer::from((status, Vec::new()))
        }
    }

    /// A plain-text answer.
    pub(crate) fn text(status: u16, body: Vec<u8>) -> Answer {
        Answer {
            content_type: Some("text/plain"),
            ..Answer::from((status, body))
        }
    }
}

impl From<(u16, Vec<u8>)> for Answer {
    /// A JSON answer (plain text for the statuses between 200 and 400 that carry none).
    fn from((status, body): (u16, Vec<u8>)) -> Answer {
        let content_type = match status == 200 || status >= 400 {
            true => JSON_1_0,
            false => "text/plain",
        };
        Answer {
            status,
            body,
            close: false,
            content_type: Some(content_type),
            headers: HeaderMap::new(),
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
        // The console's page, before the admin endpoints' token check (`console/`).
        Ok(()) if console::is_console(request.uri().path()) => {
            console::answer(&shared.admin, request.method().as_str())
        }
        Ok(()) if request.uri().path().starts_with(admin::PREFIX) => {
            administer(&shared, request).await
        }
        Ok(()) => super::api::answer(&shared, &connection, request).await,
    };
    tracing::debug!(
        request_id = %request_id,
        target = %target,
        status = answer.status,
        bytes = answer.body.len(),
        elapsed = ?started.elapsed(),
        "request"
    );
    Ok(finish(answer, &request_id))
}

/// An admin request (`/_dynomodel/…`, never DynamoDB's `POST /`), once `shared.admin` admits it. It
/// never carries CORS headers.
async fn administer(shared: &Shared, request: Request<Incoming>) -> Answer {
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    if let Err((status, message)) = shared.admin.admit(&method, request.headers()) {
        return (status, encode(&json!({ "message": message }))).into();
    }
    let (head, incoming) = request.into_parts();
    let body = match body::read(shared, &head.headers, incoming, MAX_ADMIN_BODY_BYTES).await {
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

pub(crate) fn encode(value: &Value) -> Vec<u8> {
    // Serialising a `Value` cannot fail (its keys are strings); "{}" keeps the response well-formed anyway.
    serde_json::to_vec(value).unwrap_or_else(|_| b"{}".to_vec())
}

pub(crate) fn fault(f: &Fault) -> (u16, Vec<u8>) {
    protocol::error_body(f)
}

pub(crate) fn too_large() -> (u16, Vec<u8>) {
    let body = json!({
        "__type": "com.amazon.coral.service#RequestEntityTooLarge",
        "message": format!("Request body exceeds the limit of {MAX_BODY_BYTES} bytes"),
    });
    (413, encode(&body))
}

/// A body that did not arrive within the body timeout: answered, and the connection closed (the client
/// is stalled; the rest of its body is not waited for).
pub(crate) fn timed_out(limits: &Limits, received: usize) -> Answer {
    let body = json!({
        "__type": "com.amazon.coral.service#RequestTimeoutException",
        "message": format!(
            "The request body did not arrive within {:?}, the server's body timeout: {received} bytes received",
            limits.body_timeout
        ),
    });
    Answer {
        close: true,
        ..Answer::from((408, encode(&body)))
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

/// Adds DynamoDB's headers: content type, `x-amz-crc32` (the CRC32 of the body as sent, compressed or
/// not, which the SDKs verify), `x-amzn-RequestId` and `Server`; `Connection: close` when the
/// connection ends after it.
fn finish(answer: Answer, request_id: &str) -> Response<Full<Bytes>> {
    let Answer {
        status,
        body,
        close,
        content_type,
        headers: extra,
    } = answer;
    let crc = crc32fast::hash(&body);
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    let headers = response.headers_mut();
    if let Some(content_type) = content_type {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    headers.insert("x-amz-crc32", HeaderValue::from(crc));
    if let Ok(id) = HeaderValue::from_str(request_id) {
        headers.insert("x-amzn-RequestId", id);
    }
    // What DynamoDB's responses say.
    headers.insert(SERVER, HeaderValue::from_static("Server"));
    if close {
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    headers.extend(extra);
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
        assert_eq!(r.headers()[SERVER], "Server");
        let empty = finish(Answer::empty(200), "ID");
        assert!(!empty.headers().contains_key(CONTENT_TYPE));
        assert_eq!(empty.headers()["x-amz-crc32"], "0");
    }

    #[test]
    fn a_connection_reuses_its_context_while_the_region_stays() {
        let connection = Connection::new(Some("127.0.0.1:8000".into()), true);
        let first = connection.context_in(Some("eu-west-1"));
        assert_eq!(first.region.as_deref(), Some("eu-west-1"));
        assert_eq!(first.endpoint.as_deref(), Some("127.0.0.1:8000"));
        assert!(Arc::ptr_eq(
            &first,
            &connection.context_in(Some("eu-west-1"))
        ));
        let other = connection.context_in(None);
        assert_eq!(other.region, None);
        assert!(!Arc::ptr_eq(&first, &other));
    }
}
