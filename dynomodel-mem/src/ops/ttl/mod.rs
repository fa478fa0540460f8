//! Time to Live: UpdateTimeToLive, DescribeTimeToLive and the sweep that deletes expired items.
//!
//! Behaviour follows real DynamoDB as measured on the service (ack-api-quirks' DynamoDB lab,
//! `table-subresources.md`, DDB-TABLE-143/146/147, 2026-10) and dynalite's recorded tests:
//! - UpdateTimeToLive answers with the specification as requested; the settled status is visible at
//!   once (the lab never saw `ENABLING`/`DISABLING` at 1 s polling), so the engine's default
//!   transition time of zero makes it `ENABLED` at once; a configured transition time shows
//!   `ENABLING`/`DISABLING` for that long.
//! - Enabling while enabled, disabling while disabled and naming another attribute while enabled are
//!   ValidationExceptions, checked *before* the one-change-per-window rule.
//! - A second successful change inside the window is "Time to live has been modified multiple times
//!   within a fixed interval". The API reference gives the window as one hour ("Any additional
//!   UpdateTimeToLive calls for the same table during this one hour duration result in a
//!   ValidationException"); the lab measured about 31 minutes on one table. The engine keeps the
//!   documented hour: code that waits for it works on the service too.
//! - While a table is being created, UpdateTimeToLive is a ResourceInUseException and
//!   DescribeTimeToLive a ValidationException naming the state; while it is being deleted,
//!   UpdateTimeToLive still succeeds and DescribeTimeToLive is refused the same way (the lab's
//!   DDB-TABLE-115 and its DELETING-table capture, 2026-10).
//! - Expired items stay readable until a sweep deletes them ([`State::sweep_expired`]), through
//!   `Table::delete`, so every index follows.
//!
//! A table's TTL setting and its index of expiry times are the table's data
//! ([`crate::storage::ttl`]); this module holds the operations and the sweep.

use chrono::{DateTime, TimeDelta, Utc};
use dynomodel::backend::{
    DescribeTimeToLiveInput, DescribeTimeToLiveOutput, TimeToLiveDescription,
    UpdateTimeToLiveInput, UpdateTimeToLiveOutput,
};
use dynomodel::{Error, Result};

use crate::storage::lifecycle::View;
use crate::storage::state::{table_not_found, State};
use crate::storage::table::Table;
use crate::validate::{self, Constraints};

/// How long after a successful UpdateTimeToLive another change is refused (API reference: one hour).
pub(crate) const CHANGE_WINDOW: TimeDelta = TimeDelta::hours(1);

/// Real DynamoDB's text for a change inside [`CHANGE_WINDOW`]; DynamoDB Local 3.3 has no window.
const MODIFIED_TOO_OFTEN: &str =
    "Time to live has been modified multiple times within a fixed interval";

impl State {
    /// `UpdateTimeToLive`.
    pub(crate) fn update_time_to_live(
        &mut self,
        input: &UpdateTimeToLiveInput,
    ) -> Result<UpdateTimeToLiveOutput> {
        let spec = &input.time_to_live_specification;
        let name = self.ttl_table_name(&input.table_name)?;
        // The model's constraint (`TimeToLiveAttributeName`: length 1–255). dynalite recorded an older
        // "TimeToLiveSpecification.AttributeName must be non empty"; the lab's 2026 capture of a 256-
        // character name got the smithy form ("Member must have length less than or equal to 255").
        // DynamoDB Local 3.3 says "Names of key attributes and attributes projected into an index must be
        // between 1 and 255 characters, inclusive".
        let mut c = Constraints::default();
        let length = spec.attribute_name.chars().count();
        if length < 1 {
            c.fail(
                validate::quoted(&spec.attribute_name),
                "timeToLiveSpecification.attributeName",
                "Member must have length greater than or equal to 1",
            );
        }
        if length > 255 {
            c.fail(
                validate::quoted(&spec.attribute_name),
                "timeToLiveSpecification.attributeName",
                "Member must have length less than or equal to 255",
            );
        }
        c.finish()?;
        let now = self.clock().now();
        let settles_at = now
            .checked_add_signed(
                TimeDelta::from_std(self.config().transition).unwrap_or(TimeDelta::MAX),
            )
            .unwrap_or(DateTime::<Utc>::MAX_UTC);
        let table = self
            .existing_table_mut(&name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        if table.lifecycle.creating_table(&View::at(now)) {
            // The lab's capture (DDB-TABLE-115): the service first answers "not found" for a few
            // seconds, then this until the table is ACTIVE; the engine answers this throughout.
            return Err(Error::ResourceInUse {
                message: format!(
                    "Attempt to change a resource which is still in use: Table {name} is being created"
                ),
            });
        }
        check_change(table, spec.enabled, &spec.attribute_name, now)?;
        if spec.enabled {
            table.enable_ttl(&spec.attribute_name, now, settles_at);
        } else {
            table.disable_ttl(now, settles_at);
        }
        Ok(UpdateTimeToLiveOutput {
            time_to_live_specification: spec.clone(),
        })
    }

    /// `DescribeTimeToLive`: `DISABLED` without an attribute for a table that never had TTL (or whose
    /// TTL is off again); the status and attribute otherwise.
    pub(crate) fn describe_time_to_live(
        &self,
        input: &DescribeTimeToLiveInput,
    ) -> Result<DescribeTimeToLiveOutput> {
        let name = self.ttl_table_name(&input.table_name)?;
        let table = self
            .existing_table(&name)
            .ok_or_else(|| table_not_found(&input.table_name))?;
        let now = self.clock().now();
        let state = if table.lifecycle.creating_table(&View::at(now)) {
            Some("CREATING")
        } else if table.lifecycle.deleting_table() {
            Some("DELETING")
        } else {
            None
        };
        if let Some(state) = state {
            // The lab's captures (DDB-TABLE-115 and the DELETING-table one, 2026-10).
            return Err(Error::validation(format!(
                "Cannot describe time to live while table is in {state} state: Current table state \
                 is {state}"
            )));
        }
        let ttl = table.ttl();
        Ok(DescribeTimeToLiveOutput {
            time_to_live_description: TimeToLiveDescription {
                time_to_live_status: ttl.status(now),
                attribute_name: ttl.attribute_at(now).map(str::to_owned),
            },
        })
    }

    /// Deletes every expired item (by the engine's clock) of every table whose TTL is `ENABLED`, through
    /// `Table::delete` so that every index and the table's totals follow; returns how many it deleted.
    pub(crate) fn sweep_expired(&mut self) -> usize {
        let now = self.clock().now();
        let mut deleted = 0;
        for table in self.tables_mut() {
            for key in table.ttl().expired(now) {
                // As the service: the stream records a REMOVE with the service's identity.
                if table.delete_as_service(&key).is_some() {
                    deleted += 1;
                }
            }
        }
        deleted
    }

    /// The table a TTL request names: a name (checked as every operation checks it) or this engine's
    /// table ARN (the `TableName` member accepts both since the model's `TableArn` shape).
    fn ttl_table_name(&self, name_or_arn: &str) -> Result<String> {
        if name_or_arn.starts_with("arn:") {
            return self
                .config()
                .table_name_of(name_or_arn)
                .map(str::to_owned)
                .ok_or_else(|| table_not_found(name_or_arn));
        }
        validate::table_name(name_or_arn)?;
        Ok(name_or_arn.to_owned())
    }
}

/// The content checks of UpdateTimeToLive, then the window (the lab found content errors returned
/// inside the window too). Texts: dynalite's recordings and the lab's captures; DynamoDB Local 3.3 omits
/// ": current AttributeName is …".
fn check_change(table: &Table, enable: bool, attribute: &str, now: DateTime<Utc>) -> Result<()> {
    let ttl = table.ttl();
    if let Some(current) = ttl.enabled_attribute() {
        if current != attribute {
            return Err(Error::validation(format!(
                "TimeToLive is active on a different AttributeName: current AttributeName is {current}"
            )));
        }
        if enable {
            return Err(Error::validation("TimeToLive is already enabled"));
        }
    } else if !enable {
        return Err(Error::validation("TimeToLive is already disabled"));
    }
    let window_ends = ttl.changed_at().map(|changed| {
        changed
            .checked_add_signed(CHANGE_WINDOW)
            .unwrap_or(DateTime::<Utc>::MAX_UTC)
    });
    if window_ends.is_some_and(|end| now < end) {
        return Err(Error::validation(MODIFIED_TOO_OFTEN));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
