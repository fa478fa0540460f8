//! `dynomodel::cli` (feature `cli`): the schema command of an application's own pipeline. The
//! application names its models in a five-line binary:
//!
//! ```no_run
//! use dynomodel::cli::Models;
//! # use dynomodel::Model;
//! # #[derive(Model)] struct User { #[hash_key] id: String }
//! # #[derive(Model)] struct Order { #[hash_key] id: String }
//!
//! #[tokio::main]
//! async fn main() -> std::process::ExitCode {
//!     dynomodel::cli::run(Models::new().with::<User>().with::<Order>()).await
//! }
//! ```
//!
//! and gets these subcommands (each with `--help`):
//!
//! | command | what it does | exit code |
//! |---|---|---|
//! | `plan` | the dry run: what `apply` would change | 0 in sync, **2 changes pending** (or blocked), 1 error |
//! | `apply` | plans, prints the plan and runs it, reporting progress; `--allow-index-drops`, `--allow-recovery-off`, `--timeout`, `--poll-interval` are [`ApplyOptions`](crate::migrate::ApplyOptions)' | 0 done or nothing to do, 1 refused, blocked or failed |
//! | `export --format cloudformation\|terraform\|json` | the tables as infrastructure as code ([`Models::export`]), to standard output or `--output FILE` | 0, 1 error |
//! | `describe [TABLE]...` | the live tables (the models' when none is named) | 0, 1 error or a table missing |
//! | `generate --table TABLE` | Rust models for a live table, from a sample of its items ([`codegen`](crate::codegen)) | 0, 1 error |
//!
//! `plan`, `apply` and `describe` reach `--endpoint URL` (DynamoDB Local, `dynomodel-mem serve`,
//! with fixed dummy credentials) or, without it, Amazon DynamoDB configured the usual AWS way
//! ([`Db::from_env`](crate::Db::from_env)); `--namespace PREFIX` prefixes every table name.
//!
//! The standalone `dynomodel` binary (`cargo install dynomodel --features cli`) has what needs no
//! models: `describe` and `generate` ([`run_tool`]).

mod connect;
mod describe;
mod output;
mod schema;

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::{Parser, Subcommand};

pub use crate::migrate::{Format, Models};
pub use connect::{Connection, Endpoint};
pub use describe::DescribeArgs;
pub use output::Sink;
pub use schema::{ApplyArgs, ExportArgs, PlanArgs};

use output::Output;

/// What a command ended with; its [`code`](Status::code) is the process's exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Done; for `plan`, the tables match the models (0).
    Success,
    /// An error, a refused or blocked apply, a bad command line (1).
    Failed,
    /// `plan` found changes to make, or differences that block them (2).
    ChangesPending,
}

impl Status {
    /// The exit code: 0, 1 or 2.
    pub fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::Failed => 1,
            Status::ChangesPending => 2,
        }
    }
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        ExitCode::from(status.code())
    }
}

/// The command line of an application's schema binary.
#[derive(Debug, Parser)]
#[command(
    about = "Plan, apply, export and describe the DynamoDB tables of this application's models",
    disable_version_flag = true
)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands of [`Cli`].
#[derive(Debug, Subcommand)]
#[non_exhaustive]
pub enum Command {
    /// Show what `apply` would change (exit code 2 when there is something to do).
    Plan(PlanArgs),
    /// Make the tables match the models.
    Apply(ApplyArgs),
    /// Print the tables as a CloudFormation template, Terraform resources or API requests.
    Export(ExportArgs),
    /// Describe the live tables.
    Describe(DescribeArgs),
    /// Print Rust models generated from a live table and a sample of its items.
    Generate(crate::codegen::GenerateArgs),
}

/// The command line of the standalone `dynomodel` binary: what needs no models.
#[derive(Debug, Parser)]
#[command(
    name = "dynomodel",
    version,
    about = "Tools for DynamoDB tables: describe live tables, generate models from one (see dynomodel::cli for an application's schema command)"
)]
pub struct Tool {
    /// The subcommand.
    #[command(subcommand)]
    pub command: ToolCommand,
}

/// The subcommands of [`Tool`].
#[derive(Debug, Subcommand)]
#[non_exhaustive]
pub enum ToolCommand {
    /// Describe live tables (every table when none is named).
    Describe(DescribeArgs),
    /// Print Rust models generated from a live table and a sample of its items.
    Generate(crate::codegen::GenerateArgs),
}

/// Runs the command line of the process for `models`, printing to standard output and error.
pub async fn run(models: Models) -> ExitCode {
    run_with(
        &models,
        std::env::args_os(),
        Arc::new(Mutex::new(std::io::stdout())),
        Arc::new(Mutex::new(std::io::stderr())),
    )
    .await
    .into()
}

/// Runs the command line `args` (the program name first) for `models`, printing results to `out`
/// and diagnostics (errors, progress) to `err`: what [`run`] does, for tests and embedding.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use dynomodel::cli::{run_with, Models, Status};
/// # use dynomodel::Model;
/// # #[derive(Model)] #[dynomodel(table = "users")] struct User { #[hash_key] id: String }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let out = Arc::new(Mutex::new(Vec::new()));
/// let err = Arc::new(Mutex::new(Vec::new()));
/// let models = Models::new().with::<User>();
/// let status = run_with(&models, ["app", "export", "--format", "terraform"], out.clone(), err).await;
/// assert_eq!(status, Status::Success);
/// let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
/// assert!(text.starts_with("resource \"aws_dynamodb_table\" \"users\""));
/// # });
/// ```
pub async fn run_with<I, T>(models: &Models, args: I, out: Sink, err: Sink) -> Status
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let output = Output::new(out, err);
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return output.clap_error(&e),
    };
    execute(models, cli.command, &output).await
}

async fn execute(models: &Models, command: Command, output: &Output) -> Status {
    match command {
        Command::Plan(args) => schema::plan(models, &args, output).await,
        Command::Apply(args) => schema::apply(models, &args, output).await,
        Command::Export(args) => schema::export(models, &args, output),
        Command::Describe(args) => describe::run(Some(models), &args, output).await,
        Command::Generate(args) => generate(&args, output).await,
    }
}

/// `generate`: the source goes to `--out`, or to the results.
async fn generate(args: &crate::codegen::GenerateArgs, output: &Output) -> Status {
    let written = match args.source().await {
        Ok(source) => args
            .write_out(&source)
            .map(|to_file| to_file || output.print(&source)),
        Err(e) => Err(e),
    };
    match written {
        Ok(true) => Status::Success,
        Ok(false) => Status::Failed,
        Err(e) => {
            output.error(&e.to_string());
            Status::Failed
        }
    }
}

/// Runs the standalone `dynomodel` binary's command line `args` (the program name first).
pub async fn run_tool_with<I, T>(args: I, out: Sink, err: Sink) -> Status
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let output = Output::new(out, err);
    let tool = match Tool::try_parse_from(args) {
        Ok(tool) => tool,
        Err(e) => return output.clap_error(&e),
    };
    match tool.command {
        ToolCommand::Describe(args) => describe::run(None, &args, &output).await,
        ToolCommand::Generate(args) => generate(&args, &output).await,
    }
}

/// Runs the process's command line as the standalone `dynomodel` binary.
pub async fn run_tool() -> ExitCode {
    run_tool_with(
        std::env::args_os(),
        Arc::new(Mutex::new(std::io::stdout())),
        Arc::new(Mutex::new(std::io::stderr())),
    )
    .await
    .into()
}
