//! The statistics of `aws_cpu --interleave` (`benches/interleaved.rs`): the order of the variants
//! in each iteration, medians with their confidence intervals, and the pairs a run reports.

/// The orders of the variants, one per iteration: a new random permutation each time (xorshift64*,
/// seeded, so a run is repeatable), so that each variant follows every other variant (across the
/// iterations' boundaries too) equally often in expectation, and two identical variants are
/// exchangeable. A fixed rotation is not enough: what a request costs depends on the variant run
/// before it (its code and data left in the caches), and a rotation gives each variant only two
/// neighbours.
pub struct Orders {
    state: u64,
}

impl Orders {
    /// The orders drawn from `seed` (any value; 0 is replaced).
    pub fn new(seed: u64) -> Orders {
        Orders { state: seed.max(1) }
    }

    fn next(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// The next iteration's order of `k` variants.
    pub fn order(&mut self, k: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..k).collect();
        for i in (1..k).rev() {
            order.swap(i, (self.next() % (i as u64 + 1)) as usize);
        }
        order
    }
}

/// The median of `values` (sorted in place).
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    match values.len() % 2 {
        0 => (values[mid - 1] + values[mid]) / 2.0,
        _ => values[mid],
    }
}

/// The median of `values` with its 95 % confidence interval by order statistics: `(low, median,
/// high)`.
pub fn median_interval(values: &[f64]) -> (f64, f64, f64) {
    let mut sorted = values.to_vec();
    let m = median(&mut sorted);
    let n = sorted.len() as f64;
    let half = 0.98 * n.sqrt();
    let low = ((n / 2.0 - half).floor().max(0.0)) as usize;
    let high = ((n / 2.0 + half).ceil() as usize).min(sorted.len() - 1);
    (sorted[low], m, sorted[high])
}

/// The pairs a run reports, as (numerator, denominator) indices into `names`: within each operation
/// (the part of the name before its last `/`), every variant over `hand` (or over the operation's
/// first variant when `hand` is not among them), then `dynomodel` over `serde_dynamo`.
pub fn pairs(names: &[String]) -> Vec<(usize, usize)> {
    let split = |n: &str| -> (String, String) {
        match n.rsplit_once('/') {
            Some((op, variant)) => (op.to_owned(), variant.to_owned()),
            None => (n.to_owned(), String::new()),
        }
    };
    let parts: Vec<(String, String)> = names.iter().map(|n| split(n)).collect();
    let mut ops: Vec<&String> = Vec::new();
    for (op, _) in &parts {
        if !ops.contains(&op) {
            ops.push(op);
        }
    }
    let find = |op: &str, variant: &str| parts.iter().position(|(o, v)| o == op && v == variant);
    let mut pairs = Vec::new();
    for op in ops {
        let members: Vec<usize> = (0..parts.len()).filter(|i| &parts[*i].0 == op).collect();
        let base = find(op, "hand").unwrap_or(members[0]);
        pairs.extend(members.iter().filter(|m| **m != base).map(|m| (*m, base)));
        if let (Some(d), Some(s)) = (find(op, "dynomodel"), find(op, "serde_dynamo")) {
            pairs.push((d, s));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_permutations_with_balanced_neighbours() {
        let (k, n) = (4, 24_000);
        let mut orders = Orders::new(7);
        let mut follows = vec![vec![0usize; k]; k];
        let mut first = vec![0usize; k];
        let mut last = None;
        for _ in 0..n {
            let order = orders.order(k);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3]);
            first[order[0]] += 1;
            for v in order {
                if let Some(before) = last {
                    follows[v][before] += 1;
                }
                last = Some(v);
            }
        }
        // Each of the 12 ordered pairs of two variants expects 3n / 12 within the orders and n / 16
        // across their boundaries, 7,500 in all; each first place n / 4 = 6,000.
        for (v, before) in follows.iter().enumerate() {
            for (b, count) in before.iter().enumerate() {
                if v != b {
                    assert!((7_100..7_900).contains(count), "{v} after {b}: {count}");
                }
            }
        }
        assert!(
            first.iter().all(|c| (5_700..6_300).contains(c)),
            "{first:?}"
        );
        // Repeatable.
        assert_eq!(Orders::new(7).order(8), Orders::new(7).order(8));
    }

    #[test]
    fn median_interval_brackets_the_median() {
        let values: Vec<f64> = (0..101).map(f64::from).collect();
        let (low, m, high) = median_interval(&values);
        assert_eq!(m, 50.0);
        // 0.98 √101 ≈ 9.85: ranks 40 and 61.
        assert_eq!((low, high), (40.0, 61.0));
        assert_eq!(median_interval(&[3.0]), (3.0, 3.0, 3.0));
    }

    #[test]
    fn pairs_are_over_hand_within_each_operation() {
        let names: Vec<String> = [
            "put/hand",
            "put/serde_dynamo",
            "put/dynomodel",
            "put/hand_again",
            "get/dynomodel",
            "get/hand",
        ]
        .map(String::from)
        .into();
        assert_eq!(pairs(&names), [(1, 0), (2, 0), (3, 0), (2, 1), (4, 5)]);
    }
}
