//! How Rust values reach an expression: which types a field accepts, and their conversion.
//!
//! Two small traits carry the typing:
//!
//! * [`FieldValue`] maps a field's type to the type its *operands* have. It is the identity except
//!   for `Option<T>`, which maps to `T`: a condition compares an optional attribute with a value, never
//!   with "nothing" (that is [`exists`](crate::Field::exists)/[`not_exists`](crate::Field::not_exists)),
//!   so `Field<M, Option<String>>::eq("x")` takes a string.
//! * [`IntoValue<T>`] is the "accepts" relation: the identity, `&str` for `String`, `&T` for a
//!   cloneable `T`, and `T` for `Option<T>`. It is used instead of `Into<T>` because `Into` defeats
//!   integer literal inference (`Field<M, u64>::ge(10)` would pick `i32` and fail), while a single
//!   candidate impl lets the compiler type the literal as the field's own type.
//!
//! Marker traits ([`Ordered`], [`Numeric`], [`Prefix`], [`Contains`], [`SetValue`]) restrict the
//! operations DynamoDB only defines for some types (`<` on S/N/B, `begins_with` on S/B, `ADD` on N and
//! sets...), so misuse is a compile error rather than a `ValidationException`.
//!
//! `#[derive(Document)]` implements [`FieldValue`] for embedded documents (`type Value = Self`).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use crate::convert::Attribute;
use crate::error::Error;
use crate::expression::path::{display_elements, PathElement};
use crate::value::{AttributeValue, Number};

/// A field type usable in expressions; [`FieldValue::Value`] is the type of its operands.
///
/// It is the identity except for `Option<T>` (and `Box<T>`), which maps to `T`: a condition compares
/// an optional attribute with a value, never with "nothing" (test absence with `exists()` /
/// `not_exists()`), so `Field<M, Option<String>>::eq("x")` takes a string. Updates take the field's
/// own type instead, so `set(nick, None)` is allowed (and removes the attribute).
///
/// ```
/// use dynomodel::expression::FieldValue;
/// fn operand<T: FieldValue>() -> &'static str { std::any::type_name::<T::Value>() }
/// assert_eq!(operand::<Option<String>>(), operand::<String>());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used in expressions",
    note = "an embedded struct needs `#[derive(Document)]`, which implements `FieldValue` for it",
    note = "a compressed field (`Compressed<T>`) has only `exists`, `not_exists`, `attribute_type` and `size`: compressed bytes do not compare like the values they hold"
)]
pub trait FieldValue {
    /// The type values compared with (or stored into) this field are given as.
    type Value;
}

/// A type that can be given where a `T` is expected: `T` itself, `&T` for a cloneable `T`, `&str` for
/// a `String`, and `T` where an `Option<T>` is expected.
///
/// Builders take `impl IntoValue<T>` rather than `impl Into<T>` because `Into` defeats integer
/// literal inference: with `Into<u64>` the literal in `views.ge(10)` falls back to `i32`, which does
/// not convert; with `IntoValue<u64>` only the identity impl fits, so the literal becomes a `u64`.
///
/// ```
/// use dynomodel::expression::IntoValue;
/// fn take<T>(v: impl IntoValue<T>) -> T { v.into_value() }
/// let s: String = take("x");
/// let n: Option<u64> = take(7);
/// assert_eq!((s.as_str(), n), ("x", Some(7)));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be given where the field expects a `{T}`",
    label = "expected a value of type `{T}`",
    note = "an `Option<{T}>` field compares with a `{T}`; test absence with `exists()`/`not_exists()`",
    note = "a field stored as seconds, `EpochSeconds<X>` or `Ttl<X>`, takes an `X`: the field's own type"
)]
pub trait IntoValue<T> {
    /// The value as a `T`.
    fn into_value(self) -> T;
}

impl<T> IntoValue<T> for T {
    fn into_value(self) -> T {
        self
    }
}

impl<T> IntoValue<Option<T>> for T {
    fn into_value(self) -> Option<T> {
        Some(self)
    }
}

impl<T: Clone> IntoValue<T> for &T {
    fn into_value(self) -> T {
        self.clone()
    }
}

impl<T: Clone> IntoValue<Option<T>> for &T {
    fn into_value(self) -> Option<T> {
        Some(self.clone())
    }
}

impl IntoValue<String> for &str {
    fn into_value(self) -> String {
        self.to_owned()
    }
}

impl IntoValue<Option<String>> for &str {
    fn into_value(self) -> Option<String> {
        Some(self.to_owned())
    }
}

/// Types DynamoDB orders with `<`, `<=`, `>`, `>=` and `BETWEEN`: strings, numbers and binaries
/// (dates are stored as ordered strings or epoch numbers).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no order in DynamoDB",
    label = "`<`, `<=`, `>`, `>=` and `BETWEEN` apply to strings, numbers and binaries"
)]
pub trait Ordered {}

/// Number types: `ADD`, `incr`/`decr` and arithmetic apply to them.
#[diagnostic::on_unimplemented(message = "`{Self}` is not a number type")]
pub trait Numeric {}

/// Types `begins_with` applies to: strings (and binaries).
#[diagnostic::on_unimplemented(
    message = "`begins_with` applies to strings and binaries, not to `{Self}`"
)]
pub trait Prefix {}

/// Types `contains` applies to, with the operand type: a substring, a set element or a list element.
#[diagnostic::on_unimplemented(
    message = "`contains` applies to strings, sets and lists, not to `{Self}`"
)]
pub trait Contains {
    /// What `contains` looks for.
    type Element;
}

/// Set types: `ADD` unions and `DELETE` removes elements.
#[diagnostic::on_unimplemented(message = "`DELETE` applies to sets, not to `{Self}`")]
pub trait SetValue {}

macro_rules! scalar_values {
    ($($t:ty),* $(,)?) => {$(
        impl FieldValue for $t {
            type Value = $t;
        }
    )*};
}

macro_rules! markers {
    ($marker:ident: $($t:ty),* $(,)?) => {$(
        impl $marker for $t {}
    )*};
}

scalar_values!(
    String,
    bool,
    AttributeValue,
    Number,
    rust_decimal::Decimal,
    crate::Binary
);
scalar_values!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);
scalar_values!(chrono::DateTime<chrono::Utc>, chrono::NaiveDate);
markers!(Numeric: i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);
markers!(Numeric: Number, rust_decimal::Decimal);
markers!(Ordered: i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);
markers!(Ordered: Number, rust_decimal::Decimal, String, AttributeValue, crate::Binary);
markers!(Ordered: chrono::DateTime<chrono::Utc>, chrono::NaiveDate);
markers!(Prefix: String, crate::Binary);

/// An optional field takes the same operands as a required one.
impl<T: FieldValue> FieldValue for Option<T> {
    type Value = T::Value;
}

impl<T: FieldValue> FieldValue for Box<T> {
    type Value = T::Value;
}

impl<E> FieldValue for Vec<E> {
    type Value = Vec<E>;
}

impl<V, S> FieldValue for HashMap<String, V, S> {
    type Value = HashMap<String, V, S>;
}

impl<V> FieldValue for BTreeMap<String, V> {
    type Value = BTreeMap<String, V>;
}

impl<E, S> FieldValue for HashSet<E, S> {
    type Value = HashSet<E, S>;
}

impl<E> FieldValue for BTreeSet<E> {
    type Value = BTreeSet<E>;
}

impl<E, S> SetValue for HashSet<E, S> {}

impl<E> SetValue for BTreeSet<E> {}

impl Contains for String {
    type Element = String;
}

impl<E> Contains for Vec<E> {
    type Element = E;
}

impl<E, S> Contains for HashSet<E, S> {
    type Element = E;
}

impl<E> Contains for BTreeSet<E> {
    type Element = E;
}

/// A converted operand, or the error converting it, kept until the request is rendered.
///
/// Builders are chained expressions and cannot return `Result` at every step; carrying the error
/// lets a NaN or an unrepresentable value surface as an `Err` from the renderer, never as a panic.
pub(crate) type Value = Result<AttributeValue, Error>;

/// Converts a value for the attribute at `path`: `Ok(None)` when the value stores nothing.
pub(crate) fn convert<V: Attribute>(
    value: &V,
    path: &[PathElement],
) -> Result<Option<AttributeValue>, Error> {
    value
        .to_attribute()
        .map_err(|e| Error::Conversion(e.at(&display_elements(path))))
}

/// Converts an operand that must be a value: `None` or an empty set cannot be compared with.
pub(crate) fn operand<V: Attribute>(value: &V, path: &[PathElement], operation: &str) -> Value {
    convert(value, path)?.ok_or_else(|| {
        Error::validation(format!(
            "{operation} on `{}` needs a value, but the operand converts to no attribute (None or an \
             empty set); use exists() or not_exists() to test for absence",
            display_elements(path)
        ))
    })
}
