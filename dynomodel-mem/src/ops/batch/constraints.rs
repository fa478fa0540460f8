//! The request-level checks of both batch operations: the service model's member constraints on
//! `RequestItems` (reported together, in the "N validation error(s) detected" form), then the limits on
//! the whole request.
//!
//! Sources, per message:
//! - Empty `RequestItems`: "The requestItems parameter is required for BatchGetItem" /
//!   "... for BatchWriteItem": live-service captures (2026) in the regions that still use the older
//!   wording this engine follows everywhere (us-east-1 among them; dynalite's early recording agrees).
//!   The regions with the newer wording say "1 validation error detected: Value at 'RequestItems' failed
//!   to satisfy constraint: Member must have length greater than or equal to 1" for BatchGetItem, and
//!   a later dynalite recording shows the constraint form with `Value '{}'`. DynamoDB Local 3.3.1 says
//!   "BatchGetItem must have some requests set" / "BatchWriteItem cannot have a null or no requests set".
//! - More tables than the model allows (BatchGetItem 100, BatchWriteItem 25): the botocore service
//!   model's map lengths, in the service's member-constraint form ("Member must have length less
//!   than or equal to N"; no recording).
//! - Table names: "Map keys must satisfy constraint: [...]", once for the map whatever the number of
//!   bad names: dynalite's recordings of both operations, and a live-service capture for BatchGetItem
//!   (October 2026). The model now types these keys as table ARNs (1 to 1024 characters), but the
//!   service still checks names against 3..255 and the name pattern, as captured.
//! - BatchWriteItem's lists, empty or longer than 25: "Map value must satisfy constraint: [...]", once
//!   for the map: dynalite's recording and the 2026 captures (26 puts in one table gives this message,
//!   not "Too many items requested").
//! - BatchGetItem's `Keys`, per table: an empty list is `Value '[]' at
//!   'requestItems.<table>.member.keys'` (dynalite's recordings); more than 100 keys is `Value at
//!   'RequestItems.<table>.member.Keys'` without the value (the conformance suite's capture of the
//!   service).
//! - More than 100 keys or 25 writes across the tables: "Too many items requested for the
//!   BatchGetItem call" (dynalite's recording: 100 keys in one table and 1 in another) and "... for the
//!   BatchWriteItem call" (the API reference, `API_BatchWriteItem.html`).
//!
//! The rendering of each `Value '…'` is `render.rs`'s.

use std::collections::BTreeMap;

use dynomodel::backend::{BatchGetItemInput, BatchWriteItemInput};
use dynomodel::{Error, Result};

use super::render;
use crate::validate::{self, Constraints};

/// Most keys one BatchGetItem reads, in one table and in all of them.
pub(crate) const MAX_GET_KEYS: usize = 100;
/// Most writes one BatchWriteItem makes, in one table and in all of them.
pub(crate) const MAX_WRITES: usize = 25;
/// Most tables in a BatchGetItem (the service model's `BatchGetRequestMap`).
pub(crate) const MAX_GET_TABLES: usize = 100;
/// Most tables in a BatchWriteItem (the service model's `BatchWriteItemRequestMap`).
const MAX_WRITE_TABLES: usize = 25;

const MAP_KEYS: &str =
    "Map keys must satisfy constraint: [Member must have length less than or equal \
                        to 255, Member must have length greater than or equal to 3, Member must \
                        satisfy regular expression pattern: [a-zA-Z0-9_.-]+]";

const MAP_VALUE_WRITES: &str = "Map value must satisfy constraint: [Member must have length less than \
                                or equal to 25, Member must have length greater than or equal to 1]";

/// The map-level constraints, in the order the service lists them: the map's length, its keys, then
/// (BatchWriteItem) its values.
fn map_level<V>(
    c: &mut Constraints,
    items: &BTreeMap<String, V>,
    max_tables: usize,
    rendered: &dyn Fn(&mut String),
) {
    if items.len() > max_tables {
        c.fail_echoing(
            "requestItems",
            &format!("Member must have length less than or equal to {max_tables}"),
            rendered,
        );
    }
    if items.keys().any(|name| validate::table_name(name).is_err()) {
        c.fail_echoing("requestItems", MAP_KEYS, rendered);
    }
}

/// BatchGetItem's member constraints and its limit of 100 keys.
pub(crate) fn get_request(input: &BatchGetItemInput) -> Result<()> {
    let items = &input.request_items;
    if items.is_empty() {
        return Err(Error::validation(
            "The requestItems parameter is required for BatchGetItem",
        ));
    }
    let mut c = Constraints::default();
    map_level(&mut c, items, MAX_GET_TABLES, &|out| {
        render::get_request_map(out, items);
    });
    for (table, ka) in items {
        let path = || format!("requestItems.{table}.member.keys");
        if ka.keys.is_empty() {
            c.fail_echoing(
                &path(),
                "Member must have length greater than or equal to 1",
                |out| render::key_list(out, &ka.keys),
            );
        }
        if ka.keys.len() > MAX_GET_KEYS {
            // Without the value, at the capitalised path (the conformance suite's capture of
            // the service), where too few keys echo the list at the lower-case one (dynalite's).
            c.fail_unechoed(
                &format!("RequestItems.{table}.member.Keys"),
                &format!("Member must have length less than or equal to {MAX_GET_KEYS}"),
            );
        }
    }
    c.finish()
}

/// The limit on all the keys of a BatchGetItem, checked after the attribute values and duplicates.
pub(crate) fn get_total(input: &BatchGetItemInput) -> Result<()> {
    let total: usize = input.request_items.values().map(|ka| ka.keys.len()).sum();
    if total > MAX_GET_KEYS {
        return Err(Error::validation(
            "Too many items requested for the BatchGetItem call",
        ));
    }
    Ok(())
}

/// BatchWriteItem's member constraints.
pub(crate) fn write_request(input: &BatchWriteItemInput) -> Result<()> {
    let items = &input.request_items;
    if items.is_empty() {
        return Err(Error::validation(
            "The requestItems parameter is required for BatchWriteItem",
        ));
    }
    let mut c = Constraints::default();
    let rendered = |out: &mut String| render::write_request_map(out, items);
    map_level(&mut c, items, MAX_WRITE_TABLES, &rendered);
    if items
        .values()
        .any(|writes| writes.is_empty() || writes.len() > MAX_WRITES)
    {
        c.fail_echoing("requestItems", MAP_VALUE_WRITES, rendered);
    }
    c.finish()
}

/// The limit on all the writes of a BatchWriteItem, checked after the attribute values and sizes.
pub(crate) fn write_total(input: &BatchWriteItemInput) -> Result<()> {
    let total: usize = input.request_items.values().map(Vec::len).sum();
    if total > MAX_WRITES {
        return Err(Error::validation(
            "Too many items requested for the BatchWriteItem call",
        ));
    }
    Ok(())
}
