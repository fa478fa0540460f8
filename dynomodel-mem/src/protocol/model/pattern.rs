//! The regular expressions of the service models, each matched by a small hand-written function
//! keyed by the pattern's text (the tree has no regex crate, and the models use only these).
//!
//! Java semantics: the service matches the whole value (`Pattern.matches`), so `^`/`$` add nothing,
//! and `\p{Print}` is ASCII's printable range. A test checks that every pattern of the generated
//! tables is one of these.

/// A pattern's text and its matcher.
type Matcher = (&'static str, fn(&str) -> bool);

/// The patterns [`matches`] knows, with their matchers.
const PATTERNS: &[Matcher] = &[
    ("[a-zA-Z0-9_.-]+", name),
    (r"^[^\$]+$", no_dollar),
    (r"^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$", bucket),
    ("[0-9]{12}", account),
    (r"[,;:|\t ]", delimiter),
    (r"[\x20-\x21\x23-\x2B\x2D-\x7E]*", csv_header),
    ("([0-9a-f]{16})+", hex_blocks),
    (
        r"[\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF\r\n\t]*",
        xml_chars,
    ),
    (r"\p{Print}+", printable),
    (
        r"[A-Za-z0-9][A-Za-z0-9\-\_\.]{0,126}[A-Za-z0-9]",
        bucket_name,
    ),
];

/// Whether `value` matches the model's `pattern`; `None` for a pattern this module does not know.
pub(crate) fn matches(pattern: &str, value: &str) -> Option<bool> {
    PATTERNS
        .iter()
        .find(|(text, _)| *text == pattern)
        .map(|(_, matcher)| matcher(value))
}

/// `[a-zA-Z0-9_.-]+`: table, index and backup names.
fn name(value: &str) -> bool {
    !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// `^[^\$]+$`: a client token.
fn no_dollar(value: &str) -> bool {
    !value.is_empty() && !value.contains('$')
}

/// `^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$`: at least two characters, alphanumeric at both ends, word
/// characters, dots and dashes between.
fn bucket(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.len() >= 2
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// `[0-9]{12}`: an account id.
fn account(value: &str) -> bool {
    value.len() == 12 && value.bytes().all(|b| b.is_ascii_digit())
}

/// `[,;:|\t ]`: one delimiter character.
fn delimiter(value: &str) -> bool {
    matches!(value, "," | ";" | ":" | "|" | "\t" | " ")
}

/// `[\x20-\x21\x23-\x2B\x2D-\x7E]*`: printable ASCII but `"` and `,`.
fn csv_header(value: &str) -> bool {
    value
        .chars()
        .all(|c| matches!(c, '\x20'..='\x21' | '\x23'..='\x2B' | '\x2D'..='\x7E'))
}

/// `([0-9a-f]{16})+`: blocks of sixteen lower-case hex digits.
fn hex_blocks(value: &str) -> bool {
    !value.is_empty()
        && value.len().is_multiple_of(16)
        && value
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `[\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF\r\n\t]*`: XML's characters (surrogate pairs
/// are the characters beyond the basic plane).
fn xml_chars(value: &str) -> bool {
    value.chars().all(|c| {
        matches!(c, '\r' | '\n' | '\t' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
            || u32::from(c) >= 0x10000
    })
}

/// `\p{Print}+`: printable ASCII.
fn printable(value: &str) -> bool {
    !value.is_empty() && value.chars().all(|c| matches!(c, '\x20'..='\x7E'))
}

/// `[A-Za-z0-9][A-Za-z0-9\-\_\.]{0,126}[A-Za-z0-9]`: 2–128 characters, alphanumeric at both ends.
fn bucket_name(value: &str) -> bool {
    let bytes = value.as_bytes();
    (2..=128).contains(&bytes.len())
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn each_pattern_accepts_and_refuses_what_java_would() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                "[a-zA-Z0-9_.-]+",
                &["users", "a_b.c-d", "x"],
                &["", "a;b", "é", "a b"],
            ),
            (r"^[^\$]+$", &["token", "a b"], &["", "a$b"]),
            (
                r"^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$",
                &["ab", "my.bucket-1_x"],
                &["a", "-ab", "ab-", "a b"],
            ),
            (
                "[0-9]{12}",
                &["123456789012"],
                &["12345678901", "12345678901a"],
            ),
            (r"[,;:|\t ]", &[",", "\t", " "], &["", ",,", "a"]),
            (
                r"[\x20-\x21\x23-\x2B\x2D-\x7E]*",
                &["", "a b!~"],
                &["a,b", "\"", "é"],
            ),
            (
                "([0-9a-f]{16})+",
                &["0123456789abcdef"],
                &["", "0123456789ABCDEF", "0a"],
            ),
            (
                r"[\u0020-\uD7FF\uE000-\uFFFD\uD800\uDC00-\uDBFF\uDFFF\r\n\t]*",
                &["", "arn:aws:iam::1:role/x\n", "😀"],
                &["\u{1}", "\u{FFFE}"],
            ),
            (r"\p{Print}+", &["policy 1"], &["", "é", "\t"]),
            (
                r"[A-Za-z0-9][A-Za-z0-9\-\_\.]{0,126}[A-Za-z0-9]",
                &["ab", "a-b.c_d"],
                &["a", "-a", &"a".repeat(129)],
            ),
        ];
        for (pattern, good, bad) in cases {
            for value in *good {
                assert_eq!(matches(pattern, value), Some(true), "{pattern} {value:?}");
            }
            for value in *bad {
                assert_eq!(matches(pattern, value), Some(false), "{pattern} {value:?}");
            }
        }
        assert_eq!(matches("[unknown]", "x"), None);
    }
}
