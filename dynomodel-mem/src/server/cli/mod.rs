//! The `dynomodel-mem` command line (`serve`, `export`, `import`, `repair`), in the library so that the
//! `dynomodel-mem` binary and the `server-bench` binary (which starts the server as a child process of
//! itself, the way DynamoDB Local runs in its own JVM) run the very same server.
//!
//! Parsed by clap (derive): each flag's help, default and check sit on its field ([`options`],
//! [`transfer`], [`repair`]), so `--help` documents exactly what the parser takes.

mod consistency;
mod logging;
mod options;
mod progress;
mod repair;
mod serve;
#[cfg(test)]
mod tests;
mod transfer;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use options::Options;
use repair::RepairOptions;
use transfer::{ExportOptions, ImportOptions};

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "dynomodel-mem",
    version,
    about = "An in-memory Amazon DynamoDB engine and its DynamoDB-compatible HTTP server.",
    subcommand_required = true,
    arg_required_else_help = true,
    max_term_width = 100
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Run the server (any AWS SDK, the AWS CLI or boto3 can use it)
    #[command(after_help = SERVE_AFTER_HELP)]
    Serve(Box<Options>),
    /// Write a running server's tables to a file: one table's items as DynamoDB JSON lines (the
    /// format of DynamoDB's export to S3), or a full dump of every table's definition and items
    #[command(after_help = transfer::EXPORT_AFTER_HELP)]
    Export(ExportOptions),
    /// Put DynamoDB JSON lines into a running server's table, or load a full dump into it
    #[command(after_help = transfer::IMPORT_AFTER_HELP)]
    Import(ImportOptions),
    /// Cut a damaged data directory's log at its last good record, keeping the originals
    #[command(long_about = repair::REPAIR_LONG_ABOUT, after_help = repair::REPAIR_AFTER_HELP)]
    Repair(RepairOptions),
}

/// After `serve --help`'s options: what it prints, how it stops, and its HTTP endpoints.
const SERVE_AFTER_HELP: &str = "\
On startup it prints where the data lives (\"data: in memory (lost at exit)\"), then \"listening on
http://HOST:PORT\" (flushed, so a parent process can read the port). SIGINT or SIGTERM stops
accepting connections, lets requests in flight finish (at most 5 s) and exits with status 0.

DynamoDB's POST / also takes bodies compressed with gzip or deflate (Content-Encoding; at most
16 MB inflated) and compresses answers of 1 KiB or more for clients that send Accept-Encoding: gzip
or deflate; GET / answers \"healthy: HOST:PORT \", as DynamoDB's endpoint does.

HTTP endpoints besides DynamoDB's POST / (same port; JSON bodies, sent with Content-Type:
application/json, and answers):
  GET    /health                    {\"status\": \"ok\"} with 200, for process supervisors; 503
                                    with {\"status\": \"degraded\", \"reason\": ...} while the
                                    data directory cannot be written (writes refused, reads
                                    served), {\"status\": \"failed\"} when every request is
                                    refused until a restart
  GET    /_dynomodel/console        the web console: a page to open in a browser (the guide's
                                    server chapter); with --admin-token, paste the token into it
  GET    /_dynomodel/faults         the armed rules, in words: {\"rules\": [{\"id\": N, \"rule\":
                                    \"...\", \"fired\": F}]}
  POST   /_dynomodel/faults         arm a fault rule, e.g. {\"operation\": \"PutItem\",
                                    \"table\": \"tweets\", \"nth\": 3, \"error\":
                                    \"ProvisionedThroughputExceededException\", \"timing\":
                                    \"after\"}; answers {\"id\": N}
  GET    /_dynomodel/faults/N       {\"id\": N, \"fired\": how many requests it fired on}
  DELETE /_dynomodel/faults/N       disarm rule N
  DELETE /_dynomodel/faults         disarm every rule
  GET    /_dynomodel/clock          {\"now\": \"...\"}, the engine's time
  POST   /_dynomodel/clock/advance  {\"seconds\": N} (on the manual clock only)
  POST   /_dynomodel/settle         {} makes every change pending under --eventual-consistency
                                    visible at once; {\"access_key\": \"AKID\"}: that
                                    key's database only (--isolate)
";

/// Runs the command line `args` (without the program name), e.g. `["serve", "--port", "0"]`.
///
/// `serve` binds, prints `listening on http://HOST:PORT` on stdout (flushed, so a parent process can
/// read the port), serves until SIGINT or SIGTERM, shuts down gracefully. `repair` repairs a damaged
/// data directory ([`MemBackendBuilder::repair`](crate::MemBackendBuilder::repair)). `export` and `import` move
/// tables between a running server and a file ([`crate::dump`]). `--help` anywhere prints the
/// command's help. Usage errors exit with status 2, failures with 1.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     dynomodel_mem::__private::cli::main(std::env::args().skip(1).collect())
/// }
/// ```
pub fn main(args: Vec<String>) -> ExitCode {
    let program = std::iter::once("dynomodel-mem".to_owned());
    let cli = match Cli::try_parse_from(program.chain(args)) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to standard output with status 0; usage errors to standard error,
            // naming the flag, with status 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match &cli.command {
        Command::Serve(options) => serve_command(options),
        Command::Export(options) => transfer::main(Ok(options)),
        Command::Import(options) => transfer::main(Err(options)),
        Command::Repair(options) => repair::main(options),
    }
}

/// `serve`: logging set up, then the server on a runtime of its own until SIGINT or SIGTERM.
fn serve_command(options: &Options) -> ExitCode {
    let rust_log = std::env::var("RUST_LOG").ok();
    let filter = match logging::filter(options.log, rust_log.as_deref()) {
        Ok(filter) => filter,
        Err(e) => {
            eprintln!("dynomodel-mem: {e}");
            return ExitCode::from(2);
        }
    };
    logging::install(filter);
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = options.threads {
        runtime.worker_threads(threads.get());
    }
    let runtime = runtime.thread_name("dynomodel-mem").enable_all().build();
    let result = match runtime {
        Ok(runtime) => {
            let result = runtime.block_on(serve::serve(options));
            // Whatever still runs (a connection past the drain) is not waited for.
            runtime.shutdown_timeout(std::time::Duration::from_secs(1));
            result
        }
        Err(e) => Err(format!("cannot start the runtime: {e}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dynomodel-mem: {e}");
            ExitCode::FAILURE
        }
    }
}
