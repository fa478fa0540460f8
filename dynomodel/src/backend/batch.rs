//! Requests and responses of `BatchGetItem` and `BatchWriteItem`, shaped like DynamoDB's API.
//!
//! Tables are keyed by name in a `BTreeMap`, so that a request, and the order in which a backend
//! reports on its tables, is deterministic. DynamoDB returns the items of a batch in no particular
//! order; compare them as sets.

use std::collections::BTreeMap;

use crate::backend::capacity::{
    ConsumedCapacity, ItemCollectionMetrics, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
};
use crate::backend::item::ExpressionAttributeNames;
use crate::value::Item;

/// The keys to read from one table in a `BatchGetItem`, and how to read them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KeysAndAttributes {
    /// The full primary key of each item to read (1 to 100 across the whole request, no duplicates).
    pub keys: Vec<Item>,
    /// Strongly consistent reads for this table (the default is eventually consistent).
    pub consistent_read: Option<bool>,
    /// The attributes to return (all when absent).
    pub projection_expression: Option<String>,
    /// Names used in the projection.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Legacy `AttributesToGet`: the top-level attributes to return (instead of
    /// `projection_expression`).
    pub attributes_to_get: Option<Vec<String>>,
}

/// `BatchGetItem`: up to 100 items by key, from one or more tables.
///
/// ```
/// use std::collections::BTreeMap;
/// use dynomodel::{AttributeValue, Item};
/// use dynomodel::backend::{BatchGetItemInput, KeysAndAttributes};
///
/// let key: Item = [("id".to_owned(), AttributeValue::S("u1".into()))].into();
/// let input = BatchGetItemInput {
///     request_items: BTreeMap::from([(
///         "users".to_owned(),
///         KeysAndAttributes { keys: vec![key], ..Default::default() },
///     )]),
///     ..Default::default()
/// };
/// assert_eq!(input.request_items["users"].keys.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchGetItemInput {
    /// Table name → what to read from it.
    pub request_items: BTreeMap<String, KeysAndAttributes>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
}

/// `BatchGetItem`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchGetItemOutput {
    /// Table name → the items found, in no particular order. Keys without an item are simply absent.
    pub responses: BTreeMap<String, Vec<Item>>,
    /// What was not read this time (the response would have exceeded 16 MB, or the request was
    /// throttled): send it again as the next request's `request_items`.
    pub unprocessed_keys: BTreeMap<String, KeysAndAttributes>,
    /// The capacity consumed per table, when asked for.
    pub consumed_capacity: Vec<ConsumedCapacity>,
}

/// One write of a `BatchWriteItem`: put a whole item, or delete one by key. No conditions, no return
/// values.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteRequest {
    /// `PutRequest`: create or replace the item.
    Put {
        /// The whole item, key attributes included.
        item: Item,
    },
    /// `DeleteRequest`: delete the item with this key (nothing happens if there is none).
    Delete {
        /// The full primary key, and nothing else.
        key: Item,
    },
}

/// `BatchWriteItem`: up to 25 puts and deletes, on one or more tables. Each write is atomic on its
/// own; the batch as a whole is not (see [`TransactWriteItemsInput`](crate::backend::TransactWriteItemsInput)).
///
/// ```
/// use std::collections::BTreeMap;
/// use dynomodel::{AttributeValue, Item};
/// use dynomodel::backend::{BatchWriteItemInput, WriteRequest};
///
/// let item: Item = [("id".to_owned(), AttributeValue::S("u1".into()))].into();
/// let input = BatchWriteItemInput {
///     request_items: BTreeMap::from([(
///         "users".to_owned(),
///         vec![WriteRequest::Put { item: item.clone() }, WriteRequest::Delete { key: item }],
///     )]),
///     ..Default::default()
/// };
/// assert_eq!(input.request_items["users"].len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchWriteItemInput {
    /// Table name → the writes on it (1 to 25 across the whole request, at most one per item).
    pub request_items: BTreeMap<String, Vec<WriteRequest>>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
    /// Report the size of the item collection written (`NONE` when absent).
    pub return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
}

/// `BatchWriteItem`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchWriteItemOutput {
    /// The writes that were not made (throttling, or internal limits): send them again as the next
    /// request's `request_items`. Empty when every write was made.
    pub unprocessed_items: BTreeMap<String, Vec<WriteRequest>>,
    /// The capacity consumed per table, when asked for.
    pub consumed_capacity: Vec<ConsumedCapacity>,
    /// The sizes of the item collections written, per table, when asked for.
    pub item_collection_metrics: BTreeMap<String, Vec<ItemCollectionMetrics>>,
}
