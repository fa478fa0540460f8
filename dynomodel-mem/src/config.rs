//! How an engine is set up: [`MemBackend::builder`](crate::MemBackend::builder).

use std::time::Duration;

use crate::storage::clock::{Clock, EngineClock};
use crate::MemBackend;

/// The settings an engine keeps for its lifetime.
#[derive(Debug, Clone)]
pub(crate) struct EngineConfig {
    /// The region in ARNs.
    pub region: String,
    /// The region was set ([`MemBackendBuilder::region`]): the engine is that region's alone. Without
    /// one, the engine answers every region (see [`EngineConfig::table_name_of`]) and its server
    /// names each client's own region in its answers.
    pub region_pinned: bool,
    /// The account id in ARNs.
    pub account: String,
    /// How long a table or index stays `CREATING`, `UPDATING` or `DELETING` (by the engine's clock).
    pub transition: Duration,
    /// The largest item collection (table items plus LSI entries of one partition key) of a table
    /// with local secondary indexes, in bytes.
    pub item_collection_size_limit: usize,
    /// Provisioned throughput enforcement (`None`: off, the default).
    pub throughput: Option<crate::ThroughputEnforcement>,
}

impl Default for EngineConfig {
    /// DynamoDB Local's region and account (so ARNs compare equal in the dual-backend suite), and
    /// transitions that finish at once, as on DynamoDB Local.
    fn default() -> EngineConfig {
        EngineConfig {
            region: "ddblocal".into(),
            region_pinned: false,
            account: "000000000000".into(),
            transition: Duration::ZERO,
            item_collection_size_limit: crate::storage::collection::DEFAULT_LIMIT,
            throughput: None,
        }
    }
}

impl EngineConfig {
    /// The ARN of table `name`: `arn:aws:dynamodb:<region>:<account>:table/<name>`.
    pub(crate) fn table_arn(&self, name: &str) -> String {
        format!(
            "arn:aws:dynamodb:{}:{}:table/{name}",
            self.region, self.account
        )
    }

    /// The table a request names: `name`, or the table of an ARN of this engine's account and region.
    /// `None` for an ARN of another account (or of something other than a table), which no table here
    /// can match, or of another region when the region is pinned. An engine without a region of its
    /// own is one database that answers every region (the server names each client's region in its
    /// answers, `protocol/region.rs`), so an ARN of any region names its table.
    pub(crate) fn table_name_of<'a>(&self, name: &'a str) -> Option<&'a str> {
        if !name.starts_with("arn:") {
            return Some(name);
        }
        let (region, account, resource) = split_arn(name)?;
        if account != self.account || !self.serves_region(region) {
            return None;
        }
        resource
            .strip_prefix("table/")
            .filter(|table| !table.is_empty() && !table.contains('/'))
    }

    /// Whether an ARN of `region` may name this engine's resources: any region unless pinned.
    pub(crate) fn serves_region(&self, region: &str) -> bool {
        !self.region_pinned || region == self.region
    }

    /// `arn` (one of this engine's ARNs, as a client sends it back) with the engine's own region in
    /// it, as the engine stores its ARNs: a client of an engine without a region of its own holds ARNs
    /// that name its region. Any other string is returned as it is.
    pub(crate) fn own_arn<'a>(&self, arn: &'a str) -> std::borrow::Cow<'a, str> {
        match split_arn(arn) {
            Some((region, account, resource))
                if region != self.region && self.serves_region(region) =>
            {
                format!("arn:aws:dynamodb:{}:{account}:{resource}", self.region).into()
            }
            _ => arn.into(),
        }
    }
}

/// The region, account and resource (`table/NAME…`) of a DynamoDB ARN.
pub(crate) fn split_arn(arn: &str) -> Option<(&str, &str, &str)> {
    let rest = arn.strip_prefix("arn:aws:dynamodb:")?;
    let (region, rest) = rest.split_once(':')?;
    let (account, resource) = rest.split_once(':')?;
    Some((region, account, resource))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arns_name_tables_of_this_account_only() {
        let config = EngineConfig::default();
        assert_eq!(config.table_name_of("users"), Some("users"));
        let arn = config.table_arn("users");
        assert_eq!(arn, "arn:aws:dynamodb:ddblocal:000000000000:table/users");
        assert_eq!(config.table_name_of(&arn), Some("users"));
        // No region of its own: every region's ARN names the table.
        assert_eq!(
            config.table_name_of("arn:aws:dynamodb:us-east-1:000000000000:table/users"),
            Some("users")
        );
        for other in [
            "arn:aws:dynamodb:us-east-1:123456789012:table/users",
            "arn:aws:dynamodb:ddblocal:000000000000:table/users/index/gsi",
            "arn:aws:dynamodb:ddblocal:000000000000:table/",
            "arn:aws:s3:::bucket",
        ] {
            assert_eq!(config.table_name_of(other), None, "{other}");
        }
    }

    #[test]
    fn a_pinned_region_is_the_only_one() {
        let mine = EngineConfig {
            region: "eu-west-1".into(),
            region_pinned: true,
            account: "123456789012".into(),
            ..EngineConfig::default()
        };
        let arn = "arn:aws:dynamodb:eu-west-1:123456789012:table/t1";
        assert_eq!(mine.table_name_of(arn), Some("t1"));
        let elsewhere = "arn:aws:dynamodb:us-east-1:123456789012:table/t1";
        assert_eq!(mine.table_name_of(elsewhere), None);
        assert_eq!(mine.own_arn(elsewhere), elsewhere);
    }

    #[test]
    fn arns_a_client_holds_map_to_the_engine_s_own() {
        let config = EngineConfig::default();
        let held = "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2026-01-01T00:00:00.000";
        assert_eq!(
            config.own_arn(held),
            "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2026-01-01T00:00:00.000"
        );
        let own = config.table_arn("t");
        assert_eq!(config.own_arn(&own), own);
        assert_eq!(config.own_arn("garbage"), "garbage");
    }
}

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
    clock: Option<EngineClock>,
    config: EngineConfig,
    faults: crate::faults::Faults,
    #[cfg(feature = "durable")]
    durable: crate::durable::Options,
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

/// Durable mode's settings (see [`crate::durable`]).
#[cfg(feature = "durable")]
impl MemBackendBuilder {
    /// When a write's log record reaches the disk (default: [`SyncPolicy::Always`](crate::SyncPolicy)).
    pub fn sync(mut self, policy: crate::SyncPolicy) -> Self {
        self.durable.sync = policy;
        self
    }

    /// Log bytes after which a snapshot is written in the background and the log dropped (default
    /// 64 MiB).
    pub fn compact_after(mut self, bytes: u64) -> Self {
        self.durable.compact_after = bytes;
        self
    }

    /// Lets [`open`](MemBackendBuilder::open) repair a damaged log instead of refusing it: the log
    /// is cut at its last good record before the damage, every file changed is kept unchanged in
    /// `DIR/aside/repair-N/`, and [`RecoveryReport::repairs`](crate::RecoveryReport::repairs) says
    /// what was dropped (records, their last sequence number, bytes). What `dynomodel-mem repair`
    /// runs. A damaged snapshot is still refused: every later record builds on it.
    ///
    /// ```
    /// use dynomodel_mem::{MemBackend, OpenError};
    ///
    /// let dir = std::env::temp_dir().join(format!("dynomodel-repair-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// drop(MemBackend::open(&dir)?);
    /// // The log segment the manifest names is deleted: refused, then repaired.
    /// std::fs::remove_file(dir.join("log-00000000000000000000.dyno"))?;
    /// let refused = MemBackend::open(&dir).unwrap_err();
    /// assert!(matches!(refused, OpenError::Damaged(_)), "{refused}");
    /// let repaired = MemBackend::builder().repair().open(&dir)?;
    /// let report = repaired.recovery_report().unwrap();
    /// assert_eq!(report.repairs.len(), 1);
    /// assert_eq!(report.repairs[0].dropped.records, 0);
    /// # drop(repaired);
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn repair(mut self) -> Self {
        self.durable.repair = true;
        self
    }

    /// The file system the data directory lives on (tests: one that fails on purpose).
    #[cfg(test)]
    pub(crate) fn storage(
        mut self,
        storage: std::sync::Arc<dyn crate::durable::storage::Storage>,
    ) -> Self {
        self.durable.storage = storage;
        self
    }

    /// How often a degraded directory is probed (tests: quickly).
    #[cfg(test)]
    pub(crate) fn probe_interval(mut self, interval: std::time::Duration) -> Self {
        self.durable.probe_interval = interval;
        self
    }

    /// The engine, durable in `dir` (created if missing): its state recovered from the directory,
    /// every acknowledged write logged there. See [`MemBackend::open`].
    pub fn open(self, dir: impl AsRef<std::path::Path>) -> Result<MemBackend, crate::OpenError> {
        crate::durable::open(
            dir.as_ref(),
            self.durable,
            self.clock.unwrap_or_default(),
            self.config,
            self.faults,
        )
    }
}
