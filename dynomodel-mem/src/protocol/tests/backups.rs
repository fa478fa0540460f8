//! The backup and point-in-time recovery operations on the wire, against the engine: the service
//! model's constraints, the members' types, the responses' shapes (the API reference's).

use std::time::Duration;

use serde_json::{json, Value};

use super::{enum_at, errors, null_at};
use crate::protocol::{call, Fault};
use crate::storage::clock::{Clock, ManualClock};
use crate::MemBackend;

async fn engine() -> (MemBackend, ManualClock) {
    let clock = ManualClock::default();
    let backend = MemBackend::builder().clock(clock.clone()).build();
    call(
        &backend,
        "CreateTable",
        json!({
            "TableName": "things",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "BillingMode": "PAY_PER_REQUEST",
        })
        .to_string()
        .as_bytes(),
    )
    .await
    .unwrap();
    (backend, clock)
}

async fn run(backend: &MemBackend, op: &str, body: Value) -> Result<Value, Fault> {
    call(backend, op, body.to_string().as_bytes()).await
}

fn validation(fault: Fault) -> String {
    match fault {
        Fault::Backend(dynomodel::Error::Validation { message }) => message,
        other => panic!("not a ValidationException: {other:?}"),
    }
}

fn at(value: &str, path: &str, constraint: &str) -> String {
    format!("Value '{value}' at '{path}' failed to satisfy constraint: {constraint}")
}

#[tokio::test]
async fn backup_requests_are_checked_against_the_model() {
    let (b, _) = engine().await;
    let cases = [
        (
            "CreateBackup",
            json!({}),
            vec![null_at("tableName"), null_at("backupName")],
        ),
        (
            "CreateBackup",
            json!({"TableName": "things", "BackupName": "x"}),
            vec![at(
                "x",
                "backupName",
                "Member must have length greater than or equal to 3",
            )],
        ),
        ("DescribeBackup", json!({}), vec![null_at("backupArn")]),
        ("DeleteBackup", json!({}), vec![null_at("backupArn")]),
        (
            "ListBackups",
            json!({"Limit": 101, "BackupType": "MINE"}),
            vec![
                at(
                    "101",
                    "limit",
                    "Member must have value less than or equal to 100",
                ),
                enum_at("MINE", "backupType", "USER, SYSTEM, AWS_BACKUP, ALL"),
            ],
        ),
        (
            "RestoreTableFromBackup",
            json!({}),
            vec![null_at("targetTableName"), null_at("backupArn")],
        ),
        (
            "RestoreTableToPointInTime",
            json!({}),
            vec![null_at("targetTableName")],
        ),
        (
            "DescribeContinuousBackups",
            json!({}),
            vec![null_at("tableName")],
        ),
        (
            "UpdateContinuousBackups",
            json!({"TableName": "things"}),
            vec![null_at("pointInTimeRecoverySpecification")],
        ),
        (
            "UpdateContinuousBackups",
            json!({"TableName": "things", "PointInTimeRecoverySpecification": {
                "PointInTimeRecoveryEnabled": true, "RecoveryPeriodInDays": 0}}),
            vec![at(
                "0",
                "pointInTimeRecoverySpecification.recoveryPeriodInDays",
                "Member must have value greater than or equal to 1",
            )],
        ),
    ];
    for (op, body, expected) in cases {
        let fault = run(&b, op, body.clone()).await.unwrap_err();
        assert_eq!(validation(fault), errors(&expected), "{op} {body}");
    }
    // A timestamp is a number of epoch seconds.
    let fault = run(
        &b,
        "ListBackups",
        json!({"TimeRangeLowerBound": "yesterday"}),
    )
    .await
    .unwrap_err();
    assert!(matches!(fault, Fault::Serialization(Some(_))), "{fault:?}");
}

#[tokio::test]
async fn backups_round_trip_in_the_reference_s_shapes() {
    let (b, clock) = engine().await;
    run(
        &b,
        "PutItem",
        json!({"TableName": "things", "Item": {"pk": {"S": "a"}}}),
    )
    .await
    .unwrap();
    let created = run(
        &b,
        "CreateBackup",
        json!({"TableName": "things", "BackupName": "nightly"}),
    )
    .await
    .unwrap();
    let details = &created["BackupDetails"];
    let arn = details["BackupArn"].as_str().unwrap().to_owned();
    assert!(arn.starts_with("arn:aws:dynamodb:ddblocal:000000000000:table/things/backup/0"));
    assert_eq!(details["BackupName"], "nightly");
    assert_eq!(details["BackupStatus"], "AVAILABLE");
    assert_eq!(details["BackupType"], "USER");
    let created_at = details["BackupCreationDateTime"].as_f64().unwrap();
    assert_eq!(created_at, clock.now().timestamp() as f64);

    let described = run(&b, "DescribeBackup", json!({"BackupArn": arn}))
        .await
        .unwrap();
    let source = &described["BackupDescription"]["SourceTableDetails"];
    assert_eq!(source["TableName"], "things");
    assert_eq!(source["ItemCount"], 1);
    assert_eq!(source["BillingMode"], "PAY_PER_REQUEST");
    assert_eq!(
        source["KeySchema"],
        json!([{"AttributeName": "pk", "KeyType": "HASH"}])
    );

    clock.advance(Duration::from_secs(60));
    let listed = run(
        &b,
        "ListBackups",
        json!({"TableName": "things", "TimeRangeLowerBound": created_at,
               "TimeRangeUpperBound": created_at + 1.0, "BackupType": "ALL"}),
    )
    .await
    .unwrap();
    assert_eq!(listed["BackupSummaries"][0]["BackupArn"], arn.as_str());
    assert!(listed.get("LastEvaluatedBackupArn").is_none());

    let restored = run(
        &b,
        "RestoreTableFromBackup",
        json!({"TargetTableName": "copy", "BackupArn": arn,
               "SSESpecificationOverride": {"Enabled": true, "SSEType": "KMS"}}),
    )
    .await
    .unwrap();
    let table = &restored["TableDescription"];
    assert_eq!(table["TableStatus"], "CREATING");
    assert_eq!(table["RestoreSummary"]["SourceBackupArn"], arn.as_str());
    assert_eq!(table["RestoreSummary"]["RestoreInProgress"], true);
    assert_eq!(table["RestoreSummary"]["RestoreDateTime"], created_at);

    let deleted = run(&b, "DeleteBackup", json!({"BackupArn": arn}))
        .await
        .unwrap();
    assert_eq!(
        deleted["BackupDescription"]["BackupDetails"]["BackupStatus"],
        "DELETED"
    );
}

#[tokio::test]
async fn point_in_time_recovery_round_trips() {
    let (b, clock) = engine().await;
    let off = run(
        &b,
        "DescribeContinuousBackups",
        json!({"TableName": "things"}),
    )
    .await
    .unwrap();
    assert_eq!(
        off,
        json!({"ContinuousBackupsDescription": {
            "ContinuousBackupsStatus": "ENABLED",
            "PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "DISABLED"}}})
    );
    let enabled_at = clock.now().timestamp() as f64;
    let on = run(
        &b,
        "UpdateContinuousBackups",
        json!({"TableName": "things", "PointInTimeRecoverySpecification": {
            "PointInTimeRecoveryEnabled": true, "RecoveryPeriodInDays": 7}}),
    )
    .await
    .unwrap();
    let pitr = &on["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"];
    assert_eq!(pitr["PointInTimeRecoveryStatus"], "ENABLED");
    assert_eq!(pitr["RecoveryPeriodInDays"], 7);
    assert_eq!(pitr["EarliestRestorableDateTime"], enabled_at);
    run(
        &b,
        "PutItem",
        json!({"TableName": "things", "Item": {"pk": {"S": "a"}}}),
    )
    .await
    .unwrap();
    clock.advance(Duration::from_secs(600));
    let restored = run(
        &b,
        "RestoreTableToPointInTime",
        json!({"SourceTableName": "things", "TargetTableName": "copy",
               "RestoreDateTime": enabled_at + 1.0}),
    )
    .await
    .unwrap();
    let summary = &restored["TableDescription"]["RestoreSummary"];
    assert_eq!(
        summary["SourceTableArn"],
        "arn:aws:dynamodb:ddblocal:000000000000:table/things"
    );
    assert_eq!(summary["RestoreDateTime"], enabled_at + 1.0);
    assert_eq!(restored["TableDescription"]["ItemCount"], 1);
}
