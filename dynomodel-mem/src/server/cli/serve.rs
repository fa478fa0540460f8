//! `serve`: the engine the options describe, an optional seed, the server, and a graceful stop.

use std::io::Write;
use std::time::Instant;

use super::options::Options;
use super::progress::Bar;
use super::transfer;
use crate::dump::{Progress, Silent};
use crate::server::{Server, ServerBuilder};
use crate::{ManualClock, MemBackend};

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
pub(super) fn backend(options: &Options) -> Result<(MemBackend, Option<ManualClock>), String> {
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
    if let Some(settings) = options.consistency.settings() {
        builder = builder.eventual_consistency(settings);
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
        let notable = report.torn_tail.is_some()
            || !report.repairs.is_empty()
            || report.converted_from.is_some()
            || !report.warnings.is_empty();
        match notable {
            true => tracing::warn!("{report}"),
            false => tracing::info!("{report}"),
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

/// Loads `--seed FILE` into the fresh `backend`, with a progress bar when standard error is a
/// terminal; answers the line to print.
async fn seed(backend: &MemBackend, path: &str) -> Result<String, String> {
    let started = Instant::now();
    let bar = Bar::on_terminal();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open --seed {path}: {e}"))?;
    let length = file.metadata().ok().map(|m| m.len());
    let mut input: Box<dyn std::io::BufRead> = Box::new(std::io::BufReader::new(file));
    if let Some(bar) = &bar {
        bar.reading(path, length);
        input = bar.reader(input);
    }
    let progress: &dyn Progress = bar.as_ref().map_or(&Silent, |bar| bar);
    let loaded = crate::dump::seed_reporting(backend, &mut input, progress).await;
    drop(input);
    if let Some(bar) = &bar {
        bar.clear();
    }
    let loaded = loaded.map_err(|e| format!("cannot seed from {path}: {e}"))?;
    // The seed is the state tests start from, as if written long ago: under
    // --eventual-consistency its writes have all arrived.
    backend.settle();
    Ok(format!(
        "seeded {} tables, {} items from {path} in {}",
        loaded.tables,
        loaded.items,
        transfer::rate(loaded.items, started.elapsed())
    ))
}

/// Whether `backend` has any table (a recovered data directory).
async fn holds_tables(backend: &MemBackend) -> bool {
    use dynomodel::backend::Backend;
    let first = backend.list_tables(dynomodel::backend::ListTablesInput {
        limit: Some(1),
        ..Default::default()
    });
    first.await.is_ok_and(|page| !page.table_names.is_empty())
}

/// The server's settings from the options: its limits, admin token, extra `Host` names, CORS origins
/// and signature verification (reading `--access-keys-file`).
pub(super) fn server_builder(options: &Options) -> Result<ServerBuilder, String> {
    let mut builder = Server::builder();
    let limits = &options.limits;
    builder = builder
        .header_timeout(limits.header_timeout)
        .body_timeout(limits.body_timeout)
        .write_timeout(limits.write_timeout)
        .max_body_memory(limits.max_body_memory);
    if let Some(n) = limits.max_connections {
        builder = builder.max_connections(n);
    }
    if let Some(token) = &options.admin_token {
        builder = builder.admin_token(token.clone());
    }
    if let Some(max) = options.isolate {
        builder = builder.isolate_by_access_key(max);
    }
    for name in &options.allow_hosts {
        builder = builder.allow_host(name);
    }
    for origin in &options.cors_origins {
        builder = builder.cors_origin(origin);
    }
    let signatures = &options.signatures;
    if signatures.verify {
        builder = builder.verify_signatures();
    }
    let mut keys = signatures.keys.clone();
    if let Some(path) = &signatures.file {
        let shown = path.display();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read --access-keys-file {shown}: {e}"))?;
        let listed = crate::server::sigv4::parse_keys_file(&text)
            .map_err(|e| format!("--access-keys-file {shown}: {e}"))?;
        keys.extend(listed);
    }
    for (id, secret) in keys {
        builder = builder.access_key(id, secret);
    }
    Ok(builder)
}

pub(super) async fn serve(options: &Options) -> Result<(), String> {
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
    let server = server_builder(options)?
        .bind_mem(addr, backend.clone(), clock)
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
    tracing::info!("shutting down: finishing the requests in flight");
    // Stops accepting, lets in-flight requests finish (the drain in `ServerHandle::shutdown`); only
    // then is the engine's data final (what a durable mode syncs before exiting).
    server.shutdown().await;
    // Under `--sync Nms`, what the last interval wrote.
    engine
        .sync()
        .map_err(|e| format!("syncing the data directory: {e}"))?;
    Ok(())
}
