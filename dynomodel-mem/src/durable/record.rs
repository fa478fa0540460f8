//! One log record: what one acknowledged write request did, and when.
//!
//! A record is binary (framed and checksummed by [`super::frame`]); items and keys in the encoding of
//! [`super::codec`]:
//!
//! ```text
//! secs: i64, nanos: u32                      the engine's time when the request ran (replay pins it)
//! command: 0 | 1 name request                a table operation: its name and its DynamoDB JSON request,
//!                                            replayed through the server's decoder
//! effects: count, then each:                 effects on items, in the order they were applied:
//!   0 table key item                           put
//!   1 table key                                delete
//!   2 table key                                TTL deletion (as the service)
//!   3 token TransactItems                      a transaction's ClientRequestToken (its actions as JSON)
//! ```

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use super::codec::{Reader, Writer};
use crate::durable::journal::Effect;
use crate::server::wire::records as codec;

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

const PUT: u8 = 0;
const DELETE: u8 = 1;
const EXPIRE: u8 = 2;
const TOKEN: u8 = 3;

fn write_effect(w: &mut Writer<'_>, e: &Effect) {
    match e {
        Effect::Put { table, key, item } => {
            w.u8(PUT);
            w.str(table);
            w.key(key);
            w.item(item);
        }
        Effect::Delete { table, key } | Effect::Expire { table, key } => {
            w.u8(if matches!(e, Effect::Delete { .. }) {
                DELETE
            } else {
                EXPIRE
            });
            w.str(table);
            w.key(key);
        }
        Effect::Token { token, actions } => {
            w.u8(TOKEN);
            w.str(token);
            let json = serde_json::to_vec(&codec::write_actions_json(actions)).unwrap_or_default();
            w.bytes(&json);
        }
    }
}

fn read_effect(r: &mut Reader<'_>) -> Option<Effect> {
    Some(match r.u8()? {
        PUT => Effect::Put {
            table: r.string()?,
            key: r.key()?,
            item: r.item()?,
        },
        DELETE => Effect::Delete {
            table: r.string()?,
            key: r.key()?,
        },
        EXPIRE => Effect::Expire {
            table: r.string()?,
            key: r.key()?,
        },
        TOKEN => {
            let token = r.string()?;
            let json: Value = serde_json::from_slice(r.bytes()?).ok()?;
            Effect::Token {
                token,
                actions: codec::decode_write_actions(&json)?,
            }
        }
        _ => return None,
    })
}

impl Record {
    /// The record as the log stores it (before framing).
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(128);
        let mut w = Writer(&mut out);
        w.i64(self.at.timestamp());
        w.u32(self.at.timestamp_subsec_nanos() as usize);
        match &self.command {
            Some((op, body)) => {
                w.u8(1);
                w.str(op);
                w.bytes(&serde_json::to_vec(body).unwrap_or_default());
            }
            None => w.u8(0),
        }
        w.u32(self.effects.len());
        for e in &self.effects {
            write_effect(&mut w, e);
        }
        out
    }

    /// A record written by [`Record::to_bytes`], or `None` for anything else.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Record> {
        let mut r = Reader::new(bytes);
        let secs = r.i64()?;
        let nanos = u32::try_from(r.u32()?).ok()?;
        let at = DateTime::from_timestamp(secs, nanos)?;
        let command = match r.u8()? {
            0 => None,
            1 => {
                let op = r.string()?;
                Some((op, serde_json::from_slice(r.bytes()?).ok()?))
            }
            _ => return None,
        };
        let count = r.u32()?;
        let mut effects = Vec::with_capacity(count.min(bytes.len()));
        for _ in 0..count {
            effects.push(read_effect(&mut r)?);
        }
        r.is_empty().then_some(Record {
            at,
            command,
            effects,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::{KeyValue, PrimaryKey};
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
        let bytes = record.to_bytes();
        assert_eq!(Record::from_bytes(&bytes), Some(record));
        for cut in 0..bytes.len() {
            assert_eq!(Record::from_bytes(&bytes[..cut]), None, "cut at {cut}");
        }
        assert_eq!(Record::from_bytes(b"not a record"), None);
    }
}
