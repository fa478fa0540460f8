//! The admin endpoints of the engine's state (served as the others, `admin.rs`, with the same
//! guards): named snapshots, restore, reset, and the databases of isolation by access key
//! (`isolation.rs`).
//!
//! | request | body | answer |
//! |---|---|---|
//! | `POST /_dynomodel/snapshots` | `{"name": "S"}` | `{"name": "S"}` (replaces a snapshot of that name) |
//! | `GET /_dynomodel/snapshots` | | `{"snapshots": ["S", …]}` |
//! | `DELETE /_dynomodel/snapshots/S` | | `{"removed": true}` |
//! | `POST /_dynomodel/snapshots/S/restore` | `{}` | `{"restored": "S"}` |
//! | `POST /_dynomodel/reset` | `{}` | `{"reset": true}` (no tables) |
//! | `POST /_dynomodel/settle` | `{}` | `{"settled": N}` (engines settled: `MemBackend::settle`) |
//! | `GET /_dynomodel/databases` | | `{"access_keys": [...], "max": N}` (isolation only) |
//! | `DELETE /_dynomodel/databases` | | `{"dropped": N}` (every key's; `…/databases/KEY`: one) |
//!
//! Snapshot, restore and reset act on the served engine (with isolation, the seed that new keys'
//! databases fork from), or on one key's database when the body names it: `{"access_key":
//! "AKID"}`. Settle (eventual consistency on demand, `serve --eventual-consistency`) makes every
//! pending change visible in the served engine and, with isolation, in every key's database, or
//! only in the database the body names. A snapshot taken from one database can be restored into any other. At most
//! [`MAX_SNAPSHOTS`] are kept (`400` beyond: delete some); a restore or reset of a durable engine
//! is refused (`409`), since its log would not know of it (`crate::fork`).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{json, Value};

use super::isolation::Isolation;
use crate::fork::Snapshot;
use crate::MemBackend;

/// The most named snapshots a server keeps.
pub(crate) const MAX_SNAPSHOTS: usize = 64;

/// What the state endpoints act on.
#[derive(Debug, Clone)]
pub(crate) struct StateAdmin {
    /// The served engine (with isolation: the seed).
    pub(crate) engine: MemBackend,
    /// The named snapshots.
    pub(crate) snapshots: Arc<Mutex<BTreeMap<String, Snapshot>>>,
    /// The databases by access key, when the server isolates them.
    pub(crate) isolation: Option<Arc<Isolation>>,
}

impl StateAdmin {
    /// The endpoints over `engine`.
    pub(crate) fn new(engine: MemBackend, isolation: Option<Arc<Isolation>>) -> StateAdmin {
        StateAdmin {
            engine,
            snapshots: Arc::default(),
            isolation,
        }
    }
}

/// Answers a request for a state endpoint, or `None` when `parts` names none.
pub(crate) fn handle(
    admin: &StateAdmin,
    method: &str,
    parts: &[&str],
    body: &[u8],
) -> Option<(u16, Value)> {
    let answer = match (method, parts) {
        ("POST", ["snapshots"]) => take(admin, body),
        ("GET", ["snapshots"]) => {
            let names: Vec<String> = lock(admin).keys().cloned().collect();
            Ok(json!({ "snapshots": names }))
        }
        ("DELETE", ["snapshots", name]) => {
            Ok(json!({ "removed": lock(admin).remove(*name).is_some() }))
        }
        ("POST", ["snapshots", name, "restore"]) => restore(admin, name, body),
        ("POST", ["reset"]) => target(admin, body).and_then(|db| {
            db.reset().map_err(|e| (409, e.message()))?;
            Ok(json!({ "reset": true }))
        }),
        ("POST", ["settle"]) => settle(admin, body),
        ("GET", ["databases"]) => {
            isolation(admin).map(|i| json!({ "access_keys": i.keys(), "max": i.max() }))
        }
        ("DELETE", ["databases"]) => {
            isolation(admin).map(|i| json!({ "dropped": i.drop_databases(None) }))
        }
        ("DELETE", ["databases", key]) => {
            isolation(admin).map(|i| json!({ "dropped": i.drop_databases(Some(key)) }))
        }
        _ => return None,
    };
    Some(match answer {
        Ok(value) => (200, value),
        Err((status, message)) => (status, json!({ "message": message })),
    })
}

type Answer = Result<Value, (u16, String)>;

fn lock(admin: &StateAdmin) -> std::sync::MutexGuard<'_, BTreeMap<String, Snapshot>> {
    admin
        .snapshots
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

fn isolation(admin: &StateAdmin) -> Result<&Isolation, (u16, String)> {
    admin.isolation.as_deref().ok_or_else(|| {
        let message = "this server does not isolate access keys (start it with --isolate)";
        (400, message.to_owned())
    })
}

/// The body's members (an empty body is `{}`).
fn members(body: &[u8]) -> Result<serde_json::Map<String, Value>, (u16, String)> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(serde_json::Map::new());
    }
    match serde_json::from_slice(body) {
        Ok(Value::Object(members)) => Ok(members),
        Ok(_) => Err((400, "the body is a JSON object".to_owned())),
        Err(e) => Err((400, format!("invalid JSON: {e}"))),
    }
}

/// The database the body names (`access_key`), or the served engine.
fn target(admin: &StateAdmin, body: &[u8]) -> Result<MemBackend, (u16, String)> {
    match members(body)?.get("access_key") {
        None => Ok(admin.engine.clone()),
        Some(Value::String(key)) => isolation(admin)?
            .database(key)
            .map(|database| MemBackend::clone(&database))
            .map_err(|full| (400, full.message())),
        Some(_) => Err((400, "access_key is a string".to_owned())),
    }
}

/// `POST /_dynomodel/settle`: the database the body names, or every engine the server holds.
fn settle(admin: &StateAdmin, body: &[u8]) -> Answer {
    if members(body)?.contains_key("access_key") {
        target(admin, body)?.settle();
        return Ok(json!({ "settled": 1 }));
    }
    admin.engine.settle();
    let databases = admin
        .isolation
        .as_deref()
        .map(Isolation::databases)
        .unwrap_or_default();
    databases.iter().for_each(|database| database.settle());
    Ok(json!({ "settled": 1 + databases.len() }))
}

/// `POST /_dynomodel/snapshots`.
fn take(admin: &StateAdmin, body: &[u8]) -> Answer {
    let name = match members(body)?.get("name") {
        Some(Value::String(name)) if valid_name(name) => name.clone(),
        _ => {
            let message = "expected {\"name\": \"S\"}: 1 to 255 letters, digits, '_', '-' or '.'";
            return Err((400, message.to_owned()));
        }
    };
    let database = target(admin, body)?;
    let mut snapshots = lock(admin);
    if !snapshots.contains_key(&name) && snapshots.len() >= MAX_SNAPSHOTS {
        return Err((
            400,
            format!(
                "{MAX_SNAPSHOTS} snapshots are kept, the most this server holds: delete some \
                 first (DELETE /_dynomodel/snapshots/NAME)"
            ),
        ));
    }
    snapshots.insert(name.clone(), database.snapshot());
    Ok(json!({ "name": name }))
}

/// `POST /_dynomodel/snapshots/S/restore`.
fn restore(admin: &StateAdmin, name: &str, body: &[u8]) -> Answer {
    let database = target(admin, body)?;
    let Some(snapshot) = lock(admin).get(name).cloned() else {
        return Err((404, format!("no snapshot named {name:?}")));
    };
    database
        .restore(&snapshot)
        .map_err(|e| (409, e.message()))?;
    Ok(json!({ "restored": name }))
}

/// A snapshot's name: what a path segment holds without escaping.
fn valid_name(name: &str) -> bool {
    (1..=255).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
}
