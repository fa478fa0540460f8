//! TransactGetItems: up to 100 reads by key, from one or more tables, as one snapshot.
//!
//! Each Get is a GetItem (`ops::items::check_get` and `read_item_sized`): the same placeholder, projection
//! and key checks. The order of checks and which failures are reasons are in the [module
//! docs](super); for a Get:
//! - request errors: the member constraints, a table name, the placeholder maps, the key's values, the
//!   projection; then a missing table, an empty key value, a projection into a key attribute
//!   (DynamoDB Local 3.3.1), a second Get of one item ("Transaction request cannot include multiple
//!   operations on one item");
//! - cancellation reasons (`ValidationError`): a key that does not match the schema ("The provided key
//!   element does not match the schema"; the conformance suite's capture of an empty `Key`), or a key
//!   value over the size limits.
//!
//! `Responses` has one entry per Get, in request order: `None` for a key with no item, an empty item
//! for an item that holds none of the projected attributes (DynamoDB Local 3.3.1 answers `{"Item": {}}`).
//!
//! # The 4 MB limit
//! The items read may total at most 4 MiB. DynamoDB Local 3.3.1 is the only evidence of the wording and
//! the figure: "Payload in response is too large." directly followed by the sum, over the items
//! returned, of each item's size plus 4 (the length of "Item").

use dynomodel::backend::{TransactGetItemsInput, TransactGetItemsOutput};
use dynomodel::{item_size, CancellationCode, CancellationReason, Error, Result};

use super::{check_members, check_table_name, lookup, render, Targets, MAX_PAYLOAD};
use crate::expr::request::Maps;
use crate::expr::Given;
use crate::metering::capacity::{self, Consistency, PerTable};
use crate::metering::throughput::{Kind, Throttled};
use crate::ops::context::ItemRequest;
use crate::ops::items::{check_get, projection_keys, read_item_sized};
use crate::validate;

impl ItemRequest<'_> {
    /// `TransactGetItems`, under one acquisition of the read lock.
    pub(crate) fn transact_get_items(
        &self,
        input: &TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        let gets = &input.transact_items;
        check_members(
            gets.len(),
            None,
            gets.iter().map(|g| ("get", g.table_name.as_str())),
            |out| render::get_items(out, gets),
        )?;
        let mut prepared = Vec::with_capacity(gets.len());
        for get in gets {
            check_table_name(&get.table_name)?;
            let maps = maps_of(get);
            prepared.push(check_get(
                self.cache(),
                &get.key,
                maps,
                get.projection_expression.as_deref().map(Given::Text),
            )?);
        }
        // As a transaction's writes: every Get's cap before any table is looked up.
        for prepared in &prepared {
            prepared.expressions_within_cap()?;
        }
        let mut targets = Targets::default();
        let mut tables = Vec::with_capacity(gets.len());
        for (get, prepared) in gets.iter().zip(&prepared) {
            let table = lookup(self, &get.table_name)?;
            // The maps' caps after the Get's table, as DynamoDB Local 3.3.1 answers.
            prepared.maps_within_cap()?;
            validate::empty_key_values(&get.key, &table.schema)?;
            projection_keys(table, prepared, maps_of(get))?;
            targets.claim(table, &get.key)?;
            tables.push(table);
        }
        let mut responses = Vec::with_capacity(gets.len());
        let mut reasons = Vec::with_capacity(gets.len());
        let mut cancel = false;
        let mode = input.return_consumed_capacity;
        let mut consumed = PerTable::default();
        // With throughput enforced, a Get whose table has spent its read capacity cancels the
        // transaction with the reason `ProvisionedThroughputExceeded` at its position; the reads are
        // charged only when the transaction succeeds.
        let meter = self.meter();
        let mut costs = Vec::new();
        for ((get, prepared), table) in gets.iter().zip(&prepared).zip(tables) {
            if let Some(meter) = meter
                && meter.admit(table, Kind::Read, true, []).is_err()
            {
                cancel = true;
                reasons.push(Throttled::Table.reason());
                continue;
            }
            match read_item_sized(table, &get.key, prepared, maps_of(get)) {
                Ok((item, stored)) => {
                    if capacity::wanted(mode) || meter.is_some() {
                        // Each item by itself, twice a strongly consistent read.
                        let cost = capacity::item_read(stored, Consistency::Transactional);
                        consumed.add(&table.schema.name, &cost);
                        if meter.is_some() {
                            costs.push((table, cost));
                        }
                    }
                    responses.push(item);
                    reasons.push(CancellationReason::none());
                }
                Err(Error::Validation { message }) => {
                    cancel = true;
                    reasons.push(CancellationReason::new(
                        CancellationCode::ValidationError,
                        message,
                    ));
                }
                Err(other) => return Err(other),
            }
        }
        if cancel {
            return Err(Error::transaction_canceled(reasons));
        }
        if let Some(meter) = meter {
            for (table, cost) in &costs {
                meter.debit(table, Kind::Read, cost);
            }
        }
        let size: usize = responses
            .iter()
            .flatten()
            .map(|item| item_size(item) + "Item".len())
            .sum();
        if size > MAX_PAYLOAD {
            return Err(Error::validation(format!(
                "Payload in response is too large.{size}"
            )));
        }
        Ok(TransactGetItemsOutput {
            responses,
            consumed_capacity: consumed.report(mode),
        })
    }
}

fn maps_of(get: &dynomodel::backend::TransactGet) -> Maps<'_> {
    Maps {
        names: get.expression_attribute_names.as_ref(),
        values: None,
    }
}
