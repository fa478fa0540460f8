//! A [`Backend`] for the wire layer's request-level tests: it records the typed request of the multi-item
//! operations and answers with a canned response or error, so that decoding and encoding are tested on
//! their own, whatever the engine does.

use std::sync::Mutex;

use dynomodel::{
    Backend, BatchGetItemInput, BatchGetItemOutput, BatchWriteItemInput, BatchWriteItemOutput,
    CreateTableInput, CreateTableOutput, DeleteItemInput, DeleteItemOutput, DeleteTableInput,
    DeleteTableOutput, DescribeTableInput, DescribeTableOutput, Error, GetItemInput, GetItemOutput,
    ListTablesInput, ListTablesOutput, PutItemInput, PutItemOutput, QueryInput, QueryOutput,
    Result, ScanInput, ScanOutput, TransactGetItemsInput, TransactGetItemsOutput,
    TransactWriteItemsInput, TransactWriteItemsOutput, UpdateItemInput, UpdateItemOutput,
};
use serde_json::Value;

use crate::server::wire::{call, Fault, WireResult};

/// The typed request the wire layer handed over.
#[derive(Debug, Clone, PartialEq)]
pub enum Seen {
    BatchGet(BatchGetItemInput),
    BatchWrite(BatchWriteItemInput),
    TransactGet(TransactGetItemsInput),
    TransactWrite(TransactWriteItemsInput),
}

/// Canned answers (defaults: empty responses) and the requests seen.
#[derive(Debug, Default)]
pub struct Fake {
    /// BatchGetItem's answer.
    pub batch_get: BatchGetItemOutput,
    /// BatchWriteItem's answer.
    pub batch_write: BatchWriteItemOutput,
    /// TransactGetItems' answer (TransactWriteItems always answers `{}`).
    pub transact_get: TransactGetItemsOutput,
    /// Returned by every operation instead of its response, when set.
    pub error: Option<Error>,
    /// The typed requests received, in order.
    pub seen: Mutex<Vec<Seen>>,
}

impl Fake {
    fn answer<T>(&self, seen: Seen, out: T) -> Result<T> {
        self.seen.lock().unwrap().push(seen);
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(out),
        }
    }

    /// Runs `operation` on `body` and returns the response and the one request the backend saw (none
    /// when decoding failed).
    pub async fn run(&self, operation: &str, body: Value) -> (WireResult<Value>, Option<Seen>) {
        let result = call(self, operation, body.to_string().as_bytes()).await;
        let mut seen = self.seen.lock().unwrap();
        assert!(seen.len() <= 1, "one request, one backend call");
        (result, seen.pop())
    }

    /// The message of the `ValidationException` that decoding `body` must produce.
    pub async fn validation(&self, operation: &str, body: Value) -> String {
        match self.run(operation, body.clone()).await {
            (Err(Fault::Backend(Error::Validation { message })), None) => message,
            other => panic!("{body}: expected a ValidationException, got {other:?}"),
        }
    }

    /// The message of the `SerializationException` that decoding `body` must produce.
    pub async fn serialization(&self, operation: &str, body: Value) -> Option<String> {
        match self.run(operation, body.clone()).await {
            (Err(Fault::Serialization(message)), None) => message,
            other => panic!("{body}: expected a SerializationException, got {other:?}"),
        }
    }

    /// The typed request that decoding `body` must produce (the response is not looked at).
    pub async fn decoded(&self, operation: &str, body: Value) -> Seen {
        match self.run(operation, body.clone()).await {
            (_, Some(seen)) => seen,
            (result, None) => panic!("{body}: decoding failed: {result:?}"),
        }
    }
}

fn not_here() -> Error {
    Error::validation("not answered by the fake backend")
}

#[async_trait::async_trait]
impl Backend for Fake {
    async fn create_table(&self, _: CreateTableInput) -> Result<CreateTableOutput> {
        Err(not_here())
    }
    async fn describe_table(&self, _: DescribeTableInput) -> Result<DescribeTableOutput> {
        Err(not_here())
    }
    async fn list_tables(&self, _: ListTablesInput) -> Result<ListTablesOutput> {
        Err(not_here())
    }
    async fn delete_table(&self, _: DeleteTableInput) -> Result<DeleteTableOutput> {
        Err(not_here())
    }
    async fn put_item(&self, _: PutItemInput) -> Result<PutItemOutput> {
        Err(not_here())
    }
    async fn get_item(&self, _: GetItemInput) -> Result<GetItemOutput> {
        Err(not_here())
    }
    async fn delete_item(&self, _: DeleteItemInput) -> Result<DeleteItemOutput> {
        Err(not_here())
    }
    async fn update_item(&self, _: UpdateItemInput) -> Result<UpdateItemOutput> {
        Err(not_here())
    }
    async fn query(&self, _: QueryInput) -> Result<QueryOutput> {
        Err(not_here())
    }
    async fn scan(&self, _: ScanInput) -> Result<ScanOutput> {
        Err(not_here())
    }
    async fn batch_get_item(&self, input: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        self.answer(Seen::BatchGet(input), self.batch_get.clone())
    }
    async fn batch_write_item(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        self.answer(Seen::BatchWrite(input), self.batch_write.clone())
    }
    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        self.answer(Seen::TransactGet(input), self.transact_get.clone())
    }
    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        self.answer(Seen::TransactWrite(input), TransactWriteItemsOutput {})
    }
}
