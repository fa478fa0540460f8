//! The paths an update writes or a projection reads: no two may be the same path, one inside the other
//! (overlap) or the same position reached once as a map key and once as a list index (conflict).
//!
//! A new path is checked against the earlier ones in one walk down a trie of their steps, not against
//! each of them: some 1,300 paths fit in a 4 KB expression, each naming up to a whole attribute name
//! through a placeholder, and the pairwise comparison (with a message formatted per overlapping pair)
//! was quadratic in both. The walk reports exactly what the pairwise check did: for the first new path
//! that overlaps (conflicts with) an earlier one, the first such earlier path.

use std::collections::HashMap;

use super::{path_string, Category, Checker};
use crate::expr::ast::Path;
use crate::expr::eval::{Step, Steps};

/// The target paths of one expression so far.
#[derive(Debug, Default)]
pub(super) struct Targets {
    /// The paths, in order (a path is known by its position here).
    paths: Vec<Steps>,
    /// The trie's nodes; node 0, the root, is the empty path, created with the first path.
    nodes: Vec<Node>,
    /// The edges: (node, step) → the node one step further.
    edges: HashMap<(usize, Step), usize>,
}

/// A prefix shared by some of the paths.
#[derive(Debug, Default, Clone, Copy)]
struct Node {
    /// The first path that is this prefix.
    ends: Option<usize>,
    /// The first path that goes on from here with a map key.
    first_by_key: Option<usize>,
    /// The first path that goes on from here with a list index.
    first_by_index: Option<usize>,
}

impl Node {
    /// The first path going on from here by a step of `step`'s kind (`same`) or of the other kind.
    fn first_going_on(&self, step: &Step, same: bool) -> Option<usize> {
        match (step, same) {
            (Step::Key(_), true) | (Step::Index(_), false) => self.first_by_key,
            (Step::Index(_), true) | (Step::Key(_), false) => self.first_by_index,
        }
    }

    /// The first path strictly longer than this prefix.
    fn first_below(&self) -> Option<usize> {
        min(self.first_by_key, self.first_by_index)
    }
}

fn min(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// What a new path meets among the earlier ones: the first it overlaps, the first it conflicts with.
#[derive(Debug, Default, PartialEq, Eq)]
struct Met {
    overlap: Option<usize>,
    conflict: Option<usize>,
}

impl Targets {
    /// Checks `steps` against the earlier paths, then records it.
    fn add(&mut self, steps: Steps) -> Met {
        if self.nodes.is_empty() {
            self.nodes.push(Node::default());
        }
        let met = self.meet(&steps);
        let index = self.paths.len();
        let mut node = 0;
        for step in &steps {
            let first = match step {
                Step::Key(_) => &mut self.nodes[node].first_by_key,
                Step::Index(_) => &mut self.nodes[node].first_by_index,
            };
            first.get_or_insert(index);
            let next = self.nodes.len();
            node = *self.edges.entry((node, step.clone())).or_insert(next);
            if node == next {
                self.nodes.push(Node::default());
            }
        }
        self.nodes[node].ends.get_or_insert(index);
        self.paths.push(steps);
        met
    }

    /// The walk of `steps` down the trie of the earlier paths. An earlier path overlaps it when one is a
    /// prefix of the other (it ends at a node of the walk, or goes on below its last node); it conflicts
    /// when they part where one takes a map key and the other a list index.
    fn meet(&self, steps: &[Step]) -> Met {
        let mut met = Met::default();
        let mut node = 0;
        for (depth, step) in steps.iter().enumerate() {
            let here = self.nodes[node];
            if depth > 0 {
                met.overlap = min(met.overlap, here.ends);
            }
            met.conflict = min(met.conflict, here.first_going_on(step, false));
            match self.edges.get(&(node, step.clone())) {
                Some(next) => node = *next,
                // No earlier path shares this step: they all parted before or here.
                None => return met,
            }
        }
        let last = self.nodes[node];
        met.overlap = min(met.overlap, min(last.ends, last.first_below()));
        met
    }
}

impl Checker<'_, '_> {
    pub(super) fn target_path(&mut self, path: &Path) {
        if let Some(steps) = self.path(path) {
            self.target(steps);
        }
    }

    /// Records a target path (update action, projection) and checks it against the earlier ones.
    fn target(&mut self, steps: Steps) {
        let met = self.targets.add(steps);
        let Some(new) = self.targets.paths.last() else {
            return;
        };
        let pair = |earlier: usize| (path_string(&self.targets.paths[earlier]), path_string(new));
        if let Some(earlier) = met.conflict
            && !self.errors.contains_key(&Category::PathConflict)
        {
            let (one, two) = pair(earlier);
            let msg = format!("Two document paths conflict with each other; must remove or rewrite one of these paths; path one: {one}, path two: {two}");
            self.errors.insert(Category::PathConflict, msg);
        }
        if let Some(earlier) = met.overlap
            && !self.errors.contains_key(&Category::PathOverlap)
        {
            let (one, two) = pair(earlier);
            let msg = format!("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: {one}, path two: {two}");
            self.errors.insert(Category::PathOverlap, msg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Step {
        Step::Key(k.to_owned())
    }

    /// The pairwise check the trie replaces, as the oracle.
    fn pairwise(earlier: &[Steps], new: &[Step]) -> Met {
        let mut met = Met::default();
        for (i, old) in earlier.iter().enumerate() {
            let parted = old.iter().zip(new).find(|(a, b)| a != b);
            match parted {
                None => met.overlap = met.overlap.or(Some(i)),
                Some((a, b)) if std::mem::discriminant(a) != std::mem::discriminant(b) => {
                    met.conflict = met.conflict.or(Some(i))
                }
                Some(_) => {}
            }
        }
        met
    }

    #[test]
    fn the_trie_meets_what_the_pairwise_check_met() {
        // Every sequence of paths over a small alphabet of steps, up to depth 3.
        let alphabet = [key("a"), key("b"), Step::Index(0), Step::Index(1)];
        let mut all: Vec<Steps> = Vec::new();
        for len in 1..=3 {
            for n in 0..alphabet.len().pow(len as u32) {
                let mut rest = n;
                let path = (0..len)
                    .map(|_| {
                        let step = alphabet[rest % alphabet.len()].clone();
                        rest /= alphabet.len();
                        step
                    })
                    .collect();
                all.push(path);
            }
        }
        // Many interleavings: each path added after a pseudo-random selection of the others.
        let mut state = 7u64;
        for _ in 0..200 {
            let mut targets = Targets::default();
            let mut added: Vec<Steps> = Vec::new();
            for _ in 0..12 {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let path = all[(state >> 33) as usize % all.len()].clone();
                assert_eq!(
                    targets.add(path.clone()),
                    pairwise(&added, &path),
                    "{added:?} then {path:?}"
                );
                added.push(path);
            }
        }
    }

    #[test]
    fn thousands_of_long_paths_are_checked_in_linear_time() {
        // 2,000 distinct names of 16 KB sharing all but their last bytes: the pairwise check compared
        // 2 million pairs of them (32 GB of bytes).
        let started = std::time::Instant::now();
        let mut targets = Targets::default();
        let stem = "x".repeat(16 * 1024);
        for i in 0..2_000 {
            assert_eq!(
                targets.add(smallvec::smallvec![key(&format!("{stem}{i}"))]),
                Met::default()
            );
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }
}
