//! Point-in-time recovery: a table's history of changes on the engine's clock, from which the
//! table's items at any instant of the retained window are rebuilt
//! ([`ops::backups`](crate::ops::backups) serves the API).
//!
//! What is kept, while PITR is on: a copy of the table's items as they were at one instant (`base`:
//! taken when PITR is enabled, a clone of the table's partitions), and every change since (key,
//! instant, the item as stored after the change or `None` for a deletion), in order. A change
//! that falls out of the window (older than the recovery period) is folded into the copy, so the
//! history holds one copy of the table plus the changes of the last `RecoveryPeriodInDays` (up to
//! 35 days of writes). Per write, [`History::record`] costs a clock read, a copy of the key and of
//! the stored item (one allocation each) and a queue push; the fold is amortised over the writes.
//! A table without PITR pays one branch on an `Option` per write.
//!
//! Changes are captured in `Table::put` and `Table::delete`, where every item write passes (the
//! same capture point as streams and durable mode's log), so no write path can miss the history.

use std::collections::VecDeque;

use chrono::{DateTime, SubsecRound, TimeDelta, Utc};

use crate::storage::clock::EngineClock;
use crate::storage::key::{partition_slot, PrimaryKey};
use crate::storage::partition::TablePartitions;
use crate::storage::stored::StoredItem;

/// One change to a table's items.
#[derive(Debug, Clone)]
struct Change {
    at: DateTime<Utc>,
    key: PrimaryKey,
    /// The item after the change, `None` for a deletion.
    item: Option<StoredItem>,
}

/// A table's point-in-time recovery history (see the module's docs).
#[derive(Debug, Clone)]
pub(crate) struct History {
    clock: EngineClock,
    /// `RecoveryPeriodInDays`, 1–35.
    period_days: i32,
    /// When PITR was (last) enabled: the earliest restorable instant until the window moves past it.
    enabled_at: DateTime<Utc>,
    /// The items as they were once every change up to the last folded one was applied.
    base: TablePartitions,
    /// The instant of the last change folded into `base`: no earlier instant can be rebuilt (it
    /// matters once the window is lengthened past it).
    folded_at: Option<DateTime<Utc>>,
    /// The changes since, oldest first.
    changes: VecDeque<Change>,
}

impl History {
    /// Starts the history of a table whose items are `items` now.
    pub(crate) fn start(clock: EngineClock, period_days: i32, items: &TablePartitions) -> History {
        History {
            // To the second (DynamoDB restores to "the selected date and time
            // (day:hour:minute:second)", and boto3 sends whole seconds): the
            // EarliestRestorableDateTime a client reads back is then restorable, the base copy
            // standing for that whole second.
            enabled_at: clock.now().trunc_subsecs(0),
            clock,
            period_days,
            base: items.clone(),
            folded_at: None,
            changes: VecDeque::new(),
        }
    }

    /// Reads "now" from `clock` from here on (a fork on a clock of its own).
    pub(crate) fn rebind(&mut self, clock: EngineClock) {
        self.clock = clock;
    }

    /// `RecoveryPeriodInDays`.
    pub(crate) fn period_days(&self) -> i32 {
        self.period_days
    }

    /// Changes the retained window (UpdateContinuousBackups on a table with PITR on).
    pub(crate) fn set_period_days(&mut self, days: i32) {
        self.period_days = days;
        self.fold(self.clock.now());
    }

    /// The earliest instant the table can be restored to at `now`.
    pub(crate) fn earliest(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        let folded = self.folded_at.unwrap_or(DateTime::<Utc>::MIN_UTC);
        self.enabled_at.max(self.horizon(now)).max(folded)
    }

    /// The start of the window at `now`.
    fn horizon(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        now.checked_sub_signed(TimeDelta::days(i64::from(self.period_days)))
            .unwrap_or(DateTime::<Utc>::MIN_UTC)
    }

    /// Records that the item under `key` is now `item` (`None`: deleted).
    pub(crate) fn record(&mut self, key: &PrimaryKey, item: Option<&StoredItem>) {
        let at = self.clock.now();
        self.changes.push_back(Change {
            at,
            key: key.clone(),
            item: item.cloned(),
        });
        self.fold(at);
    }

    /// Folds the changes older than the window into the base copy.
    fn fold(&mut self, now: DateTime<Utc>) {
        let horizon = self.horizon(now);
        while self.changes.front().is_some_and(|c| c.at < horizon) {
            if let Some(change) = self.changes.pop_front() {
                self.folded_at = Some(change.at);
                apply(&mut self.base, change.key, change.item);
            }
        }
    }

    /// The items as they were at `at` (every change up to and including `at` applied). The caller
    /// checks that `at` is within the window.
    pub(crate) fn items_at(&self, at: DateTime<Utc>) -> TablePartitions {
        let mut items = self.base.clone();
        for change in self.changes.iter().take_while(|c| c.at <= at) {
            apply(&mut items, change.key.clone(), change.item.clone());
        }
        items
    }
}

/// Sets the item under `key` in `items` to `item` (`None`: removes it).
fn apply(items: &mut TablePartitions, key: PrimaryKey, item: Option<StoredItem>) {
    let slot = partition_slot(key.hash);
    match item {
        Some(item) => {
            items.entry(slot).or_default().insert(key.range, item);
        }
        None => {
            if let Some(partition) = items.get_mut(&slot) {
                partition.remove(&key.range);
                if partition.is_empty() {
                    items.remove(&slot);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::storage::clock::{Clock, ManualClock};
    use crate::storage::key::KeyValue;

    fn key(k: &str) -> PrimaryKey {
        PrimaryKey {
            hash: KeyValue::S(k.into()),
            range: None,
        }
    }

    fn count(items: &TablePartitions) -> usize {
        items.values().map(|p| p.iter().count()).sum()
    }

    /// Changes older than the window are folded into the copy; lengthening the window afterwards
    /// does not make the folded instants restorable again.
    #[test]
    fn the_window_moves_and_never_claims_folded_instants() {
        let clock = ManualClock::default();
        let mut history =
            History::start(EngineClock::new(clock.clone()), 1, &TablePartitions::new());
        let stored = StoredItem::encode(&dynomodel::Item::new());
        history.record(&key("a"), Some(&stored));
        let first = clock.now();
        clock.advance(Duration::from_secs(3600));
        history.record(&key("b"), Some(&stored));
        let second = clock.now();
        clock.advance(Duration::from_secs(2 * 86_400));
        history.record(&key("a"), None);
        // Both older changes are folded: the copy holds a and b.
        assert_eq!(history.changes.len(), 1);
        assert_eq!(count(&history.base), 2);
        assert_eq!(
            history.earliest(clock.now()),
            clock.now() - TimeDelta::days(1)
        );
        history.set_period_days(35);
        assert_eq!(history.earliest(clock.now()), second);
        assert!(history.earliest(clock.now()) > first);
        assert_eq!(count(&history.items_at(second)), 2);
        assert_eq!(count(&history.items_at(clock.now())), 1);
    }
}
