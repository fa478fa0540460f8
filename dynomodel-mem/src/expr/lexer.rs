//! Tokens of DynamoDB's expression language, with byte offsets into the source.
//!
//! The lexer never fails: a character that starts no token becomes a one-character [`TokenKind::Unknown`]
//! token, so that the parser reports it the way DynamoDB does (`Syntax error; token: "!", near: "!!"`).
//! The token stream always ends with one [`TokenKind::Eof`] token.

use std::fmt;

/// The keywords of the language. DynamoDB tokenizes all nine in every kind of expression, so `remove = :v`
/// is a syntax error in a condition too (measured on DynamoDB Local).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keyword {
    /// `AND`
    And,
    /// `OR`
    Or,
    /// `NOT`
    Not,
    /// `BETWEEN`
    Between,
    /// `IN`
    In,
    /// `SET`
    Set,
    /// `REMOVE`
    Remove,
    /// `ADD`
    Add,
    /// `DELETE`
    Delete,
}

impl Keyword {
    /// The keyword spelled by `word`, compared case-insensitively.
    fn from_word(word: &str) -> Option<Keyword> {
        const ALL: [(&str, Keyword); 9] = [
            ("AND", Keyword::And),
            ("OR", Keyword::Or),
            ("NOT", Keyword::Not),
            ("BETWEEN", Keyword::Between),
            ("IN", Keyword::In),
            ("SET", Keyword::Set),
            ("REMOVE", Keyword::Remove),
            ("ADD", Keyword::Add),
            ("DELETE", Keyword::Delete),
        ];
        ALL.iter()
            .find(|(w, _)| w.eq_ignore_ascii_case(word))
            .map(|&(_, k)| k)
    }
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// A name: an ASCII letter followed by letters, digits and `_`.
    Identifier,
    /// `#` followed by at least one letter, digit or `_`.
    NamePlaceholder,
    /// `:` followed by at least one letter, digit or `_`.
    ValuePlaceholder,
    /// A run of decimal digits (only valid as a list index).
    Number,
    /// A keyword, matched case-insensitively.
    Keyword(Keyword),
    /// `=`
    Eq,
    /// `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `,`
    Comma,
    /// `.`
    Dot,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// Any other single character (including a lone `#` or `:`).
    Unknown,
    /// The end of the input.
    Eof,
}

/// One token: its kind and its byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    /// What it is.
    pub(crate) kind: TokenKind,
    /// Byte offset of the first byte.
    pub(crate) start: usize,
    /// Byte offset one past the last byte.
    pub(crate) end: usize,
}

impl Token {
    /// The token's text; `<EOF>` for the end, as DynamoDB prints it.
    pub(crate) fn text<'s>(&self, source: &'s str) -> &'s str {
        if self.kind == TokenKind::Eof {
            return "<EOF>";
        }
        source.get(self.start..self.end).unwrap_or("")
    }
}

impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// DynamoDB's whitespace between tokens.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Splits `source` into tokens. The last token is always `Eof`; its `start` is the end of the previous
/// token (or 0), so that a syntax error at the end quotes the trailing whitespace as DynamoDB does
/// (`a = ` → `near: "= "`).
pub(crate) fn tokenize(source: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut chars = source.char_indices().peekable();
    let mut last_end = 0;
    while let Some((start, c)) = chars.next() {
        if is_space(c) {
            continue;
        }
        // Consumes the rest of a word and returns its end offset.
        let take_word = |chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>| {
            let mut end = start + c.len_utf8();
            while let Some(&(i, d)) = chars.peek() {
                if !is_word_char(d) {
                    break;
                }
                end = i + d.len_utf8();
                chars.next();
            }
            end
        };
        let (kind, end) = match c {
            'a'..='z' | 'A'..='Z' => {
                let end = take_word(&mut chars);
                let word = source.get(start..end).unwrap_or("");
                match Keyword::from_word(word) {
                    Some(k) => (TokenKind::Keyword(k), end),
                    None => (TokenKind::Identifier, end),
                }
            }
            '0'..='9' => {
                let mut end = start + 1;
                while let Some(&(i, d)) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    end = i + 1;
                    chars.next();
                }
                (TokenKind::Number, end)
            }
            '#' | ':' => {
                let kind = if c == '#' {
                    TokenKind::NamePlaceholder
                } else {
                    TokenKind::ValuePlaceholder
                };
                match chars.peek() {
                    Some(&(_, d)) if is_word_char(d) => (kind, take_word(&mut chars)),
                    _ => (TokenKind::Unknown, start + 1),
                }
            }
            '=' => (TokenKind::Eq, start + 1),
            '<' => match chars.peek() {
                Some(&(_, '>')) => {
                    chars.next();
                    (TokenKind::Ne, start + 2)
                }
                Some(&(_, '=')) => {
                    chars.next();
                    (TokenKind::Le, start + 2)
                }
                _ => (TokenKind::Lt, start + 1),
            },
            '>' => match chars.peek() {
                Some(&(_, '=')) => {
                    chars.next();
                    (TokenKind::Ge, start + 2)
                }
                _ => (TokenKind::Gt, start + 1),
            },
            '(' => (TokenKind::LParen, start + 1),
            ')' => (TokenKind::RParen, start + 1),
            '[' => (TokenKind::LBracket, start + 1),
            ']' => (TokenKind::RBracket, start + 1),
            ',' => (TokenKind::Comma, start + 1),
            '.' => (TokenKind::Dot, start + 1),
            '+' => (TokenKind::Plus, start + 1),
            '-' => (TokenKind::Minus, start + 1),
            other => (TokenKind::Unknown, start + other.len_utf8()),
        };
        tokens.push(Token { kind, start, end });
        last_end = end;
    }
    tokens.push(Token {
        kind: TokenKind::Eof,
        start: last_end,
        end: source.len(),
    });
    tokens
}

/// DynamoDB's `near` context for a syntax error at token `index`: the source from the start of the
/// previous token to the end of the next one (measured: `a b c d` failing at `c` gives `near: "b c d"`).
pub(crate) fn near(source: &str, tokens: &[Token], index: usize) -> String {
    let Some(current) = tokens.get(index) else {
        return String::new();
    };
    // From the previous token; for the first token, from the start of the text, leading whitespace
    // included (DynamoDB Local: `" = #n"` gives near: " = #n").
    let start = index
        .checked_sub(1)
        .and_then(|i| tokens.get(i))
        .map_or(0, |t| t.start);
    let end = match tokens.get(index + 1) {
        // A following end of input adds nothing (its span is trailing whitespace).
        Some(t) if t.kind != TokenKind::Eof => t.end,
        _ => current.end,
    };
    source.get(start..end).unwrap_or("").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<TokenKind> {
        tokenize(s).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn positions_are_byte_offsets() {
        let t = tokenize("é = #n.a[12] <> :v");
        let spans: Vec<(usize, usize)> = t.iter().map(|t| (t.start, t.end)).collect();
        assert_eq!(
            spans,
            vec![
                (0, 2),
                (3, 4),
                (5, 7),
                (7, 8),
                (8, 9),
                (9, 10),
                (10, 12),
                (12, 13),
                (14, 16),
                (17, 19),
                (19, 19)
            ]
        );
        assert_eq!(t[0].kind, TokenKind::Unknown);
        assert_eq!(t[10].text("x"), "<EOF>");
    }

    #[test]
    fn operators_and_keywords() {
        use TokenKind::*;
        assert_eq!(
            kinds("a<=b>=c<>d<e>f=g"),
            vec![
                Identifier, Le, Identifier, Ge, Identifier, Ne, Identifier, Lt, Identifier, Gt,
                Identifier, Eq, Identifier, Eof
            ]
        );
        assert_eq!(
            kinds("and Or NOT between iN set REMOVE add Delete andy"),
            vec![
                Keyword(super::Keyword::And),
                Keyword(super::Keyword::Or),
                Keyword(super::Keyword::Not),
                Keyword(super::Keyword::Between),
                Keyword(super::Keyword::In),
                Keyword(super::Keyword::Set),
                Keyword(super::Keyword::Remove),
                Keyword(super::Keyword::Add),
                Keyword(super::Keyword::Delete),
                Identifier,
                Eof
            ]
        );
        assert_eq!(kinds("1abc"), vec![Number, Identifier, Eof]);
        assert_eq!(kinds("_a"), vec![Unknown, Identifier, Eof]);
        assert_eq!(
            kinds("# : #_x :1"),
            vec![Unknown, Unknown, NamePlaceholder, ValuePlaceholder, Eof]
        );
        assert_eq!(kinds("==="), vec![Eq, Eq, Eq, Eof]);
        assert_eq!(
            kinds("(),[].+-"),
            vec![LParen, RParen, Comma, LBracket, RBracket, Dot, Plus, Minus, Eof]
        );
    }

    #[test]
    fn near_matches_dynamodb() {
        let cases = [
            ("a b", 1, "a b"),
            ("!!!", 0, "!!"),
            ("a,", 1, "a,"),
            ("a = ", 2, "= "),
            ("a = :s AND", 4, "AND"),
            ("abc def ghi", 1, "abc def ghi"),
            ("  x  y", 1, "x  y"),
            ("   ", 0, "   "),
            ("a IN ()", 3, "()"),
            (" = #n IN (:v)", 0, " = #n"),
        ];
        for (src, index, expected) in cases {
            let tokens = tokenize(src);
            assert_eq!(near(src, &tokens, index), expected, "{src}");
        }
    }
}
