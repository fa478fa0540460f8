//! What an [`upsert`](crate::UpdateItem::upsert) must do before it is sent: an update that may
//! create its item must give it every attribute its model needs to read it back
//! ([`Model::required_attributes`]), or the mapper would write an item it cannot decode.

use crate::db::names::{model_name, ItemName};
use crate::error::{Error, Result};
use crate::expression::Update;
use crate::model::Model;
use crate::value::Item;

/// Refuses an upsert of `M` (its final actions: the user's, the version bump, the entity type)
/// that leaves a required attribute unset, naming the model, table, key and those attributes.
pub(crate) fn check<M: Model>(update: &Update<M>, table: &str, key: &Item) -> Result<()> {
    let required = M::required_attributes();
    let name = || ItemName {
        model: model_name::<M>(),
        key,
        table,
    };
    let composites: Vec<&str> = required
        .iter()
        .filter(|r| r.composite)
        .map(|r| r.name)
        .collect();
    if !composites.is_empty() {
        return Err(Error::validation(format!(
            "Upsert {}: `{}` cannot be upserted: reading it needs composite {} (no table key), which \
             no update can set since its parts have no field handles; create the item with a put",
            name(),
            model_name::<M>(),
            list(&composites),
        )));
    }
    let missing: Vec<&str> = required
        .iter()
        .map(|r| r.name)
        .filter(|name| !update.assigns(name))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(Error::validation(format!(
        "Upsert {}: an upsert may create the item, so it must set every attribute `{}` needs to \
         read it back; missing {} (set them with set, set_if_not_exists or add)",
        name(),
        model_name::<M>(),
        list(&missing),
    )))
}

/// `` `a`, `b` `` for a message.
fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
