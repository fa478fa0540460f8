//! `NextToken`: the `LastEvaluatedKey` of a `SELECT`'s page, as opaque text.
//!
//! Key attributes are strings, numbers or binaries, so a key is written as
//! `name.type.value` triples (hex-encoded name and value) joined by `-`, after a version prefix.

use dynomodel::{AttributeValue, Error, Item, Number, Result};

use super::errors;

const PREFIX: &str = "pq1-";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The token of a key.
pub(crate) fn encode(key: &Item) -> String {
    let parts: Vec<String> = key
        .iter()
        .filter_map(|(name, value)| {
            let (kind, bytes) = match value {
                AttributeValue::S(s) => ("S", s.as_bytes().to_vec()),
                AttributeValue::N(n) => ("N", n.to_string().into_bytes()),
                AttributeValue::B(b) => ("B", b.clone()),
                _ => return None,
            };
            Some(format!("{}.{kind}.{}", hex(name.as_bytes()), hex(&bytes)))
        })
        .collect();
    format!("{PREFIX}{}", parts.join("-"))
}

/// The key of a token; `Invalid NextToken` for anything [`encode`] did not make.
pub(crate) fn decode(token: &str) -> Result<Item> {
    let invalid = || Error::validation(errors::INVALID_NEXT_TOKEN);
    let body = token.strip_prefix(PREFIX).ok_or_else(invalid)?;
    let mut key = Item::new();
    for part in body.split('-') {
        let mut fields = part.split('.');
        let (Some(name), Some(kind), Some(value), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(invalid());
        };
        let name = String::from_utf8(unhex(name).ok_or_else(invalid)?).map_err(|_| invalid())?;
        let bytes = unhex(value).ok_or_else(invalid)?;
        let value = match kind {
            "S" => AttributeValue::S(String::from_utf8(bytes).map_err(|_| invalid())?),
            "N" => AttributeValue::N(
                String::from_utf8(bytes)
                    .ok()
                    .and_then(|s| s.parse::<Number>().ok())
                    .ok_or_else(invalid)?,
            ),
            "B" => AttributeValue::B(bytes),
            _ => return Err(invalid()),
        };
        key.insert(name, value);
    }
    Ok(key)
}
