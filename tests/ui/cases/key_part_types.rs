use chrono::{DateTime, Utc};
use dynomodel::{Db, Model};

#[derive(Model, Debug, Clone, PartialEq)]
#[composite(id = (forum_name, subject), hash_key, rename = "Id")]
struct Reply {
    forum_name: String,
    subject: String,
    #[range_key]
    at: DateTime<Utc>,
}

fn keys(db: &Db, at: DateTime<Utc>) {
    // Right: borrowed or owned strings, in any mix.
    let _ = db.query::<Reply>(("Amazon DynamoDB", "Thread 1"));
    let _ = db.get::<Reply>((("Amazon DynamoDB", &String::new()), at));
    let _ = Reply::id().prefix(("Amazon DynamoDB",));
    // A number where the subject goes: the error names the part's type.
    let _ = db.query::<Reply>(("Amazon DynamoDB", 1));
    let _ = db.get::<Reply>((("Amazon DynamoDB", "Thread 1"), "yesterday"));
    let _ = Reply::id().prefix((1,));
}

fn main() {}
