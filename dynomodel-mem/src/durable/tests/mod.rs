//! Durable mode: recovery from the log and from snapshots, torn and corrupted files, format
//! versions and the directory lock, on the real file system; the faults of a disk on one that fails
//! on purpose (`faults.rs`, `damage.rs`, `paths.rs`, `legacy.rs`).

mod backups;
mod consistency;
mod damage;
mod faults;
mod forks;
mod legacy;
mod paths;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use dynomodel::backend::{
    AttributeDefinition, Backend, BatchWriteItemInput, BillingMode, CreateTableInput,
    DeleteItemInput, DescribeStreamInput, DescribeTableInput, DescribeTimeToLiveInput,
    GetRecordsInput, GetShardIteratorInput, GlobalSecondaryIndex, KeySchemaElement,
    ListStreamsInput, ListTagsOfResourceInput, Projection, ProjectionType, PutItemInput,
    QueryInput, ScalarAttributeType, ScanInput, ShardIteratorType, StreamSpecification,
    StreamViewType, Tag, TagResourceInput, TimeToLiveSpecification, TransactPut, TransactWriteItem,
    TransactWriteItemsInput, UpdateItemInput, UpdateTimeToLiveInput, WriteRequest,
};
use dynomodel::{AttributeValue, Item};
use futures::executor::block_on;

use super::dir::{self, Kind};
use super::sim::Sim;
use super::storage::OsStorage;
use super::{Damage, OpenError};
use crate::{Clock, ManualClock, MemBackend};

/// A fresh directory under the system's temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path =
            std::env::temp_dir().join(format!("dynomodel-durable-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn open(dir: &Path, clock: &ManualClock) -> MemBackend {
    MemBackend::builder()
        .clock(clock.clone())
        .open(dir)
        .unwrap_or_else(|e| panic!("open: {e}"))
}

/// The data directory on a simulated file system (`sim.rs`).
const SIM_DIR: &str = "/sim/data";

/// An engine on `sim`, probing quickly once degraded.
fn sim_builder(sim: &Sim, clock: &ManualClock) -> crate::MemBackendBuilder {
    MemBackend::builder()
        .clock(clock.clone())
        .storage(sim.storage())
        .probe_interval(Duration::from_millis(2))
}

fn sim_open(sim: &Sim, clock: &ManualClock) -> MemBackend {
    sim_builder(sim, clock)
        .open(SIM_DIR)
        .unwrap_or_else(|e| panic!("open: {e}"))
}

/// The log segment being appended to on `sim`.
fn sim_log(sim: &Sim) -> PathBuf {
    dir::list(&sim.clone(), Path::new(SIM_DIR), Kind::Log)
        .expect("list")
        .pop()
        .expect("a log segment")
        .1
}

/// The item `pk` of table `tab`.
fn get(b: &MemBackend, pk: &str) -> dynomodel::Result<Option<Item>> {
    block_on(b.get_item(dynomodel::backend::GetItemInput {
        table_name: "tab".into(),
        key: item(&[("pk", s(pk))]),
        ..Default::default()
    }))
    .map(|o| o.item)
}

/// Waits (a little) for `b` to be healthy again.
fn wait_healthy(b: &MemBackend) {
    for _ in 0..2000 {
        if b.health() == super::Health::Ok {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("still {:?}", b.health());
}

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.into())
}

fn n(v: i64) -> AttributeValue {
    AttributeValue::N(v.into())
}

fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

/// A table with a GSI, a stream, TTL and tags.
async fn create(b: &MemBackend) {
    let def = |name: &str, t| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: t,
    };
    b.create_table(CreateTableInput {
        table_name: "tab".into(),
        attribute_definitions: vec![
            def("pk", ScalarAttributeType::S),
            def("g", ScalarAttributeType::S),
        ],
        key_schema: vec![KeySchemaElement::hash("pk")],
        billing_mode: Some(BillingMode::PayPerRequest),
        global_secondary_indexes: vec![GlobalSecondaryIndex {
            index_name: "by-g".into(),
            key_schema: vec![KeySchemaElement::hash("g")],
            projection: Projection {
                projection_type: ProjectionType::All,
                non_key_attributes: vec![],
            },
            provisioned_throughput: None,
        }],
        stream_specification: Some(StreamSpecification::enabled(
            StreamViewType::NewAndOldImages,
        )),
        tags: vec![Tag::new("team", "a")],
        ..Default::default()
    })
    .await
    .expect("create");
    b.update_time_to_live(UpdateTimeToLiveInput {
        table_name: "tab".into(),
        time_to_live_specification: TimeToLiveSpecification {
            enabled: true,
            attribute_name: "exp".into(),
        },
    })
    .await
    .expect("ttl");
}

fn put(pk: &str, g: &str) -> PutItemInput {
    PutItemInput {
        table_name: "tab".into(),
        item: item(&[("pk", s(pk)), ("g", s(g)), ("n", n(0))]),
        ..Default::default()
    }
}

/// Writes of every kind, `round` making them differ.
async fn writes(b: &MemBackend, clock: &ManualClock, round: i64) {
    let r = round.to_string();
    for i in 0..5 {
        b.put_item(put(&format!("{r}-{i}"), &format!("g{}", i % 2)))
            .await
            .expect("put");
        clock.advance(Duration::from_millis(7));
    }
    b.update_item(UpdateItemInput {
        table_name: "tab".into(),
        key: item(&[("pk", s(&format!("{r}-1")))]),
        update_expression: Some("SET n = n + :one".into()),
        expression_attribute_values: Some(item(&[(":one", n(1))])),
        ..Default::default()
    })
    .await
    .expect("update");
    b.delete_item(DeleteItemInput {
        table_name: "tab".into(),
        key: item(&[("pk", s(&format!("{r}-2")))]),
        ..Default::default()
    })
    .await
    .expect("delete");
    b.batch_write_item(BatchWriteItemInput {
        request_items: [(
            "tab".to_owned(),
            vec![
                WriteRequest::Put {
                    item: item(&[("pk", s(&format!("{r}-b"))), ("g", s("g1"))]),
                },
                WriteRequest::Delete {
                    key: item(&[("pk", s(&format!("{r}-3")))]),
                },
            ],
        )]
        .into(),
        ..Default::default()
    })
    .await
    .expect("batch");
    b.transact_write_items(transaction(&r))
        .await
        .expect("transaction");
    // An item that expires now, swept as the service.
    let now = clock.now().timestamp();
    b.put_item(PutItemInput {
        table_name: "tab".into(),
        item: item(&[("pk", s(&format!("{r}-exp"))), ("exp", n(now - 1))]),
        ..Default::default()
    })
    .await
    .expect("put expiring");
    assert_eq!(b.sweep_expired(), 1);
    b.tag_resource(TagResourceInput {
        resource_arn: "arn:aws:dynamodb:ddblocal:000000000000:table/tab".into(),
        tags: vec![Tag::new(format!("round{r}"), "x")],
    })
    .await
    .expect("tag");
    clock.advance(Duration::from_secs(1));
}

fn transaction(r: &str) -> TransactWriteItemsInput {
    TransactWriteItemsInput {
        transact_items: vec![TransactWriteItem::Put(TransactPut {
            table_name: "tab".into(),
            item: item(&[("pk", s(&format!("{r}-tx"))), ("g", s("g0"))]),
            condition_expression: Some("attribute_not_exists(pk)".into()),
            expression_attribute_names: None,
            expression_attribute_values: None,
            return_values_on_condition_check_failure: None,
        })],
        client_request_token: Some(format!("token-{r}")),
        ..Default::default()
    }
}

/// Everything a client can see of the engine, as text.
async fn view(b: &MemBackend, with_stream_records: bool) -> String {
    let mut out = String::new();
    let table = b
        .describe_table(DescribeTableInput {
            table_name: "tab".into(),
        })
        .await
        .expect("describe")
        .table;
    out += &format!("{table:?}\n");
    let scan = b
        .scan(ScanInput {
            table_name: "tab".into(),
            ..Default::default()
        })
        .await
        .expect("scan");
    out += &format!("{:?}\n", scan.items);
    let query = b
        .query(QueryInput {
            table_name: "tab".into(),
            index_name: Some("by-g".into()),
            key_condition_expression: Some("g = :g".into()),
            expression_attribute_values: Some(item(&[(":g", s("g1"))])),
            ..Default::default()
        })
        .await
        .expect("query");
    out += &format!("{:?}\n", query.items);
    let tags = b
        .list_tags_of_resource(ListTagsOfResourceInput {
            resource_arn: table.table_arn.clone(),
            next_token: None,
        })
        .await
        .expect("tags");
    out += &format!("{:?}\n", tags.tags);
    let ttl = b
        .describe_time_to_live(DescribeTimeToLiveInput {
            table_name: "tab".into(),
        })
        .await
        .expect("ttl");
    out += &format!("{ttl:?}\n");
    let streams = b
        .list_streams(ListStreamsInput::default())
        .await
        .expect("streams");
    out += &format!("{:?}\n", streams.streams);
    if with_stream_records {
        out += &stream_records(b, &streams.streams[0].stream_arn).await;
    }
    out
}

async fn stream_records(b: &MemBackend, arn: &str) -> String {
    let mut out = String::new();
    let described = b
        .describe_stream(DescribeStreamInput {
            stream_arn: arn.into(),
            ..Default::default()
        })
        .await
        .expect("describe stream");
    for shard in described.stream_description.shards {
        let iterator = b
            .get_shard_iterator(GetShardIteratorInput {
                stream_arn: arn.into(),
                shard_id: shard.shard_id.clone(),
                shard_iterator_type: ShardIteratorType::TrimHorizon,
                sequence_number: None,
            })
            .await
            .expect("iterator");
        let records = b
            .get_records(GetRecordsInput {
                shard_iterator: iterator.shard_iterator.unwrap_or_default(),
                limit: None,
            })
            .await
            .expect("records");
        for r in records.records {
            out += &format!("{:?} {:?}\n", r.event_name, r.dynamodb);
        }
    }
    out
}

fn logs(dir: &Path) -> Vec<PathBuf> {
    dir::list(&OsStorage, dir, Kind::Log)
        .expect("list")
        .into_iter()
        .map(|(_, p)| p)
        .collect()
}

#[test]
fn everything_comes_back_from_the_log() {
    let dir = TempDir::new("log");
    let clock = ManualClock::default();
    let before = block_on(async {
        let b = open(&dir.0, &clock);
        create(&b).await;
        writes(&b, &clock, 1).await;
        writes(&b, &clock, 2).await;
        view(&b, true).await
    });
    block_on(async {
        let b = open(&dir.0, &clock);
        let report = b.recovery_report().expect("report").clone();
        assert!(report.torn_tail.is_none());
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        assert_eq!(view(&b, true).await, before);
        assert!(b.consistency_problems().is_empty());
        // The tokens came back: the same transaction again is a no-op, another is a mismatch.
        b.transact_write_items(transaction("2"))
            .await
            .expect("replay");
        let mut other = transaction("2");
        other.client_request_token = Some("token-1".into());
        let err = b.transact_write_items(other).await.unwrap_err();
        assert_eq!(err.code(), "IdempotentParameterMismatchException");
    });
}

#[test]
fn a_snapshot_plus_the_log_since_brings_it_back() {
    let dir = TempDir::new("snapshot");
    let clock = ManualClock::default();
    let before = block_on(async {
        let b = open(&dir.0, &clock);
        create(&b).await;
        writes(&b, &clock, 1).await;
        assert_eq!(b.compact().expect("compact"), (1, 5));
        assert_eq!(logs(&dir.0).len(), 1);
        writes(&b, &clock, 2).await;
        view(&b, true).await
    });
    block_on(async {
        let b = open(&dir.0, &clock);
        let report = b.recovery_report().expect("report").clone();
        assert!(report.snapshot.is_some());
        assert_eq!(report.snapshot_items, 5);
        assert_eq!(view(&b, true).await, before);
        assert!(b.consistency_problems().is_empty());
        // The stream goes on: its records, then new ones.
        let arn = b
            .list_streams(ListStreamsInput::default())
            .await
            .expect("streams")
            .streams[0]
            .stream_arn
            .clone();
        let records = stream_records(&b, &arn).await;
        b.put_item(put("after", "g0")).await.expect("put");
        let more = stream_records(&b, &arn).await;
        assert!(more.len() > records.len());
        b.transact_write_items(transaction("1"))
            .await
            .expect("token from the snapshot");
    });
}

#[test]
fn background_compaction_keeps_everything() {
    let dir = TempDir::new("background");
    let clock = ManualClock::default();
    let before = block_on(async {
        let b = MemBackend::builder()
            .clock(clock.clone())
            .compact_after(2000)
            .open(&dir.0)
            .expect("open");
        create(&b).await;
        for round in 0..6 {
            writes(&b, &clock, round).await;
        }
        // Let the background snapshot finish.
        for _ in 0..200 {
            if dir::list(&OsStorage, &dir.0, Kind::Snapshot)
                .expect("list")
                .len()
                == 1
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        view(&b, true).await
    });
    assert!(!dir::list(&OsStorage, &dir.0, Kind::Snapshot)
        .expect("list")
        .is_empty());
    // The snapshot thread may still hold the directory for a moment.
    let mut reopened = MemBackend::builder().clock(clock.clone()).open(&dir.0);
    for _ in 0..200 {
        if !matches!(reopened, Err(OpenError::InUse { .. })) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        reopened = MemBackend::builder().clock(clock.clone()).open(&dir.0);
    }
    let b = reopened.expect("reopen");
    assert_eq!(block_on(view(&b, true)), before);
}

/// A directory with a table and `count` single-put records after it; the log's length after each.
fn written(dir: &Path, clock: &ManualClock, count: usize) -> Vec<u64> {
    let b = open(dir, clock);
    block_on(create(&b));
    let log = &logs(dir)[0];
    let mut ends = vec![fs::metadata(log).expect("meta").len()];
    for i in 0..count {
        block_on(b.put_item(put(&format!("p{i}"), "g"))).expect("put");
        ends.push(fs::metadata(log).expect("meta").len());
    }
    ends
}

fn item_count(b: &MemBackend) -> i64 {
    block_on(b.describe_table(DescribeTableInput {
        table_name: "tab".into(),
    }))
    .expect("describe")
    .table
    .item_count
}

#[test]
fn a_torn_tail_is_detected_reported_and_cut() {
    let dir = TempDir::new("torn");
    let clock = ManualClock::default();
    let ends = written(&dir.0, &clock, 3);
    let log = logs(&dir.0)[0].clone();
    // Cut inside the last record, at a few places: header, payload.
    for cut in [ends[2] + 3, ends[2] + 20, ends[3] - 1] {
        let bytes = fs::read(&log).expect("read");
        let full = bytes.len() as u64;
        fs::write(&log, &bytes[..cut as usize]).expect("cut");
        let b = open(&dir.0, &clock);
        let tail = b
            .recovery_report()
            .and_then(|r| r.torn_tail.clone())
            .expect("a torn tail");
        assert_eq!((tail.offset, tail.damage), (ends[2], Damage::Truncated));
        assert_eq!(tail.dropped, cut - ends[2]);
        // The cut bytes are kept; the torn record is named when its number was written.
        let kept = fs::read(&tail.kept).expect("kept");
        assert_eq!(kept, &bytes[ends[2] as usize..cut as usize]);
        assert_eq!(tail.record, (cut >= ends[2] + 16).then_some(5));
        assert_eq!(item_count(&b), 2);
        assert_eq!(fs::metadata(&log).expect("meta").len(), ends[2]);
        // Writing goes on from the cut; put the third back for the next round.
        block_on(b.put_item(put("p2", "g"))).expect("put");
        drop(b);
        assert_eq!(fs::metadata(&log).expect("meta").len(), full);
    }
    let b = open(&dir.0, &clock);
    assert!(b
        .recovery_report()
        .and_then(|r| r.torn_tail.clone())
        .is_none());
    assert_eq!(item_count(&b), 3);
}

/// A flipped bit before the last record is damage, not a torn tail: nothing is cut, so no
/// acknowledged write after it is lost.
#[test]
fn a_flipped_bit_before_the_last_record_is_damage_and_nothing_is_cut() {
    let dir = TempDir::new("flip");
    let clock = ManualClock::default();
    let ends = written(&dir.0, &clock, 3);
    let log = logs(&dir.0)[0].clone();
    let mut bytes = fs::read(&log).expect("read");
    // A bit in the second put's payload: the third put still parses after it.
    bytes[ends[1] as usize + 30] ^= 0x10;
    fs::write(&log, &bytes).expect("flip");
    let err = MemBackend::builder()
        .clock(clock.clone())
        .open(&dir.0)
        .unwrap_err();
    let OpenError::Damaged(report) = &err else {
        panic!("{err}");
    };
    // Records 1 and 2 are the table's; 3 is the first put.
    assert_eq!((report.offset, report.damage), (ends[1], Damage::Checksum));
    assert_eq!(report.last_good, 3);
    assert_eq!((report.after.records, report.after.last), (1, Some(5)));
    assert!(report.repairable);
    let text = err.to_string();
    assert!(text.contains(&log.display().to_string()), "{text}");
    assert!(
        text.contains(&format!("damaged at offset {}", ends[1])),
        "{text}"
    );
    assert!(
        text.contains("1 readable records (up to record 5)"),
        "{text}"
    );
    assert!(text.contains("dynomodel-mem repair --data-dir"), "{text}");
    // Nothing was cut or rewritten.
    assert_eq!(fs::read(&log).expect("read"), bytes);
    // The explicit repair cuts after record 3 and says what it dropped; the original is kept.
    let b = MemBackend::builder()
        .clock(clock.clone())
        .repair()
        .open(&dir.0)
        .expect("repair");
    let repair = &b.recovery_report().expect("report").repairs[0];
    assert_eq!(repair.kept_last, 3);
    assert_eq!((repair.dropped.records, repair.dropped.last), (1, Some(5)));
    assert_eq!(
        fs::read(repair.aside.join(log.file_name().expect("name"))).expect("kept"),
        bytes
    );
    assert_eq!(item_count(&b), 1);
    assert!(b.consistency_problems().is_empty());
}

#[test]
fn damage_before_the_last_log_or_in_a_snapshot_is_refused() {
    let dir = TempDir::new("refused");
    let clock = ManualClock::default();
    {
        let b = open(&dir.0, &clock);
        block_on(create(&b));
        block_on(b.put_item(put("a", "g"))).expect("put");
        b.compact().expect("compact");
        block_on(b.put_item(put("b", "g"))).expect("put");
    }
    let snapshot = dir::list(&OsStorage, &dir.0, Kind::Snapshot).expect("list")[0]
        .1
        .clone();
    let good = fs::read(&snapshot).expect("read");
    for at in [3, 12, good.len() / 2, good.len() - 2] {
        let mut bad = good.clone();
        bad[at] ^= 0x01;
        fs::write(&snapshot, &bad).expect("flip");
        let err = MemBackend::builder().open(&dir.0).unwrap_err();
        assert!(
            matches!(&err, OpenError::Damaged(d) if d.file == snapshot && !d.repairable),
            "byte {at}: {err}"
        );
        assert!(
            err.to_string().contains("cannot be repaired in place"),
            "{err}"
        );
    }
    fs::write(&snapshot, &good[..good.len() - 5]).expect("truncate");
    let err = MemBackend::builder().open(&dir.0).unwrap_err();
    assert!(
        matches!(&err, OpenError::Damaged(d) if d.damage == Damage::Truncated),
        "{err}"
    );
    // A repair does not touch a snapshot.
    let err = MemBackend::builder().repair().open(&dir.0).unwrap_err();
    assert!(matches!(err, OpenError::Damaged(_)), "{err}");
    fs::write(&snapshot, &good).expect("restore");
    MemBackend::builder().open(&dir.0).expect("whole again");
}

#[test]
fn a_newer_format_is_refused_with_a_clear_error() {
    let dir = TempDir::new("format");
    drop(MemBackend::open(&dir.0).expect("open"));
    fs::write(
        dir.0.join("FORMAT"),
        "dynomodel-mem data directory, format 99\n",
    )
    .expect("write");
    let err = MemBackend::open(&dir.0).unwrap_err();
    assert!(matches!(err, OpenError::NewerFormat { found: 99, .. }));
    assert!(
        err.to_string()
            .contains("has format version 99, newer than this dynomodel-mem reads (2)"),
        "{err}"
    );
    fs::write(dir.0.join("FORMAT"), "something else").expect("write");
    let err = MemBackend::open(&dir.0).unwrap_err();
    assert!(matches!(err, OpenError::NotADataDir { .. }), "{err}");
}

#[test]
fn one_process_per_directory() {
    let dir = TempDir::new("lock");
    let first = MemBackend::open(&dir.0).expect("open");
    let clone = first.clone();
    drop(first);
    // A clone keeps the directory.
    let err = MemBackend::open(&dir.0).unwrap_err();
    let pid = std::process::id();
    assert!(matches!(err, OpenError::InUse { pid: Some(p), .. } if p == pid));
    assert_eq!(
        err.to_string(),
        format!(
            "data directory {} is in use by another dynomodel-mem process (pid {pid})",
            dir.0.display()
        )
    );
    drop(clone);
    MemBackend::open(&dir.0).expect("free again");
}

#[test]
fn failed_requests_leave_no_record() {
    let dir = TempDir::new("failed");
    let clock = ManualClock::default();
    let ends = written(&dir.0, &clock, 1);
    let b = open(&dir.0, &clock);
    let mut conditional = put("p0", "g");
    conditional.condition_expression = Some("attribute_not_exists(pk)".into());
    assert!(block_on(b.put_item(conditional)).is_err());
    assert!(block_on(b.create_table(CreateTableInput {
        table_name: "tab".into(),
        ..Default::default()
    }))
    .is_err());
    assert_eq!(fs::metadata(&logs(&dir.0)[0]).expect("meta").len(), ends[1]);
}

#[test]
fn streams_of_deleted_tables_survive_a_snapshot() {
    let dir = TempDir::new("retired");
    let clock = ManualClock::default();
    let records = |b: &MemBackend| {
        block_on(async {
            let streams = b
                .list_streams(ListStreamsInput::default())
                .await
                .expect("streams")
                .streams;
            let mut out = format!("{streams:?}\n");
            for s in &streams {
                out += &stream_records(b, &s.stream_arn).await;
            }
            out
        })
    };
    let before = {
        let b = open(&dir.0, &clock);
        block_on(create(&b));
        block_on(b.put_item(put("a", "g"))).expect("put");
        block_on(b.delete_table(dynomodel::backend::DeleteTableInput {
            table_name: "tab".into(),
        }))
        .expect("delete");
        clock.advance(Duration::from_secs(1));
        block_on(create(&b));
        block_on(b.put_item(put("b", "g"))).expect("put");
        b.compact().expect("compact");
        records(&b)
    };
    assert_eq!(before.matches("Insert").count(), 2, "{before}");
    let b = open(&dir.0, &clock);
    assert_eq!(records(&b), before);
}

#[test]
fn concurrent_writers_share_fsyncs_and_lose_nothing() {
    let dir = TempDir::new("group");
    let clock = ManualClock::default();
    {
        let b = open(&dir.0, &clock);
        block_on(create(&b));
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let b = b.clone();
                std::thread::spawn(move || {
                    for i in 0..25 {
                        block_on(b.put_item(put(&format!("t{t}-{i}"), "g"))).expect("put");
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("writer");
        }
        let durable = b.durable.as_ref().expect("durable");
        // Every acknowledged write was fsynced before its answer.
        assert_eq!(
            durable.appended.load(std::sync::atomic::Ordering::Acquire),
            durable.synced.load(std::sync::atomic::Ordering::Acquire)
        );
    }
    let b = open(&dir.0, &clock);
    assert_eq!(item_count(&b), 200);
    assert!(b.consistency_problems().is_empty());
}

/// Writers on two tables at once (each table's lock its own, see `lock.rs`), cross-table
/// transactions among them, and snapshots cut meanwhile: what comes back is what was written, item
/// for item and stream record for stream record.
#[test]
fn writers_on_different_tables_at_once_lose_nothing_across_snapshots() {
    let dir = TempDir::new("tables");
    let clock = ManualClock::default();
    let scan_other = |b: &MemBackend| {
        let scan = block_on(b.scan(ScanInput {
            table_name: "other".into(),
            ..Default::default()
        }))
        .expect("scan");
        format!("{:?}", scan.items)
    };
    let (before, other) = {
        let b = MemBackend::builder()
            .clock(clock.clone())
            .compact_after(4000)
            .open(&dir.0)
            .expect("open");
        block_on(create(&b));
        block_on(b.create_table(CreateTableInput {
            table_name: "other".into(),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: ScalarAttributeType::S,
            }],
            key_schema: vec![KeySchemaElement::hash("pk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            ..Default::default()
        }))
        .expect("create other");
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let b = b.clone();
                std::thread::spawn(move || {
                    let table = if t % 2 == 0 { "tab" } else { "other" };
                    for i in 0..40 {
                        let pk = format!("t{t}-{i}");
                        if i % 5 == 0 {
                            let both = ["tab", "other"].map(|table| {
                                TransactWriteItem::Put(TransactPut {
                                    table_name: table.into(),
                                    item: item(&[("pk", s(&pk)), ("g", s("g1"))]),
                                    ..Default::default()
                                })
                            });
                            block_on(b.transact_write_items(TransactWriteItemsInput {
                                transact_items: both.into(),
                                ..Default::default()
                            }))
                            .expect("transaction");
                        } else {
                            let mut input = put(&pk, "g1");
                            input.table_name = table.into();
                            block_on(b.put_item(input)).expect("put");
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("writer");
        }
        assert!(b.consistency_problems().is_empty());
        (block_on(view(&b, true)), scan_other(&b))
    };
    // The snapshot thread may still hold the directory for a moment.
    let mut reopened = MemBackend::builder().clock(clock.clone()).open(&dir.0);
    for _ in 0..200 {
        if !matches!(reopened, Err(OpenError::InUse { .. })) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        reopened = MemBackend::builder().clock(clock.clone()).open(&dir.0);
    }
    let b = reopened.expect("reopen");
    assert!(b.consistency_problems().is_empty());
    assert_eq!(block_on(view(&b, true)), before);
    assert_eq!(scan_other(&b), other);
}
