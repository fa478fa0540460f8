//! The [`Backend`] trait: one async method per DynamoDB operation, over plain request and response data
//! shaped like DynamoDB's API. `dynomodel-mem` implements it in memory; [`crate::AwsBackend`] (feature
//! `aws`) implements it over `aws-sdk-dynamodb`.

mod batch;
mod item;
mod query;
mod table;
mod transact;

pub use batch::*;
pub use item::*;
pub use query::*;
pub use table::*;
pub use transact::*;

use crate::error::Result;

/// A DynamoDB implementation.
///
/// The trait is object-safe so that [`crate::Db`] holds an `Arc<dyn Backend>` and is one type whichever
/// backend it wraps. Each method takes DynamoDB's request (expression strings and name/value maps, not
/// closures), which is what lets two backends be compared request by request.
#[async_trait::async_trait]
pub trait Backend: Send + Sync + std::fmt::Debug {
    /// `CreateTable`.
    async fn create_table(&self, input: CreateTableInput) -> Result<CreateTableOutput>;
    /// `DescribeTable`.
    async fn describe_table(&self, input: DescribeTableInput) -> Result<DescribeTableOutput>;
    /// `ListTables`.
    async fn list_tables(&self, input: ListTablesInput) -> Result<ListTablesOutput>;
    /// `DeleteTable`.
    async fn delete_table(&self, input: DeleteTableInput) -> Result<DeleteTableOutput>;
    /// `PutItem`.
    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput>;
    /// `GetItem`.
    async fn get_item(&self, input: GetItemInput) -> Result<GetItemOutput>;
    /// `DeleteItem`.
    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput>;
    /// `UpdateItem`.
    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput>;
    /// `Query`.
    async fn query(&self, input: QueryInput) -> Result<QueryOutput>;
    /// `Scan`.
    async fn scan(&self, input: ScanInput) -> Result<ScanOutput>;
    /// `BatchGetItem`.
    async fn batch_get_item(&self, input: BatchGetItemInput) -> Result<BatchGetItemOutput>;
    /// `BatchWriteItem`.
    async fn batch_write_item(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput>;
    /// `TransactGetItems`.
    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput>;
    /// `TransactWriteItems`.
    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput>;
}
