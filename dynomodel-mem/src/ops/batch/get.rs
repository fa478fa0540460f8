//! BatchGetItem: up to 100 items by key from one or more tables, at most 16 MB of them per call.
//!
//! **The 16 MB rule.** The AWS API reference's example — 100 items of 300 KB each return 52 — fixes the
//! limit: 52 × 307,200 bytes = 15,974,400 fits and 53 × 307,200 = 16,281,600 does not, so the limit is
//! 16 MB in decimal bytes (16,000,000; 16 MiB would return 54) and an item is returned only when the
//! items returned so far *and it* stay within it ("so as not to exceed the 16 MB limit"). The engine
//! reads tables in name order and keys in request order; from the first item that does not fit, that
//! key and every key after it (found or not, in this table and the following ones) go to
//! `UnprocessedKeys`, each table's with its own `ConsistentRead`, `ProjectionExpression` and
//! `ExpressionAttributeNames`, so that sending `UnprocessedKeys` back as `RequestItems` continues the
//! read. Items are measured by `dynomodel::item_size`, whole, even when a projection returns only part
//! of them: DynamoDB charges and limits reads by what it reads, not by what it returns (as the 1 MB
//! page of Query and Scan counts items before the projection), and DynamoDB Local 3.3.1 counts whole
//! items too (a projection of the key alone leaves the cut where it was). DynamoDB Local's limit is
//! 16 MiB, inclusive (64 items of 262,144 bytes all come back; 100 of 307,200 bytes return 54): a known
//! difference.
//!
//! **Responses.** Every requested table appears in `Responses`, with an empty list when none of its
//! keys has an item (dynalite's recording "should return empty responses if keys do not exist"; a 2026
//! conformance run against the live service agrees). A key without an item is simply absent; an
//! existing item whose projected attributes are all missing comes back as an empty item, as in
//! GetItem. Every read is strongly consistent in memory, so `ConsistentRead` changes nothing but is
//! kept for `UnprocessedKeys`.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use dynomodel::backend::{BatchGetItemInput, BatchGetItemOutput, KeysAndAttributes};
use dynomodel::{AttributeValue, Error, Item, Number, Result};

use super::{constraints, DUPLICATES};
use crate::expr::eval::Steps;
use crate::expr::request::{self, Maps, Param};
use crate::expr::Given;
use crate::expr::{projection, ExprKind, Expression};
use crate::metering::capacity::{self, Consistency, PerTable};
use crate::metering::throughput::{Kind, Meter, Throttled};
use crate::ops::context::ItemRequest;
use crate::ops::items::projection_keys;
use crate::read;
use crate::storage::key::PrimaryKey;
use crate::storage::stored::StoredItem;
use crate::storage::table::Table;
use crate::validate;

/// The most item bytes one BatchGetItem returns (see the module documentation).
pub(crate) const MAX_RESPONSE_BYTES: usize = 16_000_000;

fn maps(ka: &KeysAndAttributes) -> Maps<'_> {
    Maps {
        names: ka.expression_attribute_names.as_ref(),
        values: None,
    }
}

/// The table's projection: the tree of its `AttributesToGet` (`built`), else its own expression.
fn params<'a>(ka: &'a KeysAndAttributes, built: Option<&'a Arc<Expression>>) -> [Param<'a>; 1] {
    [(
        ExprKind::Projection,
        Given::either(built, ka.projection_expression.as_deref()),
    )]
}

/// A key attribute's value as sent, borrowed, in a form that hashes (numbers by value, as they
/// compare).
#[derive(PartialEq, Eq, Hash)]
pub(crate) enum Scalar<'a> {
    S(&'a str),
    N(Number),
    B(&'a [u8]),
}

/// A key as sent, when every value in it is a scalar: equal keys give equal forms.
pub(crate) fn hashable(key: &Item) -> Option<Vec<(&str, Scalar<'_>)>> {
    key.iter()
        .map(|(name, value)| {
            let scalar = match value {
                AttributeValue::S(s) => Scalar::S(s),
                AttributeValue::N(n) => Scalar::N(*n),
                AttributeValue::B(b) => Scalar::B(b),
                _ => return None,
            };
            Some((name.as_str(), scalar))
        })
        .collect()
}

/// Two equal keys in one table's `Keys`, compared as sent (numbers compare by value, as they are
/// stored canonically). Keys of scalars, the ones that can be valid, go through a hash set; the rare
/// key holding another type (an error once the table is known) is compared with its own kind only,
/// since it can never equal a key of scalars.
fn duplicates(keys: &[Item]) -> Result<()> {
    let mut seen = HashSet::with_capacity(keys.len());
    let mut others: Vec<&Item> = Vec::new();
    for key in keys {
        let repeated = match hashable(key) {
            Some(form) => !seen.insert(form),
            None if others.contains(&key) => true,
            None => {
                others.push(key);
                false
            }
        };
        if repeated {
            return Err(Error::validation(DUPLICATES));
        }
    }
    Ok(())
}

/// One table of the request, validated: where to read, which keys, and how to project.
struct TableRead<'s, 'r> {
    name: &'r str,
    request: &'r KeysAndAttributes,
    table: &'s Table,
    keys: Vec<PrimaryKey>,
    /// The projection's paths, resolved once for all the table's items.
    projection: Option<Vec<Steps>>,
}

impl TableRead<'_, '_> {
    /// What the response holds for `item`.
    fn project(&self, item: &StoredItem) -> Item {
        match &self.projection {
            Some(steps) => projection::project(&item.decode(), steps),
            None => item.decode(),
        }
    }

    /// `UnprocessedKeys` for the keys from `from` on, with the table's read options.
    fn unprocessed(&self, from: usize) -> KeysAndAttributes {
        KeysAndAttributes {
            keys: self.request.keys.iter().skip(from).cloned().collect(),
            consistent_read: self.request.consistent_read,
            projection_expression: self.request.projection_expression.clone(),
            expression_attribute_names: self.request.expression_attribute_names.clone(),
            attributes_to_get: self.request.attributes_to_get.clone(),
        }
    }
}

impl ItemRequest<'_> {
    /// `BatchGetItem`. The tables' `AttributesToGet` become projection trees; their unprocessed keys
    /// carry the request's own members back, as the caller wrote them.
    pub(crate) fn batch_get_item(&self, input: &BatchGetItemInput) -> Result<BatchGetItemOutput> {
        // One entry per table, in the request's order (`None` throughout without AttributesToGet).
        let built = crate::ops::legacy::batch_get_item(input)?;
        let built_for = |i: usize| built.get(i).and_then(Option::as_ref);
        constraints::get_request(input)?;
        let requests = &input.request_items;
        for (i, ka) in requests.values().enumerate() {
            request::params_present(maps(ka), &params(ka, built_for(i)))?;
        }
        for ka in requests.values() {
            ka.keys.iter().try_for_each(validate::attribute_values)?;
        }
        for ka in requests.values() {
            duplicates(&ka.keys)?;
        }
        constraints::get_total(input)?;
        let prepared = requests
            .values()
            .enumerate()
            .map(|(i, ka)| request::prepare(self.cache(), maps(ka), &params(ka, built_for(i))))
            .collect::<Result<Vec<_>>>()?;
        let mut reads = Vec::with_capacity(requests.len());
        for ((name, ka), prepared) in requests.iter().zip(prepared) {
            let table = self.table(name)?;
            // As GetItem: after the table, before the keys' shape.
            prepared.expressions_within_cap()?;
            // A projection may not look inside a key attribute (`pk[0]`, `sk.x`), as in GetItem.
            projection_keys(table, &prepared, maps(ka))?;
            let keys = ka
                .keys
                .iter()
                .map(|key| validate::request_key(key, &table.schema))
                .collect::<Result<Vec<_>>>()?;
            // The maps' caps after the keys' shape, as DynamoDB Local 3.3.1 answers.
            prepared.maps_within_cap()?;
            let projection = prepared.projection().map(|p| {
                request::with_placeholders(maps(ka), |ph| read::projection_steps(&p.tree.paths, ph))
            });
            reads.push(TableRead {
                name,
                request: ka,
                table,
                keys,
                projection,
            });
        }
        read_within_limit(&reads, input.return_consumed_capacity, self.meter())
    }
}

/// Reads the validated keys until the next item would take the response past [`MAX_RESPONSE_BYTES`].
///
/// With throughput enforced, a key whose table has spent its read capacity is returned unprocessed
/// with the rest of that table's keys (its bucket does not refill within one request), and a request
/// none of whose keys could be read fails with `ProvisionedThroughputExceededException` (API
/// `BatchGetItem`: "If none of the items can be processed due to insufficient provisioned throughput
/// on all of the tables in the request, then BatchGetItem returns a
/// ProvisionedThroughputExceededException").
fn read_within_limit(
    reads: &[TableRead<'_, '_>],
    mode: Option<dynomodel::backend::ReturnConsumedCapacity>,
    meter: Option<Meter<'_>>,
) -> Result<BatchGetItemOutput> {
    let wanted = capacity::wanted(mode) || meter.is_some();
    let mut throttled = false;
    let mut processed = 0usize;
    let mut consumed = PerTable::default();
    let mut responses = BTreeMap::new();
    let mut unprocessed_keys = BTreeMap::new();
    let mut returned_bytes = 0usize;
    let mut full = false;
    for read in reads {
        let found: &mut Vec<Item> = responses.entry(read.name.to_owned()).or_default();
        if full {
            unprocessed_keys.insert(read.name.to_owned(), read.unprocessed(0));
            continue;
        }
        let consistency = Consistency::of(read.request.consistent_read);
        for (position, key) in read.keys.iter().enumerate() {
            if let Some(meter) = meter
                && meter.admit(read.table, Kind::Read, true, []).is_err()
            {
                throttled = true;
                unprocessed_keys.insert(read.name.to_owned(), read.unprocessed(position));
                break;
            }
            processed += 1;
            let stored = read
                .table
                .seen(key, read.request.consistent_read == Some(true));
            if wanted {
                // Each item rounded by itself, then summed per table; a missing item still costs
                // the minimum (the developer guide's `ProvisionedThroughput.html`; DynamoDB Local 3.3
                // alike).
                let cost = capacity::item_read(stored.map_or(0, StoredItem::size), consistency);
                if let Some(meter) = meter {
                    meter.debit(read.table, Kind::Read, &cost);
                }
                consumed.add(&read.table.schema.name, &cost);
            }
            let Some(item) = stored else {
                continue;
            };
            let size = item.size();
            if returned_bytes.saturating_add(size) > MAX_RESPONSE_BYTES {
                full = true;
                unprocessed_keys.insert(read.name.to_owned(), read.unprocessed(position));
                break;
            }
            returned_bytes += size;
            found.push(read.project(item));
        }
    }
    if throttled && processed == 0 {
        return Err(Throttled::Table.error());
    }
    Ok(BatchGetItemOutput {
        responses,
        unprocessed_keys,
        consumed_capacity: consumed.report(mode),
    })
}
