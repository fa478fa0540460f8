//! How an engine is set up: [`MemBackend::builder`](crate::MemBackend::builder). The settings it
//! gathers are kept by the catalog ([`EngineConfig`]); durable mode's own settings and `open()` are
//! in `config/durable.rs`.

use std::time::Duration;

use crate::storage::clock::{Clock, EngineClock};
use crate::storage::settings::EngineConfig;
use crate::MemBackend;

#[cfg(feature = "durable")]
mod durable;

/// Builds a [`MemBackend`] with settings other than the defaults.
///
/// ```
/// use std::time::Duration;
/// use dynomodel_mem::{ManualClock, MemBackend};
///
/// let clock = ManualClock::default();
/// let backend = MemBackend::builder()
///     .clock(clock.clone())
///     .region("eu-west-1")
///     .account("123456789012")
///     .transition_time(Duration::from_secs(30))
///     .build();
/// # let _ = backend;
/// ```
#[derive(Debug, Default)]
pub struct MemBackendBuilder {
    pub(crate) clock: Option<EngineClock>,
    pub(crate) config: EngineConfig,
    pub(crate) faults: crate::faults::Faults,
    #[cfg(feature = "durable")]
    pub(crate) durable: crate::durable::Options,
}

impl MemBackendBuilder {
    /// Where "now" comes from (default: [`SystemClock`](crate::SystemClock)).
    pub fn clock(mut self, clock: impl Clock + 'static) -> Self {
        self.clock = Some(EngineClock::new(clock));
        self
    }

    /// The engine's region: every ARN it hands out and every stream record's `awsRegion` name it,
    /// and only ARNs of this region name its tables. Without one the engine is one database that
    /// answers every region: its ARNs say `ddblocal` (as DynamoDB Local's), an ARN of any region
    /// names its table, and its [server](crate::server) answers each client in the region the
    /// client signs its requests for.
    pub fn region(mut self, region: impl Into<String>) -> Self {
        self.config.region = region.into();
        self.config.region_pinned = true;
        self
    }

    /// The account id in table ARNs (default: `000000000000`, as DynamoDB Local).
    pub fn account(mut self, account: impl Into<String>) -> Self {
        self.config.account = account.into();
        self
    }

    /// How long tables and indexes stay `CREATING`, `UPDATING` or `DELETING`, measured on the
    /// engine's clock (default: zero, so every change is over by the next request, as on DynamoDB
    /// Local; the responses of CreateTable, UpdateTable and DeleteTable still say `CREATING`,
    /// `UPDATING` or `DELETING`, as DynamoDB's do). A
    /// test that waits for `ACTIVE` sets a duration and advances a [`ManualClock`](crate::ManualClock).
    ///
    /// Adding an index to a populated table: the index is backfilled from the items already there,
    /// `CREATING` until the transition time has passed, and queryable once `ACTIVE`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel::AttributeValue;
    /// use dynomodel::backend::{
    ///     AttributeDefinition, Backend, BillingMode, CreateTableInput, DescribeTableInput,
    ///     GlobalSecondaryIndex, GlobalSecondaryIndexUpdate, KeySchemaElement, Projection,
    ///     ProjectionType, PutItemInput, QueryInput, ScalarAttributeType, TableStatus,
    ///     UpdateTableInput,
    /// };
    /// use dynomodel_mem::{ManualClock, MemBackend};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let clock = ManualClock::default();
    /// let backend = MemBackend::builder()
    ///     .clock(clock.clone())
    ///     .transition_time(Duration::from_secs(60))
    ///     .build();
    /// let def = |name: &str| AttributeDefinition {
    ///     attribute_name: name.into(),
    ///     attribute_type: ScalarAttributeType::S,
    /// };
    /// backend
    ///     .create_table(CreateTableInput {
    ///         table_name: "users".into(),
    ///         attribute_definitions: vec![def("id")],
    ///         key_schema: vec![KeySchemaElement::hash("id")],
    ///         billing_mode: Some(BillingMode::PayPerRequest),
    ///         ..Default::default()
    ///     })
    ///     .await?;
    /// // The new table is CREATING (item operations find no table) until the transition has passed.
    /// clock.advance(Duration::from_secs(60));
    /// let s = |v: &str| AttributeValue::S(v.into());
    /// backend
    ///     .put_item(PutItemInput {
    ///         table_name: "users".into(),
    ///         item: [("id".to_owned(), s("u1")), ("email".to_owned(), s("a@example.com"))].into(),
    ///         ..Default::default()
    ///     })
    ///     .await?;
    ///
    /// // Add an index on `email`.
    /// let update = backend
    ///     .update_table(UpdateTableInput {
    ///         table_name: "users".into(),
    ///         attribute_definitions: vec![def("email")],
    ///         global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Create(
    ///             GlobalSecondaryIndex {
    ///                 index_name: "by-email".into(),
    ///                 key_schema: vec![KeySchemaElement::hash("email")],
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
    /// assert_eq!(
    ///     update.table_description.global_secondary_indexes[0].index_status,
    ///     TableStatus::Creating
    /// );
    /// let query = QueryInput {
    ///     table_name: "users".into(),
    ///     index_name: Some("by-email".into()),
    ///     key_condition_expression: Some("email = :e".into()),
    ///     expression_attribute_values: Some([(":e".to_owned(), s("a@example.com"))].into()),
    ///     ..Default::default()
    /// };
    /// // While it is backfilled, DynamoDB refuses to read it.
    /// assert!(backend.query(query.clone()).await.is_err());
    ///
    /// // A minute later it is ACTIVE and holds the item written before it existed.
    /// clock.advance(Duration::from_secs(60));
    /// let table = backend
    ///     .describe_table(DescribeTableInput { table_name: "users".into() })
    ///     .await?
    ///     .table;
    /// assert_eq!(table.global_secondary_indexes[0].index_status, TableStatus::Active);
    /// assert_eq!(backend.query(query).await?.count, 1);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn transition_time(mut self, transition: Duration) -> Self {
        self.config.transition = transition;
        self
    }

    /// The largest item collection of a table with local secondary indexes, in bytes (default: 10 GB,
    /// DynamoDB's limit): a write that would grow a collection past it fails with
    /// `ItemCollectionSizeLimitExceededException`. Lower it to test that path.
    ///
    /// ```
    /// let backend = dynomodel_mem::MemBackend::builder()
    ///     .item_collection_size_limit(64 * 1024)
    ///     .build();
    /// # let _ = backend;
    /// ```
    pub fn item_collection_size_limit(mut self, bytes: usize) -> Self {
        self.config.item_collection_size_limit = bytes;
        self
    }

    /// Enforces the provisioned throughput of PROVISIONED tables and their global secondary indexes
    /// (default: off): a request that finds its table's or index's capacity spent fails with
    /// `ProvisionedThroughputExceededException`, batches return what was throttled as unprocessed,
    /// and transactions are cancelled with the reason `ProvisionedThroughputExceeded`, so that an
    /// application's retry paths can be tested. Capacity refills at the provisioned rate by the
    /// engine's clock, with DynamoDB's five-minute burst; a new table starts with one second of
    /// capacity ([`ThroughputEnforcement`](crate::ThroughputEnforcement) changes both). On-demand
    /// tables are never throttled. When off, requests pay one branch for it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel::{AttributeValue, Item};
    /// use dynomodel::backend::{
    ///     AttributeDefinition, Backend, CreateTableInput, GetItemInput, KeySchemaElement,
    ///     ProvisionedThroughput, ScalarAttributeType,
    /// };
    /// use dynomodel_mem::{ManualClock, MemBackend};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let clock = ManualClock::default();
    /// let backend = MemBackend::builder()
    ///     .clock(clock.clone())
    ///     .enforce_provisioned_throughput(true)
    ///     .build();
    /// backend
    ///     .create_table(CreateTableInput {
    ///         table_name: "users".into(),
    ///         attribute_definitions: vec![AttributeDefinition {
    ///             attribute_name: "id".into(),
    ///             attribute_type: ScalarAttributeType::S,
    ///         }],
    ///         key_schema: vec![KeySchemaElement::hash("id")],
    ///         provisioned_throughput: Some(ProvisionedThroughput {
    ///             read_capacity_units: 1,
    ///             write_capacity_units: 1,
    ///         }),
    ///         ..Default::default()
    ///     })
    ///     .await?;
    /// let get = GetItemInput {
    ///     table_name: "users".into(),
    ///     key: Item::from([("id".to_owned(), AttributeValue::S("u1".into()))]),
    ///     consistent_read: Some(true),
    ///     ..Default::default()
    /// };
    /// // One strongly consistent read per second: the first passes, the second is throttled...
    /// backend.get_item(get.clone()).await?;
    /// let err = backend.get_item(get.clone()).await.unwrap_err();
    /// assert_eq!(err.code(), "ProvisionedThroughputExceededException");
    /// // ... until the capacity has refilled.
    /// clock.advance(Duration::from_secs(1));
    /// backend.get_item(get).await?;
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn enforce_provisioned_throughput(mut self, enforce: bool) -> Self {
        self.config.throughput = enforce.then(crate::ThroughputEnforcement::default);
        self
    }

    /// Enforces provisioned throughput with other settings than DynamoDB's (see
    /// [`MemBackendBuilder::enforce_provisioned_throughput`]).
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel_mem::{MemBackend, ThroughputEnforcement};
    ///
    /// // No burst: every second's capacity is used in that second or lost.
    /// let backend = MemBackend::builder()
    ///     .throughput_enforcement(ThroughputEnforcement::default().burst_window(Duration::ZERO))
    ///     .build();
    /// # let _ = backend;
    /// ```
    pub fn throughput_enforcement(mut self, settings: crate::ThroughputEnforcement) -> Self {
        self.config.throughput = Some(settings);
        self
    }

    /// Eventual consistency on demand (default: off, every read strongly consistent, as on
    /// DynamoDB Local): a write's changes reach each global secondary index after a delay on the
    /// engine's clock, and reads without `ConsistentRead` see an item as it was before a write for
    /// a while after it, as on DynamoDB, deterministically (see [`EventualConsistency`] for the
    /// delays, and [`MemBackend::settle`] to make every pending change visible at once).
    ///
    /// What lags: a Query or Scan of a GSI (a new item is missing, an updated one shows its old
    /// version and old index key, a deleted one is still there) until the GSI's delay has passed;
    /// GetItem, BatchGetItem, and Query and Scan of the table or of a local secondary index,
    /// without `ConsistentRead`, within the stale window after a write (the item before the
    /// write, or nothing for a new one). What does not: reads with `ConsistentRead`,
    /// TransactGetItems, conditions (always on the current item), the items writes return,
    /// streams, and Time to Live (whose deletions lag as any deletion). Forks and snapshots carry
    /// the setting and the pending changes (they arrive at the same instants of the fork's clock);
    /// a fork can be given its own setting
    /// ([`ForkOptions::eventual_consistency`](crate::ForkOptions::eventual_consistency)), and a
    /// [`Fixture`](crate::Fixture)'s forks one for every test
    /// ([`Fixture::eventual_consistency`](crate::Fixture::eventual_consistency)). Durable mode does
    /// not log the pending changes, so a restart settles them.
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel::{AttributeValue, Item};
    /// use dynomodel::backend::{
    ///     AttributeDefinition, Backend, BillingMode, CreateTableInput, GetItemInput,
    ///     GlobalSecondaryIndex, KeySchemaElement, Projection, ProjectionType, PutItemInput,
    ///     QueryInput, ScalarAttributeType,
    /// };
    /// use dynomodel_mem::{EventualConsistency, ManualClock, MemBackend};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let clock = ManualClock::default();
    /// let backend = MemBackend::builder()
    ///     .clock(clock.clone())
    ///     .eventual_consistency(
    ///         EventualConsistency::new()
    ///             .gsi_delay(Duration::from_millis(200))
    ///             .stale_reads(Duration::from_millis(100)),
    ///     )
    ///     .build();
    /// let s = |name: &str| AttributeDefinition {
    ///     attribute_name: name.into(),
    ///     attribute_type: ScalarAttributeType::S,
    /// };
    /// backend
    ///     .create_table(CreateTableInput {
    ///         table_name: "users".into(),
    ///         attribute_definitions: vec![s("id"), s("email")],
    ///         key_schema: vec![KeySchemaElement::hash("id")],
    ///         global_secondary_indexes: vec![GlobalSecondaryIndex {
    ///             index_name: "by-email".into(),
    ///             key_schema: vec![KeySchemaElement::hash("email")],
    ///             projection: Projection {
    ///                 projection_type: ProjectionType::All,
    ///                 non_key_attributes: vec![],
    ///             },
    ///             provisioned_throughput: None,
    ///         }],
    ///         billing_mode: Some(BillingMode::PayPerRequest),
    ///         ..Default::default()
    ///     })
    ///     .await?;
    /// let item = Item::from([
    ///     ("id".to_owned(), AttributeValue::S("u1".into())),
    ///     ("email".to_owned(), AttributeValue::S("ada@example.com".into())),
    /// ]);
    /// backend
    ///     .put_item(PutItemInput { table_name: "users".into(), item, ..Default::default() })
    ///     .await?;
    /// let by_email = QueryInput {
    ///     table_name: "users".into(),
    ///     index_name: Some("by-email".into()),
    ///     key_condition_expression: Some("email = :e".into()),
    ///     expression_attribute_values: Some(
    ///         [(":e".to_owned(), AttributeValue::S("ada@example.com".into()))].into(),
    ///     ),
    ///     ..Default::default()
    /// };
    /// let get = |consistent| GetItemInput {
    ///     table_name: "users".into(),
    ///     key: Item::from([("id".to_owned(), AttributeValue::S("u1".into()))]),
    ///     consistent_read: Some(consistent),
    ///     ..Default::default()
    /// };
    ///
    /// // Right after the write: the GSI does not have it yet, an eventually consistent read
    /// // does not see it, a strongly consistent one does.
    /// assert_eq!(backend.query(by_email.clone()).await?.count, 0);
    /// assert!(backend.get_item(get(false)).await?.item.is_none());
    /// assert!(backend.get_item(get(true)).await?.item.is_some());
    ///
    /// // 100 ms later every read of the table sees it; 200 ms later the GSI does too.
    /// clock.advance(Duration::from_millis(100));
    /// assert!(backend.get_item(get(false)).await?.item.is_some());
    /// assert_eq!(backend.query(by_email.clone()).await?.count, 0);
    /// clock.advance(Duration::from_millis(100));
    /// assert_eq!(backend.query(by_email).await?.count, 1);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    ///
    /// [`EventualConsistency`]: crate::EventualConsistency
    pub fn eventual_consistency(mut self, settings: crate::EventualConsistency) -> Self {
        self.config.consistency = Some(std::sync::Arc::new(settings));
        self
    }

    /// Fault rules armed from the start (default: none); more can be armed while the engine runs
    /// with [`MemBackend::faults`]. See [`faults`](crate::faults).
    ///
    /// ```
    /// use dynomodel_mem::faults::{FaultError, Operation, Rule};
    /// use dynomodel_mem::MemBackend;
    ///
    /// let backend = MemBackend::builder()
    ///     .faults(Rule::on(Operation::PutItem).table("tweets").nth(3).fail(FaultError::Throttling).into())
    ///     .build();
    /// assert_eq!(backend.faults().len(), 1);
    /// ```
    pub fn faults(mut self, faults: crate::faults::Faults) -> Self {
        self.faults = faults;
        self
    }

    /// The engine.
    pub fn build(self) -> MemBackend {
        MemBackend::from_parts(self.clock.unwrap_or_default(), self.config, self.faults)
    }
}
