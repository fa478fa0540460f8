//! How a read's items become its results: [`Decode`] (from an [`Item`], or from the attributes a
//! typed read hands over) in a [`Mode`] ([`Strict`] or [`PerItem`]), each item that does not decode
//! named by its key ([`KeyWatch`]). A read decodes only the results it returns (`cap`): the items a
//! request returned beyond them are noted, not decoded. For a lenient page, the position of each
//! item that does not decode is kept too ([`Positions`]), so that the page's cursor can follow it.

use std::borrow::Cow;

use crate::backend::{ConvertedItem, ItemSink};
use crate::db::decode::{find, FromAttributes, ItemDecode, Kept, KeyWatch, Source, TableKey};
use crate::error::{ConversionError, Error, Result};
use crate::model::Projected;
use crate::query::lenient::Decoded;
use crate::value::{AttributeValue, Item};

/// How a read's items become its results: from an [`Item`], and, where the result type has a
/// better way, from the attributes a typed read hands over (`Backend::query_into`/`scan_into`),
/// which lets a backend that stores items in another form skip building the `Item`.
pub(crate) struct Decode<T> {
    pub(crate) item: fn(Item) -> std::result::Result<T, ConversionError>,
    pub(crate) attributes: Option<FromAttributes<T>>,
}

impl<T> Clone for Decode<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Decode<T> {}

impl<T> Decode<T> {
    /// From `Item`s only.
    pub(crate) fn items(item: fn(Item) -> std::result::Result<T, ConversionError>) -> Self {
        Decode {
            item,
            attributes: None,
        }
    }
}

impl<T: Projected> Decode<T> {
    /// A [`Projected`] type's decoding (a model's: from attributes too).
    pub(crate) fn projected() -> Self {
        Decode {
            item: T::from_projection,
            attributes: T::attributes_decoder(),
        }
    }
}

/// How a read hands over its items: [`Strict`] (an item that does not decode fails the read) or
/// [`PerItem`] (each item a `Result`, the read going on).
pub(crate) trait Mode<T>: Send + 'static {
    /// What each item of the read is.
    type Out: Send + 'static;
    /// Whether a result may be an item that did not decode (whose position a page then keeps).
    const KEEPS_FAILURES: bool;
    /// The item, or the error that ends a strict read.
    fn out(decoded: Decoded<T>) -> Decoded<Self::Out>;
    /// The decoded item of a result, if it decoded (a page's cursor is made from it).
    fn decoded(out: &Self::Out) -> Option<&T>;
}

/// The first item that does not decode fails the read, as [`Error::ItemDecode`](crate::Error::ItemDecode).
pub(crate) struct Strict;

impl<T: Send + 'static> Mode<T> for Strict {
    type Out = T;
    const KEEPS_FAILURES: bool = false;
    #[inline]
    fn out(decoded: Decoded<T>) -> Decoded<T> {
        decoded
    }
    #[inline]
    fn decoded(out: &T) -> Option<&T> {
        Some(out)
    }
}

/// Every item is returned, decoded or not.
pub(crate) struct PerItem;

impl<T: Send + 'static> Mode<T> for PerItem {
    type Out = Decoded<T>;
    const KEEPS_FAILURES: bool = true;
    #[inline]
    fn out(decoded: Decoded<T>) -> Decoded<Self::Out> {
        Ok(decoded)
    }
    #[inline]
    fn decoded(out: &Decoded<T>) -> Option<&T> {
        out.as_ref().ok()
    }
}

/// The items of a lenient page that did not decode: each one's index among the results, and its
/// key attributes (the read's: the table's, and an index's).
pub(crate) type Failures = Vec<(usize, Item)>;

/// Where the items of a lenient page that do not decode are: the read's key attributes (the
/// table's, and an index's) of each, which a cursor after it holds. The decoder consumes an item,
/// so the values are kept aside as it goes by (in buffers reused from item to item, see [`Kept`]);
/// only a failure builds an `Item`.
pub(crate) struct Positions<'r> {
    names: &'r [&'r str],
    /// The current item's value of each name.
    seen: Vec<Kept>,
    pub(crate) failed: Failures,
}

impl<'r> Positions<'r> {
    pub(crate) fn new(names: &'r [&'r str]) -> Self {
        Positions {
            names,
            seen: names.iter().map(|_| Kept::default()).collect(),
            failed: Vec::new(),
        }
    }

    /// Forgets the item seen (before the next one).
    fn clear(&mut self) {
        self.seen.iter_mut().for_each(Kept::forget);
    }

    /// Notes one attribute of the item.
    #[inline]
    fn see(&mut self, name: &str, value: &AttributeValue) {
        if let Some(i) = self.names.iter().position(|n| *n == name) {
            self.seen[i].keep(value);
        }
    }

    /// Notes the key attributes of a whole item.
    fn see_item(&mut self, item: &Item) {
        for (name, seen) in self.names.iter().zip(&mut self.seen) {
            seen.keep_found(item.get(*name));
        }
    }

    /// Notes the key attributes of an item given as a slice of its attributes.
    fn see_attributes(&mut self, attributes: &[(String, AttributeValue)]) {
        for (name, seen) in self.names.iter().zip(&mut self.seen) {
            seen.keep_found(find(attributes, name));
        }
    }

    /// The item seen is result `index`, and did not decode.
    fn fail(&mut self, index: usize) {
        let key = self
            .names
            .iter()
            .zip(&mut self.seen)
            .filter_map(|(name, seen)| seen.take().map(|v| ((*name).to_owned(), v)))
            .collect();
        self.failed.push((index, key));
    }

    /// Result `index`, an item that `find` looks up by name, did not decode.
    fn fail_found(&mut self, index: usize, find: &dyn Fn(&str) -> Option<AttributeValue>) {
        let key = self
            .names
            .iter()
            .filter_map(|name| find(name).map(|v| ((*name).to_owned(), v)))
            .collect();
        self.failed.push((index, key));
    }
}

/// Decodes the items of one response, naming the key of each that fails (see [`KeyWatch`]), up to
/// `cap` results.
pub(crate) struct Items<'r, T, Md: Mode<T>> {
    decode: Decode<T>,
    source: Source<'r>,
    watch: KeyWatch,
    items: Vec<Md::Out>,
    /// How many results to decode; the items after them are only noted in `beyond`.
    cap: usize,
    /// Whether items came after the `cap` results.
    pub(crate) beyond: bool,
    /// A strict read's failure: the items after it are skipped.
    pub(crate) error: Option<Box<ItemDecode>>,
    /// A lenient page's failures' positions.
    positions: Option<Positions<'r>>,
}

impl<'r, T, Md: Mode<T>> Items<'r, T, Md> {
    pub(crate) fn new(
        decode: Decode<T>,
        source: Source<'r>,
        key: TableKey,
        cap: Option<usize>,
        positions: Option<Positions<'r>>,
    ) -> Self {
        Items {
            decode,
            source,
            watch: KeyWatch::new(key),
            items: Vec::new(),
            cap: cap.unwrap_or(usize::MAX),
            beyond: false,
            error: None,
            positions,
        }
    }

    /// Room for `n` more items (an untyped read knows how many came).
    pub(crate) fn reserve(&mut self, n: usize) {
        self.items.reserve(n.min(self.cap));
    }

    /// Whether the next item is to be decoded: no strict failure yet, and fewer than `cap`
    /// results (otherwise it is noted as beyond them).
    pub(crate) fn wants(&mut self) -> bool {
        if self.items.len() < self.cap {
            return self.error.is_none();
        }
        self.beyond = true;
        false
    }

    /// Whether the read has all it takes from this response.
    pub(crate) fn done(&self) -> bool {
        self.error.is_some() || self.beyond
    }

    fn push(&mut self, decoded: std::result::Result<T, ConversionError>) {
        let decoded = decoded.map_err(|e| {
            if let Some(positions) = &mut self.positions {
                positions.fail(self.items.len());
            }
            self.source.error(self.watch.take(), e)
        });
        self.output(decoded);
    }

    /// One decoded item, or the failure naming it.
    fn output(&mut self, decoded: Decoded<T>) {
        match Md::out(decoded) {
            Ok(item) => self.items.push(item),
            Err(e) => self.error = Some(e),
        }
    }

    /// An item given whole.
    pub(crate) fn item(&mut self, item: Item) {
        if self.wants() {
            self.watch.see_item(&item);
            if let Some(positions) = &mut self.positions {
                positions.see_item(&item);
            }
            self.push((self.decode.item)(item));
        }
    }

    /// The items and the failures' positions, or the failure of a strict read.
    pub(crate) fn finish(self) -> Result<(Vec<Md::Out>, Failures)> {
        match self.error {
            Some(e) => Err(Error::ItemDecode(e)),
            None => Ok((
                self.items,
                self.positions.map(|p| p.failed).unwrap_or_default(),
            )),
        }
    }
}

/// The sink of a typed read: each item decoded as it comes, from its attributes.
pub(crate) struct Results<'r, T, Md: Mode<T>> {
    pub(crate) items: Items<'r, T, Md>,
    pub(crate) attributes: FromAttributes<T>,
}

impl<T: Send, Md: Mode<T>> ItemSink for Results<'_, T, Md> {
    fn reserve(&mut self, additional: usize) {
        self.items.reserve(additional);
    }

    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        let items = &mut self.items;
        if items.wants() {
            let decoded = match &mut items.positions {
                None => items.watch.decode(attributes, self.attributes),
                Some(positions) => {
                    positions.clear();
                    let mut seen = attributes.inspect(|(name, value)| positions.see(name, value));
                    items.watch.decode(&mut seen, self.attributes)
                }
            };
            items.push(decoded);
        }
    }

    // A page the backend converted whole (AWS): the key is copied from the page's buffer before
    // the decoder moves the attributes out, so the decoder reads them with no layer in between.
    fn converted_item(&mut self, mut attributes: ConvertedItem<'_>) {
        let items = &mut self.items;
        if items.wants() {
            items.watch.see_attributes(attributes.as_slice());
            if let Some(positions) = &mut items.positions {
                positions.see_attributes(attributes.as_slice());
            }
            let decoded = (self.attributes)(&mut attributes);
            items.push(decoded);
        }
    }

    // The engine's stored items: the key is looked up again only for an item that fails, so a
    // page that decodes costs nothing for naming the ones that would not.
    fn stored_item(
        &mut self,
        attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>,
        find: &dyn Fn(&str) -> Option<AttributeValue>,
    ) {
        let items = &mut self.items;
        if items.wants() {
            let decoded = (self.attributes)(attributes).map_err(|e| {
                if let Some(positions) = &mut items.positions {
                    positions.fail_found(items.items.len(), find);
                }
                items.source.error(items.watch.key().key_from(find), e)
            });
            items.output(decoded);
        }
    }

    // An item the backend built anyway (a filtered or projected read): decoded from it directly.
    fn owned_item(&mut self, item: Item) {
        self.items.item(item);
    }
}

#[cfg(test)]
mod tests {
    //! Each way a backend hands items over (whole, attribute by attribute, stored with a look-up)
    //! keeps a lenient page's failures' positions, and a read decodes only up to its cap.

    use super::*;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    /// Post `id` of partition "p" on topic "t"; without `text` when `bad`.
    fn post(id: &str, bad: bool) -> Item {
        let mut item = Item::from([
            ("pk".to_owned(), s("p")),
            ("sk".to_owned(), s(id)),
            ("topic".to_owned(), s("t")),
        ]);
        if !bad {
            item.insert("text".to_owned(), s("hello"));
        }
        item
    }

    fn text(item: Item) -> std::result::Result<String, ConversionError> {
        match item.get("text") {
            Some(AttributeValue::S(text)) => Ok(text.clone()),
            _ => Err(ConversionError::missing("a string").at("text")),
        }
    }

    fn text_of(
        attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>,
    ) -> std::result::Result<String, ConversionError> {
        text(attributes.map(|(n, v)| (n.into_owned(), v)).collect())
    }

    const NAMES: &[&str] = &["pk", "sk", "topic"];

    fn items(cap: Option<usize>) -> Items<'static, String, PerItem> {
        let source = Source {
            model: "Post",
            table: "posts",
            index: Some("by-topic"),
        };
        let key = TableKey {
            hash: "pk",
            range: Some("sk"),
        };
        let positions = Some(Positions::new(NAMES));
        Items::new(Decode::items(text), source, key, cap, positions)
    }

    /// The ids of the results (`!id` for a failure) and the failures' positions' ids.
    fn outcome(items: Items<'_, String, PerItem>) -> (Vec<String>, Failures, bool) {
        let beyond = items.beyond;
        let (out, failed) = items.finish().expect("lenient");
        let out = out
            .into_iter()
            .map(|r| match r {
                Ok(text) => text,
                Err(bad) => format!("!{}", bad.key["sk"]),
            })
            .collect();
        (out, failed, beyond)
    }

    fn position(id: &str) -> Item {
        Item::from([
            ("pk".to_owned(), s("p")),
            ("sk".to_owned(), s(id)),
            ("topic".to_owned(), s("t")),
        ])
    }

    #[test]
    fn whole_items_keep_the_failures_positions_up_to_the_cap() {
        let mut items = items(Some(2));
        for (id, bad) in [("1", false), ("2", true), ("3", true)] {
            items.item(post(id, bad));
        }
        let (out, failed, beyond) = outcome(items);
        assert_eq!(out, ["hello", r#"!{"S":"2"}"#]);
        assert_eq!(failed, [(1, position("2"))], "item 3 is beyond the cap");
        assert!(beyond);
    }

    #[test]
    fn attributes_keep_the_failures_positions() {
        let mut results = Results {
            items: items(None),
            attributes: text_of,
        };
        for (id, bad) in [("1", true), ("2", false), ("3", true)] {
            let mut attributes = post(id, bad).into_iter().map(|(n, v)| (Cow::Owned(n), v));
            results.item(&mut attributes);
        }
        let (out, failed, beyond) = outcome(results.items);
        assert_eq!(out.len(), 3);
        assert_eq!(failed, [(0, position("1")), (2, position("3"))]);
        assert!(!beyond);
    }

    #[test]
    fn converted_items_name_each_failure_first_middle_or_last_by_its_own_key() {
        let mut results = Results {
            items: items(None),
            attributes: text_of,
        };
        let page = [
            ("1", true),
            ("2", false),
            ("3", true),
            ("4", false),
            ("5", true),
        ];
        for (id, bad) in page {
            let mut attributes = post(id, bad).into_iter().collect::<Vec<_>>().into_iter();
            let len = attributes.len();
            results.converted_item(ConvertedItem::new(&mut attributes, len));
        }
        let (out, failed, beyond) = outcome(results.items);
        assert_eq!(
            out,
            [
                r#"!{"S":"1"}"#,
                "hello",
                r#"!{"S":"3"}"#,
                "hello",
                r#"!{"S":"5"}"#
            ]
        );
        assert_eq!(
            failed,
            [(0, position("1")), (2, position("3")), (4, position("5"))]
        );
        assert!(!beyond);
    }

    #[test]
    fn a_converted_item_without_its_key_attributes_names_only_what_it_has() {
        let mut results = Results::<String, Strict> {
            items: Items::new(
                Decode::items(text),
                Source {
                    model: "Post",
                    table: "posts",
                    index: None,
                },
                TableKey {
                    hash: "pk",
                    range: Some("sk"),
                },
                None,
                None,
            ),
            attributes: text_of,
        };
        let mut page = vec![("sk".to_owned(), s("9"))].into_iter();
        results.converted_item(ConvertedItem::new(&mut page, 1));
        let err = results.items.finish().expect_err("strict");
        assert!(err.to_string().contains(r#"Post {sk: "9"}"#), "{err}");
    }

    #[test]
    fn stored_items_look_the_failures_positions_up() {
        let mut results = Results {
            items: items(Some(1)),
            attributes: text_of,
        };
        for id in ["1", "2"] {
            let stored = post(id, true);
            let find = |name: &str| stored.get(name).cloned();
            // The decoder consumes nothing here: the look-up alone names the item.
            results.stored_item(&mut std::iter::empty(), &find);
        }
        let (out, failed, beyond) = outcome(results.items);
        assert_eq!(out, [r#"!{"S":"1"}"#]);
        assert_eq!(failed, [(0, position("1"))]);
        assert!(beyond);
    }

    #[test]
    fn a_strict_read_keeps_no_positions_and_stops_at_the_first_failure() {
        let source = Source {
            model: "Post",
            table: "posts",
            index: None,
        };
        let key = TableKey {
            hash: "pk",
            range: Some("sk"),
        };
        let mut items = Items::<String, Strict>::new(Decode::items(text), source, key, None, None);
        items.item(post("1", true));
        assert!(items.done());
        items.item(post("2", false));
        let err = items.finish().expect_err("strict");
        assert!(err.to_string().contains(r#"sk: "1""#), "{err}");
    }
}
