//! CreateTable, DescribeTable, ListTables and DeleteTable on the wire, and `TableDescription`'s JSON.
//!
//! Members DynamoDB accepts but the [`Backend`] has no field for (`Tags`, `StreamSpecification`,
//! `SSESpecification`, …) are ignored, as unknown members are. Timestamps (`CreationDateTime`) are epoch
//! seconds as a JSON number with millisecond fractions, which is how DynamoDB's JSON protocol sends them.

use dynomodel::{
    AttributeDefinition, Backend, BillingMode, CreateTableInput, DeleteTableInput,
    DescribeTableInput, GlobalSecondaryIndex, GlobalSecondaryIndexDescription, KeySchemaElement,
    KeyType, ListTablesInput, LocalSecondaryIndex, LocalSecondaryIndexDescription, Projection,
    ProjectionType, ProvisionedThroughput, ProvisionedThroughputDescription, ScalarAttributeType,
    TableDescription,
};
use serde_json::{json, Map, Value};

use super::types;
use super::{Decoder, Members, WireResult};

const ATTRIBUTE_TYPES: &[(&str, ScalarAttributeType)] = &[
    ("B", ScalarAttributeType::B),
    ("N", ScalarAttributeType::N),
    ("S", ScalarAttributeType::S),
];
const KEY_TYPES: &[(&str, KeyType)] = &[("HASH", KeyType::Hash), ("RANGE", KeyType::Range)];
const BILLING_MODES: &[(&str, BillingMode)] = &[
    ("PROVISIONED", BillingMode::Provisioned),
    ("PAY_PER_REQUEST", BillingMode::PayPerRequest),
];
const PROJECTION_TYPES: &[(&str, ProjectionType)] = &[
    ("ALL", ProjectionType::All),
    ("INCLUDE", ProjectionType::Include),
    ("KEYS_ONLY", ProjectionType::KeysOnly),
];

fn key_schema(m: &Members<'_>, d: &mut Decoder) -> WireResult<Vec<KeySchemaElement>> {
    let elements = m.each("KeySchema", d, |e, d| {
        let attribute_name = e.required_string("AttributeName", d)?;
        let key_type = e.required_enumeration("KeyType", KEY_TYPES, d)?;
        Ok(key_type.map(|key_type| KeySchemaElement {
            attribute_name,
            key_type,
        }))
    })?;
    match elements {
        Some(elements) => Ok(elements.into_iter().flatten().collect()),
        None => {
            d.null(&m.path_of("KeySchema"));
            Ok(Vec::new())
        }
    }
}

fn throughput(m: &Members<'_>, d: &mut Decoder) -> WireResult<Option<ProvisionedThroughput>> {
    let Some(t) = m.structure("ProvisionedThroughput")? else {
        return Ok(None);
    };
    let units = |name: &str, d: &mut Decoder| -> WireResult<i64> {
        match t.get(name) {
            Some(v) => types::long(v, "an Long"),
            None => {
                d.null(&t.path_of(name));
                Ok(0)
            }
        }
    };
    // DynamoDB lists write before read in its messages.
    let write_capacity_units = units("WriteCapacityUnits", d)?;
    let read_capacity_units = units("ReadCapacityUnits", d)?;
    Ok(Some(ProvisionedThroughput {
        read_capacity_units,
        write_capacity_units,
    }))
}

fn projection(m: &Members<'_>, d: &mut Decoder) -> WireResult<Projection> {
    let Some(p) = m.structure("Projection")? else {
        d.null(&m.path_of("Projection"));
        return Ok(Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: Vec::new(),
        });
    };
    let projection_type = match p.get("ProjectionType") {
        Some(_) => p.enumeration("ProjectionType", PROJECTION_TYPES, d)?,
        None => {
            d.custom("One or more parameter values were invalid: Unknown ProjectionType: null");
            None
        }
    };
    let mut non_key_attributes = Vec::new();
    for v in p.list("NonKeyAttributes")?.into_iter().flatten() {
        non_key_attributes.push(types::string(v)?);
    }
    Ok(Projection {
        projection_type: projection_type.unwrap_or(ProjectionType::All),
        non_key_attributes,
    })
}

pub(super) async fn create_table(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let attribute_definitions = m.each("AttributeDefinitions", &mut d, |e, d| {
        let attribute_name = e.required_string("AttributeName", d)?;
        let ty = e.required_enumeration("AttributeType", ATTRIBUTE_TYPES, d)?;
        Ok(ty.map(|attribute_type| AttributeDefinition {
            attribute_name,
            attribute_type,
        }))
    })?;
    let attribute_definitions = match attribute_definitions {
        Some(defs) => defs.into_iter().flatten().collect(),
        None => {
            d.null("attributeDefinitions");
            Vec::new()
        }
    };
    let table_name = m.required_string("TableName", &mut d)?;
    let table_key_schema = key_schema(&m, &mut d)?;
    let billing_mode = m.enumeration("BillingMode", BILLING_MODES, &mut d)?;
    let provisioned_throughput = throughput(&m, &mut d)?;
    let local_secondary_indexes = m
        .each("LocalSecondaryIndexes", &mut d, |e, d| {
            Ok(LocalSecondaryIndex {
                index_name: e.required_string("IndexName", d)?,
                key_schema: key_schema(&e, d)?,
                projection: projection(&e, d)?,
            })
        })?
        .unwrap_or_default();
    let global_secondary_indexes = m
        .each("GlobalSecondaryIndexes", &mut d, |e, d| {
            Ok(GlobalSecondaryIndex {
                index_name: e.required_string("IndexName", d)?,
                key_schema: key_schema(&e, d)?,
                projection: projection(&e, d)?,
                provisioned_throughput: throughput(&e, d)?,
            })
        })?
        .unwrap_or_default();
    let input = d.finish(CreateTableInput {
        table_name,
        attribute_definitions,
        key_schema: table_key_schema,
        billing_mode,
        provisioned_throughput,
        local_secondary_indexes,
        global_secondary_indexes,
        // SCAFFOLD: the wire helper decodes StreamSpecification, TableClass,
        // DeletionProtectionEnabled and Tags.
        ..Default::default()
    })?;
    let out = backend.create_table(input).await?;
    Ok(json!({ "TableDescription": table_description(&out.table_description) }))
}

pub(super) async fn describe_table(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = m.required_string("TableName", &mut d)?;
    let input = d.finish(DescribeTableInput { table_name })?;
    let out = backend.describe_table(input).await?;
    Ok(json!({ "Table": table_description(&out.table) }))
}

pub(super) async fn delete_table(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = m.required_string("TableName", &mut d)?;
    let input = d.finish(DeleteTableInput { table_name })?;
    let out = backend.delete_table(input).await?;
    Ok(json!({ "TableDescription": table_description(&out.table_description) }))
}

pub(super) async fn list_tables(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let input = ListTablesInput {
        exclusive_start_table_name: m.string("ExclusiveStartTableName")?,
        limit: m.integer("Limit")?,
    };
    let out = backend.list_tables(input).await?;
    let mut body = Map::new();
    body.insert("TableNames".into(), json!(out.table_names));
    if let Some(last) = out.last_evaluated_table_name {
        body.insert("LastEvaluatedTableName".into(), Value::String(last));
    }
    Ok(Value::Object(body))
}

fn key_schema_json(schema: &[KeySchemaElement]) -> Value {
    Value::Array(
        schema
            .iter()
            .map(|k| json!({ "AttributeName": k.attribute_name, "KeyType": k.key_type.as_str() }))
            .collect(),
    )
}

fn projection_json(p: &Projection) -> Value {
    let mut out = Map::new();
    out.insert("ProjectionType".into(), json!(p.projection_type.as_str()));
    if !p.non_key_attributes.is_empty() {
        out.insert("NonKeyAttributes".into(), json!(p.non_key_attributes));
    }
    Value::Object(out)
}

fn throughput_json(t: &ProvisionedThroughputDescription) -> Value {
    json!({
        "NumberOfDecreasesToday": t.number_of_decreases_today,
        "ReadCapacityUnits": t.read_capacity_units,
        "WriteCapacityUnits": t.write_capacity_units,
    })
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
    let mut out = json!({
        "IndexName": i.index_name,
        "KeySchema": key_schema_json(&i.key_schema),
        "Projection": projection_json(&i.projection),
        "IndexStatus": i.index_status.as_str(),
        "IndexSizeBytes": i.index_size_bytes,
        "ItemCount": i.item_count,
        "IndexArn": i.index_arn,
    });
    if let (Some(t), Value::Object(o)) = (&i.provisioned_throughput, &mut out) {
        o.insert("ProvisionedThroughput".into(), throughput_json(t));
    }
    out
}

/// `TableDescription` as DynamoDB sends it.
pub fn table_description(t: &TableDescription) -> Value {
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
    // Epoch seconds with millisecond precision: a JSON number, as DynamoDB's JSON protocol sends it.
    let seconds = t.creation_date_time.timestamp_millis() as f64 / 1000.0;
    out.insert("CreationDateTime".into(), json!(seconds));
    out.insert(
        "ProvisionedThroughput".into(),
        throughput_json(&t.provisioned_throughput),
    );
    out.insert("TableSizeBytes".into(), json!(t.table_size_bytes));
    out.insert("ItemCount".into(), json!(t.item_count));
    out.insert("TableArn".into(), json!(t.table_arn));
    out.insert("TableId".into(), json!(t.table_id));
    if let Some(mode) = t.billing_mode {
        out.insert(
            "BillingModeSummary".into(),
            json!({ "BillingMode": mode.as_str() }),
        );
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
    Value::Object(out)
}
