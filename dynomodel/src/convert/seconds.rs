//! The operand types of fields stored as seconds: [`EpochSeconds<T>`] for `#[dynomodel(epoch_seconds)]`
//! fields and [`Ttl<T>`] for `#[ttl]` fields.
//!
//! A field stored through an adapter is not stored the way its Rust type is on its own: a
//! `DateTime<Utc>` is an S string, but an `epoch_seconds` or `#[ttl]` `DateTime<Utc>` is an N. Its typed
//! handle therefore cannot be a `Field<M, DateTime<Utc>>`, which would render a comparison's operand as
//! a string and silently match nothing. `#[derive(Model)]` gives such a field a handle whose value type
//! encodes like the field: `Field<M, EpochSeconds<DateTime<Utc>>>` or `Field<M, Ttl<DateTime<Utc>>>`
//! (`Field<M, Option<…>>` for an `Option` field). The wrappers accept the plain value wherever an operand
//! is expected ([`IntoValue`]), so conditions and updates are written with the field's own type:
//!
//! ```
//! use chrono::{DateTime, TimeZone, Utc};
//! use dynomodel::{AttributeValue, Field, Model, convert::Ttl};
//! use dynomodel::expression::ExpressionContext;
//!
//! #[derive(Model, Debug, Clone, PartialEq)]
//! struct Session {
//!     #[hash_key]
//!     id: String,
//!     #[ttl]
//!     expires: DateTime<Utc>,
//! }
//!
//! let _: Field<Session, Ttl<DateTime<Utc>>> = Session::expires();
//! let now = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap();
//! let mut ctx = ExpressionContext::new();
//! assert_eq!(ctx.condition(&Session::expires().lt(now))?, "#n0 < :v0");
//! let (_, values) = ctx.finish();
//! // Seconds since the epoch, as the attribute is stored; not the string `2023-11-14T22:13:20…Z`.
//! assert_eq!(values[":v0"].to_string(), r#"{"N":"1700000000"}"#);
//! # Ok::<(), dynomodel::Error>(())
//! ```
//!
//! The wrappers are also ordinary attribute types: a field declared as `EpochSeconds<DateTime<Utc>>`
//! needs no field option, and an `EpochSeconds` of a `DateTime<Utc>` or `NaiveDate` can be a key.

use super::epoch_seconds::{EpochSecondsField, EpochSecondsKey};
use super::ttl::TtlAttribute;
use super::{Attribute, KeyAttribute};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::expression::{FieldValue, IntoValue, Ordered};
use crate::value::AttributeValue;

/// A date or time stored as a number (N) of seconds since the Unix epoch, sub-seconds kept as a
/// fraction: the value type of an `#[dynomodel(epoch_seconds)]` field's handle (see
/// [`convert::epoch_seconds`](super::epoch_seconds)). `T` is a `DateTime<Utc>` or a `NaiveDate`.
///
/// ```
/// use chrono::{TimeZone, Utc};
/// use dynomodel::{convert::EpochSeconds, Attribute, AttributeValue};
/// let t = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap();
/// assert_eq!(EpochSeconds(t).to_attribute()?, Some(AttributeValue::N(1_700_000_000.into())));
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EpochSeconds<T>(pub T);

/// An expiry time stored as a number (N) of whole seconds since the Unix epoch, rounded down: the value
/// type of a `#[ttl]` field's handle (see [`convert::ttl`](super::ttl)). `T` is a `DateTime<Utc>`, a
/// `SystemTime` or an integer.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use dynomodel::{convert::Ttl, Attribute, AttributeValue};
/// let t = SystemTime::UNIX_EPOCH + Duration::from_millis(1_700_000_000_900);
/// assert_eq!(Ttl(t).to_attribute()?, Some(AttributeValue::N(1_700_000_000.into())));
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ttl<T>(pub T);

impl<T> EpochSeconds<T> {
    /// The wrapped value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Ttl<T> {
    /// The wrapped value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: EpochSecondsField> Attribute for EpochSeconds<T> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        self.0.to_epoch_seconds()
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        T::from_epoch_seconds(value).map(EpochSeconds)
    }

    fn from_missing() -> Result<Self, ConversionError> {
        T::epoch_seconds_missing().map(EpochSeconds)
    }

    fn expected() -> String {
        T::epoch_seconds_expected()
    }
}

/// `DateTime<Utc>` and `NaiveDate` always convert to a number, as a key must.
impl<T: EpochSecondsKey> KeyAttribute for EpochSeconds<T> {
    const SCALAR_TYPE: ScalarAttributeType = ScalarAttributeType::N;
}

impl<T: TtlAttribute> Attribute for Ttl<T> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        self.0.to_ttl()
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        T::from_ttl(value).map(Ttl)
    }

    fn from_missing() -> Result<Self, ConversionError> {
        T::ttl_missing().map(Ttl)
    }

    fn expected() -> String {
        T::ttl_expected()
    }
}

/// Numbers, whichever the wrapped type: ordered as the times they stand for.
impl<T> Ordered for EpochSeconds<T> {}

/// Numbers, whichever the wrapped type: ordered as the times they stand for.
impl<T> Ordered for Ttl<T> {}

wrapper_values!(EpochSeconds, Ttl);

impl<T> From<T> for EpochSeconds<T> {
    fn from(value: T) -> Self {
        EpochSeconds(value)
    }
}

impl<T> From<T> for Ttl<T> {
    fn from(value: T) -> Self {
        Ttl(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{DateTime, NaiveDate, TimeZone, Utc};
    use std::time::SystemTime;

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.parse().expect("valid number"))
    }

    fn take<T>(value: impl IntoValue<T>) -> T {
        value.into_value()
    }

    #[test]
    fn wrappers_encode_like_their_adapters() {
        let t = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap()
            + chrono::Duration::milliseconds(250);
        // epoch_seconds keeps the fraction; ttl rounds down to whole seconds.
        assert_eq!(
            EpochSeconds(t).to_attribute().unwrap(),
            Some(n("1700000000.25"))
        );
        assert_eq!(Ttl(t).to_attribute().unwrap(), Some(n("1700000000")));
        assert_eq!(
            Ttl(1_700_000_000u64).to_attribute().unwrap(),
            Some(n("1700000000"))
        );
        assert_eq!(
            EpochSeconds::<DateTime<Utc>>::from_attribute(n("1700000000.25")).unwrap(),
            EpochSeconds(t)
        );
        let day = NaiveDate::from_ymd_opt(1970, 1, 2).unwrap();
        assert_eq!(EpochSeconds(day).to_attribute().unwrap(), Some(n("86400")));
        assert_eq!(
            <EpochSeconds<NaiveDate> as KeyAttribute>::SCALAR_TYPE,
            ScalarAttributeType::N
        );
    }

    #[test]
    fn absent_and_wrong_values() {
        assert_eq!(Option::<Ttl<SystemTime>>::from_missing().unwrap(), None);
        assert_eq!(Ttl(None::<SystemTime>).to_attribute().unwrap(), None);
        let err = EpochSeconds::<DateTime<Utc>>::from_missing().unwrap_err();
        assert_eq!(err.expected, "epoch seconds (DateTime<Utc>)");
        let err = Ttl::<SystemTime>::from_attribute(AttributeValue::S("x".into())).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("epoch seconds (SystemTime)", "S")
        );
    }

    #[test]
    // The borrows are what is under test: the `&T` and `&Option<T>` impls.
    #[allow(clippy::needless_borrows_for_generic_args)]
    fn plain_values_are_accepted_where_a_wrapper_is_expected() {
        let t = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap();
        let wrapped: EpochSeconds<DateTime<Utc>> = take(t);
        assert_eq!(wrapped, EpochSeconds(t));
        let wrapped: EpochSeconds<DateTime<Utc>> = take(&t);
        assert_eq!(wrapped, EpochSeconds(t));
        let optional: Option<Ttl<DateTime<Utc>>> = take(t);
        assert_eq!(optional, Some(Ttl(t)));
        let optional: Option<Ttl<DateTime<Utc>>> = take(None::<DateTime<Utc>>);
        assert_eq!(optional, None);
        let optional: Option<Ttl<DateTime<Utc>>> = take(&Some(t));
        assert_eq!(optional, Some(Ttl(t)));
        // An integer literal takes the wrapped integer's type.
        let seconds: Ttl<u64> = take(1_700_000_000);
        assert_eq!(seconds, Ttl(1_700_000_000u64));
    }
}
