//! Memory per item (issue 15): loads the `datapath` workload's items (149 bytes each by DynamoDB's
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
    if std::env::var_os(GSI).is_some() {
        return gsi();
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
    // In a process of its own: freed memory stays resident and would be reused.
    if let Ok(exe) = std::env::current_exe() {
        let _ = std::process::Command::new(exe).env(GSI, "1").status();
    }
}

/// Set in the child process that measures the table with a GSI.
const GSI: &str = "DATAPATH_MEMORY_GSI";

/// 100k items in a table with a GSI of projection ALL on `email` (every item has an entry): the growth
/// beyond the plain table's is what an index entry costs.
fn gsi() {
    let items = 100_000usize;
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let backend = dynomodel_mem::MemBackend::new();
    rt.block_on(create_with_gsi(&backend));
    let Some(base) = resident() else { return };
    for i in 0..items {
        rt.block_on(workload::put(&backend, i));
    }
    let grown = resident().unwrap_or(base).saturating_sub(base);
    println!(
        "memory/{items} with a GSI (ALL): {:.0} bytes per item and its entry",
        grown as f64 / items as f64
    );
}

async fn create_with_gsi(backend: &dynomodel_mem::MemBackend) {
    use dynomodel::{
        AttributeDefinition, Backend, BillingMode, CreateTableInput, GlobalSecondaryIndex,
        KeySchemaElement, Projection, ProjectionType, ScalarAttributeType,
    };
    let s = |name: &str| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ScalarAttributeType::S,
    };
    backend
        .create_table(CreateTableInput {
            table_name: workload::TABLE.into(),
            attribute_definitions: vec![
                s("pk"),
                AttributeDefinition {
                    attribute_name: "sk".into(),
                    attribute_type: ScalarAttributeType::N,
                },
                s("email"),
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "by-email".into(),
                key_schema: vec![KeySchemaElement::hash("email")],
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
}
