//! The engine's clock: the one source of "now" for everything time-based.
//!
//! Today it decides when a transaction's `ClientRequestToken` stops protecting it (10 minutes after the
//! first call completed) and stamps a table's `CreationDateTime`; Time to Live and stream retention are
//! meant to read it too.
//! An engine runs on [`SystemClock`] unless it is built with [`MemBackend::with_clock`]; tests give it a
//! [`ManualClock`] and move time forward themselves, so a 10-minute window is tested in microseconds and
//! at its exact boundary.
//!
//! [`MemBackend::with_clock`]: crate::MemBackend::with_clock

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

/// Where the engine reads the current time.
///
/// Wall-clock time (UTC), because that is what DynamoDB exposes: TTL attributes hold epoch seconds and
/// descriptions carry timestamps. Implementations must be cheap: the engine may call `now` on every
/// request. The engine calls `now` while it holds its lock, so `now` must not call into the engine it
/// serves: that would deadlock.
///
/// ```
/// use chrono::{DateTime, Utc};
/// use dynomodel::backend::{
///     AttributeDefinition, Backend, BillingMode, CreateTableInput, KeySchemaElement,
///     ScalarAttributeType,
/// };
/// use dynomodel_mem::{Clock, MemBackend};
///
/// /// A clock stopped at one instant.
/// #[derive(Debug)]
/// struct Frozen(DateTime<Utc>);
///
/// impl Clock for Frozen {
///     fn now(&self) -> DateTime<Utc> {
///         self.0
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let backend = MemBackend::with_clock(Frozen(DateTime::UNIX_EPOCH));
/// let created = backend
///     .create_table(CreateTableInput {
///         table_name: "users".into(),
///         attribute_definitions: vec![AttributeDefinition {
///             attribute_name: "id".into(),
///             attribute_type: ScalarAttributeType::S,
///         }],
///         key_schema: vec![KeySchemaElement::hash("id")],
///         billing_mode: Some(BillingMode::PayPerRequest),
///         ..Default::default()
///     })
///     .await?;
/// // Every table of this engine was created at the epoch.
/// assert_eq!(created.table_description.creation_date_time, DateTime::UNIX_EPOCH);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
pub trait Clock: Send + Sync + fmt::Debug {
    /// The current time.
    fn now(&self) -> DateTime<Utc>;
}

/// The system's wall clock: [`Utc::now`]. The default.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that stands still until it is told to move, for tests.
///
/// Clones share one time, so a test keeps a clone and advances the engine's clock from outside. Time
/// only moves forward.
///
/// ```
/// use std::time::Duration;
/// use dynomodel::{AttributeValue, Item};
/// use dynomodel::backend::{
///     AttributeDefinition, Backend, BillingMode, CreateTableInput, KeySchemaElement,
///     ScalarAttributeType, TransactPut, TransactWriteItem, TransactWriteItemsInput,
/// };
/// use dynomodel_mem::{Clock, ManualClock, MemBackend};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let clock = ManualClock::default();
/// let backend = MemBackend::with_clock(clock.clone());
/// backend
///     .create_table(CreateTableInput {
///         table_name: "orders".into(),
///         attribute_definitions: vec![AttributeDefinition {
///             attribute_name: "id".into(),
///             attribute_type: ScalarAttributeType::S,
///         }],
///         key_schema: vec![KeySchemaElement::hash("id")],
///         billing_mode: Some(BillingMode::PayPerRequest),
///         ..Default::default()
///     })
///     .await?;
///
/// let put = |n: &str| TransactWriteItemsInput {
///     transact_items: vec![TransactWriteItem::Put(TransactPut {
///         table_name: "orders".into(),
///         item: Item::from([("id".to_owned(), AttributeValue::S(n.into()))]),
///         ..Default::default()
///     })],
///     client_request_token: Some("order-1".into()),
///     ..Default::default()
/// };
/// backend.transact_write_items(put("o1")).await?;
///
/// // Within 10 minutes the token belongs to that request: other parameters are refused.
/// clock.advance(Duration::from_secs(599));
/// let err = backend.transact_write_items(put("o2")).await.unwrap_err();
/// assert_eq!(err.code(), "IdempotentParameterMismatchException");
///
/// // Ten minutes after the first call completed, the token is free again.
/// clock.advance(Duration::from_secs(1));
/// backend.transact_write_items(put("o2")).await?;
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct ManualClock {
    now: Arc<Mutex<DateTime<Utc>>>,
}

impl ManualClock {
    /// A clock showing `start`.
    pub fn new(start: DateTime<Utc>) -> ManualClock {
        ManualClock {
            now: Arc::new(Mutex::new(start)),
        }
    }

    /// Moves the time forward by `by` (saturating at chrono's largest date).
    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(PoisonError::into_inner);
        let step = TimeDelta::from_std(by).unwrap_or(TimeDelta::MAX);
        *now = now
            .checked_add_signed(step)
            .unwrap_or(DateTime::<Utc>::MAX_UTC);
    }
}

impl Default for ManualClock {
    /// A clock showing 2025-01-01T00:00:00Z: a fixed, readable start, so tests are deterministic.
    fn default() -> ManualClock {
        ManualClock::new(DateTime::from_timestamp(1_735_689_600, 0).unwrap_or(DateTime::UNIX_EPOCH))
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The clock an engine holds: shared, [`SystemClock`] unless told otherwise.
#[derive(Debug, Clone)]
pub(crate) struct EngineClock(Arc<dyn Clock>);

impl EngineClock {
    /// The engine clock reading `clock`.
    pub(crate) fn new(clock: impl Clock + 'static) -> EngineClock {
        EngineClock(Arc::new(clock))
    }

    /// The current time.
    pub(crate) fn now(&self) -> DateTime<Utc> {
        self.0.now()
    }
}

impl Default for EngineClock {
    fn default() -> EngineClock {
        EngineClock::new(SystemClock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_when_told_and_clones_share_it() {
        let clock = ManualClock::default();
        let start = clock.now();
        assert_eq!(start.to_rfc3339(), "2025-01-01T00:00:00+00:00");
        let shared = clock.clone();
        shared.advance(Duration::from_millis(1500));
        assert_eq!(clock.now() - start, TimeDelta::milliseconds(1500));
        // A step beyond chrono's range saturates instead of panicking.
        clock.advance(Duration::MAX);
        assert_eq!(clock.now(), DateTime::<Utc>::MAX_UTC);
    }

    #[test]
    fn system_clock_is_the_default() {
        let before = Utc::now();
        let now = EngineClock::default().now();
        assert!(now >= before && now <= Utc::now());
    }
}
