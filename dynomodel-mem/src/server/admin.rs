//! The admin endpoints, for tests in any language: arm and clear fault rules, move a manual clock.
//! Served under `/_dynomodel/` on the same port as DynamoDB's `POST /`, never on it; enabled by
//! [`Server::bind_mem`](super::Server::bind_mem) (what `dynomodel-mem serve` uses).
//!
//! | request | body | answer |
//! |---|---|---|
//! | `POST /_dynomodel/faults` | a rule (below) | `{"id": N}` |
//! | `GET /_dynomodel/faults` | | `{"rules": [{"id": N, "rule": "PutItem, the 3rd, …", "fired": F}, …]}` (in words) |
//! | `GET /_dynomodel/faults/N` | | `{"id": N, "fired": F}` (how many requests it fired on) |
//! | `DELETE /_dynomodel/faults/N` | | `{"removed": true}` |
//! | `DELETE /_dynomodel/faults` | | `{"cleared": true}` |
//! | `GET /_dynomodel/clock` | | `{"now": "2025-01-01T00:00:00Z"}` |
//! | `POST /_dynomodel/clock/advance` | `{"seconds": N}` | `{"now": …}` (needs `--manual-clock`) |
//!
//! Snapshots, restore, reset and the databases of isolation by access key are in `admin_state.rs`.
//!
//! A rule is a JSON object; every member is optional:
//!
//! ```json
//! {"operation": "PutItem",            // or a list, or "reads", "writes", "any" (the default)
//!  "table": "tweets",
//!  "key": {"id": {"S": "u1"}},         // DynamoDB JSON
//!  "nth": 3,                           // or "times": N, or "probability": 0.1 with "seed": 7
//!  "error": "ProvisionedThroughputExceededException", // or {"code": …, "message": …}
//!  "unprocessed": "half",              // or a count: instead of "error"
//!  "latency_ms": 50,                   // instead of "error"
//!  "timing": "after"}                  // or "before" (the default)
//! ```
//!
//! Errors are `400` (`404` for an unknown path) with `{"message": …}`.
//!
//! # Who may use them
//! They change how the server answers everyone, so they are guarded against what a web page could
//! make a browser send (see `access.rs` for the `Host` check that defeats DNS rebinding):
//! - a `POST` must carry `Content-Type: application/json` (`415` otherwise): a page can send a
//!   cross-site "simple" POST of `text/plain` without asking, but a JSON one only after a CORS
//!   preflight, which the admin endpoints never grant (they send no CORS headers);
//! - with an admin token ([`ServerBuilder::admin_token`](super::ServerBuilder::admin_token), `serve
//!   --admin-token`), every request must carry `Authorization: Bearer TOKEN` (`401` otherwise); a server
//!   bound beyond loopback serves the endpoints only with a token (`404` without one), since anyone on
//!   the network could otherwise arm a rule that fails every request;
//! - at most [`MAX_RULES`] rules are armed at once (`400` beyond), so that a client cannot grow the
//!   list, which every request is matched against, without bound.

use std::time::Duration;

use chrono::SecondsFormat;
use hyper::header::{HeaderMap, AUTHORIZATION, CONTENT_TYPE};
use serde_json::{json, Map, Value};

use super::access::{bearer_matches, is_json};
use super::admin_state::{self, StateAdmin};
use crate::faults::{FaultError, FaultHandle, Operation, Portion, Rule, RuleId};
use crate::{Clock, ManualClock};

/// The most fault rules armed at once through the admin endpoints.
pub(crate) const MAX_RULES: usize = 256;

/// A server's admin endpoints.
#[derive(Debug)]
pub(crate) enum Endpoints {
    /// The server has none: it serves a backend other than the in-memory engine.
    Absent,
    /// Not served: the server listens beyond loopback and was given no token.
    Disabled,
    /// Served; with a token, only to requests that carry it.
    Enabled(Admin, Option<String>),
}

impl Endpoints {
    /// Whether a request with these headers may be served: `Err` with the status and message to answer.
    pub(crate) fn admit(&self, method: &str, headers: &HeaderMap) -> Result<(), (u16, String)> {
        let token =
            match self {
                Endpoints::Absent => {
                    return Err((404, "admin endpoints are not enabled on this server".into()))
                }
                Endpoints::Disabled => return Err((
                    404,
                    "admin endpoints are disabled: this server listens beyond loopback, where it \
                     serves them only with an admin token (--admin-token)"
                        .into(),
                )),
                Endpoints::Enabled(_, token) => token,
            };
        if let Some(token) = token {
            let given = headers.get(AUTHORIZATION).map(|v| v.as_bytes());
            if !bearer_matches(given, token) {
                let message = "admin requests to this server need the header \
                               Authorization: Bearer TOKEN, with the server's admin token";
                return Err((401, message.into()));
            }
        }
        if method == "POST" && !is_json(headers.get(CONTENT_TYPE).map(|v| v.as_bytes())) {
            let message = "admin requests send JSON: their Content-Type must be application/json";
            return Err((415, message.into()));
        }
        Ok(())
    }

    /// Answers an admitted request.
    pub(crate) fn handle(&self, method: &str, path: &str, body: &[u8]) -> (u16, Value) {
        match self {
            Endpoints::Enabled(admin, _) => handle(admin, method, path, body),
            _ => (
                404,
                json!({ "message": "admin endpoints are not enabled on this server" }),
            ),
        }
    }
}

/// What the admin endpoints act on.
#[derive(Debug, Clone)]
pub(crate) struct Admin {
    pub(crate) faults: FaultHandle,
    /// `Some` when the engine runs on this manual clock (else on the system clock).
    pub(crate) clock: Option<ManualClock>,
    /// Snapshots, restore, reset, isolation's databases (`admin_state.rs`).
    pub(crate) state: StateAdmin,
}

/// The prefix of every admin path.
pub(crate) const PREFIX: &str = "/_dynomodel/";

/// Answers one admin request: status and JSON body.
pub(crate) fn handle(admin: &Admin, method: &str, path: &str, body: &[u8]) -> (u16, Value) {
    let rest = path.strip_prefix(PREFIX).unwrap_or("");
    let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
    if let Some(answer) = admin_state::handle(&admin.state, method, &parts, body) {
        return answer;
    }
    match (method, parts.as_slice()) {
        ("POST", ["faults"]) if admin.faults.len() >= MAX_RULES => bad(format!(
            "{MAX_RULES} fault rules are armed, the most this server holds: disarm some first \
             (DELETE /_dynomodel/faults/N, or DELETE /_dynomodel/faults for all)"
        )),
        ("POST", ["faults"]) => match parse_json(body).and_then(|v| rule(&v)) {
            Ok(rule) => (200, json!({ "id": admin.faults.add(rule).0 })),
            Err(message) => bad(message),
        },
        ("GET", ["faults"]) => {
            let rules: Vec<Value> = (admin.faults.armed().iter())
                .map(|a| json!({ "id": a.id.0, "rule": a.rule.to_string(), "fired": a.fired }))
                .collect();
            (200, json!({ "rules": rules }))
        }
        ("DELETE", ["faults"]) => {
            admin.faults.clear();
            (200, json!({ "cleared": true }))
        }
        ("GET" | "DELETE", ["faults", id]) => match id.parse::<u64>() {
            Ok(id) if method == "GET" => (
                200,
                json!({ "id": id, "fired": admin.faults.fired(RuleId(id)) }),
            ),
            Ok(id) => (200, json!({ "removed": admin.faults.remove(RuleId(id)) })),
            Err(_) => bad(format!("invalid rule id {id:?}")),
        },
        ("GET", ["clock"]) => (200, now(admin)),
        ("POST", ["clock", "advance"]) => {
            let Some(clock) = &admin.clock else {
                return bad("the clock is not manual: start the server with --manual-clock".into());
            };
            let seconds = parse_json(body).and_then(|v| {
                v.get("seconds")
                    .and_then(Value::as_f64)
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                    .ok_or_else(|| "expected {\"seconds\": N}, N not negative".to_owned())
            });
            match seconds {
                Ok(by) => {
                    clock.advance(by);
                    (200, now(admin))
                }
                Err(message) => bad(message),
            }
        }
        _ => (
            404,
            json!({ "message": format!("no admin endpoint {method} {path}") }),
        ),
    }
}

fn now(admin: &Admin) -> Value {
    let now = match &admin.clock {
        Some(clock) => clock.now(),
        None => chrono::Utc::now(),
    };
    json!({ "now": now.to_rfc3339_opts(SecondsFormat::Millis, true) })
}

fn bad(message: String) -> (u16, Value) {
    (400, json!({ "message": message }))
}

fn parse_json(body: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(body).map_err(|e| format!("invalid JSON: {e}"))
}

/// A rule from its JSON form (see the module documentation).
pub(crate) fn rule(value: &Value) -> Result<Rule, String> {
    let fields = value.as_object().ok_or("a rule is a JSON object")?;
    const KNOWN: &[&str] = &[
        "operation",
        "table",
        "key",
        "nth",
        "times",
        "every",
        "probability",
        "seed",
        "error",
        "unprocessed",
        "latency_ms",
        "timing",
    ];
    if let Some(unknown) = fields.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(format!("unknown rule member {unknown:?}"));
    }
    let mut rule = operations(fields.get("operation"))?;
    if let Some(table) = fields.get("table") {
        rule = rule.table(table.as_str().ok_or("\"table\" is a string")?);
    }
    if let Some(key) = fields.get("key") {
        let key = key
            .as_object()
            .ok_or("\"key\" is a map of attribute values")?;
        let mut decoder = crate::protocol::Decoder::default();
        let mut parsed = Vec::new();
        for (name, value) in key {
            let value = crate::protocol::parse_attribute_value(value, &mut decoder)
                .map_err(|e| format!("invalid \"key\": {}", fault_message(&e)))?;
            parsed.push((name.clone(), value));
        }
        decoder
            .finish(())
            .map_err(|e| format!("invalid \"key\": {}", fault_message(&e)))?;
        rule = rule.key(parsed);
    }
    rule = counting(fields, rule)?;
    let effects = ["error", "unprocessed", "latency_ms"];
    if effects.iter().filter(|e| fields.contains_key(**e)).count() > 1 {
        return Err("a rule has one of \"error\", \"unprocessed\", \"latency_ms\"".into());
    }
    if let Some(error) = fields.get("error") {
        rule = rule.fail(fault_error(error)?);
    }
    if let Some(portion) = fields.get("unprocessed") {
        rule = rule.unprocessed(match portion {
            Value::String(s) if s == "half" => Portion::Half,
            v => Portion::Count(
                v.as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or("\"unprocessed\" is \"half\" or a count")?,
            ),
        });
    }
    if let Some(ms) = fields.get("latency_ms") {
        let ms = ms.as_u64().ok_or("\"latency_ms\" is a whole number")?;
        rule = rule.latency(Duration::from_millis(ms));
    }
    match fields.get("timing").map(|t| t.as_str()) {
        None | Some(Some("before")) => Ok(rule.before()),
        Some(Some("after")) => Ok(rule.after()),
        Some(_) => Err("\"timing\" is \"before\" or \"after\"".into()),
    }
}

fn operations(value: Option<&Value>) -> Result<Rule, String> {
    let one = |name: &str| {
        Operation::from_name(name).ok_or_else(|| format!("unknown operation {name:?}"))
    };
    match value {
        None => Ok(Rule::any()),
        Some(Value::String(s)) if s == "any" => Ok(Rule::any()),
        Some(Value::String(s)) if s == "reads" => Ok(Rule::reads()),
        Some(Value::String(s)) if s == "writes" => Ok(Rule::writes()),
        Some(Value::String(s)) => Ok(Rule::on(one(s)?)),
        Some(Value::Array(names)) => names
            .iter()
            .map(|n| {
                n.as_str()
                    .ok_or_else(|| "operations are strings".to_owned())
                    .and_then(one)
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Rule::on_any),
        Some(_) => Err("\"operation\" is a name or a list of names".into()),
    }
}

fn counting(fields: &Map<String, Value>, rule: Rule) -> Result<Rule, String> {
    let count = |name: &str| {
        fields
            .get(name)
            .map(|v| v.as_u64().ok_or(format!("\"{name}\" is a whole number")))
            .transpose()
    };
    let (nth, times) = (count("nth")?, count("times")?);
    let probability = fields.get("probability");
    let given = [nth.is_some(), times.is_some(), probability.is_some()];
    if given.iter().filter(|g| **g).count() > 1 {
        return Err("a rule has one of \"nth\", \"times\", \"probability\"".into());
    }
    Ok(match (nth, times, probability) {
        (Some(n), _, _) => rule.nth(n),
        (_, Some(n), _) => rule.times(n),
        (_, _, Some(p)) => {
            let ratio = p
                .as_f64()
                .filter(|p| (0.0..=1.0).contains(p))
                .ok_or("\"probability\" is a number from 0 to 1")?;
            rule.probability(ratio, count("seed")?.unwrap_or(0))
        }
        _ => rule.every(),
    })
}

fn fault_error(value: &Value) -> Result<FaultError, String> {
    match value {
        Value::String(code) => match code.as_str() {
            "ProvisionedThroughputExceededException" | "ProvisionedThroughputExceeded" => {
                Ok(FaultError::ProvisionedThroughputExceeded)
            }
            "ThrottlingException" => Ok(FaultError::Throttling),
            "RequestLimitExceeded" => Ok(FaultError::RequestLimitExceeded),
            "InternalServerError" => Ok(FaultError::InternalServerError),
            "TransactionConflict" | "TransactionConflictException" => {
                Ok(FaultError::TransactionConflict)
            }
            "ConditionalCheckFailed" | "ConditionalCheckFailedException" => {
                Ok(FaultError::ConditionalCheckFailed)
            }
            other => Err(format!(
                "unknown error {other:?}: give {{\"code\": …, \"message\": …}} for any other"
            )),
        },
        Value::Object(fields) => {
            let text = |name: &str| {
                fields
                    .get(name)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .ok_or(format!("\"error\".\"{name}\" is a string"))
            };
            Ok(FaultError::Custom {
                code: text("code")?,
                message: text("message")?,
            })
        }
        _ => Err("\"error\" is a code or {\"code\": …, \"message\": …}".into()),
    }
}

fn fault_message(fault: &crate::protocol::Fault) -> String {
    match fault {
        crate::protocol::Fault::Backend(e) => e.message(),
        crate::protocol::Fault::Serialization(Some(m)) => m.clone(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn rules_parse_from_json() {
        let r = rule(&json!({"operation": "PutItem", "table": "t", "nth": 3, "error": "ThrottlingException", "timing": "after"})).unwrap();
        let want = Rule::on(Operation::PutItem)
            .table("t")
            .nth(3)
            .fail(FaultError::Throttling)
            .after();
        assert_eq!(r, want);
        let r = rule(&json!({"operation": ["BatchWriteItem"], "unprocessed": "half"})).unwrap();
        assert_eq!(
            r,
            Rule::on_any([Operation::BatchWriteItem]).unprocessed(Portion::Half)
        );
        let r = rule(&json!({"operation": "reads", "probability": 0.1, "seed": 7, "key": {"id": {"S": "a"}}})).unwrap();
        assert_eq!(
            r,
            Rule::reads()
                .probability(0.1, 7)
                .key([("id", dynomodel::AttributeValue::S("a".into()))])
        );
        assert_eq!(rule(&json!({})).unwrap(), Rule::any());
    }

    #[test]
    fn bad_rules_say_why() {
        for (body, message) in [
            (json!([]), "a rule is a JSON object"),
            (
                json!({"operation": "CreateTable"}),
                "unknown operation \"CreateTable\"",
            ),
            (
                json!({"nth": 1, "times": 2}),
                "a rule has one of \"nth\", \"times\", \"probability\"",
            ),
            (
                json!({"error": "Nope"}),
                "unknown error \"Nope\": give {\"code\": …, \"message\": …} for any other",
            ),
            (
                json!({"probability": 2}),
                "\"probability\" is a number from 0 to 1",
            ),
            (
                json!({"timing": "during"}),
                "\"timing\" is \"before\" or \"after\"",
            ),
            (json!({"colour": 1}), "unknown rule member \"colour\""),
            (
                json!({"error": "ThrottlingException", "latency_ms": 5}),
                "a rule has one of \"error\", \"unprocessed\", \"latency_ms\"",
            ),
        ] {
            assert_eq!(rule(&body).unwrap_err(), message, "{body}");
        }
        assert!(rule(&json!({"key": {"id": {"Q": "a"}}}))
            .unwrap_err()
            .starts_with("invalid \"key\""));
    }
}
