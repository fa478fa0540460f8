//! The [`Backend`] trait: one async method per DynamoDB operation, over plain request and response data
//! shaped like DynamoDB's API. `dynomodel-mem` implements it in memory; [`crate::AwsBackend`] (feature
//! `aws`) implements it over `aws-sdk-dynamodb`.

mod item;
mod query;
mod table;

pub use item::*;
pub use query::*;
pub use table::*;

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
}
