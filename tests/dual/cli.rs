//! The schema command (`dynomodel::cli`) run in process, as an application's binary runs it:
//! `plan` (exit code 2 while changes are pending, 0 in sync), `apply` (its safety options and
//! progress), `describe`, and the standalone `dynomodel describe`. The command reaches its database
//! by `--endpoint`, so the scenarios run on the server and on DynamoDB Local; on the in-memory
//! engine (no endpoint) they return at once.

use std::sync::{Arc, Mutex};

use dynomodel::cli::{run_tool_with, run_with, Models, Status};
use dynomodel_tests::support::dynamodb_local_endpoint;

use super::*;

mod v1 {
    use dynomodel::Model;

    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "cli-posts")]
    pub(super) struct Post {
        #[hash_key]
        pub userid: String,
        #[range_key]
        pub id: String,
        pub city: String,
    }
}

mod v2 {
    use dynomodel::Model;

    /// v1 plus a global index.
    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "cli-posts")]
    #[global_index(keys("by-city", hash = city))]
    pub(super) struct Post {
        #[hash_key]
        pub userid: String,
        #[range_key]
        pub id: String,
        pub city: String,
    }
}

/// One run's exit status, standard output and standard error.
struct Run {
    status: Status,
    out: String,
    err: String,
}

fn text(sink: &Arc<Mutex<Vec<u8>>>) -> String {
    String::from_utf8(sink.lock().unwrap().clone()).unwrap()
}

/// The scenario's endpoint and namespace (its tables registered for deletion), or `None` on the
/// in-memory engine.
fn place(t: &Dual, name: &str) -> Option<(String, String)> {
    let endpoint = match t.target() {
        Target::Mem => return None,
        Target::Server => t.server_url()?,
        Target::DynamoDbLocal => dynamodb_local_endpoint(name)?,
    };
    let namespace = t.namespace();
    t.register_table(&format!("{namespace}cli-posts"));
    Some((endpoint, namespace))
}

async fn cli(models: &Models, args: &[&str], endpoint: &str, namespace: &str) -> Run {
    let out = Arc::new(Mutex::new(Vec::new()));
    let err = Arc::new(Mutex::new(Vec::new()));
    let mut argv = vec!["app"];
    argv.extend_from_slice(args);
    argv.extend(["--endpoint", endpoint, "--namespace", namespace]);
    let status = run_with(models, argv, out.clone(), err.clone()).await;
    Run {
        status,
        out: text(&out),
        err: text(&err),
    }
}

dual_test!(cli_plan_exits_2_until_apply_makes_the_tables_match, |t| {
    let Some((endpoint, ns)) = place(&t, "cli_plan_exits_2") else {
        return;
    };
    let models = Models::new().with::<v2::Post>();
    let plan = cli(&models, &["plan"], &endpoint, &ns).await;
    assert_eq!(plan.status, Status::ChangesPending, "{}", plan.err);
    assert_eq!(
        plan.out,
        format!(
            "+ create table {ns}cli-posts (userid HASH, id RANGE; PAY_PER_REQUEST), \
             GSI by-city (city HASH; KEYS_ONLY)\n"
        )
    );
    assert_eq!(plan.status.code(), 2);

    let apply = cli(
        &models,
        &["apply", "--poll-interval", "0.05"],
        &endpoint,
        &ns,
    )
    .await;
    assert_eq!(apply.status, Status::Success, "{}", apply.err);
    assert!(apply.out.starts_with("+ create table"), "{}", apply.out);
    assert!(apply.err.contains("[1/1] + create table"), "{}", apply.err);
    assert!(apply.err.contains("[1/1] done"), "{}", apply.err);
    assert!(apply.err.ends_with("applied\n"), "{}", apply.err);

    let again = cli(&models, &["plan"], &endpoint, &ns).await;
    assert_eq!(again.status, Status::Success, "{}", again.out);
    assert_eq!(again.out, "nothing to do\n");
    let apply_again = cli(&models, &["apply"], &endpoint, &ns).await;
    assert_eq!(apply_again.status, Status::Success);
    assert_eq!(apply_again.out, "nothing to do\n");
});

dual_test!(cli_apply_drops_an_index_only_with_its_flag, |t| {
    let Some((endpoint, ns)) = place(&t, "cli_apply_drops") else {
        return;
    };
    let with_index = Models::new().with::<v2::Post>();
    let run = cli(
        &with_index,
        &["apply", "--poll-interval", "0.05"],
        &endpoint,
        &ns,
    )
    .await;
    assert_eq!(run.status, Status::Success, "{}", run.err);

    let without = Models::new().with::<v1::Post>();
    let plan = cli(&without, &["plan"], &endpoint, &ns).await;
    assert_eq!(plan.status, Status::ChangesPending);
    assert_eq!(
        plan.out,
        format!("- delete GSI by-city on {ns}cli-posts (destructive: its queries fail)\n")
    );
    let refused = cli(&without, &["apply"], &endpoint, &ns).await;
    assert_eq!(refused.status, Status::Failed);
    assert!(
        refused.err.contains("pass ApplyOptions::allow_index_drops"),
        "{}",
        refused.err
    );
    // Nothing was sent.
    assert_eq!(
        cli(&without, &["plan"], &endpoint, &ns).await.status,
        Status::ChangesPending
    );
    let allowed = cli(
        &without,
        &["apply", "--allow-index-drops", "--poll-interval", "0.05"],
        &endpoint,
        &ns,
    )
    .await;
    assert_eq!(allowed.status, Status::Success, "{}", allowed.err);
    assert_eq!(
        cli(&without, &["plan"], &endpoint, &ns).await.status,
        Status::Success
    );
});

dual_test!(cli_describe_prints_the_live_tables, |t| {
    let Some((endpoint, ns)) = place(&t, "cli_describe") else {
        return;
    };
    let models = Models::new().with::<v2::Post>();
    // Before the table exists: said, and a failure.
    let missing = cli(&models, &["describe"], &endpoint, &ns).await;
    assert_eq!(missing.status, Status::Failed);
    assert_eq!(
        missing.out,
        format!("table {ns}cli-posts: does not exist\n")
    );
    assert!(missing.err.contains("no such table"), "{}", missing.err);

    cli(
        &models,
        &["apply", "--poll-interval", "0.05"],
        &endpoint,
        &ns,
    )
    .await;
    let run = cli(&models, &["describe"], &endpoint, &ns).await;
    assert_eq!(run.status, Status::Success, "{}", run.err);
    assert!(
        run.out
            .starts_with(&format!("table {ns}cli-posts (ACTIVE), 0 items")),
        "{}",
        run.out
    );
    assert!(
        run.out.contains("\n  keys: userid HASH, id RANGE\n"),
        "{}",
        run.out
    );
    assert!(
        run.out
            .contains("\n  GSI by-city (city HASH; KEYS_ONLY) ACTIVE"),
        "{}",
        run.out
    );

    // The standalone binary lists the tables of the namespace.
    let out = Arc::new(Mutex::new(Vec::new()));
    let err = Arc::new(Mutex::new(Vec::new()));
    let status = run_tool_with(
        [
            "dynomodel",
            "describe",
            "--endpoint",
            &endpoint,
            "--namespace",
            &ns,
        ],
        out.clone(),
        err.clone(),
    )
    .await;
    assert_eq!(status, Status::Success, "{}", text(&err));
    assert_eq!(text(&out), run.out);
});
