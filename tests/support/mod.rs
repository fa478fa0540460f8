//! The dual-backend harness: one scenario, two backends.
//!
//! ```ignore
//! dual_test!(put_then_get, |t| {
//!     let table = t.create_table("items", ("pk", S), None).await;
//!     t.backend().put_item(/* … */).await.unwrap();
//! });
//! ```
//!
//! expands to a module `put_then_get` with three `#[tokio::test]`s, `mem`, `dynamodb_local` and `server`
//! (the engine behind `dynomodel-mem`'s HTTP server, through the AWS backend), each of
//! which builds a [`Dual`] for its backend, runs the body, and then deletes every table the body created
//! through [`Dual`] — also when the body panics — so that tests can run in parallel on one DynamoDB Local
//! and leave nothing behind.
//!
//! Where DynamoDB Local contradicts the AWS documentation, the in-memory engine follows the docs and the
//! scenario asserts per backend with [`Dual::expect_error_differs`], next to a `// KNOWN DIFFERENCE:`
//! comment. Everything else is asserted identically with [`Dual::expect_error`].

use std::fmt::Debug;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use dynomodel::backend::{
    AttributeDefinition, Backend, BillingMode, CreateTableInput, DeleteTableInput,
    KeySchemaElement, ScalarAttributeType,
};
use dynomodel::faults::{FaultHandle, FaultyBackend};
use dynomodel::{AwsBackend, Db, Error, Result};
use futures::FutureExt;

/// The environment variable holding DynamoDB Local's endpoint, e.g. `http://127.0.0.1:8000`.
pub const ENDPOINT_VAR: &str = "DYNAMODB_ENDPOINT";
/// Set to `1` (as `scripts/test`, and so CI, does) to fail rather than skip the DynamoDB Local variants
/// when no endpoint is configured: a suite that silently passes without its oracle proves nothing.
pub const REQUIRE_VAR: &str = "DYNOMODEL_REQUIRE_DYNAMODB_LOCAL";

/// DynamoDB Local's endpoint for `test_name`, or `None` when the variant is skipped.
///
/// A plain `cargo test` (no endpoint) skips, saying once per test binary how to run these variants;
/// with [`REQUIRE_VAR`] set a missing endpoint fails the test.
pub fn dynamodb_local_endpoint(test_name: &str) -> Option<String> {
    static NOTICE: std::sync::Once = std::sync::Once::new();
    match std::env::var(ENDPOINT_VAR) {
        Ok(endpoint) if !endpoint.is_empty() => Some(endpoint),
        _ if std::env::var(REQUIRE_VAR).as_deref() == Ok("1") => panic!(
            "{ENDPOINT_VAR} is not set, but {REQUIRE_VAR}=1: the DynamoDB Local variant of \
             `{test_name}` must run (use `scripts/test`, which starts DynamoDB Local)"
        ),
        _ => {
            // Written to the process's stderr directly, not through `eprintln!`, which the test harness
            // captures: the notice shows in a plain `cargo test`'s output.
            NOTICE.call_once(|| {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "note: {ENDPOINT_VAR} is not set: the DynamoDB Local variants pass as skipped; \
                     `scripts/test` runs them against a private DynamoDB Local"
                );
            });
            None
        }
    }
}

/// A database over `backend` wrapped in fault rules, and their handle.
fn faulty(backend: AwsBackend) -> (Db, FaultHandle) {
    let faulty = FaultyBackend::new(backend);
    let faults = faulty.faults().clone();
    (Db::new(faulty), faults)
}

/// The in-memory engine, as a shared backend.
///
/// The one place that constructs the engine for tests.
pub fn mem_backend() -> Arc<dyn Backend> {
    Arc::new(mem_engine())
}

/// The in-memory engine itself, for scenarios that call its own methods (`sweep_expired`).
pub fn mem_engine() -> dynomodel_mem::MemBackend {
    dynomodel_mem::MemBackend::new()
}

/// Which backend a scenario runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `dynomodel-mem`, which follows the AWS documentation.
    Mem,
    /// `AwsBackend` against Amazon DynamoDB Local.
    DynamoDbLocal,
    /// `AwsBackend` against `dynomodel-mem`'s HTTP server (in process, on 127.0.0.1:0): the engine
    /// through the wire protocol, so it expects the engine's messages.
    Server,
}

/// What a scenario gets: the database, which backend it is, and unique table names that are cleaned up.
#[derive(Debug, Clone)]
pub struct Dual {
    db: Db,
    target: Target,
    /// The AWS backend, for raw SDK probes (`None` on the in-memory engine).
    aws: Option<AwsBackend>,
    prefix: String,
    counter: Arc<AtomicUsize>,
    tables: Arc<Mutex<Vec<String>>>,
    /// The HTTP server of [`Target::Server`]; it stops when the last clone is dropped.
    server: Option<Arc<dynomodel_mem::server::ServerHandle>>,
    /// The engine behind [`Target::Mem`] and [`Target::Server`] (clones share its state).
    engine: Option<dynomodel_mem::MemBackend>,
    /// The data directory of the server's engine (durable mode), held only to be removed after the
    /// scenario.
    _data_dir: Option<Arc<DataDir>>,
}

/// A scenario's data directory, removed when the last clone of its [`Dual`] is dropped.
#[derive(Debug)]
struct DataDir(std::path::PathBuf);

impl Drop for DataDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Dual {
    /// Builds the context for `target`, or `None` when the DynamoDB Local variant is skipped.
    ///
    /// See [`dynamodb_local_endpoint`] for when the DynamoDB Local variant is skipped.
    pub fn new(target: Target, test_name: &str) -> Option<Dual> {
        let mut engine = None;
        let (db, aws) = match target {
            Target::Server => panic!("Target::Server needs a runtime: use Dual::server"),
            Target::Mem => {
                let mem = mem_engine();
                engine = Some(mem.clone());
                (Db::new(mem), None)
            }
            Target::DynamoDbLocal => {
                let aws = AwsBackend::local(dynamodb_local_endpoint(test_name)?);
                (Db::new(aws.clone()), Some(aws))
            }
        };
        // Table names: test name + process id, so parallel tests and concurrent runs never collide.
        let prefix = format!("dm-{}-{}", test_name.replace("::", "."), std::process::id());
        Some(Dual {
            db,
            target,
            aws,
            prefix,
            counter: Arc::new(AtomicUsize::new(0)),
            tables: Arc::new(Mutex::new(Vec::new())),
            server: None,
            engine,
            _data_dir: None,
        })
    }

    /// The context for [`Target::Server`]: a fresh engine behind its own server on a free loopback port
    /// (startup is cheap), reached through the AWS backend. The engine runs in durable mode (as
    /// `serve --data-dir DIR --sync 10ms`) in a fresh directory, so that every scenario also goes
    /// through the write-ahead log.
    pub async fn server(test_name: &str) -> Dual {
        let dir = std::env::temp_dir().join(format!(
            "dm-durable-{}-{}",
            test_name.replace("::", "."),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let engine = dynomodel_mem::MemBackend::builder()
            .sync(dynomodel_mem::SyncPolicy::Every(
                std::time::Duration::from_millis(10),
            ))
            .open(&dir)
            .expect("opening the server's data directory");
        let server = dynomodel_mem::server::Server::bind("127.0.0.1:0", engine.clone())
            .await
            .expect("binding the dynomodel-mem server");
        let aws = AwsBackend::local(server.url());
        Dual {
            db: Db::new(aws),
            target: Target::Server,
            aws: None,
            prefix: format!("dm-{}-{}", test_name.replace("::", "."), std::process::id()),
            counter: Arc::new(AtomicUsize::new(0)),
            tables: Arc::new(Mutex::new(Vec::new())),
            server: Some(Arc::new(server)),
            engine: Some(engine),
            _data_dir: Some(Arc::new(DataDir(dir))),
        }
    }

    /// The in-memory engine behind this scenario (also behind the server), `None` on DynamoDB Local:
    /// for what only the engine has, such as `sweep_expired`.
    pub fn engine(&self) -> Option<&dynomodel_mem::MemBackend> {
        self.engine.as_ref()
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The raw backend.
    pub fn backend(&self) -> &Arc<dyn Backend> {
        self.db.backend()
    }

    /// Which backend this is.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The endpoint of the [`Target::Server`] server, for raw HTTP probes; `None` on other targets.
    pub fn server_url(&self) -> Option<String> {
        self.server.as_ref().map(|s| s.url())
    }

    /// The AWS backend, for raw SDK probes; `None` on the in-memory engine, and on the server too: the
    /// raw probes assert DynamoDB Local's wording, while the server speaks the engine's (its wire-level
    /// handling of such requests is tested in `tests/server/`).
    pub fn aws(&self) -> Option<&AwsBackend> {
        self.aws.as_ref()
    }

    /// A fresh table name, unique to this test and run, registered for deletion at the end.
    pub fn table_name(&self, label: &str) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let name = format!("{}-{label}-{n}", self.prefix);
        self.tables.lock().unwrap().push(name.clone());
        name
    }

    /// Registers a table name chosen by the scenario itself for deletion at the end.
    pub fn register_table(&self, name: &str) {
        self.tables.lock().unwrap().push(name.to_owned());
    }

    /// The database with a namespace unique to this test and run, for scenarios on the models' own
    /// tables (`db.create_schema::<M>()`); register each with [`Dual::register_table`]
    /// (`db.table_name::<M>()`) so that it is deleted at the end.
    pub fn namespaced_db(&self) -> Db {
        self.db.clone().with_namespace(self.namespace())
    }

    /// A namespace unique to this test and run.
    pub fn namespace(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        format!("{}-ns{n}-", self.prefix)
    }

    /// A database with a fresh namespace (as [`Dual::namespaced_db`]) whose requests go through fault
    /// rules, and the handle that arms them: on [`Target::Mem`] the engine's own rules
    /// (`MemBackend::faults`), elsewhere a [`FaultyBackend`] around the AWS backend, whose rules run
    /// in this process after the SDK's retries (rules armed on the engine behind the server are
    /// [`Dual::engine`]'s).
    pub fn faulty_db(&self) -> (Db, FaultHandle) {
        let (db, faults) = match (self.target, &self.engine, &self.server) {
            (Target::Mem, Some(engine), _) => (self.db.clone(), engine.faults().clone()),
            (Target::Server, _, Some(server)) => faulty(AwsBackend::local(server.url())),
            _ => match &self.aws {
                Some(aws) => faulty(aws.clone()),
                None => panic!("no backend to wrap on {:?}", self.target),
            },
        };
        (db.with_namespace(self.namespace()), faults)
    }

    /// Creates an on-demand table with this key (hash, optional range) under a fresh name; returns the name.
    pub async fn create_table(
        &self,
        label: &str,
        hash: (&str, ScalarAttributeType),
        range: Option<(&str, ScalarAttributeType)>,
    ) -> String {
        let table_name = self.table_name(label);
        let mut input = CreateTableInput {
            table_name: table_name.clone(),
            billing_mode: Some(BillingMode::PayPerRequest),
            ..CreateTableInput::default()
        };
        for (i, (name, ty)) in std::iter::once(hash).chain(range).enumerate() {
            input.attribute_definitions.push(AttributeDefinition {
                attribute_name: name.to_owned(),
                attribute_type: ty,
            });
            input.key_schema.push(if i == 0 {
                KeySchemaElement::hash(name)
            } else {
                KeySchemaElement::range(name)
            });
        }
        self.backend()
            .create_table(input)
            .await
            .unwrap_or_else(|e| panic!("creating {table_name}: {e:?}"));
        table_name
    }

    /// Asserts that `result` failed with `code` and exactly `message` on both backends.
    pub fn expect_error<T: Debug>(&self, result: Result<T>, code: &str, message: &str) -> Error {
        self.expect_error_differs(result, code, message, message)
    }

    /// Asserts an error whose message differs between the AWS docs (followed by the engine: `mem_message`)
    /// and DynamoDB Local (`local_message`). Use it only next to a `// KNOWN DIFFERENCE:` comment.
    pub fn expect_error_differs<T: Debug>(
        &self,
        result: Result<T>,
        code: &str,
        mem_message: &str,
        local_message: &str,
    ) -> Error {
        let expected = match self.target {
            Target::Mem | Target::Server => mem_message,
            Target::DynamoDbLocal => local_message,
        };
        match result {
            Ok(v) => panic!(
                "[{:?}] expected {code}: {expected:?}, got Ok({v:?})",
                self.target
            ),
            Err(e) => {
                assert_eq!(
                    (e.code(), e.message().as_str()),
                    (code, expected),
                    "[{:?}] wrong error: {e:?}",
                    self.target
                );
                e
            }
        }
    }

    /// Deletes every table registered through [`Dual::table_name`]; a missing table is fine.
    async fn cleanup(&self) {
        let tables = std::mem::take(&mut *self.tables.lock().unwrap());
        for table_name in tables {
            match self
                .backend()
                .delete_table(DeleteTableInput {
                    table_name: table_name.clone(),
                })
                .await
            {
                Ok(_) | Err(Error::ResourceNotFound { .. }) => {}
                // Names that were never valid (validation scenarios) are rejected here too.
                Err(Error::Validation { .. }) => {}
                Err(e) => eprintln!("cleanup: deleting {table_name}: {e}"),
            }
        }
    }
}

/// Runs one scenario on one backend: builds the [`Dual`], runs `scenario`, always cleans up, then
/// re-raises the scenario's panic if it had one. Called by `dual_test!`.
pub async fn run_scenario<F, Fut>(target: Target, test_name: &str, scenario: F)
where
    F: FnOnce(Dual) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let dual = match target {
        Target::Server => Dual::server(test_name).await,
        _ => match Dual::new(target, test_name) {
            Some(dual) => dual,
            None => return,
        },
    };
    let outcome = AssertUnwindSafe(scenario(dual.clone()))
        .catch_unwind()
        .await;
    dual.cleanup().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// Defines a scenario once and runs it on every target: `dual_test!(name, |t| { … })` expands to
/// `mod name { #[tokio::test] async fn mem(); async fn dynamodb_local(); async fn server(); }`, where
/// `t` is a [`Dual`] and the block is the async body.
#[macro_export]
macro_rules! dual_test {
    ($name:ident, |$t:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn scenario($t: $crate::Dual) $body

            #[::tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn mem() {
                $crate::run_scenario($crate::Target::Mem, concat!(stringify!($name), "-mem"), scenario)
                    .await;
            }

            #[::tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn dynamodb_local() {
                $crate::run_scenario(
                    $crate::Target::DynamoDbLocal,
                    concat!(stringify!($name), "-local"),
                    scenario,
                )
                .await;
            }

            #[::tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn server() {
                $crate::run_scenario(
                    $crate::Target::Server,
                    concat!(stringify!($name), "-server"),
                    scenario,
                )
                .await;
            }
        }
    };
}
