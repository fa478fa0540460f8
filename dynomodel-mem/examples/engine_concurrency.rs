//! Requests per second of the engine itself (no HTTP) under 8 threads at once, on 8 tables and on
//! one: what the per-table locks change, without the server's own costs hiding it. Only the public
//! `Backend` API, so that the same file measures another build of the engine too.
//!
//! ```text
//! cargo run --release -p dynomodel-mem --example engine_concurrency -- [SECONDS] [RUNS]
//! ```

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use dynomodel::backend::{
    AttributeDefinition, Backend, BatchWriteItemInput, BillingMode, CreateTableInput, GetItemInput,
    KeySchemaElement, PutItemInput, ScalarAttributeType, WriteRequest,
};
use dynomodel::{AttributeValue, Item};
use dynomodel_mem::MemBackend;

const THREADS: usize = 8;
const ITEMS: usize = 1000;

/// The engine's futures are ready at once (no fault latency here): poll once.
fn now<T>(future: impl Future<Output = T>) -> T {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return value;
        }
    }
}

fn table(i: usize) -> String {
    format!("table-{i}")
}

fn item(pk: String, payload: usize) -> Item {
    [
        ("pk".to_owned(), AttributeValue::S(pk)),
        ("payload".to_owned(), AttributeValue::S("x".repeat(payload))),
    ]
    .into()
}

fn setup() -> MemBackend {
    let backend = MemBackend::new();
    for t in 0..THREADS {
        now(backend.create_table(CreateTableInput {
            table_name: table(t),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: ScalarAttributeType::S,
            }],
            key_schema: vec![KeySchemaElement::hash("pk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            ..Default::default()
        }))
        .expect("create");
        for i in 0..ITEMS {
            now(backend.put_item(PutItemInput {
                table_name: table(t),
                item: item(format!("item-{i}"), 100),
                ..Default::default()
            }))
            .expect("put");
        }
    }
    backend
}

/// What thread `t` does, and on which table.
type Assign = dyn Fn(usize) -> (Work, usize);

#[derive(Clone, Copy)]
enum Work {
    Get,
    Put,
    Batch,
}

/// Requests per second of the threads not running `Batch`.
fn phase(backend: &MemBackend, work: impl Fn(usize) -> (Work, usize), length: Duration) -> f64 {
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (backend, stop) = (backend.clone(), stop.clone());
            let (kind, on) = work(t);
            std::thread::spawn(move || {
                let mut made = 0usize;
                while !stop.load(Ordering::Relaxed) {
                    let i = made % ITEMS;
                    match kind {
                        Work::Get => {
                            let key = [("pk".to_owned(), AttributeValue::S(format!("item-{i}")))];
                            now(backend.get_item(GetItemInput {
                                table_name: table(on),
                                key: key.into(),
                                ..Default::default()
                            }))
                            .expect("get");
                        }
                        Work::Put => {
                            now(backend.put_item(PutItemInput {
                                table_name: table(on),
                                item: item(format!("new-{t}-{i}"), 100),
                                ..Default::default()
                            }))
                            .expect("put");
                        }
                        Work::Batch => {
                            let puts = (0..25)
                                .map(|j| WriteRequest::Put {
                                    item: item(format!("batch-{i}-{j}"), 4000),
                                })
                                .collect();
                            now(backend.batch_write_item(BatchWriteItemInput {
                                request_items: [(table(on), puts)].into(),
                                ..Default::default()
                            }))
                            .expect("batch");
                        }
                    }
                    made += 1;
                }
                if matches!(kind, Work::Batch) {
                    0
                } else {
                    made
                }
            })
        })
        .collect();
    std::thread::sleep(length);
    stop.store(true, Ordering::Relaxed);
    let made: usize = threads.into_iter().map(|t| t.join().expect("thread")).sum();
    made as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let length = Duration::from_secs_f64(args.first().copied().unwrap_or(1.0));
    let runs = args.get(1).copied().unwrap_or(3.0) as usize;
    let backend = setup();
    let phases: [(&str, Box<Assign>); 5] = [
        ("GetItem, 8 threads, 8 tables", Box::new(|t| (Work::Get, t))),
        ("GetItem, 8 threads, 1 table", Box::new(|_| (Work::Get, 0))),
        ("PutItem, 8 threads, 8 tables", Box::new(|t| (Work::Put, t))),
        ("PutItem, 8 threads, 1 table", Box::new(|_| (Work::Put, 0))),
        (
            "GetItem, 7 threads + 1 batch writer",
            Box::new(|t| {
                if t == 0 {
                    (Work::Batch, 0)
                } else {
                    (Work::Get, t)
                }
            }),
        ),
    ];
    for (label, work) in &phases {
        let mut results: Vec<f64> = (0..runs).map(|_| phase(&backend, work, length)).collect();
        results.sort_by(f64::total_cmp);
        println!(
            "{label:<40} {:>12.0} requests/s (median of {runs})",
            results[runs / 2]
        );
    }
}
