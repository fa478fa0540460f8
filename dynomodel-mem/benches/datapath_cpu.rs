//! The `datapath` workload's engine operations, each run a fixed number of times, reporting the CPU
//! time this thread used per operation (`/proc/thread-self/schedstat`, nanoseconds; Linux only) beside
//! the wall time. On a machine shared with other builds, wall-clock medians (criterion's) move by ±30%
//! between runs, while the CPU time a single-threaded loop uses moves by a few percent: the figure to
//! compare two builds with, run alternately (`docs/performance.md` shows how).
//!
//! `cargo bench -p dynomodel-mem --bench datapath_cpu [-- OP...] [-- --iterations N]`, OP among `put`,
//! `get`, `query_20`, `scan_page_100`, `update_conditional`; on a second table with a GSI,
//! `index_put` (a put that replaces an item: its index entry removed and written again),
//! `index_query_20` (a Query of 20 entries of the GSI) and `index_scan_page_100` (a Scan page of 100 of
//! the GSI); and the first five through the mapper (`mapper/put`, ..., the requests of `datapath`'s
//! mapper group: a `Db` over the same backend with the derived `Profile` model), so the mapper's
//! overhead over the raw engine is measured in CPU time and, under callgrind, in instructions (all by
//! default). `mapper/put_formatted` and `mapper/get_formatted` are `mapper/put` and `mapper/get` with
//! their model or key formatted from the item number as `put` and `get` format theirs
//! (`profile::formatted`), rather than taken from the vector of models: the like-for-like
//! comparison with the raw operations.

#![allow(missing_docs, clippy::unwrap_used)]

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use dynomodel::backend::{Backend, GetItemInput, PutItemInput, ScanInput};
use dynomodel::Db;
use dynomodel_mem::MemBackend;

#[path = "support/cpu.rs"]
mod cpu;
#[path = "support/profile.rs"]
mod profile;
use profile::{profile, Profile};
#[path = "support/workload.rs"]
#[allow(dead_code)] // each bench uses part of the shared workload
mod workload;
use workload::{item, key, populate, query_20, update, ITEMS, PARTITION, TABLE};

const OPS: [&str; 15] = [
    "put",
    "get",
    "query_20",
    "scan_page_100",
    "update_conditional",
    "index_put",
    "index_query_20",
    "index_scan_page_100",
    "mapper/put",
    "mapper/get",
    "mapper/query_20",
    "mapper/scan_page_100",
    "mapper/update_conditional",
    "mapper/put_formatted",
    "mapper/get_formatted",
];

/// The `mapper/*` operations' database (over the engine's backend) and every item as a model value
/// (taken from this vector as `datapath` does: its random access costs the mapper's operations a few
/// cache misses that the engine's, formatting their keys, do not pay; callgrind's instruction
/// counts do not see them).
struct Mapper {
    db: Db,
    profiles: Vec<Profile>,
}

/// Set once by `main` (a static, so `run` keeps its signature).
static MAPPER: OnceLock<Mapper> = OnceLock::new();

/// One operation on item (or partition) `i`.
async fn run(backend: &MemBackend, op: &str, i: usize) {
    match op {
        "put" => {
            let input = PutItemInput {
                table_name: TABLE.into(),
                item: item(i),
                ..Default::default()
            };
            backend.put_item(input).await.unwrap();
        }
        "get" => {
            let input = GetItemInput {
                table_name: TABLE.into(),
                key: key(i),
                ..Default::default()
            };
            assert!(backend.get_item(input).await.unwrap().item.is_some());
        }
        "query_20" => {
            let out = backend.query(query_20(i / PARTITION)).await.unwrap();
            assert_eq!(out.count, 20);
        }
        "scan_page_100" => {
            let input = ScanInput {
                table_name: TABLE.into(),
                limit: Some(100),
                ..Default::default()
            };
            assert_eq!(backend.scan(input).await.unwrap().count, 100);
        }
        "update_conditional" => {
            backend.update_item(update(i)).await.unwrap();
        }
        "index_put" => {
            let input = PutItemInput {
                table_name: GSI_TABLE.into(),
                item: item(i),
                ..Default::default()
            };
            backend.put_item(input).await.unwrap();
        }
        "index_query_20" => {
            let out = backend.query(index_query_20(i)).await.unwrap();
            assert_eq!(out.count, 20);
        }
        "index_scan_page_100" => {
            let input = ScanInput {
                table_name: GSI_TABLE.into(),
                index_name: Some("by-age".into()),
                limit: Some(100),
                ..Default::default()
            };
            assert_eq!(backend.scan(input).await.unwrap().count, 100);
        }
        mapper if mapper.starts_with("mapper/") => {
            let Mapper { db, profiles } = MAPPER.get().unwrap();
            match &mapper["mapper/".len()..] {
                "put" => {
                    // The raw op builds its item inside the loop too: a clone is the same work.
                    let p = profiles[i].clone();
                    db.put(&p).await.unwrap();
                }
                "get" => {
                    let p = &profiles[i];
                    let got = db.get::<Profile>((p.pk.clone(), p.sk)).await.unwrap();
                    assert!(got.is_some());
                }
                "query_20" => {
                    let p = i / PARTITION;
                    let rows = db
                        .query::<Profile>(format!("user{p:04}"))
                        .range(Profile::sk().between(10, 29))
                        .all()
                        .await
                        .unwrap();
                    assert_eq!(rows.len(), 20);
                }
                "scan_page_100" => {
                    let page = db
                        .scan::<Profile>()
                        .limit(100)
                        .dynamodb_page(None)
                        .await
                        .unwrap();
                    assert_eq!(page.items.len(), 100);
                }
                "put_formatted" => {
                    db.put(&profile::formatted(i)).await.unwrap();
                }
                "get_formatted" => {
                    let key = (format!("user{:04}", i / PARTITION), (i % PARTITION) as i64);
                    assert!(db.get::<Profile>(key).await.unwrap().is_some());
                }
                "update_conditional" => {
                    let p = &profiles[i];
                    db.update::<Profile>((p.pk.clone(), p.sk))
                        .incr(Profile::score(), 1)
                        .condition(Profile::active().eq(true))
                        .await
                        .unwrap();
                }
                other => panic!("unknown operation {other}"),
            }
        }
        other => panic!("unknown operation {other}"),
    }
}

/// One operation, to completion. Never inlined, so that callgrind finds it by name whatever the
/// compiler does with `run`'s future: `valgrind --tool=callgrind
/// --toggle-collect='*datapath_cpu::run_blocking*' <binary> --bench OP --iterations N` counts the
/// instructions of N operations (a pattern also matching `run`'s future would toggle twice).
#[inline(never)]
fn run_blocking(rt: &tokio::runtime::Runtime, backend: &MemBackend, op: &str, i: usize) {
    rt.block_on(run(backend, op, i));
}

fn main() {
    let Some((ops, iterations)) = cpu::parse_args(&OPS) else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let backend = rt.block_on(populate(ITEMS));
    if ops.iter().any(|op| op.starts_with("index_")) {
        rt.block_on(populate_gsi(&backend));
    }
    let profiles: Vec<Profile> = (0..ITEMS).map(profile).collect();
    // The formatted model is the stored item's.
    assert_eq!(profile::formatted(4321), profiles[4321]);
    let db = Db::new(backend.clone());
    assert!(MAPPER.set(Mapper { db, profiles }).is_ok());
    for op in ops {
        // The same walk as `datapath`: a stride coprime to the item count.
        let mut next = 0;
        let started = (Instant::now(), cpu::thread_cpu());
        for _ in 0..iterations {
            next = (next + 7919) % ITEMS;
            run_blocking(&rt, &backend, &op, next);
        }
        let wall = started.0.elapsed() / iterations;
        let cpu = started
            .1
            .zip(cpu::thread_cpu())
            .map(|(before, after)| (after - before) / iterations);
        let micros = |d: Duration| d.as_secs_f64() * 1e6;
        let op = match op.starts_with("mapper/") {
            true => op,
            false => format!("engine/{op}"),
        };
        match cpu {
            Some(cpu) => println!(
                "{op:<27} cpu {:>8.3} µs/op   wall {:>8.3} µs/op",
                micros(cpu),
                micros(wall)
            ),
            None => println!("{op:<27} wall {:>8.3} µs/op", micros(wall)),
        }
    }
}

/// The table of the index operations: the workload's items, with a GSI (projection ALL) keyed by
/// `age` (60 values, ~167 entries each) and `email`.
const GSI_TABLE: &str = "bench_gsi";

/// Creates and fills [`GSI_TABLE`] in `backend`.
async fn populate_gsi(backend: &MemBackend) {
    use dynomodel::backend::{
        AttributeDefinition, BillingMode, CreateTableInput, GlobalSecondaryIndex, KeySchemaElement,
        Projection, ProjectionType, ScalarAttributeType,
    };
    let def = |name: &str, ty| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ty,
    };
    backend
        .create_table(CreateTableInput {
            table_name: GSI_TABLE.into(),
            attribute_definitions: vec![
                def("pk", ScalarAttributeType::S),
                def("sk", ScalarAttributeType::N),
                def("age", ScalarAttributeType::N),
                def("email", ScalarAttributeType::S),
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "by-age".into(),
                key_schema: vec![
                    KeySchemaElement::hash("age"),
                    KeySchemaElement::range("email"),
                ],
                projection: Projection {
                    projection_type: ProjectionType::All,
                    non_key_attributes: vec![],
                },
                provisioned_throughput: None,
            }],
            billing_mode: Some(BillingMode::PayPerRequest),
            ..Default::default()
        })
        .await
        .unwrap();
    for i in 0..ITEMS {
        let input = PutItemInput {
            table_name: GSI_TABLE.into(),
            item: item(i),
            ..Default::default()
        };
        backend.put_item(input).await.unwrap();
    }
}

/// A Query of 20 entries of the GSI (`Limit` 20): the first of the partition of item `i`'s age.
fn index_query_20(i: usize) -> dynomodel::backend::QueryInput {
    let age = item(i).get("age").cloned().unwrap();
    dynomodel::backend::QueryInput {
        table_name: GSI_TABLE.into(),
        index_name: Some("by-age".into()),
        key_condition_expression: Some("age = :a".into()),
        expression_attribute_values: Some(dynomodel::Item::from([(":a".to_string(), age)])),
        limit: Some(20),
        ..Default::default()
    }
}
