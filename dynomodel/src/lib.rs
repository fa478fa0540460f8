//! # dynomodel
//!
//! A typed object mapper for Amazon DynamoDB. `#[derive(Model)]` turns a struct into a table schema,
//! item conversions, a key type and typed field handles; [`Db`] runs typed requests against any
//! [`Backend`]: Amazon DynamoDB (feature `aws`) or the in-memory engine of the `dynomodel-mem` crate.
//! [`Model`] documents the derive's options; [`convert`] lists how Rust types are stored (binary data is
//! [`Binary`], or a `Vec<u8>` field of a derived struct; dates are fixed-width RFC 3339 strings).
//!
//! ```
//! use dynomodel::Model;
//!
//! #[derive(Model, Debug, Clone, PartialEq)]
//! #[dynomodel(table = "tweets")]
//! struct Tweet {
//!     #[hash_key]
//!     userid: String,
//!     #[range_key]
//!     id: String,
//!     text: String,
//!     likes: i64,
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let db = dynomodel_mem::memory(); // in tests; in production `Db::from_env().await?` (feature `aws`)
//! db.create_schema::<Tweet>().await?;
//!
//! let tweet = Tweet { userid: "ada".into(), id: "1".into(), text: "hello".into(), likes: 0 };
//! db.put(&tweet).if_not_exists().await?;
//! let liked = db.update::<Tweet>(("ada", "1")).add(Tweet::likes(), 1).returning_new().await?;
//! assert_eq!(liked.likes, 1);
//! assert_eq!(db.get::<Tweet>(("ada", "1")).await?, Some(liked));
//!
//! let hello = db.query::<Tweet>("ada").filter(Tweet::text().begins_with("hel")).all().await?;
//! assert_eq!(hello.len(), 1);
//! assert_eq!(Tweet::schema().table_name, "tweets");
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```
//!
//! Queries and scans (index selection, paging cursors, parallel scans) are shown on [`Query`] and
//! [`Scan`]; conditions and updates on [`Condition`] and [`Update`]. Field handles know the key
//! schema ([roles](expression::role)): an update of a key attribute, or a `.range(..)` condition on
//! an attribute that sorts neither the table nor an index, does not compile.
//!
//! - **Paging for web APIs**: [`Query::page`] gives `n` matching items and a [`Cursor`] after the
//!   last one (none once the read is complete), printed as a URL-safe token. A token given back is
//!   checked against the read before anything is sent: one of another table, index, partition or
//!   segment, malformed, or unsigned when [`Db::with_cursor_key`] signs them, is an
//!   [`Error::InvalidCursor`] — a 400 for a web handler, never a backend error. A
//!   [lenient](Query::lenient) read pages the same way, counting good and bad items alike;
//!   [`Query::dynamodb_page`] is one DynamoDB request as it comes.
//!
//! - **Many items at once**: [`Db::batch_get`], [`Db::batch_write`] and [`Db::batch_get_stream`]
//!   (chunked, concurrent, unprocessed items retried with backoff; errors name what was left).
//! - **All or nothing**: [`Db::transact`] (puts, updates, deletes and condition checks on items of
//!   any models, with the single-item builders' conditions) and [`Db::transact_get`] (one snapshot);
//!   a cancellation names each failed action ([`Error::TransactionCanceled`]).
//! - **Optimistic locking**: a `#[version]` field that every write checks and bumps, with
//!   [`Db::save`] keeping your copy current and [`Error::VersionConflict`] when someone else wrote
//!   first; see [`Model`'s section on it](Model#optimistic-locking-version).
//!   [Counters](Model#counters-dynomodelcounter) (`#[dynomodel(counter)]`) change without bumping
//!   it, and no whole-item write loses their increments.
//! - **Timestamps**: `#[created_at]` / `#[updated_at]` fields stamped by every write with the
//!   backend's clock ([`Backend::now`]); see [`Model`](Model#timestamps-created_at-updated_at).
//!   A timestamp is stored like any `DateTime<Utc>` field: at the field's (or the model's)
//!   `datetime` width ([`convert::datetime`]), or as epoch seconds.
//!
//! - **What it costs**: `.with_capacity()` ([`CapacityExt`], [`StreamCapacityExt`]) on any request
//!   gives what it consumed ([`Consumed`]: a query's pages, a batch's chunks summed per table), and
//!   [`Db::meter`] keeps running totals (every request asks, with [`Db::with_meter`]); a plain request
//!   asks for nothing. Every backend request runs in a `tracing` span at debug level
//!   (`dynamodb`: `operation`, `table`, `consumed`, `error`), silent without a subscriber.
//!
//! - **Evolving items**: [`Db::backfill`] rewrites the stored items that are behind the model (an
//!   older item version, a composite or index key that older items lack), in parallel segments,
//!   each write conditional on the item being unchanged, under a write budget, resumable from a
//!   checkpoint; plans list the backfills they need ([`migrate::DataStep`]). See [`backfill`].
//!
//! Every error is one [`Error`], matched the same way whichever backend answered.
//!
//! The crate root holds what applications use. The modules hold the rest: [`expression`] the
//! traits that type each operator's operands, the handles' roles and the renderer of raw
//! expressions; [`backend`] the [`Backend`] trait's requests and responses, for backend authors and
//! raw requests; [`convert`] the conversions of Rust types; [`migrate`] migration plans;
//! [`faults`] fault injection around any backend, for tests of failure paths; [`backfill`] the
//! checkpoint stores, clocks and reports of backfills; `codegen` (feature `cli`) Rust models
//! generated from an existing table and a sample of its items.
//!
//! The [guide](https://github.com/dynomodel/dynomodel/blob/main/docs/guide/README.md) walks through
//! models and values, queries and indexes, updates and conditions, batches and transactions, schema
//! and migrations, capacity and streams, single-table design and testing, with examples that run.

#![forbid(unsafe_code)]

// Lets `#[derive(Model)]`, whose output names `::dynomodel`, be used in this crate's own unit tests.
#[cfg(test)]
extern crate self as dynomodel;

#[cfg(feature = "aws")]
mod aws;
pub mod backend;
pub mod backfill;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod codegen;
pub mod convert;
mod db;
mod error;
pub mod expression;
pub mod faults;
pub mod migrate;
mod model;
mod query;
mod value;

#[cfg(feature = "aws")]
pub use aws::AwsBackend;
// The request and response shapes stay in `backend`; the root names the few a mapper user meets: the
// trait `Db::new` takes, what `Consumed`/`Meter` hand back per table, what a change record's
// `operation()` and an index's `projection()` answer, and the type a custom key attribute declares.
pub use backend::{Backend, ConsumedCapacity, OperationType, ProjectionType, ScalarAttributeType};
pub use backfill::{Backfill, BackfillOptions, BackfillProgress, BackfillReport};
pub use convert::{Attribute, Binary, IndexKeyAttribute, KeyAttribute, VersionAttribute};
pub use db::{
    BatchGet, BatchGetStream, BatchItems, BatchOptions, BatchUnprocessed, BatchWrite, ItemDecode,
    ItemTooLarge,
};
pub use db::{CapacityExt, CapacityStream, Consumed, Meter, StreamCapacityExt, WithCapacity};
pub use db::{Change, ChangeRecord, Changes};
pub use db::{
    Db, DbFuture, Delete, DeleteKey, Get, GetCollection, GetPartial, Partial, Put, ReadTransaction,
    Reads, Save, Slot, Transaction, UpdateItem,
};
pub use db::{GetVersioned, Versioned};
pub use dynomodel_derive::{Attribute, Collection, Document, Model};
pub use error::{
    CancellationCode, CancellationReason, ConversionError, Error, ExistenceCheck, ItemAction,
    ItemNotFound, Result, VersionCheck, VersionConflict,
};
// The expressions applications write in their own signatures; the operand traits, the handles'
// roles and the renderer stay in `expression`.
pub use expression::{Condition, Path, ProjectionExpression, SortKeyCondition, Update};
pub use model::{
    entity_of, schema_union, Collection, CollectionKey, Composite, CompositePart, CompositeParts,
    Field, FollowingPart, Index, IntoKey, LeadingParts, Model, PrimaryKey, Projected,
    RequiredAttribute, Timestamp, DEFAULT_ENTITY_ATTRIBUTE,
};
pub use model::{stored_item_version, DEFAULT_ITEM_VERSION_ATTRIBUTE};
pub use query::{
    Cursor, Decoded, InvalidCursor, InvalidCursorReason, KeyAttributes, Lenient, Page, Query, Scan,
};
pub use value::{
    attribute_size, item_size, AttributeValue, Item, ItemSize, Number, NumberError, MAX_ITEM_SIZE,
};

/// Items the generated code names; not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use std::borrow::Cow;
    pub use std::string::String;
    pub use std::sync::OnceLock;
    pub use std::vec::Vec;

    /// The time of a timestamp. An alias, not a re-export of chrono's types: a re-export would
    /// change how the compiler names `DateTime<Utc>` in every diagnostic.
    pub type DateTimeUtc = chrono::DateTime<chrono::Utc>;

    /// Compiles only for a type a `#[dynomodel(counter)]` field may have (the derive calls it at
    /// the field's type).
    pub fn assert_counter<T: crate::convert::CounterAttribute>() {}

    pub use crate::model::{
        check_entity, opt_str_eq, same_hash, str_eq, unknown_entity, write_entity, SameHash,
    };
    pub use crate::model::{
        item_version_in, item_version_of, unreadable_item_version, upcast_failed,
        write_item_version,
    };
}
