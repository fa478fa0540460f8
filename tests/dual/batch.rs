//! BatchGetItem and BatchWriteItem — results across tables, every rule and message that can be
//! provoked, no partial write on a rejected batch, index maintenance, and the 16 MB cut of BatchGetItem
//! with its continuation through `UnprocessedKeys`.
//!
//! The engine follows real DynamoDB (sources in `dynomodel-mem/src/ops/batch/`); where DynamoDB Local 3.3.1
//! says something else the scenario asserts both, next to a `// KNOWN DIFFERENCE:` comment, and
//! `deviations.md` lists it.

use std::collections::BTreeMap;

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

mod get;
mod indexes;
mod limit;
mod write;

/// GetItem's, DeleteItem's and (in a batch) PutItem's text for a key that does not fit the schema.
const MISMATCH: &str = "The provided key element does not match the schema";
const DUPLICATES: &str = "Provided list of item keys contains duplicates";
/// DynamoDB Local's text for any missing table.
const LOCAL_NOT_FOUND: &str = "Cannot do operations on a non-existent table";
/// DynamoDB Local's text for a bad table name, wherever it appears.
const LOCAL_BAD_NAME: &str = "Invalid table/index name.  Table/index names must be between 3 and 255 \
                              characters long, and may contain only the characters a-z, A-Z, 0-9, '_', \
                              '-', and '.'";
const MAP_KEYS: &str =
    "Map keys must satisfy constraint: [Member must have length less than or equal \
                        to 255, Member must have length greater than or equal to 3, Member must \
                        satisfy regular expression pattern: [a-zA-Z0-9_.-]+]";

fn put(item: Item) -> WriteRequest {
    WriteRequest::Put { item }
}

fn del(key: Item) -> WriteRequest {
    WriteRequest::Delete { key }
}

fn keys(keys: Vec<Item>) -> KeysAndAttributes {
    KeysAndAttributes {
        keys,
        ..Default::default()
    }
}

/// A key (or bare item) of a `pk` table.
fn h(pk: &str) -> Item {
    item([("pk", s(pk))])
}

/// A key of a `pk`/`sk` table.
fn r(pk: &str, sk: i64) -> Item {
    item([("pk", s(pk)), ("sk", num(&sk.to_string()))])
}

async fn write(t: &Dual, tables: Vec<(&str, Vec<WriteRequest>)>) -> Result<BatchWriteItemOutput> {
    t.backend()
        .batch_write_item(BatchWriteItemInput {
            request_items: tables
                .into_iter()
                .map(|(name, w)| (name.to_owned(), w))
                .collect(),
            ..Default::default()
        })
        .await
}

async fn get(t: &Dual, tables: Vec<(&str, KeysAndAttributes)>) -> Result<BatchGetItemOutput> {
    t.backend()
        .batch_get_item(BatchGetItemInput {
            request_items: tables
                .into_iter()
                .map(|(name, k)| (name.to_owned(), k))
                .collect(),
            ..Default::default()
        })
        .await
}

/// A strongly consistent GetItem.
async fn read(t: &Dual, table: &str, key: Item) -> Option<Item> {
    t.backend()
        .get_item(GetItemInput {
            table_name: table.to_owned(),
            key,
            consistent_read: Some(true),
            ..Default::default()
        })
        .await
        .unwrap()
        .item
}

/// Items in a stable order (DynamoDB returns a batch's items in no particular order).
fn sorted(mut items: Vec<Item>) -> Vec<Item> {
    items.sort_by_key(|i| format!("{i:?}"));
    items
}

/// The items of one table in a BatchGetItem response, sorted.
fn found(out: &BatchGetItemOutput, table: &str) -> Vec<Item> {
    sorted(out.responses.get(table).cloned().unwrap_or_default())
}

/// The missing-table error: the engine's (real DynamoDB's) text, or DynamoDB Local's.
fn expect_not_found<T: std::fmt::Debug>(t: &Dual, result: Result<T>) {
    // KNOWN DIFFERENCE: DynamoDB Local words every missing table alike.
    t.expect_error_differs(
        result,
        "ResourceNotFoundException",
        "Requested resource not found",
        LOCAL_NOT_FOUND,
    );
}

/// A batch with a missing table and a bad key in another table. The engine checks the tables one by one
/// in name order, so the first of the two by name wins. DynamoDB Local checks them in the order of the
/// request, which the AWS SDK for Rust sends from a `HashMap`, in no fixed order: either error can come.
fn expect_first_fault<T: std::fmt::Debug>(
    t: &Dual,
    result: Result<T>,
    missing_sorts_first: bool,
    key_error: (&str, &str),
) {
    let (mem_key_error, local_key_error) = key_error;
    match t.target() {
        Target::Mem | Target::Server if missing_sorts_first => {
            t.expect_error(
                result,
                "ResourceNotFoundException",
                "Requested resource not found",
            );
        }
        Target::Mem | Target::Server => {
            t.expect_error(result, "ValidationException", mem_key_error);
        }
        // KNOWN DIFFERENCE: DynamoDB Local follows the request's order of tables.
        Target::DynamoDbLocal => {
            let e = result.unwrap_err();
            let got = (e.code(), e.message());
            assert!(
                got == ("ResourceNotFoundException", LOCAL_NOT_FOUND.to_owned())
                    || got == ("ValidationException", local_key_error.to_owned()),
                "[DynamoDbLocal] unexpected error: {e:?}"
            );
        }
    }
}

/// A `pk` (S) table and a `pk` (S) / `sk` (N) table; their names sort in this order.
async fn two_tables(t: &Dual) -> (String, String) {
    (
        t.create_table("a-hash", ("pk", S), None).await,
        t.create_table("b-range", ("pk", S), Some(("sk", N))).await,
    )
}

/// A name that sorts after every table of the scenario and names no table.
fn missing_table(t: &Dual) -> String {
    t.table_name("z-missing")
}

/// Tables in name order, for messages that echo `RequestItems`.
fn by_name<V>(pairs: Vec<(String, V)>) -> BTreeMap<String, V> {
    pairs.into_iter().collect()
}
