//! Migrations: version 1 of a model is created and filled; version 2 of the same table adds a global
//! index and a time to live. The plan is printed (a dry run), applied, and the new index is queried —
//! it holds the items written before it existed.
//! Needs no service: `cargo run -p dynomodel-examples --example migrate`.
//!
//! Against Amazon DynamoDB the same code waits while the index backfills (`apply` polls DescribeTable
//! until it is ACTIVE; see `ApplyOptions` for the timeout and progress reports).

use std::time::{Duration, SystemTime};

use dynomodel::migrate::{ApplyOptions, Progress};

/// The first version: sessions by user, nothing else.
mod v1 {
    use dynomodel::Model;

    /// A login session.
    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "sessions")]
    pub(crate) struct Session {
        /// The user (partition key).
        #[hash_key]
        pub user: String,
        /// The session id (sort key).
        #[range_key]
        pub id: String,
        /// The device it was opened on.
        pub device: String,
    }
}

/// The second version: the same table, queried by device, and sessions that expire.
mod v2 {
    use std::time::SystemTime;

    use dynomodel::Model;

    /// A login session that expires.
    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "sessions", tags(team = "auth"))]
    #[global_index(keys("by-device", hash = device))]
    pub(crate) struct Session {
        /// The user (partition key).
        #[hash_key]
        pub user: String,
        /// The session id (sort key).
        #[range_key]
        pub id: String,
        /// The device it was opened on.
        pub device: String,
        /// When DynamoDB may delete it (`None`: never; sessions written by v1 have none).
        #[ttl]
        pub expires: Option<SystemTime>,
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = dynomodel_mem::memory();

    // Version 1: the table is created, and users log in.
    db.create_schema::<v1::Session>().await?;
    for (user, id, device) in [
        ("ada", "s1", "laptop"),
        ("ada", "s2", "phone"),
        ("bob", "s3", "laptop"),
    ] {
        let session = v1::Session {
            user: user.into(),
            id: id.into(),
            device: device.into(),
        };
        db.put(&session).await?;
    }

    // Version 2 is deployed: what would change?
    let plan = db.plan::<v2::Session>().await?;
    println!("plan:\n{plan}\n");

    let options = ApplyOptions::default()
        .poll_interval(Duration::from_millis(100))
        .on_progress(|progress| {
            if let Progress::Done { index, total, step } = progress {
                println!("done {}/{total}: {step}", index + 1);
            }
        });
    plan.apply_with(&db, options).await?;
    println!("\nplan after apply: {}", db.plan::<v2::Session>().await?);

    // The index holds the items written before it existed.
    let on_laptops = db
        .query_index(v2::Session::by_device(), "laptop")
        .all()
        .await?;
    println!("\nsessions on a laptop:");
    for entry in &on_laptops {
        println!("  {} / {}", entry.user, entry.id);
    }
    assert_eq!(on_laptops.len(), 2);

    // New sessions expire in a day.
    let session = v2::Session {
        user: "cyd".into(),
        id: "s4".into(),
        device: "tablet".into(),
        expires: Some(SystemTime::now() + Duration::from_secs(24 * 3600)),
    };
    db.put(&session).await?;
    let read = db.get::<v2::Session>(("cyd", "s4")).await?;
    println!("\n{read:?}");
    Ok(())
}
