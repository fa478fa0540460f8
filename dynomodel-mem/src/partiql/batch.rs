//! `BatchExecuteStatement` (statements run one by one, each failing on its own) and
//! `ExecuteTransaction` (planned onto `TransactGetItems` / `TransactWriteItems`, so isolation,
//! cancellation reasons and `ClientRequestToken` idempotency are the transaction machinery's).

use std::collections::BTreeMap;

use dynomodel::{
    AttributeValue, Backend, BatchExecuteStatementInput, BatchExecuteStatementOutput,
    BatchStatementError, BatchStatementResponse, ConsumedCapacity, Error, ExecuteTransactionInput,
    ExecuteTransactionOutput, GetItemInput, Item, Result, TransactDelete, TransactGet,
    TransactGetItemsInput, TransactPut, TransactUpdate, TransactWriteItem, TransactWriteItemsInput,
};

use super::ast::{Projection, Statement};
use super::errors;
use super::execute::{parse, projection_expression, reshape, Schema, Write};
use super::plan::Gen;

/// A single-item read: the statement's table, key and projection.
struct Read {
    table: String,
    key: Item,
    projection: Projection,
    projection_expression: Option<String>,
    names: Option<BTreeMap<String, String>>,
}

/// Plans a `SELECT` that names one item by its full key and nothing else.
async fn plan_read(
    backend: &dyn Backend,
    statement: &Statement,
    params: &[AttributeValue],
    not_single: &str,
) -> Result<Read> {
    let Statement::Select {
        projection,
        index,
        filter,
        table,
    } = statement
    else {
        return Err(Error::validation(errors::MIXED_BATCH));
    };
    let schema = Schema::load(backend, table).await?;
    let mut ph = Gen::new(params);
    let key = match (index, filter) {
        (None, Some(filter)) => match super::plan::full_key(&ph, &schema.keys, filter)? {
            Some((key, rest)) if rest.is_empty() => key,
            _ => return Err(Error::validation(not_single)),
        },
        _ => return Err(Error::validation(not_single)),
    };
    schema.check_types(&key)?;
    let projection_expression = projection_expression(&mut ph, projection);
    Ok(Read {
        table: schema.table,
        key,
        projection: projection.clone(),
        projection_expression,
        names: ph.names(),
    })
}

/// Adds `c` into the per-table totals.
fn add_capacity(totals: &mut Vec<ConsumedCapacity>, c: Option<ConsumedCapacity>) {
    let Some(c) = c else { return };
    let sum = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    };
    match totals.iter_mut().find(|t| t.table_name == c.table_name) {
        Some(t) => {
            t.capacity_units = sum(t.capacity_units, c.capacity_units);
            t.read_capacity_units = sum(t.read_capacity_units, c.read_capacity_units);
            t.write_capacity_units = sum(t.write_capacity_units, c.write_capacity_units);
        }
        None => totals.push(c),
    }
}

/// A statement's failure as a `BatchStatementError`.
fn statement_error(e: Error) -> BatchStatementError {
    let code = errors::batch_code(&e);
    let item = match &e {
        Error::ConditionalCheckFailed { item, .. } => item.clone(),
        _ => None,
    };
    BatchStatementError {
        code,
        message: Some(e.message()),
        item,
    }
}

fn failed(e: Error, table: Option<String>) -> BatchStatementResponse {
    BatchStatementResponse {
        error: Some(statement_error(e)),
        table_name: table,
        item: None,
    }
}

pub(crate) async fn batch_execute_statement(
    backend: &dyn Backend,
    input: BatchExecuteStatementInput,
) -> Result<BatchExecuteStatementOutput> {
    if input.statements.is_empty() || input.statements.len() > 25 {
        return Err(Error::validation(errors::BATCH_TOO_LARGE));
    }
    let parsed: Vec<(Result<Statement>, Vec<AttributeValue>)> = input
        .statements
        .iter()
        .map(|s| {
            let params = s.parameters.clone().unwrap_or_default();
            (parse(&s.statement, &params), params)
        })
        .collect();
    let reads = parsed
        .iter()
        .filter(|(s, _)| matches!(s, Ok(s) if s.is_read()))
        .count();
    let writes = parsed
        .iter()
        .filter(|(s, _)| matches!(s, Ok(s) if !s.is_read()))
        .count();
    if reads > 0 && writes > 0 {
        return Err(Error::validation(errors::MIXED_BATCH));
    }
    let consumed = input.return_consumed_capacity;
    let mut responses = Vec::with_capacity(parsed.len());
    let mut capacity = Vec::new();
    if reads > 0 {
        let mut planned = Vec::new();
        for (statement, params) in &parsed {
            planned.push(match statement {
                Ok(s) => plan_read(backend, s, params, errors::SINGLE_ITEM_SELECT).await,
                Err(e) => Err(e.clone()),
            });
        }
        let keys: Vec<_> = planned
            .iter()
            .flatten()
            .map(|r| (&r.table, &r.key))
            .collect();
        if (1..keys.len()).any(|i| keys[..i].contains(&keys[i])) {
            return Err(Error::validation(errors::DUPLICATE_KEYS));
        }
        for (read, request) in planned.into_iter().zip(&input.statements) {
            let read = match read {
                Ok(r) => r,
                Err(e) => {
                    responses.push(failed(e, None));
                    continue;
                }
            };
            let got = backend
                .get_item(GetItemInput {
                    table_name: read.table.clone(),
                    key: read.key,
                    consistent_read: request.consistent_read,
                    projection_expression: read.projection_expression,
                    expression_attribute_names: read.names,
                    return_consumed_capacity: consumed,
                })
                .await;
            responses.push(match got {
                Ok(out) => {
                    add_capacity(&mut capacity, out.consumed_capacity);
                    BatchStatementResponse {
                        error: None,
                        table_name: Some(read.table),
                        item: out.item.map(|i| reshape(&read.projection, i)),
                    }
                }
                Err(e) => failed(e, Some(read.table)),
            });
        }
    } else {
        let mut planned = Vec::new();
        for (statement, params) in &parsed {
            let plan = match statement {
                Ok(s) => match Schema::load(backend, s.table()).await {
                    Ok(schema) => {
                        let mut ph = Gen::new(params);
                        Write::plan(&schema, &mut ph, s).map(|w| (w, ph.names(), ph.values()))
                    }
                    Err(e) => Err(e),
                },
                Err(e) => Err(e.clone()),
            };
            planned.push(plan);
        }
        let targets: Vec<_> = planned.iter().flatten().map(|(w, ..)| w.target()).collect();
        if (1..targets.len()).any(|i| targets[..i].contains(&targets[i])) {
            return Err(Error::validation(errors::DUPLICATE_KEYS));
        }
        for (plan, request) in planned.into_iter().zip(&input.statements) {
            let (write, names, values) = match plan {
                Ok(p) => p,
                Err(e) => {
                    responses.push(failed(e, None));
                    continue;
                }
            };
            let table = write.target().0;
            let on_failure = request.return_values_on_condition_check_failure;
            match write
                .run(backend, (names, values), on_failure, consumed)
                .await
            {
                Ok((c, _)) => {
                    add_capacity(&mut capacity, c);
                    responses.push(BatchStatementResponse {
                        table_name: Some(table),
                        ..Default::default()
                    });
                }
                Err(e) => responses.push(failed(e, Some(table))),
            }
        }
    }
    Ok(BatchExecuteStatementOutput {
        responses,
        consumed_capacity: capacity,
    })
}

pub(crate) async fn execute_transaction(
    backend: &dyn Backend,
    input: ExecuteTransactionInput,
) -> Result<ExecuteTransactionOutput> {
    if input.transact_statements.is_empty() || input.transact_statements.len() > 100 {
        return Err(Error::validation(errors::TRANSACTION_TOO_LARGE));
    }
    let mut parsed = Vec::new();
    for s in &input.transact_statements {
        let params = s.parameters.clone().unwrap_or_default();
        let statement = parse(&s.statement, &params)?;
        parsed.push((statement, params));
    }
    let reads = parsed.iter().filter(|(s, _)| s.is_read()).count();
    if reads > 0 && reads < parsed.len() {
        return Err(Error::validation(errors::MIXED_TRANSACTION));
    }
    if reads > 0 {
        let mut gets = Vec::new();
        let mut projections = Vec::new();
        for (i, (statement, params)) in parsed.iter().enumerate() {
            let message = format!(
                "Validation failed in TransactStatements[{i}]: {}",
                errors::TRANSACTION_SELECT
            );
            let read = plan_read(backend, statement, params, &message).await?;
            projections.push(read.projection);
            gets.push(TransactGet {
                table_name: read.table,
                key: read.key,
                projection_expression: read.projection_expression,
                expression_attribute_names: read.names,
            });
        }
        let out = backend
            .transact_get_items(TransactGetItemsInput {
                transact_items: gets,
                return_consumed_capacity: input.return_consumed_capacity,
            })
            .await?;
        let responses = out
            .responses
            .into_iter()
            .zip(&projections)
            .map(|(item, p)| item.map(|i| reshape(p, i)))
            .collect();
        return Ok(ExecuteTransactionOutput {
            responses,
            consumed_capacity: out.consumed_capacity,
        });
    }
    let mut actions = Vec::new();
    let mut inserts = Vec::new();
    for ((statement, params), request) in parsed.iter().zip(&input.transact_statements) {
        let schema = Schema::load(backend, statement.table()).await?;
        let mut ph = Gen::new(params);
        let write = Write::plan(&schema, &mut ph, statement)?;
        let on_failure = request.return_values_on_condition_check_failure;
        let (names, values) = (ph.names(), ph.values());
        inserts.push(matches!(write, Write::Insert { .. }));
        actions.push(match write {
            Write::Insert {
                table,
                item,
                condition,
            } => TransactWriteItem::Put(TransactPut {
                table_name: table,
                item,
                condition_expression: Some(condition),
                expression_attribute_names: names,
                expression_attribute_values: values,
                return_values_on_condition_check_failure: on_failure,
            }),
            Write::Update {
                table,
                key,
                update,
                condition,
                ..
            } => TransactWriteItem::Update(TransactUpdate {
                table_name: table,
                key,
                update_expression: update,
                condition_expression: Some(condition),
                expression_attribute_names: names,
                expression_attribute_values: values,
                return_values_on_condition_check_failure: on_failure,
            }),
            Write::Delete {
                table,
                key,
                condition,
                ..
            } => TransactWriteItem::Delete(TransactDelete {
                table_name: table,
                key,
                condition_expression: condition,
                expression_attribute_names: names,
                expression_attribute_values: values,
                return_values_on_condition_check_failure: on_failure,
            }),
        });
    }
    let result = backend
        .transact_write_items(TransactWriteItemsInput {
            transact_items: actions,
            client_request_token: input.client_request_token,
            return_consumed_capacity: input.return_consumed_capacity,
            ..Default::default()
        })
        .await;
    match result {
        Ok(out) => Ok(ExecuteTransactionOutput {
            responses: Vec::new(),
            consumed_capacity: out.consumed_capacity,
        }),
        Err(Error::TransactionCanceled { reasons, .. }) => {
            // An INSERT's failed "key is new" condition is a duplicate key (DynamoDB Local 3.3.1
            // reports it as `ValidationError` with the duplicate-key text).
            let reasons: Vec<_> = reasons
                .into_iter()
                .zip(&inserts)
                .map(|(mut r, insert)| {
                    if *insert && r.code == "ConditionalCheckFailed" {
                        r.code = "ValidationError".into();
                        r.message = Some(errors::DUPLICATE.into());
                        r.item = None;
                    }
                    r
                })
                .collect();
            let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
            Err(Error::TransactionCanceled {
                message: format!(
                    "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
                    codes.join(", ")
                ),
                reasons,
            })
        }
        Err(e) => Err(e),
    }
}
