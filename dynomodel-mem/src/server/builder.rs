//! [`ServerBuilder`]: a server's limits, admin token, `Host` names, CORS origins and signature
//! verification, then the bind.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use dynomodel::backend::Backend;
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::sync::watch;

use super::admin_state::StateAdmin;
use super::isolation::Isolation;
use super::limits::{self, Limits};
use super::sigv4::{AccessKeys, Verifier};
use super::{access, admin, cors, http, serve, ServerHandle};
use crate::{ManualClock, MemBackend};

/// A server's settings before it binds: its limits on what clients may hold, the admin token, the
/// `Host` names it accepts beyond loopback's own, the origins whose pages may call it (CORS), and
/// whether it verifies request signatures. From [`Server::builder`]; every setting has a default.
///
/// Timeouts longer than a year count as a year.
///
/// [`Server::builder`]: super::Server::builder
#[derive(Debug, Clone, Default)]
pub struct ServerBuilder {
    limits: Limits,
    admin_token: Option<String>,
    hosts: access::Hosts,
    origins: cors::Origins,
    keys: AccessKeys,
    verify_signatures: bool,
    /// The most databases of isolation by access key, when on.
    isolate: Option<usize>,
}

impl ServerBuilder {
    /// How long a client may take to send a request's head (default [`DEFAULT_HEADER_TIMEOUT`], 30
    /// s); also how long an idle keep-alive connection stays open. A connection that sends nothing is
    /// closed after it.
    ///
    /// [`DEFAULT_HEADER_TIMEOUT`]: super::DEFAULT_HEADER_TIMEOUT
    pub fn header_timeout(mut self, timeout: Duration) -> ServerBuilder {
        self.limits.header_timeout = timeout.min(limits::MAX_TIMEOUT);
        self
    }

    /// How long a request's body may take to arrive once its head has (default
    /// [`DEFAULT_BODY_TIMEOUT`], 30 s). A client that stalls its body is answered `408
    /// RequestTimeoutException` and disconnected, and what it sent is released.
    ///
    /// [`DEFAULT_BODY_TIMEOUT`]: super::DEFAULT_BODY_TIMEOUT
    pub fn body_timeout(mut self, timeout: Duration) -> ServerBuilder {
        self.limits.body_timeout = timeout.min(limits::MAX_TIMEOUT);
        self
    }

    /// How long a client may take to receive a response (default [`DEFAULT_WRITE_TIMEOUT`], 30
    /// s). A client that stops reading is disconnected, and the response released.
    ///
    /// [`DEFAULT_WRITE_TIMEOUT`]: super::DEFAULT_WRITE_TIMEOUT
    pub fn write_timeout(mut self, timeout: Duration) -> ServerBuilder {
        self.limits.write_timeout = timeout.min(limits::MAX_TIMEOUT);
        self
    }

    /// The request body bytes held at once, over all connections (default
    /// [`DEFAULT_MAX_BODY_MEMORY`], 128 MiB). A request whose body finds no room waits for it,
    /// within its body timeout; a body larger than the budget waits for the whole budget.
    ///
    /// [`DEFAULT_MAX_BODY_MEMORY`]: super::DEFAULT_MAX_BODY_MEMORY
    pub fn max_body_memory(mut self, bytes: usize) -> ServerBuilder {
        self.limits.max_body_memory = bytes;
        self
    }

    /// The connections open at once (default [`default_max_connections`]: the process's open-file
    /// limit less 64, at most 10,000; at least 1). Further connections wait in the listen queue until
    /// one closes, and the server logs (at most once a minute) that the cap was reached.
    ///
    /// [`default_max_connections`]: super::default_max_connections
    pub fn max_connections(mut self, connections: usize) -> ServerBuilder {
        self.limits.max_connections = connections.clamp(1, limits::MAX_CONNECTIONS);
        self
    }

    /// Gives each distinct access key (the `Credential=KEY/…` of a request's SigV4 `Authorization`
    /// header) a database of its own: a fork of the served engine made on the key's first request,
    /// as DynamoDB Local keeps one database per access key, so that tests in any language isolate
    /// themselves by signing with a key of their own. At most `max` databases are kept; a request
    /// with a new key beyond that is refused (`LimitExceededException`) until the admin endpoint
    /// `DELETE /_dynomodel/databases` drops them. Only [`bind_mem`](ServerBuilder::bind_mem)
    /// serves an engine that can fork; the other binds ignore it. The databases live in memory,
    /// even when the seed is durable: with isolation, no client's write reaches the seed's data
    /// directory (`serve` refuses `--isolate` with `--data-dir` for that reason).
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use dynomodel_mem::{server::Server, MemBackend};
    /// let seed = MemBackend::new(); // tables and items every client starts from
    /// let server = Server::builder()
    ///     .isolate_by_access_key(1000)
    ///     .bind_mem("127.0.0.1:0", seed, None)
    ///     .await?;
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn isolate_by_access_key(mut self, max: usize) -> ServerBuilder {
        self.isolate = Some(max);
        self
    }

    /// Requires `Authorization: Bearer TOKEN` on every admin request (`/_dynomodel/…`). Without a
    /// token, a server bound beyond loopback does not serve the admin endpoints at all.
    pub fn admin_token(mut self, token: impl Into<String>) -> ServerBuilder {
        self.admin_token = Some(token.into());
        self
    }

    /// Accepts `name` in the `Host` of requests that reach the server on loopback, besides
    /// `localhost`, `*.localhost` and IP addresses (for an `/etc/hosts` alias of 127.0.0.1; see the
    /// DNS-rebinding defence in the guide's server chapter, `docs/guide/server.md`).
    pub fn allow_host(mut self, name: &str) -> ServerBuilder {
        self.hosts.allow(name);
        self
    }

    /// Lets pages of `origin` (`scheme://host[:port]`, e.g. `https://app.example`; `*` for every
    /// origin) call DynamoDB's API from a browser: the server answers their CORS preflights and grants
    /// them its answers, as DynamoDB does. By default pages served from loopback may
    /// (`http://localhost:5173`, `http://127.0.0.1:3000`, …), and, on a server that
    /// [verifies signatures](ServerBuilder::verify_signatures), every origin, as on DynamoDB; a server
    /// that checks no signature would otherwise let any page a browser visits read and write its
    /// tables. The admin endpoints never answer CORS.
    ///
    /// ```
    /// use dynomodel_mem::{server::Server, MemBackend};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder()
    ///     .cors_origin("https://app.example")
    ///     .bind("127.0.0.1:0", MemBackend::new())
    ///     .await?;
    /// server.shutdown().await;
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn cors_origin(mut self, origin: &str) -> ServerBuilder {
        self.origins.allow(origin);
        self
    }

    /// A key the server accepts signatures from, once it
    /// [verifies signatures](ServerBuilder::verify_signatures): access key id and secret access key,
    /// as the client's credentials hold them.
    pub fn access_key(mut self, id: impl Into<String>, secret: impl Into<String>) -> ServerBuilder {
        self.keys.insert(id.into(), secret.into());
        self
    }

    /// Checks the SigV4 signature of every DynamoDB request against the
    /// [access keys](ServerBuilder::access_key) given (at least one, or the bind fails), and refuses
    /// the others as DynamoDB does, all with HTTP 400: no `Authorization` header is
    /// `MissingAuthenticationTokenException` ("Request is missing Authentication Token"), an unknown
    /// access key `UnrecognizedClientException` ("The security token included in the request is
    /// invalid."), a wrong signature, or one dated more than 15 minutes from the server's clock,
    /// `InvalidSignatureException`, a malformed header `IncompleteSignatureException`. Off by default:
    /// any request is served, signed or not. The admin endpoints are not DynamoDB's and keep their own
    /// token. With an engine whose region is set, a request signed for another region is refused, as
    /// another region's endpoint refuses it.
    ///
    /// ```
    /// use dynomodel_mem::{server::Server, MemBackend};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let server = Server::builder()
    ///     .access_key("AKIDLOCAL", "local-secret")
    ///     .verify_signatures()
    ///     .bind("127.0.0.1:0", MemBackend::new())
    ///     .await?;
    /// // Unsigned requests are now refused: MissingAuthenticationTokenException.
    /// server.shutdown().await;
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn verify_signatures(mut self) -> ServerBuilder {
        self.verify_signatures = true;
        self
    }

    /// [`Server::bind`](super::Server::bind) with these settings.
    pub async fn bind<B: Backend + 'static>(
        self,
        addr: impl ToSocketAddrs,
        backend: B,
    ) -> io::Result<ServerHandle> {
        // The engine is served as one (its health, its region model), without admin endpoints.
        let engine = (&backend as &dyn std::any::Any)
            .downcast_ref::<MemBackend>()
            .cloned();
        self.start(addr, Arc::new(backend), None, engine, None)
            .await
    }

    /// [`Server::bind_shared`](super::Server::bind_shared) with these settings.
    pub async fn bind_shared(
        self,
        addr: impl ToSocketAddrs,
        backend: Arc<dyn Backend>,
    ) -> io::Result<ServerHandle> {
        self.start(addr, backend, None, None, None).await
    }

    /// [`Server::bind_mem`](super::Server::bind_mem) with these settings.
    pub async fn bind_mem(
        self,
        addr: impl ToSocketAddrs,
        backend: MemBackend,
        clock: Option<ManualClock>,
    ) -> io::Result<ServerHandle> {
        let isolation = self
            .isolate
            .map(|max| Arc::new(Isolation::new(backend.clone(), max)));
        let admin = admin::Admin {
            faults: backend.faults().clone(),
            clock,
            state: StateAdmin::new(backend.clone(), isolation.clone()),
        };
        let engine = backend.clone();
        self.start(
            addr,
            Arc::new(backend),
            Some(admin),
            Some(engine),
            isolation,
        )
        .await
    }

    async fn start(
        self,
        addr: impl ToSocketAddrs,
        backend: Arc<dyn Backend>,
        admin: Option<admin::Admin>,
        engine: Option<MemBackend>,
        isolation: Option<Arc<Isolation>>,
    ) -> io::Result<ServerHandle> {
        if self.verify_signatures && self.keys.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "verifying signatures needs at least one access key (--access-key or \
                 --access-keys-file)",
            ));
        }
        let listener = TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        let loopback = local_addr.ip().is_loopback();
        if !loopback && !self.verify_signatures {
            tracing::warn!(
                "listening on {local_addr}, beyond loopback: the DynamoDB API is unauthenticated, \
                 anyone who can reach this address can read and write every table"
            );
        }
        let admin = match (admin, &self.admin_token) {
            (None, _) => admin::Endpoints::Absent,
            (Some(admin), Some(token)) => admin::Endpoints::Enabled(admin, Some(token.clone())),
            (Some(admin), None) if loopback => admin::Endpoints::Enabled(admin, None),
            (Some(_), None) => {
                tracing::warn!(
                    "the admin endpoints (/_dynomodel/) are disabled: a server listening beyond \
                     loopback serves them only with an admin token (--admin-token)"
                );
                admin::Endpoints::Disabled
            }
        };
        // An engine without a region of its own answers each client in its signing region.
        let pinned_region = engine.as_ref().and_then(MemBackend::pinned_region);
        let present_regions = engine.is_some() && pinned_region.is_none();
        let mut origins = self.origins;
        let verifier = match self.verify_signatures {
            true => {
                origins.allow_any_by_default();
                Some(Verifier::new(self.keys, pinned_region))
            }
            false => None,
        };
        let shared = Arc::new(http::Shared {
            backend,
            engine,
            admin,
            hosts: self.hosts,
            body_memory: limits::BodyMemory::new(self.limits.max_body_memory),
            limits: self.limits,
            origins,
            verifier,
            present_regions,
            isolation: isolation.clone(),
        });
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(serve(listener, shared, stopped));
        Ok(ServerHandle {
            local_addr,
            stop,
            task: Some(task),
            sweeper: None,
            isolation,
        })
    }
}
