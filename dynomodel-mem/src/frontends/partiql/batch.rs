//! `BatchExecuteStatement`: up to 25 statements, all reads (each a GetItem) or all writes (each its
//! item operation), run one by one, each failing on its own with a `BatchStatementError`.

use dynomodel::backend::{
    Backend, BatchExecuteStatementInput, BatchExecuteStatementOutput, BatchStatementError,
    BatchStatementResponse, ConsumedCapacity, GetItemInput,
};
use dynomodel::{AttributeValue, Error, Item, Result};

use super::ast::{Projection, Statement};
use super::errors;
use super::plan::Gen;
use super::schema::{parse, Schema};
use crate::expr::eval::{Step, Steps};
use crate::expr::generated::generated;

use super::write::Write;

/// A single-item read: the statement's table, key and projection. Unlike ExecuteStatement's SELECT,
/// the projection has the expression API's shape (DynamoDB Local 3.3.1: `SELECT l[0], x.y[1]` in a
/// batch or a transaction returns `{"l": [..], "x": {"y": [..]}}`, not `{"l[0]": .., "y[1]": ..}`).
pub(crate) struct Read {
    /// The table.
    pub(crate) table: String,
    /// The item's key.
    pub(crate) key: Item,
    /// What the statement selects (to re-key nested paths).
    /// The projected paths (`None` for `*`).
    pub(crate) projection: Option<Vec<Steps>>,
}

/// Plans a `SELECT` that names one item by its full key and nothing else.
pub(crate) async fn plan_read(
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
    let ph = Gen::new(params);
    let key = match (index, filter) {
        (None, Some(filter)) => match super::plan::full_key(&ph, &schema.keys, filter)? {
            // A value that can be no key (`pk = TRUE`) names no single item (DynamoDB Local 3.3.1).
            Some((key, rest))
                if rest.is_empty()
                    && key.values().all(|v| {
                        matches!(
                            v,
                            AttributeValue::S(_) | AttributeValue::N(_) | AttributeValue::B(_)
                        )
                    }) =>
            {
                key
            }
            _ => return Err(Error::validation(not_single)),
        },
        _ => return Err(Error::validation(not_single)),
    };
    schema.check_types(&key)?;
    // The whole item is read and projected here: a batch's or a transaction's read does not check
    // paths into key attributes as a ProjectionExpression would (DynamoDB Local 3.3.1).
    let projection = match projection {
        Projection::All => None,
        Projection::Paths(paths) => Some(paths.iter().map(steps).collect()),
    };
    Ok(Read {
        table: schema.table,
        key,
        projection,
    })
}

/// A path as the expression API's projection walks it.
fn steps(path: &super::ast::Path) -> Steps {
    std::iter::once(Step::Key(path.root.clone()))
        .chain(path.steps.iter().map(|s| match s {
            super::ast::Step::Field(f) => Step::Key(f.clone()),
            super::ast::Step::Index(i) => Step::Index(*i as usize),
        }))
        .collect()
}

/// A read item projected to the statement's paths.
pub(crate) fn projected(item: Item, projection: Option<&Vec<Steps>>) -> Item {
    match projection {
        Some(paths) => crate::expr::projection::project(&item, paths),
        None => item,
    }
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
    // The maps are ours, not the client's: not under the substitution caps, as Local answers.
    generated(run(backend, input)).await
}

async fn run(
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
                    projection_expression: None,
                    expression_attribute_names: None,
                    return_consumed_capacity: consumed,
                    ..Default::default()
                })
                .await;
            responses.push(match got {
                Ok(out) => {
                    add_capacity(&mut capacity, out.consumed_capacity);
                    BatchStatementResponse {
                        error: None,
                        table_name: Some(read.table),
                        item: out.item.map(|i| projected(i, read.projection.as_ref())),
                    }
                }
                Err(e) => failed(errors::unprefixed(e), Some(read.table)),
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
                Ok((c, returned)) => {
                    add_capacity(&mut capacity, c);
                    // What a RETURNING clause asked for (DynamoDB Local 3.3.1 answers it here).
                    responses.push(BatchStatementResponse {
                        table_name: Some(table),
                        item: returned,
                        error: None,
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
