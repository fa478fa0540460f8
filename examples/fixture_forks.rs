//! One fixture, a hundred tests in parallel, each on its own fork ([`dynomodel_mem::Fixture`]).
//!
//! The fixture (a catalogue of 10,000 products with a global secondary index by category) is
//! built once per test binary; each test forks it in a few microseconds, writes what it likes,
//! and never sees another test's writes. The usual alternative, recreating and reloading the tables
//! in every test, pays the whole load each time.
//!
//! - `cargo test -p dynomodel-examples --example fixture_forks`: the hundred tests, in parallel
//!   (libtest's threads, each test on its own `#[tokio::test]` runtime);
//! - `cargo run --release -p dynomodel-examples --example fixture_forks`: the same hundred tests
//!   timed on forks against recreating and reloading the fixture per test (the figures of
//!   docs/performance.md, "Forks");
//! - `scripts/dynamodb-local.sh run -- cargo run -p dynomodel-examples --example fixture_forks --
//!   --dynamodb-local`: the same, and then the recreate-and-reload pattern as it is done on Amazon
//!   DynamoDB Local (at `DYNAMODB_ENDPOINT`, which the script sets): each test on a database of its
//!   own (Local keeps one per access key), where it creates the table, loads the catalogue through
//!   `AwsBackend`, runs, and deletes the table; `--local-parallel N` tests at a time (default 8),
//!   `--local-products N` products (default 10,000, a multiple of 10) to scale it, and `--tests N`
//!   (default 100) for all three figures. Without the option the example needs no service.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use dynomodel::{Db, Model};
use dynomodel_mem::Fixture;
use futures::StreamExt;

/// A product of the catalogue.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "products")]
#[global_index(all("by-category", hash = category, range = price))]
pub struct Product {
    /// Unique id.
    #[hash_key]
    pub id: String,
    /// One of ten categories.
    pub category: String,
    /// In cents.
    pub price: i64,
    /// Shown to customers.
    pub name: String,
}

/// Products in the fixture.
const PRODUCTS: usize = 10_000;

/// A catalogue of `products` products.
fn catalogue(products: usize) -> Vec<Product> {
    (0..products)
        .map(|i| Product {
            id: format!("p{i:05}"),
            category: format!("c{}", i % 10),
            price: (i * 7 % 1000) as i64,
            name: format!("product {i}"),
        })
        .collect()
}

/// Creates the table and loads a catalogue of `products` products into `db`.
async fn load(db: &Db, products: usize) -> dynomodel::Result<()> {
    db.create_schema::<Product>().await?;
    db.batch_write().put_all(&catalogue(products)).await
}

/// The fixture of every test of this binary.
static CATALOGUE: Fixture = Fixture::new(|db| Box::pin(async move { load(&db, PRODUCTS).await }));

/// Test `n` on a catalogue of `products`: it adds a product to category `c{n % 10}`, reprices
/// another, deletes a third, and checks what it sees, which holds only if no other test's writes
/// reach it.
async fn scenario(db: &Db, n: usize, products: usize) -> dynomodel::Result<()> {
    let category = format!("c{}", n % 10);
    let before = db
        .query_index(Product::by_category(), category.clone())
        .count()
        .await?;
    assert_eq!(before, products / 10);
    db.put(&Product {
        id: format!("new-{n}"),
        category: category.clone(),
        price: 1,
        name: format!("added by test {n}"),
    })
    .await?;
    let victim = format!("p{:05}", n * 10 + n % 10); // in `category`
    db.delete_key::<Product>(victim).await?;
    let mut repriced = db
        .get::<Product>(format!("p{:05}", (n * 10 + n % 10 + 10) % products).as_str())
        .await?
        .ok_or_else(|| dynomodel::Error::validation("a fixture product is missing"))?;
    repriced.price = 0;
    db.put(&repriced).await?;
    let cheapest = db
        .query_index(Product::by_category(), category.clone())
        .first()
        .await?
        .ok_or_else(|| dynomodel::Error::validation("the category is empty"))?;
    assert_eq!(cheapest.price, 0);
    let after = db
        .query_index(Product::by_category(), category)
        .count()
        .await?;
    // One added, one deleted: exactly as before, whatever the other tests do.
    assert_eq!(after, before);
    assert_eq!(db.scan::<Product>().count().await?, products);
    Ok(())
}

/// What the command line asks for (see the module docs).
struct Options {
    tests: usize,
    /// `Some` with `--dynamodb-local`: the endpoint, products and parallelism there.
    local: Option<LocalOptions>,
}

/// The recreate-and-reload pattern on DynamoDB Local.
struct LocalOptions {
    endpoint: String,
    products: usize,
    parallel: usize,
}

impl Options {
    /// The options, or an error naming the argument it cannot take.
    fn parse() -> dynomodel::Result<Options> {
        let bad = |what: String| dynomodel::Error::validation(format!("fixture_forks: {what}"));
        let mut args = std::env::args().skip(1);
        let (mut tests, mut products, mut parallel, mut local) = (100, PRODUCTS, 8, false);
        while let Some(arg) = args.next() {
            let mut number = |name: &str| {
                let value = args.next().unwrap_or_default();
                value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| bad(format!("{name} takes a positive number, not {value:?}")))
            };
            match arg.as_str() {
                "--dynamodb-local" => local = true,
                "--tests" => tests = number("--tests")?,
                "--local-products" => products = number("--local-products")?,
                "--local-parallel" => parallel = number("--local-parallel")?,
                other => return Err(bad(format!("unknown argument {other:?}"))),
            }
        }
        if products % 10 != 0 || products > 100_000 {
            return Err(bad(format!(
                "--local-products must be a multiple of 10 up to 100,000, not {products}"
            )));
        }
        let local = match local {
            false => None,
            true => Some(LocalOptions {
                endpoint: std::env::var("DYNAMODB_ENDPOINT").map_err(|_| {
                    bad("--dynamodb-local needs DYNAMODB_ENDPOINT (run it under \
                         scripts/dynamodb-local.sh run -- ...)"
                        .into())
                })?,
                products,
                parallel,
            }),
        };
        Ok(Options { tests, local })
    }
}

/// A `Db` on DynamoDB Local's database of access key `access_key` (Local keeps one per access key
/// and region, unless started with `-sharedDb`): a test's tables are its own.
fn local_db(endpoint: &str, access_key: &str) -> Db {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new(
            access_key,
            "secret",
            None,
            None,
            "fixture_forks",
        ))
        .endpoint_url(endpoint)
        .build();
    Db::aws(aws_sdk_dynamodb::Client::from_conf(config))
}

/// Waits for every test of `tests`, failing with the first error or panic.
async fn all(mut tests: tokio::task::JoinSet<dynomodel::Result<()>>) -> dynomodel::Result<()> {
    while let Some(done) = tests.join_next().await {
        done.map_err(|e| dynomodel::Error::validation(e.to_string()))??;
    }
    Ok(())
}

#[tokio::main]
async fn main() -> dynomodel::Result<()> {
    let options = Options::parse()?;
    let tests = options.tests;
    let started = Instant::now();
    CATALOGUE.snapshot().await?;
    let built = started.elapsed();
    let started = Instant::now();
    let mut forks = tokio::task::JoinSet::new();
    for n in 0..tests {
        forks.spawn(async move { scenario(&CATALOGUE.fork().await?, n, PRODUCTS).await });
    }
    all(forks).await?;
    let on_forks = started.elapsed();

    let started = Instant::now();
    let mut reloads = tokio::task::JoinSet::new();
    for n in 0..tests {
        reloads.spawn(async move {
            let db = dynomodel_mem::memory();
            load(&db, PRODUCTS).await?;
            scenario(&db, n, PRODUCTS).await
        });
    }
    all(reloads).await?;
    let reloading = started.elapsed();
    println!(
        "{tests} tests on a fixture of {PRODUCTS} products: fixture built once in {built:?}, \
         then {on_forks:?} on forks, against {reloading:?} recreating and reloading it per test"
    );
    if let Some(local) = &options.local {
        let on_local = on_dynamodb_local(tests, local).await?;
        let LocalOptions {
            products, parallel, ..
        } = local;
        println!(
            "DynamoDB Local ({}), {tests} tests recreating and reloading {products} products each, \
             {parallel} at a time: {on_local:?} ({:?} per test)",
            local.endpoint,
            on_local / u32::try_from(tests).unwrap_or(u32::MAX)
        );
    }
    Ok(())
}

/// The recreate-and-reload pattern on DynamoDB Local: each test on a database of its own (an
/// access key of its own), creating the table, loading the catalogue, running, and deleting the
/// table; `parallel` tests at a time.
async fn on_dynamodb_local(tests: usize, local: &LocalOptions) -> dynomodel::Result<Duration> {
    // Local takes access keys of letters and digits only.
    let run = format!("fixtureforks{}", std::process::id());
    let started = Instant::now();
    let mut results = futures::stream::iter(0..tests)
        .map(|n| {
            let db = local_db(&local.endpoint, &format!("{run}test{n}"));
            async move {
                load(&db, local.products).await?;
                scenario(&db, n, local.products).await?;
                db.delete_schema::<Product>().await.map(drop)
            }
        })
        .buffer_unordered(local.parallel);
    while let Some(done) = results.next().await {
        done?;
    }
    Ok(started.elapsed())
}

/// A hundred `#[tokio::test]`s, each on its own fork of the one fixture.
macro_rules! tests {
    ($($name:ident = $n:expr),* $(,)?) => {$(
        #[cfg(test)]
        #[tokio::test]
        async fn $name() -> dynomodel::Result<()> {
            let db = CATALOGUE.fork().await?;
            scenario(&db, $n, PRODUCTS).await
        }
    )*};
}

tests!(
    t00 = 0,
    t01 = 1,
    t02 = 2,
    t03 = 3,
    t04 = 4,
    t05 = 5,
    t06 = 6,
    t07 = 7,
    t08 = 8,
    t09 = 9,
    t10 = 10,
    t11 = 11,
    t12 = 12,
    t13 = 13,
    t14 = 14,
    t15 = 15,
    t16 = 16,
    t17 = 17,
    t18 = 18,
    t19 = 19,
    t20 = 20,
    t21 = 21,
    t22 = 22,
    t23 = 23,
    t24 = 24,
    t25 = 25,
    t26 = 26,
    t27 = 27,
    t28 = 28,
    t29 = 29,
    t30 = 30,
    t31 = 31,
    t32 = 32,
    t33 = 33,
    t34 = 34,
    t35 = 35,
    t36 = 36,
    t37 = 37,
    t38 = 38,
    t39 = 39,
    t40 = 40,
    t41 = 41,
    t42 = 42,
    t43 = 43,
    t44 = 44,
    t45 = 45,
    t46 = 46,
    t47 = 47,
    t48 = 48,
    t49 = 49,
    t50 = 50,
    t51 = 51,
    t52 = 52,
    t53 = 53,
    t54 = 54,
    t55 = 55,
    t56 = 56,
    t57 = 57,
    t58 = 58,
    t59 = 59,
    t60 = 60,
    t61 = 61,
    t62 = 62,
    t63 = 63,
    t64 = 64,
    t65 = 65,
    t66 = 66,
    t67 = 67,
    t68 = 68,
    t69 = 69,
    t70 = 70,
    t71 = 71,
    t72 = 72,
    t73 = 73,
    t74 = 74,
    t75 = 75,
    t76 = 76,
    t77 = 77,
    t78 = 78,
    t79 = 79,
    t80 = 80,
    t81 = 81,
    t82 = 82,
    t83 = 83,
    t84 = 84,
    t85 = 85,
    t86 = 86,
    t87 = 87,
    t88 = 88,
    t89 = 89,
    t90 = 90,
    t91 = 91,
    t92 = 92,
    t93 = 93,
    t94 = 94,
    t95 = 95,
    t96 = 96,
    t97 = 97,
    t98 = 98,
    t99 = 99,
);
