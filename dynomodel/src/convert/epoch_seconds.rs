//! The `epoch_seconds` field adapter: dates and times stored as a number (N) of seconds since the Unix
//! epoch, the form DynamoDB's time-to-live attribute needs.
//!
//! Select it with `#[dynomodel(epoch_seconds)]` on a field of type `DateTime<Utc>`, `NaiveDate` or an
//! `Option` of either; a key field with it has key type N. Sub-second precision is kept exactly as a
//! fraction (`1700000000.25`); whole-second times are integers. A `NaiveDate` is midnight UTC of that
//! day, and reading a number that is not a midnight is an error rather than a silent truncation.
//! AWS documents TTL values as whole epoch seconds; for a TTL attribute, store whole-second times
//! (e.g. `t.with_nanosecond(0)`) so the number is an integer. The field's typed handle is a
//! `Field<M, EpochSeconds<T>>` ([`EpochSeconds`](super::EpochSeconds)), so that its operands are
//! epoch seconds too.
//!
//! ```
//! use chrono::{TimeZone, Utc};
//! use dynomodel::{convert::epoch_seconds, AttributeValue};
//! let t = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap();
//! let stored = epoch_seconds::to_attribute(&t).unwrap();
//! assert_eq!(stored, Some(AttributeValue::N(1_700_000_000.into())));
//! ```

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};

use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::value::{AttributeValue, Number};

const NANOS_PER_SECOND: i128 = 1_000_000_000;

/// A field type the adapter handles.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as epoch seconds",
    label = "`#[dynomodel(epoch_seconds)]` needs a date or time",
    note = "epoch_seconds works on DateTime<Utc>, NaiveDate and an Option of either"
)]
pub trait EpochSecondsField: Sized {
    /// The value as epoch seconds, or `None` for no attribute.
    fn to_epoch_seconds(&self) -> Result<Option<AttributeValue>, ConversionError>;
    /// The value from epoch seconds.
    fn from_epoch_seconds(value: AttributeValue) -> Result<Self, ConversionError>;
    /// The value of an absent attribute.
    fn epoch_seconds_missing() -> Result<Self, ConversionError>;
    /// What the type expects, for error messages.
    fn epoch_seconds_expected() -> String;
}

/// A field type that may be a key stored as epoch seconds (not an `Option`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a key attribute stored as epoch seconds",
    label = "key attributes are always present",
    note = "an epoch_seconds key is a DateTime<Utc> or a NaiveDate, not an Option"
)]
pub trait EpochSecondsKey: EpochSecondsField {}

/// Writes a field as epoch seconds.
pub fn to_attribute<T: EpochSecondsField>(
    value: &T,
) -> Result<Option<AttributeValue>, ConversionError> {
    value.to_epoch_seconds()
}

/// Reads a field from epoch seconds.
pub fn from_attribute<T: EpochSecondsField>(value: AttributeValue) -> Result<T, ConversionError> {
    T::from_epoch_seconds(value)
}

/// Reads an absent field: `None` for an `Option`, an error otherwise.
pub fn from_missing<T: EpochSecondsField>() -> Result<T, ConversionError> {
    T::epoch_seconds_missing()
}

/// The key type of an epoch-seconds key field (N); does not compile for an `Option`.
pub fn key_type<T: EpochSecondsKey>() -> ScalarAttributeType {
    ScalarAttributeType::N
}

fn date_time_to_number(t: &DateTime<Utc>) -> Result<Number, ConversionError> {
    let nanos =
        i128::from(t.timestamp()) * NANOS_PER_SECOND + i128::from(t.timestamp_subsec_nanos());
    let whole = nanos.div_euclid(NANOS_PER_SECOND);
    let fraction = nanos.rem_euclid(NANOS_PER_SECOND);
    // seconds + fraction / 10^9, exactly; `whole` is floored so `fraction` is never negative.
    let fraction = Number::parse(&format!("0.{fraction:09}"));
    Number::try_from(whole)
        .and_then(|w| w.checked_add(&fraction?))
        .map_err(|e| ConversionError::new("epoch seconds", e.to_string()))
}

pub(super) fn number_to_date_time(
    n: &Number,
    expected: &str,
) -> Result<DateTime<Utc>, ConversionError> {
    let error = || ConversionError::new(expected, format!("N {n}"));
    let text = n.abs().to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    if fraction.len() > 9 {
        return Err(error());
    }
    let whole: i128 = whole.parse().map_err(|_| error())?;
    let fraction: i128 = format!("{fraction:0<9}").parse().map_err(|_| error())?;
    let magnitude = whole
        .checked_mul(NANOS_PER_SECOND)
        .and_then(|w| w.checked_add(fraction))
        .ok_or_else(error)?;
    let nanos = if n.is_negative() {
        -magnitude
    } else {
        magnitude
    };
    let seconds = i64::try_from(nanos.div_euclid(NANOS_PER_SECOND)).map_err(|_| error())?;
    let subsec = u32::try_from(nanos.rem_euclid(NANOS_PER_SECOND)).map_err(|_| error())?;
    DateTime::from_timestamp(seconds, subsec).ok_or_else(error)
}

pub(super) fn number_from(
    value: AttributeValue,
    expected: &str,
) -> Result<Number, ConversionError> {
    match value {
        AttributeValue::N(n) => Ok(n),
        other => Err(ConversionError::new(expected, other.type_name())),
    }
}

impl EpochSecondsField for DateTime<Utc> {
    fn to_epoch_seconds(&self) -> Result<Option<AttributeValue>, ConversionError> {
        date_time_to_number(self).map(|n| Some(AttributeValue::N(n)))
    }

    fn from_epoch_seconds(value: AttributeValue) -> Result<Self, ConversionError> {
        let expected = Self::epoch_seconds_expected();
        number_to_date_time(&number_from(value, &expected)?, &expected)
    }

    fn epoch_seconds_missing() -> Result<Self, ConversionError> {
        Err(ConversionError::missing(Self::epoch_seconds_expected()))
    }

    fn epoch_seconds_expected() -> String {
        "epoch seconds (DateTime<Utc>)".to_owned()
    }
}

impl EpochSecondsKey for DateTime<Utc> {}

impl EpochSecondsField for NaiveDate {
    fn to_epoch_seconds(&self) -> Result<Option<AttributeValue>, ConversionError> {
        self.and_time(NaiveTime::MIN).and_utc().to_epoch_seconds()
    }

    fn from_epoch_seconds(value: AttributeValue) -> Result<Self, ConversionError> {
        let expected = Self::epoch_seconds_expected();
        let n = number_from(value, &expected)?;
        let t = number_to_date_time(&n, &expected)?;
        if t.time() != NaiveTime::MIN {
            return Err(ConversionError::new(expected, format!("N {n}")));
        }
        Ok(t.date_naive())
    }

    fn epoch_seconds_missing() -> Result<Self, ConversionError> {
        Err(ConversionError::missing(Self::epoch_seconds_expected()))
    }

    fn epoch_seconds_expected() -> String {
        "epoch seconds at midnight UTC (NaiveDate)".to_owned()
    }
}

impl EpochSecondsKey for NaiveDate {}

/// `None` is no attribute; an absent attribute or `NULL` reads as `None`.
impl<T: EpochSecondsField> EpochSecondsField for Option<T> {
    fn to_epoch_seconds(&self) -> Result<Option<AttributeValue>, ConversionError> {
        match self {
            Some(value) => value.to_epoch_seconds(),
            None => Ok(None),
        }
    }

    fn from_epoch_seconds(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::Null => Ok(None),
            value => T::from_epoch_seconds(value).map(Some),
        }
    }

    fn epoch_seconds_missing() -> Result<Self, ConversionError> {
        Ok(None)
    }

    fn epoch_seconds_expected() -> String {
        T::epoch_seconds_expected()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.parse().expect("valid number"))
    }

    #[test]
    fn date_times_round_trip_with_fractions() {
        let t = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap();
        let cases = [
            (t, "1700000000"),
            (t + Duration::milliseconds(250), "1700000000.25"),
            (t + Duration::nanoseconds(1), "1700000000.000000001"),
            (DateTime::UNIX_EPOCH - Duration::milliseconds(500), "-0.5"),
            (DateTime::UNIX_EPOCH - Duration::milliseconds(1500), "-1.5"),
        ];
        for (time, text) in cases {
            assert_eq!(to_attribute(&time).unwrap(), Some(n(text)), "{text}");
            assert_eq!(
                from_attribute::<DateTime<Utc>>(n(text)).unwrap(),
                time,
                "{text}"
            );
        }
    }

    #[test]
    fn dates_are_midnight_utc() {
        let d = NaiveDate::from_ymd_opt(1970, 1, 2).unwrap();
        assert_eq!(to_attribute(&d).unwrap(), Some(n("86400")));
        assert_eq!(from_attribute::<NaiveDate>(n("86400")).unwrap(), d);
        let err = from_attribute::<NaiveDate>(n("86401"))
            .unwrap_err()
            .at("day");
        assert_eq!(
            err.to_string(),
            "attribute `day`: expected epoch seconds at midnight UTC (NaiveDate), found N 86401"
        );
    }

    #[test]
    fn options_and_missing_values() {
        assert_eq!(to_attribute(&None::<DateTime<Utc>>).unwrap(), None);
        assert_eq!(from_missing::<Option<NaiveDate>>().unwrap(), None);
        assert_eq!(
            from_attribute::<Option<NaiveDate>>(AttributeValue::Null).unwrap(),
            None
        );
        assert_eq!(
            from_attribute::<Option<NaiveDate>>(n("0")).unwrap(),
            NaiveDate::from_ymd_opt(1970, 1, 1)
        );
        let err = from_missing::<DateTime<Utc>>().unwrap_err();
        assert_eq!(err.expected, "epoch seconds (DateTime<Utc>)");
        assert_eq!(key_type::<NaiveDate>(), ScalarAttributeType::N);
    }

    #[test]
    fn bad_numbers_are_errors() {
        let err = from_attribute::<DateTime<Utc>>(AttributeValue::S("1".into())).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("epoch seconds (DateTime<Utc>)", "S")
        );
        assert!(from_attribute::<DateTime<Utc>>(n("1E100")).is_err());
        assert!(from_attribute::<DateTime<Utc>>(n("0.0000000001")).is_err());
    }
}
