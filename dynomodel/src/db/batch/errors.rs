//! What a batch's own error says: the reads or writes it left unprocessed after the last retry
//! ([`Error::BatchUnprocessed`](crate::Error::BatchUnprocessed)). (An item that does not decode is
//! [`ItemDecode`](crate::ItemDecode), as in every read.)

use std::fmt;

use crate::error::ItemAction;

/// How many unprocessed actions an error message lists before summing up the rest (all of them
/// are in [`BatchUnprocessed::actions`]).
const LISTED: usize = 10;

/// A batch whose chunks still had unprocessed keys or writes after their last attempt
/// ([`BatchOptions::max_attempts`](crate::BatchOptions::max_attempts)): the content of
/// [`Error::BatchUnprocessed`](crate::Error::BatchUnprocessed).
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
