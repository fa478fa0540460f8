//! Requests and responses of the PartiQL operations (`ExecuteStatement`, `BatchExecuteStatement`,
//! `ExecuteTransaction`), shaped like DynamoDB's API.

use crate::backend::capacity::ConsumedCapacity;
use crate::backend::capacity::ReturnConsumedCapacity;
use crate::backend::item::ReturnValuesOnConditionCheckFailure;
use crate::value::{AttributeValue, Item};

/// `ExecuteStatement`: one PartiQL statement (`SELECT`, `INSERT`, `UPDATE` or `DELETE`).
///
/// ```
/// use dynomodel::AttributeValue;
/// use dynomodel::backend::ExecuteStatementInput;
///
/// let input = ExecuteStatementInput {
///     statement: r#"SELECT * FROM "users" WHERE id = ?"#.into(),
///     parameters: Some(vec![AttributeValue::S("u1".into())]),
///     ..Default::default()
/// };
/// assert_eq!(input.parameters.as_ref().map(Vec::len), Some(1));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExecuteStatementInput {
    /// The statement (1 to 8192 characters).
    pub statement: String,
    /// The values of the statement's `?` placeholders, in order.
    pub parameters: Option<Vec<AttributeValue>>,
    /// Strongly consistent read (a `SELECT` on a table only).
    pub consistent_read: Option<bool>,
    /// The previous page's `next_token`, to continue a `SELECT`.
    pub next_token: Option<String>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
    /// At most this many items *evaluated* by a `SELECT` (before its filter).
    pub limit: Option<i32>,
    /// Put the existing item into the error when an `UPDATE`'s or `DELETE`'s condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

/// `ExecuteStatement`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExecuteStatementOutput {
    /// The items a `SELECT` returned (an empty list for writes).
    pub items: Option<Vec<Item>>,
    /// Present when more items may follow: pass it as the next request's `next_token`.
    pub next_token: Option<String>,
    /// The capacity consumed, when asked for.
    pub consumed_capacity: Option<ConsumedCapacity>,
    /// The key the read stopped after, when it stopped early.
    pub last_evaluated_key: Option<Item>,
}

/// One statement of a `BatchExecuteStatement`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchStatementRequest {
    /// The statement: a single-item `SELECT` (full key) or a write.
    pub statement: String,
    /// The values of its `?` placeholders.
    pub parameters: Option<Vec<AttributeValue>>,
    /// Strongly consistent read.
    pub consistent_read: Option<bool>,
    /// Put the existing item into the error when the condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

/// `BatchExecuteStatement`: up to 25 statements, all reads or all writes, each succeeding or failing
/// on its own.
///
/// ```
/// use dynomodel::backend::{BatchExecuteStatementInput, BatchStatementRequest};
///
/// let input = BatchExecuteStatementInput {
///     statements: vec![BatchStatementRequest {
///         statement: r#"DELETE FROM "users" WHERE id = 'u1'"#.into(),
///         ..Default::default()
///     }],
///     ..Default::default()
/// };
/// assert_eq!(input.statements.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchExecuteStatementInput {
    /// The statements, 1 to 25.
    pub statements: Vec<BatchStatementRequest>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
}

/// Why one statement of a batch failed (DynamoDB's `BatchStatementError`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchStatementError {
    /// `ConditionalCheckFailed`, `DuplicateItem`, `ValidationError`, `ResourceNotFound`, …
    pub code: String,
    /// The error's message.
    pub message: Option<String>,
    /// The item as it was, for a failed condition with `ReturnValuesOnConditionCheckFailure=ALL_OLD`.
    pub item: Option<Item>,
}

/// The result of one statement of a batch (DynamoDB's `BatchStatementResponse`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchStatementResponse {
    /// Why it failed, if it did.
    pub error: Option<BatchStatementError>,
    /// The table the statement was on (absent when it failed).
    pub table_name: Option<String>,
    /// The item a `SELECT` read, if it exists.
    pub item: Option<Item>,
}

/// `BatchExecuteStatement`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BatchExecuteStatementOutput {
    /// One response per statement, in request order.
    pub responses: Vec<BatchStatementResponse>,
    /// The capacity consumed per table, when asked for.
    pub consumed_capacity: Vec<ConsumedCapacity>,
}

/// One statement of an `ExecuteTransaction`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParameterizedStatement {
    /// The statement.
    pub statement: String,
    /// The values of its `?` placeholders.
    pub parameters: Option<Vec<AttributeValue>>,
    /// Put the existing item into the cancellation reason when the condition fails.
    pub return_values_on_condition_check_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

/// `ExecuteTransaction`: up to 100 statements, all single-item reads or all writes, that all succeed
/// or all fail (`TransactionCanceledException` with one reason per statement).
///
/// ```
/// use dynomodel::backend::{ExecuteTransactionInput, ParameterizedStatement};
///
/// let input = ExecuteTransactionInput {
///     transact_statements: vec![ParameterizedStatement {
///         statement: r#"INSERT INTO "users" VALUE {'id': 'u1'}"#.into(),
///         ..Default::default()
///     }],
///     client_request_token: Some("signup-u1".into()),
///     ..Default::default()
/// };
/// assert_eq!(input.transact_statements.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExecuteTransactionInput {
    /// The statements, 1 to 100.
    pub transact_statements: Vec<ParameterizedStatement>,
    /// Makes a write transaction idempotent, as `TransactWriteItems`' token does.
    pub client_request_token: Option<String>,
    /// Report the capacity consumed (`NONE` when absent).
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
}

/// `ExecuteTransaction`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExecuteTransactionOutput {
    /// For reads, one entry per statement: `None` when there is no item with that key. Empty for
    /// writes.
    pub responses: Vec<Option<Item>>,
    /// The capacity consumed per table, when asked for.
    pub consumed_capacity: Vec<ConsumedCapacity>,
}
