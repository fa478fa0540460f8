//! [`InvalidCursor`]: why a token was refused, before anything was sent.

use std::fmt;

use crate::backend::ScalarAttributeType;
use crate::query::cursor::token::{MAX_TOKEN_LEN, VERSION};

/// A cursor token that does not fit the read it was given to, or is no cursor at all: the error
/// [`Error::InvalidCursor`](crate::Error::InvalidCursor) carries. Nothing was sent to DynamoDB.
///
/// A token comes from a client, so a web handler answers this error with a 400 (Bad Request)
/// rather than a 500: [`Error::is_invalid_cursor`](crate::Error::is_invalid_cursor) tells it apart.
/// [`reason`](InvalidCursor::reason) says what is wrong, `message` says it in words, naming the
/// read's table and index and the key attribute concerned (never a key value: those came from the
/// client).
///
/// ```
/// use dynomodel::{Cursor, Error, InvalidCursorReason};
///
/// // `e30` is `{}` in base64: no cursor.
/// match "e30".parse::<Cursor>() {
///     Err(Error::InvalidCursor(invalid)) => {
///         assert_eq!(invalid.reason, InvalidCursorReason::UnknownVersion { version: 0x7b });
///         assert_eq!(invalid.table, None); // parsing alone knows no read
///         assert_eq!(
///             invalid.message,
///             "the token is not a cursor: it is written in token format 123; this version of dynomodel reads format 1"
///         );
///     }
///     other => panic!("expected an invalid cursor, got {other:?}"),
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidCursor {
    /// What is wrong with it.
    pub reason: InvalidCursorReason,
    /// The table of the read it was given to (namespace included); `None` when the token failed
    /// to parse, before meeting a read.
    pub table: Option<String>,
    /// The index of that read, if it reads one.
    pub index: Option<String>,
    /// What is wrong, in words, naming the read, its table and index, and the attribute concerned.
    pub message: String,
}

/// Why a cursor token was refused (see [`InvalidCursor`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidCursorReason {
    /// Not a token the mapper writes: empty, not base64url, truncated, trailing bytes, a name or a
    /// value that does not decode (`detail` says which).
    Malformed {
        /// What did not decode.
        detail: &'static str,
    },
    /// Longer than any cursor can be (16 KiB): refused before decoding.
    TooLong {
        /// The token's length in bytes.
        length: usize,
    },
    /// Written in a token format this version of the mapper does not read.
    UnknownVersion {
        /// The format found (the mapper writes format 1).
        version: u8,
    },
    /// The database signs its cursors ([`Db::with_cursor_key`](crate::Db::with_cursor_key)) and
    /// this token carries no signature.
    Unsigned,
    /// The signature does not match: the token was forged or altered, or signed with another key.
    BadSignature,
    /// A Query's cursor given to a Scan, or the reverse.
    OtherOperation {
        /// The operation the cursor positions: `"Query"` or `"Scan"`.
        found: &'static str,
    },
    /// A cursor of another table.
    OtherTable {
        /// The table it positions (namespace included).
        found: String,
    },
    /// A cursor of another index, of an index given to a read of the table, or the reverse.
    OtherIndex {
        /// The index it positions; `None`: the table.
        found: Option<String>,
    },
    /// A cursor of another segment of a parallel scan, or of a whole scan given to a segment (or
    /// the reverse).
    OtherSegment {
        /// The segment it positions and the total number of segments; `None`: a whole scan.
        found: Option<(u32, u32)>,
    },
    /// A Query's cursor from another partition: its partition key holds another value.
    OtherPartition {
        /// The partition key attribute.
        attribute: String,
    },
    /// A Query's cursor whose sort key does not satisfy the query's range condition.
    OutsideRange {
        /// The sort key attribute.
        attribute: String,
    },
    /// A key attribute of the read is missing from the cursor.
    MissingAttribute {
        /// The attribute.
        attribute: String,
    },
    /// The cursor holds an attribute that is no key of the read.
    ExtraAttribute {
        /// The attribute.
        attribute: String,
    },
    /// A key attribute of another type than the key schema's.
    AttributeType {
        /// The attribute.
        attribute: String,
        /// Its type in the key schema.
        expected: ScalarAttributeType,
        /// Its type in the cursor.
        found: ScalarAttributeType,
    },
    /// A key value that is empty or longer than DynamoDB allows (2048 bytes for a partition key,
    /// 1024 for a sort key).
    KeyValueSize {
        /// The attribute.
        attribute: String,
        /// The value's size in bytes.
        size: usize,
        /// The largest size allowed.
        max: usize,
    },
}

impl fmt::Display for InvalidCursorReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidCursorReason::Malformed { detail } => write!(f, "malformed token ({detail})"),
            InvalidCursorReason::TooLong { length } => write!(
                f,
                "a token of {length} bytes, longer than any cursor (at most {MAX_TOKEN_LEN})"
            ),
            InvalidCursorReason::UnknownVersion { version } => write!(
                f,
                "it is written in token format {version}; this version of dynomodel reads format {VERSION}"
            ),
            InvalidCursorReason::Unsigned => {
                f.write_str("it carries no signature, and this database signs its cursors")
            }
            InvalidCursorReason::BadSignature => f.write_str(
                "its signature does not match (forged, altered, or signed with another key)",
            ),
            InvalidCursorReason::OtherOperation { found } => write!(f, "it positions a {found}"),
            InvalidCursorReason::OtherTable { found } => {
                write!(f, "it positions table `{found}`")
            }
            InvalidCursorReason::OtherIndex { found: Some(index) } => {
                write!(f, "it positions index `{index}`")
            }
            InvalidCursorReason::OtherIndex { found: None } => {
                f.write_str("it positions the table, not an index")
            }
            InvalidCursorReason::OtherSegment {
                found: Some((segment, total)),
            } => write!(f, "it positions segment {segment} of {total}"),
            InvalidCursorReason::OtherSegment { found: None } => {
                f.write_str("it positions a whole scan, not one segment")
            }
            InvalidCursorReason::OtherPartition { attribute } => write!(
                f,
                "it positions another partition (its `{attribute}` holds another value)"
            ),
            InvalidCursorReason::OutsideRange { attribute } => write!(
                f,
                "its sort key `{attribute}` is outside the query's range condition"
            ),
            InvalidCursorReason::MissingAttribute { attribute } => {
                write!(f, "it lacks key attribute `{attribute}`")
            }
            InvalidCursorReason::ExtraAttribute { attribute } => {
                write!(f, "it holds `{attribute}`, which is no key attribute of this read")
            }
            InvalidCursorReason::AttributeType {
                attribute,
                expected,
                found,
            } => write!(
                f,
                "its key attribute `{attribute}` is {}, not {}",
                found.as_str(),
                expected.as_str()
            ),
            InvalidCursorReason::KeyValueSize {
                attribute,
                size,
                max,
            } => write!(
                f,
                "its key attribute `{attribute}` holds {size} bytes (a key value holds 1 to {max})"
            ),
        }
    }
}

impl fmt::Display for InvalidCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl InvalidCursor {
    /// A token that failed to parse.
    pub(crate) fn unparsed(reason: InvalidCursorReason) -> InvalidCursor {
        InvalidCursor {
            message: format!("the token is not a cursor: {reason}"),
            reason,
            table: None,
            index: None,
        }
    }

    /// A cursor refused by a read, described as `read` (e.g. ``a Query of table `t` ``).
    pub(crate) fn refused(
        reason: InvalidCursorReason,
        read: &str,
        table: &str,
        index: Option<&str>,
    ) -> InvalidCursor {
        InvalidCursor {
            message: format!("the cursor does not fit {read}: {reason}"),
            reason,
            table: Some(table.to_owned()),
            index: index.map(str::to_owned),
        }
    }
}

impl crate::error::Error {
    /// Whether this is an [`InvalidCursor`](crate::Error::InvalidCursor): a token from a client
    /// that does not fit the read (a web handler's 400), as opposed to a failure of the request.
    ///
    /// ```
    /// use dynomodel::Cursor;
    ///
    /// let err = "garbage!".parse::<Cursor>().unwrap_err();
    /// assert!(err.is_invalid_cursor());
    /// assert_eq!(err.code(), "InvalidCursor");
    /// assert!(!dynomodel::Error::validation("x").is_invalid_cursor());
    /// ```
    pub fn is_invalid_cursor(&self) -> bool {
        matches!(self, crate::error::Error::InvalidCursor(_))
    }
}
