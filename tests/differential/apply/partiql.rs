//! ExecuteStatement (a SELECT walked to the end with `NextToken`), BatchExecuteStatement and
//! ExecuteTransaction, reduced to an [`Answer`].

use dynomodel::backend::{
    Backend, BatchExecuteStatementInput, BatchStatementRequest, ExecuteStatementInput,
    ExecuteTransactionInput, ParameterizedStatement,
};

use super::{name_of, on_failure, Answer, StatementPage, MAX_PAGES};
use crate::generator::partiql::{Statement, TABLE};

/// The statement's text with the run's table name.
fn text(names: &[String], statement: &Statement) -> String {
    statement
        .text
        .replace(TABLE, &name_of(names, statement.table))
}

/// ExecuteStatement; returns the answer and the number of requests sent.
pub(super) async fn execute(
    backend: &dyn Backend,
    names: &[String],
    statement: &Statement,
    limit: Option<i32>,
) -> (Answer, usize) {
    let mut input = ExecuteStatementInput {
        statement: text(names, statement),
        parameters: statement.parameters.clone(),
        consistent_read: statement.consistent,
        limit,
        return_values_on_condition_check_failure: on_failure(statement.old_on_failure),
        ..Default::default()
    };
    let mut pages: Vec<StatementPage> = Vec::new();
    let mut error = None;
    while pages.len() < MAX_PAGES {
        match backend.execute_statement(input.clone()).await {
            Ok(out) => {
                pages.push(StatementPage {
                    items: out.items.unwrap_or_default(),
                    more: out.next_token.is_some(),
                    last_key: out.last_evaluated_key,
                });
                match out.next_token {
                    Some(token) => input.next_token = Some(token),
                    None => break,
                }
            }
            Err(e) if pages.is_empty() => return (Answer::error(e), 1),
            Err(e) => {
                error = Some((e.code().to_owned(), e.message()));
                break;
            }
        }
    }
    let n = pages.len() + usize::from(error.is_some());
    // A Scan's partitions, and an index's entries with equal index keys, come in an undocumented
    // order (as for a Scan and an index Query): the walk is compared as a multiset.
    if statement.unordered {
        let items: Vec<_> = pages.into_iter().flat_map(|p| p.items).collect();
        let count = items.len() as i64;
        let answer = Answer::ScanWalk {
            items,
            count,
            scanned: 0,
            error,
        };
        return (answer, n);
    }
    (Answer::Statements { pages, error }, n)
}

pub(super) async fn batch(
    backend: &dyn Backend,
    names: &[String],
    statements: &[Statement],
) -> Answer {
    let input = BatchExecuteStatementInput {
        statements: statements
            .iter()
            .map(|s| BatchStatementRequest {
                statement: text(names, s),
                parameters: s.parameters.clone(),
                consistent_read: s.consistent,
                return_values_on_condition_check_failure: on_failure(s.old_on_failure),
            })
            .collect(),
        ..Default::default()
    };
    match backend.batch_execute_statement(input).await {
        Ok(out) => Answer::BatchStatements(out.responses),
        Err(e) => Answer::error(e),
    }
}

pub(super) async fn transaction(
    backend: &dyn Backend,
    names: &[String],
    statements: &[Statement],
) -> Answer {
    let input = ExecuteTransactionInput {
        transact_statements: statements
            .iter()
            .map(|s| ParameterizedStatement {
                statement: text(names, s),
                parameters: s.parameters.clone(),
                return_values_on_condition_check_failure: on_failure(s.old_on_failure),
            })
            .collect(),
        ..Default::default()
    };
    match backend.execute_transaction(input).await {
        Ok(out) => Answer::Items(out.responses),
        Err(e) => Answer::error(e),
    }
}
