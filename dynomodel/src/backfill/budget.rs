//! The write budget: a pacer shared by a backfill's segments that lets writes go at no more than
//! a given number of write capacity units per second, by the units each write reports (or, where
//! the backend reports none, by its estimate from the item's size), and the backoff after a
//! throttled request.

use std::sync::Mutex;
use std::time::Duration;

use super::clock::BackfillClock;

/// Paces writes to `units_per_second`: each write reserves the time its units take at that rate
/// (from its estimate, before it is sent), waits until the writes reserved before it have had
/// theirs, and corrects the reservation by the units it actually consumed once answered. The
/// reservations of concurrent segments queue one after the other, so the rate holds for them
/// together.
#[derive(Debug)]
pub(crate) struct Pacer {
    units_per_second: Option<f64>,
    /// When the next write may start, on the backfill's clock.
    next_free: Mutex<Duration>,
}

impl Pacer {
    /// A pacer for `units_per_second` (none: writes go at once).
    pub(crate) fn new(units_per_second: Option<f64>) -> Pacer {
        Pacer {
            units_per_second: units_per_second.filter(|u| *u > 0.0 && u.is_finite()),
            next_free: Mutex::new(Duration::ZERO),
        }
    }

    fn time_for(&self, units: f64) -> Duration {
        match self.units_per_second {
            Some(rate) => Duration::from_secs_f64((units.max(0.0)) / rate),
            None => Duration::ZERO,
        }
    }

    /// Reserves `estimate` units and waits until the write may go.
    pub(crate) async fn reserve(&self, clock: &dyn BackfillClock, estimate: f64) {
        if self.units_per_second.is_none() {
            return;
        }
        let start = {
            let mut next = self.next_free.lock().unwrap_or_else(|e| e.into_inner());
            let start = (*next).max(clock.now());
            *next = start + self.time_for(estimate);
            start
        };
        clock.sleep_until(start).await;
    }

    /// Corrects the last reservation of `estimate` units by the `consumed` units the write reported.
    pub(crate) fn settle(&self, estimate: f64, consumed: f64) {
        if self.units_per_second.is_none() || consumed == estimate {
            return;
        }
        let mut next = self.next_free.lock().unwrap_or_else(|e| e.into_inner());
        if consumed > estimate {
            *next += self.time_for(consumed - estimate);
        } else {
            *next = next.saturating_sub(self.time_for(estimate - consumed));
        }
    }

    /// The end of the time reserved so far: a run's writes fit in `[0, reserved_until]` at the rate.
    pub(crate) fn reserved_until(&self) -> Duration {
        *self.next_free.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The pause before retry `attempt` (1-based) of a throttled or failed request: exponential from
/// 50 ms, capped at 10 s, with a deterministic spread by `salt` (the segment) so that segments
/// throttled together do not retry together.
pub(crate) fn backoff(attempt: u32, salt: u32) -> Duration {
    let base = 50u64.saturating_mul(1u64 << attempt.saturating_sub(1).min(10));
    let capped = base.min(10_000);
    let spread = capped / 4 * u64::from(salt % 4) / 4;
    Duration::from_millis(capped - spread)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backfill::SimulatedClock;

    #[test]
    fn backoff_grows_and_is_capped() {
        assert_eq!(backoff(1, 0), Duration::from_millis(50));
        assert_eq!(backoff(2, 0), Duration::from_millis(100));
        assert_eq!(backoff(30, 0), Duration::from_millis(10_000));
        assert!(backoff(3, 1) < backoff(3, 0));
    }

    #[tokio::test]
    async fn pacer_spaces_writes_by_their_units() {
        let clock = SimulatedClock::new();
        let pacer = Pacer::new(Some(10.0));
        for _ in 0..20 {
            pacer.reserve(&clock, 1.0).await;
            pacer.settle(1.0, 2.0);
        }
        // 20 writes of 2 units at 10 units/s: the last starts at 3.8 s, all end by 4 s.
        assert_eq!(clock.now(), Duration::from_millis(3800));
        assert_eq!(pacer.reserved_until(), Duration::from_secs(4));
    }

    #[tokio::test]
    async fn no_budget_never_waits() {
        let clock = SimulatedClock::new();
        let pacer = Pacer::new(None);
        pacer.reserve(&clock, 100.0).await;
        assert_eq!(clock.now(), Duration::ZERO);
    }
}
