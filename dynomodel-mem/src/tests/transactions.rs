//! TransactWriteItems and TransactGetItems: atomicity and indexes, cancellation reasons, request errors
//! and their order, tokens, reads.

mod commit;
mod gets;
mod reasons;
mod requests;
mod tokens;

use dynomodel::backend::{
    Backend, GetItemInput, GlobalSecondaryIndex, KeySchemaElement, Projection, ProjectionType,
    QueryInput, ScalarAttributeType as T, TransactConditionCheck, TransactDelete, TransactPut,
    TransactUpdate, TransactWriteItem, TransactWriteItemsInput,
};
use dynomodel::{AttributeValue, CancellationReason, Error, Item};

use super::{def, item, table_input, values};
use crate::MemBackend;

/// A second action (or Get) on an item an earlier one names.
const ONE_ITEM: &str = "Transaction request cannot include multiple operations on one item";

/// Two tables: `acct` (pk S) with the GSI `by-g` (g S, all attributes), and `log` (pk S, sk N).
async fn engine() -> MemBackend {
    engine_on(MemBackend::new()).await
}

/// [`engine`]'s tables in `backend`.
async fn engine_on(backend: MemBackend) -> MemBackend {
    let mut acct = table_input("acct", T::S, None);
    acct.attribute_definitions.push(def("g", T::S));
    acct.global_secondary_indexes = vec![GlobalSecondaryIndex {
        index_name: "by-g".into(),
        key_schema: vec![KeySchemaElement::hash("g")],
        projection: Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: vec![],
        },
        provisioned_throughput: None,
    }];
    backend.create_table(acct).await.expect("acct");
    backend
        .create_table(table_input("log", T::S, Some(T::N)))
        .await
        .expect("log");
    backend
}

fn put(table: &str, item: Item) -> TransactWriteItem {
    TransactWriteItem::Put(TransactPut {
        table_name: table.into(),
        item,
        ..Default::default()
    })
}

fn put_if(table: &str, item: Item, condition: &str) -> TransactWriteItem {
    TransactWriteItem::Put(TransactPut {
        table_name: table.into(),
        item,
        condition_expression: Some(condition.into()),
        ..Default::default()
    })
}

fn update(
    table: &str,
    key: Item,
    expression: &str,
    vals: &[(&str, AttributeValue)],
) -> TransactWriteItem {
    TransactWriteItem::Update(TransactUpdate {
        table_name: table.into(),
        key,
        update_expression: expression.into(),
        expression_attribute_values: (!vals.is_empty()).then(|| item(vals)),
        ..Default::default()
    })
}

fn delete(table: &str, key: Item) -> TransactWriteItem {
    TransactWriteItem::Delete(TransactDelete {
        table_name: table.into(),
        key,
        ..Default::default()
    })
}

fn check(table: &str, key: Item, condition: &str) -> TransactWriteItem {
    TransactWriteItem::ConditionCheck(TransactConditionCheck {
        table_name: table.into(),
        key,
        condition_expression: condition.into(),
        ..Default::default()
    })
}

/// Options of an action, set after the fact.
trait Options: Sized {
    /// Sets `ExpressionAttributeValues` (replacing any).
    fn with_values(self, vals: &[(&str, AttributeValue)]) -> Self;
    /// Sets `ExpressionAttributeNames`.
    fn with_names(self, pairs: &[(&str, &str)]) -> Self;
    /// Sets `ConditionExpression`.
    fn with_condition(self, condition: &str) -> Self;
    /// Sets `ReturnValuesOnConditionCheckFailure=ALL_OLD`.
    fn all_old(self) -> Self;
}

impl Options for TransactWriteItem {
    fn with_values(mut self, vals: &[(&str, AttributeValue)]) -> Self {
        let v = Some(item(vals));
        match &mut self {
            TransactWriteItem::Put(a) => a.expression_attribute_values = v,
            TransactWriteItem::Update(a) => a.expression_attribute_values = v,
            TransactWriteItem::Delete(a) => a.expression_attribute_values = v,
            TransactWriteItem::ConditionCheck(a) => a.expression_attribute_values = v,
        }
        self
    }

    fn with_names(mut self, pairs: &[(&str, &str)]) -> Self {
        let v = super::names(pairs);
        match &mut self {
            TransactWriteItem::Put(a) => a.expression_attribute_names = v,
            TransactWriteItem::Update(a) => a.expression_attribute_names = v,
            TransactWriteItem::Delete(a) => a.expression_attribute_names = v,
            TransactWriteItem::ConditionCheck(a) => a.expression_attribute_names = v,
        }
        self
    }

    fn with_condition(mut self, condition: &str) -> Self {
        let c = Some(condition.to_owned());
        match &mut self {
            TransactWriteItem::Put(a) => a.condition_expression = c,
            TransactWriteItem::Update(a) => a.condition_expression = c,
            TransactWriteItem::Delete(a) => a.condition_expression = c,
            TransactWriteItem::ConditionCheck(a) => a.condition_expression = condition.to_owned(),
        }
        self
    }

    fn all_old(mut self) -> Self {
        let v = Some(dynomodel::backend::ReturnValuesOnConditionCheckFailure::AllOld);
        match &mut self {
            TransactWriteItem::Put(a) => a.return_values_on_condition_check_failure = v,
            TransactWriteItem::Update(a) => a.return_values_on_condition_check_failure = v,
            TransactWriteItem::Delete(a) => a.return_values_on_condition_check_failure = v,
            TransactWriteItem::ConditionCheck(a) => a.return_values_on_condition_check_failure = v,
        }
        self
    }
}

/// A key (or item) of `acct`.
fn acct(pk: &str, extra: &[(&str, AttributeValue)]) -> Item {
    let mut i = item(extra);
    i.insert("pk".into(), AttributeValue::S(pk.into()));
    i
}

/// A key of `log`.
fn log(pk: &str, sk: i64) -> Item {
    item(&[
        ("pk", AttributeValue::S(pk.into())),
        ("sk", AttributeValue::N(sk.into())),
    ])
}

async fn write(b: &MemBackend, actions: Vec<TransactWriteItem>) -> Result<(), Error> {
    write_with(b, actions, None).await
}

async fn write_with(
    b: &MemBackend,
    actions: Vec<TransactWriteItem>,
    token: Option<&str>,
) -> Result<(), Error> {
    b.transact_write_items(TransactWriteItemsInput {
        transact_items: actions,
        client_request_token: token.map(str::to_owned),
        ..Default::default()
    })
    .await
    .map(|_| ())
}

/// The stored item of `table` with this key.
async fn stored(b: &MemBackend, table: &str, key: Item) -> Option<Item> {
    b.get_item(GetItemInput {
        table_name: table.into(),
        key,
        ..Default::default()
    })
    .await
    .expect("get")
    .item
}

/// The `pk`s of the `by-g` index entries with `g = value`.
async fn by_g(b: &MemBackend, value: &str) -> Vec<String> {
    let out = b
        .query(QueryInput {
            table_name: "acct".into(),
            index_name: Some("by-g".into()),
            key_condition_expression: Some("g = :g".into()),
            expression_attribute_values: values(&[(":g", AttributeValue::S(value.into()))]),
            ..Default::default()
        })
        .await
        .expect("query");
    let mut pks: Vec<String> = out
        .items
        .iter()
        .flatten()
        .filter_map(|i| {
            i.get("pk")
                .and_then(AttributeValue::as_s)
                .map(str::to_owned)
        })
        .collect();
    pks.sort();
    pks
}

/// The cancellation reasons of a `TransactionCanceledException`, checking its message lists their codes.
#[track_caller]
fn reasons(r: Result<(), Error>) -> Vec<CancellationReason> {
    match r {
        Err(Error::TransactionCanceled { message, reasons }) => {
            let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
            assert_eq!(
                message,
                format!(
                    "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
                    codes.join(", ")
                )
            );
            reasons
        }
        other => panic!("expected TransactionCanceledException, got {other:?}"),
    }
}

/// A `ValidationError` reason with this message.
fn invalid(message: &str) -> CancellationReason {
    CancellationReason::new("ValidationError", message)
}

/// A `ConditionalCheckFailed` reason of a Put, Update or Delete.
fn failed(item: Option<Item>) -> CancellationReason {
    CancellationReason::new("ConditionalCheckFailed", "The conditional request failed")
        .with_item(item)
}
