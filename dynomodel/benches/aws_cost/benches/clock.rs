//! This thread's CPU time, to the nanosecond: `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` (through
//! the `cpu-time` crate, over libc: no `unsafe` here, and it runs under valgrind, which rustix's
//! own vDSO lookup does not). `/proc/thread-self/schedstat`, which the other CPU benches read, is
//! brought up to date at the scheduler's tick and at context switches only, so on a loop that
//! never sleeps (the canned mode) it moves in steps of a tick (4 ms here).

use std::time::Duration;

/// CPU time this thread has used.
pub(crate) fn thread_cpu() -> Duration {
    cpu_time::ThreadTime::now().as_duration()
}
