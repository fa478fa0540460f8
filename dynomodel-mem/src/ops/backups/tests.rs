//! Backups and point-in-time recovery through the `Backend` trait, on a manual clock. Each test names
//! the API reference page whose behaviour it checks.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use dynomodel::backend::*;
use dynomodel::{AttributeValue, Error, Item};

use crate::storage::clock::{Clock, ManualClock};
use crate::MemBackend;

fn engine(transition: Duration) -> (MemBackend, ManualClock) {
    let clock = ManualClock::default();
    let backend = MemBackend::builder()
        .clock(clock.clone())
        .transition_time(transition)
        .build();
    (backend, clock)
}

fn def(name: &str) -> AttributeDefinition {
    AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ScalarAttributeType::S,
    }
}

fn all() -> Projection {
    Projection {
        projection_type: ProjectionType::All,
        non_key_attributes: vec![],
    }
}

/// `events`: pk/sk, a GSI `by-g` and an LSI `by-l`, on demand.
async fn create(b: &MemBackend, clock: &ManualClock, transition: Duration) {
    b.create_table(CreateTableInput {
        table_name: "events".into(),
        attribute_definitions: vec![def("pk"), def("sk"), def("g"), def("l")],
        key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
        billing_mode: Some(BillingMode::PayPerRequest),
        global_secondary_indexes: vec![GlobalSecondaryIndex {
            index_name: "by-g".into(),
            key_schema: vec![KeySchemaElement::hash("g")],
            projection: all(),
            provisioned_throughput: None,
        }],
        local_secondary_indexes: vec![LocalSecondaryIndex {
            index_name: "by-l".into(),
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
            projection: all(),
        }],
        stream_specification: Some(StreamSpecification {
            stream_enabled: true,
            stream_view_type: Some(StreamViewType::NewImage),
        }),
        tags: vec![Tag {
            key: "team".into(),
            value: "a".into(),
        }],
        ..Default::default()
    })
    .await
    .unwrap();
    clock.advance(transition);
}

fn item(pk: &str, sk: &str, g: &str) -> Item {
    let mut item = Item::new();
    item.insert("pk".into(), AttributeValue::S(pk.into()));
    item.insert("sk".into(), AttributeValue::S(sk.into()));
    item.insert("g".into(), AttributeValue::S(g.into()));
    item.insert("l".into(), AttributeValue::S(format!("{g}-l")));
    item
}

async fn put(b: &MemBackend, table: &str, item: Item) {
    b.put_item(PutItemInput {
        table_name: table.into(),
        item,
        ..Default::default()
    })
    .await
    .unwrap();
}

async fn delete(b: &MemBackend, table: &str, pk: &str, sk: &str) {
    let mut key = Item::new();
    key.insert("pk".into(), AttributeValue::S(pk.into()));
    key.insert("sk".into(), AttributeValue::S(sk.into()));
    b.delete_item(DeleteItemInput {
        table_name: table.into(),
        key,
        ..Default::default()
    })
    .await
    .unwrap();
}

/// Every item of `table`, in Scan order.
async fn scan(b: &MemBackend, table: &str) -> Vec<Item> {
    b.scan(ScanInput {
        table_name: table.into(),
        ..Default::default()
    })
    .await
    .unwrap()
    .items
    .unwrap_or_default()
}

async fn backup(b: &MemBackend, table: &str, name: &str) -> BackupDetails {
    b.create_backup(CreateBackupInput {
        table_name: table.into(),
        backup_name: name.into(),
    })
    .await
    .unwrap()
    .backup_details
}

async fn describe(b: &MemBackend, table: &str) -> TableDescription {
    b.describe_table(DescribeTableInput {
        table_name: table.into(),
    })
    .await
    .unwrap()
    .table
}

fn code(e: &Error) -> &str {
    e.code()
}

/// API reference, CreateBackup and DescribeBackup: BackupDetails, SourceTableDetails and
/// SourceTableFeatureDetails of the table as it was; the ARN's form; CREATING, then AVAILABLE.
#[tokio::test]
async fn a_backup_describes_the_table_as_it_was() {
    let transition = Duration::from_secs(10);
    let (b, clock) = engine(transition);
    create(&b, &clock, transition).await;
    put(&b, "events", item("a", "1", "x")).await;
    put(&b, "events", item("b", "1", "y")).await;
    let details = backup(&b, "events", "nightly").await;
    let prefix = "arn:aws:dynamodb:ddblocal:000000000000:table/events/backup/";
    let id = details.backup_arn.strip_prefix(prefix).unwrap();
    let (millis, hex) = id.split_once('-').unwrap();
    assert_eq!(millis.len(), 14, "{id}");
    assert!(millis.starts_with('0'), "{id}");
    assert_eq!(
        millis.parse::<i64>().unwrap(),
        clock.now().timestamp_millis()
    );
    assert_eq!(hex.len(), 8);
    assert!(hex.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(details.backup_name, "nightly");
    assert_eq!(details.backup_status, BackupStatus::Creating);
    assert_eq!(details.backup_type, BackupType::User);
    assert_eq!(details.backup_expiry_date_time, None);
    let size = describe(&b, "events").await.table_size_bytes;
    assert_eq!(details.backup_size_bytes, Some(size));

    // Writes after the backup do not reach it.
    put(&b, "events", item("c", "1", "z")).await;
    clock.advance(transition);
    let described = b
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
    let source = &described.source_table_details;
    assert_eq!(source.table_name, "events");
    assert_eq!(source.item_count, Some(2));
    assert_eq!(source.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(source.key_schema.len(), 2);
    let features = &described.source_table_feature_details;
    assert_eq!(features.global_secondary_indexes[0].index_name, "by-g");
    assert_eq!(features.local_secondary_indexes[0].index_name, "by-l");
    assert!(features.stream_description.is_some());
    assert_eq!(features.time_to_live_description, None);
}

/// API reference, RestoreTableFromBackup: a new table with the backup's items and indexes, its
/// RestoreSummary; tags, stream and TTL not restored; CREATING then ACTIVE.
#[tokio::test]
async fn a_restore_from_a_backup_is_a_new_table_with_its_items() {
    let transition = Duration::from_secs(10);
    let (b, clock) = engine(transition);
    create(&b, &clock, transition).await;
    put(&b, "events", item("a", "1", "x")).await;
    put(&b, "events", item("a", "2", "y")).await;
    let arn = backup(&b, "events", "before").await.backup_arn;
    let before = scan(&b, "events").await;
    delete(&b, "events", "a", "1").await;
    put(&b, "events", item("z", "9", "q")).await;

    // Still CREATING: in use.
    let busy = b
        .restore_table_from_backup(RestoreTableFromBackupInput {
            target_table_name: "events-restored".into(),
            backup_arn: arn.clone(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(code(&busy), "BackupInUseException");
    clock.advance(transition);

    let restored = b
        .restore_table_from_backup(RestoreTableFromBackupInput {
            target_table_name: "events-restored".into(),
            backup_arn: arn.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .table_description;
    assert_eq!(restored.table_status, TableStatus::Creating);
    let summary = restored.restore_summary.clone().unwrap();
    assert_eq!(summary.source_backup_arn.as_deref(), Some(arn.as_str()));
    assert!(summary.restore_in_progress);
    assert_eq!(restored.global_secondary_indexes.len(), 1);
    assert_eq!(restored.local_secondary_indexes.len(), 1);
    assert_eq!(restored.stream_specification, None);
    clock.advance(transition);
    let active = describe(&b, "events-restored").await;
    assert_eq!(active.table_status, TableStatus::Active);
    assert!(!active.restore_summary.unwrap().restore_in_progress);
    assert_eq!(active.item_count, 2);
    assert_eq!(scan(&b, "events-restored").await, before);
    let tags = b
        .list_tags_of_resource(ListTagsOfResourceInput {
            resource_arn: active.table_arn.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(tags.tags.is_empty());
    // The GSI holds the restored items.
    let by_g = b
        .query(QueryInput {
            table_name: "events-restored".into(),
            index_name: Some("by-g".into()),
            key_condition_expression: Some("g = :g".into()),
            expression_attribute_values: Some(
                [(":g".to_owned(), AttributeValue::S("y".into()))]
                    .into_iter()
                    .collect(),
            ),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(by_g.count, 1);

    // API reference: TableAlreadyExistsException.
    let again = b
        .restore_table_from_backup(RestoreTableFromBackupInput {
            target_table_name: "events-restored".into(),
            backup_arn: arn,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(code(&again), "TableAlreadyExistsException");
    assert_eq!(again.message(), "Table already exists: events-restored");
}

/// API reference, RestoreTableFromBackup: BillingModeOverride, GlobalSecondaryIndexOverride (an
/// empty list drops every GSI), ProvisionedThroughputOverride; an override naming no index of the
/// source is a ValidationException.
#[tokio::test]
async fn restore_overrides() {
    let (b, clock) = engine(Duration::ZERO);
    create(&b, &clock, Duration::ZERO).await;
    put(&b, "events", item("a", "1", "x")).await;
    let arn = backup(&b, "events", "bk1").await.backup_arn;
    let restored = b
        .restore_table_from_backup(RestoreTableFromBackupInput {
            target_table_name: "provisioned".into(),
            backup_arn: arn.clone(),
            overrides: RestoreOverrides {
                billing_mode_override: Some(BillingMode::Provisioned),
                provisioned_throughput_override: Some(ProvisionedThroughput {
                    read_capacity_units: 5,
                    write_capacity_units: 3,
                }),
                global_secondary_index_override: Some(vec![]),
                local_secondary_index_override: Some(vec![]),
                sse_specification_override: None,
            },
        })
        .await
        .unwrap()
        .table_description;
    assert_eq!(restored.billing_mode, Some(BillingMode::Provisioned));
    assert_eq!(restored.provisioned_throughput.read_capacity_units, 5);
    assert!(restored.global_secondary_indexes.is_empty());
    assert!(restored.local_secondary_indexes.is_empty());
    // Only the key attributes stay defined.
    assert_eq!(restored.attribute_definitions.len(), 2);
    assert_eq!(scan(&b, "provisioned").await.len(), 1);

    // Provisioned without capacity: CreateTable's rule.
    let missing = b
        .restore_table_from_backup(RestoreTableFromBackupInput {
            target_table_name: "no-capacity".into(),
            backup_arn: arn.clone(),
            overrides: RestoreOverrides {
                billing_mode_override: Some(BillingMode::Provisioned),
                ..Default::default()
            },
        })
        .await
        .unwrap_err();
    assert_eq!(code(&missing), "ValidationException");

    let unknown = b
        .restore_table_from_backup(RestoreTableFromBackupInput {
            target_table_name: "other".into(),
            backup_arn: arn,
            overrides: RestoreOverrides {
                global_secondary_index_override: Some(vec![GlobalSecondaryIndex {
                    index_name: "nope".into(),
                    key_schema: vec![KeySchemaElement::hash("g")],
                    projection: all(),
                    provisioned_throughput: None,
                }]),
                ..Default::default()
            },
        })
        .await
        .unwrap_err();
    assert_eq!(code(&unknown), "ValidationException");
    assert!(unknown.message().contains("nope"), "{unknown}");
}

/// API reference, CreateBackup/DescribeBackup/DeleteBackup: TableNotFoundException,
/// BackupNotFoundException, BackupInUseException while CREATING, DELETED in DeleteBackup's answer;
/// the backup name's constraints.
#[tokio::test]
async fn backup_errors_and_deletion() {
    let transition = Duration::from_secs(5);
    let (b, clock) = engine(transition);
    let missing = b
        .create_backup(CreateBackupInput {
            table_name: "nothing".into(),
            backup_name: "bk1".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(code(&missing), "TableNotFoundException");
    assert_eq!(missing.message(), "Table not found: nothing");

    b.create_table(CreateTableInput {
        table_name: "young".into(),
        attribute_definitions: vec![def("pk")],
        key_schema: vec![KeySchemaElement::hash("pk")],
        billing_mode: Some(BillingMode::PayPerRequest),
        ..Default::default()
    })
    .await
    .unwrap();
    let creating = b
        .create_backup(CreateBackupInput {
            table_name: "young".into(),
            backup_name: "bk1".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(code(&creating), "TableInUseException");
    clock.advance(transition);

    let bad_name = b
        .create_backup(CreateBackupInput {
            table_name: "young".into(),
            backup_name: "a;".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(code(&bad_name), "ValidationException");
    assert!(bad_name.message().contains("backupName"), "{bad_name}");

    let arn = backup(&b, "young", "bk1").await.backup_arn;
    let again = b
        .create_backup(CreateBackupInput {
            table_name: "young".into(),
            backup_name: "bk2".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(code(&again), "BackupInUseException");
    let deleting = b
        .delete_backup(DeleteBackupInput {
            backup_arn: arn.clone(),
        })
        .await
        .unwrap_err();
    assert_eq!(code(&deleting), "BackupInUseException");
    clock.advance(transition);
    let deleted = b
        .delete_backup(DeleteBackupInput {
            backup_arn: arn.clone(),
        })
        .await
        .unwrap()
        .backup_description;
    assert_eq!(deleted.backup_details.backup_status, BackupStatus::Deleted);
    for err in [
        b.describe_backup(DescribeBackupInput {
            backup_arn: arn.clone(),
        })
        .await
        .unwrap_err(),
        b.delete_backup(DeleteBackupInput {
            backup_arn: arn.clone(),
        })
        .await
        .unwrap_err(),
    ] {
        assert_eq!(code(&err), "BackupNotFoundException");
        assert_eq!(err.message(), format!("Backup not found: {arn}"));
    }
    // Another account's ARN names no backup here.
    let foreign = arn.replace("000000000000", "111111111111");
    let err = b
        .describe_backup(DescribeBackupInput {
            backup_arn: foreign,
        })
        .await
        .unwrap_err();
    assert_eq!(code(&err), "BackupNotFoundException");
}

/// API reference, ListBackups: by creation time, TableName, TimeRangeLowerBound (inclusive),
/// TimeRangeUpperBound (exclusive), BackupType, Limit and ExclusiveStartBackupArn paging.
#[tokio::test]
async fn list_backups_filters_and_pages() {
    let (b, clock) = engine(Duration::ZERO);
    create(&b, &clock, Duration::ZERO).await;
    b.create_table(CreateTableInput {
        table_name: "other".into(),
        attribute_definitions: vec![def("pk")],
        key_schema: vec![KeySchemaElement::hash("pk")],
        billing_mode: Some(BillingMode::PayPerRequest),
        ..Default::default()
    })
    .await
    .unwrap();
    let mut times = Vec::new();
    let mut arns = Vec::new();
    for (i, table) in ["events", "other", "events", "events"].iter().enumerate() {
        clock.advance(Duration::from_secs(60));
        let details = backup(&b, table, &format!("bk{i}")).await;
        times.push(details.backup_creation_date_time);
        arns.push(details.backup_arn);
    }
    let list = |input: ListBackupsInput| {
        let b = b.clone();
        async move { b.list_backups(input).await.unwrap() }
    };
    let everything = list(ListBackupsInput::default()).await;
    assert_eq!(
        everything
            .backup_summaries
            .iter()
            .map(|s| s.backup_arn.clone())
            .collect::<Vec<_>>(),
        arns
    );
    assert_eq!(everything.last_evaluated_backup_arn, None);
    let events = list(ListBackupsInput {
        table_name: Some("events".into()),
        ..Default::default()
    })
    .await;
    assert_eq!(events.backup_summaries.len(), 3);
    let window = list(ListBackupsInput {
        time_range_lower_bound: Some(times[1]),
        time_range_upper_bound: Some(times[3]),
        ..Default::default()
    })
    .await;
    let names: Vec<&str> = window
        .backup_summaries
        .iter()
        .map(|s| s.backup_name.as_str())
        .collect();
    assert_eq!(names, ["bk1", "bk2"]);
    let system = list(ListBackupsInput {
        backup_type: Some(BackupTypeFilter::System),
        ..Default::default()
    })
    .await;
    assert!(system.backup_summaries.is_empty());
    // Pages of two.
    let first = list(ListBackupsInput {
        limit: Some(2),
        ..Default::default()
    })
    .await;
    assert_eq!(first.backup_summaries.len(), 2);
    assert_eq!(
        first.last_evaluated_backup_arn.as_deref(),
        Some(arns[1].as_str())
    );
    let second = list(ListBackupsInput {
        limit: Some(2),
        exclusive_start_backup_arn: first.last_evaluated_backup_arn,
        ..Default::default()
    })
    .await;
    assert_eq!(second.backup_summaries.len(), 2);
    assert_eq!(second.backup_summaries[0].backup_arn, arns[2]);
    assert_eq!(second.last_evaluated_backup_arn, None);
    let bad = b
        .list_backups(ListBackupsInput {
            limit: Some(0),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(
        bad.message(),
        "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member \
         must have value greater than or equal to 1"
    );
}

async fn set_pitr(
    b: &MemBackend,
    table: &str,
    on: bool,
    days: Option<i32>,
) -> Result<ContinuousBackupsDescription, Error> {
    b.update_continuous_backups(UpdateContinuousBackupsInput {
        table_name: table.into(),
        point_in_time_recovery_specification: PointInTimeRecoverySpecification {
            point_in_time_recovery_enabled: on,
            recovery_period_in_days: days,
        },
    })
    .await
    .map(|o| o.continuous_backups_description)
}

/// API reference, DescribeContinuousBackups / UpdateContinuousBackups: DISABLED by default;
/// enabled with a 35-day window, earliest the enabling instant, latest five minutes before now;
/// RecoveryPeriodInDays 1–35; TableNotFoundException; ContinuousBackupsUnavailableException
/// while the table is being created.
#[tokio::test]
async fn continuous_backups_settings() {
    let transition = Duration::from_secs(10);
    let (b, clock) = engine(transition);
    b.create_table(CreateTableInput {
        table_name: "young".into(),
        attribute_definitions: vec![def("pk")],
        key_schema: vec![KeySchemaElement::hash("pk")],
        billing_mode: Some(BillingMode::PayPerRequest),
        ..Default::default()
    })
    .await
    .unwrap();
    let unavailable = set_pitr(&b, "young", true, None).await.unwrap_err();
    assert_eq!(code(&unavailable), "ContinuousBackupsUnavailableException");
    clock.advance(transition);

    let off = b
        .describe_continuous_backups(DescribeContinuousBackupsInput {
            table_name: "young".into(),
        })
        .await
        .unwrap()
        .continuous_backups_description;
    assert_eq!(
        off.continuous_backups_status,
        ContinuousBackupsStatus::Enabled
    );
    let pitr = off.point_in_time_recovery_description.unwrap();
    assert_eq!(
        pitr.point_in_time_recovery_status,
        PointInTimeRecoveryStatus::Disabled
    );
    assert_eq!(pitr.earliest_restorable_date_time, None);

    let enabled_at = clock.now();
    let on = set_pitr(&b, "young", true, None).await.unwrap();
    let pitr = on.point_in_time_recovery_description.unwrap();
    assert_eq!(
        pitr.point_in_time_recovery_status,
        PointInTimeRecoveryStatus::Enabled
    );
    assert_eq!(pitr.recovery_period_in_days, Some(35));
    assert_eq!(pitr.earliest_restorable_date_time, Some(enabled_at));
    clock.advance(Duration::from_secs(3600));
    let later = b
        .describe_continuous_backups(DescribeContinuousBackupsInput {
            table_name: "young".into(),
        })
        .await
        .unwrap()
        .continuous_backups_description
        .point_in_time_recovery_description
        .unwrap();
    assert_eq!(later.earliest_restorable_date_time, Some(enabled_at));
    assert_eq!(
        later.latest_restorable_date_time,
        Some(clock.now() - chrono::TimeDelta::minutes(5))
    );

    // The window moves: with a 1-day period, the earliest follows the clock.
    set_pitr(&b, "young", true, Some(1)).await.unwrap();
    clock.advance(Duration::from_secs(2 * 86_400));
    let moved = b
        .describe_continuous_backups(DescribeContinuousBackupsInput {
            table_name: "young".into(),
        })
        .await
        .unwrap()
        .continuous_backups_description
        .point_in_time_recovery_description
        .unwrap();
    assert_eq!(
        moved.earliest_restorable_date_time,
        Some(clock.now() - chrono::TimeDelta::days(1))
    );

    let too_long = set_pitr(&b, "young", true, Some(36)).await.unwrap_err();
    assert_eq!(
        too_long.message(),
        "1 validation error detected: Value '36' at \
         'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: \
         Member must have value less than or equal to 35"
    );
    let missing = b
        .describe_continuous_backups(DescribeContinuousBackupsInput {
            table_name: "nothing".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(code(&missing), "TableNotFoundException");
    let off = set_pitr(&b, "young", false, None).await.unwrap();
    assert_eq!(
        off.point_in_time_recovery_description
            .unwrap()
            .point_in_time_recovery_status,
        PointInTimeRecoveryStatus::Disabled
    );
}

fn restore_at(
    source: &str,
    target: &str,
    at: Option<chrono::DateTime<chrono::Utc>>,
) -> RestoreTableToPointInTimeInput {
    RestoreTableToPointInTimeInput {
        source_table_name: Some(source.into()),
        target_table_name: target.into(),
        use_latest_restorable_time: at.is_none().then_some(true),
        restore_date_time: at,
        ..Default::default()
    }
}

/// API reference, RestoreTableToPointInTime: PointInTimeRecoveryUnavailableException without PITR,
/// InvalidRestoreTimeException outside the window, the request's either-or members, the source
/// by ARN, and UseLatestRestorableTime.
#[tokio::test]
async fn point_in_time_restore_rules() {
    let (b, clock) = engine(Duration::ZERO);
    create(&b, &clock, Duration::ZERO).await;
    let unavailable = b
        .restore_table_to_point_in_time(restore_at("events", "copy", None))
        .await
        .unwrap_err();
    assert_eq!(
        code(&unavailable),
        "PointInTimeRecoveryUnavailableException"
    );
    put(&b, "events", item("a", "1", "x")).await;
    let enabled_at = clock.now();
    set_pitr(&b, "events", true, None).await.unwrap();
    clock.advance(Duration::from_secs(600));
    put(&b, "events", item("b", "1", "y")).await;

    let before = enabled_at - chrono::TimeDelta::seconds(1);
    let early = b
        .restore_table_to_point_in_time(restore_at("events", "copy", Some(before)))
        .await
        .unwrap_err();
    assert_eq!(code(&early), "InvalidRestoreTimeException");
    let future = clock.now();
    let late = b
        .restore_table_to_point_in_time(restore_at("events", "copy", Some(future)))
        .await
        .unwrap_err();
    assert_eq!(code(&late), "InvalidRestoreTimeException");

    for (input, message) in [
        (
            RestoreTableToPointInTimeInput {
                target_table_name: "copy".into(),
                use_latest_restorable_time: Some(true),
                ..Default::default()
            },
            "Either SourceTableArn or SourceTableName must be specified",
        ),
        (
            RestoreTableToPointInTimeInput {
                source_table_name: Some("events".into()),
                target_table_name: "copy".into(),
                ..Default::default()
            },
            "Either RestoreDateTime or UseLatestRestorableTime must be specified",
        ),
    ] {
        let err = b.restore_table_to_point_in_time(input).await.unwrap_err();
        assert_eq!(err.message(), message);
    }

    // UseLatestRestorableTime: five minutes ago, after the first put and before the second.
    let arn = describe(&b, "events").await.table_arn;
    let latest = b
        .restore_table_to_point_in_time(RestoreTableToPointInTimeInput {
            source_table_arn: Some(arn.clone()),
            target_table_name: "copy".into(),
            use_latest_restorable_time: Some(true),
            ..Default::default()
        })
        .await
        .unwrap()
        .table_description;
    let summary = latest.restore_summary.unwrap();
    assert_eq!(summary.source_table_arn.as_deref(), Some(arn.as_str()));
    assert_eq!(summary.source_backup_arn, None);
    assert_eq!(
        summary.restore_date_time,
        clock.now() - chrono::TimeDelta::minutes(5)
    );
    assert_eq!(scan(&b, "copy").await, vec![item("a", "1", "x")]);
    // PITR is not restored.
    let copy_pitr = b
        .describe_continuous_backups(DescribeContinuousBackupsInput {
            table_name: "copy".into(),
        })
        .await
        .unwrap()
        .continuous_backups_description
        .point_in_time_recovery_description
        .unwrap();
    assert_eq!(
        copy_pitr.point_in_time_recovery_status,
        PointInTimeRecoveryStatus::Disabled
    );
}

/// A tiny deterministic generator (the seed fixes every write).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// A restore to any instant equals the table as it was then: many puts, updates and deletes at
/// seeded times, the table scanned at chosen instants, then each instant restored and compared
/// (items and the GSI's answers).
#[tokio::test]
async fn a_restore_equals_the_table_at_that_instant() {
    let (b, clock) = engine(Duration::ZERO);
    create(&b, &clock, Duration::ZERO).await;
    for i in 0..20 {
        put(
            &b,
            "events",
            item(&format!("p{}", i % 7), &i.to_string(), "g0"),
        )
        .await;
    }
    set_pitr(&b, "events", true, Some(1)).await.unwrap();
    let mut rng = Lcg(0x5eed);
    let mut checkpoints = Vec::new();
    for step in 0..600 {
        clock.advance(Duration::from_secs(1 + rng.next(600)));
        let pk = format!("p{}", rng.next(7));
        let sk = rng.next(40).to_string();
        match rng.next(4) {
            0 => delete(&b, "events", &pk, &sk).await,
            1 => {
                let mut key = Item::new();
                key.insert("pk".into(), AttributeValue::S(pk.clone()));
                key.insert("sk".into(), AttributeValue::S(sk.clone()));
                b.update_item(UpdateItemInput {
                    table_name: "events".into(),
                    key,
                    update_expression: Some("SET g = :g, n = :n".into()),
                    expression_attribute_values: Some(
                        [
                            (
                                ":g".to_owned(),
                                AttributeValue::S(format!("g{}", rng.next(3))),
                            ),
                            (
                                ":n".to_owned(),
                                AttributeValue::N(step.to_string().parse().unwrap()),
                            ),
                        ]
                        .into_iter()
                        .collect(),
                    ),
                    ..Default::default()
                })
                .await
                .unwrap();
            }
            _ => put(&b, "events", item(&pk, &sk, &format!("g{}", rng.next(3)))).await,
        }
        if step % 97 == 0 {
            checkpoints.push((clock.now(), scan(&b, "events").await));
        }
    }
    // Past the checkpoints' window (one day) for the first ones, which must now be refused.
    clock.advance(Duration::from_secs(600));
    let now = clock.now();
    let mut refused = 0;
    for (i, (at, expected)) in checkpoints.iter().enumerate() {
        let target = format!("at-{i}");
        let result = b
            .restore_table_to_point_in_time(restore_at("events", &target, Some(*at)))
            .await;
        if *at < now - chrono::TimeDelta::days(1) {
            assert_eq!(code(&result.unwrap_err()), "InvalidRestoreTimeException");
            refused += 1;
            continue;
        }
        result.unwrap();
        assert_eq!(&scan(&b, &target).await, expected, "restore to {at}");
        for g in ["g0", "g1", "g2"] {
            let query = |table: String| {
                let b = b.clone();
                async move {
                    b.query(QueryInput {
                        table_name: table,
                        index_name: Some("by-g".into()),
                        key_condition_expression: Some("g = :g".into()),
                        expression_attribute_values: Some(
                            [(":g".to_owned(), AttributeValue::S(g.into()))]
                                .into_iter()
                                .collect(),
                        ),
                        ..Default::default()
                    })
                    .await
                    .unwrap()
                    .count
                }
            };
            let want = expected
                .iter()
                .filter(|i| i.get("g") == Some(&AttributeValue::S(g.into())))
                .count();
            assert_eq!(query(target.clone()).await as usize, want);
        }
    }
    // The first checkpoints fell out of the window; the last are within it and were compared.
    assert!(refused > 0);
    assert!(checkpoints
        .last()
        .is_some_and(|(at, _)| *at >= now - chrono::TimeDelta::days(1)));
}

/// A fork on a clock of its own keeps point-in-time history on that clock: its writes are
/// restorable at its instants, not at its parent's.
#[tokio::test]
async fn a_fork_on_its_own_clock_records_history_on_it() {
    let (parent, clock) = engine(Duration::ZERO);
    create(&parent, &clock, Duration::ZERO).await;
    put(&parent, "events", item("a", "1", "x")).await;
    set_pitr(&parent, "events", true, None).await.unwrap();

    let own = ManualClock::new(clock.now());
    let fork = parent.fork_with(crate::ForkOptions::new().clock(own.clone()));
    own.advance(Duration::from_secs(10 * 86_400));
    put(&fork, "events", item("b", "1", "y")).await;
    own.advance(Duration::from_secs(600));

    // Five days in, on the fork's clock: before its write.
    let midway = clock.now() + chrono::TimeDelta::days(5);
    fork.restore_table_to_point_in_time(restore_at("events", "midway", Some(midway)))
        .await
        .unwrap();
    fork.restore_table_to_point_in_time(restore_at("events", "latest", None))
        .await
        .unwrap();
    let keys = |items: Vec<Item>| -> Vec<AttributeValue> {
        items
            .into_iter()
            .filter_map(|mut i| i.remove("pk"))
            .collect()
    };
    assert_eq!(
        keys(scan(&fork, "midway").await),
        [AttributeValue::S("a".into())]
    );
    assert_eq!(keys(scan(&fork, "latest").await).len(), 2);
}
