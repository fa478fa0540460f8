//! `--interleave`: the variants interleaved at a fine grain, so that a drift of the machine (its
//! neighbours, its frequency, the other helpers' builds) hits every variant alike instead of
//! whichever chunk it falls in.
//!
//! - Each iteration runs every chosen variant once, in a new random order (`Orders`), so that each
//!   variant follows every other one equally often: what a request costs depends on the variant
//!   run before it (its code and data left in the caches: a GetItem's first request after another
//!   variant costs 10–30 % more than the next ones), and with a fixed rotation each variant has
//!   the same two neighbours, which biased even two identical variants by 0.5 %.
//! - A variant runs in a burst of `--burst B` requests (16 unless told): the first half untimed,
//!   to warm what the variant before left cold, the second half timed as one interval by this
//!   thread's CPU clock (`clock.rs`). Reading the clock costs the same for every variant (a system
//!   call on this VM, ~0.5 µs); what an empty timed interval reads (the median of many, printed)
//!   is subtracted. `--burst 1` times each request alone, cold.
//! - The report gives per variant the median time per request with its 95 % confidence interval,
//!   and per pair (`X ÷ hand` within each operation, the A/A `hand_again ÷ hand` included, and
//!   `dynomodel ÷ serde_dynamo`) the median of the per-iteration ratios with its 95 % confidence
//!   interval: the order statistics of the median (distribution-free: ranks n/2 ± 0.98 √n), which
//!   assume the iterations independent; the first and second halves' medians are printed beside
//!   them, as a check of a drift the pairing did not cancel. That interval is within one process:
//!   a process's memory layout moves the ratios by more (`./interleave` runs several processes).
//! - `AWS_CPU_SAMPLES=FILE` writes every request's time out (each timed alone).

use std::fmt::Write as _;
use std::time::Instant;

use dynomodel_aws_cost_bench::interleave::{median, median_interval, pairs, Orders};

use super::clock;

/// The samples of one run: per variant, its time per iteration (ns, clock cost subtracted).
pub(crate) struct Samples {
    pub(crate) names: Vec<String>,
    pub(crate) ns: Vec<Vec<f64>>,
    /// What an empty timed interval measured (ns, median), subtracted from every sample.
    pub(crate) empty_interval: f64,
    /// What one read of the clock costs (ns of wall time, mean over many).
    pub(crate) read_cost: f64,
    /// Requests a sample times, per variant and iteration.
    pub(crate) timed: usize,
    /// Untimed requests before them.
    pub(crate) warming: usize,
}

/// The clock's own costs: a read's wall time (ns, mean) and an empty interval's reading (ns,
/// median).
fn clock_costs() -> (f64, f64) {
    const READS: u32 = 100_000;
    let started = Instant::now();
    for _ in 0..READS {
        std::hint::black_box(clock::thread_cpu());
    }
    let read_cost = started.elapsed().as_secs_f64() * 1e9 / f64::from(READS);
    let mut empty: Vec<f64> = (0..READS)
        .map(|_| {
            let before = clock::thread_cpu();
            let after = clock::thread_cpu();
            (after - before).as_secs_f64() * 1e9
        })
        .collect();
    (read_cost, median(&mut empty))
}

/// Runs `iterations` interleaved iterations of the variants `names` (after `warm_up` untimed
/// ones), `one(variant, iteration)` running one request of a variant. In each iteration a variant
/// runs `burst` requests in a row: the first half warm its code and data after the variant before
/// (untimed), the sample is the mean of the second half, timed as one interval (with `burst` 1,
/// the one request, timed).
pub(crate) fn run(
    names: &[String],
    warm_up: usize,
    iterations: usize,
    burst: usize,
    mut one: impl FnMut(usize, usize),
) -> Samples {
    let k = names.len();
    let mut orders = Orders::new(0x5eed);
    for i in 0..warm_up {
        for v in orders.order(k) {
            one(v, i);
        }
    }
    let (read_cost, empty_interval) = clock_costs();
    let timed = burst - burst / 2;
    let mut ns = vec![Vec::with_capacity(iterations); k];
    // `AWS_CPU_SAMPLES=FILE`: every request timed alone and written out (iteration, position,
    // request in the burst, variant, ns), to look at how the first requests after a switch cost.
    let mut dump = std::env::var_os("AWS_CPU_SAMPLES").map(|_| String::new());
    for i in 0..iterations {
        for (position, v) in orders.order(k).into_iter().enumerate() {
            if let Some(dump) = &mut dump {
                let mut sum = 0.0;
                for b in 0..burst {
                    let before = clock::thread_cpu();
                    one(v, i);
                    let sample =
                        (clock::thread_cpu() - before).as_secs_f64() * 1e9 - empty_interval;
                    if b >= burst / 2 {
                        sum += sample;
                    }
                    let _ = writeln!(dump, "{i},{position},{b},{},{sample:.0}", names[v]);
                }
                ns[v].push(sum / timed as f64);
                continue;
            }
            for _ in 0..burst / 2 {
                one(v, i);
            }
            let before = clock::thread_cpu();
            for _ in 0..timed {
                one(v, i);
            }
            let elapsed = (clock::thread_cpu() - before).as_secs_f64() * 1e9;
            ns[v].push((elapsed - empty_interval) / timed as f64);
        }
    }
    if let (Some(dump), Some(path)) = (dump, std::env::var_os("AWS_CPU_SAMPLES")) {
        std::fs::write(path, dump).expect("writing the samples");
    }
    Samples {
        names: names.to_vec(),
        ns,
        empty_interval,
        read_cost,
        timed,
        warming: burst / 2,
    }
}

/// The report of a run, as printed.
pub(crate) fn report(samples: &Samples) -> String {
    let mut out = String::new();
    let n = samples.ns.first().map_or(0, Vec::len);
    let _ = writeln!(
        out,
        "{n} interleaved iterations of {} timed requests after {} untimed; a clock read costs {:.0} ns, an empty timed interval reads {:.0} ns (subtracted)",
        samples.timed, samples.warming, samples.read_cost, samples.empty_interval
    );
    for (name, ns) in samples.names.iter().zip(&samples.ns) {
        let (low, m, high) = median_interval(ns);
        let _ = writeln!(
            out,
            "{name:<30} median {:>9.3} µs/request  (95 % {:.3}–{:.3})",
            m / 1e3,
            low / 1e3,
            high / 1e3
        );
    }
    for (a, b) in pairs(&samples.names) {
        let ratios: Vec<f64> = samples.ns[a]
            .iter()
            .zip(&samples.ns[b])
            .map(|(x, y)| x / y)
            .collect();
        let (low, m, high) = median_interval(&ratios);
        let (first, second) = ratios.split_at(ratios.len() / 2);
        let _ = writeln!(
            out,
            "{:<48} median ratio {m:.4}  (95 % {low:.4}–{high:.4}; halves {:.4}, {:.4})",
            format!("{} ÷ {}", samples.names[a], samples.names[b]),
            median(&mut first.to_vec()),
            median(&mut second.to_vec()),
        );
    }
    out
}
