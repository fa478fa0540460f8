//! Whole-item writes of a model with counters, over a stored version: an `UpdateItem` rather than a
//! `PutItem`, so that the counters keep what is stored.
//!
//! A counter's increments do not bump the version (they never conflict), so a copy read before
//! some of them still holds the current version. Were a put or a save of that copy to replace the
//! item, its version check would pass and the counter would go back to its stale value: lost
//! increments. Such a write therefore sets every other attribute instead, removes the model's
//! attributes the value stores nothing in, and leaves the counters alone. Only a write that
//! checks a stored version takes this form: a first save (no item may exist) stores the value's
//! counters with a `PutItem`, and an `ignore_version()` write stores the value as it is.

use crate::expression::Update;
use crate::model::Model;
use crate::value::Item;

/// Whether a whole-item write of `M` that checks `expected` is sent as an update: the model has
/// counters and the write replaces a stored version.
pub(crate) fn as_update<M: Model>(expected: Option<Option<u64>>) -> bool {
    !M::COUNTERS.is_empty() && matches!(expected, Some(Some(_)))
}

/// The actions storing `item` (a value's whole item, version and stamps included) over the stored
/// item: `SET` each attribute but the keys and the counters, `REMOVE` each other attribute of the
/// model that `item` lacks. With `keep_created`, a stamped `created_at` is written as
/// `if_not_exists(created_at, :now)`, so the stored one stays.
pub(crate) fn update_of<M: Model>(mut item: Item, keep_created: bool) -> Update<M> {
    let kept = |name: &str| {
        name == M::HASH_KEY || Some(name) == M::RANGE_KEY || M::COUNTERS.contains(&name)
    };
    let mut update = Update::new();
    for name in M::ATTRIBUTES {
        if !kept(name) && !item.contains_key(*name) {
            update = update.remove_attribute(name);
        }
    }
    if let Some(created) = M::CREATED_AT.filter(|_| keep_created)
        && let Some(now) = item.remove(created)
    {
        update = update.set_attribute_if_not_exists(created, now);
    }
    for (name, value) in item {
        if !kept(&name) {
            update = update.set_attribute(&name, value);
        }
    }
    update
}
