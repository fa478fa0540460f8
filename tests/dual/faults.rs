//! Fault rules (`dynomodel::faults`) armed alike on every target: on the engine itself (`mem`), on a
//! `FaultyBackend` around the AWS backend (DynamoDB Local, the server), and on the engine behind the
//! server. What the mapper sees is the same everywhere: errors before and after the write, the
//! portions of batches it retries, a transaction's conflict, latency, seeded fractions.

use std::time::{Duration, Instant};

use dynomodel::faults::{FaultError, FaultHandle, Operation, Portion, Rule};
use dynomodel::{AttributeValue, BatchOptions, CancellationCode, Db, Error, Model};

use super::*;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
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

/// The faulty database with the `orders` table created, and the table's name.
async fn orders(t: &Dual) -> (Db, FaultHandle, String) {
    let (db, faults) = t.faulty_db();
    db.create_schema::<Order>().await.unwrap();
    let table = db.table_name::<Order>();
    t.register_table(&table);
    (db, faults, table)
}

dual_test!(faults_answer_errors_before_and_after_the_write, |t| {
    let (db, faults, table) = orders(&t).await;
    // The 2nd PutItem on the table fails after the item was written.
    let after = faults.add(
        Rule::on(Operation::PutItem)
            .table(&table)
            .nth(2)
            .fail(FaultError::InternalServerError)
            .after(),
    );
    db.put(&order(1)).await.unwrap();
    let err = db.put(&order(2)).await.unwrap_err();
    assert_eq!(err.code(), "InternalServerError");
    assert_eq!(db.get::<Order>("o002").await.unwrap(), Some(order(2)));
    assert_eq!(faults.fired(after), 1);

    // The next read is throttled, nothing written is touched; the one after reads.
    faults.add(Rule::reads().times(1).fail(FaultError::Throttling));
    let err = db.get::<Order>("o001").await.unwrap_err();
    assert!(matches!(err, Error::Throughput { .. }), "{err:?}");
    assert_eq!(err.code(), "ThrottlingException");
    assert_eq!(db.get::<Order>("o001").await.unwrap(), Some(order(1)));

    // A failed condition on one item only, before the update: nothing changes. The mapper's update
    // is conditional on the item existing, so it reads the failure as a missing item.
    faults.add(
        Rule::on(Operation::UpdateItem)
            .key([("id", AttributeValue::S("o001".into()))])
            .fail(FaultError::ConditionalCheckFailed),
    );
    let err = db
        .update::<Order>("o001")
        .add(Order::total(), 5)
        .await
        .unwrap_err();
    assert!(matches!(err, Error::ItemNotFound(_)), "{err:?}");
    db.update::<Order>("o002")
        .add(Order::total(), 5)
        .await
        .unwrap();
    assert_eq!(db.get::<Order>("o001").await.unwrap(), Some(order(1)));
    assert_eq!(db.get::<Order>("o002").await.unwrap().unwrap().total, 7);

    // Cleared: back to plain requests.
    faults.clear();
    assert!(faults.is_empty());
    db.update::<Order>("o001")
        .add(Order::total(), 5)
        .await
        .unwrap();
});

/// Half of every batch comes back unprocessed; the mapper retries until all is written and read.
/// Returns how often the write and the read rule fired.
async fn half_answered_batches(db: &Db, faults: &FaultHandle) -> (u64, u64) {
    let options = BatchOptions::default()
        .max_attempts(20)
        .base_delay(Duration::from_millis(1));
    let writes = faults.add(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Half));
    let orders: Vec<Order> = (0..30).map(order).collect();
    db.batch_write()
        .put_all(&orders)
        .options(options)
        .await
        .unwrap();
    let writes = faults.fired(writes);
    faults.clear();
    assert_eq!(db.scan::<Order>().count().await.unwrap(), 30);

    let reads = faults.add(Rule::on(Operation::BatchGetItem).unprocessed(Portion::Half));
    let ids: Vec<String> = orders.iter().map(|o| o.id.clone()).collect();
    let mut read = db
        .batch_get()
        .keys::<Order>(ids)
        .options(options)
        .await
        .unwrap();
    let mut got = read.take::<Order>().unwrap();
    got.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(got, orders);
    let reads = faults.fired(reads);
    faults.clear();
    (writes, reads)
}

dual_test!(faults_return_batch_portions_the_mapper_retries, |t| {
    let (db, faults, _) = orders(&t).await;
    // Chunks of 25 and 5 writes, each sent until a request holds none back: 25, 12, 6, 3, 1 and
    // 5, 2, 1; the 30 keys of the read are one chunk: 30, 15, 7, 3, 1.
    assert_eq!(half_answered_batches(&db, &faults).await, (8, 5));

    // A batch refused whole for throughput is retried as well.
    let refused = faults.add(
        Rule::on(Operation::BatchWriteItem)
            .times(2)
            .fail(FaultError::ProvisionedThroughputExceeded),
    );
    let more: Vec<Order> = (30..40).map(order).collect();
    db.batch_write()
        .put_all(&more)
        .options(BatchOptions::default().base_delay(Duration::from_millis(1)))
        .await
        .unwrap();
    assert_eq!(faults.fired(refused), 2);
    assert_eq!(db.scan::<Order>().count().await.unwrap(), 40);

    // The same rules armed on the engine behind the server: the held-back portions cross the wire
    // as `UnprocessedItems` / `UnprocessedKeys`, which the SDK does not retry.
    if let (Target::Server, Some(engine)) = (t.target(), t.engine()) {
        let (db, _, _) = orders(&t).await;
        assert_eq!(half_answered_batches(&db, engine.faults()).await, (8, 5));
    }
});

dual_test!(faults_cancel_a_transaction_at_the_matching_action, |t| {
    let (db, faults, _) = orders(&t).await;
    db.put(&order(1)).await.unwrap();
    faults.add(
        Rule::on(Operation::TransactWriteItems)
            .key([("id", AttributeValue::S("o002".into()))])
            .times(1)
            .fail(FaultError::TransactionConflict),
    );
    let transaction = || {
        db.transact()
            .update::<Order>("o001", |u| u.incr(Order::total(), 10))
            .put(&order(2))
    };
    let err = transaction().await.unwrap_err();
    assert!(matches!(err, Error::TransactionCanceled { .. }), "{err:?}");
    let reasons = err.cancellation_reasons();
    let codes: Vec<&CancellationCode> = reasons.iter().map(|r| &r.code).collect();
    assert_eq!(
        codes,
        [
            &CancellationCode::None,
            &CancellationCode::TransactionConflict
        ]
    );
    let action = reasons[1].action.as_ref().unwrap();
    assert_eq!((action.kind, action.model), ("Put", "Order"));
    assert_eq!(db.get::<Order>("o001").await.unwrap().unwrap().total, 1);
    assert_eq!(db.get::<Order>("o002").await.unwrap(), None);
    // The conflict was the next transaction only.
    transaction().await.unwrap();
    assert_eq!(db.get::<Order>("o001").await.unwrap().unwrap().total, 11);
});

dual_test!(faults_delay_and_fail_seeded_fractions, |t| {
    let (db, faults, _) = orders(&t).await;
    db.put(&order(1)).await.unwrap();
    let delay = Duration::from_millis(60);
    faults.add(Rule::on(Operation::Query).latency(delay));
    let started = Instant::now();
    assert_eq!(db.query::<Order>("o001").all().await.unwrap(), [order(1)]);
    assert!(started.elapsed() >= delay);
    faults.clear();

    // Three reads in ten are throttled: the same ones on every target and every run.
    faults.add(
        Rule::on(Operation::GetItem)
            .probability(0.3, 7)
            .fail(FaultError::Throttling),
    );
    let mut throttled = Vec::new();
    for i in 0..20 {
        if db.get::<Order>("o001").await.is_err() {
            throttled.push(i);
        }
    }
    assert_eq!(throttled, SEEDED);
});

/// Which of 20 reads `probability(0.3, 7)` throttles.
const SEEDED: [usize; 4] = [1, 5, 8, 10];
