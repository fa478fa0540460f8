//! BatchGetItem and BatchWriteItem.
//!
//! Both validate the whole request before they read or write anything. Tables go in name order
//! (`RequestItems` is a `BTreeMap`), keys and writes in request order; each of the first two stages runs
//! over every table before the next starts:
//!
//! 1. the service model's member constraints on `RequestItems` (`constraints.rs`: table count, table
//!    names, list lengths), reported together in the "N validation error(s) detected" form;
//! 2. BatchGetItem: placeholder maps without a projection, then every key's attribute values, then
//!    duplicate keys (compared as sent, before the table is known: dynalite's `validations/
//!    batchGetItem.js`, and DynamoDB Local reports them before a missing table), then the limit of 100
//!    keys, then each table's ProjectionExpression (parsed, names used, reserved words);
//!    BatchWriteItem: each write's attribute values and, for a put, the 400 KB item limit (dynalite's
//!    `validations/batchWriteItem.js`; both before a missing table, as recorded), then the limit of 25
//!    writes;
//! 3. table by table: the table exists ("Requested resource not found"), then each key against its key
//!    schema, with the messages of GetItem/DeleteItem (`validate::request_key`) and PutItem
//!    (`validate::item_key`, `validate::index_keys`), except that a put whose item misses a key
//!    attribute or has one of the wrong type says "The provided key element does not match the schema"
//!    (dynalite's recordings; `KeyContext::BatchWrite`); then, for BatchWriteItem, two writes of one item
//!    ("Provided list of item keys contains duplicates", a put and a delete included, as recorded).
//!
//! So when one table is missing and another has a bad key, the one whose name sorts first wins. No
//! recording says what real DynamoDB does; dynalite looks each table up and checks its keys table by
//! table, in request order, and so does DynamoDB Local 3.3.1 for most names (with a client that sends
//! the tables sorted by name, request order is name order).
//!
//! Only then does BatchGetItem read (under one read lock) or BatchWriteItem write (under one write
//! lock, every write through `Table::put` / `Table::delete`, so the secondary indexes follow): a
//! rejected batch changes nothing in any of its tables.
//!
//! `UnprocessedKeys`: BatchGetItem returns at most 16 MB of items (`get.rs` says how they are
//! counted). `UnprocessedItems`: the engine makes every write of an accepted batch, so it is always
//! empty; real DynamoDB leaves writes there when it throttles them or hits internal limits (they are to
//! be sent again as they are), and fault injection will let tests provoke that.

/// Two keys of one item in a BatchGetItem table, or two writes of one item in a BatchWriteItem table:
/// real DynamoDB's text, recorded by dynalite for both operations and seen in SDK issue threads.
const DUPLICATES: &str = "Provided list of item keys contains duplicates";

mod constraints;
mod get;
pub(crate) mod render;
mod write;

#[cfg(feature = "protocol")]
pub(crate) use constraints::{MAX_GET_KEYS, MAX_GET_TABLES, MAX_WRITES};
#[cfg(feature = "protocol")]
pub(crate) use get::hashable;
#[cfg(test)]
pub(crate) use get::MAX_RESPONSE_BYTES;
