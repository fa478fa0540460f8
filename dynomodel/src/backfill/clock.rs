//! The time a backfill paces its writes and backs off by: [`BackfillClock`], with the system's
//! ([`SystemClock`]) and a simulated one for tests ([`SimulatedClock`]), whose sleeps move its time
//! at once, so a test can check a write budget per simulated second without waiting.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A monotonic clock a backfill reads and sleeps on: how it keeps to its
/// [write budget](crate::Backfill::write_budget) and waits before retrying a throttled request.
///
/// Times are durations since the clock's own origin (its creation).
pub trait BackfillClock: Send + Sync + fmt::Debug {
    /// The time now, since the clock's origin.
    fn now(&self) -> Duration;

    /// A future that completes once [`now`](BackfillClock::now) is `deadline` or later.
    fn sleep_until(&self, deadline: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// The system's monotonic clock, sleeping on tokio's timer (the default).
///
/// ```
/// use dynomodel::backfill::{BackfillClock, SystemClock};
///
/// let clock = SystemClock::new();
/// let before = clock.now();
/// assert!(clock.now() >= before);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SystemClock {
    origin: std::time::Instant,
}

impl SystemClock {
    /// A clock whose origin is now.
    pub fn new() -> SystemClock {
        SystemClock {
            origin: std::time::Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl BackfillClock for SystemClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }

    fn sleep_until(&self, deadline: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let wait = deadline.saturating_sub(self.now());
        Box::pin(async move {
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
        })
    }
}

/// A simulated clock: time stands still until someone sleeps, and a sleep moves it to its deadline
/// at once. Clones share one time. For tests of pacing and backoff that must not wait, and that
/// assert on units per simulated second.
///
/// ```
/// use std::time::Duration;
/// use dynomodel::backfill::{BackfillClock, SimulatedClock};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let clock = SimulatedClock::new();
/// clock.sleep_until(Duration::from_secs(3)).await;
/// assert_eq!(clock.now(), Duration::from_secs(3));
/// clock.sleep_until(Duration::from_secs(1)).await; // in the past: no move
/// assert_eq!(clock.now(), Duration::from_secs(3));
/// # });
/// ```
#[derive(Debug, Clone, Default)]
pub struct SimulatedClock {
    now: Arc<Mutex<Duration>>,
}

impl SimulatedClock {
    /// A clock at zero.
    pub fn new() -> SimulatedClock {
        SimulatedClock::default()
    }

    /// Moves the time forward by `by`.
    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        *now += by;
    }
}

impl BackfillClock for SimulatedClock {
    fn now(&self) -> Duration {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn sleep_until(&self, deadline: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let mut now = self.now.lock().unwrap_or_else(|e| e.into_inner());
        if *now < deadline {
            *now = deadline;
        }
        Box::pin(std::future::ready(()))
    }
}
