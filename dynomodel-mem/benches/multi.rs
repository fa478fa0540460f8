//! What batches and transactions cost against the single-item operations they replace, measured in the
//! same run on the same table (10,000 items of ~150 bytes):
//!
//! - 25 items written by one BatchWriteItem vs by 25 PutItem calls;
//! - 100 items read by one BatchGetItem vs by 100 GetItem calls;
//! - a transfer (two conditional updates) as one TransactWriteItems vs as two UpdateItem calls;
//! - the same through the mapper: `db.batch_write()` of 25 models vs 25 `db.put`, `db.batch_get()` of
//!   100 keys vs 100 `db.get`, `db.transact()` of a transfer vs two `db.update`.
//!
//! `cargo bench -p dynomodel-mem --bench multi`

#![allow(missing_docs, clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::future::IntoFuture;

use criterion::{criterion_group, criterion_main, Criterion};
use dynomodel::backend::{
    AttributeDefinition, Backend, BatchGetItemInput, BatchWriteItemInput, BillingMode,
    CreateTableInput, GetItemInput, KeySchemaElement, KeysAndAttributes, PutItemInput,
    ScalarAttributeType, TransactUpdate, TransactWriteItem, TransactWriteItemsInput,
    UpdateItemInput, WriteRequest,
};
use dynomodel::{AttributeValue, Db, Item, Model, Number};
use dynomodel_mem::MemBackend;

const TABLE: &str = "bench";
const ITEMS: usize = 10_000;

/// The mapper's view of the benchmark table.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "bench")]
struct Account {
    #[hash_key]
    pk: String,
    balance: i64,
    payload: String,
}

fn account(i: usize) -> Account {
    Account {
        pk: format!("user{i}"),
        balance: 1_000_000,
        payload: "x".repeat(120),
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

/// Runs a request builder (an `IntoFuture`) to completion.
fn block<F: IntoFuture>(rt: &tokio::runtime::Runtime, request: F) -> F::Output {
    rt.block_on(request.into_future())
}

fn key(i: usize) -> Item {
    Item::from([("pk".to_string(), AttributeValue::S(format!("user{i}")))])
}

fn item(i: usize) -> Item {
    let mut item = key(i);
    item.insert("balance".into(), AttributeValue::N(Number::from(1_000_000)));
    item.insert("payload".into(), AttributeValue::S("x".repeat(120)));
    item
}

async fn populate() -> MemBackend {
    let backend = MemBackend::new();
    backend
        .create_table(CreateTableInput {
            table_name: TABLE.into(),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: ScalarAttributeType::S,
            }],
            key_schema: vec![KeySchemaElement::hash("pk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            ..Default::default()
        })
        .await
        .unwrap();
    for i in 0..ITEMS {
        backend
            .put_item(PutItemInput {
                table_name: TABLE.into(),
                item: item(i),
                ..Default::default()
            })
            .await
            .unwrap();
    }
    backend
}

/// `SET balance = balance + :d` on condition `balance >= :min`.
fn adjust(i: usize, delta: i64) -> (Item, String, String, Item) {
    let values = Item::from([
        (":d".to_string(), AttributeValue::N(Number::from(delta))),
        (
            ":min".to_string(),
            AttributeValue::N(Number::from(-delta.min(0))),
        ),
    ]);
    (
        key(i),
        "SET balance = balance + :d".to_owned(),
        "balance >= :min".to_owned(),
        values,
    )
}

fn writes(c: &mut Criterion) {
    let rt = runtime();
    let backend = rt.block_on(populate());
    let mut group = c.benchmark_group("write_25_items");
    let mut next = 0usize;
    group.bench_function("batch_write_item", |b| {
        b.iter(|| {
            next = (next + 25) % ITEMS;
            let requests = (next..next + 25)
                .map(|i| WriteRequest::Put {
                    item: item(i % ITEMS),
                })
                .collect();
            let input = BatchWriteItemInput {
                request_items: BTreeMap::from([(TABLE.to_owned(), requests)]),
                ..Default::default()
            };
            rt.block_on(backend.batch_write_item(input)).unwrap()
        })
    });
    group.bench_function("put_item_x25", |b| {
        b.iter(|| {
            next = (next + 25) % ITEMS;
            for i in next..next + 25 {
                let input = PutItemInput {
                    table_name: TABLE.into(),
                    item: item(i % ITEMS),
                    ..Default::default()
                };
                rt.block_on(backend.put_item(input)).unwrap();
            }
        })
    });
    group.finish();
}

fn reads(c: &mut Criterion) {
    let rt = runtime();
    let backend = rt.block_on(populate());
    let mut group = c.benchmark_group("read_100_items");
    let mut next = 0usize;
    group.bench_function("batch_get_item", |b| {
        b.iter(|| {
            next = (next + 100) % ITEMS;
            let keys = (next..next + 100).map(|i| key(i % ITEMS)).collect();
            let input = BatchGetItemInput {
                request_items: BTreeMap::from([(
                    TABLE.to_owned(),
                    KeysAndAttributes {
                        keys,
                        ..Default::default()
                    },
                )]),
                ..Default::default()
            };
            let out = rt.block_on(backend.batch_get_item(input)).unwrap();
            assert_eq!(out.responses[TABLE].len(), 100);
            out
        })
    });
    group.bench_function("get_item_x100", |b| {
        b.iter(|| {
            next = (next + 100) % ITEMS;
            for i in next..next + 100 {
                let input = GetItemInput {
                    table_name: TABLE.into(),
                    key: key(i % ITEMS),
                    ..Default::default()
                };
                assert!(rt.block_on(backend.get_item(input)).unwrap().item.is_some());
            }
        })
    });
    group.finish();
}

fn transfers(c: &mut Criterion) {
    let rt = runtime();
    let backend = rt.block_on(populate());
    let mut group = c.benchmark_group("transfer");
    let mut next = 0usize;
    group.bench_function("transact_write_items", |b| {
        b.iter(|| {
            next = (next + 2) % ITEMS;
            let transact_items = [(next, -1), ((next + 1) % ITEMS, 1)]
                .into_iter()
                .map(|(i, delta)| {
                    let (key, update, condition, values) = adjust(i, delta);
                    TransactWriteItem::Update(TransactUpdate {
                        table_name: TABLE.into(),
                        key,
                        update_expression: update,
                        condition_expression: Some(condition),
                        expression_attribute_values: Some(values),
                        ..Default::default()
                    })
                })
                .collect();
            let input = TransactWriteItemsInput {
                transact_items,
                client_request_token: None,
                ..Default::default()
            };
            rt.block_on(backend.transact_write_items(input)).unwrap()
        })
    });
    group.bench_function("update_item_x2", |b| {
        b.iter(|| {
            next = (next + 2) % ITEMS;
            for (i, delta) in [(next, -1), ((next + 1) % ITEMS, 1)] {
                let (key, update, condition, values) = adjust(i, delta);
                let input = UpdateItemInput {
                    table_name: TABLE.into(),
                    key,
                    update_expression: Some(update),
                    condition_expression: Some(condition),
                    expression_attribute_values: Some(values),
                    ..Default::default()
                };
                rt.block_on(backend.update_item(input)).unwrap();
            }
        })
    });
    group.finish();
}

/// The same three workloads through the mapper: typed models in, typed models out.
fn mapper(c: &mut Criterion) {
    let rt = runtime();
    let db = Db::new(block(&rt, populate()));
    let mut group = c.benchmark_group("mapper");
    let mut next = 0usize;
    group.bench_function("batch_write_25", |b| {
        b.iter(|| {
            next = (next + 25) % ITEMS;
            let accounts: Vec<Account> = (next..next + 25).map(|i| account(i % ITEMS)).collect();
            block(&rt, db.batch_write().put_all(&accounts)).unwrap()
        })
    });
    group.bench_function("put_x25", |b| {
        b.iter(|| {
            next = (next + 25) % ITEMS;
            for i in next..next + 25 {
                block(&rt, db.put(&account(i % ITEMS))).unwrap();
            }
        })
    });
    group.bench_function("batch_get_100", |b| {
        b.iter(|| {
            next = (next + 100) % ITEMS;
            let keys = (next..next + 100).map(|i| format!("user{}", i % ITEMS));
            let mut items = block(&rt, db.batch_get().keys::<Account>(keys)).unwrap();
            let accounts: Vec<Account> = items.take().unwrap();
            assert_eq!(accounts.len(), 100);
            accounts
        })
    });
    group.bench_function("get_x100", |b| {
        b.iter(|| {
            next = (next + 100) % ITEMS;
            for i in next..next + 100 {
                let got = block(&rt, db.get::<Account>(format!("user{}", i % ITEMS)));
                assert!(got.unwrap().is_some());
            }
        })
    });
    group.bench_function("transact_transfer", |b| {
        b.iter(|| {
            next = (next + 2) % ITEMS;
            let (from, to) = (format!("user{next}"), format!("user{}", (next + 1) % ITEMS));
            block(
                &rt,
                db.transact()
                    .update::<Account>(from, |u| {
                        u.decr(Account::balance(), 1)
                            .condition(Account::balance().ge(1))
                    })
                    .update::<Account>(to, |u| u.incr(Account::balance(), 1)),
            )
            .unwrap()
        })
    });
    group.bench_function("update_x2", |b| {
        b.iter(|| {
            next = (next + 2) % ITEMS;
            let (from, to) = (format!("user{next}"), format!("user{}", (next + 1) % ITEMS));
            block(
                &rt,
                db.update::<Account>(from)
                    .decr(Account::balance(), 1)
                    .condition(Account::balance().ge(1)),
            )
            .unwrap();
            block(&rt, db.update::<Account>(to).incr(Account::balance(), 1)).unwrap();
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = writes, reads, transfers, mapper
}
criterion_main!(benches);
