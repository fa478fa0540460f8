//! The retry loop of one chunk, shared by reads and writes: send, keep what the answer left
//! unprocessed, pause (exponential backoff, full jitter), send that again, until nothing is left or
//! the attempts run out.

use std::future::Future;

use crate::db::batch::options::{sleep, BatchOptions};
use crate::error::Result;

/// What a chunk came to.
#[derive(Debug)]
pub(crate) struct Retried<T, E> {
    /// What each attempt brought back (read items; nothing for writes), in order.
    pub(crate) answers: Vec<T>,
    /// What was still unprocessed after the last attempt (empty: the chunk is done).
    pub(crate) left: Vec<E>,
    /// Requests sent.
    pub(crate) attempts: u32,
}

/// Sends `entries` (never empty) with `send`, which makes one request of them and returns its answer
/// and the entries it left unprocessed; resends the leftovers after a pause until none is left or
/// `options.max_attempts` requests were sent. An error from `send` ends the chunk with that error.
///
/// No request is ever empty: the first holds `entries`, and a retry happens only when something
/// was left.
pub(crate) async fn with_retries<E, T, F, Fut>(
    options: &BatchOptions,
    entries: Vec<E>,
    mut send: F,
) -> Result<Retried<T, E>>
where
    F: FnMut(Vec<E>) -> Fut,
    Fut: Future<Output = Result<(T, Vec<E>)>>,
{
    let mut answers = Vec::new();
    let mut pending = entries;
    let mut attempts = 0;
    loop {
        attempts += 1;
        let (answer, left) = send(pending).await?;
        answers.push(answer);
        if left.is_empty() || attempts >= options.max_attempts {
            return Ok(Retried {
                answers,
                left,
                attempts,
            });
        }
        sleep(options.delay(attempts)).await;
        pending = left;
    }
}

/// `items` split into chunks of at most `size` (DynamoDB's limit per request), moved rather than
/// copied, in order; no chunk is empty.
pub(crate) fn chunked<T>(items: Vec<T>, size: usize) -> Vec<Vec<T>> {
    let mut chunks = Vec::with_capacity(items.len().div_ceil(size.max(1)));
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        chunks.push(items.by_ref().take(size.max(1)).collect());
    }
    chunks
}
