//! Item versions (`#[dynomodel(item_version = N)]`): the version of the item schema a model writes
//! into every item it stores, how a stored item's version is read, and the helpers the generated
//! code calls to write it and to upcast an older item on read.
//!
//! An item without the attribute counts as version 1: it was written before the model declared
//! versions (or by other code), and version 1 is where every model's items start.

use crate::error::ConversionError;
use crate::model::Model;
use crate::value::{AttributeValue, Item, Number};

/// The attribute holding the item version when `item_version_attribute = "..."` does not name
/// another.
///
/// Short (it is stored on every item) and underscored so it does not collide with a field's name.
pub const DEFAULT_ITEM_VERSION_ATTRIBUTE: &str = "_v";

/// The item version `item` was written with, as model `M` stores it in
/// [`M::ITEM_VERSION_ATTRIBUTE`](Model::ITEM_VERSION_ATTRIBUTE): `None` when `M` declares no
/// `item_version`; `Some(1)` for an item without the attribute (written before the model declared
/// versions).
///
/// What [`Versioned`](crate::Versioned) reads tell for typed reads; for raw items (a backfill's
/// scan, a change record's image) call it directly.
///
/// Errors: the attribute is not a whole number from 1 to `u32::MAX`.
///
/// ```
/// use dynomodel::{stored_item_version, AttributeValue, Item, Model};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(item_version = 2)]
/// struct User { #[hash_key] id: String, name: String }
///
/// let item = User { id: "u1".into(), name: "Ada".into() }.to_item()?;
/// assert_eq!(item["_v"], AttributeValue::N(2_u32.into()));
/// assert_eq!(stored_item_version::<User>(&item)?, Some(2));
/// // Written before the model had versions: version 1.
/// let old: Item = [("id".to_owned(), AttributeValue::S("u0".into()))].into();
/// assert_eq!(stored_item_version::<User>(&old)?, Some(1));
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
pub fn stored_item_version<M: Model>(item: &Item) -> Result<Option<u32>, ConversionError> {
    match M::ITEM_VERSION {
        None => Ok(None),
        Some(_) => item_version_in(item, M::ITEM_VERSION_ATTRIBUTE).map(Some),
    }
}

/// The item version stored in `item`'s `attribute` (1 when it is missing).
#[doc(hidden)]
pub fn item_version_in(item: &Item, attribute: &str) -> Result<u32, ConversionError> {
    item_version_of(item.get(attribute), attribute)
}

/// The item version of an item whose version attribute holds `value` (1 when it has none).
#[doc(hidden)]
pub fn item_version_of(
    value: Option<&AttributeValue>,
    attribute: &str,
) -> Result<u32, ConversionError> {
    match value {
        None => Ok(1),
        Some(value) => item_version_value(value).map_err(|e| e.at(attribute)),
    }
}

/// The item version an attribute value holds: a whole number from 1 to `u32::MAX`.
pub(crate) fn item_version_value(value: &AttributeValue) -> Result<u32, ConversionError> {
    let expected = || "an item version (a whole number from 1)";
    let AttributeValue::N(number) = value else {
        return Err(ConversionError::new(expected(), value.type_name()));
    };
    match number.to_u128().map(u32::try_from) {
        Some(Ok(version)) if version >= 1 => Ok(version),
        _ => Err(ConversionError::new(expected(), number.to_string())),
    }
}

/// How item version `version` is stored: an N.
pub(crate) fn item_version_attribute(version: u32) -> AttributeValue {
    AttributeValue::N(Number::from(version))
}

/// Writes the item version into an item (generated `write_attributes` code).
#[doc(hidden)]
pub fn write_item_version(
    item: &mut dyn crate::backend::AttributeSink,
    attribute: &'static str,
    version: u32,
) {
    item.insert_static(attribute, item_version_attribute(version));
}

/// The error of an item whose version the model cannot read: newer than the model's (written by
/// newer code), or older than its oldest upcast (no path to the model). Reads of the mapper
/// report it as [`Error::ItemDecode`](crate::Error::ItemDecode), naming the table and the key.
#[doc(hidden)]
pub fn unreadable_item_version(
    attribute: &str,
    found: u32,
    lowest: u32,
    version: u32,
) -> ConversionError {
    let expected = match lowest == version {
        true => format!("item version {version} (the model's; it declares no upcast)"),
        false => {
            format!("an item version from {lowest} to {version} (the model's, and its upcasts')")
        }
    };
    let found = match found > version {
        true => format!("item version {found}, newer than the model"),
        false => format!("item version {found}, which no upcast reads"),
    };
    ConversionError::new(expected, found).at(attribute)
}

/// An upcast step's error, saying which step failed (its location is the step's own).
#[doc(hidden)]
pub fn upcast_failed(error: ConversionError, from: u32, to: u32) -> ConversionError {
    ConversionError {
        expected: format!("{} (upcasting item version {from} to {to})", error.expected),
        ..error
    }
}
