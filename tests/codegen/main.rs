//! The code generator (`dynomodel::codegen`) on the engine: the source generated from each fixture
//! table (`fixtures.rs`) is exactly its golden file, `golden/<table>.rs`. The dual scenario `codegen`
//! compiles those files into the suite and round-trips every sampled item through them on every
//! target; this binary does not include them, so that a generator whose output no longer compiles
//! can still write new ones: `DYNOMODEL_BLESS=1 cargo test -p dynomodel-tests --test codegen`, then
//! read the diff.

#![allow(clippy::unwrap_used)]

mod fixtures;

use std::path::PathBuf;

use dynomodel::backend::TableClass;
use dynomodel::codegen::{GenerateArgs, GenerateError, TableSample};
use dynomodel::Db;

/// The golden file of a fixture table.
fn golden(label: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("codegen/golden")
        .join(format!("{label}.rs"))
}

#[tokio::test]
async fn generated_sources_match_their_golden_files() {
    let bless = std::env::var("DYNOMODEL_BLESS").as_deref() == Ok("1");
    let mut stale = Vec::new();
    for label in fixtures::TABLES {
        let db = dynomodel_mem::memory();
        fixtures::seed(&db, label).await.unwrap();
        let sample = TableSample::read(&db, &fixtures::table_name(&db, label), 100)
            .await
            .unwrap();
        let source = sample.to_rust();
        let path = golden(label);
        if bless {
            std::fs::write(&path, &source).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
            eprintln!("--- {} is stale; generated now:\n{source}", path.display());
            stale.push(label);
        }
    }
    assert!(
        stale.is_empty(),
        "stale golden files (DYNOMODEL_BLESS=1 rewrites them): {stale:?}"
    );
}

/// The golden source of `label`.
fn golden_source(label: &str) -> String {
    std::fs::read_to_string(golden(label)).unwrap()
}

#[tokio::test]
async fn options_the_fixtures_do_not_set_are_declared() {
    let db = dynomodel_mem::memory();
    fixtures::seed(&db, "users").await.unwrap();
    let mut sample = TableSample::read(&db, "users", 100).await.unwrap();
    sample.table.table_class = Some(TableClass::StandardInfrequentAccess);
    sample.table.deletion_protection_enabled = true;
    let source = sample.to_rust();
    assert!(
        source.contains(
            "#[dynomodel(\n    table = \"users\",\n    stream = \"new_image\",\n    \
         table_class = \"standard_infrequent_access\",\n    deletion_protection,\n    \
         tags(\"team\" = \"growth\")\n)]\n"
        ),
        "{source}"
    );
}

#[tokio::test]
async fn an_empty_sample_declares_what_the_description_says() {
    let db = dynomodel_mem::memory();
    fixtures::seed(&db, "users").await.unwrap();
    fixtures::seed(&db, "tweets").await.unwrap();
    let users = TableSample::read(&db, "users", 0).await.unwrap();
    assert!(users.items.is_empty());
    let source = users.to_rust();
    assert!(source.contains("//! The sample is empty"), "{source}");
    // The time to live is declared though no item showed it.
    assert!(
        source.contains("    // not in the sample\n    #[ttl]\n    pub expires: Option<i64>,\n"),
        "{source}"
    );

    let source = TableSample::read(&db, "tweets", 0).await.unwrap().to_rust();
    for field in [
        "    #[range_key]\n    pub id: String,\n",
        "    // no value sampled: a whole number assumed\n    pub likes: i64,\n",
        "    // not in the sample\n    pub text: Option<dynomodel::AttributeValue>,\n",
    ] {
        assert!(source.contains(field), "{field} in\n{source}");
    }
}

#[tokio::test]
async fn a_sample_stops_at_its_size() {
    let db = dynomodel_mem::memory();
    fixtures::seed(&db, "tweets").await.unwrap();
    assert_eq!(
        TableSample::read(&db, "tweets", 2)
            .await
            .unwrap()
            .items
            .len(),
        2
    );
    assert_eq!(
        TableSample::read(&db, "tweets", 100)
            .await
            .unwrap()
            .items
            .len(),
        3
    );
}

#[tokio::test]
async fn a_missing_table_is_an_error_naming_it() {
    let db = dynomodel_mem::memory();
    let err = TableSample::read(&db, "nowhere", 10).await.unwrap_err();
    assert_eq!(err.code(), "ResourceNotFoundException");
    assert!(err.to_string().contains("nowhere"), "{err}");
}

/// The command against the engine's HTTP server: the file it writes is the golden source; a table
/// it cannot read and a file it cannot write are errors naming them.
#[tokio::test]
async fn the_generate_command_reads_a_server() {
    let engine = dynomodel_mem::MemBackend::new();
    fixtures::seed(&Db::new(engine.clone()), "tweets")
        .await
        .unwrap();
    let server = dynomodel_mem::server::Server::bind("127.0.0.1:0", engine)
        .await
        .unwrap();
    let out = std::env::temp_dir().join(format!("dynomodel-codegen-{}.rs", std::process::id()));
    let args = GenerateArgs {
        table: "tweets".into(),
        endpoint: dynomodel::cli::Endpoint {
            url: Some(server.url()),
            region: None,
        },
        sample: 100,
        out: Some(out.clone()),
    };
    let source = args.run().await.unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    assert_eq!(written, source);
    assert_eq!(source, golden_source("tweets"));

    let missing = GenerateArgs {
        table: "nowhere".into(),
        ..args.clone()
    };
    let err = missing.run().await.unwrap_err();
    assert!(
        matches!(&err, GenerateError::Read { source, .. } if source.code() == "ResourceNotFoundException")
    );
    assert!(
        err.to_string().starts_with("reading table `nowhere`: "),
        "{err}"
    );

    let unwritable = GenerateArgs {
        out: Some(std::env::temp_dir()),
        ..args
    };
    let err = unwritable.run().await.unwrap_err();
    assert!(matches!(err, GenerateError::Write { .. }), "{err}");
    assert!(
        err.to_string()
            .contains(&std::env::temp_dir().display().to_string()),
        "{err}"
    );
}

/// `dynomodel generate` (the standalone binary's command line, run in process) prints the golden
/// source; a missing table fails with exit code 1 and a line naming it.
#[tokio::test]
async fn the_dynomodel_binary_generates_to_its_output() {
    use dynomodel::cli::{run_tool_with, Status};
    use std::sync::{Arc, Mutex};

    let engine = dynomodel_mem::MemBackend::new();
    fixtures::seed(&Db::new(engine.clone()), "tweets")
        .await
        .unwrap();
    let server = dynomodel_mem::server::Server::bind("127.0.0.1:0", engine)
        .await
        .unwrap();
    let url = server.url();
    let run = |table: &'static str| {
        let url = url.clone();
        async move {
            let out = Arc::new(Mutex::new(Vec::new()));
            let err = Arc::new(Mutex::new(Vec::new()));
            let args = [
                "dynomodel",
                "generate",
                "--table",
                table,
                "--endpoint",
                &url,
            ];
            let status = run_tool_with(args, out.clone(), err.clone()).await;
            let text = |sink: Arc<Mutex<Vec<u8>>>| {
                String::from_utf8(sink.lock().unwrap().clone()).unwrap()
            };
            (status, text(out), text(err))
        }
    };
    let (status, out, err) = run("tweets").await;
    assert_eq!(status, Status::Success, "{err}");
    assert_eq!(out, golden_source("tweets"));

    let (status, out, err) = run("nowhere").await;
    assert_eq!(status, Status::Failed);
    assert_eq!(out, "");
    assert!(err.starts_with("error: reading table `nowhere`: "), "{err}");
}

#[tokio::test]
async fn models_never_shadow_the_names_the_file_uses() {
    let db = dynomodel_mem::memory();
    fixtures::seed(&db, "app").await.unwrap();
    let mut sample = TableSample::read(&db, "app", 100).await.unwrap();
    for item in &mut sample.items {
        if item["_et"] == dynomodel::AttributeValue::S("User".into()) {
            item.insert(
                "_et".into(),
                dynomodel::AttributeValue::S("Document".into()),
            );
        }
    }
    let source = sample.to_rust();
    assert!(
        source.contains("#[dynomodel(table = \"app\", entity = \"Document\")]\n"),
        "{source}"
    );
    assert!(source.contains("pub struct Document2 {"), "{source}");
    assert!(source.contains("    Document2(Document2),\n"), "{source}");
}
