//! `dynomodel-mem serve [--host H] [--port P] [--log LEVEL]`: the in-memory DynamoDB engine as an HTTP
//! server that any AWS SDK, the AWS CLI or boto3 can use (endpoint `http://H:P`, any credentials).
//!
//! Binds 127.0.0.1:8000 by default (DynamoDB Local's port; loopback only, so nothing is exposed unless
//! `--host` says so). `--port 0` picks a free port. Once listening it prints `listening on http://H:P`
//! on stdout (flushed, so a parent process can read the port), then serves until SIGINT or SIGTERM and
//! shuts down gracefully. `--log debug` (or `RUST_LOG=debug`) logs one line per request on stderr.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use dynomodel_mem::server::Server;
use dynomodel_mem::MemBackend;

const USAGE: &str = "\
usage: dynomodel-mem serve [--host HOST] [--port PORT] [--log LEVEL]

  --host HOST   address to bind (default 127.0.0.1; 0.0.0.0 exposes the server to the network)
  --port PORT   port to bind (default 8000; 0 picks a free one)
  --log LEVEL   error, warn, info, debug (one line per request) or trace; default: $RUST_LOG or warn
";

/// The options of `serve`.
#[derive(Debug)]
struct Options {
    host: String,
    port: u16,
    log: log::LevelFilter,
}

fn parse_level(text: &str) -> Result<log::LevelFilter, String> {
    text.parse()
        .map_err(|_| format!("unknown log level {text:?}"))
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut args = args.iter();
    match args.next().map(String::as_str) {
        Some("serve") => {}
        Some(other) => return Err(format!("unknown command {other:?}")),
        None => return Err("missing command".into()),
    }
    let mut options = Options {
        host: "127.0.0.1".into(),
        port: 8000,
        log: match std::env::var("RUST_LOG") {
            Ok(level) => parse_level(&level)?,
            Err(_) => log::LevelFilter::Warn,
        },
    };
    while let Some(flag) = args.next() {
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
            "--log" => options.log = parse_level(&value()?)?,
            other => return Err(format!("unknown option {other:?}")),
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

async fn serve(options: Options) -> Result<(), String> {
    let addr = (options.host.as_str(), options.port);
    let server = Server::bind_shared(addr, Arc::new(MemBackend::new()))
        .await
        .map_err(|e| format!("cannot bind {}:{}: {e}", options.host, options.port))?;
    let mut stdout = std::io::stdout().lock();
    // Flushed at once: a test harness or script waits for this line to learn the port.
    writeln!(stdout, "listening on {}", server.url())
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("writing to stdout: {e}"))?;
    drop(stdout);
    terminated().await;
    log::info!("shutting down");
    server.shutdown().await;
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let options = match parse(&args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("dynomodel-mem: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let _ = log::set_logger(&LOGGER);
    log::set_max_level(options.log);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("dynomodel-mem: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dynomodel-mem: {e}");
            ExitCode::FAILURE
        }
    }
}
