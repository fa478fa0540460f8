//! A model value converted to and from the SDK's item map, for code that mixes raw
//! `aws-sdk-dynamodb` requests with dynomodel's models (as `serde_dynamo::to_item` / `from_item` do
//! for serde types): the same attributes, checks and errors as the mapper's own writes and reads.

use std::borrow::Cow;
use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue as SdkValue;

use super::value::{from_sdk, to_sdk, SdkItem};
use super::AwsBackend;
use crate::backend::AttributeSink;
use crate::error::ConversionError;
use crate::model::Model;
use crate::value::AttributeValue;

impl AwsBackend {
    /// `value` as the SDK's item map: the item [`Db::put`](crate::Db::put) would store (without
    /// the version bump and timestamps a put adds), for a request sent through the SDK directly.
    ///
    /// ```
    /// use aws_sdk_dynamodb::types::AttributeValue;
    /// use dynomodel::{AwsBackend, Model};
    ///
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct User { #[hash_key] id: String, age: i64 }
    ///
    /// let user = User { id: "u1".into(), age: 36 };
    /// let item = AwsBackend::to_sdk_item(&user)?;
    /// assert_eq!(item["id"], AttributeValue::S("u1".into()));
    /// assert_eq!(item["age"], AttributeValue::N("36".into()));
    /// assert_eq!(AwsBackend::from_sdk_item::<User>(item)?, user);
    /// # Ok::<(), dynomodel::ConversionError>(())
    /// ```
    ///
    /// Errors: what [`Model::to_item`] refuses (a value the model could not read back).
    pub fn to_sdk_item<M: Model>(value: &M) -> Result<HashMap<String, SdkValue>, ConversionError> {
        let mut item = SdkItemSink(HashMap::with_capacity(M::ATTRIBUTES.len()));
        value.write_attributes(&mut item)?;
        Ok(item.0)
    }

    /// A model value from the SDK's item map (e.g. one item of a `Query` sent through the SDK):
    /// the same result and errors as the mapper's reads, which name the attribute.
    ///
    /// See [`to_sdk_item`](AwsBackend::to_sdk_item) for an example.
    pub fn from_sdk_item<M: Model>(item: HashMap<String, SdkValue>) -> Result<M, ConversionError> {
        // Each value converted as the decoder takes it (no buffer): a value that does not convert
        // ends the item there, and its error is the result whatever the decoder made of the rest.
        let mut failed = None;
        let mut attributes = item
            .into_iter()
            .map_while(|(name, value)| match from_sdk(value) {
                Ok(value) => Some((Cow::Owned(name), value)),
                Err(e) => {
                    failed = Some(e.at(&name));
                    None
                }
            });
        let decoded = M::from_attributes(&mut attributes);
        drop(attributes);
        match failed {
            Some(e) => Err(e),
            None => decoded,
        }
    }
}

/// The SDK's item map as a model's [`AttributeSink`]: each value converted as it is written.
pub(super) struct SdkItemSink(pub(super) SdkItem);

impl AttributeSink for SdkItemSink {
    #[inline]
    fn insert(&mut self, name: String, value: AttributeValue) {
        self.0.insert(name, to_sdk(value));
    }
}
