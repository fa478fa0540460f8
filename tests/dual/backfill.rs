//! Backfills (`db.backfill::<M>()`): items written by an older model are rewritten to what the
//! model writes now, with no lost concurrent update, resumed from a checkpoint after an injected
//! failure or a stop, paced to a write budget under throttling (on a simulated clock), and counted
//! without writing in a dry run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use dynomodel::backend::{
    GetItemInput, GetItemOutput, QueryOutput, ScanInput, UpdateItemInput, UpdateItemOutput,
};
use dynomodel::backfill::{
    BackfillClock, CheckpointStore, FileCheckpoint, MemoryCheckpoint, SimulatedClock, StopHandle,
};
use dynomodel::faults::{FaultError, Operation, Rule};
use dynomodel::{Backend, Db, Error, Model};

use super::*;

/// The model as first released.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "members")]
struct MemberV1 {
    #[hash_key]
    id: String,
    city: String,
}

fn free() -> String {
    "free".into()
}

/// The next release: a field with a default, and an index on it that the old items are missing
/// from until they are rewritten.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "members")]
#[global_index(all("by-tier", hash = tier))]
struct Member {
    #[hash_key]
    id: String,
    city: String,
    #[dynomodel(default = "free")]
    tier: String,
}

/// `n` v1 members in `db`'s table, created by the v1 model, then the v2 plan applied (the index).
async fn v1_members(t: &Dual, db: &Db, n: usize) {
    db.create_schema::<MemberV1>().await.unwrap();
    t.register_table(&db.table_name::<MemberV1>());
    for i in 0..n {
        db.put(&MemberV1 {
            id: format!("m{i:03}"),
            city: "Paris".into(),
        })
        .await
        .unwrap();
    }
    db.plan::<Member>().await.unwrap().apply(db).await.unwrap();
}

async fn free_members(db: &Db) -> usize {
    db.query_index(Member::by_tier(), "free")
        .all()
        .await
        .unwrap()
        .len()
}

dual_test!(
    backfill_rewrites_what_is_behind_and_names_what_does_not_decode,
    |t| {
        let db = t.namespaced_db();
        v1_members(&t, &db, 12).await;
        let table = db.table_name::<Member>();
        // One item no model can read: its city is a number.
        t.backend()
            .put_item(dynomodel::backend::PutItemInput {
                table_name: table.clone(),
                item: [
                    ("id".to_owned(), AttributeValue::S("bad".into())),
                    ("city".to_owned(), AttributeValue::N(Number::from(7))),
                ]
                .into(),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(free_members(&db).await, 0);

        // The dry run counts, names the bad item, and writes nothing.
        let dry = db.backfill::<Member>().dry_run().await.unwrap();
        assert!(dry.dry_run && dry.complete);
        assert_eq!(
            (
                dry.progress.scanned,
                dry.progress.rewritten,
                dry.progress.failed
            ),
            (13, 12, 1)
        );
        assert_eq!(free_members(&db).await, 0);

        let seen = Arc::new(Mutex::new(Vec::new()));
        let progress = seen.clone();
        let report = db
            .backfill::<Member>()
            .segments(3)
            .on_progress(move |p| progress.lock().unwrap().push(*p))
            .await
            .unwrap();
        assert!(report.complete && !report.stopped && !report.resumed);
        assert_eq!(report.progress.rewritten, 12);
        assert_eq!(report.progress.failed, 1);
        assert_eq!(report.failures.len(), 1);
        assert_eq!(
            report.failures[0].key,
            Item::from([("id".to_owned(), AttributeValue::S("bad".into()))])
        );
        assert!(
            matches!(&report.failures[0].error, Error::ItemDecode(d) if d.error.to_string().contains("city")),
            "{:?}",
            report.failures[0].error
        );
        assert!(report.progress.write_units >= 12.0, "{:?}", report.progress);
        // The callback saw every item.
        assert_eq!(seen.lock().unwrap().last().unwrap().scanned, 13);
        let err = report.clone().into_result().unwrap_err();
        assert_eq!(err.code(), "BackfillError");
        assert!(
            err.to_string().contains("could not rewrite 1 item"),
            "{err}"
        );

        assert_eq!(free_members(&db).await, 12);
        let again = db.backfill::<Member>().await.unwrap();
        assert_eq!(
            (
                again.progress.rewritten,
                again.progress.unchanged,
                again.progress.failed
            ),
            (0, 12, 1)
        );
    }
);

/// A backend that, before the first rewrite of `key`, lets another writer change that item (or
/// delete it): a deterministic lost race.
#[derive(Debug)]
struct Interloper {
    inner: Arc<dyn Backend>,
    key: String,
    delete: bool,
    done: AtomicBool,
}

#[async_trait]
impl Backend for Interloper {
    async fn scan(&self, input: ScanInput) -> dynomodel::Result<QueryOutput> {
        self.inner.scan(input).await
    }
    async fn get_item(&self, input: GetItemInput) -> dynomodel::Result<GetItemOutput> {
        self.inner.get_item(input).await
    }
    async fn update_item(&self, input: UpdateItemInput) -> dynomodel::Result<UpdateItemOutput> {
        let ours = input.key.get("id") == Some(&AttributeValue::S(self.key.clone()));
        if ours && !self.done.swap(true, Ordering::SeqCst) {
            let other = Db::from_arc(self.inner.clone());
            let key = input.key.clone();
            if self.delete {
                other
                    .backend()
                    .delete_item(dynomodel::backend::DeleteItemInput {
                        table_name: input.table_name.clone(),
                        key,
                        ..Default::default()
                    })
                    .await?;
            } else {
                other
                    .backend()
                    .update_item(UpdateItemInput {
                        table_name: input.table_name.clone(),
                        key,
                        update_expression: Some("SET city = :c".into()),
                        expression_attribute_values: Some(
                            [(":c".to_owned(), AttributeValue::S("Lyon".into()))].into(),
                        ),
                        ..Default::default()
                    })
                    .await?;
            }
        }
        self.inner.update_item(input).await
    }
}

fn interloped(db: &Db, key: &str, delete: bool) -> Db {
    let table = db.table_name::<Member>();
    let namespace = &table[..table.len() - Member::TABLE_NAME.len()];
    Db::new(Interloper {
        inner: db.backend().clone(),
        key: key.into(),
        delete,
        done: AtomicBool::new(false),
    })
    .with_namespace(namespace)
}

dual_test!(backfill_loses_no_concurrent_update, |t| {
    let db = t.namespaced_db();
    v1_members(&t, &db, 5).await;

    // m002 changes between the backfill's read and its write: the write fails its condition, the
    // item is judged again as it now is, and the other writer's city stays.
    let report = interloped(&db, "m002", false)
        .backfill::<Member>()
        .await
        .unwrap();
    assert_eq!(report.progress.races, 1);
    assert_eq!(report.progress.rewritten, 5);
    let m2 = db.get::<Member>("m002").await.unwrap().unwrap();
    assert_eq!((m2.city.as_str(), m2.tier.as_str()), ("Lyon", "free"));

    // An item deleted meanwhile is not recreated.
    let db2 = t.namespaced_db();
    v1_members(&t, &db2, 3).await;
    let report = interloped(&db2, "m001", true)
        .backfill::<Member>()
        .await
        .unwrap();
    assert_eq!(
        (report.progress.vanished, report.progress.rewritten),
        (1, 2)
    );
    assert_eq!(db2.get::<Member>("m001").await.unwrap(), None);

    // A real concurrent writer, changing cities while the backfill runs: no change is lost.
    let db3 = t.namespaced_db();
    v1_members(&t, &db3, 30).await;
    let writer = {
        let db3 = db3.clone();
        tokio::spawn(async move {
            for i in (0..30).step_by(3) {
                db3.update::<MemberV1>(format!("m{i:03}"))
                    .set(MemberV1::city(), "Nantes")
                    .await
                    .unwrap();
            }
        })
    };
    let report = db3.backfill::<Member>().segments(4).await.unwrap();
    writer.await.unwrap();
    assert_eq!(report.progress.failed, 0);
    for i in 0..30 {
        let m = db3
            .get::<Member>(format!("m{i:03}"))
            .await
            .unwrap()
            .unwrap();
        let city = if i % 3 == 0 { "Nantes" } else { "Paris" };
        assert_eq!(
            (m.city.as_str(), m.tier.as_str()),
            (city, "free"),
            "m{i:03}"
        );
    }
});

dual_test!(backfill_resumes_after_an_injected_failure, |t| {
    let (db, faults) = t.faulty_db();
    v1_members(&t, &db, 20).await;
    let table = db.table_name::<Member>();
    let path = std::env::temp_dir().join(format!("{table}-checkpoint.json"));
    let _ = std::fs::remove_file(&path);

    // The 6th rewrite fails, and retrying is not allowed: the run stops, its checkpoint saved.
    faults.add(
        Rule::on(Operation::UpdateItem)
            .table(&table)
            .nth(6)
            .fail(FaultError::InternalServerError),
    );
    let err = db
        .backfill::<Member>()
        .page_size(4)
        .max_retries(1)
        .checkpoint(FileCheckpoint::new(&path))
        .await
        .unwrap_err();
    let Error::Backfill(stopped) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        stopped.cause.as_ref().unwrap().code(),
        "InternalServerError"
    );
    let first = stopped.report.as_ref().unwrap();
    assert_eq!(first.progress.rewritten, 5);
    assert!(first.stopped && !first.complete);
    assert!(path.exists());
    faults.clear();

    // The next run resumes at the failed item: nothing rewritten before is read again.
    let second = db
        .backfill::<Member>()
        .page_size(4)
        .checkpoint(FileCheckpoint::new(&path))
        .await
        .unwrap();
    assert!(second.resumed && second.complete);
    assert_eq!(
        (second.progress.scanned, second.progress.rewritten),
        (15, 15)
    );
    assert!(!path.exists(), "a finished run clears its checkpoint");
    assert_eq!(free_members(&db).await, 20);
});

dual_test!(backfill_is_stopped_and_resumed, |t| {
    let db = t.namespaced_db();
    v1_members(&t, &db, 16).await;
    let store = MemoryCheckpoint::new();
    let stop = StopHandle::new();
    let stopper = stop.clone();
    let first = db
        .backfill::<Member>()
        .segments(2)
        .page_size(3)
        .checkpoint(store.clone())
        .stop_handle(&stop)
        .on_progress(move |p| {
            if p.rewritten >= 6 {
                stopper.stop();
            }
        })
        .await
        .unwrap();
    assert!(first.stopped && !first.complete);
    let done_first = first.progress.rewritten;
    assert!((6..16).contains(&done_first), "{:?}", first.progress);
    assert!(store.load().await.unwrap().is_some());

    let second = db
        .backfill::<Member>()
        .segments(2)
        .checkpoint(store.clone())
        .await
        .unwrap();
    assert!(second.resumed && second.complete);
    assert_eq!(done_first + second.progress.rewritten, 16);
    assert_eq!(second.progress.unchanged, 0, "no item is read twice");
    assert_eq!(free_members(&db).await, 16);
});

dual_test!(backfill_keeps_its_write_budget_under_throttling, |t| {
    let (db, faults) = t.faulty_db();
    v1_members(&t, &db, 40).await;
    let table = db.table_name::<Member>();
    faults.add(
        Rule::on(Operation::UpdateItem)
            .table(&table)
            .times(3)
            .fail(FaultError::ProvisionedThroughputExceeded),
    );
    let clock = SimulatedClock::new();
    let budget = 5.0;
    let report = db
        .backfill::<Member>()
        .segments(4)
        .write_budget(budget)
        .clock(clock.clone())
        .await
        .unwrap();
    assert_eq!(report.progress.rewritten, 40);
    assert_eq!(report.progress.throttled, 3);
    // Units per simulated second, from the units the backend reported: within 10 % of the budget.
    let rate = report.progress.write_units / report.elapsed.as_secs_f64();
    assert!(
        (budget * 0.9..=budget * 1.1).contains(&rate),
        "{rate} WCU/s over {:?} ({:?})",
        report.elapsed,
        report.progress
    );
    assert!(clock.now() <= report.elapsed);
    assert_eq!(free_members(&db).await, 40);
});
