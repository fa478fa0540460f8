//! Snapshots: the engine's state written out whole, so that recovery replays only the log written
//! since, and the log can be dropped.
//!
//! A snapshot is a sequence of frames ([`super::frame`]) of JSON: a header (the format, and the
//! sequence number of the last log record it holds), then per table its
//! definition (as the `CreateTable` request that recreates it, plus what `CreateTable` cannot say: its
//! table id, TTL setting, stream settings and streams), then its items in chunks, then the streams of
//! deleted tables, the transactions' tokens, and an end frame with the totals. A snapshot without its
//! end frame is not a snapshot.
//!
//! What a snapshot keeps: table definitions (current indexes, billing, class, deletion protection),
//! table ids and ARNs, tags, TTL settings, items (indexes and item-collection sizes are rebuilt from
//! them), every stream with its shards and retained records (`streams.rs`; those of deleted tables
//! too), the stream sequence counter and the transactions' tokens. What it does not keep (format 1):
//! capacity-change history (`NumberOfDecreasesToday`), changes still in progress (a table, index or TTL
//! change that had not settled counts as settled), and tables still being deleted (their streams go
//! on as deleted tables' streams).

use std::io::{self, BufWriter, Write};
use std::sync::RwLockReadGuard;

use chrono::{DateTime, Utc};
use dynomodel::backend::{CreateTableInput, Tag};
use serde_json::{json, Value};

use super::clock::Pin;
use super::codec::{Reader, Writer};
use super::frame::{self, Frames};
use super::record::{time_from, time_to};
use super::report::SnapshotError;
use super::streams;
use super::{dir::FORMAT_VERSION, Damage};
use crate::protocol::records as codec;
use crate::storage::state::State;
use crate::storage::stream::Stream;
use crate::storage::table::Table;
use crate::MemBackend;

/// Items per frame.
const CHUNK: usize = 1000;

/// The first byte of an items frame.
const ITEMS: u8 = 0;

/// Totals of a snapshot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    pub tables: u64,
    pub items: u64,
    /// The sequence number of the last log record it holds (0 in format 1, which had none).
    pub last: u64,
}

fn put(w: &mut impl Write, v: &Value) -> io::Result<()> {
    let payload = serde_json::to_vec(v).map_err(io::Error::other)?;
    frame::write(w, &payload).map(|_| ())
}

/// Writes `state`, whose every table is held in `tables` ([`State::read_all`]), to `w` as a snapshot
/// taken at `at`, holding every log record up to `last`.
pub(crate) fn write(
    state: &State,
    tables: &[RwLockReadGuard<'_, Table>],
    at: DateTime<Utc>,
    last: u64,
    w: impl Write,
) -> io::Result<Totals> {
    let mut w = BufWriter::with_capacity(1 << 20, w);
    put(
        &mut w,
        &json!({"snapshot": {
            "format": FORMAT_VERSION,
            "at": time_to(&at),
            "created": state.created_count(),
            "sequence": state.last_sequence(),
            "last": last,
        }}),
    )?;
    let mut totals = Totals {
        last,
        ..Totals::default()
    };
    for table in tables {
        if table.lifecycle.deleted.is_some() {
            // Being deleted: gone after the snapshot, its streams kept as a deleted table's.
            for stream in table.streams() {
                put(&mut w, &json!({"retired": streams::stream_json(stream)}))?;
            }
            continue;
        }
        let s = &table.schema;
        let create = CreateTableInput {
            table_name: s.name.clone(),
            attribute_definitions: s.attribute_definitions.clone(),
            key_schema: s.key_schema.clone(),
            billing_mode: s.billing_mode,
            provisioned_throughput: s.provisioned_throughput,
            local_secondary_indexes: s.local_secondary_indexes.clone(),
            global_secondary_indexes: s.global_secondary_indexes.clone(),
            stream_specification: None,
            table_class: s.table_class,
            deletion_protection_enabled: Some(s.deletion_protection_enabled),
            tags: table.tags().iter().map(|(k, v)| Tag::new(k, v)).collect(),
        };
        let ttl = match (table.ttl().enabled_attribute(), table.ttl().changed_at()) {
            (Some(attribute), Some(changed)) => json!([attribute, time_to(&changed)]),
            _ => Value::Null,
        };
        let spec = s.stream_specification.map_or(Value::Null, |spec| {
            json!([
                spec.stream_enabled,
                spec.stream_view_type.map(|v| v.as_str())
            ])
        });
        let streams: Vec<Value> = table.streams().iter().map(streams::stream_json).collect();
        let latest = table
            .lifecycle
            .latest_stream
            .as_ref()
            .map_or(Value::Null, |(arn, label)| json!([arn, label]));
        put(
            &mut w,
            &json!({"table": {
                "create": codec::create_table_json(&create),
                "created": time_to(&s.created),
                "id": s.table_id,
                "ttl": ttl,
                "streamSpecification": spec,
                "latest": latest,
                "streams": streams,
            }}),
        )?;
        totals.tables += 1;
        // Items in binary frames (`codec.rs`): a zero byte (JSON frames start with `{`), the
        // table's name, a count, then keys and items.
        let mut frame = Vec::new();
        let mut in_frame = 0;
        let flush = |w: &mut BufWriter<_>, frame: &mut Vec<u8>, in_frame: &mut usize| {
            let mut payload = Vec::with_capacity(frame.len() + s.name.len() + 9);
            let mut p = Writer(&mut payload);
            p.u8(ITEMS);
            p.str(&s.name);
            p.u32(*in_frame);
            payload.extend_from_slice(frame);
            frame.clear();
            *in_frame = 0;
            frame::write(w, &payload).map(|_| ())
        };
        for ((_, hash), partition) in table.partitions() {
            for (range, item) in partition {
                let key = crate::storage::key::PrimaryKey {
                    hash: hash.clone(),
                    range: range.clone(),
                };
                let mut f = Writer(&mut frame);
                f.key(&key);
                f.item(&item.decode());
                in_frame += 1;
                totals.items += 1;
                if in_frame == CHUNK {
                    flush(&mut w, &mut frame, &mut in_frame)?;
                }
            }
        }
        if in_frame > 0 {
            flush(&mut w, &mut frame, &mut in_frame)?;
        }
    }
    for stream in state.retired_streams() {
        put(&mut w, &json!({"retired": streams::stream_json(stream)}))?;
    }
    let held = state.tokens();
    let mut tokens: Vec<_> = held.entries().collect();
    tokens.sort_by_key(|(_, _, at)| *at);
    for (token, actions, recorded) in tokens {
        put(
            &mut w,
            &json!({"token": [token, codec::write_actions_json(actions), time_to(&recorded)]}),
        )?;
    }
    put(
        &mut w,
        &json!({"end": {"tables": totals.tables, "items": totals.items}}),
    )?;
    w.flush()?;
    Ok(totals)
}

/// Loads the snapshot in `bytes` into the empty engine `backend`, whose clock `pin` pins.
pub(crate) fn restore(
    backend: &MemBackend,
    pin: &Pin,
    bytes: &[u8],
) -> Result<Totals, SnapshotError> {
    let mut frames = Frames::new(bytes);
    let mut totals = Totals::default();
    let mut header: Option<(u64, u64)> = None;
    let mut ended = false;
    let mut pending = Vec::new();
    let bad = |offset: usize, damage: Damage| SnapshotError {
        offset: offset as u64,
        damage,
    };
    loop {
        let offset = frames.offset();
        let Some(payload) = frames.next() else {
            if let Some(damage) = frames.damage() {
                return Err(bad(frames.offset(), damage));
            }
            break;
        };
        if ended {
            return Err(bad(offset, Damage::Undecodable));
        }
        if payload.first() == Some(&ITEMS) && header.is_some() {
            restore_items(backend, payload, &mut totals)
                .ok_or_else(|| bad(offset, Damage::Undecodable))?;
            continue;
        }
        let v: Value =
            serde_json::from_slice(payload).map_err(|_| bad(offset, Damage::Undecodable))?;
        let applied = match v.as_object().and_then(|o| o.iter().next()) {
            Some((tag, body)) if tag == "snapshot" && header.is_none() => {
                let format = body.get("format").and_then(Value::as_u64);
                let created = body.get("created").and_then(Value::as_u64);
                let sequence = body.get("sequence").and_then(Value::as_u64);
                let last = body.get("last").and_then(Value::as_u64);
                match (format, created, sequence, last) {
                    (Some(1), Some(c), Some(s), None) | (Some(2), Some(c), Some(s), Some(_)) => {
                        totals.last = last.unwrap_or(0);
                        header = Some((c, s));
                        Some(())
                    }
                    _ => None,
                }
            }
            Some((tag, body)) if tag == "table" && header.is_some() => {
                totals.tables += 1;
                restore_table(backend, pin, body, &mut pending)
            }
            Some((tag, body)) if tag == "token" && header.is_some() => restore_token(backend, body),
            Some((tag, body)) if tag == "retired" && header.is_some() => {
                let mut state = backend.write();
                let context = state.stream_context();
                streams::stream_from(body, context).map(|s| state.retire_stream(s))
            }
            Some((tag, body)) if tag == "end" && header.is_some() => {
                ended = true;
                let tables = body.get("tables").and_then(Value::as_u64);
                let items = body.get("items").and_then(Value::as_u64);
                (tables == Some(totals.tables) && items == Some(totals.items)).then_some(())
            }
            _ => None,
        };
        applied.ok_or_else(|| bad(offset, Damage::Undecodable))?;
    }
    let (Some((created, sequence)), true) = (header, ended) else {
        return Err(bad(frames.offset(), Damage::Truncated));
    };
    let mut state = backend.write();
    state.set_created_count(created);
    state.set_last_sequence(sequence);
    // The streams join their tables once the items are in (loading them recorded nothing).
    for (name, stream) in pending {
        if let Some(table) = state.table_for_replay(&name) {
            table.start_stream(stream);
        }
    }
    Ok(totals)
}

/// Recreates one table (without its items); its streams are added to `pending`.
fn restore_table(
    backend: &MemBackend,
    pin: &Pin,
    body: &Value,
    pending: &mut Vec<(String, Stream)>,
) -> Option<()> {
    let create = body.get("create")?;
    let name = create.get("TableName")?.as_str()?.to_owned();
    let created = time_from(body.get("created")?)?;
    let id = body.get("id")?.as_str()?.to_owned();
    pin.set(created);
    let request = serde_json::to_vec(create).ok()?;
    let ran = super::recover::ready(crate::protocol::call(backend, "CreateTable", &request));
    pin.clear();
    ran.ok()?;
    if let Some(ttl) = body.get("ttl").and_then(Value::as_array) {
        let attribute = ttl.first()?.as_str()?;
        pin.set(time_from(ttl.get(1)?)?);
        let request = json!({
            "TableName": name,
            "TimeToLiveSpecification": {"Enabled": true, "AttributeName": attribute},
        });
        let request = serde_json::to_vec(&request).ok()?;
        let ran =
            super::recover::ready(crate::protocol::call(backend, "UpdateTimeToLive", &request));
        pin.clear();
        ran.ok()?;
    }
    let mut state = backend.write();
    let context = state.stream_context();
    let table = state.table_for_replay(&name)?;
    table.schema.table_id = id;
    if let Some(latest) = body.get("latest").and_then(Value::as_array) {
        let arn = latest.first()?.as_str()?.to_owned();
        let label = latest.get(1)?.as_str()?.to_owned();
        table.lifecycle.latest_stream = Some((arn, label));
    }
    if let Some(spec) = body.get("streamSpecification").and_then(Value::as_array) {
        let enabled = spec.first()?.as_bool()?;
        let view = match spec.get(1)? {
            Value::Null => None,
            v => Some(
                [
                    dynomodel::backend::StreamViewType::KeysOnly,
                    dynomodel::backend::StreamViewType::NewImage,
                    dynomodel::backend::StreamViewType::OldImage,
                    dynomodel::backend::StreamViewType::NewAndOldImages,
                ]
                .into_iter()
                .find(|t| Some(t.as_str()) == v.as_str())?,
            ),
        };
        table.schema.stream_specification = Some(dynomodel::backend::StreamSpecification {
            stream_enabled: enabled,
            stream_view_type: view,
        });
    }
    for stream in body.get("streams")?.as_array()? {
        pending.push((name.clone(), streams::stream_from(stream, context.clone())?));
    }
    Some(())
}

/// Loads a binary items frame (see [`write`]).
fn restore_items(backend: &MemBackend, payload: &[u8], totals: &mut Totals) -> Option<()> {
    let mut r = Reader::new(payload);
    if r.u8()? != ITEMS {
        return None;
    }
    let name = r.string()?;
    let count = r.u32()?;
    let mut state = backend.write();
    let table = state.table_for_replay(&name)?;
    for _ in 0..count {
        let key = r.key()?;
        let item = r.item()?;
        table.put(key, item);
        totals.items += 1;
    }
    r.is_empty().then_some(())
}

fn restore_token(backend: &MemBackend, body: &Value) -> Option<()> {
    let body = body.as_array()?;
    let token = body.first()?.as_str()?;
    let actions = codec::decode_write_actions(body.get(1)?)?;
    let at = time_from(body.get(2)?)?;
    backend.write().tokens_mut().record(token, &actions, at);
    Some(())
}
