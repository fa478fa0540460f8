//! A [`Backend`] for the wire layer's request-level tests: it records the typed request of the item
//! operations, CreateTable and the schema-lifecycle operations, and answers with a canned response or
//! error, so that decoding and encoding are tested on their own, whatever the engine does.

use std::sync::Mutex;

use dynomodel::backend::{
    Backend, BatchGetItemInput, BatchGetItemOutput, BatchWriteItemInput, BatchWriteItemOutput,
    CreateTableInput, CreateTableOutput, DeleteItemInput, DeleteItemOutput, DescribeEndpointsInput,
    DescribeEndpointsOutput, DescribeLimitsInput, DescribeLimitsOutput, DescribeTimeToLiveInput,
    DescribeTimeToLiveOutput, GetItemInput, GetItemOutput, ListTagsOfResourceInput,
    ListTagsOfResourceOutput, PutItemInput, PutItemOutput, QueryInput, QueryOutput, ScanInput,
    ScanOutput, TableDescription, TagResourceInput, TagResourceOutput, TimeToLiveDescription,
    TimeToLiveStatus, TransactGetItemsInput, TransactGetItemsOutput, TransactWriteItemsInput,
    TransactWriteItemsOutput, UntagResourceInput, UntagResourceOutput, UpdateItemInput,
    UpdateItemOutput, UpdateTableInput, UpdateTableOutput, UpdateTimeToLiveInput,
    UpdateTimeToLiveOutput,
};
use dynomodel::{Error, Result};
use serde_json::Value;

use crate::protocol::{call, Fault, WireResult};

/// The typed request the wire layer handed over.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Seen {
    Put(PutItemInput),
    Get(GetItemInput),
    Delete(DeleteItemInput),
    Update(UpdateItemInput),
    Query(QueryInput),
    Scan(ScanInput),
    BatchGet(BatchGetItemInput),
    BatchWrite(BatchWriteItemInput),
    TransactGet(TransactGetItemsInput),
    TransactWrite(TransactWriteItemsInput),
    CreateTable(CreateTableInput),
    UpdateTable(UpdateTableInput),
    UpdateTtl(UpdateTimeToLiveInput),
    DescribeTtl(DescribeTimeToLiveInput),
    Tag(TagResourceInput),
    Untag(UntagResourceInput),
    ListTags(ListTagsOfResourceInput),
    Limits,
    Endpoints,
}

/// Canned answers (defaults: empty responses) and the requests seen.
#[derive(Debug, Default)]
pub(super) struct Fake {
    /// PutItem's answer.
    pub put: PutItemOutput,
    /// GetItem's answer.
    pub get: GetItemOutput,
    /// DeleteItem's answer.
    pub delete: DeleteItemOutput,
    /// UpdateItem's answer.
    pub update: UpdateItemOutput,
    /// Query's and Scan's answer.
    pub page: QueryOutput,
    /// BatchGetItem's answer.
    pub batch_get: BatchGetItemOutput,
    /// BatchWriteItem's answer.
    pub batch_write: BatchWriteItemOutput,
    /// TransactGetItems' answer.
    pub transact_get: TransactGetItemsOutput,
    /// TransactWriteItems' answer.
    pub transact_write: TransactWriteItemsOutput,
    /// CreateTable's and UpdateTable's description (without one they answer an error, after
    /// recording the request).
    pub table: Option<TableDescription>,
    /// DescribeTimeToLive's answer (default: `DISABLED`, no attribute).
    pub ttl: Option<TimeToLiveDescription>,
    /// ListTagsOfResource's answer.
    pub tags: ListTagsOfResourceOutput,
    /// DescribeLimits' answer.
    pub limits: DescribeLimitsOutput,
    /// DescribeEndpoints' answer.
    pub endpoints: DescribeEndpointsOutput,
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
    pub(super) async fn run(
        &self,
        operation: &str,
        body: Value,
    ) -> (WireResult<Value>, Option<Seen>) {
        let result = call(self, operation, body.to_string().as_bytes()).await;
        let mut seen = self.seen.lock().unwrap();
        assert!(seen.len() <= 1, "one request, one backend call");
        (result, seen.pop())
    }

    /// The message of the `ValidationException` that decoding `body` must produce.
    pub(super) async fn validation(&self, operation: &str, body: Value) -> String {
        match self.run(operation, body.clone()).await {
            (Err(Fault::Backend(Error::Validation { message })), None) => message,
            other => panic!("{body}: expected a ValidationException, got {other:?}"),
        }
    }

    /// The message of the `SerializationException` that decoding `body` must produce.
    pub(super) async fn serialization(&self, operation: &str, body: Value) -> Option<String> {
        match self.run(operation, body.clone()).await {
            (Err(Fault::Serialization(message)), None) => message,
            other => panic!("{body}: expected a SerializationException, got {other:?}"),
        }
    }

    /// The typed request that decoding `body` must produce (the response is not looked at).
    pub(super) async fn decoded(&self, operation: &str, body: Value) -> Seen {
        match self.run(operation, body.clone()).await {
            (_, Some(seen)) => seen,
            (result, None) => panic!("{body}: decoding failed: {result:?}"),
        }
    }
}

fn not_here() -> Error {
    Error::validation("not answered by the fake backend")
}

impl Fake {
    /// The canned description, or the fake's refusal.
    fn description(&self) -> Result<TableDescription> {
        self.table.clone().ok_or_else(not_here)
    }
}

#[async_trait::async_trait]
impl Backend for Fake {
    async fn create_table(&self, input: CreateTableInput) -> Result<CreateTableOutput> {
        self.answer(Seen::CreateTable(input), ())?;
        Ok(CreateTableOutput {
            table_description: self.description()?,
        })
    }
    async fn update_table(&self, input: UpdateTableInput) -> Result<UpdateTableOutput> {
        self.answer(Seen::UpdateTable(input), ())?;
        Ok(UpdateTableOutput {
            table_description: self.description()?,
        })
    }
    async fn update_time_to_live(
        &self,
        input: UpdateTimeToLiveInput,
    ) -> Result<UpdateTimeToLiveOutput> {
        let spec = input.time_to_live_specification.clone();
        self.answer(
            Seen::UpdateTtl(input),
            UpdateTimeToLiveOutput {
                time_to_live_specification: spec,
            },
        )
    }
    async fn describe_time_to_live(
        &self,
        input: DescribeTimeToLiveInput,
    ) -> Result<DescribeTimeToLiveOutput> {
        let description = self.ttl.clone().unwrap_or(TimeToLiveDescription {
            time_to_live_status: TimeToLiveStatus::Disabled,
            attribute_name: None,
        });
        self.answer(
            Seen::DescribeTtl(input),
            DescribeTimeToLiveOutput {
                time_to_live_description: description,
            },
        )
    }
    async fn tag_resource(&self, input: TagResourceInput) -> Result<TagResourceOutput> {
        self.answer(Seen::Tag(input), TagResourceOutput {})
    }
    async fn untag_resource(&self, input: UntagResourceInput) -> Result<UntagResourceOutput> {
        self.answer(Seen::Untag(input), UntagResourceOutput {})
    }
    async fn list_tags_of_resource(
        &self,
        input: ListTagsOfResourceInput,
    ) -> Result<ListTagsOfResourceOutput> {
        self.answer(Seen::ListTags(input), self.tags.clone())
    }
    async fn describe_limits(&self, _: DescribeLimitsInput) -> Result<DescribeLimitsOutput> {
        self.answer(Seen::Limits, self.limits.clone())
    }
    async fn describe_endpoints(
        &self,
        _: DescribeEndpointsInput,
    ) -> Result<DescribeEndpointsOutput> {
        self.answer(Seen::Endpoints, self.endpoints.clone())
    }
    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput> {
        self.answer(Seen::Put(input), self.put.clone())
    }
    async fn get_item(&self, input: GetItemInput) -> Result<GetItemOutput> {
        self.answer(Seen::Get(input), self.get.clone())
    }
    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput> {
        self.answer(Seen::Delete(input), self.delete.clone())
    }
    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput> {
        self.answer(Seen::Update(input), self.update.clone())
    }
    async fn query(&self, input: QueryInput) -> Result<QueryOutput> {
        self.answer(Seen::Query(input), self.page.clone())
    }
    async fn scan(&self, input: ScanInput) -> Result<ScanOutput> {
        self.answer(Seen::Scan(input), self.page.clone())
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
        self.answer(Seen::TransactWrite(input), self.transact_write.clone())
    }
}
