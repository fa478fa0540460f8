//! `rust_decimal::Decimal`, stored exactly as N.
//!
//! Every `Decimal` (at most 28 digits) fits a DynamoDB number (38); the way back can fail, for numbers
//! with more digits than a `Decimal` holds, and then it is an error rather than a rounding.

use rust_decimal::Decimal;

use super::{mismatch, Attribute, KeyAttribute};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::value::{AttributeValue, Number};

impl Attribute for Decimal {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        // `Decimal`'s `Display` is plain decimal text, which is DynamoDB's number grammar.
        Number::parse(&self.to_string())
            .map(|n| Some(AttributeValue::N(n)))
            .map_err(|e| ConversionError::new("a number (Decimal)", e.to_string()))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::N(n) => Decimal::from_str_exact(&n.to_string())
                .map(|d| d.normalize())
                .map_err(|_| ConversionError::new(Self::expected(), format!("N {n}"))),
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        "a number (Decimal)".to_owned()
    }
}

impl KeyAttribute for Decimal {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::N;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn dec(text: &str) -> Decimal {
        Decimal::from_str(text).expect("valid decimal")
    }

    #[test]
    fn decimals_round_trip_exactly() {
        for text in [
            "0",
            "1.5",
            "-123.456",
            "0.0000000000000000000000000001",
            "79228162514264337593543950335",
        ] {
            let value = dec(text);
            let stored = value.to_attribute().unwrap().unwrap();
            assert_eq!(stored, AttributeValue::N(text.parse().unwrap()), "{text}");
            assert_eq!(Decimal::from_attribute(stored).unwrap(), value, "{text}");
        }
    }

    #[test]
    fn trailing_zeros_are_not_significant() {
        let stored = dec("1.50").to_attribute().unwrap().unwrap();
        assert_eq!(stored, AttributeValue::N("1.5".parse().unwrap()));
        assert_eq!(Decimal::from_attribute(stored).unwrap(), dec("1.5"));
    }

    #[test]
    fn numbers_beyond_decimal_are_errors() {
        let huge = AttributeValue::N("1E40".parse().unwrap());
        let err = Decimal::from_attribute(huge).unwrap_err().at("price");
        assert_eq!(
            err.to_string(),
            "attribute `price`: expected a number (Decimal), found N 10000000000000000000000000000000000000000"
        );
        let precise = AttributeValue::N("1.2345678901234567890123456789012345".parse().unwrap());
        assert!(Decimal::from_attribute(precise).is_err());
        let err = Decimal::from_attribute(AttributeValue::S("1".into())).unwrap_err();
        assert_eq!(err.found, "S");
    }
}
