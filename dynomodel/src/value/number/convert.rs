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

    /// The sign and magnitude, if the number is an integer whose magnitude fits a `u64`: what an
    /// integer field reads (`convert::scalars`) without `u128` arithmetic, as a range check of the
    /// digits parsed once (most stored integers are a coefficient below 2^64 and exponent 0).
    #[inline]
    pub(crate) fn small_integer(&self) -> Option<(bool, u64)> {
        if self.coefficient[1] != 0 {
            return None;
        }
        if self.exponent == 0 {
            return Some((self.negative, self.coefficient[0]));
        }
        let exponent = usize::try_from(self.exponent).ok()?;
        let power = u64::try_from(*POWERS_OF_TEN.get(exponent)?).ok()?;
        let magnitude = self.coefficient[0].checked_mul(power)?;
        Some((self.negative, magnitude))
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
    #[inline]
    pub fn to_f64(&self) -> f64 {
        // A coefficient below 2^53 and a power of ten up to 10^22 are both exact `f64`s, so their
        // one product or quotient is correctly rounded: the nearest `f64`, as parsing the text
        // gives it, without the text (most stored numbers).
        let coefficient = self.coefficient();
        let power = F64_POWERS_OF_TEN.get(self.exponent.unsigned_abs() as usize);
        if let (true, Some(&power)) = (coefficient < 1 << 53, power) {
            let magnitude = if self.exponent < 0 {
                coefficient as f64 / power
            } else {
                coefficient as f64 * power
            };
            return if self.negative { -magnitude } else { magnitude };
        }
        self.f64_through_text()
    }

    /// [`to_f64`](Number::to_f64) of any number: its scientific text (short) parsed by
    /// `f64::from_str`, which rounds it correctly; written on the stack, not allocated.
    #[inline(never)]
    pub(super) fn f64_through_text(&self) -> f64 {
        use std::io::Write as _;
        // A sign, 38 digits, `e` and an exponent of at most 11 characters.
        const CAPACITY: usize = 64;
        let mut text = [0u8; CAPACITY];
        let mut rest = &mut text[..];
        let sign = if self.negative { "-" } else { "" };
        if write!(rest, "{sign}{}e{}", self.coefficient(), self.exponent).is_err() {
            return f64::NAN;
        }
        let length = CAPACITY - rest.len();
        std::str::from_utf8(&text[..length])
            .ok()
            .and_then(|text| text.parse().ok())
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

/// 10^0 to 10^22: the powers of ten an `f64` holds exactly.
const F64_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

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
