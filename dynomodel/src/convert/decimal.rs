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
            AttributeValue::N(n) => {
                decimal(&n).ok_or_else(|| ConversionError::new(Self::expected(), format!("N {n}")))
            }
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        "a number (Decimal)".to_owned()
    }
}

/// The number as a `Decimal` when it holds it exactly (a mantissa of at most 96 bits and a scale of
/// at most 28), from its parts: what parsing its text with `Decimal::from_str_exact` gives, without
/// the text.
fn decimal(n: &Number) -> Option<Decimal> {
    let (negative, coefficient, exponent) = n.parts();
    // At most 38 digits: within `i128`.
    let mut mantissa = i128::try_from(coefficient).ok()?;
    let scale = match u32::try_from(exponent) {
        Ok(exponent) => {
            mantissa = mantissa.checked_mul(10i128.checked_pow(exponent)?)?;
            0
        }
        Err(_) => exponent.unsigned_abs(),
    };
    if negative {
        mantissa = -mantissa;
    }
    Decimal::try_from_i128_with_scale(mantissa, scale)
        .ok()
        .map(|d| d.normalize())
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

    proptest::proptest! {
        /// A number reads as the `Decimal` its text parses to exactly, or fails where that
        /// parse fails: around `Decimal`'s 96-bit mantissa and 28-digit scale, and beyond.
        #[test]
        fn numbers_read_as_their_text_parses(
            negative: bool,
            coefficient in proptest::prop_oneof![
                0u128..100_000,
                (1u128 << 96) - 1000..(1u128 << 96) + 1000,
                0u128..10u128.pow(38),
            ],
            exponent in proptest::prop_oneof![-32i32..32, -130i32..126],
        ) {
            if let Ok(n) = Number::try_from_parts(negative, coefficient, exponent) {
                let expected = Decimal::from_str_exact(&n.to_string()).map(|d| d.normalize());
                let read = Decimal::from_attribute(AttributeValue::N(n));
                match expected {
                    Ok(d) => proptest::prop_assert_eq!(read.unwrap(), d),
                    Err(_) => proptest::prop_assert_eq!(read.unwrap_err().found, format!("N {n}")),
                }
            }
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
