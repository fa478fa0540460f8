//! Quickstart: flywheel's Tweet model on the in-memory engine — create the schema (with local and
//! global secondary indexes), save, read back, update, query by key and by index, scan, delete.
//! Needs no service: `cargo run -p dynomodel-examples --example quickstart`.
//!
//! To run the same code against Amazon DynamoDB (or DynamoDB Local), build `dynomodel` with the `aws`
//! feature and replace `dynomodel_mem::memory()` by `Db::from_env().await?`.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, TimeZone, Utc};
use dynomodel::Model;
use futures::TryStreamExt;

/// A tweet, keyed by author and id, with flywheel's six indexes.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets", throughput(read = 10, write = 2))]
#[global_index(all("ts-index", hash = city, range = ts), throughput(read = 10, write = 2))]
#[global_index(keys("rt-index", hash = city, range = retweets))]
#[global_index(include("like-index", hash = city, range = likes, includes = [text]))]
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
    #[index(all = "ts-local")]
    pub ts: DateTime<Utc>,
    /// Number of retweets.
    #[index(keys = "rt-local")]
    pub retweets: i64,
    /// Number of likes.
    #[index(include = "like-local", includes = [text])]
    pub likes: i64,
    /// The text.
    pub text: String,
    /// Hashtags (a DynamoDB string set; an empty set is stored as no attribute).
    pub tags: BTreeSet<String>,
}

fn tweet(userid: &str, id: u32, city: &str, retweets: i64, text: &str, tags: &[&str]) -> Tweet {
    let start = Utc
        .with_ymd_and_hms(2026, 11, 21, 9, 0, 0)
        .single()
        .expect("a valid date");
    Tweet {
        userid: userid.into(),
        id: format!("{id:03}"),
        city: city.into(),
        ts: start + Duration::minutes(i64::from(id) * 10),
        retweets,
        likes: retweets * 3,
        text: text.into(),
        tags: tags.iter().map(|t| t.to_string()).collect(),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = dynomodel_mem::memory();

    let created = db.create_schema::<Tweet>().await?;
    let table = db
        .backend()
        .describe_table(dynomodel::backend::DescribeTableInput {
            table_name: db.table_name::<Tweet>(),
        })
        .await?
        .table;
    println!(
        "create_schema: created={created}; `{}` is {} with {} local and {} global indexes",
        table.table_name,
        table.table_status.as_str(),
        table.local_secondary_indexes.len(),
        table.global_secondary_indexes.len()
    );
    println!(
        "create_schema again: created={}",
        db.create_schema::<Tweet>().await?
    );

    let tweets = [
        tweet(
            "abc",
            1,
            "Paris",
            3,
            "Hello from dynomodel",
            &["rust", "dynamodb"],
        ),
        tweet("abc", 2, "Paris", 12, "Typed queries are nice", &["rust"]),
        tweet("abc", 3, "Lyon", 0, "Indexes too", &[]),
        tweet("xyz", 1, "Paris", 7, "Bonjour", &["dynamodb"]),
    ];
    for t in &tweets {
        db.put(t).await?;
    }
    println!("put: {} tweets", tweets.len());

    let first = &tweets[0];
    let item = first.to_item()?;
    println!(
        "stored as {} attributes, {} bytes:",
        item.len(),
        dynomodel::item_size(&item)
    );
    for (name, value) in &item {
        println!("  {name:<8} = {value}");
    }

    let read = db.get::<Tweet>(("abc", "001")).consistent().await?;
    println!(
        "get: equal to what was saved: {}",
        read.as_ref() == Some(first)
    );

    let updated = db
        .update::<Tweet>(("abc", "001"))
        .add(Tweet::retweets(), 1)
        .set(Tweet::text(), "Hello again")
        .condition(Tweet::likes().ge(9))
        .returning_new()
        .await?;
    println!(
        "update: retweets {} -> {}, text {:?}",
        first.retweets, updated.retweets, updated.text
    );

    let since = first.ts;
    let recent = db
        .query::<Tweet>("abc")
        .range(Tweet::ts().gt(since))
        .filter(Tweet::tags().contains("rust"))
        .desc()
        .limit(10)
        .all()
        .await?;
    println!(
        "query abc, after {since}, tagged rust, newest first: {:?}",
        ids(&recent)
    );

    let top = db
        .query_index(Tweet::rt_index(), "Paris")
        .desc()
        .first()
        .await?;
    if let Some(top) = top {
        println!(
            "most retweeted in Paris (KEYS_ONLY index, keys only): {}/{}",
            top.userid, top.id
        );
    }

    let everything: Vec<Tweet> = db
        .scan::<Tweet>()
        .segments(4)
        .stream()
        .try_collect()
        .await?;
    println!("scan in 4 parallel segments: {} tweets", everything.len());

    let deleted = db.delete_key::<Tweet>(("abc", "003")).await?;
    println!("delete_key: removed {:?}", deleted.map(|t| t.text));
    println!(
        "get after delete: {:?}",
        db.get::<Tweet>(("abc", "003")).await?
    );

    db.delete_schema::<Tweet>().await?;
    println!("delete_schema: done");
    Ok(())
}

fn ids(tweets: &[Tweet]) -> Vec<String> {
    tweets
        .iter()
        .map(|t| format!("{}/{}", t.userid, t.id))
        .collect()
}
