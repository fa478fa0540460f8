//! One shard of a stream: an ordered run of records with increasing sequence numbers.
//!
//! A shard takes a sequence number of its own when it opens (its `StartingSequenceNumber`, below every
//! record it will hold), as DynamoDB Local does (probed: a new stream's shard starts at
//! `000000000000000000001` and its first record is `…002`). Closing it fixes its
//! `EndingSequenceNumber`: its last record's, or its starting number when it got none (DynamoDB Local,
//! probed: a stream disabled before any write shows `StartingSequenceNumber == EndingSequenceNumber`).

use std::collections::VecDeque;

use chrono::{DateTime, Utc};
use dynomodel::backend::{Record, SequenceNumberRange};

use super::{fnv, sequence_text};

/// A record as a shard keeps it.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    /// Its sequence number.
    pub sequence: u64,
    /// When it was written (for retention).
    pub at: DateTime<Utc>,
    /// What GetRecords returns.
    pub record: Record,
}

/// One shard.
#[derive(Debug, Clone)]
pub(crate) struct Shard {
    /// `shardId-<20 digits>-<8 hex>`.
    pub id: String,
    /// The shard it continues.
    pub parent: Option<String>,
    /// When it opened.
    pub opened: DateTime<Utc>,
    /// Its starting sequence number.
    pub start: u64,
    /// Its ending sequence number, once closed.
    pub end: Option<u64>,
    /// When it closed.
    pub closed_at: Option<DateTime<Utc>>,
    /// The records still kept, oldest first.
    pub records: VecDeque<Stored>,
    /// The highest sequence number trimmed away (0: nothing trimmed yet).
    pub trimmed_to: u64,
    /// The sequence number of its last record, trimmed or not.
    last_record: Option<u64>,
}

impl Shard {
    /// A new open shard of stream `arn`, opened at `at`, starting at sequence number `start`.
    pub(crate) fn open(arn: &str, at: DateTime<Utc>, start: u64, parent: Option<String>) -> Shard {
        let millis = u64::try_from(at.timestamp_millis()).unwrap_or(0);
        let suffix = fnv(&[arn.as_bytes(), &start.to_be_bytes()]) & 0xffff_ffff;
        Shard {
            id: format!("shardId-{millis:020}-{suffix:08x}"),
            parent,
            opened: at,
            start,
            end: None,
            closed_at: None,
            records: VecDeque::new(),
            trimmed_to: 0,
            last_record: None,
        }
    }

    /// The sequence number of its last record, trimmed or not (durable mode's snapshots).
    #[cfg(feature = "durable")]
    pub(crate) fn last_record(&self) -> Option<u64> {
        self.last_record
    }

    /// Restores what [`Shard::last_record`] said (durable mode).
    #[cfg(feature = "durable")]
    pub(crate) fn set_last_record(&mut self, last: Option<u64>) {
        self.last_record = last;
    }

    /// Whether it is closed.
    pub(crate) fn is_closed(&self) -> bool {
        self.end.is_some()
    }

    /// Closes it at `at`.
    pub(crate) fn close(&mut self, at: DateTime<Utc>) {
        if self.end.is_none() {
            self.end = Some(self.last_record.unwrap_or(self.start));
            self.closed_at = Some(at);
        }
    }

    /// Appends a record.
    pub(crate) fn push(&mut self, sequence: u64, at: DateTime<Utc>, record: Record) {
        self.last_record = Some(sequence);
        self.records.push_back(Stored {
            sequence,
            at,
            record,
        });
    }

    /// Drops the records written before `horizon`.
    pub(crate) fn trim(&mut self, horizon: DateTime<Utc>) {
        while let Some(first) = self.records.front() {
            if first.at >= horizon {
                break;
            }
            self.trimmed_to = first.sequence;
            self.records.pop_front();
        }
    }

    /// Whether DescribeStream no longer lists it: closed before `horizon`, with nothing left to read.
    pub(crate) fn expired(&self, horizon: DateTime<Utc>) -> bool {
        self.records.is_empty() && self.closed_at.is_some_and(|c| c < horizon)
    }

    /// Its `SequenceNumberRange`.
    pub(crate) fn range(&self) -> SequenceNumberRange {
        SequenceNumberRange {
            starting_sequence_number: Some(sequence_text(self.start)),
            ending_sequence_number: self.end.map(sequence_text),
        }
    }

    /// Whether `sequence` names a position inside the shard: from its start to its end (closed), or to
    /// the last sequence number the engine handed out (open, `last`).
    pub(crate) fn contains(&self, sequence: u64, last: u64) -> bool {
        sequence >= self.start && sequence <= self.end.unwrap_or(last)
    }

    /// Its description for DescribeStream.
    pub(crate) fn describe(&self) -> dynomodel::backend::Shard {
        dynomodel::backend::Shard {
            shard_id: self.id.clone(),
            sequence_number_range: self.range(),
            parent_shard_id: self.parent.clone(),
        }
    }
}
