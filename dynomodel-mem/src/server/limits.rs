//! What one client may hold of the server: time (the header, body and write timeouts), memory (request
//! bodies in flight) and connections. Every limit is a [`ServerBuilder`](super::ServerBuilder) setting
//! and a `serve` flag; the defaults are here, in the guide (`docs/guide/server.md`) and in
//! `serve --help`.
//!
//! Why each exists (issue 25): a client that sends headers and then stalls its body held its connection
//! and the body read so far forever; a client that never reads its answers held them; and clients that
//! open connections and send nothing could take every file descriptor, locking everyone else out.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The server's limits on what clients may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Limits {
    /// How long a connection may take to send a request's head; also how long an idle keep-alive
    /// connection stays open.
    pub(crate) header_timeout: Duration,
    /// How long a request's body may take to arrive, from the end of its head.
    pub(crate) body_timeout: Duration,
    /// How long a response may take to be written, from its first byte until the client has taken it
    /// all (a client that stops reading is disconnected).
    pub(crate) write_timeout: Duration,
    /// Request body bytes held at once, over all connections; a request waits (within its body
    /// timeout) for room.
    pub(crate) max_body_memory: usize,
    /// Connections open at once; more wait in the listen queue until one closes.
    pub(crate) max_connections: usize,
}

/// The default header timeout (hyper's).
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// The default body timeout: a 16 MB body at half a megabyte a second.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// The default write timeout.
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// The default cap on request body bytes in flight: 128 MiB, eight requests of the largest size.
pub const DEFAULT_MAX_BODY_MEMORY: usize = 128 * 1024 * 1024;
/// The longest timeout: longer ones are taken as this (a deadline must stay a representable instant).
pub(crate) const MAX_TIMEOUT: Duration = Duration::from_secs(365 * 24 * 60 * 60);
/// The most connections a server can be told to take (its cap is a semaphore's permits).
pub(crate) const MAX_CONNECTIONS: usize = Semaphore::MAX_PERMITS;
/// File descriptors kept for the process itself (the listener, the data directory's files, the
/// runtime's own) when the connection cap is derived from the descriptor limit.
const RESERVED_DESCRIPTORS: usize = 64;
/// The default connection cap's ceiling when the descriptor limit is higher.
const MAX_DEFAULT_CONNECTIONS: usize = 10_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
            max_body_memory: DEFAULT_MAX_BODY_MEMORY,
            max_connections: default_max_connections(),
        }
    }
}

/// The default connection cap: the process's open-file limit less 64 (kept for the listener, the data
/// directory's files and the runtime's own), at most 10,000, at least 16. The limit is read from
/// `/proc/self/limits` (Linux); elsewhere it is taken to be 256, macOS's default soft limit, the
/// lowest in common use.
///
/// ```
/// let cap = dynomodel_mem::server::default_max_connections();
/// assert!((16..=10_000).contains(&cap));
/// ```
pub fn default_max_connections() -> usize {
    let limit = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|text| open_files_limit(&text))
        .unwrap_or(256);
    limit
        .saturating_sub(RESERVED_DESCRIPTORS)
        .clamp(16, MAX_DEFAULT_CONNECTIONS)
}

/// The soft "Max open files" limit in the text of `/proc/self/limits`.
fn open_files_limit(text: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line
        .trim_start_matches("Max open files")
        .split_whitespace()
        .next()?;
    match soft {
        "unlimited" => Some(usize::MAX),
        n => n.parse().ok(),
    }
}

/// The request body bytes held by all connections, within [`Limits::max_body_memory`].
#[derive(Debug, Clone)]
pub(crate) struct BodyMemory {
    permits: Arc<Semaphore>,
    max: usize,
}

impl BodyMemory {
    pub(crate) fn new(max: usize) -> BodyMemory {
        let max = max.clamp(1, Semaphore::MAX_PERMITS);
        BodyMemory {
            permits: Arc::new(Semaphore::new(max)),
            max,
        }
    }

    /// Room for `bytes` more (at most the whole budget, so that a body as large as the budget waits for
    /// all of it rather than forever); waits until other requests give some back. `None` only if the
    /// budget were closed, which it never is.
    pub(crate) async fn reserve(&self, bytes: usize) -> Option<OwnedSemaphorePermit> {
        let n = u32::try_from(bytes.min(self.max)).unwrap_or(u32::MAX);
        Arc::clone(&self.permits).acquire_many_owned(n).await.ok()
    }

    /// The whole budget.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// The bytes free now.
    #[cfg(test)]
    pub(crate) fn available(&self) -> usize {
        self.permits.available_permits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bodies_take_room_from_the_budget_until_they_are_answered() {
        let memory = BodyMemory::new(16);
        let first = memory.reserve(10).await;
        assert_eq!(memory.available(), 6);
        // A body larger than the whole budget waits for all of it, not for ever.
        let waiting = tokio::time::timeout(Duration::from_millis(20), memory.reserve(100)).await;
        assert!(waiting.is_err());
        drop(first);
        let whole = memory.reserve(100).await;
        assert_eq!(memory.available(), 0);
        drop(whole);
        assert_eq!(memory.available(), 16);
    }

    #[test]
    fn the_connection_cap_follows_the_descriptor_limit() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \n\
                    Max cpu time              unlimited            unlimited            seconds   \n\
                    Max open files            1024                 524288               files     \n";
        assert_eq!(open_files_limit(text), Some(1024));
        assert_eq!(
            open_files_limit("Max open files            unlimited            unlimited   files"),
            Some(usize::MAX)
        );
        assert_eq!(open_files_limit("Max processes 10 10"), None);
        let default = default_max_connections();
        assert!(
            (16..=MAX_DEFAULT_CONNECTIONS).contains(&default),
            "{default}"
        );
    }
}
