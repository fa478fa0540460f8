//! Differential testing: seeded random operation sequences applied to the in-memory engine and to
//! Amazon DynamoDB Local, every answer compared (items, error types, error messages).
//!
//! CI runs a fixed set of seeds; `DYNOMODEL_DIFF_SEEDS=N` runs N seeds, `DYNOMODEL_DIFF_FIRST_SEED=S`
//! starts elsewhere. A divergence fails the test with a shrunk, minimal reproducer.

#![allow(clippy::unwrap_used, missing_docs)]

mod apply;
mod generator;
mod known_differences;
mod rng;
mod runner;

use dynomodel_tests::{Dual, Target};
use runner::Side;

/// Generated operations per seed, a third of them batches and transactions. Page walks send several
/// requests each, so CI's default seeds send over 6,000 single-item, Query and Scan requests and over
/// 2,000 multi-item ones (each counted once per backend pair) in under a minute.
const OPS_PER_SEED: usize = 450;
const DEFAULT_SEEDS: u64 = 16;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_agrees_with_dynamodb_local() {
    compare(
        "differential",
        generator::operations,
        OPS_PER_SEED,
        DEFAULT_SEEDS,
    )
    .await;
}

/// The legacy forms (issue 14 §1) of the requests: Expected, AttributeUpdates, AttributesToGet,
/// KeyConditions, QueryFilter, ScanFilter and ConditionalOperator, in sequences of their own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_forms_agree_with_dynamodb_local() {
    compare("differential-legacy", generator::legacy::operations, 200, 8).await;
}

/// The PartiQL forms (issue 14 §2) of the requests: ExecuteStatement (INSERT, UPDATE, DELETE, and
/// SELECT walked with `NextToken`), BatchExecuteStatement and ExecuteTransaction, in sequences of their
/// own. 8 seeds of 160 operations (about 1,300 requests) took 12 s on a loaded 2-core machine;
/// `DYNOMODEL_DIFF_SEEDS=100` sends 17,000.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partiql_forms_agree_with_dynamodb_local() {
    compare(
        "differential-partiql",
        generator::partiql::operations,
        160,
        8,
    )
    .await;
}

/// Runs the seeds of one generator against the engine and DynamoDB Local.
async fn compare(
    label: &str,
    generate: fn(&mut rng::Rng, &[generator::TableSpec], usize) -> Vec<generator::Op>,
    ops_per_seed: usize,
    default_seeds: u64,
) {
    let Some(local) = Dual::new(Target::DynamoDbLocal, label) else {
        return;
    };
    let mem = dynomodel_tests::mem_backend();
    let left = Side {
        name: "engine",
        backend: mem.as_ref(),
    };
    let right = Side {
        name: "DynamoDB Local",
        backend: local.backend().as_ref(),
    };
    let first = env_u64("DYNOMODEL_DIFF_FIRST_SEED", 1);
    let seeds = env_u64("DYNOMODEL_DIFF_SEEDS", default_seeds);
    let run_id = std::process::id();
    let started = std::time::Instant::now();
    let mut counts = runner::Counts::new();
    for seed in first..first + seeds {
        let mut rng = rng::Rng::new(seed);
        let tables = generator::tables(&mut rng);
        let ops = generate(&mut rng, &tables, ops_per_seed);
        let prefix = format!("diff{run_id}_{}_{seed}", label.len());
        if let Err(divergence) = runner::run(
            &prefix,
            &tables,
            &ops,
            &left,
            &right,
            known_differences::reconcile,
            &mut counts,
        )
        .await
        {
            let report = runner::shrink(
                &prefix,
                &tables,
                &ops,
                divergence,
                &left,
                &right,
                known_differences::reconcile,
            )
            .await;
            panic!("seed {seed}: the engine and DynamoDB Local disagree\n{report}");
        }
    }
    let total: usize = counts.values().sum();
    let kinds: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!(
        "{label}: {seeds} seeds ({first}..{}), {total} operations ({}), 0 divergences, {:.1} s",
        first + seeds,
        kinds.join(", "),
        started.elapsed().as_secs_f64()
    );
}
