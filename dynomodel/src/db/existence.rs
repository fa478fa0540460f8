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
use crate::model::Model;
use crate::value::{AttributeValue, Item};

/// The kind of request that makes the check, as errors name it.
const KIND: &str = "Update";

/// The condition an update makes on the stored item: `None` for an upsert of a plain model.
pub(crate) fn condition<M: Model>(upsert: bool) -> Option<Condition<M>> {
    let same_entity = M::ENTITY_TYPE
        .map(|entity| attribute::<M>(M::ENTITY_ATTRIBUTE).eq(AttributeValue::S(entity.to_owned())));
    match (upsert, same_entity) {
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
        item: None,
    }))
}

/// A request's existence check, kept beside the request to read its failure.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ExistenceGuard {
    /// The entity attribute and type of a single-table model.
    pub(crate) entity: Option<(&'static str, &'static str)>,
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
        (!upsert || entity.is_some()).then_some(ExistenceGuard {
            entity,
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
        ExistenceCheck {
            failed,
            stored_entity,
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
            item,
        }))
    }

    /// What a failed check found, for the message.
    fn found(&self, item: Option<&Item>, check: &ExistenceCheck) -> String {
        let attribute = self.entity.map_or("", |(attribute, _)| attribute);
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
