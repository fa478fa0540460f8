//! Dates and times as ISO 8601 strings (S) that sort in time order.
//!
//! `DateTime<Utc>` is written `YYYY-MM-DDTHH:MM:SS.fffffffffZ`, always with nine fractional digits:
//! a fixed width is what makes byte order (DynamoDB's order for S) equal time order, which sort-key
//! range conditions depend on. A variable fraction would put `…00.5Z` before `…00Z`, since `.` < `Z`.
//! Reading accepts any RFC 3339 text, e.g. `2026-11-21T10:00:00Z` or `2026-11-21T12:00:00+02:00`.
//! Other widths are written through the `datetime` option ([`datetime`](super::datetime)).
//! `NaiveDate` is written `YYYY-MM-DD`. Years outside 0000–9999 would break the fixed width (chrono
//! writes `+10000-…`), so they are rejected on write.

use chrono::{DateTime, Datelike, NaiveDate, Utc};

use super::{mismatch, Attribute, KeyAttribute};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::value::AttributeValue;

const DATE_TIME_FORMAT: &str = "%Y-%m-%dT%H:%M:%S%.9fZ";
const DATE_FORMAT: &str = "%Y-%m-%d";

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
        Ok(Some(AttributeValue::S(
            self.format(DATE_TIME_FORMAT).to_string(),
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
        Ok(Some(AttributeValue::S(
            self.format(DATE_FORMAT).to_string(),
        )))
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
