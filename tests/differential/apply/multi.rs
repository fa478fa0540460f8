//! BatchGetItem, BatchWriteItem, TransactGetItems and TransactWriteItems: one request each, reduced to
//! an [`Answer`]. A batch's items are compared per table as a multiset (DynamoDB returns them in no
//! particular order); a transaction's reads in order.

use std::collections::BTreeMap;

use dynomodel::backend::{
    Backend, BatchGetItemInput, BatchWriteItemInput, KeysAndAttributes, TransactConditionCheck,
    TransactDelete, TransactGet, TransactGetItemsInput, TransactPut, TransactUpdate,
    TransactWriteItem, TransactWriteItemsInput, WriteRequest,
};

use super::{name_of, on_failure, Answer};
use crate::generator::{Action, ActionKind, Get, Read, Token, Write};

pub(super) async fn batch_get(backend: &dyn Backend, names: &[String], reads: &[Read]) -> Answer {
    let request_items = reads
        .iter()
        .map(|r| {
            let read = KeysAndAttributes {
                attributes_to_get: None,
                keys: r.keys.clone(),
                consistent_read: r.consistent,
                projection_expression: r.exprs.projection.clone(),
                expression_attribute_names: r.exprs.names.clone(),
            };
            (name_of(names, r.table), read)
        })
        .collect();
    match backend
        .batch_get_item(BatchGetItemInput {
            request_items,
            ..Default::default()
        })
        .await
    {
        Ok(out) => Answer::Batch {
            // A table with no items found may be reported with an empty list or not at all.
            tables: out
                .responses
                .into_iter()
                .filter(|(_, items)| !items.is_empty())
                .collect(),
            unprocessed: out.unprocessed_keys.values().map(|k| k.keys.len()).sum(),
        },
        Err(e) => Answer::error(e),
    }
}

pub(super) async fn batch_write(
    backend: &dyn Backend,
    names: &[String],
    writes: &[(crate::generator::TableRef, Vec<Write>)],
) -> Answer {
    let request_items = writes
        .iter()
        .map(|(table, list)| {
            let list = list
                .iter()
                .map(|w| match w {
                    Write::Put(item) => WriteRequest::Put { item: item.clone() },
                    Write::Delete(key) => WriteRequest::Delete { key: key.clone() },
                })
                .collect();
            (name_of(names, *table), list)
        })
        .collect();
    match backend
        .batch_write_item(BatchWriteItemInput {
            request_items,
            ..Default::default()
        })
        .await
    {
        Ok(out) => Answer::Batch {
            tables: BTreeMap::new(),
            unprocessed: out.unprocessed_items.values().map(Vec::len).sum(),
        },
        Err(e) => Answer::error(e),
    }
}

pub(super) async fn transact_get(backend: &dyn Backend, names: &[String], gets: &[Get]) -> Answer {
    let transact_items = gets
        .iter()
        .map(|g| TransactGet {
            table_name: name_of(names, g.table),
            key: g.key.clone(),
            projection_expression: g.exprs.projection.clone(),
            expression_attribute_names: g.exprs.names.clone(),
        })
        .collect();
    match backend
        .transact_get_items(TransactGetItemsInput {
            transact_items,
            ..Default::default()
        })
        .await
    {
        Ok(out) => Answer::Items(out.responses),
        Err(e) => Answer::error(e),
    }
}

fn action(names: &[String], a: &Action) -> TransactWriteItem {
    let table_name = name_of(names, a.table);
    let names_map = a.exprs.names.clone();
    let values = a.exprs.values.clone();
    let on_failure = on_failure(a.old_on_failure);
    match a.kind {
        ActionKind::ConditionCheck => TransactWriteItem::ConditionCheck(TransactConditionCheck {
            table_name,
            key: a.data.clone(),
            condition_expression: a.exprs.condition.clone().unwrap_or_default(),
            expression_attribute_names: names_map,
            expression_attribute_values: values,
            return_values_on_condition_check_failure: on_failure,
        }),
        ActionKind::Put => TransactWriteItem::Put(TransactPut {
            table_name,
            item: a.data.clone(),
            condition_expression: a.exprs.condition.clone(),
            expression_attribute_names: names_map,
            expression_attribute_values: values,
            return_values_on_condition_check_failure: on_failure,
        }),
        ActionKind::Delete => TransactWriteItem::Delete(TransactDelete {
            table_name,
            key: a.data.clone(),
            condition_expression: a.exprs.condition.clone(),
            expression_attribute_names: names_map,
            expression_attribute_values: values,
            return_values_on_condition_check_failure: on_failure,
        }),
        ActionKind::Update => TransactWriteItem::Update(TransactUpdate {
            table_name,
            key: a.data.clone(),
            update_expression: a.exprs.update.clone().unwrap_or_default(),
            condition_expression: a.exprs.condition.clone(),
            expression_attribute_names: names_map,
            expression_attribute_values: values,
            return_values_on_condition_check_failure: on_failure,
        }),
    }
}

pub(super) async fn transact_write(
    backend: &dyn Backend,
    names: &[String],
    actions: &[Action],
    token: Option<&Token>,
) -> Answer {
    // Pooled tokens are unique to the run (the table names carry the run's prefix): DynamoDB Local
    // remembers tokens across runs for ten minutes.
    let client_request_token = token.map(|t| match t {
        Token::Pooled(n) => format!("{}-t{n}", names[0]),
        Token::Raw(text) => text.clone(),
    });
    let input = TransactWriteItemsInput {
        transact_items: actions.iter().map(|a| action(names, a)).collect(),
        client_request_token,
        ..Default::default()
    };
    match backend.transact_write_items(input).await {
        Ok(_) => Answer::Ok(None),
        Err(e) => Answer::error(e),
    }
}
