//! CPU time of a whole process (every thread), to compare what the two servers spend per request
//! independently of the client, which shares the machine with them.

use std::time::Duration;

/// The CPU time (user + system) that process `pid` has used so far, or `None` where it cannot be read
/// (not Linux, or the process is gone).
///
/// The sum of `/proc/PID/task/*/schedstat` (nanoseconds) rather than `/proc/PID/stat` (10 ms ticks,
/// too coarse for a one-second phase of a server that needs 20 µs a request). Threads that exited
/// during a phase are missed; both servers keep theirs (tokio workers, Jetty's pool, the JVM's
/// compiler and GC threads) for their lifetime.
pub(crate) fn process_cpu(pid: u32) -> Option<Duration> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut total = 0u64;
    for task in tasks.flatten() {
        // A thread may exit between listing and reading: it then simply does not count.
        if let Ok(text) = std::fs::read_to_string(task.path().join("schedstat")) {
            total += text
                .split_whitespace()
                .next()
                .and_then(|ns| ns.parse::<u64>().ok())?;
        }
    }
    Some(Duration::from_nanos(total))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn this_process_uses_cpu() {
        let before = process_cpu(std::process::id()).unwrap();
        let mut x = 0u64;
        for i in 0..10_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(process_cpu(std::process::id()).unwrap() > before);
    }
}
