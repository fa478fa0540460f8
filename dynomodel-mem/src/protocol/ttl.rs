//! UpdateTimeToLive and DescribeTimeToLive on the wire.
//!
//! The model's constraints (checked before decoding, by `model`): `TableName` (`TableArn`, 1–1024 characters), `TimeToLiveSpecification`
//! with `Enabled` and `AttributeName` (1–255 characters), all required. Member paths as recorded in
//! dynalite's `test/updateTimeToLive.js` ("Value null at 'timeToLiveSpecification.enabled'"). The
//! responses' shapes are DynamoDB's: `{"TimeToLiveSpecification": {"Enabled", "AttributeName"}}` and
//! `{"TimeToLiveDescription": {"TimeToLiveStatus", "AttributeName"?}}`, the attribute name absent while
//! TTL is `DISABLED` (DynamoDB Local 3.3.1 answers the same, probed).

use dynomodel::backend::{
    Backend, DescribeTimeToLiveInput, TimeToLiveSpecification, UpdateTimeToLiveInput,
};
use serde_json::{json, Map, Value};

use super::update_table::table_arn;
use super::{Decoder, Members, WireResult};

pub(super) async fn update_time_to_live(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = table_arn(&m, &mut d)?;
    let mut spec = TimeToLiveSpecification::default();
    match m.structure("TimeToLiveSpecification")? {
        Some(s) => {
            match s.boolean("Enabled")? {
                Some(enabled) => spec.enabled = enabled,
                None => d.null(&s.path_of("Enabled")),
            }
            spec.attribute_name = s.required_string("AttributeName", &mut d)?;
        }
        None => d.null(&m.path_of("TimeToLiveSpecification")),
    }
    let input = d.finish(UpdateTimeToLiveInput {
        table_name,
        time_to_live_specification: spec,
    })?;
    let out = backend.update_time_to_live(input).await?;
    let spec = out.time_to_live_specification;
    Ok(json!({
        "TimeToLiveSpecification": {
            "Enabled": spec.enabled,
            "AttributeName": spec.attribute_name,
        }
    }))
}

pub(super) async fn describe_time_to_live(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let table_name = table_arn(&m, &mut d)?;
    let input = d.finish(DescribeTimeToLiveInput { table_name })?;
    let out = backend.describe_time_to_live(input).await?;
    let description = out.time_to_live_description;
    let mut body = Map::new();
    body.insert(
        "TimeToLiveStatus".into(),
        json!(description.time_to_live_status.as_str()),
    );
    if let Some(name) = description.attribute_name {
        body.insert("AttributeName".into(), Value::String(name));
    }
    Ok(json!({ "TimeToLiveDescription": body }))
}
