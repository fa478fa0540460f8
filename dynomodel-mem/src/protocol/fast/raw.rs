//! The raw JSON text the two scanners read without serde_json (`scan` for the lists of writes,
//! `legacy_scan` for the legacy maps): punctuation, JSON whitespace, literals and strings without
//! escapes or control characters, which is all their usual entries are made of.

/// A reader at an offset of a body's text; each scanner adds what its entries hold.
pub(super) trait RawJson<'t> {
    /// The body's text.
    fn text(&self) -> &'t str;
    /// The offset read to.
    fn at(&mut self) -> &mut usize;

    /// JSON whitespace, as serde_json skips it.
    #[inline]
    fn skip_whitespace(&mut self) {
        let bytes = self.text().as_bytes();
        let at = self.at();
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = bytes.get(*at) {
            *at += 1;
        }
    }

    /// The punctuation `b`, after whitespace (the usual layout, without, tried first).
    #[inline]
    fn byte(&mut self, b: u8) -> Option<()> {
        let bytes = self.text().as_bytes();
        if bytes.get(*self.at()) != Some(&b) {
            self.skip_whitespace();
        }
        let at = self.at();
        (bytes.get(*at) == Some(&b)).then(|| *at += 1)
    }

    /// The next byte after whitespace, without taking it.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.skip_whitespace();
        let bytes = self.text().as_bytes();
        bytes.get(*self.at()).copied()
    }

    /// The bytes `word` (after whitespace): a literal; what follows it is the caller's to check.
    #[inline]
    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.skip_whitespace();
        let bytes = self.text().as_bytes();
        let at = self.at();
        let end = *at + word.len();
        (bytes.get(*at..end) == Some(word)).then(|| *at = end)
    }

    /// A string without escapes or control characters (serde_json refuses these), its content
    /// as sent. Its ends are ASCII quotes, so it is cut from the text on character boundaries.
    #[inline]
    fn string(&mut self) -> Option<&'t str> {
        self.byte(b'"')?;
        let text = self.text();
        let at = self.at();
        let start = *at;
        let len = content_len(text.as_bytes().get(start..)?)?;
        *at = start + len + 1;
        text.get(start..start + len)
    }
}

/// The strings' content this long or shorter (names, numbers, the enums' words) is read byte by
/// byte; what is left of a longer one is searched with `memchr2`, whose setup costs more than a
/// short string's bytes.
pub(super) const SHORT: usize = 24;

/// The bytes that end a string's content as the scanners read it: its closing quote, or an escape
/// or a control character, which they decline.
const STOP: [bool; 256] = {
    let mut stop = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        stop[b] = true;
        b += 1;
    }
    stop[b'"' as usize] = true;
    stop[b'\\' as usize] = true;
    stop
};

/// The length of a string's content, `rest` beginning after its opening quote: `None` if an escape
/// or a control character comes before the closing quote, or no quote does.
#[inline]
fn content_len(rest: &[u8]) -> Option<usize> {
    let head = &rest[..rest.len().min(SHORT)];
    if let Some(i) = head.iter().position(|&b| STOP[usize::from(b)]) {
        return (head[i] == b'"').then_some(i);
    }
    let tail = &rest[head.len()..];
    let end = memchr::memchr2(b'"', b'\\', tail)?;
    (tail[end] == b'"' && tail[..end].iter().all(|&b| b >= 0x20)).then_some(head.len() + end)
}
