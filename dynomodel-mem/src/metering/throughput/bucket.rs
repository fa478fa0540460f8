//! One token bucket: a balance of capacity units, refilled at the provisioned rate by the engine's
//! clock and capped at the burst window's worth of units.

use chrono::{DateTime, Utc};

/// A balance of read or write capacity units.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bucket {
    /// Units available now (negative after a request that consumed more than there was, as a large
    /// Query may: DynamoDB admits a request while capacity remains and charges what it consumed).
    balance: f64,
    /// When `balance` was last brought up to date.
    at: DateTime<Utc>,
}

impl Bucket {
    /// A bucket holding `balance` units at `now`.
    pub(crate) fn new(balance: f64, now: DateTime<Utc>) -> Bucket {
        Bucket { balance, at: now }
    }

    /// Adds what `rate` units per second earned since the last refill, keeping at most `cap` units
    /// (a lowered rate also lowers what an idle bucket may hold). A clock that went backwards earns
    /// nothing.
    pub(crate) fn refill(&mut self, now: DateTime<Utc>, rate: f64, cap: f64) {
        let elapsed = (now - self.at).as_seconds_f64().max(0.0);
        self.balance = (self.balance + rate * elapsed).min(cap);
        if now > self.at {
            self.at = now;
        }
    }

    /// Whether a request may draw on this bucket: DynamoDB refuses only once nothing is left.
    pub(crate) fn admits(&self) -> bool {
        self.balance > 0.0
    }

    /// Takes `units` (the request's actual consumption).
    pub(crate) fn debit(&mut self, units: f64) {
        self.balance -= units;
    }

    /// The units available.
    #[cfg(test)]
    pub(crate) fn balance(&self) -> f64 {
        self.balance
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeDelta;

    #[test]
    fn refills_at_the_rate_up_to_the_cap() {
        let t0 = DateTime::UNIX_EPOCH;
        let mut b = Bucket::new(1.0, t0);
        b.debit(3.0);
        assert!(!b.admits());
        b.refill(t0 + TimeDelta::seconds(1), 1.0, 300.0);
        assert_eq!(b.balance(), -1.0);
        b.refill(t0 + TimeDelta::milliseconds(2500), 1.0, 300.0);
        assert_eq!(b.balance(), 0.5);
        assert!(b.admits());
        b.refill(t0 + TimeDelta::hours(1), 1.0, 300.0);
        assert_eq!(b.balance(), 300.0);
        // A lower cap (the rate went down) trims the balance; time going backwards earns nothing.
        b.refill(t0, 1.0, 10.0);
        assert_eq!(b.balance(), 10.0);
    }
}
