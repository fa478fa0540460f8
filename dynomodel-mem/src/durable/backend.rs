//! Durable mode on [`MemBackend`]: opening a data directory, and what an open one offers.

use std::path::Path;
use std::sync::{Arc, RwLock, Weak};

use super::{Durable, Health, OpenError, RecoveryReport};
use crate::storage::state::State;
use crate::MemBackend;

impl MemBackend {
    /// An engine kept in the data directory `dir` (created if missing), with the default settings
    /// ([`MemBackend::builder`]`().open(dir)` for others, e.g. the sync policy): the state the
    /// directory holds is recovered, and every write is logged there before it is acknowledged. One
    /// process at a time: the directory is locked while the engine (any clone of it) lives.
    ///
    /// ```
    /// use dynomodel::AttributeValue;
    /// use dynomodel::backend::{
    ///     AttributeDefinition, Backend, BillingMode, CreateTableInput, GetItemInput,
    ///     KeySchemaElement, PutItemInput, ScalarAttributeType,
    /// };
    /// use dynomodel_mem::MemBackend;
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let dir = std::env::temp_dir().join(format!("dynomodel-doc-{}", std::process::id()));
    /// # let _ = std::fs::remove_dir_all(&dir);
    /// let backend = MemBackend::open(&dir)?;
    /// backend
    ///     .create_table(CreateTableInput {
    ///         table_name: "users".into(),
    ///         attribute_definitions: vec![AttributeDefinition {
    ///             attribute_name: "id".into(),
    ///             attribute_type: ScalarAttributeType::S,
    ///         }],
    ///         key_schema: vec![KeySchemaElement::hash("id")],
    ///         billing_mode: Some(BillingMode::PayPerRequest),
    ///         ..Default::default()
    ///     })
    ///     .await?;
    /// let id = || [("id".to_owned(), AttributeValue::S("u1".into()))].into();
    /// backend
    ///     .put_item(PutItemInput { table_name: "users".into(), item: id(), ..Default::default() })
    ///     .await?;
    ///
    /// // A second engine on the same directory is refused while the first lives...
    /// let err = MemBackend::open(&dir).unwrap_err();
    /// assert!(err.to_string().contains("is in use by another dynomodel-mem process"));
    ///
    /// // ... and finds everything once it is gone.
    /// drop(backend);
    /// let reopened = MemBackend::open(&dir)?;
    /// assert_eq!(reopened.recovery_report().map(|r| r.records), Some(2));
    /// let got = reopened
    ///     .get_item(GetItemInput { table_name: "users".into(), key: id(), ..Default::default() })
    ///     .await?;
    /// assert!(got.item.is_some());
    /// # drop(reopened);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub fn open(dir: impl AsRef<Path>) -> Result<MemBackend, OpenError> {
        MemBackend::builder().open(dir)
    }

    /// What recovery found when the data directory was opened (`None` for an in-memory engine).
    pub fn recovery_report(&self) -> Option<&RecoveryReport> {
        self.durable.as_deref().map(Durable::report)
    }

    /// Whether the engine serves reads and writes: [`Health::Ok`] unless its data directory failed
    /// (a full disk, a failed fsync), in which case writes are refused until it can be written
    /// again ([`Health::Degraded`]), or every request is refused until a restart
    /// ([`Health::Failed`]). What the server's `GET /health` answers. Always `Ok` in memory.
    ///
    /// ```
    /// use dynomodel_mem::{Health, MemBackend};
    ///
    /// assert_eq!(MemBackend::new().health(), Health::Ok);
    /// ```
    pub fn health(&self) -> Health {
        self.durable.as_deref().map_or(Health::Ok, Durable::health)
    }

    /// Fsyncs the log (a no-op in memory). Under `--sync Nms`, what a clean shutdown calls so that
    /// nothing acknowledged is left in the kernel's buffers.
    pub fn sync(&self) -> std::io::Result<()> {
        match &self.durable {
            Some(d) => d.sync(),
            None => Ok(()),
        }
    }

    /// Writes a snapshot now and drops the log it covers (a no-op in memory); returns the tables
    /// and items written. The engine does this by itself when the log grows past its threshold
    /// ([`MemBackendBuilder::compact_after`](crate::MemBackendBuilder::compact_after)).
    pub fn compact(&self) -> std::io::Result<(u64, u64)> {
        match &self.durable {
            Some(d) => d.compact(&self.state).map(|t| (t.tables, t.items)),
            None => Ok((0, 0)),
        }
    }

    /// This engine, logging to `durable`.
    pub(crate) fn with_durable(mut self, durable: Arc<Durable>) -> MemBackend {
        self.durable = Some(durable);
        self
    }

    /// The state, for durable mode's background thread (which must not keep the engine alive).
    pub(crate) fn state_weak(&self) -> Weak<RwLock<State>> {
        Arc::downgrade(&self.state)
    }
}
