//! Unit tests of transactions and optimistic locking: the requests the builders render and how
//! answers (cancellations, failed conditions) are read, against [`Fake`], a backend that records
//! requests and replies from a queue of canned answers.

mod reads;
mod versions;
mod writes;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::backend::*;
use crate::db::Db;
use crate::error::{CancellationReason, Error, Result};
use crate::value::{AttributeValue, Item, Number};
use crate::Model;

/// A versioned model (hash key only).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "accounts")]
pub(crate) struct Account {
    #[hash_key]
    pub id: String,
    pub balance: i64,
    #[version]
    #[dynomodel(rename = "v")]
    pub version: u64,
}

/// An unversioned model with a range key.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "transfers")]
pub(crate) struct Transfer {
    #[hash_key]
    pub id: String,
    #[range_key]
    pub seq: u32,
    pub amount: i64,
}

/// A versioned model whose version is an `Option` of a small integer.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tiny")]
pub(crate) struct Tiny {
    #[hash_key]
    pub id: String,
    #[version]
    pub version: Option<u8>,
}

pub(crate) fn account(id: &str, balance: i64, version: u64) -> Account {
    Account {
        id: id.into(),
        balance,
        version,
    }
}

pub(crate) fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_owned())
}

pub(crate) fn n(v: i64) -> AttributeValue {
    AttributeValue::N(Number::from(v))
}

/// An item from pairs.
pub(crate) fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
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

/// The stored form of an account.
pub(crate) fn stored(id: &str, balance: i64, version: i64) -> Item {
    item(&[("id", s(id)), ("balance", n(balance)), ("v", n(version))])
}

/// One request the builders sent.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Sent {
    Put(PutItemInput),
    Update(UpdateItemInput),
    Delete(DeleteItemInput),
    Write(TransactWriteItemsInput),
    Read(TransactGetItemsInput),
}

/// What the next request gets back.
#[derive(Debug, Clone)]
pub(crate) enum Answer {
    /// The returned item of a single-item write (or none).
    Item(Option<Item>),
    /// The responses of a `TransactGetItems`.
    Items(Vec<Option<Item>>),
}

/// Records requests; answers each from a queue (`Ok` with nothing when it is empty).
#[derive(Debug, Default)]
pub(crate) struct Fake {
    sent: Mutex<Vec<Sent>>,
    answers: Mutex<VecDeque<Result<Answer>>>,
}

impl Fake {
    /// A database over a new fake, and the fake to inspect.
    pub(crate) fn db() -> (Db, Arc<Fake>) {
        let fake = Arc::new(Fake::default());
        (Db::from_arc(fake.clone()), fake)
    }

    /// Queues the answer to the next unanswered request.
    pub(crate) fn answer(&self, answer: Result<Answer>) {
        self.answers.lock().expect("not poisoned").push_back(answer);
    }

    /// Queues an error.
    pub(crate) fn fail(&self, error: Error) {
        self.answer(Err(error));
    }

    /// The requests sent so far, taken.
    pub(crate) fn take(&self) -> Vec<Sent> {
        std::mem::take(&mut *self.sent.lock().expect("not poisoned"))
    }

    /// The one request sent so far.
    pub(crate) fn only(&self) -> Sent {
        let mut sent = self.take();
        assert_eq!(sent.len(), 1, "exactly one request: {sent:?}");
        sent.remove(0)
    }

    /// The one `TransactWriteItems` sent so far.
    pub(crate) fn only_write(&self) -> TransactWriteItemsInput {
        match self.only() {
            Sent::Write(input) => input,
            other => panic!("a TransactWriteItems, not {other:?}"),
        }
    }

    fn record(&self, sent: Sent) -> Result<Answer> {
        self.sent.lock().expect("not poisoned").push(sent);
        self.answers
            .lock()
            .expect("not poisoned")
            .pop_front()
            .unwrap_or(Ok(Answer::Item(None)))
    }

    fn item(&self, sent: Sent) -> Result<Option<Item>> {
        match self.record(sent)? {
            Answer::Item(item) => Ok(item),
            Answer::Items(_) => Err(Error::validation("a list answer to a single-item request")),
        }
    }
}

/// The conflict of a [`Error::VersionConflict`].
pub(crate) fn conflict(error: &Error) -> Option<&crate::error::VersionConflict> {
    match error {
        Error::VersionConflict(conflict) => Some(conflict),
        _ => None,
    }
}

/// The (expected, stored) versions of a [`Error::VersionConflict`].
pub(crate) fn versions(error: &Error) -> Option<(Option<u64>, Option<u64>)> {
    conflict(error).map(|c| (c.expected, c.stored))
}

/// DynamoDB's cancellation with these reasons (the message lists their codes).
pub(crate) fn canceled(reasons: Vec<CancellationReason>) -> Error {
    let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
    Error::TransactionCanceled {
        message: format!(
            "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
            codes.join(", ")
        ),
        reasons,
    }
}

/// A reason of a failed condition, with the item when given.
pub(crate) fn failed_condition(item: Option<Item>) -> CancellationReason {
    CancellationReason::new("ConditionalCheckFailed", "The conditional request failed")
        .with_item(item)
}

/// The single-item failure of a condition, with the item when given.
pub(crate) fn conditional_failure(item: Option<Item>) -> Error {
    Error::ConditionalCheckFailed {
        message: "The conditional request failed".into(),
        item,
    }
}

#[async_trait::async_trait]
impl Backend for Fake {
    async fn create_table(&self, _: CreateTableInput) -> Result<CreateTableOutput> {
        Err(Error::validation("not faked"))
    }
    async fn describe_table(&self, _: DescribeTableInput) -> Result<DescribeTableOutput> {
        Err(Error::validation("not faked"))
    }
    async fn list_tables(&self, _: ListTablesInput) -> Result<ListTablesOutput> {
        Err(Error::validation("not faked"))
    }
    async fn delete_table(&self, _: DeleteTableInput) -> Result<DeleteTableOutput> {
        Err(Error::validation("not faked"))
    }
    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput> {
        let attributes = self.item(Sent::Put(input))?;
        Ok(PutItemOutput { attributes })
    }
    async fn get_item(&self, _: GetItemInput) -> Result<GetItemOutput> {
        Err(Error::validation("not faked"))
    }
    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput> {
        let attributes = self.item(Sent::Delete(input))?;
        Ok(DeleteItemOutput { attributes })
    }
    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput> {
        let attributes = self.item(Sent::Update(input))?;
        Ok(UpdateItemOutput { attributes })
    }
    async fn query(&self, _: QueryInput) -> Result<QueryOutput> {
        Err(Error::validation("not faked"))
    }
    async fn scan(&self, _: ScanInput) -> Result<ScanOutput> {
        Err(Error::validation("not faked"))
    }
    async fn batch_get_item(&self, _: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        Err(Error::validation("not faked"))
    }
    async fn batch_write_item(&self, _: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        Err(Error::validation("not faked"))
    }
    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        let count = input.transact_items.len();
        match self.record(Sent::Read(input))? {
            Answer::Items(responses) => Ok(TransactGetItemsOutput { responses }),
            Answer::Item(_) => Ok(TransactGetItemsOutput {
                responses: vec![None; count],
            }),
        }
    }
    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        self.record(Sent::Write(input))?;
        Ok(TransactWriteItemsOutput {})
    }
}
