//! ExecuteStatement, BatchExecuteStatement and ExecuteTransaction on the wire.
//!
//! What DynamoDB sends back (API reference; DynamoDB Local 3.3.1 answers the same):
//!
//! - ExecuteStatement: `{"Items": […]}` (an empty list for writes), `NextToken` when more may
//!   follow, `ConsumedCapacity` when asked for.
//! - BatchExecuteStatement: `{"Responses": [{"TableName": …, "Item": …} | {"Error": {"Code", "Message",
//!   "Item"?}, "TableName"?}, …]}`, one per statement in request order, and `ConsumedCapacity` (a list).
//! - ExecuteTransaction: `{"Responses": [{"Item": …} | {}, …]}` (empty for writes) and
//!   `ConsumedCapacity` (a list); a cancelled transaction is `TransactionCanceledException` with
//!   `CancellationReasons` (encoded in `error.rs`).
//!
//! Checked here, as in the other wire files: member types (`SerializationException`: `Statement` a
//! string, `Parameters` a list of attribute values, `Statements`/`TransactStatements` lists of
//! structures, `ConsistentRead` a boolean, `Limit` an integer), then the members botocore's service
//! model marks required (`statement`, `statements`, `statements.N.member.statement`,
//! `transactStatements`, `transactStatements.N.member.statement`) and the enums
//! (`ReturnConsumedCapacity`, `ReturnValuesOnConditionCheckFailure`); then attribute values. The
//! statements themselves, and the 25/100 limits, are the backend's.

use dynomodel::{
    AttributeValue, Backend, BatchExecuteStatementInput, BatchStatementRequest,
    ExecuteStatementInput, ExecuteTransactionInput, ParameterizedStatement,
};
use serde_json::{Map, Value};

use super::capacity::{insert_consumed, insert_consumed_list, return_consumed_capacity};
use super::item::ON_CONDITION_FAILURE;
use super::transact::responses_json;
use super::value::{item_to_json, parse_attribute_value};
use super::{Decoder, Members, WireResult};

/// `Parameters`: a list of attribute values (`None` when absent).
fn parameters(m: &Members<'_>, d: &mut Decoder) -> WireResult<Option<Vec<AttributeValue>>> {
    let Some(list) = m.list("Parameters")? else {
        return Ok(None);
    };
    let mut values = Vec::with_capacity(list.len());
    for (i, value) in list.iter().enumerate() {
        if value.is_null() {
            d.null(&format!("{}.{}.member", m.path_of("Parameters"), i + 1));
            continue;
        }
        values.push(parse_attribute_value(value, d)?);
    }
    Ok(Some(values))
}

pub(super) async fn execute_statement(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let input = ExecuteStatementInput {
        statement: m.required_string("Statement", &mut d)?,
        parameters: parameters(&m, &mut d)?,
        consistent_read: m.boolean("ConsistentRead")?,
        next_token: m.string("NextToken")?,
        return_consumed_capacity: return_consumed_capacity(&m, &mut d)?,
        limit: m.integer("Limit")?,
        return_values_on_condition_check_failure: m.enumeration(
            "ReturnValuesOnConditionCheckFailure",
            ON_CONDITION_FAILURE,
            &mut d,
        )?,
    };
    let input = d.finish(input)?;
    let out = backend.execute_statement(input).await?;
    let mut body = Map::new();
    body.insert(
        "Items".into(),
        Value::Array(
            out.items
                .unwrap_or_default()
                .iter()
                .map(item_to_json)
                .collect(),
        ),
    );
    if let Some(token) = out.next_token {
        body.insert("NextToken".into(), Value::String(token));
    }
    if let Some(key) = &out.last_evaluated_key {
        body.insert("LastEvaluatedKey".into(), item_to_json(key));
    }
    insert_consumed(&mut body, out.consumed_capacity.as_ref());
    Ok(Value::Object(body))
}

pub(super) async fn batch_execute_statement(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let statements = m.each("Statements", &mut d, |s, d| {
        Ok(BatchStatementRequest {
            statement: s.required_string("Statement", d)?,
            parameters: parameters(&s, d)?,
            consistent_read: s.boolean("ConsistentRead")?,
            return_values_on_condition_check_failure: s.enumeration(
                "ReturnValuesOnConditionCheckFailure",
                ON_CONDITION_FAILURE,
                d,
            )?,
        })
    })?;
    if statements.is_none() {
        d.null(&m.path_of("Statements"));
    }
    let input = BatchExecuteStatementInput {
        statements: statements.unwrap_or_default(),
        return_consumed_capacity: return_consumed_capacity(&m, &mut d)?,
    };
    let input = d.finish(input)?;
    let out = backend.batch_execute_statement(input).await?;
    let responses = out
        .responses
        .iter()
        .map(|r| {
            let mut entry = Map::new();
            if let Some(e) = &r.error {
                let mut error = Map::new();
                error.insert("Code".into(), Value::String(e.code.clone()));
                if let Some(message) = &e.message {
                    error.insert("Message".into(), Value::String(message.clone()));
                }
                if let Some(item) = &e.item {
                    error.insert("Item".into(), item_to_json(item));
                }
                entry.insert("Error".into(), Value::Object(error));
            }
            if let Some(table) = &r.table_name {
                entry.insert("TableName".into(), Value::String(table.clone()));
            }
            if let Some(item) = &r.item {
                entry.insert("Item".into(), item_to_json(item));
            }
            Value::Object(entry)
        })
        .collect();
    let mut body = Map::new();
    body.insert("Responses".into(), Value::Array(responses));
    insert_consumed_list(&mut body, &out.consumed_capacity);
    Ok(Value::Object(body))
}

pub(super) async fn execute_transaction(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let statements = m.each("TransactStatements", &mut d, |s, d| {
        Ok(ParameterizedStatement {
            statement: s.required_string("Statement", d)?,
            parameters: parameters(&s, d)?,
            return_values_on_condition_check_failure: s.enumeration(
                "ReturnValuesOnConditionCheckFailure",
                ON_CONDITION_FAILURE,
                d,
            )?,
        })
    })?;
    if statements.is_none() {
        d.null(&m.path_of("TransactStatements"));
    }
    let input = ExecuteTransactionInput {
        transact_statements: statements.unwrap_or_default(),
        client_request_token: m.string("ClientRequestToken")?,
        return_consumed_capacity: return_consumed_capacity(&m, &mut d)?,
    };
    let input = d.finish(input)?;
    let out = backend.execute_transaction(input).await?;
    let mut body = Map::new();
    body.insert("Responses".into(), responses_json(&out.responses));
    insert_consumed_list(&mut body, &out.consumed_capacity);
    Ok(Value::Object(body))
}
