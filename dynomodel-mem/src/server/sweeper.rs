//! The server's background TTL sweeper: every interval, [`MemBackend::sweep_expired`] deletes the items
//! whose TTL has passed, as DynamoDB's background process does (the developer guide's
//! `howitworks-ttl.html`: expired items stay readable until then). The engine itself never deletes on its own, so that tests decide when a sweep happens;
//! the server, which stands in for the service, runs one.

use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::MissedTickBehavior;

use crate::MemBackend;

/// A running sweeper; it stops when [`TtlSweeper::stop`] is called or it is dropped.
#[derive(Debug)]
pub struct TtlSweeper {
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
}

impl TtlSweeper {
    /// Starts sweeping `backend` every `interval` (the first sweep one interval from now) on the
    /// current Tokio runtime. `None` for a zero interval, which disables sweeping.
    pub fn spawn(backend: MemBackend, interval: Duration) -> Option<TtlSweeper> {
        TtlSweeper::spawn_over(move || vec![backend.clone()], interval)
    }

    /// [`TtlSweeper::spawn`] over the engines `engines` lists at each sweep (a server that
    /// isolates its clients: the seed and every key's database, which come and go).
    pub(crate) fn spawn_over(
        engines: impl Fn() -> Vec<MemBackend> + Send + 'static,
        interval: Duration,
    ) -> Option<TtlSweeper> {
        if interval.is_zero() {
            return None;
        }
        let (stop, mut stopped) = watch::channel(false);
        let task = tokio::spawn(async move {
            let start = tokio::time::Instant::now() + interval;
            let mut ticks = tokio::time::interval_at(start, interval);
            // A sweep that overran (a huge expiry) is not followed by a burst of catch-up sweeps.
            ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = stopped.wait_for(|stop| *stop) => break,
                    _ = ticks.tick() => {}
                }
                let swept: usize = engines().iter().map(MemBackend::sweep_expired).sum();
                if swept > 0 {
                    tracing::debug!(swept, "TTL sweep deleted expired items");
                }
            }
        });
        Some(TtlSweeper {
            stop,
            task: Some(task),
        })
    }

    /// Stops the sweeper and waits for it (a sweep in progress finishes first).
    pub async fn stop(mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for TtlSweeper {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}
