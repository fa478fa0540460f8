//! Test support for the single-item builders and transactions: the shared recording fake
//! ([`RecordingBackend`]) answering from one queue of canned responses, a small model to build requests for, and helpers to
//! write expected requests. (The batch tests have their own stateful fake, `batch/tests/fake.rs`.)

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, Mutex};

use crate::backend::testing::{op, RecordingBackend};
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
pub(crate) use crate::backend::testing::Call as Request;

/// What the next request gets back.
#[derive(Debug, Clone)]
enum Reply {
    /// The returned item of a single-item request (or none).
    Item(Option<Item>),
    /// The responses of a `TransactGetItems`.
    Items(Vec<Option<Item>>),
}

/// The answers to the next requests, whatever their operation.
type Answers = Arc<Mutex<VecDeque<Result<Reply>>>>;

/// The shared recording fake, answering the single-item and transaction requests from one queue of
/// canned answers (nothing found, nothing returned, when it is empty).
#[derive(Debug)]
pub(crate) struct Recorder {
    fake: Arc<RecordingBackend>,
    answers: Answers,
}

/// The next answer, as a single-item request's returned item.
fn next_item(answers: &Answers) -> Result<Option<Item>> {
    match next(answers)? {
        Reply::Item(item) => Ok(item),
        Reply::Items(_) => Err(Error::validation("a list answer to a single-item request")),
    }
}

fn next(answers: &Answers) -> Result<Reply> {
    let next = answers.lock().expect("not poisoned").pop_front();
    next.unwrap_or(Ok(Reply::Item(None)))
}

impl Recorder {
    /// A database over a new recorder, and the recorder to inspect.
    pub(crate) fn db() -> (Db, Arc<Recorder>) {
        let fake = Arc::new(RecordingBackend::new());
        let answers = Answers::default();
        let a = answers.clone();
        fake.on(op::put_item, move |_| {
            let attributes = next_item(&a)?;
            Ok(PutItemOutput {
                attributes,
                ..Default::default()
            })
        });
        let a = answers.clone();
        fake.on(op::get_item, move |_| {
            let item = next_item(&a)?;
            Ok(GetItemOutput {
                item,
                ..Default::default()
            })
        });
        let a = answers.clone();
        fake.on(op::delete_item, move |_| {
            let attributes = next_item(&a)?;
            Ok(DeleteItemOutput {
                attributes,
                ..Default::default()
            })
        });
        let a = answers.clone();
        fake.on(op::update_item, move |_| {
            let attributes = next_item(&a)?;
            Ok(UpdateItemOutput {
                attributes,
                ..Default::default()
            })
        });
        let a = answers.clone();
        fake.on(op::transact_get_items, move |input| {
            let responses = match next(&a)? {
                Reply::Items(responses) => responses,
                Reply::Item(_) => vec![None; input.transact_items.len()],
            };
            Ok(TransactGetItemsOutput {
                responses,
                ..Default::default()
            })
        });
        let a = answers.clone();
        fake.on(op::transact_write_items, move |_| {
            next(&a)?;
            Ok(TransactWriteItemsOutput::default())
        });
        let db = Db::from_arc(fake.clone());
        (db, Arc::new(Recorder { fake, answers }))
    }

    /// [`Recorder::db`], with a clock stopped at `now`.
    pub(crate) fn db_at(now: chrono::DateTime<chrono::Utc>) -> (Db, Arc<Recorder>) {
        let (db, recorder) = Recorder::db();
        recorder.fake.set_now(now);
        (db, recorder)
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
        self.fake.take()
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
            Request::PutItem(input) => input,
            other => panic!("a PutItem, not {other:?}"),
        }
    }

    /// The one `UpdateItem` sent so far.
    pub(crate) fn only_update(&self) -> UpdateItemInput {
        match self.only() {
            Request::UpdateItem(input) => input,
            other => panic!("an UpdateItem, not {other:?}"),
        }
    }

    /// The one `DeleteItem` sent so far.
    pub(crate) fn only_delete(&self) -> DeleteItemInput {
        match self.only() {
            Request::DeleteItem(input) => input,
            other => panic!("a DeleteItem, not {other:?}"),
        }
    }

    /// The one `TransactWriteItems` sent so far.
    pub(crate) fn only_write(&self) -> TransactWriteItemsInput {
        match self.only() {
            Request::TransactWriteItems(input) => input,
            other => panic!("a TransactWriteItems, not {other:?}"),
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
