//! Time in durable mode. A write runs with the engine's clock *pinned* to one instant, which its log
//! record keeps; replay pins the clock to that same instant. Everything a write derives from the time
//! (stream records' times and labels, TTL and table transitions, a token's window) therefore comes
//! out of replay exactly as it was, and a request reads one consistent "now" however often it asks.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::clock::{Clock, EngineClock};

/// No instant pinned.
const UNPINNED: i64 = i64::MIN;

/// The pin shared by the clock and durable mode.
#[derive(Debug, Clone)]
pub(crate) struct Pin(Arc<AtomicI64>);

impl Pin {
    fn new() -> Pin {
        Pin(Arc::new(AtomicI64::new(UNPINNED)))
    }

    /// Pins the clock at `at`. Only under the engine's write lock, so no reader sees a pinned time.
    pub(crate) fn set(&self, at: DateTime<Utc>) {
        let nanos = at.timestamp_nanos_opt().unwrap_or(UNPINNED + 1);
        self.0.store(nanos, Ordering::Release);
    }

    /// Lets the clock run again.
    pub(crate) fn clear(&self) {
        self.0.store(UNPINNED, Ordering::Release);
    }

    fn get(&self) -> Option<DateTime<Utc>> {
        match self.0.load(Ordering::Acquire) {
            UNPINNED => None,
            nanos => Some(DateTime::from_timestamp_nanos(nanos)),
        }
    }
}

/// The engine's clock in durable mode: the pinned instant, else the underlying clock.
#[derive(Debug)]
pub(crate) struct PinnedClock {
    inner: EngineClock,
    pin: Pin,
}

impl Clock for PinnedClock {
    fn now(&self) -> DateTime<Utc> {
        self.pin.get().unwrap_or_else(|| self.inner.now())
    }
}

/// `inner` made pinnable, and its pin.
pub(crate) fn pinnable(inner: EngineClock) -> (EngineClock, Pin, EngineClock) {
    let pin = Pin::new();
    let clock = EngineClock::new(PinnedClock {
        inner: inner.clone(),
        pin: pin.clone(),
    });
    (clock, pin, inner)
}
