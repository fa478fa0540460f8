//! [`ChangeRecord`] and [`Change`]: a stream [`Record`] decoded as the model (or a collection's
//! member), images present only where the stream's view type puts them; [`Decoder`] says how.

use chrono::{DateTime, Utc};

use crate::backend::{OperationType, Record};
use crate::db::names::model_name;
use crate::db::ItemDecode;
use crate::error::{ConversionError, Result};
use crate::model::{entity_of, Collection, Model};
use crate::value::Item;

/// One change to one item of `M`'s table, as [`Db::changes`](crate::Db::changes) reads it from the
/// table's stream (or [`Db::collection_changes`](crate::Db::collection_changes), `M` being the
/// collection).
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
/// [`StreamViewType`](crate::backend::StreamViewType) records them:
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

/// How a change stream turns records into `T`s: a model's or a collection's decoding, and which
/// records are not `T`'s at all (skipped, not errors).
pub(super) struct Decoder<T> {
    /// The model or collection, for [`Error::ItemDecode`](crate::Error::ItemDecode).
    name: &'static str,
    decode: fn(Item) -> std::result::Result<T, ConversionError>,
    skip: fn(&Record) -> bool,
}

impl<T> Clone for Decoder<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Decoder<T> {}

impl<M: Model> Decoder<M> {
    /// Decodes every record as model `M`, skipping those of another entity type (see
    /// [`other_entity`]).
    pub(super) fn model() -> Self {
        Decoder {
            name: model_name::<M>(),
            decode: M::from_item,
            skip: other_entity::<M>,
        }
    }
}

impl<C: Collection> Decoder<C> {
    /// Decodes every record as a member of collection `C` (by its entity type); none is skipped:
    /// an unknown entity type goes where [`Collection::from_item`] sends it.
    pub(super) fn collection() -> Self {
        Decoder {
            name: C::NAME,
            decode: C::from_item,
            skip: |_| false,
        }
    }
}

impl<T> Decoder<T> {
    /// Whether the record is of no concern to this stream.
    pub(super) fn skips(&self, record: &Record) -> bool {
        (self.skip)(record)
    }

    /// Decodes a record of `shard_id` in `table`; an image that does not decode is
    /// [`Error::ItemDecode`](crate::Error::ItemDecode) naming the model (or collection), table and key.
    pub(super) fn decode(
        &self,
        record: Record,
        shard_id: &str,
        table: &str,
    ) -> Result<ChangeRecord<T>> {
        let by_time_to_live = record
            .user_identity
            .as_ref()
            .is_some_and(|identity| identity.is_time_to_live());
        let stream = record.dynamodb;
        let keys = stream.keys;
        let image = |item: Option<Item>| -> Result<Option<T>> {
            item.map(|item| {
                (self.decode)(item)
                    .map_err(|e| ItemDecode::error(self.name, table, keys.clone(), e))
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
}

/// Whether a record is another entity type's change, in a table shared by several models: `M`
/// declares an entity type, the record has images, and each names another entity type. A record
/// without images (a `KEYS_ONLY` stream) cannot tell and is kept; an image without an entity
/// type, or one of `M`'s next to one of another type (an item replaced by another entity under
/// the same key), is kept and fails to decode: reported, never silently dropped.
fn other_entity<M: Model>(record: &Record) -> bool {
    let Some(entity) = M::ENTITY_TYPE else {
        return false;
    };
    let images = [&record.dynamodb.new_image, &record.dynamodb.old_image];
    let mut images = images.into_iter().flatten().peekable();
    images.peek().is_some()
        && images
            .all(|image| entity_of(image, M::ENTITY_ATTRIBUTE).is_some_and(|found| found != entity))
}
