//! What a table remembers about its changes: which ones are still in progress (and until when), the
//! capacity history DescribeTable reports, the stream's ARN and label.
//!
//! Nothing runs in the background: a change stores the instant it finishes (`now` plus the engine's
//! transition time) and every reader compares that instant with the clock ([`View`]). With the default
//! zero transition a change is over by the next request, but the UpdateTable response itself still shows
//! it in progress (UPDATING, CREATING, DELETING), as DynamoDB's responses do: the response is rendered
//! with [`View::fresh`], which counts every change of the current request as pending.

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};
use dynomodel::backend::{
    AttributeDefinition, GlobalSecondaryIndexDescription, ProvisionedThroughput,
};

/// One change in progress: from `started` until `until`, made by request number `generation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Transition {
    /// When the change was requested.
    pub started: DateTime<Utc>,
    /// When it is over.
    pub until: DateTime<Utc>,
    /// The request that made it (see [`View::fresh`]).
    pub generation: u64,
}

impl Transition {
    /// A change requested at `now` by request `generation`, lasting `length`.
    pub(crate) fn new(now: DateTime<Utc>, length: Duration, generation: u64) -> Transition {
        let length = TimeDelta::from_std(length).unwrap_or(TimeDelta::MAX);
        Transition {
            started: now,
            until: now
                .checked_add_signed(length)
                .unwrap_or(DateTime::<Utc>::MAX_UTC),
            generation,
        }
    }

    /// The middle of the change: a new index is allocated (Backfilling false, the table UPDATING)
    /// before it, and backfilled (Backfilling true, the table ACTIVE again) after it, as DynamoDB's
    /// two phases of an online index creation.
    fn middle(&self) -> DateTime<Utc> {
        self.started + (self.until - self.started) / 2
    }
}

/// The instant a description or a check is made for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct View {
    /// The engine's clock.
    pub now: DateTime<Utc>,
    /// The request whose changes count as in progress whatever the clock says (UpdateTable's response).
    pub fresh: Option<u64>,
}

impl View {
    /// The state at `now`.
    pub(crate) fn at(now: DateTime<Utc>) -> View {
        View { now, fresh: None }
    }

    /// The state right after request `generation`, which shows its own changes in progress.
    pub(crate) fn fresh(now: DateTime<Utc>, generation: u64) -> View {
        View {
            now,
            fresh: Some(generation),
        }
    }

    /// Whether `t` is still in progress.
    pub(crate) fn pending(&self, t: &Transition) -> bool {
        self.now < t.until || self.fresh == Some(t.generation)
    }

    /// Whether a new index is in its first phase (resource allocation, Backfilling false).
    pub(crate) fn allocating(&self, t: &Transition) -> bool {
        self.fresh == Some(t.generation) || (self.pending(t) && self.now < t.middle())
    }
}

/// Why a table is UPDATING (the index changes are kept per index, in [`Lifecycle::indexes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TableChange {
    /// Provisioned throughput or billing mode ("IOPS" in DynamoDB's messages).
    Iops,
    /// The stream is being enabled or disabled; `label` is the stream's label.
    Stream {
        /// The latest stream's label.
        label: String,
        /// Enabling (`true`) or disabling.
        enabling: bool,
    },
    /// The table class.
    TableClass,
}

/// What an index is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IndexChange {
    /// Added by UpdateTable: allocated, then backfilled.
    Creating,
    /// Its provisioned throughput is changing.
    Updating,
}

/// The capacity history of the table or of one index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Capacity {
    /// The capacity before the change in progress: DynamoDB keeps reporting the old values until an
    /// UPDATING table or index is ACTIVE again (dynalite's recording of the live service).
    pub previous: Option<ProvisionedThroughput>,
    /// `LastIncreaseDateTime`.
    pub last_increase: Option<DateTime<Utc>>,
    /// `LastDecreaseDateTime`.
    pub last_decrease: Option<DateTime<Utc>>,
    /// When each decrease happened (for `NumberOfDecreasesToday`, counted per UTC day).
    pub decreases: Vec<DateTime<Utc>>,
}

impl Capacity {
    /// Records a change from `old` to `new` at `now`.
    pub(crate) fn record(
        &mut self,
        old: ProvisionedThroughput,
        new: ProvisionedThroughput,
        now: DateTime<Utc>,
    ) {
        let up = new.read_capacity_units > old.read_capacity_units
            || new.write_capacity_units > old.write_capacity_units;
        let down = new.read_capacity_units < old.read_capacity_units
            || new.write_capacity_units < old.write_capacity_units;
        if up {
            self.last_increase = Some(now);
        }
        if down {
            self.last_decrease = Some(now);
            self.decreases
                .retain(|d| d.date_naive() == now.date_naive());
            self.decreases.push(now);
        }
        self.previous = Some(old);
    }

    /// `NumberOfDecreasesToday` at `now` (UTC day).
    pub(crate) fn decreases_today(&self, now: DateTime<Utc>) -> i64 {
        let today = self
            .decreases
            .iter()
            .filter(|d| d.date_naive() == now.date_naive())
            .count();
        i64::try_from(today).unwrap_or(i64::MAX)
    }
}

/// A global secondary index being deleted: what DescribeTable shows of it until it is gone.
#[derive(Debug, Clone)]
pub(crate) struct DeletingIndex {
    /// Its last description (status DELETING when shown).
    pub description: GlobalSecondaryIndexDescription,
    /// The attribute definitions only it used: DynamoDB drops them once the index is gone.
    pub attribute_definitions: Vec<AttributeDefinition>,
    /// Until when it is shown.
    pub transition: Transition,
}

/// Everything about a table's changes that DescribeTable and UpdateTable's checks need.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lifecycle {
    /// The request counter of this table (see [`View::fresh`]).
    pub generation: u64,
    /// The table-level change in progress, if any.
    pub table: Option<(TableChange, Transition)>,
    /// The table's capacity history.
    pub capacity: Capacity,
    /// Index changes (the latest per index; ACTIVE once the transition is over).
    pub indexes: BTreeMap<String, (IndexChange, Transition)>,
    /// Each global secondary index's capacity history.
    pub index_capacity: BTreeMap<String, Capacity>,
    /// Indexes being deleted.
    pub deleting: Vec<DeletingIndex>,
    /// `BillingModeSummary.LastUpdateToPayPerRequestDateTime`.
    pub last_update_to_pay_per_request: Option<DateTime<Utc>>,
    /// When the table switched from provisioned to on-demand, for the rolling window of
    /// [`rules::billing_switch_window`](crate::ops::update_table::rules::billing_switch_window) (the last few only).
    pub switches_to_pay_per_request: Vec<DateTime<Utc>>,
    /// `LatestStreamArn` and `LatestStreamLabel`.
    pub latest_stream: Option<(String, String)>,
    /// CreateTable's transition: the table and its indexes are CREATING until it is over.
    pub created: Option<Transition>,
    /// DeleteTable's transition: the table is DELETING until it is over, and gone after it.
    pub deleted: Option<Transition>,
    /// For a table created by a restore: where from (its `RestoreSummary`, in progress while the
    /// table is CREATING).
    pub restored: Option<dynomodel::backend::RestoreSummary>,
}

impl Lifecycle {
    /// Whether the table is still being created in `view`.
    pub(crate) fn creating_table(&self, view: &View) -> bool {
        self.created.as_ref().is_some_and(|t| view.pending(t))
    }

    /// Whether DeleteTable was called on the table (it is DELETING until it is gone).
    pub(crate) fn deleting_table(&self) -> bool {
        self.deleted.is_some()
    }

    /// Whether the table's deletion is over at `now`: it no longer exists.
    pub(crate) fn gone(&self, now: DateTime<Utc>) -> bool {
        self.deleted
            .as_ref()
            .is_some_and(|t| !View::at(now).pending(t))
    }

    /// Whether item operations, Query and Scan may use the table at `now`: not while it is being created
    /// (DynamoDB answers as for a missing table), and not once it is gone. A DELETING table still
    /// serves them: "DynamoDB might continue to accept data read and write operations, such as GetItem
    /// and PutItem, on a table in the DELETING state until the table deletion is complete" (the
    /// DeleteTable API reference).
    pub(crate) fn serves_items(&self, now: DateTime<Utc>) -> bool {
        !self.creating_table(&View::at(now)) && !self.gone(now)
    }

    /// Whether the table serves item operations whatever the time: it was created without a
    /// transition and is not being deleted. The item operations ask this first, so that the common
    /// case reads no clock.
    pub(crate) fn serves_items_at_any_time(&self) -> bool {
        self.deleted.is_none() && self.created.is_none_or(|t| t.until <= t.started)
    }

    /// The table change in progress in `view`.
    pub(crate) fn table_change(&self, view: &View) -> Option<&TableChange> {
        self.table
            .as_ref()
            .filter(|(_, t)| view.pending(t))
            .map(|(c, _)| c)
    }

    /// The change in progress of index `name` in `view`.
    pub(crate) fn index_change(
        &self,
        name: &str,
        view: &View,
    ) -> Option<(IndexChange, Transition)> {
        self.indexes
            .get(name)
            .filter(|(_, t)| view.pending(t))
            .copied()
    }

    /// The indexes still being deleted in `view`.
    pub(crate) fn deleting<'a>(
        &'a self,
        view: &'a View,
    ) -> impl Iterator<Item = &'a DeletingIndex> + 'a {
        self.deleting
            .iter()
            .filter(move |d| view.pending(&d.transition))
    }

    /// The names of the indexes being created in `view`.
    pub(crate) fn creating(&self, view: &View) -> Vec<String> {
        self.indexes
            .iter()
            .filter(|(_, (c, t))| *c == IndexChange::Creating && view.pending(t))
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// Forgets the changes that are over at `now` (their effects are already in the schema).
    pub(crate) fn settle(&mut self, now: DateTime<Utc>) {
        let view = View::at(now);
        if self.table.as_ref().is_some_and(|(_, t)| !view.pending(t)) {
            self.table = None;
            self.capacity.previous = None;
        }
        let over: Vec<String> = self
            .indexes
            .iter()
            .filter(|(_, (_, t))| !view.pending(t))
            .map(|(n, _)| n.clone())
            .collect();
        for name in over {
            self.indexes.remove(&name);
            if let Some(c) = self.index_capacity.get_mut(&name) {
                c.previous = None;
            }
        }
        self.deleting.retain(|d| view.pending(&d.transition));
    }

    /// Starts request number `generation + 1` and returns it.
    pub(crate) fn next_generation(&mut self) -> u64 {
        self.generation += 1;
        self.generation
    }
}

/// A stream label: the instant it was enabled, as DynamoDB writes it (`2026-11-23T10:00:00.000`).
pub(crate) fn stream_label(now: DateTime<Utc>) -> String {
    now.format("%Y-%m-%dT%H:%M:%S%.3f").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + TimeDelta::seconds(secs)
    }

    #[test]
    fn transitions_are_pending_until_their_end_and_in_their_own_response() {
        let t = Transition::new(at(100), Duration::from_secs(10), 3);
        assert!(View::at(at(109)).pending(&t));
        assert!(!View::at(at(110)).pending(&t));
        assert!(View::fresh(at(200), 3).pending(&t));
        assert!(!View::fresh(at(200), 4).pending(&t));
        // First half allocation, second half backfilling.
        assert!(View::at(at(104)).allocating(&t));
        assert!(!View::at(at(105)).allocating(&t));
        let zero = Transition::new(at(100), Duration::ZERO, 1);
        assert!(View::fresh(at(100), 1).allocating(&zero));
        assert!(!View::at(at(100)).pending(&zero));
    }

    #[test]
    fn decreases_are_counted_per_utc_day() {
        let mut c = Capacity::default();
        let pt = |r, w| ProvisionedThroughput {
            read_capacity_units: r,
            write_capacity_units: w,
        };
        c.record(pt(5, 5), pt(6, 5), at(10));
        assert_eq!((c.last_increase, c.last_decrease), (Some(at(10)), None));
        c.record(pt(6, 5), pt(4, 5), at(20));
        c.record(pt(4, 5), pt(3, 6), at(30));
        assert_eq!(c.last_increase, Some(at(30)));
        assert_eq!(c.decreases_today(at(40)), 2);
        assert_eq!(c.decreases_today(at(86_400 + 1)), 0);
        assert_eq!(c.previous, Some(pt(4, 5)));
    }

    #[test]
    fn labels_have_milliseconds() {
        assert_eq!(stream_label(at(0)), "1970-01-01T00:00:00.000");
    }
}
