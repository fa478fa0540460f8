//! A table's definition as the CreateTable request that recreates it, read through the API
//! (DescribeTable, DescribeTimeToLive, ListTagsOfResource) so that it works on any [`Target`].

use serde_json::{json, Map, Value};

use super::write::call_retrying;
use super::{DumpError, Target};

/// Every table name, in ListTables' (name) order.
pub(crate) async fn table_names(target: &dyn Target) -> Result<Vec<String>, DumpError> {
    let mut names = Vec::new();
    let mut start: Option<Value> = None;
    loop {
        let mut request = json!({});
        if let Some(name) = start.take() {
            request["ExclusiveStartTableName"] = name;
        }
        let page = call_retrying(target, "ListTables", &request).await?;
        if let Some(Value::Array(page_names)) = page.get("TableNames") {
            names.extend(
                page_names
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned),
            );
        }
        match page.get("LastEvaluatedTableName") {
            Some(name) if name.is_string() => start = Some(name.clone()),
            _ => return Ok(names),
        }
    }
}

/// Table `name`'s CreateTable request (tags included) and, when TTL is enabled (or being enabled),
/// its `{"AttributeName": …, "Enabled": true}`.
pub(crate) async fn describe(
    target: &dyn Target,
    name: &str,
) -> Result<(Value, Option<Value>), DumpError> {
    let described = call_retrying(target, "DescribeTable", &json!({"TableName": name})).await?;
    let table = &described["Table"];
    let tags = match table["TableArn"].as_str() {
        Some(arn) => tags(target, arn).await?,
        None => Vec::new(),
    };
    let ttl = call_retrying(target, "DescribeTimeToLive", &json!({"TableName": name})).await?;
    let ttl = &ttl["TimeToLiveDescription"];
    let enabled = matches!(
        ttl["TimeToLiveStatus"].as_str(),
        Some("ENABLED" | "ENABLING")
    );
    let ttl = match (enabled, ttl.get("AttributeName")) {
        (true, Some(attribute)) => Some(json!({ "AttributeName": attribute, "Enabled": true })),
        _ => None,
    };
    Ok((create_request(table, tags), ttl))
}

/// Every tag of the resource `arn`, in ListTagsOfResource's order.
async fn tags(target: &dyn Target, arn: &str) -> Result<Vec<Value>, DumpError> {
    let mut tags = Vec::new();
    let mut next: Option<Value> = None;
    loop {
        let mut request = json!({ "ResourceArn": arn });
        if let Some(token) = next.take() {
            request["NextToken"] = token;
        }
        let page = call_retrying(target, "ListTagsOfResource", &request).await?;
        if let Some(Value::Array(page_tags)) = page.get("Tags") {
            tags.extend(page_tags.iter().cloned());
        }
        match page.get("NextToken") {
            Some(token) if token.is_string() => next = Some(token.clone()),
            _ => return Ok(tags),
        }
    }
}

/// Copies the members of `from` named in `names` (those present and not null) into `to`.
fn copy(from: &Value, to: &mut Map<String, Value>, names: &[&str]) {
    for name in names {
        if let Some(value) = from.get(*name).filter(|v| !v.is_null()) {
            to.insert((*name).to_owned(), value.clone());
        }
    }
}

/// The CreateTable request for a DescribeTable `Table` description: what defines the table, without
/// what describes its state (status, sizes, counts, dates, ARNs).
pub(crate) fn create_request(table: &Value, tags: Vec<Value>) -> Value {
    let mut create = Map::new();
    copy(
        table,
        &mut create,
        &["TableName", "AttributeDefinitions", "KeySchema"],
    );
    let billing = table["BillingModeSummary"]["BillingMode"]
        .as_str()
        .unwrap_or("PROVISIONED");
    let provisioned = billing == "PROVISIONED";
    create.insert("BillingMode".into(), json!(billing));
    if provisioned {
        create.insert(
            "ProvisionedThroughput".into(),
            throughput(&table["ProvisionedThroughput"]),
        );
    }
    if let Some(Value::Array(lsis)) = table.get("LocalSecondaryIndexes") {
        let lsis = lsis.iter().map(|index| {
            let mut out = Map::new();
            copy(index, &mut out, &["IndexName", "KeySchema", "Projection"]);
            Value::Object(out)
        });
        create.insert("LocalSecondaryIndexes".into(), lsis.collect());
    }
    if let Some(Value::Array(gsis)) = table.get("GlobalSecondaryIndexes") {
        let gsis = gsis.iter().map(|index| {
            let mut out = Map::new();
            copy(index, &mut out, &["IndexName", "KeySchema", "Projection"]);
            if provisioned {
                out.insert(
                    "ProvisionedThroughput".into(),
                    throughput(&index["ProvisionedThroughput"]),
                );
            }
            Value::Object(out)
        });
        create.insert("GlobalSecondaryIndexes".into(), gsis.collect());
    }
    if table["StreamSpecification"]["StreamEnabled"] == json!(true) {
        copy(table, &mut create, &["StreamSpecification"]);
    }
    if let Some(class) = table["TableClassSummary"]["TableClass"].as_str() {
        create.insert("TableClass".into(), json!(class));
    }
    if table["DeletionProtectionEnabled"] == json!(true) {
        create.insert("DeletionProtectionEnabled".into(), json!(true));
    }
    if !tags.is_empty() {
        create.insert("Tags".into(), Value::Array(tags));
    }
    Value::Object(create)
}

/// A described throughput's units, as CreateTable takes them.
fn throughput(described: &Value) -> Value {
    json!({
        "ReadCapacityUnits": described["ReadCapacityUnits"],
        "WriteCapacityUnits": described["WriteCapacityUnits"],
    })
}

/// The key attribute names of a CreateTable request (hash first).
pub(crate) fn key_names(create: &Value) -> Vec<String> {
    let mut keys: Vec<(bool, String)> = create["KeySchema"]
        .as_array()
        .map(|schema| {
            schema
                .iter()
                .filter_map(|k| {
                    let name = k["AttributeName"].as_str()?;
                    Some((k["KeyType"] != json!("HASH"), name.to_owned()))
                })
                .collect()
        })
        .unwrap_or_default();
    keys.sort();
    keys.into_iter().map(|(_, name)| name).collect()
}
