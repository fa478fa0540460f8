//! Scalars: strings, booleans, integers, floats, [`Number`] and [`AttributeValue`] itself.

use super::{mismatch, Attribute, KeyAttribute};
use crate::backend::{AttributeRef, AttributeSink, ScalarAttributeType};
use crate::error::ConversionError;
use crate::value::{AttributeValue, Number};

impl Attribute for String {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        Ok(Some(AttributeValue::S(self.clone())))
    }

    #[inline]
    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::S(s) => Ok(s),
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        "a string".to_owned()
    }

    /// Borrowed: a sink that only reads the string copies nothing.
    fn write_attribute(
        &self,
        name: &'static str,
        sink: &mut dyn AttributeSink,
    ) -> Result<(), ConversionError> {
        sink.insert_ref(name, AttributeRef::S(self));
        Ok(())
    }
}

impl KeyAttribute for String {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::S;

    fn as_str(&self) -> Option<&str> {
        Some(self)
    }
}

impl Attribute for bool {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        Ok(Some(AttributeValue::Bool(*self)))
    }

    #[inline]
    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::Bool(b) => {
                // Nothing to drop (see `copied_out`).
                copied_out(value);
                Ok(b)
            }
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        "a boolean".to_owned()
    }
}

/// Ends a value whose payload (a `bool`, a [`Number`]) was copied out of it and which holds
/// nothing else: forgetting it leaks nothing, and spares the decoder the out-of-line drop of an
/// `AttributeValue` (~23 instructions) that the compiler leaves after every such read.
#[inline(always)]
fn copied_out(value: AttributeValue) {
    debug_assert!(matches!(
        value,
        AttributeValue::Bool(_) | AttributeValue::N(_)
    ));
    std::mem::forget(value);
}

/// Reads an integer of type `T`: the number must be whole and within `T`'s range. Most stored
/// integers are a sign and a magnitude below 2^64, which were parsed once into the number and are
/// only range-checked here; the others go through `u128` arithmetic, out of line. Always inline:
/// a large decoder left it a call, its 72-byte `Result` returned through memory.
#[inline(always)]
fn integer_from_attribute<T>(value: AttributeValue) -> Result<T, ConversionError>
where
    T: Attribute + TryFrom<i128> + TryFrom<u128> + TryFrom<u64>,
{
    let n = match value {
        AttributeValue::N(n) => {
            copied_out(value);
            n
        }
        other => return Err(mismatch::<T>(&other)),
    };
    let Some((negative, magnitude)) = n.small_integer() else {
        return wide_integer(&n);
    };
    // Exact either way: a `u64` magnitude, negated in `i128`; a value `T` cannot hold is out of
    // its range, as the general path finds it.
    let converted = if negative {
        T::try_from(-i128::from(magnitude)).ok()
    } else {
        T::try_from(magnitude).ok()
    };
    converted.ok_or_else(|| out_of_range::<T>(&n))
}

/// [`integer_from_attribute`] of a number that is not an integer of at most 64 bits' magnitude
/// (a fraction, or an integer up to 38 digits).
#[inline(never)]
fn wide_integer<T>(n: &Number) -> Result<T, ConversionError>
where
    T: Attribute + TryFrom<i128> + TryFrom<u128>,
{
    let converted = if n.is_negative() {
        n.to_i128().and_then(|i| T::try_from(i).ok())
    } else {
        n.to_u128().and_then(|u| T::try_from(u).ok())
    };
    converted.ok_or_else(|| out_of_range::<T>(n))
}

/// The error of a number that is not a `T` (a fraction, or beyond `T`'s range).
#[cold]
fn out_of_range<T: Attribute>(n: &Number) -> ConversionError {
    ConversionError::new(T::expected(), format!("N {n}"))
}

/// Integers up to 64 bits always fit a DynamoDB number.
macro_rules! small_integers {
    ($($t:ty),*) => {$(
        impl Attribute for $t {
            fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
                Ok(Some(AttributeValue::N(Number::from(*self))))
            }

            #[inline]
            fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
                integer_from_attribute(value)
            }

            fn expected() -> String {
                concat!("a number (", stringify!($t), ")").to_owned()
            }
        }

        impl KeyAttribute for $t {
            const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::N;
        }
    )*};
}
small_integers!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// 128-bit integers may exceed DynamoDB's 38 digits; writing such a value is an error, never a rounding.
macro_rules! wide_integers {
    ($($t:ty),*) => {$(
        impl Attribute for $t {
            fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
                Number::try_from(*self).map(|n| Some(AttributeValue::N(n))).map_err(|_| {
                    ConversionError::new(
                        concat!("a number of at most 38 digits (", stringify!($t), ")"),
                        self.to_string(),
                    )
                })
            }

            #[inline]
            fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
                integer_from_attribute(value)
            }

            fn expected() -> String {
                concat!("a number (", stringify!($t), ")").to_owned()
            }
        }

        impl KeyAttribute for $t {
            const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::N;
        }
    )*};
}
wide_integers!(i128, u128);

/// Floats are written through their shortest round-tripping decimal text (`{:e}` of the float's own
/// width, so `0.1f32` is stored as 0.1, not 0.100000001490116…). NaN and infinities have no DynamoDB
/// representation.
macro_rules! floats {
    ($($t:ty),*) => {$(
        impl Attribute for $t {
            fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
                let not_finite = || {
                    ConversionError::new(
                        concat!("a finite number (", stringify!($t), ")"),
                        self.to_string(),
                    )
                };
                if !self.is_finite() {
                    return Err(not_finite());
                }
                // Beyond DynamoDB's range (above 9.99E+125 or below 1E-130 in magnitude).
                Number::parse(&format!("{self:e}"))
                    .map(|n| Some(AttributeValue::N(n)))
                    .map_err(|_| {
                        ConversionError::new(
                            concat!("a number within DynamoDB's range (", stringify!($t), ")"),
                            self.to_string(),
                        )
                    })
            }

            #[inline]
            fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
                match value {
                    AttributeValue::N(n) => {
                        copied_out(value);
                        let f = n.to_f64() as $t;
                        if f.is_finite() {
                            Ok(f)
                        } else {
                            Err(out_of_range::<Self>(&n))
                        }
                    }
                    other => Err(mismatch::<Self>(&other)),
                }
            }

            fn expected() -> String {
                concat!("a number (", stringify!($t), ")").to_owned()
            }
        }
    )*};
}
floats!(f32, f64);

impl Attribute for Number {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        Ok(Some(AttributeValue::N(*self)))
    }

    #[inline]
    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::N(n) => {
                copied_out(value);
                Ok(n)
            }
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        "a number".to_owned()
    }
}

impl KeyAttribute for Number {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::N;
}

/// The identity, for attributes whose type varies from item to item.
impl Attribute for AttributeValue {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        Ok(Some(self.clone()))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        Ok(value)
    }

    fn expected() -> String {
        "any value".to_owned()
    }
}

/// Boxes are transparent, so recursive documents (`Option<Box<Node>>`) can be stored.
impl<T: Attribute> Attribute for Box<T> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        T::to_attribute(self)
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        T::from_attribute(value).map(Box::new)
    }

    fn from_missing() -> Result<Self, ConversionError> {
        T::from_missing().map(Box::new)
    }

    fn expected() -> String {
        T::expected()
    }

    fn write_attribute(
        &self,
        name: &'static str,
        sink: &mut dyn AttributeSink,
    ) -> Result<(), ConversionError> {
        T::write_attribute(self, name, sink)
    }
}

impl<T: KeyAttribute> KeyAttribute for Box<T> {
    const SCALAR_TYPE: ScalarAttributeType = T::SCALAR_TYPE;

    fn as_str(&self) -> Option<&str> {
        T::as_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.parse().expect("valid number"))
    }

    fn round_trip<T: Attribute + PartialEq + std::fmt::Debug>(value: T) {
        let stored = value.to_attribute().expect("writes").expect("present");
        assert_eq!(T::from_attribute(stored).expect("reads"), value);
    }

    #[test]
    fn strings_and_booleans_round_trip() {
        round_trip(String::from("héllo"));
        round_trip(String::new());
        round_trip(true);
        round_trip(false);
        assert_eq!(
            "x".to_owned().to_attribute().unwrap(),
            Some(AttributeValue::S("x".into()))
        );
        assert_eq!(
            true.to_attribute().unwrap(),
            Some(AttributeValue::Bool(true))
        );
    }

    #[test]
    fn integers_round_trip_at_their_limits() {
        round_trip(i8::MIN);
        round_trip(i8::MAX);
        round_trip(u8::MAX);
        round_trip(i16::MIN);
        round_trip(u16::MAX);
        round_trip(i32::MIN);
        round_trip(u32::MAX);
        round_trip(i64::MIN);
        round_trip(i64::MAX);
        round_trip(u64::MAX);
        round_trip(isize::MIN);
        round_trip(usize::MAX);
        round_trip(-(10i128.pow(38) - 1));
        round_trip(10u128.pow(38) - 1);
        assert_eq!(7i64.to_attribute().unwrap(), Some(n("7")));
    }

    #[test]
    fn integers_reject_out_of_range_and_fractions() {
        let err = u8::from_attribute(n("256")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "attribute `<value>`: expected a number (u8), found N 256"
        );
        let err = u32::from_attribute(n("-1")).unwrap_err();
        assert_eq!(err.expected, "a number (u32)");
        let err = i32::from_attribute(n("1.5")).unwrap_err();
        assert_eq!(err.found, "N 1.5");
        let err = i64::from_attribute(n("1E30")).unwrap_err();
        assert_eq!(err.expected, "a number (i64)");
        assert_eq!(i64::from_attribute(n("1E3")).unwrap(), 1000);
    }

    /// An integer field reads what the general `u128` path reads, value or error (its text and
    /// its type), for every integer type, around the edges of each and of `u64`.
    fn reads_as_the_general_path<T>(n: Number)
    where
        T: Attribute + TryFrom<i128> + TryFrom<u128> + TryFrom<u64> + PartialEq + std::fmt::Debug,
    {
        let read = T::from_attribute(AttributeValue::N(n)).map_err(|e| e.to_string());
        let general = wide_integer::<T>(&n).map_err(|e| e.to_string());
        assert_eq!(read, general, "{n}");
    }

    fn reads_as_the_general_path_for_every_type(n: Number) {
        reads_as_the_general_path::<i8>(n);
        reads_as_the_general_path::<i16>(n);
        reads_as_the_general_path::<i32>(n);
        reads_as_the_general_path::<i64>(n);
        reads_as_the_general_path::<isize>(n);
        reads_as_the_general_path::<i128>(n);
        reads_as_the_general_path::<u8>(n);
        reads_as_the_general_path::<u16>(n);
        reads_as_the_general_path::<u32>(n);
        reads_as_the_general_path::<u64>(n);
        reads_as_the_general_path::<usize>(n);
        reads_as_the_general_path::<u128>(n);
    }

    #[test]
    fn integers_read_as_the_general_path_at_every_types_edges() {
        let edges: [i128; 12] = [
            i8::MIN.into(),
            u8::MAX.into(),
            i16::MIN.into(),
            u16::MAX.into(),
            i32::MIN.into(),
            u32::MAX.into(),
            i64::MIN.into(),
            i64::MAX.into(),
            u64::MAX.into(),
            10i128.pow(19),
            10i128.pow(37),
            0,
        ];
        for edge in edges {
            for delta in -2..=2 {
                for value in [edge + delta, -(edge + delta)] {
                    if let Ok(n) = Number::try_from(value) {
                        reads_as_the_general_path_for_every_type(n);
                    }
                }
            }
        }
        for text in [
            "1.5", "-0.5", "1E19", "-1E19", "12E18", "1E20", "1E-130", "99E37",
        ] {
            reads_as_the_general_path_for_every_type(text.parse().unwrap());
        }
    }

    proptest::proptest! {
        #[test]
        fn integers_read_as_the_general_path(
            negative: bool,
            coefficient in proptest::prop_oneof![
                0u128..1000,
                u128::from(u64::MAX) / 10 - 10..u128::from(u64::MAX) / 10 + 10,
                u128::from(u64::MAX) - 1000..u128::from(u64::MAX) + 1000,
                0u128..10u128.pow(38),
            ],
            exponent in -3i32..40,
        ) {
            if let Ok(n) = Number::try_from_parts(negative, coefficient, exponent) {
                reads_as_the_general_path_for_every_type(n);
            }
        }

        /// A float field reads the nearest float, through the number's text as before.
        #[test]
        fn floats_read_as_the_text_parses(
            negative: bool,
            coefficient in 0u128..10u128.pow(38),
            exponent in -140i32..126,
        ) {
            if let Ok(n) = Number::try_from_parts(negative, coefficient, exponent) {
                let text = n.to_string();
                match f64::from_attribute(AttributeValue::N(n)) {
                    Ok(f) => proptest::prop_assert_eq!(f.to_bits(), text.parse::<f64>().unwrap().to_bits()),
                    Err(e) => proptest::prop_assert_eq!(e.found, format!("N {n}")),
                }
                let narrow = text.parse::<f64>().unwrap() as f32;
                match f32::from_attribute(AttributeValue::N(n)) {
                    Ok(f) => proptest::prop_assert_eq!(f.to_bits(), narrow.to_bits()),
                    Err(e) => {
                        proptest::prop_assert!(!narrow.is_finite());
                        proptest::prop_assert_eq!(e.to_string(), format!("attribute `<value>`: expected a number (f32), found N {n}"));
                    }
                }
            }
        }
    }

    #[test]
    fn wide_integers_reject_more_than_38_digits() {
        let err = u128::MAX.to_attribute().unwrap_err();
        assert_eq!(err.expected, "a number of at most 38 digits (u128)");
        assert_eq!(err.found, u128::MAX.to_string());
        assert!(i128::MIN.to_attribute().is_err());
        assert!(u128::from_attribute(n("-1")).is_err());
    }

    #[test]
    fn wrong_types_name_the_dynamodb_type() {
        let err = i32::from_attribute(AttributeValue::S("x".into()))
            .unwrap_err()
            .at("likes");
        assert_eq!(
            err.to_string(),
            "attribute `likes`: expected a number (i32), found S"
        );
        let err = String::from_attribute(n("1")).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("a string", "N")
        );
        let err = bool::from_attribute(AttributeValue::Null).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("a boolean", "NULL")
        );
        let err = f64::from_attribute(AttributeValue::Bool(true)).unwrap_err();
        assert_eq!(err.found, "BOOL");
    }

    #[test]
    fn missing_scalars_are_errors() {
        let err = String::from_missing().unwrap_err().at("name");
        assert_eq!(
            err.to_string(),
            "attribute `name`: expected a string, found nothing (the attribute is missing)"
        );
    }

    #[test]
    fn floats_round_trip_exactly_and_reject_non_finite() {
        round_trip(0.1f64);
        round_trip(-1.5e100f64);
        let err = 1e300f64.to_attribute().unwrap_err();
        assert_eq!(err.expected, "a number within DynamoDB's range (f64)");
        round_trip(0.1f32);
        round_trip(f32::MAX);
        assert_eq!(0.1f32.to_attribute().unwrap(), Some(n("0.1")));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = bad.to_attribute().unwrap_err();
            assert_eq!(err.expected, "a finite number (f64)");
        }
        assert!(f32::NAN.to_attribute().is_err());
        // Beyond f32's range: an error rather than infinity.
        let err = f32::from_attribute(n("1E100")).unwrap_err();
        assert_eq!(err.expected, "a number (f32)");
    }

    #[test]
    fn numbers_values_and_boxes_are_transparent() {
        round_trip(Number::from(12));
        round_trip(AttributeValue::Ss(vec!["a".into()]));
        round_trip(Box::new(5u8));
        assert_eq!(Box::<Option<u8>>::from_missing().unwrap(), Box::new(None));
        let err = Number::from_attribute(AttributeValue::S("1".into())).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("a number", "S")
        );
    }
}
