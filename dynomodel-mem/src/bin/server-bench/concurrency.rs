//! `--concurrency`: many clients at once, on many tables or on one, against dynomodel-mem's server
//! (this binary's) and, with `--baseline PATH`, against another build of it (e.g. main's
//! `dynomodel-mem`), to show what per-table locking changes.
//!
//! ```text
//! cargo run --release -p dynomodel-mem --features bench --bin server-bench -- \
//!     --concurrency --baseline /path/to/other/dynomodel-mem --seconds 2 --runs 5
//! ```
//!
//! [`CLIENTS`] clients, each one keep-alive connection sending its requests one after another, all on
//! one current-thread runtime with the raw HTTP client (cheap, so the servers' throughput shows): in
//! the "8 tables" phases client `i` works on table `i`, in the "1 table" phases all of them on the same
//! table. GetItem reads items that exist; PutItem writes new ones. In the last phase one client sends
//! BatchWriteItem (long writes) to table 0 while the other seven read tables 1 to 7. The servers' runs alternate, phase
//! by phase, so that drift on a shared machine hits them alike; the median run is reported.

use std::time::{Duration, Instant};

use tokio::net::TcpStream;

use crate::raw::{exchange, AUTHORIZATION};
use crate::ChildServer;

/// Clients in flight at once (one connection each).
pub(crate) const CLIENTS: usize = 8;
/// Items per table, for GetItem to read.
const ITEMS: usize = 100;

/// Items per BatchWriteItem of the mixed phase, and their payload.
const BATCH: usize = 25;
const BATCH_PAYLOAD: usize = 4000;

/// One measured kind of traffic.
#[derive(Debug, Clone, Copy)]
struct Phase {
    put: bool,
    one_table: bool,
    /// Client 0 sends BatchWriteItem (25 items of 4 KB) to its table instead, and is not counted:
    /// how much a long write on one table slows the reads of the others.
    batch_writer: bool,
}

/// A phase: PutItem or GetItem, on one table or on eight, with or without the batch writer.
const fn phase(put: bool, one_table: bool, batch_writer: bool) -> Phase {
    Phase {
        put,
        one_table,
        batch_writer,
    }
}

impl Phase {
    const ALL: [Phase; 5] = [
        phase(false, false, false),
        phase(false, true, false),
        phase(true, false, false),
        phase(true, true, false),
        phase(false, false, true),
    ];

    fn label(self) -> String {
        if self.batch_writer {
            return format!("GetItem, {} clients + 1 batch writer", CLIENTS - 1);
        }
        let operation = if self.put { "PutItem" } else { "GetItem" };
        let tables = if self.one_table {
            "1 table"
        } else {
            "8 tables"
        };
        format!("{operation}, {CLIENTS} clients, {tables}")
    }
}

/// A BatchWriteItem of [`BATCH`] new items of [`BATCH_PAYLOAD`] bytes into `table`.
fn batch_body(table: &str, round: usize, n: usize) -> String {
    let payload = "y".repeat(BATCH_PAYLOAD);
    let puts: Vec<String> = (0..BATCH)
        .map(|i| {
            format!(
                r#"{{"PutRequest":{{"Item":{{"pk":{{"S":"batch-{round}-{n}-{i}"}},"payload":{{"S":"{payload}"}}}}}}}}"#
            )
        })
        .collect();
    format!(r#"{{"RequestItems":{{"{table}":[{}]}}}}"#, puts.join(","))
}

fn request(addr: &str, operation: &str, body: &str) -> Vec<u8> {
    format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-amz-json-1.0\r\n\
         X-Amz-Target: DynamoDB_20120810.{operation}\r\nX-Amz-Date: 20260101T000000Z\r\n\
         Authorization: {AUTHORIZATION}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn table(i: usize) -> String {
    format!("concurrency-{i}")
}

/// Creates the [`CLIENTS`] tables on the server at `addr` and fills each with [`ITEMS`] items.
async fn setup(addr: &str) -> Result<(), String> {
    let mut stream = connect(addr).await?;
    let mut buffer = Vec::new();
    for t in 0..CLIENTS {
        let name = table(t);
        let create = format!(
            r#"{{"TableName":"{name}","AttributeDefinitions":[{{"AttributeName":"pk","AttributeType":"S"}}],"KeySchema":[{{"AttributeName":"pk","KeyType":"HASH"}}],"BillingMode":"PAY_PER_REQUEST"}}"#
        );
        let created = request(addr, "CreateTable", &create);
        exchange(&mut stream, &created, "TableDescription", &mut buffer).await?;
        for i in 0..ITEMS {
            let put = put_body(&name, &format!("item-{i}"));
            exchange(
                &mut stream,
                &request(addr, "PutItem", &put),
                "{",
                &mut buffer,
            )
            .await?;
        }
    }
    Ok(())
}

fn put_body(table: &str, pk: &str) -> String {
    format!(
        r#"{{"TableName":"{table}","Item":{{"pk":{{"S":"{pk}"}},"payload":{{"S":"{}"}}}}}}"#,
        "x".repeat(100)
    )
}

async fn connect(addr: &str) -> Result<TcpStream, String> {
    let stream = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    Ok(stream)
}

/// Runs `phase` for `duration` against the server at `addr`; answers requests per second.
async fn run(addr: &str, phase: Phase, duration: Duration, round: usize) -> Result<f64, String> {
    let started = Instant::now();
    let deadline = started + duration;
    let workers: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let name = table(if phase.one_table { 0 } else { client });
            // Prebuilt: GetItem of the existing items, or PutItem of new ones (fresh keys each run).
            let requests: Vec<Vec<u8>> = (0..ITEMS)
                .map(|i| match phase.put {
                    false => {
                        let body = format!(
                            r#"{{"TableName":"{name}","Key":{{"pk":{{"S":"item-{i}"}}}}}}"#
                        );
                        request(addr, "GetItem", &body)
                    }
                    true => {
                        let pk = format!("new-{round}-{client}-{i}");
                        request(addr, "PutItem", &put_body(&name, &pk))
                    }
                })
                .collect();
            let writer = phase.batch_writer && client == 0;
            let requests = match writer {
                true => (0..ITEMS)
                    .map(|i| request(addr, "BatchWriteItem", &batch_body(&name, round, i)))
                    .collect(),
                false => requests,
            };
            let expected = if phase.put || writer {
                "{"
            } else {
                r#""Item""#
            };
            let addr = addr.to_owned();
            tokio::spawn(async move {
                let mut stream = connect(&addr).await?;
                let mut buffer = Vec::with_capacity(16 * 1024);
                let mut made = 0;
                while Instant::now() < deadline {
                    let request = &requests[made % ITEMS];
                    exchange(&mut stream, request, expected, &mut buffer).await?;
                    made += 1;
                }
                // The batch writer is load, not a measured client.
                Ok::<usize, String>(if writer { 0 } else { made })
            })
        })
        .collect();
    let mut made = 0;
    for worker in workers {
        made += worker.await.map_err(|e| format!("worker: {e}"))??;
    }
    Ok(made as f64 / started.elapsed().as_secs_f64())
}

/// The `--concurrency` benchmark: `servers` are (name, running server), the first the one whose
/// ratios to the others are reported.
pub(crate) async fn bench(
    servers: &[(String, ChildServer)],
    phase_length: Duration,
    runs: usize,
) -> Result<(), String> {
    let addrs: Vec<String> = servers
        .iter()
        .map(|(_, s)| s.url.trim_start_matches("http://").to_owned())
        .collect();
    for addr in &addrs {
        setup(addr).await?;
    }
    // Warm-up: every phase once, briefly.
    for addr in &addrs {
        for phase in Phase::ALL {
            run(addr, phase, phase_length / 4, 0).await?;
        }
    }
    // results[phase][server][run]
    let mut results = vec![vec![Vec::new(); servers.len()]; Phase::ALL.len()];
    for r in 0..runs {
        for (p, phase) in Phase::ALL.into_iter().enumerate() {
            for (s, addr) in addrs.iter().enumerate() {
                results[p][s].push(run(addr, phase, phase_length, r + 1).await?);
            }
        }
    }
    println!(
        "{runs} run(s) of {phase_length:?} per phase, servers alternating; median run; requests/s"
    );
    let mut header = format!("{:<34}", "phase");
    for (name, _) in servers {
        header += &format!(" {name:>14}");
    }
    for (name, _) in servers.iter().skip(1) {
        header += &format!(" {:>14}", format!("{} : {name}", servers[0].0));
    }
    println!("{header}");
    let mut medians = Vec::new();
    for (phase, per_server) in Phase::ALL.into_iter().zip(results) {
        let row: Vec<f64> = per_server.into_iter().map(median).collect();
        let mut line = format!("{:<34}", phase.label());
        for value in &row {
            line += &format!(" {value:>14.0}");
        }
        for value in row.iter().skip(1) {
            line += &format!(" {:>14.2}", row[0] / value);
        }
        println!("{line}");
        medians.push(row);
    }
    // 8 tables : 1 table, per server: how much spreading the load over tables helps.
    for (s, (name, _)) in servers.iter().enumerate() {
        println!(
            "{name}: 8 tables : 1 table = {:.2} (GetItem), {:.2} (PutItem)",
            medians[0][s] / medians[1][s],
            medians[2][s] / medians[3][s]
        );
    }
    Ok(())
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}
