//! The item a put stores, in either of the forms it arrives in: an [`Item`] (a PutItem request) or
//! an item a writer wrote straight into the stored form ([`WrittenItem`]: the engine's
//! `put_item_from`, the mapper's puts). One put operation (`items.rs`) runs on both, with the same
//! checks, the same errors and the same write path; only how each form answers them differs.

use std::borrow::Cow;

use dynomodel::{Item, Result};

use crate::storage::key::PrimaryKey;
use crate::storage::stored::{AttributeLookup, StoredItem, WrittenItem};
use crate::storage::table::Table;
use crate::validate;

/// The item of a put.
pub(crate) trait NewItem: AttributeLookup {
    /// Its attribute checks (names, sets, nesting) and, when they pass, its size by DynamoDB's rule.
    fn checked_size(&self) -> Result<usize>;

    /// The item as an [`Item`]: itself, or decoded from its stored form (for what reads a whole
    /// item: the capacity of its index writes; the rest looks up what it needs).
    fn item(&self) -> Cow<'_, Item>;

    /// Stores it under `key` in `table` (its size measured by [`NewItem::checked_size`]), returning
    /// the item it replaced; fails, storing nothing, for an item whose checks failed.
    fn store(self, table: &mut Table, key: PrimaryKey, size: usize) -> Result<Option<StoredItem>>;
}

impl NewItem for Item {
    fn checked_size(&self) -> Result<usize> {
        validate::sized_attribute_values(self)
    }

    fn item(&self) -> Cow<'_, Item> {
        Cow::Borrowed(self)
    }

    fn store(self, table: &mut Table, key: PrimaryKey, size: usize) -> Result<Option<StoredItem>> {
        Ok(table.put_measured(key, self, size))
    }
}

impl NewItem for WrittenItem {
    fn checked_size(&self) -> Result<usize> {
        self.checked()
    }

    fn item(&self) -> Cow<'_, Item> {
        Cow::Owned(self.stored().map(StoredItem::decode).unwrap_or_default())
    }

    fn store(self, table: &mut Table, key: PrimaryKey, size: usize) -> Result<Option<StoredItem>> {
        let stored = self.into_stored()?;
        Ok(table.put_encoded(key, stored, size, None))
    }
}

impl AttributeLookup for WrittenItem {
    fn attribute(&self, name: &str) -> Option<Cow<'_, dynomodel::AttributeValue>> {
        self.stored()?.attribute(name)
    }

    fn item_size(&self) -> usize {
        self.stored().map_or(0, StoredItem::size)
    }

    fn kept_size(&self, keep: &dyn Fn(&str) -> bool) -> usize {
        self.stored().map_or(0, |stored| stored.kept_size(keep))
    }
}
