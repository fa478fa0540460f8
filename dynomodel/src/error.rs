//! The one error type users match on, whichever backend served the request.

use std::fmt;

use crate::db::names::ItemName;
use crate::db::{BatchUnprocessed, ItemDecode, ItemTooLarge};
use crate::query::InvalidCursor;
use crate::value::{Item, NumberError};

mod code;
mod not_found;

pub use code::CancellationCode;
pub use not_found::{ExistenceCheck, ItemNotFound};

/// A `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong talking to DynamoDB or to the in-memory engine.
///
/// Both backends map their failures onto the same variants, with DynamoDB's message text, so code (and
/// tests) match errors the same way against either. [`Error::code`] gives DynamoDB's error type name.
///
/// DynamoDB's errors are struct variants carrying its message (`ConditionalCheckFailed { message,
/// item }`, `TransactionCanceled { message, reasons }`, ...). The mapper's own errors about items
/// carry a boxed struct naming the model, table and key: [`VersionConflict`] (optimistic locking),
/// [`ItemNotFound`] (an update of a missing item), [`BatchUnprocessed`] (batches) and
/// [`ItemDecode`] (an item any read returned that does not decode: it names the table, the key
/// and the attribute). Rather than matching, the common questions
/// have methods: [`is_conditional_check_failed`](Error::is_conditional_check_failed),
/// [`is_version_conflict`](Error::is_version_conflict) and
/// [`is_item_not_found`](Error::is_item_not_found) (also inside a canceled transaction),
/// [`conditional_item`](Error::conditional_item) (the stored item a failed condition found) and
/// [`cancellation_reasons`](Error::cancellation_reasons).
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct User { #[hash_key] id: String, name: String }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<User>().await?;
/// use dynomodel::Error;
///
/// let ada = User { id: "u1".into(), name: "Ada".into() };
/// db.put(&ada).await?;
/// let bob = User { id: "u1".into(), name: "Bob".into() };
/// match db.put(&bob).if_not_exists().await {
///     Err(Error::ConditionalCheckFailed { message, .. }) => {
///         assert_eq!(message, "The conditional request failed");
///     }
///     other => panic!("expected a failed condition, got {other:?}"),
/// }
/// // A query that expects exactly one result says when there is none.
/// assert_eq!(db.query::<User>("u2").one().await, Err(Error::NoResult));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `ValidationException`: the request is malformed or breaks one of DynamoDB's rules.
    #[error("ValidationException: {message}")]
    Validation {
        /// DynamoDB's message.
        message: String,
    },
    /// `ConditionalCheckFailedException`: a condition expression evaluated to false.
    #[error("ConditionalCheckFailedException: {message}")]
    ConditionalCheckFailed {
        /// DynamoDB's message ("The conditional request failed").
        message: String,
        /// The item as it was, when `ReturnValuesOnConditionCheckFailure` was `ALL_OLD`.
        item: Option<Item>,
    },
    /// A `#[version]` check failed (optimistic locking): the item was written (or created, or
    /// deleted) by someone else since this copy was read. Not a DynamoDB error type: the mapper
    /// reports a `ConditionalCheckFailedException` as this one when the stored item shows that the
    /// version check is the condition that failed (see [`Model`](crate::Model#optimistic-locking-version)).
    /// Boxed, to keep every `Result` small.
    #[error("VersionConflict: {}", .0.message)]
    VersionConflict(Box<VersionConflict>),
    /// An update found no item of its model under its key, and changed nothing: updates are
    /// conditional on the item existing unless they are an [`upsert`](crate::UpdateItem::upsert)
    /// (see [`UpdateItem`](crate::UpdateItem)). Not a DynamoDB error type: the mapper reports a
    /// `ConditionalCheckFailedException` as this one when the stored item (or its absence) shows
    /// that the existence check is the condition that failed. Names the model, table and key; in a
    /// shared table, also the entity type found instead. Boxed, to keep every `Result` small.
    #[error("ItemNotFound: {}", .0.message)]
    ItemNotFound(Box<ItemNotFound>),
    /// `TransactionCanceledException`: a transaction was rejected as a whole.
    #[error("TransactionCanceledException: {message}")]
    TransactionCanceled {
        /// DynamoDB's message, listing the reason codes.
        message: String,
        /// One reason per action, in request order.
        reasons: Vec<CancellationReason>,
    },
    /// `ResourceNotFoundException`: the table or index does not exist.
    #[error("ResourceNotFoundException: {message}")]
    ResourceNotFound {
        /// DynamoDB's message.
        message: String,
    },
    /// `ResourceInUseException`: e.g. creating a table that already exists.
    #[error("ResourceInUseException: {message}")]
    ResourceInUse {
        /// DynamoDB's message.
        message: String,
    },
    /// Throttling: `ProvisionedThroughputExceededException`, `RequestLimitExceeded` or
    /// `ThrottlingException` (the code is kept).
    #[error("{code}: {message}")]
    Throughput {
        /// DynamoDB's error type name.
        code: String,
        /// DynamoDB's message.
        message: String,
    },
    /// Any other error DynamoDB reported, by type name.
    #[error("{code}: {message}")]
    Service {
        /// DynamoDB's error type name, e.g. `IdempotentParameterMismatchException`.
        code: String,
        /// DynamoDB's message.
        message: String,
    },
    /// A value does not fit the Rust type: a value written (or a key given) that does not convert,
    /// or a pure conversion such as [`Partial::get`](crate::Partial::get) (an item a read returned
    /// that does not decode is [`Error::ItemDecode`], which names it).
    #[error(transparent)]
    Conversion(#[from] ConversionError),
    /// The request never got an answer from the service (network, credentials, timeouts).
    #[error("transport error: {0}")]
    Transport(String),
    /// [`Query::one`](crate::Query::one) found no result (DynamoDB answered; nothing matched).
    #[error("one() expected exactly one result, found none")]
    NoResult,
    /// [`Query::one`](crate::Query::one) found more than one result.
    #[error("one() expected exactly one result, found more than one")]
    MoreThanOneResult,

    // Batches (`Db::batch_get`, `Db::batch_write`).
    /// A batch still had unprocessed keys or writes after its last retry; names each of them (every
    /// other one was read or written).
    #[error(transparent)]
    BatchUnprocessed(Box<BatchUnprocessed>),
    /// An item a read returned does not decode as the type asked for (a get, query, scan, collection
    /// read, batch get, read transaction, change stream, a write's returned item or
    /// [`conditional_item`](Error::conditional_item)); names the type, the table (and index), the
    /// item's key and, in its [`ConversionError`], the attribute. [`Query::lenient`](crate::Query::lenient)
    /// returns such items beside the good ones instead.
    #[error(transparent)]
    ItemDecode(Box<ItemDecode>),
    /// An item to write is larger than DynamoDB stores (400 KB) or than its model's
    /// `max_item_size` budget: refused before it was sent (a put, a save, a batch write, a
    /// transaction); names the item and its largest attributes.
    #[error(transparent)]
    ItemTooLarge(Box<ItemTooLarge>),

    // Paging.
    /// A cursor token given to a read does not fit it (another table, index, partition or
    /// segment; missing, extra or mistyped key attributes; a bad signature), or is no cursor at
    /// all. Checked before anything is sent: the token came from a client, so a web handler
    /// answers a 400 (see [`InvalidCursor`]).
    #[error("InvalidCursor: {0}")]
    InvalidCursor(Box<InvalidCursor>),

    // Change streams (`Db::changes`).
    /// [`Db::changes`](crate::Db::changes) found no stream on the table: its `LatestStreamArn` is
    /// absent (a model declares one with `#[dynomodel(stream = "...")]`).
    #[error("NoStream: table `{table}` has no stream")]
    NoStream {
        /// The table (namespace included).
        table: String,
    },
    /// [`Changes::after`](crate::Changes::after) was given a sequence number that no shard of the
    /// stream holds (its records are trimmed, after 24 hours, or it is from another stream).
    #[error(
        "SequenceNumberNotFound: no shard of stream `{stream_arn}` holds sequence number {sequence_number}"
    )]
    SequenceNumberNotFound {
        /// The sequence number to resume after.
        sequence_number: String,
        /// The stream.
        stream_arn: String,
    },

    // Migrations (`Plan::apply`).
    /// A migration was refused (blocking differences, index drops not allowed) or stopped (a step
    /// failed, a table did not become ACTIVE in time); see [`crate::migrate::MigrationError`].
    #[error("MigrationError: {}", .0.message)]
    Migration(Box<crate::migrate::MigrationError>),

    // Single-table collections.
    /// The models of a [`Collection`](crate::Collection) declare the shared table differently (a key
    /// attribute typed differently, an index of the same name with other keys, other billing or
    /// stream settings); the message names the models and the difference. Nothing was sent.
    #[error("SchemaConflict: {message}")]
    SchemaConflict {
        /// Which models disagree, and on what.
        message: String,
    },

    // Backfills.
    /// A [backfill](crate::Backfill) could not run (its checkpoint unreadable or another table's),
    /// was interrupted by an error it could not retry past, or finished with failed items when
    /// asked for all or nothing; see [`crate::backfill::BackfillError`], which holds its report.
    #[error("BackfillError: {}", .0.message)]
    Backfill(Box<crate::backfill::BackfillError>),
}

impl Error {
    /// A `ValidationException` with DynamoDB's message.
    pub fn validation(message: impl Into<String>) -> Error {
        Error::Validation {
            message: message.into(),
        }
    }

    /// A `TransactionCanceledException` with these reasons (one per action, in request order) and
    /// DynamoDB's message, which lists their codes.
    ///
    /// ```
    /// use dynomodel::{CancellationCode, CancellationReason, Error};
    /// let e = Error::transaction_canceled(vec![
    ///     CancellationReason::none(),
    ///     CancellationReason::new(CancellationCode::TransactionConflict, "Transaction is ongoing for the item"),
    /// ]);
    /// assert_eq!(
    ///     e.message(),
    ///     "Transaction cancelled, please refer cancellation reasons for specific reasons \
    ///      [None, TransactionConflict]"
    /// );
    /// ```
    pub fn transaction_canceled(reasons: Vec<CancellationReason>) -> Error {
        let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
        Error::TransactionCanceled {
            message: format!(
                "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
                codes.join(", ")
            ),
            reasons,
        }
    }

    /// A `ResourceNotFoundException` with DynamoDB's message.
    pub fn resource_not_found(message: impl Into<String>) -> Error {
        Error::ResourceNotFound {
            message: message.into(),
        }
    }

    /// DynamoDB's error type name, e.g. `"ValidationException"`; for errors that did not come from
    /// DynamoDB, the variant's name (`"ConversionError"`, `"TransportError"`, `"NoResult"`, …).
    ///
    /// ```
    /// use dynomodel::Error;
    /// let e = Error::resource_not_found("Requested resource not found");
    /// assert_eq!(e.code(), "ResourceNotFoundException");
    /// assert_eq!(e.message(), "Requested resource not found");
    /// assert_eq!(e.to_string(), "ResourceNotFoundException: Requested resource not found");
    /// assert_eq!(Error::NoResult.code(), "NoResult");
    /// ```
    pub fn code(&self) -> &str {
        match self {
            Error::Validation { .. } => "ValidationException",
            Error::ConditionalCheckFailed { .. } => "ConditionalCheckFailedException",
            Error::VersionConflict(_) => "VersionConflict",
            Error::ItemNotFound(_) => "ItemNotFound",
            Error::TransactionCanceled { .. } => "TransactionCanceledException",
            Error::ResourceNotFound { .. } => "ResourceNotFoundException",
            Error::ResourceInUse { .. } => "ResourceInUseException",
            Error::Throughput { code, .. } | Error::Service { code, .. } => code,
            Error::Conversion(_) => "ConversionError",
            Error::Transport(_) => "TransportError",
            Error::NoResult => "NoResult",
            Error::MoreThanOneResult => "MoreThanOneResult",
            // Batches.
            Error::BatchUnprocessed(_) => "BatchUnprocessed",
            Error::ItemDecode(_) => "ItemDecode",
            Error::ItemTooLarge(_) => "ItemTooLarge",
            // Paging.
            Error::InvalidCursor(_) => "InvalidCursor",
            // Change streams.
            Error::NoStream { .. } => "NoStream",
            Error::SequenceNumberNotFound { .. } => "SequenceNumberNotFound",
            // Migrations.
            Error::Migration(_) => "MigrationError",
            Error::SchemaConflict { .. } => "SchemaConflict",
            Error::Backfill(_) => "BackfillError",
        }
    }

    /// DynamoDB's message text (without the type name).
    pub fn message(&self) -> String {
        match self {
            Error::Validation { message }
            | Error::ConditionalCheckFailed { message, .. }
            | Error::TransactionCanceled { message, .. }
            | Error::ResourceNotFound { message }
            | Error::ResourceInUse { message }
            | Error::Throughput { message, .. }
            | Error::Service { message, .. } => message.clone(),
            Error::VersionConflict(conflict) => conflict.message.clone(),
            Error::ItemNotFound(not_found) => not_found.message.clone(),
            Error::Conversion(e) => e.to_string(),
            Error::Transport(message) => message.clone(),
            Error::NoResult | Error::MoreThanOneResult => self.to_string(),
            // Batches.
            Error::BatchUnprocessed(_) | Error::ItemDecode(_) | Error::ItemTooLarge(_) => {
                self.to_string()
            }
            // Paging.
            Error::InvalidCursor(invalid) => invalid.message.clone(),
            // Change streams.
            Error::NoStream { table } => format!("table `{table}` has no stream"),
            Error::SequenceNumberNotFound {
                sequence_number,
                stream_arn,
            } => {
                format!("no shard of stream `{stream_arn}` holds sequence number {sequence_number}")
            }
            // Migrations.
            Error::Migration(e) => e.message.clone(),
            Error::SchemaConflict { message } => message.clone(),
            Error::Backfill(e) => e.message.clone(),
        }
    }
}

impl From<NumberError> for Error {
    fn from(e: NumberError) -> Error {
        Error::validation(e.to_string())
    }
}

/// Why one action of a transaction failed (or [`CancellationCode::None`] when it did not).
///
/// ```
/// use dynomodel::{CancellationCode, CancellationReason};
///
/// let ok = CancellationReason::none();
/// assert_eq!((&ok.code, &ok.message), (&CancellationCode::None, &None));
/// let failed = CancellationReason::new(CancellationCode::ConditionalCheckFailed, "The conditional request failed");
/// assert!(!failed.is_none());
/// assert!(failed.is_conditional_check_failed());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct CancellationReason {
    /// What happened to the action: [`CancellationCode::None`] if it did not fail.
    pub code: CancellationCode,
    /// The reason's message, absent for `None`.
    pub message: Option<String>,
    /// The item, for a failed condition with `ReturnValuesOnConditionCheckFailure=ALL_OLD`.
    pub item: Option<Item>,
    /// Which action the reason is about, when the transaction was built by the mapper; `None` from a
    /// backend (DynamoDB identifies actions only by their position).
    pub action: Option<ItemAction>,
}

impl CancellationReason {
    /// The reason of an action that did not fail: code `None`, no message.
    pub fn none() -> CancellationReason {
        CancellationReason {
            code: CancellationCode::None,
            message: None,
            item: None,
            action: None,
        }
    }

    /// A failure with DynamoDB's code (a [`CancellationCode`], or its text) and message.
    pub fn new(
        code: impl Into<CancellationCode>,
        message: impl Into<String>,
    ) -> CancellationReason {
        CancellationReason {
            code: code.into(),
            message: Some(message.into()),
            item: None,
            action: None,
        }
    }

    /// The same reason carrying the item as it was (`ReturnValuesOnConditionCheckFailure=ALL_OLD`).
    pub fn with_item(mut self, item: Option<Item>) -> CancellationReason {
        self.item = item;
        self
    }

    /// Whether the action did not fail (code `None`).
    pub fn is_none(&self) -> bool {
        self.code == CancellationCode::None
    }

    /// Whether a condition of the action failed (code `ConditionalCheckFailed`): the user's, a
    /// `#[version]` check ([`is_version_conflict`](CancellationReason::is_version_conflict) tells)
    /// or an update's existence check ([`is_item_not_found`](CancellationReason::is_item_not_found)
    /// tells).
    pub fn is_conditional_check_failed(&self) -> bool {
        self.code == CancellationCode::ConditionalCheckFailed
    }

    /// The model of the action the reason is about (its Rust type name), when the mapper built the
    /// transaction.
    pub fn model(&self) -> Option<&'static str> {
        self.action.as_ref().map(|action| action.model)
    }

    /// The key of the item the action is about, when the mapper built the transaction.
    pub fn key(&self) -> Option<&Item> {
        self.action.as_ref().map(|action| &action.key)
    }
}

/// One read or write the mapper sent, as its errors name it: the action of a transaction that a
/// [`CancellationReason`] is about, or a read or write a batch left unprocessed
/// ([`BatchUnprocessed::actions`]).
///
/// ```
/// use dynomodel::{AttributeValue, ItemAction};
///
/// let action = ItemAction {
///     kind: "Put",
///     model: "Tweet",
///     table: "test-tweets".into(),
///     key: [("userid".to_owned(), AttributeValue::S("abc".into()))].into(),
///     version: None,
///     existence: None,
/// };
/// assert_eq!(action.to_string(), r#"Put Tweet {userid: "abc"} in `test-tweets`"#);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ItemAction {
    /// `"Get"`, `"Put"`, `"Update"`, `"Delete"` or `"ConditionCheck"`.
    pub kind: &'static str,
    /// The model's Rust type name.
    pub model: &'static str,
    /// The table (namespace included).
    pub table: String,
    /// The item's key.
    pub key: Item,
    /// A transaction action's `#[version]` check, if it made one, and whether it is what failed
    /// (batches make none: `BatchWriteItem` takes no condition).
    pub version: Option<VersionCheck>,
    /// A transaction update's existence check (an update changes only an item of its model that
    /// exists; see [`UpdateItem`](crate::UpdateItem)), if it made one, and whether it is what
    /// failed.
    pub existence: Option<ExistenceCheck>,
}

/// ``Update Account {id: "alice"} in `accounts` ``: how messages and logs name an action.
impl fmt::Display for ItemAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let item = ItemName {
            model: self.model,
            key: &self.key,
            table: &self.table,
        };
        write!(f, "{} {item}", self.kind)
    }
}

/// What [`Error::VersionConflict`] says: which item, and which versions.
///
/// ```
/// # use dynomodel::{Db, Error, Model, VersionConflict};
/// # use dynomodel_mem::MemoryDb;
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Doc { #[hash_key] id: String, #[version] version: u64 }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory().with_namespace("test-");
/// # db.create_schema::<Doc>().await?;
/// let mut doc = Doc { id: "d1".into(), version: 0 };
/// let stale = doc.clone();
/// db.save(&mut doc).await?;
/// match db.put(&stale).await {
///     Err(Error::VersionConflict(conflict)) => {
///         let conflict: &VersionConflict = &conflict;
///         assert_eq!((conflict.model, conflict.expected, conflict.stored), ("Doc", None, Some(1)));
///         assert_eq!(
///             conflict.message,
///             r#"Doc {id: "d1"} in `test-Doc`: expected no stored item (a first save), found version 1"#
///         );
///     }
///     other => panic!("expected a version conflict, got {other:?}"),
/// }
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct VersionConflict {
    /// What happened, naming the model, the table, the key and both versions.
    pub message: String,
    /// The model's Rust type name.
    pub model: &'static str,
    /// The item's key.
    pub key: Item,
    /// The version the request expected: `None` for a first save (no item with this key).
    pub expected: Option<u64>,
    /// The stored version, when known: `None` when the failure did not bring the item back, or
    /// brought back none or one without a version.
    pub stored: Option<u64>,
    /// The item as stored, when the request asked for it (the default); decode it with
    /// [`Error::conditional_item`].
    pub item: Option<Item>,
}

/// The `#[version]` check of a transaction action (see [`ItemAction::version`]).
#[derive(Debug, Clone, PartialEq)]
pub struct VersionCheck {
    /// The version the action expected: `None` for a first save (no item with the key).
    pub expected: Option<u64>,
    /// The stored version, when the cancellation brought back an item that has one.
    pub stored: Option<u64>,
    /// Whether this check is what failed (the stored item shows another version, or the version
    /// check was the action's only condition).
    pub failed: bool,
}

/// A value could not be converted between DynamoDB and Rust.
///
/// It names the attribute (a dotted path for nested documents, e.g. `address.city` or `tags[2]`) and
/// says what was expected and what was found.
///
/// ```
/// use dynomodel::{Attribute, AttributeValue};
/// let err = i32::from_attribute(AttributeValue::S("x".into())).unwrap_err().at("likes");
/// assert_eq!(err.to_string(), "attribute `likes`: expected a number (i32), found S");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("attribute `{}`: expected {expected}, found {found}", if path.is_empty() { "<value>" } else { path })]
pub struct ConversionError {
    /// Where the bad value is, outermost attribute first (`""` until [`ConversionError::at`] is applied).
    pub path: String,
    /// What the Rust type needs, e.g. `"a number (i32)"`.
    pub expected: String,
    /// What was there: a DynamoDB type name, `"nothing"` for a missing attribute, or a description.
    pub found: String,
}

// The constructors and locators are `#[cold]`: they run only when a value does not convert, so a
// decoder's branches into them are laid out off its hot path (and they are not inlined into it).
impl ConversionError {
    /// A conversion error without a location yet.
    #[cold]
    pub fn new(expected: impl Into<String>, found: impl Into<String>) -> ConversionError {
        ConversionError {
            path: String::new(),
            expected: expected.into(),
            found: found.into(),
        }
    }

    /// The error for a required attribute that is absent.
    #[cold]
    pub fn missing(expected: impl Into<String>) -> ConversionError {
        ConversionError::new(expected, "nothing (the attribute is missing)")
    }

    /// Prefixes the location with an attribute name: `e.at("address")` turns `city` into `address.city`.
    #[cold]
    pub fn at(mut self, attribute: &str) -> ConversionError {
        self.path = match (self.path.is_empty(), self.path.starts_with('[')) {
            (true, _) => attribute.to_owned(),
            (false, true) => format!("{attribute}{}", self.path),
            (false, false) => format!("{attribute}.{}", self.path),
        };
        self
    }

    /// Prefixes the location with a list index: `tags` + `[2]`.
    #[cold]
    pub fn at_index(mut self, index: usize) -> ConversionError {
        self.path = if self.path.is_empty() || self.path.starts_with('[') {
            format!("[{index}]{}", self.path)
        } else {
            format!("[{index}].{}", self.path)
        };
        self
    }
}
