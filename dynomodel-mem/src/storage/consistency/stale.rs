//! The versions a read without `ConsistentRead` still sees (see the module docs of
//! `consistency/`): for each key written within the stale window, the item as it was before its
//! first write in the window (`None`: it did not exist), until the window after its latest write
//! has passed. Persistent maps, so that a fork shares them.

use chrono::{DateTime, Utc};

use crate::storage::key::PrimaryKey;
use crate::storage::stored::StoredItem;

/// The stale versions of one table's items.
#[derive(Debug, Clone, Default)]
pub(crate) struct StaleVersions {
    /// The version readers see and until when.
    keys: imbl::HashMap<PrimaryKey, (Option<StoredItem>, DateTime<Utc>)>,
    /// The keys by the instant they stop being stale (and the order they were written).
    queue: imbl::OrdMap<(DateTime<Utc>, u64), PrimaryKey>,
    /// Writes recorded, which orders the queue's ties.
    written: u64,
}

impl StaleVersions {
    /// What a read without `ConsistentRead` at `now` sees of `key` when it is stale: `Some(None)`
    /// when the item did not exist yet; `None` when the read sees the current item.
    pub(crate) fn seen(&self, key: &PrimaryKey, now: DateTime<Utc>) -> Option<Option<&StoredItem>> {
        self.keys
            .get(key)
            .filter(|(_, until)| *until > now)
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
        let entry = match self.keys.get(key) {
            // Already stale: readers keep the version before the first write.
            Some((seen, was)) => (seen.clone(), until.max(*was)),
            None => (previous, until),
        };
        let until = entry.1;
        self.keys.insert(key.clone(), entry);
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
            if self.keys.get(&key).is_some_and(|(_, u)| *u <= now) {
                self.keys.remove(&key);
            }
        }
    }
}
