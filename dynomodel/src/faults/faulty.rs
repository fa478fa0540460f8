//! [`FaultyBackend`]: the rules of a [`FaultHandle`] around any backend's data-plane calls.

use super::{FaultHandle, Faults, Request};
use crate::backend::*;
use crate::error::Result;

/// A [`Backend`] that applies fault rules ([`FaultHandle`]) to the data-plane requests it hands
/// to `inner`: `PutItem`, `GetItem`, `UpdateItem`, `DeleteItem`, `Query`, `Scan`, the batches and
/// the transactions (with the typed reads `get_item_into`, `query_into` and `scan_into`, which
/// count as `GetItem`, `Query` and `Scan`, and `put_item_from`, which counts as `PutItem`). Every other operation (tables, time to live, tags,
/// PartiQL, Streams, the clock) goes to `inner` untouched.
///
/// Over a remote backend (such as [`AwsBackend`](crate::AwsBackend)) the rules run in this process,
/// after the SDK's own retries: a rule's error is what the mapper sees, never retried by the SDK.
/// `after` means `inner` answered success, then the rule's error is answered instead; a batch's
/// held-back portion is never sent. The in-memory engine of `dynomodel-mem` applies the same
/// rules itself (`MemBackend::faults()`), including to the operations its PartiQL statements run;
/// wrapping it works too.
///
/// With no rule armed a request costs one atomic load and the wrapper's forwarding call.
///
/// ```
/// use dynomodel::faults::{FaultyBackend, Operation, Portion, Rule};
/// use dynomodel::{BatchOptions, Db, Model};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "tweets")]
/// struct Tweet { #[hash_key] id: String }
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let backend = FaultyBackend::new(dynomodel_mem::MemBackend::new());
/// // Every BatchWriteItem leaves half of its writes unprocessed: the mapper retries them.
/// let half = backend.faults().add(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Half));
/// let faults = backend.faults().clone();
/// let db = Db::new(backend);
/// db.create_schema::<Tweet>().await?;
/// let tweets: Vec<Tweet> = (0..4).map(|i| Tweet { id: i.to_string() }).collect();
/// db.batch_write().put_all(&tweets).options(BatchOptions::default().max_attempts(10)).await?;
/// assert_eq!(db.scan::<Tweet>().all().await?.len(), 4);
/// assert_eq!(faults.fired(half), 3); // 4 writes, then 2, then 1
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// Over DynamoDB Local or Amazon DynamoDB (feature `aws`):
///
/// ```no_run
/// # #[cfg(feature = "aws")]
/// # async fn demo() -> dynomodel::Result<()> {
/// use dynomodel::faults::{FaultError, FaultyBackend, Rule};
/// use dynomodel::{AwsBackend, Db};
///
/// let backend = FaultyBackend::new(AwsBackend::local("http://127.0.0.1:8000"));
/// // One read in ten is throttled, the same ones on every run.
/// backend.faults().add(Rule::reads().probability(0.1, 7).fail(FaultError::Throttling));
/// let db = Db::new(backend);
/// # let _ = db;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct FaultyBackend<B> {
    inner: B,
    faults: FaultHandle,
}

impl<B: Backend> FaultyBackend<B> {
    /// `inner`, with no rule armed yet.
    pub fn new(inner: B) -> FaultyBackend<B> {
        FaultyBackend::with_faults(inner, Faults::new())
    }

    /// `inner`, with `faults` armed from the start.
    ///
    /// ```
    /// use dynomodel::faults::{FaultyBackend, Rule};
    ///
    /// let backend = FaultyBackend::with_faults(dynomodel_mem::MemBackend::new(), Rule::writes().into());
    /// assert_eq!(backend.faults().len(), 1);
    /// ```
    pub fn with_faults(inner: B, faults: Faults) -> FaultyBackend<B> {
        FaultyBackend {
            inner,
            faults: FaultHandle::from(faults),
        }
    }

    /// The rules armed on this backend (shared by its clones): add and clear them while it runs.
    pub fn faults(&self) -> &FaultHandle {
        &self.faults
    }

    /// The backend the requests go to.
    pub fn inner(&self) -> &B {
        &self.inner
    }

    /// The backend the requests go to, without the rules.
    pub fn into_inner(self) -> B {
        self.inner
    }
}

/// Sends `$call` to the inner backend through the rules `$request` fires.
macro_rules! faulted {
    ($self:ident, $request:expr, $call:expr) => {{
        let fault = $self.faults.check($request);
        match fault {
            None => $call.await,
            Some(fault) => fault.apply($call).await,
        }
    }};
}

#[async_trait::async_trait]
impl<B: Backend> Backend for FaultyBackend<B> {
    async fn create_table(&self, input: CreateTableInput) -> Result<CreateTableOutput> {
        self.inner.create_table(input).await
    }
    async fn describe_table(&self, input: DescribeTableInput) -> Result<DescribeTableOutput> {
        self.inner.describe_table(input).await
    }
    async fn list_tables(&self, input: ListTablesInput) -> Result<ListTablesOutput> {
        self.inner.list_tables(input).await
    }
    async fn delete_table(&self, input: DeleteTableInput) -> Result<DeleteTableOutput> {
        self.inner.delete_table(input).await
    }

    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput> {
        faulted!(self, Request::PutItem(&input), self.inner.put_item(input))
    }
    async fn put_item_from(
        &self,
        input: PutItemInput,
        item: &dyn AttributeWriter,
    ) -> Result<PutItemOutput> {
        // The rules look at the item (a put's key is in it): with one armed, the item is built.
        if self.faults.is_empty() {
            return self.inner.put_item_from(input, item).await;
        }
        let mut input = input;
        item.write(&mut input.item)?;
        self.put_item(input).await
    }
    async fn get_item(&self, input: GetItemInput) -> Result<GetItemOutput> {
        faulted!(self, Request::GetItem(&input), self.inner.get_item(input))
    }
    async fn get_item_into(
        &self,
        input: GetItemInput,
        sink: &mut dyn ItemSink,
    ) -> Result<GetItemOutput> {
        faulted!(
            self,
            Request::GetItem(&input),
            self.inner.get_item_into(input, sink)
        )
    }
    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput> {
        faulted!(
            self,
            Request::DeleteItem(&input),
            self.inner.delete_item(input)
        )
    }
    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput> {
        faulted!(
            self,
            Request::UpdateItem(&input),
            self.inner.update_item(input)
        )
    }
    async fn query(&self, input: QueryInput) -> Result<QueryOutput> {
        faulted!(self, Request::Query(&input), self.inner.query(input))
    }
    async fn scan(&self, input: ScanInput) -> Result<ScanOutput> {
        faulted!(self, Request::Scan(&input), self.inner.scan(input))
    }
    async fn query_into(&self, input: QueryInput, sink: &mut dyn ItemSink) -> Result<QueryOutput> {
        faulted!(
            self,
            Request::Query(&input),
            self.inner.query_into(input, sink)
        )
    }
    async fn scan_into(&self, input: ScanInput, sink: &mut dyn ItemSink) -> Result<ScanOutput> {
        faulted!(
            self,
            Request::Scan(&input),
            self.inner.scan_into(input, sink)
        )
    }
    async fn batch_get_item(&self, input: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        match self.faults.check(Request::BatchGetItem(&input)) {
            None => self.inner.batch_get_item(input).await,
            Some(fault) => {
                fault
                    .apply_batch_get(input, |input| self.inner.batch_get_item(input))
                    .await
            }
        }
    }
    async fn batch_write_item(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        match self.faults.check(Request::BatchWriteItem(&input)) {
            None => self.inner.batch_write_item(input).await,
            Some(fault) => {
                fault
                    .apply_batch_write(input, |input| self.inner.batch_write_item(input))
                    .await
            }
        }
    }
    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        faulted!(
            self,
            Request::TransactGetItems(&input),
            self.inner.transact_get_items(input)
        )
    }
    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        faulted!(
            self,
            Request::TransactWriteItems(&input),
            self.inner.transact_write_items(input)
        )
    }

    async fn update_table(&self, input: UpdateTableInput) -> Result<UpdateTableOutput> {
        self.inner.update_table(input).await
    }
    async fn update_time_to_live(
        &self,
        input: UpdateTimeToLiveInput,
    ) -> Result<UpdateTimeToLiveOutput> {
        self.inner.update_time_to_live(input).await
    }
    async fn describe_time_to_live(
        &self,
        input: DescribeTimeToLiveInput,
    ) -> Result<DescribeTimeToLiveOutput> {
        self.inner.describe_time_to_live(input).await
    }
    async fn tag_resource(&self, input: TagResourceInput) -> Result<TagResourceOutput> {
        self.inner.tag_resource(input).await
    }
    // Backups and point-in-time recovery: control-plane operations, which the rules do not fire on.
    async fn create_backup(&self, input: CreateBackupInput) -> Result<CreateBackupOutput> {
        self.inner.create_backup(input).await
    }
    async fn describe_backup(&self, input: DescribeBackupInput) -> Result<DescribeBackupOutput> {
        self.inner.describe_backup(input).await
    }
    async fn list_backups(&self, input: ListBackupsInput) -> Result<ListBackupsOutput> {
        self.inner.list_backups(input).await
    }
    async fn delete_backup(&self, input: DeleteBackupInput) -> Result<DeleteBackupOutput> {
        self.inner.delete_backup(input).await
    }
    async fn restore_table_from_backup(
        &self,
        input: RestoreTableFromBackupInput,
    ) -> Result<RestoreTableFromBackupOutput> {
        self.inner.restore_table_from_backup(input).await
    }
    async fn describe_continuous_backups(
        &self,
        input: DescribeContinuousBackupsInput,
    ) -> Result<DescribeContinuousBackupsOutput> {
        self.inner.describe_continuous_backups(input).await
    }
    async fn update_continuous_backups(
        &self,
        input: UpdateContinuousBackupsInput,
    ) -> Result<UpdateContinuousBackupsOutput> {
        self.inner.update_continuous_backups(input).await
    }
    async fn restore_table_to_point_in_time(
        &self,
        input: RestoreTableToPointInTimeInput,
    ) -> Result<RestoreTableToPointInTimeOutput> {
        self.inner.restore_table_to_point_in_time(input).await
    }
    async fn untag_resource(&self, input: UntagResourceInput) -> Result<UntagResourceOutput> {
        self.inner.untag_resource(input).await
    }
    async fn list_tags_of_resource(
        &self,
        input: ListTagsOfResourceInput,
    ) -> Result<ListTagsOfResourceOutput> {
        self.inner.list_tags_of_resource(input).await
    }
    async fn describe_limits(&self, input: DescribeLimitsInput) -> Result<DescribeLimitsOutput> {
        self.inner.describe_limits(input).await
    }
    async fn describe_endpoints(
        &self,
        input: DescribeEndpointsInput,
    ) -> Result<DescribeEndpointsOutput> {
        self.inner.describe_endpoints(input).await
    }
    async fn execute_statement(
        &self,
        input: ExecuteStatementInput,
    ) -> Result<ExecuteStatementOutput> {
        self.inner.execute_statement(input).await
    }
    async fn batch_execute_statement(
        &self,
        input: BatchExecuteStatementInput,
    ) -> Result<BatchExecuteStatementOutput> {
        self.inner.batch_execute_statement(input).await
    }
    async fn execute_transaction(
        &self,
        input: ExecuteTransactionInput,
    ) -> Result<ExecuteTransactionOutput> {
        self.inner.execute_transaction(input).await
    }
    async fn list_streams(&self, input: ListStreamsInput) -> Result<ListStreamsOutput> {
        self.inner.list_streams(input).await
    }
    async fn describe_stream(&self, input: DescribeStreamInput) -> Result<DescribeStreamOutput> {
        self.inner.describe_stream(input).await
    }
    async fn get_shard_iterator(
        &self,
        input: GetShardIteratorInput,
    ) -> Result<GetShardIteratorOutput> {
        self.inner.get_shard_iterator(input).await
    }
    async fn get_records(&self, input: GetRecordsInput) -> Result<GetRecordsOutput> {
        self.inner.get_records(input).await
    }
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.inner.now()
    }
}
