//! Migrations planned from models and applied, on every target. Several versions of one
//! table are several structs naming it (`mod v1`, `mod v2`, …); each scenario works in its own
//! namespace.
//!
//! DynamoDB Local has no tagging ("Tagging is not currently supported in DynamoDB Local.", an
//! `UnknownOperationException` for ListTagsOfResource): there the plan leaves tags alone and says so
//! in a note, so the tag steps are asserted on the engine and the server only.

use dynomodel::backend::{DescribeTimeToLiveInput, TimeToLiveStatus};
use dynomodel::migrate::{Action, ApplyOptions, Definition, MigrationErrorKind, Plan};
use dynomodel::{Db, Error, Model};

use super::*;

mod v1 {
    use dynomodel::Model;

    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "posts")]
    pub(super) struct Post {
        #[hash_key]
        pub userid: String,
        #[range_key]
        pub id: String,
        pub city: String,
        pub ts: i64,
    }
}

mod v2 {
    use dynomodel::Model;

    /// v1 plus a GSI, a time to live, a stream and a tag.
    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "posts", stream = "new_image", tags(team = "core"))]
    #[global_index(all("by-city", hash = city, range = ts))]
    pub(super) struct Post {
        #[hash_key]
        pub userid: String,
        #[range_key]
        pub id: String,
        pub city: String,
        pub ts: i64,
        #[ttl]
        pub expires: Option<u64>,
    }
}

mod v3 {
    use dynomodel::Model;

    /// v2 on provisioned capacity.
    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(
        table = "posts",
        throughput(read = 5, write = 5),
        stream = "new_image",
        tags(team = "core")
    )]
    #[global_index(all("by-city", hash = city, range = ts))]
    pub(super) struct Post {
        #[hash_key]
        pub userid: String,
        #[range_key]
        pub id: String,
        pub city: String,
        pub ts: i64,
        #[ttl]
        pub expires: Option<u64>,
    }
}

mod v4 {
    use dynomodel::Model;

    /// v3 with more capacity for the table and the index.
    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(
        table = "posts",
        throughput(read = 10, write = 5),
        stream = "new_image",
        tags(team = "core")
    )]
    #[global_index(all("by-city", hash = city, range = ts), throughput(read = 7, write = 3))]
    pub(super) struct Post {
        #[hash_key]
        pub userid: String,
        #[range_key]
        pub id: String,
        pub city: String,
        pub ts: i64,
        #[ttl]
        pub expires: Option<u64>,
    }
}

mod other_keys {
    use dynomodel::Model;

    /// The same table with another key and a local index: neither can be migrated.
    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "posts")]
    pub(super) struct Post {
        #[hash_key]
        pub userid: String,
        #[range_key]
        pub ts: i64,
        #[index(all = "by-city-local")]
        pub city: String,
    }
}

/// A namespaced database whose `posts` table is deleted at the end.
fn posts_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<v1::Post>());
    db
}

fn lines(plan: &Plan) -> Vec<String> {
    plan.steps().iter().map(ToString::to_string).collect()
}

fn has_tagging(t: &Dual) -> bool {
    t.target() != Target::DynamoDbLocal
}

async fn ttl_of(db: &Db, table: &str) -> (TimeToLiveStatus, Option<String>) {
    let d = db
        .backend()
        .describe_time_to_live(DescribeTimeToLiveInput {
            table_name: table.to_owned(),
        })
        .await
        .unwrap()
        .time_to_live_description;
    (d.time_to_live_status, d.attribute_name)
}

/// Plans `M` again after an apply: nothing left.
async fn assert_settled<M: Model>(db: &Db) {
    let plan = db.plan::<M>().await.unwrap();
    assert!(plan.is_empty(), "a second plan is not empty:\n{plan}");
}

dual_test!(migrate_creates_a_table_with_everything, |t| {
    let db = posts_db(&t);
    let table = db.table_name::<v2::Post>();
    let plan = db.plan::<v2::Post>().await.unwrap();
    assert_eq!(
        lines(&plan),
        [
            format!(
                "+ create table {table} (userid HASH, id RANGE; PAY_PER_REQUEST), \
                 GSI by-city (city HASH, ts RANGE; ALL), stream NEW_IMAGE, tag team=core"
            ),
            format!("+ enable TTL on expires of {table}"),
        ]
    );
    plan.apply(&db).await.unwrap();
    assert_eq!(
        ttl_of(&db, &table).await,
        (TimeToLiveStatus::Enabled, Some("expires".into()))
    );
    assert_settled::<v2::Post>(&db).await;
    // create_schema on an existing table: nothing.
    assert!(!db.create_schema::<v2::Post>().await.unwrap());
});

dual_test!(migrate_adds_an_index_to_a_populated_table, |t| {
    let db = posts_db(&t);
    let table = db.table_name::<v1::Post>();
    assert!(db.create_schema::<v1::Post>().await.unwrap());
    for (id, city, ts) in [("1", "Paris", 3), ("2", "Lyon", 1), ("3", "Paris", 2)] {
        let post = v1::Post {
            userid: "ada".into(),
            id: id.into(),
            city: city.into(),
            ts,
        };
        db.put(&post).await.unwrap();
    }
    let plan = db.plan::<v2::Post>().await.unwrap();
    let mut expected = vec![
        format!("+ create GSI by-city (city HASH, ts RANGE; ALL) on {table}"),
        format!("~ stream off -> NEW_IMAGE on {table}"),
        format!("+ enable TTL on expires of {table}"),
    ];
    if has_tagging(&t) {
        expected.push(format!("+ tag team=core on {table}"));
    } else {
        // KNOWN DIFFERENCE: DynamoDB Local has no tagging; the plan leaves tags alone.
        assert!(
            plan.notes().iter().any(|n| n.contains("no tagging")),
            "{plan}"
        );
    }
    assert_eq!(lines(&plan), expected);
    plan.apply(&db).await.unwrap();

    // The old items are in the new index.
    let paris: Vec<v2::Post> = db
        .query_index(v2::Post::by_city(), "Paris")
        .all()
        .await
        .unwrap();
    let ids: Vec<&str> = paris.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["3", "1"]);
    assert!(paris.iter().all(|p| p.expires.is_none()));
    assert_settled::<v2::Post>(&db).await;
});

dual_test!(migrate_removes_an_index_only_when_allowed, |t| {
    let db = posts_db(&t);
    let table = db.table_name::<v1::Post>();
    db.plan::<v2::Post>()
        .await
        .unwrap()
        .apply(&db)
        .await
        .unwrap();

    let plan = db.plan::<v1::Post>().await.unwrap();
    let mut expected = vec![
        format!("- delete GSI by-city on {table} (destructive: its queries fail)"),
        format!("~ stream NEW_IMAGE -> off on {table}"),
        format!("- disable TTL on expires of {table}"),
    ];
    if has_tagging(&t) {
        expected.push(format!("- untag team on {table}"));
    }
    assert_eq!(lines(&plan), expected);

    // Without the flag: refused, nothing sent.
    let err = plan.apply(&db).await.unwrap_err();
    assert_eq!(err.code(), "MigrationError");
    let Error::Migration(e) = &err else {
        panic!("{err:?}")
    };
    assert!(matches!(&e.kind, MigrationErrorKind::IndexDropsNotAllowed(steps) if steps.len() == 1));
    assert_eq!(db.plan::<v1::Post>().await.unwrap(), plan);

    let applied = plan
        .apply_with(&db, ApplyOptions::default().allow_index_drops())
        .await;
    if t.target() == Target::DynamoDbLocal {
        applied.unwrap();
        assert_eq!(ttl_of(&db, &table).await.0, TimeToLiveStatus::Disabled);
        assert_settled::<v1::Post>(&db).await;
        return;
    }
    // KNOWN DIFFERENCE: DynamoDB refuses a second TTL change within an hour of the first (the v2 apply
    // above enabled it); DynamoDB Local has no such window. The steps before it were applied, and the
    // next plan holds what is left.
    let err = applied.unwrap_err();
    let Error::Migration(e) = &err else {
        panic!("{err:?}")
    };
    match &e.kind {
        MigrationErrorKind::StepFailed { step, source } => {
            assert!(matches!(step.action, Action::DisableTtl { .. }), "{step}");
            assert_eq!(
                source.message(),
                "Time to live has been modified multiple times within a fixed interval"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        lines(&db.plan::<v1::Post>().await.unwrap()),
        [
            format!("- disable TTL on expires of {table}"),
            format!("- untag team on {table}"),
        ]
    );
    assert_eq!(ttl_of(&db, &table).await.0, TimeToLiveStatus::Enabled);
});

dual_test!(migrate_switches_billing_and_capacity, |t| {
    let db = posts_db(&t);
    let table = db.table_name::<v1::Post>();
    db.plan::<v2::Post>()
        .await
        .unwrap()
        .apply(&db)
        .await
        .unwrap();

    let plan = db.plan::<v3::Post>().await.unwrap();
    assert_eq!(
        lines(&plan),
        [format!(
            "~ billing PAY_PER_REQUEST -> PROVISIONED 5/5, GSI by-city 5/5 on {table}"
        )]
    );
    plan.apply(&db).await.unwrap();
    assert_settled::<v3::Post>(&db).await;

    let plan = db.plan::<v4::Post>().await.unwrap();
    assert_eq!(
        lines(&plan),
        [
            format!("~ throughput 5/5 -> 10/5 on {table}"),
            format!("~ GSI by-city throughput 5/5 -> 7/3 on {table}"),
        ]
    );
    plan.apply(&db).await.unwrap();
    assert_settled::<v4::Post>(&db).await;

    let plan = db.plan::<v2::Post>().await.unwrap();
    assert_eq!(
        lines(&plan),
        [format!(
            "~ billing PROVISIONED -> PAY_PER_REQUEST on {table}"
        )]
    );
    plan.apply(&db).await.unwrap();
    assert_settled::<v2::Post>(&db).await;
});

dual_test!(migrate_reports_blocking_differences, |t| {
    let db = posts_db(&t);
    let table = db.table_name::<v1::Post>();
    db.create_schema::<v1::Post>().await.unwrap();
    let plan = db.plan::<other_keys::Post>().await.unwrap();
    assert!(plan.is_blocked());
    let reasons: Vec<&str> = plan.blockers().iter().map(|b| b.reason.as_str()).collect();
    assert_eq!(reasons.len(), 2, "{plan}");
    assert!(reasons[0].starts_with(
        "the key schema differs (live: userid HASH, id RANGE; model: userid HASH, ts RANGE)"
    ));
    assert!(reasons[1].starts_with("LSI by-city-local is in the model but not on the table"));
    assert!(
        plan.to_string()
            .starts_with("! blocked: the key schema differs"),
        "{plan}"
    );
    assert!(plan.blockers().iter().all(|b| b.table == table));
    let err = plan.apply(&db).await.unwrap_err();
    let Error::Migration(e) = &err else {
        panic!("{err:?}")
    };
    assert!(matches!(&e.kind, MigrationErrorKind::Blocked(b) if b.len() == 2));
    // create_schema leaves an existing table alone, whatever the model says.
    assert!(!db.create_schema::<other_keys::Post>().await.unwrap());
});

dual_test!(migrate_plans_several_models_per_table, |t| {
    let db = posts_db(&t);
    let table = db.table_name::<v1::Post>();
    // The same definition twice is one table; two different ones are blocked.
    let plan = db
        .plan_all(&[Definition::of::<v1::Post>(), Definition::of::<v1::Post>()])
        .await
        .unwrap();
    assert_eq!(plan.steps().len(), 1);
    assert!(matches!(plan.steps()[0].action, Action::CreateTable(_)));
    let plan = db
        .plan_all(&[Definition::of::<v1::Post>(), Definition::of::<v2::Post>()])
        .await
        .unwrap();
    assert!(
        plan.is_blocked() && plan.blockers()[0].table == table,
        "{plan}"
    );
});
