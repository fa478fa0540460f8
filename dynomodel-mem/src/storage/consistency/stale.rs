//! The versions a read without `ConsistentRead` still sees (see the module docs of
//! `consistency/`): for each key written within the stale window, the item as it was before its
//! first write in the window (`None`: it did not exist), until the window after its latest write
//! has passed.
//!
//! They are laid out as the table lays out its items (partitions by slot, then sort key), so that a
//! Query or Scan walks them in step with the table's items (`read/stale.rs`); persistent maps, so
//! that a fork shares them.

use chrono::{DateTime, Utc};
use imbl::OrdMap;

use crate::storage::key::{partition_slot, KeyValue, PartitionSlot, PrimaryKey};
use crate::storage::partition::Partition;
use crate::storage::stored::StoredItem;

/// What a stale read sees of a key, and until when: the item before the write (`None`: none).
pub(crate) type StaleVersion = (Option<StoredItem>, DateTime<Utc>);

/// The stale versions of a table, laid out as its items.
pub(crate) type StalePartitions = OrdMap<PartitionSlot, Partition<Option<KeyValue>, StaleVersion>>;

/// The stale versions of one table's items.
#[derive(Debug, Clone, Default)]
pub(crate) struct StaleVersions {
    versions: StalePartitions,
    /// The keys by the instant they stop being stale (and the order they were written).
    queue: OrdMap<(DateTime<Utc>, u64), PrimaryKey>,
    /// Writes recorded, which orders the queue's ties.
    written: u64,
}

/// Whether a stale read at `now` sees `version` rather than the current item.
#[inline]
pub(crate) fn is_stale(version: &StaleVersion, now: DateTime<Utc>) -> bool {
    version.1 > now
}

impl StaleVersions {
    /// The versions, as the table's items are laid out; a version is seen while [`is_stale`].
    pub(crate) fn versions(&self) -> &StalePartitions {
        &self.versions
    }

    /// What a read without `ConsistentRead` at `now` sees of `key` when it is stale: `Some(None)`
    /// when the item did not exist yet; `None` when the read sees the current item.
    pub(crate) fn seen(&self, key: &PrimaryKey, now: DateTime<Utc>) -> Option<Option<&StoredItem>> {
        self.versions
            .get(&partition_slot(key.hash.clone()))?
            .get(&key.range)
            .filter(|version| is_stale(version, now))
            .map(|(item, _)| item.as_ref())
    }

    /// Records a write of `key` at `now` that replaced `previous`, stale until `until`.
    pub(crate) fn record(
        &mut self,
        key: &PrimaryKey,
        previous: Option<StoredItem>,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) {
        self.prune(now);
        let slot = partition_slot(key.hash.clone());
        let partition = self.versions.entry(slot).or_default();
        let version = match partition.get(&key.range) {
            // Already stale: readers keep the version before the first write.
            Some((seen, was)) => (seen.clone(), until.max(*was)),
            None => (previous, until),
        };
        let until = version.1;
        partition.insert(key.range.clone(), version);
        self.written += 1;
        self.queue.insert((until, self.written), key.clone());
    }

    /// Forgets the keys no read is stale on by `now`.
    fn prune(&mut self, now: DateTime<Utc>) {
        while let Some(((until, n), key)) = self.queue.get_min().cloned() {
            if until > now {
                break;
            }
            self.queue.remove(&(until, n));
            let slot = partition_slot(key.hash);
            let Some(partition) = self.versions.get_mut(&slot) else {
                continue;
            };
            // A key written again since has a later entry in the queue.
            if partition
                .get(&key.range)
                .is_some_and(|version| !is_stale(version, now))
            {
                partition.remove(&key.range);
                if partition.is_empty() {
                    self.versions.remove(&slot);
                }
            }
        }
    }
}
