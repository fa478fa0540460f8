//! `TableDescription`'s JSON, as CreateTable, DescribeTable, DeleteTable and UpdateTable send it.
//!
//! Which members appear follows DynamoDB: the backend's `Option`s decide presence (e.g.
//! `StreamSpecification` only once a stream was configured, `LastIncreaseDateTime` only after an
//! increase, `Backfilling` only while an index is being built), and `DeletionProtectionEnabled` is
//! always sent (DynamoDB Local 3.3.1's raw JSON has `"DeletionProtectionEnabled":false` on every table,
//! as the service's CLI examples do). Where DynamoDB Local differs — it sends `LastIncreaseDateTime` and
//! `LastDecreaseDateTime` as `0.000` on a table whose capacity never changed, and no
//! `TableClassSummary` even for `STANDARD_INFREQUENT_ACCESS` — the service's shape is the one followed.
//!
//! Timestamps are epoch seconds as a JSON number with millisecond fractions, which is how DynamoDB's JSON
//! protocol sends them (`1795457838.587`).

use chrono::{DateTime, Utc};
use dynomodel::backend::{
    GlobalSecondaryIndexDescription, KeySchemaElement, LocalSecondaryIndexDescription, Projection,
    ProvisionedThroughputDescription, TableDescription,
};
use serde_json::{json, Map, Value};

/// Epoch seconds with millisecond precision, as a JSON number.
pub(super) fn epoch_seconds(t: &DateTime<Utc>) -> Value {
    json!(t.timestamp_millis() as f64 / 1000.0)
}

pub(super) fn key_schema_json(schema: &[KeySchemaElement]) -> Value {
    Value::Array(
        schema
            .iter()
            .map(|k| json!({ "AttributeName": k.attribute_name, "KeyType": k.key_type.as_str() }))
            .collect(),
    )
}

pub(super) fn projection_json(p: &Projection) -> Value {
    let mut out = Map::new();
    out.insert("ProjectionType".into(), json!(p.projection_type.as_str()));
    if !p.non_key_attributes.is_empty() {
        out.insert("NonKeyAttributes".into(), json!(p.non_key_attributes));
    }
    Value::Object(out)
}

fn throughput_json(t: &ProvisionedThroughputDescription) -> Value {
    let mut out = Map::new();
    if let Some(at) = &t.last_increase_date_time {
        out.insert("LastIncreaseDateTime".into(), epoch_seconds(at));
    }
    if let Some(at) = &t.last_decrease_date_time {
        out.insert("LastDecreaseDateTime".into(), epoch_seconds(at));
    }
    out.insert(
        "NumberOfDecreasesToday".into(),
        json!(t.number_of_decreases_today),
    );
    out.insert("ReadCapacityUnits".into(), json!(t.read_capacity_units));
    out.insert("WriteCapacityUnits".into(), json!(t.write_capacity_units));
    Value::Object(out)
}

fn local_index_json(i: &LocalSecondaryIndexDescription) -> Value {
    json!({
        "IndexName": i.index_name,
        "KeySchema": key_schema_json(&i.key_schema),
        "Projection": projection_json(&i.projection),
        "IndexSizeBytes": i.index_size_bytes,
        "ItemCount": i.item_count,
        "IndexArn": i.index_arn,
    })
}

fn global_index_json(i: &GlobalSecondaryIndexDescription) -> Value {
    let mut out = Map::new();
    out.insert("IndexName".into(), json!(i.index_name));
    out.insert("KeySchema".into(), key_schema_json(&i.key_schema));
    out.insert("Projection".into(), projection_json(&i.projection));
    out.insert("IndexStatus".into(), json!(i.index_status.as_str()));
    if let Some(backfilling) = i.backfilling {
        out.insert("Backfilling".into(), json!(backfilling));
    }
    if let Some(t) = &i.provisioned_throughput {
        out.insert("ProvisionedThroughput".into(), throughput_json(t));
    }
    out.insert("IndexSizeBytes".into(), json!(i.index_size_bytes));
    out.insert("ItemCount".into(), json!(i.item_count));
    out.insert("IndexArn".into(), json!(i.index_arn));
    Value::Object(out)
}

/// `BillingModeSummary`: the mode and, once the table switched to on-demand, when it last did.
fn billing_mode_summary(t: &TableDescription) -> Option<Value> {
    if t.billing_mode.is_none() && t.last_update_to_pay_per_request_date_time.is_none() {
        return None;
    }
    let mut out = Map::new();
    if let Some(mode) = t.billing_mode {
        out.insert("BillingMode".into(), json!(mode.as_str()));
    }
    if let Some(at) = &t.last_update_to_pay_per_request_date_time {
        out.insert(
            "LastUpdateToPayPerRequestDateTime".into(),
            epoch_seconds(at),
        );
    }
    Some(Value::Object(out))
}

/// `TableDescription` as DynamoDB sends it.
pub(super) fn table_description(t: &TableDescription) -> Value {
    let mut out = Map::new();
    out.insert(
        "AttributeDefinitions".into(),
        Value::Array(
            t.attribute_definitions
                .iter()
                .map(|a| json!({ "AttributeName": a.attribute_name, "AttributeType": a.attribute_type.as_str() }))
                .collect(),
        ),
    );
    out.insert("TableName".into(), json!(t.table_name));
    out.insert("KeySchema".into(), key_schema_json(&t.key_schema));
    out.insert("TableStatus".into(), json!(t.table_status.as_str()));
    out.insert(
        "CreationDateTime".into(),
        epoch_seconds(&t.creation_date_time),
    );
    out.insert(
        "ProvisionedThroughput".into(),
        throughput_json(&t.provisioned_throughput),
    );
    out.insert("TableSizeBytes".into(), json!(t.table_size_bytes));
    out.insert("ItemCount".into(), json!(t.item_count));
    out.insert("TableArn".into(), json!(t.table_arn));
    out.insert("TableId".into(), json!(t.table_id));
    if let Some(summary) = billing_mode_summary(t) {
        out.insert("BillingModeSummary".into(), summary);
    }
    if !t.local_secondary_indexes.is_empty() {
        let lsis = t.local_secondary_indexes.iter().map(local_index_json);
        out.insert("LocalSecondaryIndexes".into(), Value::Array(lsis.collect()));
    }
    if !t.global_secondary_indexes.is_empty() {
        let gsis = t.global_secondary_indexes.iter().map(global_index_json);
        out.insert(
            "GlobalSecondaryIndexes".into(),
            Value::Array(gsis.collect()),
        );
    }
    if let Some(spec) = &t.stream_specification {
        let mut stream = Map::new();
        stream.insert("StreamEnabled".into(), json!(spec.stream_enabled));
        if let Some(view) = spec.stream_view_type {
            stream.insert("StreamViewType".into(), json!(view.as_str()));
        }
        out.insert("StreamSpecification".into(), Value::Object(stream));
    }
    if let Some(label) = &t.latest_stream_label {
        out.insert("LatestStreamLabel".into(), json!(label));
    }
    if let Some(arn) = &t.latest_stream_arn {
        out.insert("LatestStreamArn".into(), json!(arn));
    }
    if let Some(class) = t.table_class {
        out.insert(
            "TableClassSummary".into(),
            json!({ "TableClass": class.as_str() }),
        );
    }
    out.insert(
        "DeletionProtectionEnabled".into(),
        json!(t.deletion_protection_enabled),
    );
    if let Some(restore) = &t.restore_summary {
        out.insert("RestoreSummary".into(), restore_summary_json(restore));
    }
    Value::Object(out)
}

/// `RestoreSummary` as DynamoDB sends it.
fn restore_summary_json(r: &dynomodel::backend::RestoreSummary) -> Value {
    let mut out = Map::new();
    if let Some(arn) = &r.source_backup_arn {
        out.insert("SourceBackupArn".into(), json!(arn));
    }
    if let Some(arn) = &r.source_table_arn {
        out.insert("SourceTableArn".into(), json!(arn));
    }
    out.insert(
        "RestoreDateTime".into(),
        epoch_seconds(&r.restore_date_time),
    );
    out.insert("RestoreInProgress".into(), json!(r.restore_in_progress));
    Value::Object(out)
}

/// DeleteTable's `TableDescription`: only the members DynamoDB sends there (the API reference's example
/// and real DynamoDB's recorded answers): no `CreationDateTime`, `KeySchema`, `AttributeDefinitions`,
/// index lists or stream members. DynamoDB Local 3.3.1 sends the whole description.
pub(super) fn deleted_table_description(t: &TableDescription) -> Value {
    let mut out = Map::new();
    out.insert("TableName".into(), json!(t.table_name));
    out.insert("TableArn".into(), json!(t.table_arn));
    out.insert("TableId".into(), json!(t.table_id));
    out.insert("TableStatus".into(), json!(t.table_status.as_str()));
    out.insert(
        "ProvisionedThroughput".into(),
        throughput_json(&t.provisioned_throughput),
    );
    if let Some(summary) = billing_mode_summary(t) {
        out.insert("BillingModeSummary".into(), summary);
    }
    out.insert("TableSizeBytes".into(), json!(t.table_size_bytes));
    out.insert("ItemCount".into(), json!(t.item_count));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use chrono::TimeZone;
    use dynomodel::backend::{
        BillingMode, KeyType, ProjectionType, StreamSpecification, StreamViewType, TableClass,
        TableStatus,
    };

    use super::*;

    fn at(seconds: i64, millis: u32) -> DateTime<Utc> {
        Utc.timestamp_opt(seconds, millis * 1_000_000).unwrap()
    }

    fn throughput(units: i64) -> ProvisionedThroughputDescription {
        ProvisionedThroughputDescription {
            read_capacity_units: units,
            write_capacity_units: units,
            number_of_decreases_today: 0,
            last_increase_date_time: None,
            last_decrease_date_time: None,
        }
    }

    fn table() -> TableDescription {
        TableDescription {
            table_name: "t".into(),
            table_status: TableStatus::Active,
            attribute_definitions: Vec::new(),
            key_schema: vec![KeySchemaElement {
                attribute_name: "pk".into(),
                key_type: KeyType::Hash,
            }],
            creation_date_time: at(1_700_000_000, 250),
            provisioned_throughput: throughput(0),
            billing_mode: Some(BillingMode::PayPerRequest),
            last_update_to_pay_per_request_date_time: None,
            item_count: 0,
            table_size_bytes: 0,
            table_arn: "arn:aws:dynamodb:ddblocal:000000000000:table/t".into(),
            table_id: "id".into(),
            local_secondary_indexes: Vec::new(),
            global_secondary_indexes: Vec::new(),
            stream_specification: None,
            latest_stream_arn: None,
            latest_stream_label: None,
            table_class: None,
            deletion_protection_enabled: false,
            restore_summary: None,
        }
    }

    #[test]
    fn absent_settings_are_absent_and_deletion_protection_is_always_sent() {
        let v = table_description(&table());
        let o = v.as_object().unwrap();
        for absent in [
            "StreamSpecification",
            "LatestStreamArn",
            "LatestStreamLabel",
            "TableClassSummary",
            "GlobalSecondaryIndexes",
            "LocalSecondaryIndexes",
        ] {
            assert!(!o.contains_key(absent), "{absent} in {v}");
        }
        assert_eq!(v["DeletionProtectionEnabled"], json!(false));
        assert_eq!(
            v["BillingModeSummary"],
            json!({"BillingMode": "PAY_PER_REQUEST"})
        );
        assert_eq!(
            v["ProvisionedThroughput"],
            json!({"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0, "WriteCapacityUnits": 0})
        );
        assert_eq!(v["CreationDateTime"], json!(1_700_000_000.25));
    }

    #[test]
    fn every_new_member_in_dynamodb_s_shape() {
        let mut t = table();
        t.last_update_to_pay_per_request_date_time = Some(at(1_700_000_100, 5));
        t.provisioned_throughput = ProvisionedThroughputDescription {
            last_increase_date_time: Some(at(1_700_000_001, 0)),
            last_decrease_date_time: Some(at(1_700_000_002, 500)),
            number_of_decreases_today: 1,
            ..throughput(5)
        };
        t.stream_specification = Some(StreamSpecification::enabled(StreamViewType::NewImage));
        t.latest_stream_label = Some("2026-11-23T18:17:18.587".into());
        t.latest_stream_arn = Some(format!("{}/stream/2026-11-23T18:17:18.587", t.table_arn));
        t.table_class = Some(TableClass::StandardInfrequentAccess);
        t.deletion_protection_enabled = true;
        t.global_secondary_indexes = vec![GlobalSecondaryIndexDescription {
            index_name: "g".into(),
            key_schema: t.key_schema.clone(),
            projection: Projection {
                projection_type: ProjectionType::KeysOnly,
                non_key_attributes: Vec::new(),
            },
            index_status: TableStatus::Creating,
            backfilling: Some(true),
            provisioned_throughput: Some(throughput(1)),
            item_count: 0,
            index_size_bytes: 0,
            index_arn: format!("{}/index/g", t.table_arn),
        }];
        let v = table_description(&t);
        assert_eq!(
            v["BillingModeSummary"],
            json!({"BillingMode": "PAY_PER_REQUEST",
                   "LastUpdateToPayPerRequestDateTime": 1_700_000_100.005})
        );
        assert_eq!(
            v["ProvisionedThroughput"],
            json!({"LastIncreaseDateTime": 1_700_000_001.0, "LastDecreaseDateTime": 1_700_000_002.5,
                   "NumberOfDecreasesToday": 1, "ReadCapacityUnits": 5, "WriteCapacityUnits": 5})
        );
        assert_eq!(
            v["StreamSpecification"],
            json!({"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"})
        );
        assert_eq!(v["LatestStreamLabel"], "2026-11-23T18:17:18.587");
        assert_eq!(
            v["LatestStreamArn"],
            "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2026-11-23T18:17:18.587"
        );
        assert_eq!(
            v["TableClassSummary"],
            json!({"TableClass": "STANDARD_INFREQUENT_ACCESS"})
        );
        assert_eq!(v["DeletionProtectionEnabled"], json!(true));
        let gsi = &v["GlobalSecondaryIndexes"][0];
        assert_eq!(gsi["IndexStatus"], "CREATING");
        assert_eq!(gsi["Backfilling"], json!(true));
        // A disabled stream keeps its specification without a view type.
        t.stream_specification = Some(StreamSpecification::disabled());
        t.global_secondary_indexes[0].backfilling = None;
        let v = table_description(&t);
        assert_eq!(v["StreamSpecification"], json!({"StreamEnabled": false}));
        assert!(v["GlobalSecondaryIndexes"][0].get("Backfilling").is_none());
    }
}
