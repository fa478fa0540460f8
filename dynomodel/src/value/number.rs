//! DynamoDB's exact decimal number.
//!
//! DynamoDB numbers have up to 38 significant digits and a magnitude between 1E-130 and
//! 9.99…E+125. `rust_decimal` holds only 28 digits and `f64` is inexact, so the crate has its own type:
//! a `u128` coefficient (10^38 < 2^127) with a decimal exponent, kept in one canonical form so that
//! equality, ordering and hashing are by numeric value (`1.50 == 1.5`, `1E2 == 100`, `-0 == 0`).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// Most significant digits a DynamoDB number may have.
pub const MAX_DIGITS: u32 = 38;
/// Largest decimal exponent of the leading digit (9.99…E+125).
const MAX_ADJUSTED_EXPONENT: i64 = 125;
/// Smallest decimal exponent of the leading digit (1E-130).
const MIN_ADJUSTED_EXPONENT: i64 = -130;

/// An exact DynamoDB number.
///
/// Parsing follows DynamoDB's input grammar (`"+3"`, `".5"`, `"0001.23"`, `"1e+5"` are accepted;
/// `"NaN"`, `"Infinity"`, `" 1"`, `"0x10"` are not) and `Display` prints DynamoDB's canonical text.
///
/// ```
/// use dynomodel::Number;
/// let n: Number = "0001.500".parse().unwrap();
/// assert_eq!(n.to_string(), "1.5");
/// assert_eq!("1E2".parse::<Number>().unwrap(), Number::from(100));
/// assert!("1.0".parse::<Number>().unwrap() < "1.01".parse().unwrap());
/// assert!("NaN".parse::<Number>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Number {
    // Invariants: `coefficient` has no trailing zero digit and at most 38 digits; zero is
    // `{ negative: false, coefficient: 0, exponent: 0 }`; the magnitude is within DynamoDB's range.
    negative: bool,
    coefficient: u128,
    exponent: i32,
}

/// Why a string or a computation is not a valid DynamoDB number. `Display` gives DynamoDB's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    /// The text is not a number at all (`NaN`, `abc`, `""`).
    #[error("The parameter cannot be converted to a numeric value{}", if .0.is_empty() { String::new() } else { format!(": {}", .0) })]
    Invalid(String),
    /// More than 38 significant digits.
    #[error("Attempting to store more than 38 significant digits in a Number")]
    TooManyDigits,
    /// Magnitude above 9.99…E+125.
    #[error(
        "Number overflow. Attempting to store a number with magnitude larger than supported range"
    )]
    Overflow,
    /// Non-zero magnitude below 1E-130.
    #[error("Number underflow. Attempting to store a number with magnitude smaller than supported range")]
    Underflow,
}

impl Number {
    /// Zero.
    pub const ZERO: Number = Number {
        negative: false,
        coefficient: 0,
        exponent: 0,
    };

    /// Builds a number from sign, coefficient and exponent (`coefficient × 10^exponent`), normalising it
    /// and checking DynamoDB's digit and range limits.
    fn from_parts(
        negative: bool,
        mut coefficient: u128,
        exponent: i64,
    ) -> Result<Number, NumberError> {
        if coefficient == 0 {
            return Ok(Number::ZERO);
        }
        let mut exponent = exponent;
        while coefficient.is_multiple_of(10) {
            coefficient /= 10;
            exponent += 1;
        }
        check_limits(i64::from(digit_count(coefficient)), exponent)?;
        Ok(Number {
            negative,
            coefficient,
            exponent: exponent as i32,
        })
    }

    /// Parses DynamoDB's number grammar: `[+-]digits[.digits][(e|E)[+-]digits]`, where either the integer
    /// or the fraction part may be empty but not both.
    pub fn parse(text: &str) -> Result<Number, NumberError> {
        let invalid = || NumberError::Invalid(text.to_owned());
        let bytes = text.as_bytes();
        let mut i = 0;
        let negative = match bytes.first() {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        // Significant digits only: leading zeros are skipped; trailing zeros are counted so that a long
        // run of them ("1.000…0") does not count against the 38-digit limit.
        let mut digits: Vec<u8> = Vec::new();
        let mut seen_digit = false;
        let mut seen_point = false;
        let mut fraction_digits: i64 = 0;
        while i < bytes.len() {
            match bytes[i] {
                d @ b'0'..=b'9' => {
                    seen_digit = true;
                    if seen_point {
                        fraction_digits += 1;
                    }
                    if !(digits.is_empty() && d == b'0') {
                        digits.push(d - b'0');
                    }
                }
                b'.' if !seen_point => seen_point = true,
                b'e' | b'E' => break,
                _ => return Err(invalid()),
            }
            i += 1;
        }
        if !seen_digit {
            return Err(invalid());
        }
        let mut exponent: i64 = 0;
        if i < bytes.len() {
            // bytes[i] is 'e' or 'E'.
            i += 1;
            let exponent_negative = match bytes.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            if i == bytes.len() {
                return Err(invalid());
            }
            for &b in &bytes[i..] {
                if !b.is_ascii_digit() {
                    return Err(invalid());
                }
                // Saturate: anything this large is out of range anyway (or zero).
                exponent = (exponent * 10 + i64::from(b - b'0')).min(1 << 40);
            }
            if exponent_negative {
                exponent = -exponent;
            }
        }
        while digits.last() == Some(&0) {
            digits.pop();
            exponent += 1;
        }
        if digits.is_empty() {
            return Ok(Number::ZERO);
        }
        let exponent = exponent - fraction_digits;
        // Checked before the digits are folded into a u128, which 39 or more digits would overflow.
        check_limits(digits.len() as i64, exponent)?;
        let coefficient = digits
            .iter()
            .fold(0u128, |acc, &d| acc * 10 + u128::from(d));
        Number::from_parts(negative, coefficient, exponent)
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.coefficient == 0
    }

    /// Whether this is below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The number of significant digits (0 for zero).
    pub fn significant_digits(&self) -> u32 {
        if self.coefficient == 0 {
            0
        } else {
            digit_count(self.coefficient)
        }
    }

    /// The exponent of the last significant digit: `self == coefficient × 10^exponent`.
    pub fn exponent(&self) -> i32 {
        self.exponent
    }

    /// The absolute value.
    pub fn abs(&self) -> Number {
        Number {
            negative: false,
            ..*self
        }
    }

    /// The exact sum, or an error when it needs more than 38 digits or leaves DynamoDB's range
    /// (DynamoDB never rounds).
    ///
    /// ```
    /// use dynomodel::Number;
    /// let a: Number = "0.1".parse().unwrap();
    /// let b: Number = "0.2".parse().unwrap();
    /// assert_eq!(a.checked_add(&b).unwrap().to_string(), "0.3");
    /// let big: Number = "1e50".parse().unwrap();
    /// assert!(big.checked_add(&Number::from(1)).is_err());
    /// ```
    pub fn checked_add(&self, other: &Number) -> Result<Number, NumberError> {
        if self.is_zero() {
            return Ok(*other);
        }
        if other.is_zero() {
            return Ok(*self);
        }
        let exponent = self.exponent.min(other.exponent);
        // Aligning may need more than u128: then one operand spans more than 38 digits past the other's
        // last digit, and the exact result has over 38 significant digits (its last digit stays non-zero).
        let align = |n: &Number| {
            10u128
                .checked_pow((n.exponent - exponent) as u32)
                .and_then(|scale| n.coefficient.checked_mul(scale))
                .ok_or(NumberError::TooManyDigits)
        };
        let (a, b) = (align(self)?, align(other)?);
        let (negative, coefficient) = if self.negative == other.negative {
            (
                self.negative,
                a.checked_add(b).ok_or(NumberError::TooManyDigits)?,
            )
        } else if a >= b {
            (self.negative, a - b)
        } else {
            (other.negative, b - a)
        };
        Number::from_parts(negative, coefficient, i64::from(exponent))
    }

    /// The exact difference; see [`Number::checked_add`].
    pub fn checked_sub(&self, other: &Number) -> Result<Number, NumberError> {
        self.checked_add(&-*other)
    }

    /// The value as an `i128`, if it is an integer that fits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.exponent < 0 {
            return None;
        }
        let magnitude = 10i128
            .checked_pow(self.exponent as u32)?
            .checked_mul(i128::try_from(self.coefficient).ok()?)?;
        Some(if self.negative { -magnitude } else { magnitude })
    }

    /// The value as a `u128`, if it is a non-negative integer that fits.
    pub fn to_u128(&self) -> Option<u128> {
        if self.exponent < 0 || self.negative {
            return None;
        }
        10u128
            .checked_pow(self.exponent as u32)?
            .checked_mul(self.coefficient)
    }

    /// The nearest `f64` (numbers beyond `f64`'s range become infinite; tiny ones become zero).
    pub fn to_f64(&self) -> f64 {
        let sign = if self.negative { "-" } else { "" };
        // Scientific text is short and `f64::from_str` rounds it correctly.
        format!("{sign}{}e{}", self.coefficient, self.exponent)
            .parse()
            .unwrap_or(f64::NAN)
    }

    /// Converts a finite float through its shortest round-tripping decimal text (`0.1` → `0.1`).
    pub fn from_f64(value: f64) -> Result<Number, NumberError> {
        if !value.is_finite() {
            return Err(NumberError::Invalid(value.to_string()));
        }
        Number::parse(&format!("{value:e}"))
    }
}

/// DynamoDB's limits for `digits` significant digits whose last one has decimal exponent `exponent`.
/// Range is checked before precision, as DynamoDB does.
fn check_limits(digits: i64, exponent: i64) -> Result<(), NumberError> {
    let adjusted = exponent + digits - 1;
    if adjusted > MAX_ADJUSTED_EXPONENT {
        Err(NumberError::Overflow)
    } else if adjusted < MIN_ADJUSTED_EXPONENT {
        Err(NumberError::Underflow)
    } else if digits > i64::from(MAX_DIGITS) {
        Err(NumberError::TooManyDigits)
    } else {
        Ok(())
    }
}

fn digit_count(mut n: u128) -> u32 {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

impl std::ops::Neg for Number {
    type Output = Number;

    fn neg(self) -> Number {
        if self.is_zero() {
            self
        } else {
            Number {
                negative: !self.negative,
                ..self
            }
        }
    }
}

impl Ord for Number {
    fn cmp(&self, other: &Self) -> Ordering {
        let sign = |n: &Number| {
            if n.is_zero() {
                0
            } else if n.negative {
                -1
            } else {
                1
            }
        };
        match sign(self).cmp(&sign(other)) {
            Ordering::Equal => {}
            unequal => return unequal,
        }
        if self.is_zero() {
            return Ordering::Equal;
        }
        // Same sign: compare magnitudes by leading-digit exponent, then by the digits left-aligned to
        // 38 places (10^38 fits in a u128).
        let key = |n: &Number| {
            let digits = digit_count(n.coefficient);
            let adjusted = n.exponent + digits as i32 - 1;
            (adjusted, n.coefficient * 10u128.pow(MAX_DIGITS - digits))
        };
        let magnitude = key(self).cmp(&key(other));
        if self.negative {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl FromStr for Number {
    type Err = NumberError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Number::parse(s)
    }
}

/// DynamoDB's canonical text: plain decimal notation, no exponent, no superfluous zeros.
impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        let digits = self.coefficient.to_string();
        if self.exponent >= 0 {
            f.write_str(&digits)?;
            for _ in 0..self.exponent {
                f.write_str("0")?;
            }
            return Ok(());
        }
        let point = digits.len() as i64 + i64::from(self.exponent);
        if point > 0 {
            let (int, frac) = digits.split_at(point as usize);
            write!(f, "{int}.{frac}")
        } else {
            f.write_str("0.")?;
            for _ in 0..-point {
                f.write_str("0")?;
            }
            f.write_str(&digits)
        }
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({self})")
    }
}

impl Default for Number {
    fn default() -> Self {
        Number::ZERO
    }
}

macro_rules! from_small_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            fn from(value: $t) -> Number {
                let negative = value < 0 as $t;
                let magnitude = (value as i128).unsigned_abs();
                Number::from_parts(negative, magnitude, 0).expect("a 64-bit integer fits 38 digits")
            }
        }
    )*};
}
from_small_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl TryFrom<i128> for Number {
    type Error = NumberError;

    fn try_from(value: i128) -> Result<Number, NumberError> {
        Number::from_parts(value < 0, value.unsigned_abs(), 0)
    }
}

impl TryFrom<u128> for Number {
    type Error = NumberError;

    fn try_from(value: u128) -> Result<Number, NumberError> {
        Number::from_parts(false, value, 0)
    }
}

impl TryFrom<f64> for Number {
    type Error = NumberError;

    fn try_from(value: f64) -> Result<Number, NumberError> {
        Number::from_f64(value)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn n(s: &str) -> Number {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn grammar_accepts_dynamodb_forms() {
        for (input, canonical) in [
            ("+3", "3"),
            (".5", "0.5"),
            ("5.", "5"),
            ("0001.23", "1.23"),
            ("1e+5", "100000"),
            ("1E2", "100"),
            ("-0", "0"),
            ("-0.000", "0"),
            ("1.50", "1.5"),
            ("0001.000", "1"),
            ("-12.340e-2", "-0.1234"),
            ("0e999999999999999999999", "0"),
            ("1.0000000000000000000000000000000000000000000000", "1"),
        ] {
            assert_eq!(n(input).to_string(), canonical, "{input}");
        }
    }

    #[test]
    fn grammar_rejects_non_numbers() {
        for input in [
            "",
            "NaN",
            "Infinity",
            "-Infinity",
            " 1",
            "1 ",
            "0x10",
            "1e",
            "1e+",
            "+",
            "-",
            ".",
            "1..2",
            "1.2.3",
            "e5",
            "١",
        ] {
            assert_eq!(
                Number::parse(input),
                Err(NumberError::Invalid(input.to_owned())),
                "{input:?}"
            );
        }
        assert_eq!(
            NumberError::Invalid("b".into()).to_string(),
            "The parameter cannot be converted to a numeric value: b"
        );
        assert_eq!(
            NumberError::Invalid(String::new()).to_string(),
            "The parameter cannot be converted to a numeric value"
        );
    }

    #[test]
    fn digit_limit_is_38() {
        let d38 = "9".repeat(38);
        let d39 = "1".repeat(39);
        assert_eq!(n(&d38).to_string(), d38);
        assert_eq!(Number::parse(&d39), Err(NumberError::TooManyDigits));
        // Trailing zeros are not significant.
        assert_eq!(
            n(&format!("{}{}", "1".repeat(38), "0".repeat(10))).significant_digits(),
            38
        );
        assert_eq!(
            Number::parse(&format!("0.{d39}")),
            Err(NumberError::TooManyDigits)
        );
    }

    #[test]
    fn range_limits() {
        assert_eq!(n("1E-130").to_string(), format!("0.{}1", "0".repeat(129)));
        assert_eq!(Number::parse("1E-131"), Err(NumberError::Underflow));
        assert_eq!(Number::parse("-1E-131"), Err(NumberError::Underflow));
        let max = format!("9.{}E+125", "9".repeat(37));
        assert_eq!(n(&max).to_string(), "9".repeat(38) + &"0".repeat(88));
        assert_eq!(Number::parse("1E126"), Err(NumberError::Overflow));
        assert_eq!(Number::parse("-1E126"), Err(NumberError::Overflow));
        assert_eq!(
            Number::parse("1e99999999999999999999"),
            Err(NumberError::Overflow)
        );
        // Range is checked before precision, as DynamoDB does.
        assert_eq!(
            Number::parse(&format!("{}e200", "1".repeat(39))),
            Err(NumberError::Overflow)
        );
        assert_eq!(NumberError::Overflow.to_string(), "Number overflow. Attempting to store a number with magnitude larger than supported range");
    }

    #[test]
    fn ordering_is_numeric() {
        let sorted = [
            "-1e10", "-5", "-0.5", "-1E-130", "0", "1E-130", "0.001", "0.5", "1", "1.01", "2",
            "10", "1e125",
        ];
        for pair in sorted.windows(2) {
            assert!(n(pair[0]) < n(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert_eq!(n("1.0").cmp(&n("1")), Ordering::Equal);
        assert_eq!(n("1"), n("1.0"));
        assert_eq!(n("-0"), n("0"));
    }

    #[test]
    fn hash_follows_value() {
        use std::collections::HashSet;
        let set: HashSet<Number> = ["1", "1.0", "1E0", "10e-1"].iter().map(|s| n(s)).collect();
        assert_eq!(set.len(), 1);
    }

    #[test]
    fn exact_arithmetic() {
        assert_eq!(n("0.1").checked_add(&n("0.2")).unwrap(), n("0.3"));
        let max38 = "9".repeat(37) + "8";
        assert_eq!(
            n(&max38).checked_add(&n("1")).unwrap().to_string(),
            "9".repeat(38)
        );
        assert_eq!(
            n(&"9".repeat(38)).checked_add(&n("1")).unwrap().to_string(),
            format!("1{}", "0".repeat(38))
        );
        assert_eq!(
            n("1e50").checked_add(&n("1")),
            Err(NumberError::TooManyDigits)
        );
        assert_eq!(
            n("1e125").checked_add(&n("1e-130")),
            Err(NumberError::TooManyDigits)
        );
        assert_eq!(
            n("9e125").checked_add(&n("9e125")),
            Err(NumberError::Overflow)
        );
        assert_eq!(
            n("1e38").checked_sub(&n("1")).unwrap().to_string(),
            "9".repeat(38)
        );
        assert_eq!(n("5").checked_sub(&n("7.5")).unwrap(), n("-2.5"));
        assert_eq!(n("5").checked_sub(&n("5")).unwrap(), Number::ZERO);
        assert_eq!(n("1e-130").checked_sub(&n("2e-130")).unwrap(), n("-1e-130"));
    }

    #[test]
    fn integer_and_float_conversions() {
        assert_eq!(Number::from(i64::MIN).to_string(), i64::MIN.to_string());
        assert_eq!(Number::from(u64::MAX).to_i128(), Some(u64::MAX as i128));
        assert_eq!(Number::try_from(i128::MAX), Err(NumberError::TooManyDigits)); // 39 digits
        let big = 10i128.pow(37) + 7;
        assert_eq!(Number::try_from(-big).unwrap().to_i128(), Some(-big));
        assert_eq!(Number::try_from(u128::MAX), Err(NumberError::TooManyDigits));
        assert_eq!(n("1.5").to_i128(), None);
        assert_eq!(n("1e40").to_i128(), None);
        assert_eq!(Number::from_f64(0.1).unwrap().to_string(), "0.1");
        assert_eq!(
            Number::from_f64(-2.5e-7).unwrap().to_string(),
            "-0.00000025"
        );
        assert!(Number::from_f64(f64::NAN).is_err());
        assert!(Number::from_f64(1e300).is_err());
        assert_eq!(n("0.1").to_f64(), 0.1);
        assert_eq!(n("-123.456").to_f64(), -123.456);
    }

    proptest::proptest! {
        #[test]
        fn display_parse_round_trip(negative: bool, coefficient in 0u128..10u128.pow(38), exponent in -160i64..140) {
            if let Ok(number) = Number::from_parts(negative, coefficient, exponent) {
                proptest::prop_assert_eq!(Number::parse(&number.to_string()), Ok(number));
            }
        }

        #[test]
        fn order_matches_f64_for_small_values(a in -1e12f64..1e12, b in -1e12f64..1e12) {
            let (x, y) = (Number::from_f64(a).unwrap(), Number::from_f64(b).unwrap());
            proptest::prop_assert_eq!(x.cmp(&y), a.partial_cmp(&b).unwrap());
        }

        #[test]
        fn add_matches_i128(a in -10i128.pow(30)..10i128.pow(30), b in -10i128.pow(30)..10i128.pow(30)) {
            let sum = Number::try_from(a).unwrap().checked_add(&Number::try_from(b).unwrap()).unwrap();
            proptest::prop_assert_eq!(sum.to_i128(), Some(a + b));
        }

        #[test]
        fn parse_never_panics(s in "\\PC{0,50}") {
            let _ = Number::parse(&s);
        }
    }
}
