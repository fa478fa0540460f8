//! An index's changes that readers have not seen yet (eventual consistency on demand: see
//! `storage/consistency/`): a GSI's for every reader, an LSI's for readers without
//! `ConsistentRead`.
//!
//! The index holds its current entries; this holds, for each key with a change pending, the
//! instant it arrives, the entry readers see until then (its *shadow*: the key's entry before its
//! first pending change, if it had one) and where its current entry is. A reader at `now` sees a
//! current entry unless its position is pending past `now`, and a shadow entry only while its
//! position is. A key has at most one current and one shadow entry, and both carry the key's one
//! instant, so one map from position to instant serves both: at any `now` a reader sees exactly
//! one version of each key (or none). Everything is a persistent map, so that a fork shares it.

use chrono::{DateTime, Utc};

use super::{IndexEntries, IndexEntry};
use crate::storage::key::PrimaryKey;

/// A key's pending change: when it arrives, and the positions of its shadow and current entries.
#[derive(Debug, Clone)]
struct Pending {
    until: DateTime<Utc>,
    shadow: Option<Box<[u8]>>,
    current: Option<Box<[u8]>>,
}

/// The pending changes of one GSI.
#[derive(Debug, Clone, Default)]
pub(crate) struct IndexLag {
    /// Until when each pending position is pending.
    until: imbl::HashMap<Box<[u8]>, DateTime<Utc>>,
    /// The entries readers see in place of pending ones, by position.
    shadow: IndexEntries,
    /// The pending keys.
    keys: imbl::HashMap<PrimaryKey, Pending>,
    /// The pending keys by the instant their change arrives (and the order they were written),
    /// what [`IndexLag::prune`] walks.
    queue: imbl::OrdMap<(DateTime<Utc>, u64), PrimaryKey>,
    /// Writes recorded, which orders the queue's ties.
    written: u64,
}

impl IndexLag {
    /// Whether no change is pending.
    pub(crate) fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether a reader at `now` sees the index's current entry at `position`.
    #[inline]
    pub(crate) fn shows_current(&self, position: &[u8], now: DateTime<Utc>) -> bool {
        self.until.get(position).is_none_or(|until| *until <= now)
    }

    /// Whether a reader at `now` sees the shadow entry at `position`.
    #[inline]
    pub(crate) fn shows_shadow(&self, position: &[u8], now: DateTime<Utc>) -> bool {
        self.until.get(position).is_some_and(|until| *until > now)
    }

    /// The shadow entries, by position.
    pub(crate) fn shadow(&self) -> &IndexEntries {
        &self.shadow
    }

    /// Records a write of `key` at `now` whose change arrives at `due`: the index's entry it
    /// replaced (`replaced`, taken out of the index) and the position of its new entry (`None`:
    /// the key has none now).
    pub(crate) fn record(
        &mut self,
        key: &PrimaryKey,
        replaced: Option<IndexEntry>,
        current: Option<Box<[u8]>>,
        now: DateTime<Utc>,
        due: DateTime<Utc>,
    ) {
        self.prune(now);
        let (until, shadow) = match self.keys.get(key) {
            // Still pending: readers keep seeing the version before the first change, until the
            // latest arrives (the replaced entry was never seen).
            Some(pending) => {
                let until = pending.until.max(due);
                if let Some(position) = &pending.current {
                    self.until.remove(position);
                }
                (until, pending.shadow.clone())
            }
            None => {
                let shadow = replaced.map(|entry| {
                    let position: Box<[u8]> = entry.position().into();
                    self.shadow.insert(entry);
                    position
                });
                (due, shadow)
            }
        };
        for position in shadow.iter().chain(current.iter()) {
            self.until.insert(position.clone(), until);
        }
        self.written += 1;
        self.queue.insert((until, self.written), key.clone());
        self.keys.insert(
            key.clone(),
            Pending {
                until,
                shadow,
                current,
            },
        );
    }

    /// Forgets the changes that have arrived by `now` (their shadows and instants).
    pub(crate) fn prune(&mut self, now: DateTime<Utc>) {
        while let Some(((until, n), key)) = self.queue.get_min().cloned() {
            if until > now {
                break;
            }
            self.queue.remove(&(until, n));
            // A key written again since has a later entry in the queue.
            if self.keys.get(&key).is_some_and(|p| p.until <= now)
                && let Some(pending) = self.keys.remove(&key)
            {
                for position in pending.shadow.iter().chain(pending.current.iter()) {
                    self.until.remove(position);
                }
                if let Some(position) = &pending.shadow {
                    self.shadow.remove::<[u8]>(position);
                }
            }
        }
    }
}

/// Two iterators of entries in the same direction merged into one, in that direction (positions
/// ascending `forward`, descending otherwise). The overlay of a lagging index: the two never yield
/// the same position (one key's current and shadow entries are never both visible).
pub(crate) struct Merge<'a, A: Iterator<Item = &'a IndexEntry>, B: Iterator<Item = &'a IndexEntry>>
{
    a: std::iter::Peekable<A>,
    b: std::iter::Peekable<B>,
    forward: bool,
}

impl<'a, A, B> Merge<'a, A, B>
where
    A: Iterator<Item = &'a IndexEntry>,
    B: Iterator<Item = &'a IndexEntry>,
{
    /// `a` and `b` merged.
    pub(crate) fn new(a: A, b: B, forward: bool) -> Self {
        Merge {
            a: a.peekable(),
            b: b.peekable(),
            forward,
        }
    }
}

impl<'a, A, B> Iterator for Merge<'a, A, B>
where
    A: Iterator<Item = &'a IndexEntry>,
    B: Iterator<Item = &'a IndexEntry>,
{
    type Item = &'a IndexEntry;

    fn next(&mut self) -> Option<&'a IndexEntry> {
        let take_a = match (self.a.peek(), self.b.peek()) {
            (Some(a), Some(b)) => (a.position() <= b.position()) == self.forward,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if take_a {
            self.a.next()
        } else {
            self.b.next()
        }
    }
}
