//! Typed Query and Scan: exact request shapes against a recording backend, and end-to-end runs on the
//! in-memory engine.

#![allow(clippy::unwrap_used)] // Tests: a panic is the failure report.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use dynomodel::backend::{Backend, QueryInput, QueryOutput, ScanInput, Select};
use dynomodel::{AttributeValue, Cursor, Db, Error, Item, Model, Number, Result};
use futures::TryStreamExt;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets")]
#[global_index(keys("rt-index", hash = city, range = retweets))]
#[global_index(all("city-likes", hash = city, range = likes))]
/// A tweet; public so the generated items are documented.
pub struct Tweet {
    /// Author.
    #[hash_key]
    pub userid: String,
    /// Id.
    #[range_key]
    pub id: String,
    /// City.
    pub city: String,
    /// Posted at (epoch seconds).
    #[index(all = "ts-local")]
    pub ts: i64,
    /// Retweets.
    pub retweets: i64,
    /// Likes.
    #[index(include = "like-local", includes = [text])]
    pub likes: i64,
    /// Body.
    pub text: String,
}

fn tweet(userid: &str, id: &str, ts: i64) -> Tweet {
    Tweet {
        userid: userid.into(),
        id: id.into(),
        city: "Paris".into(),
        ts,
        retweets: ts % 7,
        likes: ts % 5,
        text: format!("tweet {id}"),
    }
}

/// Records every request and answers from a queue of canned pages.
#[derive(Debug, Default)]
struct Recorder {
    queries: Mutex<Vec<QueryInput>>,
    scans: Mutex<Vec<ScanInput>>,
    gets: Mutex<Vec<Item>>,
    pages: Mutex<VecDeque<QueryOutput>>,
}

#[async_trait::async_trait]
impl Backend for Recorder {
    async fn get_item(
        &self,
        input: dynomodel::backend::GetItemInput,
    ) -> Result<dynomodel::backend::GetItemOutput> {
        self.gets.lock().unwrap().push(input.key.clone());
        let mut item = tweet("abc", "x", 1).to_item().unwrap();
        item.extend(input.key);
        Ok(dynomodel::backend::GetItemOutput {
            item: Some(item),
            ..Default::default()
        })
    }
    async fn query(&self, input: QueryInput) -> Result<QueryOutput> {
        self.queries.lock().unwrap().push(input);
        Ok(self.pages.lock().unwrap().pop_front().unwrap_or_default())
    }
    async fn scan(&self, input: ScanInput) -> Result<QueryOutput> {
        self.scans.lock().unwrap().push(input);
        Ok(self.pages.lock().unwrap().pop_front().unwrap_or_default())
    }
}

fn recorder(pages: Vec<QueryOutput>) -> (Arc<Recorder>, Db) {
    let recorder = Arc::new(Recorder {
        pages: Mutex::new(pages.into()),
        ..Default::default()
    });
    let db = Db::from_arc(recorder.clone()).with_namespace("t-");
    (recorder, db)
}

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.into())
}

fn n(v: i64) -> AttributeValue {
    AttributeValue::N(Number::from(v))
}

fn key(userid: &str, id: &str) -> Item {
    Item::from([("userid".to_owned(), s(userid)), ("id".to_owned(), s(id))])
}

fn page(items: Vec<Tweet>, next: Option<Item>) -> QueryOutput {
    let count = items.len() as i32;
    QueryOutput {
        items: Some(items.iter().map(|t| t.to_item().unwrap()).collect()),
        count,
        scanned_count: count,
        last_evaluated_key: next,
        ..Default::default()
    }
}

fn names(pairs: &[(&str, &str)]) -> Option<std::collections::BTreeMap<String, String>> {
    Some(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    )
}

fn values(pairs: Vec<(&str, AttributeValue)>) -> Option<Item> {
    Some(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

mod mem;
mod recorded;
