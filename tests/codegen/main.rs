//! The code generator (`dynomodel::codegen`) on the engine: the source generated from each fixture
//! table (`fixtures.rs`) is exactly its golden file, `golden/<table>.rs`. The dual scenario `codegen`
//! compiles those files into the suite and round-trips every sampled item through them on every
//! target; this binary does not include them, so that a generator whose output no longer compiles
//! can still write new ones: `DYNOMODEL_BLESS=1 cargo test -p dynomodel-tests --test codegen`, then
//! read the diff.

mod fixtures;

use std::path::PathBuf;

use dynomodel::codegen::TableSample;

/// The golden file of a fixture table.
fn golden(label: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("codegen/golden").join(format!("{label}.rs"))
}

#[tokio::test]
async fn generated_sources_match_their_golden_files() {
    let bless = std::env::var("DYNOMODEL_BLESS").as_deref() == Ok("1");
    let mut stale = Vec::new();
    for label in fixtures::TABLES {
        let db = dynomodel_mem::memory();
        fixtures::seed(&db, label).await.unwrap();
        let sample = TableSample::read(&db, &fixtures::table_name(&db, label), 100).await.unwrap();
        let source = sample.to_rust();
        let path = golden(label);
        if bless {
            std::fs::write(&path, &source).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
            eprintln!("--- {} is stale; generated now:\n{source}", path.display());
            stale.push(label);
        }
    }
    assert!(stale.is_empty(), "stale golden files (DYNOMODEL_BLESS=1 rewrites them): {stale:?}");
}
