//! Quickstart: flywheel's Tweet model on the in-memory engine — create the schema, save, read back,
//! delete. Needs no service: `cargo run -p dynomodel-examples --example quickstart`.
//!
//! To run the same code against Amazon DynamoDB (or DynamoDB Local), build with the `aws` feature and
//! replace `Db::memory()` by `Db::from_env().await?`.

use std::collections::BTreeSet;

use chrono::{DateTime, TimeZone, Utc};
use dynomodel::{Db, Model};
use dynomodel_mem::MemoryDb;

/// A tweet, keyed by author and id.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets", throughput(read = 10, write = 2))]
pub struct Tweet {
    /// Author (partition key).
    #[hash_key]
    pub userid: String,
    /// Tweet id, unique per author (sort key).
    #[range_key]
    pub id: String,
    /// Where it was posted from.
    pub city: String,
    /// When it was posted (stored as an ISO-8601 string, so it sorts by time).
    pub ts: DateTime<Utc>,
    /// Number of retweets.
    pub retweets: i64,
    /// Number of likes.
    pub likes: i64,
    /// The text.
    pub text: String,
    /// Hashtags (a DynamoDB string set; an empty set is stored as no attribute).
    pub tags: BTreeSet<String>,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = Db::memory();

    let created = db.create_schema::<Tweet>().await?;
    let table = db
        .backend()
        .describe_table(dynomodel::DescribeTableInput {
            table_name: db.table_name::<Tweet>(),
        })
        .await?
        .table;
    let keys: Vec<String> = table
        .key_schema
        .iter()
        .map(|k| format!("{} ({})", k.attribute_name, k.key_type.as_str()))
        .collect();
    println!(
        "create_schema: created={created}, table `{}` is {} with key {}",
        table.table_name,
        table.table_status.as_str(),
        keys.join(" + ")
    );
    println!(
        "create_schema again: created={}",
        db.create_schema::<Tweet>().await?
    );

    let tweet = Tweet {
        userid: "abc".into(),
        id: "1".into(),
        city: "Paris".into(),
        ts: Utc
            .with_ymd_and_hms(2026, 11, 21, 9, 30, 0)
            .single()
            .ok_or("bad date")?,
        retweets: 3,
        likes: 12,
        text: "Hello from dynomodel".into(),
        tags: ["rust", "dynamodb"].into_iter().map(String::from).collect(),
    };
    db.put(&tweet).await?;
    println!("put: {}/{} \"{}\"", tweet.userid, tweet.id, tweet.text);

    let item = tweet.to_item()?;
    println!(
        "stored as {} attributes, {} bytes:",
        item.len(),
        dynomodel::item_size(&item)
    );
    for (name, value) in &item {
        println!("  {name:<8} = {value}");
    }

    let read: Option<Tweet> = db.get::<Tweet>(("abc", "1")).consistent().await?;
    println!(
        "get: found={}, equal to what was saved: {}",
        read.is_some(),
        read.as_ref() == Some(&tweet)
    );

    let deleted = db.delete_key::<Tweet>(("abc", "1")).await?;
    println!(
        "delete_key: removed \"{}\"",
        deleted.map(|t| t.text).unwrap_or_default()
    );
    println!(
        "get after delete: {:?}",
        db.get::<Tweet>(("abc", "1")).await?
    );

    db.delete_schema::<Tweet>().await?;
    println!("delete_schema: done");
    Ok(())
}
