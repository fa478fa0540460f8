//! The JSON text under the page reader: whitespace, punctuation, strings (with their escapes) and
//! booleans, read from a body already known to be UTF-8. Strict JSON, and no more: every string is
//! unescaped as the SDK's JSON reader (`aws-smithy-json`'s `unescape_string`) unescapes it, and
//! what it refuses (a raw control character, an unknown escape, a `\u` without four hex digits, a
//! surrogate not in a pair) is refused here too.

use std::borrow::Cow;

/// The bytes that end a string's run of plain characters: its closing quote, an escape, and the
/// control characters JSON refuses raw.
const STOP: [bool; 256] = {
    let mut stop = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        stop[byte] = true;
        byte += 1;
    }
    stop[b'"' as usize] = true;
    stop[b'\\' as usize] = true;
    stop
};

/// A position in a body's text.
pub(super) struct Text<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Text<'a> {
    /// The text from `at` (a byte offset on a character boundary).
    pub(super) fn new(text: &'a str, at: usize) -> Text<'a> {
        Text { text, at }
    }

    /// The byte offset reached.
    pub(super) fn at(&self) -> usize {
        self.at
    }

    /// The number of bytes after the offset reached.
    pub(super) fn rest(&self) -> usize {
        self.text.len() - self.at
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// Skips JSON whitespace and returns the next byte, if any.
    #[inline]
    pub(super) fn peek(&mut self) -> Option<u8> {
        let bytes = self.bytes();
        let byte = *bytes.get(self.at)?;
        // Past a space, no whitespace: the usual case of a compact body, in one comparison.
        if byte > b' ' {
            return Some(byte);
        }
        while let Some(&byte) = bytes.get(self.at) {
            if !matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(byte);
            }
            self.at += 1;
        }
        None
    }

    /// Skips whitespace and `byte`; `None` if another byte comes first.
    #[inline]
    pub(super) fn expect(&mut self, byte: u8) -> Option<()> {
        if self.peek()? != byte {
            return None;
        }
        self.at += 1;
        Some(())
    }

    /// After an element of an array or a member of an object: `Some(true)` after a `,` (another
    /// follows), `Some(false)` after `close`, `None` on anything else.
    #[inline]
    pub(super) fn next_or_close(&mut self, close: u8) -> Option<bool> {
        let byte = self.peek()?;
        self.at += 1;
        if byte == b',' {
            Some(true)
        } else if byte == close {
            Some(false)
        } else {
            None
        }
    }

    /// After an array's or object's opening byte: whether it is empty (its closing byte skipped).
    #[inline]
    pub(super) fn empty(&mut self, close: u8) -> Option<bool> {
        if self.peek()? == close {
            self.at += 1;
            return Some(true);
        }
        Some(false)
    }

    /// `true` or `false`.
    pub(super) fn boolean(&mut self) -> Option<bool> {
        self.peek()?;
        let rest = &self.bytes()[self.at..];
        if rest.starts_with(b"true") {
            self.at += 4;
            Some(true)
        } else if rest.starts_with(b"false") {
            self.at += 5;
            Some(false)
        } else {
            None
        }
    }

    /// A string, unescaped: the body's own text when it has no escape (`Cow::Borrowed` exactly
    /// then, which is how a binary's reader knows it had none).
    #[inline]
    pub(super) fn string(&mut self) -> Option<Cow<'a, str>> {
        if self.peek()? != b'"' {
            return None;
        }
        let bytes = self.bytes();
        let start = self.at + 1;
        let mut at = start;
        while !STOP[usize::from(*bytes.get(at)?)] {
            at += 1;
        }
        match bytes[at] {
            b'"' => {
                self.at = at + 1;
                self.text.get(start..at).map(Cow::Borrowed)
            }
            b'\\' => self.escaped(start, at).map(Cow::Owned),
            _ => None,
        }
    }

    /// The rest of a string from its first escape at `at` (its text from `start`).
    #[cold]
    fn escaped(&mut self, start: usize, mut at: usize) -> Option<String> {
        let bytes = self.bytes();
        let mut out = String::with_capacity(at - start + 16);
        out.push_str(self.text.get(start..at)?);
        loop {
            match *bytes.get(at)? {
                b'"' => {
                    self.at = at + 1;
                    return Some(out);
                }
                b'\\' => {
                    let unescaped = match *bytes.get(at + 1)? {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let (c, length) = unicode(&bytes[at..])?;
                            out.push(c);
                            at += length;
                            continue;
                        }
                        _ => return None,
                    };
                    out.push(unescaped);
                    at += 2;
                }
                0x00..=0x1f => return None,
                _ => {
                    // A run of plain characters (it ends on ASCII: a character boundary).
                    let run = bytes[at..].iter().position(|&b| STOP[usize::from(b)])?;
                    out.push_str(self.text.get(at..at + run)?);
                    at += run;
                }
            }
        }
    }
}

/// The character of a `\uXXXX` escape at the start of `bytes` (a surrogate pair taking two), and
/// the escape's length; `None` for anything `aws-smithy-json` refuses.
fn unicode(bytes: &[u8]) -> Option<(char, usize)> {
    let high = hex4(bytes.get(2..6)?)?;
    if !(0xD800..=0xDBFF).contains(&high) {
        // A lone low surrogate is no character: refused.
        return Some((char::from_u32(u32::from(high))?, 6));
    }
    if bytes.get(6..8)? != b"\\u" {
        return None;
    }
    let low = hex4(bytes.get(8..12)?)?;
    if !(0xDC00..=0xDFFF).contains(&low) {
        return None;
    }
    let c = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
    Some((char::from_u32(c)?, 12))
}

/// Four hex digits, either case.
fn hex4(digits: &[u8]) -> Option<u16> {
    digits.iter().try_fold(0u16, |n, &d| {
        let digit = (d as char).to_digit(16)?;
        Some(n << 4 | digit as u16)
    })
}
