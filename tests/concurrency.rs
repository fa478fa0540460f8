//! Transactions under contention: 8 writers × 2,000 transfers between 50 accounts, while readers take
//! TransactGetItems snapshots of every account.
//!
//! Each transfer is one TransactWriteItems of two Updates: `balance - :amount` on the payer, on the
//! condition `balance >= :amount`, and `balance + :amount` on the payee. Transfers that would overdraw
//! are cancelled (`ConditionalCheckFailed`) and change nothing. What must hold:
//! - no snapshot (one TransactGetItems of all 50 accounts) ever sees a torn transfer: the total is
//!   always the starting total, and no balance is negative;
//! - at the end, the total is unchanged and every account's balance is its starting balance plus what
//!   the successful transfers moved into and out of it, transfer by transfer as the writers counted
//!   them.
//!
//! [`bank`] runs the scenario on any backend, so another target is one more test function.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use dynomodel::backend::{
    AttributeDefinition, Backend, BillingMode, CreateTableInput, DeleteTableInput,
    KeySchemaElement, ScalarAttributeType, TransactGet, TransactGetItemsInput, TransactUpdate,
    TransactWriteItem, TransactWriteItemsInput,
};
use dynomodel::{AttributeValue, Error, Item};

/// Accounts in the bank.
const ACCOUNTS: usize = 50;
/// Each account's starting balance.
const OPENING: i64 = 100;
/// Concurrent writers.
const WRITERS: usize = 8;
/// Transfers per writer.
const TRANSFERS: usize = 2_000;
/// Concurrent readers.
const READERS: usize = 2;

/// What the run did, for the assertions and the test's output.
#[derive(Debug, Default)]
pub struct Report {
    /// Transfers that committed.
    pub committed: usize,
    /// Transfers cancelled because the payer's balance was too low.
    pub cancelled: usize,
    /// Consistent snapshots the readers completed while the writers ran (each reader also takes one
    /// more once they are done, not counted here).
    pub snapshots: usize,
}

/// A tiny deterministic generator (xorshift64*), so each writer's sequence is reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        usize::try_from(x >> 33).unwrap() % bound
    }
}

fn account(i: usize) -> String {
    format!("acct-{i:02}")
}

fn key(i: usize) -> Item {
    [("pk".to_owned(), AttributeValue::S(account(i)))].into()
}

fn number(n: i64) -> AttributeValue {
    AttributeValue::N(n.into())
}

fn balance(item: &Item) -> i64 {
    let text = item
        .get("balance")
        .and_then(AttributeValue::as_n)
        .unwrap()
        .to_string();
    text.parse().unwrap()
}

/// One transfer as a transaction.
fn transfer(table: &str, from: usize, to: usize, amount: i64) -> TransactWriteItemsInput {
    let values: Item = [(":amount".to_owned(), number(amount))].into();
    TransactWriteItemsInput {
        transact_items: vec![
            TransactWriteItem::Update(TransactUpdate {
                table_name: table.into(),
                key: key(from),
                update_expression: "SET balance = balance - :amount".into(),
                condition_expression: Some("balance >= :amount".into()),
                expression_attribute_values: Some(values.clone()),
                ..Default::default()
            }),
            TransactWriteItem::Update(TransactUpdate {
                table_name: table.into(),
                key: key(to),
                update_expression: "SET balance = balance + :amount".into(),
                expression_attribute_values: Some(values),
                ..Default::default()
            }),
        ],
        client_request_token: None,
        ..Default::default()
    }
}

/// Every account's balance, in one TransactGetItems.
async fn snapshot(backend: &dyn Backend, table: &str) -> Vec<i64> {
    let out = backend
        .transact_get_items(TransactGetItemsInput {
            transact_items: (0..ACCOUNTS)
                .map(|i| TransactGet {
                    table_name: table.into(),
                    key: key(i),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        })
        .await
        .unwrap();
    out.responses
        .iter()
        .map(|item| balance(item.as_ref().unwrap()))
        .collect()
}

/// Runs the bank on `backend` in table `table` (created and deleted here) and checks the invariants.
pub async fn bank(backend: Arc<dyn Backend>, table: &str) -> Report {
    backend
        .create_table(CreateTableInput {
            table_name: table.into(),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: ScalarAttributeType::S,
            }],
            key_schema: vec![KeySchemaElement::hash("pk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            ..Default::default()
        })
        .await
        .unwrap();
    for i in 0..ACCOUNTS {
        let mut item = key(i);
        item.insert("balance".into(), number(OPENING));
        backend
            .put_item(dynomodel::backend::PutItemInput {
                table_name: table.into(),
                item,
                ..Default::default()
            })
            .await
            .unwrap();
    }
    let total = OPENING * i64::try_from(ACCOUNTS).unwrap();

    let writing = Arc::new(AtomicBool::new(true));
    let readers: Vec<_> = (0..READERS)
        .map(|_| {
            let backend = Arc::clone(&backend);
            let writing = Arc::clone(&writing);
            let table = table.to_owned();
            tokio::spawn(async move {
                let mut snapshots = 0;
                // At least one snapshot, even if the writers finish first; the one that ends after
                // they did is checked but not counted.
                loop {
                    let balances = snapshot(backend.as_ref(), &table).await;
                    assert_eq!(
                        balances.iter().sum::<i64>(),
                        total,
                        "torn read: {balances:?}"
                    );
                    assert!(balances.iter().all(|b| *b >= 0), "overdrawn: {balances:?}");
                    if !writing.load(Ordering::Acquire) {
                        return snapshots;
                    }
                    snapshots += 1;
                    // Often enough to catch any torn state, rarely enough to leave the writers
                    // most of the two cores.
                    tokio::time::sleep(std::time::Duration::from_micros(500)).await;
                }
            })
        })
        .collect();

    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let backend = Arc::clone(&backend);
            let table = table.to_owned();
            tokio::spawn(async move {
                let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (w as u64 + 1));
                // What this writer's committed transfers moved, per account.
                let mut moved = vec![0i64; ACCOUNTS];
                let (mut committed, mut cancelled) = (0, 0);
                for _ in 0..TRANSFERS {
                    let from = rng.next(ACCOUNTS);
                    let to = (from + 1 + rng.next(ACCOUNTS - 1)) % ACCOUNTS;
                    let amount = i64::try_from(1 + rng.next(40)).unwrap();
                    match backend
                        .transact_write_items(transfer(&table, from, to, amount))
                        .await
                    {
                        Ok(_) => {
                            committed += 1;
                            moved[from] -= amount;
                            moved[to] += amount;
                        }
                        Err(Error::TransactionCanceled { reasons, .. }) => {
                            assert!(reasons[0].is_conditional_check_failed());
                            assert!(reasons[1].is_none());
                            assert_eq!(reasons.len(), 2);
                            cancelled += 1;
                        }
                        Err(e) => panic!("transfer {from} -> {to} of {amount}: {e:?}"),
                    }
                    // Let the readers in between transfers on a busy runtime.
                    tokio::task::yield_now().await;
                }
                (moved, committed, cancelled)
            })
        })
        .collect();

    let mut report = Report::default();
    let mut moved = vec![0i64; ACCOUNTS];
    for writer in writers {
        let (m, committed, cancelled) = writer.await.unwrap();
        moved.iter_mut().zip(m).for_each(|(a, b)| *a += b);
        report.committed += committed;
        report.cancelled += cancelled;
    }
    writing.store(false, Ordering::Release);
    for reader in readers {
        report.snapshots += reader.await.unwrap();
    }

    let balances = snapshot(backend.as_ref(), table).await;
    assert_eq!(balances.iter().sum::<i64>(), total);
    let expected: Vec<i64> = moved.iter().map(|m| OPENING + m).collect();
    assert_eq!(
        balances, expected,
        "balances against the committed transfers"
    );
    assert_eq!(report.committed + report.cancelled, WRITERS * TRANSFERS);
    assert!(report.committed > WRITERS * TRANSFERS / 2, "{report:?}");
    // The readers really read while the writers wrote: a reader starved until the end (by a lock that
    // lets writers through first, say) would still pass the checks above with its one last snapshot.
    // Thousands are taken on a 2-core machine; ten per reader is far below any plausible run.
    assert!(report.snapshots >= 10 * READERS, "{report:?}");

    backend
        .delete_table(DeleteTableInput {
            table_name: table.into(),
        })
        .await
        .unwrap();
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transfers_on_the_engine_never_tear() {
    let start = std::time::Instant::now();
    let report = bank(dynomodel_tests::mem_backend(), "bank").await;
    eprintln!("engine: {report:?} in {:?}", start.elapsed());
}

/// The AWS SDK client of the server variant: `AwsBackend::local`'s settings without what costs time on
/// a loopback server and checks nothing here (SigV4 signing, a tenth of the client's time in a debug
/// build, of requests the server accepts unsigned; stalled-stream protection), and without retries:
/// the SDK would otherwise retry a 500 or a throttling answer silently, and the test must see every
/// answer the server gives under contention.
fn sdk_client(url: String) -> dynomodel::AwsBackend {
    use aws_sdk_dynamodb::config::{
        retry::RetryConfig, BehaviorVersion, Region, StalledStreamProtectionConfig,
    };
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .endpoint_url(url)
        .allow_no_auth()
        .stalled_stream_protection(StalledStreamProtectionConfig::disabled())
        .retry_config(RetryConfig::disabled())
        .build();
    dynomodel::AwsBackend::new(aws_sdk_dynamodb::Client::from_conf(config))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transfers_through_the_server_never_tear() {
    // The same scenario through the HTTP server and the AWS SDK: the wire layer under contention.
    let server =
        dynomodel_mem::server::Server::bind("127.0.0.1:0", dynomodel_mem::MemBackend::new())
            .await
            .unwrap();
    let start = std::time::Instant::now();
    let report = bank(Arc::new(sdk_client(server.url())), "bank").await;
    eprintln!("server: {report:?} in {:?}", start.elapsed());
    server.shutdown().await;
}
