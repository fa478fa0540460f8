//! The record of one item change.
//!
//! `SizeBytes` is the DynamoDB item size (the developer guide's `CapacityUnitCalculations.html`,
//! [`dynomodel::item_size`]) of the keys plus that of
//! each image the record carries. Measured on DynamoDB Local 3.3 with a table keyed `pk` (S) and `sk`
//! (N), stream NEW_AND_OLD_IMAGES, item `{pk: "p", sk: 1, x: "hello"}`: INSERT 20 (keys 7 + new 13),
//! MODIFY to `x: "hello2"` 34 (7 + 14 + 13), REMOVE 21 (7 + 14).

use chrono::{DateTime, Utc};
use dynomodel::backend::{
    Identity, KeySchemaElement, OperationType, Record, StreamRecord, StreamViewType,
};
use dynomodel::{item_size, Item};

use super::{fnv, sequence_text};

/// One change as `Table::put`/`Table::delete` see it, with what the stream adds.
pub(crate) struct Change<'a> {
    /// The item before (`None`: it did not exist).
    pub old: Option<&'a Item>,
    /// The item after (`None`: deleted).
    pub new: Option<&'a Item>,
    /// The service's identity, for TTL deletions.
    pub identity: Option<Identity>,
    /// The table's key schema (which attributes are `Keys`).
    pub key_schema: &'a [KeySchemaElement],
    /// What the record holds.
    pub view_type: StreamViewType,
    /// `awsRegion`.
    pub region: &'a str,
    /// The stream's ARN (for the event id).
    pub arn: &'a str,
}

impl Change<'_> {
    /// The record, with sequence number `sequence`, written at `now`; `None` when nothing existed
    /// before or after (not a change).
    pub(crate) fn into_record(self, sequence: u64, now: DateTime<Utc>) -> Option<Record> {
        let (event_name, either) = match (self.old, self.new) {
            (None, Some(new)) => (OperationType::Insert, new),
            (Some(_), Some(new)) => (OperationType::Modify, new),
            (Some(old), None) => (OperationType::Remove, old),
            (None, None) => return None,
        };
        let keys: Item = self
            .key_schema
            .iter()
            .filter_map(|k| {
                either
                    .get(&k.attribute_name)
                    .map(|v| (k.attribute_name.clone(), v.clone()))
            })
            .collect();
        let (with_new, with_old) = match self.view_type {
            StreamViewType::KeysOnly => (false, false),
            StreamViewType::NewImage => (true, false),
            StreamViewType::OldImage => (false, true),
            StreamViewType::NewAndOldImages => (true, true),
        };
        let new_image = self.new.filter(|_| with_new).cloned();
        let old_image = self.old.filter(|_| with_old).cloned();
        let size = item_size(&keys)
            + new_image.as_ref().map_or(0, item_size)
            + old_image.as_ref().map_or(0, item_size);
        Some(Record {
            event_id: event_id(self.arn, sequence),
            event_name,
            event_version: "1.1".into(),
            event_source: "aws:dynamodb".into(),
            aws_region: self.region.to_owned(),
            dynamodb: StreamRecord {
                // Whole seconds, rounded down (the Streams API's
                // `StreamRecord.ApproximateCreationDateTime`; DynamoDB Local answers the same).
                approximate_creation_date_time: DateTime::from_timestamp(now.timestamp(), 0),
                keys,
                new_image,
                old_image,
                sequence_number: sequence_text(sequence),
                size_bytes: i64::try_from(size).unwrap_or(i64::MAX),
                stream_view_type: self.view_type,
            },
            user_identity: self.identity,
        })
    }
}

/// A record's `eventID`: 32 hex digits, as the service's (the API reference's example
/// `"eventID": "c4ca4238a0b923820dcc509a6f75849b"`; DynamoDB Local writes UUIDs). Unique: the second
/// half is a bijection of the engine-wide sequence number.
fn event_id(arn: &str, sequence: u64) -> String {
    format!("{:016x}{:016x}", fnv(&[arn.as_bytes()]), mix(sequence))
}

/// SplitMix64's finaliser: a bijection on `u64` that scatters consecutive numbers.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
