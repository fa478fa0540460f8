//! What the key roles allow: sort-key conditions on the table's and on indexes' sort keys
//! (a table hash key that sorts a global index included), key conditions used as filters and
//! write conditions, conditions on keys, updates of non-key attributes (an index's sort key
//! included), and reads of keys.

use std::collections::BTreeSet;

use dynomodel::{Condition, Db, Field, Model, Path, SortKeyCondition, Update};
use dynomodel::expression::role;

#[derive(Model, Debug, Clone, PartialEq)]
#[global_index(all("by-category", hash = category, range = forum_name))]
#[global_index(all("by-views", hash = category, range = views))]
#[global_index(all("by-replies", hash = forum_name, range = replies))]
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
    replies: u64,
    tags: BTreeSet<String>,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[composite(pk = ("FORUM", forum_name), hash_key)]
#[composite(sk = ("REPLY", posted, by), range_key)]
#[composite(gsk = ("BY", by, posted))]
#[global_index(all("by-author", hash = board, range = gsk))]
struct Reply {
    forum_name: String,
    posted: String,
    by: String,
    board: String,
    message: String,
}

async fn queries(db: &Db) -> dynomodel::Result<()> {
    // The table's sort key, and a local index's (chosen from the condition).
    db.query::<Thread>("Amazon DynamoDB").range(Thread::subject().begins_with("How")).all().await?;
    db.query::<Thread>("Amazon DynamoDB").range(Thread::last_post().ge("2026-01")).all().await?;
    // A global index's sort key on db.query: "by-replies" is partitioned by the table's hash key.
    db.query::<Thread>("Amazon DynamoDB").range(Thread::replies().ge(3)).all().await?;
    // "by-views" is not: this compiles, and fails when the query runs, unsent.
    let _ = db.query::<Thread>("Amazon DynamoDB").range(Thread::views().gt(10));
    // The table's hash key sorts "by-category".
    db.query_index(Thread::by_category(), "db".to_owned())
        .range(Thread::forum_name().begins_with("Amazon"))
        .all()
        .await?;
    let views = Thread::by_views().range_field();
    db.query_index(Thread::by_views(), "db".to_owned()).range(views.between(10, 20)).all().await?;
    // Composite sort keys, of the table and of an index.
    db.query::<Reply>("Amazon DynamoDB").range(Reply::sk().prefix(("2026".to_owned(),))).all().await?;
    db.query_index(Reply::by_author(), "general".to_owned())
        .range(Reply::gsk().prefix(("ada".to_owned(),)))
        .all()
        .await?;
    // Sort-key conditions are conditions: filters, combinations.
    let recent: SortKeyCondition<Thread> = Thread::subject().ge("m");
    let both: Condition<Thread> = recent.clone() & Thread::message().contains("rust");
    db.query::<Thread>("Amazon DynamoDB").filter(recent).filter(both).all().await?;
    db.scan::<Thread>().filter(Thread::views().ge(1) | Thread::forum_name().eq("S3")).all().await?;
    Ok(())
}

async fn updates(db: &Db) -> dynomodel::Result<()> {
    // Updates of other attributes, an index's sort key included, on condition of the keys.
    db.update::<Thread>(("Amazon DynamoDB", "Thread 1"))
        .add(Thread::views(), 1)
        .set(Thread::last_post(), "2026-01-02")
        .add(Thread::tags(), BTreeSet::from(["rust".to_owned()]))
        .condition(Thread::forum_name().exists())
        .condition(Thread::subject().eq("Thread 1"))
        .await?;
    db.transact()
        .update::<Thread>(("Amazon DynamoDB", "Thread 1"), |u| {
            u.incr(Thread::views(), 1).condition(Thread::forum_name().exists())
        })
        .condition_check::<Thread>(("Amazon DynamoDB", "Thread 2"), Thread::subject().exists())
        .await?;
    // The raw escape hatch: a path from a key's handle (DynamoDB refuses the request).
    let _ = Update::<Thread>::new().set(Path::from(Thread::subject()), "Thread 2");
    Ok(())
}

async fn reads(db: &Db) -> dynomodel::Result<()> {
    // Keys are read, projected and compared like any attribute.
    let partial = db
        .query::<Thread>("Amazon DynamoDB")
        .project((Thread::forum_name(), Thread::subject()))
        .all()
        .await?;
    let _ = partial.first().map(|p| p.get(Thread::subject()));
    Ok(())
}

fn main() {
    // The roles the derive chose.
    let _: Field<Thread, String, role::KeySort> = Thread::forum_name();
    let _: Field<Thread, String, role::KeySort> = Thread::subject();
    let _: Field<Thread, String, role::Sort> = Thread::last_post();
    let _: Field<Thread, u64, role::Sort> = Thread::views();
    let _: Field<Thread, u64, role::Sort> = Thread::replies();
    let _: Field<Thread, String> = Thread::category();
    let _: Field<Thread, String, role::Attr> = Thread::message();
    let _ = (queries, updates, reads);
}
