//! The durable-mode figures of `docs/performance.md`, measured in one run:
//!
//! ```text
//! cargo run --release -p dynomodel-mem --features server --example durable_figures [DIR]
//! ```
//!
//! Write throughput of PutItem on the embedded engine, in memory and durable (`--sync 10ms`, `--sync
//! always`), from one writer and from eight; then recovery time for 1M items, from the log alone and
//! from a snapshot. DIR (default: the system's temp dir) is where the data directories go: put it on
//! the disk you care about, since `always` measures its fsync.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use dynomodel::backend::{
    AttributeDefinition, Backend, BatchWriteItemInput, BillingMode, CreateTableInput,
    KeySchemaElement, PutItemInput, ScalarAttributeType, WriteRequest,
};
use dynomodel::{AttributeValue, Item};
use dynomodel_mem::{MemBackend, SyncPolicy};

fn item(i: u64) -> Item {
    [
        ("pk".to_owned(), AttributeValue::S(format!("user#{i:08}"))),
        ("name".to_owned(), AttributeValue::S(format!("name {i}"))),
        (
            "email".to_owned(),
            AttributeValue::S(format!("u{i}@example.com")),
        ),
        ("n".to_owned(), AttributeValue::N(i.into())),
        (
            "active".to_owned(),
            AttributeValue::Bool(i.is_multiple_of(2)),
        ),
    ]
    .into()
}

async fn create(b: &MemBackend) {
    b.create_table(CreateTableInput {
        table_name: "bench".into(),
        attribute_definitions: vec![AttributeDefinition {
            attribute_name: "pk".into(),
            attribute_type: ScalarAttributeType::S,
        }],
        key_schema: vec![KeySchemaElement::hash("pk")],
        billing_mode: Some(BillingMode::PayPerRequest),
        ..Default::default()
    })
    .await
    .expect("create");
}

/// Puts per second from `writers` tasks, `per_writer` puts each.
async fn throughput(b: &MemBackend, writers: u64, per_writer: u64) -> f64 {
    let started = Instant::now();
    let tasks: Vec<_> = (0..writers)
        .map(|w| {
            let b = b.clone();
            tokio::spawn(async move {
                for i in 0..per_writer {
                    let input = PutItemInput {
                        table_name: "bench".into(),
                        item: item(w * 1_000_000_000 + i),
                        ..Default::default()
                    };
                    b.put_item(input).await.expect("put");
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("writer");
    }
    (writers * per_writer) as f64 / started.elapsed().as_secs_f64()
}

fn fresh(root: &Path, name: &str) -> PathBuf {
    let dir = root.join(format!("dynomodel-figures-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn dir_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let root = std::env::args()
        .nth(1)
        .map_or_else(std::env::temp_dir, PathBuf::from);
    println!("data directories under {}", root.display());
    println!("\nPutItem throughput (embedded engine, ~110-byte items):");
    for (label, policy, single, eight) in [
        ("in memory", None, 200_000, 25_000),
        (
            "durable, --sync 10ms",
            Some(SyncPolicy::Every(Duration::from_millis(10))),
            200_000,
            25_000,
        ),
        (
            "durable, --sync always",
            Some(SyncPolicy::Always),
            5_000,
            1_000,
        ),
    ] {
        let dir = fresh(&root, "throughput");
        let open = || match policy {
            None => MemBackend::new(),
            Some(p) => MemBackend::builder()
                .sync(p)
                .compact_after(u64::MAX)
                .open(&dir)
                .expect("open"),
        };
        let b = open();
        create(&b).await;
        let one = throughput(&b, 1, single).await;
        drop(b);
        let _ = std::fs::remove_dir_all(&dir);
        let b = open();
        create(&b).await;
        let many = throughput(&b, 8, eight).await;
        drop(b);
        let _ = std::fs::remove_dir_all(&dir);
        println!("  {label:<24} 1 writer: {one:>9.0}/s   8 writers: {many:>9.0}/s");
    }

    const ITEMS: u64 = 1_000_000;
    let dir = fresh(&root, "recovery");
    let b = MemBackend::builder()
        .sync(SyncPolicy::Every(Duration::from_millis(10)))
        .compact_after(u64::MAX)
        .open(&dir)
        .expect("open");
    create(&b).await;
    let started = Instant::now();
    let b = Arc::new(b);
    for chunk in 0..ITEMS / 25 {
        let requests = (0..25)
            .map(|i| WriteRequest::Put {
                item: item(chunk * 25 + i),
            })
            .collect();
        let input = BatchWriteItemInput {
            request_items: [("bench".to_owned(), requests)].into(),
            ..Default::default()
        };
        b.batch_write_item(input).await.expect("batch");
    }
    let loaded = started.elapsed();
    drop(b);
    println!(
        "\n1M items written (BatchWriteItem, --sync 10ms) in {loaded:.1?}; log: {} MB",
        dir_size(&dir) >> 20
    );
    let started = Instant::now();
    let b = MemBackend::open(&dir).expect("reopen");
    println!(
        "recovery from the log alone (40k records, 1M items): {:.2?}",
        started.elapsed()
    );
    let started = Instant::now();
    b.compact().expect("compact");
    println!(
        "snapshot of 1M items: {:.2?}; snapshot: {} MB",
        started.elapsed(),
        dir_size(&dir) >> 20
    );
    drop(b);
    let started = Instant::now();
    let b = MemBackend::open(&dir).expect("reopen");
    println!(
        "recovery from the snapshot (1M items): {:.2?}",
        started.elapsed()
    );
    drop(b);
    let _ = std::fs::remove_dir_all(&dir);
}
