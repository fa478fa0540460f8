//! Conversions between Rust values and DynamoDB attribute values.
//!
//! [`Attribute`] is implemented here for the standard types; `#[derive(Model)]` and `#[derive(Document)]`
//! implement it for user structs (stored as maps).

use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::value::AttributeValue;

/// A Rust type that is stored as one DynamoDB attribute.
///
/// `to_attribute` returns `None` when nothing should be stored (an `Option` that is `None`, an empty set,
/// which DynamoDB cannot hold); `from_missing` says what an absent attribute reads as.
pub trait Attribute: Sized {
    /// Converts to an attribute value, or `None` to store no attribute at all.
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError>;

    /// Converts from an attribute value.
    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError>;

    /// The value of an absent attribute; an error unless the type has a natural "nothing".
    fn from_missing() -> Result<Self, ConversionError> {
        Err(ConversionError::missing(Self::expected()))
    }

    /// What this type expects, for error messages, e.g. `"a string"`.
    fn expected() -> String;
}

/// A type that may be a key attribute: stored as one of DynamoDB's scalar key types S, N or B.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a key attribute: DynamoDB keys are strings, numbers or binaries",
    label = "key attributes must be stored as S, N or B",
    note = "use a String, an integer, Vec<u8>, a Decimal or a Number (or a date stored as a string or epoch seconds)"
)]
pub trait KeyAttribute: Attribute {
    /// The key's DynamoDB scalar type.
    const SCALAR_TYPE: ScalarAttributeType;
}
