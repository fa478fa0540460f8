//! "Return part of this batch unprocessed": the last entries are taken out of the request before
//! the backend sees it, and added to the answer's unprocessed part afterwards. The backend writes
//! (or reads) exactly the rest, so the batch is never half-applied in any other way.

use std::collections::BTreeMap;

use crate::backend::{BatchGetItemInput, BatchWriteItemInput, KeysAndAttributes, WriteRequest};

use super::rule::Portion;

/// How many of `total` entries `portion` holds back.
fn count(portion: Portion, total: usize) -> usize {
    match portion {
        Portion::Half => total / 2,
        Portion::Count(n) => n.min(total),
    }
}

/// Takes the last entries of `portion` out of `input`, in table-name order then request order;
/// tables left with no request are removed (the engine refuses an empty list).
pub(super) fn hold_back_writes(
    input: &mut BatchWriteItemInput,
    portion: Portion,
) -> BTreeMap<String, Vec<WriteRequest>> {
    let total: usize = input.request_items.values().map(Vec::len).sum();
    let mut keep = total - count(portion, total);
    let mut held = BTreeMap::new();
    for (table, requests) in &mut input.request_items {
        let here = keep.min(requests.len());
        keep -= here;
        let tail = requests.split_off(here);
        if !tail.is_empty() {
            held.insert(table.clone(), tail);
        }
    }
    input
        .request_items
        .retain(|_, requests| !requests.is_empty());
    held
}

/// [`hold_back_writes`] for a BatchGetItem's keys; the held keys keep their table's settings.
pub(super) fn hold_back_keys(
    input: &mut BatchGetItemInput,
    portion: Portion,
) -> BTreeMap<String, KeysAndAttributes> {
    let total: usize = input.request_items.values().map(|k| k.keys.len()).sum();
    let mut keep = total - count(portion, total);
    let mut held = BTreeMap::new();
    for (table, keys) in &mut input.request_items {
        let here = keep.min(keys.keys.len());
        keep -= here;
        let tail = keys.keys.split_off(here);
        if !tail.is_empty() {
            held.insert(
                table.clone(),
                KeysAndAttributes {
                    keys: tail,
                    consistent_read: keys.consistent_read,
                    projection_expression: keys.projection_expression.clone(),
                    expression_attribute_names: keys.expression_attribute_names.clone(),
                    attributes_to_get: keys.attributes_to_get.clone(),
                },
            );
        }
    }
    input.request_items.retain(|_, k| !k.keys.is_empty());
    held
}
