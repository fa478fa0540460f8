//! The durable server killed with SIGKILL under load, again and again: the crash test.
//!
//! The server is `dynomodel-mem serve --data-dir DIR` run in a child process: this test binary
//! re-executes itself to run [`serve_child`], which calls the command line's entry point exactly as
//! the `dynomodel-mem` binary does (a test cannot name another package's binary). Eight writers send
//! conditional updates of their own counters and transfers between accounts (TransactWriteItems: two
//! balance updates and a transfer record, all or nothing) until the server is killed at a random
//! point (fixed seed); the server restarts on the same directory and the test checks that
//!
//! - every acknowledged write is there: each counter holds its last acknowledged value (or the one
//!   after it, a write whose answer the kill cut off), each acknowledged transfer's record exists;
//! - no transaction is half there: every balance is 1000 minus the transfers out of it plus the
//!   transfers into it, by the transfer records present, and the total is unchanged;
//! - every index agrees with its table: between rounds the directory is opened in this process and
//!   [`MemBackend::consistency_problems`] compares every index with a rebuild.
//!
//! Rounds alternate `--sync always` and `--sync 10ms` (a kill loses nothing under either), and a small
//! `--compact-after` makes snapshots happen (and be killed) during the run.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use dynomodel_mem::MemBackend;

const ROUNDS: u64 = 6;
const WRITERS: usize = 8;
const ACCOUNTS: usize = 8;
const START_BALANCE: i64 = 1000;
const DIR_VAR: &str = "DYNOMODEL_CRASH_DIR";
const SYNC_VAR: &str = "DYNOMODEL_CRASH_SYNC";

/// Not a test by itself: the server process of [`killed_again_and_again`] (does nothing unless
/// started by it).
#[test]
#[ignore = "the crash test's server process"]
fn serve_child() {
    let (Ok(dir), Ok(sync)) = (std::env::var(DIR_VAR), std::env::var(SYNC_VAR)) else {
        return;
    };
    let args = [
        "serve",
        "--port",
        "0",
        "--data-dir",
        &dir,
        "--sync",
        &sync,
        "--compact-after",
        "30000",
        "--ttl-sweep-interval",
        "0",
    ];
    let code = dynomodel_mem::__private::cli::main(args.iter().map(|a| (*a).to_owned()).collect());
    std::process::exit(if code == std::process::ExitCode::SUCCESS {
        0
    } else {
        1
    });
}

/// SplitMix64: a fixed-seed generator (no dependency for a few numbers).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The server process.
struct Served {
    child: Child,
    addr: SocketAddr,
}

fn start(dir: &Path, sync: &str) -> Served {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["crash::serve_child", "--exact", "--ignored", "--nocapture"])
        .env(DIR_VAR, dir)
        .env(SYNC_VAR, sync)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server exited before listening")
            .unwrap();
        if let Some(url) = line.strip_prefix("listening on http://") {
            break url.trim().parse().unwrap();
        }
    };
    // Keep draining stdout so the child never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Served { child, addr }
}

/// One request; `None` when the connection fails or the answer is cut off (the server died).
async fn try_call(addr: SocketAddr, operation: &str, body: &Value) -> Option<(u16, Value)> {
    let body = body.to_string();
    let mut stream = TcpStream::connect(addr).await.ok()?;
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/x-amz-json-1.0\r\n\
         Content-Length: {}\r\nConnection: close\r\nX-Amz-Target: DynamoDB_20120810.{operation}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.ok()?;
    stream.write_all(body.as_bytes()).await.ok()?;
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.ok()?;
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let status = std::str::from_utf8(&bytes[..split])
        .ok()?
        .split(' ')
        .nth(1)?
        .parse()
        .ok()?;
    let value = serde_json::from_slice(&bytes[split + 4..]).ok()?;
    Some((status, value))
}

async fn ok(addr: SocketAddr, operation: &str, body: Value) -> Value {
    let (status, value) = try_call(addr, operation, &body).await.expect("server down");
    assert_eq!(status, 200, "{operation}: {value}");
    value
}

fn s(v: &str) -> Value {
    json!({ "S": v })
}

fn n(v: i64) -> Value {
    json!({ "N": v.to_string() })
}

/// What the writers were told (acknowledged) and what they tried.
#[derive(Default)]
struct Model {
    /// Each writer's counter: its last acknowledged value.
    counters: Vec<i64>,
    /// A counter write in flight when the server died (its value).
    counter_in_flight: Vec<Option<i64>>,
    /// Transfers acknowledged.
    acked: BTreeSet<String>,
    /// Every transfer tried: id → (from, to).
    tried: BTreeMap<String, (usize, usize)>,
}

async fn setup(addr: SocketAddr) {
    let table = |name: &str, extra: Value| {
        let mut body = json!({
            "TableName": name,
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "BillingMode": "PAY_PER_REQUEST",
        });
        if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                b.insert(k.clone(), v.clone());
            }
        }
        body
    };
    ok(addr, "CreateTable", table("crash_counters", json!({}))).await;
    ok(addr, "CreateTable", table("crash_transfers", json!({}))).await;
    let accounts = table(
        "crash_accounts",
        json!({
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "grp", "AttributeType": "S"},
            ],
            "GlobalSecondaryIndexes": [{
                "IndexName": "by_group",
                "KeySchema": [{"AttributeName": "grp", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }],
        }),
    );
    ok(addr, "CreateTable", accounts).await;
    for a in 0..ACCOUNTS {
        let item = json!({"pk": s(&format!("a{a}")), "grp": s(&format!("g{}", a % 3)), "balance": n(START_BALANCE)});
        ok(
            addr,
            "PutItem",
            json!({"TableName": "crash_accounts", "Item": item}),
        )
        .await;
    }
    for w in 0..WRITERS {
        let item = json!({"pk": s(&format!("c{w}")), "n": n(0)});
        ok(
            addr,
            "PutItem",
            json!({"TableName": "crash_counters", "Item": item}),
        )
        .await;
    }
}

async fn scan(addr: SocketAddr, table: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut start = Value::Null;
    loop {
        let mut body = json!({"TableName": table});
        if !start.is_null() {
            body["ExclusiveStartKey"] = start.clone();
        }
        let page = ok(addr, "Scan", body).await;
        items.extend(page["Items"].as_array().cloned().unwrap_or_default());
        start = page.get("LastEvaluatedKey").cloned().unwrap_or(Value::Null);
        if start.is_null() {
            return items;
        }
    }
}

fn number(item: &Value, name: &str) -> i64 {
    item[name]["N"].as_str().unwrap().parse().unwrap()
}

fn string(item: &Value, name: &str) -> String {
    item[name]["S"].as_str().unwrap().to_owned()
}

/// Checks the restarted server against the model, and makes the model what the server holds.
async fn verify(addr: SocketAddr, model: &mut Model, round: u64) {
    for item in scan(addr, "crash_counters").await {
        let w: usize = string(&item, "pk")[1..].parse().unwrap();
        let value = number(&item, "n");
        let acked = model.counters[w];
        let in_flight = model.counter_in_flight[w];
        assert!(
            value == acked || Some(value) == in_flight,
            "round {round}: counter {w} is {value}; acknowledged {acked}, in flight {in_flight:?}"
        );
        model.counters[w] = value;
        model.counter_in_flight[w] = None;
    }
    let present: BTreeSet<String> = scan(addr, "crash_transfers")
        .await
        .iter()
        .map(|t| string(t, "pk"))
        .collect();
    let lost: Vec<_> = model.acked.difference(&present).collect();
    assert!(
        lost.is_empty(),
        "round {round}: acknowledged transfers lost: {lost:?}"
    );
    let mut expected = [START_BALANCE; ACCOUNTS];
    for id in &present {
        let (from, to) = model.tried[id];
        expected[from] -= 1;
        expected[to] += 1;
    }
    let accounts = scan(addr, "crash_accounts").await;
    assert_eq!(accounts.len(), ACCOUNTS);
    for item in &accounts {
        let a: usize = string(item, "pk")[1..].parse().unwrap();
        assert_eq!(
            number(item, "balance"),
            expected[a],
            "round {round}: account {a} disagrees with the transfer records (half a transaction)"
        );
    }
    // What an acknowledged-or-not transfer did is now known: it is there or it is not.
    model.acked = present;
    // The GSI, through the server, holds every account once with its balance.
    let mut by_index = 0;
    for g in 0..3 {
        let page = ok(
            addr,
            "Query",
            json!({
                "TableName": "crash_accounts",
                "IndexName": "by_group",
                "KeyConditionExpression": "grp = :g",
                "ExpressionAttributeValues": {":g": s(&format!("g{g}"))},
            }),
        )
        .await;
        for item in page["Items"].as_array().unwrap() {
            let a: usize = string(item, "pk")[1..].parse().unwrap();
            assert_eq!(
                number(item, "balance"),
                expected[a],
                "round {round}: index entry of a{a}"
            );
            by_index += 1;
        }
    }
    assert_eq!(by_index, ACCOUNTS);
}

/// One writer: counter updates and transfers until the server dies or `stop` is set.
async fn writer(
    addr: SocketAddr,
    w: usize,
    seed: u64,
    model: Arc<Mutex<Model>>,
    stop: Arc<AtomicBool>,
) {
    let mut rng = Rng(seed);
    let mut k = 0u64;
    while !stop.load(Ordering::Relaxed) {
        k += 1;
        if rng.below(2) == 0 {
            let old = model.lock().unwrap().counters[w];
            let new = old + 1;
            model.lock().unwrap().counter_in_flight[w] = Some(new);
            let body = json!({
                "TableName": "crash_counters",
                "Key": {"pk": s(&format!("c{w}"))},
                "UpdateExpression": "SET n = :new",
                "ConditionExpression": "n = :old",
                "ExpressionAttributeValues": {":new": n(new), ":old": n(old)},
            });
            let Some((status, reply)) = try_call(addr, "UpdateItem", &body).await else {
                return;
            };
            assert_eq!(status, 200, "counter {w}: {reply}");
            let mut m = model.lock().unwrap();
            m.counters[w] = new;
            m.counter_in_flight[w] = None;
        } else {
            let from = rng.below(ACCOUNTS as u64) as usize;
            let to = (from + 1 + rng.below(ACCOUNTS as u64 - 1) as usize) % ACCOUNTS;
            let id = format!("w{w}-{seed}-{k}");
            model.lock().unwrap().tried.insert(id.clone(), (from, to));
            let one = n(1);
            let body = json!({"TransactItems": [
                {"Update": {
                    "TableName": "crash_accounts",
                    "Key": {"pk": s(&format!("a{from}"))},
                    "UpdateExpression": "SET balance = balance - :one",
                    "ConditionExpression": "balance >= :one",
                    "ExpressionAttributeValues": {":one": one},
                }},
                {"Update": {
                    "TableName": "crash_accounts",
                    "Key": {"pk": s(&format!("a{to}"))},
                    "UpdateExpression": "SET balance = balance + :one",
                    "ExpressionAttributeValues": {":one": one},
                }},
                {"Put": {
                    "TableName": "crash_transfers",
                    "Item": {"pk": s(&id), "from": n(from as i64), "to": n(to as i64)},
                    "ConditionExpression": "attribute_not_exists(pk)",
                }},
            ]});
            let Some((status, reply)) = try_call(addr, "TransactWriteItems", &body).await else {
                return;
            };
            match status {
                200 => {
                    model.lock().unwrap().acked.insert(id);
                }
                _ => assert!(
                    reply["__type"]
                        .as_str()
                        .unwrap_or("")
                        .ends_with("TransactionCanceledException"),
                    "transfer: {reply}"
                ),
            }
        }
    }
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_second_server_on_the_directory_fails_clearly() {
    let dir = TempDir(std::env::temp_dir().join(format!("dynomodel-lock-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&dir.0);
    let mut first = start(&dir.0, "always");
    let second = Command::new(std::env::current_exe().unwrap())
        .args(["crash::serve_child", "--exact", "--ignored", "--nocapture"])
        .env(DIR_VAR, &dir.0)
        .env(SYNC_VAR, "always")
        .output()
        .unwrap();
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    assert!(!second.status.success());
    let stderr = String::from_utf8_lossy(&second.stderr);
    let expected = format!(
        "dynomodel-mem: data directory {} is in use by another dynomodel-mem process (pid {})",
        dir.0.display(),
        first.child.id()
    );
    assert!(stderr.contains(&expected), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killed_again_and_again() {
    let dir = TempDir(std::env::temp_dir().join(format!("dynomodel-crash-{}", std::process::id())));
    let _ = std::fs::remove_dir_all(&dir.0);
    let mut rng = Rng(16);
    let model = Arc::new(Mutex::new(Model {
        counters: vec![0; WRITERS],
        counter_in_flight: vec![None; WRITERS],
        ..Model::default()
    }));
    let mut served = start(&dir.0, "always");
    setup(served.addr).await;
    for round in 0..ROUNDS {
        let stop = Arc::new(AtomicBool::new(false));
        let writers: Vec<_> = (0..WRITERS)
            .map(|w| {
                let seed = rng.next();
                tokio::spawn(writer(served.addr, w, seed, model.clone(), stop.clone()))
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(150 + rng.below(350))).await;
        served.child.kill().unwrap(); // SIGKILL
        served.child.wait().unwrap();
        stop.store(true, Ordering::Relaxed);
        for w in writers {
            w.await.unwrap();
        }
        // Recovery in this process: every index equals its rebuild.
        let engine = MemBackend::open(&dir.0).unwrap();
        if let Some(report) = engine.recovery_report() {
            eprintln!("round {round}: {report}");
        }
        let problems = engine.consistency_problems();
        assert!(problems.is_empty(), "round {round}: {problems:?}");
        drop(engine);
        let sync = if round % 2 == 0 { "10ms" } else { "always" };
        served = start(&dir.0, sync);
        let mut m = std::mem::take(&mut *model.lock().unwrap());
        verify(served.addr, &mut m, round).await;
        *model.lock().unwrap() = m;
    }
    let m = model.lock().unwrap();
    assert!(
        m.acked.len() > 50,
        "too few transfers to mean anything: {}",
        m.acked.len()
    );
    drop(m);
    served.child.kill().unwrap();
    served.child.wait().unwrap();
}
