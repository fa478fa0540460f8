//! What a request touches, as a rule matches it: its tables and keys, per entry for batches and
//! transactions. Built only when rules are armed.

use crate::backend::{
    BatchGetItemInput, BatchWriteItemInput, DeleteItemInput, GetItemInput, PutItemInput,
    QueryInput, ScanInput, TransactGetItemsInput, TransactWriteItem, TransactWriteItemsInput,
    UpdateItemInput, WriteRequest,
};
use crate::value::Item;

use super::rule::Operation;

/// A data-plane request, borrowed, as [`FaultHandle::check`](super::FaultHandle::check) matches
/// it against the rules: one variant per [`Operation`].
#[derive(Debug, Clone, Copy)]
pub enum Request<'a> {
    /// `PutItem`.
    PutItem(&'a PutItemInput),
    /// `GetItem`.
    GetItem(&'a GetItemInput),
    /// `UpdateItem`.
    UpdateItem(&'a UpdateItemInput),
    /// `DeleteItem`.
    DeleteItem(&'a DeleteItemInput),
    /// `Query`.
    Query(&'a QueryInput),
    /// `Scan`.
    Scan(&'a ScanInput),
    /// `BatchGetItem`.
    BatchGetItem(&'a BatchGetItemInput),
    /// `BatchWriteItem`.
    BatchWriteItem(&'a BatchWriteItemInput),
    /// `TransactGetItems`.
    TransactGetItems(&'a TransactGetItemsInput),
    /// `TransactWriteItems`.
    TransactWriteItems(&'a TransactWriteItemsInput),
}

impl<'a> Request<'a> {
    /// The request's operation.
    pub fn operation(&self) -> Operation {
        match self {
            Request::PutItem(_) => Operation::PutItem,
            Request::GetItem(_) => Operation::GetItem,
            Request::UpdateItem(_) => Operation::UpdateItem,
            Request::DeleteItem(_) => Operation::DeleteItem,
            Request::Query(_) => Operation::Query,
            Request::Scan(_) => Operation::Scan,
            Request::BatchGetItem(_) => Operation::BatchGetItem,
            Request::BatchWriteItem(_) => Operation::BatchWriteItem,
            Request::TransactGetItems(_) => Operation::TransactGetItems,
            Request::TransactWriteItems(_) => Operation::TransactWriteItems,
        }
    }

    /// The tables and keys it touches (a put: its item).
    pub(super) fn target(self) -> Target<'a> {
        match self {
            Request::PutItem(i) => Target::Item {
                table: &i.table_name,
                key: &i.item,
            },
            Request::GetItem(i) => Target::Item {
                table: &i.table_name,
                key: &i.key,
            },
            Request::UpdateItem(i) => Target::Item {
                table: &i.table_name,
                key: &i.key,
            },
            Request::DeleteItem(i) => Target::Item {
                table: &i.table_name,
                key: &i.key,
            },
            Request::Query(i) => Target::Table {
                table: &i.table_name,
            },
            Request::Scan(i) => Target::Table {
                table: &i.table_name,
            },
            Request::BatchGetItem(i) => Target::batch_get(i),
            Request::BatchWriteItem(i) => Target::batch_write(i),
            Request::TransactGetItems(i) => Target::transact_get(i),
            Request::TransactWriteItems(i) => Target::transact_write(i),
        }
    }
}

/// The tables and keys of one request.
#[derive(Debug)]
pub(super) enum Target<'a> {
    /// A single-item operation: the table and the key (or, for a put, the whole item).
    Item { table: &'a str, key: &'a Item },
    /// Query or Scan: a table, no key.
    Table { table: &'a str },
    /// A batch or a transaction: one `(table, key or item)` per entry, in request order.
    Entries(Vec<(&'a str, &'a Item)>),
}

impl<'a> Target<'a> {
    fn batch_write(input: &'a BatchWriteItemInput) -> Target<'a> {
        Target::Entries(
            input
                .request_items
                .iter()
                .flat_map(|(table, requests)| {
                    requests.iter().map(move |r| match r {
                        WriteRequest::Put { item } => (table.as_str(), item),
                        WriteRequest::Delete { key } => (table.as_str(), key),
                    })
                })
                .collect(),
        )
    }

    fn batch_get(input: &'a BatchGetItemInput) -> Target<'a> {
        Target::Entries(
            input
                .request_items
                .iter()
                .flat_map(|(table, k)| k.keys.iter().map(move |key| (table.as_str(), key)))
                .collect(),
        )
    }

    fn transact_get(input: &'a TransactGetItemsInput) -> Target<'a> {
        Target::Entries(
            input
                .transact_items
                .iter()
                .map(|g| (g.table_name.as_str(), &g.key))
                .collect(),
        )
    }

    fn transact_write(input: &'a TransactWriteItemsInput) -> Target<'a> {
        Target::Entries(
            input
                .transact_items
                .iter()
                .map(|action| match action {
                    TransactWriteItem::ConditionCheck(a) => (a.table_name.as_str(), &a.key),
                    TransactWriteItem::Put(a) => (a.table_name.as_str(), &a.item),
                    TransactWriteItem::Delete(a) => (a.table_name.as_str(), &a.key),
                    TransactWriteItem::Update(a) => (a.table_name.as_str(), &a.key),
                })
                .collect(),
        )
    }

    /// Whether a rule naming `table` and `key` matches, and at which entry first (0 for a
    /// single-item request or a rule with neither).
    pub(super) fn first_match(&self, table: Option<&str>, key: Option<&Item>) -> Option<usize> {
        let entry = |t: &str, k: &Item| {
            table.is_none_or(|want| same_table(want, t)) && key.is_none_or(|want| has_key(k, want))
        };
        match self {
            Target::Item { table, key } => entry(table, key).then_some(0),
            Target::Table { table: t } => {
                (key.is_none() && table.is_none_or(|want| same_table(want, t))).then_some(0)
            }
            Target::Entries(entries) => entries.iter().position(|(t, k)| entry(t, k)),
        }
    }

    /// How many entries (1 for a single-item request).
    pub(super) fn len(&self) -> usize {
        match self {
            Target::Entries(entries) => entries.len(),
            _ => 1,
        }
    }
}

/// A rule's table is a name; a request may name the table by ARN.
fn same_table(rule: &str, request: &str) -> bool {
    rule == request
        || request
            .rsplit_once(":table/")
            .is_some_and(|(_, name)| name == rule)
}

/// Every attribute of `want` is in `key` with an equal value.
fn has_key(key: &Item, want: &Item) -> bool {
    want.iter()
        .all(|(name, value)| key.get(name) == Some(value))
}
