//! `dynomodel-mem export` and `dynomodel-mem import`: tables between a running server and a file.
//!
//! They talk to the server over HTTP, through its own DynamoDB API ([`HttpTarget`]), rather than
//! reading its memory or files: they work on a server that is running (in memory or durable), on
//! DynamoDB Local too, and an import goes through exactly the validation an SDK's writes would.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

use super::progress::Bar;
use crate::dump::{self, HttpTarget, Progress, Silent};

/// `dynomodel-mem export`'s options.
#[derive(Debug, PartialEq, Args)]
pub(super) struct ExportOptions {
    /// The server, e.g. http://127.0.0.1:8000 (a running `dynomodel-mem serve`, or DynamoDB Local;
    /// plain HTTP, requests unsigned)
    #[arg(long, value_name = "URL")]
    endpoint: String,
    /// Export this table's items only, one per line as DynamoDB JSON
    /// ({"Item":{"id":{"S":"a"}}}, the format of DynamoDB's export to S3); without it, a full dump:
    /// every table's definition (key schema, indexes, billing, stream, TTL, tags) and items, which
    /// `serve --seed` and `import` load
    #[arg(long, value_name = "NAME")]
    table: Option<String>,
    /// Write to FILE [default: standard output]
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// `dynomodel-mem import`'s options.
#[derive(Debug, PartialEq, Args)]
pub(super) struct ImportOptions {
    /// The server, e.g. http://127.0.0.1:8000 (a running `dynomodel-mem serve`, or DynamoDB Local;
    /// plain HTTP, requests unsigned)
    #[arg(long, value_name = "URL")]
    endpoint: String,
    /// Put the file's items (DynamoDB JSON lines, as `export --table` writes) into this existing
    /// table; an item replaces one with the same key. Without it, load a full dump (as `export`
    /// writes without --table): create its tables, then put their items; a table that already
    /// exists is an error
    #[arg(long, value_name = "NAME")]
    table: Option<String>,
    /// Read FILE [default: standard input]
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
}

/// After `export --help`'s options.
pub(super) const EXPORT_AFTER_HELP: &str =
    "The same items always export to the same bytes. A summary goes to standard error, and a \
     progress bar while it runs when standard error is a terminal.";

/// After `import --help`'s options.
pub(super) const IMPORT_AFTER_HELP: &str =
    "The whole file is checked first, on a scratch engine with the same table definitions: a bad \
     line is reported with its number and nothing is written. A summary goes to standard error, \
     and a progress bar while it runs when standard error is a terminal.";

/// `N items in 1.23 s (45678 items/s)`.
pub(crate) fn rate(items: u64, took: Duration) -> String {
    let seconds = took.as_secs_f64();
    let per_second = if seconds > 0.0 {
        items as f64 / seconds
    } else {
        0.0
    };
    format!("{seconds:.2} s ({per_second:.0} items/s)")
}

/// Runs `export` (`Ok`) or `import` (`Err`); failures exit with status 1.
pub(super) fn main(options: Result<&ExportOptions, &ImportOptions>) -> ExitCode {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    let bar = Bar::on_terminal();
    let result = match runtime {
        Ok(runtime) => runtime.block_on(async {
            match options {
                Ok(options) => export(options, bar.as_ref()).await,
                Err(options) => import(options, bar.as_ref()).await,
            }
        }),
        Err(e) => Err(format!("cannot start the runtime: {e}")),
    };
    if let Some(bar) = &bar {
        bar.clear();
    }
    match result {
        Ok(summary) => {
            eprintln!("dynomodel-mem: {summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("dynomodel-mem: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The summary line of a transfer.
fn summary(verb: &str, (tables, items): (u64, u64), started: Instant) -> String {
    let took = rate(items, started.elapsed());
    format!("{verb} {tables} tables, {items} items in {took}")
}

/// `export`; answers its summary line.
async fn export(options: &ExportOptions, bar: Option<&Bar>) -> Result<String, String> {
    let target = HttpTarget::new(&options.endpoint).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let progress: &dyn Progress = bar.map_or(&Silent, |bar| bar);
    let mut out: Box<dyn Write> = match &options.output {
        Some(path) => {
            let file = File::create(path);
            Box::new(file.map_err(|e| format!("cannot open {}: {e}", path.display()))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    if let Some(bar) = bar {
        out = bar.writer(out);
    }
    let mut out = BufWriter::new(out);
    let exported = match &options.table {
        Some(table) => dump::export_table_reporting(&target, table, &mut out, progress)
            .await
            .map(|items| (1, items)),
        None => dump::dump_all_reporting(&target, &mut out, progress)
            .await
            .map(|summary| (summary.tables, summary.items)),
    };
    drop(out);
    match exported {
        Ok(moved) => Ok(summary("exported", moved, started)),
        Err(e) => {
            // A partial file would pass for an export: remove it.
            if let Some(path) = &options.output {
                let _ = std::fs::remove_file(path);
            }
            Err(e.to_string())
        }
    }
}

/// `import`; answers its summary line.
async fn import(options: &ImportOptions, bar: Option<&Bar>) -> Result<String, String> {
    let target = HttpTarget::new(&options.endpoint).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let progress: &dyn Progress = bar.map_or(&Silent, |bar| bar);
    let name = options
        .input
        .as_ref()
        .map_or_else(|| "-".to_owned(), |path| path.display().to_string());
    let (mut input, length): (Box<dyn BufRead>, _) = match &options.input {
        Some(path) => {
            let file = File::open(path).map_err(|e| format!("cannot open {name}: {e}"))?;
            let length = file.metadata().ok().map(|m| m.len());
            (Box::new(BufReader::new(file)), length)
        }
        None => (Box::new(std::io::stdin().lock()), None),
    };
    if let Some(bar) = bar {
        bar.reading(&name, length);
        input = bar.reader(input);
    }
    let failed = |e: dump::DumpError| format!("{name}: {e}");
    let moved = match &options.table {
        Some(table) => {
            let items = dump::import_table_reporting(&target, table, &mut input, progress);
            (1, items.await.map_err(failed)?)
        }
        None => {
            let loaded = dump::load_dump_reporting(&target, &mut input, progress);
            let loaded = loaded.await.map_err(failed)?;
            (loaded.tables, loaded.items)
        }
    };
    Ok(summary("imported", moved, started))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn rate_is_seconds_and_items_per_second() {
        assert_eq!(
            rate(100, Duration::from_millis(500)),
            "0.50 s (200 items/s)"
        );
        assert_eq!(rate(0, Duration::ZERO), "0.00 s (0 items/s)");
    }
}
