//! A DynamoDB-compatible HTTP server (feature `server`): DynamoDB's JSON 1.0 protocol over any
//! [`Backend`], usually the in-memory [`MemBackend`].
//!
//! Any AWS SDK, the AWS CLI or boto3 can talk to it: `POST /` with `X-Amz-Target:
//! DynamoDB_20120810.<Operation>`, credentials accepted unchecked unless the server
//! [verifies signatures](ServerBuilder::verify_signatures). Responses carry DynamoDB's headers
//! (`x-amz-crc32`, `x-amzn-RequestId`, `Server`) and errors DynamoDB's shapes; bodies may be
//! compressed either way (gzip, deflate), and browser pages of the allowed origins may call it
//! ([`ServerBuilder::cors_origin`]).
//!
//! Regions: an engine without a region of its own (the default) is one database answering every
//! region; each client reads ARNs and stream records naming the region it signs its requests for
//! (`GetRecords`' `awsRegion` is "the region in which the GetRecords request was received"), and
//! unsigned requests are answered in `ddblocal`. An engine built with
//! [`region`](crate::MemBackendBuilder::region) (`serve --region`) answers in that region only.
//!
//! ```
//! use dynomodel::backend::Backend;
//! use dynomodel_mem::{server::Server, MemBackend};
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let server = Server::bind("127.0.0.1:0", MemBackend::new()).await?;
//! println!("DynamoDB at {}", server.url());
//! // … point an SDK at server.url() …
//! server.shutdown().await;
//! # Ok::<(), std::io::Error>(())
//! # }).unwrap();
//! ```
//!
//! Safe by default: the binary binds 127.0.0.1 unless told otherwise, bodies are capped at 16 MB, no
//! input can panic it or get a 500, and no client can hold its resources without bound: a request's
//! head, body and response each have a time limit, request bodies in flight share a memory budget,
//! connections are capped below the process's file-descriptor limit, and requests that reach it on
//! loopback must name loopback in `Host` (DNS rebinding). [`Server::builder`] sets each limit.

mod access;
mod admin;
mod admin_state;
mod api;
mod body;
mod builder;
pub(crate) mod cli;
mod console;
mod cors;
mod deadline;
mod encoding;
mod http;
mod isolation;
mod limits;
mod sigv4;
mod sweeper;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dynomodel::backend::Backend;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinHandle;

pub use builder::ServerBuilder;
pub use http::MAX_BODY_BYTES;
pub use limits::{
    default_max_connections, DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_BODY_MEMORY,
    DEFAULT_WRITE_TIMEOUT,
};
pub use sweeper::TtlSweeper;

use crate::{ManualClock, MemBackend};

/// How long [`ServerHandle::shutdown`] lets in-flight requests finish before closing their connections.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(5);

/// How often, at most, the server logs that it reached its connection cap.
const CAP_LOG_INTERVAL: Duration = Duration::from_secs(60);

/// Entry point: [`Server::bind`], or [`Server::builder`] to set limits first.
#[derive(Debug)]
pub struct Server;

impl Server {
    /// Binds `addr` (e.g. `"127.0.0.1:0"` for a free port) and serves `backend` on it in the background
    /// of the current Tokio runtime, with the default limits. Returns once the socket is listening.
    pub async fn bind<B: Backend + 'static>(
        addr: impl ToSocketAddrs,
        backend: B,
    ) -> io::Result<ServerHandle> {
        Server::builder().bind(addr, backend).await
    }

    /// [`Server::bind`] for a backend that is already shared (e.g. with the code that fills it).
    pub async fn bind_shared(
        addr: impl ToSocketAddrs,
        backend: Arc<dyn Backend>,
    ) -> io::Result<ServerHandle> {
        Server::builder().bind_shared(addr, backend).await
    }

    /// [`Server::bind`] for the in-memory engine, with the admin endpoints under `/_dynomodel/`
    /// (same port, never DynamoDB's `POST /`): arm and clear `backend`'s fault rules
    /// ([`faults`](crate::faults)), and, when `clock` is the [`ManualClock`] `backend` was built
    /// on, read and advance it. The rule format is in the guide's [testing chapter]. A server bound
    /// beyond loopback serves them only with an [admin token](ServerBuilder::admin_token).
    ///
    /// [testing chapter]: https://github.com/dynomodel/dynomodel/blob/main/docs/guide/testing.md#faults-and-the-clock-from-other-languages
    ///
    /// ```
    /// use dynomodel_mem::{server::Server, ManualClock, MemBackend};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let clock = ManualClock::default();
    /// let backend = MemBackend::builder().clock(clock.clone()).build();
    /// let server = Server::bind_mem("127.0.0.1:0", backend, Some(clock)).await?;
    /// // POST {server.url()}/_dynomodel/faults {"operation": "PutItem", "nth": 3} …
    /// server.shutdown().await;
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn bind_mem(
        addr: impl ToSocketAddrs,
        backend: MemBackend,
        clock: Option<ManualClock>,
    ) -> io::Result<ServerHandle> {
        Server::builder().bind_mem(addr, backend, clock).await
    }

    /// A server with limits other than the defaults, an admin token or more `Host` names:
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel_mem::{server::Server, MemBackend};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder()
    ///     .body_timeout(Duration::from_secs(5))
    ///     .max_connections(100)
    ///     .admin_token("s3cret")
    ///     .bind_mem("127.0.0.1:0", MemBackend::new(), None)
    ///     .await?;
    /// server.shutdown().await;
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn builder() -> ServerBuilder {
        ServerBuilder::default()
    }
}

/// A running server. Dropping it stops accepting connections (open ones finish in the background);
/// [`ServerHandle::shutdown`] also waits for them.
#[derive(Debug)]
pub struct ServerHandle {
    local_addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
    /// The TTL sweeper that stops with the server, if one was attached.
    sweeper: Option<TtlSweeper>,
    /// The databases of isolation by access key, which the TTL sweeper sweeps too.
    isolation: Option<std::sync::Arc<isolation::Isolation>>,
}

impl ServerHandle {
    /// Runs a [`TtlSweeper`] on `backend` (normally the one served) every `interval`, stopped with
    /// the server; a zero interval runs none. Expired items are then deleted in the background, as
    /// DynamoDB does. A server that isolates its clients by access key
    /// ([`ServerBuilder::isolate_by_access_key`]) has every key's database swept too:
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel_mem::{server::Server, MemBackend};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let backend = MemBackend::new();
    /// let server = Server::bind("127.0.0.1:0", backend.clone())
    ///     .await?
    ///     .with_ttl_sweeper(backend, Duration::from_secs(60));
    /// server.shutdown().await; // stops the sweeper too
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn with_ttl_sweeper(mut self, backend: MemBackend, interval: Duration) -> ServerHandle {
        self.sweeper = match self.isolation.clone() {
            None => TtlSweeper::spawn(backend, interval),
            Some(isolation) => TtlSweeper::spawn_over(
                move || {
                    let databases = isolation.databases();
                    let mut engines = vec![backend.clone()];
                    engines.extend(databases.iter().map(|d| MemBackend::clone(d)));
                    engines
                },
                interval,
            ),
        };
        self
    }

    /// The address the server listens on (with the actual port when bound to port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The endpoint URL for an SDK, e.g. `http://127.0.0.1:8000`.
    pub fn url(&self) -> String {
        format!("http://{}", self.local_addr)
    }

    /// Stops accepting connections, lets in-flight requests finish (at most 5 s), closes idle
    /// keep-alive connections, and returns when the server is gone.
    pub async fn shutdown(mut self) {
        if let Some(sweeper) = self.sweeper.take() {
            sweeper.stop().await;
        }
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// The accept loop, then the graceful drain.
async fn serve(
    listener: TcpListener,
    shared: Arc<http::Shared>,
    mut stopped: watch::Receiver<bool>,
) {
    let graceful = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    // The timer enables the header read timeout, which closes connections that send no request (and
    // idle keep-alive ones) after it.
    http.timer(TokioTimer::new())
        .header_read_timeout(shared.limits.header_timeout)
        .keep_alive(true);
    let connections = Arc::new(Semaphore::new(shared.limits.max_connections));
    let mut cap_logged: Option<Instant> = None;
    loop {
        // A connection slot first: at the cap, new connections wait in the kernel's listen queue (and
        // past it, their SYNs are retried by the client) until one closes.
        let slot = match Arc::clone(&connections).try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                if cap_logged.is_none_or(|at| at.elapsed() >= CAP_LOG_INTERVAL) {
                    tracing::warn!(
                        "{} connections open, the most this server takes (--max-connections): new \
                         connections wait until one closes",
                        shared.limits.max_connections
                    );
                    cap_logged = Some(Instant::now());
                }
                tokio::select! {
                    _ = stopped.wait_for(|stop| *stop) => break,
                    slot = Arc::clone(&connections).acquire_owned() => match slot {
                        Ok(slot) => slot,
                        Err(_) => break,
                    },
                }
            }
        };
        let accepted = tokio::select! {
            _ = stopped.wait_for(|stop| *stop) => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // E.g. out of file descriptors: back off instead of spinning, keep serving the others.
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // Small request/response exchanges on keep-alive connections: Nagle's algorithm would add
        // delayed-ACK stalls of up to 40 ms to every request.
        let _ = stream.set_nodelay(true);
        let local = stream.local_addr().ok();
        // DescribeEndpoints answers the address this connection reached (the listening address, with
        // the interface's own IP when bound to 0.0.0.0), so that SDKs with endpoint discovery stay here.
        let connection = Arc::new(http::Connection::new(
            local.map(|a| a.to_string()),
            local.is_some_and(|a| a.ip().is_loopback()),
        ));
        let shared_here = Arc::clone(&shared);
        let service = service_fn(move |request| {
            http::handle(Arc::clone(&shared_here), Arc::clone(&connection), request)
        });
        let io = TokioIo::new(deadline::WriteDeadline::new(
            stream,
            shared.limits.write_timeout,
        ));
        let connection = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(%peer, error = %e, "connection closed on an error");
            }
            drop(slot);
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(DRAIN_TIMEOUT) => tracing::warn!("shutdown: closing connections still busy after {DRAIN_TIMEOUT:?}"),
    }
}
