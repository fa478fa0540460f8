//! `Query`: one partition of a table or index, a sort-key range of it, a page at a time.
//!
//! Cost O(log n + k): the partition is found by key and the sort-key condition becomes `BTreeMap` range
//! bounds (`begins_with` included: its upper bound is the prefix's successor); a Query never walks other
//! partitions. Checks run in real DynamoDB's order as dynalite recorded it (`actions/query.js`):
//! request-level rules, then the index, `ExclusiveStartKey`, the key condition against the key schema,
//! the start key against the condition, the filter, and the index's projection.

use std::ops::Bound;

use chrono::{DateTime, Utc};
use dynomodel::backend::{ItemSink, QueryInput, QueryOutput, ScalarAttributeType};
use dynomodel::{Error, Result};

use crate::expr::ast::Operand;
use crate::expr::eval;
use crate::expr::keycond::{self, KeyOp};
use crate::expr::substitution::{self, Oversized};
use crate::expr::{check_unused, ExprKind, Placeholders, Usage};
use crate::read::paging::{
    bytes_successor, max_lower, min_upper, partition_range, string_successor, Position, Readable,
};
use crate::read::stale::StaleWalk;
use crate::read::{self, seen_at, Source, StartKey};
use crate::storage::consistency::StaleVersion;
use crate::storage::key::{partition_slot, KeyValue};
use crate::storage::partition::Partition;
use crate::storage::stored::StoredItem;
use crate::storage::table::Table;
use crate::validate::{self, Constraints};

/// A sort-key condition with its value(s).
#[derive(Debug, Clone)]
pub(crate) enum SortCondition {
    /// `= v`
    Eq(KeyValue),
    /// `< v`
    Lt(KeyValue),
    /// `<= v`
    Le(KeyValue),
    /// `> v`
    Gt(KeyValue),
    /// `>= v`
    Ge(KeyValue),
    /// `BETWEEN lo AND hi`
    Between(KeyValue, KeyValue),
    /// `begins_with(k, prefix)` (S or B only)
    BeginsWith(KeyValue),
}

impl SortCondition {
    /// Whether sort key `k` satisfies the condition (for the `ExclusiveStartKey` check).
    pub(crate) fn matches(&self, k: &KeyValue) -> bool {
        match self {
            SortCondition::Eq(v) => k == v,
            SortCondition::Lt(v) => k < v,
            SortCondition::Le(v) => k <= v,
            SortCondition::Gt(v) => k > v,
            SortCondition::Ge(v) => k >= v,
            SortCondition::Between(lo, hi) => lo <= k && k <= hi,
            SortCondition::BeginsWith(p) => match (k, p) {
                (KeyValue::S(s), KeyValue::S(p)) => s.starts_with(p.as_str()),
                (KeyValue::B(b), KeyValue::B(p)) => b.starts_with(p),
                _ => false,
            },
        }
    }

    /// The position bounds of the condition.
    pub(crate) fn bounds<P: Position>(&self) -> (Bound<P>, Bound<P>) {
        match self.clone() {
            SortCondition::Eq(v) => (P::lower(v.clone(), true), P::upper(v, true)),
            SortCondition::Lt(v) => (Bound::Unbounded, P::upper(v, false)),
            SortCondition::Le(v) => (Bound::Unbounded, P::upper(v, true)),
            SortCondition::Gt(v) => (P::lower(v, false), Bound::Unbounded),
            SortCondition::Ge(v) => (P::lower(v, true), Bound::Unbounded),
            SortCondition::Between(lo, hi) => (P::lower(lo, true), P::upper(hi, true)),
            SortCondition::BeginsWith(prefix) => {
                let next = match &prefix {
                    KeyValue::S(s) => string_successor(s).map(KeyValue::S),
                    KeyValue::B(b) => bytes_successor(b).map(KeyValue::B),
                    KeyValue::N(_) => None,
                };
                let hi = next.map_or(Bound::Unbounded, |n| P::upper(n, false));
                (P::lower(prefix, true), hi)
            }
        }
    }
}

/// An empty S or B in a key condition: worded for the index when querying one.
fn empty_key_value(kind: &str, name: &str, index: Option<&str>) -> Error {
    match index {
        None => validate::empty_key(kind, name),
        Some(index) => validate::empty_index_key(kind, index, name),
    }
}

fn mismatch() -> Error {
    Error::validation(
        "One or more parameter values were invalid: Condition parameter type does not match schema type",
    )
}

/// A key-condition value as a key of type `ty`.
fn key_value(
    operand: Option<&Operand>,
    ty: ScalarAttributeType,
    p: &Placeholders<'_>,
    begins_with: bool,
) -> Result<KeyValue> {
    let value = operand
        .and_then(|op| eval::value(op, p))
        .ok_or_else(mismatch)?;
    if begins_with && read::scalar_type(value) == Some(ScalarAttributeType::N) {
        return Err(Error::validation(
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; \
             operator or function: begins_with, operand type: N",
        ));
    }
    if begins_with && ty == ScalarAttributeType::N {
        return Err(mismatch());
    }
    KeyValue::from_attribute(value, ty).ok_or_else(mismatch)
}

/// The partition key value and sort condition of a key condition, checked against `schema` (partition
/// key first).
fn resolve_keys(
    terms: &[crate::expr::keycond::KeyTerm],
    schema: &[(String, ScalarAttributeType)],
    p: &Placeholders<'_>,
    index: Option<&str>,
) -> Result<(KeyValue, Option<SortCondition>)> {
    if schema.len() == 1 && terms.len() > 1 {
        return Err(Error::validation("Query key condition not supported"));
    }
    let mut hash = None;
    let mut sort = None;
    for (position, (name, ty)) in schema.iter().enumerate() {
        let term = terms.iter().find(|t| {
            t.attribute.elements.len() == 1
                && eval::top_name(&t.attribute, p) == Some(name.as_str())
        });
        let Some(term) = term else {
            if position == 0 || terms.len() > 1 {
                return Err(Error::validation(format!(
                    "Query condition missed key schema element: {name}"
                )));
            }
            continue;
        };
        let v = |op: &Option<Operand>| key_value(op.as_ref(), *ty, p, false);
        let condition = match &term.op {
            KeyOp::Eq(a) => SortCondition::Eq(v(a)?),
            KeyOp::Lt(a) => SortCondition::Lt(v(a)?),
            KeyOp::Le(a) => SortCondition::Le(v(a)?),
            KeyOp::Gt(a) => SortCondition::Gt(v(a)?),
            KeyOp::Ge(a) => SortCondition::Ge(v(a)?),
            KeyOp::Between(a, b) => SortCondition::Between(v(a)?, v(b)?),
            KeyOp::BeginsWith(a) => SortCondition::BeginsWith(key_value(a.as_ref(), *ty, p, true)?),
        };
        if position == 0 {
            let SortCondition::Eq(value) = condition else {
                return Err(Error::validation("Query key condition not supported"));
            };
            if let Some(kind) = value.empty_kind() {
                return Err(empty_key_value(kind, name, index));
            }
            hash = Some(value);
        } else {
            // DynamoDB Local answers an empty sort-key value with the type mismatch message for `=`,
            // but with the empty-key-value message for `begins_with` (both measured).
            if matches!(condition, SortCondition::Eq(KeyValue::S(ref s)) if s.is_empty()) {
                return Err(mismatch());
            }
            if let SortCondition::BeginsWith(prefix) = &condition
                && let Some(kind) = prefix.empty_kind()
            {
                return Err(empty_key_value(kind, name, index));
            }
            sort = Some(condition);
        }
    }
    let hash = hash.ok_or_else(|| {
        Error::validation(format!(
            "Query condition missed key schema element: {}",
            schema.first().map_or("", |s| s.0.as_str())
        ))
    })?;
    Ok((hash, sort))
}

/// The items of one partition within the sort condition, in the requested direction, after `start`.
fn walk<'a, P: Position, V: Readable + Clone>(
    partition: Option<&'a Partition<P, V>>,
    sort: Option<&SortCondition>,
    start: Option<P>,
    forward: bool,
) -> Box<dyn Iterator<Item = &'a V> + 'a> {
    let Some(partition) = partition else {
        return Box::new(std::iter::empty());
    };
    let (lo, hi) = bounds(sort, start, forward);
    let range = partition_range(partition, lo, hi).map(|(_, v)| v);
    if forward {
        Box::new(range)
    } else {
        Box::new(range.rev())
    }
}

/// [`walk`] of a table's partition as a read without `ConsistentRead` at `now` sees it, in step
/// with the partition's stale versions (`read/stale.rs`).
fn stale_walk<'a>(
    partition: Option<&'a Partition<Option<KeyValue>, StoredItem>>,
    stale: Option<&'a Partition<Option<KeyValue>, StaleVersion>>,
    (sort, start, forward): (Option<&SortCondition>, Option<Option<KeyValue>>, bool),
    now: DateTime<Utc>,
) -> Box<dyn Iterator<Item = &'a StoredItem> + 'a> {
    fn directed<'a, V: Clone>(
        partition: Option<&'a Partition<Option<KeyValue>, V>>,
        (lo, hi): (Bound<Option<KeyValue>>, Bound<Option<KeyValue>>),
        forward: bool,
    ) -> Box<dyn Iterator<Item = (&'a Option<KeyValue>, &'a V)> + 'a> {
        let Some(partition) = partition else {
            return Box::new(std::iter::empty());
        };
        let range = partition_range(partition, lo, hi);
        if forward {
            Box::new(range)
        } else {
            Box::new(range.rev())
        }
    }
    let bounds = bounds(sort, start, forward);
    let current = directed(partition, bounds.clone(), forward);
    let stale = directed(stale, bounds, forward);
    Box::new(StaleWalk::new(current, stale, forward, now))
}

/// The position bounds of the sort condition, narrowed to what follows `start` in the direction of
/// the read.
fn bounds<P: Position>(
    sort: Option<&SortCondition>,
    start: Option<P>,
    forward: bool,
) -> (Bound<P>, Bound<P>) {
    let (mut lo, mut hi) = sort.map_or((Bound::Unbounded, Bound::Unbounded), SortCondition::bounds);
    if let Some(start) = start {
        if forward {
            lo = max_lower(lo, Bound::Excluded(start));
        } else {
            hi = min_upper(hi, Bound::Excluded(start));
        }
    }
    (lo, hi)
}

/// `Query` against the tables `table_of` looks up; with a `sink`, its items go there (see
/// [`page`](crate::read::scan::page)).
pub(crate) fn query<'t>(
    input: &QueryInput,
    params: read::ReadParams<'_>,
    now: DateTime<Utc>,
    table_of: impl FnOnce(&str) -> Result<&'t Table>,
    meter: Option<crate::metering::throughput::Meter<'_>>,
    sink: Option<&mut dyn ItemSink>,
) -> Result<QueryOutput> {
    validate::table_name(&input.table_name)?;
    let mut c = Constraints::default();
    if let Some(name) = &input.index_name {
        c.name(name, "indexName");
    }
    // Query's Limit is the one member whose constraint message names it capitalised, without its
    // value (the conformance suite's capture of the service); Scan's has the usual
    // form.
    if input.limit.is_some_and(|limit| limit < 1) {
        c.fail_unechoed("Limit", "Member must have value greater than or equal to 1");
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
    let read::ReadParams {
        key_condition,
        filter,
        projection,
    } = params;
    let Some(kce) = key_condition else {
        return Err(Error::validation(
            "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.",
        ));
    };
    // Maps past their caps are refused before the expressions are read, after the table and the
    // index (`expr::substitution`).
    if let Some(over) = substitution::maps_over(names, values) {
        let table = table_of(&input.table_name)?;
        Source::find(table, input.index_name.as_deref(), now)?;
        return Err(over.error());
    }
    let p = read::placeholders(names, values);
    let mut usage = Usage::default();
    let mut oversized = Oversized::default();
    let exprs = read::read_expressions(filter, projection, p, &mut usage, &mut oversized)?;
    let key_cond = read::condition(ExprKind::KeyCondition, kce, p, &mut usage, &mut oversized)?;
    check_unused(&p, &usage)?;
    let key_cond = keycond::key_condition(&key_cond)?;
    let select = read::select(
        input.select,
        exprs.projection.is_some(),
        input.index_name.is_some(),
    )?;

    let table = table_of(&input.table_name)?;
    let source = Source::find(table, input.index_name.as_deref(), now)?;
    // After the table and the index, as DynamoDB Local 3.3.1 answers. Local also answers it before
    // a key condition's or a Select's faults, which the engine reports before the table (see
    // `expr::substitution`).
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
        .map(|esk| read::start_key(esk, &source, false))
        .transpose()?;
    let schema = source.key_schema();
    let (hash, sort) = resolve_keys(&key_cond.terms, &schema, &p, input.index_name.as_deref())?;
    let slot = partition_slot(hash);
    if let Some(start) = &start {
        let (start_slot, start_sort) = match start {
            StartKey::Table(s, r) => (s, r.as_ref()),
            StartKey::Index(s, (r, _)) => (s, r.as_ref()),
        };
        if *start_slot != slot {
            return Err(Error::validation(
                "The provided starting key is outside query boundaries based on provided conditions",
            ));
        }
        if let (Some(cond), Some(k)) = (&sort, start_sort)
            && !cond.matches(k)
        {
            return Err(Error::validation(
                "The provided starting key does not match the range key predicate",
            ));
        }
    }
    if let Some(filter) = &exprs.filter {
        let mut paths = Vec::new();
        read::condition_paths(filter, &mut paths);
        // Borrowed names, not copies: a filter can read hundreds of thousands of paths (a long
        // `QueryFilter`).
        for path in paths {
            if let Some(name) = eval::top_name(path, &p)
                && schema.iter().any(|(k, _)| k == name)
            {
                return Err(Error::validation(format!(
                    "Filter Expression can only contain non-primary key attributes: Primary key \
                         attribute: {name}"
                )));
            }
        }
    }
    read::check_read(&source, select, consistent, &exprs, &p)?;
    crate::read::scan::admit_read(meter, &source)?;

    let forward = input.scan_index_forward != Some(false);
    let cost = crate::read::scan::PageCost {
        mode: input.return_consumed_capacity,
        consistent_read: input.consistent_read,
        metered: meter.is_some(),
    };
    let limit = input.limit;
    // A table's items and an index's entries are different types: one `page` call per source.
    let page = match (&source, start) {
        (Source::Table(t), start) => {
            let start = match start {
                Some(StartKey::Table(_, r)) => Some(r),
                _ => None,
            };
            let partition = t.partitions().get(&slot);
            let entries = match t.stale_versions().filter(|_| !consistent) {
                None => walk(partition, sort.as_ref(), start, forward),
                Some((stale, now)) => {
                    let read = (sort.as_ref(), start, forward);
                    stale_walk(partition, stale.get(&slot), read, now)
                }
            };
            crate::read::scan::page(entries, &source, select, &exprs, &p, limit, cost, sink)
        }
        (Source::Index(_, i), start) => {
            let start = match start {
                Some(StartKey::Index(_, pos)) => Some(pos),
                _ => None,
            };
            // An index stores its positions encoded: it maps the bounds itself.
            let (lo, hi) = bounds(sort.as_ref(), start, forward);
            let entries = i.visible_range(seen_at(now, consistent), &slot.1, lo, hi, forward);
            crate::read::scan::page(entries, &source, select, &exprs, &p, limit, cost, sink)
        }
    };
    Ok(crate::read::scan::debit_read(meter, &source, page))
}
