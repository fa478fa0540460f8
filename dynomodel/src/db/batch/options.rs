//! [`BatchOptions`]: how many chunks of a batch run at once, and how the keys and writes DynamoDB
//! leaves unprocessed are retried (exponential backoff with full jitter, bounded).

use std::hash::BuildHasher;
use std::time::Duration;

/// How [`Db::batch_get`](crate::Db::batch_get), [`Db::batch_write`](crate::Db::batch_write) and
/// [`Db::batch_get_stream`](crate::Db::batch_get_stream) run their requests.
///
/// A batch is split into DynamoDB's chunks (100 keys per `BatchGetItem`, 25 writes per
/// `BatchWriteItem`), of which at most [`concurrency`](BatchOptions::concurrency) are in flight at
/// once. What a chunk's answer reports unprocessed (`UnprocessedKeys`, `UnprocessedItems`: the
/// table was throttled, or a read hit the 16 MB response limit) is sent again after a pause, up to
/// [`max_attempts`](BatchOptions::max_attempts) requests per chunk. The pause before retry *n* is a
/// random duration between zero and `min(max_delay, base_delay × 2ⁿ⁻¹)` ("full jitter", which
/// spreads the retries of concurrent clients instead of synchronising them).
///
/// The defaults, `BatchOptions::default()`:
///
/// | option | default | why |
/// |---|---|---|
/// | `max_attempts` | 10 | the AWS SDK for Java's DynamoDB client retried up to 10 times |
/// | `base_delay` | 50 ms | the DynamoDB Developer Guide's example ("up to 50 milliseconds before the first retry, up to 100 milliseconds before the second, …", `Programming.Errors.html`); reads cut by the 16 MB limit need no longer |
/// | `max_delay` | 5 s | bounds the pauses of one chunk to about 16 s in all (8 s on average) |
/// | `concurrency` | 4 | enough to overlap round trips without multiplying throttling on a provisioned table |
///
/// Set them per call with `.options(...)` on the builders, or for every batch of a database with
/// [`Db::with_batch_options`](crate::Db::with_batch_options).
///
/// The pauses use tokio's timer: a batch that has to retry needs a Tokio runtime with time enabled
/// (`#[tokio::main]` and `#[tokio::test]` enable it), as the AWS SDK does.
///
/// ```
/// use std::time::Duration;
/// use dynomodel::{BatchOptions, Db};
/// use dynomodel_mem::MemoryDb;
///
/// let patient = BatchOptions::default()
///     .max_attempts(20)
///     .base_delay(Duration::from_millis(100))
///     .max_delay(Duration::from_secs(10))
///     .concurrency(8);
///
/// let db = Db::memory().with_batch_options(patient);
/// assert_eq!(db.batch_options(), patient);
/// assert_ne!(db.batch_options(), BatchOptions::default());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchOptions {
    pub(crate) max_attempts: u32,
    pub(crate) base_delay: Duration,
    pub(crate) max_delay: Duration,
    pub(crate) concurrency: usize,
    jitter: Jitter,
}

/// How a pause is drawn below its cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Jitter {
    /// Uniformly between zero and the cap.
    Full,
    /// Exactly the cap: for tests that check the growth of the delays.
    #[cfg(test)]
    None,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            max_attempts: 10,
            base_delay: Duration::from_millis(50),
            max_delay: Duration::from_secs(5),
            concurrency: 4,
            jitter: Jitter::Full,
        }
    }
}

impl BatchOptions {
    /// Requests sent per chunk at most, the first included (at least 1: `0` reads as `1`, which
    /// turns retries off).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The cap of the first retry's pause; each further retry doubles it, up to
    /// [`max_delay`](BatchOptions::max_delay).
    pub fn base_delay(mut self, delay: Duration) -> Self {
        self.base_delay = delay;
        self
    }

    /// The largest pause between two attempts.
    pub fn max_delay(mut self, delay: Duration) -> Self {
        self.max_delay = delay;
        self
    }

    /// Chunks in flight at once, retries and their pauses included (at least 1: `0` reads as `1`).
    pub fn concurrency(mut self, chunks: usize) -> Self {
        self.concurrency = chunks.max(1);
        self
    }

    #[cfg(test)]
    pub(crate) fn without_jitter(mut self) -> Self {
        self.jitter = Jitter::None;
        self
    }

    /// The upper bound of the pause before retry `retry` (1 for the first retry).
    pub(crate) fn delay_cap(&self, retry: u32) -> Duration {
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        self.base_delay.saturating_mul(factor).min(self.max_delay)
    }

    /// The pause before retry `retry`: full jitter below [`delay_cap`](Self::delay_cap).
    pub(crate) fn delay(&self, retry: u32) -> Duration {
        let cap = self.delay_cap(retry);
        match self.jitter {
            Jitter::Full => cap.mul_f64(random_fraction()),
            #[cfg(test)]
            Jitter::None => cap,
        }
    }
}

/// A uniform draw in `[0, 1)`. Jitter needs spread, not cryptographic quality: every `RandomState`
/// is seeded differently (fresh keys per thread, then a counter), so hashing a constant with a new
/// one gives well-mixed bits without a dependency on a random-number crate.
fn random_fraction() -> f64 {
    let bits = std::collections::hash_map::RandomState::new().hash_one(0u8);
    // The top 53 bits, as many as an f64 holds exactly: the result is below 1.
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// The only place a batch waits: tokio's timer, so that tests can run with paused time. A zero pause
/// (a jitter draw of zero) does not touch the timer at all.
pub(crate) async fn sleep(duration: Duration) {
    if !duration.is_zero() {
        tokio::time::sleep(duration).await;
    }
}
