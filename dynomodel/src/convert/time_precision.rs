//! The `time_precision` field adapter: a `DateTime<Utc>` stored as RFC 3339 text with a chosen,
//! fixed number of fractional digits instead of the default nine.
//!
//! Select it with `#[dynomodel(time_precision = "millis")]` on a field of type `DateTime<Utc>` or
//! `Option<DateTime<Utc>>`, or on the struct for all such fields (`"seconds"`, `"millis"`,
//! `"micros"`, `"nanos"`: 0, 3, 6 or 9 digits). Items written by other code often use one width,
//! the Developer Guide's samples milliseconds (`2015-09-22T19:58:22.947Z`); strings of different
//! widths do not sort together (`…22.947Z` > `…22.947000000Z`, since `Z` > `0`), so a range
//! condition on a sort key written by both would silently miss items. Writing at the width the
//! table already uses keeps one order.
//!
//! A time is **truncated** to the width when written (never rounded, which could carry into the
//! next second), so a value read back may be earlier than the one written by less than one unit.
//! Reading accepts any RFC 3339 text, whatever its width or offset. The field's typed handle is a
//! `Field<M, Rfc3339<DIGITS>>` ([`Rfc3339`]), so that a condition's operand is written at the same
//! width and compares as the stored strings do.
//!
//! ```
//! use chrono::{TimeZone, Utc};
//! use dynomodel::{convert::time_precision::TimeTextField, AttributeValue};
//!
//! let t = Utc.with_ymd_and_hms(2015, 9, 22, 19, 58, 22).unwrap() + chrono::Duration::microseconds(947_123);
//! let stored = TimeTextField::<3>::to_time_text(&t)?;
//! assert_eq!(stored, Some(AttributeValue::S("2015-09-22T19:58:22.947Z".into())));
//! let nanos = AttributeValue::S("2015-09-22T19:58:22.947123000Z".into());
//! let read: chrono::DateTime<Utc> = TimeTextField::<3>::from_time_text(nanos)?; // any width reads
//! assert_eq!(read, t);
//! # Ok::<(), dynomodel::ConversionError>(())
//! ```

use chrono::{DateTime, Utc};

use super::time::date_time_text;
use super::{Attribute, KeyAttribute};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::expression::{FieldValue, IntoValue, Ordered};
use crate::value::AttributeValue;

/// A field type the adapter handles: `DateTime<Utc>` or `Option<DateTime<Utc>>`, written with
/// `DIGITS` fractional digits (at most 9; more are 9).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored with a `time_precision`",
    label = "`time_precision` needs a `DateTime<Utc>`",
    note = "time_precision works on DateTime<Utc> and Option<DateTime<Utc>>"
)]
pub trait TimeTextField<const DIGITS: u8>: Sized {
    /// The value as text of the width, or `None` for no attribute.
    fn to_time_text(&self) -> Result<Option<AttributeValue>, ConversionError>;
    /// The value from RFC 3339 text of any width.
    fn from_time_text(value: AttributeValue) -> Result<Self, ConversionError>;
    /// The value of an absent attribute.
    fn time_text_missing() -> Result<Self, ConversionError>;
}

/// A field type that may be a key stored with a `time_precision` (not an `Option`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a key attribute stored with a `time_precision`",
    label = "key attributes are always present",
    note = "a time_precision key is a DateTime<Utc>, not an Option"
)]
pub trait TimeTextKey {}

/// The key type of a key field stored with a `time_precision` (S); does not compile for an
/// `Option`.
pub fn key_type<T: TimeTextKey>() -> ScalarAttributeType {
    ScalarAttributeType::S
}

impl<const DIGITS: u8> TimeTextField<DIGITS> for DateTime<Utc> {
    fn to_time_text(&self) -> Result<Option<AttributeValue>, ConversionError> {
        Ok(Some(AttributeValue::S(date_time_text(self, DIGITS)?)))
    }

    fn from_time_text(value: AttributeValue) -> Result<Self, ConversionError> {
        DateTime::<Utc>::from_attribute(value)
    }

    fn time_text_missing() -> Result<Self, ConversionError> {
        DateTime::<Utc>::from_missing()
    }
}

impl TimeTextKey for DateTime<Utc> {}

/// `None` is no attribute; an absent attribute or `NULL` reads as `None`.
impl<const DIGITS: u8> TimeTextField<DIGITS> for Option<DateTime<Utc>> {
    fn to_time_text(&self) -> Result<Option<AttributeValue>, ConversionError> {
        match self {
            Some(t) => TimeTextField::<DIGITS>::to_time_text(t),
            None => Ok(None),
        }
    }

    fn from_time_text(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::Null => Ok(None),
            value => DateTime::<Utc>::from_attribute(value).map(Some),
        }
    }

    fn time_text_missing() -> Result<Self, ConversionError> {
        Ok(None)
    }
}

/// A `DateTime<Utc>` written as RFC 3339 text with `DIGITS` fractional digits (truncated; at most
/// 9): the value type of a `time_precision` field's handle, so that operands are written at the
/// stored width (see [`convert::time_precision`](self)). Read from any RFC 3339 text.
///
/// ```
/// use chrono::{TimeZone, Utc};
/// use dynomodel::{convert::Rfc3339, Attribute, AttributeValue};
///
/// let t = Utc.with_ymd_and_hms(2015, 9, 22, 19, 58, 22).unwrap();
/// assert_eq!(Rfc3339::<0>(t).to_attribute()?, Some(AttributeValue::S("2015-09-22T19:58:22Z".into())));
/// assert_eq!(Rfc3339::<3>(t).to_attribute()?, Some(AttributeValue::S("2015-09-22T19:58:22.000Z".into())));
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rfc3339<const DIGITS: u8>(pub DateTime<Utc>);

impl<const DIGITS: u8> Rfc3339<DIGITS> {
    /// The wrapped time.
    pub fn into_inner(self) -> DateTime<Utc> {
        self.0
    }
}

impl<const DIGITS: u8> Attribute for Rfc3339<DIGITS> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        TimeTextField::<DIGITS>::to_time_text(&self.0)
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        DateTime::<Utc>::from_attribute(value).map(Rfc3339)
    }

    fn expected() -> String {
        DateTime::<Utc>::expected()
    }
}

/// Always a string, as a key must be.
impl<const DIGITS: u8> KeyAttribute for Rfc3339<DIGITS> {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::S;
}

/// Strings of one width: their byte order is time order.
impl<const DIGITS: u8> Ordered for Rfc3339<DIGITS> {}

impl<const DIGITS: u8> FieldValue for Rfc3339<DIGITS> {
    type Value = Rfc3339<DIGITS>;
}

impl<const DIGITS: u8> From<DateTime<Utc>> for Rfc3339<DIGITS> {
    fn from(t: DateTime<Utc>) -> Self {
        Rfc3339(t)
    }
}

// The plain time wherever an operand is expected, as for the other wrappers.
impl<const DIGITS: u8> IntoValue<Rfc3339<DIGITS>> for DateTime<Utc> {
    fn into_value(self) -> Rfc3339<DIGITS> {
        Rfc3339(self)
    }
}

impl<const DIGITS: u8> IntoValue<Rfc3339<DIGITS>> for &DateTime<Utc> {
    fn into_value(self) -> Rfc3339<DIGITS> {
        Rfc3339(*self)
    }
}

impl<const DIGITS: u8> IntoValue<Option<Rfc3339<DIGITS>>> for DateTime<Utc> {
    fn into_value(self) -> Option<Rfc3339<DIGITS>> {
        Some(Rfc3339(self))
    }
}

impl<const DIGITS: u8> IntoValue<Option<Rfc3339<DIGITS>>> for &DateTime<Utc> {
    fn into_value(self) -> Option<Rfc3339<DIGITS>> {
        Some(Rfc3339(*self))
    }
}

impl<const DIGITS: u8> IntoValue<Option<Rfc3339<DIGITS>>> for Option<DateTime<Utc>> {
    fn into_value(self) -> Option<Rfc3339<DIGITS>> {
        self.map(Rfc3339)
    }
}

impl<const DIGITS: u8> IntoValue<Option<Rfc3339<DIGITS>>> for &Option<DateTime<Utc>> {
    fn into_value(self) -> Option<Rfc3339<DIGITS>> {
        self.map(Rfc3339)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;

    fn at(nanos: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2015, 9, 22, 19, 58, 22).unwrap() + Duration::nanoseconds(nanos)
    }

    fn text<const D: u8>(t: DateTime<Utc>) -> String {
        match Rfc3339::<D>(t).to_attribute() {
            Ok(Some(AttributeValue::S(s))) => s,
            other => panic!("not a string: {other:?}"),
        }
    }

    #[test]
    fn each_width_is_fixed_and_truncates() {
        let t = at(947_999_999);
        assert_eq!(text::<0>(t), "2015-09-22T19:58:22Z");
        assert_eq!(text::<3>(t), "2015-09-22T19:58:22.947Z");
        assert_eq!(text::<6>(t), "2015-09-22T19:58:22.947999Z");
        assert_eq!(text::<9>(t), "2015-09-22T19:58:22.947999999Z");
        assert_eq!(text::<12>(t), text::<9>(t)); // at most nine
        assert_eq!(text::<3>(at(0)), "2015-09-22T19:58:22.000Z");
    }

    #[test]
    fn one_width_sorts_in_time_order() {
        let times: Vec<DateTime<Utc>> = [0, 1_000_000, 500_000_000, 999_000_000, 1_000_000_000]
            .into_iter()
            .map(at)
            .collect();
        let mut by_text = times.clone();
        by_text.sort_by_key(|t| text::<3>(*t));
        assert_eq!(by_text, times);
    }

    #[test]
    fn any_width_reads() {
        for stored in [
            "2015-09-22T19:58:22.947Z",
            "2015-09-22T19:58:22.947000000Z",
            "2015-09-22T21:58:22.947+02:00",
        ] {
            let value = AttributeValue::S(stored.into());
            assert_eq!(
                Rfc3339::<0>::from_attribute(value).map(Rfc3339::into_inner),
                Ok(at(947_000_000))
            );
        }
        let none =
            <Option<DateTime<Utc>> as TimeTextField<3>>::from_time_text(AttributeValue::Null);
        assert_eq!(none, Ok(None));
        let missing = <DateTime<Utc> as TimeTextField<3>>::time_text_missing().unwrap_err();
        assert!(missing.to_string().contains("missing"), "{missing}");
    }

    #[test]
    fn years_beyond_the_fixed_width_are_refused() {
        let far = Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0).unwrap();
        assert!(Rfc3339::<3>(far).to_attribute().is_err());
    }
}
