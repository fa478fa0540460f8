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

use dynomodel::backend::{
    Backend, BatchExecuteStatementInput, BatchExecuteStatementOutput, BatchStatementRequest,
    ExecuteStatementInput, ExecuteStatementOutput, ExecuteTransactionInput, ParameterizedStatement,
};
use dynomodel::AttributeValue;
use serde_json::{Map, Value};

use super::capacity::{consumed_list_member, consumed_member, return_consumed_capacity};
use super::fast::Predecoded;
use super::item::ON_CONDITION_FAILURE;
use super::json::{self, Array, Object};
use super::transact::responses_body;
use super::value::{parse_attribute_value, write_item};
use super::{Decoder, Members, WireResult};

/// `Parameters`: a list of attribute values (`None` when absent), taken from its marker when the one
/// pass decoded it (`fast::parameters`).
pub(crate) fn parameters(
    m: &Members<'_>,
    d: &mut Decoder,
) -> WireResult<Option<Vec<AttributeValue>>> {
    if let Some(decoded) = m.get("Parameters").and_then(|v| d.predecoded.parameters(v)) {
        return decoded.map(Some);
    }
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
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
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
    Ok(execute_statement_response(&out))
}

/// ExecuteStatement's response: `Items` always (empty for writes), `NextToken` and
/// `LastEvaluatedKey` when more may follow, `ConsumedCapacity` when reported; in serde_json's order of
/// keys (see `json.rs`).
pub(super) fn execute_statement_response(out: &ExecuteStatementOutput) -> Vec<u8> {
    let items = out.items.as_deref().unwrap_or_default();
    let mut bytes = Vec::with_capacity(128 + items.len() * 256);
    let mut body = Object::begin(&mut bytes);
    consumed_member(&mut body, out.consumed_capacity.as_ref());
    let mut list = Array::begin(body.member("Items"));
    for item in items {
        write_item(list.element(), item);
    }
    list.end();
    if let Some(key) = &out.last_evaluated_key {
        write_item(body.member("LastEvaluatedKey"), key);
    }
    if let Some(token) = &out.next_token {
        json::string(body.member("NextToken"), token);
    }
    body.end();
    bytes
}

pub(super) async fn batch_execute_statement(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
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
    Ok(batch_execute_statement_response(&out))
}

/// BatchExecuteStatement's response: `Responses` (one per statement, in request order), and
/// `ConsumedCapacity` when reported; in serde_json's order of keys.
pub(super) fn batch_execute_statement_response(out: &BatchExecuteStatementOutput) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(64 + out.responses.len() * 256);
    let mut body = Object::begin(&mut bytes);
    consumed_list_member(&mut body, &out.consumed_capacity);
    let mut responses = Array::begin(body.member("Responses"));
    for r in &out.responses {
        let mut entry = Object::begin(responses.element());
        if let Some(e) = &r.error {
            let mut error = Object::begin(entry.member("Error"));
            json::string(error.member("Code"), &e.code);
            if let Some(item) = &e.item {
                write_item(error.member("Item"), item);
            }
            if let Some(message) = &e.message {
                json::string(error.member("Message"), message);
            }
            error.end();
        }
        if let Some(item) = &r.item {
            write_item(entry.member("Item"), item);
        }
        if let Some(table) = &r.table_name {
            json::string(entry.member("TableName"), table);
        }
        entry.end();
    }
    responses.end();
    body.end();
    bytes
}

pub(super) async fn execute_transaction(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
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
    Ok(responses_body(&out.responses, &out.consumed_capacity))
}
