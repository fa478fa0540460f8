//! Typed Query and Scan: exact request shapes against the recording fake, and end-to-end runs on the
//! in-memory engine.

#![allow(clippy::unwrap_used)] // Tests: a panic is the failure report.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use dynomodel::backend::testing::{op, Call, RecordingBackend};
use dynomodel::backend::{GetItemOutput, QueryInput, QueryOutput, ScanInput, Select};
use dynomodel::{AttributeValue, Cursor, Db, Error, Item, Model, Number};
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

/// The recording fake answering queries and scans from one queue of canned pages (an empty page
/// when it runs out), and gets with a tweet of the key asked for.
#[derive(Debug)]
struct Recorder(Arc<RecordingBackend>);

impl Recorder {
    fn queries(&self) -> Vec<QueryInput> {
        let calls = self.0.calls().into_iter();
        calls
            .filter_map(|c| match c {
                Call::Query(input) => Some(input),
                _ => None,
            })
            .collect()
    }

    fn scans(&self) -> Vec<ScanInput> {
        let calls = self.0.calls().into_iter();
        calls
            .filter_map(|c| match c {
                Call::Scan(input) => Some(input),
                _ => None,
            })
            .collect()
    }

    /// The keys of the gets.
    fn gets(&self) -> Vec<Item> {
        let calls = self.0.calls().into_iter();
        calls
            .filter_map(|c| match c {
                Call::GetItem(input) => Some(input.key),
                _ => None,
            })
            .collect()
    }
}

fn recorder(pages: Vec<QueryOutput>) -> (Arc<Recorder>, Db) {
    let fake = Arc::new(RecordingBackend::new());
    let pages = Arc::new(Mutex::new(VecDeque::from(pages)));
    let next = move || Ok(pages.lock().unwrap().pop_front().unwrap_or_default());
    let query = next.clone();
    fake.on(op::query, move |_| query());
    fake.on(op::scan, move |_| next());
    fake.on(op::get_item, |input| {
        let mut item = tweet("abc", "x", 1).to_item().unwrap();
        item.extend(input.key);
        Ok(GetItemOutput {
            item: Some(item),
            ..Default::default()
        })
    });
    let db = Db::from_arc(fake.clone()).with_namespace("t-");
    (Arc::new(Recorder(fake)), db)
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
