use std::collections::BTreeSet;

use dynomodel::{Db, Model, Update};

// The AWS Developer Guide's Thread table; its hash key also sorts a global index, so it is a key
// that sorts (role KeySort), and the range key is one too. Neither may be updated.
#[derive(Model, Debug, Clone, PartialEq)]
#[global_index(all("by-category", hash = category, range = forum_name))]
struct Thread {
    #[hash_key]
    forum_name: String,
    #[range_key]
    subject: String,
    category: String,
    message: String,
    views: u64,
    tags: BTreeSet<String>,
}

// Number keys, so that `add` and `incr` fail only for being keys. The hash key sorts nothing
// (role Key).
#[derive(Model, Debug, Clone, PartialEq)]
struct Reading {
    #[hash_key]
    sensor: u64,
    #[range_key]
    seq: i64,
    value: i64,
}

async fn update(db: &Db) {
    let thread = ("Amazon DynamoDB", "Thread 1");
    let _ = db.update::<Thread>(thread).set(Thread::forum_name(), "Amazon S3");
    let _ = db.update::<Thread>(thread).set(Thread::subject(), "Thread 2");
    let _ = db.update::<Thread>(thread).remove(Thread::subject());
    let _ = db.update::<Reading>((1, 2)).add(Reading::sensor(), 1);
    let _ = db.update::<Reading>((1, 2)).add(Reading::seq(), 1);
    let _ = db.update::<Reading>((1, 2)).incr(Reading::sensor(), 1);
    let _ = db.update::<Reading>((1, 2)).decr(Reading::seq(), 1);
    // `DELETE` takes sets, which a key never is: both are reported.
    let _ = db.update::<Thread>(thread).delete(Thread::forum_name(), "x");
    // The counter and a key in one update: only the key is refused.
    let _ = db
        .update::<Thread>(thread)
        .add(Thread::views(), 1)
        .set_if_not_exists(Thread::subject(), "Thread 1");
}

async fn transaction(db: &Db) {
    let _ = db
        .transact()
        .update::<Thread>(("Amazon DynamoDB", "Thread 1"), |u| u.set(Thread::forum_name(), "S3"))
        .update::<Reading>((1, 2), |u| u.incr(Reading::seq(), 1));
}

async fn others(db: &Db, reading: &mut Reading) {
    let _ = Update::<Thread>::new().set(Thread::subject(), "Thread 2");
    let _ = Update::<Reading>::new().add(Reading::sensor(), 1);
    let _ = db.incr(reading, Reading::seq(), 1).await;
}

fn main() {
    let _ = (update, transaction, others);
}
