//! [`Backend`] on the engine: one method per DynamoDB operation, each taking the locks of what it
//! names (`access.rs`) and handing the request to the engine's code for that operation.

use dynomodel::backend::{
    Backend, BatchExecuteStatementInput, BatchExecuteStatementOutput, BatchGetItemInput,
    BatchGetItemOutput, BatchWriteItemInput, BatchWriteItemOutput, CreateTableInput,
    CreateTableOutput, DeleteItemInput, DeleteItemOutput, DeleteTableInput, DeleteTableOutput,
    DescribeEndpointsInput, DescribeEndpointsOutput, DescribeLimitsInput, DescribeLimitsOutput,
    DescribeStreamInput, DescribeStreamOutput, DescribeTableInput, DescribeTableOutput,
    DescribeTimeToLiveInput, DescribeTimeToLiveOutput, ExecuteStatementInput,
    ExecuteStatementOutput, ExecuteTransactionInput, ExecuteTransactionOutput, GetItemInput,
    GetItemOutput, GetRecordsInput, GetRecordsOutput, GetShardIteratorInput,
    GetShardIteratorOutput, ListStreamsInput, ListStreamsOutput, ListTablesInput, ListTablesOutput,
    ListTagsOfResourceInput, ListTagsOfResourceOutput, PutItemInput, PutItemOutput, QueryInput,
    QueryOutput, ScanInput, ScanOutput, TagResourceInput, TagResourceOutput, TransactGetItemsInput,
    TransactGetItemsOutput, TransactWriteItemsInput, TransactWriteItemsOutput, UntagResourceInput,
    UntagResourceOutput, UpdateItemInput, UpdateItemOutput, UpdateTableInput, UpdateTableOutput,
    UpdateTimeToLiveInput, UpdateTimeToLiveOutput,
};
use dynomodel::backend::{
    CreateBackupInput, CreateBackupOutput, DeleteBackupInput, DeleteBackupOutput,
    DescribeBackupInput, DescribeBackupOutput, DescribeContinuousBackupsInput,
    DescribeContinuousBackupsOutput, ListBackupsInput, ListBackupsOutput,
    RestoreTableFromBackupInput, RestoreTableFromBackupOutput, RestoreTableToPointInTimeInput,
    RestoreTableToPointInTimeOutput, UpdateContinuousBackupsInput, UpdateContinuousBackupsOutput,
};
use dynomodel::Result;

use dynomodel::faults::Request;

use crate::ops::legacy::Taken;
use crate::storage::stored::WrittenItem;
use crate::{
    durable, frontends::partiql, ops::streams, ops::transact, read::typed, validate, MemBackend,
};

#[async_trait::async_trait]
impl Backend for MemBackend {
    async fn create_table(&self, input: CreateTableInput) -> Result<CreateTableOutput> {
        let logged = self.logged(durable::Command::CreateTable(&input));
        self.mutate_logged(logged, |s| {
            s.create_table(input, self.services.throughput())
        })
    }

    async fn describe_table(&self, input: DescribeTableInput) -> Result<DescribeTableOutput> {
        self.reading(|s| s.describe_table(&input))
    }

    async fn list_tables(&self, input: ListTablesInput) -> Result<ListTablesOutput> {
        self.reading(|s| s.list_tables(&input))
    }

    async fn delete_table(&self, input: DeleteTableInput) -> Result<DeleteTableOutput> {
        let logged = self.logged(durable::Command::DeleteTable(&input));
        self.mutate_logged(logged, |s| s.delete_table(&input))
    }

    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput> {
        match self.put_unless_faulted(input) {
            Ok(answer) => answer,
            Err(faulted) => faulted.await,
        }
    }

    async fn put_item_from(
        &self,
        input: PutItemInput,
        item: &dyn dynomodel::backend::AttributeWriter,
    ) -> Result<PutItemOutput> {
        // The model writes its attributes straight into the stored form, checked as they come
        // (`storage/stored/written.rs`), after what the input's own item holds (a name written
        // again replaces it, as when the trait's default writes into `input.item`). An armed fault
        // rule looks at the item (a put's key is in it): then the item is built, as by the default.
        let mut input = input;
        if !self.faults.is_empty() {
            item.write(&mut input.item)?;
            return match self.put_unless_faulted(input) {
                Ok(answer) => answer,
                Err(faulted) => faulted.await,
            };
        }
        let given: &dyn dynomodel::backend::AttributeWriter = &input.item;
        let writers = if input.item.is_empty() {
            &[item][..]
        } else {
            &[given, item][..]
        };
        let written = WrittenItem::write(writers, validate::sized_attribute)?;
        self.put_written(&input, written)
    }

    async fn get_item(&self, input: GetItemInput) -> Result<GetItemOutput> {
        // `AttributesToGet` is taken out of the request, so that its names move into the
        // projection's paths rather than being copied there.
        let get = |mut input: GetItemInput| {
            let attributes_to_get = input.attributes_to_get.take();
            self.reading_tables([input.table_name.as_str()], |s| {
                s.get_item(&input, attributes_to_get)
            })
        };
        match self.faults.check(Request::GetItem(&input)) {
            None => get(input),
            Some(fault) => fault.apply(async move { get(input) }).await,
        }
    }

    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput> {
        let delete = |input: DeleteItemInput| {
            self.writing_owned(input, |i| &i.table_name, |s, i| s.delete_item(i))
        };
        match self.faults.check(Request::DeleteItem(&input)) {
            None => delete(input),
            Some(fault) => fault.apply(async move { delete(input) }).await,
        }
    }

    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput> {
        let update = |input: UpdateItemInput| {
            self.writing_owned(input, |i| &i.table_name, |s, i| s.update_item(i))
        };
        match self.faults.check(Request::UpdateItem(&input)) {
            None => update(input),
            Some(fault) => fault.apply(async move { update(input) }).await,
        }
    }

    async fn get_item_into(
        &self,
        input: GetItemInput,
        sink: &mut dyn dynomodel::backend::ItemSink,
    ) -> Result<GetItemOutput> {
        // The item goes to the sink straight from its stored form (read/typed.rs); an armed fault
        // rule, whose delays and failures the plain operation applies, sends the plain operation.
        if !self.faults.is_empty() {
            let mut output = self.get_item(input).await?;
            if let Some(item) = output.item.take() {
                sink.owned_item(item);
            }
            return Ok(output);
        }
        let mut input = input;
        let attributes_to_get = input.attributes_to_get.take();
        self.reading_tables([input.table_name.as_str()], |locked| {
            let (_, output) =
                locked.get_stored(&input, attributes_to_get, |stored, project| match project {
                    None => typed::hand_over(sink, stored.as_bytes()),
                    Some(project) => sink.owned_item(project(&stored.decode())),
                })?;
            Ok(output)
        })
    }

    async fn query(&self, mut input: QueryInput) -> Result<QueryOutput> {
        let query = |input: &QueryInput, taken| {
            self.reading_tables([input.table_name.as_str()], |s| s.query(input, taken))
        };
        let fault = self.faults.check(Request::Query(&input));
        // The request is ours: its legacy filter's names and values move into its tree. (Taken
        // from `input` in place: a second binding of the request made the boxed future larger.)
        let taken = Taken::query(&mut input);
        match fault {
            None => query(&input, taken),
            Some(fault) => fault.apply(async { query(&input, taken) }).await,
        }
    }

    async fn scan(&self, mut input: ScanInput) -> Result<ScanOutput> {
        let scan = |input: &ScanInput, taken| {
            self.reading_tables([input.table_name.as_str()], |s| s.scan(input, taken))
        };
        let fault = self.faults.check(Request::Scan(&input));
        let taken = Taken::scan(&mut input);
        match fault {
            None => scan(&input, taken),
            Some(fault) => fault.apply(async { scan(&input, taken) }).await,
        }
    }

    async fn query_into(
        &self,
        mut input: QueryInput,
        sink: &mut dyn dynomodel::backend::ItemSink,
    ) -> Result<QueryOutput> {
        // The page's items go to the sink straight from their stored form (read/typed.rs).
        if !self.faults.is_empty() {
            let mut output = self.query(input).await?;
            sink.owned_items(output.items.take());
            return Ok(output);
        }
        let taken = Taken::query(&mut input);
        self.reading_tables([input.table_name.as_str()], |locked| {
            locked.query_to(&input, taken, Some(sink))
        })
    }

    async fn scan_into(
        &self,
        mut input: ScanInput,
        sink: &mut dyn dynomodel::backend::ItemSink,
    ) -> Result<ScanOutput> {
        if !self.faults.is_empty() {
            let mut output = self.scan(input).await?;
            sink.owned_items(output.items.take());
            return Ok(output);
        }
        let taken = Taken::scan(&mut input);
        self.reading_tables([input.table_name.as_str()], |locked| {
            locked.scan_to(&input, taken, Some(sink))
        })
    }

    async fn batch_get_item(&self, input: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        let get = |input: &BatchGetItemInput| {
            self.reading_tables(input.request_items.keys().map(String::as_str), |s| {
                s.batch_get_item(input)
            })
        };
        match self.faults.check(Request::BatchGetItem(&input)) {
            None => get(&input),
            Some(fault) => {
                fault
                    .apply_batch_get(input, |input| async move { get(&input) })
                    .await
            }
        }
    }

    async fn batch_write_item(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        match self.faults.check(Request::BatchWriteItem(&input)) {
            None => self.write_batch(input),
            Some(fault) => {
                fault
                    .apply_batch_write(input, |input| async move { self.write_batch(input) })
                    .await
            }
        }
    }

    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        let get = |input: &TransactGetItemsInput| {
            self.reading_tables(transact::get_tables(input), |s| s.transact_get_items(input))
        };
        match self.faults.check(Request::TransactGetItems(&input)) {
            None => get(&input),
            Some(fault) => fault.apply(async { get(&input) }).await,
        }
    }

    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        let write = |input: &TransactWriteItemsInput| {
            self.writing(transact::write_tables(input), |s| {
                s.transact_write_items(input)
            })
        };
        match self.faults.check(Request::TransactWriteItems(&input)) {
            None => write(&input),
            Some(fault) => fault.apply(async { write(&input) }).await,
        }
    }

    async fn execute_statement(
        &self,
        input: ExecuteStatementInput,
    ) -> Result<ExecuteStatementOutput> {
        partiql::execute_statement(self, input).await
    }

    async fn batch_execute_statement(
        &self,
        input: BatchExecuteStatementInput,
    ) -> Result<BatchExecuteStatementOutput> {
        partiql::batch_execute_statement(self, input).await
    }

    async fn execute_transaction(
        &self,
        input: ExecuteTransactionInput,
    ) -> Result<ExecuteTransactionOutput> {
        partiql::execute_transaction(self, input).await
    }

    async fn update_table(&self, input: UpdateTableInput) -> Result<UpdateTableOutput> {
        let logged = self.logged(durable::Command::UpdateTable(&input));
        self.mutate_logged(logged, |s| {
            s.update_table(input, self.services.throughput())
        })
    }

    async fn update_time_to_live(
        &self,
        input: UpdateTimeToLiveInput,
    ) -> Result<UpdateTimeToLiveOutput> {
        let logged = self.logged(durable::Command::UpdateTimeToLive(&input));
        self.mutate_logged(logged, |s| s.update_time_to_live(&input))
    }

    async fn describe_time_to_live(
        &self,
        input: DescribeTimeToLiveInput,
    ) -> Result<DescribeTimeToLiveOutput> {
        self.reading(|s| s.describe_time_to_live(&input))
    }

    async fn tag_resource(&self, input: TagResourceInput) -> Result<TagResourceOutput> {
        let logged = self.logged(durable::Command::TagResource(&input));
        self.mutate_logged(logged, |s| s.tag_resource(input))
    }

    async fn untag_resource(&self, input: UntagResourceInput) -> Result<UntagResourceOutput> {
        let logged = self.logged(durable::Command::UntagResource(&input));
        self.mutate_logged(logged, |s| s.untag_resource(&input))
    }

    async fn list_tags_of_resource(
        &self,
        input: ListTagsOfResourceInput,
    ) -> Result<ListTagsOfResourceOutput> {
        self.reading(|s| s.list_tags_of_resource(&input))
    }

    async fn describe_limits(&self, input: DescribeLimitsInput) -> Result<DescribeLimitsOutput> {
        self.reading(|s| s.describe_limits(&input))
    }

    async fn describe_endpoints(
        &self,
        input: DescribeEndpointsInput,
    ) -> Result<DescribeEndpointsOutput> {
        self.reading(|s| s.describe_endpoints(&input))
    }

    // Reading a stream writes to it: it trims its aged records and rolls its shard (lazily, by the
    // engine's clock). ListStreams takes the catalog's write lock; the others the write lock of the
    // stream's table only (a deleted table's stream: the catalog's).

    async fn list_streams(&self, input: ListStreamsInput) -> Result<ListStreamsOutput> {
        self.reading_streams(|s| s.list_streams(&input))
    }

    async fn describe_stream(&self, input: DescribeStreamInput) -> Result<DescribeStreamOutput> {
        self.reading_stream(Some(&input.stream_arn), |s| s.describe_stream(&input))
    }

    async fn get_shard_iterator(
        &self,
        input: GetShardIteratorInput,
    ) -> Result<GetShardIteratorOutput> {
        self.reading_stream(Some(&input.stream_arn), |s| s.get_shard_iterator(&input))
    }

    async fn get_records(&self, input: GetRecordsInput) -> Result<GetRecordsOutput> {
        let arn = streams::api::iterator_stream(&input.shard_iterator);
        self.reading_stream(arn.as_deref(), |s| s.get_records(&input))
    }

    // Backups and point-in-time recovery (`ops/backups/`): kept in memory only, so their writes
    // log nothing. A backup copies its table under the catalog's read lock (the backups lock on
    // their own), so requests on other tables go on; a restore reads its source under the read
    // lock, then adds the table under the write lock, logged as the CreateTable request it amounts
    // to (and its item writes).

    async fn create_backup(&self, input: CreateBackupInput) -> Result<CreateBackupOutput> {
        self.reading(|s| s.create_backup(&input))
    }

    async fn describe_backup(&self, input: DescribeBackupInput) -> Result<DescribeBackupOutput> {
        self.reading(|s| s.describe_backup(&input))
    }

    async fn list_backups(&self, input: ListBackupsInput) -> Result<ListBackupsOutput> {
        self.reading(|s| s.list_backups(&input))
    }

    async fn delete_backup(&self, input: DeleteBackupInput) -> Result<DeleteBackupOutput> {
        self.reading(|s| s.delete_backup(&input))
    }

    async fn restore_table_from_backup(
        &self,
        input: RestoreTableFromBackupInput,
    ) -> Result<RestoreTableFromBackupOutput> {
        let plan = self.reading(|s| s.plan_backup_restore(&input))?;
        let logged = self.logged(durable::Command::CreateTable(&plan.create));
        let table_description =
            self.mutate_logged(logged, |s| s.restore(plan, self.services.throughput()))?;
        Ok(RestoreTableFromBackupOutput { table_description })
    }

    async fn describe_continuous_backups(
        &self,
        input: DescribeContinuousBackupsInput,
    ) -> Result<DescribeContinuousBackupsOutput> {
        self.reading(|s| s.describe_continuous_backups(&input))
    }

    async fn update_continuous_backups(
        &self,
        input: UpdateContinuousBackupsInput,
    ) -> Result<UpdateContinuousBackupsOutput> {
        let logged = self.logged(durable::Command::InMemoryOnly);
        self.mutate_logged(logged, |s| s.update_continuous_backups(&input))
    }

    async fn restore_table_to_point_in_time(
        &self,
        input: RestoreTableToPointInTimeInput,
    ) -> Result<RestoreTableToPointInTimeOutput> {
        let plan = self.reading(|s| s.plan_point_in_time_restore(&input))?;
        let logged = self.logged(durable::Command::CreateTable(&plan.create));
        let table_description =
            self.mutate_logged(logged, |s| s.restore(plan, self.services.throughput()))?;
        Ok(RestoreTableToPointInTimeOutput { table_description })
    }

    /// The engine's clock ([`MemBackend::with_clock`], the system's by default): the mapper's
    /// timestamps and the engine's time to live read the same time.
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now()
    }
}

/// A faulted request's answer, to await.
type Faulted<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = Result<T>> + Send + 'a>>;

impl MemBackend {
    /// `PutItem` under the fault rules: answered at once when no rule fires (`Ok`), else the faulted
    /// answer to await (`Err`). Not an `async fn`, so that a plain put pays for no future of its own.
    fn put_unless_faulted(
        &self,
        input: PutItemInput,
    ) -> std::result::Result<Result<PutItemOutput>, Faulted<'_, PutItemOutput>> {
        match self.faults.check(Request::PutItem(&input)) {
            None => Ok(self.put(input)),
            Some(fault) => Err(fault.apply(async move { self.put(input) })),
        }
    }
}
