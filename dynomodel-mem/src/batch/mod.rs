//! BatchGetItem and BatchWriteItem.
//!
//! Both validate the whole request before they read or write anything, in stages; each stage runs over
//! every table (in name order: `RequestItems` is a `BTreeMap`) and every key or write (in request order)
//! before the next stage starts:
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
//! 3. every table exists ("Requested resource not found"): all of them before any key is compared with
//!    a key schema, so when one table is missing and another has a bad key the missing table wins,
//!    whatever the names. The order is not recorded for real DynamoDB (dynalite's per-table lookups
//!    race); DynamoDB Local 3.3.1 reports the missing table in both orders, and the AWS API reference
//!    lists a missing table first among the reasons a batch is rejected;
//! 4. per table, each key against the table's key schema, with the messages of GetItem/DeleteItem
//!    (`validate::request_key`) and PutItem (`validate::item_key`, `validate::index_keys`); a put whose
//!    item misses a key attribute or has one of the wrong type says "The provided key element does not
//!    match the schema" (dynalite's recorded rewrite of PutItem's texts for BatchWriteItem); then, for
//!    BatchWriteItem, two writes of one item ("Provided list of item keys contains duplicates", a put
//!    and a delete included, as recorded).
//!
//! Only then does BatchGetItem read (under one read lock) or BatchWriteItem write (under one write
//! lock, every write through `Table::put` / `Table::delete`, so the secondary indexes follow): a
//! rejected batch changes nothing in any of its tables.
//!
//! `UnprocessedKeys`: BatchGetItem returns at most 16 MB of items (`get.rs` says how they are counted). `UnprocessedItems`:
//! the engine makes every write of an accepted batch, so it is always empty; real DynamoDB leaves
//! writes there when it throttles them or hits internal limits, and fault injection will let tests
//! provoke that.

mod constraints;
mod get;
mod render;
mod write;

#[cfg(test)]
pub(crate) use get::MAX_RESPONSE_BYTES;
