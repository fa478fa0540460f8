//! The `dynomodel-mem` command line (`serve`, `export`, `import`), in the library so that the
//! `dynomodel-mem` binary and the `server-bench` binary (which starts the server as a child process of
//! itself, the way DynamoDB Local runs in its own JVM) run the very same server.
//!
//! Every command's flags are listed once ([`SERVE_FLAGS`], [`EXPORT_FLAGS`], [`IMPORT_FLAGS`]): the
//! parsers refuse any other, and a test checks that each is documented in its command's `--help`.

use std::io::Write;
use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::transfer;
use super::Server;
use crate::{ManualClock, MemBackend};

/// `dynomodel-mem --help`: the commands.
pub const USAGE: &str = "\
usage: dynomodel-mem COMMAND [OPTIONS]

An in-memory Amazon DynamoDB engine and its DynamoDB-compatible HTTP server.

Commands:
  serve    run the server (any AWS SDK, the AWS CLI or boto3 can use it)
  export   write a running server's tables to a file: one table's items as DynamoDB JSON lines
           (the format of DynamoDB's export to S3), or a full dump of every table's definition and
           items
  import   put DynamoDB JSON lines into a running server's table, or load a full dump into it

`dynomodel-mem COMMAND --help` lists a command's options.
";

/// `dynomodel-mem serve --help`.
pub const SERVE_USAGE: &str = "\
usage: dynomodel-mem serve [--host HOST] [--port PORT] [--threads N] [--log LEVEL]
                           [--region REGION] [--account ID] [--transition-time SECONDS]
                           [--ttl-sweep-interval SECONDS] [--enforce-throughput]
                           [--manual-clock] [--seed FILE]
                           [--data-dir DIR [--sync always|Nms] [--compact-after BYTES]]

  --host HOST                   address to bind (default 127.0.0.1; 0.0.0.0 exposes the server to
                                the network)
  --port PORT                   port to bind (default 8000; 0 picks a free one)
  --threads N                   worker threads (default: one per core)
  --log LEVEL                   error, warn, info, debug (one line per request) or trace; default:
                                $RUST_LOG or warn
  --region REGION               the region in table ARNs (default ddblocal, as DynamoDB Local)
  --account ID                  the account id in table ARNs (default 000000000000)
  --transition-time SECONDS     how long tables and indexes stay CREATING, UPDATING or DELETING and
                                TTL ENABLING or DISABLING (default 0: at once, as DynamoDB Local)
  --ttl-sweep-interval SECONDS  how often expired items (TTL) are deleted in the background
                                (default 60; 0 never)
  --enforce-throughput          enforce the provisioned RCU/WCU of PROVISIONED tables and their
                                GSIs (five-minute burst; a new table starts with one second of
                                capacity): ProvisionedThroughputExceededException, unprocessed batch
                                items, cancelled transactions (default: off, as DynamoDB Local)
  --manual-clock                run the engine on a clock that moves only when told to (starting at
                                the current time): POST /_dynomodel/clock/advance {\"seconds\": N}
                                moves TTL expiry, stream retention, token windows, throughput
                                refills and CreationDateTime together
  --seed FILE                   load a full dump (as `dynomodel-mem export` writes without --table)
                                before accepting requests: its tables (ACTIVE at once, whatever
                                the transition time), TTL settings, tags and items; a bad line
                                stops the server with its line number; with --data-dir, only
                                into a directory that holds no tables yet
  --data-dir DIR                keep the data in DIR (created if missing) across restarts and
                                crashes: a write-ahead log plus snapshots; one server per DIR
                                (default: in memory only, lost when the server stops)
  --sync always|Nms             with --data-dir, when a write reaches the disk: `always` (default)
                                fsyncs before answering, so nothing acknowledged is lost even on a
                                power cut; e.g. `10ms` writes before answering and fsyncs every 10
                                ms: a killed server loses nothing, a power cut the last 10 ms
  --compact-after BYTES         with --data-dir, write a snapshot (in the background) and drop the
                                log once the log is this long (default 67108864, 64 MiB)

On startup it prints where the data lives (\"data: in memory (lost at exit)\"), then \"listening on
http://HOST:PORT\" (flushed, so a parent process can read the port). SIGINT or SIGTERM stops
accepting connections, lets requests in flight finish (at most 5 s) and exits with status 0.

HTTP endpoints besides DynamoDB's POST / (same port; JSON bodies and answers):
  GET    /health                    {\"status\": \"ok\"} with 200, for process supervisors
  POST   /_dynomodel/faults         arm a fault rule, e.g. {\"operation\": \"PutItem\",
                                    \"table\": \"tweets\", \"nth\": 3, \"error\":
                                    \"ProvisionedThroughputExceededException\", \"timing\":
                                    \"after\"}; answers {\"id\": N}
  GET    /_dynomodel/faults/N       {\"id\": N, \"fired\": how many requests it fired on}
  DELETE /_dynomodel/faults/N       disarm rule N
  DELETE /_dynomodel/faults         disarm every rule
  GET    /_dynomodel/clock          {\"now\": \"...\"}, the engine's time
  POST   /_dynomodel/clock/advance  {\"seconds\": N} (on the manual clock only)
";

/// The flags `serve` takes.
pub const SERVE_FLAGS: &[&str] = &[
    "--host",
    "--port",
    "--threads",
    "--log",
    "--region",
    "--account",
    "--transition-time",
    "--ttl-sweep-interval",
    "--enforce-throughput",
    "--manual-clock",
    "--seed",
    "--data-dir",
    "--sync",
    "--compact-after",
];

pub use transfer::{EXPORT_FLAGS, EXPORT_USAGE, IMPORT_FLAGS, IMPORT_USAGE};

/// How often the server deletes expired items unless told otherwise.
const DEFAULT_TTL_SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// The options of `serve`.
#[derive(Debug, PartialEq)]
struct Options {
    host: String,
    port: u16,
    /// `None`: one per core (Tokio's default).
    threads: Option<NonZeroUsize>,
    log: log::LevelFilter,
    /// `None`: the engine's default.
    region: Option<String>,
    /// `None`: the engine's default.
    account: Option<String>,
    transition_time: Duration,
    /// Zero: no sweeper.
    ttl_sweep_interval: Duration,
    /// `--enforce-throughput`.
    enforce_throughput: bool,
    /// `--manual-clock`.
    manual_clock: bool,
    /// `--seed FILE`.
    seed: Option<String>,
    /// `--data-dir`: durable mode.
    data_dir: Option<std::path::PathBuf>,
    /// `--sync`.
    sync: Option<crate::SyncPolicy>,
    /// `--compact-after`.
    compact_after: Option<u64>,
}

/// A duration in seconds, whole or fractional (`0.5`), not negative.
fn parse_seconds(flag: &str, text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("invalid {flag} {text:?}: expected seconds"))
}

fn parse_level(text: &str) -> Result<log::LevelFilter, String> {
    text.parse()
        .map_err(|_| format!("unknown log level {text:?}"))
}

fn parse(args: &[String], rust_log: Option<&str>) -> Result<Options, String> {
    let mut args = args.iter();
    match args.next().map(String::as_str) {
        Some("serve") => {}
        Some(other) => return Err(format!("unknown command {other:?}")),
        None => return Err("missing command".into()),
    }
    let mut options = Options {
        host: "127.0.0.1".into(),
        port: 8000,
        threads: None,
        log: rust_log.map_or(Ok(log::LevelFilter::Warn), parse_level)?,
        region: None,
        account: None,
        transition_time: Duration::ZERO,
        ttl_sweep_interval: DEFAULT_TTL_SWEEP_INTERVAL,
        enforce_throughput: false,
        manual_clock: false,
        seed: None,
        data_dir: None,
        sync: None,
        compact_after: None,
    };
    while let Some(flag) = args.next() {
        if !SERVE_FLAGS.contains(&flag.as_str()) {
            return Err(format!("unknown option {flag:?}"));
        }
        let mut value = || {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--host" => options.host = value()?,
            "--port" => {
                let v = value()?;
                options.port = v.parse().map_err(|_| format!("invalid port {v:?}"))?;
            }
            "--threads" => {
                let v = value()?;
                let threads = v
                    .parse()
                    .map_err(|_| format!("invalid thread count {v:?}"))?;
                options.threads = Some(threads);
            }
            "--log" => options.log = parse_level(&value()?)?,
            "--region" => options.region = Some(value()?),
            "--account" => options.account = Some(value()?),
            "--transition-time" => {
                options.transition_time = parse_seconds(flag, &value()?)?;
            }
            "--ttl-sweep-interval" => {
                options.ttl_sweep_interval = parse_seconds(flag, &value()?)?;
            }
            "--enforce-throughput" => options.enforce_throughput = true,
            "--manual-clock" => options.manual_clock = true,
            "--seed" => options.seed = Some(value()?),
            "--data-dir" => options.data_dir = Some(value()?.into()),
            "--sync" => options.sync = Some(value()?.parse()?),
            "--compact-after" => {
                let v = value()?;
                let bytes = v.parse().map_err(|_| format!("invalid byte count {v:?}"))?;
                options.compact_after = Some(bytes);
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    if options.data_dir.is_none() {
        if options.sync.is_some() {
            return Err("--sync needs --data-dir".into());
        }
        if options.compact_after.is_some() {
            return Err("--compact-after needs --data-dir".into());
        }
    }
    Ok(options)
}

/// A minimal stderr logger: the binary needs one line per request, not a logging framework.
struct StderrLogger;

impl log::Log for StderrLogger {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::max_level()
    }

    fn log(&self, record: &log::Record<'_>) {
        if self.enabled(record.metadata()) {
            eprintln!("[{} {}] {}", record.level(), record.target(), record.args());
        }
    }

    fn flush(&self) {}
}

static LOGGER: StderrLogger = StderrLogger;

/// Resolves when SIGINT (Ctrl-C) or, on Unix, SIGTERM arrives.
async fn terminated() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The engine the options describe, and its manual clock if it has one; with `--data-dir`, recovered
/// from the directory.
fn backend(options: &Options) -> Result<(MemBackend, Option<ManualClock>), String> {
    let clock = options
        .manual_clock
        .then(|| ManualClock::new(chrono::Utc::now()));
    let mut builder = MemBackend::builder()
        .transition_time(options.transition_time)
        .enforce_provisioned_throughput(options.enforce_throughput);
    if let Some(region) = &options.region {
        builder = builder.region(region.clone());
    }
    if let Some(account) = &options.account {
        builder = builder.account(account.clone());
    }
    if let Some(clock) = &clock {
        builder = builder.clock(clock.clone());
    }
    let Some(dir) = &options.data_dir else {
        return Ok((builder.build(), clock));
    };
    builder = builder.sync(options.sync.unwrap_or_default());
    if let Some(bytes) = options.compact_after {
        builder = builder.compact_after(bytes);
    }
    let backend = builder.open(dir).map_err(|e| e.to_string())?;
    if let Some(report) = backend.recovery_report() {
        match report.torn_tail.is_some() || !report.warnings.is_empty() {
            true => log::warn!("{report}"),
            false => log::info!("{report}"),
        }
    }
    Ok((backend, clock))
}

/// Where the served data lives, as the startup banner says it.
fn data_location(options: &Options) -> String {
    match &options.data_dir {
        Some(dir) => format!(
            "data: {} (sync {})",
            dir.display(),
            options.sync.unwrap_or_default()
        ),
        None => "data: in memory (lost at exit)".to_owned(),
    }
}

/// Loads `--seed FILE` into the fresh `backend`; answers the line to print.
async fn seed(backend: &MemBackend, path: &str) -> Result<String, String> {
    let started = Instant::now();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open --seed {path}: {e}"))?;
    let mut input = std::io::BufReader::new(file);
    let loaded = crate::dump::seed(backend, &mut input)
        .await
        .map_err(|e| format!("cannot seed from {path}: {e}"))?;
    Ok(format!(
        "seeded {} tables, {} items from {path} in {}",
        loaded.tables,
        loaded.items,
        transfer::rate(loaded.items, started.elapsed())
    ))
}

/// Whether `backend` has any table (a recovered data directory).
async fn holds_tables(backend: &MemBackend) -> bool {
    use dynomodel::Backend;
    let first = backend.list_tables(dynomodel::ListTablesInput {
        limit: Some(1),
        ..Default::default()
    });
    first.await.is_ok_and(|page| !page.table_names.is_empty())
}

async fn serve(options: &Options) -> Result<(), String> {
    let addr = (options.host.as_str(), options.port);
    let (backend, clock) = backend(options)?;
    let engine = backend.clone();
    // Seeded before the socket is bound: no request ever sees a half-loaded engine. A data directory
    // that already holds tables was seeded on its first start (or filled since): a fixture is not
    // loaded over it.
    let seeded = match &options.seed {
        Some(path) if holds_tables(&backend).await => Some(format!(
            "not seeding from {path}: the data directory already holds tables"
        )),
        Some(path) => Some(seed(&backend, path).await?),
        None => None,
    };
    let server = Server::bind_mem(addr, backend.clone(), clock)
        .await
        .map_err(|e| format!("cannot bind {}:{}: {e}", options.host, options.port))?
        .with_ttl_sweeper(backend, options.ttl_sweep_interval);
    let mut stdout = std::io::stdout().lock();
    let mut banner = seeded.into_iter().collect::<Vec<_>>();
    banner.push(data_location(options));
    // The last line, flushed at once: a test harness or script waits for it to learn the port.
    banner.push(format!("listening on {}", server.url()));
    banner
        .iter()
        .try_for_each(|line| writeln!(stdout, "{line}"))
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("writing to stdout: {e}"))?;
    drop(stdout);
    terminated().await;
    log::info!("shutting down: finishing the requests in flight");
    // Stops accepting, lets in-flight requests finish (the drain in `ServerHandle::shutdown`); only
    // then is the engine's data final (what a durable mode syncs before exiting).
    server.shutdown().await;
    // Under `--sync Nms`, what the last interval wrote.
    engine
        .sync()
        .map_err(|e| format!("syncing the data directory: {e}"))?;
    Ok(())
}

/// Runs the command line `args` (without the program name), e.g. `["serve", "--port", "0"]`.
///
/// `serve` binds, prints `listening on http://HOST:PORT` on stdout (flushed, so a parent process can
/// read the port), serves until SIGINT or SIGTERM, shuts down gracefully. `export` and `import` move
/// tables between a running server and a file ([`crate::dump`]). `--help` anywhere prints the
/// command's help. Usage errors exit with status 2, failures with 1.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     dynomodel_mem::server::cli::main(std::env::args().skip(1).collect())
/// }
/// ```
pub fn main(args: Vec<String>) -> ExitCode {
    let command = args.first().map(String::as_str);
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{}", usage(command));
        return ExitCode::SUCCESS;
    }
    match command {
        Some("export" | "import") => return transfer::main(&args),
        Some("serve") => {}
        _ => {
            let error = parse(&args, None).err().unwrap_or_default();
            eprintln!("dynomodel-mem: {error}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let options = match parse(&args, std::env::var("RUST_LOG").ok().as_deref()) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("dynomodel-mem: {e}\n\n{SERVE_USAGE}");
            return ExitCode::from(2);
        }
    };
    let _ = log::set_logger(&LOGGER);
    log::set_max_level(options.log);
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = options.threads {
        runtime.worker_threads(threads.get());
    }
    let runtime = runtime.thread_name("dynomodel-mem").enable_all().build();
    let result = match runtime {
        Ok(runtime) => runtime.block_on(serve(&options)),
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

/// The help of `command` (the overview for none or an unknown one).
fn usage(command: Option<&str>) -> &'static str {
    match command {
        Some("serve") => SERVE_USAGE,
        Some("export") => EXPORT_USAGE,
        Some("import") => IMPORT_USAGE,
        _ => USAGE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn defaults_are_loopback_port_8000() {
        let options = parse(&args("serve"), None).unwrap();
        assert_eq!(options.host, "127.0.0.1");
        assert_eq!(options.port, 8000);
        assert_eq!(options.threads, None);
        assert_eq!(options.log, log::LevelFilter::Warn);
        assert_eq!(options.region, None);
        assert_eq!(options.account, None);
        assert_eq!(options.transition_time, Duration::ZERO);
        assert_eq!(options.ttl_sweep_interval, Duration::from_secs(60));
    }

    #[test]
    fn every_option() {
        let options = parse(
            &args(
                "serve --host 0.0.0.0 --port 0 --threads 3 --log debug --region eu-west-1 \
                 --account 123456789012 --transition-time 2.5 --ttl-sweep-interval 0 \
                 --enforce-throughput --manual-clock --seed fixture.jsonl --data-dir /tmp/d \
                 --sync 10ms --compact-after 1000",
            ),
            Some("error"),
        )
        .unwrap();
        assert_eq!(
            options,
            Options {
                host: "0.0.0.0".into(),
                port: 0,
                threads: NonZeroUsize::new(3),
                log: log::LevelFilter::Debug,
                region: Some("eu-west-1".into()),
                account: Some("123456789012".into()),
                transition_time: Duration::from_millis(2500),
                ttl_sweep_interval: Duration::ZERO,
                enforce_throughput: true,
                manual_clock: true,
                seed: Some("fixture.jsonl".into()),
                data_dir: Some("/tmp/d".into()),
                sync: Some(crate::SyncPolicy::Every(Duration::from_millis(10))),
                compact_after: Some(1000),
            }
        );
        assert_eq!(
            parse(&args("serve --sync always"), None).unwrap_err(),
            "--sync needs --data-dir"
        );
        assert!(parse(&args("serve --data-dir d --sync often"), None)
            .unwrap_err()
            .contains("invalid sync policy"));
        assert_eq!(
            parse(&args("serve"), Some("info")).unwrap().log,
            log::LevelFilter::Info
        );
    }

    #[tokio::test]
    async fn enforce_throughput_makes_provisioned_tables_throttle() {
        use dynomodel::{
            AttributeDefinition, AttributeValue, Backend, CreateTableInput, GetItemInput,
            KeySchemaElement, ProvisionedThroughput, ScalarAttributeType,
        };
        let (backend, _) =
            backend(&parse(&args("serve --enforce-throughput"), None).unwrap()).unwrap();
        backend
            .create_table(CreateTableInput {
                table_name: "users".into(),
                attribute_definitions: vec![AttributeDefinition {
                    attribute_name: "id".into(),
                    attribute_type: ScalarAttributeType::S,
                }],
                key_schema: vec![KeySchemaElement::hash("id")],
                provisioned_throughput: Some(ProvisionedThroughput {
                    read_capacity_units: 1,
                    write_capacity_units: 1,
                }),
                ..Default::default()
            })
            .await
            .unwrap();
        let get = GetItemInput {
            table_name: "users".into(),
            key: [("id".to_owned(), AttributeValue::S("u1".into()))].into(),
            consistent_read: Some(true),
            ..Default::default()
        };
        // One second of 1 RCU: on the system clock the bucket refills continuously, so the read
        // after the one that emptied it may find a sliver and pass (taking the balance to about
        // -1); the one after that is refused.
        let mut refused = None;
        for _ in 0..3 {
            if let Err(e) = backend.get_item(get.clone()).await {
                refused = Some(e);
                break;
            }
        }
        let err = refused.expect("a throttle within three reads");
        assert_eq!(err.code(), "ProvisionedThroughputExceededException");
    }

    #[test]
    fn the_backend_gets_region_account_and_transition_time() {
        use dynomodel::{
            AttributeDefinition, Backend, CreateTableInput, KeySchemaElement, KeyType,
            ScalarAttributeType,
        };
        let options = parse(
            &args("serve --region eu-west-1 --account 123456789012"),
            None,
        )
        .unwrap();
        let (backend, clock) = backend(&options).unwrap();
        assert!(clock.is_none(), "the system clock unless --manual-clock");
        let create = CreateTableInput {
            table_name: "users".into(),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "id".into(),
                attribute_type: ScalarAttributeType::S,
            }],
            key_schema: vec![KeySchemaElement {
                attribute_name: "id".into(),
                key_type: KeyType::Hash,
            }],
            billing_mode: Some(dynomodel::BillingMode::PayPerRequest),
            ..Default::default()
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let out = runtime.block_on(backend.create_table(create)).unwrap();
        assert_eq!(
            out.table_description.table_arn,
            "arn:aws:dynamodb:eu-west-1:123456789012:table/users"
        );
    }

    /// A value each flag that takes one accepts.
    fn sample_value(flag: &str) -> Option<&'static str> {
        match flag {
            "--enforce-throughput" | "--manual-clock" => None,
            "--port" | "--threads" | "--transition-time" | "--ttl-sweep-interval" => Some("1"),
            "--compact-after" => Some("1000"),
            "--sync" => Some("10ms"),
            "--log" => Some("info"),
            _ => Some("x"),
        }
    }

    #[test]
    fn the_help_documents_every_option() {
        // Each flag the parser takes (it refuses any not listed) is in the synopsis and described.
        for flag in SERVE_FLAGS {
            assert!(
                SERVE_USAGE.contains(&format!("[{flag}")),
                "{flag} in the synopsis"
            );
            assert_eq!(
                SERVE_USAGE.matches(&format!("\n  {flag} ")).count(),
                1,
                "{flag} described once"
            );
            let mut line = vec!["serve".to_owned(), (*flag).to_owned()];
            line.extend(sample_value(flag).map(str::to_owned));
            if ["--sync", "--compact-after"].contains(flag) {
                line.extend(["--data-dir".to_owned(), "d".to_owned()]);
            }
            assert!(parse(&line, None).is_ok(), "{line:?}");
        }
        for command in ["serve", "export", "import"] {
            assert!(USAGE.contains(&format!("  {command} ")), "{command}");
            assert!(usage(Some(command)).starts_with(&format!("usage: dynomodel-mem {command} ")));
        }
        assert_eq!(usage(None), USAGE);
    }

    #[test]
    fn usage_errors() {
        for (line, error) in [
            ("", "missing command"),
            ("start", "unknown command \"start\""),
            ("serve --port", "--port needs a value"),
            ("serve --port 70000", "invalid port \"70000\""),
            ("serve --threads 0", "invalid thread count \"0\""),
            ("serve --log loud", "unknown log level \"loud\""),
            ("serve --verbose", "unknown option \"--verbose\""),
            ("serve --region", "--region needs a value"),
            (
                "serve --transition-time soon",
                "invalid --transition-time \"soon\": expected seconds",
            ),
            (
                "serve --ttl-sweep-interval -1",
                "invalid --ttl-sweep-interval \"-1\": expected seconds",
            ),
        ] {
            assert_eq!(parse(&args(line), None).unwrap_err(), error, "{line}");
        }
        assert_eq!(
            parse(&args("serve"), Some("chatty")).unwrap_err(),
            "unknown log level \"chatty\""
        );
    }
}
