//! Dynoxide 3.2 (`Database::memory()`, SQLite in memory) and the engine in one run, on the `datapath`
//! workload: put, get, a Query of 20, a Scan page of 100, a conditional UpdateItem on 10,000 items of
//! 149 bytes. Each side gets typed requests built inside the timed loop, as the `datapath` bench does.

#![allow(missing_docs, clippy::unwrap_used)]

use std::collections::HashMap;

use criterion::{criterion_group, criterion_main, Criterion};
use dynoxide::actions::{
    get_item::GetItemRequest, put_item::PutItemRequest, query::QueryRequest, scan::ScanRequest,
    update_item::UpdateItemRequest,
};
use dynoxide::types::AttributeValue as Dx;
use dynoxide::Database;

mod convert;
#[path = "../../support/workload.rs"]
#[allow(dead_code)]
mod workload;

use workload::{item, key, ITEMS, PARTITION, TABLE};

fn populate() -> Database {
    let db = Database::memory().unwrap();
    let create = serde_json::from_value(serde_json::json!({
        "TableName": TABLE,
        "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"}
        ],
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"}
        ],
        "BillingMode": "PAY_PER_REQUEST"
    }))
    .unwrap();
    db.create_table(create).unwrap();
    for i in 0..ITEMS {
        put(&db, i);
    }
    db
}

fn put(db: &Database, i: usize) {
    db.put_item(PutItemRequest {
        table_name: TABLE.into(),
        item: convert::item(&item(i)),
        ..Default::default()
    })
    .unwrap();
}

fn step(next: &mut usize, modulo: usize) -> usize {
    *next = (*next + 7919) % modulo;
    *next
}

fn dynoxide(c: &mut Criterion) {
    let db = populate();
    let mut group = c.benchmark_group("dynoxide");
    let mut next = 0;
    group.bench_function("put", |b| b.iter(|| put(&db, step(&mut next, ITEMS))));
    group.bench_function("get", |b| {
        b.iter(|| {
            let i = step(&mut next, ITEMS);
            let out = db
                .get_item(GetItemRequest {
                    table_name: TABLE.into(),
                    key: convert::item(&key(i)),
                    ..Default::default()
                })
                .unwrap();
            assert!(out.item.is_some());
            out
        })
    });
    group.bench_function("query_20", |b| {
        b.iter(|| {
            let p = step(&mut next, ITEMS / PARTITION);
            let out = db
                .query(QueryRequest {
                    table_name: TABLE.into(),
                    key_condition_expression: Some("#p = :p AND #s BETWEEN :lo AND :hi".into()),
                    expression_attribute_names: Some(HashMap::from([
                        ("#p".to_string(), "pk".to_string()),
                        ("#s".to_string(), "sk".to_string()),
                    ])),
                    expression_attribute_values: Some(HashMap::from([
                        (":p".to_string(), Dx::S(format!("user{p:04}"))),
                        (":lo".to_string(), Dx::N("10".into())),
                        (":hi".to_string(), Dx::N("29".into())),
                    ])),
                    scan_index_forward: true,
                    ..Default::default()
                })
                .unwrap();
            assert_eq!(out.count, 20);
            out
        })
    });
    group.bench_function("scan_page_100", |b| {
        b.iter(|| {
            let out = db
                .scan(ScanRequest {
                    table_name: TABLE.into(),
                    limit: Some(100),
                    ..Default::default()
                })
                .unwrap();
            assert_eq!(out.count, 100);
            out
        })
    });
    group.bench_function("update_conditional", |b| {
        b.iter(|| {
            let i = step(&mut next, ITEMS);
            db.update_item(UpdateItemRequest {
                table_name: TABLE.into(),
                key: convert::item(&key(i)),
                update_expression: Some("SET score = score + :d".into()),
                condition_expression: Some("active = :t".into()),
                expression_attribute_values: Some(HashMap::from([
                    (":d".to_string(), Dx::N("1".into())),
                    (":t".to_string(), Dx::BOOL(true)),
                ])),
                ..Default::default()
            })
            .unwrap()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = dynoxide
}
criterion_main!(benches);
