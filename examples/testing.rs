//! Testing the failure paths: an application function ("place an order, count it on the customer,
//! notify the warehouse") run on the in-memory engine with fault rules that make DynamoDB fail on
//! purpose, and checks that the application survives each failure a real table can throw at it:
//!
//! - throttling (`ProvisionedThroughputExceededException` on the next writes),
//! - partial batches (every `BatchWriteItem` returns half of its writes unprocessed),
//! - a conflicting transaction (`TransactionConflict` on the next transaction touching a customer),
//! - a timeout *after* a successful transaction (the write happened, the call failed).
//!
//! `cargo run -p dynomodel-examples --example testing`; the same scenarios run as tests with
//! `cargo test -p dynomodel-examples --example testing`.

use std::future::IntoFuture;
use std::time::Duration;

use dynomodel::{CancellationCode, Db, Error, Model};
use dynomodel_mem::faults::{FaultError, Operation, Portion, Rule};
use dynomodel_mem::MemBackend;

/// An order, written once.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
pub struct Order {
    /// The order id, unique.
    #[hash_key]
    pub id: String,
    /// Who placed it.
    pub customer: String,
    /// In cents.
    pub total: i64,
}

/// A customer and how many orders they placed.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "customers")]
pub struct Customer {
    /// The customer id.
    #[hash_key]
    pub id: String,
    /// Orders placed so far: must count each order exactly once.
    pub orders: i64,
}

/// A message for the warehouse, one per order line.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "notifications")]
pub struct Notification {
    /// `<order>#<line>`.
    #[hash_key]
    pub id: String,
    /// What to pick.
    pub text: String,
}

// ---- The application ------------------------------------------------------------------------

/// Whether an error is worth retrying: throttling, the service's own fault, a transaction that met
/// another one.
fn retryable(e: &Error) -> bool {
    matches!(e, Error::Throughput { .. })
        || e.code() == "InternalServerError"
        || e.cancellation_reasons()
            .iter()
            .any(|r| r.code == CancellationCode::TransactionConflict)
}

/// Runs the request `call` builds until it succeeds, fails for good, or 5 attempts were made, with
/// exponential backoff. (The mapper's builders are `IntoFuture`: one is built per attempt.)
async fn with_retries<T, F, Req>(mut call: F) -> Result<T, Error>
where
    F: FnMut() -> Req,
    Req: IntoFuture<Output = Result<T, Error>>,
{
    let mut delay = Duration::from_millis(5);
    let mut attempt = 1;
    loop {
        match call().await {
            Err(e) if attempt < 5 && retryable(&e) => {
                tokio::time::sleep(delay).await;
                delay *= 2;
                attempt += 1;
            }
            done => return done,
        }
    }
}

/// Places `order` with `lines` order lines: the order and the customer's count in one transaction
/// (idempotent by a client request token, so a retry after a commit whose answer was lost does not
/// count the order twice), then one notification per line in a batch (whose unprocessed writes the
/// mapper retries).
pub async fn place_order(db: &Db, order: &Order, lines: usize) -> Result<(), Error> {
    with_retries(|| {
        db.transact()
            .put_with(order, |p| p.if_not_exists())
            .update::<Customer>(order.customer.as_str(), |u| u.incr(Customer::orders(), 1))
            .client_request_token(format!("place-{}", order.id))
    })
    .await?;
    let notes: Vec<Notification> = (0..lines)
        .map(|line| Notification {
            id: format!("{}#{line}", order.id),
            text: format!("pick line {line} of {}", order.id),
        })
        .collect();
    with_retries(|| db.batch_write().put_all(&notes)).await
}

/// Registers a customer (a single put, retried when throttled).
pub async fn register(db: &Db, id: &str) -> Result<(), Error> {
    let customer = Customer {
        id: id.into(),
        orders: 0,
    };
    with_retries(|| db.put(&customer)).await
}

// ---- The scenarios: each arms a fault, runs the application, checks what it left ------------

async fn setup() -> Result<(Db, MemBackend), Error> {
    let backend = MemBackend::new();
    let db = Db::new(backend.clone());
    db.create_schema::<Order>().await?;
    db.create_schema::<Customer>().await?;
    db.create_schema::<Notification>().await?;
    Ok((db, backend))
}

fn order(id: &str) -> Order {
    Order {
        id: id.into(),
        customer: "ada".into(),
        total: 4200,
    }
}

/// The next two PutItems are throttled: registering still succeeds.
async fn survives_throttling() -> Result<(), Error> {
    let (db, backend) = setup().await?;
    let throttle = backend.faults().add(
        Rule::on(Operation::PutItem)
            .table("customers")
            .times(2)
            .fail(FaultError::ProvisionedThroughputExceeded),
    );
    register(&db, "ada").await?;
    assert_eq!(backend.faults().fired(throttle), 2);
    assert!(db.get::<Customer>("ada").await?.is_some());
    Ok(())
}

/// Every BatchWriteItem leaves half its writes unprocessed: every notification is still written.
async fn survives_partial_batches() -> Result<(), Error> {
    let (db, backend) = setup().await?;
    register(&db, "ada").await?;
    backend
        .faults()
        .add(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Half));
    place_order(&db, &order("o1"), 40).await?;
    assert_eq!(db.scan::<Notification>().count().await?, 40);
    Ok(())
}

/// The next transaction touching customer `ada` conflicts with another one: the order is placed
/// on the retry, and counted once.
async fn survives_a_conflicting_transaction() -> Result<(), Error> {
    let (db, backend) = setup().await?;
    register(&db, "ada").await?;
    let conflict = backend.faults().add(
        Rule::on(Operation::TransactWriteItems)
            .table("customers")
            .key([("id", dynomodel::AttributeValue::S("ada".into()))])
            .times(1)
            .fail(FaultError::TransactionConflict),
    );
    place_order(&db, &order("o2"), 1).await?;
    assert_eq!(backend.faults().fired(conflict), 1);
    assert_eq!(db.get::<Customer>("ada").await?.map(|c| c.orders), Some(1));
    Ok(())
}

/// The transaction commits but its answer is an InternalServerError: the retry (same client
/// request token) does not count the order a second time.
async fn survives_a_failure_after_the_commit() -> Result<(), Error> {
    let (db, backend) = setup().await?;
    register(&db, "ada").await?;
    backend.faults().add(
        Rule::on(Operation::TransactWriteItems)
            .nth(1)
            .fail(FaultError::InternalServerError)
            .after(),
    );
    place_order(&db, &order("o3"), 1).await?;
    assert_eq!(db.get::<Customer>("ada").await?.map(|c| c.orders), Some(1));
    assert_eq!(db.get::<Order>("o3").await?, Some(order("o3")));
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    survives_throttling().await?;
    println!("throttled writes: retried, the customer is registered");
    survives_partial_batches().await?;
    println!("half of every batch unprocessed: all 40 notifications written");
    survives_a_conflicting_transaction().await?;
    println!("a conflicting transaction: retried, the order counted once");
    survives_a_failure_after_the_commit().await?;
    println!("an error after the commit: the retry is idempotent, the order counted once");
    Ok(())
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn throttling() {
        super::survives_throttling().await.expect("survives");
    }

    #[tokio::test]
    async fn partial_batches() {
        super::survives_partial_batches().await.expect("survives");
    }

    #[tokio::test]
    async fn a_conflicting_transaction() {
        super::survives_a_conflicting_transaction()
            .await
            .expect("survives");
    }

    #[tokio::test]
    async fn a_failure_after_the_commit() {
        super::survives_a_failure_after_the_commit()
            .await
            .expect("survives");
    }
}
