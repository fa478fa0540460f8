//! [`Cursor`]: where a paged Query or Scan goes on, knowing what it positions, as a token.
//!
//! - `token`: the versioned binary form and its base64url text;
//! - `scope`: what a read positions, against which a cursor given back is checked (and from which
//!   its cursors are made);
//! - `signing`: [`Db::with_cursor_key`](crate::Db::with_cursor_key) and the HMAC tag;
//! - `item`: [`KeyAttributes`], the keys of a returned item that a cursor after it holds;
//! - `invalid`: [`InvalidCursor`], every way a token is refused.

mod invalid;
mod item;
mod scope;
mod signing;
mod token;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

pub use invalid::{InvalidCursor, InvalidCursorReason};
pub use item::KeyAttributes;
pub(crate) use scope::Scope;
pub(crate) use signing::CursorKey;

use crate::error::{Error, Result};
use crate::value::Item;

/// The read a cursor positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operation {
    Query,
    Scan,
}

impl Operation {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Operation::Query => "Query",
            Operation::Scan => "Scan",
        }
    }
}

/// What a cursor says: which read, and the key it resumes after (DynamoDB's `ExclusiveStartKey`:
/// the table's key attributes, and the index's on an index).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Position {
    pub(crate) operation: Operation,
    /// The table, namespace included.
    pub(crate) table: String,
    pub(crate) index: Option<String>,
    /// One segment of a parallel scan: the segment and the total.
    pub(crate) segment: Option<(u32, u32)>,
    /// 1 to 4 attributes, each S, N or B.
    pub(crate) key: Item,
}

/// Whether the cursor is to be signed when printed, or what its token carried.
#[derive(Clone)]
enum Seal {
    /// Made by a read of this process: signed when printed if its database signs.
    Issued(Option<Arc<CursorKey>>),
    /// Parsed from a token, with its tag if it had one: checked when given to a read.
    Parsed(Option<token::Tag>),
}

/// Where a Query or Scan goes on: a [`Page`](crate::Page)'s `next`, or
/// [`Query::cursor_after`](crate::Query::cursor_after) an item, given to the next
/// [`page`](crate::Query::page) of the same read.
///
/// A cursor knows what it positions: the operation (Query or Scan), the table (namespace
/// included), the index, the segment of a parallel scan, and the key it resumes after — the key
/// attributes of the table and, on an index, of the index, whose names and types form the key
/// schema, and for a Query its partition. A read checks a cursor against all of that **before
/// sending anything**: a cursor of another table, index, partition, operation or segment, with
/// missing, extra or mistyped key attributes, or a sort key outside the query's range condition,
/// is an [`Error::InvalidCursor`] saying which, never a backend error.
///
/// It prints as a URL-safe token (base64url of a compact, versioned binary form) and parses back
/// with [`str::parse`], so that a web API hands it to its clients and takes it back on the next
/// request. A token that does not parse is an [`Error::InvalidCursor`] too: a web handler answers
/// both with a 400 (see [`InvalidCursor`]). A token is **not encrypted**: it shows the table, the
/// index and the key values; [`Db::with_cursor_key`](crate::Db::with_cursor_key) signs it, so
/// that clients cannot forge one, but does not hide it.
///
/// Two cursors are equal when they position the same read at the same key (a signature is not
/// part of it).
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory().with_namespace("test-");
/// # db.create_schema::<Tweet>().await?;
/// # for (userid, id) in [("abc", "1"), ("abc", "2"), ("abc", "3"), ("xyz", "1")] {
/// #     db.put(&Tweet { userid: userid.into(), id: id.into() }).await?;
/// # }
/// use dynomodel::{AttributeValue, Cursor, Error, InvalidCursorReason};
///
/// let page = db.query::<Tweet>("abc").page(2, None).await?;
/// let cursor = page.next.unwrap();
/// assert_eq!((cursor.table(), cursor.index()), ("test-Tweet", None));
/// assert_eq!(cursor.key()["id"], AttributeValue::S("2".into()));
///
/// let token = cursor.to_string();
/// assert!(token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
/// assert_eq!(token.parse::<Cursor>()?, cursor);
///
/// // Given to another partition's query, it is refused before anything is sent.
/// let err = db.query::<Tweet>("xyz").page(2, Some(cursor)).await.unwrap_err();
/// match &err {
///     Error::InvalidCursor(invalid) => assert_eq!(
///         invalid.reason,
///         InvalidCursorReason::OtherPartition { attribute: "userid".into() }
///     ),
///     other => panic!("{other:?}"),
/// }
/// assert_eq!(
///     err.to_string(),
///     "InvalidCursor: the cursor does not fit a Query of table `test-Tweet`: \
///      it positions another partition (its `userid` holds another value)"
/// );
/// assert!("not a cursor".parse::<Cursor>().unwrap_err().is_invalid_cursor());
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct Cursor {
    position: Position,
    seal: Seal,
}

impl Cursor {
    /// A cursor a read of this process made (signed when printed if `key` is set).
    pub(crate) fn issued(position: Position, key: Option<Arc<CursorKey>>) -> Cursor {
        Cursor {
            position,
            seal: Seal::Issued(key),
        }
    }

    /// The key the read resumes after (the `ExclusiveStartKey` sent): the table's key
    /// attributes, and on an index the index's too.
    pub fn key(&self) -> &Item {
        &self.position.key
    }

    /// The key, owned.
    pub fn into_key(self) -> Item {
        self.position.key
    }

    /// The table it positions, namespace included.
    pub fn table(&self) -> &str {
        &self.position.table
    }

    /// The index it positions, if any.
    pub fn index(&self) -> Option<&str> {
        self.position.index.as_deref()
    }

    /// The segment of a parallel scan it positions and the total number of segments, if it is one
    /// segment's (see [`Scan::segment`](crate::Scan::segment)).
    pub fn segment(&self) -> Option<(u32, u32)> {
        self.position.segment
    }

    pub(crate) fn position(&self) -> &Position {
        &self.position
    }

    /// Checks the token's signature against the reading database's key: any cursor when it has
    /// none, a parsed one only with a tag that is the key's.
    pub(crate) fn verify(
        &self,
        key: Option<&CursorKey>,
    ) -> std::result::Result<(), InvalidCursorReason> {
        match (&self.seal, key) {
            (Seal::Issued(_), _) | (Seal::Parsed(_), None) => Ok(()),
            (Seal::Parsed(None), Some(_)) => Err(InvalidCursorReason::Unsigned),
            (Seal::Parsed(Some(tag)), Some(key)) => {
                match key.verify(&token::payload(&self.position, true), tag) {
                    true => Ok(()),
                    false => Err(InvalidCursorReason::BadSignature),
                }
            }
        }
    }
}

impl PartialEq for Cursor {
    fn eq(&self, other: &Cursor) -> bool {
        self.position == other.position
    }
}

impl fmt::Debug for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let signed = match &self.seal {
            Seal::Issued(key) => key.is_some(),
            Seal::Parsed(tag) => tag.is_some(),
        };
        f.debug_struct("Cursor")
            .field("operation", &self.position.operation)
            .field("table", &self.position.table)
            .field("index", &self.position.index)
            .field("segment", &self.position.segment)
            .field("key", &self.position.key)
            .field("signed", &signed)
            .finish()
    }
}

/// The token.
impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match &self.seal {
            Seal::Issued(Some(key)) => {
                let payload = token::payload(&self.position, true);
                token::encode(&payload, Some(&key.tag(&payload)))
            }
            Seal::Parsed(Some(tag)) => {
                token::encode(&token::payload(&self.position, true), Some(tag))
            }
            Seal::Issued(None) | Seal::Parsed(None) => {
                token::encode(&token::payload(&self.position, false), None)
            }
        };
        f.write_str(&text)
    }
}

/// Parses a token; whether it fits a read (and its signature) is checked when it is given to one.
///
/// Errors: [`Error::InvalidCursor`], with table and index `None`.
impl FromStr for Cursor {
    type Err = Error;

    fn from_str(text: &str) -> Result<Cursor> {
        match token::decode(text) {
            Ok((position, tag)) => Ok(Cursor {
                position,
                seal: Seal::Parsed(tag),
            }),
            Err(reason) => Err(Error::InvalidCursor(Box::new(InvalidCursor::unparsed(
                reason,
            )))),
        }
    }
}

#[cfg(test)]
mod tests;
