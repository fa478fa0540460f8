//! Test support for the single-item builders and transactions: a [`Backend`] that records every
//! request and answers with canned responses, a small model to build requests for, and helpers to
//! write expected requests. (The batch tests have their own stateful fake, `batch/tests/fake.rs`.)

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
    Some(item(pairs))
}

/// An item from pairs.
pub(crate) fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
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
    Write(TransactWriteItemsInput),
    Read(TransactGetItemsInput),
}

/// What the next request gets back.
#[derive(Debug, Clone)]
enum Reply {
    /// The returned item of a single-item request (or none).
    Item(Option<Item>),
    /// The responses of a `TransactGetItems`.
    Items(Vec<Option<Item>>),
}

/// Records requests; answers each from a queue of canned answers (nothing found, nothing returned,
/// when it is empty).
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    requests: Mutex<Vec<Request>>,
    answers: Mutex<VecDeque<Result<Reply>>>,
    /// What [`Backend::now`] answers (the system's time when unset).
    now: Option<chrono::DateTime<chrono::Utc>>,
}

impl Recorder {
    /// A database over a new recorder, and the recorder to inspect.
    pub(crate) fn db() -> (Db, Arc<Recorder>) {
        let recorder = Arc::new(Recorder::default());
        (Db::from_arc(recorder.clone()), recorder)
    }

    /// [`Recorder::db`], with a clock stopped at `now`.
    pub(crate) fn db_at(now: chrono::DateTime<chrono::Utc>) -> (Db, Arc<Recorder>) {
        let recorder = Arc::new(Recorder {
            now: Some(now),
            ..Recorder::default()
        });
        (Db::from_arc(recorder.clone()), recorder)
    }

    /// Queues the answer to the next unanswered single-item request: its returned item, or an error.
    pub(crate) fn answer(&self, answer: Result<Option<Item>>) {
        self.queue(answer.map(Reply::Item));
    }

    /// Queues the responses of the next `TransactGetItems`.
    pub(crate) fn answer_items(&self, items: Vec<Option<Item>>) {
        self.queue(Ok(Reply::Items(items)));
    }

    /// Queues an error as the answer to the next request.
    pub(crate) fn fail(&self, error: Error) {
        self.queue(Err(error));
    }

    fn queue(&self, reply: Result<Reply>) {
        self.answers.lock().expect("not poisoned").push_back(reply);
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

    /// The one `PutItem` sent so far.
    pub(crate) fn only_put(&self) -> PutItemInput {
        match self.only() {
            Request::Put(input) => input,
            other => panic!("a PutItem, not {other:?}"),
        }
    }

    /// The one `UpdateItem` sent so far.
    pub(crate) fn only_update(&self) -> UpdateItemInput {
        match self.only() {
            Request::Update(input) => input,
            other => panic!("an UpdateItem, not {other:?}"),
        }
    }

    /// The one `DeleteItem` sent so far.
    pub(crate) fn only_delete(&self) -> DeleteItemInput {
        match self.only() {
            Request::Delete(input) => input,
            other => panic!("a DeleteItem, not {other:?}"),
        }
    }

    /// The one `TransactWriteItems` sent so far.
    pub(crate) fn only_write(&self) -> TransactWriteItemsInput {
        match self.only() {
            Request::Write(input) => input,
            other => panic!("a TransactWriteItems, not {other:?}"),
        }
    }

    fn record(&self, request: Request) -> Result<Reply> {
        self.requests.lock().expect("not poisoned").push(request);
        self.answers
            .lock()
            .expect("not poisoned")
            .pop_front()
            .unwrap_or(Ok(Reply::Item(None)))
    }

    /// Records a single-item request and gives its returned item.
    fn item(&self, request: Request) -> Result<Option<Item>> {
        match self.record(request)? {
            Reply::Item(item) => Ok(item),
            Reply::Items(_) => Err(Error::validation("a list answer to a single-item request")),
        }
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
    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput> {
        let attributes = self.item(Request::Put(input))?;
        Ok(PutItemOutput {
            attributes,
            ..Default::default()
        })
    }
    async fn get_item(&self, input: GetItemInput) -> Result<GetItemOutput> {
        let item = self.item(Request::Get(input))?;
        Ok(GetItemOutput {
            item,
            ..Default::default()
        })
    }
    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput> {
        let attributes = self.item(Request::Delete(input))?;
        Ok(DeleteItemOutput {
            attributes,
            ..Default::default()
        })
    }
    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput> {
        let attributes = self.item(Request::Update(input))?;
        Ok(UpdateItemOutput {
            attributes,
            ..Default::default()
        })
    }
    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        let count = input.transact_items.len();
        let responses = match self.record(Request::Read(input))? {
            Reply::Items(responses) => responses,
            Reply::Item(_) => vec![None; count],
        };
        Ok(TransactGetItemsOutput {
            responses,
            ..Default::default()
        })
    }
    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        self.record(Request::Write(input))?;
        Ok(TransactWriteItemsOutput::default())
    }
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.now.unwrap_or_else(chrono::Utc::now)
    }
}
