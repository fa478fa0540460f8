//! The [`Backend`] trait and DynamoDB's requests and responses: for backend authors, and for raw
//! requests through [`Db::backend`](crate::Db::backend).
//!
//! A backend implements one async method per DynamoDB operation, over plain data shaped like
//! DynamoDB's API: `PutItemInput` → `PutItemOutput`, `QueryInput` → `QueryOutput`, and so on, with
//! expression strings and name/value maps rather than typed builders. `dynomodel-mem` implements it
//! in memory; [`AwsBackend`](crate::AwsBackend) (feature `aws`) over `aws-sdk-dynamodb`.
//!
//! The mapper's typed API ([`Db`](crate::Db)) needs none of these types; the few it hands back
//! ([`ConsumedCapacity`], [`OperationType`], [`ProjectionType`], [`ScalarAttributeType`]) and the
//! trait itself are re-exported at the crate root as well. A raw request, for what the mapper does
//! not cover:
//!
//! ```
//! use dynomodel::backend::{DescribeTableInput, TableStatus};
//! use dynomodel::Model;
//!
//! #[derive(Model, Debug, Clone)]
//! struct User {
//!     #[hash_key]
//!     id: String,
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let db = dynomodel_mem::memory();
//! db.create_schema::<User>().await?;
//! let input = DescribeTableInput { table_name: db.table_name::<User>() };
//! let table = db.backend().describe_table(input).await?.table;
//! assert_eq!(table.table_status, TableStatus::Active);
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```

mod account;
mod backup;
mod batch;
mod capacity;
mod item;
mod legacy;
pub(crate) mod numbered;
mod partiql;
mod query;
mod sink;
pub(crate) mod sink_ref;
mod streams;
mod table;
mod tags;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
#[cfg(test)]
mod tests_keyed;
mod transact;
mod ttl;
mod update_table;

pub use account::*;
pub use backup::*;
pub use batch::*;
pub use capacity::*;
pub use item::*;
pub use legacy::*;
pub use numbered::NumberedAttributes;
pub use partiql::*;
pub use query::*;
pub use sink::*;
pub use streams::*;
pub use table::*;
pub use tags::*;
pub use transact::*;
pub use ttl::*;
pub use update_table::*;

use futures::future::BoxFuture;

use crate::error::{Error, Result};

/// The answer of an operation a backend does not implement.
fn unsupported(operation: &str) -> Error {
    Error::Service {
        code: "UnknownOperationException".into(),
        message: format!("this backend does not implement {operation}"),
    }
}

/// A DynamoDB implementation.
///
/// Every operation has a default implementation that answers `UnknownOperationException` (what
/// DynamoDB answers for an operation it does not know), so a test double implements only the
/// operations it is about; [`crate::AwsBackend`] and `dynomodel_mem::MemBackend` implement all of them.
///
/// The trait is object-safe so that [`crate::Db`] holds an `Arc<dyn Backend>` and is one type whichever
/// backend it wraps. Each method takes DynamoDB's request (expression strings and name/value maps, not
/// closures), which is what lets two backends be compared request by request.
#[async_trait::async_trait]
pub trait Backend: Send + Sync + std::fmt::Debug {
    /// `CreateTable`.
    async fn create_table(&self, input: CreateTableInput) -> Result<CreateTableOutput> {
        let _ = input;
        Err(unsupported("CreateTable"))
    }
    /// `DescribeTable`.
    async fn describe_table(&self, input: DescribeTableInput) -> Result<DescribeTableOutput> {
        let _ = input;
        Err(unsupported("DescribeTable"))
    }
    /// `ListTables`.
    async fn list_tables(&self, input: ListTablesInput) -> Result<ListTablesOutput> {
        let _ = input;
        Err(unsupported("ListTables"))
    }
    /// `DeleteTable`.
    async fn delete_table(&self, input: DeleteTableInput) -> Result<DeleteTableOutput> {
        let _ = input;
        Err(unsupported("DeleteTable"))
    }
    /// `PutItem`.
    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput> {
        let _ = input;
        Err(unsupported("PutItem"))
    }
    /// `PutItem` of the item `item` writes (after `input.item`'s attributes, which the mapper leaves
    /// empty), without building an [`Item`](crate::Item) first: the write-side counterpart of
    /// [`get_item_into`](Backend::get_item_into). The mapper's `db.put` and `db.save` send their
    /// `PutItem` through it, handing over the model value. Everything else (checks, errors, consumed
    /// capacity) is `put_item`'s; a value `item` cannot write is its [`ConversionError`](crate::ConversionError),
    /// and nothing is sent.
    ///
    /// The default writes `item` into `input.item` and sends [`put_item`](Backend::put_item), so a
    /// backend implements it only to save that copy: [`AwsBackend`](crate::AwsBackend) writes the
    /// attributes straight into the SDK's item map, the in-memory engine into its stored form. An
    /// in-process form of `PutItem`, not an
    /// operation of DynamoDB's API.
    ///
    /// ```
    /// use dynomodel::backend::{GetItemInput, PutItemInput};
    /// use dynomodel::{AttributeValue, Backend, Item};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let db = dynomodel_mem::memory();
    /// # #[derive(dynomodel::Model, Debug, Clone)]
    /// # #[dynomodel(table = "users")]
    /// # struct User { #[hash_key] id: String }
    /// # db.create_schema::<User>().await?;
    /// let item = Item::from([("id".to_owned(), AttributeValue::S("u1".into()))]);
    /// let input = PutItemInput { table_name: "users".into(), ..Default::default() };
    /// db.backend().put_item_from(input, &item).await?;
    ///
    /// let input = GetItemInput { table_name: "users".into(), key: item.clone(), ..Default::default() };
    /// assert_eq!(db.backend().get_item(input).await?.item, Some(item));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    async fn put_item_from(
        &self,
        input: PutItemInput,
        item: &dyn AttributeWriter,
    ) -> Result<PutItemOutput> {
        let mut input = input;
        item.write(&mut input.item)?;
        self.put_item(input).await
    }
    /// `GetItem`.
    async fn get_item(&self, input: GetItemInput) -> Result<GetItemOutput> {
        let _ = input;
        Err(unsupported("GetItem"))
    }
    /// `GetItem`, handing the item found (if any) to `sink` attribute by attribute instead of
    /// returning it: the output's `item` is `None` either way. The mapper's `db.get` reads through
    /// it, so that a backend keeping items in another form than an [`Item`](crate::Item) can let it
    /// decode its struct without building a map first. Everything else (errors, consumed capacity)
    /// is `get_item`'s.
    ///
    /// The default sends [`get_item`](Backend::get_item) and hands over the item it returns, so a
    /// backend implements it only to save that copy: the in-memory engine hands over its stored
    /// items, [`AwsBackend`](crate::AwsBackend) the SDK's maps converted attribute by attribute.
    ///
    /// This and [`query_into`](Backend::query_into) / [`scan_into`](Backend::scan_into) are
    /// in-process forms of `GetItem`, `Query` and `Scan`, not operations of DynamoDB's API: on the
    /// wire (the engine's server included) they are those operations.
    async fn get_item_into(
        &self,
        input: GetItemInput,
        sink: &mut dyn ItemSink,
    ) -> Result<GetItemOutput> {
        let mut output = self.get_item(input).await?;
        if let Some(item) = output.item.take() {
            sink.owned_item(item);
        }
        Ok(output)
    }
    /// [`get_item_into`](Backend::get_item_into) of the key `key` writes (after `input.key`'s
    /// attributes, which the mapper leaves empty), without building an [`Item`](crate::Item) of
    /// it first: the key-side counterpart of [`put_item_from`](Backend::put_item_from). The
    /// mapper's `db.get` reads through it. `key` is written before the future is returned (it
    /// need not outlive it); a key it cannot write is its
    /// [`ConversionError`](crate::ConversionError), and nothing is sent.
    ///
    /// The default writes `key` into `input.key` and calls `get_item_into` (no future of its
    /// own), so a backend implements it only to save that copy: [`AwsBackend`](crate::AwsBackend)
    /// writes the key straight into the SDK's map. Written out as `#[async_trait]` expands a
    /// method, so an implementation is too.
    fn get_item_keyed_into<'life0, 'life1, 'async_trait>(
        &'life0 self,
        input: GetItemInput,
        key: &dyn AttributeWriter,
        sink: &'life1 mut dyn ItemSink,
    ) -> BoxFuture<'async_trait, Result<GetItemOutput>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        let mut input = input;
        if let Err(e) = key.write(&mut input.key) {
            return Box::pin(std::future::ready(Err(e.into())));
        }
        self.get_item_into(input, sink)
    }
    /// `DeleteItem`.
    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput> {
        let _ = input;
        Err(unsupported("DeleteItem"))
    }
    /// `UpdateItem`.
    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput> {
        let _ = input;
        Err(unsupported("UpdateItem"))
    }
    /// `Query`.
    async fn query(&self, input: QueryInput) -> Result<QueryOutput> {
        let _ = input;
        Err(unsupported("Query"))
    }
    /// `Scan`.
    async fn scan(&self, input: ScanInput) -> Result<ScanOutput> {
        let _ = input;
        Err(unsupported("Scan"))
    }
    /// `Query`, handing each item of the page to `sink` attribute by attribute, in the page's order,
    /// instead of returning it: the output's `items` is `None`, everything else (`Count`,
    /// `ScannedCount`, `LastEvaluatedKey`, consumed capacity, errors) is `query`'s. The mapper's
    /// `db.query` reads through it, like [`get_item_into`](Backend::get_item_into).
    ///
    /// The default sends [`query`](Backend::query) and hands over the items it returns.
    async fn query_into(&self, input: QueryInput, sink: &mut dyn ItemSink) -> Result<QueryOutput> {
        let mut output = self.query(input).await?;
        sink.owned_items(output.items.take());
        Ok(output)
    }
    /// [`query_into`](Backend::query_into) of `input` with the names and values of its expressions
    /// in `attributes`, numbered as the mapper renders them, rather than in `input`'s maps (which
    /// the mapper leaves `None`): a backend sending them in a map type of its own builds it once.
    /// The mapper's `db.query` reads through it.
    ///
    /// The default adds `attributes` to `input`'s maps ([`NumberedAttributes::fill`]) and calls
    /// `query_into` (no future of its own), so a backend implements it only to save that copy:
    /// [`AwsBackend`](crate::AwsBackend) builds the SDK's maps from them. Written out as
    /// `#[async_trait]` expands a method, so an implementation is too.
    fn query_numbered_into<'life0, 'life1, 'async_trait>(
        &'life0 self,
        input: QueryInput,
        attributes: NumberedAttributes,
        sink: &'life1 mut dyn ItemSink,
    ) -> BoxFuture<'async_trait, Result<QueryOutput>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        let mut input = input;
        attributes.fill(
            &mut input.expression_attribute_names,
            &mut input.expression_attribute_values,
        );
        self.query_into(input, sink)
    }
    /// `Scan`, handing each item of the page to `sink` (see [`query_into`](Backend::query_into)):
    /// the output's `items` is `None`.
    ///
    /// The default sends [`scan`](Backend::scan) and hands over the items it returns.
    async fn scan_into(&self, input: ScanInput, sink: &mut dyn ItemSink) -> Result<ScanOutput> {
        let mut output = self.scan(input).await?;
        sink.owned_items(output.items.take());
        Ok(output)
    }
    /// `BatchGetItem`.
    async fn batch_get_item(&self, input: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        let _ = input;
        Err(unsupported("BatchGetItem"))
    }
    /// `BatchWriteItem`.
    async fn batch_write_item(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        let _ = input;
        Err(unsupported("BatchWriteItem"))
    }
    /// `TransactGetItems`.
    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        let _ = input;
        Err(unsupported("TransactGetItems"))
    }
    /// `TransactWriteItems`.
    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        let _ = input;
        Err(unsupported("TransactWriteItems"))
    }
    /// `UpdateTable`.
    async fn update_table(&self, input: UpdateTableInput) -> Result<UpdateTableOutput> {
        let _ = input;
        Err(unsupported("UpdateTable"))
    }
    /// `UpdateTimeToLive`.
    async fn update_time_to_live(
        &self,
        input: UpdateTimeToLiveInput,
    ) -> Result<UpdateTimeToLiveOutput> {
        let _ = input;
        Err(unsupported("UpdateTimeToLive"))
    }
    /// `DescribeTimeToLive`.
    async fn describe_time_to_live(
        &self,
        input: DescribeTimeToLiveInput,
    ) -> Result<DescribeTimeToLiveOutput> {
        let _ = input;
        Err(unsupported("DescribeTimeToLive"))
    }
    /// `TagResource`.
    async fn tag_resource(&self, input: TagResourceInput) -> Result<TagResourceOutput> {
        let _ = input;
        Err(unsupported("TagResource"))
    }
    /// `UntagResource`.
    async fn untag_resource(&self, input: UntagResourceInput) -> Result<UntagResourceOutput> {
        let _ = input;
        Err(unsupported("UntagResource"))
    }
    /// `ListTagsOfResource`.
    async fn list_tags_of_resource(
        &self,
        input: ListTagsOfResourceInput,
    ) -> Result<ListTagsOfResourceOutput> {
        let _ = input;
        Err(unsupported("ListTagsOfResource"))
    }
    /// `DescribeLimits`.
    async fn describe_limits(&self, input: DescribeLimitsInput) -> Result<DescribeLimitsOutput> {
        let _ = input;
        Err(unsupported("DescribeLimits"))
    }
    /// `DescribeEndpoints`.
    async fn describe_endpoints(
        &self,
        input: DescribeEndpointsInput,
    ) -> Result<DescribeEndpointsOutput> {
        let _ = input;
        Err(unsupported("DescribeEndpoints"))
    }

    /// `ExecuteStatement` (PartiQL).
    async fn execute_statement(
        &self,
        input: ExecuteStatementInput,
    ) -> Result<ExecuteStatementOutput> {
        let _ = input;
        Err(unsupported("ExecuteStatement"))
    }
    /// `BatchExecuteStatement` (PartiQL).
    async fn batch_execute_statement(
        &self,
        input: BatchExecuteStatementInput,
    ) -> Result<BatchExecuteStatementOutput> {
        let _ = input;
        Err(unsupported("BatchExecuteStatement"))
    }
    /// `ExecuteTransaction` (PartiQL).
    async fn execute_transaction(
        &self,
        input: ExecuteTransactionInput,
    ) -> Result<ExecuteTransactionOutput> {
        let _ = input;
        Err(unsupported("ExecuteTransaction"))
    }

    /// `ListStreams` (DynamoDB Streams).
    async fn list_streams(&self, input: ListStreamsInput) -> Result<ListStreamsOutput> {
        let _ = input;
        Err(unsupported("ListStreams"))
    }
    /// `DescribeStream` (DynamoDB Streams).
    async fn describe_stream(&self, input: DescribeStreamInput) -> Result<DescribeStreamOutput> {
        let _ = input;
        Err(unsupported("DescribeStream"))
    }
    /// `GetShardIterator` (DynamoDB Streams).
    async fn get_shard_iterator(
        &self,
        input: GetShardIteratorInput,
    ) -> Result<GetShardIteratorOutput> {
        let _ = input;
        Err(unsupported("GetShardIterator"))
    }
    /// `GetRecords` (DynamoDB Streams).
    async fn get_records(&self, input: GetRecordsInput) -> Result<GetRecordsOutput> {
        let _ = input;
        Err(unsupported("GetRecords"))
    }

    // Backups and point-in-time recovery (`backup.rs`).

    /// `CreateBackup`.
    async fn create_backup(&self, input: CreateBackupInput) -> Result<CreateBackupOutput> {
        let _ = input;
        Err(unsupported("CreateBackup"))
    }
    /// `DescribeBackup`.
    async fn describe_backup(&self, input: DescribeBackupInput) -> Result<DescribeBackupOutput> {
        let _ = input;
        Err(unsupported("DescribeBackup"))
    }
    /// `ListBackups`.
    async fn list_backups(&self, input: ListBackupsInput) -> Result<ListBackupsOutput> {
        let _ = input;
        Err(unsupported("ListBackups"))
    }
    /// `DeleteBackup`.
    async fn delete_backup(&self, input: DeleteBackupInput) -> Result<DeleteBackupOutput> {
        let _ = input;
        Err(unsupported("DeleteBackup"))
    }
    /// `RestoreTableFromBackup`.
    async fn restore_table_from_backup(
        &self,
        input: RestoreTableFromBackupInput,
    ) -> Result<RestoreTableFromBackupOutput> {
        let _ = input;
        Err(unsupported("RestoreTableFromBackup"))
    }
    /// `DescribeContinuousBackups`.
    async fn describe_continuous_backups(
        &self,
        input: DescribeContinuousBackupsInput,
    ) -> Result<DescribeContinuousBackupsOutput> {
        let _ = input;
        Err(unsupported("DescribeContinuousBackups"))
    }
    /// `UpdateContinuousBackups`.
    async fn update_continuous_backups(
        &self,
        input: UpdateContinuousBackupsInput,
    ) -> Result<UpdateContinuousBackupsOutput> {
        let _ = input;
        Err(unsupported("UpdateContinuousBackups"))
    }
    /// `RestoreTableToPointInTime`.
    async fn restore_table_to_point_in_time(
        &self,
        input: RestoreTableToPointInTimeInput,
    ) -> Result<RestoreTableToPointInTimeOutput> {
        let _ = input;
        Err(unsupported("RestoreTableToPointInTime"))
    }

    /// The time now by this backend's clock: what the mapper stamps `#[created_at]` and
    /// `#[updated_at]` fields with (see [timestamps](crate::Model#timestamps-created_at-updated_at)).
    /// Not a DynamoDB operation: DynamoDB stamps nothing, so the time is the writer's.
    ///
    /// The default is the system's clock, as for [`AwsBackend`](crate::AwsBackend). The in-memory
    /// engine answers with its own clock (`MemBackend::with_clock`), the one its time to live runs
    /// on, so that a test moving that clock sees items stamped at the times it set. It is read
    /// once per write, before the request is sent, and must be cheap.
    ///
    /// ```
    /// use dynomodel::Backend;
    ///
    /// #[derive(Debug)]
    /// struct Offline; // a test double implementing no operation
    /// impl Backend for Offline {}
    ///
    /// let before = chrono::Utc::now();
    /// assert!(Offline.now() >= before); // the system's clock
    /// ```
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        chrono::Utc::now()
    }
}
