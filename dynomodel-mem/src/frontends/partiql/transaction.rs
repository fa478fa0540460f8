//! `ExecuteTransaction`: up to 100 statements planned onto one TransactGetItems (all single-item
//! reads) or one TransactWriteItems (all writes), so isolation, cancellation reasons and
//! `ClientRequestToken` idempotency are the transaction machinery's.

use dynomodel::backend::{
    Backend, ExecuteTransactionInput, ExecuteTransactionOutput, TransactDelete, TransactGet,
    TransactGetItemsInput, TransactPut, TransactUpdate, TransactWriteItem, TransactWriteItemsInput,
};
use dynomodel::{CancellationCode, CancellationReason, Error, Result};

use super::ast::Statement;
use super::batch::{plan_read, projected};
use super::errors;
use super::plan::Gen;
use super::schema::{check_parsed, parse_syntax, Schema};
use super::write::Write;
use crate::expr::generated::generated;
use crate::validate;

/// How a transaction reports a write statement's planning error (DynamoDB Local 3.3.1, probed).
enum StatementError {
    /// A key of the wrong type, or a key attribute missing from an INSERT (or its item past
    /// 400 KB, checked after its planning): the transaction is
    /// cancelled with a `ValidationError` reason for the statement (as TransactWriteItems reports an
    /// action's key that does not fit its table).
    Reason,
    /// A check of the statement itself (operand types, path overlaps, nested key paths, values):
    /// `Validation failed in TransactStatements[i]: …`.
    Named,
    /// Anything else (the key equalities: see tests/dual/deviations.md) as ExecuteStatement reports
    /// it.
    AsIs,
}

fn statement_error(e: &Error) -> StatementError {
    let Error::Validation { message } = e else {
        return StatementError::AsIs;
    };
    if message.starts_with("Key attribute's data type should match")
        || message.starts_with("Key attribute should be present in the item")
    {
        StatementError::Reason
    } else if message.starts_with(errors::KEY_EQUALITY)
        || message.starts_with("Multiple conditions on same key")
    {
        StatementError::AsIs
    } else {
        StatementError::Named
    }
}

/// The cancellation for statements whose keys do not fit: `None` for the others.
fn cancelled_by_invalid_keys(count: usize, invalid: &[(usize, String)]) -> Error {
    let reasons: Vec<CancellationReason> = (0..count)
        .map(|i| match invalid.iter().find(|(at, _)| *at == i) {
            Some((_, message)) => {
                CancellationReason::new(CancellationCode::ValidationError, message)
            }
            None => CancellationReason::none(),
        })
        .collect();
    Error::transaction_canceled(reasons)
}

/// A statement's validation error as a transaction reports it.
fn in_statement(i: usize, e: &Error) -> Error {
    Error::validation(format!(
        "Validation failed in TransactStatements[{i}]: {}",
        e.message()
    ))
}

pub(crate) async fn execute_transaction(
    backend: &dyn Backend,
    input: ExecuteTransactionInput,
) -> Result<ExecuteTransactionOutput> {
    // The maps are ours, not the client's: not under the substitution caps, as Local answers.
    generated(run(backend, input)).await
}

async fn run(
    backend: &dyn Backend,
    input: ExecuteTransactionInput,
) -> Result<ExecuteTransactionOutput> {
    if input.transact_statements.is_empty() || input.transact_statements.len() > 100 {
        return Err(Error::validation(errors::TRANSACTION_TOO_LARGE));
    }
    // Every statement's syntax first; then each one's own checks, which name the statement
    // (DynamoDB Local 3.3.1: a malformed second statement is reported before a first one with
    // duplicate result names; those and a wrong parameter count come as
    // `Validation failed in TransactStatements[i]: …`).
    let mut syntax = Vec::new();
    for s in &input.transact_statements {
        syntax.push(parse_syntax(&s.statement)?);
    }
    let mut parsed = Vec::new();
    for (i, ((statement, count), s)) in syntax
        .into_iter()
        .zip(&input.transact_statements)
        .enumerate()
    {
        let params = s.parameters.clone().unwrap_or_default();
        check_parsed(&statement, count, &params).map_err(|e| in_statement(i, &e))?;
        parsed.push((statement, params));
    }
    let reads = parsed.iter().filter(|(s, _)| s.is_read()).count();
    if reads > 0 && reads < parsed.len() {
        return Err(Error::validation(errors::MIXED_TRANSACTION));
    }
    if reads > 0 {
        let mut gets = Vec::new();
        let mut projections = Vec::new();
        // Statements whose key does not fit the table: (index, message).
        let mut invalid: Vec<(usize, String)> = Vec::new();
        for (i, (statement, params)) in parsed.iter().enumerate() {
            let message = format!(
                "Validation failed in TransactStatements[{i}]: {}",
                errors::TRANSACTION_SELECT
            );
            let read = match plan_read(backend, statement, params, &message).await {
                Ok(read) => read,
                Err(e) => match statement_error(&e) {
                    StatementError::Reason => {
                        invalid.push((i, e.message()));
                        continue;
                    }
                    StatementError::Named | StatementError::AsIs => return Err(e),
                },
            };
            projections.push(read.projection);
            gets.push(TransactGet {
                table_name: read.table,
                key: read.key,
                projection_expression: None,
                expression_attribute_names: None,
            });
        }
        if !invalid.is_empty() {
            return Err(cancelled_by_invalid_keys(parsed.len(), &invalid));
        }
        let out = backend
            .transact_get_items(TransactGetItemsInput {
                transact_items: gets,
                return_consumed_capacity: input.return_consumed_capacity,
            })
            .await
            .map_err(errors::unprefixed)?;
        let responses = out
            .responses
            .into_iter()
            .zip(&projections)
            .map(|(item, p)| item.map(|i| projected(i, p.as_ref())))
            .collect();
        return Ok(ExecuteTransactionOutput {
            responses,
            consumed_capacity: out.consumed_capacity,
        });
    }
    let mut actions = Vec::new();
    let mut inserts = Vec::new();
    // Statements whose key does not fit the table: (index, message).
    let mut invalid: Vec<(usize, String)> = Vec::new();
    for (i, ((statement, params), request)) in
        parsed.iter().zip(&input.transact_statements).enumerate()
    {
        if let Statement::Update {
            returning: Some(_), ..
        }
        | Statement::Delete {
            returning: Some(_), ..
        } = statement
        {
            return Err(Error::validation(format!(
                "Validation failed in TransactStatements[{i}]: {}",
                errors::TRANSACTION_RETURNING
            )));
        }
        let schema = Schema::load(backend, statement.table()).await?;
        let mut ph = Gen::new(params);
        let write = match Write::plan(&schema, &mut ph, statement) {
            Ok(write) => write,
            Err(e) => match statement_error(&e) {
                StatementError::Reason => {
                    invalid.push((i, e.message()));
                    continue;
                }
                StatementError::Named => return Err(in_statement(i, &e)),
                StatementError::AsIs => return Err(e),
            },
        };
        // An INSERT's item past 400 KB is the statement's reason, as a key that does not fit
        // (DynamoDB Local 3.3.1), where TransactWriteItems would refuse the request.
        if let Write::Insert { item, .. } = &write
            && let Err(e) = validate::item_size_within_limit(dynomodel::item_size(item))
        {
            invalid.push((i, e.message()));
            continue;
        }
        let on_failure = request.return_values_on_condition_check_failure;
        let (names, values) = (ph.names(), ph.values());
        inserts.push(matches!(write, Write::Insert { .. }));
        actions.push(match write {
            Write::Insert {
                table,
                item,
                condition,
                ..
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
    if !invalid.is_empty() {
        return Err(cancelled_by_invalid_keys(parsed.len(), &invalid));
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
                    if *insert && r.is_conditional_check_failed() {
                        r.code = CancellationCode::ValidationError;
                        r.message = Some(errors::DUPLICATE.into());
                        r.item = None;
                    }
                    r
                })
                .collect();
            Err(Error::transaction_canceled(reasons))
        }
        Err(e) => Err(errors::unprefixed(e)),
    }
}
