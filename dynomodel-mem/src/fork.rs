//! Forks, snapshots and resets of an engine: the state of a test suite's fixture, copied per test
//! at no cost.
//!
//! A table's items and index entries live in persistent maps (docs/performance.md, "Forks"): a
//! copy of the catalog shares every node with the original, and a write to either copies only the nodes on its
//! path. So [`MemBackend::fork`] and [`MemBackend::snapshot`] cost a lock and a few allocations per
//! table, whatever the number of items, and a fork costs memory only for what it writes.
//!
//! What a copy holds: every table in every status (created, being deleted, its TTL setting and expiry
//! index, tags, capacity history, indexes being created or deleted), the items and index entries, the
//! streams with their records, the transactions' `ClientRequestToken`s, the table counter, the
//! engine's region, account and settings (eventual consistency on demand included, unless
//! [`ForkOptions::eventual_consistency`] gives the fork its own). What it does not: the expression
//! parse cache and the throughput buckets, which start empty and full (they change no answer but
//! throttling, which restarts as after a restart of the server).
//!
//! Durable mode: a fork of a durable engine is an in-memory engine (it writes nothing to the data
//! directory, which stays the parent's alone); [`MemBackend::restore`] and [`MemBackend::reset`] are
//! refused on a durable engine, because its log would not know of them and a restart would bring
//! back the state before: fork it, and restore or reset the fork.

use std::sync::{Arc, RwLock};

use dynomodel::Result;

use crate::faults::FaultHandle;
use crate::storage::clock::{Clock, EngineClock};
use crate::storage::state::State;
use crate::{EventualConsistency, MemBackend};

/// How [`MemBackend::fork_with`] sets up a fork: its clock, its fault rules and its eventual
/// consistency.
///
/// ```
/// use dynomodel_mem::{ForkOptions, ManualClock, MemBackend};
///
/// let parent = MemBackend::new();
/// // A clock of the fork's own: moving it moves neither the parent's nor another fork's time.
/// let clock = ManualClock::default();
/// let fork = parent.fork_with(ForkOptions::new().clock(clock.clone()));
/// assert!(fork.faults().is_empty());
/// ```
#[derive(Debug, Default, Clone)]
pub struct ForkOptions {
    clock: Option<EngineClock>,
    share_faults: bool,
    consistency: Option<Arc<EventualConsistency>>,
}

impl ForkOptions {
    /// The defaults of [`MemBackend::fork`]: the parent's clock (shared: a [`ManualClock`] moved on
    /// the parent moves the fork's time too), and no fault rules.
    ///
    /// [`ManualClock`]: crate::ManualClock
    pub fn new() -> ForkOptions {
        ForkOptions::default()
    }

    /// The fork reads the time from `clock` instead of the parent's clock.
    pub fn clock(mut self, clock: impl Clock + 'static) -> ForkOptions {
        self.clock = Some(EngineClock::new(clock));
        self
    }

    /// The fork shares the parent's fault rules ([`MemBackend::faults`]): a rule added to either
    /// applies to both, and counts the requests of both. Without it, a fork starts with none.
    pub fn share_faults(mut self) -> ForkOptions {
        self.share_faults = true;
        self
    }

    /// The fork models eventual consistency on demand with `settings`, whatever the parent's
    /// setting (see [`MemBackendBuilder::eventual_consistency`]): its writes reach its GSIs after
    /// the delays, and its reads without `ConsistentRead` are stale within the window, until
    /// [`MemBackend::settle`]. Changes the parent had pending stay pending in the fork, at their
    /// instants; the seeded delays are drawn afresh from the fork's first write of each table, so
    /// two forks given the same writes get the same delays. Without it, a fork keeps its parent's
    /// setting.
    ///
    /// A strongly consistent fixture whose tests lag: build it settled, and fork it with this
    /// ([`Fixture::eventual_consistency`](crate::Fixture::eventual_consistency) does both).
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel_mem::{EventualConsistency, ForkOptions, MemBackend};
    ///
    /// let fixture = MemBackend::new(); // strongly consistent: loaded, and settled
    /// let lagging = EventualConsistency::new().gsi_delay(Duration::from_millis(200));
    /// let test_backend = fixture.fork_with(ForkOptions::new().eventual_consistency(lagging));
    /// # let _ = test_backend;
    /// ```
    ///
    /// [`MemBackendBuilder::eventual_consistency`]: crate::MemBackendBuilder::eventual_consistency
    pub fn eventual_consistency(mut self, settings: EventualConsistency) -> ForkOptions {
        self.consistency = Some(Arc::new(settings));
        self
    }
}

/// An immutable copy of a whole engine at one instant ([`MemBackend::snapshot`]): return an
/// engine to it with [`MemBackend::restore`], or start new engines from it with
/// [`Snapshot::fork`]. It shares its storage with the engine it was taken from, so taking one costs
/// no copy of the items; cloning one costs a reference count. `Send` and `Sync`: one snapshot can
/// serve every thread of a test binary.
///
/// ```
/// use dynomodel::Model;
/// use dynomodel_mem::MemBackend;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct User {
///     #[hash_key]
///     id: String,
///     name: String,
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let backend = MemBackend::new();
/// let db = dynomodel::Db::new(backend.clone());
/// db.create_schema::<User>().await?;
/// db.put(&User { id: "u1".into(), name: "Ada".into() }).await?;
/// let fixture = backend.snapshot();
///
/// db.delete_key::<User>("u1").await?;
/// assert_eq!(db.get::<User>("u1").await?, None);
/// backend.restore(&fixture)?;
/// assert_eq!(db.get::<User>("u1").await?.map(|u| u.name), Some("Ada".into()));
///
/// // Or a new engine from it, as many as needed.
/// let other = dynomodel::Db::new(fixture.fork());
/// assert!(other.get::<User>("u1").await?.is_some());
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct Snapshot {
    state: Arc<State>,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("tables", &self.state.table_count())
            .finish_non_exhaustive()
    }
}

impl Snapshot {
    /// A new in-memory engine holding the snapshot's state, on the clock of the engine the
    /// snapshot was taken from, without fault rules. Cheap (see [`MemBackend::fork`]).
    pub fn fork(&self) -> MemBackend {
        self.fork_following(None)
    }

    /// [`Snapshot::fork`], modelling eventual consistency with `consistency` when given (see
    /// [`ForkOptions::eventual_consistency`]).
    pub(crate) fn fork_following(
        &self,
        consistency: Option<Arc<EventualConsistency>>,
    ) -> MemBackend {
        let clock = self.state.clock().clone();
        let mut state = self.state.fork(clock.clone());
        if let Some(settings) = consistency {
            state.follow(settings);
        }
        MemBackend::over(state, clock, FaultHandle::default())
    }
}

impl MemBackend {
    /// An engine assembled from its parts (in memory), with services of its own: its expression
    /// cache and throughput buckets start empty (a cache holds nothing the copy needs; buckets
    /// start full, as after a restart).
    fn over(state: State, clock: EngineClock, faults: FaultHandle) -> MemBackend {
        let services = crate::ops::context::Services::new(state.config().throughput);
        MemBackend {
            services: Arc::new(services),
            state: Arc::new(RwLock::new(state)),
            clock,
            faults,
            #[cfg(feature = "durable")]
            durable: None,
        }
    }

    /// An independent engine holding everything this one holds now (see the [module
    /// docs](crate::fork) for what that is): writes to either are not seen by the other. The fork
    /// shares this engine's clock and has no fault rules; [`MemBackend::fork_with`] chooses
    /// otherwise.
    ///
    /// Cheap whatever the size of the data: the fork shares the tables' storage with this engine
    /// until either writes, and a write then copies only the few tree nodes on its path (the
    /// figures are in docs/performance.md, "Forks"). Forking takes the catalog's read lock and
    /// every table's at once: the fork holds all or none of each request's writes, a transaction
    /// across tables included. A fork of a durable engine lives in memory only.
    ///
    /// ```
    /// use dynomodel::Model;
    /// use dynomodel_mem::MemBackend;
    ///
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct User {
    ///     #[hash_key]
    ///     id: String,
    ///     name: String,
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let fixture = MemBackend::new();
    /// let db = dynomodel::Db::new(fixture.clone());
    /// db.create_schema::<User>().await?;
    /// db.put(&User { id: "u1".into(), name: "Ada".into() }).await?;
    ///
    /// let test_db = dynomodel::Db::new(fixture.fork());
    /// test_db.put(&User { id: "u1".into(), name: "Grace".into() }).await?;
    /// assert_eq!(test_db.get::<User>("u1").await?.map(|u| u.name), Some("Grace".into()));
    /// // The fixture is untouched.
    /// assert_eq!(db.get::<User>("u1").await?.map(|u| u.name), Some("Ada".into()));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn fork(&self) -> MemBackend {
        self.fork_with(ForkOptions::new())
    }

    /// [`MemBackend::fork`] with another clock or the parent's fault rules ([`ForkOptions`]).
    pub fn fork_with(&self, options: ForkOptions) -> MemBackend {
        let clock = options.clock.unwrap_or_else(|| self.clock.clone());
        let mut state = self.read().fork(clock.clone());
        if let Some(settings) = options.consistency {
            state.follow(settings);
        }
        let faults = match options.share_faults {
            true => self.faults.clone(),
            false => FaultHandle::default(),
        };
        MemBackend::over(state, clock, faults)
    }

    /// An immutable copy of the engine as it is now, to [`restore`](MemBackend::restore) later or
    /// to [fork](Snapshot::fork) engines from. As cheap as a fork; see [`Snapshot`].
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: Arc::new(self.read().fork(self.clock.clone())),
        }
    }

    /// Puts the engine back as it was when `snapshot` was taken (from this engine or another):
    /// tables, items, indexes, streams, tokens and settings; the engine keeps its own clock and
    /// fault rules. Every clone of this `MemBackend` (and a server serving it) sees the restored
    /// state from the next request on; a request in flight finishes on the state before.
    ///
    /// Refused on a durable engine (its log would not know of the restore, so a restart would
    /// bring back the state before it): restore a [fork](MemBackend::fork) of it instead.
    pub fn restore(&self, snapshot: &Snapshot) -> Result<()> {
        self.refuse_durable("restore")?;
        let restored = snapshot.state.fork(self.clock.clone());
        let before = std::mem::replace(&mut *self.write(), restored);
        // The old state is freed outside the lock.
        drop(before);
        Ok(())
    }

    /// Empties the engine: no tables, no streams, no tokens, as [`MemBackend::new`] with this
    /// engine's settings (region, account, transition time, throughput enforcement), clock and
    /// fault rules. Refused on a durable engine, as [`MemBackend::restore`] is.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use dynomodel::backend::Backend;
    /// let backend = dynomodel_mem::MemBackend::new();
    /// // ... a test creates tables and writes items ...
    /// backend.reset()?;
    /// assert!(backend.list_tables(Default::default()).await?.table_names.is_empty());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn reset(&self) -> Result<()> {
        self.refuse_durable("reset")?;
        let config = self.read().config().clone();
        let empty = State::new(self.clock.clone(), config);
        let before = std::mem::replace(&mut *self.write(), empty);
        drop(before);
        Ok(())
    }

    /// The error of an operation that would make a durable engine's memory and disk disagree.
    fn refuse_durable(&self, operation: &str) -> Result<()> {
        #[cfg(feature = "durable")]
        if self.durable.is_some() {
            return Err(dynomodel::Error::validation(format!(
                "MemBackend::{operation} is refused on a durable engine: its log would not record it, \
                 and a restart would bring back the state before it. Fork the engine \
                 (MemBackend::fork, in memory) and {operation} the fork"
            )));
        }
        #[cfg(not(feature = "durable"))]
        let _ = operation;
        Ok(())
    }
}
