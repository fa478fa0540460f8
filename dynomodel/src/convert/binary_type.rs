//! Binary data: the [`Binary`] newtype (B) and the [`binary`] adapter the derive uses for `Vec<u8>`
//! fields.

use std::ops::Deref;

use super::{mismatch, Attribute, KeyAttribute};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::value::AttributeValue;

/// Bytes stored as DynamoDB's binary type B (a plain `Vec<u8>` is a list of numbers, L).
///
/// Usable as a key and, in a `HashSet`/`BTreeSet`, as a binary set (BS). `#[derive(Model)]` fields of
/// type `Vec<u8>` are stored as B without this wrapper (see [`binary`]).
///
/// ```
/// use dynomodel::{Attribute, AttributeValue, convert::Binary};
/// let stored = Binary::from(vec![1, 2, 3]).to_attribute().unwrap();
/// assert_eq!(stored, Some(AttributeValue::B(vec![1, 2, 3])));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Binary(pub Vec<u8>);

impl Binary {
    /// The bytes.
    pub fn into_inner(self) -> Vec<u8> {
        self.0
    }
}

impl From<Vec<u8>> for Binary {
    fn from(bytes: Vec<u8>) -> Self {
        Binary(bytes)
    }
}

impl From<&[u8]> for Binary {
    fn from(bytes: &[u8]) -> Self {
        Binary(bytes.to_vec())
    }
}

impl From<Binary> for Vec<u8> {
    fn from(binary: Binary) -> Self {
        binary.0
    }
}

impl Deref for Binary {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for Binary {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Attribute for Binary {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        Ok(Some(AttributeValue::B(self.0.clone())))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::B(bytes) => Ok(Binary(bytes)),
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        "a binary".to_owned()
    }
}

impl KeyAttribute for Binary {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::B;
}

/// The adapter that stores `Vec<u8>` and `Option<Vec<u8>>` fields as B.
///
/// `#[derive(Model)]` routes fields whose type is literally `Vec<u8>` or `Option<Vec<u8>>` through it
/// (the macro sees only tokens, so a type alias for `Vec<u8>` stays a list). The functions mirror
/// [`Attribute`]'s methods, which is the shape of every field adapter.
pub mod binary {
    use super::Binary;
    use crate::backend::ScalarAttributeType;
    use crate::convert::Attribute;
    use crate::error::ConversionError;
    use crate::value::AttributeValue;

    /// A field type the adapter handles: `Vec<u8>` or `Option<Vec<u8>>`.
    pub trait BinaryField: Sized {
        /// The value as an attribute, or `None` for no attribute.
        fn to_binary(&self) -> Result<Option<AttributeValue>, ConversionError>;
        /// The value from an attribute.
        fn from_binary(value: AttributeValue) -> Result<Self, ConversionError>;
        /// The value of an absent attribute.
        fn binary_missing() -> Result<Self, ConversionError>;
    }

    /// A field type that may be a key: `Vec<u8>`.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a key attribute",
        label = "key attributes are always present",
        note = "a binary key is a Vec<u8>, not an Option"
    )]
    pub trait BinaryKey: BinaryField {}

    impl BinaryField for Vec<u8> {
        fn to_binary(&self) -> Result<Option<AttributeValue>, ConversionError> {
            Ok(Some(AttributeValue::B(self.clone())))
        }

        fn from_binary(value: AttributeValue) -> Result<Self, ConversionError> {
            Binary::from_attribute(value).map(Binary::into_inner)
        }

        fn binary_missing() -> Result<Self, ConversionError> {
            Binary::from_missing().map(Binary::into_inner)
        }
    }

    impl BinaryKey for Vec<u8> {}

    impl BinaryField for Option<Vec<u8>> {
        fn to_binary(&self) -> Result<Option<AttributeValue>, ConversionError> {
            Ok(self.clone().map(AttributeValue::B))
        }

        fn from_binary(value: AttributeValue) -> Result<Self, ConversionError> {
            Option::<Binary>::from_attribute(value).map(|b| b.map(Binary::into_inner))
        }

        fn binary_missing() -> Result<Self, ConversionError> {
            Ok(None)
        }
    }

    /// Writes a binary field.
    pub fn to_attribute<T: BinaryField>(
        value: &T,
    ) -> Result<Option<AttributeValue>, ConversionError> {
        value.to_binary()
    }

    /// Reads a binary field.
    pub fn from_attribute<T: BinaryField>(value: AttributeValue) -> Result<T, ConversionError> {
        T::from_binary(value)
    }

    /// Reads an absent binary field.
    pub fn from_missing<T: BinaryField>() -> Result<T, ConversionError> {
        T::binary_missing()
    }

    /// The key type of a binary key field (B); does not compile for `Option<Vec<u8>>`.
    pub fn key_type<T: BinaryKey>() -> ScalarAttributeType {
        ScalarAttributeType::B
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_round_trips_as_b() {
        let value = Binary(vec![0, 255, 7]);
        let stored = value.to_attribute().unwrap().unwrap();
        assert_eq!(stored, AttributeValue::B(vec![0, 255, 7]));
        assert_eq!(Binary::from_attribute(stored).unwrap(), value);
        let err = Binary::from_attribute(AttributeValue::S("x".into())).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("a binary", "S")
        );
    }

    #[test]
    fn adapter_stores_vec_u8_as_b() {
        let bytes = vec![1u8, 2];
        assert_eq!(
            binary::to_attribute(&bytes).unwrap(),
            Some(AttributeValue::B(vec![1, 2]))
        );
        assert_eq!(
            binary::from_attribute::<Vec<u8>>(AttributeValue::B(vec![3])).unwrap(),
            vec![3]
        );
        assert!(binary::from_missing::<Vec<u8>>().is_err());
        assert_eq!(binary::from_missing::<Option<Vec<u8>>>().unwrap(), None);
        assert_eq!(binary::to_attribute(&None::<Vec<u8>>).unwrap(), None);
        assert_eq!(
            binary::from_attribute::<Option<Vec<u8>>>(AttributeValue::Null).unwrap(),
            None
        );
        let err = binary::from_attribute::<Vec<u8>>(AttributeValue::L(vec![])).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("a binary", "L")
        );
        assert_eq!(binary::key_type::<Vec<u8>>(), ScalarAttributeType::B);
    }
}
