//! [`ChangeRecord`] and [`Change`]: a stream [`Record`] decoded as the model, images present only
//! where the stream's view type puts them.

use chrono::{DateTime, Utc};

use crate::backend::{OperationType, Record};
use crate::db::names::model_name;
use crate::db::ItemDecode;
use crate::error::Result;
use crate::model::Model;
use crate::value::Item;

/// One change to one item of `M`'s table, as [`Db::changes`](crate::Db::changes) reads it from the
/// table's stream.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeRecord<M> {
    /// What happened to the item.
    pub change: Change<M>,
    /// The record's sequence number: give it to [`Changes::after`](crate::Changes::after) to resume
    /// after this record.
    pub sequence_number: String,
    /// The shard the record was read from.
    pub shard_id: String,
    /// When the change was made (DynamoDB's `ApproximateCreationDateTime`, in whole seconds); `None`
    /// only if the backend left it out (DynamoDB always sends it).
    pub at: Option<DateTime<Utc>>,
    /// Whether Time to Live deleted the item (a `Remove` whose `userIdentity` is the TTL service),
    /// rather than the application.
    pub by_time_to_live: bool,
}

/// What happened to an item: its key (always, as DynamoDB's key attributes) and the images of the
/// item before and after, decoded as `M`, as far as the stream's
/// [`StreamViewType`](crate::StreamViewType) records them:
///
/// | view type | `Insert.new` | `Modify.old` | `Modify.new` | `Remove.old` |
/// |---|---|---|---|---|
/// | `KEYS_ONLY` | `None` | `None` | `None` | `None` |
/// | `NEW_IMAGE` | `Some` | `None` | `Some` | `None` |
/// | `OLD_IMAGE` | `None` | `Some` | `None` | `Some` |
/// | `NEW_AND_OLD_IMAGES` | `Some` | `Some` | `Some` | `Some` |
///
/// The key is the raw key map rather than `M::Key` because a generated key type converts only
/// to an item, not from one.
#[derive(Debug, Clone, PartialEq)]
pub enum Change<M> {
    /// A new item was written.
    Insert {
        /// The item's key attributes.
        key: Item,
        /// The item written (`NEW_IMAGE`, `NEW_AND_OLD_IMAGES`).
        new: Option<M>,
    },
    /// An existing item was changed (a write that changed nothing makes no record).
    Modify {
        /// The item's key attributes.
        key: Item,
        /// The item before (`OLD_IMAGE`, `NEW_AND_OLD_IMAGES`).
        old: Option<M>,
        /// The item after (`NEW_IMAGE`, `NEW_AND_OLD_IMAGES`).
        new: Option<M>,
    },
    /// An item was deleted (by the application or by Time to Live).
    Remove {
        /// The item's key attributes.
        key: Item,
        /// The item deleted (`OLD_IMAGE`, `NEW_AND_OLD_IMAGES`).
        old: Option<M>,
    },
}

impl<M> Change<M> {
    /// The changed item's key attributes.
    pub fn key(&self) -> &Item {
        match self {
            Change::Insert { key, .. }
            | Change::Modify { key, .. }
            | Change::Remove { key, .. } => key,
        }
    }

    /// The item after the change, when the view type records it (never for a `Remove`).
    pub fn new_image(&self) -> Option<&M> {
        match self {
            Change::Insert { new, .. } | Change::Modify { new, .. } => new.as_ref(),
            Change::Remove { .. } => None,
        }
    }

    /// The item before the change, when the view type records it (never for an `Insert`).
    pub fn old_image(&self) -> Option<&M> {
        match self {
            Change::Modify { old, .. } | Change::Remove { old, .. } => old.as_ref(),
            Change::Insert { .. } => None,
        }
    }

    /// DynamoDB's name for the change: `INSERT`, `MODIFY` or `REMOVE`.
    pub fn operation(&self) -> OperationType {
        match self {
            Change::Insert { .. } => OperationType::Insert,
            Change::Modify { .. } => OperationType::Modify,
            Change::Remove { .. } => OperationType::Remove,
        }
    }
}

/// Decodes a record of `shard_id` as a change of `M` in `table`; an image that does not decode is
/// [`Error::ItemDecode`](crate::Error::ItemDecode) naming the model, table and key.
pub(super) fn decode<M: Model>(
    record: Record,
    shard_id: &str,
    table: &str,
) -> Result<ChangeRecord<M>> {
    let by_time_to_live = record
        .user_identity
        .as_ref()
        .is_some_and(|identity| identity.is_time_to_live());
    let stream = record.dynamodb;
    let keys = stream.keys;
    let image = |item: Option<Item>| -> Result<Option<M>> {
        item.map(|item| {
            M::from_item(item)
                .map_err(|e| ItemDecode::error(model_name::<M>(), table, keys.clone(), e))
        })
        .transpose()
    };
    let change = match record.event_name {
        OperationType::Insert => Change::Insert {
            new: image(stream.new_image)?,
            key: keys.clone(),
        },
        OperationType::Modify => Change::Modify {
            old: image(stream.old_image)?,
            new: image(stream.new_image)?,
            key: keys.clone(),
        },
        OperationType::Remove => Change::Remove {
            old: image(stream.old_image)?,
            key: keys.clone(),
        },
    };
    Ok(ChangeRecord {
        change,
        sequence_number: stream.sequence_number,
        shard_id: shard_id.to_owned(),
        at: stream.approximate_creation_date_time,
        by_time_to_live,
    })
}
