//! Eventual consistency on demand: what a write's readers see before its changes have propagated.
//!
//! DynamoDB maintains a global secondary index asynchronously and serves reads without
//! `ConsistentRead` from replicas that may lag; every emulator (this engine too, by default) is
//! strongly consistent, so code that reads a GSI right after writing passes every test and fails in
//! production. With [`EventualConsistency`] set on the builder, the engine models both lags on its
//! clock, deterministically:
//!
//! - **GSI propagation** (`storage/index/lag.rs`, read through `storage/index/lagging.rs`): each write's change to each GSI becomes visible after a
//!   delay (fixed, or drawn within bounds from a seed). Until then a Query or Scan of that GSI sees
//!   the entry as it was before the change: a new item is missing, an updated one shows its old
//!   version (and its old index key), a deleted one is still there.
//! - **Stale reads** (`stale.rs`, read through `read/stale.rs`; an LSI's pending changes as a
//!   GSI's): GetItem,
//!   BatchGetItem, Query and Scan of the table and of its local secondary indexes without
//!   `ConsistentRead` see an item as it was before a write for `stale_reads` after the write:
//!   always, not by chance, so that a test that tolerates stale reads passes every time and one
//!   that does not fails every time (a probability, even seeded, would make a wrong test pass on
//!   most runs and fail on the odd one whenever another write shifts the draws).
//!
//! What stays immediate, as on DynamoDB: strongly consistent reads, condition expressions (evaluated
//! on the current item), the item a write returns (`ReturnValues`), TransactGetItems, streams and the
//! items Time to Live deletes (only their effect on the indexes lags, as any deletion's).
//!
//! While a key has a change pending, readers see it as it was before its *first* pending change,
//! and all its pending changes arrive together when the last one is due: changes to one item never
//! arrive out of order, and a key written again before its change arrived waits for the latest
//! (an intermediate version may never be seen, as on DynamoDB).
//!
//! The pending changes are kept beside the current state (never instead of it): the table and its
//! indexes always hold the current items, which the write path, the consistency checker and
//! durable mode see; readers that may be stale consult the pending versions on their way. So
//! [`settle`](crate::MemBackend::settle) is dropping them, and an engine with the setting off
//! pays one branch per GSI write and per read of a table or index.

mod stale;

pub(crate) use stale::{is_stale, StalePartitions, StaleVersion, StaleVersions};

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

use crate::storage::clock::EngineClock;

/// Eventual consistency on demand: the delays the engine models (see
/// [`MemBackendBuilder::eventual_consistency`](crate::MemBackendBuilder::eventual_consistency)).
///
/// Off by default (every read is strongly consistent, as on DynamoDB Local). The defaults here:
/// a GSI change arrives one second after its write, and reads without `ConsistentRead` see an item
/// as it was before a write for one second after it.
///
/// ```
/// use std::time::Duration;
/// use dynomodel_mem::EventualConsistency;
///
/// // GSI changes arrive 50 to 500 ms after their writes (drawn from seed 7); reads without
/// // `ConsistentRead` are stale for 100 ms after a write.
/// let settings = EventualConsistency::new()
///     .gsi_delay_between(Duration::from_millis(50), Duration::from_millis(500))
///     .seed(7)
///     .stale_reads(Duration::from_millis(100));
/// assert_eq!(settings.gsi_delay_bounds(), (Duration::from_millis(50), Duration::from_millis(500)));
/// assert_eq!(settings.stale_window(), Duration::from_millis(100));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventualConsistency {
    gsi_min: Duration,
    gsi_max: Duration,
    seed: u64,
    stale: Duration,
}

impl Default for EventualConsistency {
    fn default() -> EventualConsistency {
        EventualConsistency::new()
    }
}

impl EventualConsistency {
    /// The defaults: GSI changes arrive one second after their writes, reads without
    /// `ConsistentRead` are stale for one second after a write. The builder's methods are
    /// `const`, so that a setting can be written in a `static` (a [`Fixture`](crate::Fixture)'s).
    pub const fn new() -> EventualConsistency {
        EventualConsistency {
            gsi_min: Duration::from_secs(1),
            gsi_max: Duration::from_secs(1),
            seed: 0,
            stale: Duration::from_secs(1),
        }
    }

    /// Every GSI change arrives `delay` after its write (zero: at once, as without the setting).
    pub const fn gsi_delay(self, delay: Duration) -> EventualConsistency {
        self.gsi_delay_between(delay, delay)
    }

    /// Each write's change to each GSI arrives after a delay drawn between `min` and `max`
    /// (inclusive, to the microsecond) from the [`seed`](EventualConsistency::seed): the same
    /// writes in the same order get the same delays. Bounds given the wrong way round are swapped.
    pub const fn gsi_delay_between(mut self, min: Duration, max: Duration) -> EventualConsistency {
        // `Ord::min` is not `const`; the nanoseconds compare the same.
        (self.gsi_min, self.gsi_max) = if min.as_nanos() <= max.as_nanos() {
            (min, max)
        } else {
            (max, min)
        };
        self
    }

    /// The seed of the GSI delays (default 0).
    pub const fn seed(mut self, seed: u64) -> EventualConsistency {
        self.seed = seed;
        self
    }

    /// Reads without `ConsistentRead` see an item as it was before a write for `window` after the
    /// write (zero: never stale).
    pub const fn stale_reads(mut self, window: Duration) -> EventualConsistency {
        self.stale = window;
        self
    }

    /// The bounds of a GSI change's delay.
    pub const fn gsi_delay_bounds(&self) -> (Duration, Duration) {
        (self.gsi_min, self.gsi_max)
    }

    /// How long reads without `ConsistentRead` stay stale after a write.
    pub const fn stale_window(&self) -> Duration {
        self.stale
    }
}

/// A table's side of the setting: the settings, the clock the delays are measured on, and the
/// count of the table's writes that the seeded delays are drawn from.
#[derive(Debug, Clone)]
pub(crate) struct Propagation {
    settings: Arc<EventualConsistency>,
    clock: EngineClock,
    writes: u64,
}

/// When a write at `now` arrives after `delay`.
fn after(now: DateTime<Utc>, delay: Duration) -> DateTime<Utc> {
    TimeDelta::from_std(delay)
        .ok()
        .and_then(|d| now.checked_add_signed(d))
        .unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// SplitMix64's finaliser: a well-mixed 64-bit value from any input.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Propagation {
    /// The setting `settings` of a table whose engine reads the time from `clock`.
    pub(crate) fn new(settings: Arc<EventualConsistency>, clock: EngineClock) -> Propagation {
        Propagation {
            settings,
            clock,
            writes: 0,
        }
    }

    /// Moves a copy of the table to another engine's clock (a fork's).
    pub(crate) fn rebind(&mut self, clock: EngineClock) {
        self.clock = clock;
    }

    /// The current time on the engine's clock.
    pub(crate) fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// Counts one more write of the table; answers its number (what its delays are drawn from).
    pub(crate) fn next_write(&mut self) -> u64 {
        self.writes += 1;
        self.writes
    }

    /// When the change of write number `write` to the `nth` GSI of the table, made at `now`,
    /// arrives.
    pub(crate) fn gsi_due(&self, now: DateTime<Utc>, write: u64, nth: usize) -> DateTime<Utc> {
        let (min, max) = (self.settings.gsi_min, self.settings.gsi_max);
        let span = u64::try_from((max - min).as_micros()).unwrap_or(u64::MAX);
        let delay = if span == 0 {
            min
        } else {
            let draw = mix(self.settings.seed ^ mix(write ^ mix(nth as u64)));
            min + Duration::from_micros(draw % span.saturating_add(1))
        };
        after(now, delay)
    }

    /// Until when a write at `now` leaves reads without `ConsistentRead` stale; `None` when they
    /// never are.
    pub(crate) fn stale_until(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        (!self.settings.stale.is_zero()).then(|| after(now, self.settings.stale))
    }

    /// Whether some index's changes arrive later than their writes for some reader.
    pub(crate) fn lags_indexes(&self) -> bool {
        !self.settings.gsi_max.is_zero() || !self.settings.stale.is_zero()
    }

    /// When the change of write number `write` (made at `now`) to the `nth` index of the table
    /// arrives for the readers that may miss it: a GSI's (every reader) after the GSI delay, an
    /// LSI's (readers without `ConsistentRead`, which read the table's replicas) after the stale
    /// window; `None`: at once.
    pub(crate) fn index_due(
        &self,
        now: DateTime<Utc>,
        write: u64,
        nth: usize,
        global: bool,
    ) -> Option<DateTime<Utc>> {
        if global {
            (!self.settings.gsi_max.is_zero()).then(|| self.gsi_due(now, write, nth))
        } else {
            self.stale_until(now)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::clock::ManualClock;

    #[test]
    fn seeded_delays_stay_within_bounds_and_repeat() {
        let settings = Arc::new(
            EventualConsistency::new()
                .gsi_delay_between(Duration::from_millis(500), Duration::from_millis(10))
                .seed(42),
        );
        assert_eq!(
            settings.gsi_delay_bounds(),
            (Duration::from_millis(10), Duration::from_millis(500))
        );
        let p = Propagation::new(settings.clone(), EngineClock::new(ManualClock::default()));
        let now = p.now();
        let delays: Vec<_> = (1..200).map(|w| p.gsi_due(now, w, 0) - now).collect();
        assert!(delays
            .iter()
            .all(|d| *d >= TimeDelta::milliseconds(10) && *d <= TimeDelta::milliseconds(500)));
        assert!(delays.iter().any(|d| *d != delays[0]), "drawn, not fixed");
        let again = Propagation::new(settings, EngineClock::new(ManualClock::default()));
        let repeated: Vec<_> = (1..200).map(|w| again.gsi_due(now, w, 0) - now).collect();
        assert_eq!(delays, repeated, "the same seed gives the same delays");
        let other = Propagation::new(
            Arc::new(
                EventualConsistency::new()
                    .gsi_delay_between(Duration::from_millis(10), Duration::from_millis(500))
                    .seed(43),
            ),
            EngineClock::new(ManualClock::default()),
        );
        let others: Vec<_> = (1..200).map(|w| other.gsi_due(now, w, 0) - now).collect();
        assert_ne!(delays, others, "another seed, other delays");
    }

    #[test]
    fn zero_settings_lag_nothing() {
        let p = Propagation::new(
            Arc::new(
                EventualConsistency::new()
                    .gsi_delay(Duration::ZERO)
                    .stale_reads(Duration::ZERO),
            ),
            EngineClock::new(ManualClock::default()),
        );
        assert!(!p.lags_indexes());
        assert_eq!(p.stale_until(p.now()), None);
    }
}
