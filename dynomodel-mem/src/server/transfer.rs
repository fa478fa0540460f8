//! `dynomodel-mem export` and `dynomodel-mem import`: tables between a running server and a file.
//!
//! They talk to the server over HTTP, through its own DynamoDB API ([`HttpTarget`]), rather than
//! reading its memory or files: they work on a server that is running (in memory or durable), on
//! DynamoDB Local too, and an import goes through exactly the validation an SDK's writes would.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::dump::{self, HttpTarget};

/// `dynomodel-mem export --help`.
pub(super) const EXPORT_USAGE: &str = "\
usage: dynomodel-mem export --endpoint URL [--table NAME] [--output FILE]

Reads tables from a running server over HTTP (its DynamoDB API) and writes them to a file.

  --endpoint URL   the server, e.g. http://127.0.0.1:8000 (a running `dynomodel-mem serve`, or
                   DynamoDB Local; plain HTTP, requests unsigned)
  --table NAME     export this table's items only, one per line as DynamoDB JSON
                   ({\"Item\":{\"id\":{\"S\":\"a\"}}}, the format of DynamoDB's export to S3);
                   without it, a full dump: every table's definition (key schema, indexes,
                   billing, stream, TTL, tags) and items, which `serve --seed` and `import` load
  --output FILE    write to FILE (default: standard output)

The same items always export to the same bytes. A summary goes to standard error.
";

/// `dynomodel-mem import --help`.
pub(super) const IMPORT_USAGE: &str = "\
usage: dynomodel-mem import --endpoint URL [--table NAME] [--input FILE]

Reads a file and writes it to a running server over HTTP (its DynamoDB API).

  --endpoint URL   the server, e.g. http://127.0.0.1:8000 (a running `dynomodel-mem serve`, or
                   DynamoDB Local; plain HTTP, requests unsigned)
  --table NAME     put the file's items (DynamoDB JSON lines, as `export --table` writes) into
                   this existing table; an item replaces one with the same key. Without it, load a
                   full dump (as `export` writes without --table): create its tables, then put
                   their items; a table that already exists is an error
  --input FILE     read FILE (default: standard input)

The whole file is checked first, on a scratch engine with the same table definitions: a bad line
is reported with its number and nothing is written. A summary goes to standard error.
";

/// The flags `export` takes.
pub(super) const EXPORT_FLAGS: &[&str] = &["--endpoint", "--table", "--output"];

/// The flags `import` takes.
pub(super) const IMPORT_FLAGS: &[&str] = &["--endpoint", "--table", "--input"];

/// The options of `export` or `import`.
#[derive(Debug, PartialEq)]
struct Options {
    export: bool,
    endpoint: String,
    table: Option<String>,
    /// `--output` or `--input`; `None`: standard output or input.
    file: Option<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut args = args.iter();
    let export = match args.next().map(String::as_str) {
        Some("export") => true,
        Some("import") => false,
        other => return Err(format!("unknown command {other:?}")),
    };
    let flags = if export { EXPORT_FLAGS } else { IMPORT_FLAGS };
    let (mut endpoint, mut table, mut file) = (None, None, None);
    while let Some(flag) = args.next() {
        if !flags.contains(&flag.as_str()) {
            return Err(format!("unknown option {flag:?}"));
        }
        let value = args
            .next()
            .cloned()
            .ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--endpoint" => endpoint = Some(value),
            "--table" => table = Some(value),
            _ => file = Some(value),
        }
    }
    Ok(Options {
        export,
        endpoint: endpoint.ok_or("--endpoint is required")?,
        table,
        file,
    })
}

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

/// Runs `export …` or `import …`; usage errors exit with 2, failures with 1.
pub(crate) fn main(args: &[String]) -> ExitCode {
    let options = match parse(args) {
        Ok(options) => options,
        Err(e) => {
            let usage = match args.first().map(String::as_str) {
                Some("export") => EXPORT_USAGE,
                _ => IMPORT_USAGE,
            };
            eprintln!("dynomodel-mem: {e}\n\n{usage}");
            return ExitCode::from(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    let result = match runtime {
        Ok(runtime) => runtime.block_on(run(&options)),
        Err(e) => Err(format!("cannot start the runtime: {e}")),
    };
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

/// Does the transfer; answers its summary line.
async fn run(options: &Options) -> Result<String, String> {
    let target = HttpTarget::new(&options.endpoint).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let name = options.file.as_deref().unwrap_or("-");
    let open_error = |e: std::io::Error| format!("cannot open {name}: {e}");
    let (verb, tables, items) = if options.export {
        let mut out: Box<dyn Write> = match &options.file {
            Some(path) => Box::new(File::create(path).map_err(open_error)?),
            None => Box::new(std::io::stdout().lock()),
        };
        let mut out = BufWriter::new(&mut out);
        let exported = match &options.table {
            Some(table) => dump::export_table(&target, table, &mut out)
                .await
                .map(|items| (1, items)),
            None => dump::dump_all(&target, &mut out)
                .await
                .map(|summary| (summary.tables, summary.items)),
        };
        drop(out);
        match exported {
            Ok((tables, items)) => ("exported", tables, items),
            Err(e) => {
                // A partial file would pass for an export: remove it.
                if let Some(path) = &options.file {
                    let _ = std::fs::remove_file(path);
                }
                return Err(e.to_string());
            }
        }
    } else {
        let mut input: Box<dyn BufRead> = match &options.file {
            Some(path) => Box::new(BufReader::new(File::open(path).map_err(open_error)?)),
            None => Box::new(std::io::stdin().lock()),
        };
        let failed = |e: dump::DumpError| format!("{name}: {e}");
        match &options.table {
            Some(table) => {
                let items = dump::import_table(&target, table, &mut input).await;
                ("imported", 1, items.map_err(failed)?)
            }
            None => {
                let summary = dump::load_dump(&target, &mut input).await.map_err(failed)?;
                ("imported", summary.tables, summary.items)
            }
        }
    };
    Ok(format!(
        "{verb} {tables} tables, {items} items in {}",
        rate(items, started.elapsed())
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn the_help_documents_every_option() {
        for (command, flags, usage) in [
            ("export", EXPORT_FLAGS, EXPORT_USAGE),
            ("import", IMPORT_FLAGS, IMPORT_USAGE),
        ] {
            for flag in flags {
                assert_eq!(usage.matches(&format!("{flag} ")).count(), 2, "{flag}");
                let line = format!("{command} --endpoint http://h:1 {flag} x");
                assert!(parse(&args(&line)).is_ok(), "{line}");
            }
        }
    }

    #[test]
    fn options_and_usage_errors() {
        assert_eq!(
            parse(&args("export --endpoint http://h:1 --table t --output f")).unwrap(),
            Options {
                export: true,
                endpoint: "http://h:1".into(),
                table: Some("t".into()),
                file: Some("f".into()),
            }
        );
        let import = parse(&args("import --endpoint http://h:1")).unwrap();
        assert!(!import.export && import.table.is_none() && import.file.is_none());
        for (line, error) in [
            ("export", "--endpoint is required"),
            ("export --endpoint", "--endpoint needs a value"),
            ("export --input f", "unknown option \"--input\""),
            ("import --output f", "unknown option \"--output\""),
        ] {
            assert_eq!(parse(&args(line)).unwrap_err(), error, "{line}");
        }
        assert_eq!(
            rate(100, Duration::from_millis(500)),
            "0.50 s (200 items/s)"
        );
    }
}
