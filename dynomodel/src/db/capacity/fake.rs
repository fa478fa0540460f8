//! A fake backend for the capacity tests: it records what each request asked for
//! (`ReturnConsumedCapacity`) and, like DynamoDB, reports canned capacity only when asked.
//!
//! Figures: GetItem 0.5 RCU; PutItem/UpdateItem/DeleteItem 1 WCU; a Query or Scan page 0.5 RCU (two
//! pages of one item each); BatchGetItem 0.5 RCU per key, BatchWriteItem 1 WCU per write, per table;
//! TransactGetItems 2 RCU per item, TransactWriteItems 2 WCU per action, per table. `INDEXES` adds the
//! table's share and a GSI `g` costing 1 unit per request.

use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::backend::*;
use crate::error::{Error, Result};
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

/// Records `(operation, ReturnConsumedCapacity)` of every request.
#[derive(Debug, Default)]
pub(super) struct Costly {
    asked: Mutex<Vec<(&'static str, Option<ReturnConsumedCapacity>)>>,
    /// Answer every request with this error instead.
    failing: Option<Error>,
}

impl Costly {
    /// A fake that answers every request with `error`.
    pub(super) fn failing(error: Error) -> Costly {
        Costly {
            failing: Some(error),
            ..Default::default()
        }
    }

    pub(super) fn asked(&self) -> Vec<(&'static str, Option<ReturnConsumedCapacity>)> {
        std::mem::take(&mut *self.asked.lock().expect("not poisoned"))
    }

    fn ask(&self, op: &'static str, ask: Option<ReturnConsumedCapacity>) -> Result<()> {
        self.asked.lock().expect("not poisoned").push((op, ask));
        match &self.failing {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
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

#[async_trait::async_trait]
impl Backend for Costly {
    async fn get_item(&self, input: GetItemInput) -> Result<GetItemOutput> {
        self.ask("GetItem", input.return_consumed_capacity)?;
        Ok(GetItemOutput {
            item: Some(input.key),
            consumed_capacity: report(input.return_consumed_capacity, &input.table_name, 0.5, true),
        })
    }
    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput> {
        self.ask("PutItem", input.return_consumed_capacity)?;
        Ok(PutItemOutput {
            consumed_capacity: report(
                input.return_consumed_capacity,
                &input.table_name,
                1.0,
                false,
            ),
            ..Default::default()
        })
    }
    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput> {
        self.ask("UpdateItem", input.return_consumed_capacity)?;
        Ok(UpdateItemOutput {
            attributes: Some(input.key),
            consumed_capacity: report(
                input.return_consumed_capacity,
                &input.table_name,
                1.0,
                false,
            ),
            ..Default::default()
        })
    }
    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput> {
        self.ask("DeleteItem", input.return_consumed_capacity)?;
        Ok(DeleteItemOutput {
            consumed_capacity: report(
                input.return_consumed_capacity,
                &input.table_name,
                1.0,
                false,
            ),
            ..Default::default()
        })
    }
    async fn query(&self, input: QueryInput) -> Result<QueryOutput> {
        self.ask("Query", input.return_consumed_capacity)?;
        let ask = input.return_consumed_capacity;
        Ok(page(
            ask,
            &input.table_name,
            input.exclusive_start_key.is_none(),
        ))
    }
    async fn scan(&self, input: ScanInput) -> Result<ScanOutput> {
        self.ask("Scan", input.return_consumed_capacity)?;
        let ask = input.return_consumed_capacity;
        Ok(page(
            ask,
            &input.table_name,
            input.exclusive_start_key.is_none(),
        ))
    }
    async fn batch_get_item(&self, input: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        self.ask("BatchGetItem", input.return_consumed_capacity)?;
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
        Ok(BatchGetItemOutput {
            responses,
            consumed_capacity,
            ..Default::default()
        })
    }
    async fn batch_write_item(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        self.ask("BatchWriteItem", input.return_consumed_capacity)?;
        let tables = input
            .request_items
            .iter()
            .flat_map(|(table, w)| w.iter().map(move |_| table.as_str()));
        Ok(BatchWriteItemOutput {
            consumed_capacity: per_table(input.return_consumed_capacity, tables, 1.0, false),
            ..Default::default()
        })
    }
    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        self.ask("TransactGetItems", input.return_consumed_capacity)?;
        let tables = input.transact_items.iter().map(|g| g.table_name.as_str());
        Ok(TransactGetItemsOutput {
            responses: vec![None; input.transact_items.len()],
            consumed_capacity: per_table(input.return_consumed_capacity, tables, 2.0, true),
        })
    }
    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        self.ask("TransactWriteItems", input.return_consumed_capacity)?;
        let tables = input
            .transact_items
            .iter()
            .map(TransactWriteItem::table_name);
        Ok(TransactWriteItemsOutput {
            consumed_capacity: per_table(input.return_consumed_capacity, tables, 2.0, false),
            ..Default::default()
        })
    }
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
