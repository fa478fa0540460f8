//! DynamoDB's endpoint (every path but the admin endpoints'): CORS, `GET /`, `GET /health`, and
//! `POST /`: the body read within the server's limits, the signature checked when the server verifies
//! them, the body inflated when compressed, the operation run (on the blocking pool when large), and
//! the answer compressed when the client accepts it.

use std::sync::Arc;

use dynomodel::backend::Backend;

use hyper::body::{Bytes, Incoming};
use hyper::header::{
    HeaderMap, HeaderValue, ACCESS_CONTROL_REQUEST_HEADERS, ACCESS_CONTROL_REQUEST_METHOD,
    AUTHORIZATION, CONTENT_ENCODING, HOST,
};
use hyper::{Method, Request};
use serde_json::json;

use super::body::{self, BodyError};
use super::cors::{self, Grant};
use super::encoding::{self, Coding};
use super::http::{
    encode, fault, timed_out, too_large, Answer, Connection, Shared, MAX_BODY_BYTES,
    OFF_THE_WORKERS_BYTES,
};
use super::sigv4::{self, Signed};
use crate::protocol::{self, Fault};

/// The health check's path, for process supervisors.
const HEALTH: &str = "/health";

/// Answers one request to DynamoDB's endpoint, with the CORS headers its origin is granted and
/// compressed as its `Accept-Encoding` allows.
pub(crate) async fn answer(
    shared: &Arc<Shared>,
    connection: &Arc<Connection>,
    request: Request<Incoming>,
) -> Answer {
    let grant = shared.origins.grant(request.headers());
    if cors::is_preflight(request.method(), request.headers()) {
        return preflight(grant, request.headers());
    }
    let coding = encoding::response_coding(request.headers());
    let mut answer = respond(shared, connection, request).await;
    if let Grant::Allowed(origin) = grant {
        cors::add_headers(&mut answer.headers, origin, None);
    }
    match coding {
        Some(coding) if answer.body.len() >= encoding::MIN_COMPRESSED_BYTES => {
            compress(answer, coding).await
        }
        _ => answer,
    }
}

/// A preflight: granted with DynamoDB's headers, or refused saying how to allow the origin.
fn preflight(grant: Grant, headers: &HeaderMap) -> Answer {
    match grant {
        Grant::Allowed(origin) => {
            let mut answer = Answer::empty(200);
            let requested = (
                headers.get(ACCESS_CONTROL_REQUEST_METHOD).cloned(),
                headers.get(ACCESS_CONTROL_REQUEST_HEADERS).cloned(),
            );
            cors::add_headers(&mut answer.headers, origin, Some(requested));
            answer
        }
        Grant::Refused(origin) => {
            let body = json!({
                "__type": "com.amazon.coral.service#AccessDeniedException",
                "message": format!(
                    "Origin {origin:?} may not call this server from a browser: pages served from \
                     loopback may; start the server with --cors-origin {origin} to allow this one \
                     (a server that verifies signatures allows every origin)"
                ),
            });
            (403, encode(&body)).into()
        }
        Grant::None => fault(&Fault::UnknownOperation).into(),
    }
}

/// `answer` compressed with `coding` (on the blocking pool when it is large), saying so in
/// `Content-Encoding`; `x-amz-crc32` is then the compressed bytes' (see `encoding.rs`).
async fn compress(mut answer: Answer, coding: Coding) -> Answer {
    let body = std::mem::take(&mut answer.body);
    answer.body = match body.len() >= OFF_THE_WORKERS_BYTES {
        true => tokio::task::spawn_blocking(move || encoding::encode(coding, &body))
            .await
            .unwrap_or_default(),
        false => encoding::encode(coding, &body),
    };
    answer
        .headers
        .insert(CONTENT_ENCODING, HeaderValue::from_static(coding.name()));
    answer
}

async fn respond(
    shared: &Arc<Shared>,
    connection: &Arc<Connection>,
    request: Request<Incoming>,
) -> Answer {
    if request.method() == Method::GET && request.uri().path() == "/" {
        return healthy(connection, request.headers());
    }
    if request.method() == Method::GET && request.uri().path() == HEALTH {
        return health(shared.engine.as_ref()).into();
    }
    if request.method() != Method::POST {
        return fault(&Fault::UnknownOperation).into();
    }
    let (head, incoming) = request.into_parts();
    let operation = head
        .headers
        .get("x-amz-target")
        .and_then(|v| v.to_str().ok())
        .and_then(protocol::operation_of)
        .map(str::to_owned);
    // The body's share of the budget is held until the request is answered.
    let raw = match body::read(shared, &head.headers, incoming, MAX_BODY_BYTES).await {
        Ok(read) => read,
        Err(e) => return refused_body(shared, e),
    };
    let Some(operation) = operation else {
        return fault(&Fault::UnknownOperation).into();
    };
    if let Some(verifier) = &shared.verifier {
        let signed = Signed {
            method: head.method.as_str(),
            path: head.uri.path(),
            query: head.uri.query().unwrap_or(""),
            headers: &head.headers,
            body: &raw.0,
        };
        if let Err(refusal) = verifier.verify(&signed, chrono::Utc::now()) {
            let body = json!({
                "__type": format!("com.amazon.coral.service#{}", refusal.code),
                "message": refusal.message,
            });
            return (400, encode(&body)).into();
        }
    }
    let (body, _room) = match body::decoded(shared, &head.headers, raw, MAX_BODY_BYTES).await {
        Ok(decoded) => decoded,
        Err(e) => return refused_body(shared, e),
    };
    let region = match shared.present_regions {
        true => sigv4::signing_region(head.headers.get(AUTHORIZATION).map(HeaderValue::as_bytes)),
        false => None,
    };
    let context = connection.context_in(region);
    // With isolation by access key, the database of the request's key (`isolation.rs`).
    let isolated = match &shared.isolation {
        None => None,
        Some(isolation) => match isolation
            .database_for(head.headers.get(AUTHORIZATION).map(HeaderValue::as_bytes))
        {
            Ok(database) => Some(database as Arc<dyn Backend>),
            Err(full) => {
                let body = json!({
                    "__type": "com.amazonaws.dynamodb.v20120810#LimitExceededException",
                    "message": full.message(),
                });
                return (400, encode(&body)).into();
            }
        },
    };
    let backend = isolated.as_ref().unwrap_or(&shared.backend);
    let answered = match body.len() >= OFF_THE_WORKERS_BYTES {
        true => off_the_workers(Arc::clone(backend), context, operation.clone(), body).await,
        false => {
            // Caught on this task rather than by spawning one per request, which would add a
            // hand-off between worker threads to every request.
            let call = protocol::respond(&context, &**backend, &operation, &body);
            futures::FutureExt::catch_unwind(std::panic::AssertUnwindSafe(call))
                .await
                .ok()
        }
    };
    match answered {
        Some(Ok(body)) => (200, body).into(),
        Some(Err(f)) => fault(&f).into(),
        None => {
            tracing::error!(%operation, "the backend panicked while answering");
            let body = json!({
                "__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                "message": "Internal server error",
            });
            (500, encode(&body)).into()
        }
    }
}

/// The answer to a body that could not be read or inflated.
fn refused_body(shared: &Shared, error: BodyError) -> Answer {
    match error {
        BodyError::TooLarge => too_large().into(),
        BodyError::TimedOut { received } => timed_out(&shared.limits, received),
        // The client went away or sent a broken chunked encoding: nothing sensible was received.
        BodyError::Broken => fault(&Fault::Serialization(None)).into(),
        BodyError::Corrupt(why) => fault(&Fault::Serialization(Some(why))).into(),
        BodyError::Unsupported(name) => {
            let body = json!({
                "__type": "com.amazon.coral.service#UnsupportedMediaTypeException",
                "message": format!(
                    "Content-Encoding {name:?} is not supported: send the body as it is, or \
                     compressed with gzip or deflate"
                ),
            });
            (415, encode(&body)).into()
        }
    }
}

/// `GET /`: DynamoDB's endpoint answers `healthy: <its host name> ` (with the final space, as the
/// service sends it: dynalite's recordings), the host the client used.
fn healthy(connection: &Connection, headers: &HeaderMap) -> Answer {
    let host = headers
        .get(HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned())
        .or_else(|| connection.endpoint.clone())
        .unwrap_or_default();
    Answer::text(200, format!("healthy: {host} ").into_bytes())
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
    backend: Arc<dyn Backend>,
    context: Arc<protocol::Context>,
    operation: String,
    body: Bytes,
) -> Option<protocol::WireResult<Vec<u8>>> {
    // The backend's futures run on this runtime's timers (fault injection's latency) from the
    // blocking thread.
    let runtime = tokio::runtime::Handle::current();
    let work = move || {
        let call = protocol::respond(&context, &*backend, &operation, &body);
        runtime.block_on(call)
    };
    tokio::task::spawn_blocking(work).await.ok()
}
