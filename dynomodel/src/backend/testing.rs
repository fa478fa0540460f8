//! [`RecordingBackend`]: a test double that records every request and answers each from a queue or
//! a closure per operation (feature `testing`; always on in this crate's own tests).
//!
//! The workspace's tests share it instead of each implementing [`Backend`] by hand: a test queues
//! the answers it needs ([`RecordingBackend::answer`]), or installs a closure that computes them
//! ([`RecordingBackend::on`]), and asserts on the requests it [`took`](RecordingBackend::take).
//! An operation with neither answers `UnknownOperationException` naming the call, so a test never
//! passes on an answer it did not give.
//!
//! ```
//! use dynomodel::backend::testing::{op, Call, RecordingBackend};
//! use dynomodel::backend::{Backend, GetItemInput, GetItemOutput};
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let fake = RecordingBackend::new();
//! fake.answer(op::get_item, Ok(GetItemOutput::default()));
//! let input = GetItemInput { table_name: "t".into(), ..Default::default() };
//! assert_eq!(fake.get_item(input.clone()).await.unwrap(), GetItemOutput::default());
//! // Nothing queued any more: the call is named in the error.
//! let err = fake.get_item(input.clone()).await.unwrap_err();
//! assert_eq!(err.code(), "UnknownOperationException");
//! assert_eq!(fake.take(), [Call::GetItem(input.clone()), Call::GetItem(input)]);
//! # });
//! ```

// `Op` holds a look-up of the private slot types, which only this module calls.
#![allow(private_interfaces)]

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tokio::time::Instant;

use super::*;
use crate::error::{Error, Result};

/// The answer a handler gives, later.
type Pending<O> = Pin<Box<dyn Future<Output = Result<O>> + Send>>;

/// What answers one operation: queued answers first, then the closure, then an error.
struct Slot<I, O> {
    queue: VecDeque<Result<O>>,
    handler: Option<Box<dyn Fn(I) -> Pending<O> + Send + Sync>>,
}

impl<I, O> Default for Slot<I, O> {
    fn default() -> Self {
        Slot {
            queue: VecDeque::new(),
            handler: None,
        }
    }
}

/// Locks, ignoring poison: a panicking test has already failed.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Declares the operations: [`Call`] (a recorded request), the [`op`] markers that name an
/// operation's input and output types, the slots, and the `Backend` methods.
macro_rules! operations {
    ($($op:ident($method:ident): $input:ty => $output:ty;)*) => {
        /// One request the backend received, with its input.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum Call {
            $(
                #[doc = concat!("`", stringify!($op), "`.")]
                $op($input),
            )*
        }

        impl Call {
            /// The operation's name in DynamoDB's API, e.g. `"PutItem"`.
            pub fn operation(&self) -> &'static str {
                match self {
                    $(Call::$op(_) => stringify!($op),)*
                }
            }
        }

        /// The operations, each naming its input and output: `op::put_item` in
        /// [`RecordingBackend::answer`] takes a `Result<PutItemOutput>`.
        #[allow(non_upper_case_globals)]
        pub mod op {
            use super::*;
            $(
                #[doc = concat!("`", stringify!($op), "`.")]
                pub const $method: Op<$input, $output> = Op { slot: |slots| &slots.$method };
            )*
        }

        #[derive(Default)]
        struct Slots {
            $($method: Mutex<Slot<$input, $output>>,)*
        }

        #[async_trait::async_trait]
        impl Backend for RecordingBackend {
            $(
                async fn $method(&self, input: $input) -> Result<$output> {
                    self.call(op::$method, input, Call::$op).await
                }
            )*

            fn now(&self) -> chrono::DateTime<chrono::Utc> {
                match *lock(&self.now) {
                    Some(now) => now,
                    None => chrono::Utc::now(),
                }
            }
        }
    };
}

operations! {
    CreateTable(create_table): CreateTableInput => CreateTableOutput;
    DescribeTable(describe_table): DescribeTableInput => DescribeTableOutput;
    ListTables(list_tables): ListTablesInput => ListTablesOutput;
    DeleteTable(delete_table): DeleteTableInput => DeleteTableOutput;
    PutItem(put_item): PutItemInput => PutItemOutput;
    GetItem(get_item): GetItemInput => GetItemOutput;
    DeleteItem(delete_item): DeleteItemInput => DeleteItemOutput;
    UpdateItem(update_item): UpdateItemInput => UpdateItemOutput;
    Query(query): QueryInput => QueryOutput;
    Scan(scan): ScanInput => ScanOutput;
    BatchGetItem(batch_get_item): BatchGetItemInput => BatchGetItemOutput;
    BatchWriteItem(batch_write_item): BatchWriteItemInput => BatchWriteItemOutput;
    TransactGetItems(transact_get_items): TransactGetItemsInput => TransactGetItemsOutput;
    TransactWriteItems(transact_write_items): TransactWriteItemsInput => TransactWriteItemsOutput;
    UpdateTable(update_table): UpdateTableInput => UpdateTableOutput;
    UpdateTimeToLive(update_time_to_live): UpdateTimeToLiveInput => UpdateTimeToLiveOutput;
    DescribeTimeToLive(describe_time_to_live): DescribeTimeToLiveInput => DescribeTimeToLiveOutput;
    TagResource(tag_resource): TagResourceInput => TagResourceOutput;
    UntagResource(untag_resource): UntagResourceInput => UntagResourceOutput;
    ListTagsOfResource(list_tags_of_resource): ListTagsOfResourceInput => ListTagsOfResourceOutput;
    CreateBackup(create_backup): CreateBackupInput => CreateBackupOutput;
    DescribeBackup(describe_backup): DescribeBackupInput => DescribeBackupOutput;
    ListBackups(list_backups): ListBackupsInput => ListBackupsOutput;
    DeleteBackup(delete_backup): DeleteBackupInput => DeleteBackupOutput;
    RestoreTableFromBackup(restore_table_from_backup): RestoreTableFromBackupInput => RestoreTableFromBackupOutput;
    DescribeContinuousBackups(describe_continuous_backups): DescribeContinuousBackupsInput => DescribeContinuousBackupsOutput;
    UpdateContinuousBackups(update_continuous_backups): UpdateContinuousBackupsInput => UpdateContinuousBackupsOutput;
    RestoreTableToPointInTime(restore_table_to_point_in_time): RestoreTableToPointInTimeInput => RestoreTableToPointInTimeOutput;
    DescribeLimits(describe_limits): DescribeLimitsInput => DescribeLimitsOutput;
    DescribeEndpoints(describe_endpoints): DescribeEndpointsInput => DescribeEndpointsOutput;
    ExecuteStatement(execute_statement): ExecuteStatementInput => ExecuteStatementOutput;
    BatchExecuteStatement(batch_execute_statement): BatchExecuteStatementInput => BatchExecuteStatementOutput;
    ExecuteTransaction(execute_transaction): ExecuteTransactionInput => ExecuteTransactionOutput;
    ListStreams(list_streams): ListStreamsInput => ListStreamsOutput;
    DescribeStream(describe_stream): DescribeStreamInput => DescribeStreamOutput;
    GetShardIterator(get_shard_iterator): GetShardIteratorInput => GetShardIteratorOutput;
    GetRecords(get_records): GetRecordsInput => GetRecordsOutput;
}

/// One operation of [`op`], by its input and output types.
pub struct Op<I, O> {
    slot: fn(&Slots) -> &Mutex<Slot<I, O>>,
}

impl<I, O> Clone for Op<I, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I, O> Copy for Op<I, O> {}

impl<I, O> fmt::Debug for Op<I, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Op")
    }
}

/// A [`Backend`] that records every request ([`Call`]) and answers each operation from its queue
/// of answers, else its closure, else with `UnknownOperationException` naming the call.
///
/// Clones are not shared: wrap it in an `Arc` (as [`Db::from_arc`](crate::Db::from_arc) takes it)
/// to keep a handle after building a `Db`.
#[derive(Default)]
pub struct RecordingBackend {
    /// Each call with the time it arrived (Tokio's clock, so paused time in paused tests).
    calls: Mutex<Vec<(Instant, Call)>>,
    slots: Slots,
    now: Mutex<Option<chrono::DateTime<chrono::Utc>>>,
}

impl fmt::Debug for RecordingBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecordingBackend")
            .field("calls", &self.calls())
            .finish_non_exhaustive()
    }
}

impl RecordingBackend {
    /// A backend that answers nothing yet.
    pub fn new() -> RecordingBackend {
        RecordingBackend::default()
    }

    /// Queues `answer` for the next request of `op` that finds no earlier answer queued.
    pub fn answer<I, O>(&self, op: Op<I, O>, answer: Result<O>) -> &Self {
        lock((op.slot)(&self.slots)).queue.push_back(answer);
        self
    }

    /// Answers the requests of `op` that find no queued answer with `handler` (replacing an earlier
    /// one).
    pub fn on<I, O: Send + 'static>(
        &self,
        op: Op<I, O>,
        handler: impl Fn(I) -> Result<O> + Send + Sync + 'static,
    ) -> &Self {
        self.on_async(op, move |input| std::future::ready(handler(input)))
    }

    /// [`on`](RecordingBackend::on) with an asynchronous handler, e.g. one that takes time.
    pub fn on_async<I, O, R>(
        &self,
        op: Op<I, O>,
        handler: impl Fn(I) -> R + Send + Sync + 'static,
    ) -> &Self
    where
        R: Future<Output = Result<O>> + Send + 'static,
    {
        lock((op.slot)(&self.slots)).handler =
            Some(Box::new(move |input| Box::pin(handler(input))));
        self
    }

    /// Makes [`Backend::now`] answer `now` (the system's time until then).
    pub fn set_now(&self, now: chrono::DateTime<chrono::Utc>) -> &Self {
        *lock(&self.now) = Some(now);
        self
    }

    /// The requests received so far, taken (the next call returns only later ones).
    pub fn take(&self) -> Vec<Call> {
        let calls = std::mem::take(&mut *lock(&self.calls));
        calls.into_iter().map(|(_, call)| call).collect()
    }

    /// The requests received so far, left in place.
    pub fn calls(&self) -> Vec<Call> {
        lock(&self.calls)
            .iter()
            .map(|(_, call)| call.clone())
            .collect()
    }

    /// The requests received so far with the time each arrived, left in place.
    pub fn timed_calls(&self) -> Vec<(Instant, Call)> {
        lock(&self.calls).clone()
    }

    /// Records `input`, then answers it.
    async fn call<I: Clone, O>(&self, op: Op<I, O>, input: I, record: fn(I) -> Call) -> Result<O> {
        let call = record(input.clone());
        let name = call.operation();
        lock(&self.calls).push((Instant::now(), call));
        // The handler's future is built under the slot's lock and awaited without it.
        let pending = {
            let mut slot = lock((op.slot)(&self.slots));
            if let Some(answer) = slot.queue.pop_front() {
                return answer;
            }
            match &slot.handler {
                Some(handler) => handler(input),
                None => {
                    return Err(Error::Service {
                        code: "UnknownOperationException".into(),
                        message: format!("RecordingBackend: no answer queued for this {name}"),
                    });
                }
            }
        };
        pending.await
    }
}
