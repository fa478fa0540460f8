//! Conversions between Rust values and DynamoDB attribute values.
//!
//! [`Attribute`] is implemented here for the standard types; `#[derive(Model)]` and `#[derive(Document)]`
//! implement it for user structs (stored as maps).
//!
//! | Rust type | DynamoDB type | key? |
//! |---|---|---|
//! | `String` | S | yes |
//! | `bool` | BOOL | no |
//! | `i8`..`i128`, `u8`..`u128`, `isize`, `usize` | N (integers, range-checked on read) | yes |
//! | `f32`, `f64` | N (finite only) | no |
//! | [`Number`](crate::Number), `rust_decimal::Decimal` | N (exact) | yes |
//! | [`Binary`] | B | yes |
//! | [`EpochSeconds<T>`] of a `DateTime<Utc>` or `NaiveDate` | N (epoch seconds, fractions kept) | yes |
//! | [`Ttl<T>`] of a `DateTime<Utc>`, `SystemTime` or integer | N (whole epoch seconds) | no |
//! | `chrono::DateTime<Utc>`, `chrono::NaiveDate` | S (ISO 8601, see [`time`](self#dates-and-times)) | yes |
//! | [`Rfc3339<W>`](datetime::Rfc3339) of a `DateTime<Utc>`, the `datetime = "millis"` option | S (RFC 3339 at a chosen width) | yes |
//! | `Option<T>` | as `T`; `None` is no attribute at all | no |
//! | `Vec<T>` | L | no |
//! | `HashMap<String, T>`, `BTreeMap<String, T>` | M | no |
//! | `HashSet<T>`, `BTreeSet<T>` of a key type | SS, NS or BS by the element's key type | no |
//! | `Box<T>` | as `T` | as `T` |
//! | [`AttributeValue`] | itself | no |
//! | `serde_json::Value` | M, L, S, N, BOOL or NULL by its kind (see [below](self#json)) | no |
//! | `uuid::Uuid` (feature `uuid`) | S (hyphenated, lowercase) | yes |
//! | a `#[derive(Attribute)]` newtype | as its field | as its field |
//! | a `#[derive(Attribute)]` enum of unit variants | S (the variant's name) | yes |
//! | a `#[derive(Attribute)]` enum with data | S or M of one entry (the variant's name → content) | no |
//! | any serde type, field option `serde` / `json` | its serde shape ([`Serde<T>`]) / a JSON string ([`Json<T>`]) | no |
//! | `String`, `Vec<u8>`, [`Binary`] (or with `json` any serde type), field option `compress` | B, gzip behind a header ([`Compressed<T>`], see [`compress`]) | no |
//!
//! # Binary data and `Vec<u8>`
//!
//! `Vec<T>` is a list (L) for every `T`, so on its own `Vec<u8>` would be a list of numbers: Rust has no
//! specialisation to make it B. Binary data is therefore spelled [`Binary`], a newtype over `Vec<u8>`
//! stored as B (and usable as a key, and in sets as BS). For convenience `#[derive(Model)]` and
//! `#[derive(Document)]` recognise a field whose type is literally `Vec<u8>` or `Option<Vec<u8>>` and
//! store it as B through the [`binary`] adapter; inside other containers (`Vec<Vec<u8>>`,
//! `HashMap<String, Vec<u8>>`) write `Binary`.
//!
//! # Dates and times
//!
//! `DateTime<Utc>` is written as RFC 3339 in UTC with exactly nine fractional digits, e.g.
//! `2026-11-21T10:00:00.000000000Z`. The fixed width is what makes the strings sort in time order:
//! with a variable fraction, `10:00:00.5Z` would sort *before* `10:00:00Z` (`.` < `Z`), and range
//! conditions on a sort key would silently miss items. Reading accepts any RFC 3339 text (any fraction,
//! any offset, converted to UTC). Years outside 0000–9999 are rejected on write for the same reason.
//!
//! Another width is chosen with `#[dynomodel(datetime = "millis")]` on a field, or on the struct for
//! all its `DateTime<Utc>` fields (`seconds`, `millis`, `micros`, `nanos`; see [`datetime`]): the
//! Developer Guide's samples, and much code in other languages, write `2015-09-15T19:58:22.947Z`.
//! Two widths do not sort together (`…22.947Z` sorts *after* `…22.947000000Z`), so the items of a
//! table, whoever writes them, should share one: match the model to the data. Writes truncate to the
//! width; the field's handle renders operands at the width too.
//! `NaiveDate` is written as `2026-11-21`. The field option `#[dynomodel(epoch_seconds)]` stores either
//! as a number of seconds since the Unix epoch instead (see [`epoch_seconds`]). A `#[ttl]` field (a
//! `DateTime<Utc>`, `SystemTime` or integer) is stored as whole epoch seconds (see [`ttl`]). The
//! typed handles of such fields are typed [`EpochSeconds<T>`] and [`Ttl<T>`], which encode like the
//! field, so that `Session::expires().lt(now)` compares numbers.
//!
//! # JSON
//!
//! `serde_json::Value` is a document: an object is stored as M, an array as L, a string as S, a number
//! as N, a boolean as BOOL and null as NULL. Numbers are exact both ways: integers as written, floats
//! as their shortest round-tripping decimal, and a stored number JSON cannot hold exactly is an error,
//! not a rounding. The field option `#[dynomodel(serde)]` stores any `Serialize + DeserializeOwned`
//! type through this conversion (see [`serde`]); `#[dynomodel(json)]` stores it as one JSON string
//! instead (see [`json`]).
//!
//! # Errors
//!
//! Every failure is a [`ConversionError`] naming what was expected and the DynamoDB type found; nested
//! containers prefix the location (`tags[2]`, `address.city`).

/// The plain value wherever a wrapper field type (`EpochSeconds<T>`, `Ttl<T>`, `Serde<T>`, `Json<T>`)
/// is expected, so that conditions and updates are written with the field's own type (`T`, `&T`, and
/// `Option<T>` for an `Option` field, where `None` removes the attribute). None of these overlaps the
/// blanket impls of `IntoValue`: `T` is never `Wrapper<T>`. The wrapper's module imports `FieldValue`
/// and `IntoValue`.
macro_rules! wrapper_values {
    ($($wrapper:ident),*) => {$(
        impl<T> FieldValue for $wrapper<T> {
            type Value = $wrapper<T>;
        }

        impl<T> IntoValue<$wrapper<T>> for T {
            fn into_value(self) -> $wrapper<T> {
                $wrapper(self)
            }
        }

        impl<T: Clone> IntoValue<$wrapper<T>> for &T {
            fn into_value(self) -> $wrapper<T> {
                $wrapper(self.clone())
            }
        }

        impl<T> IntoValue<Option<$wrapper<T>>> for T {
            fn into_value(self) -> Option<$wrapper<T>> {
                Some($wrapper(self))
            }
        }

        impl<T: Clone> IntoValue<Option<$wrapper<T>>> for &T {
            fn into_value(self) -> Option<$wrapper<T>> {
                Some($wrapper(self.clone()))
            }
        }

        impl<T> IntoValue<Option<$wrapper<T>>> for Option<T> {
            fn into_value(self) -> Option<$wrapper<T>> {
                self.map($wrapper)
            }
        }

        impl<T: Clone> IntoValue<Option<$wrapper<T>>> for &Option<T> {
            fn into_value(self) -> Option<$wrapper<T>> {
                self.clone().map($wrapper)
            }
        }
    )*};
}

mod binary_type;
mod collections;
pub mod compress;
pub mod datetime;
mod decimal;
pub mod epoch_seconds;
mod escape;
pub mod json;
mod json_value;
mod lifecycle;
mod scalars;
mod seconds;
pub mod serde;
mod sets;
mod time;
pub mod ttl;
#[cfg(feature = "uuid")]
mod uuid;
#[doc(hidden)]
pub mod variant;
mod version;

pub use binary_type::{binary, Binary};
pub use compress::Compressed;
pub use escape::{Json, Serde};
pub use lifecycle::{CounterAttribute, TimestampAttribute};
pub use seconds::{EpochSeconds, Ttl};
pub use version::VersionAttribute;

use crate::backend::{AttributeSink, ScalarAttributeType};
use crate::error::ConversionError;
use crate::value::AttributeValue;

/// A Rust type that is stored as one DynamoDB attribute.
///
/// `to_attribute` returns `None` when nothing should be stored (an `Option` that is `None`, an empty set,
/// which DynamoDB cannot hold); `from_missing` says what an absent attribute reads as.
///
/// ```
/// use dynomodel::{Attribute, AttributeValue};
/// assert_eq!(42u8.to_attribute().unwrap(), Some(AttributeValue::N(42.into())));
/// assert_eq!(Option::<u8>::from_missing().unwrap(), None);
/// assert!(u8::from_attribute(AttributeValue::N(300.into())).is_err());
/// ```
///
/// # `#[derive(Attribute)]`: enums and newtypes
///
/// The derive implements `Attribute` for a type stored as one attribute value (structs stored as maps
/// derive [`Document`](crate::Document) instead):
///
/// | type | stored as | key? |
/// |---|---|---|
/// | a newtype, `struct UserId(String)` | its field, exactly | when its field is (also `Ordered`, `Prefix`, `Numeric` like it) |
/// | an enum of unit variants | S: the variant's name | yes (S) |
/// | an enum with data | a unit variant as S, its name; any other variant as a map of one entry, name → content | no |
/// | an enum with `tag = "type"` | a map with the variant's name under `type`, beside its fields | no |
///
/// Enums with data use serde's default, *externally tagged*, representation, the only one that holds
/// every kind of variant: a newtype variant's content is its value, a tuple variant's a list (L), a
/// struct variant's a map (M) of its fields, which take the field options of `Document` (`rename`,
/// `skip`, `default`, `epoch_seconds`, `serde`, `json`; a `Vec<u8>` is B). `Payment::Card { last4 }`
/// is `{"Card": {"last4": "4242"}}`; `Payment::Cash` is `"Cash"`. Reading a name that is no variant's
/// is a [`ConversionError`] that names the attribute and lists the names expected.
///
/// With `#[dynomodel(tag = "type")]` on the enum, the *internally tagged* form is used instead: every
/// variant is a map holding its name under that attribute, beside a struct variant's fields or inside
/// a newtype variant's content (which must then be stored as a map, e.g. a `Document`):
/// `{"type": "Card", "last4": "4242"}`, `{"type": "Cash"}`. Conditions can then reach the name
/// (`payment.type`), at the price of tuple variants, which are a compile error under `tag`.
///
/// Options: `#[dynomodel(rename_all = "...")]` on the enum names the variants as serde does
/// (`snake_case`: `InProgress` → `in_progress`; also `SCREAMING_SNAKE_CASE`, `kebab-case`,
/// `camelCase`, `PascalCase`, `lowercase`, `UPPERCASE`); on a variant, `rename = "name"` names it and
/// `rename_all` names a struct variant's fields. Two variants stored under one name, a generic type,
/// a struct with named fields and options the derive does not know are compile errors.
///
/// ```
/// use dynomodel::{Attribute, AttributeValue, Document, Model};
/// use dynomodel::expression::ExpressionContext;
///
/// #[derive(Attribute, Debug, Clone, PartialEq)]
/// struct UserId(String);
///
/// #[derive(Attribute, Debug, Clone, Copy, PartialEq)]
/// #[dynomodel(rename_all = "snake_case")]
/// enum Status {
///     Active,
///     OnHold,
///     #[dynomodel(rename = "closed")]
///     Shipped,
/// }
///
/// #[derive(Attribute, Debug, Clone, PartialEq)]
/// enum Payment {
///     Cash,
///     Card { last4: String },
///     Split(u32, u32),
/// }
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[global_index(all("by-status", hash = status))]
/// struct Order {
///     #[hash_key]
///     user: UserId,
///     #[range_key]
///     id: u64,
///     status: Status,
///     payment: Payment,
/// }
///
/// let order = Order {
///     user: UserId("ada".into()),
///     id: 1,
///     status: Status::OnHold,
///     payment: Payment::Card { last4: "4242".into() },
/// };
/// let item = order.to_item()?;
/// assert_eq!(item["user"], AttributeValue::S("ada".into()));
/// assert_eq!(item["status"], AttributeValue::S("on_hold".into()));
/// assert_eq!(item["payment"].to_string(), r#"{"M":{"Card":{"M":{"last4":{"S":"4242"}}}}}"#);
/// assert_eq!(Payment::Split(1, 2).to_attribute()?.unwrap().to_string(), r#"{"M":{"Split":{"L":[{"N":"1"},{"N":"2"}]}}}"#);
/// assert_eq!(Order::from_item(item)?, order);
///
/// // Enum operands in conditions render as stored.
/// #[derive(Attribute, Debug, Clone, PartialEq)]
/// #[dynomodel(tag = "type", rename_all = "snake_case")]
/// enum Event {
///     Placed,
///     Shipped { carrier: String },
/// }
/// let shipped = Event::Shipped { carrier: "ups".into() }.to_attribute()?.unwrap();
/// assert_eq!(shipped.to_string(), r#"{"M":{"carrier":{"S":"ups"},"type":{"S":"shipped"}}}"#);
///
/// let mut ctx = ExpressionContext::new();
/// ctx.condition(&Order::status().is_in([Status::Active, Status::OnHold]))?;
/// assert_eq!(ctx.finish().1[":v0"].to_string(), r#"{"S":"active"}"#);
///
/// // An unknown name is an error naming the attribute and the names expected.
/// let mut item = order.to_item()?;
/// item.insert("status".into(), AttributeValue::S("lost".into()));
/// assert_eq!(
///     Order::from_item(item).unwrap_err().to_string(),
///     r#"attribute `status`: expected one of the strings "active", "on_hold", "closed" (Status), found unknown variant "lost""#,
/// );
/// # Ok::<(), dynomodel::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as a DynamoDB attribute",
    label = "does not implement `dynomodel::Attribute`",
    note = "derive `Document` for a struct stored as a map, `Attribute` for an enum or a newtype, or use a type listed in `dynomodel::convert`"
)]
pub trait Attribute: Sized {
    /// Converts to an attribute value, or `None` to store no attribute at all.
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError>;

    /// Converts from an attribute value.
    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError>;

    /// The value of an absent attribute; an error unless the type has a natural "nothing".
    // Cold: the default is the error, so a decoder lays the call off its hot path (a type with a
    // natural "nothing" overrides it, and the override is not cold).
    #[cold]
    fn from_missing() -> Result<Self, ConversionError> {
        Err(ConversionError::missing(Self::expected()))
    }

    /// What this type expects, for error messages, e.g. `"a string"`.
    fn expected() -> String;

    /// Writes the value into `sink` as the attribute `name`, or nothing when
    /// [`to_attribute`](Attribute::to_attribute) gives `None`: what a derived model's
    /// [`write_attributes`](crate::Model::write_attributes) calls for each field. It must write
    /// exactly what `to_attribute` gives and fail as it fails (the error is not located at `name`:
    /// the caller does that). The default calls `to_attribute`; a type holding its value as it is
    /// stored (a `String`, a set of them) hands it over borrowed
    /// ([`AttributeSink::insert_ref`]), so that a sink that only reads it copies nothing.
    fn write_attribute(
        &self,
        name: &'static str,
        sink: &mut dyn AttributeSink,
    ) -> Result<(), ConversionError> {
        write_owned(self, name, sink)
    }
}

/// [`Attribute::write_attribute`] through [`Attribute::to_attribute`] (the default, and what an
/// override falls back to).
fn write_owned<T: Attribute>(
    value: &T,
    name: &'static str,
    sink: &mut dyn AttributeSink,
) -> Result<(), ConversionError> {
    if let Some(value) = value.to_attribute()? {
        sink.insert_static(name, value);
    }
    Ok(())
}

/// A type that may be a key attribute: stored as one of DynamoDB's scalar key types S, N or B.
///
/// Contract: `to_attribute` of a key type always returns `Some` value of type [`Self::SCALAR_TYPE`];
/// the set conversions (`HashSet<T>` as SS/NS/BS) rely on it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a key attribute: DynamoDB keys are strings, numbers or binaries",
    label = "key attributes must be stored as S, N or B",
    note = "use a String, an integer, Vec<u8>, a Decimal or a Number (or a date stored as a string or epoch seconds)"
)]
pub trait KeyAttribute: Attribute {
    /// The key's DynamoDB scalar type.
    const SCALAR_TYPE: ScalarAttributeType;

    /// The value as the string it is stored as, when it holds exactly that string (a `String`):
    /// lets a set of them be written borrowed. When `Some(s)`, [`to_attribute`](Attribute::to_attribute)
    /// must give `Some(AttributeValue::S(s))`. The default: `None`.
    fn as_str(&self) -> Option<&str> {
        None
    }
}

/// A type that may be a secondary-index key attribute: a [`KeyAttribute`], or an `Option` of one.
///
/// An optional index key makes a *sparse* index: items whose attribute is absent (`None`) are simply
/// not in the index, which is how DynamoDB indexes a subset of a table. Table keys cannot be optional.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an index key attribute: DynamoDB keys are strings, numbers or binaries",
    label = "index key attributes must be stored as S, N or B (optionally absent)",
    note = "use a String, an integer, Vec<u8>, a Decimal or a Number, or an Option of one for a sparse index"
)]
pub trait IndexKeyAttribute: Attribute {
    /// The key's DynamoDB scalar type.
    const SCALAR_TYPE: ScalarAttributeType;
}

impl<T: KeyAttribute> IndexKeyAttribute for T {
    const SCALAR_TYPE: ScalarAttributeType = <T as KeyAttribute>::SCALAR_TYPE;
}

impl<T: KeyAttribute> IndexKeyAttribute for Option<T> {
    const SCALAR_TYPE: ScalarAttributeType = <T as KeyAttribute>::SCALAR_TYPE;
}

/// The error for a value of the wrong DynamoDB type.
#[cold]
fn mismatch<T: Attribute>(found: &AttributeValue) -> ConversionError {
    ConversionError::new(T::expected(), found.type_name())
}

/// Reads one element of a list, map or set. A `NULL` element (what `None` is written as inside a
/// container) reads as the type's "nothing" when it has one, so `Vec<Option<T>>` round-trips.
fn element_from_attribute<T: Attribute>(value: AttributeValue) -> Result<T, ConversionError> {
    match value {
        AttributeValue::Null => {
            T::from_missing().or_else(|_| T::from_attribute(AttributeValue::Null))
        }
        value => T::from_attribute(value),
    }
}

/// Writes one element of a list or map: elements cannot be absent, so "nothing" becomes `NULL`.
fn element_to_attribute<T: Attribute>(value: &T) -> Result<AttributeValue, ConversionError> {
    Ok(value.to_attribute()?.unwrap_or(AttributeValue::Null))
}
