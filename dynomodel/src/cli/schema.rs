//! `plan`, `apply` and `export`: the models' tables compared with the database, changed, or
//! written out as infrastructure as code.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::cli::connect::Connection;
use crate::cli::output::Output;
use crate::cli::Status;
use crate::error::Result;
use crate::migrate::{ApplyOptions, Format, Models, Plan, Progress};

/// `plan`'s options.
#[derive(Debug, Clone, Args)]
pub struct PlanArgs {
    /// Where the tables live.
    #[command(flatten)]
    pub connection: Connection,
}

/// `apply`'s options: [`ApplyOptions`]'.
#[derive(Debug, Clone, Args)]
pub struct ApplyArgs {
    /// Where the tables live.
    #[command(flatten)]
    pub connection: Connection,
    /// Delete global indexes the models no longer declare (their queries fail from then on).
    #[arg(long)]
    pub allow_index_drops: bool,
    /// Turn point-in-time recovery off where the models no longer declare it (the recovery window
    /// is lost).
    #[arg(long)]
    pub allow_recovery_off: bool,
    /// The longest wait, in seconds, for a table to be ACTIVE again after one step.
    #[arg(long, value_name = "SECONDS", default_value_t = 1800)]
    pub timeout: u64,
    /// The pause, in seconds, between two DescribeTable polls while waiting.
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    pub poll_interval: f64,
}

/// `export`'s options.
#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// cloudformation (a template, JSON), terraform (aws_dynamodb_table resources) or json (the
    /// CreateTable, UpdateTimeToLive and UpdateContinuousBackups requests).
    #[arg(long, value_name = "FORMAT", default_value = "cloudformation")]
    pub format: Format,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The plan for the models in the connection's database.
async fn compute(models: &Models, connection: &Connection) -> Result<Plan> {
    let definitions = models.definitions()?;
    connection.db().await.plan_all(&definitions).await
}

fn no_models(models: &Models, output: &Output) -> bool {
    if models.is_empty() {
        output.error("no models: name them with Models::new().with::<M>() in dynomodel::cli::run");
        return true;
    }
    false
}

pub(crate) async fn plan(models: &Models, args: &PlanArgs, output: &Output) -> Status {
    if no_models(models, output) {
        return Status::Failed;
    }
    let plan = match compute(models, &args.connection).await {
        Ok(plan) => plan,
        Err(e) => {
            output.error(&e.to_string());
            return Status::Failed;
        }
    };
    if !output.print(&format!("{plan}\n")) {
        return Status::Failed;
    }
    if plan.is_empty() {
        Status::Success
    } else {
        Status::ChangesPending
    }
}

pub(crate) async fn apply(models: &Models, args: &ApplyArgs, output: &Output) -> Status {
    if no_models(models, output) {
        return Status::Failed;
    }
    let Ok(poll_interval) = Duration::try_from_secs_f64(args.poll_interval) else {
        output.error(&format!(
            "--poll-interval {} is not a number of seconds",
            args.poll_interval
        ));
        return Status::Failed;
    };
    let db = args.connection.db().await;
    let plan = match models.definitions() {
        Ok(definitions) => db.plan_all(&definitions).await,
        Err(e) => Err(e),
    };
    let plan = match plan {
        Ok(plan) => plan,
        Err(e) => {
            output.error(&e.to_string());
            return Status::Failed;
        }
    };
    if !output.print(&format!("{plan}\n")) {
        return Status::Failed;
    }
    if plan.is_empty() {
        return Status::Success;
    }
    let mut options = ApplyOptions::default()
        .timeout(Duration::from_secs(args.timeout))
        .poll_interval(poll_interval);
    if args.allow_index_drops {
        options = options.allow_index_drops();
    }
    if args.allow_recovery_off {
        options = options.allow_recovery_off();
    }
    let progress = output.clone();
    options = options.on_progress(move |p| progress.note(&describe_progress(p)));
    match plan.apply_with(&db, options).await {
        Ok(()) => {
            output.note("applied");
            Status::Success
        }
        Err(e) => {
            output.error(&e.to_string());
            Status::Failed
        }
    }
}

fn describe_progress(progress: Progress<'_>) -> String {
    match progress {
        Progress::Started { index, total, step } => format!("[{}/{total}] {step}", index + 1),
        Progress::Waiting { table, waited } => {
            format!(
                "      waiting for {table} to be ACTIVE ({}s)",
                waited.as_secs()
            )
        }
        Progress::Skipped {
            index,
            total,
            step,
            reason,
        } => format!("[{}/{total}] skipped {step}: {reason}", index + 1),
        Progress::Done { index, total, .. } => format!("[{}/{total}] done", index + 1),
    }
}

pub(crate) fn export(models: &Models, args: &ExportArgs, output: &Output) -> Status {
    if no_models(models, output) {
        return Status::Failed;
    }
    let text = match models.export(args.format) {
        Ok(text) => text,
        Err(e) => {
            output.error(&e.to_string());
            return Status::Failed;
        }
    };
    match &args.output {
        None => {
            if output.print(&text) {
                Status::Success
            } else {
                Status::Failed
            }
        }
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => {
                output.note(&format!("wrote {}", path.display()));
                Status::Success
            }
            Err(e) => {
                output.error(&format!("cannot write {}: {e}", path.display()));
                Status::Failed
            }
        },
    }
}
