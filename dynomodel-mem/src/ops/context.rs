//! What an operation runs on beside the catalog: the engine-wide services ([`Services`]: the
//! expression parse cache, the throughput meter), which the engine (`MemBackend`) keeps next to its
//! catalog rather than in it, and an item request's view of both ([`ItemRequest`]: the tables it
//! holds locked, and the services).

use std::sync::MutexGuard;

use dynomodel::Result;

use crate::expr::cache::ExpressionCache;
use crate::metering::throughput::{Meter, Throughput};
use crate::storage::clock::EngineClock;
use crate::storage::lock::Locked;
use crate::storage::settings::{EngineConfig, ThroughputEnforcement};
use crate::storage::table::Table;
use crate::storage::tokens::Tokens;

/// The engine-wide services the operations use, each locking itself: held by the engine beside
/// the catalog, shared by every request.
#[derive(Debug, Default)]
pub(crate) struct Services {
    /// Parsed expressions (readers fill it too).
    cache: ExpressionCache,
    /// Provisioned throughput enforcement (off unless configured).
    throughput: Throughput,
}

impl Services {
    /// The services of an engine that enforces provisioned throughput with `enforcement` (`None`:
    /// off).
    pub(crate) fn new(enforcement: Option<ThroughputEnforcement>) -> Services {
        Services {
            cache: ExpressionCache::default(),
            throughput: Throughput::new(enforcement),
        }
    }

    /// The expression parse cache.
    pub(crate) fn cache(&self) -> &ExpressionCache {
        &self.cache
    }

    /// Provisioned throughput enforcement.
    pub(crate) fn throughput(&self) -> &Throughput {
        &self.throughput
    }
}

/// An item request at work: the tables it holds ([`Locked`]) and the engine's services. What the
/// item operations (`items.rs`, `batch/`, `transact/`, Query and Scan) run on.
pub(crate) struct ItemRequest<'a> {
    locked: Locked<'a>,
    services: &'a Services,
}

impl<'a> ItemRequest<'a> {
    /// The request holding `locked`, with the engine's `services`.
    pub(crate) fn new(locked: Locked<'a>, services: &'a Services) -> ItemRequest<'a> {
        ItemRequest { locked, services }
    }

    /// A held table by name or table ARN ([`Locked::table`]).
    pub(crate) fn table(&self, name: &str) -> Result<&Table> {
        self.locked.table(name)
    }

    /// A held table by name, for writing ([`Locked::table_mut`]).
    pub(crate) fn table_mut(&mut self, name: &str) -> Result<&mut Table> {
        self.locked.table_mut(name)
    }

    /// [`ItemRequest::table_mut`] with the throughput meter beside it.
    pub(crate) fn table_mut_metered(
        &mut self,
        name: &str,
    ) -> Result<(&mut Table, Option<Meter<'a>>)> {
        let meter = self.meter();
        Ok((self.locked.table_mut(name)?, meter))
    }

    /// The throughput meter at the engine's clock, or `None` (without reading the clock) when
    /// enforcement is off.
    pub(crate) fn meter(&self) -> Option<Meter<'a>> {
        self.services.throughput.meter(self.locked.clock())
    }

    /// Provisioned throughput enforcement.
    pub(crate) fn throughput(&self) -> &'a Throughput {
        self.services.throughput()
    }

    /// The expression parse cache (it locks itself).
    pub(crate) fn cache(&self) -> &'a ExpressionCache {
        self.services.cache()
    }

    /// The engine's settings.
    pub(crate) fn config(&self) -> &'a EngineConfig {
        self.locked.config()
    }

    /// The engine's clock.
    pub(crate) fn clock(&self) -> &'a EngineClock {
        self.locked.clock()
    }

    /// The `ClientRequestToken`s of recent transactions, locked ([`Locked::tokens_mut`]).
    pub(crate) fn tokens_mut(&self) -> MutexGuard<'a, Tokens> {
        self.locked.tokens_mut()
    }
}
