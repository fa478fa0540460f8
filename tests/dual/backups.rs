//! On-demand backups and point-in-time recovery: CreateBackup, DescribeBackup, ListBackups,
//! DeleteBackup, RestoreTableFromBackup, DescribeContinuousBackups, UpdateContinuousBackups and
//! RestoreTableToPointInTime (the engine's rules: `dynomodel-mem/src/ops/backups/`, with the API
//! reference pages they follow; its unit tests cover the rules that need a manual clock).
//!
//! KNOWN DIFFERENCE (every scenario here): DynamoDB Local 3.3.1 implements none of the eight
//! operations: each answers `UnknownOperationException` "An unknown operation was requested."
//! whatever the request (probed with boto3). The scenarios check that refusal on Local and the
//! documented behaviour on the engine and the server.

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

const LOCAL_UNKNOWN: &str = "An unknown operation was requested.";

/// `result` on the engine and the server, or `None` on DynamoDB Local after checking its refusal.
fn served<T: std::fmt::Debug>(t: &Dual, result: Result<T>) -> Option<T> {
    match t.target() {
        Target::DynamoDbLocal => {
            // KNOWN DIFFERENCE: no backup operation on DynamoDB Local.
            t.expect_error(result, "UnknownOperationException", LOCAL_UNKNOWN);
            None
        }
        Target::Mem | Target::Server => Some(result.unwrap()),
    }
}

/// An error on the engine and the server, DynamoDB Local's refusal there.
fn refused<T: std::fmt::Debug>(t: &Dual, result: Result<T>, code: &str, message: &str) {
    match t.target() {
        // KNOWN DIFFERENCE: no backup operation on DynamoDB Local.
        Target::DynamoDbLocal => {
            t.expect_error(result, "UnknownOperationException", LOCAL_UNKNOWN);
        }
        Target::Mem | Target::Server => {
            t.expect_error(result, code, message);
        }
    }
}

/// A table `pk` (S) / `sk` (N) with a GSI on `g`, holding `items` items.
async fn table_with_items(t: &Dual, label: &str, items: usize) -> String {
    let name = t.table_name(label);
    t.backend()
        .create_table(CreateTableInput {
            table_name: name.clone(),
            attribute_definitions: vec![
                AttributeDefinition {
                    attribute_name: "pk".into(),
                    attribute_type: S,
                },
                AttributeDefinition {
                    attribute_name: "sk".into(),
                    attribute_type: N,
                },
                AttributeDefinition {
                    attribute_name: "g".into(),
                    attribute_type: S,
                },
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "by-g".into(),
                key_schema: vec![KeySchemaElement::hash("g")],
                projection: Projection {
                    projection_type: ProjectionType::All,
                    non_key_attributes: vec![],
                },
                provisioned_throughput: None,
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    for i in 0..items {
        put(t, &name, i).await;
    }
    name
}

async fn put(t: &Dual, table: &str, i: usize) {
    let item: Item = [
        ("pk".to_owned(), AttributeValue::S(format!("p{}", i % 3))),
        ("sk".to_owned(), AttributeValue::N(Number::from(i as i64))),
        ("g".to_owned(), AttributeValue::S(format!("g{}", i % 2))),
    ]
    .into();
    t.backend()
        .put_item(PutItemInput {
            table_name: table.into(),
            item,
            ..Default::default()
        })
        .await
        .unwrap();
}

async fn scan(t: &Dual, table: &str) -> Vec<Item> {
    let mut items = t
        .backend()
        .scan(ScanInput {
            table_name: table.into(),
            consistent_read: Some(true),
            ..Default::default()
        })
        .await
        .unwrap()
        .items
        .unwrap_or_default();
    items.sort_by_key(|i| format!("{i:?}"));
    items
}

async fn wait_active(t: &Dual, table: &str) -> TableDescription {
    loop {
        let d = t
            .backend()
            .describe_table(DescribeTableInput {
                table_name: table.into(),
            })
            .await
            .unwrap()
            .table;
        if d.table_status == TableStatus::Active {
            return d;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

dual_test!(a_backup_is_created_described_listed_and_deleted, |t| {
    let table = table_with_items(&t, "source", 5).await;
    let created = t
        .backend()
        .create_backup(CreateBackupInput {
            table_name: table.clone(),
            backup_name: "nightly".into(),
        })
        .await;
    let Some(created) = served(&t, created) else {
        return;
    };
    let details = created.backup_details;
    assert!(
        details
            .backup_arn
            .contains(&format!(":table/{table}/backup/0")),
        "{}",
        details.backup_arn
    );
    assert_eq!(details.backup_type, BackupType::User);
    let described = t
        .backend()
        .describe_backup(DescribeBackupInput {
            backup_arn: details.backup_arn.clone(),
        })
        .await
        .unwrap()
        .backup_description;
    assert_eq!(
        described.backup_details.backup_status,
        BackupStatus::Available
    );
    assert_eq!(described.source_table_details.table_name, table);
    assert_eq!(described.source_table_details.item_count, Some(5));
    assert_eq!(
        described
            .source_table_feature_details
            .global_secondary_indexes[0]
            .index_name,
        "by-g"
    );
    let listed = t
        .backend()
        .list_backups(ListBackupsInput {
            table_name: Some(table.clone()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(listed.backup_summaries.len(), 1);
    assert_eq!(listed.backup_summaries[0].backup_arn, details.backup_arn);
    let deleted = t
        .backend()
        .delete_backup(DeleteBackupInput {
            backup_arn: details.backup_arn.clone(),
        })
        .await
        .unwrap();
    assert_eq!(
        deleted.backup_description.backup_details.backup_status,
        BackupStatus::Deleted
    );
    t.expect_error(
        t.backend()
            .describe_backup(DescribeBackupInput {
                backup_arn: details.backup_arn.clone(),
            })
            .await,
        "BackupNotFoundException",
        &format!("Backup not found: {}", details.backup_arn),
    );
});

dual_test!(a_backup_of_a_missing_table_is_table_not_found, |t| {
    let missing = t.table_name("missing");
    refused(
        &t,
        t.backend()
            .create_backup(CreateBackupInput {
                table_name: missing.clone(),
                backup_name: "nightly".into(),
            })
            .await,
        "TableNotFoundException",
        &format!("Table not found: {missing}"),
    );
});

dual_test!(a_restore_from_a_backup_holds_the_backed_up_items, |t| {
    let table = table_with_items(&t, "source", 6).await;
    let created = t
        .backend()
        .create_backup(CreateBackupInput {
            table_name: table.clone(),
            backup_name: "before".into(),
        })
        .await;
    let Some(created) = served(&t, created) else {
        return;
    };
    let before = scan(&t, &table).await;
    put(&t, &table, 100).await;
    let target = t.table_name("restored");
    let restored = t
        .backend()
        .restore_table_from_backup(RestoreTableFromBackupInput {
            target_table_name: target.clone(),
            backup_arn: created.backup_details.backup_arn.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .table_description;
    t.register_table(&target);
    assert_eq!(restored.table_status, TableStatus::Creating);
    assert_eq!(
        restored.restore_summary.unwrap().source_backup_arn,
        Some(created.backup_details.backup_arn.clone())
    );
    let active = wait_active(&t, &target).await;
    assert_eq!(active.global_secondary_indexes.len(), 1);
    assert_eq!(scan(&t, &target).await, before);
    t.expect_error(
        t.backend()
            .restore_table_from_backup(RestoreTableFromBackupInput {
                target_table_name: target.clone(),
                backup_arn: created.backup_details.backup_arn,
                ..Default::default()
            })
            .await,
        "TableAlreadyExistsException",
        &format!("Table already exists: {target}"),
    );
});

dual_test!(point_in_time_recovery_restores_the_table_as_it_was, |t| {
    let table = table_with_items(&t, "source", 4).await;
    let described = t
        .backend()
        .describe_continuous_backups(DescribeContinuousBackupsInput {
            table_name: table.clone(),
        })
        .await;
    let Some(described) = served(&t, described) else {
        return;
    };
    let pitr = described
        .continuous_backups_description
        .point_in_time_recovery_description
        .unwrap();
    assert_eq!(
        pitr.point_in_time_recovery_status,
        PointInTimeRecoveryStatus::Disabled
    );
    let target = t.table_name("restored");
    let latest = RestoreTableToPointInTimeInput {
        source_table_name: Some(table.clone()),
        target_table_name: target.clone(),
        use_latest_restorable_time: Some(true),
        ..Default::default()
    };
    t.expect_error(
        t.backend()
            .restore_table_to_point_in_time(latest.clone())
            .await,
        "PointInTimeRecoveryUnavailableException",
        &format!("Point in time recovery is not enabled for table '{table}'"),
    );
    let enabled = t
        .backend()
        .update_continuous_backups(UpdateContinuousBackupsInput {
            table_name: table.clone(),
            point_in_time_recovery_specification: PointInTimeRecoverySpecification {
                point_in_time_recovery_enabled: true,
                recovery_period_in_days: None,
            },
        })
        .await
        .unwrap()
        .continuous_backups_description
        .point_in_time_recovery_description
        .unwrap();
    assert_eq!(enabled.recovery_period_in_days, Some(35));
    let earliest = enabled.earliest_restorable_date_time.unwrap();
    let at_enable = scan(&t, &table).await;
    put(&t, &table, 50).await;
    // Later than LatestRestorableDateTime (five minutes before now).
    t.expect_error(
        t.backend()
            .restore_table_to_point_in_time(RestoreTableToPointInTimeInput {
                use_latest_restorable_time: None,
                restore_date_time: Some(chrono::Utc::now() + chrono::TimeDelta::hours(1)),
                ..latest.clone()
            })
            .await,
        "InvalidRestoreTimeException",
        "RestoreDateTime must be between EarliestRestorableDateTime and LatestRestorableDateTime",
    );
    // Within five minutes of enabling, the latest restorable instant is the earliest: the table
    // as it was when PITR was turned on, without the write since.
    let restored = t
        .backend()
        .restore_table_to_point_in_time(RestoreTableToPointInTimeInput {
            use_latest_restorable_time: None,
            restore_date_time: Some(earliest),
            ..latest
        })
        .await
        .unwrap()
        .table_description;
    t.register_table(&target);
    assert_eq!(
        restored.restore_summary.unwrap().source_table_arn,
        Some(
            t.backend()
                .describe_table(DescribeTableInput {
                    table_name: table.clone()
                })
                .await
                .unwrap()
                .table
                .table_arn
        )
    );
    wait_active(&t, &target).await;
    assert_eq!(scan(&t, &target).await, at_enable);
});
