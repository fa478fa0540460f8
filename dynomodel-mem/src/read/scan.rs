//! `Scan`: every item of a table or index in a deterministic order, a page at a time, optionally one
//! segment of a parallel scan; and the page builder Query shares.
//!
//! Scan order is the storage order: partitions by their key's stable hash, then sort key (for an index:
//! index sort key, then table key). A segment is a contiguous slice of the u64 hash space
//! (`paging::segment_start`), so the segments of any `TotalSegments` partition the data exactly once and
//! an `ExclusiveStartKey` resumes inside its own segment. The walk starts with a range look-up: resuming
//! costs O(log n), not a re-scan.

use chrono::{DateTime, Utc};
use std::borrow::Cow;
use std::cell::Cell;

use dynomodel::backend::{
    ItemSink, QueryOutput, ReturnConsumedCapacity, ScanInput, ScanOutput, Select,
};
use dynomodel::{item_size, Error, Item, Result};

use crate::metering::capacity::{self, Consistency, Consumed};

use crate::expr::eval::evaluate;
use crate::expr::projection::project;
use crate::expr::substitution::{self, Oversized};
use crate::expr::{check_unused, Placeholders, Usage};
use crate::metering::throughput::{Kind, Meter};
use crate::read::paging::{
    read_items, read_page, scan_entries, scan_keyed, segment_of, segment_start, Handed, PageRules,
    Readable,
};
use crate::read::stale::{Seen, StaleWalk};
use crate::read::{self, ReadExpressions, Source, StartKey};
use crate::storage::table::Table;
use crate::validate::{self, Constraints};

/// The most segments of a parallel scan.
pub(crate) const MAX_TOTAL_SEGMENTS: i32 = 1_000_000;

/// What a page's capacity report needs: the requested mode and `ConsistentRead`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PageCost {
    /// `ReturnConsumedCapacity`.
    pub mode: Option<ReturnConsumedCapacity>,
    /// `ConsistentRead`.
    pub consistent_read: Option<bool>,
    /// Whether throughput is enforced: the page's cost is computed even without a report.
    pub metered: bool,
}

/// Builds one page from `entries` (table items or index entries, in read order), with its capacity
/// report when `cost` asks for one, and what it consumed when asked for or metered.
///
/// With a `sink` (a typed read), the page's items go to it and the output's `items` is `None`:
/// straight from their stored form when nothing needs the decoded item (no filter, no projection,
/// no fetch from the table), else decoded as without a sink and then handed over.
#[allow(clippy::too_many_arguments)]
pub(crate) fn page<'a, V: Readable + 'a>(
    entries: impl Iterator<Item = &'a V>,
    source: &Source<'_>,
    select: Select,
    exprs: &ReadExpressions,
    p: &Placeholders<'_>,
    limit: Option<i32>,
    cost: PageCost,
    sink: Option<&mut dyn ItemSink>,
) -> (QueryOutput, Option<Consumed>) {
    let fetch = read::fetches_from_table(source, select, exprs, p);
    let wanted = capacity::wanted(cost.mode) || cost.metered;
    // The bytes of the table items an LSI read fetched (counted only for a report).
    let fetched = Cell::new(0usize);
    let table = match source {
        Source::Table(t) | Source::Index(t, _) => *t,
    };
    let steps = exprs
        .projection
        .as_ref()
        .map(|paths| read::projection_steps(paths, p));
    let keep = |entry: &Item| exprs.filter.as_ref().is_none_or(|f| evaluate(f, entry, p));
    let output = |entry: Cow<'_, Item>| -> Item {
        // For an LSI that lacks requested attributes, the caller sees the table item.
        let item = if fetch {
            let consistent = cost.consistent_read == Some(true);
            let item = read::table_item(table, &entry, consistent).map_or(entry, Cow::Owned);
            if wanted {
                fetched.set(fetched.get() + item_size(&item));
            }
            item
        } else {
            entry
        };
        match &steps {
            Some(steps) => project(&item, steps),
            // A table item was decoded for this read: it moves into the page without a copy.
            None => item.into_owned(),
        }
    };
    let key_of = |bytes: &[u8]| source.lek_of_stored(bytes);
    let rules = PageRules {
        limit: limit.and_then(|l| usize::try_from(l).ok()),
        keep: exprs
            .filter
            .is_some()
            .then_some(&keep as &dyn Fn(&Item) -> bool),
        items: select != Select::Count,
        // The entry itself when it is what the page returns (no projection, no fetch from the table).
        output: (fetch || steps.is_some()).then_some(&output as &dyn Fn(Cow<'_, Item>) -> Item),
        key_of: &key_of,
    };
    let plain = exprs.filter.is_none() && steps.is_none() && !fetch;
    let (mut out, read) = match sink {
        Some(sink) if plain => {
            let key_names = source.lek_names();
            let mut handed = Handed {
                sink,
                key_names: &key_names,
            };
            read_page(entries, rules.limit, rules.items, &mut handed)
        }
        sink => {
            let (mut out, read) = read_items(entries, &rules);
            if let Some(sink) = sink {
                sink.owned_items(out.items.take());
            }
            (out, read)
        }
    };
    if wanted {
        let consumed = match source {
            Source::Table(_) => Consumed::table(capacity::read_units(
                read,
                Consistency::of(cost.consistent_read),
            )),
            Source::Index(_, index) => {
                // A GSI read is always eventually consistent; an LSI's follows ConsistentRead.
                let consistency = if index.global {
                    Consistency::Eventual
                } else {
                    Consistency::of(cost.consistent_read)
                };
                // The entries read, summed and rounded once; an LSI read of unprojected attributes
                // also reads the table items it fetched, charged on the table (DG `LSI.html`;
                // DynamoDB Local 3.3 reports the same split).
                let on_table = if fetch {
                    capacity::read_units(fetched.get(), consistency)
                } else {
                    0.0
                };
                let mut consumed = Consumed::table(on_table);
                consumed.add_index(index, capacity::read_units(read, consistency));
                consumed
            }
        };
        out.consumed_capacity = consumed.report(&table.schema.name, cost.mode);
        return (out, Some(consumed));
    }
    (out, None)
}

/// Refuses a read of `source` whose bucket is empty: a GSI's own, or the table's (for the table and
/// its LSIs, which share its capacity).
pub(crate) fn admit_read(meter: Option<Meter<'_>>, source: &Source<'_>) -> Result<()> {
    let Some(meter) = meter else {
        return Ok(());
    };
    match source {
        Source::Index(table, index) if index.global => {
            meter.admit(table, Kind::Read, false, [index.name.as_str()])
        }
        Source::Table(table) | Source::Index(table, _) => meter.admit(table, Kind::Read, true, []),
    }
}

/// Charges the read a page made.
pub(crate) fn debit_read(
    meter: Option<Meter<'_>>,
    source: &Source<'_>,
    page: (QueryOutput, Option<Consumed>),
) -> QueryOutput {
    let (out, consumed) = page;
    if let (Some(meter), Some(consumed)) = (meter, consumed) {
        let (Source::Table(table) | Source::Index(table, _)) = source;
        meter.debit(table, Kind::Read, &consumed);
    }
    out
}

/// The request-level checks of Segment and TotalSegments (after the parameter constraints).
fn segments(input: &ScanInput) -> Result<Option<(u32, u32)>> {
    match (input.segment, input.total_segments) {
        (None, None) => Ok(None),
        (Some(_), None) => Err(Error::validation(
            "The TotalSegments parameter is required but was not present in the request when Segment \
             parameter is present",
        )),
        (None, Some(_)) => Err(Error::validation(
            "The Segment parameter is required but was not present in the request when parameter \
             TotalSegments is present",
        )),
        (Some(s), Some(t)) if s >= t => Err(Error::validation(format!(
            "The Segment parameter is zero-based and must be less than parameter TotalSegments: \
             Segment: {s} is not less than TotalSegments: {t}"
        ))),
        (Some(s), Some(t)) => match (u32::try_from(s), u32::try_from(t)) {
            (Ok(s), Ok(t)) => Ok(Some((s, t))),
            // The constraints already rejected negative values.
            _ => Ok(None),
        },
    }
}

/// dynalite's recording: an unknown index with a start key is reported as a bad start key.
fn unknown_index_with_start(table: &Table, input: &ScanInput) -> Result<()> {
    let unknown_index = input
        .index_name
        .as_deref()
        .is_some_and(|name| table.index(name).is_none());
    if unknown_index && input.exclusive_start_key.is_some() {
        return Err(Error::validation("The provided starting key is invalid"));
    }
    Ok(())
}

/// `Scan` against the tables `table_of` looks up; with a `sink`, its items go there (see [`page`]).
pub(crate) fn scan<'t>(
    input: &ScanInput,
    params: read::ReadParams<'_>,
    now: DateTime<Utc>,
    table_of: impl FnOnce(&str) -> Result<&'t Table>,
    meter: Option<Meter<'_>>,
    sink: Option<&mut dyn ItemSink>,
) -> Result<ScanOutput> {
    validate::table_name(&input.table_name)?;
    let mut c = Constraints::default();
    if let Some(name) = &input.index_name {
        c.name(name, "indexName");
    }
    if let Some(limit) = input.limit {
        c.at_least(i64::from(limit), 1, "limit");
    }
    if let Some(segment) = input.segment {
        c.at_least(i64::from(segment), 0, "segment");
        if segment > MAX_TOTAL_SEGMENTS - 1 {
            c.fail(
                validate::quoted(&segment.to_string()),
                "segment",
                "Member must have value less than or equal to 999999",
            );
        }
    }
    if let Some(total) = input.total_segments {
        c.at_least(i64::from(total), 1, "totalSegments");
        if total > MAX_TOTAL_SEGMENTS {
            c.fail(
                validate::quoted(&total.to_string()),
                "totalSegments",
                "Member must have value less than or equal to 1000000",
            );
        }
    }
    c.finish()?;
    let (names, values) = (
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values.as_ref(),
    );
    read::placeholder_maps(names, values, params.any())?;
    if let Some(esk) = &input.exclusive_start_key {
        validate::attribute_values(esk).map_err(|e| {
            Error::validation(format!(
                "The provided starting key is invalid: {}",
                read::message(&e)
            ))
        })?;
    }
    let segment = segments(input)?;
    // Maps past their caps are refused before the expressions are read, after the table and the
    // index (`expr::substitution`).
    if let Some(over) = substitution::maps_over(names, values) {
        let table = table_of(&input.table_name)?;
        unknown_index_with_start(table, input)?;
        Source::find(table, input.index_name.as_deref(), now)?;
        return Err(over.error());
    }
    let p = read::placeholders(names, values);
    let mut usage = Usage::default();
    let mut oversized = Oversized::default();
    let exprs = read::read_expressions(
        params.filter,
        params.projection,
        p,
        &mut usage,
        &mut oversized,
    )?;
    check_unused(&p, &usage)?;
    let select = read::select(
        input.select,
        exprs.projection.is_some(),
        input.index_name.is_some(),
    )?;

    let table = table_of(&input.table_name)?;
    unknown_index_with_start(table, input)?;
    let source = Source::find(table, input.index_name.as_deref(), now)?;
    // After the table and the index, as in a Query.
    oversized.check()?;
    let consistent = input.consistent_read == Some(true);
    if matches!(source, Source::Index(_, i) if i.global) && consistent {
        return Err(Error::validation(
            "Consistent reads are not supported on global secondary indexes",
        ));
    }
    let start = input
        .exclusive_start_key
        .as_ref()
        .map(|esk| read::start_key(esk, &source, matches!(source, Source::Table(_))))
        .transpose()?;
    read::check_read(&source, select, consistent, &exprs, &p)?;
    admit_read(meter, &source)?;
    let (segment, total) = segment.unwrap_or((0, 1));
    let start_hash = start.as_ref().map(|s| match s {
        StartKey::Table((h, _), _) | StartKey::Index((h, _), _) => *h,
    });
    if let Some(h) = start_hash
        && segment_of(h, total) != segment
    {
        return Err(Error::validation(format!(
            "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use \
                 ExclusiveStartKey with correct Segment. TotalSegments: {total} Segment: {segment}"
        )));
    }
    let from = segment_start(segment, total);
    let to = (segment + 1 < total).then(|| segment_start(segment + 1, total));
    let cost = PageCost {
        mode: input.return_consumed_capacity,
        consistent_read: input.consistent_read,
        metered: meter.is_some(),
    };
    // A table's items and an index's entries are different types: one `page` call per source.
    let out = match (&source, start) {
        (Source::Table(t), start) => {
            let start = match start {
                Some(StartKey::Table(slot, pos)) => Some((slot, pos)),
                _ => None,
            };
            let entries = match t.stale_versions().filter(|_| !consistent) {
                None => Seen::Current(scan_entries(t.partitions(), from, to, start)),
                Some((stale, now)) => {
                    let current = scan_keyed(t.partitions(), from, to, start.clone());
                    let stale = scan_keyed(stale, from, to, start);
                    Seen::Stale(StaleWalk::new(current, stale, true, now))
                }
            };
            page(
                entries,
                &source,
                select,
                &exprs,
                &p,
                input.limit,
                cost,
                sink,
            )
        }
        (Source::Index(_, i), start) => {
            let start = match start {
                Some(StartKey::Index((_, hash), pos)) => Some((hash, pos)),
                _ => None,
            };
            let entries = i.visible_scan(read::seen_at(now, consistent), from, to, start);
            page(
                entries,
                &source,
                select,
                &exprs,
                &p,
                input.limit,
                cost,
                sink,
            )
        }
    };
    Ok(debit_read(meter, &source, out))
}
