//! The existence check of an update: an update changes only an item of its model that exists
//! (`attribute_exists(<hash key>)`, or `<entity attribute> = :entity` for a single-table model),
//! and how a failed condition is recognised as that check's, becoming [`Error::ItemNotFound`] or
//! an [`ExistenceCheck`] of a cancellation reason.
//!
//! An [`upsert`](crate::UpdateItem::upsert) may create the item: a plain model's has no check, a
//! single-table model's still refuses to turn another entity's item into one of its own
//! (`attribute_not_exists(<hash key>) OR <entity attribute> = :entity`).

use crate::db::attribute;
use crate::db::names::{model_name, ItemName};
use crate::db::write::key_exists;
use crate::error::{Error, ExistenceCheck, ItemNotFound};
use crate::expression::Condition;
use crate::model::item_version_attribute;
use crate::model::{item_version_value, Model};
use crate::value::{AttributeValue, Item};

/// The kind of request that makes the check, as errors name it.
const KIND: &str = "Update";

/// The condition an update makes on the stored item: `None` for an upsert of a plain model.
///
/// A model with an [item version](Model::ITEM_VERSION) updates only an item at its version
/// (`<attribute> = :version`; for version 1 also an item without the attribute): an update names
/// some attributes only, so on an older item it would leave the others in the old shape under the
/// new version (read wrongly, never upcast), or the new ones under the old version (upcast from a
/// shape the upcast does not expect). The older item is refused as not this model's, like another
/// entity's; reading it (which upcasts) and writing it whole, or a backfill, brings it up.
pub(crate) fn condition<M: Model>(upsert: bool) -> Option<Condition<M>> {
    let same_entity = M::ENTITY_TYPE
        .map(|entity| attribute::<M>(M::ENTITY_ATTRIBUTE).eq(AttributeValue::S(entity.to_owned())));
    let same_version = M::ITEM_VERSION.map(|version| {
        let at_version =
            attribute::<M>(M::ITEM_VERSION_ATTRIBUTE).eq(item_version_attribute(version));
        match version {
            1 => attribute::<M>(M::ITEM_VERSION_ATTRIBUTE).not_exists() | at_version,
            _ => at_version,
        }
    });
    let same = match (same_entity, same_version) {
        (Some(entity), Some(version)) => Some(entity & version),
        (entity, version) => entity.or(version),
    };
    match (upsert, same) {
        // Version 1 holds on a missing item (no attribute): the key must exist too.
        (false, Some(same)) if M::ENTITY_TYPE.is_none() && M::ITEM_VERSION == Some(1) => {
            Some(key_exists::<M>(true) & same)
        }
        (false, Some(same)) => Some(same),
        (false, None) => Some(key_exists::<M>(true)),
        (true, Some(same)) => Some(key_exists::<M>(false) | same),
        (true, None) => None,
    }
}

/// The error of an [`upsert`](crate::UpdateItem::upsert) that asked for the item after it
/// (`ALL_NEW`) and got none: its actions only removed attributes, so DynamoDB created nothing
/// (an update that only removes creates no item), and no item is stored under the key.
pub(crate) fn created_nothing<M: Model>(table: &str, key: Item) -> Error {
    let name = ItemName {
        model: model_name::<M>(),
        key: &key,
        table,
    };
    Error::ItemNotFound(Box::new(ItemNotFound {
        message: format!(
            "{KIND} {name}: no such item (an upsert that only removes attributes creates none)"
        ),
        kind: KIND,
        model: model_name::<M>(),
        table: table.to_owned(),
        key,
        stored_entity: None,
        stored_item_version: None,
        item: None,
    }))
}

/// A request's existence check, kept beside the request to read its failure.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExistenceGuard {
    /// The entity attribute and type of a single-table model.
    pub(crate) entity: Option<(&'static str, &'static str)>,
    /// The item version attribute and version of a model with one.
    pub(crate) item_version: Option<(&'static str, u32)>,
    /// Whether a missing item is allowed (the check then only refuses another entity's item).
    pub(crate) upsert: bool,
    /// Whether the request had conditions besides this check, which could have failed instead.
    pub(crate) others: bool,
    /// Whether a failure brings the stored item back (`ReturnValuesOnConditionCheckFailure=ALL_OLD`).
    pub(crate) asked_item: bool,
}

impl ExistenceGuard {
    /// The guard of `M`'s check (`None` when [`condition`] makes none).
    pub(crate) fn of<M: Model>(upsert: bool, others: bool, asked_item: bool) -> Option<Self> {
        let entity = M::ENTITY_TYPE.map(|entity| (M::ENTITY_ATTRIBUTE, entity));
        let item_version = M::ITEM_VERSION.map(|version| (M::ITEM_VERSION_ATTRIBUTE, version));
        (!upsert || entity.is_some() || item_version.is_some()).then_some(ExistenceGuard {
            entity,
            item_version,
            upsert,
            others,
            asked_item,
        })
    }

    /// Reads a failed condition of this request: `failed` when the existence check is (as far as
    /// the answer shows) the condition that failed.
    ///
    /// With the stored item, that is exact: an item of another entity type (or of none) fails it; a
    /// missing one fails it unless upserting. Without it (`item_on_failure(false)`), the check is to
    /// blame only when it was the request's one condition.
    pub(crate) fn judge(&self, item: Option<&Item>) -> ExistenceCheck {
        let (failed, stored_entity) = match (item, self.entity) {
            (Some(item), Some((attribute, own))) => match item.get(attribute) {
                Some(AttributeValue::S(stored)) if stored == own => (false, None),
                Some(AttributeValue::S(stored)) => (true, Some(stored.clone())),
                _ => (true, None),
            },
            (Some(_), None) => (false, None),
            (None, _) if self.asked_item => (!self.upsert, None),
            (None, _) => (!self.others, None),
        };
        // An item of this entity at another item version fails the check too.
        let stored_item_version = match (item, self.item_version) {
            (Some(item), Some((attribute, own))) if !failed => {
                let stored = item
                    .get(attribute)
                    .map_or(Some(1), |v| item_version_value(v).ok());
                (stored != Some(own)).then_some(stored.unwrap_or(0))
            }
            _ => None,
        };
        ExistenceCheck {
            failed: failed || stored_item_version.is_some(),
            stored_entity,
            stored_item_version,
        }
    }

    /// The error of a failed single-item update: [`Error::ItemNotFound`] when the existence check
    /// failed, the error unchanged otherwise.
    pub(crate) fn map_error<M: Model>(&self, table: &str, key: &Item, error: Error) -> Error {
        let Error::ConditionalCheckFailed { message, item } = error else {
            return error;
        };
        let check = self.judge(item.as_ref());
        if !check.failed {
            return Error::ConditionalCheckFailed { message, item };
        }
        let name = ItemName {
            model: model_name::<M>(),
            key,
            table,
        };
        Error::ItemNotFound(Box::new(ItemNotFound {
            message: format!("{KIND} {name}: {}", self.found(item.as_ref(), &check)),
            kind: KIND,
            model: model_name::<M>(),
            table: table.to_owned(),
            key: key.clone(),
            stored_entity: check.stored_entity,
            stored_item_version: check.stored_item_version,
            item,
        }))
    }

    /// What a failed check found, for the message.
    fn found(&self, item: Option<&Item>, check: &ExistenceCheck) -> String {
        let attribute = self.entity.map_or("", |(attribute, _)| attribute);
        if let (Some(stored), Some((attribute, own))) =
            (check.stored_item_version, self.item_version)
        {
            let stored = match stored {
                0 => format!("an item whose `{attribute}` is no item version"),
                _ => format!("an item of item version {stored}"),
            };
            return format!(
                "the key holds {stored}, not the model's {own}: an update would mix two versions' \
                 attributes; read it (which upcasts it) and put it whole, or backfill"
            );
        }
        let instead = match (item, &check.stored_entity) {
            (Some(_), Some(entity)) => format!("the key holds an item of entity type {entity:?}"),
            (Some(_), None) => {
                format!("the key holds an item without an entity type (`{attribute}`)")
            }
            (None, _) if self.asked_item => return "no such item".to_owned(),
            (None, _) if self.entity.is_none() => return "no such item".to_owned(),
            // Not returned: a single-table check alone failed, on no item or another entity's
            // (only the latter fails an upsert's).
            (None, _) if self.upsert => "the key holds an item of another entity type (the \
                                         stored item was not returned: item_on_failure(false))"
                .to_owned(),
            (None, _) => "the key holds no item of this entity type (the stored item was not \
                          returned: item_on_failure(false))"
                .to_owned(),
        };
        match self.upsert {
            true => format!("{instead}, which an upsert does not overwrite"),
            false => format!("no such item: {instead}"),
        }
    }
}

impl Error {
    /// Whether an update found no item of its model to update: an [`Error::ItemNotFound`], or a
    /// canceled transaction one of whose updates failed its existence check (see
    /// [`CancellationReason::is_item_not_found`](crate::CancellationReason::is_item_not_found)).
    /// Nothing was written. Not a failed condition of yours
    /// ([`is_conditional_check_failed`](Error::is_conditional_check_failed) is `false`).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Doc { #[hash_key] id: String, text: String, views: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Doc>().await?;
    /// let err = db.update::<Doc>("d1").add(Doc::views(), 1).await.unwrap_err();
    /// assert!(err.is_item_not_found());
    /// assert!(!err.is_conditional_check_failed());
    /// assert_eq!(db.get::<Doc>("d1").await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn is_item_not_found(&self) -> bool {
        match self {
            Error::ItemNotFound(_) => true,
            Error::TransactionCanceled { reasons, .. } => {
                reasons.iter().any(|r| r.is_item_not_found())
            }
            _ => false,
        }
    }
}
