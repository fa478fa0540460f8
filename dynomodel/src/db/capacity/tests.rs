//! `.with_capacity()`, the meter and the spans, against the capacity fake (`fake.rs`).

use std::sync::Arc;

use futures::{StreamExt, TryStreamExt};
use ReturnConsumedCapacity::{Indexes, Total};

use super::fake::{costly, failing, thing, Asked, Other, Thing};
use super::{CapacityExt, StreamCapacityExt};
use crate::backend::testing::RecordingBackend;
use crate::backend::ReturnConsumedCapacity;
use crate::db::Db;
use crate::error::Error;

fn db() -> (Db, Arc<RecordingBackend>) {
    let fake = Arc::new(costly());
    (Db::from_arc(fake.clone()), fake)
}

fn run<F: std::future::IntoFuture>(f: F) -> F::Output {
    futures::executor::block_on(f.into_future())
}

#[test]
fn the_plain_path_asks_for_nothing_and_meters_nothing() {
    let (db, fake) = db();
    run(async {
        db.get::<Thing>("a").await?;
        db.put(&thing("a")).await?;
        db.put(&thing("a")).returning_old().await?;
        db.update::<Thing>("a")
            .allow_no_actions()
            .returning_new()
            .await?;
        db.delete(&thing("a")).await?;
        db.query::<Thing>("a").all().await?;
        db.scan::<Thing>().count().await?;
        db.batch_get().keys::<Thing>(["a", "b"]).await?;
        db.batch_write().put(&thing("a")).await?;
        db.transact().put(&thing("a")).await?;
        let mut read = db.transact_get();
        read.get::<Thing>("a");
        read.await?;
        Ok::<_, Error>(())
    })
    .expect("all answered");
    let asked = fake.asked();
    assert_eq!(asked.len(), 13, "{asked:?}");
    assert!(asked.iter().all(|(_, ask)| ask.is_none()), "{asked:?}");
    assert!(db.meter().consumed().is_empty());
}

#[test]
fn single_item_requests_report_their_capacity() {
    let (db, fake) = db();
    let (found, get) = run(db.get::<Thing>("a").consistent().with_capacity()).expect("get");
    assert_eq!(found, Some(thing("a")));
    assert_eq!(
        (get.read_units(), get.write_units(), get.requests()),
        (0.5, 0.0, 1)
    );
    let things = get.table("things").cloned().unwrap_or_default();
    assert_eq!(things.capacity_units, Some(0.5));

    let ((), put) = run(db.put(&thing("a")).with_capacity()).expect("put");
    let (old, put_old) = run(db.put(&thing("a")).returning_old().with_capacity()).expect("put");
    assert_eq!(old, None);
    let (new, update) = run(db
        .update::<Thing>("a")
        .allow_no_actions()
        .returning_new()
        .with_capacity())
    .expect("update");
    assert_eq!(new, thing("a"));
    let ((), delete) = run(db.delete(&thing("a")).with_capacity()).expect("delete");
    let (_, delete_key) = run(db.delete_key::<Thing>("a").with_capacity()).expect("delete");
    for c in [&put, &put_old, &update, &delete, &delete_key] {
        assert_eq!(
            (c.write_units(), c.read_units(), c.requests()),
            (1.0, 0.0, 1)
        );
    }
    let asked = fake.asked();
    assert_eq!(asked.len(), 6);
    assert!(
        asked.iter().all(|(_, ask)| *ask == Some(Total)),
        "{asked:?}"
    );
}

#[test]
fn by_index_asks_indexes_and_keeps_each_share() {
    let (db, fake) = db();
    let (_, c) = run(db.put(&thing("a")).with_capacity_by_index()).expect("put");
    assert_eq!(fake.asked(), [("PutItem", Some(Indexes))]);
    let things = c.table("things").cloned().unwrap_or_default();
    assert_eq!(things.capacity_units, Some(2.0));
    assert_eq!(things.table.and_then(|t| t.write_capacity_units), Some(1.0));
    assert_eq!(
        things.global_secondary_indexes["g"].write_capacity_units,
        Some(1.0)
    );
}

#[test]
fn queries_and_scans_report_per_page_and_summed_over_pages() {
    let (db, fake) = db();
    let (page, first) =
        run(db.query::<Thing>("a").dynamodb_page(None).with_capacity()).expect("page");
    assert!(page.next.is_some());
    assert_eq!((first.read_units(), first.requests()), (0.5, 1));
    let (page, second) = run(db
        .query::<Thing>("a")
        .dynamodb_page(page.next)
        .with_capacity())
    .expect("page");
    assert!(page.next.is_none());
    assert_eq!(second.read_units(), 0.5);

    let (all, c) = run(db.query::<Thing>("a").all().with_capacity()).expect("all");
    assert_eq!(all, [thing("a"), thing("b")]);
    assert_eq!((c.read_units(), c.requests()), (1.0, 2));
    let (n, c) = run(db.scan::<Thing>().count().with_capacity()).expect("count");
    assert_eq!((n, c.read_units()), (2, 1.0));

    let mut stream = db.scan::<Thing>().stream().with_capacity();
    let first = run(stream.try_next()).expect("first");
    assert_eq!(first, Some(thing("a")));
    assert_eq!(stream.consumed().read_units(), 0.5); // one page so far
    let rest: Vec<Thing> = run(stream.by_ref().try_collect()).expect("rest");
    assert_eq!(rest, [thing("b")]);
    assert_eq!(
        (stream.consumed().read_units(), stream.consumed().requests()),
        (1.0, 2)
    );
    assert!(fake.asked().iter().all(|(_, ask)| *ask == Some(Total)));
}

#[test]
fn batches_sum_over_their_chunks_per_table() {
    let (db, fake) = db();
    let keys: Vec<String> = (0..150).map(|i| format!("k{i}")).collect();
    let batch = db
        .batch_get()
        .keys::<Thing>(keys.iter().map(String::as_str))
        .keys::<Other>(["o1", "o2"]);
    let (_, c) = run(batch.with_capacity()).expect("batch get");
    let asked = fake.asked();
    assert_eq!(asked.len(), 2, "100 keys per request: {asked:?}");
    assert_eq!(c.requests(), 2);
    assert_eq!(
        c.table("things").and_then(|t| t.read_capacity_units),
        Some(75.0)
    );
    assert_eq!(
        c.table("others").and_then(|t| t.read_capacity_units),
        Some(1.0)
    );

    let things: Vec<Thing> = (0..30).map(|i| thing(&format!("k{i}"))).collect();
    let write = db
        .batch_write()
        .put_all(&things)
        .put(&Other { id: "o".into() });
    let ((), c) = run(write.with_capacity()).expect("batch write");
    assert_eq!(fake.asked().len(), 2, "25 writes per request");
    assert_eq!(
        c.table("things").and_then(|t| t.write_capacity_units),
        Some(30.0)
    );
    assert_eq!(
        c.table("others").and_then(|t| t.write_capacity_units),
        Some(1.0)
    );
    assert_eq!(c.write_units(), 31.0);

    let mut stream = db
        .batch_get_stream::<Thing>(["a", "b", "c"])
        .with_capacity();
    let read: Vec<Thing> = run(stream.by_ref().try_collect()).expect("stream");
    assert_eq!(read.len(), 3);
    assert_eq!(stream.consumed().read_units(), 1.5);
}

#[test]
fn transactions_report_each_table() {
    let (db, _fake) = db();
    let tx = db
        .transact()
        .put(&thing("a"))
        .put(&thing("b"))
        .delete(&Other { id: "o".into() });
    let ((), c) = run(tx.with_capacity()).expect("transact");
    assert_eq!(
        c.table("things").and_then(|t| t.write_capacity_units),
        Some(4.0)
    );
    assert_eq!(
        c.table("others").and_then(|t| t.write_capacity_units),
        Some(2.0)
    );

    let mut read = db.transact_get();
    read.get::<Thing>("a");
    read.get::<Other>("o");
    let (_, c) = run(read.with_capacity()).expect("transact get");
    assert_eq!((c.read_units(), c.tables().len()), (4.0, 2));
}

#[test]
fn an_enclosing_tally_counts_what_inner_ones_do() {
    let (db, _fake) = db();
    let outer = async {
        let (_, inner) = db.get::<Thing>("a").with_capacity_by_index().await?;
        db.put(&thing("a")).await?;
        Ok::<_, Error>(inner)
    };
    let (inner, outer) = run(outer.with_capacity()).expect("both");
    assert_eq!(inner.requests(), 1);
    assert_eq!(outer.requests(), 2);
    // The inner request asked INDEXES (the stronger), which both see: 0.5 on the table, 1 on `g`.
    assert_eq!((inner.read_units(), outer.read_units()), (1.5, 1.5));
    assert!(outer
        .table("things")
        .is_some_and(|t| t.global_secondary_indexes.contains_key("g")));
    assert_eq!(outer.write_units(), 1.0);
}

#[test]
fn a_failed_request_reports_its_error_and_nothing_consumed() {
    let fake = Arc::new(failing(Error::validation("no")));
    let db = Db::from_arc(fake).with_meter();
    let err = run(db.get::<Thing>("a").with_capacity()).expect_err("fails");
    assert!(matches!(err, Error::Validation { .. }));
    assert!(db.meter().consumed().is_empty());
}

#[test]
fn the_meter_keeps_running_totals() {
    let (db, fake) = db();
    // A plain Db meters only the requests that asked.
    run(db.get::<Thing>("a")).expect("get");
    run(db.get::<Thing>("a").with_capacity()).expect("get");
    assert_eq!(db.meter().read_units(), 0.5);

    let metered = db.clone().with_meter();
    run(metered.put(&thing("a"))).expect("put");
    run(metered.query::<Thing>("a").all()).expect("query");
    let asked: Vec<_> = fake.asked().into_iter().map(|(_, a)| a).collect();
    assert_eq!(
        asked,
        [None, Some(Total), Some(Total), Some(Total), Some(Total)]
    );
    // Clones share one meter.
    assert_eq!(db.meter().read_units(), 1.5);
    assert_eq!(metered.meter().write_units(), 1.0);
    let things = metered.meter().table("things").unwrap_or_default();
    assert_eq!(
        (things.read_capacity_units, things.write_capacity_units),
        (Some(1.5), Some(1.0))
    );
    assert_eq!(metered.meter().consumed().requests(), 4);

    let taken = metered.meter().take();
    assert_eq!(taken.capacity_units(), 2.5);
    assert!(metered.meter().consumed().is_empty());
    run(metered.get::<Thing>("a")).expect("get");
    metered.meter().reset();
    assert_eq!(metered.meter().read_units(), 0.0);

    let by_index = db.with_meter_by_index();
    run(by_index.put(&thing("a"))).expect("put");
    assert_eq!(
        fake.asked(),
        [("GetItem", Some(Total)), ("PutItem", Some(Indexes))]
    );
    let things = by_index.meter().table("things").unwrap_or_default();
    assert_eq!(
        things.global_secondary_indexes["g"].write_capacity_units,
        Some(1.0)
    );
}
