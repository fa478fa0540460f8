//! `uuid::Uuid` (cargo feature `uuid`): stored as its hyphenated lowercase text (S), so it can be a
//! key; reading accepts any form `Uuid::parse_str` does.
//!
//! ```
//! use dynomodel::{Attribute, AttributeValue};
//! let id = uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8);
//! let stored = id.to_attribute()?.unwrap();
//! assert_eq!(stored, AttributeValue::S("67e55044-10b1-426f-9247-bb680e5fe0c8".to_owned()));
//! assert_eq!(uuid::Uuid::from_attribute(stored)?, id);
//! # Ok::<(), dynomodel::ConversionError>(())
//! ```

use uuid::Uuid;

use super::{mismatch, Attribute, KeyAttribute};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::expression::FieldValue;
use crate::value::AttributeValue;

impl Attribute for Uuid {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        Ok(Some(AttributeValue::S(self.hyphenated().to_string())))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::S(text) => Uuid::parse_str(&text)
                .map_err(|_| ConversionError::new(Self::expected(), format!("S {text:?}"))),
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        "a UUID string".to_owned()
    }
}

impl KeyAttribute for Uuid {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::S;
}

impl FieldValue for Uuid {
    type Value = Self;
}
