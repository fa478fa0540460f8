//! The median of the runs and the printed tables.

use std::time::Duration;

use crate::workload::Phase;

/// One phase of one run on one server.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measurement {
    pub ops_per_second: f64,
    /// CPU time the server process used per request.
    pub cpu_per_request: Option<Duration>,
    /// CPU time this process (the client) used per request.
    pub client_cpu_per_request: Option<Duration>,
}

fn median_of(mut values: Vec<Duration>, runs: usize) -> Option<Duration> {
    values.sort();
    (values.len() == runs).then(|| values[runs / 2])
}

/// The median run (by throughput), with the medians of the CPU figures.
pub(crate) fn median(mut runs: Vec<Measurement>) -> Measurement {
    let middle = runs.len() / 2;
    runs.sort_by(|a, b| a.ops_per_second.total_cmp(&b.ops_per_second));
    let cpu = runs.iter().filter_map(|m| m.cpu_per_request).collect();
    let client_cpu = runs
        .iter()
        .filter_map(|m| m.client_cpu_per_request)
        .collect();
    Measurement {
        ops_per_second: runs[middle].ops_per_second,
        cpu_per_request: median_of(cpu, runs.len()),
        client_cpu_per_request: median_of(client_cpu, runs.len()),
    }
}

/// `results[server][phase]`: ops/s and server CPU per request, with the ratios of dynomodel-mem (the
/// first server) to each other server (for CPU the inverse: how many times less it needs).
pub(crate) fn print_table(title: &str, names: &[&str], results: &[Vec<Measurement>]) {
    println!("\n{title}");
    let mut header = format!("{:<24}", "");
    let mut sub = format!("{:<24}", "");
    for what in ["ops/s", "CPU µs/request"] {
        for name in names {
            header += &format!("{what:>16}");
            sub += &format!("{name:>16}");
        }
        // One ratio column per other server: dynomodel-mem (the first) against it.
        for name in names.iter().skip(1) {
            header += &format!("{:>9}", "ratio to");
            sub += &format!("{:>9}", name.chars().take(8).collect::<String>());
        }
    }
    println!("{header}\n{sub}");
    for (p, phase) in Phase::ALL.iter().enumerate() {
        let mut line = format!("{:<24}", phase.label());
        let ops: Vec<f64> = results.iter().map(|r| r[p].ops_per_second).collect();
        for v in &ops {
            line += &format!("{v:>16.0}");
        }
        for theirs in ops.iter().skip(1) {
            line += &format!("{:>8.1}x", ops[0] / theirs);
        }
        let cpu: Vec<Option<f64>> = results
            .iter()
            .map(|r| r[p].cpu_per_request.map(|d| d.as_secs_f64() * 1e6))
            .collect();
        for c in &cpu {
            line += &c.map_or(format!("{:>16}", "n/a"), |c| format!("{c:>16.0}"));
        }
        for theirs in cpu.iter().skip(1) {
            line += &match (cpu[0], theirs) {
                (Some(ours), Some(theirs)) => format!("{:>8.1}x", theirs / ours),
                _ => format!("{:>9}", "n/a"),
            };
        }
        println!("{line}");
    }
    // The client's share, which the ops/s figures include and the server CPU figures do not.
    let client: Vec<String> = Phase::ALL
        .iter()
        .enumerate()
        .map(|(p, phase)| {
            let per_server: Vec<String> = results
                .iter()
                .map(|r| micros(r[p].client_cpu_per_request))
                .collect();
            format!("{} {}", phase.short_label(), per_server.join(" / "))
        })
        .collect();
    println!(
        "client CPU µs/request ({}): {}",
        names.join(" / "),
        client.join(", ")
    );
}

fn micros(d: Option<Duration>) -> String {
    d.map_or("n/a".into(), |d| format!("{:.0}", d.as_secs_f64() * 1e6))
}
