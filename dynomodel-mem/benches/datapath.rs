//! The engine's data path (figures in docs/performance.md): put, get, a Query of 20, a Scan page and a conditional
//! UpdateItem on a table of 10,000 items of 8 attributes (~149 bytes by DynamoDB's size rule), each on
//! the engine directly (the `Backend` request types) and through the mapper (`Db` with a derived model).
//! The memory figure (bytes per item at 100k and 1M items) is the `memory` bench binary; Dynoxide as a
//! peer is the opt-in crate `benches/peer` (not in the workspace, so CI never compiles SQLite).
//!
//! `cargo bench -p dynomodel-mem --bench datapath -- --warm-up-time 1 --measurement-time 2`

#![allow(missing_docs, clippy::unwrap_used)]

use std::future::IntoFuture;

use criterion::{criterion_group, criterion_main, Criterion};
use dynomodel::backend::{Backend, GetItemInput, PutItemInput, ScanInput};
use dynomodel::Db;

#[path = "support/profile.rs"]
mod profile;
use profile::{profile, Profile};
#[path = "support/workload.rs"]
#[allow(dead_code)] // each bench uses part of the shared workload
mod workload;
use workload::{item, key, populate, query_20, update, ITEMS, PARTITION, TABLE};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

fn block<F: IntoFuture>(rt: &tokio::runtime::Runtime, request: F) -> F::Output {
    rt.block_on(request.into_future())
}

/// Walks the items with a stride coprime to their number, so no run measures one hot cache line.
fn step(next: &mut usize, modulo: usize) -> usize {
    *next = (*next + 7919) % modulo;
    *next
}

fn engine(c: &mut Criterion) {
    let rt = runtime();
    let backend = rt.block_on(populate(ITEMS));
    let mut group = c.benchmark_group("engine");
    let mut next = 0;
    group.bench_function("put", |b| {
        b.iter(|| {
            let i = step(&mut next, ITEMS);
            let input = PutItemInput {
                table_name: TABLE.into(),
                item: item(i),
                ..Default::default()
            };
            block(&rt, backend.put_item(input)).unwrap()
        })
    });
    group.bench_function("get", |b| {
        b.iter(|| {
            let i = step(&mut next, ITEMS);
            let input = GetItemInput {
                table_name: TABLE.into(),
                key: key(i),
                ..Default::default()
            };
            let got = block(&rt, backend.get_item(input)).unwrap();
            assert!(got.item.is_some());
            got
        })
    });
    group.bench_function("query_20", |b| {
        b.iter(|| {
            let p = step(&mut next, ITEMS / PARTITION);
            let out = block(&rt, backend.query(query_20(p))).unwrap();
            assert_eq!(out.count, 20);
            out
        })
    });
    group.bench_function("scan_page_100", |b| {
        b.iter(|| {
            let input = ScanInput {
                table_name: TABLE.into(),
                limit: Some(100),
                ..Default::default()
            };
            let out = block(&rt, backend.scan(input)).unwrap();
            assert_eq!(out.count, 100);
            out
        })
    });
    group.bench_function("update_conditional", |b| {
        b.iter(|| {
            let i = step(&mut next, ITEMS);
            block(&rt, backend.update_item(update(i))).unwrap()
        })
    });
    group.finish();
}

fn mapper(c: &mut Criterion) {
    let rt = runtime();
    let db = Db::new(rt.block_on(populate(ITEMS)));
    let profiles: Vec<Profile> = (0..ITEMS).map(profile).collect();
    let mut group = c.benchmark_group("mapper");
    let mut next = 0;
    group.bench_function("put", |b| {
        b.iter(|| {
            let i = step(&mut next, ITEMS);
            // The raw bench builds its item inside the loop too: a clone of the model is the same work.
            let p = profiles[i].clone();
            block(&rt, db.put(&p)).unwrap()
        })
    });
    group.bench_function("get", |b| {
        b.iter(|| {
            let i = step(&mut next, ITEMS);
            let p = &profiles[i];
            let got = block(&rt, db.get::<Profile>((p.pk.clone(), p.sk))).unwrap();
            assert!(got.is_some());
            got
        })
    });
    group.bench_function("query_20", |b| {
        b.iter(|| {
            let p = step(&mut next, ITEMS / PARTITION);
            let rows = block(
                &rt,
                db.query::<Profile>(format!("user{p:04}"))
                    .range(Profile::sk().between(10, 29))
                    .all(),
            )
            .unwrap();
            assert_eq!(rows.len(), 20);
            rows
        })
    });
    group.bench_function("scan_page_100", |b| {
        b.iter(|| {
            let page = block(&rt, db.scan::<Profile>().limit(100).dynamodb_page(None)).unwrap();
            assert_eq!(page.items.len(), 100);
            page
        })
    });
    group.bench_function("update_conditional", |b| {
        b.iter(|| {
            let i = step(&mut next, ITEMS);
            let p = &profiles[i];
            block(
                &rt,
                db.update::<Profile>((p.pk.clone(), p.sk))
                    .incr(Profile::score(), 1)
                    .condition(Profile::active().eq(true)),
            )
            .unwrap()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = engine, mapper
}
criterion_main!(benches);
