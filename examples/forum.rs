//! The Developer Guide's sample tables (ProductCatalog, Forum, Thread, Reply, with its sample data)
//! and its "Guidelines for working with items": books and bicycles are two entities of one
//! ProductCatalog table; a thread's replies live in a table of their own (one-to-many) rather than
//! in a set on the thread; long reply messages are stored compressed; every operation prints the
//! capacity it consumed and the sizes of the items it wrote; replies are listed for the last 15 days
//! and by user through a global index.
//!
//! One difference from the guide: its Reply index is `PostedBy-Message-Index`, sorted by the message.
//! A compressed message cannot sort an index (compressed bytes do not compare like text), and a
//! long one could not anyway (a sort key holds at most 1024 bytes), so the index here is sorted by
//! the reply's time: `PostedBy-ReplyDateTime-Index`.
//!
//! Runs on the in-memory engine; with `DYNAMODB_ENDPOINT` set (e.g. `http://127.0.0.1:8000`) it runs
//! against DynamoDB Local instead, in tables prefixed with a namespace it deletes at the end.

use chrono::{DateTime, Duration, Utc};
use dynomodel::{AwsBackend, CapacityExt, Consumed, Db, Model};

/// A book of the catalogue: `ProductCategory` = "Book".
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(
    table = "ProductCatalog",
    entity = "Book",
    entity_attribute = "ProductCategory",
    rename_all = "PascalCase"
)]
struct Book {
    #[hash_key]
    id: u32,
    title: String,
    #[dynomodel(rename = "ISBN")]
    isbn: String,
    authors: Vec<String>,
    price: i64,
    dimensions: String,
    page_count: u32,
    in_publication: bool,
}

/// A bicycle of the same catalogue: `ProductCategory` = "Bicycle".
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(
    table = "ProductCatalog",
    entity = "Bicycle",
    entity_attribute = "ProductCategory",
    rename_all = "PascalCase"
)]
struct Bicycle {
    #[hash_key]
    id: u32,
    title: String,
    description: String,
    bicycle_type: String,
    brand: String,
    price: i64,
    color: Vec<String>,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Forum", rename_all = "PascalCase")]
struct Forum {
    #[hash_key]
    name: String,
    category: String,
    threads: u32,
    messages: u32,
    views: u32,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Thread", rename_all = "PascalCase", datetime = "millis")]
struct Thread {
    #[hash_key]
    forum_name: String,
    #[range_key]
    subject: String,
    message: String,
    last_posted_by: String,
    last_posted_date_time: DateTime<Utc>,
    views: u32,
    replies: u32,
    answered: u32,
    tags: Vec<String>,
}

/// A reply, in a table of its own: `Id` is "forum#subject". Messages of 256 bytes and more are
/// stored gzip-compressed; the budget keeps every reply within two write units.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(
    table = "Reply",
    rename_all = "PascalCase",
    datetime = "millis",
    max_item_size = "2KB"
)]
#[global_index(all("PostedBy-ReplyDateTime-Index", hash = posted_by, range = reply_date_time))]
struct Reply {
    #[hash_key]
    id: String,
    #[range_key]
    reply_date_time: DateTime<Utc>,
    #[dynomodel(compress(min_size = 256))]
    message: String,
    posted_by: String,
}

/// The engine, or DynamoDB Local when `DYNAMODB_ENDPOINT` is set (in a namespace of its own).
fn database() -> Db {
    match std::env::var("DYNAMODB_ENDPOINT") {
        Ok(endpoint) => Db::new(AwsBackend::local(endpoint))
            .with_namespace(format!("forum-{}-", std::process::id())),
        Err(_) => dynomodel_mem::memory(),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = database();
    // Books and bicycles share one table: one CreateTable for both.
    db.create_schema::<Book>().await?;
    db.create_schema::<Forum>().await?;
    db.create_schema::<Thread>().await?;
    db.create_schema::<Reply>().await?;
    let result = run(&db).await;
    if std::env::var("DYNAMODB_ENDPOINT").is_ok() {
        db.delete_schema::<Book>().await?;
        db.delete_schema::<Forum>().await?;
        db.delete_schema::<Thread>().await?;
        db.delete_schema::<Reply>().await?;
    }
    result
}

/// One line: what a read did and the read units it consumed.
fn report_read(what: &str, consumed: &Consumed) {
    println!("{what:<52} {:>4} RCU", consumed.read_units() + 0.0);
}

/// Puts `value`, printing its size, the write units that size costs on the table
/// (`ItemSize::write_units`), and what the put consumed in all (a global index projecting the item
/// costs a write of its own).
async fn put<M: Model>(db: &Db, what: &str, value: &M) -> Result<(), Box<dyn std::error::Error>> {
    let size = value.item_size()?;
    let ((), consumed) = db.put(value).with_capacity().await?;
    println!(
        "{what:<52} {:>6} bytes, {} WCU on the table, {} WCU consumed",
        size.bytes(),
        size.write_units(),
        consumed.write_units()
    );
    assert!(consumed.write_units() >= size.write_units());
    Ok(())
}

/// `len` characters of pseudo-random text, which gzip cannot shrink much.
fn noise(len: usize) -> String {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(b'!' + (state >> 58) as u8 + (state >> 59) as u8)
        })
        .collect()
}

fn book(id: u32, isbn: &str, authors: &[&str], price: i64, dimensions: &str, pages: u32) -> Book {
    Book {
        id,
        title: format!("Book {id} Title"),
        isbn: isbn.into(),
        authors: authors.iter().map(|a| (*a).to_owned()).collect(),
        price,
        dimensions: dimensions.into(),
        page_count: pages,
        in_publication: id != 103,
    }
}

fn bicycle(id: u32, title: &str, kind: &str, brand: &str, price: i64, colors: &[&str]) -> Bicycle {
    Bicycle {
        id,
        title: title.into(),
        description: format!("{id} Description"),
        bicycle_type: kind.into(),
        brand: brand.into(),
        price,
        color: colors.iter().map(|c| (*c).to_owned()).collect(),
    }
}

fn thread(forum: &str, subject: &str, message: &str, tags: &[&str], now: DateTime<Utc>) -> Thread {
    Thread {
        forum_name: forum.into(),
        subject: subject.into(),
        message: message.into(),
        last_posted_by: "User A".into(),
        last_posted_date_time: now - Duration::days(14),
        views: 0,
        replies: 0,
        answered: 0,
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
    }
}

async fn run(db: &Db) -> Result<(), Box<dyn std::error::Error>> {
    println!("-- ProductCatalog: books and bicycles, one table");
    let books = [
        book(
            101,
            "111-1111111111",
            &["Author1"],
            2,
            "8.5 x 11.0 x 0.5",
            500,
        ),
        book(
            102,
            "222-2222222222",
            &["Author1", "Author2"],
            20,
            "8.5 x 11.0 x 0.8",
            600,
        ),
        book(
            103,
            "333-3333333333",
            &["Author1", "Author2"],
            2000,
            "8.5 x 11.0 x 1.5",
            600,
        ),
    ];
    for b in &books {
        put(db, &format!("put Book {}", b.id), b).await?;
    }
    let bicycles = [
        bicycle(
            201,
            "18-Bike-201",
            "Road",
            "Mountain A",
            100,
            &["Red", "Black"],
        ),
        bicycle(
            202,
            "21-Bike-202",
            "Road",
            "Brand-Company A",
            200,
            &["Green", "Black"],
        ),
        bicycle(
            203,
            "19-Bike-203",
            "Road",
            "Brand-Company B",
            300,
            &["Red", "Green", "Black"],
        ),
        bicycle(
            204,
            "18-Bike-204",
            "Mountain",
            "Brand-Company B",
            400,
            &["Red"],
        ),
        bicycle(
            205,
            "18-Bike-204",
            "Hybrid",
            "Brand-Company C",
            500,
            &["Red", "Black"],
        ),
    ];
    for b in &bicycles {
        put(db, &format!("put Bicycle {}", b.id), b).await?;
    }
    let (book, consumed) = db.get::<Book>(101u32).with_capacity().await?;
    report_read("get Book 101 (eventually consistent)", &consumed);
    assert_eq!(book.as_ref(), Some(&books[0]));
    let (_, consumed) = db.get::<Book>(101u32).consistent().with_capacity().await?;
    report_read("get Book 101 (strongly consistent)", &consumed);
    // A scan of one entity reads the whole table and keeps its own items.
    let (road, consumed) = db
        .scan::<Bicycle>()
        .filter(Bicycle::bicycle_type().eq("Road"))
        .all()
        .with_capacity()
        .await?;
    report_read(&format!("scan road bicycles: {}", road.len()), &consumed);
    assert_eq!(road.len(), 3);

    println!("-- Forum and Thread");
    for (name, threads, messages, views) in
        [("Amazon DynamoDB", 2, 4, 1000), ("Amazon S3", 0, 0, 0)]
    {
        let forum = Forum {
            name: name.into(),
            category: "Amazon Web Services".into(),
            threads,
            messages,
            views,
        };
        put(db, &format!("put Forum {name}"), &forum).await?;
    }
    let now = Utc::now();
    let threads = [
        thread(
            "Amazon DynamoDB",
            "DynamoDB Thread 1",
            "DynamoDB thread 1 message",
            &["index", "primarykey", "table"],
            now,
        ),
        thread(
            "Amazon DynamoDB",
            "DynamoDB Thread 2",
            "DynamoDB thread 2 message",
            &["index", "partitionkey", "sortkey"],
            now,
        ),
        thread(
            "Amazon S3",
            "S3 Thread 1",
            "S3 Thread 3 message",
            &["largeobjects", "multipart upload"],
            now,
        ),
    ];
    for t in &threads {
        put(db, &format!("put Thread {}", t.subject), t).await?;
    }

    println!("-- Reply: one item per reply, long messages compressed");
    // The guide's replies, dated relative to today as its loader does: 21, 14, 7 and 1 days ago.
    let thread1 = "Amazon DynamoDB#DynamoDB Thread 1";
    let thread2 = "Amazon DynamoDB#DynamoDB Thread 2";
    let long = "A long answer, quoting the whole question back, as long answers do. ".repeat(20);
    let replies = [
        (
            thread1,
            21,
            "DynamoDB Thread 1 Reply 1 text".to_owned(),
            "User A",
        ),
        (
            thread1,
            14,
            "DynamoDB Thread 1 Reply 2 text".to_owned(),
            "User B",
        ),
        (
            thread2,
            7,
            "DynamoDB Thread 2 Reply 3 text".to_owned(),
            "User B",
        ),
        (thread1, 1, long.clone(), "User A"),
    ];
    for (id, days, message, by) in &replies {
        let reply = Reply {
            id: (*id).into(),
            reply_date_time: now - Duration::days(*days),
            message: message.clone(),
            posted_by: (*by).into(),
        };
        let what = format!("put Reply {days} days ago ({} byte message)", message.len());
        put(db, &what, &reply).await?;
    }
    let uncompressed = long.len() + "Message".len();
    println!("   the long message alone would be {uncompressed} bytes; the item is within the 2 KB budget");
    let too_long = Reply {
        id: thread1.into(),
        reply_date_time: now,
        // Text that does not compress: over the model's 2 KB budget even compressed.
        message: noise(3000),
        posted_by: "User C".into(),
    };
    match db.put(&too_long).await {
        Err(dynomodel::Error::ItemTooLarge(e)) => println!("refused before sending: {e}"),
        other => return Err(format!("expected the budget to refuse it, got {other:?}").into()),
    }

    println!("-- Queries");
    let fifteen_days_ago = now - Duration::days(15);
    let (recent, consumed) = db
        .query::<Reply>(thread1)
        .range(Reply::reply_date_time().gt(fifteen_days_ago))
        .all()
        .with_capacity()
        .await?;
    report_read(
        &format!("replies to Thread 1 in the last 15 days: {}", recent.len()),
        &consumed,
    );
    assert_eq!(recent.len(), 2);
    assert_eq!(
        recent[1].message, long,
        "the compressed message reads back whole"
    );
    let (by_b, consumed) = db
        .query_index(Reply::posted_by_reply_date_time_index(), "User B")
        .all()
        .with_capacity()
        .await?;
    report_read(
        &format!("replies by User B (global index): {}", by_b.len()),
        &consumed,
    );
    assert_eq!(by_b.len(), 2);
    Ok(())
}
