//! Runtime support for `#[derive(Attribute)]` on enums: reading the variant tag of a stored value.
//!
//! The derive generates the per-variant code; what is the same for every enum lives here, so the
//! generated code stays small and the error messages are written once. Not a public API.

use crate::error::ConversionError;
use crate::value::{AttributeValue, Item};

/// The tag of a stored enum value and its content: a unit variant is stored as its tag (S), any other
/// variant as a map with exactly one entry, tag → content (serde's "externally tagged" form).
pub fn split(
    value: AttributeValue,
    expected: impl FnOnce() -> String,
) -> Result<(String, Option<AttributeValue>), ConversionError> {
    match value {
        AttributeValue::S(tag) => Ok((tag, None)),
        AttributeValue::M(map) if map.len() == 1 => {
            let Some((tag, content)) = map.into_iter().next() else {
                return Err(ConversionError::new(expected(), "an empty map"));
            };
            Ok((tag, Some(content)))
        }
        AttributeValue::M(map) => Err(ConversionError::new(
            expected(),
            format!("a map with {} entries", map.len()),
        )),
        other => Err(ConversionError::new(expected(), other.type_name())),
    }
}

/// The error for a tag that names no variant (or a variant stored in another shape).
pub fn unknown(expected: String, tag: &str, known: &[&str], has_content: bool) -> ConversionError {
    let found = if !known.contains(&tag) {
        format!("unknown variant {tag:?}")
    } else if has_content {
        format!("variant {tag:?} with content, which it does not have")
    } else {
        format!("variant {tag:?} without its content")
    };
    ConversionError::new(expected, found)
}

/// The content of a struct variant: a map.
pub fn map(content: AttributeValue, variant: &str) -> Result<Item, ConversionError> {
    match content {
        AttributeValue::M(map) => Ok(map),
        other => Err(ConversionError::new(
            format!("a map (the fields of variant {variant:?})"),
            other.type_name(),
        )
        .at(variant)),
    }
}

/// The content of a tuple variant: a list of exactly `len` elements.
pub fn list(
    content: AttributeValue,
    variant: &str,
    len: usize,
) -> Result<std::vec::IntoIter<AttributeValue>, ConversionError> {
    let expected = || format!("a list of {len} elements (variant {variant:?})");
    match content {
        AttributeValue::L(list) if list.len() == len => Ok(list.into_iter()),
        AttributeValue::L(list) => Err(ConversionError::new(
            expected(),
            format!("a list of {} elements", list.len()),
        )
        .at(variant)),
        other => Err(ConversionError::new(expected(), other.type_name()).at(variant)),
    }
}

/// Reads one element of a tuple variant (or a newtype variant's content); `NULL` reads as the type's
/// "nothing", as in a list.
pub fn element<T: super::Attribute>(value: Option<AttributeValue>) -> Result<T, ConversionError> {
    match value {
        Some(value) => super::element_from_attribute(value),
        None => T::from_missing(),
    }
}

/// Writes one element of a tuple variant (or a newtype variant's content): "nothing" becomes `NULL`.
pub fn to_element<T: super::Attribute>(value: &T) -> Result<AttributeValue, ConversionError> {
    super::element_to_attribute(value)
}

/// A map of one entry, `tag` → `content`: how a variant with content is stored.
pub fn tagged(tag: &str, content: AttributeValue) -> AttributeValue {
    let mut map = Item::new();
    map.insert(tag.to_owned(), content);
    AttributeValue::M(map)
}

/// The tag and the rest of an internally tagged value (`tag = "type"`): a map whose `key` attribute
/// is a string naming the variant.
pub fn split_internal(
    value: AttributeValue,
    key: &str,
    expected: impl FnOnce() -> String,
) -> Result<(String, Item), ConversionError> {
    match value {
        AttributeValue::M(mut map) => match map.remove(key) {
            Some(AttributeValue::S(tag)) => Ok((tag, map)),
            Some(other) => {
                Err(ConversionError::new("a string naming the variant", other.type_name()).at(key))
            }
            None => Err(ConversionError::new(
                expected(),
                format!("a map without {key:?}"),
            )),
        },
        other => Err(ConversionError::new(expected(), other.type_name())),
    }
}

/// A map with the variant's name under `key`: how a struct or unit variant of an internally tagged
/// enum is stored.
pub fn with_tag(key: &str, tag: &str, mut map: Item) -> AttributeValue {
    map.insert(key.to_owned(), AttributeValue::S(tag.to_owned()));
    AttributeValue::M(map)
}

/// A newtype variant's content with the variant's name under `key`: the content must be a map
/// without that attribute.
pub fn content_with_tag(
    key: &str,
    tag: &str,
    content: AttributeValue,
) -> Result<AttributeValue, ConversionError> {
    match content {
        AttributeValue::M(map) if map.contains_key(key) => Err(ConversionError::new(
            format!("a map without {key:?}, which holds the variant's name {tag:?}"),
            format!("a map with {key:?}"),
        )),
        AttributeValue::M(map) => Ok(with_tag(key, tag, map)),
        other => Err(ConversionError::new(
            format!(
                "a map (variant {tag:?} is internally tagged: its name is stored in its content)"
            ),
            other.type_name(),
        )),
    }
}
