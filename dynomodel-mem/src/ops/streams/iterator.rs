//! Shard iterators: opaque strings naming a stream, a shard, a position and the instant they were
//! issued, with a checksum so that an edited or made-up string is refused as DynamoDB refuses one
//! ("Invalid ShardIterator", a ValidationException: DynamoDB Local 3.3's answer to garbage and to a
//! truncated real iterator, probed; LocalStack and other emulators answer the same).
//!
//! Shape: `<stream ARN>|<shard id>|<position>|<issued, epoch ms>|<checksum>`, at most a few hundred
//! characters (the model allows 2048). The position is the sequence number of the next record to read;
//! 0 stands for the trim horizon, which never reads trimmed data.

use chrono::{DateTime, Utc};
use dynomodel::{Error, Result};

use crate::storage::stream::fnv;

/// Position 0: the oldest record still kept.
pub(crate) const HORIZON: u64 = 0;

/// A decoded iterator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Iterator {
    /// The stream's ARN.
    pub arn: String,
    /// The shard.
    pub shard: String,
    /// The next sequence number to read ([`HORIZON`]: from the oldest record kept).
    pub position: u64,
    /// When it was issued (GetShardIterator's, or the GetRecords' that returned it).
    pub issued: DateTime<Utc>,
}

impl Iterator {
    /// Its string form.
    pub(crate) fn encode(&self) -> String {
        let body = format!(
            "{}|{}|{}|{}",
            self.arn,
            self.shard,
            self.position,
            self.issued.timestamp_millis()
        );
        let check = fnv(&[body.as_bytes()]);
        format!("{body}|{check:016x}")
    }

    /// Parses `text`, or DynamoDB's ValidationException for a string no GetShardIterator made.
    pub(crate) fn decode(text: &str) -> Result<Iterator> {
        let invalid = || Error::validation("Invalid ShardIterator");
        let (body, check) = text.rsplit_once('|').ok_or_else(invalid)?;
        if format!("{:016x}", fnv(&[body.as_bytes()])) != check {
            return Err(invalid());
        }
        let mut parts = body.rsplitn(4, '|');
        let issued = parts.next().ok_or_else(invalid)?;
        let position = parts.next().ok_or_else(invalid)?;
        let shard = parts.next().ok_or_else(invalid)?;
        let arn = parts.next().ok_or_else(invalid)?;
        let issued = issued
            .parse::<i64>()
            .ok()
            .and_then(DateTime::from_timestamp_millis)
            .ok_or_else(invalid)?;
        Ok(Iterator {
            arn: arn.to_owned(),
            shard: shard.to_owned(),
            position: position.parse().map_err(|_| invalid())?,
            issued,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_refuses_edits() {
        let it = Iterator {
            arn: "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2025-01-01T00:00:00.000"
                .into(),
            shard: "shardId-00000001735689600000-0000abcd".into(),
            position: 42,
            issued: DateTime::from_timestamp_millis(1_735_689_600_123).unwrap_or_default(),
        };
        let text = it.encode();
        assert_eq!(Iterator::decode(&text).ok(), Some(it));
        let edited = text.replacen("|42|", "|43|", 1);
        for bad in [
            "",
            "garbage",
            "a|b",
            edited.as_str(),
            &text[..text.len() - 1],
        ] {
            let err = Iterator::decode(bad).err().map(|e| e.message());
            assert_eq!(err.as_deref(), Some("Invalid ShardIterator"), "{bad}");
        }
    }
}
