//! `export` through the schema command (`dynomodel::cli`), which needs no database, and the
//! command's failures: each says what went wrong and exits 1.

use std::sync::{Arc, Mutex};

use dynomodel::cli::{run_with, Status};

use crate::models::examples;

fn run(args: &[&str]) -> (Status, String, String) {
    let out = Arc::new(Mutex::new(Vec::new()));
    let err = Arc::new(Mutex::new(Vec::new()));
    let models = examples()
        .into_iter()
        .find(|(name, _)| *name == "all")
        .map(|(_, models)| models)
        .unwrap();
    let mut argv = vec!["app"];
    argv.extend_from_slice(args);
    let status = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(run_with(&models, argv, out.clone(), err.clone()));
    let text =
        |sink: &Arc<Mutex<Vec<u8>>>| String::from_utf8(sink.lock().unwrap().clone()).unwrap();
    (status, text(&out), text(&err))
}

fn expected(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("export/expected")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn export_prints_each_format() {
    for (format, file) in [
        ("cloudformation", "all.cfn.json"),
        ("terraform", "all.tf"),
        ("json", "all.json"),
    ] {
        let (status, out, err) = run(&["export", "--format", format]);
        assert_eq!(status, Status::Success, "{err}");
        assert_eq!(out, expected(file), "{format}");
    }
    // CloudFormation is the default.
    assert_eq!(run(&["export"]).1, expected("all.cfn.json"));
}

#[test]
fn export_writes_a_file() {
    let path = std::env::temp_dir().join(format!("dynomodel-export-{}.tf", std::process::id()));
    let (status, out, err) = run(&[
        "export",
        "--format",
        "terraform",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(status, Status::Success, "{err}");
    assert!(out.is_empty());
    assert_eq!(err, format!("wrote {}\n", path.display()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected("all.tf"));
    let _ = std::fs::remove_file(&path);

    let (status, _, err) = run(&["export", "-o", "/nonexistent-dir/x.json"]);
    assert_eq!(status, Status::Failed);
    assert!(
        err.starts_with("error: cannot write /nonexistent-dir/x.json: "),
        "{err}"
    );
}

#[test]
fn bad_command_lines_and_unreachable_databases_exit_1() {
    let (status, out, err) = run(&["export", "--format", "yaml"]);
    assert_eq!((status, status.code()), (Status::Failed, 1));
    assert!(out.is_empty());
    assert!(
        err.contains("unknown export format `yaml`; expected cloudformation, terraform or json"),
        "{err}"
    );
    let (status, _, err) = run(&["frobnicate"]);
    assert_eq!(status, Status::Failed);
    assert!(
        err.contains("unrecognized subcommand 'frobnicate'"),
        "{err}"
    );
    // Help is output, and success.
    let (status, out, _) = run(&["plan", "--help"]);
    assert_eq!(status, Status::Success);
    assert!(out.contains("--endpoint <URL>"), "{out}");
    // Nothing listens on port 1: the plan fails, saying why, rather than reporting "in sync".
    let (status, out, err) = run(&["plan", "--endpoint", "http://127.0.0.1:1"]);
    assert_eq!(status, Status::Failed);
    assert!(out.is_empty(), "{out}");
    assert!(err.starts_with("error: "), "{err}");
}
