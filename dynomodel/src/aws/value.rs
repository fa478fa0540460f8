//! Attribute values and items, converted losslessly between dynomodel and `aws-sdk-dynamodb`.
//!
//! The two data models are the same ten DynamoDB types; the differences are representation only:
//! numbers are exact [`Number`]s here and wire strings in the SDK, binaries are `Vec<u8>` here and
//! [`Blob`]s there, maps are `BTreeMap` here and `HashMap` there. Sets are passed through as sequences in
//! their original order *with* any duplicates, so that DynamoDB (not this module) decides what is valid and
//! answers with its own error message.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::AttributeValue as SdkValue;
use aws_smithy_types::Blob;

use crate::backend::ItemSink;
use crate::error::{ConversionError, Result};
use crate::value::{AttributeValue, Item, Number};

/// An item in the SDK's shape.
pub(crate) type SdkItem = HashMap<String, SdkValue>;

/// Converts one value to the SDK's type. Infallible: every dynomodel value is representable.
pub(crate) fn to_sdk(value: &AttributeValue) -> SdkValue {
    match value {
        AttributeValue::S(s) => SdkValue::S(s.clone()),
        // `Number`'s Display is DynamoDB's canonical text, which DynamoDB parses back to the same value.
        AttributeValue::N(n) => SdkValue::N(n.to_string()),
        AttributeValue::B(b) => SdkValue::B(Blob::new(b.clone())),
        AttributeValue::Bool(b) => SdkValue::Bool(*b),
        AttributeValue::Null => SdkValue::Null(true),
        AttributeValue::Ss(v) => SdkValue::Ss(v.clone()),
        AttributeValue::Ns(v) => SdkValue::Ns(v.iter().map(Number::to_string).collect()),
        AttributeValue::Bs(v) => SdkValue::Bs(v.iter().map(|b| Blob::new(b.clone())).collect()),
        AttributeValue::L(v) => SdkValue::L(v.iter().map(to_sdk).collect()),
        AttributeValue::M(m) => SdkValue::M(to_sdk_item(m)),
    }
}

/// Converts an item (or a key, or a map value) to the SDK's type.
pub(crate) fn to_sdk_item(item: &Item) -> SdkItem {
    item.iter().map(|(k, v)| (k.clone(), to_sdk(v))).collect()
}

/// Defines the conversion of one SDK attribute-value type (and of its items) into dynomodel's.
///
/// `aws-sdk-dynamodb` and `aws-sdk-dynamodbstreams` each generate their own `AttributeValue` enum with the
/// same variants; one definition serves both so that a stream image converts exactly as a `GetItem`
/// result does.
macro_rules! from_sdk_value {
    ($value_fn:ident, $item_fn:ident, $sdk:ty) => {
        /// Converts one value from the SDK's type.
        ///
        /// Fails only on values DynamoDB itself never sends: a number string that is not a valid DynamoDB
        /// number and a type this SDK version does not know (`Unknown`, from a future service model).
        pub(crate) fn $value_fn(value: $sdk) -> Result<AttributeValue, ConversionError> {
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

from_sdk_value!(from_sdk, from_sdk_item, SdkValue);
from_sdk_value!(
    from_streams_sdk,
    from_streams_sdk_item,
    aws_sdk_dynamodbstreams::types::AttributeValue
);

/// Converts an optional item from an SDK response.
pub(crate) fn from_sdk_opt_item(item: Option<SdkItem>) -> Result<Option<Item>> {
    Ok(item.map(from_sdk_item).transpose()?)
}

/// Read items for an [`ItemSink`] (the typed reads): each converted to its attributes, names moved and
/// no map built, then handed to `sink` in order, once all of them converted (a response converts, or
/// fails, whole, as [`from_sdk_item`] makes it for the `Item` path).
pub(crate) fn hand_over(items: Vec<SdkItem>, sink: &mut dyn ItemSink) -> Result<()> {
    let items = items
        .into_iter()
        .map(|item| {
            item.into_iter()
                .map(|(k, v)| match from_sdk(v) {
                    Ok(v) => Ok((k, v)),
                    Err(e) => Err(e.at(&k)),
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    for attributes in items {
        sink.item(&mut attributes.into_iter().map(|(k, v)| (Cow::Owned(k), v)));
    }
    Ok(())
}

fn number(text: &str) -> Result<Number, ConversionError> {
    Number::parse(text)
        .map_err(|e| ConversionError::new("a DynamoDB number", format!("N {text:?} ({e})")))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
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
        let back = from_sdk(to_sdk(&value)).unwrap();
        assert_eq!(back, value);
        // Sets keep their order on the way out, so DynamoDB sees exactly what the caller built.
        match to_sdk(&AttributeValue::Ss(vec![
            "b".into(),
            "a".into(),
            "b".into(),
        ])) {
            SdkValue::Ss(v) => assert_eq!(v, ["b", "a", "b"]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn numbers_travel_as_canonical_text() {
        assert_eq!(
            to_sdk(&AttributeValue::N(n("0001.500"))),
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

    /// Collects what a typed read hands over.
    #[derive(Default)]
    struct Collect(Vec<Item>);

    impl ItemSink for Collect {
        fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
            self.0
                .push(attributes.map(|(k, v)| (k.into_owned(), v)).collect());
        }
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
}
