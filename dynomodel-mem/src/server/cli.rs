//! The `dynomodel-mem serve` command line, in the library so that the `dynomodel-mem` binary and the
//! `server-bench` binary (which starts the server as a child process of itself, the way DynamoDB Local
//! runs in its own JVM) run the very same server.

use std::io::Write;
use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::sync::Arc;

use super::Server;
use crate::MemBackend;

/// The `--help` text.
pub const USAGE: &str = "\
usage: dynomodel-mem serve [--host HOST] [--port PORT] [--threads N] [--log LEVEL]

  --host HOST   address to bind (default 127.0.0.1; 0.0.0.0 exposes the server to the network)
  --port PORT   port to bind (default 8000; 0 picks a free one)
  --threads N   worker threads (default: one per core)
  --log LEVEL   error, warn, info, debug (one line per request) or trace; default: $RUST_LOG or warn
";

/// The options of `serve`.
#[derive(Debug, PartialEq)]
struct Options {
    host: String,
    port: u16,
    /// `None`: one per core (Tokio's default).
    threads: Option<NonZeroUsize>,
    log: log::LevelFilter,
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
            "--threads" => {
                let v = value()?;
                let threads = v
                    .parse()
                    .map_err(|_| format!("invalid thread count {v:?}"))?;
                options.threads = Some(threads);
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

async fn serve(options: &Options) -> Result<(), String> {
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

/// Runs the command line `args` (without the program name), e.g. `["serve", "--port", "0"]`: binds,
/// prints `listening on http://HOST:PORT` on stdout (flushed, so a parent process can read the port),
/// serves until SIGINT or SIGTERM, shuts down gracefully. Usage errors exit with status 2.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     dynomodel_mem::server::cli::main(std::env::args().skip(1).collect())
/// }
/// ```
pub fn main(args: Vec<String>) -> ExitCode {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let options = match parse(&args, std::env::var("RUST_LOG").ok().as_deref()) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("dynomodel-mem: {e}\n\n{USAGE}");
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
    }

    #[test]
    fn every_option() {
        let options = parse(
            &args("serve --host 0.0.0.0 --port 0 --threads 3 --log debug"),
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
            }
        );
        assert_eq!(
            parse(&args("serve"), Some("info")).unwrap().log,
            log::LevelFilter::Info
        );
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
        ] {
            assert_eq!(parse(&args(line), None).unwrap_err(), error, "{line}");
        }
        assert_eq!(
            parse(&args("serve"), Some("chatty")).unwrap_err(),
            "unknown log level \"chatty\""
        );
    }
}
