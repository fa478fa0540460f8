//! A small JSON writer: responses go straight to their bytes, without a `serde_json::Value` tree.
//!
//! Building a `Value` per response costs a `String` key and a `Value` per attribute and a map per item,
//! all freed right after printing; on a Query of 20 items that was two thirds of the server's own CPU
//! (`docs/performance.md`). The writer appends to one `Vec<u8>` instead.
//!
//! The bytes are exactly those `serde_json::to_vec` printed for the `Value` the server built before
//! (tests in `tests/direct.rs` hold the old builders as oracles), so nothing changes on the wire:
//!
//! - strings escaped as serde_json escapes them (RFC 8259's minimum): `"` and `\` with a backslash,
//!   `\b \t \n \f \r` in their short forms, every other control character below U+0020 as `\u00xx`
//!   (lowercase hex); everything else, non-ASCII and U+007F included, as is;
//! - no whitespace;
//! - object members in the order of their keys' bytes, because `serde_json::Map` is a `BTreeMap` (the
//!   crate does not enable `preserve_order`). Writers emit fixed members in that order by hand; debug
//!   builds check it on every object ([`Object`]).
//! - doubles as serde_json prints an `f64` (its shortest round-trip text: `1.0`, `0.5`, `1e16`).

use std::io::Write as _;

use serde_json::Value;

/// Appends `s` as a JSON string, escaped as serde_json escapes it.
pub(super) fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    // Copy the runs between bytes that need an escape in one go: most strings have none.
    let mut start = 0;
    while let Some(i) = next_escape(bytes, start) {
        out.extend_from_slice(&bytes[start..i]);
        let b = bytes[i];
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x09 => out.extend_from_slice(b"\\t"),
            0x0a => out.extend_from_slice(b"\\n"),
            0x0c => out.extend_from_slice(b"\\f"),
            0x0d => out.extend_from_slice(b"\\r"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xf)]);
            }
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Whether `b` needs an escape: a control character, `"` or `\`.
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// The index of the first byte at or after `from` that needs an escape. Eight bytes at a time (the
/// strings of items are mostly clean, and this is the writer's hottest loop): a word has such a byte
/// iff one of its bytes is below 0x20 or equals `"` or `\`, found with the classic bit tricks
/// ("has a byte less than n", "has a zero byte" of the word XORed with the character), which are
/// exact as yes/no answers; the byte itself is then found one by one within that word.
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let rest = &bytes[from..];
    let mut chunks = rest.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        let quote = x ^ (ONES * u64::from(b'"'));
        let backslash = x ^ (ONES * u64::from(b'\\'));
        let hits = (x.wrapping_sub(ONES * 0x20) & !x)
            | (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash);
        if hits & HIGH != 0 {
            break;
        }
        offset += 8;
    }
    rest[offset..]
        .iter()
        .position(|&b| needs_escape(b))
        .map(|i| from + offset + i)
}

/// Appends `value` as a JSON number, printed as serde_json prints an `f64`; a non-finite value, which
/// JSON cannot hold, as `null` (what `serde_json::json!(f64::NAN)` holds).
pub(super) fn double(out: &mut Vec<u8>, value: f64) {
    match serde_json::Number::from_f64(value) {
        // Writing to a `Vec` cannot fail.
        Some(n) => {
            let _ = write!(out, "{n}");
        }
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends an integer.
pub(super) fn integer(out: &mut Vec<u8>, value: i64) {
    let _ = write!(out, "{value}");
}

/// Appends `true` or `false`.
pub(super) fn boolean(out: &mut Vec<u8>, value: bool) {
    out.extend_from_slice(if value { b"true" } else { b"false" });
}

/// Appends a `serde_json::Value` exactly as `serde_json::to_vec` prints it: for the small parts of a
/// response that the server holds as a `Value` anyway.
pub(super) fn value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => boolean(out, *b),
        // A `Number`'s `Display` is its serialisation (integers as such, doubles through ryu).
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => string(out, s),
        Value::Array(elements) => {
            let mut list = Array::begin(out);
            for element in elements {
                value(list.element(), element);
            }
            list.end();
        }
        Value::Object(members) => {
            let mut object = Object::begin(out);
            for (k, v) in members {
                value(object.member(k), v);
            }
            object.end();
        }
    }
}

/// An object being written: `{`, then each member's key (with the comma before it) by
/// [`Object::member`], whose value the caller appends, then `}` by [`Object::end`].
pub(super) struct Object<'a> {
    out: &'a mut Vec<u8>,
    empty: bool,
    /// The previous key, to check that members come in serde_json's (sorted) order.
    #[cfg(debug_assertions)]
    last: Option<String>,
}

impl<'a> Object<'a> {
    /// Writes `{`.
    pub(super) fn begin(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        Object {
            out,
            empty: true,
            #[cfg(debug_assertions)]
            last: None,
        }
    }

    /// Writes the member's key; the caller writes its value to the returned buffer, right away.
    pub(super) fn member(&mut self, key: &str) -> &mut Vec<u8> {
        #[cfg(debug_assertions)]
        {
            debug_assert!(
                self.last.as_deref().is_none_or(|last| last < key),
                "object members out of serde_json's order: {:?} before {key:?}",
                self.last
            );
            self.last = Some(key.to_owned());
        }
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        string(self.out, key);
        self.out.push(b':');
        self.out
    }

    /// Writes `}`.
    pub(super) fn end(self) {
        self.out.push(b'}');
    }
}

/// A list being written: `[`, elements by [`Array::element`], then `]` by [`Array::end`].
pub(super) struct Array<'a> {
    out: &'a mut Vec<u8>,
    empty: bool,
}

impl<'a> Array<'a> {
    /// Writes `[`.
    pub(super) fn begin(out: &'a mut Vec<u8>) -> Self {
        out.push(b'[');
        Array { out, empty: true }
    }

    /// Writes the comma before an element (but the first); the caller writes the element.
    pub(super) fn element(&mut self) -> &mut Vec<u8> {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        self.out
    }

    /// Writes `]`.
    pub(super) fn end(self) {
        self.out.push(b']');
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn text(write: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut out = Vec::new();
        write(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        // Every ASCII character, alone and between others, and some beyond ASCII.
        let mut samples: Vec<String> = (0u8..=0x7f).map(|b| char::from(b).to_string()).collect();
        samples.extend((0u8..=0x7f).map(|b| format!("a{}b", char::from(b))));
        // Every ASCII character at every position of strings longer than the eight-byte words the
        // scan reads, next to multi-byte characters, and two at once.
        for b in 0u8..=0x7f {
            for at in 0..20 {
                let mut s: Vec<char> = "xxxxxxxxxxxxxxxxxxxx".chars().collect();
                s[at] = char::from(b);
                samples.push(s.iter().collect());
                s[(at + 9) % 20] = 'é';
                samples.push(s.iter().collect());
                s[(at + 3) % 20] = '"';
                samples.push(s.iter().collect());
            }
        }
        samples.extend(
            [
                "",
                "plain",
                "é ü 中文 🦀",
                "\u{2028}\u{2029}",
                "\u{feff}bom",
                "tab\there \"quoted\" back\\slash\r\n",
                "\u{0}\u{1f}\u{7f}\u{80}\u{ffff}",
            ]
            .map(str::to_owned),
        );
        for s in samples {
            assert_eq!(
                text(|out| string(out, &s)),
                serde_json::to_string(&s).unwrap(),
                "{s:?}"
            );
        }
    }

    #[test]
    fn doubles_and_integers_print_as_serde_json_prints_them() {
        for d in [
            0.0,
            -0.0,
            0.5,
            1.0,
            132.0,
            1e16,
            1.5e-7,
            1e300,
            f64::MAX,
            2.0f64.powi(60),
        ] {
            assert_eq!(text(|out| double(out, d)), json!(d).to_string(), "{d}");
        }
        assert_eq!(
            text(|out| double(out, f64::NAN)),
            json!(f64::NAN).to_string()
        );
        for i in [0, -1, 42, i64::MAX, i64::MIN] {
            assert_eq!(text(|out| integer(out, i)), json!(i).to_string());
        }
    }

    #[test]
    fn values_print_as_serde_json_prints_them() {
        let v = json!({
            "z": [1, -2, 3.5, null, true, false, "s\n", {}, []],
            "a": {"b": {"c": "\u{1}"}}, "": "empty key", "é": 1e20
        });
        assert_eq!(
            text(|out| value(out, &v)),
            serde_json::to_string(&v).unwrap()
        );
    }
}
