//! A test fixture built once per test binary, and a fork of it for every test: [`Fixture`].

use std::future::Future;
use std::pin::Pin;

use dynomodel::{Db, Result};
use tokio::sync::OnceCell;

use crate::fork::Snapshot;
use crate::MemBackend;

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
    built: OnceCell<Snapshot>,
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
            .finish_non_exhaustive()
    }
}

impl Fixture {
    /// A fixture that `build` fills, once, on the first [`Fixture::fork`]. `const`, for a `static`.
    pub const fn new(build: FixtureBuild) -> Fixture {
        Fixture {
            source: Source::Build(build),
            built: OnceCell::const_new(),
        }
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
            built: OnceCell::const_new(),
        }
    }

    /// The fixture as built, building it first if no test has yet.
    pub async fn snapshot(&self) -> Result<Snapshot> {
        self.built
            .get_or_try_init(|| async {
                let backend = MemBackend::new();
                match &self.source {
                    Source::Build(build) => build(Db::new(backend.clone())).await?,
                    #[cfg(feature = "server")]
                    Source::Dump(path) => load(&backend, path).await?,
                }
                Ok(backend.snapshot())
            })
            .await
            .cloned()
    }

    /// A `Db` over a fork of the fixture of its own: the one line at the start of each test.
    pub async fn fork(&self) -> Result<Db> {
        Ok(Db::new(self.fork_backend().await?))
    }

    /// A fork of the fixture as a [`MemBackend`] (to serve it, or to reach its clock, faults and
    /// `sweep_expired`).
    pub async fn fork_backend(&self) -> Result<MemBackend> {
        Ok(self.snapshot().await?.fork())
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
