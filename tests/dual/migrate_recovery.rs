//! Point-in-time recovery declared on a model (`#[dynomodel(point_in_time_recovery)]`): turned on
//! when the table is created, planned and applied like the other table options, and never turned
//! off without `ApplyOptions::allow_recovery_off`.
//!
//! KNOWN DIFFERENCE: DynamoDB Local has no continuous backups (DescribeContinuousBackups and
//! UpdateContinuousBackups answer `UnknownOperationException`): there creation skips the step
//! (reported as `Progress::Skipped`) and the plan leaves recovery alone with a note.

use std::sync::{Arc, Mutex};

use dynomodel::backend::{DescribeContinuousBackupsInput, PointInTimeRecoveryStatus};
use dynomodel::migrate::{ApplyOptions, MigrationErrorKind, Plan, Progress};
use dynomodel::{Db, Error};

use super::*;

mod plain {
    use dynomodel::Model;

    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "ledger")]
    pub(super) struct Entry {
        #[hash_key]
        pub id: String,
    }
}

mod week {
    use dynomodel::Model;

    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "ledger", point_in_time_recovery(recovery_period_days = 7))]
    pub(super) struct Entry {
        #[hash_key]
        pub id: String,
    }
}

mod default_window {
    use dynomodel::Model;

    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "ledger", point_in_time_recovery)]
    pub(super) struct Entry {
        #[hash_key]
        pub id: String,
    }
}

fn ledger_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<plain::Entry>());
    db
}

fn lines(plan: &Plan) -> Vec<String> {
    plan.steps().iter().map(ToString::to_string).collect()
}

async fn recovery_of(db: &Db, table: &str) -> (PointInTimeRecoveryStatus, Option<i32>) {
    let description = db
        .backend()
        .describe_continuous_backups(DescribeContinuousBackupsInput {
            table_name: table.to_owned(),
        })
        .await
        .unwrap()
        .continuous_backups_description
        .point_in_time_recovery_description
        .unwrap();
    (
        description.point_in_time_recovery_status,
        description.recovery_period_in_days,
    )
}

dual_test!(migrate_recovery_is_turned_on_at_creation, |t| {
    let db = ledger_db(&t);
    let table = db.table_name::<week::Entry>();
    let plan = db.plan::<week::Entry>().await.unwrap();
    assert_eq!(
        lines(&plan)[1..],
        [format!("+ point-in-time recovery (7 days) on {table}")]
    );
    let skipped = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&skipped);
    plan.apply_with(
        &db,
        ApplyOptions::default().on_progress(move |progress| {
            if let Progress::Skipped { reason, .. } = progress {
                seen.lock().unwrap().push(reason.code().to_owned());
            }
        }),
    )
    .await
    .unwrap();
    let again = db.plan::<week::Entry>().await.unwrap();
    if t.target() == Target::DynamoDbLocal {
        assert_eq!(*skipped.lock().unwrap(), ["UnknownOperationException"]);
        assert!(again.is_empty(), "{again}");
        assert_eq!(again.notes().len(), 1, "{again}");
        assert!(again.notes()[0].contains("DescribeContinuousBackups is unknown"));
        return;
    }
    assert!(skipped.lock().unwrap().is_empty());
    assert_eq!(
        recovery_of(&db, &table).await,
        (PointInTimeRecoveryStatus::Enabled, Some(7))
    );
    assert!(again.is_empty(), "{again}");
    // create_schema turns it on too.
    db.delete_schema::<week::Entry>().await.unwrap();
    assert!(db.create_schema::<default_window::Entry>().await.unwrap());
    assert_eq!(
        recovery_of(&db, &table).await,
        (PointInTimeRecoveryStatus::Enabled, Some(35))
    );
});

dual_test!(migrate_recovery_window_changes_and_off_needs_consent, |t| {
    if t.target() == Target::DynamoDbLocal {
        return; // no continuous backups: see the module's KNOWN DIFFERENCE
    }
    let db = ledger_db(&t);
    let table = db.table_name::<plain::Entry>();
    db.create_schema::<default_window::Entry>().await.unwrap();
    // Naming DynamoDB's default window is no change.
    assert!(db.plan::<default_window::Entry>().await.unwrap().is_empty());
    let plan = db.plan::<week::Entry>().await.unwrap();
    assert_eq!(
        lines(&plan),
        [format!("+ point-in-time recovery (7 days) on {table}")]
    );
    plan.apply(&db).await.unwrap();
    assert_eq!(
        recovery_of(&db, &table).await,
        (PointInTimeRecoveryStatus::Enabled, Some(7))
    );

    // A model that no longer asks for it: off, refused without its option.
    let plan = db.plan::<plain::Entry>().await.unwrap();
    assert_eq!(
        lines(&plan),
        [format!(
            "- point-in-time recovery off on {table} (destructive: its recovery window is lost)"
        )]
    );
    let err = plan.apply(&db).await.unwrap_err();
    let Error::Migration(e) = &err else {
        panic!("{err:?}")
    };
    assert!(
        matches!(e.kind, MigrationErrorKind::RecoveryOffNotAllowed(_)),
        "{err}"
    );
    assert!(err.to_string().contains("allow_recovery_off"), "{err}");
    assert_eq!(
        recovery_of(&db, &table).await.0,
        PointInTimeRecoveryStatus::Enabled
    );
    plan.apply_with(&db, ApplyOptions::default().allow_recovery_off())
        .await
        .unwrap();
    assert_eq!(
        recovery_of(&db, &table).await.0,
        PointInTimeRecoveryStatus::Disabled
    );
    assert!(db.plan::<plain::Entry>().await.unwrap().is_empty());
});
