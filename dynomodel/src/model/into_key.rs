//! [`IntoKey`]: what may be given where a key value is taken (a get's or an update's key, a query's
//! partition, a composite's parts in a key condition), borrowed strings included.

use chrono::{DateTime, Utc};

use crate::convert::datetime::Rfc3339;
use crate::convert::KeyAttribute;

/// A value that can be given where a key value of type `T` is expected: the hash value of
/// [`Db::query`](crate::Db::query) and [`Db::query_index`](crate::Db::query_index), each half of a
/// key (`db.get::<Reply>((("Amazon DynamoDB", "Thread 1"), at))`), and the parts given to a
/// [`Composite`](crate::Composite) handle's conditions.
///
/// Implemented for:
///
/// - the value itself, for every [`KeyAttribute`], and a reference to one (`&T`, cloned);
/// - `&str` where a `String` is expected;
/// - `&[u8]` and `&Vec<u8>` where a `Vec<u8>` is expected (a binary key field);
/// - `Option<T>` expected (a sparse index's key): what gives a `T`;
/// - a tuple of up to six, part by part: `("forum", "subject")` where a composite key of two
///   `String`s is expected;
/// - a `DateTime<Utc>` where a date-time part stored at another width is expected
///   ([`Rfc3339`](crate::convert::datetime::Rfc3339)).
///
/// A trait of its own rather than [`Into`]: with `Into<u32>`, an integer literal could be any of
/// several integer types and falls back to `i32`, which does not convert; here only one impl fits,
/// so `7` becomes the part's own type. And rather than [`IntoValue`](crate::expression::IntoValue):
/// a blanket "any `T` is a `T`" for every type would overlap the tuple impls, so the identity is
/// for key types only.
///
/// ```
/// use dynomodel::IntoKey;
///
/// fn take<T>(value: impl IntoKey<T>) -> T {
///     value.into_key()
/// }
/// let subject = String::from("Thread 1");
/// let key: (String, String) = take(("Amazon DynamoDB", &subject));
/// assert_eq!(key, ("Amazon DynamoDB".to_owned(), subject));
/// let part: u32 = take(7); // the literal is typed as the part
/// assert_eq!(part, 7);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be given where the key expects a `{T}`",
    label = "expected a key value of type `{T}`",
    note = "a key takes its own type or a reference to it; a `String` also takes a `&str`, and a composite of several parts a tuple of them, `(\"forum\", \"subject\")`"
)]
pub trait IntoKey<T> {
    /// The value as a `T`.
    fn into_key(self) -> T;
}

impl<T: KeyAttribute> IntoKey<T> for T {
    fn into_key(self) -> T {
        self
    }
}

impl<T: KeyAttribute + Clone> IntoKey<T> for &T {
    fn into_key(self) -> T {
        self.clone()
    }
}

impl IntoKey<String> for &str {
    fn into_key(self) -> String {
        self.to_owned()
    }
}

impl IntoKey<Vec<u8>> for Vec<u8> {
    fn into_key(self) -> Vec<u8> {
        self
    }
}

impl IntoKey<Vec<u8>> for &Vec<u8> {
    fn into_key(self) -> Vec<u8> {
        self.clone()
    }
}

impl IntoKey<Vec<u8>> for &[u8] {
    fn into_key(self) -> Vec<u8> {
        self.to_vec()
    }
}

/// A sparse index's key is an `Option` field; its partition is given as a value.
impl<T, X: IntoKey<T>> IntoKey<Option<T>> for X {
    fn into_key(self) -> Option<T> {
        Some(self.into_key())
    }
}

/// A composite's part stored at another width (`datetime = "millis"`) is given as a `DateTime<Utc>`.
impl<W> IntoKey<Rfc3339<W>> for DateTime<Utc> {
    fn into_key(self) -> Rfc3339<W> {
        Rfc3339::new(self)
    }
}

impl<W> IntoKey<Rfc3339<W>> for &DateTime<Utc> {
    fn into_key(self) -> Rfc3339<W> {
        Rfc3339::new(*self)
    }
}

/// `IntoKey` for the tuple of `$T`s from the tuple of `$X`s, part by part (`$i` the positions).
macro_rules! tuples {
    ($($T:ident $X:ident $i:tt),+) => {
        impl<$($T, $X: IntoKey<$T>),+> IntoKey<($($T,)+)> for ($($X,)+) {
            fn into_key(self) -> ($($T,)+) {
                ($(self.$i.into_key(),)+)
            }
        }
    };
}

tuples!(A X0 0);
tuples!(A X0 0, B X1 1);
tuples!(A X0 0, B X1 1, C X2 2);
tuples!(A X0 0, B X1 1, C X2 2, D X3 3);
tuples!(A X0 0, B X1 1, C X2 2, D X3 3, E X4 4);
tuples!(A X0 0, B X1 1, C X2 2, D X3 3, E X4 4, F X5 5);

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, TimeZone, Utc};

    use super::*;

    fn take<T>(value: impl IntoKey<T>) -> T {
        value.into_key()
    }

    #[test]
    // The borrows are what is under test.
    #[allow(clippy::needless_borrows_for_generic_args)]
    fn borrowed_and_owned_values_give_the_key_type() {
        let owned = String::from("a");
        let s: String = take("a");
        assert_eq!(s, "a");
        let s: String = take(&owned);
        assert_eq!(s, "a");
        let s: Option<String> = take("a");
        assert_eq!(s.as_deref(), Some("a"));
        let bytes: Vec<u8> = take(&[1u8, 2][..]);
        assert_eq!(bytes, [1, 2]);
        let day = NaiveDate::from_ymd_opt(2026, 1, 1).expect("a date");
        let parts: (String, NaiveDate, u32) = take((&owned, &day, 7));
        assert_eq!(parts, ("a".to_owned(), day, 7));
        let at = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let one: (chrono::DateTime<Utc>,) = take((at,));
        assert_eq!(one.0, at);
        let n: u64 = take(7);
        assert_eq!(n, 7);
    }
}
