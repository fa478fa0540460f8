//! Backups and point-in-time recovery in durable mode (`ops/backups/`): a table restored from a
//! backup or to a point in time is logged as its CreateTable request and its item writes, so it
//! comes back after a restart, from the log and from a snapshot (without its `RestoreSummary`);
//! backups and PITR's history are kept in memory only, so they do not.

use dynomodel::backend::{
    Backend, CreateBackupInput, DescribeBackupInput, DescribeContinuousBackupsInput,
    PointInTimeRecoverySpecification, PointInTimeRecoveryStatus, RestoreTableFromBackupInput,
    RestoreTableToPointInTimeInput, ScanInput, UpdateContinuousBackupsInput,
};
use futures::executor::block_on;

use super::{create, open, put, ManualClock, TempDir};
use crate::MemBackend;

async fn items(b: &MemBackend, table: &str) -> usize {
    b.scan(ScanInput {
        table_name: table.into(),
        ..Default::default()
    })
    .await
    .expect("scan")
    .items
    .unwrap_or_default()
    .len()
}

fn restores_survive(compact: bool) {
    let dir = TempDir::new(if compact {
        "backups-snapshot"
    } else {
        "backups-log"
    });
    let clock = ManualClock::default();
    let backup_arn = block_on(async {
        let b = open(&dir.0, &clock);
        create(&b).await;
        for i in 0..3 {
            b.put_item(put(&format!("k{i}"), "g0")).await.expect("put");
        }
        let arn = b
            .create_backup(CreateBackupInput {
                table_name: "tab".into(),
                backup_name: "nightly".into(),
            })
            .await
            .expect("backup")
            .backup_details
            .backup_arn;
        b.update_continuous_backups(UpdateContinuousBackupsInput {
            table_name: "tab".into(),
            point_in_time_recovery_specification: PointInTimeRecoverySpecification {
                point_in_time_recovery_enabled: true,
                recovery_period_in_days: None,
            },
        })
        .await
        .expect("pitr");
        // After the instant the restore to the latest time goes back to (PITR's enabling).
        clock.advance(std::time::Duration::from_secs(1));
        b.put_item(put("k9", "g1")).await.expect("put");
        b.restore_table_from_backup(RestoreTableFromBackupInput {
            target_table_name: "from-backup".into(),
            backup_arn: arn.clone(),
            ..Default::default()
        })
        .await
        .expect("restore");
        b.restore_table_to_point_in_time(RestoreTableToPointInTimeInput {
            source_table_name: Some("tab".into()),
            target_table_name: "to-point".into(),
            use_latest_restorable_time: Some(true),
            ..Default::default()
        })
        .await
        .expect("point in time");
        if compact {
            b.compact().expect("compact");
        }
        arn
    });
    block_on(async {
        let b = open(&dir.0, &clock);
        let report = b.recovery_report().expect("report").clone();
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        assert!(b.consistency_problems().is_empty());
        // The restored tables and their items came back.
        assert_eq!(items(&b, "from-backup").await, 3);
        assert_eq!(items(&b, "to-point").await, 3);
        assert_eq!(items(&b, "tab").await, 4);
        // The backup and PITR did not: in memory only, as documented.
        let gone = b
            .describe_backup(DescribeBackupInput {
                backup_arn: backup_arn.clone(),
            })
            .await
            .expect_err("the backup is gone");
        assert_eq!(gone.code(), "BackupNotFoundException");
        let pitr = b
            .describe_continuous_backups(DescribeContinuousBackupsInput {
                table_name: "tab".into(),
            })
            .await
            .expect("describe")
            .continuous_backups_description
            .point_in_time_recovery_description
            .expect("pitr");
        assert_eq!(
            pitr.point_in_time_recovery_status,
            PointInTimeRecoveryStatus::Disabled
        );
    });
}

#[test]
fn restored_tables_come_back_from_the_log_backups_and_pitr_do_not() {
    restores_survive(false);
}

#[test]
fn restored_tables_come_back_from_a_snapshot_backups_and_pitr_do_not() {
    restores_survive(true);
}
