//! The field types the mapper maintains itself: [`CounterAttribute`] for `#[dynomodel(counter)]`
//! fields and [`TimestampAttribute`] for `#[created_at]` / `#[updated_at]` fields. The derive names
//! them at the field's type, so a field of another type is reported there with their messages.

use std::collections::{BTreeSet, HashSet};

use chrono::{DateTime, Utc};

use crate::value::Number;

/// A type that may be a `#[dynomodel(counter)]` field: a number or a set (or an `Option` of one),
/// what `ADD` applies to. See [counters](crate::Model#counters-dynomodelcounter).
///
/// ```
/// fn counter<T: dynomodel::convert::CounterAttribute>() {}
/// counter::<u64>();
/// counter::<Option<i32>>();
/// counter::<std::collections::BTreeSet<String>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a counter: a counter is a number or a set",
    label = "`#[dynomodel(counter)]` needs a number or a set type",
    note = "a counter changes by atomic `ADD` (numbers, sets) and `DELETE` (sets)"
)]
pub trait CounterAttribute {}

macro_rules! counters {
    ($($t:ty),* $(,)?) => {$(
        impl CounterAttribute for $t {}
        impl CounterAttribute for Option<$t> {}
    )*};
}

counters!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);
counters!(Number, rust_decimal::Decimal);

impl<E, S> CounterAttribute for HashSet<E, S> {}
impl<E, S> CounterAttribute for Option<HashSet<E, S>> {}
impl<E> CounterAttribute for BTreeSet<E> {}
impl<E> CounterAttribute for Option<BTreeSet<E>> {}

/// A type that may be a `#[created_at]` or `#[updated_at]` field: `DateTime<Utc>` or
/// `Option<DateTime<Utc>>`. See [timestamps](crate::Model#timestamps-created_at-updated_at).
///
/// A value *not stamped yet* is `None`, or the Unix epoch (`DateTime::<Utc>::default()`, what a
/// new value of a plain `DateTime<Utc>` field usually holds): a write stamps a `#[created_at]`
/// holding either, and keeps any other time.
///
/// ```
/// use chrono::{DateTime, TimeZone, Utc};
/// use dynomodel::convert::TimestampAttribute;
///
/// let t = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
/// assert_eq!(t.stamp(), Some(t));
/// assert_eq!(DateTime::<Utc>::default().stamp(), None); // the epoch: not stamped yet
/// assert_eq!(None::<DateTime<Utc>>.stamp(), None);
/// assert_eq!(<Option<DateTime<Utc>>>::from_stamp(t), Some(t));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a timestamp: the mapper stamps a `DateTime<Utc>`",
    label = "`#[created_at]` and `#[updated_at]` need `DateTime<Utc>` or `Option<DateTime<Utc>>`",
    note = "store it as epoch seconds with `#[dynomodel(epoch_seconds)]`, or as text of a chosen width with `datetime = \"millis\"`"
)]
pub trait TimestampAttribute {
    /// The time this value holds: `None` when it was not stamped yet (`None`, or the Unix epoch).
    fn stamp(&self) -> Option<DateTime<Utc>>;

    /// The value holding `at`.
    fn from_stamp(at: DateTime<Utc>) -> Self;
}

impl TimestampAttribute for DateTime<Utc> {
    fn stamp(&self) -> Option<DateTime<Utc>> {
        (*self != DateTime::UNIX_EPOCH).then_some(*self)
    }

    fn from_stamp(at: DateTime<Utc>) -> Self {
        at
    }
}

impl TimestampAttribute for Option<DateTime<Utc>> {
    fn stamp(&self) -> Option<DateTime<Utc>> {
        self.and_then(|at| at.stamp())
    }

    fn from_stamp(at: DateTime<Utc>) -> Self {
        Some(at)
    }
}
