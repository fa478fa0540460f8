//! Naming an item that does not decode: [`ItemDecode`] (the content of [`Error::ItemDecode`]), which
//! every read of the mapper returns for an item that does not fit its type, and [`KeyWatch`], which
//! keeps the table key of the item being decoded so that the error can name it.
//!
//! A decoder consumes the item (its attributes are moved into the fields), so the key must be kept
//! aside before: [`KeyWatch`] copies the one or two key attribute values of each item as they go by
//! ([`Kept`]: into the buffers the item before left, so a page allocates nothing for it after its
//! first item; no map is built, and nothing else is copied); the key `Item` is built only when a
//! decode fails. Where the backend converted the page whole first (AWS:
//! [`ItemSink::converted_item`](crate::backend::ItemSink::converted_item)), the key is copied from
//! the page's buffer before the decoder runs, so the decoder reads the attributes directly; the
//! engine's stored items are looked up again only for an item that fails.

use std::borrow::Cow;
use std::fmt;

use crate::db::names::{model_name, ItemName};
use crate::db::Db;
use crate::error::{ConversionError, Error};
use crate::model::Model;
use crate::value::{AttributeValue, Item};

/// An item that does not decode as the type a read asked for: the content of [`Error::ItemDecode`],
/// and the `Err` of each undecodable item of a [lenient](crate::Query::lenient) read.
///
/// It names the type (a model, an index's entry type or a collection), the table (namespace
/// included) and, for an index read, the index; the item's key (the table's key attributes, as
/// found in the item); and, in [`error`](ItemDecode#structfield.error), the attribute path and what was
/// expected there.
///
/// ```
/// use dynomodel::{AttributeValue, ItemDecode, ConversionError, Error};
///
/// let error = Error::ItemDecode(Box::new(ItemDecode {
///     model: "Tweet",
///     table: "tweets".into(),
///     index: None,
///     key: [("userid".to_owned(), AttributeValue::S("abc".into()))].into(),
///     error: ConversionError::new("a number (i64)", "S").at("likes"),
/// }));
/// assert_eq!(
///     error.to_string(),
///     r#"the item of Tweet {userid: "abc"} in `tweets` does not decode: attribute `likes`: expected a number (i64), found S"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ItemDecode {
    /// The Rust type name the item was decoded as (a model, an index entry type, a collection).
    pub model: &'static str,
    /// The table (namespace included).
    pub table: String,
    /// The index the item was read from, for an index query or scan.
    pub index: Option<String>,
    /// The item's key: the table's key attributes, as found in the item (an attribute missing from
    /// the item is missing here too).
    pub key: Item,
    /// What does not fit the type, and where (the attribute path).
    pub error: ConversionError,
}

impl fmt::Display for ItemDecode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let item = ItemName {
            model: self.model,
            key: &self.key,
            table: &self.table,
        };
        write!(f, "the item of {item}")?;
        if let Some(index) = &self.index {
            write!(f, " (index `{index}`)")?;
        }
        write!(f, " does not decode: {}", self.error)
    }
}

impl std::error::Error for ItemDecode {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl ItemDecode {
    /// The error for an item of `model` in `table` that `error` says does not decode.
    pub(crate) fn error(
        model: &'static str,
        table: &str,
        key: Item,
        error: ConversionError,
    ) -> Error {
        Error::ItemDecode(Box::new(ItemDecode {
            model,
            table: table.to_owned(),
            index: None,
            key,
            error,
        }))
    }
}

/// Decodes an item of `M`'s table given whole (a write's return value, a failed condition's item),
/// naming its key when it does not decode. `table` gives the table with its namespace, as far as
/// known (called only then).
pub(crate) fn decode_item<M: Model>(
    item: Item,
    table: impl FnOnce() -> String,
) -> Result<M, Error> {
    let mut watch = KeyWatch::new(TableKey::of::<M>());
    watch.see_item(&item);
    M::from_item(item).map_err(|e| ItemDecode::error(model_name::<M>(), &table(), watch.take(), e))
}

/// [`decode_item`] of an item `db` read or wrote.
pub(crate) fn decode_returned<M: Model>(db: &Db, item: Item) -> Result<M, Error> {
    decode_item(item, || db.table_name::<M>())
}

/// Decodes one item handed over attribute by attribute (see [`ItemSink`](crate::backend::ItemSink)).
pub(crate) type FromAttributes<T> =
    fn(&mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) -> Result<T, ConversionError>;

/// The key attribute names of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TableKey {
    pub(crate) hash: &'static str,
    pub(crate) range: Option<&'static str>,
}

impl TableKey {
    /// `M`'s table key.
    pub(crate) fn of<M: Model>() -> TableKey {
        TableKey {
            hash: M::HASH_KEY,
            range: M::RANGE_KEY,
        }
    }

    /// The key attributes of `item` (those it has).
    pub(crate) fn key_of(&self, item: &Item) -> Item {
        self.names()
            .filter_map(|name| item.get(name).map(|v| (name.to_owned(), v.clone())))
            .collect()
    }

    /// The key attribute names, hash first.
    pub(crate) fn names(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.hash).chain(self.range)
    }

    /// The key attributes of an item that `find` looks up by name (those it has).
    pub(crate) fn key_from(&self, find: &dyn Fn(&str) -> Option<AttributeValue>) -> Item {
        self.names()
            .filter_map(|name| find(name).map(|v| (name.to_owned(), v)))
            .collect()
    }
}

/// One key attribute's value as the current item has it, kept aside for the error of an item that
/// does not decode. The value is copied into the buffer the item before left when both are strings
/// or both binaries (a key attribute has one type in every item of a table, so after a page's first
/// item a key costs a copy of its bytes and no allocation); otherwise cloned.
#[derive(Debug, Default)]
pub(crate) struct Kept {
    /// The last value kept, whose buffer the next one reuses; the current item's only if `seen`.
    value: Option<AttributeValue>,
    seen: bool,
}

impl Kept {
    /// Keeps `value` as the current item's.
    #[inline]
    pub(crate) fn keep(&mut self, value: &AttributeValue) {
        self.seen = true;
        match (&mut self.value, value) {
            (Some(AttributeValue::S(kept)), AttributeValue::S(s)) => {
                kept.clear();
                kept.push_str(s);
            }
            (Some(AttributeValue::B(kept)), AttributeValue::B(b)) => {
                kept.clear();
                kept.extend_from_slice(b);
            }
            // A number is `Copy`: no out-of-line clone, nor drop of the value it replaces.
            (Some(AttributeValue::N(kept)), AttributeValue::N(n)) => *kept = *n,
            (kept, value) => *kept = Some(value.clone()),
        }
    }

    /// Keeps `value`, or notes that the current item has none.
    pub(crate) fn keep_found(&mut self, value: Option<&AttributeValue>) {
        match value {
            Some(value) => self.keep(value),
            None => self.forget(),
        }
    }

    /// Forgets the current item's value (before the next item); the buffer stays.
    #[inline]
    pub(crate) fn forget(&mut self) {
        self.seen = false;
    }

    /// The current item's value, if it had one; forgets it.
    pub(crate) fn take(&mut self) -> Option<AttributeValue> {
        match std::mem::take(&mut self.seen) {
            true => self.value.take(),
            false => None,
        }
    }
}

/// The table key of the item being decoded, kept aside as its attributes go by (see the module
/// docs); reused from item to item.
pub(crate) struct KeyWatch {
    names: TableKey,
    hash: Kept,
    range: Kept,
}

impl KeyWatch {
    pub(crate) fn new(names: TableKey) -> KeyWatch {
        KeyWatch {
            names,
            hash: Kept::default(),
            range: Kept::default(),
        }
    }

    /// Notes one attribute of the item: kept if it is a key attribute.
    #[inline]
    pub(crate) fn see(&mut self, name: &str, value: &AttributeValue) {
        if name == self.names.hash {
            self.hash.keep(value);
        } else if Some(name) == self.names.range {
            self.range.keep(value);
        }
    }

    /// Notes the key attributes of a whole item.
    pub(crate) fn see_item(&mut self, item: &Item) {
        self.hash.keep_found(item.get(self.names.hash));
        self.range
            .keep_found(self.names.range.and_then(|r| item.get(r)));
    }

    /// Notes the key attributes of an item given as a slice of its attributes (a page a backend
    /// converted whole), before it is decoded: a look-up of each key name, no layer over the
    /// attributes the decoder then reads.
    pub(crate) fn see_attributes(&mut self, attributes: &[(String, AttributeValue)]) {
        self.hash.keep_found(find(attributes, self.names.hash));
        self.range
            .keep_found(self.names.range.and_then(|r| find(attributes, r)));
    }

    /// The key attribute names watched.
    pub(crate) fn key(&self) -> TableKey {
        self.names
    }

    /// Forgets the item seen (before the next one).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.hash.forget();
        self.range.forget();
    }

    /// The key seen, as an `Item` (what the error names); forgets it.
    pub(crate) fn take(&mut self) -> Item {
        let hash = self.hash.take().map(|v| (self.names.hash.to_owned(), v));
        let range = self
            .range
            .take()
            .zip(self.names.range)
            .map(|(v, name)| (name.to_owned(), v));
        hash.into_iter().chain(range).collect()
    }

    /// Decodes an item given attribute by attribute with `decode`, noting its key as it goes by.
    pub(crate) fn decode<T>(
        &mut self,
        attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>,
        decode: FromAttributes<T>,
    ) -> Result<T, ConversionError> {
        self.clear();
        let mut watched = attributes.inspect(|(name, value)| self.see(name, value));
        decode(&mut watched)
    }
}

/// The value of attribute `name` among `attributes` (an item as a slice of its attributes).
#[inline]
pub(crate) fn find<'a>(
    attributes: &'a [(String, AttributeValue)],
    name: &str,
) -> Option<&'a AttributeValue> {
    attributes.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// Where a read's items come from, for the [`ItemDecode`] of one that does not decode (borrowed
/// from the request: nothing is copied unless an item fails).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Source<'a> {
    pub(crate) model: &'static str,
    pub(crate) table: &'a str,
    pub(crate) index: Option<&'a str>,
}

impl Source<'_> {
    /// The error of the item with `key` of this source.
    pub(crate) fn error(&self, key: Item, error: ConversionError) -> Box<ItemDecode> {
        Box::new(ItemDecode {
            model: self.model,
            table: self.table.to_owned(),
            index: self.index.map(str::to_owned),
            key,
            error,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    #[test]
    fn a_watch_keeps_only_the_key_attributes() {
        let mut watch = KeyWatch::new(TableKey {
            hash: "pk",
            range: Some("sk"),
        });
        let item = [("pk", "a"), ("x", "1"), ("sk", "b"), ("y", "2")];
        let mut attributes = item.iter().map(|(n, v)| (Cow::Borrowed(*n), s(v)));
        let count = watch
            .decode(&mut attributes, |a| Ok::<_, ConversionError>(a.count()))
            .unwrap();
        assert_eq!(count, 4);
        let key = watch.take();
        assert_eq!(
            key,
            Item::from([("pk".into(), s("a")), ("sk".into(), s("b"))])
        );
        assert!(watch.take().is_empty(), "taken once");
    }

    #[test]
    fn a_key_attribute_missing_from_the_item_is_missing_from_the_key() {
        let mut watch = KeyWatch::new(TableKey {
            hash: "pk",
            range: Some("sk"),
        });
        watch.see_item(&Item::from([("pk".into(), s("a"))]));
        assert_eq!(watch.take(), Item::from([("pk".into(), s("a"))]));
    }

    /// The buffers a watch reuses from item to item never leak one item's key into the next's.
    #[test]
    fn a_reused_watch_names_each_item_by_its_own_key() {
        let mut watch = KeyWatch::new(TableKey {
            hash: "pk",
            range: Some("sk"),
        });
        fn decode(watch: &mut KeyWatch, item: &[(&str, AttributeValue)]) {
            let mut attributes = item.iter().map(|(n, v)| (Cow::Borrowed(*n), v.clone()));
            watch
                .decode(&mut attributes, |a| Ok::<_, ConversionError>(a.count()))
                .unwrap();
        }
        let n = |v: &str| AttributeValue::N(v.parse().unwrap());
        decode(&mut watch, &[("pk", s("a long first key")), ("sk", n("1"))]);
        decode(&mut watch, &[("pk", s("b")), ("sk", n("2"))]);
        assert_eq!(
            watch.take(),
            Item::from([("pk".into(), s("b")), ("sk".into(), n("2"))])
        );
        // A second item without the range key (or with another type of hash key) names only what
        // it has, as it has it.
        decode(&mut watch, &[("pk", s("c")), ("sk", n("3"))]);
        decode(&mut watch, &[("pk", AttributeValue::B(vec![1, 2]))]);
        assert_eq!(
            watch.take(),
            Item::from([("pk".into(), AttributeValue::B(vec![1, 2]))])
        );
        decode(&mut watch, &[("x", s("no key at all"))]);
        assert!(watch.take().is_empty());
        decode(&mut watch, &[("pk", s("d")), ("sk", n("4"))]);
        watch.see_item(&Item::from([("sk".into(), n("5"))]));
        assert_eq!(watch.take(), Item::from([("sk".into(), n("5"))]));
        // A number kept over a number, then a string over that number.
        decode(&mut watch, &[("pk", s("e")), ("sk", n("6"))]);
        decode(&mut watch, &[("pk", s("f")), ("sk", n("-7.5"))]);
        assert_eq!(
            watch.take(),
            Item::from([("pk".into(), s("f")), ("sk".into(), n("-7.5"))])
        );
        decode(&mut watch, &[("pk", s("g")), ("sk", n("8"))]);
        decode(&mut watch, &[("pk", s("h")), ("sk", s("9"))]);
        assert_eq!(
            watch.take(),
            Item::from([("pk".into(), s("h")), ("sk".into(), s("9"))])
        );
    }

    #[test]
    fn an_index_decode_error_names_the_index() {
        let source = Source {
            model: "Entry",
            table: "t",
            index: Some("by-x"),
        };
        let error = source.error(
            Item::from([("pk".into(), s("a"))]),
            ConversionError::missing("a string").at("x"),
        );
        assert_eq!(
            error.to_string(),
            "the item of Entry {pk: \"a\"} in `t` (index `by-x`) does not decode: attribute `x`: expected a string, found nothing (the attribute is missing)"
        );
    }
}
