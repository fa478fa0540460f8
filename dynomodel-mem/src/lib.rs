//! # dynomodel-mem
//!
//! An in-memory Amazon DynamoDB engine: a faithful test double that implements [`dynomodel::backend::Backend`]
//! with DynamoDB's validation rules, limits, orderings and error messages. For the mapper,
//! [`memory()`] is a `dynomodel::Db` over a fresh engine (no import needed).
//!
//! Operations so far: CreateTable, DescribeTable, ListTables, DeleteTable, PutItem, GetItem,
//! DeleteItem, UpdateItem (with condition, update and projection expressions), Query and Scan
//! (tables, local and global secondary indexes, parallel scans), BatchGetItem (up to 100 keys, 16 MB
//! of items per call, the rest in `UnprocessedKeys`) and BatchWriteItem (up to 25 puts and deletes,
//! validated as a whole before the first write), and the transactions TransactGetItems and
//! TransactWriteItems (all-or-nothing across tables, isolated, with cancellation reasons and idempotent
//! `ClientRequestToken`s). DynamoDB's legacy parameters (`Expected`, `AttributeUpdates`,
//! `AttributesToGet`, `KeyConditions`, `QueryFilter`, `ScanFilter`, `ConditionalOperator`) are accepted
//! too, checked with DynamoDB's legacy messages and translated into the equivalent expressions, and so
//! is PartiQL (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction: `SELECT`/`INSERT`/`UPDATE`/
//! `DELETE` with `?` parameters, translated onto the operations above so they share their semantics,
//! capacity and stream records). On-demand backups and point-in-time recovery (CreateBackup,
//! DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup, DescribeContinuousBackups,
//! UpdateContinuousBackups, RestoreTableToPointInTime) restore tables as they were, from the
//! engine's own history of changes on its clock. Tables are usable as soon as they are created (as on DynamoDB Local),
//! unless [`MemBackendBuilder::transition_time`] makes them `CREATING` for a while. Time comes from an
//! injectable [`Clock`] ([`MemBackend::with_clock`]). Tests can make it fail on purpose, exactly where
//! they say, with deterministic fault rules ([`faults`], [`MemBackend::faults`]). A test suite builds
//! its data once and gives each test a copy of its own at no cost: [`MemBackend::fork`],
//! [`MemBackend::snapshot`] and [`MemBackend::restore`], and [`Fixture`] for the whole pattern. Strongly
//! consistent by default (as DynamoDB Local), it can lag as DynamoDB does, deterministically on its
//! clock: GSI changes after a delay, stale reads without `ConsistentRead`
//! ([`MemBackendBuilder::eventual_consistency`], [`MemBackend::settle`]; for a fixture's forks,
//! [`Fixture::eventual_consistency`]). With the `server`
//! feature, the `dump` module exports and imports tables as DynamoDB JSON lines and whole engines as
//! one dump file (what `dynomodel-mem serve --seed` loads).
//!
//! The guide's chapters [testing with the engine] (throttling, fault injection, the manual clock)
//! and [the server] (its limits, durability with `--data-dir`, seed and export) show them at work.
//!
//! [testing with the engine]: https://github.com/dynomodel/dynomodel/blob/main/docs/guide/testing.md
//! [the server]: https://github.com/dynomodel/dynomodel/blob/main/docs/guide/server.md
//!
//! ```
//! use dynomodel::{AttributeValue, Item};
//! use dynomodel::backend::{
//!     AttributeDefinition, Backend, BillingMode, CreateTableInput, GetItemInput, KeySchemaElement,
//!     PutItemInput, ScalarAttributeType,
//! };
//! use dynomodel_mem::MemBackend;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let backend = MemBackend::new();
//! backend
//!     .create_table(CreateTableInput {
//!         table_name: "users".into(),
//!         attribute_definitions: vec![AttributeDefinition {
//!             attribute_name: "id".into(),
//!             attribute_type: ScalarAttributeType::S,
//!         }],
//!         key_schema: vec![KeySchemaElement::hash("id")],
//!         billing_mode: Some(BillingMode::PayPerRequest),
//!         ..Default::default()
//!     })
//!     .await?;
//!
//! let mut item = Item::new();
//! item.insert("id".into(), AttributeValue::S("u1".into()));
//! item.insert("name".into(), AttributeValue::S("Ada".into()));
//! backend
//!     .put_item(PutItemInput { table_name: "users".into(), item: item.clone(), ..Default::default() })
//!     .await?;
//!
//! let mut key = Item::new();
//! key.insert("id".into(), AttributeValue::S("u1".into()));
//! let got = backend
//!     .get_item(GetItemInput { table_name: "users".into(), key, ..Default::default() })
//!     .await?;
//! assert_eq!(got.item, Some(item));
//!
//! // DynamoDB's errors, with DynamoDB's messages:
//! let err = backend
//!     .get_item(GetItemInput { table_name: "nope".into(), ..Default::default() })
//!     .await
//!     .unwrap_err();
//! assert_eq!(err.code(), "ResourceNotFoundException");
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```
//!
//! The same through PartiQL:
//!
//! ```
//! use dynomodel::AttributeValue;
//! use dynomodel::backend::{
//!     AttributeDefinition, Backend, BillingMode, CreateTableInput, ExecuteStatementInput,
//!     KeySchemaElement, ScalarAttributeType,
//! };
//! use dynomodel_mem::MemBackend;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let backend = MemBackend::new();
//! backend
//!     .create_table(CreateTableInput {
//!         table_name: "users".into(),
//!         attribute_definitions: vec![AttributeDefinition {
//!             attribute_name: "id".into(),
//!             attribute_type: ScalarAttributeType::S,
//!         }],
//!         key_schema: vec![KeySchemaElement::hash("id")],
//!         billing_mode: Some(BillingMode::PayPerRequest),
//!         ..Default::default()
//!     })
//!     .await?;
//! let run = |statement: &str, parameters: Vec<AttributeValue>| ExecuteStatementInput {
//!     statement: statement.into(),
//!     parameters: Some(parameters),
//!     ..Default::default()
//! };
//! let u1 = AttributeValue::S("u1".into());
//! backend
//!     .execute_statement(run(r#"INSERT INTO "users" VALUE {'id': ?, 'name': 'Ada'}"#, vec![u1.clone()]))
//!     .await?;
//! let found = backend
//!     .execute_statement(run(r#"SELECT name FROM "users" WHERE id = ?"#, vec![u1.clone()]))
//!     .await?;
//! let items = found.items.unwrap_or_default();
//! assert_eq!(items[0]["name"], AttributeValue::S("Ada".into()));
//!
//! // A second INSERT of the same key is DynamoDB's DuplicateItemException.
//! let err = backend
//!     .execute_statement(run(r#"INSERT INTO "users" VALUE {'id': ?}"#, vec![u1]))
//!     .await
//!     .unwrap_err();
//! assert_eq!(err.code(), "DuplicateItemException");
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```

#![forbid(unsafe_code)]

mod access;
mod backend;
mod config;
mod consistency;
pub mod durable;
mod expr;
pub mod faults;
mod fixture;
pub mod fork;
// The fuzz targets' entry points (`fuzz/`), compiled only with the `fuzzing` feature (and for the
// test replaying their corpora): hidden, not part of the API.
mod frontends;
#[cfg(all(feature = "server", any(test, feature = "fuzzing")))]
#[doc(hidden)]
pub mod fuzzing;
mod metering;
mod ops;
mod read;
mod storage;
mod validate;

#[cfg(feature = "server")]
pub mod dump;
// DynamoDB's JSON protocol (request decoding, the service model's checks, responses, durable
// records): the codec the server, durable mode and dumps share.
#[cfg(feature = "protocol")]
mod protocol;
#[cfg(feature = "server")]
pub mod server;

#[cfg(test)]
mod tests;

use std::sync::{Arc, RwLock};

use dynomodel::Db;

pub use config::MemBackendBuilder;
#[cfg(feature = "server")]
pub use dump::{dump_all, export_table, import_table, load_dump, DumpError, HttpTarget};
#[cfg(feature = "durable")]
pub use durable::{
    Damage, DamageReport, Health, OpenError, Readable, RecoveryReport, Repair, SyncPolicy, TornTail,
};
pub use fixture::{Fixture, FixtureBuild};
pub use fork::{ForkOptions, Snapshot};
pub use storage::clock::{Clock, ManualClock, SystemClock};
pub use storage::consistency::EventualConsistency;
pub use storage::settings::ThroughputEnforcement;
pub use validate::{MAX_HASH_KEY_SIZE, MAX_NESTING_DEPTH, MAX_RANGE_KEY_SIZE};

/// The engine's internals that its own binaries, benchmarks and the workspace's tests call: not
/// part of the API (hidden, no stability promise). One module, rather than hidden items scattered
/// through the public ones, so that everything else `pub` is documented API.
#[doc(hidden)]
pub mod __private {
    /// The messages of the throughput errors, which tests compare with.
    pub use crate::metering::throughput::{INDEX_EXCEEDED, TABLE_EXCEEDED};

    /// The `dynomodel-mem` command line, which the `dynomodel-mem` and `server-bench` binaries
    /// run.
    #[cfg(feature = "server")]
    pub mod cli {
        pub use crate::server::cli::main;
    }

    /// DynamoDB's JSON protocol without HTTP: the benchmarks measure it, and the tests send it
    /// requests the typed API cannot express.
    #[cfg(feature = "protocol")]
    pub mod wire {
        pub use crate::protocol::{
            call, error_response, item_to_json, operation_of, respond, Context, Fault, WireResult,
            OPERATIONS,
        };
    }
}

use storage::state::State;

/// The in-memory DynamoDB engine.
///
/// Cheap to clone: clones share the same tables. `Send + Sync`, with a lock per table: requests on
/// different tables never wait for each other, reads of one table run in parallel, and writes to one
/// table are serialised by that table's lock alone. Every request is atomic: it locks all the tables
/// it names at once (in name order, so that no two requests deadlock) before it runs, for writing if
/// it writes: a TransactWriteItems holds all its tables from its first check to its last write, and a
/// TransactGetItems all its tables together, which is what makes transactions isolated (no reader
/// ever sees half of one, and no write slips between a transaction's checks and its writes). Table
/// operations (CreateTable, DeleteTable, UpdateTable, …) and ListStreams have the engine to
/// themselves. A request never panics, whatever it contains.
///
/// ```
/// use dynomodel::backend::{Backend, ListTablesInput};
/// use dynomodel_mem::MemBackend;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let backend = MemBackend::new();
/// let page = backend.list_tables(ListTablesInput::default()).await.unwrap();
/// assert!(page.table_names.is_empty());
/// # });
/// ```
///
/// `UpdateTable` adds a global secondary index to a table that already holds items: the index is
/// backfilled from them. Its response shows the index `CREATING`, as DynamoDB's does; with the default
/// (zero) transition time it is `ACTIVE` and queryable by the next request
/// ([`MemBackendBuilder::transition_time`] makes it last).
///
/// ```
/// use dynomodel::AttributeValue;
/// use dynomodel::backend::{
///     AttributeDefinition, Backend, BillingMode, CreateTableInput, GlobalSecondaryIndex,
///     GlobalSecondaryIndexUpdate, KeySchemaElement, Projection, ProjectionType, PutItemInput,
///     QueryInput, ScalarAttributeType, TableStatus, UpdateTableInput,
/// };
/// use dynomodel_mem::MemBackend;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let backend = MemBackend::new();
/// let string = |name: &str| AttributeDefinition {
///     attribute_name: name.into(),
///     attribute_type: ScalarAttributeType::S,
/// };
/// backend
///     .create_table(CreateTableInput {
///         table_name: "orders".into(),
///         attribute_definitions: vec![string("id")],
///         key_schema: vec![KeySchemaElement::hash("id")],
///         billing_mode: Some(BillingMode::PayPerRequest),
///         ..Default::default()
///     })
///     .await?;
/// let s = |v: &str| AttributeValue::S(v.into());
/// for (id, customer) in [("o1", "ann"), ("o2", "bob"), ("o3", "ann")] {
///     backend
///         .put_item(PutItemInput {
///             table_name: "orders".into(),
///             item: [("id".to_owned(), s(id)), ("customer".to_owned(), s(customer))].into(),
///             ..Default::default()
///         })
///         .await?;
/// }
///
/// // One new index per UpdateTable; only its new key attribute needs a definition.
/// let updated = backend
///     .update_table(UpdateTableInput {
///         table_name: "orders".into(),
///         attribute_definitions: vec![string("customer")],
///         global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Create(
///             GlobalSecondaryIndex {
///                 index_name: "by-customer".into(),
///                 key_schema: vec![KeySchemaElement::hash("customer")],
///                 projection: Projection {
///                     projection_type: ProjectionType::All,
///                     non_key_attributes: vec![],
///                 },
///                 provisioned_throughput: None,
///             },
///         )],
///         ..Default::default()
///     })
///     .await?;
/// let index = &updated.table_description.global_secondary_indexes[0];
/// assert_eq!(index.index_status, TableStatus::Creating);
///
/// // The items written before the index existed are in it.
/// let anns = backend
///     .query(QueryInput {
///         table_name: "orders".into(),
///         index_name: Some("by-customer".into()),
///         key_condition_expression: Some("customer = :c".into()),
///         expression_attribute_values: Some([(":c".to_owned(), s("ann"))].into()),
///         ..Default::default()
///     })
///     .await?;
/// assert_eq!(anns.count, 2);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Clone, Debug, Default)]
pub struct MemBackend {
    state: Arc<RwLock<State>>,
    /// The engine-wide services beside the catalog (the expression cache, the throughput meter),
    /// which every request uses without locking the catalog for them.
    services: Arc<ops::context::Services>,
    /// The state's clock, shared, so that [`Backend::now`](dynomodel::backend::Backend::now) reads it without
    /// taking the state's lock.
    clock: storage::clock::EngineClock,
    faults: faults::FaultHandle,
    /// The data directory, in durable mode.
    #[cfg(feature = "durable")]
    durable: Option<Arc<durable::Durable>>,
}

impl MemBackend {
    /// An engine with no tables.
    pub fn new() -> MemBackend {
        MemBackend::default()
    }

    /// An engine with no tables that reads the time from `clock` instead of the system clock: the
    /// engine's one source of "now" (the 10-minute window of a `ClientRequestToken` and a table's
    /// `CreationDateTime` today). [`Clock`]'s example builds an engine on a clock of its own;
    /// [`ManualClock`]'s moves time through a token's window.
    pub fn with_clock(clock: impl Clock + 'static) -> MemBackend {
        MemBackend::builder().clock(clock).build()
    }

    /// An engine with settings other than the defaults: clock, ARN region and account, how long
    /// tables and indexes take to become `ACTIVE`.
    ///
    /// Region and account make the tables' ARNs, by which the tag operations name a table:
    ///
    /// ```
    /// use dynomodel::backend::{
    ///     AttributeDefinition, Backend, BillingMode, CreateTableInput, KeySchemaElement,
    ///     ListTagsOfResourceInput, ScalarAttributeType, Tag, TagResourceInput,
    /// };
    /// use dynomodel_mem::MemBackend;
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let backend = MemBackend::builder().region("eu-west-1").account("123456789012").build();
    /// let created = backend
    ///     .create_table(CreateTableInput {
    ///         table_name: "orders".into(),
    ///         attribute_definitions: vec![AttributeDefinition {
    ///             attribute_name: "id".into(),
    ///             attribute_type: ScalarAttributeType::S,
    ///         }],
    ///         key_schema: vec![KeySchemaElement::hash("id")],
    ///         billing_mode: Some(BillingMode::PayPerRequest),
    ///         tags: vec![Tag::new("team", "payments")],
    ///         ..Default::default()
    ///     })
    ///     .await?;
    /// let arn = created.table_description.table_arn;
    /// assert_eq!(arn, "arn:aws:dynamodb:eu-west-1:123456789012:table/orders");
    ///
    /// backend
    ///     .tag_resource(TagResourceInput {
    ///         resource_arn: arn.clone(),
    ///         tags: vec![Tag::new("env", "prod")],
    ///     })
    ///     .await?;
    /// let listed = backend
    ///     .list_tags_of_resource(ListTagsOfResourceInput { resource_arn: arn.clone(), next_token: None })
    ///     .await?;
    /// // In key order.
    /// assert_eq!(listed.tags, vec![Tag::new("env", "prod"), Tag::new("team", "payments")]);
    ///
    /// // DynamoDB's validation: `aws:` is reserved, at most 50 tags, and more.
    /// let err = backend
    ///     .tag_resource(TagResourceInput { resource_arn: arn, tags: vec![Tag::new("aws:x", "v")] })
    ///     .await
    ///     .unwrap_err();
    /// assert_eq!(err.message(), "Tag Key cannot be prefixed with aws:, Key: aws:x");
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn builder() -> MemBackendBuilder {
        MemBackendBuilder::default()
    }

    fn from_parts(
        clock: storage::clock::EngineClock,
        config: storage::settings::EngineConfig,
        faults: faults::Faults,
    ) -> MemBackend {
        MemBackend {
            services: Arc::new(ops::context::Services::new(config.throughput)),
            state: Arc::new(RwLock::new(State::new(clock.clone(), config))),
            clock,
            faults: faults::FaultHandle::from(faults),
            #[cfg(feature = "durable")]
            durable: None,
        }
    }

    /// The engine's region when one was set ([`MemBackendBuilder::region`]); `None` for an engine
    /// that answers every region.
    #[cfg(feature = "server")]
    pub(crate) fn pinned_region(&self) -> Option<String> {
        let state = self.read();
        let config = state.config();
        config.region_pinned.then(|| config.region.clone())
    }

    /// The fault rules armed on this engine (shared by its clones): add or clear rules while it
    /// runs, e.g. to fail one request in the middle of a test. See [`faults`].
    ///
    /// ```
    /// use dynomodel_mem::faults::{FaultError, Operation, Rule};
    /// use dynomodel_mem::MemBackend;
    ///
    /// let backend = MemBackend::new();
    /// let id = backend.faults().add(Rule::on(Operation::PutItem).times(1).fail(FaultError::Throttling));
    /// assert_eq!(backend.faults().fired(id), 0);
    /// backend.faults().clear();
    /// assert!(backend.faults().is_empty());
    /// ```
    pub fn faults(&self) -> &faults::FaultHandle {
        &self.faults
    }

    /// Deletes every item whose Time to Live has passed (by the engine's clock), from the table and
    /// its indexes, and returns how many it deleted. DynamoDB deletes expired items in the background,
    /// typically within a few days; until a sweep runs they are still read, as on DynamoDB. The server
    /// runs a sweep periodically; embedded users and tests call this when they choose.
    ///
    /// An item expires when its TTL attribute (see `UpdateTimeToLive`) is a Number of epoch seconds
    /// not after now and not more than five years before it; strings, sets and other types never
    /// expire. Only tables whose TTL is `ENABLED` are swept.
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel::{AttributeValue, Item, Number};
    /// use dynomodel::backend::{
    ///     AttributeDefinition, Backend, BillingMode, CreateTableInput, GetItemInput,
    ///     GlobalSecondaryIndex, KeySchemaElement, Projection, ProjectionType, PutItemInput,
    ///     QueryInput, ScalarAttributeType, TimeToLiveSpecification, UpdateTimeToLiveInput,
    /// };
    /// use dynomodel_mem::{Clock, ManualClock, MemBackend};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let clock = ManualClock::default();
    /// let backend = MemBackend::builder().clock(clock.clone()).build();
    /// let def = |name: &str| AttributeDefinition {
    ///     attribute_name: name.into(),
    ///     attribute_type: ScalarAttributeType::S,
    /// };
    /// backend
    ///     .create_table(CreateTableInput {
    ///         table_name: "sessions".into(),
    ///         attribute_definitions: vec![def("id"), def("user")],
    ///         key_schema: vec![KeySchemaElement::hash("id")],
    ///         billing_mode: Some(BillingMode::PayPerRequest),
    ///         global_secondary_indexes: vec![GlobalSecondaryIndex {
    ///             index_name: "by-user".into(),
    ///             key_schema: vec![KeySchemaElement::hash("user")],
    ///             projection: Projection {
    ///                 projection_type: ProjectionType::All,
    ///                 non_key_attributes: vec![],
    ///             },
    ///             provisioned_throughput: None,
    ///         }],
    ///         ..Default::default()
    ///     })
    ///     .await?;
    /// backend
    ///     .update_time_to_live(UpdateTimeToLiveInput {
    ///         table_name: "sessions".into(),
    ///         time_to_live_specification: TimeToLiveSpecification {
    ///             enabled: true,
    ///             attribute_name: "expires".into(),
    ///         },
    ///     })
    ///     .await?;
    ///
    /// // A session that expires in a minute.
    /// let in_a_minute = clock.now().timestamp() + 60;
    /// let item = Item::from([
    ///     ("id".to_owned(), AttributeValue::S("s1".into())),
    ///     ("user".to_owned(), AttributeValue::S("ada".into())),
    ///     ("expires".to_owned(), AttributeValue::N(Number::from(in_a_minute))),
    /// ]);
    /// backend
    ///     .put_item(PutItemInput { table_name: "sessions".into(), item, ..Default::default() })
    ///     .await?;
    /// let get = GetItemInput {
    ///     table_name: "sessions".into(),
    ///     key: Item::from([("id".to_owned(), AttributeValue::S("s1".into()))]),
    ///     ..Default::default()
    /// };
    /// let by_user = QueryInput {
    ///     table_name: "sessions".into(),
    ///     index_name: Some("by-user".into()),
    ///     key_condition_expression: Some("#u = :u".into()),
    ///     expression_attribute_names: Some([("#u".to_owned(), "user".to_owned())].into()),
    ///     expression_attribute_values: Some(
    ///         [(":u".to_owned(), AttributeValue::S("ada".into()))].into(),
    ///     ),
    ///     ..Default::default()
    /// };
    ///
    /// // Two minutes later it has expired, and is still read until a sweep deletes it...
    /// clock.advance(Duration::from_secs(120));
    /// assert!(backend.get_item(get.clone()).await?.item.is_some());
    /// assert_eq!(backend.sweep_expired(), 1);
    /// // ... from the table and from its indexes.
    /// assert!(backend.get_item(get).await?.item.is_none());
    /// assert_eq!(backend.query(by_user).await?.count, 0);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn sweep_expired(&self) -> usize {
        let logged = self.logged(durable::Command::SweepExpired);
        self.mutate_logged(logged, |s| Ok(s.sweep_expired()))
            .unwrap_or(0)
    }

    /// What is inconsistent in the engine, one line per problem; empty when every secondary index
    /// equals an index rebuilt from its table's items and every table's item count its items. For
    /// tests (the crash test checks a recovered engine with it); it reads every item.
    ///
    /// ```
    /// let backend = dynomodel_mem::MemBackend::new();
    /// assert!(backend.consistency_problems().is_empty());
    /// ```
    pub fn consistency_problems(&self) -> Vec<String> {
        self.read().consistency_problems()
    }
}

/// A [`Db`] over a fresh, empty in-memory engine ([`MemBackend`]): the quickest start, with nothing
/// to import.
///
/// `Db::memory()` is the same, through the [`MemoryDb`] extension trait, which must be in scope
/// (`use dynomodel_mem::MemoryDb;`): `dynomodel` cannot have the function itself, since it cannot
/// depend on this crate, and without the import rustc says only that `Db` has no `memory` (it
/// suggests the import only once this crate is used elsewhere in the file's crate).
///
/// ```
/// use dynomodel::Model;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct User {
///     #[hash_key]
///     id: String,
///     name: String,
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = dynomodel_mem::memory();
/// db.create_schema::<User>().await?;
/// let ada = User { id: "u1".into(), name: "Ada".into() };
/// db.put(&ada).await?;
/// assert_eq!(db.get::<User>("u1").await?, Some(ada));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
pub fn memory() -> Db {
    Db::new(MemBackend::new())
}

/// `Db::memory()`: a [`Db`] over a fresh in-memory engine, as [`memory()`].
///
/// An extension trait because `dynomodel` cannot depend on `dynomodel-mem` (that would be a cycle),
/// so it must be imported; [`memory()`] needs no import.
///
/// ```
/// use dynomodel::Db;
/// use dynomodel_mem::MemoryDb;
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = Db::memory();
/// let tables = db.backend().list_tables(Default::default()).await.unwrap();
/// assert!(tables.table_names.is_empty());
/// # });
/// ```
pub trait MemoryDb {
    /// A database served by a new, empty [`MemBackend`].
    fn memory() -> Self;
}

impl MemoryDb for Db {
    fn memory() -> Db {
        memory()
    }
}
