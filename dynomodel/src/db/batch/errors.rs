//! What the mapper's item errors say: the reads or writes a batch left unprocessed after the last
//! retry ([`Error::BatchUnprocessed`]), and an item read by a batch or a read transaction that does
//! not decode as its model ([`Error::ItemDecode`]).

use std::fmt;

use crate::db::names::ItemName;
use crate::error::{ConversionError, Error, ItemAction};
use crate::value::Item;

/// How many unprocessed actions an error message lists before summing up the rest (all of them
/// are in [`BatchUnprocessed::actions`]).
const LISTED: usize = 10;

/// A batch whose chunks still had unprocessed keys or writes after their last attempt
/// ([`BatchOptions::max_attempts`](crate::BatchOptions::max_attempts)): the content of
/// [`Error::BatchUnprocessed`].
///
/// Every other read or write of the batch was made: for a write, the actions listed are exactly
/// the ones not written, so sending them again (after the throttling passes) completes the batch.
///
/// ```
/// use dynomodel::{AttributeValue, ItemAction, BatchUnprocessed, Error};
///
/// let left = ItemAction {
///     kind: "Delete",
///     model: "User",
///     table: "users".into(),
///     key: [("id".to_owned(), AttributeValue::S("u7".into()))].into(),
///     version: None,
///     existence: None,
/// };
/// let error = Error::BatchUnprocessed(Box::new(BatchUnprocessed {
///     operation: "BatchWriteItem",
///     attempts: 10,
///     processed: 59,
///     actions: vec![left],
/// }));
/// assert_eq!(error.code(), "BatchUnprocessed");
/// assert_eq!(
///     error.to_string(),
///     r#"BatchWriteItem left 1 of 60 writes unprocessed after 10 attempts: Delete User {id: "u7"} in `users`"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BatchUnprocessed {
    /// `"BatchGetItem"` or `"BatchWriteItem"`.
    pub operation: &'static str,
    /// The requests each unfinished chunk was sent in (its first and every retry).
    pub attempts: u32,
    /// How many keys were read (found or not) or writes made.
    pub processed: usize,
    /// The reads or writes left unprocessed, in the order the batch was given them.
    pub actions: Vec<ItemAction>,
}

impl fmt::Display for BatchUnprocessed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.operation {
            "BatchGetItem" => "keys",
            _ => "writes",
        };
        write!(
            f,
            "{} left {} of {} {what} unprocessed after {} attempts: ",
            self.operation,
            self.actions.len(),
            self.processed + self.actions.len(),
            self.attempts
        )?;
        for (i, action) in self.actions.iter().take(LISTED).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{action}")?;
        }
        if self.actions.len() > LISTED {
            write!(f, " and {} more", self.actions.len() - LISTED)?;
        }
        Ok(())
    }
}

impl std::error::Error for BatchUnprocessed {}

/// An item read by a batch or a read transaction that does not decode as its model: the content of
/// [`Error::ItemDecode`].
///
/// ```
/// use dynomodel::{AttributeValue, ItemDecode, ConversionError, Error};
///
/// let error = Error::ItemDecode(Box::new(ItemDecode {
///     model: "Tweet",
///     table: "tweets".into(),
///     key: [("userid".to_owned(), AttributeValue::S("abc".into()))].into(),
///     error: ConversionError::new("a number (i64)", "S").at("likes"),
/// }));
/// assert_eq!(
///     error.to_string(),
///     r#"the item of Tweet {userid: "abc"} in `tweets` does not decode: attribute `likes`: expected a number (i64), found S"#
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ItemDecode {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The table (namespace included).
    pub table: String,
    /// The item's key.
    pub key: Item,
    /// What does not fit the model, and where.
    pub error: ConversionError,
}

impl fmt::Display for ItemDecode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let item = ItemName {
            model: self.model,
            key: &self.key,
            table: &self.table,
        };
        write!(f, "the item of {item} does not decode: {}", self.error)
    }
}

impl std::error::Error for ItemDecode {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl ItemDecode {
    /// The error for an item of `model` that `error` says does not decode.
    pub(crate) fn error(
        model: &'static str,
        table: &str,
        key: Item,
        error: ConversionError,
    ) -> Error {
        Error::ItemDecode(Box::new(ItemDecode {
            model,
            table: table.to_owned(),
            key,
            error,
        }))
    }
}
