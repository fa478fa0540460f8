//! Conversions between [`Number`] and Rust's integers and floats: exact when the value fits, an error
//! (or `None`) when it does not. Floats go through their shortest round-tripping decimal text, so `0.1`
//! becomes the number 0.1 rather than the binary fraction nearest to it.

use super::{Number, NumberError, POWERS_OF_TEN};

impl Number {
    /// The value as an `i128`, if it is an integer that fits.
    ///
    /// ```
    /// use dynomodel::Number;
    /// assert_eq!("1.5e3".parse::<Number>()?.to_i128(), Some(1500));
    /// assert_eq!("1.5".parse::<Number>()?.to_i128(), None); // not an integer
    /// assert_eq!("1e50".parse::<Number>()?.to_i128(), None); // too large
    /// # Ok::<(), dynomodel::NumberError>(())
    /// ```
    pub fn to_i128(&self) -> Option<i128> {
        let magnitude = i128::try_from(self.integer_magnitude()?).ok()?;
        Some(if self.negative { -magnitude } else { magnitude })
    }

    /// The value as a `u128`, if it is a non-negative integer that fits.
    pub fn to_u128(&self) -> Option<u128> {
        if self.negative {
            return None;
        }
        self.integer_magnitude()
    }

    /// The magnitude, if the number is an integer whose magnitude fits a `u128`.
    fn integer_magnitude(&self) -> Option<u128> {
        let exponent = u32::try_from(self.exponent).ok()?;
        // Most stored integers: a coefficient and a power of ten within `u64` each, whose product
        // always fits a `u128` (one multiplication, no overflow check, no `u128` power).
        let power = POWERS_OF_TEN.get(exponent as usize).copied();
        if let (0, Some(Ok(power))) = (self.coefficient[1], power.map(u64::try_from)) {
            return Some(u128::from(self.coefficient[0]) * u128::from(power));
        }
        10u128
            .checked_pow(exponent)?
            .checked_mul(self.coefficient())
    }

    /// The nearest `f64` (numbers beyond `f64`'s range become infinite; tiny ones become zero).
    pub fn to_f64(&self) -> f64 {
        let sign = if self.negative { "-" } else { "" };
        // Scientific text is short and `f64::from_str` rounds it correctly.
        format!("{sign}{}e{}", self.coefficient(), self.exponent)
            .parse()
            .unwrap_or(f64::NAN)
    }

    /// Converts a finite float through its shortest round-tripping decimal text (`0.1` → `0.1`).
    ///
    /// ```
    /// use dynomodel::Number;
    /// assert_eq!(Number::from_f64(0.1)?.to_string(), "0.1");
    /// assert_eq!(Number::from_f64(0.1)?.to_f64(), 0.1);
    /// assert!(Number::from_f64(f64::NAN).is_err());
    /// # Ok::<(), dynomodel::NumberError>(())
    /// ```
    pub fn from_f64(value: f64) -> Result<Number, NumberError> {
        if !value.is_finite() {
            return Err(NumberError::Invalid(value.to_string()));
        }
        Number::parse(&format!("{value:e}"))
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
