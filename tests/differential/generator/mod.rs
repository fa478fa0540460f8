//! Generates random tables (some with LSIs and GSIs) and operation sequences: item writes with
//! conditions, updates with update expressions, projected gets, queries and scans walked page by page.
//! About one request in six is invalid, with exactly ONE defect: the order in which DynamoDB reports
//! several defects is undocumented, so a request with two could legitimately disagree.

mod expressions;
mod items;
pub(crate) mod legacy;
mod multi;
pub(crate) mod partiql;
mod queries;
mod tables;

use std::collections::BTreeMap;

use dynomodel::backend::{ProjectionType, ReturnValue, ScalarAttributeType, Select};
use dynomodel::Item;

use crate::rng::Rng;
use expressions::Builder;
pub(crate) use multi::{Action, ActionKind, Get, Read, Token, Write};
pub(crate) use tables::tables;

/// A table's key schema, its secondary indexes and what its items may carry; the name is given per run.
#[derive(Debug, Clone)]
pub(crate) struct TableSpec {
    pub hash: (String, ScalarAttributeType),
    pub range: Option<(String, ScalarAttributeType)>,
    pub indexes: Vec<IndexSpec>,
    /// Attributes that are an index key but not a table key, with their declared type.
    pub index_attributes: Vec<(String, ScalarAttributeType)>,
    /// Whether items near 400 KB may be written (only where no index sizes pages by projection).
    pub big_items: bool,
}

/// One LSI or GSI.
#[derive(Debug, Clone)]
pub(crate) struct IndexSpec {
    pub name: String,
    pub global: bool,
    pub hash: (String, ScalarAttributeType),
    pub range: Option<(String, ScalarAttributeType)>,
    pub projection: ProjectionType,
    pub include: Vec<String>,
}

/// The expressions of a request and their placeholder maps (absent maps stay `None`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Exprs {
    pub key_condition: Option<String>,
    pub filter: Option<String>,
    pub condition: Option<String>,
    pub update: Option<String>,
    pub projection: Option<String>,
    pub names: Option<BTreeMap<String, String>>,
    pub values: Option<Item>,
    /// The request's legacy members, in place of the expressions (`generator/legacy.rs`).
    pub legacy: legacy::Legacy,
}

/// Scan segmentation: none, every segment of a parallel scan walked in turn, or raw (invalid) values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Segments {
    Whole,
    All(i32),
    Raw {
        segment: Option<i32>,
        total: Option<i32>,
    },
}

/// One request against table number `table` of the run (or a missing table). Query and Scan are page
/// walks: the runner follows `LastEvaluatedKey` to the end.
#[derive(Debug, Clone)]
pub(crate) enum Op {
    Put {
        table: TableRef,
        item: Item,
        exprs: Exprs,
        return_values: Option<ReturnValue>,
        old_on_failure: bool,
    },
    Get {
        table: TableRef,
        key: Item,
        consistent: bool,
        exprs: Exprs,
    },
    Delete {
        table: TableRef,
        key: Item,
        exprs: Exprs,
        return_values: Option<ReturnValue>,
        old_on_failure: bool,
    },
    Update {
        table: TableRef,
        key: Item,
        exprs: Exprs,
        return_values: Option<ReturnValue>,
        old_on_failure: bool,
    },
    Query {
        table: TableRef,
        index: Option<String>,
        exprs: Exprs,
        select: Option<Select>,
        forward: Option<bool>,
        limit: Option<i32>,
        consistent: Option<bool>,
    },
    Scan {
        table: TableRef,
        index: Option<String>,
        exprs: Exprs,
        select: Option<Select>,
        limit: Option<i32>,
        consistent: Option<bool>,
        segments: Segments,
    },
    BatchGet {
        reads: Vec<Read>,
    },
    BatchWrite {
        writes: Vec<(TableRef, Vec<Write>)>,
    },
    TransactGet {
        gets: Vec<Get>,
    },
    TransactWrite {
        actions: Vec<Action>,
        token: Option<Token>,
    },
    /// ExecuteStatement; a SELECT is walked page by page with `NextToken`.
    Statement {
        statement: partiql::Statement,
        limit: Option<i32>,
    },
    BatchStatements {
        statements: Vec<partiql::Statement>,
    },
    Transaction {
        statements: Vec<partiql::Statement>,
    },
}

impl Op {
    pub(crate) fn table(&self) -> TableRef {
        match self {
            Op::Put { table, .. }
            | Op::Get { table, .. }
            | Op::Delete { table, .. }
            | Op::Update { table, .. }
            | Op::Query { table, .. }
            | Op::Scan { table, .. } => *table,
            Op::Statement { statement, .. } => statement.table,
            Op::BatchStatements { statements } | Op::Transaction { statements } => {
                missing_if(statements.iter().map(|s| s.table))
            }
            // A multi-item request "targets" the missing table when any of its tables is missing.
            Op::BatchGet { reads } => missing_if(reads.iter().map(|r| r.table)),
            Op::BatchWrite { writes } => missing_if(writes.iter().map(|w| w.0)),
            Op::TransactGet { gets } => missing_if(gets.iter().map(|g| g.table)),
            Op::TransactWrite { actions, .. } => missing_if(actions.iter().map(|a| a.table)),
        }
    }

    /// The operation's name in the run summary.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Op::Put { .. } => "PutItem",
            Op::Get { .. } => "GetItem",
            Op::Delete { .. } => "DeleteItem",
            Op::Update { .. } => "UpdateItem",
            Op::Query { .. } => "Query",
            Op::Scan { .. } => "Scan",
            Op::BatchGet { .. } => "BatchGetItem",
            Op::BatchWrite { .. } => "BatchWriteItem",
            Op::TransactGet { .. } => "TransactGetItems",
            Op::TransactWrite { .. } => "TransactWriteItems",
            Op::Statement { .. } => "ExecuteStatement",
            Op::BatchStatements { .. } => "BatchExecuteStatement",
            Op::Transaction { .. } => "ExecuteTransaction",
        }
    }
}

fn missing_if(tables: impl IntoIterator<Item = TableRef>) -> TableRef {
    let mut tables = tables.into_iter().peekable();
    let first = tables.peek().copied().unwrap_or(TableRef::Missing);
    if tables.any(|t| t == TableRef::Missing) {
        TableRef::Missing
    } else {
        first
    }
}

/// Which table an operation targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TableRef {
    /// One of the run's tables.
    Table(usize),
    /// A table that does not exist.
    Missing,
}

/// `count` operations over `tables`. A third are multi-item operations (batches and transactions);
/// now and then a transaction with a token is sent again exactly, which must change nothing.
pub(crate) fn operations(rng: &mut Rng, tables: &[TableSpec], count: usize) -> Vec<Op> {
    let mut ops: Vec<Op> = Vec::with_capacity(count);
    while ops.len() < count {
        let replays: Vec<&Op> = ops
            .iter()
            .filter(|op| {
                matches!(
                    op,
                    Op::TransactWrite {
                        token: Some(Token::Pooled(_)),
                        ..
                    }
                )
            })
            .collect();
        let op = if !replays.is_empty() && rng.chance(3) {
            (*rng.pick(&replays)).clone()
        } else if rng.chance(33) {
            multi::operation(rng, tables)
        } else {
            operation(rng, tables)
        };
        ops.push(op);
    }
    ops
}

/// Which part of an invalid request carries its one defect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Defect {
    None,
    ReturnValues,
    /// The item or key.
    Data,
    Expression,
}

fn operation(rng: &mut Rng, tables: &[TableSpec]) -> Op {
    let index = rng.below(tables.len());
    let spec = &tables[index];
    let table = if rng.chance(2) {
        TableRef::Missing
    } else {
        TableRef::Table(index)
    };
    let defect = if !rng.chance(15) {
        Defect::None
    } else {
        match rng.below(10) {
            0 | 1 => Defect::ReturnValues,
            2..=5 => Defect::Data,
            _ => Defect::Expression,
        }
    };
    match rng.below(100) {
        0..=21 => put(rng, spec, table, defect),
        22..=33 => get(rng, spec, table, defect),
        34..=43 => delete(rng, spec, table, defect),
        44..=65 => update(rng, spec, table, defect),
        66..=84 => queries::query(rng, spec, table, defect != Defect::None),
        _ => queries::scan(rng, spec, table, defect != Defect::None),
    }
}

/// A condition on the existing item half of the time; the defect goes into it when asked for.
fn condition(rng: &mut Rng, spec: &TableSpec, b: &mut Builder, broken: bool) -> Option<String> {
    if !broken && rng.chance(50) {
        return None;
    }
    let pool = expressions::pool(spec, true);
    let mut text = expressions::condition(rng, b, &pool, 2);
    if broken {
        expressions::break_condition(rng, b, &mut text);
    }
    Some(text)
}

fn put(rng: &mut Rng, spec: &TableSpec, table: TableRef, defect: Defect) -> Op {
    let mut item = items::random_item(rng, spec, defect == Defect::None);
    if defect == Defect::Data {
        items::break_item(rng, spec, &mut item);
    }
    let mut b = Builder::default();
    let mut exprs = Exprs {
        condition: condition(rng, spec, &mut b, defect == Defect::Expression),
        ..Exprs::default()
    };
    b.finish(&mut exprs);
    Op::Put {
        table,
        item,
        exprs,
        return_values: put_return_values(rng, defect == Defect::ReturnValues),
        old_on_failure: rng.chance(30),
    }
}

fn get(rng: &mut Rng, spec: &TableSpec, table: TableRef, defect: Defect) -> Op {
    let mut key = items::random_key(rng, spec);
    if matches!(defect, Defect::Data | Defect::ReturnValues) {
        items::break_key(rng, spec, &mut key);
    }
    let mut b = Builder::default();
    let mut exprs = Exprs::default();
    if defect == Defect::Expression || rng.chance(40) {
        let pool = expressions::pool(spec, true);
        let mut text = expressions::projection(rng, &mut b, &pool);
        if defect == Defect::Expression {
            expressions::break_projection(rng, &mut b, &mut text);
        }
        exprs.projection = Some(text);
    }
    b.finish(&mut exprs);
    Op::Get {
        table,
        key,
        consistent: rng.chance(50),
        exprs,
    }
}

fn delete(rng: &mut Rng, spec: &TableSpec, table: TableRef, defect: Defect) -> Op {
    let mut key = items::random_key(rng, spec);
    if defect == Defect::Data {
        items::break_key(rng, spec, &mut key);
    }
    let mut b = Builder::default();
    let mut exprs = Exprs {
        condition: condition(rng, spec, &mut b, defect == Defect::Expression),
        ..Exprs::default()
    };
    b.finish(&mut exprs);
    Op::Delete {
        table,
        key,
        exprs,
        return_values: put_return_values(rng, defect == Defect::ReturnValues),
        old_on_failure: rng.chance(30),
    }
}

fn update(rng: &mut Rng, spec: &TableSpec, table: TableRef, defect: Defect) -> Op {
    let mut key = items::random_key(rng, spec);
    // UpdateItem accepts all five ReturnValues: its ReturnValues defect is a key defect instead.
    if matches!(defect, Defect::Data | Defect::ReturnValues) {
        items::break_key(rng, spec, &mut key);
    }
    let mut b = Builder::default();
    // The defect goes into the update expression or into the condition, never both.
    let broken_update = defect == Defect::Expression && rng.chance(60);
    let broken_condition = defect == Defect::Expression && !broken_update;
    let mut update = expressions::update(rng, &mut b, spec);
    if broken_update {
        expressions::break_update(rng, &mut b, spec, &mut update);
    }
    let mut exprs = Exprs {
        update: Some(update),
        condition: condition(rng, spec, &mut b, broken_condition),
        ..Exprs::default()
    };
    b.finish(&mut exprs);
    let return_values = match rng.below(6) {
        0 => None,
        1 => Some(ReturnValue::None),
        2 => Some(ReturnValue::AllOld),
        3 => Some(ReturnValue::UpdatedOld),
        4 => Some(ReturnValue::AllNew),
        _ => Some(ReturnValue::UpdatedNew),
    };
    Op::Update {
        table,
        key,
        exprs,
        return_values,
        old_on_failure: rng.chance(30),
    }
}

/// PutItem and DeleteItem accept NONE and ALL_OLD; the other three are the ReturnValues defect.
fn put_return_values(rng: &mut Rng, invalid: bool) -> Option<ReturnValue> {
    if invalid {
        return Some(*rng.pick(&[
            ReturnValue::AllNew,
            ReturnValue::UpdatedOld,
            ReturnValue::UpdatedNew,
        ]));
    }
    match rng.below(3) {
        0 => None,
        1 => Some(ReturnValue::None),
        _ => Some(ReturnValue::AllOld),
    }
}
