//! A put's item written by the model straight as the request's JSON, for
//! `request_body`: the write-side counterpart of `page_body`.
//!
//! The SDK would serialize a PutItem's `Item` from a `HashMap<String, AttributeValue>` the model
//! filled first (an allocation per name and per value, SipHash, then a walk of the map). Here the
//! model's attributes are written as the JSON object the SDK would write for that map, in one
//! buffer, borrowing the model's strings: the same value objects, and strings escaped by the SDK's
//! own JSON writer (`aws-smithy-json`), so the text differs from the SDK's only in the order of the
//! attributes (which the SDK takes from its map's hashing).
//!
//! A map keeps the last of two values of one name ([`AttributeSink`]); an object written twice
//! with a name would leave the choice to the reader. So an item that names an attribute twice is
//! not written here ([`item_json`] gives `None`) and goes through the SDK's map as before.

use std::fmt::Write as _;
use std::ops::Range;

use aws_smithy_json::serialize::JsonValueWriter;
use base64::Engine as _;

use crate::backend::{AttributeRef, AttributeSink, AttributeWriter};
use crate::error::ConversionError;
use crate::value::{AttributeValue, Item, Number};

/// The JSON object of `item`'s attributes and then `writer`'s, as the SDK would serialize the map
/// they fill; `None` when a name is written twice. A value the writer cannot write is its error.
pub(crate) fn item_json(
    item: &Item,
    writer: &dyn AttributeWriter,
) -> Result<Option<String>, ConversionError> {
    let attributes = item.len() + writer.len_hint();
    // About what an attribute of a small model takes: a name, a value object, a short string.
    let mut sink = ItemJson {
        out: String::with_capacity(2 + 40 * attributes),
        names: Vec::with_capacity(attributes),
    };
    sink.out.push('{');
    // The mapper's own requests leave `item` empty: its iterator not even made.
    if !item.is_empty() {
        for (name, value) in item {
            sink.name(name);
            write_value(&mut sink.out, value);
        }
    }
    writer.write(&mut sink)?;
    sink.out.push('}');
    Ok((!sink.has_duplicate()).then_some(sink.out))
}

/// An [`AttributeSink`] writing each attribute as a member of a JSON object (its opening `{` and
/// closing `}` are the caller's).
struct ItemJson {
    out: String,
    /// Where each attribute's name stands in `out`, escaped (two names are equal exactly when
    /// their escaped texts are).
    names: Vec<Range<usize>>,
}

impl ItemJson {
    /// `"name":`, after a `,` when an attribute came before.
    fn name(&mut self, name: &str) {
        if !self.names.is_empty() {
            self.out.push(',');
        }
        let start = self.out.len() + 1;
        JsonValueWriter::new(&mut self.out).string(name);
        self.names.push(start..self.out.len() - 1);
        self.out.push(':');
    }

    /// Whether two attributes have the same name: pairwise for the usual few, through sorted
    /// names for many (never quadratic in a large item).
    fn has_duplicate(&self) -> bool {
        let name = |range: &Range<usize>| &self.out.as_bytes()[range.clone()];
        if self.names.len() <= 16 {
            self.names.iter().enumerate().any(|(i, a)| {
                self.names[i + 1..]
                    .iter()
                    .any(|b| a.len() == b.len() && name(a) == name(b))
            })
        } else {
            let mut names: Vec<&[u8]> = self.names.iter().map(name).collect();
            names.sort_unstable();
            names.windows(2).any(|pair| pair[0] == pair[1])
        }
    }
}

impl AttributeSink for ItemJson {
    fn insert(&mut self, name: String, value: AttributeValue) {
        self.name(&name);
        write_value(&mut self.out, &value);
    }

    fn insert_static(&mut self, name: &'static str, value: AttributeValue) {
        self.name(name);
        write_value(&mut self.out, &value);
    }

    fn insert_ref(&mut self, name: &'static str, value: AttributeRef<'_>) {
        self.name(name);
        match value {
            AttributeRef::S(s) => {
                self.out.push_str("{\"S\":");
                string(&mut self.out, s);
            }
            AttributeRef::Ss(set) => {
                self.out.push_str("{\"SS\":[");
                let mut first = true;
                set.for_each(|s| {
                    if !std::mem::take(&mut first) {
                        self.out.push(',');
                    }
                    string(&mut self.out, s);
                });
                self.out.push(']');
            }
        }
        self.out.push('}');
    }
}

/// A string, quoted and escaped as the SDK's JSON writer writes it.
#[inline]
fn string(out: &mut String, s: &str) {
    JsonValueWriter::new(out).string(s);
}

/// A number's text, quoted (`Number`'s text is digits, `-` and `.`: nothing to escape).
fn number(out: &mut String, n: &Number) {
    out.push('"');
    // Writing into a `String` cannot fail.
    let _ = write!(out, "{n}");
    out.push('"');
}

/// A binary's base64 text, quoted: the SDK's alphabet and padding (base64-simd's `STANDARD`).
fn binary(out: &mut String, b: &[u8]) {
    out.push('"');
    base64::engine::general_purpose::STANDARD.encode_string(b, out);
    out.push('"');
}

/// `[` the elements `,`-separated `]`, each written by `write`.
fn array<T>(out: &mut String, elements: &[T], write: impl Fn(&mut String, &T)) {
    out.push('[');
    for (i, element) in elements.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(out, element);
    }
    out.push(']');
}

/// A value object (`{"S":"…"}`), as the SDK serializes the value `to_sdk` makes of `value`.
fn write_value(out: &mut String, value: &AttributeValue) {
    match value {
        AttributeValue::S(s) => {
            out.push_str("{\"S\":");
            string(out, s);
        }
        AttributeValue::N(n) => {
            out.push_str("{\"N\":");
            number(out, n);
        }
        AttributeValue::B(b) => {
            out.push_str("{\"B\":");
            binary(out, b);
        }
        AttributeValue::Bool(b) => out.push_str(if *b {
            "{\"BOOL\":true"
        } else {
            "{\"BOOL\":false"
        }),
        AttributeValue::Null => out.push_str("{\"NULL\":true"),
        AttributeValue::Ss(set) => {
            out.push_str("{\"SS\":");
            array(out, set, |out, s| string(out, s));
        }
        AttributeValue::Ns(set) => {
            out.push_str("{\"NS\":");
            array(out, set, number);
        }
        AttributeValue::Bs(set) => {
            out.push_str("{\"BS\":");
            array(out, set, |out, b| binary(out, b));
        }
        AttributeValue::L(list) => {
            out.push_str("{\"L\":");
            array(out, list, write_value);
        }
        AttributeValue::M(map) => {
            out.push_str("{\"M\":{");
            for (i, (name, value)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(out, name);
                out.push(':');
                write_value(out, value);
            }
            out.push('}');
        }
    }
    out.push('}');
}

#[cfg(test)]
mod tests;
