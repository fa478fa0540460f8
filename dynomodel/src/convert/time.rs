//! Dates and times as ISO 8601 strings (S) that sort in time order.
//!
//! `DateTime<Utc>` is written `YYYY-MM-DDTHH:MM:SS.fffffffffZ`, always with nine fractional digits:
//! a fixed width is what makes byte order (DynamoDB's order for S) equal time order, which sort-key
//! range conditions depend on. A variable fraction would put `…00.5Z` before `…00Z`, since `.` < `Z`.
//! Reading accepts any RFC 3339 text, e.g. `2026-11-21T10:00:00Z` or `2026-11-21T12:00:00+02:00`.
//! Other widths are written through the `datetime` option ([`datetime`](super::datetime)).
//! `NaiveDate` is written `YYYY-MM-DD`. Years outside 0000–9999 would break the fixed width (chrono
//! writes `+10000-…`), so they are rejected on write.

use std::fmt::Write as _;

use chrono::{DateTime, Datelike, NaiveDate, SecondsFormat, Utc};

use super::{mismatch, Attribute, KeyAttribute};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::value::AttributeValue;

/// How `NaiveDate` is read; written by [`write_date`], without a pattern to interpret per value.
const DATE_FORMAT: &str = "%Y-%m-%d";

/// `YYYY-MM-DD` of a date whose year is 0000–9999.
fn write_date(date: NaiveDate) -> String {
    let mut text = String::with_capacity(10);
    // Writing to a `String` cannot fail.
    let _ = write!(
        text,
        "{:04}-{:02}-{:02}",
        date.year(),
        date.month(),
        date.day()
    );
    text
}

fn check_year<T: Attribute>(year: i32, shown: impl ToString) -> Result<(), ConversionError> {
    if (0..=9999).contains(&year) {
        Ok(())
    } else {
        Err(ConversionError::new(
            format!("{} with a year from 0000 to 9999", T::expected()),
            shown.to_string(),
        ))
    }
}

impl Attribute for DateTime<Utc> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        check_year::<Self>(self.year(), self)?;
        // chrono's RFC 3339 writer (no strftime pattern interpreted per value): nine fractional
        // digits and `Z`, what `%Y-%m-%dT%H:%M:%S%.9fZ` wrote for a year of 0000–9999.
        Ok(Some(AttributeValue::S(
            self.to_rfc3339_opts(SecondsFormat::Nanos, true),
        )))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::S(s) => DateTime::parse_from_rfc3339(&s)
                .map(|t| t.with_timezone(&Utc))
                .map_err(|_| ConversionError::new(Self::expected(), format!("S {s:?}"))),
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        "an RFC 3339 date-time (DateTime<Utc>)".to_owned()
    }
}

impl KeyAttribute for DateTime<Utc> {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::S;
}

impl Attribute for NaiveDate {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        check_year::<Self>(self.year(), self)?;
        Ok(Some(AttributeValue::S(write_date(*self))))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::S(s) => NaiveDate::parse_from_str(&s, DATE_FORMAT)
                .map_err(|_| ConversionError::new(Self::expected(), format!("S {s:?}"))),
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        "a YYYY-MM-DD date (NaiveDate)".to_owned()
    }
}

impl KeyAttribute for NaiveDate {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::S;
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn stored_string<T: Attribute>(value: &T) -> String {
        match value.to_attribute().unwrap() {
            Some(AttributeValue::S(s)) => s,
            other => panic!("not a string: {other:?}"),
        }
    }

    #[test]
    fn date_times_are_fixed_width_rfc3339() {
        let t = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
        assert_eq!(stored_string(&t), "2026-11-21T10:00:00.000000000Z");
        let precise = t + chrono::Duration::nanoseconds(123_456_789);
        assert_eq!(stored_string(&precise), "2026-11-21T10:00:00.123456789Z");
        for value in [t, precise] {
            let stored = value.to_attribute().unwrap().unwrap();
            assert_eq!(DateTime::<Utc>::from_attribute(stored).unwrap(), value);
        }
    }

    /// The writers without a pattern write what the strftime patterns they replaced wrote, over
    /// the years, fractions and leap seconds a stored value can hold.
    #[test]
    fn writers_equal_the_strftime_patterns() {
        let years = [0, 1, 999, 1000, 1970, 2026, 9999];
        let nanos = [0, 1, 999, 1_000, 123_456_789, 500_000_000, 999_999_999];
        for year in years {
            for (month, day) in [(1, 1), (2, 28), (12, 31)] {
                let date = NaiveDate::from_ymd_opt(year, month, day).unwrap();
                assert_eq!(stored_string(&date), date.format("%Y-%m-%d").to_string());
                for nano in nanos {
                    let t = date.and_hms_nano_opt(23, 59, 59, nano).unwrap().and_utc();
                    let pattern = t.format("%Y-%m-%dT%H:%M:%S%.9fZ").to_string();
                    assert_eq!(stored_string(&t), pattern, "{t:?}");
                }
                // A leap second (chrono's nanoseconds past 10⁹).
                let leap = date
                    .and_hms_nano_opt(23, 59, 59, 1_250_000_000)
                    .unwrap()
                    .and_utc();
                let pattern = leap.format("%Y-%m-%dT%H:%M:%S%.9fZ").to_string();
                assert_eq!(stored_string(&leap), pattern);
            }
        }
    }

    #[test]
    fn stored_strings_sort_in_time_order() {
        let base = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
        let times: Vec<DateTime<Utc>> = [
            0,
            1,
            500_000_000,
            999_999_999,
            1_000_000_000,
            60_000_000_000,
        ]
        .into_iter()
        .map(|ns| base + chrono::Duration::nanoseconds(ns))
        .chain([Utc.with_ymd_and_hms(999, 1, 1, 0, 0, 0).unwrap()])
        .collect();
        let mut by_string = times.clone();
        by_string.sort_by_key(stored_string);
        let mut by_time = times;
        by_time.sort();
        assert_eq!(by_string, by_time);
    }

    #[test]
    fn reading_accepts_any_rfc3339() {
        let read = |s: &str| DateTime::<Utc>::from_attribute(AttributeValue::S(s.into())).unwrap();
        let t = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
        assert_eq!(read("2026-11-21T10:00:00Z"), t);
        assert_eq!(read("2026-11-21T12:00:00+02:00"), t);
        assert_eq!(
            read("2026-11-21T10:00:00.5Z"),
            t + chrono::Duration::milliseconds(500)
        );
    }

    #[test]
    fn bad_date_times_are_errors() {
        let err = DateTime::<Utc>::from_attribute(AttributeValue::S("yesterday".into()))
            .unwrap_err()
            .at("ts");
        assert_eq!(
            err.to_string(),
            "attribute `ts`: expected an RFC 3339 date-time (DateTime<Utc>), found S \"yesterday\""
        );
        let err = DateTime::<Utc>::from_attribute(AttributeValue::N(1.into())).unwrap_err();
        assert_eq!(err.found, "N");
        let far = Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0).unwrap();
        let err = far.to_attribute().unwrap_err();
        assert!(
            err.expected.ends_with("with a year from 0000 to 9999"),
            "{err}"
        );
    }

    #[test]
    fn dates_round_trip() {
        let d = NaiveDate::from_ymd_opt(2026, 2, 3).unwrap();
        assert_eq!(stored_string(&d), "2026-02-03");
        let stored = d.to_attribute().unwrap().unwrap();
        assert_eq!(NaiveDate::from_attribute(stored).unwrap(), d);
        let err = NaiveDate::from_attribute(AttributeValue::S("2026-2-30".into())).unwrap_err();
        assert_eq!(err.expected, "a YYYY-MM-DD date (NaiveDate)");
        assert!(NaiveDate::from_ymd_opt(-1, 1, 1)
            .unwrap()
            .to_attribute()
            .is_err());
    }
}
