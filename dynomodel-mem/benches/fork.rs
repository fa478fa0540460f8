//! Forks (docs/performance.md, "Forks"): the time and memory of `MemBackend::fork` on a table of
//! the `datapath` items with a GSI (ALL) on their unique `email`, at 10k, 100k and 1M items, and what
//! the first writes to a fork cost (the tree nodes they copy) against the same writes on an
//! unshared table.
//!
//! Memory is the growth of the resident set (`/proc/self/statm`, Linux only), as `benches/memory.rs`
//! measures it (a counting allocator needs `unsafe`, which the workspace forbids): 100 forks kept
//! alive, divided by 100.
//!
//! `cargo bench -p dynomodel-mem --bench fork`

#![allow(missing_docs, clippy::unwrap_used)]

#[path = "support/workload.rs"]
#[allow(dead_code)] // each bench uses part of the shared workload
mod workload;

use std::time::{Duration, Instant};

use dynomodel::backend::{Backend, ProjectionType, PutItemInput};
use dynomodel_mem::MemBackend;

/// The resident set in bytes (`None` off Linux).
fn resident() -> Option<usize> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Writes to measure per engine.
const WRITES: usize = 1000;

/// Replaces item `i` (its GSI entry removed and written again).
async fn replace(backend: &MemBackend, i: usize) {
    let mut item = workload::item(i);
    item.insert("score".into(), dynomodel::AttributeValue::N(7.into()));
    backend
        .put_item(PutItemInput {
            table_name: workload::TABLE.into(),
            item,
            ..Default::default()
        })
        .await
        .unwrap();
}

/// The time of `WRITES` replacements spread over the table (a different leaf each, mostly).
async fn writes(backend: &MemBackend, items: usize) -> Duration {
    let started = Instant::now();
    for w in 0..WRITES {
        replace(backend, w * (items / WRITES)).await;
    }
    started.elapsed()
}

fn main() {
    if std::env::args()
        .skip(1)
        .any(|a| !a.starts_with("--") && !"fork".contains(a.as_str()))
    {
        return;
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let backend = MemBackend::new();
    rt.block_on(workload::create_indexed(
        &backend,
        true,
        ProjectionType::All,
    ));
    let base = resident().unwrap_or(0);
    let mut loaded = 0;
    for target in [10_000usize, 100_000, 1_000_000] {
        while loaded < target {
            rt.block_on(workload::put(&backend, loaded));
            loaded += 1;
        }
        let data = resident().unwrap_or(base).saturating_sub(base);

        // Time: the best and the median of 1,000 forks, each dropped at once.
        let mut times: Vec<Duration> = (0..1000)
            .map(|_| {
                let started = Instant::now();
                let fork = backend.fork();
                let took = started.elapsed();
                drop(fork);
                took
            })
            .collect();
        times.sort();

        // Memory: 100 forks alive.
        let before = resident().unwrap_or(0);
        let forks: Vec<MemBackend> = (0..100).map(|_| backend.fork()).collect();
        let per_fork = resident().unwrap_or(before).saturating_sub(before) / 100;
        drop(forks);

        // The first writes to a fork copy the nodes on their paths; the same writes on the parent
        // (no longer shared) copy nothing.
        let fork = backend.fork();
        let before = resident().unwrap_or(0);
        let on_fork = rt.block_on(writes(&fork, target));
        let fork_grew = resident().unwrap_or(before).saturating_sub(before);
        let again = rt.block_on(writes(&fork, target));
        drop(fork);
        let on_parent = rt.block_on(writes(&backend, target));
        println!(
            "fork/{target}: {:.1} µs median, {:.1} µs best; {per_fork} bytes per fork \
             ({:.4}% of the data's {} MB); {WRITES} first writes on a fork {:.2} µs each \
             (then {:.2} µs; {:.2} µs on an unshared table), {} KB copied",
            times[times.len() / 2].as_secs_f64() * 1e6,
            times[0].as_secs_f64() * 1e6,
            per_fork as f64 * 100.0 / data.max(1) as f64,
            data / 1_000_000,
            on_fork.as_secs_f64() * 1e6 / WRITES as f64,
            again.as_secs_f64() * 1e6 / WRITES as f64,
            on_parent.as_secs_f64() * 1e6 / WRITES as f64,
            fork_grew / 1000,
        );
    }
}
