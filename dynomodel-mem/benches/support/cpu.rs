//! What the CPU-time benches (`datapath_cpu`, `wire_cpu`) share: their command line and the CPU time
//! of the running thread.

use std::time::Duration;

/// CPU time this thread has used (`/proc/thread-self/schedstat`; `None` off Linux).
pub(crate) fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The command line `[--bench] [OP...] [--iterations N]`: the operations to run (all of `ops` when
/// none is named) and the iterations of each (20,000 unless told; a positive number). `None` when an
/// argument is neither (a filter `cargo bench` meant for another bench: then this one runs nothing)
/// or N is not a positive number.
pub(crate) fn parse_args(ops: &[&str]) -> Option<(Vec<String>, u32)> {
    let mut iterations = 20_000;
    let mut chosen = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--iterations" => iterations = args.next()?.parse().ok().filter(|n| *n > 0)?,
            // What `cargo bench` passes to every bench.
            "--bench" => {}
            op if ops.contains(&op) => chosen.push(arg),
            _ => return None,
        }
    }
    if chosen.is_empty() {
        chosen = ops.iter().map(|op| op.to_string()).collect();
    }
    Some((chosen, iterations))
}
