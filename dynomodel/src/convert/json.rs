//! The `json` field adapter: `#[dynomodel(json)]` stores any `Serialize + DeserializeOwned` type as
//! one JSON string (S), for values read and written whole that expressions need not reach into (and
//! for documents deeper than DynamoDB's 32 levels of nesting).
//!
//! The text is `serde_json::to_string`'s (a struct's fields in declaration order), so a comparison
//! with a value written the same way matches. A value that serializes to `null` (`None`) stores no
//! attribute; an absent attribute reads as what
//! `null` deserializes to, or is an error. Such a field cannot be a key. Its typed handle is a
//! `Field<M, Json<T>>` ([`Json`](super::Json)), so that comparison operands are JSON strings too.
//!
//! ```
//! use dynomodel::{convert::json, AttributeValue};
//! let tags = vec!["a".to_owned(), "b".to_owned()];
//! let stored = json::to_attribute(&tags)?;
//! assert_eq!(stored, Some(AttributeValue::S(r#"["a","b"]"#.to_owned())));
//! assert_eq!(json::from_attribute::<Vec<String>>(stored.unwrap())?, tags);
//! # Ok::<(), dynomodel::ConversionError>(())
//! ```

use ::serde::de::DeserializeOwned;
use ::serde::Serialize;

use super::serde::{expected, missing, NeverAKey};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::value::AttributeValue;

/// A field type the adapter handles: every `Serialize + DeserializeOwned` type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as JSON",
    label = "`#[dynomodel(json)]` needs `Serialize + DeserializeOwned`",
    note = "derive `serde::Serialize` and `serde::Deserialize` for the type"
)]
pub trait JsonField: Sized {
    /// The value as a JSON string, or `None` for no attribute.
    fn to_json(&self) -> Result<Option<AttributeValue>, ConversionError>;
    /// The value from a JSON string.
    fn from_json(value: AttributeValue) -> Result<Self, ConversionError>;
    /// The value of an absent attribute: what `null` deserializes to, or an error.
    fn json_missing() -> Result<Self, ConversionError>;
}

impl<T: Serialize + DeserializeOwned> JsonField for T {
    fn to_json(&self) -> Result<Option<AttributeValue>, ConversionError> {
        // Straight to text, not through `serde_json::Value`, so a struct's fields keep their order.
        match serde_json::to_string(self) {
            Ok(text) if text == "null" => Ok(None),
            Ok(text) => Ok(Some(AttributeValue::S(text))),
            Err(e) => Err(ConversionError::new(expected::<T>(), e.to_string())),
        }
    }

    fn from_json(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::S(text) => serde_json::from_str(&text).map_err(|e| {
                ConversionError::new(
                    format!("{} as a JSON string", expected::<T>()),
                    e.to_string(),
                )
            }),
            other => Err(ConversionError::new(
                format!("{} as a JSON string", expected::<T>()),
                other.type_name(),
            )),
        }
    }

    fn json_missing() -> Result<Self, ConversionError> {
        missing()
    }
}

/// Writes a field as a JSON string.
pub fn to_attribute<T: JsonField>(value: &T) -> Result<Option<AttributeValue>, ConversionError> {
    value.to_json()
}

/// Reads a field from a JSON string.
pub fn from_attribute<T: JsonField>(value: AttributeValue) -> Result<T, ConversionError> {
    T::from_json(value)
}

/// Reads an absent field.
pub fn from_missing<T: JsonField>() -> Result<T, ConversionError> {
    T::json_missing()
}

/// The key type of a json field: does not compile (see [`NeverAKey`]).
pub fn key_type<T: NeverAKey>() -> ScalarAttributeType {
    ScalarAttributeType::S
}
