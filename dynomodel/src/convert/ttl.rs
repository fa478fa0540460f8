//! The `#[ttl]` field adapter: the expiry time of an item, stored as a number (N) of whole seconds
//! since the Unix epoch, the form DynamoDB's time to live reads (DG `howitworks-ttl.html`: "The TTL
//! attribute's value must be a top-level Number data type ... in Unix epoch time format in seconds").
//!
//! A `#[ttl]` field is a `chrono::DateTime<Utc>`, a `std::time::SystemTime`, an integer type, or an
//! `Option` of one (`None`: the item never expires, no attribute is stored). Integers are stored as
//! they are: they already are epoch seconds. Times are stored as whole seconds, rounded down: the
//! sub-second part is dropped on write, so a time read back has none (DynamoDB deletes expired items
//! within days, so a second more or less never matters). Reading accepts any N, fractions included.
//! The field's typed handle is a `Field<M, Ttl<T>>` ([`Ttl`](super::Ttl)), whose operands are
//! rounded down alike: `expires().lt(now)` compares whole seconds.
//!
//! ```
//! use std::time::{Duration, SystemTime};
//! use chrono::{TimeZone, Utc};
//! use dynomodel::{convert::ttl::TtlAttribute, AttributeValue};
//!
//! let t = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap() + chrono::Duration::milliseconds(900);
//! assert_eq!(t.to_ttl()?, Some(AttributeValue::N(1_700_000_000.into())));
//! let s = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
//! assert_eq!(s.to_ttl()?, Some(AttributeValue::N(1_700_000_000.into())));
//! assert_eq!(1_700_000_000i64.to_ttl()?, Some(AttributeValue::N(1_700_000_000.into())));
//! assert_eq!(None::<SystemTime>.to_ttl()?, None);
//! # Ok::<(), dynomodel::ConversionError>(())
//! ```

use std::time::{Duration, SystemTime};

use chrono::{DateTime, Utc};

use super::epoch_seconds::{number_from, number_to_date_time};
use super::Attribute;
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::value::{AttributeValue, Number};

/// A type a `#[ttl]` field may have.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `#[ttl]` field",
    label = "`#[ttl]` needs a time or an integer number of epoch seconds",
    note = "a ttl field is a DateTime<Utc>, a SystemTime, an integer, or an Option of one"
)]
pub trait TtlAttribute: Sized {
    /// The value as whole epoch seconds, or `None` for no attribute (the item does not expire).
    fn to_ttl(&self) -> Result<Option<AttributeValue>, ConversionError>;
    /// The value from a stored number.
    fn from_ttl(value: AttributeValue) -> Result<Self, ConversionError>;
    /// The value of an absent attribute: `None` for an `Option`, an error otherwise.
    fn ttl_missing() -> Result<Self, ConversionError>;
    /// What the type expects, for error messages.
    fn ttl_expected() -> String;
}

/// Writes a `#[ttl]` field.
pub fn to_attribute<T: TtlAttribute>(value: &T) -> Result<Option<AttributeValue>, ConversionError> {
    value.to_ttl()
}

/// Reads a `#[ttl]` field.
pub fn from_attribute<T: TtlAttribute>(value: AttributeValue) -> Result<T, ConversionError> {
    T::from_ttl(value)
}

/// The scalar type of a `#[ttl]` field used as an index key (N).
pub fn key_type<T: TtlAttribute>() -> ScalarAttributeType {
    ScalarAttributeType::N
}

fn seconds(seconds: i64) -> Option<AttributeValue> {
    Some(AttributeValue::N(Number::from(seconds)))
}

impl TtlAttribute for DateTime<Utc> {
    fn to_ttl(&self) -> Result<Option<AttributeValue>, ConversionError> {
        // `timestamp` is the floor: the nanoseconds part is never negative.
        Ok(seconds(self.timestamp()))
    }

    fn from_ttl(value: AttributeValue) -> Result<Self, ConversionError> {
        let expected = Self::ttl_expected();
        number_to_date_time(&number_from(value, &expected)?, &expected)
    }

    fn ttl_missing() -> Result<Self, ConversionError> {
        Err(ConversionError::missing(Self::ttl_expected()))
    }

    fn ttl_expected() -> String {
        "epoch seconds (DateTime<Utc>)".to_owned()
    }
}

impl TtlAttribute for SystemTime {
    fn to_ttl(&self) -> Result<Option<AttributeValue>, ConversionError> {
        let out_of_range = || ConversionError::new(Self::ttl_expected(), format!("{self:?}"));
        let whole = match self.duration_since(SystemTime::UNIX_EPOCH) {
            Ok(after) => i64::try_from(after.as_secs()).map_err(|_| out_of_range())?,
            Err(before) => {
                // Rounded down, as for DateTime: 0.5 s before the epoch is -1.
                let before = before.duration();
                let whole = i64::try_from(before.as_secs()).map_err(|_| out_of_range())?;
                -whole - i64::from(before.subsec_nanos() > 0)
            }
        };
        Ok(seconds(whole))
    }

    fn from_ttl(value: AttributeValue) -> Result<Self, ConversionError> {
        let expected = Self::ttl_expected();
        let n = number_from(value, &expected)?;
        let t = number_to_date_time(&n, &expected)?;
        let out_of_range = || ConversionError::new(expected.clone(), format!("N {n}"));
        let since = Duration::new(t.timestamp().unsigned_abs(), t.timestamp_subsec_nanos());
        if t.timestamp() >= 0 {
            SystemTime::UNIX_EPOCH.checked_add(since)
        } else {
            // `since` is |floor| + fraction: the time is -|floor| + fraction.
            SystemTime::UNIX_EPOCH
                .checked_sub(Duration::from_secs(t.timestamp().unsigned_abs()))
                .and_then(|s| {
                    s.checked_add(Duration::from_nanos(u64::from(t.timestamp_subsec_nanos())))
                })
        }
        .ok_or_else(out_of_range)
    }

    fn ttl_missing() -> Result<Self, ConversionError> {
        Err(ConversionError::missing(Self::ttl_expected()))
    }

    fn ttl_expected() -> String {
        "epoch seconds (SystemTime)".to_owned()
    }
}

macro_rules! integer_ttls {
    ($($t:ty),*) => {$(
        /// Already epoch seconds: stored as the number it is.
        impl TtlAttribute for $t {
            fn to_ttl(&self) -> Result<Option<AttributeValue>, ConversionError> {
                self.to_attribute()
            }

            fn from_ttl(value: AttributeValue) -> Result<Self, ConversionError> {
                <$t as Attribute>::from_attribute(value)
            }

            fn ttl_missing() -> Result<Self, ConversionError> {
                <$t as Attribute>::from_missing()
            }

            fn ttl_expected() -> String {
                <$t as Attribute>::expected()
            }
        }
    )*};
}

integer_ttls!(i32, i64, i128, isize, u32, u64, u128, usize);

/// `None` is no attribute (the item never expires); an absent attribute or `NULL` reads as `None`.
impl<T: TtlAttribute> TtlAttribute for Option<T> {
    fn to_ttl(&self) -> Result<Option<AttributeValue>, ConversionError> {
        match self {
            Some(value) => value.to_ttl(),
            None => Ok(None),
        }
    }

    fn from_ttl(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::Null => Ok(None),
            value => T::from_ttl(value).map(Some),
        }
    }

    fn ttl_missing() -> Result<Self, ConversionError> {
        Ok(None)
    }

    fn ttl_expected() -> String {
        T::ttl_expected()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.parse().expect("valid number"))
    }

    #[test]
    fn times_are_whole_seconds_rounded_down() {
        let t = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap();
        assert_eq!(to_attribute(&t).unwrap(), Some(n("1700000000")));
        let later = t + chrono::Duration::milliseconds(999);
        assert_eq!(to_attribute(&later).unwrap(), Some(n("1700000000")));
        let before = DateTime::UNIX_EPOCH - chrono::Duration::milliseconds(500);
        assert_eq!(to_attribute(&before).unwrap(), Some(n("-1")));
        let system = SystemTime::UNIX_EPOCH - Duration::from_millis(500);
        assert_eq!(to_attribute(&system).unwrap(), Some(n("-1")));
        let system = SystemTime::UNIX_EPOCH + Duration::from_millis(1_700_000_000_999);
        assert_eq!(to_attribute(&system).unwrap(), Some(n("1700000000")));
    }

    #[test]
    fn stored_numbers_read_back() {
        let t: DateTime<Utc> = from_attribute(n("1700000000")).unwrap();
        assert_eq!(t, Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap());
        let s: SystemTime = from_attribute(n("1700000000.5")).unwrap();
        assert_eq!(
            s,
            SystemTime::UNIX_EPOCH + Duration::from_millis(1_700_000_000_500)
        );
        let s: SystemTime = from_attribute(n("-1.5")).unwrap();
        assert_eq!(s, SystemTime::UNIX_EPOCH - Duration::from_millis(1500));
        let i: u64 = from_attribute(n("1700000000")).unwrap();
        assert_eq!(i, 1_700_000_000);
        assert_eq!(
            from_attribute::<Option<i64>>(AttributeValue::Null).unwrap(),
            None
        );
    }

    #[test]
    fn missing_and_wrong_values() {
        assert_eq!(<Option<SystemTime>>::ttl_missing().unwrap(), None);
        let err = DateTime::<Utc>::ttl_missing().unwrap_err();
        assert_eq!(err.expected, "epoch seconds (DateTime<Utc>)");
        let err = from_attribute::<SystemTime>(AttributeValue::S("soon".into())).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("epoch seconds (SystemTime)", "S")
        );
        assert!(from_attribute::<u32>(n("-1")).is_err());
        assert_eq!(key_type::<Option<u64>>(), ScalarAttributeType::N);
    }
}
