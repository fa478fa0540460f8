//! [`Timestamp`]: which of a model's mapper-maintained times a [`Model`](crate::Model) method is
//! about.

/// One of the times the mapper stamps on writes: a `#[created_at]` or an `#[updated_at]` field.
/// See [timestamps](crate::Model#timestamps-created_at-updated_at).
///
/// ```
/// use chrono::{DateTime, Utc};
/// use dynomodel::{Model, Timestamp};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Note {
///     #[hash_key]
///     id: String,
///     #[created_at]
///     created: Option<DateTime<Utc>>,
///     #[updated_at]
///     updated: DateTime<Utc>,
/// }
///
/// assert_eq!(Note::CREATED_AT, Some("created"));
/// let mut note = Note { id: "n1".into(), created: None, updated: DateTime::UNIX_EPOCH };
/// assert_eq!(note.timestamp(Timestamp::Created), None); // not stamped yet
/// note.set_timestamp(Timestamp::Updated, DateTime::UNIX_EPOCH + chrono::Duration::seconds(5))?;
/// assert_eq!(note.updated.timestamp(), 5);
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timestamp {
    /// The `#[created_at]` field: stamped when the item is created, kept afterwards.
    Created,
    /// The `#[updated_at]` field: stamped by every write.
    Updated,
}
