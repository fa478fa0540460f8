use dynomodel::{Db, Model};

// The AWS Developer Guide's Thread table, with a local index sorted by `last_post` and a global
// one partitioned by `category`.
#[derive(Model, Debug, Clone, PartialEq)]
#[global_index(all("by-category", hash = category, range = views))]
struct Thread {
    #[hash_key]
    forum_name: String,
    #[range_key]
    subject: String,
    #[index(all = "by-last-post")]
    last_post: String,
    category: String,
    message: String,
    views: u64,
}

// Reply: the composite `Id = ForumName#Subject` is its hash key, which sorts nothing.
#[derive(Model, Debug, Clone, PartialEq)]
#[composite(id = (forum_name, subject), hash_key)]
struct Reply {
    forum_name: String,
    subject: String,
    #[range_key]
    reply_date_time: String,
    message: String,
}

async fn queries(db: &Db) {
    // An attribute that sorts neither the table nor an index.
    let _ = db.query::<Thread>("Amazon DynamoDB").range(Thread::message().gt("m"));
    // The partition key of an index is no sort key either.
    let _ = db.query::<Thread>("Amazon DynamoDB").range(Thread::category().eq("db"));
    // The same on one index.
    let _ = db.query_index(Thread::by_category(), "db".to_owned()).range(Thread::message().eq("x"));
    // A sort key, but not an operator a key condition allows.
    let _ = db.query::<Thread>("Amazon DynamoDB").range(Thread::subject().ne("Thread 1"));
    // Two conditions on the sort key: DynamoDB takes one (`between` is one).
    let _ = db
        .query::<Thread>("Amazon DynamoDB")
        .range(Thread::subject().ge("a") & Thread::subject().le("b"));
    // A composite that is the table's hash key.
    let _ = db
        .query::<Reply>(("Amazon DynamoDB".to_owned(), "Thread 1".to_owned()))
        .range(Reply::id().prefix(("Amazon DynamoDB".to_owned(),)));
}

fn main() {
    let _ = queries;
}
