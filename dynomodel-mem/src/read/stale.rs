//! Query and Scan of a table without `ConsistentRead` under eventual consistency on demand
//! (`storage/consistency/`): the table's items walked in step with its stale versions, which are
//! laid out as the items are, so that a key written within the stale window reads as it was
//! before the write (an item created since is missing, one deleted since is still there), in the
//! read's order. Without stale versions (the setting off, or nothing written within the window),
//! reads take the table's own walk: the caller's one branch.

use std::cmp::Ordering;
use std::iter::Peekable;

use chrono::{DateTime, Utc};

use crate::storage::consistency::{is_stale, StaleVersion};
use crate::storage::stored::StoredItem;

/// The table's items (`current`) and its stale versions (`stale`), both keyed and in the read's
/// direction (`forward`: keys ascending), as a reader at `now` sees them.
pub(crate) struct StaleWalk<'a, K, C, S>
where
    C: Iterator<Item = (K, &'a StoredItem)>,
    S: Iterator<Item = (K, &'a StaleVersion)>,
{
    current: Peekable<C>,
    stale: Peekable<S>,
    forward: bool,
    now: DateTime<Utc>,
}

impl<'a, K, C, S> StaleWalk<'a, K, C, S>
where
    K: Ord,
    C: Iterator<Item = (K, &'a StoredItem)>,
    S: Iterator<Item = (K, &'a StaleVersion)>,
{
    /// The walk of `current` and `stale`.
    pub(crate) fn new(current: C, stale: S, forward: bool, now: DateTime<Utc>) -> Self {
        StaleWalk {
            current: current.peekable(),
            stale: stale.peekable(),
            forward,
            now,
        }
    }
}

impl<'a, K, C, S> Iterator for StaleWalk<'a, K, C, S>
where
    K: Ord,
    C: Iterator<Item = (K, &'a StoredItem)>,
    S: Iterator<Item = (K, &'a StaleVersion)>,
{
    type Item = &'a StoredItem;

    fn next(&mut self) -> Option<&'a StoredItem> {
        loop {
            let order = match (self.current.peek(), self.stale.peek()) {
                (None, None) => return None,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some((c, _)), Some((s, _))) if self.forward => c.cmp(s),
                (Some((c, _)), Some((s, _))) => s.cmp(c),
            };
            // The current item alone: no write within the window.
            if order == Ordering::Less {
                return self.current.next().map(|(_, item)| item);
            }
            let current = if order == Ordering::Equal {
                self.current.next().map(|(_, item)| item)
            } else {
                None
            };
            let Some((_, version)) = self.stale.next() else {
                return current;
            };
            if !is_stale(version, self.now) {
                match current {
                    Some(item) => return Some(item),
                    // Deleted, and the deletion has reached every reader.
                    None => continue,
                }
            }
            // Stale: the version before the write, or nothing (created within the window).
            if let Some(item) = &version.0 {
                return Some(item);
            }
        }
    }
}

/// A walk of the table's items, or one in step with its stale versions.
pub(crate) enum Seen<A, B> {
    /// No stale version: the table's own walk.
    Current(A),
    /// A reader without `ConsistentRead` within the window of some write.
    Stale(B),
}

impl<'a, A, B> Iterator for Seen<A, B>
where
    A: Iterator<Item = &'a StoredItem>,
    B: Iterator<Item = &'a StoredItem>,
{
    type Item = &'a StoredItem;

    #[inline]
    fn next(&mut self) -> Option<&'a StoredItem> {
        match self {
            Seen::Current(a) => a.next(),
            Seen::Stale(b) => b.next(),
        }
    }
}
