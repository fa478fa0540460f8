//! [`ItemSink`]: where a typed read hands each item it returns, attribute by attribute, so that a
//! backend holding its items in another form than an [`Item`] (the in-memory engine keeps one compact
//! byte string per item) lets the mapper build its struct without an intermediate map.
//!
//! [`AttributeSink`], the write side: where a model writes its attributes
//! ([`Model::write_attributes`](crate::Model::write_attributes)), so that they go straight into the
//! representation that sends or stores them (the AWS SDK's item map) without an intermediate `Item`;
//! and [`AttributeWriter`], a whole item handed to a write
//! ([`Backend::put_item_from`](crate::Backend::put_item_from)) as what writes its attributes.

use std::borrow::Cow;

use crate::error::ConversionError;
use crate::value::{AttributeValue, Item};

pub use super::sink_ref::{AttributeRef, StrSet};

/// Receives the items of a typed read ([`Backend::get_item_into`](crate::Backend::get_item_into),
/// [`query_into`](crate::Backend::query_into), [`scan_into`](crate::Backend::scan_into)),
/// each as an iterator over its attributes: every name once, in any order, borrowed from the
/// backend's storage where it can be and owned otherwise; the values owned.
///
/// ```
/// use std::borrow::Cow;
/// use dynomodel::{AttributeValue, Item};
/// use dynomodel::backend::ItemSink;
///
/// /// Counts the attributes of the items it is given.
/// #[derive(Default)]
/// struct Count(usize);
/// impl ItemSink for Count {
///     fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
///         self.0 += attributes.count();
///     }
/// }
///
/// let mut count = Count::default();
/// count.owned_item(Item::from([("id".to_owned(), AttributeValue::S("u1".into()))]));
/// assert_eq!(count.0, 1);
/// ```
pub trait ItemSink: Send {
    /// One item returned by the read.
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>);

    /// One item returned by the read from a store that can look its attributes up again (the
    /// in-memory engine's stored items): as [`item`](ItemSink::item), with `find` giving any
    /// attribute of the item by name, whatever the iteration has consumed. A sink that must name an
    /// item it fails to decode reads its key through `find` then, instead of keeping a copy of every
    /// item's key on the way. The default ignores `find`.
    fn stored_item(
        &mut self,
        attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>,
        find: &dyn Fn(&str) -> Option<AttributeValue>,
    ) {
        let _ = find;
        self.item(attributes);
    }

    /// One item of a page that the backend converted whole before handing any of it over (the AWS
    /// backend: a response converts, or fails, whole), as the next attributes of the page's
    /// buffer: the sink may look at them all first ([`ConvertedItem::as_slice`]) and then move
    /// them out, iterating (what it leaves unread is dropped when the `ConvertedItem` is). A sink
    /// that must name an item it fails to decode reads the item's key there before decoding it,
    /// instead of watching every attribute go by. The default hands the attributes to
    /// [`item`](ItemSink::item).
    ///
    /// ```
    /// use dynomodel::AttributeValue;
    /// use dynomodel::backend::{ConvertedItem, ItemSink};
    /// # use std::borrow::Cow;
    ///
    /// /// Keeps the `id` of each item, read before the item is handed on.
    /// #[derive(Default)]
    /// struct Ids(Vec<AttributeValue>);
    /// impl ItemSink for Ids {
    ///     fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
    ///         attributes.for_each(drop);
    ///     }
    ///     fn converted_item(&mut self, mut attributes: ConvertedItem<'_>) {
    ///         if let Some((_, id)) = attributes.as_slice().iter().find(|(name, _)| name == "id") {
    ///             self.0.push(id.clone());
    ///         }
    ///         self.item(&mut attributes);
    ///     }
    /// }
    ///
    /// let mut ids = Ids::default();
    /// let mut page = vec![("id".to_owned(), AttributeValue::S("u1".into()))].into_iter();
    /// ids.converted_item(ConvertedItem::new(&mut page, 1));
    /// assert_eq!(ids.0, [AttributeValue::S("u1".into())]);
    /// ```
    fn converted_item(&mut self, mut attributes: ConvertedItem<'_>) {
        self.item(&mut attributes);
    }

    /// A hint before the items of a page: `additional` items follow (a sink collecting them makes
    /// room once). The default ignores it.
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }

    /// One item returned as an [`Item`] (what the default implementations of the typed reads pass on).
    fn owned_item(&mut self, item: Item) {
        self.item(
            &mut item
                .into_iter()
                .map(|(name, value)| (Cow::Owned(name), value)),
        );
    }

    /// The items of a page returned as `Item`s (`None`: a page without items, `Select=COUNT`), each
    /// passed to [`owned_item`](ItemSink::owned_item) in order.
    fn owned_items(&mut self, items: Option<Vec<Item>>) {
        let items = items.unwrap_or_default();
        self.reserve(items.len());
        items.into_iter().for_each(|item| self.owned_item(item));
    }
}

/// One item of a page converted whole (see [`ItemSink::converted_item`]): the next attributes of
/// the page's buffer, to look at ([`as_slice`](ConvertedItem::as_slice)) and to move out
/// (iterating: each name and value moved, nothing left behind in the buffer to drop). Dropping it
/// drops the attributes left unread, so the next item starts where this one ends.
///
/// ```
/// use dynomodel::AttributeValue;
/// use dynomodel::backend::ConvertedItem;
///
/// let mut page = vec![
///     ("id".to_owned(), AttributeValue::S("u1".into())),
///     ("age".to_owned(), AttributeValue::Bool(true)),
///     ("id".to_owned(), AttributeValue::S("u2".into())),
/// ]
/// .into_iter();
/// let mut first = ConvertedItem::new(&mut page, 2);
/// assert_eq!(first.as_slice().len(), 2);
/// assert_eq!(first.next().map(|(name, _)| name), Some("id".into()));
/// drop(first); // `age`, unread, is dropped
/// let second: Vec<_> = ConvertedItem::new(&mut page, 5).collect();
/// assert_eq!(second, [("id".into(), AttributeValue::S("u2".into()))]);
/// ```
pub struct ConvertedItem<'a> {
    page: &'a mut std::vec::IntoIter<(String, AttributeValue)>,
    // Invariant: at most `page.len()`.
    left: usize,
}

impl<'a> ConvertedItem<'a> {
    /// The next `len` attributes of `page` (all that is left of it, if fewer).
    #[inline]
    pub fn new(page: &'a mut std::vec::IntoIter<(String, AttributeValue)>, len: usize) -> Self {
        let left = len.min(page.len());
        ConvertedItem { page, left }
    }

    /// The attributes not yet moved out.
    #[inline]
    pub fn as_slice(&self) -> &[(String, AttributeValue)] {
        self.page.as_slice().get(..self.left).unwrap_or_default()
    }
}

impl Iterator for ConvertedItem<'_> {
    type Item = (Cow<'static, str>, AttributeValue);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let (name, value) = self.page.next()?;
        Some((Cow::Owned(name), value))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ConvertedItem<'_> {}

impl Drop for ConvertedItem<'_> {
    fn drop(&mut self) {
        // What the sink left unread, so that the next item is its own attributes only.
        if let Some(last) = self.left.checked_sub(1) {
            self.page.nth(last);
        }
    }
}

/// Receives the attributes of one item as a model writes them
/// ([`Model::write_attributes`](crate::Model::write_attributes)): each stored attribute, in field
/// order; a name written twice replaces the first value, as in a map. An [`Item`] is one (what
/// [`Model::to_item`](crate::Model::to_item) fills).
///
/// ```
/// use dynomodel::backend::{AttributeRef, AttributeSink};
/// use dynomodel::{AttributeValue, Model};
///
/// #[derive(Model, Debug, Clone)]
/// struct User { #[hash_key] id: String, age: u8 }
///
/// /// Writes the attributes' names only.
/// #[derive(Default)]
/// struct Names(Vec<String>);
/// impl AttributeSink for Names {
///     fn insert(&mut self, name: String, _value: AttributeValue) {
///         self.0.push(name);
///     }
/// }
///
/// let mut names = Names::default();
/// User { id: "u1".into(), age: 36 }.write_attributes(&mut names)?;
/// assert_eq!(names.0, ["id", "age"]);
///
/// /// Counts the bytes of the strings written, reading them where the model holds them.
/// #[derive(Default)]
/// struct StringBytes(usize);
/// impl AttributeSink for StringBytes {
///     fn insert(&mut self, _name: String, _value: AttributeValue) {}
///     fn insert_ref(&mut self, _name: &'static str, value: AttributeRef<'_>) {
///         self.0 += value.size();
///     }
/// }
///
/// let mut bytes = StringBytes::default();
/// User { id: "u1".into(), age: 36 }.write_attributes(&mut bytes)?;
/// assert_eq!(bytes.0, 2);
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
///
/// A derived model names its attributes with `&'static str`s
/// ([`insert_static`](AttributeSink::insert_static)) and hands its strings and string sets over
/// borrowed ([`insert_ref`](AttributeSink::insert_ref)), so that a sink that only reads them
/// (measures or encodes them) copies nothing; the defaults of both make the owned value and call
/// [`insert`](AttributeSink::insert), so a sink that keeps its values implements that one only.
pub trait AttributeSink {
    /// One attribute of the item (named `insert` as a map's, which an [`Item`] is).
    fn insert(&mut self, name: String, value: AttributeValue);

    /// One attribute of the item, named by a name known when the program was built (a model's
    /// field). The default owns the name and calls [`insert`](AttributeSink::insert).
    fn insert_static(&mut self, name: &'static str, value: AttributeValue) {
        self.insert(name.to_owned(), value);
    }

    /// One attribute of the item, its value borrowed from the model that writes it. The default
    /// copies it ([`AttributeRef::to_value`]) and calls
    /// [`insert_static`](AttributeSink::insert_static).
    fn insert_ref(&mut self, name: &'static str, value: AttributeRef<'_>) {
        self.insert_static(name, value.to_value());
    }
}

impl AttributeSink for Item {
    fn insert(&mut self, name: String, value: AttributeValue) {
        // The map's own `insert` (an inherent method wins over the trait's).
        Item::insert(self, name, value);
    }
}

/// A whole item to write, given as what writes its attributes into an [`AttributeSink`] rather than
/// as an [`Item`]: what [`Backend::put_item_from`](crate::Backend::put_item_from) takes, so that a
/// backend writes the item straight into the form that sends or stores it (the mapper's puts hand
/// over the model value, with the version and timestamps the write stores).
///
/// `write` may be called more than once (each call writes the same attributes) and fails with the
/// model's [`ConversionError`] (which names the attribute) for a value that would not read back.
///
/// ```
/// use dynomodel::backend::{AttributeSink, AttributeWriter};
/// use dynomodel::{AttributeValue, ConversionError, Item};
///
/// /// An item of one string attribute.
/// struct Greeting(&'static str);
/// impl AttributeWriter for Greeting {
///     fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
///         sink.insert("id".to_owned(), AttributeValue::S(self.0.to_owned()));
///         Ok(())
///     }
/// }
///
/// let item: Item = Greeting("hello").to_item()?;
/// assert_eq!(item["id"], AttributeValue::S("hello".into()));
/// # Ok::<(), ConversionError>(())
/// ```
pub trait AttributeWriter: Sync {
    /// Writes the item's attributes into `sink` (see [`AttributeSink`]: a name written twice
    /// replaces the first value). On an error, `sink` holds the attributes written before it.
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError>;

    /// About how many attributes [`write`](AttributeWriter::write) writes, for a sink that makes
    /// room once (0, the default: unknown).
    fn len_hint(&self) -> usize {
        0
    }

    /// The item as an [`Item`] (what a backend without a form of its own stores or sends).
    fn to_item(&self) -> Result<Item, ConversionError> {
        let mut item = Item::new();
        self.write(&mut item)?;
        Ok(item)
    }
}

/// An `Item` writes a copy of its attributes.
impl AttributeWriter for Item {
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        for (name, value) in self {
            sink.insert(name.clone(), value.clone());
        }
        Ok(())
    }

    fn len_hint(&self) -> usize {
        self.len()
    }
}
