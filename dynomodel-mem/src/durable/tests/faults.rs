//! The disk failing under the real engine (`sim.rs`): a full disk, failed and short writes, failed
//! fsyncs under both sync policies, failed snapshots. In every case: what was acknowledged survives
//! a kill and a power cut, nothing unacknowledged is ever visible, the engine degrades and resumes.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::executor::block_on;

use super::super::sim::{Fault, Op, Sim};
use super::super::{Health, SyncPolicy};
use super::{create, get, item_count, put, sim_builder, sim_log, sim_open, wait_healthy, SIM_DIR};
use crate::{ManualClock, MemBackend};
use dynomodel::backend::Backend;

/// A table and the item `a1` on a fresh simulated disk.
fn started(clock: &ManualClock) -> (Sim, MemBackend) {
    let sim = Sim::new();
    let b = sim_open(&sim, clock);
    block_on(create(&b));
    block_on(b.put_item(put("a1", "g"))).expect("put a1");
    (sim, b)
}

/// What a restart finds on `image`: `present` there, `absent` not, no torn tail, indexes right.
fn check_restart(image: &Sim, clock: &ManualClock, present: &[&str], absent: &[&str]) {
    let b = sim_open(image, clock);
    for pk in present {
        assert!(get(&b, pk).expect("get").is_some(), "{pk} lost");
    }
    for pk in absent {
        assert!(get(&b, pk).expect("get").is_none(), "{pk} came back");
    }
    let report = b.recovery_report().expect("report");
    assert!(report.torn_tail.is_none(), "{report}");
    assert!(b.consistency_problems().is_empty());
}

/// On a full disk a write answered 500 is not applied in memory (no phantom write read back until a
/// restart); the engine is degraded with the reason, refusing writes and serving reads, and writes
/// resume by themselves once space is freed.
#[test]
fn a_full_disk_shows_no_phantom_write_and_writes_resume_once_space_is_freed() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    sim.free_space(Some(10));
    let err = block_on(b.put_item(put("a2", "g"))).unwrap_err();
    assert_eq!(err.code(), "InternalServerError");
    assert!(err.message().contains("the write was not applied"), "{err}");
    assert!(err.message().contains("No space left on device"), "{err}");
    // Not in memory: no reader sees it.
    assert_eq!(get(&b, "a2").expect("get"), None);
    assert_eq!(item_count(&b), 1);
    // Degraded: the reason given, writes refused with a clear message, reads served.
    let Health::Degraded { reason } = b.health() else {
        panic!("{:?}", b.health());
    };
    assert!(
        reason.contains("could not append to the log in /sim/data"),
        "{reason}"
    );
    assert!(reason.contains("No space left on device"), "{reason}");
    let refused = block_on(b.put_item(put("a3", "g"))).unwrap_err();
    assert_eq!(refused.code(), "ServiceUnavailable");
    assert!(
        refused.message().contains("writes are refused"),
        "{refused}"
    );
    assert!(refused.message().contains("reads are served"), "{refused}");
    assert!(get(&b, "a1").expect("read while degraded").is_some());
    // Nothing unacknowledged on disk either.
    check_restart(&sim.after_kill(), &clock, &["a1"], &["a2"]);
    // Space comes back: writes resume by themselves.
    sim.free_space(None);
    wait_healthy(&b);
    block_on(b.put_item(put("a3", "g"))).expect("put after space came back");
    check_restart(&sim.after_kill(), &clock, &["a1", "a3"], &["a2"]);
    check_restart(&sim.after_power_cut(), &clock, &["a1", "a3"], &["a2"]);
}

/// A write cut short at every byte of its record (the disk filling up under it): the engine and
/// the log are as if it had never been tried.
#[test]
fn a_short_write_at_every_byte_of_a_record_leaves_no_trace() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    let before = sim.bytes(&sim_log(&sim)).len();
    block_on(b.put_item(put("a2", "g"))).expect("put");
    let record = sim.bytes(&sim_log(&sim)).len() - before;
    drop(b);
    for written in 0..record {
        let (sim, b) = started(&clock);
        sim.arm(Op::Append, "log-", 0, 1, Fault::Short(written));
        let err = block_on(b.put_item(put("a2", "g"))).unwrap_err();
        assert_eq!(err.code(), "InternalServerError", "{written}: {err}");
        assert_eq!(get(&b, "a2").expect("get"), None, "{written}");
        assert_eq!(sim.bytes(&sim_log(&sim)).len(), before, "{written}");
        check_restart(&sim.after_kill(), &clock, &["a1"], &["a2"]);
        wait_healthy(&b);
        block_on(b.put_item(put("a3", "g"))).expect("put after");
        check_restart(&sim.after_power_cut(), &clock, &["a1", "a3"], &["a2"]);
    }
}

/// An I/O error on the write itself, and a failed write of a table operation.
#[test]
fn a_failed_write_of_any_request_is_undone() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    sim.arm(Op::Append, "log-", 0, 1, Fault::Io);
    let err = block_on(b.delete_item(dynomodel::backend::DeleteItemInput {
        table_name: "tab".into(),
        key: super::item(&[("pk", super::s("a1"))]),
        ..Default::default()
    }))
    .unwrap_err();
    assert!(err.message().contains("Input/output error"), "{err}");
    assert!(
        get(&b, "a1").expect("get").is_some(),
        "the delete was undone"
    );
    wait_healthy(&b);
    sim.arm(Op::Append, "log-", 0, 1, Fault::NoSpace);
    let err = block_on(b.delete_table(dynomodel::backend::DeleteTableInput {
        table_name: "tab".into(),
    }))
    .unwrap_err();
    assert_eq!(err.code(), "InternalServerError");
    assert_eq!(item_count(&b), 1, "the table is still there");
    wait_healthy(&b);
    check_restart(&sim.after_power_cut(), &clock, &["a1"], &[]);
}

/// Keeps the disk too full for the probe (64 KiB) but not for a record, so that an engine a failure
/// degrades stays degraded until [`Sim::free_space`]`(None)`: the probe, every 2 ms in these tests,
/// would otherwise resume writes before the test looks.
fn keep_degraded(sim: &Sim) {
    sim.free_space(Some(4 << 10));
}

/// Under `always`, a write whose fsync fails is answered an error, undone in memory and on disk
/// (never trusted to a retried fsync: the simulated kernel drops the pages, as Linux does).
#[test]
fn a_failed_fsync_under_always_undoes_the_write() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    keep_degraded(&sim);
    sim.arm(Op::Sync, "log-", 0, 1, Fault::Io);
    let err = block_on(b.put_item(put("a2", "g"))).unwrap_err();
    assert_eq!(err.code(), "InternalServerError");
    assert!(err.message().contains("the write was not applied"), "{err}");
    assert!(
        err.message()
            .contains("could not fsync the log in /sim/data: Input/output error"),
        "{err}"
    );
    assert_eq!(get(&b, "a2").expect("get"), None);
    assert!(matches!(b.health(), Health::Degraded { .. }));
    sim.free_space(None);
    wait_healthy(&b);
    block_on(b.put_item(put("a3", "g"))).expect("put after");
    check_restart(&sim.after_power_cut(), &clock, &["a1", "a3"], &["a2"]);
    check_restart(&sim.after_kill(), &clock, &["a1", "a3"], &["a2"]);
}

/// Readers racing a write that fails (its append, or its fsync) never see it; the write is told
/// that it was not applied, and why.
#[test]
fn readers_never_see_a_write_that_failed() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    for (round, op) in [Op::Append, Op::Sync, Op::Append, Op::Sync]
        .into_iter()
        .enumerate()
    {
        let pk = format!("x{round}");
        let stop = Arc::new(AtomicBool::new(false));
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let (b, pk, stop) = (b.clone(), pk.clone(), Arc::clone(&stop));
                std::thread::spawn(move || {
                    let mut seen = 0;
                    while !stop.load(Ordering::Acquire) {
                        if let Ok(Some(_)) = get(&b, &pk) {
                            seen += 1;
                        }
                    }
                    seen
                })
            })
            .collect();
        sim.arm(op, "log-", 0, 1, Fault::Io);
        // Whichever thread ran the failed fsync (a reader may have), the writer is told why.
        let err = block_on(b.put_item(put(&pk, "g"))).unwrap_err();
        assert!(
            err.message().contains("the write was not applied")
                && err.message().contains("Input/output error"),
            "{op:?}: {err}"
        );
        stop.store(true, Ordering::Release);
        for r in readers {
            assert_eq!(r.join().expect("reader"), 0, "{op:?}: a reader saw {pk}");
        }
        wait_healthy(&b);
    }
    check_restart(&sim.after_power_cut(), &clock, &["a1"], &["x0", "x1"]);
}

/// Under `Nms`, a failed fsync loses what a power cut at that moment would: the writes since the
/// last fsync that worked, which were acknowledged. The engine is put back to exactly that.
#[test]
fn a_failed_fsync_under_nms_goes_back_to_the_last_good_fsync() {
    let clock = ManualClock::default();
    let sim = Sim::new();
    let b = sim_builder(&sim, &clock)
        .sync(SyncPolicy::Every(Duration::from_secs(3600)))
        .open(SIM_DIR)
        .expect("open");
    block_on(create(&b));
    block_on(b.put_item(put("a1", "g"))).expect("put a1");
    b.sync().expect("sync");
    block_on(b.put_item(put("a2", "g"))).expect("acknowledged, not yet fsynced");
    sim.arm(Op::Sync, "log-", 0, 1, Fault::Io);
    let log = sim_log(&sim);
    let tail = sim.bytes(&log)[sim.bytes(&log).len() - 40..].to_vec();
    assert!(b.sync().is_err());
    assert_eq!(get(&b, "a2").expect("get"), None, "as after a power cut");
    // The cut record is kept for the operator.
    let kept: Vec<_> = sim
        .paths(&Path::new(SIM_DIR).join("aside"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains(".undone-at-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(sim.bytes(&kept[0]).ends_with(&tail));
    assert!(get(&b, "a1").expect("get").is_some());
    wait_healthy(&b);
    block_on(b.put_item(put("a3", "g"))).expect("put after");
    b.sync().expect("sync");
    check_restart(&sim.after_power_cut(), &clock, &["a1", "a3"], &["a2"]);
}

/// A snapshot that fails anywhere (its file, its fsync, its rename, the segment it starts) leaves
/// no temporary file, and the log goes on; the next one works.
#[test]
fn a_failed_snapshot_leaves_no_temporary_file_and_the_log_goes_on() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    let faults = [
        (Op::Append, "snapshot-", Fault::NoSpace),
        (Op::Sync, "snapshot-", Fault::Io),
        (Op::Sync, "snapshot-", Fault::Io),
        (Op::Rename, "snapshot-", Fault::Io),
        (Op::Create, "log-", Fault::NoSpace),
        (Op::Create, "MANIFEST", Fault::NoSpace),
    ];
    for (i, (op, path, fault)) in faults.into_iter().enumerate() {
        sim.arm(op, path, 0, 1, fault);
        assert!(b.compact().is_err(), "{op:?} {path}");
        let temporaries: Vec<_> = sim
            .paths(Path::new(SIM_DIR))
            .into_iter()
            .filter(|p| p.to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(temporaries.is_empty(), "{op:?} {path}: {temporaries:?}");
        assert_eq!(b.health(), Health::Ok);
        block_on(b.put_item(put(&format!("s{i}"), "g"))).expect("the log goes on");
        check_restart(&sim.after_kill(), &clock, &["a1", &format!("s{i}")], &[]);
        check_restart(
            &sim.after_power_cut(),
            &clock,
            &["a1", &format!("s{i}")],
            &[],
        );
    }
    assert_eq!(b.compact().expect("compact").1, 7);
    check_restart(&sim.after_power_cut(), &clock, &["a1", "s0", "s5"], &[]);
}

/// The durable write path costs what it did: one append per write request and, under `always`,
/// at most one fsync per request (shared among writers waiting together).
#[test]
fn a_write_costs_one_append_and_at_most_one_fsync() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    let syncs = sim.syncs();
    for i in 0..10 {
        block_on(b.put_item(put(&format!("c{i}"), "g"))).expect("put");
    }
    assert_eq!(sim.syncs() - syncs, 10);
    // Reads of what is on disk already cost none.
    for _ in 0..10 {
        get(&b, "c1").expect("get");
    }
    assert_eq!(sim.syncs() - syncs, 10);
}

/// The log's own fsync failing as a snapshot closes its segment: handled as any failed fsync of
/// the log (under `Nms`, the writes since the last good fsync are gone, as a power cut would take
/// them), never trusted to a later fsync.
#[test]
fn a_failed_fsync_of_the_log_during_a_snapshot_is_a_failed_fsync() {
    let clock = ManualClock::default();
    let sim = Sim::new();
    let b = sim_builder(&sim, &clock)
        .sync(SyncPolicy::Every(Duration::from_secs(3600)))
        .open(SIM_DIR)
        .expect("open");
    block_on(create(&b));
    block_on(b.put_item(put("a1", "g"))).expect("put a1");
    b.sync().expect("sync");
    block_on(b.put_item(put("a2", "g"))).expect("acknowledged, not yet fsynced");
    keep_degraded(&sim);
    sim.arm(Op::Sync, "log-", 0, 1, Fault::Io);
    assert!(b.compact().is_err());
    assert_eq!(get(&b, "a2").expect("get"), None);
    assert!(matches!(b.health(), Health::Degraded { .. }));
    sim.free_space(None);
    wait_healthy(&b);
    assert_eq!(b.compact().expect("compact").1, 1);
    check_restart(&sim.after_power_cut(), &clock, &["a1"], &["a2"]);
}

/// The server over a durable engine (the `server` feature: durable mode builds without it).
#[cfg(feature = "server")]
mod over_http {
    use super::*;

    /// One HTTP exchange with the server at `addr`: status and body.
    async fn http(addr: std::net::SocketAddr, request: &str) -> (u16, serde_json::Value) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        stream.write_all(request.as_bytes()).await.expect("send");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.expect("read");
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text[9..12].parse().expect("status");
        let body = text.split("\r\n\r\n").nth(1).unwrap_or_default();
        (status, serde_json::from_str(body).unwrap_or_default())
    }

    fn get_health(addr: std::net::SocketAddr) -> String {
        format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
    }

    fn put_request(addr: std::net::SocketAddr, pk: &str) -> String {
        let body = format!(r#"{{"TableName":"tab","Item":{{"pk":{{"S":"{pk}"}}}}}}"#);
        format!(
            "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\n\
             Content-Type: application/x-amz-json-1.0\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    }

    /// The server on a full disk: the failed write is a 500 saying it was not applied, `/health`
    /// answers 503 with the reason, later writes 503 `ServiceUnavailable`; all is well again once
    /// space is freed.
    #[test]
    fn the_server_reports_itself_degraded_and_recovers() {
        let clock = ManualClock::default();
        let (sim, b) = started(&clock);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            let server = crate::server::Server::bind_mem("127.0.0.1:0", b.clone(), None)
                .await
                .expect("bind");
            let addr = server.local_addr();
            assert_eq!(http(addr, &get_health(addr)).await.0, 200);
            sim.free_space(Some(10));
            let (status, body) = http(addr, &put_request(addr, "a2")).await;
            assert_eq!(status, 500, "{body}");
            assert_eq!(
                body["__type"],
                "com.amazonaws.dynamodb.v20120810#InternalServerError"
            );
            assert!(
                body["message"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("not applied"),
                "{body}"
            );
            let (status, body) = http(addr, &get_health(addr)).await;
            assert_eq!(
                (status, body["status"].as_str()),
                (503, Some("degraded")),
                "{body}"
            );
            assert!(
                body["reason"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("No space left"),
                "{body}"
            );
            let (status, body) = http(addr, &put_request(addr, "a3")).await;
            assert_eq!(status, 503, "{body}");
            assert_eq!(
                body["__type"],
                "com.amazonaws.dynamodb.v20120810#ServiceUnavailable"
            );
            sim.free_space(None);
            wait_healthy(&b);
            assert_eq!(http(addr, &get_health(addr)).await.0, 200);
            assert_eq!(http(addr, &put_request(addr, "a3")).await.0, 200);
            server.shutdown().await;
        });
        check_restart(&sim.after_power_cut(), &clock, &["a1", "a3"], &["a2"]);
    }
}

/// When the engine cannot even be put back (here: the log cannot be cut after a short write), it
/// refuses every request until a restart, which finds the torn record and cuts it.
#[test]
fn an_engine_that_cannot_be_put_back_refuses_everything_until_a_restart() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    sim.arm(Op::Append, "log-", 0, 1, Fault::Short(11));
    sim.arm(Op::SetLen, "log-", 0, 2, Fault::Io);
    assert!(block_on(b.put_item(put("a2", "g"))).is_err());
    let Health::Failed { reason } = b.health() else {
        panic!("{:?}", b.health());
    };
    assert!(reason.contains("could not be put back"), "{reason}");
    for refused in [
        get(&b, "a1").unwrap_err(),
        block_on(b.put_item(put("a3", "g"))).unwrap_err(),
    ] {
        assert_eq!(refused.code(), "ServiceUnavailable");
        assert!(refused.message().contains("restart it"), "{refused}");
    }
    std::thread::sleep(Duration::from_millis(20));
    assert!(
        matches!(b.health(), Health::Failed { .. }),
        "no probe resumes it"
    );
    let restarted = sim_open(&sim.after_kill(), &clock);
    let report = restarted.recovery_report().expect("report");
    assert_eq!(report.torn_tail.as_ref().map(|t| t.dropped), Some(11));
    assert!(get(&restarted, "a1").expect("get").is_some());
    assert!(get(&restarted, "a2").expect("get").is_none());
}

/// A write whose record was appended, waiting for its fsync while another table's write fails:
/// the rollback keeps its record (and fsyncs it), so it is acknowledged, not told "not applied".
#[test]
fn a_write_waiting_for_its_fsync_survives_another_writes_failure() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    block_on(b.create_table(dynomodel::backend::CreateTableInput {
        table_name: "other".into(),
        attribute_definitions: vec![dynomodel::backend::AttributeDefinition {
            attribute_name: "pk".into(),
            attribute_type: dynomodel::backend::ScalarAttributeType::S,
        }],
        key_schema: vec![dynomodel::backend::KeySchemaElement::hash("pk")],
        billing_mode: Some(dynomodel::backend::BillingMode::PayPerRequest),
        ..Default::default()
    }))
    .expect("create other");
    let durable = Arc::clone(b.durable.as_ref().expect("durable"));
    // The waiting writer: appended, then held at the fsync.
    let leader = durable.syncing.lock().expect("syncing");
    let waiting = {
        let b = b.clone();
        std::thread::spawn(move || block_on(b.put_item(put("w1", "g"))))
    };
    while durable.appended.load(Ordering::Acquire) < 5 {
        std::thread::yield_now();
    }
    // The failing writer, on the other table; its rollback waits for this read lock.
    let engine = b.read();
    sim.arm(Op::Append, "log-", 0, 1, Fault::NoSpace);
    let failing = {
        let b = b.clone();
        std::thread::spawn(move || {
            let mut input = put("w2", "g");
            input.table_name = "other".into();
            block_on(b.put_item(input))
        })
    };
    while !durable.faulted.poisoned() {
        std::thread::yield_now();
    }
    drop(leader);
    std::thread::sleep(Duration::from_millis(50));
    drop(engine);
    assert!(failing.join().expect("failing").is_err());
    waiting.join().expect("waiting").expect("acknowledged");
    check_restart(&sim.after_power_cut(), &clock, &["a1", "w1"], &[]);
}

/// `Backend::now`, the time the mapper stamps `#[created_at]` / `#[updated_at]` with, is the
/// engine's clock in durable mode too: not left pinned by a write (the pin is the writing
/// thread's, for the write only), and still the engine's after a failed write rebuilt the state and
/// after a restart.
#[test]
fn the_mappers_time_is_the_engines_clock_through_writes_failures_and_restarts() {
    use crate::Clock;
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    clock.advance(Duration::from_secs(90));
    assert_eq!(b.now(), clock.now());
    block_on(b.put_item(put("a2", "g"))).expect("put");
    clock.advance(Duration::from_secs(1));
    assert_eq!(b.now(), clock.now());

    sim.free_space(Some(10));
    block_on(b.put_item(put("a3", "g"))).unwrap_err();
    sim.free_space(None);
    wait_healthy(&b);
    clock.advance(Duration::from_secs(1));
    assert_eq!(b.now(), clock.now());

    let restarted = sim_open(&sim.after_kill(), &clock);
    clock.advance(Duration::from_secs(1));
    assert_eq!(restarted.now(), clock.now());
}

/// Under `always`, a write waiting for its fsync while another thread's fsync of the log fails (here
/// a snapshot's) is told what its leader would be: its write was not applied, and why. The answer
/// does not depend on which thread ran the fsync, nor on the health by the time it answers.
#[test]
fn a_write_lost_to_another_threads_failed_fsync_says_it_was_not_applied() {
    let clock = ManualClock::default();
    let (sim, b) = started(&clock);
    let durable = Arc::clone(b.durable.as_ref().expect("durable"));
    let before = durable.appended.load(Ordering::Acquire);
    // The waiting writer: appended, then held at the fsync.
    let leader = durable.syncing.lock().expect("syncing");
    let waiting = {
        let b = b.clone();
        std::thread::spawn(move || block_on(b.put_item(put("w1", "g"))))
    };
    while durable.appended.load(Ordering::Acquire) == before {
        std::thread::yield_now();
    }
    sim.arm(Op::Sync, "log-", 0, 1, Fault::Io);
    assert!(
        b.compact().is_err(),
        "the snapshot's fsync of the log failed"
    );
    // Writes may have resumed already: the answer does not come from the health.
    wait_healthy(&b);
    drop(leader);
    let err = waiting.join().expect("waiting").unwrap_err();
    assert_eq!(err.code(), "InternalServerError");
    assert!(err.message().contains("the write was not applied"), "{err}");
    assert!(
        err.message()
            .contains("could not fsync the log in /sim/data: Input/output error"),
        "{err}"
    );
    assert_eq!(get(&b, "w1").expect("get"), None);
    check_restart(&sim.after_power_cut(), &clock, &["a1"], &["w1"]);
    check_restart(&sim.after_kill(), &clock, &["a1"], &["w1"]);
}

/// Under `always`, a write that changes nothing (a failed condition, an update to the same value) may
/// still show what it read — the item its condition failed on, or only that it failed — so it settles
/// like a read: it waits for the writes it may have seen, and is refused if one of them is lost.
#[test]
fn a_write_that_changes_nothing_waits_like_a_read() {
    use super::super::writer::Ticket;
    let clock = ManualClock::default();
    let (_sim, b) = started(&clock);
    let durable = b.durable.as_ref().expect("durable");
    let (result, ticket) = durable.run(&mut (), None, |_| Ok(()));
    assert!(result.is_ok());
    assert!(matches!(ticket, Ticket::Saw(_)), "{ticket:?}");
    durable.settle(ticket).expect("the log is on disk up to it");
}
