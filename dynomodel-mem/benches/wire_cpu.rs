//! The `datapath` workload through the server's wire layer (JSON request body → engine → JSON response
//! bytes, as the server answers it, without HTTP): GetItem, PutItem, a Query of 20 items and a Scan page
//! of 100, each run a fixed number of times, reporting the CPU time this thread used per request
//! (`/proc/thread-self/schedstat`; Linux only) beside the wall time. For instruction counts, run it
//! under callgrind with `--toggle-collect='*wire_cpu::run*'` (`docs/performance.md`).
//!
//! `cargo bench -p dynomodel-mem --features server --bench wire_cpu [-- OP...] [-- --iterations N]`,
//! OP among `get`, `put`, `query_20`, `scan_100` (all by default).

#![allow(missing_docs, clippy::unwrap_used)]

use std::time::{Duration, Instant};

use dynomodel_mem::__private::wire;
use dynomodel_mem::MemBackend;

/// The `dynomodel-mem` binary's allocator, so that the figures are the server's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/cpu.rs"]
mod cpu;
#[path = "support/workload.rs"]
#[allow(dead_code)] // each bench uses part of the shared workload
mod workload;
use workload::{item, key, populate, ITEMS, PARTITION, TABLE};

const OPS: [&str; 4] = ["get", "put", "query_20", "scan_100"];

/// The operation's name and request body for item (or partition) `i`.
fn request(op: &str, i: usize) -> (&'static str, Vec<u8>) {
    let json = |item: dynomodel::Item| wire::item_to_json(&item).to_string();
    let body = match op {
        "get" => format!(r#"{{"TableName":"{TABLE}","Key":{}}}"#, json(key(i))),
        "put" => format!(r#"{{"TableName":"{TABLE}","Item":{}}}"#, json(item(i))),
        "query_20" => format!(
            r##"{{"TableName":"{TABLE}","KeyConditionExpression":"#p = :p AND #s BETWEEN :lo AND :hi",
            "ExpressionAttributeNames":{{"#p":"pk","#s":"sk"}},
            "ExpressionAttributeValues":{{":p":{{"S":"user{:04}"}},":lo":{{"N":"10"}},":hi":{{"N":"29"}}}}}}"##,
            i / PARTITION
        ),
        "scan_100" => format!(r#"{{"TableName":"{TABLE}","Limit":100}}"#),
        other => panic!("unknown operation {other}"),
    };
    let operation = match op {
        "get" => "GetItem",
        "put" => "PutItem",
        "query_20" => "Query",
        _ => "Scan",
    };
    (operation, body.into_bytes())
}

/// One request, answered as the server answers it: the response body's bytes. Not inlined, so that
/// callgrind's `--toggle-collect` finds it.
#[inline(never)]
fn run(
    rt: &tokio::runtime::Runtime,
    backend: &MemBackend,
    operation: &str,
    body: &[u8],
) -> Vec<u8> {
    let context = wire::Context::default();
    rt.block_on(wire::respond(&context, backend, operation, body))
        .unwrap()
}

fn main() {
    let Some((ops, iterations)) = cpu::parse_args(&OPS) else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let backend = rt.block_on(populate(ITEMS));
    for op in ops {
        // The bodies are made before the clock starts: the figure is the server's side only.
        let mut next = 0;
        let requests: Vec<_> = (0..iterations)
            .map(|_| {
                next = (next + 7919) % ITEMS;
                request(&op, next)
            })
            .collect();
        let mut bytes = 0;
        let started = (Instant::now(), cpu::thread_cpu());
        for (operation, body) in &requests {
            bytes += run(&rt, &backend, operation, body).len();
        }
        let wall = started.0.elapsed() / iterations;
        let cpu = started
            .1
            .zip(cpu::thread_cpu())
            .map(|(before, after)| (after - before) / iterations);
        let micros = |d: Duration| d.as_secs_f64() * 1e6;
        let size = bytes / iterations as usize;
        match cpu {
            Some(cpu) => println!(
                "wire/{op:<12} cpu {:>8.3} µs/op   wall {:>8.3} µs/op   ({size} bytes)",
                micros(cpu),
                micros(wall)
            ),
            None => println!(
                "wire/{op:<12} wall {:>8.3} µs/op   ({size} bytes)",
                micros(wall)
            ),
        }
    }
}
