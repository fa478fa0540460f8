//! The shards of one stream and where each is read from: which may be read now (a shard after its
//! parent), which wait, which are finished. No I/O here: the reader asks, reads, and reports back.

use std::cmp::Ordering;

use crate::backend::{Shard, ShardIteratorType};

/// Where a [`Changes`](super::Changes) stream starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Start {
    /// Every record still kept.
    TrimHorizon,
    /// Only records written after the first poll.
    Latest,
    /// Just after the record with this sequence number.
    After(String),
}

/// Where a shard's next iterator starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Position {
    TrimHorizon,
    Latest,
    After(String),
}

impl Position {
    /// The `GetShardIterator` type and sequence number for this position.
    pub(super) fn iterator_type(&self) -> (ShardIteratorType, Option<String>) {
        match self {
            Position::TrimHorizon => (ShardIteratorType::TrimHorizon, None),
            Position::Latest => (ShardIteratorType::Latest, None),
            Position::After(sequence) => (
                ShardIteratorType::AfterSequenceNumber,
                Some(sequence.clone()),
            ),
        }
    }
}

/// One shard's progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum State {
    /// Not started: its parent is still being read.
    Waiting(Position),
    /// Being read: the iterator to use next (`None`: get one at `position`), and the position to
    /// get a new one from (after the last record seen) when it expires.
    Reading {
        iterator: Option<String>,
        position: Position,
    },
    /// Read to its end (or gone from the stream).
    Done,
}

/// A shard and its progress.
#[derive(Debug, Clone)]
pub(super) struct Cursor {
    pub(super) shard: Shard,
    pub(super) state: State,
}

/// The shards known so far, in the order DescribeStream listed them (parents before children).
#[derive(Debug, Default)]
pub(super) struct Shards {
    cursors: Vec<Cursor>,
    /// The round-robin position: open shards are polled in turn, so that one busy shard does not
    /// starve the others.
    turn: usize,
}

/// Compares two sequence numbers (strings of digits, up to DynamoDB's 40) as numbers.
pub(super) fn compare_sequence_numbers(a: &str, b: &str) -> Ordering {
    let a = a.trim_start_matches('0');
    let b = b.trim_start_matches('0');
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// Whether `shard`'s range holds `sequence`.
fn contains(shard: &Shard, sequence: &str) -> bool {
    let range = &shard.sequence_number_range;
    let after_start = range
        .starting_sequence_number
        .as_deref()
        .is_none_or(|start| compare_sequence_numbers(start, sequence) != Ordering::Greater);
    let before_end = range
        .ending_sequence_number
        .as_deref()
        .is_none_or(|end| compare_sequence_numbers(sequence, end) != Ordering::Greater);
    after_start && before_end
}

/// Whether `shard` closed at or before `sequence`.
fn ended_by(shard: &Shard, sequence: &str) -> bool {
    shard
        .sequence_number_range
        .ending_sequence_number
        .as_deref()
        .is_some_and(|end| compare_sequence_numbers(end, sequence) != Ordering::Greater)
}

impl Shards {
    /// The shards of the first listing, each placed at `start`. `None` when `start` is after a
    /// sequence number that no shard holds.
    pub(super) fn initial(shards: Vec<Shard>, start: &Start) -> Option<Shards> {
        let cursors = match start {
            Start::TrimHorizon => shards
                .into_iter()
                .map(|shard| Cursor {
                    shard,
                    state: State::Waiting(Position::TrimHorizon),
                })
                .collect(),
            // Records of closed shards are all old; open shards start at their tip.
            Start::Latest => shards
                .into_iter()
                .map(|shard| {
                    let open = shard.sequence_number_range.ending_sequence_number.is_none();
                    let state = if open {
                        State::Waiting(Position::Latest)
                    } else {
                        State::Done
                    };
                    Cursor { shard, state }
                })
                .collect(),
            Start::After(sequence) => Shards::resume(shards, sequence)?,
        };
        Some(Shards { cursors, turn: 0 })
    }

    /// After `sequence`: in the shard holding it, just after it; its ancestors are finished. Any
    /// other shard is finished if it closed at or before `sequence`, else read from its start (a
    /// sequence number is a position in one lineage only; other lineages are read again rather than
    /// skipped).
    fn resume(shards: Vec<Shard>, sequence: &str) -> Option<Vec<Cursor>> {
        let holder = shards.iter().position(|s| contains(s, sequence))?;
        let mut ancestors = Vec::new();
        let mut parent = shards[holder].parent_shard_id.clone();
        while let Some(id) = parent.take() {
            if ancestors.contains(&id) {
                break; // a cycle in a broken listing: stop rather than loop
            }
            parent = shards
                .iter()
                .find(|s| s.shard_id == id)
                .and_then(|s| s.parent_shard_id.clone());
            ancestors.push(id);
        }
        let cursors = shards
            .into_iter()
            .enumerate()
            .map(|(i, shard)| {
                let state = if i == holder {
                    State::Waiting(Position::After(sequence.to_owned()))
                } else if ancestors.contains(&shard.shard_id) || ended_by(&shard, sequence) {
                    State::Done
                } else {
                    State::Waiting(Position::TrimHorizon)
                };
                Cursor { shard, state }
            })
            .collect();
        Some(cursors)
    }

    /// Adds the shards of a new listing not known yet; they are newer than the start, so they are
    /// read from their start.
    pub(super) fn add_new(&mut self, shards: Vec<Shard>) -> usize {
        let mut added = 0;
        for shard in shards {
            if !self
                .cursors
                .iter()
                .any(|c| c.shard.shard_id == shard.shard_id)
            {
                self.cursors.push(Cursor {
                    shard,
                    state: State::Waiting(Position::TrimHorizon),
                });
                added += 1;
            }
        }
        added
    }

    /// Starts every waiting shard whose parent is finished or not listed (trimmed away).
    fn start_ready(&mut self) {
        for i in 0..self.cursors.len() {
            let State::Waiting(position) = &self.cursors[i].state else {
                continue;
            };
            let parent_done = match &self.cursors[i].shard.parent_shard_id {
                None => true,
                Some(parent) => self
                    .cursors
                    .iter()
                    .find(|c| &c.shard.shard_id == parent)
                    .is_none_or(|c| c.state == State::Done),
            };
            if parent_done {
                let position = position.clone();
                self.cursors[i].state = State::Reading {
                    iterator: None,
                    position,
                };
            }
        }
    }

    /// The next shard to read, in turn; `None` when no shard can be read now.
    pub(super) fn next(&mut self) -> Option<usize> {
        self.start_ready();
        let count = self.cursors.len();
        for step in 0..count {
            let i = (self.turn + step) % count;
            if matches!(self.cursors[i].state, State::Reading { .. }) {
                self.turn = (i + 1) % count;
                return Some(i);
            }
        }
        None
    }

    /// How many shards are being read.
    pub(super) fn reading(&self) -> usize {
        self.cursors
            .iter()
            .filter(|c| matches!(c.state, State::Reading { .. }))
            .count()
    }

    /// Whether every known shard is finished.
    pub(super) fn all_done(&self) -> bool {
        self.cursors.iter().all(|c| c.state == State::Done)
    }

    /// The shard at `i`.
    pub(super) fn cursor(&mut self, i: usize) -> &mut Cursor {
        &mut self.cursors[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::SequenceNumberRange;

    fn shard(id: &str, parent: Option<&str>, start: &str, end: Option<&str>) -> Shard {
        Shard {
            shard_id: id.into(),
            parent_shard_id: parent.map(Into::into),
            sequence_number_range: SequenceNumberRange {
                starting_sequence_number: Some(start.into()),
                ending_sequence_number: end.map(Into::into),
            },
        }
    }

    fn states(shards: &Shards) -> Vec<State> {
        shards.cursors.iter().map(|c| c.state.clone()).collect()
    }

    #[test]
    fn sequence_numbers_compare_as_numbers() {
        assert_eq!(compare_sequence_numbers("9", "10"), Ordering::Less);
        assert_eq!(compare_sequence_numbers("0010", "10"), Ordering::Equal);
        assert_eq!(compare_sequence_numbers("200", "199"), Ordering::Greater);
    }

    #[test]
    fn children_start_after_their_parent_is_done() {
        let listing = vec![
            shard("a", None, "100", Some("199")),
            shard("b", Some("a"), "200", None),
        ];
        let mut shards = Shards::initial(listing, &Start::TrimHorizon).unwrap();
        assert_eq!(shards.next(), Some(0));
        assert_eq!(shards.next(), Some(0), "the child waits");
        shards.cursor(0).state = State::Done;
        assert_eq!(shards.next(), Some(1));
    }

    #[test]
    fn a_child_of_a_trimmed_parent_starts_at_once() {
        let listing = vec![shard("b", Some("gone"), "200", None)];
        let mut shards = Shards::initial(listing, &Start::TrimHorizon).unwrap();
        assert_eq!(shards.next(), Some(0));
    }

    #[test]
    fn latest_skips_closed_shards() {
        let listing = vec![
            shard("a", None, "100", Some("199")),
            shard("b", Some("a"), "200", None),
        ];
        let shards = Shards::initial(listing, &Start::Latest).unwrap();
        assert_eq!(
            states(&shards),
            [State::Done, State::Waiting(Position::Latest)]
        );
    }

    #[test]
    fn resuming_finishes_the_ancestors_and_reads_the_descendants() {
        let listing = vec![
            shard("a", None, "100", Some("199")),
            shard("b", Some("a"), "200", Some("299")),
            shard("c", Some("b"), "300", None),
            // Another lineage: one closed before the sequence number, one still open.
            shard("x", None, "150", Some("180")),
            shard("y", None, "190", None),
        ];
        let shards = Shards::initial(listing.clone(), &Start::After("250".into())).unwrap();
        assert_eq!(
            states(&shards),
            [
                State::Done,
                State::Waiting(Position::After("250".into())),
                State::Waiting(Position::TrimHorizon),
                State::Done,
                State::Waiting(Position::TrimHorizon),
            ]
        );
        assert!(Shards::initial(listing, &Start::After("99".into())).is_none());
    }

    #[test]
    fn open_shards_take_turns() {
        let listing = vec![shard("a", None, "1", None), shard("b", None, "2", None)];
        let mut shards = Shards::initial(listing, &Start::TrimHorizon).unwrap();
        let turns: Vec<_> = (0..4).map(|_| shards.next()).collect();
        assert_eq!(turns, [Some(0), Some(1), Some(0), Some(1)]);
        assert_eq!(shards.reading(), 2);
    }
}
