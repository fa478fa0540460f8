//! DynamoDB's exact decimal number.
//!
//! DynamoDB numbers have up to 38 significant digits and a magnitude between 1E-130 and
//! 9.99…E+125. `rust_decimal` holds only 28 digits and `f64` is inexact, so the crate has its own type:
//! a `u128` coefficient (10^38 < 2^127, kept as two `u64` halves) with a decimal exponent, kept in one canonical form so that
//! equality, ordering and hashing are by numeric value (`1.50 == 1.5`, `1E2 == 100`, `-0 == 0`).

mod convert;
#[cfg(test)]
mod tests;

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// Most significant digits a DynamoDB number may have.
pub(super) const MAX_DIGITS: u32 = 38;
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
    // The `u128` coefficient as its low and high halves: a `u128` is 16-byte aligned, which made a
    // `Number` 32 bytes and every `AttributeValue` 48; two `u64`s make them 24 and 32 (see
    // `Number::coefficient`).
    coefficient: [u64; 2],
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
        coefficient: [0, 0],
        exponent: 0,
    };

    /// Builds a number from sign, coefficient and exponent (`coefficient × 10^exponent`), normalising it
    /// and checking DynamoDB's digit and range limits.
    #[inline]
    fn from_parts(
        negative: bool,
        mut coefficient: u128,
        exponent: i64,
    ) -> Result<Number, NumberError> {
        // The common case, and every stored number the engine decodes: a coefficient of at most 20
        // digits (it fits a u64) with no trailing zero, at an exponent that keeps any such coefficient
        // within range (the leading digit's exponent is at most `exponent + 19`). No digit count, no
        // u128 arithmetic.
        if let Ok(small) = u64::try_from(coefficient)
            && !small.is_multiple_of(10)
            && (MIN_ADJUSTED_EXPONENT..=MAX_ADJUSTED_EXPONENT - 19).contains(&exponent)
        {
            return Ok(Number {
                negative,
                coefficient: [small, 0],
                exponent: exponent as i32,
            });
        }
        if coefficient == 0 {
            return Ok(Number::ZERO);
        }
        let mut exponent = exponent;
        while ends_in_zero(coefficient) {
            coefficient /= 10;
            exponent += 1;
        }
        check_limits(i64::from(digit_count(coefficient)), exponent)?;
        Ok(Number {
            negative,
            coefficient: halves(coefficient),
            exponent: exponent as i32,
        })
    }

    /// The sign, coefficient and exponent: the number is `(-1)^negative × coefficient × 10^exponent`,
    /// with no trailing zero digit in `coefficient` (zero is `(false, 0, 0)`). A compact form for
    /// storage; [`Number::try_from_parts`] is the inverse.
    ///
    /// ```
    /// use dynomodel::Number;
    /// let n: Number = "-1.50".parse().unwrap();
    /// assert_eq!(n.parts(), (true, 15, -1));
    /// let (negative, coefficient, exponent) = n.parts();
    /// assert_eq!(Number::try_from_parts(negative, coefficient, exponent), Ok(n));
    /// ```
    pub fn parts(&self) -> (bool, u128, i32) {
        (self.negative, self.coefficient(), self.exponent)
    }

    /// The number `(-1)^negative × coefficient × 10^exponent`, normalised; errors when it is beyond
    /// DynamoDB's limits (38 significant digits, magnitudes from 1E-130 to below 1E126).
    ///
    /// ```
    /// use dynomodel::{Number, NumberError};
    /// assert_eq!(Number::try_from_parts(false, 1200, -2).unwrap().to_string(), "12");
    /// assert_eq!(Number::try_from_parts(false, 1, 126), Err(NumberError::Overflow));
    /// ```
    // Inlinable across crates: the engine decodes every stored number with it, and its `Result`
    // returned through memory cost more than the checks (a tenth of a Scan page).
    #[inline]
    pub fn try_from_parts(
        negative: bool,
        coefficient: u128,
        exponent: i32,
    ) -> Result<Number, NumberError> {
        Number::from_parts(negative, coefficient, i64::from(exponent))
    }

    /// Parses DynamoDB's number grammar: `[+-]digits[.digits][(e|E)[+-]digits]`, where either the integer
    /// or the fraction part may be empty but not both.
    ///
    /// ```
    /// use dynomodel::{Number, NumberError};
    ///
    /// assert_eq!(Number::parse("-.5e2")?.to_string(), "-50");
    /// // Up to 38 significant digits, exactly (leading and trailing zeros do not count):
    /// let exact = Number::parse("12345678901234567890.123456789012345678")?;
    /// assert_eq!(exact.significant_digits(), 38);
    /// assert_eq!(exact.to_string(), "12345678901234567890.123456789012345678");
    /// let digits39 = "123456789012345678901234567890123456789";
    /// assert_eq!(Number::parse(digits39), Err(NumberError::TooManyDigits));
    /// assert_eq!(Number::parse("1e126"), Err(NumberError::Overflow));
    /// // Zero too is held to the range by the exponent it is written with.
    /// assert_eq!(Number::parse("0e125")?, Number::ZERO);
    /// assert_eq!(Number::parse("0e126"), Err(NumberError::Overflow));
    /// assert!(matches!(Number::parse("1,5"), Err(NumberError::Invalid(_))));
    /// # Ok::<(), NumberError>(())
    /// ```
    // Inlinable across crates: the small integers every integer field reads are parsed in the
    // caller's loop (the AWS backend's page, the engine's requests); any other text is parsed out
    // of line.
    #[inline]
    pub fn parse(text: &str) -> Result<Number, NumberError> {
        match Number::parse_small_integer(text) {
            Some(number) => Ok(number),
            None => Number::parse_general(text),
        }
    }

    /// [`parse`](Number::parse) of any text: a digit buffer, then the limits.
    #[inline(never)]
    fn parse_general(text: &str) -> Result<Number, NumberError> {
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
        if digits.is_empty() {
            // Zero is judged by the exponent it is written with, as a decimal of one digit whose
            // exponent is the written one less the fraction digits: `0e126` overflows, `0e-131` and
            // `0.0e-130` underflow, `0e125` is zero (the dynamodb-conformance suite's captures of the
            // live service, October 2026; DynamoDB Local 3.3.1 accepts them all).
            check_limits(1, exponent - fraction_digits)?;
            return Ok(Number::ZERO);
        }
        while digits.last() == Some(&0) {
            digits.pop();
            exponent += 1;
        }
        let exponent = exponent - fraction_digits;
        // Checked before the digits are folded into a u128, which 39 or more digits would overflow.
        check_limits(digits.len() as i64, exponent)?;
        let coefficient = digits
            .iter()
            .fold(0u128, |acc, &d| acc * 10 + u128::from(d));
        Number::from_parts(negative, coefficient, exponent)
    }

    /// The common case of [`parse`](Number::parse), what every integer field reads: an optional
    /// sign and 1 to 19 digits (which fit a `u64` and are always within DynamoDB's limits), folded
    /// without the digit buffer of the general case. `None` for any other text, which the general
    /// case then parses (or rejects) as before. Normalised here in `u64` arithmetic (a number
    /// below 10^19 is always within DynamoDB's limits), without `from_parts`' checks.
    #[inline]
    fn parse_small_integer(text: &str) -> Option<Number> {
        let (negative, digits) = match text.as_bytes() {
            [b'-', rest @ ..] => (true, rest),
            [b'+', rest @ ..] => (false, rest),
            digits => (false, digits),
        };
        if digits.is_empty() || digits.len() > 19 {
            return None;
        }
        let mut coefficient: u64 = 0;
        for &d in digits {
            let digit = d.wrapping_sub(b'0');
            if digit > 9 {
                return None;
            }
            // 19 digits never overflow a u64.
            coefficient = coefficient * 10 + u64::from(digit);
        }
        if coefficient == 0 {
            // `-0` and `000` too: zero has one form.
            return Some(Number::ZERO);
        }
        let mut exponent = 0;
        while coefficient.is_multiple_of(10) {
            coefficient /= 10;
            exponent += 1;
        }
        Some(Number {
            negative,
            coefficient: [coefficient, 0],
            exponent,
        })
    }

    /// The coefficient, from its two halves.
    #[inline]
    fn coefficient(&self) -> u128 {
        u128::from(self.coefficient[0]) | u128::from(self.coefficient[1]) << 64
    }

    /// Whether this is zero.
    pub fn is_zero(&self) -> bool {
        self.coefficient == [0, 0]
    }

    /// Whether this is below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The number of significant digits (0 for zero).
    pub fn significant_digits(&self) -> u32 {
        if self.coefficient() == 0 {
            0
        } else {
            digit_count(self.coefficient())
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
                .and_then(|scale| n.coefficient().checked_mul(scale))
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
    ///
    /// ```
    /// use dynomodel::Number;
    /// let price: Number = "19.99".parse()?;
    /// assert_eq!(price.checked_sub(&"0.99".parse()?)?, Number::from(19));
    /// // DynamoDB never rounds: 1E38 - 1 is 38 nines, 1E39 - 1 would be 39.
    /// assert_eq!("1e38".parse::<Number>()?.checked_sub(&Number::from(1))?.significant_digits(), 38);
    /// assert!("1e39".parse::<Number>()?.checked_sub(&Number::from(1)).is_err());
    /// # Ok::<(), dynomodel::NumberError>(())
    /// ```
    pub fn checked_sub(&self, other: &Number) -> Result<Number, NumberError> {
        self.checked_add(&-*other)
    }
}

/// A coefficient as its low and high halves (the field's layout).
#[inline]
fn halves(coefficient: u128) -> [u64; 2] {
    // Truncation intended: the low 64 bits, then the high.
    [coefficient as u64, (coefficient >> 64) as u64]
}

/// DynamoDB's limits for `digits` significant digits whose last one has decimal exponent `exponent`.
/// Range is checked before precision, as DynamoDB does.
#[inline]
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

#[inline]
fn digit_count(n: u128) -> u32 {
    // Decoding or sizing a number runs this on every value: no u128 division (a library call, which
    // `ilog10` makes whatever the value). The bit length times log10(2) (1233 / 4096, a little
    // under it) is the digit count or one over it; one comparison with a power of ten tells which.
    let bits = u128::BITS - n.leading_zeros();
    let estimate = (bits * 1233) >> 12;
    let below = POWERS_OF_TEN
        .get(estimate as usize)
        .is_some_and(|&power| n < power);
    (estimate + 1 - u32::from(below)).max(1)
}

/// 10^0 to 10^38, the largest a `u128` holds.
const POWERS_OF_TEN: [u128; 39] = {
    let mut powers = [1u128; 39];
    let mut i = 1;
    while i < powers.len() {
        powers[i] = powers[i - 1] * 10;
        i += 1;
    }
    powers
};

/// Whether `n` ends in a zero digit; u64 arithmetic when it fits (a u128 remainder is a library call).
#[inline]
fn ends_in_zero(n: u128) -> bool {
    match u64::try_from(n) {
        Ok(small) => small.is_multiple_of(10),
        Err(_) => n.is_multiple_of(10),
    }
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
        let magnitude = self.magnitude_cmp(other);
        if self.negative {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl Number {
    /// Compares the magnitudes of two non-zero numbers.
    fn magnitude_cmp(&self, other: &Number) -> Ordering {
        // Fast paths, for the sort keys a B-tree compares on every lookup: the same scale, or two
        // integers below 2^64 × 10^19 (which fit a u128).
        if self.exponent == other.exponent {
            return self.coefficient().cmp(&other.coefficient());
        }
        let integer = |n: &Number| {
            let small = n.coefficient() < 1 << 64 && (0..=19).contains(&n.exponent);
            small.then(|| n.coefficient() * 10u128.pow(n.exponent as u32))
        };
        if let (Some(a), Some(b)) = (integer(self), integer(other)) {
            return a.cmp(&b);
        }
        self.magnitude_cmp_general(other)
    }

    /// [`Number::magnitude_cmp`] for any two: by leading-digit exponent, then by the digits
    /// left-aligned to 38 places (10^38 fits in a u128).
    fn magnitude_cmp_general(&self, other: &Number) -> Ordering {
        let key = |n: &Number| {
            let digits = digit_count(n.coefficient());
            let adjusted = n.exponent + digits as i32 - 1;
            (adjusted, n.coefficient() * 10u128.pow(MAX_DIGITS - digits))
        };
        key(self).cmp(&key(other))
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
        // The digits on the stack: this runs for every number a request sends.
        let mut buffer = [0u8; 39];
        let digits = decimal_digits(self.coefficient(), &mut buffer);
        if self.exponent >= 0 {
            f.write_str(digits)?;
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
            f.write_str(digits)
        }
    }
}

/// `n` in decimal, written into the end of `buffer` (a u128 has at most 39 digits). u64
/// arithmetic once the rest fits one (a u128 division is a library call).
fn decimal_digits(n: u128, buffer: &mut [u8; 39]) -> &str {
    let mut start = buffer.len();
    let mut wide = n;
    while u64::try_from(wide).is_err() {
        start -= 1;
        // Truncation intended: a remainder below 10.
        buffer[start] = b'0' + (wide % 10) as u8;
        wide /= 10;
    }
    let mut small = u64::try_from(wide).unwrap_or_default();
    loop {
        start -= 1;
        // Truncation intended: a remainder below 10.
        buffer[start] = b'0' + (small % 10) as u8;
        small /= 10;
        if small == 0 {
            break;
        }
    }
    // ASCII digits only.
    std::str::from_utf8(&buffer[start..]).unwrap_or_default()
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
