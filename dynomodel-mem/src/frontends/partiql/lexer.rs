//! Tokens of DynamoDB's PartiQL dialect, with byte offsets into the statement.
//!
//! Like the expression lexer (`expr/lexer.rs`) it never fails: a character that starts no token becomes
//! a one-character [`Tok::Unknown`], so the parser reports it as a malformed statement, and the stream
//! always ends with one [`Tok::Eof`]. Keywords are not tokens of their own: PartiQL's keywords are
//! case-insensitive words, and a double-quoted identifier is never a keyword (`"select"` is a name), so
//! the parser matches [`Tok::Word`]s against them.

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// An unquoted word: a letter or `_`, then letters, digits, `_` (or a keyword).
    Word(String),
    /// A double-quoted identifier, `""` standing for one `"`.
    Quoted(String),
    /// A single-quoted string, `''` standing for one `'`.
    Str(String),
    /// A number literal as written: digits, an optional fraction and exponent.
    Number(String),
    /// `?`
    Param,
    /// Punctuation and operators: `( ) [ ] { } , . : ; * = <> != < <= > >= + - << >>`.
    Punct(&'static str),
    /// A character that starts no token (or an unterminated quote).
    Unknown,
    /// The end of the statement.
    Eof,
}

/// One token and where it is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    /// What it is.
    pub(crate) tok: Tok,
    /// Byte offset of its first byte.
    pub(crate) start: usize,
}

/// Punctuation, longest first so that `<=` wins over `<`.
const PUNCT: [&str; 22] = [
    "<<", ">>", "<>", "!=", "<=", ">=", "(", ")", "[", "]", "{", "}", ",", ".", ":", ";", "*", "=",
    "<", ">", "+", "-",
];

/// Reads a quoted run starting after the opening `quote` at byte `from`; a doubled quote is one quote
/// character. Returns the text and the offset after the closing quote, `None` when it is unterminated.
fn quoted(source: &str, from: usize, quote: char) -> Option<(String, usize)> {
    let mut text = String::new();
    let mut chars = source.get(from..)?.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == quote {
            if chars.peek().map(|&(_, d)| d) == Some(quote) {
                chars.next();
                text.push(quote);
                continue;
            }
            return Some((text, from + i + 1));
        }
        text.push(c);
    }
    None
}

/// The end of a number starting at `start`: digits, then `.digits`, then `e[+-]digits`.
fn number_end(bytes: &[u8], start: usize) -> usize {
    let digits = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut end = digits(start);
    if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
        end = digits(end + 1);
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut exp = end + 1;
        if matches!(bytes.get(exp), Some(b'+' | b'-')) {
            exp += 1;
        }
        if bytes.get(exp).is_some_and(u8::is_ascii_digit) {
            end = digits(exp);
        }
    }
    end
}

/// Splits `source` into tokens, ending with [`Tok::Eof`].
pub(crate) fn tokenize(source: &str) -> Vec<Token> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut pos = 0;
    while let Some(c) = source.get(pos..).and_then(|rest| rest.chars().next()) {
        let start = pos;
        if c.is_whitespace() {
            pos += c.len_utf8();
            continue;
        }
        let tok = if c.is_ascii_alphabetic() || c == '_' {
            let mut end = pos + 1;
            while bytes
                .get(end)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            {
                end += 1;
            }
            pos = end;
            Tok::Word(source.get(start..end).unwrap_or("").to_owned())
        } else if c.is_ascii_digit() {
            pos = number_end(bytes, pos);
            Tok::Number(source.get(start..pos).unwrap_or("").to_owned())
        } else if c == '"' || c == '\'' {
            match quoted(source, pos + 1, c) {
                Some((text, end)) => {
                    pos = end;
                    if c == '"' {
                        Tok::Quoted(text)
                    } else {
                        Tok::Str(text)
                    }
                }
                None => {
                    pos = source.len();
                    Tok::Unknown
                }
            }
        } else if c == '?' {
            pos += 1;
            Tok::Param
        } else if let Some(p) = PUNCT
            .iter()
            .find(|p| source.get(pos..).is_some_and(|rest| rest.starts_with(**p)))
        {
            pos += p.len();
            Tok::Punct(p)
        } else {
            pos += c.len_utf8();
            Tok::Unknown
        };
        tokens.push(Token { tok, start });
    }
    tokens.push(Token {
        tok: Tok::Eof,
        start: source.len(),
    });
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokenize(s).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn words_quotes_numbers_and_punctuation() {
        assert_eq!(
            toks(r#"SELECT "a""b" FROM t WHERE x<=? AND y='it''s' OR z=-1.5e3"#),
            vec![
                Tok::Word("SELECT".into()),
                Tok::Quoted("a\"b".into()),
                Tok::Word("FROM".into()),
                Tok::Word("t".into()),
                Tok::Word("WHERE".into()),
                Tok::Word("x".into()),
                Tok::Punct("<="),
                Tok::Param,
                Tok::Word("AND".into()),
                Tok::Word("y".into()),
                Tok::Punct("="),
                Tok::Str("it's".into()),
                Tok::Word("OR".into()),
                Tok::Word("z".into()),
                Tok::Punct("="),
                Tok::Punct("-"),
                Tok::Number("1.5e3".into()),
                Tok::Eof,
            ]
        );
        assert_eq!(
            toks("<<1>> {'a':[]}"),
            vec![
                Tok::Punct("<<"),
                Tok::Number("1".into()),
                Tok::Punct(">>"),
                Tok::Punct("{"),
                Tok::Str("a".into()),
                Tok::Punct(":"),
                Tok::Punct("["),
                Tok::Punct("]"),
                Tok::Punct("}"),
                Tok::Eof,
            ]
        );
    }

    #[test]
    fn bad_characters_and_unterminated_quotes_are_unknown() {
        assert_eq!(toks("é 'abc"), vec![Tok::Unknown, Tok::Unknown, Tok::Eof]);
        assert_eq!(toks("\"x"), vec![Tok::Unknown, Tok::Eof]);
        assert_eq!(
            toks("1."),
            vec![Tok::Number("1".into()), Tok::Punct("."), Tok::Eof]
        );
    }
}
