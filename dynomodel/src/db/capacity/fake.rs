//! The recording fake set up for the capacity tests: it records what each request asked for
//! (`ReturnConsumedCapacity`) and, like DynamoDB, reports canned capacity only when asked.
//!
//! Figures: GetItem 0.5 RCU; PutItem/UpdateItem/DeleteItem 1 WCU; a Query or Scan page 0.5 RCU (two
//! pages of one item each); BatchGetItem 0.5 RCU per key, BatchWriteItem 1 WCU per write, per table;
//! TransactGetItems 2 RCU per item, TransactWriteItems 2 WCU per action, per table. `INDEXES` adds the
//! table's share and a GSI `g` costing 1 unit per request.

use std::collections::BTreeMap;

use crate::backend::testing::{op, Call, RecordingBackend};
use crate::backend::*;
use crate::error::Error;
use crate::value::{AttributeValue, Item};
use crate::Model;

/// A hash-key-only model on table `things`.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "things")]
pub(super) struct Thing {
    #[hash_key]
    pub id: String,
}

/// Another model, on table `others`.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "others")]
pub(super) struct Other {
    #[hash_key]
    pub id: String,
}

pub(super) fn thing(id: &str) -> Thing {
    Thing { id: id.into() }
}

fn thing_item(id: &str) -> Item {
    Item::from([("id".to_owned(), AttributeValue::S(id.into()))])
}

/// The recording fake with every request asking the figures above; `failing` answers each with an
/// error instead.
fn fake(failing: Option<Error>) -> RecordingBackend {
    let fake = RecordingBackend::new();
    let fail = move || match &failing {
        Some(e) => Err(e.clone()),
        None => Ok(()),
    };
    macro_rules! answer {
        ($op:ident, |$input:ident| $body:expr) => {{
            let fail = fail.clone();
            fake.on(op::$op, move |$input| {
                fail()?;
                Ok($body)
            });
        }};
    }
    answer!(get_item, |input| GetItemOutput {
        consumed_capacity: report(input.return_consumed_capacity, &input.table_name, 0.5, true),
        item: Some(input.key),
    });
    answer!(put_item, |input| PutItemOutput {
        consumed_capacity: report(
            input.return_consumed_capacity,
            &input.table_name,
            1.0,
            false
        ),
        ..Default::default()
    });
    answer!(update_item, |input| UpdateItemOutput {
        consumed_capacity: report(
            input.return_consumed_capacity,
            &input.table_name,
            1.0,
            false
        ),
        attributes: Some(input.key),
        ..Default::default()
    });
    answer!(delete_item, |input| DeleteItemOutput {
        consumed_capacity: report(
            input.return_consumed_capacity,
            &input.table_name,
            1.0,
            false
        ),
        ..Default::default()
    });
    answer!(query, |input| page(
        input.return_consumed_capacity,
        &input.table_name,
        input.exclusive_start_key.is_none()
    ));
    answer!(scan, |input| page(
        input.return_consumed_capacity,
        &input.table_name,
        input.exclusive_start_key.is_none()
    ));
    answer!(batch_get_item, |input| {
        let tables = input
            .request_items
            .iter()
            .flat_map(|(table, k)| k.keys.iter().map(move |_| table.as_str()));
        let consumed_capacity = per_table(input.return_consumed_capacity, tables, 0.5, true);
        let responses = input
            .request_items
            .into_iter()
            .map(|(table, k)| (table, k.keys))
            .collect();
        BatchGetItemOutput {
            responses,
            consumed_capacity,
            ..Default::default()
        }
    });
    answer!(batch_write_item, |input| {
        let tables = input
            .request_items
            .iter()
            .flat_map(|(table, w)| w.iter().map(move |_| table.as_str()));
        BatchWriteItemOutput {
            consumed_capacity: per_table(input.return_consumed_capacity, tables, 1.0, false),
            ..Default::default()
        }
    });
    answer!(transact_get_items, |input| {
        let tables = input.transact_items.iter().map(|g| g.table_name.as_str());
        TransactGetItemsOutput {
            responses: vec![None; input.transact_items.len()],
            consumed_capacity: per_table(input.return_consumed_capacity, tables, 2.0, true),
        }
    });
    answer!(transact_write_items, |input| {
        let tables = input
            .transact_items
            .iter()
            .map(TransactWriteItem::table_name);
        TransactWriteItemsOutput {
            consumed_capacity: per_table(input.return_consumed_capacity, tables, 2.0, false),
            ..Default::default()
        }
    });
    fake
}

/// The fake reporting capacity when asked.
pub(super) fn costly() -> RecordingBackend {
    fake(None)
}

/// The fake answering every request with `error`.
pub(super) fn failing(error: Error) -> RecordingBackend {
    fake(Some(error))
}

/// What each request asked for: `(operation, ReturnConsumedCapacity)`, taken.
pub(super) trait Asked {
    fn asked(&self) -> Vec<(&'static str, Option<ReturnConsumedCapacity>)>;
}

impl Asked for RecordingBackend {
    fn asked(&self) -> Vec<(&'static str, Option<ReturnConsumedCapacity>)> {
        self.take()
            .into_iter()
            .map(|call| {
                let ask = match &call {
                    Call::GetItem(i) => i.return_consumed_capacity,
                    Call::PutItem(i) => i.return_consumed_capacity,
                    Call::UpdateItem(i) => i.return_consumed_capacity,
                    Call::DeleteItem(i) => i.return_consumed_capacity,
                    Call::Query(i) => i.return_consumed_capacity,
                    Call::Scan(i) => i.return_consumed_capacity,
                    Call::BatchGetItem(i) => i.return_consumed_capacity,
                    Call::BatchWriteItem(i) => i.return_consumed_capacity,
                    Call::TransactGetItems(i) => i.return_consumed_capacity,
                    Call::TransactWriteItems(i) => i.return_consumed_capacity,
                    other => panic!("not a capacity request: {other:?}"),
                };
                (call.operation(), ask)
            })
            .collect()
    }
}

/// What a request that asked `ask` reports for `units` on `table` (nothing if it did not ask).
fn report(
    ask: Option<ReturnConsumedCapacity>,
    table: &str,
    units: f64,
    read: bool,
) -> Option<ConsumedCapacity> {
    let share = |units: f64| Capacity {
        capacity_units: Some(units),
        read_capacity_units: read.then_some(units),
        write_capacity_units: (!read).then_some(units),
    };
    match ask.unwrap_or_default() {
        ReturnConsumedCapacity::None => None,
        ReturnConsumedCapacity::Total => Some(ConsumedCapacity {
            table_name: table.into(),
            capacity_units: Some(units),
            ..Default::default()
        }),
        ReturnConsumedCapacity::Indexes => Some(ConsumedCapacity {
            table_name: table.into(),
            capacity_units: Some(units + 1.0),
            table: Some(share(units)),
            global_secondary_indexes: BTreeMap::from([("g".to_owned(), share(1.0))]),
            ..Default::default()
        }),
    }
}

fn per_table<'a>(
    ask: Option<ReturnConsumedCapacity>,
    tables: impl Iterator<Item = &'a str>,
    unit: f64,
    read: bool,
) -> Vec<ConsumedCapacity> {
    let mut counts: BTreeMap<&str, f64> = BTreeMap::new();
    for table in tables {
        *counts.entry(table).or_default() += unit;
    }
    counts
        .into_iter()
        .filter_map(|(table, units)| report(ask, table, units, read))
        .collect()
}

/// Two pages of one item each: the first (no start key) continues, the second ends.
fn page(ask: Option<ReturnConsumedCapacity>, table: &str, first: bool) -> QueryOutput {
    let id = if first { "a" } else { "b" };
    QueryOutput {
        items: Some(vec![thing_item(id)]),
        count: 1,
        scanned_count: 1,
        last_evaluated_key: first.then(|| thing_item(id)),
        consumed_capacity: report(ask, table, 0.5, true),
    }
}
