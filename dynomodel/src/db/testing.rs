//! Test support for the builders: a [`Backend`] that records every request and answers with canned
//! responses, and a small model to build requests for.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, Mutex};

use crate::backend::*;
use crate::db::Db;
use crate::error::{Error, Result};
use crate::value::{AttributeValue, Item, Number};
use crate::Model;

/// flywheel's tweet, trimmed to the field kinds the builders treat differently.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets")]
pub(crate) struct Tweet {
    #[hash_key]
    pub userid: String,
    #[range_key]
    pub id: String,
    pub text: String,
    pub likes: i64,
    pub retweets: i64,
    pub tags: BTreeSet<String>,
    pub history: Vec<String>,
    pub nick: Option<String>,
}

pub(crate) fn tweet() -> Tweet {
    Tweet {
        userid: "abc".into(),
        id: "1".into(),
        text: "hello".into(),
        likes: 3,
        retweets: 0,
        tags: BTreeSet::from(["rust".to_owned()]),
        history: vec![],
        nick: None,
    }
}

pub(crate) fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_owned())
}

pub(crate) fn n(v: i64) -> AttributeValue {
    AttributeValue::N(Number::from(v))
}

/// `{"#n0": "a", ...}` from pairs.
pub(crate) fn names(pairs: &[(&str, &str)]) -> Option<ExpressionAttributeNames> {
    Some(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    )
}

/// `{":v0": value, ...}` from pairs.
pub(crate) fn values(pairs: &[(&str, AttributeValue)]) -> Option<Item> {
    Some(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

/// The key item of [`tweet`].
pub(crate) fn key() -> Item {
    BTreeMap::from([("userid".to_owned(), s("abc")), ("id".to_owned(), s("1"))])
}

/// One request the builders sent.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Request {
    Put(PutItemInput),
    Get(GetItemInput),
    Delete(DeleteItemInput),
    Update(UpdateItemInput),
}

/// What the next request gets back: the returned item (or none), or an error.
pub(crate) type Answer = Result<Option<Item>>;

/// Records requests; answers each from a queue of canned answers (`Ok(None)` when it is empty).
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    requests: Mutex<Vec<Request>>,
    answers: Mutex<VecDeque<Answer>>,
}

impl Recorder {
    /// A database over a new recorder, and the recorder to inspect.
    pub(crate) fn db() -> (Db, Arc<Recorder>) {
        let recorder = Arc::new(Recorder::default());
        (Db::from_arc(recorder.clone()), recorder)
    }

    /// Queues the answer to the next unanswered request.
    pub(crate) fn answer(&self, answer: Answer) {
        self.answers.lock().expect("not poisoned").push_back(answer);
    }

    /// The requests sent so far, taken.
    pub(crate) fn take(&self) -> Vec<Request> {
        std::mem::take(&mut *self.requests.lock().expect("not poisoned"))
    }

    /// The one request sent so far.
    pub(crate) fn only(&self) -> Request {
        let mut requests = self.take();
        assert_eq!(requests.len(), 1, "exactly one request: {requests:?}");
        requests.remove(0)
    }

    fn record(&self, request: Request) -> Answer {
        self.requests.lock().expect("not poisoned").push(request);
        self.answers
            .lock()
            .expect("not poisoned")
            .pop_front()
            .unwrap_or(Ok(None))
    }
}

/// The conditional-check failure DynamoDB sends, with the item when one is given.
pub(crate) fn conditional_failure(item: Option<Item>) -> Error {
    Error::ConditionalCheckFailed {
        message: "The conditional request failed".into(),
        item,
    }
}

#[async_trait::async_trait]
impl Backend for Recorder {
    async fn create_table(&self, _: CreateTableInput) -> Result<CreateTableOutput> {
        Err(Error::validation("not recorded"))
    }
    async fn describe_table(&self, _: DescribeTableInput) -> Result<DescribeTableOutput> {
        Err(Error::validation("not recorded"))
    }
    async fn list_tables(&self, _: ListTablesInput) -> Result<ListTablesOutput> {
        Err(Error::validation("not recorded"))
    }
    async fn delete_table(&self, _: DeleteTableInput) -> Result<DeleteTableOutput> {
        Err(Error::validation("not recorded"))
    }
    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput> {
        let attributes = self.record(Request::Put(input))?;
        Ok(PutItemOutput { attributes })
    }
    async fn get_item(&self, input: GetItemInput) -> Result<GetItemOutput> {
        let item = self.record(Request::Get(input))?;
        Ok(GetItemOutput { item })
    }
    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput> {
        let attributes = self.record(Request::Delete(input))?;
        Ok(DeleteItemOutput { attributes })
    }
    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput> {
        let attributes = self.record(Request::Update(input))?;
        Ok(UpdateItemOutput { attributes })
    }
    async fn query(&self, _: QueryInput) -> Result<QueryOutput> {
        Err(Error::validation("not recorded"))
    }
    async fn scan(&self, _: ScanInput) -> Result<ScanOutput> {
        Err(Error::validation("not recorded"))
    }
    async fn batch_get_item(&self, _: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        Err(Error::validation("not recorded"))
    }
    async fn batch_write_item(&self, _: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        Err(Error::validation("not recorded"))
    }
    async fn transact_get_items(&self, _: TransactGetItemsInput) -> Result<TransactGetItemsOutput> {
        Err(Error::validation("not recorded"))
    }
    async fn transact_write_items(
        &self,
        _: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        Err(Error::validation("not recorded"))
    }
}
