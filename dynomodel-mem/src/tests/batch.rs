//! BatchGetItem and BatchWriteItem: every rule, its message and its place in the order of checks, the
//! limits at their boundaries, no partial write on a rejected batch, index maintenance, and the 16 MB
//! cut with its continuation through `UnprocessedKeys`.

mod get;
mod limit;
mod write;

use dynomodel::backend::{
    Backend, BatchGetItemInput, BatchGetItemOutput, BatchWriteItemInput, KeysAndAttributes,
    ScalarAttributeType as T, ScanInput, WriteRequest,
};
use dynomodel::{Error, Item};

use super::{backend_with, item, n, s, table_input};
use crate::MemBackend;

/// Two keys or writes of one item in a table's list.
const DUPLICATES: &str = "Provided list of item keys contains duplicates";

/// The constraint on `RequestItems`' table names, reported once for the map.
const MAP_KEYS: &str =
    "Map keys must satisfy constraint: [Member must have length less than or equal \
                        to 255, Member must have length greater than or equal to 3, Member must \
                        satisfy regular expression pattern: [a-zA-Z0-9_.-]+]";

/// An engine with `hash` (pk S) and `range` (pk S, sk N).
async fn two_tables() -> MemBackend {
    let b = backend_with(table_input("hash", T::S, None)).await;
    b.create_table(table_input("range", T::S, Some(T::N)))
        .await
        .expect("create");
    b
}

fn put(item: Item) -> WriteRequest {
    WriteRequest::Put { item }
}

fn del(key: Item) -> WriteRequest {
    WriteRequest::Delete { key }
}

/// A `pk` item, or key, of the `hash` table.
fn h(pk: &str) -> Item {
    item(&[("pk", s(pk))])
}

/// A key of the `range` table.
fn r(pk: &str, sk: i64) -> Item {
    item(&[("pk", s(pk)), ("sk", n(&sk.to_string()))])
}

async fn write(
    b: &MemBackend,
    tables: Vec<(&str, Vec<WriteRequest>)>,
) -> Result<dynomodel::backend::BatchWriteItemOutput, Error> {
    b.batch_write_item(BatchWriteItemInput {
        request_items: tables.into_iter().map(|(t, w)| (t.to_owned(), w)).collect(),
        ..Default::default()
    })
    .await
}

fn keys(keys: Vec<Item>) -> KeysAndAttributes {
    KeysAndAttributes {
        keys,
        ..Default::default()
    }
}

async fn get(
    b: &MemBackend,
    tables: Vec<(&str, KeysAndAttributes)>,
) -> Result<BatchGetItemOutput, Error> {
    b.batch_get_item(BatchGetItemInput {
        request_items: tables.into_iter().map(|(t, k)| (t.to_owned(), k)).collect(),
        ..Default::default()
    })
    .await
}

/// Every item of `table`, sorted (what a scan sees).
async fn items(b: &MemBackend, table: &str) -> Vec<Item> {
    let mut all = b
        .scan(ScanInput {
            table_name: table.into(),
            ..Default::default()
        })
        .await
        .expect("scan")
        .items
        .unwrap_or_default();
    all.sort_by_key(|i| format!("{i:?}"));
    all
}

/// The items of one table in a response, sorted (DynamoDB returns them in no particular order).
fn found(out: &BatchGetItemOutput, table: &str) -> Vec<Item> {
    let mut all = out.responses.get(table).cloned().unwrap_or_default();
    all.sort_by_key(|i| format!("{i:?}"));
    all
}
