//! Random Query and Scan requests on a table or one of its indexes: key conditions (with BETWEEN and
//! begins_with), filters, projections, Select, ScanIndexForward, Limit and parallel segments. The
//! runner walks every page. Invalid ones carry one defect: in the key condition, the filter, the
//! projection, Select, ConsistentRead on a GSI, Limit, or the segments.

use dynomodel::backend::{ProjectionType, ScalarAttributeType, Select};
use dynomodel::AttributeValue;

use super::expressions::{self, bounds, Builder};
use super::items::{key_value, wrong_type};
use super::{Exprs, IndexSpec, Op, Segments, TableRef, TableSpec};
use crate::rng::Rng;

/// The table or an index: its name and keys.
struct Target<'a> {
    index: Option<&'a IndexSpec>,
    hash: (String, ScalarAttributeType),
    range: Option<(String, ScalarAttributeType)>,
}

/// Keeps only the attributes an index read can see. A KEYS_ONLY or INCLUDE index holds its keys, the
/// table's keys and the included attributes; naming anything else in a filter or projection is an error
/// of its own (and a request carries at most one defect). Those errors are covered by the dual-backend
/// index scenarios instead.
fn visible(pool: Vec<String>, spec: &TableSpec, t: &Target<'_>) -> Vec<String> {
    let Some(index) = t.index else {
        return pool;
    };
    if index.projection == ProjectionType::All {
        return pool;
    }
    // The table's own keys (not `key_names`, which also lists every index's key attributes).
    let keys: Vec<String> = std::iter::once(spec.hash.0.clone())
        .chain(spec.range.as_ref().map(|r| r.0.clone()))
        .collect();
    let seen: Vec<String> = pool
        .into_iter()
        .filter(|name| {
            keys.contains(name)
                || *name == index.hash.0
                || index.range.as_ref().is_some_and(|r| r.0 == *name)
                || index.include.contains(name)
        })
        .collect();
    if seen.is_empty() {
        keys
    } else {
        seen
    }
}

fn target<'a>(rng: &mut Rng, spec: &'a TableSpec) -> Target<'a> {
    if !spec.indexes.is_empty() && rng.chance(60) {
        let index = rng.pick(&spec.indexes);
        Target {
            index: Some(index),
            hash: index.hash.clone(),
            range: index.range.clone(),
        }
    } else {
        Target {
            index: None,
            hash: spec.hash.clone(),
            range: spec.range.clone(),
        }
    }
}

/// Which Selects are valid here, and which are not.
fn selects(target: &Target<'_>, projection: bool) -> (Vec<Option<Select>>, Vec<Select>) {
    let mut valid = vec![None];
    let mut invalid = vec![];
    let all_ok = target
        .index
        .is_none_or(|i| !i.global || i.projection == ProjectionType::All);
    for select in [
        Select::AllAttributes,
        Select::AllProjectedAttributes,
        Select::SpecificAttributes,
        Select::Count,
    ] {
        let ok = match select {
            Select::SpecificAttributes => projection,
            _ if projection => false,
            Select::AllAttributes => all_ok,
            Select::AllProjectedAttributes => target.index.is_some(),
            Select::Count => true,
        };
        if ok {
            valid.push(Some(select));
        } else {
            invalid.push(select);
        }
    }
    (valid, invalid)
}

fn limit(rng: &mut Rng) -> Option<i32> {
    match rng.below(8) {
        0..=2 => None,
        3 => Some(1),
        4 => Some(2),
        5 => Some(3),
        6 => Some(7),
        _ => Some(100),
    }
}

pub(super) fn query(rng: &mut Rng, spec: &TableSpec, table: TableRef, invalid: bool) -> Op {
    let t = target(rng, spec);
    let global = t.index.is_some_and(|i| i.global);
    // Where the one defect goes.
    let defect = if invalid { 1 + rng.below(6) } else { 0 };
    let mut b = Builder::default();
    let mut exprs = Exprs {
        key_condition: Some(key_condition(rng, &mut b, &t, defect == 1)),
        ..Exprs::default()
    };
    // A Query filter may not name key attributes (of the table or the index queried).
    let mut filter_pool = expressions::pool(spec, false);
    filter_pool.extend(
        spec.index_attributes
            .iter()
            .filter(|(n, _)| *n != t.hash.0 && t.range.as_ref().is_none_or(|r| r.0 != *n))
            .map(|a| a.0.clone()),
    );
    // What the index holds, minus the table's keys (a Query filter may not name key attributes).
    let keys = spec.key_names();
    let filter_pool: Vec<String> = visible(filter_pool, spec, &t)
        .into_iter()
        .filter(|n| !keys.contains(n))
        .collect();
    // Nothing left to filter on (a KEYS_ONLY index): no filter, and the defect goes elsewhere.
    let defect = if filter_pool.is_empty() && defect == 2 {
        4
    } else {
        defect
    };
    if !filter_pool.is_empty() && (defect == 2 || rng.chance(40)) {
        let mut text = expressions::condition(rng, &mut b, &filter_pool, 1);
        if defect == 2 {
            if rng.chance(50) {
                text.push_str(&format!(" AND attribute_exists({})", t.hash.0));
            } else {
                expressions::break_condition(rng, &mut b, &mut text);
            }
        }
        exprs.filter = Some(text);
    }
    let with_projection = defect == 3 || rng.chance(30);
    if with_projection {
        let pool = visible(expressions::pool(spec, true), spec, &t);
        let mut text = expressions::projection(rng, &mut b, &pool);
        if defect == 3 {
            expressions::break_projection(rng, &mut b, &mut text);
        }
        exprs.projection = Some(text);
    }
    b.finish(&mut exprs);
    let (valid, bad) = selects(&t, with_projection);
    let select = if defect == 4 && !bad.is_empty() {
        Some(*rng.pick(&bad))
    } else {
        *rng.pick(&valid)
    };
    let consistent = if defect == 5 && global {
        Some(true)
    } else if global {
        *rng.pick(&[None, Some(false)])
    } else {
        *rng.pick(&[None, Some(false), Some(true)])
    };
    let bad_index = defect == 6 && rng.chance(50);
    Op::Query {
        table,
        index: if bad_index {
            Some("no_such_index".into())
        } else {
            t.index.map(|i| i.name.clone())
        },
        exprs,
        select,
        forward: *rng.pick(&[None, Some(true), Some(false)]),
        limit: if defect == 6 && !bad_index {
            Some(0)
        } else {
            limit(rng)
        },
        consistent,
    }
}

/// `hash = :v [AND range-condition]`, in either order; or (defect) a broken one.
fn key_condition(rng: &mut Rng, b: &mut Builder, t: &Target<'_>, broken: bool) -> String {
    let kind = if broken { rng.below(7) } else { 99 };
    let hash_value = if kind == 0 {
        wrong_type(rng, t.hash.1)
    } else {
        key_value(rng, t.hash.1)
    };
    let hash_op = if kind == 1 { "<" } else { "=" };
    let hash_name = b.name(rng, &t.hash.0);
    let hash = format!("{hash_name} {hash_op} {}", b.value(rng, hash_value));
    if kind == 2 {
        // Only a condition on a non-key attribute: the partition key is missing.
        let v = key_value(rng, ScalarAttributeType::S);
        let a = b.name(rng, "a");
        return format!("{a} = {}", b.value(rng, v));
    }
    let Some((range_name, ty)) = t.range.clone().filter(|_| kind <= 6 || rng.chance(60)) else {
        let mut text = hash;
        if (3..99).contains(&kind) {
            expressions::break_generic(rng, b, &mut text);
        }
        return text;
    };
    let r = b.name(rng, &range_name);
    // kind 3: begins_with on a number (or with a number); kind 4: BETWEEN bounds reversed.
    let arm = match kind {
        3 => 0,
        4 => 1,
        _ => rng.below(7),
    };
    let range = match arm {
        0 if ty != ScalarAttributeType::N && kind != 3 => {
            let prefix = match ty {
                ScalarAttributeType::B => AttributeValue::B(vec![rng.below(2) as u8]),
                // Never empty: an empty key value is an error of its own (one defect per request).
                _ => AttributeValue::S((*rng.pick(&["a", "é", "0", "😀"])).into()),
            };
            format!("begins_with({r}, {})", b.value(rng, prefix))
        }
        0 if kind == 3 => {
            let v = key_value(rng, ScalarAttributeType::N);
            format!("begins_with({r}, {})", b.value(rng, v))
        }
        1 => {
            let (lo, hi) = bounds(rng, ty, kind == 4);
            format!("{r} BETWEEN {} AND {}", b.value(rng, lo), b.value(rng, hi))
        }
        _ => {
            let op = *rng.pick(&["=", "<", "<=", ">", ">="]);
            let v = key_value(rng, ty);
            format!("{r} {op} {}", b.value(rng, v))
        }
    };
    let mut text = match (kind, rng.chance(50)) {
        (5, _) => format!("{hash} OR {range}"),
        (_, true) => format!("{hash} AND {range}"),
        (_, false) => format!("{range} AND {hash}"),
    };
    if kind == 6 {
        expressions::break_generic(rng, b, &mut text);
    }
    text
}

pub(super) fn scan(rng: &mut Rng, spec: &TableSpec, table: TableRef, invalid: bool) -> Op {
    let t = target(rng, spec);
    let global = t.index.is_some_and(|i| i.global);
    let defect = if invalid { 1 + rng.below(5) } else { 0 };
    let mut b = Builder::default();
    let mut exprs = Exprs::default();
    let pool = visible(expressions::pool(spec, true), spec, &t);
    if defect == 1 || rng.chance(50) {
        let mut text = expressions::condition(rng, &mut b, &pool, 2);
        if defect == 1 {
            expressions::break_condition(rng, &mut b, &mut text);
        }
        exprs.filter = Some(text);
    }
    let with_projection = defect == 2 || rng.chance(30);
    if with_projection {
        let mut text = expressions::projection(rng, &mut b, &pool);
        if defect == 2 {
            expressions::break_projection(rng, &mut b, &mut text);
        }
        exprs.projection = Some(text);
    }
    b.finish(&mut exprs);
    let (valid, bad) = selects(&t, with_projection);
    let select = if defect == 3 && !bad.is_empty() {
        Some(*rng.pick(&bad))
    } else {
        *rng.pick(&valid)
    };
    let consistent = if defect == 4 && global {
        Some(true)
    } else if global {
        *rng.pick(&[None, Some(false)])
    } else {
        *rng.pick(&[None, Some(false), Some(true)])
    };
    let segments = if defect == 5 {
        match rng.below(4) {
            0 => Segments::Raw {
                segment: Some(4),
                total: Some(4),
            },
            1 => Segments::Raw {
                segment: Some(0),
                total: None,
            },
            2 => Segments::Raw {
                segment: None,
                total: Some(2),
            },
            _ => Segments::Raw {
                segment: Some(0),
                total: Some(0),
            },
        }
    } else if rng.chance(25) {
        Segments::All(1 + rng.below(4) as i32)
    } else {
        Segments::Whole
    };
    Op::Scan {
        table,
        index: t.index.map(|i| i.name.clone()),
        exprs,
        select,
        limit: limit(rng),
        consistent,
        segments,
    }
}
