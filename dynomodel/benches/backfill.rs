//! Backfills on the in-memory engine: items per second rewritten (a v1 table of `ITEMS` items, a
//! model adding a defaulted field keyed by a new global index: every item is rewritten), by
//! segment count, unbudgeted; then the write budget's accuracy: the units per second a budgeted
//! run consumed on a simulated clock, against the budget (the bar: within 10 %).
//!
//! `cargo bench -p dynomodel --bench backfill` (100,000 items; `BACKFILL_ITEMS=2000` for a quick
//! run).

#![allow(missing_docs, clippy::unwrap_used)]

use std::time::Instant;

use dynomodel::backfill::SimulatedClock;
use dynomodel::{Db, Model};
use dynomodel_mem::MemoryDb;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "bench")]
struct V1 {
    #[hash_key]
    id: String,
    name: String,
}

fn free() -> String {
    "free".into()
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "bench")]
#[global_index(all("by-tier", hash = tier, range = id))]
struct V2 {
    #[hash_key]
    id: String,
    name: String,
    #[dynomodel(default = "free")]
    tier: String,
}

/// A fresh engine holding `items` v1 items, with v2's index created.
async fn table(items: usize) -> Db {
    let db = Db::memory();
    db.create_schema::<V1>().await.unwrap();
    let all: Vec<V1> = (0..items)
        .map(|i| V1 {
            id: format!("user-{i:08}"),
            name: format!("User number {i}"),
        })
        .collect();
    db.batch_write().put_all(&all).await.unwrap();
    db.plan::<V2>().await.unwrap().apply(&db).await.unwrap();
    db
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let items: usize = std::env::var("BACKFILL_ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    println!("backfill of {items} items on the engine");
    for segments in [1, 4, 16] {
        let db = table(items).await;
        let start = Instant::now();
        let report = db.backfill::<V2>().segments(segments).await.unwrap();
        let secs = start.elapsed().as_secs_f64();
        assert_eq!(report.progress.rewritten as usize, items);
        println!(
            "  {segments:>2} segments: {:>9.0} items/s ({secs:.2} s, {:.0} WCU)",
            items as f64 / secs,
            report.progress.write_units
        );
    }

    // The budget: units per simulated second against the budget, on a tenth of the items.
    let sample = (items / 10).max(100);
    for budget in [50.0, 1000.0] {
        let db = table(sample).await;
        let report = db
            .backfill::<V2>()
            .segments(8)
            .write_budget(budget)
            .clock(SimulatedClock::new())
            .await
            .unwrap();
        let rate = report.progress.write_units / report.elapsed.as_secs_f64();
        println!(
            "  budget {budget:>6.0} WCU/s: {rate:>8.2} WCU/s over {:.1} simulated s ({:+.2} %)",
            report.elapsed.as_secs_f64(),
            (rate / budget - 1.0) * 100.0
        );
        assert!(
            (rate / budget - 1.0).abs() <= 0.10,
            "the budget is off by more than 10 %"
        );
    }
}
