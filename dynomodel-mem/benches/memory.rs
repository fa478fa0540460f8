//! Memory per item (docs/performance.md): loads the `datapath` workload's items (149 bytes each by DynamoDB's
//! size rule) into one table and reports the growth of the resident set per item at 100k and 1M items.
//! The resident set (`/proc/self/statm`, Linux only) rather than a counting allocator: the workspace
//! forbids `unsafe`, which a `GlobalAlloc` impl needs; it includes the allocator's own overhead and
//! fragmentation, which is what a developer's machine pays.
//!
//! `cargo bench -p dynomodel-mem --bench memory`

#![allow(missing_docs, clippy::unwrap_used)]

#[path = "support/workload.rs"]
#[allow(dead_code)] // each bench uses part of the shared workload
mod workload;

use dynomodel::backend::ProjectionType;

/// The resident set in bytes (`None` off Linux).
fn resident() -> Option<usize> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that names another bench skips this one.
    if std::env::args()
        .skip(1)
        .any(|a| !a.starts_with("--") && !"memory".contains(a.as_str()))
    {
        return;
    }
    if let Ok(variant) = std::env::var(GSI) {
        return gsi(&variant);
    }
    let size = dynomodel::item_size(&workload::item(4242));
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let backend = dynomodel_mem::MemBackend::new();
    rt.block_on(workload::create(&backend));
    let Some(base) = resident() else {
        println!("memory: /proc/self/statm is not readable here; nothing measured");
        return;
    };
    let mut loaded = 0;
    for target in [100_000usize, 1_000_000] {
        while loaded < target {
            rt.block_on(workload::put(&backend, loaded));
            loaded += 1;
        }
        let grown = resident().unwrap_or(base).saturating_sub(base);
        let per_item = grown as f64 / target as f64;
        println!(
            "memory/{target}: {per_item:.0} bytes per item ({:.2}x the item size of {size} bytes)",
            per_item / size as f64
        );
    }
    // Each index variant in a process of its own: freed memory stays resident and would be reused.
    if let Ok(exe) = std::env::current_exe() {
        for variant in VARIANTS {
            let _ = std::process::Command::new(&exe)
                .env(GSI, variant.0)
                .status();
        }
    }
}

/// Set in the child process that measures a table with an index: the variant's name.
const GSI: &str = "DATAPATH_MEMORY_GSI";

/// The index variants: name, what it reports, global, projection type.
const VARIANTS: [(&str, &str, bool, ProjectionType); 4] = [
    ("gsi-all", "a GSI (ALL) on email", true, ProjectionType::All),
    (
        "gsi-include",
        "a GSI (INCLUDE name) on email",
        true,
        ProjectionType::Include,
    ),
    (
        "gsi-keys",
        "a GSI (KEYS_ONLY) on email",
        true,
        ProjectionType::KeysOnly,
    ),
    (
        "lsi-all",
        "an LSI (ALL) on email",
        false,
        ProjectionType::All,
    ),
];

/// Items in a table with index variant `name` (its key attribute `email` is unique, so every item
/// has an entry, and a GSI partition holds one entry): the growth beyond the plain table's is what
/// an index entry costs. Reports the entries' encoded size beside it (`IndexSizeBytes`).
fn gsi(name: &str) {
    let Some(&(_, what, global, projection)) = VARIANTS.iter().find(|v| v.0 == name) else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let backend = dynomodel_mem::MemBackend::new();
    rt.block_on(workload::create_indexed(&backend, global, projection));
    let Some(base) = resident() else { return };
    let mut loaded = 0;
    for target in [100_000usize, 1_000_000] {
        while loaded < target {
            rt.block_on(workload::put(&backend, loaded));
            loaded += 1;
        }
        let grown = resident().unwrap_or(base).saturating_sub(base);
        let entries = rt.block_on(index_size(&backend));
        println!(
            "memory/{target} with {what}: {:.0} bytes per item and its entry (entry {:.0} bytes by DynamoDB's rule)",
            grown as f64 / target as f64,
            entries as f64 / target as f64,
        );
    }
}

/// The index's `IndexSizeBytes`.
async fn index_size(backend: &dynomodel_mem::MemBackend) -> i64 {
    use dynomodel::backend::{Backend, DescribeTableInput};
    let out = backend
        .describe_table(DescribeTableInput {
            table_name: workload::TABLE.into(),
        })
        .await
        .unwrap();
    let gsi = out.table.global_secondary_indexes.iter();
    let lsi = out.table.local_secondary_indexes.iter();
    gsi.map(|i| i.index_size_bytes)
        .chain(lsi.map(|i| i.index_size_bytes))
        .sum()
}
