//! Damage told from a crash, on a simulated disk: a torn write at every byte of the last record is
//! cut and reported; a flipped bit anywhere, a missing, emptied, shortened or unnamed file, a gap in
//! the sequence numbers are refused, naming the file, the offset and what would be lost; a repair
//! cuts at the last good record and reports what it dropped.

use std::path::{Path, PathBuf};

use futures::executor::block_on;

use super::super::dir::{self, Kind};
use super::super::manifest;
use super::super::sim::{Fault, Op, Sim};
use super::super::{Damage, OpenError};
use super::{create, get, put, sim_builder, sim_log, sim_open, SIM_DIR};
use crate::{ManualClock, MemBackend};
use dynomodel::backend::Backend;

/// A table (records 1 and 2) and `puts` items `p0`, `p1`, … (records 3, 4, …), on a simulated
/// disk after a kill; the log segment and where each record ends in it.
fn written(clock: &ManualClock, puts: usize) -> (Sim, PathBuf, Vec<usize>) {
    let sim = Sim::new();
    let b = sim_open(&sim, clock);
    block_on(create(&b));
    let log = sim_log(&sim);
    let mut ends = vec![sim.bytes(&log).len()];
    for i in 0..puts {
        block_on(b.put_item(put(&format!("p{i}"), "g"))).expect("put");
        ends.push(sim.bytes(&log).len());
    }
    drop(b);
    (sim.after_kill(), log, ends)
}

fn open(sim: &Sim, clock: &ManualClock) -> Result<MemBackend, OpenError> {
    sim_builder(sim, clock).open(SIM_DIR)
}

fn damage(result: Result<MemBackend, OpenError>) -> Box<super::super::DamageReport> {
    match result {
        Err(OpenError::Damaged(d)) => d,
        Err(e) => panic!("not damage: {e}"),
        Ok(_) => panic!("opened"),
    }
}

/// Items `p0…p{n-1}` are there, `p{n}` not.
fn holds(b: &MemBackend, n: usize) {
    for i in 0..n {
        assert!(
            get(b, &format!("p{i}")).expect("get").is_some(),
            "p{i} lost"
        );
    }
    assert!(
        get(b, &format!("p{n}")).expect("get").is_none(),
        "p{n} there"
    );
    assert!(b.consistency_problems().is_empty());
}

#[test]
fn a_torn_write_at_every_byte_of_the_last_record_is_cut_and_kept() {
    let clock = ManualClock::default();
    let (sim, log, ends) = written(&clock, 3);
    let whole = sim.bytes(&log);
    for cut in ends[2] + 1..ends[3] {
        let image = sim.after_kill();
        image.set_bytes(&log, &whole[..cut]);
        let b = open(&image, &clock).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        let tail = b
            .recovery_report()
            .and_then(|r| r.torn_tail.clone())
            .expect("torn tail");
        assert_eq!(tail.offset as usize, ends[2], "cut at {cut}");
        assert_eq!(image.bytes(&tail.kept), &whole[ends[2]..cut]);
        holds(&b, 2);
        // The log goes on from the cut.
        block_on(b.put_item(put("p2", "g"))).expect("put");
        drop(b);
        holds(&open(&image.after_kill(), &clock).expect("reopen"), 3);
    }
    // A power cut can leave zeros where the data was not written yet: a torn tail too.
    let image = sim.after_kill();
    let mut zeros = whole[..ends[2] + 5].to_vec();
    zeros.resize(ends[3] + 4096, 0);
    image.set_bytes(&log, &zeros);
    let b = open(&image, &clock).expect("open");
    assert!(b
        .recovery_report()
        .and_then(|r| r.torn_tail.clone())
        .is_some());
    holds(&b, 2);
}

/// Every byte of the log, one bit each: either refused as damage (the file untouched), or, in
/// the last record only, cut as a torn tail; never an acknowledged write silently gone.
#[test]
fn a_flipped_bit_anywhere_in_the_log_is_refused_or_a_reported_torn_tail() {
    let clock = ManualClock::default();
    let (sim, log, ends) = written(&clock, 4);
    let whole = sim.bytes(&log);
    for at in 0..whole.len() {
        let image = sim.after_kill();
        let mut bytes = whole.clone();
        bytes[at] ^= 1 << (at % 8);
        image.set_bytes(&log, &bytes);
        match open(&image, &clock) {
            Ok(b) => {
                assert!(at >= ends[3], "byte {at}: opened");
                let tail = b.recovery_report().and_then(|r| r.torn_tail.clone());
                assert_eq!(tail.map(|t| t.offset as usize), Some(ends[3]), "byte {at}");
                holds(&b, 3);
            }
            Err(OpenError::Damaged(d)) => {
                assert!(at < ends[3], "byte {at}: the last record is a torn tail");
                assert_eq!(d.file, log);
                assert!(d.offset as usize <= at, "byte {at}: {d}");
                assert_eq!(image.bytes(&log), bytes, "byte {at}: changed");
                // What follows the damage is counted: the later records are named.
                if at >= ends[0] {
                    assert_eq!(d.after.last, Some(6), "byte {at}: {d}");
                }
            }
            Err(e) => panic!("byte {at}: {e}"),
        }
    }
}

/// A deleted, emptied or overwritten log is refused rather than starting an empty server.
#[test]
fn a_deleted_emptied_or_overwritten_log_is_refused() {
    let clock = ManualClock::default();
    let (sim, log, _) = written(&clock, 3);
    let image = sim.after_kill();
    image.delete(&log);
    let d = damage(open(&image, &clock));
    assert_eq!((d.file.clone(), d.damage), (log.clone(), Damage::Missing));
    assert!(
        d.to_string().contains(&format!(
            "{} is missing (the manifest names it); after it: 0 bytes with no readable record",
            log.display()
        )),
        "{d}"
    );
    let image = sim.after_kill();
    image.set_bytes(&log, b"");
    let d = damage(open(&image, &clock));
    assert_eq!((d.offset, d.damage), (0, Damage::Truncated));
    let image = sim.after_kill();
    image.set_bytes(&log, &[0u8; 4096]);
    let d = damage(open(&image, &clock));
    assert_eq!(d.offset, 0);
    // The manifest itself, missing or garbled.
    let manifest = Path::new(SIM_DIR).join(manifest::FILE);
    let image = sim.after_kill();
    image.delete(&manifest);
    assert_eq!(damage(open(&image, &clock)).damage, Damage::Missing);
    let image = sim.after_kill();
    image.set_bytes(&manifest, b"{\"format\": 2, \"lo");
    assert_eq!(damage(open(&image, &clock)).damage, Damage::Undecodable);
    // ... which a repair rebuilds from the segments.
    let b = sim_builder(&image, &clock)
        .repair()
        .open(SIM_DIR)
        .expect("repair");
    holds(&b, 3);
}

/// A record taken out of the middle of the log: its successor's number says so.
#[test]
fn a_gap_in_the_sequence_numbers_is_refused() {
    let clock = ManualClock::default();
    let (sim, log, ends) = written(&clock, 3);
    let whole = sim.bytes(&log);
    let mut spliced = whole[..ends[1]].to_vec();
    spliced.extend_from_slice(&whole[ends[2]..]);
    sim.set_bytes(&log, &spliced);
    let d = damage(open(&sim, &clock));
    assert_eq!(d.offset as usize, ends[1]);
    assert_eq!(
        d.damage,
        Damage::Sequence {
            expected: 4,
            found: 5
        }
    );
}

/// Segments closed by a rotation whose snapshot then failed: the manifest records where they end.
#[test]
fn a_closed_segment_shortened_or_missing_and_an_unnamed_one_are_refused() {
    let clock = ManualClock::default();
    let sim = Sim::new();
    let b = sim_open(&sim, &clock);
    block_on(create(&b));
    block_on(b.put_item(put("p0", "g"))).expect("put");
    sim.arm(Op::Append, "snapshot-", 0, 1, Fault::NoSpace);
    assert!(b.compact().is_err());
    block_on(b.put_item(put("p1", "g"))).expect("put");
    drop(b);
    let logs = dir::list(&sim, Path::new(SIM_DIR), Kind::Log).expect("list");
    assert_eq!(logs.len(), 2, "{logs:?}");
    let (closed, current) = (logs[0].1.clone(), logs[1].1.clone());
    holds(&open(&sim.after_kill(), &clock).expect("both segments"), 2);
    // The closed one cut at a record boundary: its length says so.
    let image = sim.after_kill();
    let bytes = image.bytes(&closed);
    let (_, p0) =
        super::super::frame::Frames::new(&bytes).fold((0, 0), |(n, _), p| (n + 1, p.len()));
    image.set_bytes(&closed, &bytes[..bytes.len() - p0 - 8]);
    let d = damage(open(&image, &clock));
    assert_eq!(d.file, closed);
    assert!(matches!(d.damage, Damage::Length { .. }), "{d}");
    // The closed one gone: the current one's records are what would be lost.
    let image = sim.after_kill();
    image.delete(&closed);
    let d = damage(open(&image, &clock));
    assert_eq!(
        (d.file.clone(), d.damage),
        (closed.clone(), Damage::Missing)
    );
    assert_eq!(d.after.records, 1);
    // A segment beyond the manifest's last, holding records.
    let image = sim.after_kill();
    let extra = dir::path(Path::new(SIM_DIR), Kind::Log, 9);
    image.set_bytes(&extra, &image.bytes(&current));
    assert_eq!(damage(open(&image, &clock)).damage, Damage::Unexpected);
}

/// The repair: cuts at the last good record, keeps the originals, says what it dropped; what
/// comes back is exactly the records before the damage, and the directory is whole again.
#[test]
fn a_repair_cuts_at_the_last_good_record_and_reports_what_it_dropped() {
    let clock = ManualClock::default();
    let (sim, log, ends) = written(&clock, 10);
    let mut bytes = sim.bytes(&log);
    // In record 6 (the put of p3): records 7 to 12 follow it.
    bytes[ends[4] - 3] ^= 0x40;
    sim.set_bytes(&log, &bytes);
    let d = damage(open(&sim, &clock));
    assert_eq!((d.offset as usize, d.last_good), (ends[3], 5));
    assert_eq!((d.after.records, d.after.last), (6, Some(12)));
    let b = sim_builder(&sim, &clock)
        .repair()
        .open(SIM_DIR)
        .expect("repair");
    let report = b.recovery_report().expect("report").clone();
    let repair = &report.repairs[0];
    assert_eq!(repair.kept_last, 5);
    assert_eq!((repair.dropped.records, repair.dropped.last), (6, Some(12)));
    assert_eq!(
        sim.bytes(&repair.aside.join(log.file_name().expect("name"))),
        bytes
    );
    assert!(
        report
            .to_string()
            .contains("kept records up to 5, dropped 6 readable records (up to record 12)"),
        "{report}"
    );
    holds(&b, 3);
    block_on(b.put_item(put("p3", "g"))).expect("put");
    drop(b);
    let b = open(&sim.after_kill(), &clock).expect("whole again");
    assert!(b.recovery_report().expect("report").repairs.is_empty());
    holds(&b, 4);
}

/// Telling damage from a torn tail scans what follows the damage: linear, so a large log is
/// judged as fast as it is read.
#[test]
fn a_large_damaged_log_is_judged_quickly() {
    let clock = ManualClock::default();
    let sim = Sim::new();
    let b = sim_open(&sim, &clock);
    block_on(create(&b));
    let big = "x".repeat(2000);
    for batch in 0..100 {
        let requests = (0..25)
            .map(|i| dynomodel::backend::WriteRequest::Put {
                item: super::item(&[
                    ("pk", super::s(&format!("b{batch}-{i}"))),
                    ("v", super::s(&big)),
                ]),
            })
            .collect();
        block_on(b.batch_write_item(dynomodel::backend::BatchWriteItemInput {
            request_items: [("tab".to_owned(), requests)].into(),
            ..Default::default()
        }))
        .expect("batch");
    }
    drop(b);
    let image = sim.after_kill();
    let log = sim_log(&image);
    let mut bytes = image.bytes(&log);
    assert!(bytes.len() > 5_000_000, "{}", bytes.len());
    let at = bytes.len() / 100;
    bytes[at] ^= 0x01;
    image.set_bytes(&log, &bytes);
    let started = std::time::Instant::now();
    let d = damage(open(&image, &clock));
    assert_eq!(d.after.last, Some(102), "{d}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}
