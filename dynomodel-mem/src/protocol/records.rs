//! The requests durable mode logs, back into DynamoDB's JSON: the table operations (`CreateTable`,
//! `UpdateTable`, `DeleteTable`, `UpdateTimeToLive`, `TagResource`, `UntagResource`), which recovery
//! replays through [`super::call`] so that they are decoded by the very code that decodes a client's
//! request, and a transaction's actions (remembered with its `ClientRequestToken`).
//!
//! Each encoder writes what the matching decoder reads, member for member; the round trips are tested
//! below.

use dynomodel::backend::{
    CreateTableInput, DeleteTableInput, GlobalSecondaryIndex, GlobalSecondaryIndexUpdate,
    KeySchemaElement, Projection, ProvisionedThroughput, ReturnValuesOnConditionCheckFailure,
    StreamSpecification, TagResourceInput, TransactWriteItem, UntagResourceInput, UpdateTableInput,
    UpdateTimeToLiveInput,
};
use serde_json::{json, Map, Value};

use super::value::item_to_json;
use super::{Decoder, Members};

fn key_schema(k: &[KeySchemaElement]) -> Value {
    k.iter()
        .map(|e| json!({"AttributeName": e.attribute_name, "KeyType": e.key_type.as_str()}))
        .collect()
}

fn projection(p: &Projection) -> Value {
    let mut m = Map::new();
    m.insert("ProjectionType".into(), json!(p.projection_type.as_str()));
    if !p.non_key_attributes.is_empty() {
        m.insert("NonKeyAttributes".into(), json!(p.non_key_attributes));
    }
    Value::Object(m)
}

fn throughput(t: &ProvisionedThroughput) -> Value {
    json!({"ReadCapacityUnits": t.read_capacity_units, "WriteCapacityUnits": t.write_capacity_units})
}

fn stream(s: &StreamSpecification) -> Value {
    let mut m = Map::new();
    m.insert("StreamEnabled".into(), json!(s.stream_enabled));
    if let Some(v) = s.stream_view_type {
        m.insert("StreamViewType".into(), json!(v.as_str()));
    }
    Value::Object(m)
}

fn gsi(i: &GlobalSecondaryIndex) -> Value {
    let mut m = Map::new();
    m.insert("IndexName".into(), json!(i.index_name));
    m.insert("KeySchema".into(), key_schema(&i.key_schema));
    m.insert("Projection".into(), projection(&i.projection));
    if let Some(t) = &i.provisioned_throughput {
        m.insert("ProvisionedThroughput".into(), throughput(t));
    }
    Value::Object(m)
}

fn definitions(defs: &[dynomodel::backend::AttributeDefinition]) -> Value {
    defs.iter()
        .map(|d| json!({"AttributeName": d.attribute_name, "AttributeType": d.attribute_type.as_str()}))
        .collect()
}

/// The settings `CreateTable` and `UpdateTable` share, into `m`.
fn settings(
    m: &mut Map<String, Value>,
    billing: Option<dynomodel::backend::BillingMode>,
    provisioned: Option<&ProvisionedThroughput>,
    streams: Option<&StreamSpecification>,
    class: Option<dynomodel::backend::TableClass>,
    protection: Option<bool>,
) {
    if let Some(b) = billing {
        m.insert("BillingMode".into(), json!(b.as_str()));
    }
    if let Some(t) = provisioned {
        m.insert("ProvisionedThroughput".into(), throughput(t));
    }
    if let Some(s) = streams {
        m.insert("StreamSpecification".into(), stream(s));
    }
    if let Some(c) = class {
        m.insert("TableClass".into(), json!(c.as_str()));
    }
    if let Some(p) = protection {
        m.insert("DeletionProtectionEnabled".into(), json!(p));
    }
}

/// `CreateTable`'s request.
pub(crate) fn create_table_json(i: &CreateTableInput) -> Value {
    let mut m = Map::new();
    m.insert("TableName".into(), json!(i.table_name));
    m.insert(
        "AttributeDefinitions".into(),
        definitions(&i.attribute_definitions),
    );
    m.insert("KeySchema".into(), key_schema(&i.key_schema));
    if !i.local_secondary_indexes.is_empty() {
        let lsis = i
            .local_secondary_indexes
            .iter()
            .map(|l| {
                json!({
                    "IndexName": l.index_name,
                    "KeySchema": key_schema(&l.key_schema),
                    "Projection": projection(&l.projection),
                })
            })
            .collect();
        m.insert("LocalSecondaryIndexes".into(), Value::Array(lsis));
    }
    if !i.global_secondary_indexes.is_empty() {
        let gsis = i.global_secondary_indexes.iter().map(gsi).collect();
        m.insert("GlobalSecondaryIndexes".into(), Value::Array(gsis));
    }
    if !i.tags.is_empty() {
        let tags = i
            .tags
            .iter()
            .map(|t| json!({"Key": t.key, "Value": t.value}))
            .collect();
        m.insert("Tags".into(), Value::Array(tags));
    }
    settings(
        &mut m,
        i.billing_mode,
        i.provisioned_throughput.as_ref(),
        i.stream_specification.as_ref(),
        i.table_class,
        i.deletion_protection_enabled,
    );
    Value::Object(m)
}

/// `UpdateTable`'s request.
pub(crate) fn update_table_json(i: &UpdateTableInput) -> Value {
    let mut m = Map::new();
    m.insert("TableName".into(), json!(i.table_name));
    if !i.attribute_definitions.is_empty() {
        m.insert(
            "AttributeDefinitions".into(),
            definitions(&i.attribute_definitions),
        );
    }
    if !i.global_secondary_index_updates.is_empty() {
        let updates = i
            .global_secondary_index_updates
            .iter()
            .map(|u| match u {
                GlobalSecondaryIndexUpdate::Create(g) => json!({"Create": gsi(g)}),
                GlobalSecondaryIndexUpdate::Update(a) => json!({"Update": {
                    "IndexName": a.index_name,
                    "ProvisionedThroughput": throughput(&a.provisioned_throughput),
                }}),
                GlobalSecondaryIndexUpdate::Delete { index_name } => {
                    json!({"Delete": {"IndexName": index_name}})
                }
            })
            .collect();
        m.insert("GlobalSecondaryIndexUpdates".into(), Value::Array(updates));
    }
    settings(
        &mut m,
        i.billing_mode,
        i.provisioned_throughput.as_ref(),
        i.stream_specification.as_ref(),
        i.table_class,
        i.deletion_protection_enabled,
    );
    Value::Object(m)
}

/// `DeleteTable`'s request.
pub(crate) fn delete_table_json(i: &DeleteTableInput) -> Value {
    json!({"TableName": i.table_name})
}

/// `UpdateTimeToLive`'s request.
pub(crate) fn update_time_to_live_json(i: &UpdateTimeToLiveInput) -> Value {
    let s = &i.time_to_live_specification;
    json!({
        "TableName": i.table_name,
        "TimeToLiveSpecification": {"Enabled": s.enabled, "AttributeName": s.attribute_name},
    })
}

/// `TagResource`'s request.
pub(crate) fn tag_resource_json(i: &TagResourceInput) -> Value {
    let tags: Vec<Value> = i
        .tags
        .iter()
        .map(|t| json!({"Key": t.key, "Value": t.value}))
        .collect();
    json!({"ResourceArn": i.resource_arn, "Tags": tags})
}

/// `UntagResource`'s request.
pub(crate) fn untag_resource_json(i: &UntagResourceInput) -> Value {
    json!({"ResourceArn": i.resource_arn, "TagKeys": i.tag_keys})
}

/// One transaction action's members, into `m`.
fn action_members(
    m: &mut Map<String, Value>,
    table: &str,
    condition: Option<&str>,
    names: Option<&dynomodel::backend::ExpressionAttributeNames>,
    values: Option<&dynomodel::backend::ExpressionAttributeValues>,
    on_failure: Option<ReturnValuesOnConditionCheckFailure>,
) {
    m.insert("TableName".into(), json!(table));
    if let Some(c) = condition {
        m.insert("ConditionExpression".into(), json!(c));
    }
    if let Some(n) = names {
        m.insert("ExpressionAttributeNames".into(), json!(n));
    }
    if let Some(v) = values {
        m.insert("ExpressionAttributeValues".into(), item_to_json(v));
    }
    if let Some(r) = on_failure {
        m.insert(
            "ReturnValuesOnConditionCheckFailure".into(),
            json!(r.as_str()),
        );
    }
}

/// A transaction's `TransactItems`.
pub(crate) fn write_actions_json(actions: &[TransactWriteItem]) -> Value {
    let each = |a: &TransactWriteItem| {
        let mut m = Map::new();
        let member = match a {
            TransactWriteItem::Put(p) => {
                m.insert("Item".into(), item_to_json(&p.item));
                let c = p.condition_expression.as_deref();
                let (n, v) = (
                    &p.expression_attribute_names,
                    &p.expression_attribute_values,
                );
                action_members(
                    &mut m,
                    &p.table_name,
                    c,
                    n.as_ref(),
                    v.as_ref(),
                    p.return_values_on_condition_check_failure,
                );
                "Put"
            }
            TransactWriteItem::Update(u) => {
                m.insert("Key".into(), item_to_json(&u.key));
                m.insert("UpdateExpression".into(), json!(u.update_expression));
                let c = u.condition_expression.as_deref();
                let (n, v) = (
                    &u.expression_attribute_names,
                    &u.expression_attribute_values,
                );
                action_members(
                    &mut m,
                    &u.table_name,
                    c,
                    n.as_ref(),
                    v.as_ref(),
                    u.return_values_on_condition_check_failure,
                );
                "Update"
            }
            TransactWriteItem::Delete(d) => {
                m.insert("Key".into(), item_to_json(&d.key));
                let c = d.condition_expression.as_deref();
                let (n, v) = (
                    &d.expression_attribute_names,
                    &d.expression_attribute_values,
                );
                action_members(
                    &mut m,
                    &d.table_name,
                    c,
                    n.as_ref(),
                    v.as_ref(),
                    d.return_values_on_condition_check_failure,
                );
                "Delete"
            }
            TransactWriteItem::ConditionCheck(c) => {
                m.insert("Key".into(), item_to_json(&c.key));
                let cond = Some(c.condition_expression.as_str());
                let (n, v) = (
                    &c.expression_attribute_names,
                    &c.expression_attribute_values,
                );
                action_members(
                    &mut m,
                    &c.table_name,
                    cond,
                    n.as_ref(),
                    v.as_ref(),
                    c.return_values_on_condition_check_failure,
                );
                "ConditionCheck"
            }
        };
        json!({ member: Value::Object(m) })
    };
    actions.iter().map(each).collect()
}

/// [`write_actions_json`]'s output read back, or `None` if it is not that.
pub(crate) fn decode_write_actions(items: &Value) -> Option<Vec<TransactWriteItem>> {
    let mut request = Map::new();
    request.insert("TransactItems".into(), items.clone());
    let m = Members::new(&request);
    let mut d = Decoder::default();
    let decoded = super::transact::decode_transact_items(&m, &mut d).ok()?;
    d.finish(decoded).ok()
}

/// An item written by [`item_to_json`], read back.
pub(crate) fn item_from_json(value: &Value) -> Option<dynomodel::Item> {
    let mut d = Decoder::default();
    let item = super::value::parse_fields(value.as_object()?, &mut d).ok()?;
    d.finish(item).ok()
}

/// A stream record as GetRecords writes it (durable mode's snapshots keep records so).
pub(crate) fn stream_record_json(r: &dynomodel::backend::Record) -> Value {
    super::streams::record_json(r)
}

/// [`stream_record_json`]'s output read back, or `None` if it is not that.
pub(crate) fn stream_record_from_json(v: &Value) -> Option<dynomodel::backend::Record> {
    use dynomodel::backend::{Identity, OperationType, Record, StreamRecord, StreamViewType};
    let text = |v: &Value, name: &str| v.get(name).and_then(Value::as_str).map(str::to_owned);
    let d = v.get("dynamodb")?;
    let image = |name: &str| match d.get(name) {
        None => Some(None),
        Some(i) => item_from_json(i).map(Some),
    };
    let approximate_creation_date_time = match d.get("ApproximateCreationDateTime") {
        None => None,
        Some(t) => {
            let millis = (t.as_f64()? * 1000.0).round() as i64;
            Some(chrono::DateTime::from_timestamp_millis(millis)?)
        }
    };
    let view = text(d, "StreamViewType")?;
    let stream_view_type = [
        StreamViewType::KeysOnly,
        StreamViewType::NewImage,
        StreamViewType::OldImage,
        StreamViewType::NewAndOldImages,
    ]
    .into_iter()
    .find(|t| t.as_str() == view)?;
    let name = text(v, "eventName")?;
    let event_name = [
        OperationType::Insert,
        OperationType::Modify,
        OperationType::Remove,
    ]
    .into_iter()
    .find(|o| o.as_str() == name)?;
    let user_identity = match v.get("userIdentity") {
        None => None,
        Some(who) => Some(Identity {
            principal_id: text(who, "PrincipalId")?,
            type_: text(who, "Type")?,
        }),
    };
    Some(Record {
        event_id: text(v, "eventID")?,
        event_name,
        event_version: text(v, "eventVersion")?,
        event_source: text(v, "eventSource")?,
        aws_region: text(v, "awsRegion")?,
        dynamodb: StreamRecord {
            approximate_creation_date_time,
            keys: item_from_json(d.get("Keys")?)?,
            new_image: image("NewImage")?,
            old_image: image("OldImage")?,
            sequence_number: text(d, "SequenceNumber")?,
            size_bytes: d.get("SizeBytes")?.as_i64()?,
            stream_view_type,
        },
        user_identity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynomodel::backend::{
        AttributeDefinition, BillingMode, LocalSecondaryIndex, ProjectionType, ScalarAttributeType,
        StreamViewType, TableClass, Tag, TransactConditionCheck, TransactDelete, TransactPut,
        TransactUpdate, UpdateGlobalSecondaryIndexAction,
    };
    use dynomodel::AttributeValue;

    #[test]
    fn transaction_actions_round_trip() {
        let item: dynomodel::Item = [
            ("pk".to_owned(), AttributeValue::S("a".into())),
            ("n".to_owned(), AttributeValue::N(5.into())),
        ]
        .into();
        let names = Some([("#n".to_owned(), "n".to_owned())].into());
        let values = Some([(":v".to_owned(), AttributeValue::N(1.into()))].into());
        let actions = vec![
            TransactWriteItem::Put(TransactPut {
                table_name: "t".into(),
                item: item.clone(),
                condition_expression: Some("attribute_not_exists(pk)".into()),
                expression_attribute_names: None,
                expression_attribute_values: None,
                return_values_on_condition_check_failure: Some(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                ),
            }),
            TransactWriteItem::Update(TransactUpdate {
                table_name: "t".into(),
                key: item.clone(),
                update_expression: "SET #n = #n + :v".into(),
                condition_expression: None,
                expression_attribute_names: names.clone(),
                expression_attribute_values: values.clone(),
                return_values_on_condition_check_failure: None,
            }),
            TransactWriteItem::Delete(TransactDelete {
                table_name: "u".into(),
                key: item.clone(),
                condition_expression: None,
                expression_attribute_names: None,
                expression_attribute_values: None,
                return_values_on_condition_check_failure: None,
            }),
            TransactWriteItem::ConditionCheck(TransactConditionCheck {
                table_name: "v".into(),
                key: item,
                condition_expression: "#n > :v".into(),
                expression_attribute_names: names,
                expression_attribute_values: values,
                return_values_on_condition_check_failure: None,
            }),
        ];
        let json = write_actions_json(&actions);
        assert_eq!(decode_write_actions(&json), Some(actions));
    }

    /// The table operations' requests decode (through the server, as recovery replays them) to what
    /// was encoded: checked by running them on two engines, one directly, one through the encoding.
    #[test]
    fn table_requests_replay_to_the_same_tables() {
        let def = |n: &str, t| AttributeDefinition {
            attribute_name: n.into(),
            attribute_type: t,
        };
        let create = CreateTableInput {
            table_name: "tab".into(),
            attribute_definitions: vec![
                def("pk", ScalarAttributeType::S),
                def("sk", ScalarAttributeType::N),
                def("g", ScalarAttributeType::B),
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::Provisioned),
            provisioned_throughput: Some(ProvisionedThroughput {
                read_capacity_units: 5,
                write_capacity_units: 6,
            }),
            local_secondary_indexes: vec![LocalSecondaryIndex {
                index_name: "lsi1".into(),
                key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("g")],
                projection: Projection {
                    projection_type: ProjectionType::Include,
                    non_key_attributes: vec!["x".into()],
                },
            }],
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "gsi1".into(),
                key_schema: vec![KeySchemaElement::hash("g")],
                projection: Projection {
                    projection_type: ProjectionType::KeysOnly,
                    non_key_attributes: vec![],
                },
                provisioned_throughput: Some(ProvisionedThroughput {
                    read_capacity_units: 1,
                    write_capacity_units: 2,
                }),
            }],
            stream_specification: Some(StreamSpecification::enabled(StreamViewType::NewImage)),
            table_class: Some(TableClass::StandardInfrequentAccess),
            deletion_protection_enabled: Some(false),
            tags: vec![Tag::new("a", "b")],
        };
        let update = UpdateTableInput {
            table_name: "tab".into(),
            global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Update(
                UpdateGlobalSecondaryIndexAction {
                    index_name: "gsi1".into(),
                    provisioned_throughput: ProvisionedThroughput {
                        read_capacity_units: 3,
                        write_capacity_units: 3,
                    },
                },
            )],
            ..Default::default()
        };
        let ttl = UpdateTimeToLiveInput {
            table_name: "tab".into(),
            time_to_live_specification: dynomodel::backend::TimeToLiveSpecification {
                enabled: true,
                attribute_name: "exp".into(),
            },
        };
        let clock = crate::ManualClock::default();
        let direct = crate::MemBackend::with_clock(clock.clone());
        let replayed = crate::MemBackend::with_clock(clock);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        rt.block_on(async {
            use dynomodel::backend::Backend;
            direct.create_table(create.clone()).await.expect("create");
            direct.update_table(update.clone()).await.expect("update");
            direct.update_time_to_live(ttl.clone()).await.expect("ttl");
            for (op, body) in [
                ("CreateTable", create_table_json(&create)),
                ("UpdateTable", update_table_json(&update)),
                ("UpdateTimeToLive", update_time_to_live_json(&ttl)),
            ] {
                let bytes = serde_json::to_vec(&body).expect("json");
                super::super::call(&replayed, op, &bytes)
                    .await
                    .unwrap_or_else(|e| panic!("{op}: {e:?}"));
            }
            let describe = |b: crate::MemBackend| async move {
                let input = dynomodel::backend::DescribeTableInput {
                    table_name: "tab".into(),
                };
                b.describe_table(input).await.expect("describe").table
            };
            assert_eq!(describe(direct).await, describe(replayed).await);
        });
    }
}
