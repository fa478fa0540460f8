//! The `datetime` option: a `DateTime<Utc>` stored as RFC 3339 text (S) with a chosen number of
//! fractional digits, instead of the default nine.
//!
//! `#[dynomodel(datetime = "millis")]` on a field (or on the struct, for every `DateTime<Utc>` field
//! spelled so, and `Option` of one) writes `2015-09-15T19:58:22.947Z`, the width of the AWS Developer
//! Guide's samples and of most other code; `seconds`, `micros` and `nanos` (the default,
//! `…22.947000000Z`) are the others. Every value of a width has the same length, which is what makes
//! DynamoDB's byte order of the strings their time order; two widths do not sort together
//! (`…22.947Z` > `…22.947000000Z`, since `Z` > `0`), so a table's items, written by this model or by
//! other code, should share one width, and this option is how a model joins an existing one.
//!
//! - **Writes truncate** to the width (never round, which could carry into the next second): with
//!   `millis`, `…22.947999Z` is stored as `…22.947Z`, and reads back so.
//! - **Everywhere the value is written**: the attribute, the table's and indexes' keys, a composite's
//!   part, and the operands of conditions, key conditions and updates built from the field's handle,
//!   whose value type is [`Rfc3339<W>`] (it takes a plain `DateTime<Utc>`), so that `gt(t)` compares
//!   at the stored width. A condition compares at that width too: `gt(…22.947999Z)` is
//!   `> "…22.947Z"`, which an item stored as `…22.947Z` does not satisfy.
//! - **Reads accept any RFC 3339 text**: any fraction (`…22Z`, `…22.9Z`, `…22.947000000Z`) and any
//!   offset (`…+02:00`, converted to UTC), so items written at another width still decode. A
//!   composite's part is read at its declared width only (a key's shape is fixed).
//!
//! ```
//! use chrono::{DateTime, TimeZone, Utc};
//! use dynomodel::convert::datetime::{Millis, Rfc3339};
//! use dynomodel::{AttributeValue, Field, Model};
//! use dynomodel::expression::ExpressionContext;
//!
//! #[derive(Model, Debug, Clone, PartialEq)]
//! struct Reply {
//!     #[hash_key]
//!     id: String,
//!     #[range_key]
//!     #[dynomodel(datetime = "millis")]
//!     at: DateTime<Utc>,
//! }
//!
//! let at = Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap() + chrono::Duration::microseconds(947_999);
//! let item = Reply { id: "r".into(), at }.to_item()?;
//! assert_eq!(item["at"], AttributeValue::S("2015-09-15T19:58:22.947Z".into()));
//!
//! let _: Field<Reply, Rfc3339<Millis>, _> = Reply::at();
//! let mut ctx = ExpressionContext::new();
//! ctx.condition(&Reply::at().gt(at))?;
//! assert_eq!(ctx.finish().1[":v0"], AttributeValue::S("2015-09-15T19:58:22.947Z".into()));
//! # Ok::<(), dynomodel::Error>(())
//! ```

use std::fmt;
use std::marker::PhantomData;

use chrono::{DateTime, Datelike as _, SecondsFormat, Utc};

use super::{mismatch, Attribute, KeyAttribute};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::expression::{FieldValue, IntoValue, Ordered};
use crate::value::AttributeValue;

mod sealed {
    pub trait Sealed {}
}

/// A stored width: [`Seconds`], [`Millis`], [`Micros`] or [`Nanos`] (sealed).
pub trait Width: sealed::Sealed + Copy + Send + Sync + 'static {
    /// The number of fractional digits: 0, 3, 6 or 9.
    const DIGITS: usize;
    /// The option's value, `"millis"`.
    const NAME: &'static str;
    /// chrono's name for it.
    const FORMAT: SecondsFormat;
}

macro_rules! widths {
    ($($(#[$doc:meta])* $width:ident = $digits:literal, $name:literal, $format:ident;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $width;

        impl sealed::Sealed for $width {}

        impl Width for $width {
            const DIGITS: usize = $digits;
            const NAME: &'static str = $name;
            const FORMAT: SecondsFormat = SecondsFormat::$format;
        }
    )*};
}

widths! {
    /// Whole seconds, `2015-09-15T19:58:22Z` (`datetime = "seconds"`).
    Seconds = 0, "seconds", Secs;
    /// Milliseconds, `2015-09-15T19:58:22.947Z` (`datetime = "millis"`).
    Millis = 3, "millis", Millis;
    /// Microseconds, `2015-09-15T19:58:22.947000Z` (`datetime = "micros"`).
    Micros = 6, "micros", Micros;
    /// Nanoseconds, `2015-09-15T19:58:22.947000000Z`: how a `DateTime<Utc>` is stored without the
    /// option (`datetime = "nanos"`).
    Nanos = 9, "nanos", Nanos;
}

/// The text of `t` at width `W`, truncated: RFC 3339 in UTC with `W::DIGITS` fractional digits.
///
/// Errors: a year outside 0000–9999, whose text would have another width (`+10000-…`).
pub fn to_text<W: Width>(t: &DateTime<Utc>) -> Result<String, ConversionError> {
    if !(0..=9999).contains(&t.year()) {
        return Err(ConversionError::new(
            format!("{} with a year from 0000 to 9999", expected::<W>()),
            t.to_string(),
        ));
    }
    Ok(t.to_rfc3339_opts(W::FORMAT, true))
}

/// What a date-time of width `W` expects, for error messages.
fn expected<W: Width>() -> String {
    format!(
        "an RFC 3339 date-time (DateTime<Utc>, stored in {})",
        W::NAME
    )
}

/// The length of every text of width `W`: `YYYY-MM-DDTHH:MM:SS`, the fraction, `Z`.
const fn text_len<W: Width>() -> usize {
    19 + if W::DIGITS == 0 { 0 } else { W::DIGITS + 1 } + 1
}

/// The value of a composite part's text, which must have width `W` exactly (a key's shape is fixed).
pub(crate) fn from_part_text<W: Width>(text: &str) -> Result<DateTime<Utc>, ConversionError> {
    let expected = || {
        let fraction = if W::DIGITS == 0 {
            String::new()
        } else {
            format!(".{}", "n".repeat(W::DIGITS))
        };
        format!("an ISO-8601 UTC time YYYY-MM-DDTHH:MM:SS{fraction}Z")
    };
    if text.len() != text_len::<W>() || !text.ends_with('Z') {
        return Err(ConversionError::new(expected(), format!("{text:?}")));
    }
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| ConversionError::new(expected(), format!("{text:?}")))
}

/// A `DateTime<Utc>` stored at width `W`: the value type of the handle of a field with the
/// `datetime` option (`Field<M, Rfc3339<Millis>>`), and of its parts in a composite's handle. It
/// takes a plain `DateTime<Utc>` wherever an operand or a key part is expected; `.0` or
/// [`into_inner`](Rfc3339::into_inner) is the value.
///
/// ```
/// use chrono::{TimeZone, Utc};
/// use dynomodel::convert::datetime::{Millis, Rfc3339, Seconds};
/// use dynomodel::{Attribute, AttributeValue};
///
/// let t = Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap() + chrono::Duration::milliseconds(947);
/// assert_eq!(Rfc3339::<Millis>::new(t).to_attribute()?, Some(AttributeValue::S("2015-09-15T19:58:22.947Z".into())));
/// assert_eq!(Rfc3339::<Seconds>::new(t).to_attribute()?, Some(AttributeValue::S("2015-09-15T19:58:22Z".into())));
/// // Any RFC 3339 text reads.
/// let read = Rfc3339::<Millis>::from_attribute(AttributeValue::S("2015-09-15T21:58:22.947000000+02:00".into()))?;
/// assert_eq!(read.into_inner(), t);
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
pub struct Rfc3339<W>(pub DateTime<Utc>, PhantomData<W>);

impl<W> Rfc3339<W> {
    /// `t`, to be stored at width `W`.
    pub const fn new(t: DateTime<Utc>) -> Self {
        Rfc3339(t, PhantomData)
    }

    /// The wrapped value.
    pub const fn into_inner(self) -> DateTime<Utc> {
        self.0
    }
}

impl<W> Clone for Rfc3339<W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<W> Copy for Rfc3339<W> {}

impl<W: Width> fmt::Debug for Rfc3339<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rfc3339<{}>({:?})", W::NAME, self.0)
    }
}

impl<W> PartialEq for Rfc3339<W> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<W> Eq for Rfc3339<W> {}

impl<W> std::hash::Hash for Rfc3339<W> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<W> PartialOrd for Rfc3339<W> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<W> Ord for Rfc3339<W> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

impl<W> From<DateTime<Utc>> for Rfc3339<W> {
    fn from(t: DateTime<Utc>) -> Self {
        Rfc3339::new(t)
    }
}

impl<W: Width> Attribute for Rfc3339<W> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        to_text::<W>(&self.0).map(|text| Some(AttributeValue::S(text)))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::S(_) => DateTime::<Utc>::from_attribute(value)
                .map(Rfc3339::new)
                .map_err(|e| ConversionError::new(Self::expected(), e.found)),
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        expected::<W>()
    }
}

impl<W: Width> KeyAttribute for Rfc3339<W> {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::S;
}

impl<W> FieldValue for Rfc3339<W> {
    type Value = Rfc3339<W>;
}

/// Strings of one width: ordered as the times they stand for.
impl<W> Ordered for Rfc3339<W> {}

impl<W> IntoValue<Rfc3339<W>> for DateTime<Utc> {
    fn into_value(self) -> Rfc3339<W> {
        Rfc3339::new(self)
    }
}

impl<W> IntoValue<Rfc3339<W>> for &DateTime<Utc> {
    fn into_value(self) -> Rfc3339<W> {
        Rfc3339::new(*self)
    }
}

impl<W> IntoValue<Option<Rfc3339<W>>> for DateTime<Utc> {
    fn into_value(self) -> Option<Rfc3339<W>> {
        Some(Rfc3339::new(self))
    }
}

impl<W> IntoValue<Option<Rfc3339<W>>> for &DateTime<Utc> {
    fn into_value(self) -> Option<Rfc3339<W>> {
        Some(Rfc3339::new(*self))
    }
}

impl<W> IntoValue<Option<Rfc3339<W>>> for Option<DateTime<Utc>> {
    fn into_value(self) -> Option<Rfc3339<W>> {
        self.map(Rfc3339::new)
    }
}

impl<W> IntoValue<Option<Rfc3339<W>>> for &Option<DateTime<Utc>> {
    fn into_value(self) -> Option<Rfc3339<W>> {
        self.map(Rfc3339::new)
    }
}

/// A field type the `datetime` option applies to: `DateTime<Utc>` or an `Option` of one. The derive
/// calls it through the trait, so a field of another type is one error at its type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as a date-time of a chosen width",
    label = "`datetime = \"...\"` needs a `DateTime<Utc>`",
    note = "the datetime option applies to DateTime<Utc> and Option<DateTime<Utc>> fields"
)]
pub trait DateTimeField: Sized {
    /// The value as text of width `W`, or `None` for no attribute.
    fn to_datetime<W: Width>(&self) -> Result<Option<AttributeValue>, ConversionError>;
    /// The value from a stored text of any width.
    fn from_datetime<W: Width>(value: AttributeValue) -> Result<Self, ConversionError>;
    /// The value of an absent attribute: `None` for an `Option`, an error otherwise.
    fn datetime_missing<W: Width>() -> Result<Self, ConversionError>;
}

/// A `datetime` field that may be a key or a composite's part: a `DateTime<Utc>`, not an `Option`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a key stored as a date-time of a chosen width",
    label = "keys and composite parts are always present",
    note = "a datetime key or part is a DateTime<Utc>, not an Option"
)]
pub trait DateTimeKey: DateTimeField {
    /// The value as a composite's part of width `W`.
    fn to_part_at<W: Width>(&self) -> Result<String, ConversionError>;
    /// The value of a composite's part of width `W`.
    fn from_part_at<W: Width>(text: &str) -> Result<Self, ConversionError>;
}

impl DateTimeField for DateTime<Utc> {
    fn to_datetime<W: Width>(&self) -> Result<Option<AttributeValue>, ConversionError> {
        Rfc3339::<W>::new(*self).to_attribute()
    }

    fn from_datetime<W: Width>(value: AttributeValue) -> Result<Self, ConversionError> {
        Rfc3339::<W>::from_attribute(value).map(Rfc3339::into_inner)
    }

    fn datetime_missing<W: Width>() -> Result<Self, ConversionError> {
        Err(ConversionError::missing(expected::<W>()))
    }
}

impl DateTimeKey for DateTime<Utc> {
    fn to_part_at<W: Width>(&self) -> Result<String, ConversionError> {
        to_text::<W>(self)
    }

    fn from_part_at<W: Width>(text: &str) -> Result<Self, ConversionError> {
        from_part_text::<W>(text)
    }
}

impl DateTimeField for Option<DateTime<Utc>> {
    fn to_datetime<W: Width>(&self) -> Result<Option<AttributeValue>, ConversionError> {
        match self {
            Some(t) => t.to_datetime::<W>(),
            None => Ok(None),
        }
    }

    fn from_datetime<W: Width>(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::Null => Ok(None),
            value => DateTime::<Utc>::from_datetime::<W>(value).map(Some),
        }
    }

    fn datetime_missing<W: Width>() -> Result<Self, ConversionError> {
        Ok(None)
    }
}

/// The key type of a `datetime` key field (S); does not compile for an `Option`.
pub fn key_type<T: DateTimeKey>() -> ScalarAttributeType {
    ScalarAttributeType::S
}

/// The key type of a `datetime` index key field (S): an `Option` makes a sparse index.
pub fn index_key_type<T: DateTimeField>() -> ScalarAttributeType {
    ScalarAttributeType::S
}

#[cfg(test)]
mod tests;
