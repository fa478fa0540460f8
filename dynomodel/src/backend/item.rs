//! Requests and responses of the single-item operations, shaped like DynamoDB's API.

use std::collections::BTreeMap;

use crate::backend::capacity::{
    ConsumedCapacity, ItemCollectionMetrics, ReturnConsumedCapacity, ReturnItemCollectionMetrics,
};
use crate::backend::legacy::{AttributeUpdates, ConditionalOperator, Expected};
use crate::value::Item;

/// `ExpressionAttributeNames`: `#placeholder` → attribute name.
pub type ExpressionAttributeNames = BTreeMap<String, String>;

/// `ExpressionAttributeValues`: `:placeholder` → value.
pub type ExpressionAttributeValues = Item;

/// Whether a failed condition returns the item as it was (`ReturnValuesOnConditionCheckFailure`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReturnValuesOnConditionCheckFailure {
    /// Nothing (the default).
    #[default]
    None,
    /// The whole item as it was, in the `ConditionalCheckFailed` error.
    AllOld,
}

impl ReturnValuesOnConditionCheckFailure {
    /// DynamoDB's name for it: `"NONE"` or `"ALL_OLD"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReturnValuesOnConditionCheckFailure::None => "NONE",
            ReturnValuesOnConditionCheckFailure::AllOld => "ALL_OLD",
        }
    }
}

/// What a write returns of the item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReturnValue {
    /// Nothing (the default).
    #[default]
    None,
    /// The whole item as it was before the write.
    AllOld,
    /// The updated attributes as they were (UpdateItem only).
    UpdatedOld,
    /// The whole item as it is after the write (UpdateItem only).
    AllNew,
    /// The updated attributes as they are now (UpdateItem only).
    UpdatedNew,
}

impl ReturnValue {
    /// DynamoDB's name for it, e.g. `"ALL_OLD"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReturnValue::None => "NONE",
            ReturnValue::AllOld => "ALL_OLD",
            ReturnValue::UpdatedOld => "UPDATED_OLD",
            ReturnValue::AllNew => "ALL_NEW",
            ReturnValue::UpdatedNew => "UPDATED_NEW",
        }
    }
}

/// `PutItem`: create or replace an item.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PutItemInput {
    /// The table's name.
    pub table_name: String,
    /// The whole item, key attributes included.
    pub item: Item,
    /// A condition the existing item (if any) must meet.
    pub condition_expression: Option<String>,
    /// Names used in the expressions.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Values used in the expressions.
    pub expression_attribute_values: Option<ExpressionAttributeValues>,
    /// `NONE` or `ALL_OLD`.
    pub return_values: Option<ReturnValue>,
    /// Put the existing item into the error when the condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
    /// Report the size of the item collection written (`NONE` when absent).
    pub return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
    /// Legacy `Expected`: conditions on the existing item (instead of `condition_expression`).
    pub expected: Option<Expected>,
    /// Legacy `ConditionalOperator`: how the `expected` conditions combine (`AND` when absent).
    pub conditional_operator: Option<ConditionalOperator>,
}

/// `PutItem`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PutItemOutput {
    /// The replaced item, with `ReturnValues=ALL_OLD` when there was one.
    pub attributes: Option<Item>,
    /// The capacity consumed, when asked for.
    pub consumed_capacity: Option<ConsumedCapacity>,
    /// The item collection's size, when asked for (tables with local secondary indexes).
    pub item_collection_metrics: Option<ItemCollectionMetrics>,
}

/// `GetItem`: read one item by its key.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GetItemInput {
    /// The table's name.
    pub table_name: String,
    /// The full primary key, and nothing else.
    pub key: Item,
    /// Strongly consistent read (the default is eventually consistent).
    pub consistent_read: Option<bool>,
    /// The attributes to return (all when absent).
    pub projection_expression: Option<String>,
    /// Names used in the projection.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
    /// Legacy `AttributesToGet`: the top-level attributes to return (instead of
    /// `projection_expression`).
    pub attributes_to_get: Option<Vec<String>>,
}

/// `GetItem`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GetItemOutput {
    /// The item, if it exists.
    pub item: Option<Item>,
    /// The capacity consumed, when asked for.
    pub consumed_capacity: Option<ConsumedCapacity>,
}

/// `DeleteItem`: delete one item by its key.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DeleteItemInput {
    /// The table's name.
    pub table_name: String,
    /// The full primary key, and nothing else.
    pub key: Item,
    /// A condition the existing item must meet.
    pub condition_expression: Option<String>,
    /// Names used in the expressions.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Values used in the expressions.
    pub expression_attribute_values: Option<ExpressionAttributeValues>,
    /// `NONE` or `ALL_OLD`.
    pub return_values: Option<ReturnValue>,
    /// Put the existing item into the error when the condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
    /// Report the size of the item collection written (`NONE` when absent).
    pub return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
    /// Legacy `Expected`: conditions on the existing item (instead of `condition_expression`).
    pub expected: Option<Expected>,
    /// Legacy `ConditionalOperator`: how the `expected` conditions combine (`AND` when absent).
    pub conditional_operator: Option<ConditionalOperator>,
}

/// `DeleteItem`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DeleteItemOutput {
    /// The deleted item, with `ReturnValues=ALL_OLD` when there was one.
    pub attributes: Option<Item>,
    /// The capacity consumed, when asked for.
    pub consumed_capacity: Option<ConsumedCapacity>,
    /// The item collection's size, when asked for (tables with local secondary indexes).
    pub item_collection_metrics: Option<ItemCollectionMetrics>,
}

/// `UpdateItem`: change some attributes of an item, creating it when absent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UpdateItemInput {
    /// The table's name.
    pub table_name: String,
    /// The full primary key, and nothing else.
    pub key: Item,
    /// `SET …  REMOVE …  ADD …  DELETE …`; without one, the item is created with its key only.
    pub update_expression: Option<String>,
    /// A condition the existing item (if any) must meet.
    pub condition_expression: Option<String>,
    /// Names used in the expressions.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Values used in the expressions.
    pub expression_attribute_values: Option<ExpressionAttributeValues>,
    /// Any of the five [`ReturnValue`]s.
    pub return_values: Option<ReturnValue>,
    /// Put the existing item into the error when the condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
    /// Report the size of the item collection written (`NONE` when absent).
    pub return_item_collection_metrics: Option<ReturnItemCollectionMetrics>,
    /// Legacy `AttributeUpdates`: the changes to make (instead of `update_expression`).
    pub attribute_updates: Option<AttributeUpdates>,
    /// Legacy `Expected`: conditions on the existing item (instead of `condition_expression`).
    pub expected: Option<Expected>,
    /// Legacy `ConditionalOperator`: how the `expected` conditions combine (`AND` when absent).
    pub conditional_operator: Option<ConditionalOperator>,
}

/// `UpdateItem`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UpdateItemOutput {
    /// What `ReturnValues` asked for.
    pub attributes: Option<Item>,
    /// The capacity consumed, when asked for.
    pub consumed_capacity: Option<ConsumedCapacity>,
    /// The item collection's size, when asked for (tables with local secondary indexes).
    pub item_collection_metrics: Option<ItemCollectionMetrics>,
}
