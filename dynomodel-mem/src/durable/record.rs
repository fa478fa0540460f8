//! One log record: what one acknowledged write request did, and when.
//!
//! A record is binary (framed and checksummed by [`super::frame`]; encoded where the write happens,
//! by [`super::journal`]); items and keys in the encoding of [`super::codec`]:
//!
//! ```text
//! seq: u64                                   its sequence number: 1, 2, 3, … across segments
//! secs: i64, nanos: u32                      the engine's time when the request ran (replay pins it)
//! then entries to the end, each a tag and its data, in the order they happened:
//!   0 table key item                           an item put
//!   1 table key                                an item deleted
//!   2 table key                                an item deleted by Time to Live (as the service)
//!   3 token TransactItems                      a transaction's ClientRequestToken (its actions, JSON)
//!   4 name request                             a table operation: its name and DynamoDB JSON request,
//!                                              replayed through the server's decoder (before the rest)
//! ```
//!
//! Format 1 (before sequence numbers) wrote `secs nanos (0 | 1 name request) count effects`;
//! [`Record::from_v1`] reads it, to convert such a directory.

use chrono::{DateTime, Utc};

use super::codec::Reader;
use crate::protocol::records as codec;

/// An item put.
pub(crate) const PUT: u8 = 0;
/// An item deleted by the application.
pub(crate) const DELETE: u8 = 1;
/// An item deleted by Time to Live.
pub(crate) const EXPIRE: u8 = 2;
/// A transaction's token.
pub(crate) const TOKEN: u8 = 3;
/// A table operation's request.
pub(crate) const COMMAND: u8 = 4;

/// One change to the engine's state, as the log records it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Effect {
    /// An item stored (created or replaced) by the application.
    Put {
        /// The table's name.
        table: String,
        /// The item's key.
        key: crate::storage::key::PrimaryKey,
        /// The whole new item.
        item: dynomodel::Item,
    },
    /// An item deleted by the application.
    Delete {
        /// The table's name.
        table: String,
        /// The deleted item's key.
        key: crate::storage::key::PrimaryKey,
    },
    /// An item deleted by the service (Time to Live): its stream record names the service.
    Expire {
        /// The table's name.
        table: String,
        /// The deleted item's key.
        key: crate::storage::key::PrimaryKey,
    },
    /// A transaction's `ClientRequestToken`, remembered with the actions it was used for.
    Token {
        /// The token.
        token: String,
        /// The transaction's actions (a retry with other actions is a mismatch).
        actions: Vec<dynomodel::backend::TransactWriteItem>,
    },
}

/// What one request did.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Record {
    /// Its sequence number (0 in format 1, which had none).
    pub seq: u64,
    /// The engine's time while it ran (replay runs at the same time).
    pub at: DateTime<Utc>,
    /// A table operation (its name and request, JSON), if it was one.
    pub command: Option<(String, Vec<u8>)>,
    /// Its effects on items and tokens, in order.
    pub effects: Vec<Effect>,
}

/// A time as JSON (snapshots).
pub(crate) fn time_to(t: &DateTime<Utc>) -> serde_json::Value {
    serde_json::json!([t.timestamp(), t.timestamp_subsec_nanos()])
}

/// A time written by [`time_to`].
pub(crate) fn time_from(v: &serde_json::Value) -> Option<DateTime<Utc>> {
    let a = v.as_array()?;
    let secs = a.first()?.as_i64()?;
    let nanos = u32::try_from(a.get(1)?.as_u64()?).ok()?;
    DateTime::from_timestamp(secs, nanos)
}

/// The sequence number a record's payload starts with (format 2), without decoding the rest.
pub(crate) fn seq_of(payload: &[u8]) -> Option<u64> {
    let mut b = [0u8; 8];
    b.copy_from_slice(payload.get(..8)?);
    Some(u64::from_le_bytes(b))
}

fn time(r: &mut Reader<'_>) -> Option<DateTime<Utc>> {
    let secs = r.i64()?;
    let nanos = u32::try_from(r.u32()?).ok()?;
    DateTime::from_timestamp(secs, nanos)
}

fn effect(tag: u8, r: &mut Reader<'_>) -> Option<Effect> {
    Some(match tag {
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
            let json: serde_json::Value = serde_json::from_slice(r.bytes()?).ok()?;
            Effect::Token {
                token,
                actions: codec::decode_write_actions(&json)?,
            }
        }
        _ => return None,
    })
}

impl Record {
    /// A record as `journal.rs` writes it (the payload of its frame), or `None` for anything else.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Record> {
        let mut r = Reader::new(bytes);
        let seq = u64::try_from(r.i64()?).ok()?;
        let at = time(&mut r)?;
        let mut command = None;
        let mut effects = Vec::new();
        while !r.is_empty() {
            match r.u8()? {
                COMMAND if command.is_none() => {
                    command = Some((r.string()?, r.bytes()?.to_vec()));
                }
                tag => effects.push(effect(tag, &mut r)?),
            }
        }
        (seq > 0 && (command.is_some() || !effects.is_empty())).then_some(Record {
            seq,
            at,
            command,
            effects,
        })
    }

    /// A record of format 1, or `None` for anything else.
    pub(crate) fn from_v1(bytes: &[u8]) -> Option<Record> {
        let mut r = Reader::new(bytes);
        let at = time(&mut r)?;
        let command = match r.u8()? {
            0 => None,
            1 => Some((r.string()?, r.bytes()?.to_vec())),
            _ => return None,
        };
        let count = r.u32()?;
        let mut effects = Vec::with_capacity(count.min(bytes.len()));
        for _ in 0..count {
            let tag = r.u8()?;
            effects.push(effect(tag, &mut r)?);
        }
        r.is_empty().then_some(Record {
            seq: 0,
            at,
            command,
            effects,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::durable::frame::HEADER;
    use crate::durable::journal;
    use crate::storage::key::{KeyValue, PrimaryKey};
    use dynomodel::backend::{TransactDelete, TransactWriteItem};
    use dynomodel::AttributeValue;

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
        let at = DateTime::from_timestamp(1_700_000_000, 123_456_789).unwrap_or_default();
        let actions = vec![TransactWriteItem::Delete(TransactDelete {
            table_name: "t".into(),
            key: item.clone(),
            condition_expression: None,
            expression_attribute_names: None,
            expression_attribute_values: None,
            return_values_on_condition_check_failure: None,
        })];
        let expire = PrimaryKey {
            hash: KeyValue::B(vec![1]),
            range: None,
        };
        // Encoded as the write path captures it.
        journal::begin(at);
        journal::command("DeleteTable", br#"{"TableName":"x"}"#);
        journal::put(
            "t",
            &key,
            &crate::storage::stored::StoredItem::encode(&item),
        );
        journal::delete("t", &key);
        journal::expire("t", &expire);
        journal::token("tok", &actions);
        assert!(journal::end());
        let payload = journal::with_frame(|frame| {
            frame[HEADER..HEADER + 8].copy_from_slice(&42u64.to_le_bytes());
            frame[HEADER..].to_vec()
        });
        let record = Record {
            seq: 42,
            at,
            command: Some(("DeleteTable".into(), br#"{"TableName":"x"}"#.to_vec())),
            effects: vec![
                Effect::Put {
                    table: "t".into(),
                    key: key.clone(),
                    item,
                },
                Effect::Delete {
                    table: "t".into(),
                    key,
                },
                Effect::Expire {
                    table: "t".into(),
                    key: expire,
                },
                Effect::Token {
                    token: "tok".into(),
                    actions,
                },
            ],
        };
        assert_eq!(seq_of(&payload), Some(42));
        assert_eq!(Record::from_bytes(&payload), Some(record));
        // Cut inside an entry, it is not a record (a frame's checksum catches cuts between them).
        for cut in 0..24 {
            assert_eq!(Record::from_bytes(&payload[..cut]), None, "cut at {cut}");
        }
        assert_eq!(Record::from_bytes(&payload[..payload.len() - 1]), None);
        assert_eq!(Record::from_bytes(b"not a record"), None);
    }
}
