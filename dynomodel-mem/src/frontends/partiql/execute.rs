//! `ExecuteStatement`: a parsed statement planned onto Query, Scan, PutItem, UpdateItem or DeleteItem
//! and run through the backend's own operations (so faults, capacity and streams apply as usual).

use dynomodel::backend::{Backend, ExecuteStatementInput, ExecuteStatementOutput};
use dynomodel::Result;

use crate::expr::generated::generated;

use super::ast::Statement;
use super::plan::Gen;
use super::schema::{parse, prevalidate, Schema};
use super::select::select;
use super::write::Write;

pub(crate) async fn execute_statement(
    backend: &dyn Backend,
    input: ExecuteStatementInput,
) -> Result<ExecuteStatementOutput> {
    // The maps are ours, not the client's: not under the substitution caps, as Local answers.
    generated(run(backend, input)).await
}

async fn run(
    backend: &dyn Backend,
    mut input: ExecuteStatementInput,
) -> Result<ExecuteStatementOutput> {
    // Taken, not copied: nothing reads them from `input` again, and a request can carry hundreds
    // of thousands.
    let params = input.parameters.take().unwrap_or_default();
    let statement = parse(&input.statement, &params)?;
    let mut ph = Gen::new(&params);
    prevalidate(&ph, &statement)?;
    let schema = Schema::load(backend, statement.table()).await?;
    if let Statement::Select {
        projection,
        index,
        filter,
        ..
    } = &statement
    {
        return select(
            backend,
            &schema,
            &mut ph,
            projection,
            index.as_deref(),
            filter.as_ref(),
            &input,
        )
        .await;
    }
    let on_failure = input.return_values_on_condition_check_failure;
    let consumed = input.return_consumed_capacity;
    let write = Write::plan(&schema, &mut ph, &statement)?;
    let placeholders = (ph.names(), ph.values());
    let (consumed_capacity, attributes) = write
        .run(backend, placeholders, on_failure, consumed)
        .await?;
    Ok(ExecuteStatementOutput {
        items: Some(attributes.into_iter().collect()),
        consumed_capacity,
        ..Default::default()
    })
}
