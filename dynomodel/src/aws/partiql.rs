//! ExecuteStatement, BatchExecuteStatement and ExecuteTransaction, converted field by field.

use aws_sdk_dynamodb::types as sdk;
use aws_sdk_dynamodb::Client;

use super::capacity::{all_consumed_capacity, one_consumed_capacity, return_consumed_capacity};
use super::error::map_sdk_error;
use super::item::on_failure;
use super::table::built;
use super::value::{from_sdk_item, from_sdk_opt_item, to_sdk};
use crate::backend::*;
use crate::error::Result;
use crate::value::AttributeValue;

fn parameters(p: Option<Vec<AttributeValue>>) -> Option<Vec<sdk::AttributeValue>> {
    p.map(|values| values.into_iter().map(to_sdk).collect())
}

pub(crate) async fn execute_statement(
    client: &Client,
    input: ExecuteStatementInput,
) -> Result<ExecuteStatementOutput> {
    let output = client
        .execute_statement()
        .statement(input.statement)
        .set_parameters(parameters(input.parameters))
        .set_consistent_read(input.consistent_read)
        .set_next_token(input.next_token)
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .set_limit(input.limit)
        .set_return_values_on_condition_check_failure(on_failure(
            input.return_values_on_condition_check_failure,
        ))
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(ExecuteStatementOutput {
        items: output
            .items
            .map(|items| items.into_iter().map(from_sdk_item).collect())
            .transpose()?,
        consumed_capacity: one_consumed_capacity(output.consumed_capacity.as_ref()),
        last_evaluated_key: output.last_evaluated_key.map(from_sdk_item).transpose()?,
        next_token: output.next_token,
    })
}

fn batch_request(s: BatchStatementRequest) -> Result<sdk::BatchStatementRequest> {
    built(
        sdk::BatchStatementRequest::builder()
            .statement(s.statement)
            .set_parameters(parameters(s.parameters))
            .set_consistent_read(s.consistent_read)
            .set_return_values_on_condition_check_failure(on_failure(
                s.return_values_on_condition_check_failure,
            ))
            .build(),
    )
}

fn batch_response(r: sdk::BatchStatementResponse) -> Result<BatchStatementResponse> {
    let error = match r.error {
        Some(e) => Some(BatchStatementError {
            code: e.code.map(|c| c.as_str().to_owned()).unwrap_or_default(),
            message: e.message,
            item: e.item.map(from_sdk_item).transpose()?,
        }),
        None => None,
    };
    Ok(BatchStatementResponse {
        error,
        table_name: r.table_name,
        item: from_sdk_opt_item(r.item)?,
    })
}

pub(crate) async fn batch_execute_statement(
    client: &Client,
    input: BatchExecuteStatementInput,
) -> Result<BatchExecuteStatementOutput> {
    let statements = input
        .statements
        .into_iter()
        .map(batch_request)
        .collect::<Result<Vec<_>>>()?;
    let output = client
        .batch_execute_statement()
        .set_statements(Some(statements))
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(BatchExecuteStatementOutput {
        consumed_capacity: all_consumed_capacity(output.consumed_capacity()),
        responses: output
            .responses
            .unwrap_or_default()
            .into_iter()
            .map(batch_response)
            .collect::<Result<_>>()?,
    })
}

pub(crate) async fn execute_transaction(
    client: &Client,
    input: ExecuteTransactionInput,
) -> Result<ExecuteTransactionOutput> {
    let statements = input
        .transact_statements
        .into_iter()
        .map(|s| {
            built(
                sdk::ParameterizedStatement::builder()
                    .statement(s.statement)
                    .set_parameters(parameters(s.parameters))
                    .set_return_values_on_condition_check_failure(on_failure(
                        s.return_values_on_condition_check_failure,
                    ))
                    .build(),
            )
        })
        .collect::<Result<Vec<_>>>()?;
    let output = client
        .execute_transaction()
        .set_transact_statements(Some(statements))
        .set_client_request_token(input.client_request_token)
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(ExecuteTransactionOutput {
        consumed_capacity: all_consumed_capacity(output.consumed_capacity()),
        responses: output
            .responses
            .unwrap_or_default()
            .into_iter()
            .map(|r| from_sdk_opt_item(r.item))
            .collect::<Result<_>>()?,
    })
}
