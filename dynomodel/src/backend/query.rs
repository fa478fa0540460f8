//! Requests and responses of Query and Scan, shaped like DynamoDB's API.

use crate::backend::capacity::{ConsumedCapacity, ReturnConsumedCapacity};
use crate::backend::item::{ExpressionAttributeNames, ExpressionAttributeValues};
use crate::backend::legacy::{ConditionalOperator, Conditions};
use crate::value::Item;

/// What a Query or Scan returns of each item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    /// Every attribute (from the table, for an LSI even unprojected ones).
    AllAttributes,
    /// The attributes projected into the index queried.
    AllProjectedAttributes,
    /// The attributes of the `ProjectionExpression`.
    SpecificAttributes,
    /// No items, only `Count` and `ScannedCount`.
    Count,
}

impl Select {
    /// DynamoDB's name for it, e.g. `"ALL_ATTRIBUTES"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Select::AllAttributes => "ALL_ATTRIBUTES",
            Select::AllProjectedAttributes => "ALL_PROJECTED_ATTRIBUTES",
            Select::SpecificAttributes => "SPECIFIC_ATTRIBUTES",
            Select::Count => "COUNT",
        }
    }
}

/// `Query`: the items of one partition of a table or index, in sort-key order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QueryInput {
    /// The table's name.
    pub table_name: String,
    /// A secondary index of the table to query instead of the table.
    pub index_name: Option<String>,
    /// Partition key equality, optionally AND a sort key condition.
    pub key_condition_expression: Option<String>,
    /// Applied after the items are read (does not reduce the read cost or the `Limit` count).
    pub filter_expression: Option<String>,
    /// The attributes to return.
    pub projection_expression: Option<String>,
    /// Names used in the expressions.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Values used in the expressions.
    pub expression_attribute_values: Option<ExpressionAttributeValues>,
    /// What to return of each item.
    pub select: Option<Select>,
    /// Ascending sort-key order (the default) or descending (`false`).
    pub scan_index_forward: Option<bool>,
    /// At most this many items *evaluated* (before the filter).
    pub limit: Option<i32>,
    /// Continue after this key (the previous page's `last_evaluated_key`).
    pub exclusive_start_key: Option<Item>,
    /// Strongly consistent read (not on global secondary indexes).
    pub consistent_read: Option<bool>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
    /// Legacy `AttributesToGet`: the top-level attributes to return (instead of
    /// `projection_expression`).
    pub attributes_to_get: Option<Vec<String>>,
    /// Legacy `KeyConditions`: the key conditions (instead of `key_condition_expression`).
    pub key_conditions: Option<Conditions>,
    /// Legacy `QueryFilter`: conditions on the items read (instead of `filter_expression`).
    pub query_filter: Option<Conditions>,
    /// Legacy `ConditionalOperator`: how the `query_filter` conditions combine (`AND` when absent).
    pub conditional_operator: Option<ConditionalOperator>,
}

/// `Scan`: every item of a table or index, a page at a time, optionally one segment of several.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ScanInput {
    /// The table's name.
    pub table_name: String,
    /// A secondary index of the table to scan instead of the table.
    pub index_name: Option<String>,
    /// Applied after the items are read.
    pub filter_expression: Option<String>,
    /// The attributes to return.
    pub projection_expression: Option<String>,
    /// Names used in the expressions.
    pub expression_attribute_names: Option<ExpressionAttributeNames>,
    /// Values used in the expressions.
    pub expression_attribute_values: Option<ExpressionAttributeValues>,
    /// What to return of each item.
    pub select: Option<Select>,
    /// At most this many items *evaluated* (before the filter).
    pub limit: Option<i32>,
    /// Continue after this key (the previous page's `last_evaluated_key`).
    pub exclusive_start_key: Option<Item>,
    /// Strongly consistent read (not on global secondary indexes).
    pub consistent_read: Option<bool>,
    /// This segment of a parallel scan (`0 ≤ segment < total_segments`).
    pub segment: Option<i32>,
    /// The number of segments of a parallel scan (1 to 1,000,000).
    pub total_segments: Option<i32>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
    /// Legacy `AttributesToGet`: the top-level attributes to return (instead of
    /// `projection_expression`).
    pub attributes_to_get: Option<Vec<String>>,
    /// Legacy `ScanFilter`: conditions on the items read (instead of `filter_expression`).
    pub scan_filter: Option<Conditions>,
    /// Legacy `ConditionalOperator`: how the `scan_filter` conditions combine (`AND` when absent).
    pub conditional_operator: Option<ConditionalOperator>,
}

/// The response of `Query` and `Scan`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QueryOutput {
    /// The matching items (absent with `Select=COUNT`).
    pub items: Option<Vec<Item>>,
    /// Items that matched the filter.
    pub count: i32,
    /// Items read before the filter.
    pub scanned_count: i32,
    /// Present when more items may follow: pass it as the next request's `exclusive_start_key`.
    /// Only its absence marks the end; a page may be empty and still carry one.
    pub last_evaluated_key: Option<Item>,
    /// The capacity consumed, when asked for.
    pub consumed_capacity: Option<ConsumedCapacity>,
}

/// `Scan`'s response has the same shape as `Query`'s.
pub type ScanOutput = QueryOutput;
