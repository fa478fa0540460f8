//! A cursor's token: its [`Position`] in a compact, versioned binary form, in base64url without
//! padding (it travels in URLs).
//!
//! Format 1:
//!
//! | field | encoding |
//! |---|---|
//! | version | one byte, `1` |
//! | flags | one byte: `1` a Scan (else a Query), `2` an index, `4` a segment, `8` signed |
//! | table | string |
//! | index | string, with flag `2` |
//! | segment, total segments | two varints, with flag `4` |
//! | key attributes | one byte, their number (1 to 4), then for each, in name order: the name (string), the type (one byte: `0` S, `1` N, `2` B) and the value (string: S as UTF-8, N as its canonical text, B raw) |
//! | tag | 32 bytes, with flag `8`: HMAC-SHA256 of every byte before it |
//!
//! A string is a varint length then that many bytes; a varint is an unsigned LEB128 of at most 5
//! bytes (a `u32`). Decoding is strict and total: any byte string gives a position or a reason,
//! never a panic, and nothing is allocated beyond the token's own size.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use crate::query::cursor::invalid::InvalidCursorReason;
use crate::query::cursor::{Operation, Position};
use crate::value::{AttributeValue, Item, Number};

/// The token format written.
pub(crate) const VERSION: u8 = 1;
/// The longest token read (far beyond any real cursor: four key values of at most 2 KB).
pub(crate) const MAX_TOKEN_LEN: usize = 16 * 1024;
/// The length of a signature.
pub(crate) const TAG_LEN: usize = 32;
/// A table key and an index key, two attributes each.
const MAX_KEY_ATTRIBUTES: u8 = 4;

const SCAN: u8 = 1;
const INDEX: u8 = 2;
const SEGMENT: u8 = 4;
const SIGNED: u8 = 8;

const TYPE_S: u8 = 0;
const TYPE_N: u8 = 1;
const TYPE_B: u8 = 2;

/// A signature, as a token carries it.
pub(crate) type Tag = [u8; TAG_LEN];

/// The bytes a token holds before its tag; `signed` sets the flag a tag follows.
pub(crate) fn payload(position: &Position, signed: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    let mut flags = 0;
    if position.operation == Operation::Scan {
        flags |= SCAN;
    }
    if position.index.is_some() {
        flags |= INDEX;
    }
    if position.segment.is_some() {
        flags |= SEGMENT;
    }
    if signed {
        flags |= SIGNED;
    }
    out.extend([VERSION, flags]);
    string(&mut out, position.table.as_bytes());
    if let Some(index) = &position.index {
        string(&mut out, index.as_bytes());
    }
    if let Some((segment, total)) = position.segment {
        varint(&mut out, segment);
        varint(&mut out, total);
    }
    // A position holds 1 to 4 S, N or B attributes (`Position::key_values` checked it).
    out.push(u8::try_from(position.key.len()).unwrap_or(u8::MAX));
    for (name, value) in &position.key {
        string(&mut out, name.as_bytes());
        match value {
            AttributeValue::S(s) => {
                out.push(TYPE_S);
                string(&mut out, s.as_bytes());
            }
            AttributeValue::N(n) => {
                out.push(TYPE_N);
                string(&mut out, n.to_string().as_bytes());
            }
            AttributeValue::B(b) => {
                out.push(TYPE_B);
                string(&mut out, b);
            }
            // Never in a position; written as an empty S rather than panicking.
            _ => {
                out.push(TYPE_S);
                string(&mut out, b"");
            }
        }
    }
    out
}

/// The token of `payload` and, if signed, its tag.
pub(crate) fn encode(payload: &[u8], tag: Option<&Tag>) -> String {
    match tag {
        None => URL_SAFE_NO_PAD.encode(payload),
        Some(tag) => {
            let mut bytes = Vec::with_capacity(payload.len() + TAG_LEN);
            bytes.extend_from_slice(payload);
            bytes.extend_from_slice(tag);
            URL_SAFE_NO_PAD.encode(bytes)
        }
    }
}

/// Decodes a token: its position and tag.
pub(crate) fn decode(token: &str) -> Result<(Position, Option<Tag>), InvalidCursorReason> {
    let malformed = |detail| InvalidCursorReason::Malformed { detail };
    if token.len() > MAX_TOKEN_LEN {
        return Err(InvalidCursorReason::TooLong {
            length: token.len(),
        });
    }
    if token.is_empty() {
        return Err(malformed("empty"));
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(token)
        .map_err(|_| malformed("not base64url without padding"))?;
    let mut reader = Reader { bytes: &bytes };
    let version = reader.byte()?;
    if version != VERSION {
        return Err(InvalidCursorReason::UnknownVersion { version });
    }
    let flags = reader.byte()?;
    if flags & !(SCAN | INDEX | SEGMENT | SIGNED) != 0 {
        return Err(malformed("unknown flags"));
    }
    let tag = match flags & SIGNED {
        0 => None,
        _ => Some(reader.tag()?),
    };
    let table = reader.string()?.to_owned();
    let index = match flags & INDEX {
        0 => None,
        _ => Some(reader.string()?.to_owned()),
    };
    let segment = match flags & SEGMENT {
        0 => None,
        _ => Some((reader.varint()?, reader.varint()?)),
    };
    let count = reader.byte()?;
    if count == 0 || count > MAX_KEY_ATTRIBUTES {
        return Err(malformed("not 1 to 4 key attributes"));
    }
    let mut key = Item::new();
    for _ in 0..count {
        let name = reader.string()?;
        if name.is_empty() {
            return Err(malformed("an empty attribute name"));
        }
        let kind = reader.byte()?;
        let value = match kind {
            TYPE_S => AttributeValue::S(reader.string()?.to_owned()),
            TYPE_N => AttributeValue::N(
                Number::parse(reader.string()?)
                    .map_err(|_| malformed("a number that does not parse"))?,
            ),
            TYPE_B => AttributeValue::B(reader.bytes()?.to_vec()),
            _ => return Err(malformed("a key attribute of an unknown type")),
        };
        if key.insert(name.to_owned(), value).is_some() {
            return Err(malformed("a key attribute given twice"));
        }
    }
    if !reader.bytes.is_empty() {
        return Err(malformed("trailing bytes"));
    }
    let operation = match flags & SCAN {
        0 => Operation::Query,
        _ => Operation::Scan,
    };
    Ok((
        Position {
            operation,
            table,
            index,
            segment,
            key,
        },
        tag,
    ))
}

fn varint(out: &mut Vec<u8>, mut n: u32) {
    while n >= 0x80 {
        out.push((n & 0x7f) as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn string(out: &mut Vec<u8>, bytes: &[u8]) {
    varint(out, u32::try_from(bytes.len()).unwrap_or(u32::MAX));
    out.extend_from_slice(bytes);
}

/// The bytes not decoded yet; the tag, if any, already split off the end.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn truncated() -> InvalidCursorReason {
        InvalidCursorReason::Malformed {
            detail: "truncated",
        }
    }

    fn byte(&mut self) -> Result<u8, InvalidCursorReason> {
        let (&first, rest) = self.bytes.split_first().ok_or_else(Self::truncated)?;
        self.bytes = rest;
        Ok(first)
    }

    fn varint(&mut self) -> Result<u32, InvalidCursorReason> {
        let mut n: u32 = 0;
        for shift in (0..35).step_by(7) {
            let byte = self.byte()?;
            let bits = u32::from(byte & 0x7f);
            // The fifth byte holds the top 4 bits of a u32.
            if shift == 28 && bits > 0x0f {
                break;
            }
            n |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(InvalidCursorReason::Malformed {
            detail: "a length or number beyond 32 bits",
        })
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], InvalidCursorReason> {
        if len > self.bytes.len() {
            return Err(Self::truncated());
        }
        let (taken, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        Ok(taken)
    }

    fn bytes(&mut self) -> Result<&'a [u8], InvalidCursorReason> {
        let len = usize::try_from(self.varint()?).unwrap_or(usize::MAX);
        self.take(len)
    }

    fn string(&mut self) -> Result<&'a str, InvalidCursorReason> {
        std::str::from_utf8(self.bytes()?).map_err(|_| InvalidCursorReason::Malformed {
            detail: "a name or string that is not UTF-8",
        })
    }

    /// Splits the tag off the end.
    fn tag(&mut self) -> Result<Tag, InvalidCursorReason> {
        let at = self
            .bytes
            .len()
            .checked_sub(TAG_LEN)
            .ok_or_else(Self::truncated)?;
        let (payload, tag) = self.bytes.split_at(at);
        self.bytes = payload;
        let mut out = [0; TAG_LEN];
        out.copy_from_slice(tag);
        Ok(out)
    }
}
