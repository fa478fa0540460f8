//! `aws_cpu -- --server`: the three variants' whole requests against the engine's HTTP server on
//! loopback, as the issue measures them, rather than against canned responses: the client's CPU per
//! request (the thread's, so the server's work never counts) with the real transport (hyper, the
//! connection pool, the socket) in it.
//!
//! - The server (`dynomodel-mem`, in memory) runs in this process on its own thread and
//!   current-thread runtime, pinned to one core; the client thread is pinned to another, so the two
//!   never take turns on a core. It binds 127.0.0.1 on a free port and stops when the bench ends.
//! - One SDK client serves all three variants (dynomodel's `AwsBackend` wraps a clone of it, which
//!   shares its connection pool); the table is seeded with the 20 items the Query returns, and the
//!   puts write those same items again, so every chunk sees the same table.
//! - Each operation runs in paired chunks, `hand`, `serde_dynamo`, `dynomodel`, then again, so that
//!   a drift of the machine's load hits the three alike; a ratio is taken within each chunk and the
//!   report gives its median and its range over the chunks.
//! - `--interleave`: the variants, and `hand_again` (the A/A check), interleaved request by request
//!   instead (`interleaved.rs`): each iteration runs each once, N iterations (`--chunks` unused);
//!   `--with VARIANT` adds that variant of the canned mode's to those of the operations that have
//!   it: `hand_boxed`, `sdk_boxed`, `backend_from` (a put through `AwsBackend` alone),
//!   `backend_into` (a typed get through `AwsBackend` alone), `dynomodel_maps` (`Db` over
//!   `AwsBackend::with_sdk_item_maps`: no hook, the items through the SDK's maps),
//!   `backend_maps_from` or `backend_maps_into` (`AwsBackend` alone without its hook).
//!
//! `cargo bench --bench aws_cpu -- --server [--chunks C] [--iterations N] [--only VARIANT]
//! [--interleave [--with VARIANT]...] [OP...]`
//! (`OP`: `put`, `get`, `query_20`; N requests per variant and chunk, 500 unless told; C chunks, 10
//! unless told; `--only hand|serde_dynamo|dynomodel`: that variant alone, e.g. under `strace -c -f`
//! to count its system calls per request).

use std::sync::mpsc;
use std::thread::JoinHandle;

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_dynamodb::Client;
use dynomodel::{AwsBackend, Db};
use tokio::runtime::Runtime;

use super::{clock, order, run_blocking, Order, Setup, SETUP};

/// The operations measured, each in the three variants.
const OPS: [&str; 3] = ["put", "get", "query_20"];
const VARIANTS: [&str; 3] = ["hand", "serde_dynamo", "dynomodel"];

/// The command line of the server mode.
struct Settings {
    ops: Vec<&'static str>,
    iterations: u32,
    chunks: usize,
    /// `--only VARIANT`: that variant alone (to count its system calls: `strace -c -f`; `./separate`
    /// runs each variant so), no ratios.
    only: Option<&'static str>,
    /// `--interleave`: the variants (and `hand_again`, the A/A check) interleaved request by
    /// request instead of in chunks (`interleaved.rs`), `iterations` of each.
    interleave: bool,
    /// `--burst B`: requests of a variant in a row when interleaving, the first half untimed.
    burst: usize,
    /// `--with VARIANT` (repeatable): a variant interleaved beside the four (one of `EXTRA`),
    /// with its ratio to `hand`.
    with: Vec<&'static str>,
}

/// The variants `--with` can add to the interleaved ones.
const EXTRA: [&str; 7] = [
    "hand_boxed",
    "sdk_boxed",
    "backend_from",
    "backend_into",
    "dynomodel_maps",
    "backend_maps_into",
    "backend_maps_from",
];

fn settings(args: &[String]) -> Result<Settings, String> {
    let mut settings = Settings {
        ops: Vec::new(),
        iterations: 500,
        chunks: 10,
        only: None,
        interleave: false,
        burst: 16,
        with: Vec::new(),
    };
    let mut args = args.iter();
    let number = |flag: &str, value: Option<&String>| {
        value
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("{flag} takes a positive number"))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--server" | "--bench" => {}
            "--iterations" => settings.iterations = number("--iterations", args.next())?,
            "--interleave" => settings.interleave = true,
            "--burst" => settings.burst = number("--burst", args.next())? as usize,
            "--chunks" => settings.chunks = number("--chunks", args.next())? as usize,
            "--with" => {
                let variant = args.next().map(String::as_str);
                match EXTRA.iter().find(|v| Some(**v) == variant) {
                    Some(v) => settings.with.push(v),
                    None => return Err(format!("--with takes one of {EXTRA:?}")),
                }
            }
            "--only" => {
                let variant = args.next().map(String::as_str);
                match VARIANTS.iter().find(|v| Some(**v) == variant) {
                    Some(v) => settings.only = Some(v),
                    None => return Err(format!("--only takes one of {VARIANTS:?}")),
                }
            }
            op => match OPS.iter().find(|o| **o == op) {
                Some(op) => settings.ops.push(op),
                None => return Err(format!("unknown argument {op:?} (operations: {OPS:?})")),
            },
        }
    }
    if settings.ops.is_empty() {
        settings.ops = OPS.to_vec();
    }
    Ok(settings)
}

/// The engine's server on its own thread, pinned to `core`; stops when dropped.
struct EngineServer {
    url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl EngineServer {
    fn start(core: Option<core_affinity::CoreId>) -> EngineServer {
        let (url_tx, url_rx) = mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("engine-server".into())
            .spawn(move || {
                if let Some(core) = core {
                    core_affinity::set_for_current(core);
                }
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("the server's runtime");
                rt.block_on(async move {
                    let backend = dynomodel_mem::MemBackend::new();
                    let server = dynomodel_mem::server::Server::bind("127.0.0.1:0", backend)
                        .await
                        .expect("binding the engine's server on loopback");
                    url_tx
                        .send(server.url())
                        .expect("the bench waits for the URL");
                    // Stopped by the bench, or when the bench is gone (the sender dropped).
                    let _ = stopped.await;
                    server.shutdown().await;
                });
            })
            .expect("starting the server's thread");
        let url = url_rx.recv().expect("the server's URL");
        EngineServer {
            url,
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for EngineServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// An SDK client of the server (the SDK's default HTTP client: hyper over a pooled connection).
fn server_client(url: &str) -> Client {
    use aws_smithy_http_client::tls::{rustls_provider::CryptoMode, Provider};
    // Named, not left to the SDK's default: a client without one builds an HTTP client (and
    // pool) of its own, and so would `AwsBackend`'s copy of it.
    let http = aws_smithy_http_client::Builder::new()
        .tls_provider(Provider::Rustls(CryptoMode::AwsLc))
        .build_https();
    let config = aws_sdk_dynamodb::Config::builder()
        .http_client(http)
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("bench", "bench", None, None, "bench"))
        .endpoint_url(url)
        .build();
    Client::from_conf(config)
}

/// The server mode (`--server` among `args`): runs it and returns true; false without `--server`.
pub(super) fn run(args: &[String]) -> bool {
    if !args.iter().any(|a| a == "--server") {
        return false;
    }
    let settings = match settings(args) {
        Ok(settings) => settings,
        Err(e) => {
            eprintln!("aws_cpu --server: {e}");
            std::process::exit(2);
        }
    };
    // Client on the first core, server on the second (on one core, both share it, and say so).
    let cores = core_affinity::get_core_ids().unwrap_or_default();
    let (client_core, server_core) = (cores.first().copied(), cores.get(1).copied());
    if server_core.is_none() {
        eprintln!("aws_cpu --server: fewer than two cores; client and server are not pinned apart");
    }
    let server = EngineServer::start(server_core);
    if let Some(core) = client_core.filter(|_| server_core.is_some()) {
        core_affinity::set_for_current(core);
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("the client's runtime");
    let client = rt.block_on(async { server_client(&server.url) });
    let db = Db::new(AwsBackend::new(client.clone()));
    let db_maps = Db::new(AwsBackend::new(client.clone()).with_sdk_item_maps());
    // The Query's partition holds exactly these 20 items; puts rewrite them unchanged.
    let orders: Vec<Order> = (0..20).map(order).collect();
    rt.block_on(async {
        db.create_schema::<Order>()
            .await
            .expect("creating the table");
        for o in &orders {
            db.put(o).await.expect("seeding the table");
        }
    });
    // The three variants write the same bytes.
    let item = super::hand_to_item(&orders[7]);
    assert_eq!(AwsBackend::to_sdk_item(&orders[7]).unwrap(), item);
    let serde_item: std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue> =
        serde_dynamo::aws_sdk_dynamodb_1::to_item(&orders[7]).unwrap();
    assert_eq!(serde_item, item);
    assert!(SETUP
        .set(Setup {
            client,
            db,
            db_maps,
            orders,
            item,
            page: Vec::new(),
        })
        .is_ok());
    match settings.interleave {
        true => println!(
            "client CPU per request against the engine's server at {} (interleaved)",
            server.url
        ),
        false => println!(
            "client CPU per request against the engine's server at {} ({} chunks of {} requests per variant)",
            server.url, settings.chunks, settings.iterations
        ),
    }
    for op in &settings.ops {
        match settings.interleave {
            true => interleave(&rt, op, &settings),
            false => measure(&rt, op, &settings),
        }
    }
    drop(rt);
    drop(server);
    true
}

/// The client thread's CPU per request of `n` requests of `op` (µs), the first of them at `start`.
fn chunk(rt: &Runtime, op: &str, start: usize, n: u32) -> f64 {
    let before = clock::thread_cpu();
    for i in 0..n as usize {
        run_blocking(rt, op, start + i);
    }
    let after = clock::thread_cpu();
    (after - before).as_secs_f64() * 1e6 / f64::from(n)
}

fn measure(rt: &Runtime, op: &str, settings: &Settings) {
    let names: Vec<String> = VARIANTS
        .iter()
        .filter(|v| settings.only.is_none_or(|only| only == **v))
        .map(|v| format!("{op}/{v}"))
        .collect();
    // Warm-up: the connection, the SDK's lazily built state, the server's first requests.
    for name in &names {
        chunk(rt, name, 0, (settings.iterations / 10).max(20));
    }
    let mut per_variant: Vec<Vec<f64>> = vec![Vec::new(); VARIANTS.len()];
    for c in 0..settings.chunks {
        for (v, name) in names.iter().enumerate() {
            per_variant[v].push(chunk(rt, name, c, settings.iterations));
        }
    }
    let ratios = |a: usize, b: usize| -> Vec<f64> {
        per_variant[a]
            .iter()
            .zip(&per_variant[b])
            .map(|(a, b)| a / b)
            .collect()
    };
    for (name, times) in names.iter().zip(&per_variant) {
        println!(
            "{name:<24} cpu {:>8.1} µs/request (median of chunks; {:.1}–{:.1})",
            median(times),
            min(times),
            max(times)
        );
    }
    if settings.only.is_some() {
        return;
    }
    for (label, ratios) in [
        ("dynomodel ÷ hand", ratios(2, 0)),
        ("dynomodel ÷ serde_dynamo", ratios(2, 1)),
        ("serde_dynamo ÷ hand", ratios(1, 0)),
    ] {
        println!(
            "{:<24} {label:<26} median {:.3}, chunks {:.3}–{:.3}",
            op,
            median(&ratios),
            min(&ratios),
            max(&ratios)
        );
    }
}

/// `op`'s variants interleaved request by request, `hand_again` (the A/A check) among them.
fn interleave(rt: &Runtime, op: &str, settings: &Settings) {
    let names: Vec<String> = ["hand", "hand_again", "serde_dynamo", "dynomodel"]
        .iter()
        .chain(&settings.with)
        .map(|v| format!("{op}/{v}"))
        .filter(|name| super::OPS.contains(&name.as_str()))
        .collect();
    let warm_up = (settings.iterations as usize / 10).max(20);
    let samples = super::interleaved::run(
        &names,
        warm_up,
        settings.iterations as usize,
        settings.burst,
        |v, i| run_blocking(rt, &names[v], i),
    );
    print!("{}", super::interleaved::report(&samples));
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    match sorted.len() % 2 {
        0 => (sorted[mid - 1] + sorted[mid]) / 2.0,
        _ => sorted[mid],
    }
}

fn min(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::INFINITY, f64::min)
}

fn max(values: &[f64]) -> f64 {
    values.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}
