//! The operand types of fields stored through the serde escape hatches: [`Serde<T>`] for
//! `#[dynomodel(serde)]` and [`Json<T>`] for `#[dynomodel(json)]`. As with
//! [`EpochSeconds`](super::EpochSeconds), a field's handle must encode operands the way the field is
//! stored, so `Order::meta()` is a `Field<Order, Json<Meta>>` and `eq(meta)` compares JSON strings.
//! Both accept the plain value wherever an operand is expected.

use ::serde::de::DeserializeOwned;
use ::serde::Serialize;

use super::json::JsonField;
use super::serde::SerdeField;
use super::Attribute;
use crate::error::ConversionError;
use crate::expression::{FieldValue, IntoValue};
use crate::value::AttributeValue;

/// A value stored through serde as a DynamoDB value: the value type of a `#[dynomodel(serde)]`
/// field's handle (see [`convert::serde`](super::serde)); also usable as a field type of its own.
///
/// ```
/// use dynomodel::{convert::Serde, Attribute, AttributeValue};
/// let stored = Serde((1u8, "x".to_owned())).to_attribute()?.unwrap();
/// assert_eq!(stored.to_string(), r#"{"L":[{"N":"1"},{"S":"x"}]}"#);
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Serde<T>(pub T);

/// A value stored as a JSON string (S): the value type of a `#[dynomodel(json)]` field's handle (see
/// [`convert::json`](super::json)); also usable as a field type of its own.
///
/// ```
/// use dynomodel::{convert::Json, Attribute, AttributeValue};
/// assert_eq!(Json(vec![1, 2]).to_attribute()?, Some(AttributeValue::S("[1,2]".to_owned())));
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Json<T>(pub T);

impl<T: Serialize + DeserializeOwned> Attribute for Serde<T> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        self.0.to_serde()
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        T::from_serde(value).map(Serde)
    }

    fn from_missing() -> Result<Self, ConversionError> {
        T::serde_missing().map(Serde)
    }

    fn expected() -> String {
        super::serde::expected::<T>()
    }
}

impl<T: Serialize + DeserializeOwned> Attribute for Json<T> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        self.0.to_json()
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        T::from_json(value).map(Json)
    }

    fn from_missing() -> Result<Self, ConversionError> {
        T::json_missing().map(Json)
    }

    fn expected() -> String {
        format!("{} as a JSON string", super::serde::expected::<T>())
    }
}

impl<T> From<T> for Serde<T> {
    fn from(value: T) -> Self {
        Serde(value)
    }
}

impl<T> From<T> for Json<T> {
    fn from(value: T) -> Self {
        Json(value)
    }
}

wrapper_values!(Serde, Json);
