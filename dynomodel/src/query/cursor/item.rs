//! [`KeyAttributes`]: the key attributes of a returned item, from which a cursor after it is made.

use crate::db::Partial;
use crate::error::ConversionError;
use crate::model::{Model, PrimaryKey as _};
use crate::value::Item;

/// A type a Query or Scan returns, whose key attributes position a cursor after it
/// ([`Query::cursor_after`](crate::Query::cursor_after), and the `next` cursor of a
/// [`Page`](crate::Page)).
///
/// Implemented by every [`Model`], by the `<Model><Index>Item` structs `#[derive(Model)]` generates
/// for `KEYS_ONLY` and `INCLUDE` indexes, by `#[derive(Collection)]` enums, by [`Partial`] (which has
/// the keys when its projection returned them) and by [`Item`].
///
/// ```
/// use dynomodel::{AttributeValue, KeyAttributes, Model};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[global_index(keys("by-city", hash = city))]
/// struct Tweet { #[hash_key] userid: String, #[range_key] id: String, city: String }
///
/// let tweet = Tweet { userid: "abc".into(), id: "1".into(), city: "Paris".into() };
/// let keys = tweet.key_attributes(&["userid", "id", "city"])?;
/// assert_eq!(keys.len(), 3);
/// let entry = TweetByCityItem { userid: "abc".into(), id: "1".into(), city: "Paris".into() };
/// assert_eq!(entry.key_attributes(&["city"])?["city"], AttributeValue::S("Paris".into()));
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
pub trait KeyAttributes {
    /// The attributes named in `names` that this value holds, as stored (an absent one is left
    /// out: the caller reports it).
    ///
    /// Errors: a value that does not convert (the error names the attribute).
    fn key_attributes(&self, names: &[&str]) -> Result<Item, ConversionError>;
}

/// The table's key from [`Model::key`] when that is all that is asked (a read of the table),
/// else from the whole item (an index read also needs the index's keys).
impl<M: Model> KeyAttributes for M {
    fn key_attributes(&self, names: &[&str]) -> Result<Item, ConversionError> {
        let table_key = |name: &&str| *name == M::HASH_KEY || Some(*name) == M::RANGE_KEY;
        let item = match names.iter().all(table_key) {
            true => self.key().to_key_item()?,
            false => self.to_item()?,
        };
        Ok(pick(item, names))
    }
}

impl<M> KeyAttributes for Partial<M> {
    fn key_attributes(&self, names: &[&str]) -> Result<Item, ConversionError> {
        self.item().key_attributes(names)
    }
}

impl KeyAttributes for Item {
    fn key_attributes(&self, names: &[&str]) -> Result<Item, ConversionError> {
        Ok(names
            .iter()
            .filter_map(|name| self.get(*name).map(|v| ((*name).to_owned(), v.clone())))
            .collect())
    }
}

/// The named attributes of an owned item.
fn pick(mut item: Item, names: &[&str]) -> Item {
    item.retain(|name, _| names.contains(&name.as_str()));
    item
}
