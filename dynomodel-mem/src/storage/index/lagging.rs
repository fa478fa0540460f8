//! A global secondary index under eventual consistency on demand (`consistency/`): writes whose
//! changes arrive later, and reads that see the index as it was before the changes pending at their
//! instant. Without pending changes, both are the plain index's paths behind one branch.

use std::ops::Bound;

use chrono::{DateTime, Utc};
use dynomodel::Item;

use super::{Index, IndexEntry, IndexPosition, Merge};
use crate::storage::key::{KeyValue, PrimaryKey};

/// A read of an index: its entries, or (changes pending) its entries and its shadow's merged.
pub(crate) enum Visible<'a, I: Iterator<Item = &'a IndexEntry>> {
    /// Nothing pending: the index's entries.
    Current(I),
    /// Changes pending: what a reader at the read's instant sees.
    Lagging(Box<dyn Iterator<Item = &'a IndexEntry> + 'a>),
}

impl<'a, I: Iterator<Item = &'a IndexEntry>> Iterator for Visible<'a, I> {
    type Item = &'a IndexEntry;

    #[inline]
    fn next(&mut self) -> Option<&'a IndexEntry> {
        match self {
            Visible::Current(i) => i.next(),
            Visible::Lagging(i) => i.next(),
        }
    }
}

impl Index {
    /// Replaces `key`'s entry for `old` (the item before the write, if any) by its entry for `new`
    /// (after it, if any), the change arriving for readers at `due` (the write is at `now`).
    pub(crate) fn write_lagging(
        &mut self,
        key: &PrimaryKey,
        old: Option<&Item>,
        new: Option<&Item>,
        now: DateTime<Utc>,
        due: DateTime<Utc>,
    ) {
        self.prune_lag(now);
        let old = old.filter(|o| self.holds(*o));
        let new = new.filter(|n| self.holds(*n));
        match (old, new) {
            (None, None) => return,
            // Nothing a reader could see changes (an attribute the index does not project).
            (Some(o), Some(n)) if self.same_key(o, n) && self.same_entry(o, n) => {
                self.remove(key, o);
                self.insert(key, n);
                return;
            }
            _ => {}
        }
        let replaced = old.and_then(|o| self.take(key, o));
        let current = new.and_then(|n| {
            self.insert(key, n);
            Self::with_position(self.keys(), key, n, |p: &[u8]| Box::<[u8]>::from(p))
        });
        self.lag
            .get_or_insert_with(Box::default)
            .record(key, replaced, current, now, due);
    }

    /// Removes the entry of `item` (stored under `key`), returning it.
    fn take(&mut self, key: &PrimaryKey, item: &Item) -> Option<IndexEntry> {
        let entries = &mut self.entries;
        let keys = (&self.hash, self.range.as_ref(), self.tie);
        let old = Self::with_position(keys, key, item, |pos| entries.remove(pos))??;
        self.count = self.count.saturating_sub(1);
        self.size = self.size.saturating_sub(old.size());
        Some(old)
    }

    /// Makes every pending change visible.
    pub(crate) fn settle(&mut self) {
        self.lag = None;
    }

    /// Forgets the changes that have arrived by `now` (a write's path: what has arrived stops
    /// costing readers, and an index with nothing pending reads as a plain one again).
    fn prune_lag(&mut self, now: DateTime<Utc>) {
        if let Some(lag) = &mut self.lag {
            lag.prune(now);
            if lag.is_empty() {
                self.lag = None;
            }
        }
    }

    /// Whether changes are pending (tests).
    #[cfg(test)]
    pub(crate) fn lagging(&self) -> bool {
        self.lag.is_some()
    }

    /// [`Index::range`] as a reader at `now` sees it.
    pub(crate) fn visible_range<'a>(
        &'a self,
        now: DateTime<Utc>,
        hash: &KeyValue,
        lo: Bound<IndexPosition>,
        hi: Bound<IndexPosition>,
        forward: bool,
    ) -> Visible<'a, impl Iterator<Item = &'a IndexEntry> + use<'a>> {
        let Some(lag) = self.lag.as_deref() else {
            return Visible::Current(self.range(hash, lo, hi, forward));
        };
        let current = self
            .range(hash, lo.clone(), hi.clone(), forward)
            .filter(move |e| lag.shows_current(e.position(), now));
        let shadow = self
            .range_of(lag.shadow(), hash, lo, hi, forward)
            .filter(move |e| lag.shows_shadow(e.position(), now));
        Visible::Lagging(Box::new(Merge::new(current, shadow, forward)))
    }

    /// [`Index::scan`] as a reader at `now` sees it.
    pub(crate) fn visible_scan<'a>(
        &'a self,
        now: DateTime<Utc>,
        from: u64,
        to: Option<u64>,
        start: Option<(KeyValue, IndexPosition)>,
    ) -> Visible<'a, impl Iterator<Item = &'a IndexEntry> + use<'a>> {
        let Some(lag) = self.lag.as_deref() else {
            return Visible::Current(self.scan(from, to, start));
        };
        let current = self
            .scan(from, to, start.clone())
            .filter(move |e| lag.shows_current(e.position(), now));
        let shadow = self
            .scan_of(lag.shadow(), from, to, start)
            .filter(move |e| lag.shows_shadow(e.position(), now));
        Visible::Lagging(Box::new(Merge::new(current, shadow, true)))
    }
}
