//! `#[created_at]` / `#[updated_at]`: what each write stamps, at the time of the backend's clock
//! ([`Backend::now`](crate::Backend::now)). One place, so that a put, a save, an update, a batch
//! and a transaction action stamp alike. A model without timestamps never reads the clock.
//!
//! - A whole-item write (put, save, a batch's or a transaction's put) stores `updated_at` = now,
//!   and `created_at` = now when the value holds none (it keeps one it holds).
//! - An update with actions sets `updated_at = :now` and `created_at = if_not_exists(created_at,
//!   :now)`, each unless its own actions already name that attribute (an explicit value wins).
//!   `if_not_exists` matters on plain updates too, which change only existing items: an item
//!   stored without a creation time (before the field existed, or by other code) gets one, so
//!   that a `created_at` that is no `Option` reads back. The stamps are added before an upsert's
//!   check of the required attributes, so a timestamp field is never reported missing.

use chrono::{DateTime, Utc};

use crate::backend::AttributeSink;
use crate::db::Db;
use crate::error::{ConversionError, Result};
use crate::expression::Update;
use crate::model::{Model, Timestamp};
use crate::value::Item;

/// What a whole-item write stamped: the time, and whether the value's `created_at` was stamped
/// (it held none) or kept.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stamped {
    pub(crate) now: DateTime<Utc>,
    pub(crate) created: bool,
}

impl Stamped {
    /// Sets `value`'s timestamps to what the write stored (a save, once it succeeded).
    pub(crate) fn apply<M: Model>(self, value: &mut M) -> Result<(), ConversionError> {
        value.set_timestamp(Timestamp::Updated, self.now)?;
        if self.created {
            value.set_timestamp(Timestamp::Created, self.now)?;
        }
        Ok(())
    }
}

/// Whether `M` has a timestamp field.
fn stamps<M: Model>() -> bool {
    M::CREATED_AT.is_some() || M::UPDATED_AT.is_some()
}

/// What a whole-item write of `value` stamps: `updated_at` = now, and `created_at` = now when
/// `value` holds none. `None` for a model without timestamps (the clock is not read).
pub(crate) fn stamp<M: Model>(db: &Db, value: &M) -> Option<Stamped> {
    if !stamps::<M>() {
        return None;
    }
    let now = db.backend().now();
    let created = M::CREATED_AT.is_some() && value.timestamp(Timestamp::Created).is_none();
    Some(Stamped { now, created })
}

impl Stamped {
    /// Writes the stamped attributes of `M` into `sink`.
    pub(crate) fn write<M: Model>(
        self,
        sink: &mut dyn AttributeSink,
    ) -> Result<(), ConversionError> {
        for (which, name, stamp) in [
            (Timestamp::Updated, M::UPDATED_AT, true),
            (Timestamp::Created, M::CREATED_AT, self.created),
        ] {
            if let (Some(name), true) = (name, stamp)
                && let Some(stored) = M::timestamp_value(which, self.now)?
            {
                sink.insert_static(name, stored);
            }
        }
        Ok(())
    }
}

/// Stamps `item`, the whole item of a write of `value` (see [`stamp`]).
pub(crate) fn stamp_item<M: Model>(
    db: &Db,
    value: &M,
    item: &mut Item,
) -> Result<Option<Stamped>, ConversionError> {
    let stamped = stamp(db, value);
    if let Some(stamped) = stamped {
        stamped.write::<M>(item)?;
    }
    Ok(stamped)
}

/// Adds the stamps to an update's actions: `SET updated_at = :now` and `SET created_at =
/// if_not_exists(created_at, :now)` (an upsert may create the item, and a stored one may have
/// none), each unless the update already names that attribute.
pub(crate) fn stamp_update<M: Model>(db: &Db, update: Update<M>) -> Result<Update<M>> {
    if !stamps::<M>() {
        return Ok(update);
    }
    let now = db.backend().now();
    let mut update = update;
    if let Some(name) = M::UPDATED_AT
        && !update.touches(name)
        && let Some(stored) = M::timestamp_value(Timestamp::Updated, now)?
    {
        update = update.set_attribute(name, stored);
    }
    if let Some(name) = M::CREATED_AT
        && !update.touches(name)
        && let Some(stored) = M::timestamp_value(Timestamp::Created, now)?
    {
        update = update.set_attribute_if_not_exists(name, stored);
    }
    Ok(update)
}
