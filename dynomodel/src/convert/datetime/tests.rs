//! Widths: the texts, truncation, reading any RFC 3339 text, order within a width, and parts.

use chrono::{Duration, TimeZone};

use super::*;
use crate::model::CompositePart;

fn at() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap() + Duration::nanoseconds(947_123_456)
}

fn text<W: Width>(t: DateTime<Utc>) -> String {
    match Rfc3339::<W>::new(t).to_attribute() {
        Ok(Some(AttributeValue::S(s))) => s,
        other => panic!("not a string: {other:?}"),
    }
}

#[test]
fn each_width_writes_its_digits_truncated() {
    assert_eq!(text::<Seconds>(at()), "2015-09-15T19:58:22Z");
    assert_eq!(text::<Millis>(at()), "2015-09-15T19:58:22.947Z");
    assert_eq!(text::<Micros>(at()), "2015-09-15T19:58:22.947123Z");
    assert_eq!(text::<Nanos>(at()), "2015-09-15T19:58:22.947123456Z");
    // Nanos is exactly how a plain DateTime<Utc> is stored.
    assert_eq!(
        at().to_attribute().unwrap(),
        Some(AttributeValue::S(text::<Nanos>(at())))
    );
    // Truncated, never rounded up into the next second.
    let late = Utc.with_ymd_and_hms(2015, 12, 31, 23, 59, 59).unwrap()
        + Duration::nanoseconds(999_999_999);
    assert_eq!(text::<Millis>(late), "2015-12-31T23:59:59.999Z");
    assert_eq!(text::<Seconds>(late), "2015-12-31T23:59:59Z");
}

#[test]
fn any_rfc3339_text_is_read() {
    let read = |s: &str| {
        Rfc3339::<Millis>::from_attribute(AttributeValue::S(s.into()))
            .unwrap()
            .into_inner()
    };
    let whole = Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap();
    assert_eq!(read("2015-09-15T19:58:22Z"), whole);
    assert_eq!(
        read("2015-09-15T19:58:22.9Z"),
        whole + Duration::milliseconds(900)
    );
    assert_eq!(read("2015-09-15T19:58:22.947123456Z"), at());
    assert_eq!(read("2015-09-15T21:58:22.947123456+02:00"), at());
    let err = Rfc3339::<Millis>::from_attribute(AttributeValue::S("yesterday".into()))
        .unwrap_err()
        .at("at");
    assert_eq!(
        err.to_string(),
        "attribute `at`: expected an RFC 3339 date-time (DateTime<Utc>, stored in millis), found S \"yesterday\""
    );
    let err = Rfc3339::<Millis>::from_attribute(AttributeValue::N(1.into())).unwrap_err();
    assert_eq!(err.found, "N");
}

#[test]
fn texts_of_one_width_sort_in_time_order() {
    let base = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
    let times: Vec<DateTime<Utc>> = [
        0,
        1_000_000,
        500_000_000,
        999_000_000,
        1_000_000_000,
        60_000_000_000,
    ]
    .into_iter()
    .map(|ns| base + Duration::nanoseconds(ns))
    .collect();
    fn sorted_by_text<W: Width>(times: &[DateTime<Utc>]) -> Vec<DateTime<Utc>> {
        let mut by_text = times.to_vec();
        by_text.sort_by_key(|t| text::<W>(*t));
        by_text
    }
    assert_eq!(sorted_by_text::<Seconds>(&times), times);
    assert_eq!(sorted_by_text::<Millis>(&times), times);
    assert_eq!(sorted_by_text::<Micros>(&times), times);
    // The documented caveat: two widths of one time do not sort together.
    assert!(text::<Millis>(base) > text::<Nanos>(base));
}

#[test]
fn years_beyond_four_digits_are_refused() {
    let far = Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0).unwrap();
    let err = Rfc3339::<Millis>::new(far).to_attribute().unwrap_err();
    assert!(
        err.expected.ends_with("with a year from 0000 to 9999"),
        "{err}"
    );
}

#[test]
fn fields_and_parts() {
    assert_eq!(
        at().to_datetime::<Millis>().unwrap(),
        Some(AttributeValue::S("2015-09-15T19:58:22.947Z".into()))
    );
    assert_eq!(None::<DateTime<Utc>>.to_datetime::<Millis>().unwrap(), None);
    assert_eq!(
        Option::<DateTime<Utc>>::datetime_missing::<Millis>().unwrap(),
        None
    );
    assert!(DateTime::<Utc>::datetime_missing::<Millis>().is_err());
    let part = Rfc3339::<Millis>::new(at()).to_part().unwrap();
    assert_eq!(part, "2015-09-15T19:58:22.947Z");
    let truncated =
        Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap() + Duration::milliseconds(947);
    assert_eq!(Rfc3339::<Millis>::from_part(&part).unwrap().0, truncated);
    assert_eq!(
        DateTime::<Utc>::from_part_at::<Millis>(&part).unwrap(),
        truncated
    );
    // A part is read at its width only.
    let err = Rfc3339::<Millis>::from_part("2015-09-15T19:58:22Z").unwrap_err();
    assert_eq!(
        err.expected,
        "an ISO-8601 UTC time YYYY-MM-DDTHH:MM:SS.nnnZ"
    );
    assert!(Rfc3339::<Seconds>::from_part("2015-09-15T19:58:22Z").is_ok());
}
