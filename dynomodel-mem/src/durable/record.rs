//! One log record: what one acknowledged write request did, and when.
//!
//! A record is JSON (the DynamoDB JSON of items and keys, the server's own codec), framed and
//! checksummed by [`super::frame`]:
//!
//! ```text
//! {"t": [secs, nanos],                       the engine's time when the request ran
//!  "c": ["CreateTable", {…request…}],        a table operation, replayed through the server's decoder
//!  "e": [{"p": [table, key, item]},          effects on items, in the order they were applied:
//!        {"d": [table, key]},                  put, delete, TTL deletion (as the service),
//!        {"x": [table, key]},
//!        {"k": [token, TransactItems]}]}      a transaction's ClientRequestToken
//! ```
//!
//! A key is `[hash, range]` (attribute values, `range` null for a hash-only table).

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use crate::durable::journal::Effect;
use crate::key::{KeyValue, PrimaryKey};
use crate::server::wire::records as codec;
use crate::server::wire::{attribute_value_to_json, item_to_json};

/// What one request did.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Record {
    /// The engine's time while it ran (replay runs at the same time).
    pub at: DateTime<Utc>,
    /// A table operation (its name and request), if it was one.
    pub command: Option<(String, Value)>,
    /// Its effects on items and tokens, in order.
    pub effects: Vec<Effect>,
}

fn time_json(t: &DateTime<Utc>) -> Value {
    json!([t.timestamp(), t.timestamp_subsec_nanos()])
}

/// A time written by [`time_json`].
pub(crate) fn time_from(v: &Value) -> Option<DateTime<Utc>> {
    let a = v.as_array()?;
    let secs = a.first()?.as_i64()?;
    let nanos = u32::try_from(a.get(1)?.as_u64()?).ok()?;
    DateTime::from_timestamp(secs, nanos)
}

/// A time as JSON (for snapshots too).
pub(crate) fn time_to(t: &DateTime<Utc>) -> Value {
    time_json(t)
}

/// A key as JSON.
pub(crate) fn key_json(key: &PrimaryKey) -> Value {
    let range = key
        .range
        .as_ref()
        .map_or(Value::Null, |r| attribute_value_to_json(&r.to_attribute()));
    json!([attribute_value_to_json(&key.hash.to_attribute()), range])
}

fn key_value(v: &Value) -> Option<KeyValue> {
    use dynomodel::AttributeValue as A;
    match codec::attribute_value_from_json(v)? {
        A::S(s) => Some(KeyValue::S(s)),
        A::N(n) => Some(KeyValue::N(n)),
        A::B(b) => Some(KeyValue::B(b)),
        _ => None,
    }
}

/// A key written by [`key_json`].
pub(crate) fn key_from(v: &Value) -> Option<PrimaryKey> {
    let a = v.as_array()?;
    let hash = key_value(a.first()?)?;
    let range = match a.get(1)? {
        Value::Null => None,
        r => Some(key_value(r)?),
    };
    Some(PrimaryKey { hash, range })
}

fn effect_json(e: &Effect) -> Value {
    match e {
        Effect::Put { table, key, item } => {
            json!({"p": [table, key_json(key), item_to_json(item)]})
        }
        Effect::Delete { table, key } => json!({"d": [table, key_json(key)]}),
        Effect::Expire { table, key } => json!({"x": [table, key_json(key)]}),
        Effect::Token { token, actions } => {
            json!({"k": [token, codec::write_actions_json(actions)]})
        }
    }
}

fn effect_from(v: &Value) -> Option<Effect> {
    let (tag, body) = v.as_object()?.iter().next()?;
    let a = body.as_array()?;
    let table = || a.first().and_then(Value::as_str).map(str::to_owned);
    let key = || a.get(1).and_then(key_from);
    Some(match tag.as_str() {
        "p" => Effect::Put {
            table: table()?,
            key: key()?,
            item: codec::item_from_json(a.get(2)?)?,
        },
        "d" => Effect::Delete {
            table: table()?,
            key: key()?,
        },
        "x" => Effect::Expire {
            table: table()?,
            key: key()?,
        },
        "k" => Effect::Token {
            token: table()?,
            actions: codec::decode_write_actions(a.get(1)?)?,
        },
        _ => return None,
    })
}

impl Record {
    /// The record as the log stores it (before framing).
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut m = serde_json::Map::new();
        m.insert("t".into(), time_json(&self.at));
        if let Some((op, body)) = &self.command {
            m.insert("c".into(), json!([op, body]));
        }
        if !self.effects.is_empty() {
            let effects = self.effects.iter().map(effect_json).collect();
            m.insert("e".into(), Value::Array(effects));
        }
        serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
    }

    /// A record written by [`Record::to_bytes`], or `None` for anything else.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Record> {
        let v: Value = serde_json::from_slice(bytes).ok()?;
        let at = time_from(v.get("t")?)?;
        let command = match v.get("c") {
            None => None,
            Some(c) => {
                let c = c.as_array()?;
                Some((c.first()?.as_str()?.to_owned(), c.get(1)?.clone()))
            }
        };
        let effects = match v.get("e") {
            None => Vec::new(),
            Some(e) => e
                .as_array()?
                .iter()
                .map(effect_from)
                .collect::<Option<_>>()?,
        };
        Some(Record {
            at,
            command,
            effects,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynomodel::{AttributeValue, TransactDelete, TransactWriteItem};

    #[test]
    fn records_round_trip() {
        let key = PrimaryKey {
            hash: KeyValue::S("a".into()),
            range: Some(KeyValue::N(7.into())),
        };
        let item: dynomodel::Item = [
            ("pk".to_owned(), AttributeValue::S("a".into())),
            ("sk".to_owned(), AttributeValue::N(7.into())),
            ("b".to_owned(), AttributeValue::B(vec![0, 255])),
            (
                "l".to_owned(),
                AttributeValue::L(vec![AttributeValue::Null]),
            ),
        ]
        .into();
        let record = Record {
            at: DateTime::from_timestamp(1_700_000_000, 123_456_789).unwrap_or_default(),
            command: Some(("DeleteTable".into(), json!({"TableName": "x"}))),
            effects: vec![
                Effect::Put {
                    table: "t".into(),
                    key: key.clone(),
                    item: item.clone(),
                },
                Effect::Delete {
                    table: "t".into(),
                    key: key.clone(),
                },
                Effect::Expire {
                    table: "t".into(),
                    key: PrimaryKey {
                        hash: KeyValue::B(vec![1]),
                        range: None,
                    },
                },
                Effect::Token {
                    token: "tok".into(),
                    actions: vec![TransactWriteItem::Delete(TransactDelete {
                        table_name: "t".into(),
                        key: item,
                        condition_expression: None,
                        expression_attribute_names: None,
                        expression_attribute_values: None,
                        return_values_on_condition_check_failure: None,
                    })],
                },
            ],
        };
        assert_eq!(Record::from_bytes(&record.to_bytes()), Some(record));
        assert_eq!(Record::from_bytes(b"{}"), None);
        assert_eq!(Record::from_bytes(b"not json"), None);
    }
}
