//! A table's Time to Live state: which attribute holds the expiry time, where the setting stands
//! (`ENABLING` … `DISABLED`), when it last changed, and an ordered index of expiry times → keys.
//!
//! The index makes a sweep cost O(log n + expired): [`Table::put`](crate::storage::table::Table::put) and
//! [`Table::delete`](crate::storage::table::Table::delete) keep it in step (one branch when TTL is off, one or
//! two ordered-map operations when it is on), and a sweep reads only the range of times that have
//! passed. It is built from the items when TTL is enabled and dropped when it is disabled.

use chrono::{DateTime, TimeDelta, Utc};
use dynomodel::backend::TimeToLiveStatus;
use dynomodel::{AttributeValue, Item, Number};
use imbl::{OrdMap, OrdSet};

use crate::storage::key::PrimaryKey;
use crate::storage::stored::AttributeLookup;

/// DynamoDB ignores expiry times more than five years in the past (the developer guide's
/// `howitworks-ttl.html`): such an item never expires. Five years of 365 days; the docs do not say how leap days count.
pub(crate) const MAX_EXPIRY_AGE: TimeDelta = TimeDelta::days(5 * 365);

/// Where a table's TTL setting stands, and the index of expiry times while it is on.
#[derive(Debug, Default, Clone)]
pub(crate) struct TtlState {
    /// The attribute TTL reads while `ENABLING`, `ENABLED` or `DISABLING`; `None` while `DISABLED`.
    attribute: Option<String>,
    /// Whether the last change enabled TTL (`false`: disabled, or never set).
    enabled: bool,
    /// When the last successful UpdateTimeToLive happened (`None`: never).
    changed_at: Option<DateTime<Utc>>,
    /// When the last change finishes (`ENABLING` → `ENABLED`, `DISABLING` → `DISABLED`).
    settles_at: Option<DateTime<Utc>>,
    /// Expiry times (Numbers only) → the keys of the items that carry them; maintained while
    /// `attribute` is set.
    /// Persistent maps, as a table's items: a copy of the table (a fork) shares them.
    by_expiry: OrdMap<Number, OrdSet<PrimaryKey>>,
}

impl TtlState {
    /// The status at `now`.
    pub(crate) fn status(&self, now: DateTime<Utc>) -> TimeToLiveStatus {
        let settled = self.settles_at.is_none_or(|at| now >= at);
        match (self.enabled, settled) {
            (true, true) => TimeToLiveStatus::Enabled,
            (true, false) => TimeToLiveStatus::Enabling,
            (false, true) => TimeToLiveStatus::Disabled,
            (false, false) => TimeToLiveStatus::Disabling,
        }
    }

    /// The attribute DescribeTimeToLive names (absent once `DISABLED`).
    pub(crate) fn attribute_at(&self, now: DateTime<Utc>) -> Option<&str> {
        match self.status(now) {
            TimeToLiveStatus::Disabled => None,
            _ => self.attribute.as_deref(),
        }
    }

    /// The attribute of an enabled setting.
    pub(crate) fn enabled_attribute(&self) -> Option<&str> {
        self.attribute.as_deref().filter(|_| self.enabled)
    }

    /// When the last change happened.
    pub(crate) fn changed_at(&self) -> Option<DateTime<Utc>> {
        self.changed_at
    }

    /// Turns TTL on for `attribute`, indexing `items`; the change settles after `transition`.
    pub(crate) fn enable(
        &mut self,
        attribute: &str,
        now: DateTime<Utc>,
        settles_at: DateTime<Utc>,
        items: impl Iterator<Item = (PrimaryKey, Item)>,
    ) {
        self.attribute = Some(attribute.to_owned());
        self.enabled = true;
        self.changed_at = Some(now);
        self.settles_at = Some(settles_at);
        self.by_expiry.clear();
        for (key, item) in items {
            self.insert(&key, &item);
        }
    }

    /// Turns TTL off: nothing expires from now on (the attribute stays visible while `DISABLING`).
    pub(crate) fn disable(&mut self, now: DateTime<Utc>, settles_at: DateTime<Utc>) {
        self.enabled = false;
        self.changed_at = Some(now);
        self.settles_at = Some(settles_at);
        self.by_expiry = OrdMap::new();
    }

    /// Records `item` (stored under `key`) in the expiry index. Called by `Table::put`.
    pub(crate) fn insert(&mut self, key: &PrimaryKey, item: &(impl AttributeLookup + ?Sized)) {
        if let Some(expiry) = self.expiry_of(item) {
            self.by_expiry
                .entry(expiry)
                .or_default()
                .insert(key.clone());
        }
    }

    /// Forgets `item` (stored under `key`). Called by `Table::put` (the replaced item) and
    /// `Table::delete`.
    pub(crate) fn remove(&mut self, key: &PrimaryKey, item: &(impl AttributeLookup + ?Sized)) {
        let Some(expiry) = self.expiry_of(item) else {
            return;
        };
        if let Some(keys) = self.by_expiry.get_mut(&expiry) {
            keys.remove(key);
            if keys.is_empty() {
                self.by_expiry.remove(&expiry);
            }
        }
    }

    /// The keys of the items expired at `now`: expiry time a Number not after `now` and not more than
    /// [`MAX_EXPIRY_AGE`] before it. Empty unless TTL is `ENABLED` at `now` (while `ENABLING` the
    /// service has not started deleting).
    pub(crate) fn expired(&self, now: DateTime<Utc>) -> Vec<PrimaryKey> {
        if self.status(now) != TimeToLiveStatus::Enabled {
            return Vec::new();
        }
        let (Some(newest), Some(oldest)) = (
            epoch_seconds(now),
            now.checked_sub_signed(MAX_EXPIRY_AGE)
                .and_then(epoch_seconds),
        ) else {
            return Vec::new();
        };
        self.by_expiry
            .range(oldest..=newest)
            .flat_map(|(_, keys)| keys.iter().cloned())
            .collect()
    }

    /// The expiry time of `item`: its TTL attribute, when TTL is on and the attribute is a Number.
    /// Strings, sets, lists and every other type never expire.
    fn expiry_of(&self, item: &(impl AttributeLookup + ?Sized)) -> Option<Number> {
        let attribute = self.attribute.as_deref().filter(|_| self.enabled)?;
        match item.attribute(attribute).as_deref() {
            Some(AttributeValue::N(n)) => Some(*n),
            _ => None,
        }
    }

    /// How many items the expiry index holds (tests and benches).
    #[cfg(test)]
    pub(crate) fn indexed(&self) -> usize {
        self.by_expiry.values().map(OrdSet::len).sum()
    }
}

/// `t` as epoch seconds, exactly (nanoseconds as decimals), for comparison with TTL values.
fn epoch_seconds(t: DateTime<Utc>) -> Option<Number> {
    let seconds = t.timestamp();
    let nanos = t.timestamp_subsec_nanos();
    if nanos == 0 {
        return Some(Number::from(seconds));
    }
    // A negative timestamp with a fraction: floor seconds plus a positive fraction.
    let text = if seconds < 0 {
        format!(
            "-{}.{:09}",
            (seconds + 1).unsigned_abs(),
            1_000_000_000 - nanos
        )
    } else {
        format!("{seconds}.{nanos:09}")
    };
    Number::parse(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::key::KeyValue;

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(seconds, 0).unwrap_or_default()
    }

    fn key(n: i64) -> PrimaryKey {
        PrimaryKey {
            hash: KeyValue::N(Number::from(n)),
            range: None,
        }
    }

    fn item(ttl: AttributeValue) -> Item {
        Item::from([("ttl".to_owned(), ttl)])
    }

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(Number::parse(text).unwrap_or_default())
    }

    const NOW: i64 = 1_735_689_600;

    fn enabled_with(items: &[(i64, Item)]) -> TtlState {
        let mut state = TtlState::default();
        state.enable(
            "ttl",
            at(NOW - 10),
            at(NOW - 10),
            items.iter().map(|(k, i)| (key(*k), i.clone())),
        );
        state
    }

    #[test]
    fn expiry_boundaries() {
        let five_years = MAX_EXPIRY_AGE.num_seconds();
        let items = [
            (1, item(n(&NOW.to_string()))),                // exactly now: expired
            (2, item(n(&(NOW + 1).to_string()))),          // one second later: not yet
            (3, item(n(&(NOW - five_years).to_string()))), // exactly five years ago: expired
            (4, item(n(&(NOW - five_years - 1).to_string()))), // older: ignored
            (5, item(AttributeValue::S(NOW.to_string()))), // a string never expires
            (6, item(AttributeValue::Ns(vec![Number::from(1)]))), // nor a set
            (7, item(AttributeValue::L(vec![n("1")]))),    // nor a list
            (8, item(n("1735689599.5"))),                  // half a second ago: expired
            (9, item(n("1735689600.000000001"))),          // a nanosecond ahead: not yet
        ];
        let state = enabled_with(&items);
        assert_eq!(state.indexed(), 6);
        assert_eq!(state.expired(at(NOW)), vec![key(3), key(8), key(1)]);
        // A second later "later" and the nanosecond one have expired, and the five-year-old one has
        // aged out of the window.
        assert_eq!(
            state.expired(at(NOW + 1)),
            vec![key(8), key(1), key(9), key(2)]
        );
    }

    #[test]
    fn status_follows_the_clock_and_nothing_expires_until_enabled() {
        let mut state = TtlState::default();
        assert_eq!(state.status(at(NOW)), TimeToLiveStatus::Disabled);
        let items = [(1, item(n("10")))];
        state.enable(
            "ttl",
            at(NOW),
            at(NOW + 60),
            items.iter().map(|(k, i)| (key(*k), i.clone())),
        );
        assert_eq!(state.status(at(NOW + 59)), TimeToLiveStatus::Enabling);
        assert!(state.expired(at(NOW + 59)).is_empty());
        assert_eq!(state.status(at(NOW + 60)), TimeToLiveStatus::Enabled);
        // "10" is more than five years old at NOW: ignored.
        assert!(state.expired(at(NOW + 60)).is_empty());
        state.disable(at(NOW + 100), at(NOW + 160));
        assert_eq!(state.status(at(NOW + 100)), TimeToLiveStatus::Disabling);
        assert_eq!(state.attribute_at(at(NOW + 100)), Some("ttl"));
        assert_eq!(state.status(at(NOW + 160)), TimeToLiveStatus::Disabled);
        assert_eq!(state.attribute_at(at(NOW + 160)), None);
        assert_eq!(state.indexed(), 0);
    }

    #[test]
    fn puts_and_deletes_keep_the_index() {
        let mut state = enabled_with(&[]);
        let past = item(n(&(NOW - 5).to_string()));
        state.insert(&key(1), &past);
        state.insert(&key(2), &past);
        assert_eq!(state.expired(at(NOW)), vec![key(1), key(2)]);
        state.remove(&key(1), &past);
        assert_eq!(state.expired(at(NOW)), vec![key(2)]);
        state.remove(&key(2), &past);
        assert_eq!(state.indexed(), 0);
    }

    #[test]
    fn epoch_seconds_are_exact() {
        let t = DateTime::from_timestamp(5, 250_000_000).unwrap_or_default();
        assert_eq!(epoch_seconds(t), Number::parse("5.25").ok());
        let t = DateTime::from_timestamp(-2, 250_000_000).unwrap_or_default();
        assert_eq!(epoch_seconds(t), Number::parse("-1.75").ok());
    }
}
