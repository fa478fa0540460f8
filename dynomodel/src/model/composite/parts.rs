//! [`CompositePart`]: how one field is written inside a composite key, as text that sorts like the value.

use chrono::{DateTime, NaiveDate, Utc};

use crate::convert::datetime::{self, Nanos, Rfc3339, Width};
use crate::error::ConversionError;

/// A type that can be one part of a composite key (`#[composite(sk = ("ORDER", date, id))]`).
///
/// DynamoDB sorts a string key by its UTF-8 bytes, so each part is written as text that sorts like the
/// value:
///
/// | type | text | why |
/// |---|---|---|
/// | `String` | as it is | |
/// | `u8`, `u16`, `u32`, `u64` | zero-padded to the type's full width (`u32` 7 → `0000000007`) | `"10" < "9"` as text; padded, `"0000000010" > "0000000009"` |
/// | `NaiveDate` | `2026-01-01` (ISO-8601, years 0–9999) | fixed width, most significant first |
/// | `DateTime<Utc>` | `2026-01-01T10:00:00.000000000Z` (always nine fractional digits) | a variable fraction would sort `…:00.5Z` before `…:00Z` |
/// | [`Rfc3339<W>`](crate::convert::datetime::Rfc3339) (a `DateTime<Utc>` field with `datetime = "millis"`) | `2026-01-01T10:00:00.000Z` (the width's digits) | as above |
///
/// Signed integers are not parts: a negative number has no fixed-width text that both reads as the
/// number and sorts like it. Reading a part back is strict (the width must match), so a stored key
/// written by another tool in another shape is a [`ConversionError`], not a wrong value.
///
/// Order caveat: the composite sorts like its parts as long as the parts before the last hold no
/// character below the separator or the separator itself (`#` is U+0023, above only space, `!` and
/// `"`); the texts above never do. The last part may hold anything: the values that share the
/// leading parts compare as their last parts.
///
/// ```
/// use chrono::NaiveDate;
/// use dynomodel::CompositePart;
///
/// assert_eq!(7u32.to_part()?, "0000000007");
/// assert_eq!(u32::from_part("0000000007")?, 7);
/// let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
/// assert_eq!(day.to_part()?, "2026-01-01");
/// assert!(u32::from_part("7").is_err());
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a part of a composite key",
    label = "not a composite part",
    note = "composite parts are String, u8, u16, u32, u64, chrono::NaiveDate and chrono::DateTime<Utc> (never an Option: a key part is always present)"
)]
pub trait CompositePart: Sized {
    /// The part's text.
    ///
    /// Errors: the value has no text of this shape (a year after 9999).
    fn to_part(&self) -> Result<String, ConversionError>;

    /// The value of a part's text.
    ///
    /// Errors: the text is not of this shape.
    fn from_part(text: &str) -> Result<Self, ConversionError>;
}

impl CompositePart for String {
    fn to_part(&self) -> Result<String, ConversionError> {
        Ok(self.clone())
    }

    fn from_part(text: &str) -> Result<Self, ConversionError> {
        Ok(text.to_owned())
    }
}

macro_rules! unsigned {
    ($($t:ty => $width:literal),*) => {$(
        impl CompositePart for $t {
            fn to_part(&self) -> Result<String, ConversionError> {
                Ok(format!("{:0width$}", self, width = $width))
            }

            fn from_part(text: &str) -> Result<Self, ConversionError> {
                let expected = || {
                    format!(concat!("a ", stringify!($width), "-digit zero-padded number (", stringify!($t), ")"))
                };
                if text.len() != $width || !text.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(ConversionError::new(expected(), format!("{text:?}")));
                }
                text.parse().map_err(|_| ConversionError::new(expected(), format!("{text:?}")))
            }
        }
    )*};
}

unsigned!(u8 => 3, u16 => 5, u32 => 10, u64 => 20);

/// Years outside 0–9999 have a sign or a fifth digit in ISO-8601 and would not sort as text.
fn four_digit_year(year: i32, found: impl FnOnce() -> String) -> Result<(), ConversionError> {
    if (0..=9999).contains(&year) {
        Ok(())
    } else {
        Err(ConversionError::new(
            "a date in the years 0 to 9999",
            found(),
        ))
    }
}

impl CompositePart for NaiveDate {
    fn to_part(&self) -> Result<String, ConversionError> {
        use chrono::Datelike as _;
        four_digit_year(self.year(), || self.to_string())?;
        Ok(self.format("%Y-%m-%d").to_string())
    }

    fn from_part(text: &str) -> Result<Self, ConversionError> {
        let expected = "an ISO-8601 date YYYY-MM-DD";
        if text.len() != 10 {
            return Err(ConversionError::new(expected, format!("{text:?}")));
        }
        NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .map_err(|_| ConversionError::new(expected, format!("{text:?}")))
    }
}

impl CompositePart for DateTime<Utc> {
    fn to_part(&self) -> Result<String, ConversionError> {
        datetime::to_text::<Nanos>(self)
    }

    fn from_part(text: &str) -> Result<Self, ConversionError> {
        datetime::from_part_text::<Nanos>(text)
    }
}

/// A `datetime = "..."` field's part: the text at width `W`, read back at that width only.
impl<W: Width> CompositePart for Rfc3339<W> {
    fn to_part(&self) -> Result<String, ConversionError> {
        datetime::to_text::<W>(&self.0)
    }

    fn from_part(text: &str) -> Result<Self, ConversionError> {
        datetime::from_part_text::<W>(text).map(Rfc3339::new)
    }
}
