//! A small fake of DynamoDB's batch operations for the batch tests, on the shared recording fake
//! (which records every request with the (paused) time it arrived): a store of items per table and
//! a script of how much of each request to leave unprocessed or which error to answer with. The
//! other operations are not used by batches and answer the recording fake's error.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use crate::backend::testing::{op, Call as Recorded, RecordingBackend};
use crate::backend::*;
use crate::db::batch::key::KeyId;
pub(super) use crate::db::testing::s;
use crate::db::Db;
use crate::error::{Error, Result};
use crate::value::Item;
use crate::Model;

/// flywheel's tweet, trimmed.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets")]
pub(super) struct Tweet {
    #[hash_key]
    pub userid: String,
    #[range_key]
    pub id: String,
    pub text: String,
}

/// A model with a hash key only, on another table.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "users")]
pub(super) struct User {
    #[hash_key]
    pub id: String,
    pub name: String,
}

/// Another model on the users table.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "users")]
pub(super) struct Profile {
    #[hash_key]
    pub id: String,
}

/// A hash-only model on a third table.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "groups")]
pub(super) struct Group {
    #[hash_key]
    pub id: String,
}

/// A model with a `#[version]` field, which a batch cannot check.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "docs")]
pub(super) struct Doc {
    #[hash_key]
    pub id: String,
    #[version]
    pub version: u64,
}

pub(super) fn tweet(i: usize) -> Tweet {
    Tweet {
        userid: "abc".into(),
        id: format!("{i:04}"),
        text: format!("tweet {i}"),
    }
}

pub(super) fn tweets(n: usize) -> Vec<Tweet> {
    (0..n).map(tweet).collect()
}

pub(super) fn user(i: usize) -> User {
    User {
        id: format!("u{i}"),
        name: format!("user {i}"),
    }
}

/// What the fake does with the next request.
#[derive(Debug, Clone)]
pub(super) enum Script {
    /// Processes all but the last `n` keys or writes, reported unprocessed.
    Leave(usize),
    /// Like `Leave`, but reports the unprocessed keys of a read without their table's settings
    /// (consistency, projection), to show the mapper does not rely on the echo.
    LeaveBare(usize),
    /// Processes nothing, reports everything unprocessed.
    LeaveAll,
    /// Answers this error.
    Fail(Error),
}

/// One request the fake received.
#[derive(Debug, Clone)]
pub(super) enum Call {
    Get(BatchGetItemInput),
    Write(BatchWriteItemInput),
}

impl Call {
    /// Keys or writes in the request.
    pub(super) fn size(&self) -> usize {
        match self {
            Call::Get(input) => input.request_items.values().map(|k| k.keys.len()).sum(),
            Call::Write(input) => input.request_items.values().map(Vec::len).sum(),
        }
    }

    pub(super) fn get(&self) -> &BatchGetItemInput {
        match self {
            Call::Get(input) => input,
            Call::Write(_) => panic!("expected a BatchGetItem, got {self:?}"),
        }
    }

    pub(super) fn write(&self) -> &BatchWriteItemInput {
        match self {
            Call::Write(input) => input,
            Call::Get(_) => panic!("expected a BatchWriteItem, got {self:?}"),
        }
    }
}

/// The shared recording fake, answering batches from [`State`].
#[derive(Debug)]
pub(super) struct Fake {
    backend: Arc<RecordingBackend>,
    state: Arc<State>,
}

/// The store and the script the batch requests are answered from.
#[derive(Debug, Default)]
struct State {
    /// Table → key identity → item.
    store: Mutex<BTreeMap<String, BTreeMap<KeyId, Item>>>,
    /// Scripts for the next requests, in arrival order; an empty queue processes everything.
    script: Mutex<VecDeque<Script>>,
    /// Applied to every request after the queue is empty, instead of processing everything.
    always: Mutex<Option<Script>>,
    /// Tables that do not exist: a request naming one fails with ResourceNotFound.
    missing: Mutex<Vec<String>>,
    /// How long each request takes (paused time).
    latency: Mutex<Duration>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

impl Fake {
    pub(super) fn db() -> (Db, Arc<Fake>) {
        let backend = Arc::new(RecordingBackend::new());
        let state = Arc::new(State::default());
        let s = state.clone();
        backend.on_async(op::batch_get_item, move |input| {
            let s = s.clone();
            async move { s.batch_get_item(input).await }
        });
        let s = state.clone();
        backend.on_async(op::batch_write_item, move |input| {
            let s = s.clone();
            async move { s.batch_write_item(input).await }
        });
        let db = Db::from_arc(backend.clone());
        (db, Arc::new(Fake { backend, state }))
    }

    pub(super) fn script(&self, script: impl IntoIterator<Item = Script>) {
        self.state
            .script
            .lock()
            .expect("not poisoned")
            .extend(script);
    }

    pub(super) fn always(&self, script: Script) {
        *self.state.always.lock().expect("not poisoned") = Some(script);
    }

    pub(super) fn missing_table(&self, table: &str) {
        self.state
            .missing
            .lock()
            .expect("not poisoned")
            .push(table.to_owned());
    }

    pub(super) fn latency(&self, latency: Duration) {
        *self.state.latency.lock().expect("not poisoned") = latency;
    }

    pub(super) fn max_in_flight(&self) -> usize {
        self.state.max_in_flight.load(Ordering::SeqCst)
    }

    /// Stores an item directly.
    pub(super) fn insert(&self, table: &str, key_names: &[&str], item: Item) {
        let id = KeyId::of_item(
            &item,
            &key_names
                .iter()
                .map(|n| (*n).to_owned())
                .collect::<Vec<_>>(),
        );
        self.state
            .store
            .lock()
            .expect("not poisoned")
            .entry(table.to_owned())
            .or_default()
            .insert(id, item);
    }

    /// Every item of a table.
    pub(super) fn items(&self, table: &str) -> Vec<Item> {
        self.state
            .store
            .lock()
            .expect("not poisoned")
            .get(table)
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default()
    }

    /// The batch requests, with the time each arrived.
    fn timed_calls(&self) -> Vec<(Instant, Call)> {
        let calls = self.backend.timed_calls().into_iter();
        calls
            .map(|(at, call)| match call {
                Recorded::BatchGetItem(input) => (at, Call::Get(input)),
                Recorded::BatchWriteItem(input) => (at, Call::Write(input)),
                other => panic!("a batch never sends {other:?}"),
            })
            .collect()
    }

    pub(super) fn calls(&self) -> Vec<Call> {
        self.timed_calls().into_iter().map(|(_, c)| c).collect()
    }

    /// The sizes of the requests, in arrival order.
    pub(super) fn sizes(&self) -> Vec<usize> {
        self.calls().iter().map(Call::size).collect()
    }

    /// The time between consecutive requests.
    pub(super) fn gaps(&self) -> Vec<Duration> {
        let calls = self.timed_calls();
        calls.windows(2).map(|w| w[1].0 - w[0].0).collect()
    }
}

impl State {
    /// Waits the request's latency, and says what to do with it.
    async fn arrive(&self, tables: Vec<&String>) -> Result<Script> {
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.max_in_flight.fetch_max(now, Ordering::SeqCst);
        let latency = *self.latency.lock().expect("not poisoned");
        if !latency.is_zero() {
            tokio::time::sleep(latency).await;
        }
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        if let Some(table) = tables
            .into_iter()
            .find(|t| self.missing.lock().expect("not poisoned").contains(t))
        {
            return Err(Error::resource_not_found(format!(
                "Requested resource not found: {table}"
            )));
        }
        let next = self.script.lock().expect("not poisoned").pop_front();
        let always = self.always.lock().expect("not poisoned").clone();
        match next.or(always) {
            Some(Script::Fail(e)) => Err(e),
            Some(script) => Ok(script),
            None => Ok(Script::Leave(0)),
        }
    }

    async fn batch_get_item(&self, input: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        let script = self.arrive(input.request_items.keys().collect()).await?;
        let total: usize = input.request_items.values().map(|k| k.keys.len()).sum();
        let mut budget = processed(&script, total);
        let mut output = BatchGetItemOutput::default();
        let store = self.store.lock().expect("not poisoned");
        for (table, mut request) in input.request_items {
            for key in std::mem::take(&mut request.keys) {
                if budget == 0 {
                    // Reported back with the table's settings, as DynamoDB does (unless bare).
                    let settings = match script {
                        Script::LeaveBare(_) => KeysAndAttributes::default(),
                        _ => KeysAndAttributes {
                            keys: Vec::new(),
                            ..request.clone()
                        },
                    };
                    output
                        .unprocessed_keys
                        .entry(table.clone())
                        .or_insert(settings)
                        .keys
                        .push(key);
                    continue;
                }
                budget -= 1;
                let found = store.get(&table).and_then(|t| t.get(&KeyId::of(&key)));
                if let Some(item) = found {
                    output
                        .responses
                        .entry(table.clone())
                        .or_default()
                        .push(item.clone());
                }
            }
        }
        Ok(output)
    }

    async fn batch_write_item(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        let script = self.arrive(input.request_items.keys().collect()).await?;
        let total: usize = input.request_items.values().map(Vec::len).sum();
        let mut budget = processed(&script, total);
        let mut output = BatchWriteItemOutput::default();
        let mut store = self.store.lock().expect("not poisoned");
        for (table, requests) in input.request_items {
            for request in requests {
                if budget == 0 {
                    output
                        .unprocessed_items
                        .entry(table.clone())
                        .or_default()
                        .push(request);
                    continue;
                }
                budget -= 1;
                let rows = store.entry(table.clone()).or_default();
                match request {
                    WriteRequest::Put { item } => {
                        let names: Vec<String> = ["userid", "id"]
                            .iter()
                            .filter(|n| item.contains_key(**n))
                            .map(|n| (*n).to_owned())
                            .collect();
                        rows.insert(KeyId::of_item(&item, &names), item);
                    }
                    WriteRequest::Delete { key } => {
                        rows.remove(&KeyId::of(&key));
                    }
                }
            }
        }
        Ok(output)
    }
}

/// How many of `total` entries to process under `script`.
fn processed(script: &Script, total: usize) -> usize {
    match script {
        Script::Leave(n) | Script::LeaveBare(n) => total.saturating_sub(*n),
        Script::LeaveAll | Script::Fail(_) => 0,
    }
}
