//! Evolving a model's items: three versions of a customer, older items read through upcasts, the
//! plan that lists the backfill a new index needs, and the backfill itself under a write budget,
//! stopped halfway and resumed from its checkpoint, after which the new index returns every item.
//!
//! - v1: `id`, `name`, `city`.
//! - v2: a `tier` with a default, and a composite `gpk = CITY#<city>` keying a new global index.
//! - v3: `name` split into `first` and `last`.
//!
//! Runs on the in-memory engine; with `DYNAMODB_ENDPOINT` set (e.g. `http://127.0.0.1:8000`) it runs
//! against DynamoDB Local instead, in a table prefixed with a namespace it deletes at the end.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use dynomodel::backfill::{FileCheckpoint, StopHandle};
use dynomodel::{AttributeValue, AwsBackend, ConversionError, Db, Item, Model};

const CUSTOMERS: u64 = 200;
const CITIES: [&str; 4] = ["Paris", "Lyon", "Nantes", "Lille"];

/// Version 1, as first released.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "customers")]
struct CustomerV1 {
    #[hash_key]
    id: String,
    name: String,
    city: String,
}

fn free() -> String {
    "free".into()
}

/// Version 2: a tier (old customers are on the free one) and customers by city, through an index
/// keyed on a composite derived from the city.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "customers", item_version = 2)]
#[composite(gpk = ("CITY", city))]
#[global_index(all("by-city", hash = gpk, range = id))]
#[upcast(from = 1, item = v1_to_v2)]
struct CustomerV2 {
    #[hash_key]
    id: String,
    name: String,
    city: String,
    #[dynomodel(default = "free")]
    tier: String,
}

/// Version 3, the current one: the name in two parts.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "customers", item_version = 3)]
#[composite(gpk = ("CITY", city))]
#[global_index(all("by-city", hash = gpk, range = id))]
#[upcast(from = 1, item = v1_to_v2)]
#[upcast(from = 2, item = v2_to_v3)]
struct Customer {
    #[hash_key]
    id: String,
    first: String,
    last: String,
    city: String,
    #[dynomodel(default = "free")]
    tier: String,
}

/// A v1 item kept its city in `city`; v2 keeps it in the composite (the tier has its default).
fn v1_to_v2(mut item: Item) -> Result<Item, ConversionError> {
    match item.remove("city") {
        Some(AttributeValue::S(city)) => {
            item.insert("gpk".into(), AttributeValue::S(format!("CITY#{city}")));
            Ok(item)
        }
        _ => Err(ConversionError::missing("a city (S)").at("city")),
    }
}

/// A v2 item's `name` becomes `first` and `last`.
fn v2_to_v3(mut item: Item) -> Result<Item, ConversionError> {
    let Some(AttributeValue::S(name)) = item.remove("name") else {
        return Err(ConversionError::missing("a name (S)").at("name"));
    };
    let (first, last) = name.split_once(' ').unwrap_or((&name, ""));
    item.insert("first".into(), AttributeValue::S(first.into()));
    item.insert("last".into(), AttributeValue::S(last.into()));
    Ok(item)
}

/// The engine, or DynamoDB Local when `DYNAMODB_ENDPOINT` is set (in a namespace of its own).
fn database() -> Db {
    match std::env::var("DYNAMODB_ENDPOINT") {
        Ok(endpoint) => Db::new(AwsBackend::local(endpoint))
            .with_namespace(format!("evolve-{}-", std::process::id())),
        Err(_) => dynomodel_mem::memory(),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = database();
    db.create_schema::<CustomerV1>().await?;
    let result = run(&db).await;
    if std::env::var("DYNAMODB_ENDPOINT").is_ok() {
        db.delete_schema::<Customer>().await?;
    }
    result
}

async fn run(db: &Db) -> Result<(), Box<dyn std::error::Error>> {
    // Version 1 wrote most customers, version 2 the newest ones.
    for i in 0..CUSTOMERS {
        let (id, name, city) = (
            format!("c{i:04}"),
            format!("Ada Lovelace{i}"),
            CITIES[i as usize % 4],
        );
        if i < 150 {
            db.put(&CustomerV1 {
                id,
                name,
                city: city.into(),
            })
            .await?;
        } else {
            db.put(&CustomerV2 {
                id,
                name,
                city: city.into(),
                tier: "pro".into(),
            })
            .await?;
        }
    }

    // Version 3 reads both: v1 items upcast through v2.
    let old = db
        .get::<Customer>("c0001")
        .await?
        .ok_or("c0001 is missing")?;
    println!("c0001, written by v1, read as v3: {old:?}");
    assert_eq!(
        (old.first.as_str(), old.last.as_str(), old.tier.as_str()),
        ("Ada", "Lovelace1", "free")
    );

    // The plan: the index, and the backfill the items need.
    let plan = db.plan::<Customer>().await?;
    println!("\nplan (dry run):\n{plan}\n");
    assert!(!plan.data_steps().is_empty(), "the plan lists the backfill");
    plan.apply(db).await?; // the schema steps only: the backfill runs below, with a budget
    let in_paris = db.query_index(Customer::by_city(), "Paris").all().await?;
    // Only those v2 wrote: DynamoDB's index backfill cannot derive `gpk` for the v1 items.
    println!(
        "the new index holds {} of the {} customers of Paris before the backfill",
        in_paris.len(),
        CUSTOMERS / 4
    );
    assert!(in_paris.len() < (CUSTOMERS / 4) as usize);

    let dry = db.backfill::<Customer>().dry_run().await?;
    println!("dry run: {}", dry.progress);

    // The backfill: 4 segments, 400 write units per second, a checkpoint file, a progress bar;
    // stopped halfway (as a crash or a deploy would), then resumed.
    let checkpoint = std::env::temp_dir().join(format!("evolve-{}.json", std::process::id()));
    let stop = StopHandle::new();
    let first = db
        .backfill::<Customer>()
        .segments(4)
        .page_size(25)
        .write_budget(400.0)
        .checkpoint(FileCheckpoint::new(&checkpoint))
        .stop_handle(&stop)
        .on_progress({
            let stop = stop.clone();
            move |p| {
                bar(p.scanned);
                if p.rewritten >= CUSTOMERS / 2 {
                    stop.stop();
                }
            }
        })
        .await?;
    println!(
        "\nstopped: {} (checkpoint {})",
        first.progress,
        checkpoint.display()
    );
    assert!(first.stopped && checkpoint.exists());

    let done = Arc::new(AtomicU64::new(first.progress.scanned));
    let second = db
        .backfill::<Customer>()
        .write_budget(400.0)
        .checkpoint(FileCheckpoint::new(&checkpoint))
        .on_progress({
            let done = done.clone();
            move |p| bar(done.load(Ordering::Relaxed) + p.scanned)
        })
        .await?
        .into_result()?;
    println!(
        "\nresumed: {} in {:.2} s ({:.0} WCU/s)",
        second.progress,
        second.elapsed.as_secs_f64(),
        second.progress.write_units / second.elapsed.as_secs_f64().max(1e-9)
    );
    assert!(second.resumed && second.complete && !checkpoint.exists());
    assert_eq!(
        first.progress.rewritten + second.progress.rewritten,
        CUSTOMERS
    );

    // Every customer is in the index now, each at version 3.
    let mut indexed = 0;
    for city in CITIES {
        indexed += db.query_index(Customer::by_city(), city).all().await?.len();
    }
    println!("the index returns {indexed} customers");
    assert_eq!(indexed as u64, CUSTOMERS);
    println!(
        "\nplan after the backfill:\n{}",
        db.plan::<Customer>().await?
    );
    Ok(())
}

/// A one-line progress bar on stderr.
fn bar(done: u64) {
    let width = 40;
    let filled = (done.min(CUSTOMERS) * width / CUSTOMERS) as usize;
    eprint!(
        "\r[{}{}] {done}/{CUSTOMERS}",
        "#".repeat(filled),
        " ".repeat(width as usize - filled)
    );
}
