//! Time in durable mode. A write runs with the engine's clock *pinned* to one instant, which its log
//! record keeps; replay pins the clock to that same instant. Everything a write derives from the time
//! (stream records' times and labels, TTL and table transitions, a token's window) therefore comes
//! out of replay exactly as it was, and a request reads one consistent "now" however often it asks.
//!
//! The pin is the running thread's: writes to different tables run at once on different threads (see
//! `lock.rs`), each pinned at its own instant, and a reader on another thread never sees either.

use std::cell::Cell;
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::storage::clock::{Clock, EngineClock};

thread_local! {
    /// The instant this thread's running write is pinned at, and the pin (engine) it belongs to.
    static PINNED: Cell<Option<(usize, i64)>> = const { Cell::new(None) };
}

/// The pin shared by the clock and durable mode; an engine's identity for the thread-local pin.
#[derive(Debug, Clone)]
pub(crate) struct Pin(Arc<u8>);

impl Pin {
    fn new() -> Pin {
        Pin(Arc::new(0))
    }

    /// Which engine's pin this is.
    fn id(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }

    /// Pins this engine's clock at `at`, for the calling thread only (the write it runs).
    pub(crate) fn set(&self, at: DateTime<Utc>) {
        let nanos = at.timestamp_nanos_opt().unwrap_or(i64::MIN);
        PINNED.set(Some((self.id(), nanos)));
    }

    /// Lets the clock run again.
    pub(crate) fn clear(&self) {
        PINNED.set(None);
    }

    fn get(&self) -> Option<DateTime<Utc>> {
        match PINNED.get() {
            Some((id, nanos)) if id == self.id() => Some(DateTime::from_timestamp_nanos(nanos)),
            _ => None,
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
