//! Streams in snapshots: every stream of a table (and of deleted tables, until their records age out)
//! with its shards and retained records, so that a reader's sequence numbers and iterators go on
//! working across a snapshot and a restart.

use std::collections::VecDeque;

use serde_json::{json, Value};

use super::record::{time_from, time_to};
use crate::protocol::records as codec;
use crate::storage::lifecycle::Transition;
use crate::storage::stream::shard::{Shard, Stored};
use crate::storage::stream::{Stream, StreamContext, StreamOrigin};

fn transition_json(t: &Transition) -> Value {
    json!([time_to(&t.started), time_to(&t.until), t.generation])
}

fn transition_from(v: &Value) -> Option<Transition> {
    let a = v.as_array()?;
    Some(Transition {
        started: time_from(a.first()?)?,
        until: time_from(a.get(1)?)?,
        generation: a.get(2)?.as_u64()?,
    })
}

fn key_schema_json(k: &[dynomodel::backend::KeySchemaElement]) -> Value {
    k.iter()
        .map(|e| json!([e.attribute_name, e.key_type.as_str()]))
        .collect()
}

fn key_schema_from(v: &Value) -> Option<Vec<dynomodel::backend::KeySchemaElement>> {
    v.as_array()?
        .iter()
        .map(|e| {
            let name = e.get(0)?.as_str()?;
            match e.get(1)?.as_str()? {
                "HASH" => Some(dynomodel::backend::KeySchemaElement::hash(name)),
                "RANGE" => Some(dynomodel::backend::KeySchemaElement::range(name)),
                _ => None,
            }
        })
        .collect()
}

fn optional_time(t: Option<&chrono::DateTime<chrono::Utc>>) -> Value {
    t.map_or(Value::Null, time_to)
}

fn shard_json(s: &Shard) -> Value {
    let records: Vec<Value> = s
        .records
        .iter()
        .map(|r| {
            json!([
                r.sequence,
                time_to(&r.at),
                codec::stream_record_json(&r.record)
            ])
        })
        .collect();
    json!({
        "id": s.id,
        "parent": s.parent,
        "opened": time_to(&s.opened),
        "start": s.start,
        "end": s.end,
        "closedAt": optional_time(s.closed_at.as_ref()),
        "trimmedTo": s.trimmed_to,
        "lastRecord": s.last_record(),
        "records": records,
    })
}

fn shard_from(v: &Value) -> Option<Shard> {
    let mut records = VecDeque::new();
    for r in v.get("records")?.as_array()? {
        records.push_back(Stored {
            sequence: r.get(0)?.as_u64()?,
            at: time_from(r.get(1)?)?,
            record: codec::stream_record_from_json(r.get(2)?)?,
        });
    }
    let optional_u64 = |name: &str| match v.get(name)? {
        Value::Null => Some(None),
        n => n.as_u64().map(Some),
    };
    let mut shard = Shard::open("", chrono::DateTime::UNIX_EPOCH, 0, None);
    shard.id = v.get("id")?.as_str()?.to_owned();
    shard.parent = match v.get("parent")? {
        Value::Null => None,
        p => Some(p.as_str()?.to_owned()),
    };
    shard.opened = time_from(v.get("opened")?)?;
    shard.start = v.get("start")?.as_u64()?;
    shard.end = optional_u64("end")?;
    shard.closed_at = match v.get("closedAt")? {
        Value::Null => None,
        t => Some(time_from(t)?),
    };
    shard.records = records;
    shard.trimmed_to = v.get("trimmedTo")?.as_u64()?;
    shard.set_last_record(optional_u64("lastRecord")?);
    Some(shard)
}

/// A stream as a snapshot keeps it.
pub(crate) fn stream_json(s: &Stream) -> Value {
    let o = &s.origin;
    json!({
        "arn": o.arn,
        "label": o.label,
        "table": o.table_name,
        "keySchema": key_schema_json(&o.key_schema),
        "view": o.view_type.as_str(),
        "enabled": transition_json(&s.enabled),
        "disabled": s.disabled.as_ref().map_or(Value::Null, transition_json),
        "shards": s.shards.iter().map(shard_json).collect::<Vec<_>>(),
    })
}

/// A stream written by [`stream_json`], recording through `context`.
pub(crate) fn stream_from(v: &Value, context: StreamContext) -> Option<Stream> {
    let view = v.get("view")?.as_str()?;
    let view_type = [
        dynomodel::backend::StreamViewType::KeysOnly,
        dynomodel::backend::StreamViewType::NewImage,
        dynomodel::backend::StreamViewType::OldImage,
        dynomodel::backend::StreamViewType::NewAndOldImages,
    ]
    .into_iter()
    .find(|t| t.as_str() == view)?;
    let origin = StreamOrigin {
        arn: v.get("arn")?.as_str()?.to_owned(),
        label: v.get("label")?.as_str()?.to_owned(),
        table_name: v.get("table")?.as_str()?.to_owned(),
        key_schema: key_schema_from(v.get("keySchema")?)?,
        view_type,
    };
    let disabled = match v.get("disabled")? {
        Value::Null => None,
        t => Some(transition_from(t)?),
    };
    let shards = v
        .get("shards")?
        .as_array()?
        .iter()
        .map(shard_from)
        .collect::<Option<Vec<_>>>()?;
    Some(Stream::restored(
        origin,
        transition_from(v.get("enabled")?)?,
        disabled,
        shards,
        context,
    ))
}
