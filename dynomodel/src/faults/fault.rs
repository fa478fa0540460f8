//! What the firing rules do to one request, and carrying it out around the backend's own call.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use super::batch::{hold_back_keys, hold_back_writes};
use super::rule::Portion;
use crate::backend::{
    BatchGetItemInput, BatchGetItemOutput, BatchWriteItemInput, BatchWriteItemOutput,
};
use crate::error::{Error, Result};

/// A future a [`Fault`] answers with.
type Answer<'r, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'r>>;

/// What the firing rules do to one request ([`FaultHandle::check`](super::FaultHandle::check)):
/// a delay, then an error before or after the request, or a batch's portion held back.
///
/// Carried out by [`apply`](Fault::apply) around the backend's call, or for a batch by
/// [`apply_batch_write`](Fault::apply_batch_write) / [`apply_batch_get`](Fault::apply_batch_get),
/// which also hold back the portion a rule returns unprocessed.
#[derive(Debug, Default)]
pub struct Fault {
    pub(super) latency: Duration,
    pub(super) outcome: Option<Outcome>,
}

/// The effect that answers a request.
#[derive(Debug)]
pub(super) enum Outcome {
    Fail { error: Error, after: bool },
    Unprocessed(Portion),
}

impl Fault {
    /// Waits out the latency (on Tokio's timer, holding nothing), then answers the error without
    /// polling `request` (`before`), or polls `request` and answers the error unless `request`
    /// failed (`after`); without an error, `request`'s answer. A held-back portion is the batch
    /// forms' to apply: here `request` runs whole.
    ///
    /// Boxed: a backend awaits this future only on its fault path, and without the box each of
    /// its request futures would reserve room for it (a timer among other things), the fault path
    /// taken or not: the in-memory engine's grew past 1 KB, which glibc's allocator serves from its
    /// slow path (docs/performance.md).
    ///
    /// ```
    /// use dynomodel::backend::GetItemInput;
    /// use dynomodel::faults::{FaultError, FaultHandle, Request, Rule};
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// let faults = FaultHandle::default();
    /// faults.add(Rule::reads().fail(FaultError::Throttling));
    /// let input = GetItemInput { table_name: "t".into(), ..Default::default() };
    /// let fault = faults.check(Request::GetItem(&input)).unwrap();
    /// let answer: dynomodel::Result<()> = fault.apply(async { unreachable!("refused before") }).await;
    /// assert_eq!(answer.unwrap_err().code(), "ThrottlingException");
    /// # });
    /// ```
    pub fn apply<'r, T: Send + 'r>(
        self,
        request: impl Future<Output = Result<T>> + Send + 'r,
    ) -> Answer<'r, T> {
        Box::pin(async move {
            if !self.latency.is_zero() {
                tokio::time::sleep(self.latency).await;
            }
            match self.outcome {
                Some(Outcome::Fail {
                    error,
                    after: false,
                }) => Err(error),
                Some(Outcome::Fail { error, after: true }) => request.await.and(Err(error)),
                Some(Outcome::Unprocessed(_)) | None => request.await,
            }
        })
    }

    /// [`apply`](Fault::apply) for a `BatchWriteItem`: a held-back portion is taken out of `input`
    /// before `send` gets it (`send` is not called when nothing is left) and added to the answer's
    /// `UnprocessedItems`.
    pub fn apply_batch_write<'r, F, R>(
        mut self,
        mut input: BatchWriteItemInput,
        send: F,
    ) -> Answer<'r, BatchWriteItemOutput>
    where
        F: FnOnce(BatchWriteItemInput) -> R + Send + 'r,
        R: Future<Output = Result<BatchWriteItemOutput>> + Send + 'r,
    {
        let held = self
            .take_unprocessed()
            .map(|portion| hold_back_writes(&mut input, portion));
        let request = async move {
            let mut output = match input.request_items.is_empty() {
                true => BatchWriteItemOutput::default(),
                false => send(input).await?,
            };
            for (table, requests) in held.into_iter().flatten() {
                output
                    .unprocessed_items
                    .entry(table)
                    .or_default()
                    .extend(requests);
            }
            Ok(output)
        };
        self.apply(request)
    }

    /// [`apply_batch_write`](Fault::apply_batch_write) for a `BatchGetItem`: held-back keys go to
    /// the answer's `UnprocessedKeys` with their table's settings.
    pub fn apply_batch_get<'r, F, R>(
        mut self,
        mut input: BatchGetItemInput,
        send: F,
    ) -> Answer<'r, BatchGetItemOutput>
    where
        F: FnOnce(BatchGetItemInput) -> R + Send + 'r,
        R: Future<Output = Result<BatchGetItemOutput>> + Send + 'r,
    {
        let held = self
            .take_unprocessed()
            .map(|portion| hold_back_keys(&mut input, portion));
        let request = async move {
            let mut output = match input.request_items.is_empty() {
                true => BatchGetItemOutput::default(),
                false => send(input).await?,
            };
            for (table, keys) in held.into_iter().flatten() {
                match output.unprocessed_keys.get_mut(&table) {
                    Some(left) => left.keys.extend(keys.keys),
                    None => {
                        output.unprocessed_keys.insert(table, keys);
                    }
                }
            }
            Ok(output)
        };
        self.apply(request)
    }

    /// The portion to hold back, taken out of the fault.
    fn take_unprocessed(&mut self) -> Option<Portion> {
        match self.outcome {
            Some(Outcome::Unprocessed(portion)) => {
                self.outcome = None;
                Some(portion)
            }
            _ => None,
        }
    }
}
