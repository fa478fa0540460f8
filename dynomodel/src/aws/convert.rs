//! A model value converted to and from the SDK's item map, for code that mixes raw
//! `aws-sdk-dynamodb` requests with dynomodel's models (as `serde_dynamo::to_item` / `from_item` do
//! for serde types): the same attributes, checks and errors as the mapper's own writes and reads.

use std::borrow::Cow;

use aws_sdk_dynamodb::types::AttributeValue as SdkValue;

use super::value::{from_sdk, to_sdk_item, SdkItem};
use super::AwsBackend;
use crate::error::ConversionError;
use crate::model::Model;

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
    pub fn to_sdk_item<M: Model>(
        value: &M,
    ) -> Result<std::collections::HashMap<String, SdkValue>, ConversionError> {
        Ok(to_sdk_item(value.to_item()?))
    }

    /// A model value from the SDK's item map (e.g. one item of a `Query` sent through the SDK):
    /// the same result and errors as the mapper's reads, which name the attribute.
    ///
    /// See [`to_sdk_item`](AwsBackend::to_sdk_item) for an example.
    pub fn from_sdk_item<M: Model>(
        item: std::collections::HashMap<String, SdkValue>,
    ) -> Result<M, ConversionError> {
        let attributes = convert_all(item)?;
        M::from_attributes(&mut attributes.into_iter().map(|(k, v)| (Cow::Owned(k), v)))
    }
}

fn convert_all(
    item: SdkItem,
) -> Result<Vec<(String, crate::value::AttributeValue)>, ConversionError> {
    item.into_iter()
        .map(|(k, v)| match from_sdk(v) {
            Ok(v) => Ok((k, v)),
            Err(e) => Err(e.at(&k)),
        })
        .collect()
}
