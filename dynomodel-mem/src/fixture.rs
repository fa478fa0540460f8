//! A test fixture built once per test binary, and a fork of it for every test: [`Fixture`].

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use dynomodel::{Db, Result};
use tokio::sync::OnceCell;

use crate::fork::Snapshot;
use crate::{EventualConsistency, MemBackend};

/// What builds a fixture: fills the engine behind the `Db` (tables, items) and reports failure.
pub type FixtureBuild = fn(Db) -> Pin<Box<dyn Future<Output = Result<()>> + Send>>;

/// A database built once per test binary, of which each test gets its own fork: tests start from
/// the same data, run in parallel, and never see each other's writes.
///
/// Declare it as a `static` with the function that builds it; the first test that asks for a fork
/// builds it (on an engine of its own, [`MemBackend::new`]) and keeps a [`Snapshot`] of the result;
/// tests asking meanwhile wait for it, and every later one forks the snapshot at once. A fork costs
/// a few microseconds whatever the fixture's size (docs/performance.md, "Forks"), so a fixture of a
/// million items is no slower per test than an empty one.
///
/// Each test's runtime is its own (`#[tokio::test]`, one runtime per test): the build runs on the
/// first caller's runtime, and needs none after (the engine spawns no task and keeps no timer), so
/// a fork serves any runtime. A build that fails, or whose test panics mid-way, is not kept: the
/// next test builds again, and every test that asked gets the error.
///
/// Strongly consistent by default, as the engine; with [`Fixture::eventual_consistency`] each
/// test's fork lags its own writes as DynamoDB does, from a settled fixture.
///
/// ```
/// use dynomodel::Model;
/// use dynomodel_mem::Fixture;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct User {
///     #[hash_key]
///     id: String,
///     name: String,
/// }
///
/// static USERS: Fixture = Fixture::new(|db| {
///     Box::pin(async move {
///         db.create_schema::<User>().await?;
///         for i in 0..1000 {
///             db.put(&User { id: format!("u{i}"), name: format!("user {i}") }).await?;
///         }
///         Ok(())
///     })
/// });
///
/// // In each test (`#[tokio::test] async fn ... -> dynomodel::Result<()>`):
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = USERS.fork().await?;
/// db.delete_key::<User>("u1").await?;
/// assert_eq!(db.get::<User>("u1").await?, None);
///
/// // Another test's fork still has it.
/// let other = USERS.fork().await?;
/// assert!(other.get::<User>("u1").await?.is_some());
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
pub struct Fixture {
    source: Source,
    /// The eventual consistency of the forks (the fixture's build is strongly consistent).
    consistency: Option<EventualConsistency>,
    built: OnceCell<Built>,
}

/// A fixture once built: its snapshot, and the settings its forks lag by.
struct Built {
    snapshot: Snapshot,
    consistency: Option<Arc<EventualConsistency>>,
}

/// Where a fixture's data comes from.
enum Source {
    /// A function of the test binary.
    Build(FixtureBuild),
    /// A dump file (`dynomodel-mem export`'s, what `serve --seed` loads).
    #[cfg(feature = "server")]
    Dump(&'static str),
}

impl std::fmt::Debug for Fixture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fixture")
            .field("built", &self.built.initialized())
            .field("eventually_consistent", &self.consistency.is_some())
            .finish_non_exhaustive()
    }
}

impl Fixture {
    /// A fixture that `build` fills, once, on the first [`Fixture::fork`]. `const`, for a `static`.
    pub const fn new(build: FixtureBuild) -> Fixture {
        Fixture {
            source: Source::Build(build),
            consistency: None,
            built: OnceCell::const_new(),
        }
    }

    /// Every fork of the fixture models eventual consistency on demand with `settings` (see [`MemBackendBuilder::eventual_consistency`]): a test's writes reach
    /// the GSIs after the delays, and its reads without `ConsistentRead` are stale within the
    /// window, until it moves past them or calls [`MemBackend::settle`] on its
    /// [`fork_backend`](Fixture::fork_backend). `const`, for a `static`.
    ///
    /// The fixture itself is built strongly consistent and holds nothing pending: the build's
    /// own reads see its writes (a build that reads back what it wrote, to derive or update
    /// data, would otherwise load stale data into every test's start), and every test starts
    /// from the same settled data however long after the build it runs (changes pending at the
    /// snapshot would arrive on the shared clock, reaching the later tests and not the first
    /// ones). That is DynamoDB's picture too: a fixture loaded before the tests has propagated;
    /// the tests' own writes lag. Each fork's pending changes are its own; the seeded delays are
    /// drawn from each fork's first write, so a test gets the same delays on every run.
    ///
    /// A fork reads the fixture's clock (the system's): for a [`ManualClock`](crate::ManualClock)
    /// of its own, fork the test's fork with [`ForkOptions::clock`](crate::ForkOptions::clock)
    /// (a few microseconds more); it keeps the setting.
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel::Model;
    /// use dynomodel_mem::{EventualConsistency, Fixture};
    ///
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// #[global_index(all("by-email", hash = email))]
    /// struct Account {
    ///     #[hash_key]
    ///     id: String,
    ///     email: String,
    /// }
    ///
    /// static ACCOUNTS: Fixture = Fixture::new(|db| {
    ///     Box::pin(async move {
    ///         db.create_schema::<Account>().await?;
    ///         db.put(&Account { id: "a1".into(), email: "ada@x".into() }).await
    ///     })
    /// })
    /// .eventual_consistency(EventualConsistency::new().gsi_delay(Duration::from_secs(60)));
    ///
    /// // In a test:
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let backend = ACCOUNTS.fork_backend().await?;
    /// let db = dynomodel::Db::new(backend.clone());
    /// // The fixture's own items are in the GSI, settled.
    /// assert!(db.query_index(Account::by_email(), "ada@x").first().await?.is_some());
    /// // The test's writes lag: the read-after-write bug shows, as on DynamoDB ...
    /// db.put(&Account { id: "a2".into(), email: "grace@x".into() }).await?;
    /// assert_eq!(db.query_index(Account::by_email(), "grace@x").first().await?, None);
    /// // ... until the GSI catches up.
    /// backend.settle();
    /// assert!(db.query_index(Account::by_email(), "grace@x").first().await?.is_some());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    ///
    /// [`MemBackendBuilder::eventual_consistency`]: crate::MemBackendBuilder::eventual_consistency
    pub const fn eventual_consistency(mut self, settings: EventualConsistency) -> Fixture {
        self.consistency = Some(settings);
        self
    }

    /// A fixture loaded, once, from the dump file at `path` (relative to the test's working
    /// directory, the crate's root under `cargo test`), as `dynomodel-mem serve --seed` loads it:
    /// its tables are `ACTIVE` at once. A file that cannot be read or loaded fails every fork
    /// with an error naming the file and the line.
    ///
    /// ```no_run
    /// use dynomodel_mem::Fixture;
    /// static SHOP: Fixture = Fixture::from_dump("tests/fixtures/shop.dump");
    /// # async fn test() -> dynomodel::Result<()> {
    /// let db = SHOP.fork().await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "server")]
    pub const fn from_dump(path: &'static str) -> Fixture {
        Fixture {
            source: Source::Dump(path),
            consistency: None,
            built: OnceCell::const_new(),
        }
    }

    /// The fixture as built, building it first if no test has yet. It is strongly consistent
    /// whatever [`Fixture::eventual_consistency`] says: its own forks ([`Snapshot::fork`]) do
    /// not lag; [`Fixture::fork`]'s do.
    pub async fn snapshot(&self) -> Result<Snapshot> {
        Ok(self.built().await?.snapshot.clone())
    }

    /// The fixture, built by the first caller (the others wait for it).
    async fn built(&self) -> Result<&Built> {
        self.built
            .get_or_try_init(|| async {
                let backend = MemBackend::new();
                match &self.source {
                    Source::Build(build) => build(Db::new(backend.clone())).await?,
                    #[cfg(feature = "server")]
                    Source::Dump(path) => load(&backend, path).await?,
                }
                Ok(Built {
                    snapshot: backend.snapshot(),
                    consistency: self.consistency.clone().map(Arc::new),
                })
            })
            .await
    }

    /// A `Db` over a fork of the fixture of its own: the one line at the start of each test.
    pub async fn fork(&self) -> Result<Db> {
        Ok(Db::new(self.fork_backend().await?))
    }

    /// A fork of the fixture as a [`MemBackend`] (to serve it, or to reach its clock, faults,
    /// `settle` and `sweep_expired`).
    pub async fn fork_backend(&self) -> Result<MemBackend> {
        let built = self.built().await?;
        Ok(built.snapshot.fork_following(built.consistency.clone()))
    }
}

/// Seeds `backend` from the dump file at `path`, on a thread of its own: the dump's reader is not
/// `Send`, and a fixture's future must be, to be awaited from any test's runtime.
#[cfg(feature = "server")]
async fn load(backend: &MemBackend, path: &'static str) -> Result<()> {
    let failed = move |e: &dyn std::fmt::Display| {
        dynomodel::Error::validation(format!("the fixture's dump file {path}: {e}"))
    };
    let backend = backend.clone();
    let (done, loaded) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let seeded = (|| {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .map_err(|e| failed(&e))?;
            let file = std::fs::File::open(path).map_err(|e| failed(&e))?;
            let mut input = std::io::BufReader::new(file);
            runtime
                .block_on(crate::dump::seed(&backend, &mut input))
                .map_err(|e| failed(&e))?;
            Ok(())
        })();
        // The receiver is gone only when the test awaiting it was dropped.
        let _ = done.send(seeded);
    });
    loaded
        .await
        .map_err(|_| failed(&"the thread loading it stopped before it finished"))?
}
