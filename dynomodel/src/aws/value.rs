//! Attribute values and items, converted losslessly between dynomodel and `aws-sdk-dynamodb`.
//!
//! The two data models are the same ten DynamoDB types; the differences are representation only:
//! numbers are exact [`Number`]s here and wire strings in the SDK, binaries are `Vec<u8>` here and
//! [`Blob`]s there, maps are `BTreeMap` here and `HashMap` there. Sets are passed through as sequences in
//! their original order *with* any duplicates, so that DynamoDB (not this module) decides what is valid and
//! answers with its own error message.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue as SdkValue;
use aws_smithy_types::Blob;

use crate::backend::{ConvertedItem, ItemSink};
use crate::error::{ConversionError, Result};
use crate::value::{AttributeValue, Item, Number, NumberError};

/// An item in the SDK's shape.
pub(crate) type SdkItem = HashMap<String, SdkValue>;

/// Converts one value to the SDK's type, moving its strings and bytes (a request's values are
/// owned: nothing is copied). Infallible: every dynomodel value is representable.
#[inline]
pub(crate) fn to_sdk(value: AttributeValue) -> SdkValue {
    match value {
        AttributeValue::S(s) => SdkValue::S(s),
        // `Number`'s Display is DynamoDB's canonical text, which DynamoDB parses back to the same value.
        AttributeValue::N(n) => SdkValue::N(n.to_string()),
        AttributeValue::B(b) => SdkValue::B(Blob::new(b)),
        AttributeValue::Bool(b) => SdkValue::Bool(b),
        AttributeValue::Null => SdkValue::Null(true),
        AttributeValue::Ss(v) => SdkValue::Ss(v),
        AttributeValue::Ns(v) => SdkValue::Ns(v.iter().map(Number::to_string).collect()),
        AttributeValue::Bs(v) => SdkValue::Bs(v.into_iter().map(Blob::new).collect()),
        AttributeValue::L(v) => SdkValue::L(v.into_iter().map(to_sdk).collect()),
        AttributeValue::M(m) => SdkValue::M(to_sdk_item(m)),
    }
}

/// Converts an item (or a key, or a map value) to the SDK's type, moving its names and values.
#[inline]
pub(crate) fn to_sdk_item(item: Item) -> SdkItem {
    item.into_iter().map(|(k, v)| (k, to_sdk(v))).collect()
}

/// Defines the conversion of one SDK attribute-value type (and of its items) into dynomodel's.
///
/// `aws-sdk-dynamodb` and `aws-sdk-dynamodbstreams` each generate their own `AttributeValue` enum with the
/// same variants; one definition serves both so that a stream image converts exactly as a `GetItem`
/// result does.
macro_rules! from_sdk_value {
    ($value_fn:ident, $rest_fn:ident, $item_fn:ident, $sdk:ty) => {
        /// Converts one value from the SDK's type.
        ///
        /// Fails only on values DynamoDB itself never sends: a number string that is not a valid DynamoDB
        /// number and a type this SDK version does not know (`Unknown`, from a future service model).
        ///
        /// The scalar types a page is mostly made of are converted here, inlined into the loop that
        /// converts a page; the others (and the errors) by the out-of-line function beside it: the
        /// whole conversion inlined into that loop cost each value more time than its instructions
        /// (docs/performance.md, "the Query's time split by timing"). Always: a plain `#[inline]`
        /// was left out of line by a change elsewhere in the response's closure, for a call a value.
        #[inline(always)]
        pub(crate) fn $value_fn(value: $sdk) -> Result<AttributeValue, ConversionError> {
            type Sdk = $sdk;
            match value {
                Sdk::S(s) => Ok(AttributeValue::S(s)),
                Sdk::N(n) => match Number::parse(&n) {
                    Ok(n) => Ok(AttributeValue::N(n)),
                    Err(e) => Err(bad_number(&n, e)),
                },
                Sdk::Bool(b) => {
                    // Holds nothing to free: forgotten, it spares the page's loop the out-of-line
                    // drop of an SDK value the compiler leaves after a `Copy` payload is read.
                    std::mem::forget(value);
                    Ok(AttributeValue::Bool(b))
                }
                other => $rest_fn(other),
            }
        }

        /// The conversion of the types the inline one leaves (every type is handled here too).
        #[inline(never)]
        fn $rest_fn(value: $sdk) -> Result<AttributeValue, ConversionError> {
            type Sdk = $sdk;
            Ok(match value {
                Sdk::S(s) => AttributeValue::S(s),
                Sdk::N(n) => AttributeValue::N(number(&n)?),
                Sdk::B(b) => AttributeValue::B(b.into_inner()),
                Sdk::Bool(b) => AttributeValue::Bool(b),
                // DynamoDB only ever sends `{"NULL": true}`; there is no "non-null NULL" to preserve.
                Sdk::Null(_) => AttributeValue::Null,
                Sdk::Ss(v) => AttributeValue::Ss(v),
                Sdk::Ns(v) => AttributeValue::Ns(
                    v.iter()
                        .enumerate()
                        .map(|(i, n)| number(n).map_err(|e| e.at_index(i)))
                        .collect::<Result<_, _>>()?,
                ),
                Sdk::Bs(v) => AttributeValue::Bs(v.into_iter().map(Blob::into_inner).collect()),
                Sdk::L(v) => AttributeValue::L(
                    v.into_iter()
                        .enumerate()
                        .map(|(i, v)| $value_fn(v).map_err(|e| e.at_index(i)))
                        .collect::<Result<_, _>>()?,
                ),
                Sdk::M(m) => AttributeValue::M($item_fn(m)?),
                other => {
                    return Err(ConversionError::new(
                        "a DynamoDB attribute value",
                        format!("a type unknown to this SDK version: {other:?}"),
                    ))
                }
            })
        }

        /// Converts an item from the SDK's type; a bad value is reported with its attribute path.
        pub(crate) fn $item_fn(item: HashMap<String, $sdk>) -> Result<Item, ConversionError> {
            item.into_iter()
                .map(|(k, v)| match $value_fn(v) {
                    Ok(v) => Ok((k, v)),
                    Err(e) => Err(e.at(&k)),
                })
                .collect::<Result<BTreeMap<_, _>, _>>()
        }
    };
}

from_sdk_value!(from_sdk, from_sdk_rest, from_sdk_item, SdkValue);
from_sdk_value!(
    from_streams_sdk,
    from_streams_sdk_rest,
    from_streams_sdk_item,
    aws_sdk_dynamodbstreams::types::AttributeValue
);

/// Converts an optional item from an SDK response.
#[inline]
pub(crate) fn from_sdk_opt_item(item: Option<SdkItem>) -> Result<Option<Item>> {
    Ok(item.map(from_sdk_item).transpose()?)
}

/// Read items for an [`ItemSink`] (the typed reads): each converted to its attributes, names moved and
/// no map built, then handed to `sink` in order, once all of them converted (a response converts, or
/// fails, whole, as [`from_sdk_item`] makes it for the `Item` path). The attributes of the whole page
/// go into one buffer (two allocations a page, not one per item).
#[inline]
pub(crate) fn hand_over(items: Vec<SdkItem>, sink: &mut dyn ItemSink) -> Result<()> {
    let mut attributes = Vec::with_capacity(items.iter().map(HashMap::len).sum());
    let mut lengths = Vec::with_capacity(items.len());
    for item in items {
        lengths.push(item.len());
        for (k, v) in item {
            match from_sdk(v) {
                Ok(v) => attributes.push((k, v)),
                Err(e) => return Err(e.at(&k).into()),
            }
        }
    }
    hand_page(attributes, lengths, sink);
    Ok(())
}

/// A page already converted, handed to `sink`: `attributes` holds every item's attributes, item
/// after item, `lengths` the number of each (what [`hand_over`] builds from the SDK's maps, and
/// what `page_body` reads from the response body).
#[inline]
pub(crate) fn hand_page(
    attributes: Vec<(String, AttributeValue)>,
    lengths: Vec<usize>,
    sink: &mut dyn ItemSink,
) {
    sink.reserve(lengths.len());
    // Each item is the next `length` attributes of the buffer, moved out as the sink reads them
    // (no emptied slot left to drop with the buffer); what a sink leaves unread is dropped with
    // its item, so it never shifts the next one.
    let mut page = attributes.into_iter();
    for length in lengths {
        sink.converted_item(ConvertedItem::new(&mut page, length));
    }
}

fn number(text: &str) -> Result<Number, ConversionError> {
    Number::parse(text).map_err(|e| bad_number(text, e))
}

/// The error of a number string that is not a DynamoDB number (out of line: never sent by
/// DynamoDB, and its formatting would weigh on the loop converting a page).
#[cold]
#[inline(never)]
fn bad_number(text: &str, error: NumberError) -> ConversionError {
    ConversionError::new("a DynamoDB number", format!("N {text:?} ({error})"))
}

#[cfg(test)]
pub(crate) mod tests {
    #![allow(clippy::unwrap_used)]
    use std::borrow::Cow;

    use super::*;

    fn n(s: &str) -> Number {
        s.parse().unwrap()
    }

    #[test]
    fn every_type_round_trips() {
        let mut inner = Item::new();
        inner.insert("empty".into(), AttributeValue::S(String::new()));
        inner.insert("null".into(), AttributeValue::Null);
        let value = AttributeValue::L(vec![
            AttributeValue::S("é".into()),
            AttributeValue::N(n("-1.5E-130")),
            AttributeValue::N(n("99999999999999999999999999999999999999E88")),
            AttributeValue::B(vec![0, 255, 1]),
            AttributeValue::B(vec![]),
            AttributeValue::Bool(false),
            AttributeValue::Null,
            AttributeValue::Ss(vec!["b".into(), "a".into(), String::new()]),
            AttributeValue::Ns(vec![n("1"), n("0.5")]),
            AttributeValue::Bs(vec![vec![], vec![7]]),
            AttributeValue::M(inner),
            AttributeValue::L(vec![]),
        ]);
        let back = from_sdk(to_sdk(value.clone())).unwrap();
        assert_eq!(back, value);
        // Sets keep their order on the way out, so DynamoDB sees exactly what the caller built.
        match to_sdk(AttributeValue::Ss(vec!["b".into(), "a".into(), "b".into()])) {
            SdkValue::Ss(v) => assert_eq!(v, ["b", "a", "b"]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn numbers_travel_as_canonical_text() {
        assert_eq!(
            to_sdk(AttributeValue::N(n("0001.500"))),
            SdkValue::N("1.5".into())
        );
        assert_eq!(
            from_sdk(SdkValue::N("1E2".into())).unwrap(),
            AttributeValue::N(n("100"))
        );
    }

    #[test]
    fn bad_values_name_their_path() {
        let mut m = SdkItem::new();
        m.insert(
            "a".into(),
            SdkValue::L(vec![SdkValue::S("x".into()), SdkValue::N("NaN".into())]),
        );
        let err = from_sdk_item(m).unwrap_err();
        assert_eq!(err.path, "a[1]");
        assert!(err.found.contains("NaN"), "{err}");
    }

    /// The conversion as it was before requests' values were moved rather than copied: the
    /// reference the moving one must equal.
    fn copied_to_sdk(value: &AttributeValue) -> SdkValue {
        match value {
            AttributeValue::S(s) => SdkValue::S(s.clone()),
            AttributeValue::N(n) => SdkValue::N(n.to_string()),
            AttributeValue::B(b) => SdkValue::B(Blob::new(b.clone())),
            AttributeValue::Bool(b) => SdkValue::Bool(*b),
            AttributeValue::Null => SdkValue::Null(true),
            AttributeValue::Ss(v) => SdkValue::Ss(v.clone()),
            AttributeValue::Ns(v) => SdkValue::Ns(v.iter().map(Number::to_string).collect()),
            AttributeValue::Bs(v) => SdkValue::Bs(v.iter().map(|b| Blob::new(b.clone())).collect()),
            AttributeValue::L(v) => SdkValue::L(v.iter().map(copied_to_sdk).collect()),
            AttributeValue::M(m) => SdkValue::M(
                m.iter()
                    .map(|(k, v)| (k.clone(), copied_to_sdk(v)))
                    .collect(),
            ),
        }
    }

    /// An item holding every type, with the strings the JSON writers escape (quote, backslash,
    /// control characters, non-ASCII, an emoji) and the empty and nested forms: the fixture of the
    /// tests that hold a writer to the SDK's text.
    pub(crate) fn every_type() -> Item {
        let item = |pairs: Vec<(&str, AttributeValue)>| {
            pairs
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect::<Item>()
        };
        item(vec![
            ("pk", AttributeValue::S("a\"\\\n\u{1}é😀".into())),
            ("s", AttributeValue::S("a\"b\\c\n\u{1}é".into())),
            ("n", AttributeValue::N(n("-12.50"))),
            ("small", AttributeValue::N(n("-1.5E-3"))),
            ("b", AttributeValue::B(vec![0, 255, 7])),
            ("t", AttributeValue::Bool(true)),
            ("f", AttributeValue::Bool(false)),
            ("z", AttributeValue::Null),
            ("ss", AttributeValue::Ss(vec!["x".into(), "y".into()])),
            ("ns", AttributeValue::Ns(vec![1.into(), 20.into()])),
            ("bs", AttributeValue::Bs(vec![vec![1], vec![]])),
            (
                "l",
                AttributeValue::L(vec![
                    AttributeValue::Null,
                    AttributeValue::S("in".into()),
                    AttributeValue::L(vec![]),
                    AttributeValue::M(Item::new()),
                ]),
            ),
            // One entry a map: the SDK writes a map in its hash order, which a test comparing
            // text would see vary from run to run.
            (
                "m",
                AttributeValue::M(item(vec![(
                    "k",
                    AttributeValue::M(item(vec![("z", AttributeValue::Null)])),
                )])),
            ),
        ])
    }

    /// Any attribute value, documents nested a few levels.
    pub(crate) fn any_value() -> impl proptest::strategy::Strategy<Value = AttributeValue> {
        use proptest::prelude::*;
        let number = (any::<bool>(), 0u128..10u128.pow(38), -130i32..90)
            .prop_filter_map("in DynamoDB's range", |(negative, c, e)| {
                Number::try_from_parts(negative, c, e).ok()
            });
        let leaf = prop_oneof![
            ".{0,8}".prop_map(AttributeValue::S),
            number.clone().prop_map(AttributeValue::N),
            proptest::collection::vec(any::<u8>(), 0..8).prop_map(AttributeValue::B),
            any::<bool>().prop_map(AttributeValue::Bool),
            Just(AttributeValue::Null),
            proptest::collection::vec(".{0,4}", 0..4).prop_map(AttributeValue::Ss),
            proptest::collection::vec(number, 0..4).prop_map(AttributeValue::Ns),
            proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..4), 0..3)
                .prop_map(AttributeValue::Bs),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(AttributeValue::L),
                proptest::collection::btree_map(".{0,4}", inner, 0..4).prop_map(AttributeValue::M),
            ]
        })
    }

    proptest::proptest! {
        /// Moving a request's values into the SDK's types sends exactly what copying them did,
        /// and reads back as the value sent.
        #[test]
        fn moved_values_equal_copied_values(value in any_value()) {
            let copied = copied_to_sdk(&value);
            proptest::prop_assert_eq!(&to_sdk(value.clone()), &copied);
            proptest::prop_assert_eq!(from_sdk(copied).unwrap(), value);
        }
    }

    /// Collects what a typed read hands over.
    #[derive(Default)]
    struct Collect(Vec<Item>);

    impl ItemSink for Collect {
        fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
            self.0
                .push(attributes.map(|(k, v)| (k.into_owned(), v)).collect());
        }
    }

    /// Reads one attribute of each item and leaves the rest.
    #[derive(Default)]
    struct FirstOnly(Vec<usize>);

    impl ItemSink for FirstOnly {
        fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
            let first = attributes.next();
            self.0.push(usize::from(first.is_some()));
        }
    }

    #[test]
    fn a_sink_leaving_attributes_unread_gets_every_item_whole() {
        let item = |pk: &str| -> SdkItem {
            [
                ("pk".to_owned(), SdkValue::S(pk.into())),
                ("a".to_owned(), SdkValue::Bool(true)),
                ("b".to_owned(), SdkValue::N("1".into())),
            ]
            .into()
        };
        let mut first = FirstOnly::default();
        hand_over(vec![item("a"), item("b"), item("c")], &mut first).unwrap();
        assert_eq!(first.0, [1, 1, 1]);
        // And what each item holds is its own: no attribute of one is handed with the next.
        let mut all = Collect::default();
        let page = vec![item("a"), SdkItem::new(), item("c")];
        hand_over(page, &mut all).unwrap();
        let sizes: Vec<usize> = all.0.iter().map(Item::len).collect();
        assert_eq!(sizes, [3, 0, 3]);
        assert_eq!(all.0[2]["pk"], AttributeValue::S("c".into()));
    }

    #[test]
    fn handed_items_are_the_converted_items_and_a_bad_one_hands_nothing() {
        let item = |pk: &str, n: &str| -> SdkItem {
            [
                ("pk".to_owned(), SdkValue::S(pk.into())),
                ("n".to_owned(), SdkValue::N(n.into())),
            ]
            .into()
        };
        let page = vec![item("a", "1"), item("b", "2.50")];
        let mut sink = Collect::default();
        hand_over(page.clone(), &mut sink).unwrap();
        let expected: Vec<Item> = page
            .into_iter()
            .map(|i| from_sdk_item(i).unwrap())
            .collect();
        assert_eq!(sink.0, expected);

        let mut sink = Collect::default();
        let err = hand_over(vec![item("a", "1"), item("b", "NaN")], &mut sink).unwrap_err();
        assert!(err.to_string().contains("NaN"), "{err}");
        assert!(
            sink.0.is_empty(),
            "nothing handed before the whole page converted"
        );
    }

    /// A page's numbers read into an integer field as the service may write them (exponents,
    /// `-0`, `i64`'s edges), and a fraction or a number beyond the field fails with the
    /// number's canonical text.
    #[test]
    fn handed_numbers_read_into_integers_exactly_or_name_the_number() {
        use crate::convert::Attribute;
        let texts = [
            ("9223372036854775807", Ok(i64::MAX)),
            ("-9223372036854775808", Ok(i64::MIN)),
            ("-0", Ok(0)),
            ("1E2", Ok(100)),
            ("-1.2e3", Ok(-1200)),
            ("12.000", Ok(12)),
            ("2.5", Err("N 2.5")),
            ("9223372036854775808", Err("N 9223372036854775808")),
            ("1e19", Err("N 10000000000000000000")),
        ];
        let page = texts
            .iter()
            .map(|(text, _)| SdkItem::from([("n".to_owned(), SdkValue::N((*text).into()))]))
            .collect();
        let mut sink = Collect::default();
        hand_over(page, &mut sink).unwrap();
        for ((text, expected), mut item) in texts.into_iter().zip(sink.0) {
            let read = i64::from_attribute(item.remove("n").unwrap());
            match expected {
                Ok(n) => assert_eq!(read.unwrap(), n, "{text}"),
                Err(found) => assert_eq!(read.unwrap_err().found, found, "{text}"),
            }
        }
    }
}
