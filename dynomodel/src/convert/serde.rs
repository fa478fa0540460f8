//! The `serde` field adapter: `#[dynomodel(serde)]` stores any `Serialize + DeserializeOwned` type as
//! a DynamoDB value, structs and maps as M, sequences as L, strings as S, numbers as N, booleans as
//! BOOL, in the shape serde gives it (enums externally tagged, `#[serde(...)]` options honoured).
//!
//! The value goes through `serde_json::Value` and [`serde_json::Value`'s conversion](super#json),
//! so numbers are exact: integers up to 64 bits as written, floats as their shortest round-tripping
//! decimal; a number outside what the type holds is an error, never a rounding. A value that
//! serializes to nothing (`None`, `()`) stores no attribute, and an absent attribute reads as what
//! `null` deserializes to (`None`), or is an error. Such a field cannot be a key. Its typed handle is a
//! `Field<M, Serde<T>>` ([`Serde`](super::Serde)), so that its operands are stored the same way.
//!
//! ```
//! use dynomodel::{convert::serde as adapter, AttributeValue};
//! use std::collections::BTreeMap;
//! let scores = BTreeMap::from([("ada".to_owned(), vec![1.5, 2.0])]);
//! let stored = adapter::to_attribute(&scores)?.unwrap();
//! assert_eq!(stored.to_string(), r#"{"M":{"ada":{"L":[{"N":"1.5"},{"N":"2"}]}}}"#);
//! assert_eq!(adapter::from_attribute::<BTreeMap<String, Vec<f64>>>(stored)?, scores);
//! # Ok::<(), dynomodel::ConversionError>(())
//! ```

use ::serde::de::DeserializeOwned;
use ::serde::Serialize;

use super::json_value::{from_attribute_value, to_attribute_value};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::value::AttributeValue;

/// A field type the adapter handles: every `Serialize + DeserializeOwned` type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored through serde",
    label = "`#[dynomodel(serde)]` needs `Serialize + DeserializeOwned`",
    note = "derive `serde::Serialize` and `serde::Deserialize` for the type"
)]
pub trait SerdeField: Sized {
    /// The value as a DynamoDB value, or `None` for no attribute.
    fn to_serde(&self) -> Result<Option<AttributeValue>, ConversionError>;
    /// The value from a DynamoDB value.
    fn from_serde(value: AttributeValue) -> Result<Self, ConversionError>;
    /// The value of an absent attribute: what `null` deserializes to, or an error.
    fn serde_missing() -> Result<Self, ConversionError>;
}

/// What a serde type expects, for error messages.
pub(crate) fn expected<T>() -> String {
    format!(
        "a value of type `{}` (through serde)",
        std::any::type_name::<T>()
    )
}

/// `value` as JSON; `None` when it serializes to `null`.
pub(crate) fn to_json<T: Serialize>(
    value: &T,
) -> Result<Option<serde_json::Value>, ConversionError> {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Null) => Ok(None),
        Ok(json) => Ok(Some(json)),
        Err(e) => Err(ConversionError::new(expected::<T>(), e.to_string())),
    }
}

/// `json` as a `T`.
pub(crate) fn from_json<T: DeserializeOwned>(
    json: serde_json::Value,
) -> Result<T, ConversionError> {
    serde_json::from_value(json).map_err(|e| ConversionError::new(expected::<T>(), e.to_string()))
}

/// An absent attribute: what `null` deserializes to (`None` for an `Option`), or an error.
pub(crate) fn missing<T: DeserializeOwned>() -> Result<T, ConversionError> {
    serde_json::from_value(serde_json::Value::Null)
        .map_err(|_| ConversionError::missing(expected::<T>()))
}

impl<T: Serialize + DeserializeOwned> SerdeField for T {
    fn to_serde(&self) -> Result<Option<AttributeValue>, ConversionError> {
        to_json(self)?.as_ref().map(to_attribute_value).transpose()
    }

    fn from_serde(value: AttributeValue) -> Result<Self, ConversionError> {
        from_json(from_attribute_value(value)?)
    }

    fn serde_missing() -> Result<Self, ConversionError> {
        missing()
    }
}

/// Writes a field through serde.
pub fn to_attribute<T: SerdeField>(value: &T) -> Result<Option<AttributeValue>, ConversionError> {
    value.to_serde()
}

/// Reads a field through serde.
pub fn from_attribute<T: SerdeField>(value: AttributeValue) -> Result<T, ConversionError> {
    T::from_serde(value)
}

/// Reads an absent field.
pub fn from_missing<T: SerdeField>() -> Result<T, ConversionError> {
    T::serde_missing()
}

/// Implemented by no type: a serde or json field is never a key (the derive reports it first).
#[diagnostic::on_unimplemented(
    message = "a field stored through `#[dynomodel(serde)]` or `#[dynomodel(json)]` cannot be a key",
    label = "keys are declared S, N or B"
)]
pub trait NeverAKey {}

/// The key type of a serde field: does not compile (see [`NeverAKey`]).
pub fn key_type<T: NeverAKey>() -> ScalarAttributeType {
    ScalarAttributeType::S
}
