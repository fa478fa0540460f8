//! A scripted fake of DynamoDB Streams for the `Db::changes` tests: one table whose stream has
//! shards the test fills, closes and adds; iterators are `<shard>|<index>`; every request is
//! recorded (by the shared recording fake); errors can be queued for the next call of an operation.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

use crate::backend::testing::{op, Call, RecordingBackend};
use crate::backend::*;
use crate::db::testing::s;
use crate::db::Db;
use crate::error::{Error, Result};
use crate::value::Item;
use crate::Model;

pub(super) const TABLE: &str = "users";
pub(super) const ARN: &str =
    "arn:aws:dynamodb:us-east-1:000000000000:table/users/stream/2026-01-01T00:00:00.000";

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "users")]
pub(super) struct User {
    #[hash_key]
    pub id: String,
    pub name: String,
}

pub(super) fn user(id: &str, name: &str) -> User {
    User {
        id: id.into(),
        name: name.into(),
    }
}

/// One shard of the fake stream.
#[derive(Debug, Clone)]
struct FakeShard {
    id: String,
    parent: Option<String>,
    records: Vec<Record>,
    closed: bool,
}

#[derive(Debug)]
struct State {
    stream: bool,
    status: StreamStatus,
    view: StreamViewType,
    shards: Vec<FakeShard>,
    next_sequence: u64,
    /// Records per GetRecords page.
    page: usize,
    /// Shards per DescribeStream page.
    describe_page: usize,
}

/// The shared recording fake, answering from [`State`].
#[derive(Debug)]
pub(super) struct Fake {
    backend: Arc<RecordingBackend>,
    state: Arc<Mutex<State>>,
}

fn with<T>(state: &Mutex<State>, f: impl FnOnce(&mut State) -> T) -> T {
    f(&mut state.lock().expect("not poisoned"))
}

impl Fake {
    /// A database over a fake whose table has a stream of `view`, with no shards yet.
    pub(super) fn db(view: StreamViewType) -> (Db, Arc<Fake>) {
        let state = Arc::new(Mutex::new(State {
            stream: true,
            status: StreamStatus::Enabled,
            view,
            shards: Vec::new(),
            next_sequence: 100,
            page: 100,
            describe_page: 100,
        }));
        let backend = Arc::new(RecordingBackend::new());
        let s = state.clone();
        backend.on(op::describe_table, move |input| describe_table(&s, input));
        let s = state.clone();
        backend.on(op::describe_stream, move |input| describe_stream(&s, input));
        let s = state.clone();
        backend.on(op::get_shard_iterator, move |input| {
            get_shard_iterator(&s, input)
        });
        let s = state.clone();
        backend.on(op::get_records, move |input| get_records(&s, input));
        let db = Db::from_arc(backend.clone());
        (db, Arc::new(Fake { backend, state }))
    }

    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        with(&self.state, f)
    }

    pub(super) fn no_stream(&self) {
        self.with(|s| s.stream = false);
    }

    pub(super) fn status(&self, status: StreamStatus) {
        self.with(|s| s.status = status);
    }

    pub(super) fn page(&self, records: usize, shards: usize) {
        self.with(|s| (s.page, s.describe_page) = (records, shards));
    }

    /// Adds an open shard, listed after the ones before it.
    pub(super) fn shard(&self, id: &str, parent: Option<&str>) {
        self.with(|s| {
            s.shards.push(FakeShard {
                id: id.into(),
                parent: parent.map(Into::into),
                records: Vec::new(),
                closed: false,
            })
        });
    }

    /// Lists the shards in reverse (children before parents), which DynamoDB does not promise not to.
    pub(super) fn reverse_listing(&self) {
        self.with(|s| s.shards.reverse());
    }

    pub(super) fn close(&self, id: &str) {
        self.with(|s| {
            if let Some(shard) = s.shards.iter_mut().find(|sh| sh.id == id) {
                shard.closed = true;
            }
        });
    }

    /// Appends a change to a shard; returns its sequence number. `old`/`new` are the full items;
    /// the view type decides which the record keeps.
    pub(super) fn change(
        &self,
        shard: &str,
        event: OperationType,
        old: Option<Item>,
        new: Option<Item>,
    ) -> String {
        self.record(shard, event, old, new, None)
    }

    /// Like [`change`](Fake::change), a removal by Time to Live.
    pub(super) fn ttl_remove(&self, shard: &str, old: Item) -> String {
        let identity = Some(Identity::time_to_live());
        self.record(shard, OperationType::Remove, Some(old), None, identity)
    }

    fn record(
        &self,
        shard: &str,
        event: OperationType,
        old: Option<Item>,
        new: Option<Item>,
        user_identity: Option<Identity>,
    ) -> String {
        self.with(|s| {
            let sequence = s.next_sequence.to_string();
            s.next_sequence += 1;
            let keys: Item = old
                .as_ref()
                .or(new.as_ref())
                .and_then(|i| i.get("id"))
                .map(|id| [("id".to_owned(), id.clone())].into())
                .unwrap_or_default();
            let (keep_old, keep_new) = match s.view {
                StreamViewType::KeysOnly => (false, false),
                StreamViewType::NewImage => (false, true),
                StreamViewType::OldImage => (true, false),
                StreamViewType::NewAndOldImages => (true, true),
            };
            let record = Record {
                event_id: format!("e{sequence}"),
                event_name: event,
                event_version: "1.1".into(),
                event_source: "aws:dynamodb".into(),
                aws_region: "us-east-1".into(),
                dynamodb: StreamRecord {
                    approximate_creation_date_time: DateTime::<Utc>::from_timestamp(
                        1_700_000_000,
                        0,
                    ),
                    keys,
                    new_image: new.filter(|_| keep_new),
                    old_image: old.filter(|_| keep_old),
                    sequence_number: sequence.clone(),
                    size_bytes: 10,
                    stream_view_type: s.view,
                },
                user_identity,
            };
            if let Some(target) = s.shards.iter_mut().find(|sh| sh.id == shard) {
                target.records.push(record);
            }
            sequence
        })
    }

    /// The next call of `operation` answers `error`.
    pub(super) fn fail(&self, operation: &'static str, error: Error) {
        match operation {
            "DescribeTable" => self.backend.answer(op::describe_table, Err(error)),
            "DescribeStream" => self.backend.answer(op::describe_stream, Err(error)),
            "GetShardIterator" => self.backend.answer(op::get_shard_iterator, Err(error)),
            "GetRecords" => self.backend.answer(op::get_records, Err(error)),
            other => panic!("the fake does not answer {other}"),
        };
    }

    /// The requests so far, taken: `DescribeStream`, `GetShardIterator a TRIM_HORIZON`,
    /// `GetRecords a|0`, …
    pub(super) fn log(&self) -> Vec<String> {
        self.backend.take().iter().map(line).collect()
    }
}

/// A request as the log shows it.
fn line(call: &Call) -> String {
    match call {
        Call::DescribeStream(input) => match &input.exclusive_start_shard_id {
            Some(start) => format!("DescribeStream after {start}"),
            None => "DescribeStream".into(),
        },
        Call::GetShardIterator(input) => {
            let line = format!(
                "GetShardIterator {} {}",
                input.shard_id,
                input.shard_iterator_type.as_str()
            );
            match &input.sequence_number {
                Some(sequence) => format!("{line} {sequence}"),
                None => line,
            }
        }
        Call::GetRecords(input) => format!("GetRecords {}", input.shard_iterator),
        other => other.operation().into(),
    }
}

/// The item of a user.
pub(super) fn item(id: &str, name: &str) -> Item {
    [("id".to_owned(), s(id)), ("name".to_owned(), s(name))].into()
}

fn range(shard: &FakeShard) -> SequenceNumberRange {
    SequenceNumberRange {
        starting_sequence_number: shard
            .records
            .first()
            .map(|r| r.dynamodb.sequence_number.clone())
            .or(Some("1".into())),
        ending_sequence_number: shard
            .closed
            .then(|| {
                shard
                    .records
                    .last()
                    .map(|r| r.dynamodb.sequence_number.clone())
            })
            .flatten(),
    }
}

fn describe_table(state: &Mutex<State>, input: DescribeTableInput) -> Result<DescribeTableOutput> {
    let stream = with(state, |s| s.stream);
    Ok(DescribeTableOutput {
        table: TableDescription {
            table_name: input.table_name,
            table_status: TableStatus::Active,
            attribute_definitions: Vec::new(),
            key_schema: Vec::new(),
            creation_date_time: DateTime::UNIX_EPOCH,
            provisioned_throughput: ProvisionedThroughputDescription::default(),
            billing_mode: None,
            last_update_to_pay_per_request_date_time: None,
            item_count: 0,
            table_size_bytes: 0,
            table_arn: String::new(),
            table_id: String::new(),
            local_secondary_indexes: Vec::new(),
            global_secondary_indexes: Vec::new(),
            stream_specification: None,
            latest_stream_arn: stream.then(|| ARN.to_owned()),
            latest_stream_label: None,
            table_class: None,
            deletion_protection_enabled: false,
            restore_summary: None,
        },
    })
}

fn describe_stream(
    state: &Mutex<State>,
    input: DescribeStreamInput,
) -> Result<DescribeStreamOutput> {
    Ok(with(state, |s| {
        let from = match &input.exclusive_start_shard_id {
            Some(start) => s
                .shards
                .iter()
                .position(|sh| &sh.id == start)
                .map_or(0, |i| i + 1),
            None => 0,
        };
        let page: Vec<&FakeShard> = s.shards.iter().skip(from).take(s.describe_page).collect();
        let more = from + page.len() < s.shards.len();
        DescribeStreamOutput {
            stream_description: StreamDescription {
                stream_arn: input.stream_arn.clone(),
                stream_label: "2026-01-01T00:00:00.000".into(),
                stream_status: s.status,
                stream_view_type: s.view,
                creation_request_date_time: DateTime::<Utc>::UNIX_EPOCH,
                table_name: TABLE.into(),
                key_schema: Vec::new(),
                last_evaluated_shard_id: more
                    .then(|| page.last().map(|sh| sh.id.clone()))
                    .flatten(),
                shards: page
                    .iter()
                    .map(|sh| Shard {
                        shard_id: sh.id.clone(),
                        sequence_number_range: range(sh),
                        parent_shard_id: sh.parent.clone(),
                    })
                    .collect(),
            },
        }
    }))
}

fn get_shard_iterator(
    state: &Mutex<State>,
    input: GetShardIteratorInput,
) -> Result<GetShardIteratorOutput> {
    with(state, |s| {
        let shard = s
            .shards
            .iter()
            .find(|sh| sh.id == input.shard_id)
            .ok_or_else(|| {
                Error::resource_not_found("Requested resource not found: Shard does not exist")
            })?;
        let index = match input.shard_iterator_type {
            ShardIteratorType::TrimHorizon => 0,
            ShardIteratorType::Latest => shard.records.len(),
            ShardIteratorType::AtSequenceNumber | ShardIteratorType::AfterSequenceNumber => {
                let sequence = input.sequence_number.clone().unwrap_or_default();
                let at = shard
                    .records
                    .iter()
                    .position(|r| r.dynamodb.sequence_number == sequence)
                    .ok_or_else(|| Error::validation("sequence number not in shard"))?;
                if input.shard_iterator_type == ShardIteratorType::AtSequenceNumber {
                    at
                } else {
                    at + 1
                }
            }
        };
        Ok(GetShardIteratorOutput {
            shard_iterator: Some(format!("{}|{index}", shard.id)),
        })
    })
}

fn get_records(state: &Mutex<State>, input: GetRecordsInput) -> Result<GetRecordsOutput> {
    with(state, |s| {
        let (id, index) = input
            .shard_iterator
            .split_once('|')
            .ok_or_else(|| Error::validation("Invalid ShardIterator"))?;
        let index: usize = index
            .parse()
            .map_err(|_| Error::validation("Invalid ShardIterator"))?;
        let shard = s
            .shards
            .iter()
            .find(|sh| sh.id == id)
            .ok_or_else(|| Error::resource_not_found("Requested resource not found"))?;
        let end = (index + s.page).min(shard.records.len());
        let records = shard.records[index.min(end)..end].to_vec();
        let next = (!shard.closed || end < shard.records.len()).then(|| format!("{id}|{end}"));
        Ok(GetRecordsOutput {
            records,
            next_shard_iterator: next,
        })
    })
}

/// DynamoDB Streams' expired-iterator error.
pub(super) fn expired() -> Error {
    Error::Service {
        code: "ExpiredIteratorException".into(),
        message: "Iterator expired".into(),
    }
}
