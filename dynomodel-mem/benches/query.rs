//! Query cost against table size: 20 items from one partition of a 10k-item and a 1M-item table, on
//! the engine directly (a `QueryInput`) and through the mapper (`db.query::<Row>(..).range(..).all()`,
//! which adds rendering the expressions and decoding 20 typed structs). A Query is O(log n + k), so the
//! 10k and 1M figures should be close; the ratio is the point.
//!
//! With feature `server`, a third group: the same Query as a JSON request body through the server's wire
//! layer (`dynomodel_mem::__private::wire::respond`: parse, engine, the JSON response's bytes), without HTTP.
//!
//! `cargo bench -p dynomodel-mem --bench query [--features server]`

#![allow(missing_docs, clippy::unwrap_used)]

use std::collections::BTreeMap;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use dynomodel::backend::{
    AttributeDefinition, Backend, BillingMode, CreateTableInput, KeySchemaElement, PutItemInput,
    QueryInput, ScalarAttributeType,
};
use dynomodel::{AttributeValue, Db, Item, Model, Number};
use dynomodel_mem::MemBackend;

const TABLE: &str = "bench";

/// The mapper's view of the benchmark table.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "bench")]
struct Row {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: i64,
    payload: String,
}
/// Items per partition: a query reads 20 of them.
const PARTITION: usize = 100;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

async fn populate(items: usize) -> MemBackend {
    let backend = MemBackend::new();
    backend
        .create_table(CreateTableInput {
            table_name: TABLE.into(),
            attribute_definitions: vec![
                AttributeDefinition {
                    attribute_name: "pk".into(),
                    attribute_type: ScalarAttributeType::S,
                },
                AttributeDefinition {
                    attribute_name: "sk".into(),
                    attribute_type: ScalarAttributeType::N,
                },
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            ..Default::default()
        })
        .await
        .unwrap();
    let payload = AttributeValue::S("x".repeat(100));
    for i in 0..items {
        let mut item = Item::new();
        item.insert(
            "pk".into(),
            AttributeValue::S(format!("user{}", i / PARTITION)),
        );
        item.insert("sk".into(), AttributeValue::N(Number::from(i % PARTITION)));
        item.insert("payload".into(), payload.clone());
        backend
            .put_item(PutItemInput {
                table_name: TABLE.into(),
                item,
                ..Default::default()
            })
            .await
            .unwrap();
    }
    backend
}

fn query_20(partition: usize) -> QueryInput {
    let names = BTreeMap::from([
        ("#p".to_string(), "pk".to_string()),
        ("#s".to_string(), "sk".to_string()),
    ]);
    let values = Item::from([
        (
            ":p".to_string(),
            AttributeValue::S(format!("user{partition}")),
        ),
        (":lo".to_string(), AttributeValue::N(Number::from(10))),
        (":hi".to_string(), AttributeValue::N(Number::from(29))),
    ]);
    QueryInput {
        table_name: TABLE.into(),
        key_condition_expression: Some("#p = :p AND #s BETWEEN :lo AND :hi".into()),
        expression_attribute_names: Some(names),
        expression_attribute_values: Some(values),
        ..Default::default()
    }
}

fn engine_query(c: &mut Criterion) {
    let rt = runtime();
    let mut group = c.benchmark_group("engine_query_20_items");
    for items in [10_000usize, 1_000_000] {
        let backend = rt.block_on(populate(items));
        let partitions = items / PARTITION;
        let mut next = 0usize;
        group.bench_with_input(BenchmarkId::from_parameter(items), &items, |b, _| {
            b.iter(|| {
                // Walk the partitions so the benchmark does not measure one hot cache line.
                next = (next + 7919) % partitions;
                let output = rt.block_on(backend.query(query_20(next))).unwrap();
                assert_eq!(output.count, 20);
                output
            })
        });
    }
    group.finish();
}

fn mapper_query(c: &mut Criterion) {
    let rt = runtime();
    let mut group = c.benchmark_group("mapper_query_20_items");
    for items in [10_000usize, 1_000_000] {
        let db = Db::new(rt.block_on(populate(items)));
        let partitions = items / PARTITION;
        let mut next = 0usize;
        group.bench_with_input(BenchmarkId::from_parameter(items), &items, |b, _| {
            b.iter(|| {
                next = (next + 7919) % partitions;
                let rows = rt
                    .block_on(
                        db.query::<Row>(format!("user{next}"))
                            .range(Row::sk().between(10, 29))
                            .all(),
                    )
                    .unwrap();
                assert_eq!(rows.len(), 20);
                rows
            })
        });
    }
    group.finish();
}

#[cfg(feature = "server")]
fn wire_query(c: &mut Criterion) {
    let rt = runtime();
    let backend = rt.block_on(populate(10_000));
    let body =
        br##"{"TableName":"bench","KeyConditionExpression":"#p = :p AND #s BETWEEN :lo AND :hi",
        "ExpressionAttributeNames":{"#p":"pk","#s":"sk"},
        "ExpressionAttributeValues":{":p":{"S":"user7"},":lo":{"N":"10"},":hi":{"N":"29"}}}"##;
    let context = dynomodel_mem::__private::wire::Context::default();
    c.bench_function("wire_query_20_items/10000", |b| {
        b.iter(|| {
            rt.block_on(dynomodel_mem::__private::wire::respond(
                &context, &backend, "Query", body,
            ))
            .unwrap()
        })
    });
}

#[cfg(not(feature = "server"))]
fn wire_query(_: &mut Criterion) {}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = engine_query, mapper_query, wire_query
}
criterion_main!(benches);
