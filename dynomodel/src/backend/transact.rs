//! Requests and responses of `TransactGetItems` and `TransactWriteItems`, shaped like DynamoDB's API.
//!
//! The action types are prefixed `Transact` (`TransactPut`, …) because the mapper's builders already
//! use the short names ([`Put`](crate::Put), [`Delete`](crate::Delete)).

use crate::backend::item::{
    ExpressionAttributeNames, ExpressionAttributeValues, ReturnValuesOnConditionCheckFailure,
};
use std::collections::BTreeMap;

use crate::backend::capacity::{
    ConsumedCapacity, ItemCollectionMetrics, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
};
use crate::value::Item;

/// One read of a `TransactGetItems`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactGet {
    /// The table's name (or ARN).
    pub table_name: String,
    /// The full primary key, and nothing else.
    pub key: Item,
    /// The attributes to return (all when absent).
    pub projection_expression: Option<String>,
    /// Names used in the projection.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
}

/// `TransactGetItems`: up to 100 items by key, from one or more tables, read as one consistent
/// snapshot (no write is seen half done).
///
/// ```
/// use dynomodel::{AttributeValue, Item};
/// use dynomodel::backend::{TransactGet, TransactGetItemsInput};
///
/// let key: Item = [("id".to_owned(), AttributeValue::S("u1".into()))].into();
/// let input = TransactGetItemsInput {
///     transact_items: vec![TransactGet { table_name: "users".into(), key, ..Default::default() }],
///     ..Default::default()
/// };
/// assert_eq!(input.transact_items.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactGetItemsInput {
    /// The reads, 1 to 100, at most one per item.
    pub transact_items: Vec<TransactGet>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
}

/// `TransactGetItems`' response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactGetItemsOutput {
    /// One entry per read, in request order: `None` when there is no item with that key, and an
    /// empty item when the item exists but holds none of the projected attributes.
    pub responses: Vec<Option<Item>>,
    /// The capacity consumed per table, when asked for.
    pub consumed_capacity: Vec<ConsumedCapacity>,
}

/// A `ConditionCheck` action: a condition on an item that the transaction does not otherwise touch.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactConditionCheck {
    /// The table's name (or ARN).
    pub table_name: String,
    /// The full primary key, and nothing else.
    pub key: Item,
    /// The condition the item (or its absence) must meet for the transaction to go ahead.
    pub condition_expression: String,
    /// Names used in the expression.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Values used in the expression.
    pub expression_attribute_values: Option<ExpressionAttributeValues>,
    /// Put the existing item into the cancellation reason when the condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

/// A `Put` action: create or replace an item, optionally on a condition.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactPut {
    /// The table's name (or ARN).
    pub table_name: String,
    /// The whole item, key attributes included.
    pub item: Item,
    /// A condition the existing item (if any) must meet.
    pub condition_expression: Option<String>,
    /// Names used in the expression.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Values used in the expression.
    pub expression_attribute_values: Option<ExpressionAttributeValues>,
    /// Put the existing item into the cancellation reason when the condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

/// A `Delete` action: delete an item by key, optionally on a condition.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactDelete {
    /// The table's name (or ARN).
    pub table_name: String,
    /// The full primary key, and nothing else.
    pub key: Item,
    /// A condition the existing item must meet.
    pub condition_expression: Option<String>,
    /// Names used in the expression.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Values used in the expression.
    pub expression_attribute_values: Option<ExpressionAttributeValues>,
    /// Put the existing item into the cancellation reason when the condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

/// An `Update` action: change some attributes of an item (creating it when absent), optionally on a
/// condition.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactUpdate {
    /// The table's name (or ARN).
    pub table_name: String,
    /// The full primary key, and nothing else.
    pub key: Item,
    /// `SET …  REMOVE …  ADD …  DELETE …` (required in a transaction).
    pub update_expression: String,
    /// A condition the existing item (if any) must meet.
    pub condition_expression: Option<String>,
    /// Names used in the expressions.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Values used in the expressions.
    pub expression_attribute_values: Option<ExpressionAttributeValues>,
    /// Put the existing item into the cancellation reason when the condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

/// One action of a `TransactWriteItems`.
#[derive(Debug, Clone, PartialEq)]
pub enum TransactWriteItem {
    /// Check a condition on an item without writing it.
    ConditionCheck(TransactConditionCheck),
    /// Create or replace an item.
    Put(TransactPut),
    /// Delete an item.
    Delete(TransactDelete),
    /// Update an item.
    Update(TransactUpdate),
}

impl TransactWriteItem {
    /// The table the action is on.
    pub fn table_name(&self) -> &str {
        match self {
            TransactWriteItem::ConditionCheck(a) => &a.table_name,
            TransactWriteItem::Put(a) => &a.table_name,
            TransactWriteItem::Delete(a) => &a.table_name,
            TransactWriteItem::Update(a) => &a.table_name,
        }
    }

    /// DynamoDB's name of the action: `"ConditionCheck"`, `"Put"`, `"Delete"` or `"Update"`.
    pub fn kind(&self) -> &'static str {
        match self {
            TransactWriteItem::ConditionCheck(_) => "ConditionCheck",
            TransactWriteItem::Put(_) => "Put",
            TransactWriteItem::Delete(_) => "Delete",
            TransactWriteItem::Update(_) => "Update",
        }
    }
}

/// `TransactWriteItems`: up to 100 actions on distinct items, in one or more tables, that all
/// succeed or all fail. When one fails, the error is `TransactionCanceledException` with one
/// [`CancellationReason`](crate::CancellationReason) per action, in request order.
///
/// ```
/// use dynomodel::{AttributeValue, Item};
/// use dynomodel::backend::{
///     TransactConditionCheck, TransactPut, TransactWriteItem, TransactWriteItemsInput,
/// };
///
/// let item: Item = [("id".to_owned(), AttributeValue::S("u1".into()))].into();
/// let input = TransactWriteItemsInput {
///     transact_items: vec![
///         TransactWriteItem::Put(TransactPut {
///             table_name: "users".into(),
///             item,
///             condition_expression: Some("attribute_not_exists(id)".into()),
///             ..Default::default()
///         }),
///         TransactWriteItem::ConditionCheck(TransactConditionCheck {
///             table_name: "teams".into(),
///             key: [("id".to_owned(), AttributeValue::S("t1".into()))].into(),
///             condition_expression: "attribute_exists(id)".into(),
///             ..Default::default()
///         }),
///     ],
///     client_request_token: Some("signup-u1".into()),
///     ..Default::default()
/// };
/// assert_eq!(input.transact_items[1].kind(), "ConditionCheck");
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactWriteItemsInput {
    /// The actions, 1 to 100, at most one per item.
    pub transact_items: Vec<TransactWriteItem>,
    /// Makes the call idempotent for 10 minutes: a repeat with the same token and the same actions
    /// does nothing and succeeds; with other actions it fails with
    /// `IdempotentParameterMismatchException`. 1 to 36 characters.
    pub client_request_token: Option<String>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
    /// Report the size of the item collection written (`NONE` when absent).
    pub return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
}

/// `TransactWriteItems`' response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TransactWriteItemsOutput {
    /// The capacity consumed per table, when asked for.
    pub consumed_capacity: Vec<ConsumedCapacity>,
    /// The sizes of the item collections written, per table, when asked for.
    pub item_collection_metrics: BTreeMap<String, Vec<ItemCollectionMetrics>>,
}
