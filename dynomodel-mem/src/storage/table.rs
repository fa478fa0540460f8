//! One table: its schema and its items.
//!
//! Items live in a two-level ordered map: partitions by `(stable_hash(pk), pk)` (the Scan order), then
//! items by sort key (the Query order), each in the compact form of [`StoredItem`] (see `stored.rs` for
//! why). A point operation is two `BTreeMap` look-ups: O(log n), no scan.
//! The secondary indexes sit beside `partitions` (TTL and stream state will join them); every write goes
//! through [`Table::put`] and [`Table::delete`], which keep the indexes in step, so that batches,
//! transactions and TTL expiry maintain the indexes by construction, and which report the write to
//! what captures writes (`capture.rs`: durable mode's log), so that no write path can forget to log.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use dynomodel::backend::{
    BillingMode, GlobalSecondaryIndex, GlobalSecondaryIndexDescription, Identity,
    LocalSecondaryIndexDescription, ProvisionedThroughput, ProvisionedThroughputDescription,
    TableDescription, TableStatus,
};
use dynomodel::Item;

use crate::storage::capture;
use crate::storage::clock::EngineClock;
use crate::storage::consistency::{
    EventualConsistency, Propagation, StalePartitions, StaleVersions,
};
use crate::storage::index::{indexes_of, Index};
use crate::storage::key::{partition_slot, KeyValue, PrimaryKey};
use crate::storage::lifecycle::{Capacity, IndexChange, Lifecycle, Transition, View};
use crate::storage::partition::{Partition, TablePartitions};
use crate::storage::pitr::History;
use crate::storage::schema::TableSchema;
use crate::storage::stored::{AttributeLookup, StoredItem};
use crate::storage::stream::Stream;
use crate::storage::ttl::TtlState;

/// What one item adds to its item collection (`collection.rs`): the item and its LSI entries.
fn collection_share<I: AttributeLookup + ?Sized>(indexes: &[Index], item: Option<&I>) -> usize {
    let Some(item) = item else {
        return 0;
    };
    let entries: usize = indexes
        .iter()
        .filter(|i| !i.global && i.holds(item))
        .map(|i| i.entry_size(item))
        .sum();
    item.item_size() + entries
}

/// A capacity as DescribeTable shows it at `view`: the old values while a change is in progress.
fn throughput(
    t: Option<ProvisionedThroughput>,
    history: Option<&Capacity>,
    view: &View,
    changing: bool,
) -> ProvisionedThroughputDescription {
    let shown = match history.and_then(|h| h.previous) {
        Some(previous) if changing => Some(previous),
        _ => t,
    };
    let mut d = shown.map_or_else(Default::default, |t| ProvisionedThroughputDescription {
        read_capacity_units: t.read_capacity_units,
        write_capacity_units: t.write_capacity_units,
        ..Default::default()
    });
    if let Some(h) = history {
        d.last_increase_date_time = h.last_increase;
        d.last_decrease_date_time = h.last_decrease;
        d.number_of_decreases_today = h.decreases_today(view.now);
    }
    d
}

/// A table: schema, items, and running totals for DescribeTable. A clone shares the items and the
/// index entries with the original until either writes (docs/performance.md, "Forks").
#[derive(Debug, Clone)]
pub(crate) struct Table {
    /// What CreateTable fixed.
    pub schema: TableSchema,
    partitions: TablePartitions,
    indexes: Vec<Index>,
    item_count: usize,
    total_size: usize,
    /// Time to Live: the setting and the index of expiry times (`ttl.rs`).
    ttl: TtlState,
    /// The table's tags by key (`tags.rs`).
    tags: BTreeMap<String, String>,
    /// Changes in progress and capacity history (UpdateTable).
    pub lifecycle: Lifecycle,
    /// The size of each item collection (tables with LSIs only): items plus LSI entries.
    /// (A persistent map, shared by a copy of the table as its items are.)
    collections: imbl::HashMap<KeyValue, usize>,
    /// The table's streams, oldest first; only the last can be recording (`stream/`).
    streams: Vec<Stream>,
    /// Point-in-time recovery's history while PITR is on (`pitr.rs`).
    pitr: Option<History>,
    /// Eventual consistency on demand (`consistency/`): `None` when the engine is strongly
    /// consistent (the default).
    propagation: Option<Propagation>,
    /// The versions reads without `ConsistentRead` still see (`None`: none is stale).
    stale: Option<Box<StaleVersions>>,
}

impl Table {
    /// An empty table.
    pub(crate) fn new(schema: TableSchema) -> Table {
        Table {
            indexes: indexes_of(&schema),
            schema,
            partitions: TablePartitions::new(),
            item_count: 0,
            total_size: 0,
            ttl: TtlState::default(),
            tags: BTreeMap::new(),
            lifecycle: Lifecycle::default(),
            collections: imbl::HashMap::new(),
            streams: Vec::new(),
            pitr: None,
            propagation: None,
            stale: None,
        }
    }

    /// Adds a secondary index and backfills it from the items already stored. Items without the
    /// index key attributes, or with one of another type than the index declares, are left out (the
    /// live service skips them and reports them as index key violations; the engine just skips them).
    pub(crate) fn add_index(&mut self, mut index: Index) {
        for ((_, hash), partition) in &self.partitions {
            for (range, item) in partition {
                let key = PrimaryKey {
                    hash: hash.clone(),
                    range: range.clone(),
                };
                index.insert(&key, &item.decode());
            }
        }
        self.indexes.push(index);
    }

    /// Drops the secondary index `name` and its entries.
    pub(crate) fn remove_index(&mut self, name: &str) {
        self.indexes.retain(|i| i.name != name);
    }

    /// The item with this key (decoded: an owned copy).
    pub(crate) fn get(&self, key: &PrimaryKey) -> Option<Item> {
        self.stored(key).map(StoredItem::decode)
    }

    /// The item with this key, as stored.
    pub(crate) fn stored(&self, key: &PrimaryKey) -> Option<&StoredItem> {
        self.partitions
            .get(&partition_slot(key.hash.clone()))?
            .get(&key.range)
    }

    /// Whether the old item must be decoded on a write: something beside the items follows them.
    fn tracks_items(&self) -> bool {
        !self.indexes.is_empty()
            || self.ttl.enabled_attribute().is_some()
            || self.streams.last().is_some_and(Stream::recording)
    }

    /// Stores `item` under `key`, returning the item it replaced (as stored: decoding it is left to the
    /// callers that return it). The put is reported here, where every item write passes, to what
    /// captures writes (`capture.rs`: durable mode's log).
    pub(crate) fn put(&mut self, key: PrimaryKey, item: Item) -> Option<StoredItem> {
        let size = dynomodel::item_size(&item);
        self.put_measured(key, item, size)
    }

    /// [`Table::put`] of an item whose size (`dynomodel::item_size`) the write's checks measured.
    pub(crate) fn put_measured(
        &mut self,
        key: PrimaryKey,
        item: Item,
        size: usize,
    ) -> Option<StoredItem> {
        let stored = StoredItem::encode_measured(&item, size);
        self.put_encoded(key, stored, size, Some(&item))
    }

    /// Stores an item already in its stored form (of DynamoDB size `size`) under `key`, returning
    /// the item it replaced. `item` is the same item decoded, when the caller has it; without it,
    /// indexes, Time to Live and item collections read the stored forms (the key attributes, the
    /// TTL attribute, the projected sizes; an entry of projection ALL is the stored bytes), and the
    /// item is decoded only for a recording stream's images or indexes that lag. The one write path
    /// of [`Table::put`], and of a put written straight into the stored form (`stored/written.rs`).
    pub(crate) fn put_encoded(
        &mut self,
        key: PrimaryKey,
        stored: StoredItem,
        size: usize,
        item: Option<&Item>,
    ) -> Option<StoredItem> {
        capture::put(&self.schema.name, &key, &stored);
        if let Some(history) = &mut self.pitr {
            history.record(&key, Some(&stored));
        }
        let slot = partition_slot(key.hash.clone());
        if self.propagation.is_some() {
            let old = self.partitions.get(&slot).and_then(|p| p.get(&key.range));
            self.record_stale(&key, old.cloned());
        }
        // Without the item decoded, what follows the items reads the stored forms (each index
        // its key attributes, an entry of projection ALL the bytes themselves; Time to Live its
        // attribute): only a recording stream's images and indexes that lag need `Item`s.
        let needs_items = self.streams.last().is_some_and(|s| s.recording())
            || self.propagation.as_ref().is_some_and(|p| p.lags_indexes());
        if item.is_none() && !needs_items && self.tracks_items() {
            let old = self.partitions.get(&slot).and_then(|p| p.get(&key.range));
            for index in &mut self.indexes {
                if let Some(old) = old {
                    index.remove(&key, old);
                }
                index.insert_stored(&key, &stored);
            }
            if let Some(old) = old {
                self.ttl.remove(&key, old);
            }
            self.ttl.insert(&key, &stored);
            if !self.schema.local_secondary_indexes.is_empty() {
                let share = collection_share(&self.indexes, Some(&stored));
                let old_share = collection_share(&self.indexes, old);
                let size = self.collections.entry(key.hash.clone()).or_default();
                *size = (*size + share).saturating_sub(old_share);
            }
        } else if self.tracks_items() {
            let decoded;
            let item = match item {
                Some(item) => item,
                None => {
                    decoded = stored.decode();
                    &decoded
                }
            };
            let old = self
                .partitions
                .get(&slot)
                .and_then(|p| p.get(&key.range))
                .map(StoredItem::decode);
            self.write_indexes(&key, old.as_ref(), Some(item));
            if let Some(old) = &old {
                self.ttl.remove(&key, old);
            }
            self.ttl.insert(&key, item);
            if !self.schema.local_secondary_indexes.is_empty() {
                let share = collection_share(&self.indexes, Some(item));
                let old_share = collection_share(&self.indexes, old.as_ref());
                let size = self.collections.entry(key.hash.clone()).or_default();
                *size = (*size + share).saturating_sub(old_share);
            }
            if let Some(stream) = self.streams.last_mut().filter(|s| s.recording()) {
                stream.record(old.as_ref(), Some(item), None);
            }
        }
        // One descent of the map for a partition that exists (an entry API would take two here).
        let old = match self.partitions.get_mut(&slot) {
            Some(partition) => partition.insert(key.range, stored),
            None => {
                self.partitions
                    .insert(slot, Partition::One(key.range, stored));
                None
            }
        };
        self.total_size += size;
        match &old {
            Some(old) => self.total_size = self.total_size.saturating_sub(old.size()),
            None => self.item_count += 1,
        }
        old
    }

    /// Removes the item with this key, returning it.
    pub(crate) fn delete(&mut self, key: &PrimaryKey) -> Option<Item> {
        self.delete_by(key, None)
    }

    /// Removes the item with this key as the service itself (a Time to Live deletion): its stream
    /// record names the service ([`Identity::time_to_live`]).
    pub(crate) fn delete_as_service(&mut self, key: &PrimaryKey) -> Option<Item> {
        self.delete_by(key, Some(Identity::time_to_live()))
    }

    /// Removes the item with this key on behalf of `identity` (`None`: the application). A
    /// deletion is reported here (`capture.rs`); deleting a missing item changes nothing and
    /// reports nothing.
    fn delete_by(&mut self, key: &PrimaryKey, identity: Option<Identity>) -> Option<Item> {
        let slot = partition_slot(key.hash.clone());
        let partition = self.partitions.get_mut(&slot)?;
        let stored = partition.remove(&key.range)?;
        match identity {
            None => capture::delete(&self.schema.name, key),
            Some(_) => capture::expire(&self.schema.name, key),
        }
        if let Some(history) = &mut self.pitr {
            history.record(key, None);
        }
        let old = stored.decode();
        if let Some(size) = self.collections.get_mut(&key.hash) {
            *size = size.saturating_sub(collection_share(&self.indexes, Some(&old)));
            if *size == 0 {
                self.collections.remove(&key.hash);
            }
        }
        if partition.is_empty() {
            self.partitions.remove(&slot);
        }
        if self.propagation.is_some() {
            self.record_stale(key, Some(stored.clone()));
        }
        self.item_count = self.item_count.saturating_sub(1);
        self.total_size = self.total_size.saturating_sub(stored.size());
        self.write_indexes(key, Some(&old), None);
        self.ttl.remove(key, &old);
        if let Some(stream) = self.streams.last_mut().filter(|s| s.recording()) {
            stream.record(Some(&old), None, identity);
        }
        Some(old)
    }

    /// Moves `key`'s index entries from those of `old` (the item before a write, if any) to those
    /// of `new` (after it, if any). The old entries go before the new ones come in: the index key
    /// may have changed (or vanished). Under eventual consistency on demand, a GSI's change arrives
    /// for its readers after the GSI's delay, an LSI's for readers without `ConsistentRead` after
    /// the stale window (`consistency/`).
    fn write_indexes(&mut self, key: &PrimaryKey, old: Option<&Item>, new: Option<&Item>) {
        let lagging = self.propagation.as_mut().filter(|p| p.lags_indexes());
        let Some(propagation) = lagging else {
            if let Some(old) = old {
                for index in &mut self.indexes {
                    index.remove(key, old);
                }
            }
            if let Some(new) = new {
                for index in &mut self.indexes {
                    index.insert(key, new);
                }
            }
            return;
        };
        let now = propagation.now();
        let write = propagation.next_write();
        for (nth, index) in self.indexes.iter_mut().enumerate() {
            match propagation.index_due(now, write, nth, index.global) {
                Some(due) => index.write_lagging(key, old, new, now, due),
                None => {
                    if let Some(old) = old {
                        index.remove(key, old);
                    }
                    if let Some(new) = new {
                        index.insert(key, new);
                    }
                }
            }
        }
    }

    /// Records that a write replaced `previous` (as stored; `None`: there was no item) under
    /// `key`, which reads without `ConsistentRead` keep seeing for the stale window.
    fn record_stale(&mut self, key: &PrimaryKey, previous: Option<StoredItem>) {
        let Some(propagation) = &self.propagation else {
            return;
        };
        let now = propagation.now();
        if let Some(until) = propagation.stale_until(now) {
            self.stale
                .get_or_insert_with(Box::default)
                .record(key, previous, now, until);
        }
    }

    /// The item with this key as a read sees it: the current one for a strongly consistent read
    /// (`consistent`); for an eventually consistent one, under eventual consistency on demand, the
    /// item as it was before a write within the stale window (`consistency/`).
    pub(crate) fn seen(&self, key: &PrimaryKey, consistent: bool) -> Option<&StoredItem> {
        if !consistent
            && let Some(stale) = &self.stale
            && let Some(propagation) = &self.propagation
            && let Some(seen) = stale.seen(key, propagation.now())
        {
            return seen;
        }
        self.stored(key)
    }

    /// The versions reads without `ConsistentRead` see in place of the current items, and the
    /// instant of the engine's clock to read them at; `None` when no item is stale (the setting
    /// off, or nothing written within the window).
    pub(crate) fn stale_versions(&self) -> Option<(&StalePartitions, DateTime<Utc>)> {
        let stale = self.stale.as_deref()?;
        let propagation = self.propagation.as_ref()?;
        Some((stale.versions(), propagation.now()))
    }

    /// Follows eventual consistency on demand: `settings`, measured on `clock` (the catalog sets
    /// it on every table it takes in when the engine has it on).
    pub(crate) fn follow(
        &mut self,
        settings: &std::sync::Arc<EventualConsistency>,
        clock: &EngineClock,
    ) {
        self.propagation = Some(Propagation::new(settings.clone(), clock.clone()));
    }

    /// Makes every pending change visible: GSIs hold their current entries for every reader, and
    /// no read is stale.
    pub(crate) fn settle(&mut self) {
        for index in &mut self.indexes {
            index.settle();
        }
        self.stale = None;
    }

    /// Starts recording to a new stream (the previous one, if any, is already disabled).
    pub(crate) fn start_stream(&mut self, stream: Stream) {
        self.streams.push(stream);
    }

    /// Disables the recording stream, if any: its shard closes, its records stay readable.
    pub(crate) fn disable_stream(&mut self, change: Transition) {
        if let Some(stream) = self.streams.last_mut() {
            stream.disable(change);
        }
    }

    /// The table's streams, oldest first (durable mode's snapshots read them).
    #[cfg(feature = "durable")]
    pub(crate) fn streams(&self) -> &[Stream] {
        &self.streams
    }

    /// The table's streams.
    pub(crate) fn streams_mut(&mut self) -> std::slice::IterMut<'_, Stream> {
        self.streams.iter_mut()
    }

    /// Takes the table's streams (the table is being forgotten; its streams outlive it).
    pub(crate) fn take_streams(&mut self) -> Vec<Stream> {
        std::mem::take(&mut self.streams)
    }

    /// Gives back streams taken with [`Table::take_streams`] (a fork rebinds them to its engine).
    pub(crate) fn replace_streams(&mut self, streams: Vec<Stream>) {
        self.streams = streams;
    }

    /// Moves a copy of the table to another engine's clock: its point-in-time history records
    /// the copy's changes at that clock's instants (a fork's, `state.rs`), and its pending
    /// propagations (eventual consistency on demand) arrive at the same instants of that clock.
    pub(crate) fn rebind_history(&mut self, clock: &EngineClock) {
        if let Some(history) = &mut self.pitr {
            history.rebind(clock.clone());
        }
        if let Some(propagation) = &mut self.propagation {
            propagation.rebind(clock.clone());
        }
    }

    /// The items, for Query and Scan.
    pub(crate) fn partitions(&self) -> &TablePartitions {
        &self.partitions
    }

    /// The secondary index called `name`.
    pub(crate) fn index(&self, name: &str) -> Option<&Index> {
        self.indexes.iter().find(|i| i.name == name)
    }

    /// What `item` adds to its item collection: the item and its LSI entries (0 for `None`).
    pub(crate) fn collection_share<I: AttributeLookup + ?Sized>(&self, item: Option<&I>) -> usize {
        collection_share(&self.indexes, item)
    }

    /// The size of the item collection of partition key `hash` (0 without LSIs).
    pub(crate) fn collection_size(&self, hash: &KeyValue) -> usize {
        self.collections.get(hash).copied().unwrap_or(0)
    }

    /// The table's secondary indexes (LSIs, then GSIs).
    pub(crate) fn indexes(&self) -> &[Index] {
        &self.indexes
    }

    /// Whether `name` is a key attribute of one of the indexes.
    pub(crate) fn is_index_key(&self, name: &str) -> bool {
        self.indexes
            .iter()
            .any(|i| i.hash.0 == name || i.range.as_ref().is_some_and(|r| r.0 == name))
    }

    /// `ItemCount` and `IndexSizeBytes` of index `name` (zero for an unknown name, which CreateTable
    /// validation rules out).
    fn index_totals(&self, name: &str) -> (i64, i64) {
        self.index(name)
            .map_or((0, 0), |i| (i.item_count(), i.size_bytes()))
    }

    /// Number of items.
    #[cfg(test)]
    pub(crate) fn item_count(&self) -> usize {
        self.item_count
    }

    /// All items in Scan order: partitions by key hash, then by sort key.
    #[cfg(test)]
    pub(crate) fn items(&self) -> impl Iterator<Item = Item> + '_ {
        self.partitions
            .values()
            .flat_map(|p| p.iter().map(|(_, item)| item.decode()))
    }

    /// DescribeTable's view of the table at `view`: the table and index statuses follow the changes in
    /// progress (see [`Lifecycle`]).
    pub(crate) fn describe(&self, view: &View) -> TableDescription {
        let s = &self.schema;
        let life = &self.lifecycle;
        let arn = s.arn.clone();
        let on_demand = s.is_on_demand();
        let table_change = life.table_change(view);
        let allocating = s.global_secondary_indexes.iter().any(|i| {
            life.index_change(&i.index_name, view)
                .is_some_and(|(c, t)| c == IndexChange::Creating && view.allocating(&t))
        });
        let mut deleting = life.deleting(view).peekable();
        let index_deleting = deleting.peek().is_some();
        // A table is UPDATING while its own settings change, while a new index is being allocated and
        // while an index is being deleted (the ack-api-quirks lab's recordings of the live service,
        // DDB-TABLE-148); a GSI's throughput update leaves it ACTIVE.
        let status = if life.deleting_table() {
            TableStatus::Deleting
        } else if life.creating_table(view) {
            TableStatus::Creating
        } else if table_change.is_some() || allocating || index_deleting {
            TableStatus::Updating
        } else {
            TableStatus::Active
        };
        let mut attribute_definitions = s.attribute_definitions.clone();
        let mut deleting_descriptions = Vec::new();
        for d in deleting {
            let mut description = d.description.clone();
            description.index_status = TableStatus::Deleting;
            deleting_descriptions.push(description);
            for def in &d.attribute_definitions {
                if !attribute_definitions
                    .iter()
                    .any(|a| a.attribute_name == def.attribute_name)
                {
                    attribute_definitions.push(def.clone());
                }
            }
        }
        let mut global_secondary_indexes: Vec<GlobalSecondaryIndexDescription> = s
            .global_secondary_indexes
            .iter()
            .map(|i| self.describe_gsi(i, view, on_demand))
            .collect();
        global_secondary_indexes.extend(deleting_descriptions);
        let table_changing = table_change == Some(&crate::storage::lifecycle::TableChange::Iops);
        TableDescription {
            table_name: s.name.clone(),
            table_status: status,
            attribute_definitions,
            key_schema: s.key_schema.clone(),
            creation_date_time: s.created,
            provisioned_throughput: throughput(
                s.provisioned_throughput,
                Some(&life.capacity),
                view,
                table_changing,
            ),
            billing_mode: s.billing_mode,
            item_count: i64::try_from(self.item_count).unwrap_or(i64::MAX),
            table_size_bytes: i64::try_from(self.total_size).unwrap_or(i64::MAX),
            table_arn: arn.clone(),
            table_id: s.table_id.clone(),
            local_secondary_indexes: s
                .local_secondary_indexes
                .iter()
                .map(|i| LocalSecondaryIndexDescription {
                    index_name: i.index_name.clone(),
                    key_schema: i.key_schema.clone(),
                    projection: i.projection.clone(),
                    item_count: self.index_totals(&i.index_name).0,
                    index_size_bytes: self.index_totals(&i.index_name).1,
                    index_arn: format!("{arn}/index/{}", i.index_name),
                })
                .collect(),
            global_secondary_indexes,
            stream_specification: s.stream_specification,
            latest_stream_arn: life.latest_stream.as_ref().map(|(a, _)| a.clone()),
            latest_stream_label: life.latest_stream.as_ref().map(|(_, l)| l.clone()),
            // A table created on-demand reports its creation as the switch (DynamoDB Local 3.3.1
            // agrees); kept in the lifecycle by CreateTable, derived here for a table restored
            // without it.
            last_update_to_pay_per_request_date_time: life
                .last_update_to_pay_per_request
                .or((s.billing_mode == Some(BillingMode::PayPerRequest)).then_some(s.created)),
            table_class: s.table_class,
            deletion_protection_enabled: s.deletion_protection_enabled,
            restore_summary: life.restored.clone().map(|mut summary| {
                summary.restore_in_progress = life.creating_table(view);
                summary
            }),
        }
    }

    /// DeleteTable's answer: what DynamoDB sends (the API reference's example; real DynamoDB's recorded
    /// answers) — name, ARN, id, status, throughput, billing summary, size and count — without the
    /// schema, the indexes, the stream and the creation time (which reads as the epoch, as the AWS
    /// backend reports a missing one). DynamoDB Local 3.3.1 sends the whole description.
    pub(crate) fn describe_deleted(&self, view: &View) -> TableDescription {
        let full = self.describe(view);
        TableDescription {
            attribute_definitions: Vec::new(),
            key_schema: Vec::new(),
            creation_date_time: DateTime::UNIX_EPOCH,
            local_secondary_indexes: Vec::new(),
            global_secondary_indexes: Vec::new(),
            stream_specification: None,
            latest_stream_arn: None,
            latest_stream_label: None,
            table_class: None,
            deletion_protection_enabled: false,
            ..full
        }
    }

    /// One global secondary index as DescribeTable shows it at `view`.
    pub(crate) fn describe_gsi(
        &self,
        i: &GlobalSecondaryIndex,
        view: &View,
        on_demand: bool,
    ) -> GlobalSecondaryIndexDescription {
        let change = self.lifecycle.index_change(&i.index_name, view);
        let (index_status, backfilling) = match change {
            // The indexes of a table being created are CREATING with it, without `Backfilling` (there
            // is nothing to backfill; dynalite's recording of CreateTable's response).
            _ if self.lifecycle.creating_table(view) => (TableStatus::Creating, None),
            Some((IndexChange::Creating, t)) => (TableStatus::Creating, Some(!view.allocating(&t))),
            Some((IndexChange::Updating, _)) => (TableStatus::Updating, None),
            None => (TableStatus::Active, None),
        };
        let history = self.lifecycle.index_capacity.get(&i.index_name);
        let updating = change.is_some_and(|(c, _)| c == IndexChange::Updating);
        GlobalSecondaryIndexDescription {
            index_name: i.index_name.clone(),
            key_schema: i.key_schema.clone(),
            projection: i.projection.clone(),
            index_status,
            backfilling,
            provisioned_throughput: Some(if on_demand {
                ProvisionedThroughputDescription::default()
            } else {
                throughput(i.provisioned_throughput, history, view, updating)
            }),
            item_count: self.index_totals(&i.index_name).0,
            index_size_bytes: self.index_totals(&i.index_name).1,
            index_arn: format!("{}/index/{}", self.schema.arn, i.index_name),
        }
    }
}

/// Time to Live and tags: the table's side of `ttl/` and `tags.rs`.
impl Table {
    /// The TTL setting.
    pub(crate) fn ttl(&self) -> &TtlState {
        &self.ttl
    }

    /// Turns TTL on for `attribute` and indexes the expiry times of the stored items.
    pub(crate) fn enable_ttl(
        &mut self,
        attribute: &str,
        now: DateTime<Utc>,
        settles_at: DateTime<Utc>,
    ) {
        let items = self.partitions.iter().flat_map(|((_, hash), items)| {
            items.iter().map(move |(range, item)| {
                let key = PrimaryKey {
                    hash: hash.clone(),
                    range: range.clone(),
                };
                (key, item.decode())
            })
        });
        self.ttl.enable(attribute, now, settles_at, items);
    }

    /// Turns TTL off.
    pub(crate) fn disable_ttl(&mut self, now: DateTime<Utc>, settles_at: DateTime<Utc>) {
        self.ttl.disable(now, settles_at);
    }

    /// The tags, in key order.
    pub(crate) fn tags(&self) -> &BTreeMap<String, String> {
        &self.tags
    }

    /// The tags, for TagResource and UntagResource.
    pub(crate) fn tags_mut(&mut self) -> &mut BTreeMap<String, String> {
        &mut self.tags
    }

    /// The item count and total size in bytes (what a backup records).
    pub(crate) fn totals(&self) -> (usize, usize) {
        (self.item_count, self.total_size)
    }

    /// Point-in-time recovery's history, while PITR is on (`pitr.rs`).
    pub(crate) fn pitr(&self) -> Option<&History> {
        self.pitr.as_ref()
    }

    /// Point-in-time recovery's history, for UpdateContinuousBackups.
    pub(crate) fn pitr_mut(&mut self) -> &mut Option<History> {
        &mut self.pitr
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynomodel::backend::{AttributeDefinition, KeySchemaElement, ScalarAttributeType};
    use dynomodel::{item_size, AttributeValue};

    fn schema() -> TableSchema {
        TableSchema {
            name: "things".into(),
            attribute_definitions: vec![
                AttributeDefinition {
                    attribute_name: "pk".into(),
                    attribute_type: ScalarAttributeType::S,
                },
                AttributeDefinition {
                    attribute_name: "sk".into(),
                    attribute_type: ScalarAttributeType::N,
                },
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            provisioned_throughput: None,
            local_secondary_indexes: vec![],
            global_secondary_indexes: vec![],
            created: Utc::now(),
            table_id: "id".into(),
            arn: "arn:aws:dynamodb:ddblocal:000000000000:table/things".into(),
            stream_specification: None,
            table_class: None,
            deletion_protection_enabled: false,
        }
    }

    fn key(pk: &str, sk: i64) -> PrimaryKey {
        PrimaryKey {
            hash: KeyValue::S(pk.into()),
            range: Some(KeyValue::N(sk.into())),
        }
    }

    fn item(pk: &str, sk: i64, extra: &str) -> Item {
        let mut item = Item::new();
        item.insert("pk".into(), AttributeValue::S(pk.into()));
        item.insert("sk".into(), AttributeValue::N(sk.into()));
        item.insert("x".into(), AttributeValue::S(extra.into()));
        item
    }

    #[test]
    fn totals_follow_puts_and_deletes() {
        let mut t = Table::new(schema());
        assert!(t.put(key("a", 1), item("a", 1, "xx")).is_none());
        let size_one = item_size(&item("a", 1, "xx"));
        assert_eq!((t.item_count(), t.total_size), (1, size_one));
        let old = t.put(key("a", 1), item("a", 1, "yyyy"));
        assert_eq!(old.map(|o| o.decode()), Some(item("a", 1, "xx")));
        assert_eq!((t.item_count(), t.total_size), (1, size_one + 2));
        t.put(key("b", 1), item("b", 1, ""));
        assert_eq!(t.item_count(), 2);
        assert!(t.delete(&key("a", 1)).is_some());
        assert!(t.delete(&key("a", 1)).is_none());
        assert_eq!(t.item_count(), 1);
        assert_eq!(t.total_size, item_size(&item("b", 1, "")));
        assert!(t.get(&key("b", 1)).is_some());
        assert!(t.get(&key("b", 2)).is_none());
    }

    #[test]
    fn sort_keys_are_numeric_within_a_partition() {
        let mut t = Table::new(schema());
        for sk in [10, -5, 2, 100, 0] {
            t.put(key("p", sk), item("p", sk, ""));
        }
        let order: Vec<String> = t
            .items()
            .map(|i| i.get("sk").map(|v| v.to_string()).unwrap_or_default())
            .collect();
        assert_eq!(
            order,
            [
                r#"{"N":"-5"}"#,
                r#"{"N":"0"}"#,
                r#"{"N":"2"}"#,
                r#"{"N":"10"}"#,
                r#"{"N":"100"}"#
            ]
        );
    }

    #[test]
    fn describe_reports_arn_and_totals() {
        let mut t = Table::new(schema());
        t.put(key("a", 1), item("a", 1, "xx"));
        let d = t.describe(&View::at(Utc::now()));
        assert_eq!(
            d.table_arn,
            "arn:aws:dynamodb:ddblocal:000000000000:table/things"
        );
        assert_eq!(d.item_count, 1);
        assert_eq!(d.table_size_bytes as usize, item_size(&item("a", 1, "xx")));
        assert_eq!(d.provisioned_throughput.read_capacity_units, 0);
    }

    /// The table's write path and the token store report every change, and only while a capture is
    /// installed on the thread (what durable mode's log relies on: `capture.rs`).
    #[cfg(feature = "durable")]
    #[test]
    fn every_change_is_reported_to_the_installed_capture() {
        use std::sync::Mutex;

        use crate::storage::capture::{install, WriteCapture};
        use crate::storage::tokens::Tokens;

        struct Recorder(Mutex<Vec<String>>);
        impl Recorder {
            fn push(&self, line: String) {
                self.0.lock().unwrap_or_else(|e| e.into_inner()).push(line);
            }
        }
        impl WriteCapture for Recorder {
            fn put(&self, table: &str, key: &PrimaryKey, item: &StoredItem) {
                self.push(format!("put {table} {key:?} {}", item.attribute_count()));
            }
            fn delete(&self, table: &str, key: &PrimaryKey) {
                self.push(format!("delete {table} {key:?}"));
            }
            fn expire(&self, table: &str, key: &PrimaryKey) {
                self.push(format!("expire {table} {key:?}"));
            }
            fn token(&self, token: &str, actions: &[dynomodel::backend::TransactWriteItem]) {
                self.push(format!("token {token} {}", actions.len()));
            }
        }
        static RECORDER: Recorder = Recorder(Mutex::new(Vec::new()));

        let mut t = Table::new(schema());
        t.put(key("a", 0), item("a", 0, "before"));
        install(Some(&RECORDER));
        t.put(key("a", 1), item("a", 1, "x"));
        t.delete(&key("a", 1));
        t.delete(&key("a", 1));
        t.delete_as_service(&key("a", 0));
        Tokens::default().record("tok", &[], Utc::now());
        install(None);
        t.put(key("a", 2), item("a", 2, "after"));
        let seen = RECORDER.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        assert_eq!(
            seen,
            [
                format!("put things {:?} 3", key("a", 1)),
                format!("delete things {:?}", key("a", 1)),
                format!("expire things {:?}", key("a", 0)),
                "token tok 0".to_owned(),
            ],
            "a missing item's deletion changes nothing and reports nothing; nothing is reported \
             before or after the capture"
        );
    }
}
