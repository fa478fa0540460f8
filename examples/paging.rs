//! Token paging in a web API: a handler takes a forum, an optional page token and a page size, and
//! answers a page of the forum's unanswered threads with the token of the next page, as JSON. On the
//! in-memory engine: `cargo run -p dynomodel-examples --example paging`.
//!
//! What it shows:
//! - `page(n, cursor)` fills pages of `n` *matching* threads, although DynamoDB evaluates its
//!   `Limit` before the filter (most DynamoDB pages here match one thread or none), and the last
//!   page carries no token, so a client never fetches an empty page;
//! - a token is checked before anything is sent: one from another forum, a forged or altered one,
//!   or garbage is an `Error::InvalidCursor`, which the handler answers with a 400;
//! - `Db::with_cursor_key` signs the tokens (HMAC-SHA256), so clients cannot make up positions;
//!   signing does not hide the key values a token holds;
//! - the read is `lenient()`: a thread another program wrote that does not decode is shown as
//!   unreadable (and logged with its key and attribute) instead of failing the whole listing; it
//!   counts in the page's size, and the next token follows it like any other.

use dynomodel::backend::PutItemInput;
use dynomodel::{AttributeValue, Cursor, Db, Error, Model};
use serde_json::{json, Value};

/// A thread of the AWS Developer Guide's sample forum.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Thread", rename_all = "PascalCase")]
pub struct Thread {
    /// The forum (partition key).
    #[hash_key]
    pub forum_name: String,
    /// The subject (sort key).
    #[range_key]
    pub subject: String,
    /// Replies so far.
    pub replies: u32,
    /// Times viewed.
    pub views: u64,
}

/// `GET /forums/{forum}/unanswered?token=..&size=..`, as a handler receives it.
#[derive(Debug)]
pub struct ListRequest {
    /// The forum.
    pub forum: String,
    /// The `next` token of the previous page, if any.
    pub token: Option<String>,
    /// How many threads a page shows (default 10, at most 100).
    pub size: Option<usize>,
}

/// What the handler answers: an HTTP status and a JSON body.
#[derive(Debug)]
pub struct Response {
    /// 200, 400 or 500.
    pub status: u16,
    /// `{"items": [..], "next": token or null}`, or `{"error": ..}`.
    pub body: Value,
}

/// The handler: a page of unanswered threads, and the token of the next page.
pub async fn list_unanswered(db: &Db, request: ListRequest) -> Response {
    let size = request.size.unwrap_or(10).clamp(1, 100);
    // A token that does not even parse is as much the client's mistake as one that does not fit.
    let cursor = match request
        .token
        .as_deref()
        .map(str::parse::<Cursor>)
        .transpose()
    {
        Ok(cursor) => cursor,
        Err(e) => return error(e),
    };
    let page = db
        .query::<Thread>(request.forum)
        .filter(Thread::replies().eq(0))
        .lenient()
        .page(size, cursor)
        .await;
    match page {
        Ok(page) => Response {
            status: 200,
            body: json!({
                "items": page.items.iter().map(|thread| match thread {
                    Ok(t) => json!({ "subject": t.subject, "views": t.views }),
                    Err(bad) => {
                        // The error names the table, the key and the attribute: for the logs.
                        eprintln!("unreadable thread: {bad}");
                        let subject = match bad.key.get("Subject") {
                            Some(AttributeValue::S(subject)) => Some(subject.as_str()),
                            _ => None,
                        };
                        json!({ "subject": subject, "error": "unreadable" })
                    }
                }).collect::<Vec<_>>(),
                "next": page.next.map(|cursor| cursor.to_string()),
            }),
        },
        Err(e) => error(e),
    }
}

/// A token the read refused is a bad request; anything else is the server's problem.
fn error(e: Error) -> Response {
    match e {
        Error::InvalidCursor(invalid) => Response {
            status: 400,
            body: json!({ "error": "invalid page token", "detail": invalid.reason.to_string() }),
        },
        other => Response {
            status: 500,
            body: json!({ "error": other.code() }),
        },
    }
}

/// 60 threads in "Amazon DynamoDB", one in four unanswered; 5 in "Amazon S3".
async fn seed(db: &Db) -> dynomodel::Result<()> {
    db.create_schema::<Thread>().await?;
    for (forum, count) in [("Amazon DynamoDB", 60), ("Amazon S3", 5)] {
        for i in 0..count {
            let thread = Thread {
                forum_name: forum.into(),
                subject: format!("Thread {i:03}"),
                replies: if i % 4 == 0 { 0 } else { i % 7 + 1 },
                views: u64::from(i) * 3,
            };
            db.put(&thread).await?;
        }
    }
    Ok(())
}

fn request(forum: &str, token: Option<&str>, size: usize) -> ListRequest {
    ListRequest {
        forum: forum.into(),
        token: token.map(str::to_owned),
        size: Some(size),
    }
}

/// The walkthrough `main` prints; the test below runs it too.
async fn walkthrough() -> Result<(), Box<dyn std::error::Error>> {
    // In production the key comes from a secret store; at least 32 random bytes.
    let key = b"example key: use 32 random bytes";
    let db = dynomodel_mem::memory().with_cursor_key(key)?;
    seed(&db).await?;

    // A client pages through the 15 unanswered threads, 4 at a time.
    let mut token: Option<String> = None;
    let mut shown = 0;
    for number in 1.. {
        let response = list_unanswered(&db, request("Amazon DynamoDB", token.as_deref(), 4)).await;
        assert_eq!(response.status, 200, "{}", response.body);
        let items = response.body["items"].as_array().map_or(0, Vec::len);
        shown += items;
        println!(
            "page {number}: {items} threads, next: {}",
            response.body["next"]
        );
        match response.body["next"].as_str() {
            Some(next) => token = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(shown, 15);
    println!("{shown} unanswered threads, no empty last page");

    // A page size that divides the count exactly: the last page is full and has no token.
    let first = list_unanswered(&db, request("Amazon DynamoDB", None, 5)).await;
    let next = first.body["next"].as_str().map(str::to_owned);
    let second = list_unanswered(&db, request("Amazon DynamoDB", next.as_deref(), 5)).await;
    let next = second.body["next"].as_str().map(str::to_owned);
    let third = list_unanswered(&db, request("Amazon DynamoDB", next.as_deref(), 5)).await;
    assert_eq!(third.body["items"].as_array().map(Vec::len), Some(5));
    assert_eq!(third.body["next"], Value::Null);

    // The token of one forum handed to another: a 400, nothing sent.
    let s3 = list_unanswered(&db, request("Amazon S3", next.as_deref(), 5)).await;
    println!("another forum's token: {} {}", s3.status, s3.body);
    assert_eq!(s3.status, 400);

    // Garbage, and the cursor format of before (`{}` in base64).
    for garbage in ["not a token", "e30"] {
        let response = list_unanswered(&db, request("Amazon DynamoDB", Some(garbage), 5)).await;
        println!("{garbage:?}: {} {}", response.status, response.body);
        assert_eq!(response.status, 400);
    }

    // A token made up by a client (the same position, unsigned): refused.
    let unsigned = dynomodel_mem::memory();
    seed(&unsigned).await?;
    let made_up = list_unanswered(&unsigned, request("Amazon DynamoDB", None, 5)).await;
    let made_up = made_up.body["next"].as_str().map(str::to_owned);
    let forged = list_unanswered(&db, request("Amazon DynamoDB", made_up.as_deref(), 5)).await;
    println!("an unsigned token: {} {}", forged.status, forged.body);
    assert_eq!(forged.status, 400);
    assert_eq!(
        forged.body["detail"],
        "it carries no signature, and this database signs its cursors"
    );

    // Another program writes an unanswered thread whose views are text: the listing goes on.
    let stray = [
        ("ForumName", AttributeValue::S("Amazon DynamoDB".into())),
        ("Subject", AttributeValue::S("Thread 004b".into())),
        ("Replies", AttributeValue::N(0.into())),
        ("Views", AttributeValue::S("many".into())),
    ];
    let item = stray.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
    let table_name = db.table_name::<Thread>();
    db.backend()
        .put_item(PutItemInput {
            table_name,
            item,
            ..Default::default()
        })
        .await?;
    let first = list_unanswered(&db, request("Amazon DynamoDB", None, 3)).await;
    println!("with an unreadable thread: {} {}", first.status, first.body);
    assert_eq!(first.status, 200);
    assert_eq!(
        first.body["items"][2],
        json!({ "subject": "Thread 004b", "error": "unreadable" })
    );
    // The token follows the unreadable thread.
    let next = first.body["next"].as_str().map(str::to_owned);
    let second = list_unanswered(&db, request("Amazon DynamoDB", next.as_deref(), 3)).await;
    assert_eq!(second.body["items"][0]["subject"], "Thread 008");
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    walkthrough().await
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn the_walkthrough_holds() {
        super::walkthrough().await.expect("the walkthrough");
    }
}
