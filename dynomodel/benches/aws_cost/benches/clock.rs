//! This thread's CPU time, to the nanosecond: `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` (through
//! rustix, so no `unsafe` here). `/proc/thread-self/schedstat`, which the other CPU benches read,
//! is brought up to date at the scheduler's tick and at context switches only, so on a loop that
//! never sleeps (the canned mode) it moves in steps of a tick (4 ms here).

use std::time::Duration;

/// CPU time this thread has used.
pub(crate) fn thread_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    // Never negative: a CPU time counts up from the thread's start.
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}
