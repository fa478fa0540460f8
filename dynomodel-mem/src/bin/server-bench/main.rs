//! `server-bench`: the same AWS SDK workload against `dynomodel-mem`'s server and against Amazon
//! DynamoDB Local, in one run, with the ratios. Feature `bench` (it needs the AWS backend).
//!
//! ```text
//! scripts/dynamodb-local.sh run -- \
//!     cargo run --release -p dynomodel-mem --features bench --bin server-bench
//! ```
//!
//! A third server, any DynamoDB-compatible one started beforehand, joins the run through
//! `PEER_ENDPOINT` (its URL), `PEER_NAME` (the column's name) and `PEER_PID` (its process, for its CPU
//! time); e.g. Dynoxide, whose CLI the opt-in peer crate does not build:
//!
//! ```text
//! cargo install dynoxide-rs@3.2.0 --no-default-features --features native-sqlite,http-server,cli \
//!     --root /tmp/dynoxide
//! /tmp/dynoxide/bin/dynoxide serve --port 8765 & export PEER_PID=$!
//! PEER_ENDPOINT=http://127.0.0.1:8765 PEER_NAME=Dynoxide \
//!     cargo run --release -p dynomodel-mem --features bench --bin server-bench
//! ```
//!
//! Options: `--seconds S` per phase (default 1), `--runs R` (default 3), `--warmup S` per server
//! (default 4), `--threads N` for the server (default: `dynomodel-mem serve`'s). `--concurrency`
//! measures instead 8 clients at once on 8 tables and on one ([`concurrency`]), against this build's
//! server and, with `--baseline PATH`, against the `dynomodel-mem` binary at PATH.
//!
//! How it measures, so that the ratio is about the servers:
//! - Both servers run in their own process: DynamoDB Local in its JVM (`scripts/dynamodb-local.sh run`
//!   sets `DYNAMODB_ENDPOINT` and `DYNAMODB_LOCAL_PID`), dynomodel-mem as a child process of this binary
//!   running exactly `dynomodel-mem serve --port 0` (the library's `src/server/cli/`).
//! - Two clients, the same for both servers, on a current-thread Tokio runtime (the runtime
//!   `#[tokio::test]` gives a test suite, which leaves the second core of a small machine to the server):
//!   `AwsBackend` (aws-sdk-dynamodb), the workload the comparison is about, and a raw HTTP/1.1 client
//!   ([`raw`]) that costs so little per request that the servers' own throughput shows.
//! - Each server is warmed up first (DynamoDB Local's JIT compiler needs thousands of requests to reach
//!   its steady state; the warm-up's SDK phases are reported as the "fresh server" figures), then each
//!   phase runs for a fixed time; the runs alternate between the servers and the median run is reported,
//!   so drift on a shared machine hits both alike.
//! - Besides requests per second (which include the client's own cost, the same for both servers), the
//!   CPU time each server process used per request (what a server costs when its clients are elsewhere)
//!   and the client's own.

mod concurrency;
mod cpu;
mod raw;
mod report;
mod workload;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::Duration;

use raw::RawTarget;
use report::{median, print_table, Measurement};
use workload::{Phase, Target};

/// Bench settings from the command line.
struct Settings {
    phase: Duration,
    runs: usize,
    warmup: Duration,
    threads: Option<String>,
    /// `--concurrency`: the many-clients benchmark instead.
    concurrency: bool,
    /// `--baseline PATH`: another `dynomodel-mem` binary to compare with (`--concurrency`).
    baseline: Option<String>,
}

fn parse(args: &[String]) -> Result<Settings, String> {
    let mut settings = Settings {
        phase: Duration::from_secs(1),
        runs: 3,
        warmup: Duration::from_secs(4),
        threads: None,
        concurrency: false,
        baseline: None,
    };
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        if flag == "--concurrency" {
            settings.concurrency = true;
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let seconds = || {
            value
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s > 0.0)
                .map(Duration::from_secs_f64)
                .ok_or_else(|| format!("invalid duration {value:?}"))
        };
        match flag.as_str() {
            "--seconds" => settings.phase = seconds()?,
            "--warmup" => settings.warmup = seconds()?,
            "--runs" => {
                settings.runs = value
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("invalid run count {value:?}"))?;
            }
            "--threads" => settings.threads = Some(value.clone()),
            "--baseline" => settings.baseline = Some(value.clone()),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(settings)
}

/// `dynomodel-mem serve --port 0` as a child process of this binary, killed when dropped.
struct ChildServer {
    child: Child,
    url: String,
}

impl ChildServer {
    fn start(threads: Option<&str>) -> Result<ChildServer, String> {
        let exe = std::env::current_exe().map_err(|e| format!("own path: {e}"))?;
        ChildServer::start_exe(exe, threads)
    }

    /// The server of the `dynomodel-mem` binary `exe` (this one, or `--baseline`'s).
    fn start_exe(exe: std::path::PathBuf, threads: Option<&str>) -> Result<ChildServer, String> {
        let mut command = Command::new(exe);
        command.args(["serve", "--port", "0"]);
        if let Some(threads) = threads {
            command.args(["--threads", threads]);
        }
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting the server: {e}"))?;
        let mut line = String::new();
        if let Some(stdout) = child.stdout.take() {
            // The banner's other lines (where the data lives) come first.
            let mut stdout = BufReader::new(stdout);
            for _ in 0..8 {
                line.clear();
                let _ = stdout.read_line(&mut line);
                if line.starts_with("listening on ") || line.is_empty() {
                    break;
                }
            }
        }
        let mut server = ChildServer {
            child,
            url: String::new(),
        };
        match line.trim().strip_prefix("listening on ") {
            Some(url) => {
                server.url = url.to_owned();
                Ok(server)
            }
            // Dropping `server` kills the child.
            None => Err(format!("the server did not start: {line:?}")),
        }
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The two clients every phase is measured with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Client {
    /// `AwsBackend`: the SDK workload the comparison is about.
    Sdk,
    /// [`raw::RawTarget`]: a client too cheap to hide the servers' own costs.
    Raw,
}

impl Client {
    const ALL: [Client; 2] = [Client::Sdk, Client::Raw];

    fn title(self) -> &'static str {
        match self {
            Client::Sdk => "aws-sdk-dynamodb client (AwsBackend)",
            Client::Raw => "raw HTTP/1.1 client (prebuilt requests)",
        }
    }
}

/// A server under test: its table through both clients, and its process for CPU accounting.
struct Server {
    name: String,
    sdk: Target,
    raw: RawTarget,
    pid: Option<u32>,
}

impl Server {
    async fn create(
        name: &str,
        endpoint: &str,
        table: String,
        pid: Option<u32>,
    ) -> Result<Server, String> {
        Ok(Server {
            name: name.to_owned(),
            raw: RawTarget::new(endpoint, &table)?,
            sdk: Target::create(endpoint, table)
                .await
                .map_err(|e| format!("{name}: {e}"))?,
            pid,
        })
    }
}

async fn measure(
    server: &Server,
    client: Client,
    phase: Phase,
    length: Duration,
) -> Result<Measurement, String> {
    let cpu = || server.pid.and_then(cpu::process_cpu);
    let own_cpu = || cpu::process_cpu(std::process::id());
    let (before, own_before) = (cpu(), own_cpu());
    let (requests, elapsed) = match client {
        Client::Sdk => server
            .sdk
            .run(phase, length)
            .await
            .map_err(|e| e.to_string()),
        Client::Raw => server.raw.run(phase, length).await,
    }
    .map_err(|e| {
        format!(
            "{}, {}, {}: {e}",
            server.name,
            client.title(),
            phase.label()
        )
    })?;
    let per_request = |before: Option<Duration>, after: Option<Duration>| {
        let used = before.zip(after).map(|(b, a)| a.saturating_sub(b));
        used.map(|d| d / requests.max(1) as u32)
    };
    Ok(Measurement {
        ops_per_second: requests as f64 / elapsed.as_secs_f64(),
        cpu_per_request: per_request(before, cpu()),
        client_cpu_per_request: per_request(own_before, own_cpu()),
    })
}

async fn bench(settings: &Settings, ours: &ChildServer) -> Result<(), String> {
    let mut servers = vec![
        Server::create(
            "dynomodel-mem",
            &ours.url,
            "bench".into(),
            Some(ours.child.id()),
        )
        .await?,
    ];
    match std::env::var("DYNAMODB_ENDPOINT") {
        Ok(endpoint) if !endpoint.is_empty() => {
            let pid = std::env::var("DYNAMODB_LOCAL_PID")
                .ok()
                .and_then(|p| p.parse().ok());
            let table = format!("bench-{}", std::process::id());
            servers.push(Server::create("DynamoDB Local", &endpoint, table, pid).await?);
        }
        _ => eprintln!("DYNAMODB_ENDPOINT unset: DynamoDB Local is not measured"),
    }
    // Another DynamoDB-compatible server started by the caller (e.g. `dynoxide serve`; see the
    // module docs): its endpoint, name and process id (for its CPU time).
    if let Ok(endpoint) = std::env::var("PEER_ENDPOINT")
        && !endpoint.is_empty()
    {
        let name = std::env::var("PEER_NAME").unwrap_or_else(|_| "peer".into());
        let pid = std::env::var("PEER_PID").ok().and_then(|p| p.parse().ok());
        let table = format!("bench-{}", std::process::id());
        servers.push(Server::create(&name, &endpoint, table, pid).await?);
    }
    // The warm-up, whose SDK phases are also reported: what a test suite sees of a fresh server.
    let mut cold = Vec::new();
    for server in &servers {
        let mut phases = Vec::new();
        for client in Client::ALL {
            for phase in Phase::ALL {
                let m = measure(server, client, phase, settings.warmup / 8).await?;
                if client == Client::Sdk {
                    phases.push(m);
                }
            }
        }
        cold.push(phases);
    }
    // runs[client][server][phase][run]
    let mut runs = vec![vec![vec![Vec::new(); Phase::ALL.len()]; servers.len()]; Client::ALL.len()];
    for _ in 0..settings.runs {
        for (c, client) in Client::ALL.into_iter().enumerate() {
            for (s, server) in servers.iter().enumerate() {
                for (p, phase) in Phase::ALL.into_iter().enumerate() {
                    runs[c][s][p].push(measure(server, client, phase, settings.phase).await?);
                }
            }
        }
    }
    println!(
        "{} run(s) of {:?} per phase after {:?} of warm-up per server; median run; client on a \
         current-thread runtime",
        settings.runs, settings.phase, settings.warmup
    );
    let names: Vec<&str> = servers.iter().map(|s| s.name.as_str()).collect();
    let cold_title = format!(
        "{}, fresh server: the first {:?} of each phase",
        Client::Sdk.title(),
        settings.warmup / 8
    );
    print_table(&cold_title, &names, &cold);
    for (client, per_server) in Client::ALL.into_iter().zip(runs) {
        let results: Vec<Vec<Measurement>> = per_server
            .into_iter()
            .map(|phases| phases.into_iter().map(median).collect())
            .collect();
        print_table(&format!("{}, warmed up", client.title()), &names, &results);
    }
    for server in servers {
        server.sdk.delete().await.map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `--concurrency`: this build's server, and `--baseline`'s.
fn concurrency_bench(settings: &Settings) -> Result<(), String> {
    let threads = settings.threads.as_deref();
    let mut servers = vec![("this build".to_owned(), ChildServer::start(threads)?)];
    if let Some(path) = &settings.baseline {
        servers.push((
            "baseline".to_owned(),
            ChildServer::start_exe(path.into(), threads)?,
        ));
    }
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?
        .block_on(concurrency::bench(&servers, settings.phase, settings.runs))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("serve") {
        // The child: the server exactly as the `dynomodel-mem` binary runs it.
        return dynomodel_mem::__private::cli::main(args);
    }
    let result = parse(&args).and_then(|settings| {
        if settings.concurrency {
            return concurrency_bench(&settings);
        }
        let ours = ChildServer::start(settings.threads.as_deref())?;
        let client = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("runtime: {e}"))?;
        client.block_on(bench(&settings, &ours))
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("server-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
