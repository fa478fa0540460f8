//! [`ServerBuilder`]: a server's limits, admin token and `Host` names, then the bind.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use dynomodel::Backend;
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::sync::watch;

use super::limits::{self, Limits};
use super::{access, admin, http, serve, ServerHandle};
use crate::{ManualClock, MemBackend};

/// A server's settings before it binds: its limits on what clients may hold, the admin token, and the
/// `Host` names it accepts beyond loopback's own. From [`Server::builder`]; every setting has a
/// default.
///
/// Timeouts longer than a year count as a year.
///
/// [`Server::builder`]: super::Server::builder
#[derive(Debug, Clone, Default)]
pub struct ServerBuilder {
    limits: Limits,
    admin_token: Option<String>,
    hosts: access::Hosts,
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

    /// Requires `Authorization: Bearer TOKEN` on every admin request (`/_dynomodel/…`). Without a
    /// token, a server bound beyond loopback does not serve the admin endpoints at all.
    pub fn admin_token(mut self, token: impl Into<String>) -> ServerBuilder {
        self.admin_token = Some(token.into());
        self
    }

    /// Accepts `name` in the `Host` of requests that reach the server on loopback, besides
    /// `localhost`, `*.localhost` and IP addresses (for an `/etc/hosts` alias of 127.0.0.1; see the
    /// DNS-rebinding defence in the README).
    pub fn allow_host(mut self, name: &str) -> ServerBuilder {
        self.hosts.allow(name);
        self
    }

    /// [`Server::bind`](super::Server::bind) with these settings.
    pub async fn bind<B: Backend + 'static>(
        self,
        addr: impl ToSocketAddrs,
        backend: B,
    ) -> io::Result<ServerHandle> {
        self.bind_shared(addr, Arc::new(backend)).await
    }

    /// [`Server::bind_shared`](super::Server::bind_shared) with these settings.
    pub async fn bind_shared(
        self,
        addr: impl ToSocketAddrs,
        backend: Arc<dyn Backend>,
    ) -> io::Result<ServerHandle> {
        self.start(addr, backend, None, None).await
    }

    /// [`Server::bind_mem`](super::Server::bind_mem) with these settings.
    pub async fn bind_mem(
        self,
        addr: impl ToSocketAddrs,
        backend: MemBackend,
        clock: Option<ManualClock>,
    ) -> io::Result<ServerHandle> {
        let admin = admin::Admin {
            faults: backend.faults().clone(),
            clock,
        };
        let engine = backend.clone();
        self.start(addr, Arc::new(backend), Some(admin), Some(engine))
            .await
    }

    async fn start(
        self,
        addr: impl ToSocketAddrs,
        backend: Arc<dyn Backend>,
        admin: Option<admin::Admin>,
        engine: Option<MemBackend>,
    ) -> io::Result<ServerHandle> {
        let listener = TcpListener::bind(addr).await?;
        let local_addr = listener.local_addr()?;
        let loopback = local_addr.ip().is_loopback();
        if !loopback {
            log::warn!(
                "listening on {local_addr}, beyond loopback: the DynamoDB API is unauthenticated, \
                 anyone who can reach this address can read and write every table"
            );
        }
        let admin = match (admin, &self.admin_token) {
            (None, _) => admin::Endpoints::Absent,
            (Some(admin), Some(token)) => admin::Endpoints::Enabled(admin, Some(token.clone())),
            (Some(admin), None) if loopback => admin::Endpoints::Enabled(admin, None),
            (Some(_), None) => {
                log::warn!(
                    "the admin endpoints (/_dynomodel/) are disabled: a server listening beyond \
                     loopback serves them only with an admin token (--admin-token)"
                );
                admin::Endpoints::Disabled
            }
        };
        let shared = Arc::new(http::Shared {
            backend,
            engine,
            admin,
            hosts: self.hosts,
            body_memory: limits::BodyMemory::new(self.limits.max_body_memory),
            limits: self.limits,
        });
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(serve(listener, shared, stopped));
        Ok(ServerHandle {
            local_addr,
            stop,
            task: Some(task),
            sweeper: None,
        })
    }
}
