//! Sends one generated operation to one backend and reduces the response to an [`Answer`]. Query and
//! Scan are walked to the end, following each backend's own `LastEvaluatedKey`. The multi-item
//! operations are in `multi.rs`.

mod multi;
mod partiql;

use std::collections::BTreeMap;

use dynomodel::backend::{
    Backend, BatchStatementResponse, DeleteItemInput, GetItemInput, PutItemInput, QueryInput,
    QueryOutput, ReturnValuesOnConditionCheckFailure, ScanInput, UpdateItemInput,
};
use dynomodel::{Error, Item};

use crate::generator::{Op, Segments, TableRef};

/// The most pages a walk follows (81 items at Limit 1 is the worst case the generator makes).
pub(crate) const MAX_PAGES: usize = 200;

/// What a backend answered, reduced to what must agree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Answer {
    /// Success, with the returned item or attributes (if any).
    Ok(Option<Item>),
    /// Failure: DynamoDB's error type and message, the item of a failed condition (ALL_OLD), and a
    /// cancelled transaction's reasons (code, message, item), one per action.
    Err {
        code: String,
        message: String,
        item: Option<Item>,
        reasons: Vec<(String, Option<String>, Option<Item>)>,
    },
    /// A batch: per table, the items read (compared as a multiset: DynamoDB returns them in no
    /// particular order), and how many keys or writes came back unprocessed.
    Batch {
        tables: BTreeMap<String, Vec<Item>>,
        unprocessed: usize,
    },
    /// A TransactGetItems: one entry per read, in order.
    Items(Vec<Option<Item>>),
    /// A Query walk: every page, compared page by page (sort-key order is documented).
    Pages {
        pages: Vec<Page>,
        /// An error on a later page (the first page's error is an `Err`).
        error: Option<(String, String)>,
    },
    /// A Scan walk: the items of all pages (of all segments) as a multiset, because the order of
    /// partitions is hash order and undocumented, so page boundaries may differ; and the totals.
    ScanWalk {
        items: Vec<Item>,
        count: i64,
        scanned: i64,
        error: Option<(String, String)>,
    },
    /// An ExecuteStatement: every page of a SELECT (a write's answer is one page), compared page by
    /// page; an index SELECT's walk is compared as a multiset instead, like an index Query's.
    Statements {
        pages: Vec<StatementPage>,
        /// An error on a later page.
        error: Option<(String, String)>,
    },
    /// A BatchExecuteStatement: one response per statement, in order.
    BatchStatements(Vec<BatchStatementResponse>),
}

/// One page of an ExecuteStatement.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StatementPage {
    pub items: Vec<Item>,
    /// Whether a `NextToken` came back (tokens are opaque and differ).
    pub more: bool,
    pub last_key: Option<Item>,
}

/// One page of a Query.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Page {
    pub items: Option<Vec<Item>>,
    pub count: i32,
    pub scanned: i32,
    pub last_key: Option<Item>,
}

impl Answer {
    pub(crate) fn error(e: Error) -> Answer {
        let item = match &e {
            Error::ConditionalCheckFailed { item, .. } => item.clone(),
            _ => None,
        };
        let reasons = match &e {
            Error::TransactionCanceled { reasons, .. } => reasons
                .iter()
                .map(|r| (r.code.to_string(), r.message.clone(), r.item.clone()))
                .collect(),
            _ => Vec::new(),
        };
        Answer::Err {
            code: e.code().to_owned(),
            message: e.message(),
            item,
            reasons,
        }
    }

    /// Whether two answers agree. Scan walks compare as multisets: equal items, in any order.
    pub(crate) fn agrees(&self, other: &Answer) -> bool {
        match (self, other) {
            (
                Answer::ScanWalk {
                    items: a,
                    count: ca,
                    scanned: sa,
                    error: ea,
                },
                Answer::ScanWalk {
                    items: b,
                    count: cb,
                    scanned: sb,
                    error: eb,
                },
            ) => ca == cb && sa == sb && ea == eb && same_multiset(a, b),
            (
                Answer::Batch {
                    tables: a,
                    unprocessed: ua,
                },
                Answer::Batch {
                    tables: b,
                    unprocessed: ub,
                },
            ) => {
                ua == ub
                    && a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ta, ia), (tb, ib))| ta == tb && same_multiset(ia, ib))
            }
            _ => self == other,
        }
    }
}

fn same_multiset(a: &[Item], b: &[Item]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut unmatched: Vec<&Item> = b.iter().collect();
    a.iter()
        .all(|x| match unmatched.iter().position(|y| *y == x) {
            Some(i) => {
                unmatched.swap_remove(i);
                true
            }
            None => false,
        })
}

/// The name of a table of the run, or of the table that does not exist.
fn name_of(names: &[String], table: TableRef) -> String {
    match table {
        TableRef::Table(i) => names[i].clone(),
        TableRef::Missing => "no_such_table".to_owned(),
    }
}

fn on_failure(old: bool) -> Option<ReturnValuesOnConditionCheckFailure> {
    old.then_some(ReturnValuesOnConditionCheckFailure::AllOld)
}

/// Applies `op`; returns the answer and the number of requests sent.
pub(crate) async fn apply(backend: &dyn Backend, names: &[String], op: &Op) -> (Answer, usize) {
    let table_name = name_of(names, op.table());
    let single = |r: Result<Option<Item>, Error>| match r {
        Ok(item) => (Answer::Ok(item), 1),
        Err(e) => (Answer::error(e), 1),
    };
    match op {
        Op::Put {
            item,
            exprs,
            return_values,
            old_on_failure,
            ..
        } => single(
            backend
                .put_item(PutItemInput {
                    table_name,
                    item: item.clone(),
                    condition_expression: exprs.condition.clone(),
                    expression_attribute_names: exprs.names.clone(),
                    expression_attribute_values: exprs.values.clone(),
                    expected: exprs.legacy.expected.clone(),
                    conditional_operator: exprs.legacy.conditional_operator,
                    return_values: *return_values,
                    return_values_on_condition_check_failure: on_failure(*old_on_failure),
                    ..Default::default()
                })
                .await
                .map(|o| o.attributes),
        ),
        Op::Get {
            key,
            consistent,
            exprs,
            ..
        } => single(
            backend
                .get_item(GetItemInput {
                    table_name,
                    key: key.clone(),
                    consistent_read: Some(*consistent),
                    projection_expression: exprs.projection.clone(),
                    attributes_to_get: exprs.legacy.attributes_to_get.clone(),
                    expression_attribute_names: exprs.names.clone(),
                    ..Default::default()
                })
                .await
                .map(|o| o.item),
        ),
        Op::Delete {
            key,
            exprs,
            return_values,
            old_on_failure,
            ..
        } => single(
            backend
                .delete_item(DeleteItemInput {
                    table_name,
                    key: key.clone(),
                    condition_expression: exprs.condition.clone(),
                    expression_attribute_names: exprs.names.clone(),
                    expression_attribute_values: exprs.values.clone(),
                    expected: exprs.legacy.expected.clone(),
                    conditional_operator: exprs.legacy.conditional_operator,
                    return_values: *return_values,
                    return_values_on_condition_check_failure: on_failure(*old_on_failure),
                    ..Default::default()
                })
                .await
                .map(|o| o.attributes),
        ),
        Op::Update {
            key,
            exprs,
            return_values,
            old_on_failure,
            ..
        } => single(
            backend
                .update_item(UpdateItemInput {
                    table_name,
                    key: key.clone(),
                    update_expression: exprs.update.clone(),
                    attribute_updates: exprs.legacy.attribute_updates.clone(),
                    condition_expression: exprs.condition.clone(),
                    expression_attribute_names: exprs.names.clone(),
                    expression_attribute_values: exprs.values.clone(),
                    expected: exprs.legacy.expected.clone(),
                    conditional_operator: exprs.legacy.conditional_operator,
                    return_values: *return_values,
                    return_values_on_condition_check_failure: on_failure(*old_on_failure),
                    ..Default::default()
                })
                .await
                .map(|o| o.attributes),
        ),
        Op::Query {
            index,
            exprs,
            select,
            forward,
            limit,
            consistent,
            ..
        } => {
            let input = QueryInput {
                table_name,
                index_name: index.clone(),
                key_condition_expression: exprs.key_condition.clone(),
                key_conditions: exprs.legacy.key_conditions.clone(),
                query_filter: exprs.legacy.filter.clone(),
                attributes_to_get: exprs.legacy.attributes_to_get.clone(),
                conditional_operator: exprs.legacy.conditional_operator,
                filter_expression: exprs.filter.clone(),
                projection_expression: exprs.projection.clone(),
                expression_attribute_names: exprs.names.clone(),
                expression_attribute_values: exprs.values.clone(),
                select: *select,
                scan_index_forward: *forward,
                limit: *limit,
                exclusive_start_key: None,
                consistent_read: *consistent,
                ..Default::default()
            };
            let first = match backend.query(input.clone()).await {
                Ok(page) => page,
                Err(e) => return (Answer::error(e), 1),
            };
            let on_index = input.index_name.is_some();
            let mut next = input;
            next.exclusive_start_key = first.last_evaluated_key.clone();
            let (answer, n) = walk_rest(backend, next, vec![page_of(first)]).await;
            if on_index {
                (unordered(answer), n)
            } else {
                (answer, n)
            }
        }
        Op::BatchGet { reads } => (multi::batch_get(backend, names, reads).await, 1),
        Op::BatchWrite { writes } => (multi::batch_write(backend, names, writes).await, 1),
        Op::TransactGet { gets } => (multi::transact_get(backend, names, gets).await, 1),
        Op::Statement { statement, limit } => {
            partiql::execute(backend, names, statement, *limit).await
        }
        Op::BatchStatements { statements } => (partiql::batch(backend, names, statements).await, 1),
        Op::Transaction { statements } => {
            (partiql::transaction(backend, names, statements).await, 1)
        }
        Op::TransactWrite { actions, token } => (
            multi::transact_write(backend, names, actions, token.as_ref()).await,
            1,
        ),
        Op::Scan {
            index,
            exprs,
            select,
            limit,
            consistent,
            segments,
            ..
        } => {
            let base = ScanInput {
                table_name,
                index_name: index.clone(),
                filter_expression: exprs.filter.clone(),
                projection_expression: exprs.projection.clone(),
                scan_filter: exprs.legacy.filter.clone(),
                attributes_to_get: exprs.legacy.attributes_to_get.clone(),
                conditional_operator: exprs.legacy.conditional_operator,
                expression_attribute_names: exprs.names.clone(),
                expression_attribute_values: exprs.values.clone(),
                select: *select,
                limit: *limit,
                consistent_read: *consistent,
                ..Default::default()
            };
            let parts: Vec<(Option<i32>, Option<i32>)> = match *segments {
                Segments::Whole => vec![(None, None)],
                Segments::All(total) => (0..total).map(|s| (Some(s), Some(total))).collect(),
                Segments::Raw { segment, total } => vec![(segment, total)],
            };
            scan_walk(backend, base, parts).await
        }
    }
}

fn page_of(page: QueryOutput) -> Page {
    Page {
        items: page.items,
        count: page.count,
        scanned: page.scanned_count,
        last_key: page.last_evaluated_key,
    }
}

/// An index query's walk, compared like a scan: as a multiset of items with the totals. Index keys need
/// not be unique, and the order of items with equal index keys is undocumented (the engine orders them
/// by table key; DynamoDB Local does not), so page boundaries and keys may legitimately differ. Order by
/// index sort key is checked by the dual-backend index scenarios and the engine's unit tests instead.
fn unordered(answer: Answer) -> Answer {
    match answer {
        Answer::Pages { pages, error } => Answer::ScanWalk {
            count: pages.iter().map(|p| i64::from(p.count)).sum(),
            scanned: pages.iter().map(|p| i64::from(p.scanned)).sum(),
            items: pages
                .into_iter()
                .flat_map(|p| p.items.unwrap_or_default())
                .collect(),
            error,
        },
        other => other,
    }
}

/// The rest of a Query walk after its first page.
async fn walk_rest(
    backend: &dyn Backend,
    mut input: QueryInput,
    mut pages: Vec<Page>,
) -> (Answer, usize) {
    let mut error = None;
    while input.exclusive_start_key.is_some() && pages.len() < MAX_PAGES {
        match backend.query(input.clone()).await {
            Ok(page) => {
                input.exclusive_start_key = page.last_evaluated_key.clone();
                pages.push(page_of(page));
            }
            Err(e) => {
                error = Some((e.code().to_owned(), e.message()));
                break;
            }
        }
    }
    let n = pages.len() + usize::from(error.is_some());
    (Answer::Pages { pages, error }, n)
}

async fn scan_walk(
    backend: &dyn Backend,
    base: ScanInput,
    parts: Vec<(Option<i32>, Option<i32>)>,
) -> (Answer, usize) {
    let (mut items, mut count, mut scanned, mut requests) = (Vec::new(), 0i64, 0i64, 0usize);
    let mut error = None;
    'segments: for (segment, total_segments) in parts {
        let mut input = ScanInput {
            segment,
            total_segments,
            ..base.clone()
        };
        for _ in 0..MAX_PAGES {
            requests += 1;
            match backend.scan(input.clone()).await {
                Ok(page) => {
                    items.extend(page.items.unwrap_or_default());
                    count += i64::from(page.count);
                    scanned += i64::from(page.scanned_count);
                    match page.last_evaluated_key {
                        Some(key) => input.exclusive_start_key = Some(key),
                        None => continue 'segments,
                    }
                }
                Err(e) if requests == 1 => return (Answer::error(e), 1),
                Err(e) => {
                    error = Some((e.code().to_owned(), e.message()));
                    break 'segments;
                }
            }
        }
    }
    let answer = Answer::ScanWalk {
        items,
        count,
        scanned,
        error,
    };
    (answer, requests)
}
