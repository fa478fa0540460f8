//! TagResource, UntagResource and ListTagsOfResource on the wire.
//!
//! The service answers a request without `ResourceArn` with "Invalid TableArn" (a
//! `ValidationException`, recorded in dynalite's `test/tagResource.js`, `untagResource.js` and
//! `listTagsOfResource.js`), not with a null constraint, and an empty one with an IAM
//! `AccessDeniedException` rather than the model's length constraint: so `ResourceArn` gets no
//! constraint check here, and whether an ARN names a table is the backend's question. `Tags` and
//! `TagKeys` missing, and a tag without `Key` or `Value`, are null constraints (after the ARN's
//! absence); the keys' and values' lengths and characters, the `aws:` prefix and the 50-tag limit are
//! the backend's checks (see [`tag`]).

use dynomodel::backend::{Backend, ListTagsOfResourceInput, TagResourceInput, UntagResourceInput};
use dynomodel::Error;
use serde_json::{json, Map, Value};

use super::table::tag;
use super::{types, Decoder, Members, WireResult};

/// DynamoDB's message for a tag operation without `ResourceArn`.
pub(super) const NO_ARN: &str = "Invalid TableArn";

/// The `ResourceArn` member (`None` when absent: see [`finish`]).
fn resource_arn(m: &Members<'_>) -> WireResult<Option<String>> {
    m.string("ResourceArn")
}

/// The request, once every member was type-checked: without `ResourceArn` it is DynamoDB's "Invalid
/// TableArn", even when other members break constraints (the recorded `{}` of TagResource has no
/// `Tags` either); else the constraints' verdict.
fn finish<T>(arn: Option<String>, d: Decoder, input: impl FnOnce(String) -> T) -> WireResult<T> {
    match arn {
        Some(arn) => d.finish(input(arn)),
        None => Err(Error::validation(NO_ARN).into()),
    }
}

/// TagResource: its answer has no body (nor has UntagResource's), as DynamoDB's.
pub(super) async fn tag_resource(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<()> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let arn = resource_arn(&m)?;
    let tags = match m.each("Tags", &mut d, tag)? {
        Some(tags) => tags,
        None => {
            d.null(&m.path_of("Tags"));
            Vec::new()
        }
    };
    let input = finish(arn, d, |resource_arn| TagResourceInput {
        resource_arn,
        tags,
    })?;
    backend.tag_resource(input).await?;
    Ok(())
}

pub(super) async fn untag_resource(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<()> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    let arn = resource_arn(&m)?;
    let tag_keys = match m.list("TagKeys")? {
        Some(keys) => {
            let path = m.path_of("TagKeys");
            let mut out = Vec::with_capacity(keys.len());
            for (i, key) in keys.iter().enumerate() {
                let at = format!("{path}.{}.member", i + 1);
                if key.is_null() {
                    d.null(&at);
                    continue;
                }
                out.push(types::string(key)?);
            }
            out
        }
        None => {
            d.null(&m.path_of("TagKeys"));
            Vec::new()
        }
    };
    let input = finish(arn, d, |resource_arn| UntagResourceInput {
        resource_arn,
        tag_keys,
    })?;
    backend.untag_resource(input).await?;
    Ok(())
}

pub(super) async fn list_tags_of_resource(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let d = Decoder::default();
    let arn = resource_arn(&m)?;
    let next_token = m.string("NextToken")?;
    let input = finish(arn, d, |resource_arn| ListTagsOfResourceInput {
        resource_arn,
        next_token,
    })?;
    let out = backend.list_tags_of_resource(input).await?;
    let tags: Vec<Value> = out
        .tags
        .iter()
        .map(|t| json!({ "Key": t.key, "Value": t.value }))
        .collect();
    // `Tags` is always present, `[]` for none (dynalite's recording: `{"Tags": []}`).
    let mut body = Map::new();
    body.insert("Tags".into(), Value::Array(tags));
    if let Some(token) = out.next_token {
        body.insert("NextToken".into(), Value::String(token));
    }
    Ok(Value::Object(body))
}
