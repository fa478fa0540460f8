//! The mapper's failure paths on an engine that fails on purpose (`dynomodel_mem::faults`): batch
//! retries of partial answers and of requests refused whole, and an error answered after a successful
//! write. A conflicting transaction's reasons are `tests/dual/faults.rs`'s, on every target.

use dynomodel::{BatchOptions, Db, Error, Model};
use dynomodel_mem::faults::{FaultError, Operation, Portion, Rule};
use dynomodel_mem::MemBackend;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "faulty")]
struct Order {
    #[hash_key]
    id: String,
    total: i64,
}

fn order(i: usize) -> Order {
    Order {
        id: format!("o{i:03}"),
        total: i as i64,
    }
}

async fn faulty_db() -> (Db, MemBackend) {
    let backend = MemBackend::new();
    let db = Db::new(backend.clone());
    db.create_schema::<Order>().await.unwrap();
    (db, backend)
}

#[tokio::test(start_paused = true)]
async fn batch_writes_get_every_item_written_when_half_of_each_request_comes_back() {
    let (db, backend) = faulty_db().await;
    let rule = backend
        .faults()
        .add(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Half));
    let orders: Vec<Order> = (0..60).map(order).collect();
    db.batch_write()
        .put_all(&orders)
        .options(BatchOptions::default().max_attempts(20))
        .await
        .unwrap();
    assert_eq!(db.scan::<Order>().count().await.unwrap(), 60);
    // Chunks of 25, 25, 10: each needs about log2(n) + 1 requests.
    assert!(backend.faults().fired(rule) > 3);
}

#[tokio::test(start_paused = true)]
async fn batch_gets_read_every_item_when_half_of_each_request_comes_back() {
    let (db, backend) = faulty_db().await;
    let orders: Vec<Order> = (0..150).map(order).collect();
    db.batch_write().put_all(&orders).await.unwrap();
    backend
        .faults()
        .add(Rule::on(Operation::BatchGetItem).unprocessed(Portion::Half));
    let ids: Vec<String> = orders.iter().map(|o| o.id.clone()).collect();
    let mut read = db
        .batch_get()
        .keys::<Order>(ids)
        .options(BatchOptions::default().max_attempts(20))
        .await
        .unwrap();
    let mut got = read.take::<Order>().unwrap();
    got.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(got, orders);
}

#[tokio::test(start_paused = true)]
async fn a_batch_refused_whole_for_throughput_is_retried() {
    let (db, backend) = faulty_db().await;
    // The first two BatchWriteItems are refused whole, as a spent table refuses them.
    let refused = backend.faults().add(
        Rule::on(Operation::BatchWriteItem)
            .times(2)
            .fail(FaultError::ProvisionedThroughputExceeded),
    );
    let orders: Vec<Order> = (0..30).map(order).collect();
    db.batch_write()
        .put_all(&orders)
        .options(BatchOptions::default().concurrency(1))
        .await
        .unwrap();
    assert_eq!(backend.faults().fired(refused), 2);
    assert_eq!(db.scan::<Order>().count().await.unwrap(), 30);

    // Reads as well; past the attempt limit every key is reported, nothing is lost silently.
    backend
        .faults()
        .add(Rule::on(Operation::BatchGetItem).fail(FaultError::Throttling));
    let err = db
        .batch_get()
        .keys::<Order>(["o001", "o002"])
        .options(BatchOptions::default().max_attempts(3))
        .await
        .unwrap_err();
    let Error::BatchUnprocessed(left) = err else {
        panic!("{err:?}");
    };
    assert_eq!((left.attempts, left.actions.len()), (3, 2));
}

#[tokio::test]
async fn an_error_after_a_successful_write_leaves_the_item_there() {
    let (db, backend) = faulty_db().await;
    backend.faults().add(
        Rule::on(Operation::PutItem)
            .table("faulty")
            .nth(1)
            .fail(FaultError::InternalServerError)
            .after(),
    );
    let err = db.put(&order(7)).await.unwrap_err();
    assert_eq!(err.code(), "InternalServerError");
    // The call failed, yet the write happened: an application must not assume either.
    assert_eq!(db.get::<Order>("o007").await.unwrap(), Some(order(7)));
    // An idempotent retry is safe.
    db.put(&order(7)).await.unwrap();
}
