//! The `compress` field adapter: `#[dynomodel(compress)]` stores a `String`, a `Vec<u8>`, a
//! [`Binary`] or (with `json`) any serde value as a binary (B) compressed with gzip, as the Developer
//! Guide advises for large attribute values. `compress(min_size = 1024)` compresses only values of at
//! least that many bytes; shorter ones are stored as they are, behind the same header.
//!
//! # The stored form
//!
//! Two header bytes, then the payload: [`MAGIC`] (`0xDC`), then the format, [`STORED`] (`0`: the
//! bytes as they are) or [`GZIP`] (`1`: a gzip stream). A value that gzip would not make smaller is
//! stored as it is, so the stored size never exceeds the value's by more than the two bytes. Writes
//! use gzip's fastest level (1): on 100 KB of prose it stores about a third of the text in ~2 ms,
//! where the default level (6) stores a quarter in ~20 ms (`benches/compress.rs`); reads take any
//! level.
//!
//! Reading is strict, so that a damaged value is an error and never a wrong value: a B without the
//! header, an unknown format, a broken gzip stream, text that is not UTF-8, or a value that
//! decompresses to more than [`MAX_DECOMPRESSED`] bytes (a "decompression bomb": DynamoDB's 400 KB
//! item limit bounds the input, not the output) is a [`ConversionError`] at the attribute, which the
//! mapper's reads report with the model, table and key of the item.
//!
//! Values written before the field was compressed: a `String` (or `json`) field reads a plain S
//! as the text it always was, so `compress` can be added to a field of a table with data, and the
//! items are compressed as they are written again. A plain B has no such reading for a `Vec<u8>`
//! field (its bytes are indistinguishable from a damaged value): rewrite those items first.
//!
//! # In expressions
//!
//! The stored bytes mean nothing to DynamoDB, so the field's typed handle, a
//! `Field<M, Compressed<T>>`, offers only what still holds: `exists`, `not_exists`,
//! `attribute_type` and `size` (the stored size). Comparisons, `begins_with`, `contains`, and key or
//! index key use are compile errors. Updates (`set`) compress like a write.
//!
//! ```
//! use dynomodel::convert::compress;
//! use dynomodel::AttributeValue;
//!
//! let text = "la ".repeat(1000);
//! let stored = compress::to_attribute::<_, 0>(&text)?.unwrap();
//! let AttributeValue::B(bytes) = &stored else { unreachable!() };
//! assert_eq!(&bytes[..2], &[compress::MAGIC, compress::GZIP]);
//! assert!(bytes.len() < 100);
//! assert_eq!(compress::from_attribute::<String>(stored)?, text);
//!
//! // Below the threshold, stored as it is (behind the header).
//! let short = compress::to_attribute::<_, 64>(&"hi".to_owned())?.unwrap();
//! assert_eq!(short, AttributeValue::B(vec![compress::MAGIC, compress::STORED, b'h', b'i']));
//! // A plain string written before the field was compressed still reads.
//! assert_eq!(compress::from_attribute::<String>(AttributeValue::S("old".into()))?, "old");
//! // A damaged value is an error.
//! assert!(compress::from_attribute::<String>(AttributeValue::B(vec![1, 2, 3])).is_err());
//! # Ok::<(), dynomodel::ConversionError>(())
//! ```

use std::borrow::Cow;
use std::io::{Read as _, Write as _};

use ::serde::de::DeserializeOwned;
use ::serde::Serialize;

use super::serde::expected as serde_expected;
use super::{Attribute, Binary, Json};
use crate::backend::ScalarAttributeType;
use crate::error::ConversionError;
use crate::expression::IntoValue;
use crate::value::AttributeValue;

/// The first byte of every stored value.
pub const MAGIC: u8 = 0xDC;
/// Format byte: the payload is the value's bytes as they are.
pub const STORED: u8 = 0;
/// Format byte: the payload is a gzip stream of the value's bytes.
pub const GZIP: u8 = 1;
/// The most bytes a stored value may decompress to (16 MiB); more is an error, not an allocation.
pub const MAX_DECOMPRESSED: usize = 16 * 1024 * 1024;

/// A field type the adapter handles: `String`, `Vec<u8>`, [`Binary`], [`Json<T>`], and an `Option`
/// of one (where `None` stores no attribute).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored compressed",
    label = "`#[dynomodel(compress)]` applies to `String`, `Vec<u8>` and `Binary` (or an `Option` of one)",
    note = "add `json` (`#[dynomodel(json, compress)]`) to compress any serde type as JSON text"
)]
pub trait Compressible: Sized {
    /// The bytes to compress, or `None` for no attribute.
    fn to_bytes(&self) -> Result<Option<Cow<'_, [u8]>>, ConversionError>;
    /// The value from its decompressed bytes.
    fn from_bytes(bytes: Vec<u8>) -> Result<Self, ConversionError>;
    /// The value from an attribute that is not a compressed B: one written before the field was
    /// compressed (a plain S for text), or an error.
    fn from_uncompressed(value: AttributeValue) -> Result<Self, ConversionError>;
    /// The value of an absent attribute.
    fn compressed_missing() -> Result<Self, ConversionError>;
    /// What the type expects, for error messages.
    fn compressed_expected() -> String;
}

impl Compressible for String {
    fn to_bytes(&self) -> Result<Option<Cow<'_, [u8]>>, ConversionError> {
        Ok(Some(Cow::Borrowed(self.as_bytes())))
    }

    fn from_bytes(bytes: Vec<u8>) -> Result<Self, ConversionError> {
        String::from_utf8(bytes).map_err(|e| {
            ConversionError::new(
                Self::compressed_expected(),
                format!("bytes that are not UTF-8 text ({e})"),
            )
        })
    }

    fn from_uncompressed(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::S(text) => Ok(text),
            other => Err(ConversionError::new(
                Self::compressed_expected(),
                other.type_name(),
            )),
        }
    }

    fn compressed_missing() -> Result<Self, ConversionError> {
        Err(ConversionError::missing(Self::compressed_expected()))
    }

    fn compressed_expected() -> String {
        "a compressed string (B)".to_owned()
    }
}

impl Compressible for Vec<u8> {
    fn to_bytes(&self) -> Result<Option<Cow<'_, [u8]>>, ConversionError> {
        Ok(Some(Cow::Borrowed(self)))
    }

    fn from_bytes(bytes: Vec<u8>) -> Result<Self, ConversionError> {
        Ok(bytes)
    }

    fn from_uncompressed(value: AttributeValue) -> Result<Self, ConversionError> {
        Err(ConversionError::new(
            Self::compressed_expected(),
            value.type_name(),
        ))
    }

    fn compressed_missing() -> Result<Self, ConversionError> {
        Err(ConversionError::missing(Self::compressed_expected()))
    }

    fn compressed_expected() -> String {
        "a compressed binary (B)".to_owned()
    }
}

impl Compressible for Binary {
    fn to_bytes(&self) -> Result<Option<Cow<'_, [u8]>>, ConversionError> {
        Ok(Some(Cow::Borrowed(&self.0)))
    }

    fn from_bytes(bytes: Vec<u8>) -> Result<Self, ConversionError> {
        Ok(Binary(bytes))
    }

    fn from_uncompressed(value: AttributeValue) -> Result<Self, ConversionError> {
        Vec::<u8>::from_uncompressed(value).map(Binary)
    }

    fn compressed_missing() -> Result<Self, ConversionError> {
        Vec::<u8>::compressed_missing().map(Binary)
    }

    fn compressed_expected() -> String {
        Vec::<u8>::compressed_expected()
    }
}

impl<T: Serialize + DeserializeOwned> Compressible for Json<T> {
    fn to_bytes(&self) -> Result<Option<Cow<'_, [u8]>>, ConversionError> {
        json_bytes(&self.0).map(|bytes| bytes.map(Cow::Owned))
    }

    fn from_bytes(bytes: Vec<u8>) -> Result<Self, ConversionError> {
        serde_json::from_slice(&bytes)
            .map(Json)
            .map_err(|e| ConversionError::new(json_expected::<T>(), e.to_string()))
    }

    fn from_uncompressed(value: AttributeValue) -> Result<Self, ConversionError> {
        // A json field before it was compressed: its JSON string.
        T::from_attribute_json(value).map(Json)
    }

    fn compressed_missing() -> Result<Self, ConversionError> {
        <T as super::json::JsonField>::json_missing().map(Json)
    }

    fn compressed_expected() -> String {
        json_expected::<T>()
    }
}

/// The JSON field's reading of a plain S, under a name of its own (the blanket impl of
/// [`JsonField`](super::json::JsonField) would otherwise be ambiguous with [`Compressible`]'s).
trait FromJsonAttribute: Sized {
    fn from_attribute_json(value: AttributeValue) -> Result<Self, ConversionError>;
}

impl<T: Serialize + DeserializeOwned> FromJsonAttribute for T {
    fn from_attribute_json(value: AttributeValue) -> Result<Self, ConversionError> {
        <T as super::json::JsonField>::from_json(value)
    }
}

fn json_expected<T>() -> String {
    format!("{} as compressed JSON (B)", serde_expected::<T>())
}

/// The JSON text of a value, or `None` for `null` (no attribute), as the `json` adapter writes it.
fn json_bytes<T: Serialize>(value: &T) -> Result<Option<Vec<u8>>, ConversionError> {
    match serde_json::to_vec(value) {
        Ok(text) if text == b"null" => Ok(None),
        Ok(text) => Ok(Some(text)),
        Err(e) => Err(ConversionError::new(json_expected::<T>(), e.to_string())),
    }
}

impl<C: Compressible> Compressible for Option<C> {
    fn to_bytes(&self) -> Result<Option<Cow<'_, [u8]>>, ConversionError> {
        match self {
            Some(value) => value.to_bytes(),
            None => Ok(None),
        }
    }

    fn from_bytes(bytes: Vec<u8>) -> Result<Self, ConversionError> {
        C::from_bytes(bytes).map(Some)
    }

    fn from_uncompressed(value: AttributeValue) -> Result<Self, ConversionError> {
        C::from_uncompressed(value).map(Some)
    }

    fn compressed_missing() -> Result<Self, ConversionError> {
        Ok(None)
    }

    fn compressed_expected() -> String {
        C::compressed_expected()
    }
}

/// The stored form of `bytes`: the header, then gzip of them when they are at least `min_size` long
/// and gzip makes them smaller, else the bytes as they are.
pub fn encode(bytes: &[u8], min_size: usize) -> Vec<u8> {
    if bytes.len() >= min_size && bytes.len() > 2 {
        let mut out = Vec::with_capacity(bytes.len() / 2 + 32);
        out.extend_from_slice(&[MAGIC, GZIP]);
        let mut encoder = flate2::write::GzEncoder::new(out, flate2::Compression::fast());
        // Writing into a `Vec` cannot fail; were it to, the value is stored uncompressed below.
        if encoder.write_all(bytes).is_ok()
            && let Ok(out) = encoder.finish()
            && out.len() < bytes.len() + 2
        {
            return out;
        }
    }
    let mut out = Vec::with_capacity(bytes.len() + 2);
    out.extend_from_slice(&[MAGIC, STORED]);
    out.extend_from_slice(bytes);
    out
}

/// The value's bytes from its stored form; `expected` names the field's type in the error.
pub fn decode(
    stored: &[u8],
    expected: impl FnOnce() -> String,
) -> Result<Vec<u8>, ConversionError> {
    match stored {
        [MAGIC, STORED, payload @ ..] => Ok(payload.to_vec()),
        [MAGIC, GZIP, payload @ ..] => {
            let mut out = Vec::with_capacity(payload.len().saturating_mul(4).min(MAX_DECOMPRESSED));
            let read = flate2::read::GzDecoder::new(payload)
                .take(MAX_DECOMPRESSED as u64 + 1)
                .read_to_end(&mut out);
            match read {
                Err(e) => Err(ConversionError::new(
                    expected(),
                    format!("a damaged gzip stream ({e})"),
                )),
                Ok(_) if out.len() > MAX_DECOMPRESSED => Err(ConversionError::new(
                    expected(),
                    format!(
                        "a value that decompresses to more than {MAX_DECOMPRESSED} bytes (the most a compressed field reads)"
                    ),
                )),
                Ok(_) => Ok(out),
            }
        }
        [MAGIC, format, ..] => Err(ConversionError::new(
            expected(),
            format!("a compressed value of unknown format {format} (known: 0, stored; 1, gzip)"),
        )),
        _ => Err(ConversionError::new(
            expected(),
            "a binary without the compressed header (not written by a compressed field)",
        )),
    }
}

/// Writes a field compressed (`MIN_SIZE`: the threshold below which it is stored as it is).
pub fn to_attribute<T: Compressible, const MIN_SIZE: usize>(
    value: &T,
) -> Result<Option<AttributeValue>, ConversionError> {
    Ok(value
        .to_bytes()?
        .map(|bytes| AttributeValue::B(encode(&bytes, MIN_SIZE))))
}

/// Reads a compressed field.
pub fn from_attribute<T: Compressible>(value: AttributeValue) -> Result<T, ConversionError> {
    match value {
        AttributeValue::B(stored) => T::from_bytes(decode(&stored, T::compressed_expected)?),
        other => T::from_uncompressed(other),
    }
}

/// Reads an absent compressed field.
pub fn from_missing<T: Compressible>() -> Result<T, ConversionError> {
    T::compressed_missing()
}

/// A field type of `#[dynomodel(compress)]`: the derive calls these through the trait, so that a type
/// that cannot be compressed is one error at the field's type.
pub trait CompressedField: Compressible {
    /// Writes the field compressed.
    fn to_compressed<const MIN_SIZE: usize>(
        &self,
    ) -> Result<Option<AttributeValue>, ConversionError> {
        to_attribute::<Self, MIN_SIZE>(self)
    }
    /// Reads the field.
    fn from_compressed(value: AttributeValue) -> Result<Self, ConversionError> {
        from_attribute(value)
    }
    /// Reads the absent field.
    fn compressed_absent() -> Result<Self, ConversionError> {
        from_missing()
    }
}

impl<T: Compressible> CompressedField for T {}

/// A field type of `#[dynomodel(json, compress)]`: any serde type, as compressed JSON text.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as compressed JSON",
    label = "`#[dynomodel(json, compress)]` needs `Serialize + DeserializeOwned`",
    note = "derive `serde::Serialize` and `serde::Deserialize` for the type"
)]
pub trait CompressedJsonField: Serialize + DeserializeOwned {
    /// Writes the field as compressed JSON.
    fn to_compressed_json<const MIN_SIZE: usize>(
        &self,
    ) -> Result<Option<AttributeValue>, ConversionError> {
        Ok(json_bytes(self)?.map(|bytes| AttributeValue::B(encode(&bytes, MIN_SIZE))))
    }
    /// Reads the field.
    fn from_compressed_json(value: AttributeValue) -> Result<Self, ConversionError> {
        from_attribute::<Json<Self>>(value).map(|json| json.0)
    }
    /// Reads the absent field.
    fn compressed_json_absent() -> Result<Self, ConversionError> {
        from_missing::<Json<Self>>().map(|json| json.0)
    }
}

impl<T: Serialize + DeserializeOwned> CompressedJsonField for T {}

/// A compressed field is never a key: its bytes change with the compressor, and DynamoDB could only
/// compare them.
#[diagnostic::on_unimplemented(
    message = "a field stored through `#[dynomodel(compress)]` cannot be a key",
    label = "keys are compared by DynamoDB; compressed bytes cannot be"
)]
pub trait NeverACompressedKey {}

/// The key type of a compressed field: does not compile (see [`NeverACompressedKey`]).
pub fn key_type<T: NeverACompressedKey>() -> ScalarAttributeType {
    ScalarAttributeType::B
}

/// A value stored compressed: the value type of a `#[dynomodel(compress)]` field's handle, which
/// offers `exists`, `not_exists`, `attribute_type` and `size` (of the stored bytes), and `set` in
/// updates, which compresses like a write. It has no comparisons: compressed bytes do not compare
/// like the values they hold. `MIN_SIZE` is the field's threshold. Also usable as a field type of
/// its own (and inside documents, lists and maps).
///
/// ```
/// use dynomodel::{convert::Compressed, Attribute, AttributeValue};
/// let stored = Compressed::<String>("x".repeat(500)).to_attribute()?.unwrap();
/// assert!(matches!(&stored, AttributeValue::B(b) if b.len() < 50));
/// assert_eq!(Compressed::<String>::from_attribute(stored)?.0, "x".repeat(500));
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Compressed<T, const MIN_SIZE: usize = 0>(pub T);

impl<T: Compressible, const MIN_SIZE: usize> Attribute for Compressed<T, MIN_SIZE> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        to_attribute::<T, MIN_SIZE>(&self.0)
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        from_attribute(value).map(Compressed)
    }

    fn from_missing() -> Result<Self, ConversionError> {
        from_missing().map(Compressed)
    }

    fn expected() -> String {
        T::compressed_expected()
    }
}

impl<T, const MIN_SIZE: usize> From<T> for Compressed<T, MIN_SIZE> {
    fn from(value: T) -> Self {
        Compressed(value)
    }
}

// The plain value wherever the handle's `Compressed<T>` is expected (in `set`), as for the other
// wrappers (see `wrapper_values!`): `T`, `&T`, `&str` for text, and `Option<T>` for an `Option` field.
// None overlaps `IntoValue`'s blanket impls: `T` is never `Compressed<T>`.
impl<T, const N: usize> IntoValue<Compressed<T, N>> for T {
    fn into_value(self) -> Compressed<T, N> {
        Compressed(self)
    }
}

impl<T: Clone, const N: usize> IntoValue<Compressed<T, N>> for &T {
    fn into_value(self) -> Compressed<T, N> {
        Compressed(self.clone())
    }
}

impl<const N: usize> IntoValue<Compressed<String, N>> for &str {
    fn into_value(self) -> Compressed<String, N> {
        Compressed(self.to_owned())
    }
}

impl<T, const N: usize> IntoValue<Compressed<Json<T>, N>> for T {
    fn into_value(self) -> Compressed<Json<T>, N> {
        Compressed(Json(self))
    }
}

impl<T, const N: usize> IntoValue<Option<Compressed<T, N>>> for T {
    fn into_value(self) -> Option<Compressed<T, N>> {
        Some(Compressed(self))
    }
}

impl<T, const N: usize> IntoValue<Option<Compressed<T, N>>> for Option<T> {
    fn into_value(self) -> Option<Compressed<T, N>> {
        self.map(Compressed)
    }
}

impl<const N: usize> IntoValue<Option<Compressed<String, N>>> for &str {
    fn into_value(self) -> Option<Compressed<String, N>> {
        Some(Compressed(self.to_owned()))
    }
}

impl<T, const N: usize> IntoValue<Option<Compressed<Json<T>, N>>> for Option<T> {
    fn into_value(self) -> Option<Compressed<Json<T>, N>> {
        self.map(|value| Compressed(Json(value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected() -> String {
        "x".to_owned()
    }

    #[test]
    fn gzip_round_trip_and_threshold() {
        let text = "abc ".repeat(10_000);
        let stored = encode(text.as_bytes(), 1024);
        assert_eq!(&stored[..2], &[MAGIC, GZIP]);
        assert!(stored.len() < 1000);
        assert_eq!(
            decode(&stored, expected).ok(),
            Some(text.clone().into_bytes())
        );
        let short = encode(b"abc", 1024);
        assert_eq!(short, vec![MAGIC, STORED, b'a', b'b', b'c']);
    }

    #[test]
    fn incompressible_bytes_are_stored_as_they_are() {
        let noise: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let stored = encode(&noise, 0);
        assert!(stored.len() <= noise.len() + 2);
        assert_eq!(decode(&stored, expected).ok(), Some(noise));
    }

    #[test]
    fn damaged_values_are_errors() {
        let errors = [
            decode(&[], expected),
            decode(&[1, 2, 3], expected),
            decode(&[MAGIC, 9, 1], expected),
            decode(&[MAGIC, GZIP, 1, 2, 3], expected),
        ];
        for error in errors {
            assert!(error.is_err(), "{error:?}");
        }
    }

    #[test]
    fn a_bomb_is_refused() {
        let zeros = vec![0u8; MAX_DECOMPRESSED + 1];
        let stored = encode(&zeros, 0);
        assert!(stored.len() < 409_600, "{}", stored.len());
        let error = decode(&stored, expected).err().map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.contains("decompresses to more than")));
    }
}
