//! The reading loop behind [`Changes`](super::Changes): find the table's stream, list its shards,
//! read them in turn (each after its parent), follow closed shards into their children, and poll
//! open ones.

use std::collections::VecDeque;
use std::time::Duration;

use super::record::{ChangeRecord, Decoder};
use super::shards::{Position, Shards, Start, State};
use crate::backend::*;
use crate::db::Calls;
use crate::error::{Error, Result};

/// How many times in a row a shard's iterator may expire before the error is given up to the
/// consumer: a fresh iterator expiring at once means something else is wrong.
const MAX_EXPIRED_IN_A_ROW: usize = 3;

/// The state of one [`Changes`](super::Changes) stream once polled.
pub(super) struct Reader<T> {
    calls: Calls,
    decoder: Decoder<T>,
    table: String,
    start: Start,
    poll_interval: Duration,
    /// The stream's ARN and shards, once found (on the first poll).
    stream: Option<(String, Shards)>,
    status: StreamStatus,
    /// Decoded records (or decode errors) not yet yielded.
    buffer: VecDeque<Result<ChangeRecord<T>>>,
    /// Empty reads of open shards in a row: when every shard being read came back empty, wait.
    idle: usize,
    expired: usize,
    finished: bool,
}

impl<T> Reader<T> {
    pub(super) fn new(
        calls: Calls,
        decoder: Decoder<T>,
        table: String,
        start: Start,
        poll_interval: Duration,
    ) -> Self {
        Reader {
            calls,
            decoder,
            table,
            start,
            poll_interval,
            stream: None,
            status: StreamStatus::Enabled,
            buffer: VecDeque::new(),
            idle: 0,
            expired: 0,
            finished: false,
        }
    }

    /// The next change; `None` once the stream is disabled and read to its end, or after an error
    /// from the backend (a record that does not decode is an error too, but reading goes on).
    pub(super) async fn next(&mut self) -> Option<Result<ChangeRecord<T>>> {
        loop {
            if let Some(change) = self.buffer.pop_front() {
                return Some(change);
            }
            if self.finished {
                return None;
            }
            if let Err(e) = self.step().await {
                self.finished = true;
                return Some(Err(e));
            }
        }
    }

    /// One request's worth of progress.
    async fn step(&mut self) -> Result<()> {
        let Some((arn, shards)) = &mut self.stream else {
            return self.open().await;
        };
        let arn = arn.clone();
        match shards.next() {
            Some(i) => self.read(&arn, i).await,
            None => self.between_shards(&arn).await,
        }
    }

    /// Finds the table's stream (DescribeTable's `LatestStreamArn`) and places its shards at the
    /// start position.
    async fn open(&mut self) -> Result<()> {
        let input = DescribeTableInput {
            table_name: self.table.clone(),
        };
        let table = self.calls.describe_table(input).await?.table;
        let arn = table.latest_stream_arn.ok_or_else(|| Error::NoStream {
            table: self.table.clone(),
        })?;
        let listing = self.describe(&arn).await?;
        let shards = Shards::initial(listing, &self.start).ok_or_else(|| {
            let sequence_number = match &self.start {
                Start::After(sequence) => sequence.clone(),
                Start::TrimHorizon | Start::Latest => String::new(),
            };
            Error::SequenceNumberNotFound {
                sequence_number,
                stream_arn: arn.clone(),
            }
        })?;
        self.stream = Some((arn, shards));
        Ok(())
    }

    /// Every shard of the stream (all pages of DescribeStream); records the stream's status.
    async fn describe(&mut self, arn: &str) -> Result<Vec<Shard>> {
        let mut shards = Vec::new();
        let mut start: Option<String> = None;
        loop {
            let input = DescribeStreamInput {
                stream_arn: arn.to_owned(),
                exclusive_start_shard_id: start.clone(),
                ..Default::default()
            };
            let description = self.calls.describe_stream(input).await?.stream_description;
            self.status = description.stream_status;
            shards.extend(description.shards);
            match description.last_evaluated_shard_id {
                // A page that ends where the previous one did would loop forever.
                Some(last) if start.as_ref() != Some(&last) => start = Some(last),
                _ => return Ok(shards),
            }
        }
    }

    /// No shard can be read now: every known one is finished. New shards may have appeared (a
    /// closed shard's children); if not, a disabled stream is over and an enabled one gets new
    /// shards later.
    async fn between_shards(&mut self, arn: &str) -> Result<()> {
        let listing = self.describe(arn).await?;
        let Some((_, shards)) = &mut self.stream else {
            return Ok(());
        };
        if shards.add_new(listing) > 0 {
            return Ok(());
        }
        if matches!(
            self.status,
            StreamStatus::Disabled | StreamStatus::Disabling
        ) && shards.all_done()
        {
            self.finished = true;
            return Ok(());
        }
        tokio::time::sleep(self.poll_interval).await;
        Ok(())
    }

    /// Reads one page of shard `i`.
    async fn read(&mut self, arn: &str, i: usize) -> Result<()> {
        let Some((_, shards)) = &mut self.stream else {
            return Ok(());
        };
        let cursor = shards.cursor(i);
        let State::Reading { iterator, position } = &cursor.state else {
            return Ok(());
        };
        let shard_id = cursor.shard.shard_id.clone();
        let open = cursor
            .shard
            .sequence_number_range
            .ending_sequence_number
            .is_none();
        let mut position = position.clone();
        let iterator = match iterator.clone() {
            Some(iterator) => iterator,
            None => match self.iterator(arn, &shard_id, &position).await? {
                Some(iterator) => iterator,
                None => {
                    self.finish_shard(arn, i).await?;
                    return Ok(());
                }
            },
        };
        let input = GetRecordsInput {
            shard_iterator: iterator,
            limit: None,
        };
        let output = match self.calls.get_records(input).await {
            Ok(output) => output,
            // Unread for 15 minutes (the consumer stopped polling): a new iterator after the
            // last record seen reads on from there.
            Err(e) if e.code() == "ExpiredIteratorException" => {
                self.expired += 1;
                if self.expired > MAX_EXPIRED_IN_A_ROW {
                    return Err(e);
                }
                self.set_state(
                    i,
                    State::Reading {
                        iterator: None,
                        position,
                    },
                );
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        self.expired = 0;
        let empty = output.records.is_empty();
        for record in output.records {
            position = Position::After(record.dynamodb.sequence_number.clone());
            // Another entity type's change is read past (the position moves on) but not yielded.
            if !self.decoder.skips(&record) {
                let change = self.decoder.decode(record, &shard_id, &self.table);
                self.buffer.push_back(change);
            }
        }
        match output.next_shard_iterator {
            Some(next) => self.set_state(
                i,
                State::Reading {
                    iterator: Some(next),
                    position,
                },
            ),
            None => return self.finish_shard(arn, i).await,
        }
        // An empty page of a closed shard is read past at once (its end is near); an empty page
        // of an open shard means nothing new: once every shard being read said so, wait.
        if !empty {
            self.idle = 0;
        } else if open {
            self.idle += 1;
            let reading = self.stream.as_ref().map_or(1, |(_, s)| s.reading());
            if self.idle >= reading {
                self.idle = 0;
                tokio::time::sleep(self.poll_interval).await;
            }
        }
        Ok(())
    }

    /// An iterator at `position` in the shard; `None` when the shard is gone (trimmed away since
    /// it was listed: nothing of it is left to read).
    async fn iterator(
        &mut self,
        arn: &str,
        shard_id: &str,
        position: &Position,
    ) -> Result<Option<String>> {
        let (shard_iterator_type, sequence_number) = position.iterator_type();
        let input = GetShardIteratorInput {
            stream_arn: arn.to_owned(),
            shard_id: shard_id.to_owned(),
            shard_iterator_type,
            sequence_number,
        };
        match self.calls.get_shard_iterator(input).await {
            Ok(output) => Ok(output.shard_iterator),
            // A resume position that is gone is the consumer's loss to hear about, not to skip.
            Err(Error::ResourceNotFound { .. }) if !matches!(position, Position::After(_)) => {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Shard `i` is read to its end: its children (listed by a new DescribeStream) come next.
    async fn finish_shard(&mut self, arn: &str, i: usize) -> Result<()> {
        self.set_state(i, State::Done);
        let listing = self.describe(arn).await?;
        if let Some((_, shards)) = &mut self.stream {
            shards.add_new(listing);
        }
        Ok(())
    }

    fn set_state(&mut self, i: usize, state: State) {
        if let Some((_, shards)) = &mut self.stream {
            shards.cursor(i).state = state;
        }
    }
}
