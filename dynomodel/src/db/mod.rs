//! [`Db`]: the typed facade over a [`Backend`], and its request builders: the single-item ones
//! here, batches in `batch`, transactions in `transact`; `write` and `version` hold what the
//! single-item writes and the transaction actions share (rendering, the `#[version]` check).
//!
//! Every builder renders all of its expressions (condition, update, projection) through one
//! [`ExpressionContext`], so placeholders never collide and none is unused, and turns any rendering
//! or conversion failure into an [`Error`] when awaited: building a request never panics.
//!
//! The return values of a write are chosen by its *finisher*: `.await` on the builder gives the
//! cheapest answer (`()`), and methods such as [`Put::returning_old`] or
//! [`UpdateItem::returning_new`] consume the builder and give a future of a different output type.
//! The output type therefore always matches the `ReturnValues` sent; there is no `Option` to unwrap
//! because the request might have asked for nothing.

mod backups;
mod batch;
mod capacity;
mod changes;
mod counters;
pub(crate) mod decode;
mod delete;
mod existence;
mod flywheel;
mod get;
mod get_collection;
pub(crate) mod item_size;
pub(crate) mod names;
mod partial;
mod put;
mod put_attributes;
mod save;
mod stamps;
#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests_existence;
#[cfg(test)]
mod tests_read;
#[cfg(test)]
mod tests_tx;
#[cfg(test)]
mod tests_write;
mod transact;
mod update;
mod version;
mod versioned;
mod whole;
mod write;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::backend::*;
use crate::error::{ConversionError, Error, Result};
use crate::expression::{ExpressionContext, Path, PathElement};
use crate::model::Model;
use crate::value::{AttributeValue, Item};

pub use batch::{BatchGet, BatchGetStream, BatchItems, BatchOptions, BatchUnprocessed, BatchWrite};
pub(crate) use capacity::Calls;
pub use capacity::{CapacityExt, CapacityStream, Consumed, Meter, StreamCapacityExt, WithCapacity};
pub use changes::{Change, ChangeRecord, Changes};
pub use decode::ItemDecode;
pub use delete::{Delete, DeleteKey};
pub use get::{Get, GetPartial};
pub use get_collection::GetCollection;
pub use item_size::ItemTooLarge;
pub use partial::Partial;
pub use put::Put;
pub use save::Save;
pub use transact::{ReadTransaction, Reads, Slot, Transaction};
pub use update::UpdateItem;
pub use versioned::{GetVersioned, Versioned};

/// The future of a request finisher such as [`UpdateItem::returning_new`]: boxed, `Send`, borrowing
/// the [`Db`] (and the item, for writes of one) for `'a`.
///
/// ```
/// # use dynomodel::{Db, DbFuture, Model};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, likes: i64 }
/// fn like<'a>(db: &'a Db, userid: &str) -> DbFuture<'a, Tweet> {
///     db.update::<Tweet>((userid, "1")).add(Tweet::likes(), 1).returning_new()
/// }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Tweet>().await?;
/// db.put(&Tweet { userid: "abc".into(), id: "1".into(), likes: 0 }).await?;
///
/// let tweet = like(&db, "abc").await?;
/// assert_eq!(tweet, Tweet { userid: "abc".into(), id: "1".into(), likes: 1 });
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
pub type DbFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>;

/// A handle on a DynamoDB database: typed requests for models, run by a [`Backend`].
///
/// Cheap to clone (an `Arc`), `Send + Sync`. The same code runs against Amazon DynamoDB or the
/// in-memory engine; only the construction differs: `dynomodel_mem::memory()` (or
/// `Db::new(dynomodel_mem::MemBackend::new())`, or `Db::memory()` with `dynomodel_mem::MemoryDb` in
/// scope) in tests, `Db::from_env().await?` in production (feature `aws`).
///
/// ```
/// use dynomodel::{Db, Model};
/// use dynomodel_mem::MemBackend;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "users")]
/// struct User { #[hash_key] id: String, name: String }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = Db::new(MemBackend::new()); // production: Db::from_env().await?
/// db.create_schema::<User>().await?;
/// let ada = User { id: "u1".into(), name: "Ada".into() };
/// db.put(&ada).await?;
/// assert_eq!(db.get::<User>("u1").await?, Some(ada));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// A namespace ([`Db::with_namespace`]) prefixes every table name, so several test runs or environments
/// can share one account.
#[derive(Clone)]
pub struct Db {
    pub(crate) calls: Calls,
    namespace: Arc<str>,
    batch_options: BatchOptions,
    /// Signs and checks cursor tokens ([`Db::with_cursor_key`]).
    pub(crate) cursor_key: Option<Arc<crate::query::CursorKey>>,
}

impl fmt::Debug for Db {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Db")
            .field("backend", &self.calls.backend)
            .field("meter", &self.calls.meter)
            .field("ask", &self.calls.ask)
            .field("namespace", &self.namespace)
            .field("batch_options", &self.batch_options)
            .field("cursor_key", &self.cursor_key)
            .finish()
    }
}

impl Db {
    /// A database served by `backend`.
    pub fn new(backend: impl Backend + 'static) -> Db {
        Db::from_arc(Arc::new(backend))
    }

    /// A database served by a shared backend.
    pub fn from_arc(backend: Arc<dyn Backend>) -> Db {
        Db {
            calls: Calls::new(backend),
            namespace: Arc::from(""),
            batch_options: BatchOptions::default(),
            cursor_key: None,
        }
    }

    /// The same database with every table name prefixed by `namespace` (e.g. `"test-"`).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model)]
    /// # #[dynomodel(table = "tweets")]
    /// # struct Tweet { #[hash_key] userid: String }
    /// let db = Db::memory().with_namespace("test-");
    /// assert_eq!(db.table_name::<Tweet>(), "test-tweets");
    /// ```
    pub fn with_namespace(mut self, namespace: impl Into<String>) -> Db {
        self.namespace = Arc::from(namespace.into());
        self
    }

    /// The same database, asking for `ReturnConsumedCapacity=TOTAL` on every request, so that its
    /// [`meter`](Db::meter) counts everything: for tests of what an operation costs. (A plain `Db`
    /// sends no `ReturnConsumedCapacity`; its meter counts only `.with_capacity()` requests.)
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let db = Db::memory().with_meter();
    /// # db.create_schema::<Tweet>().await?;
    /// db.put(&Tweet { userid: "ada".into(), id: "1".into() }).await?; // 1 WCU
    /// db.query::<Tweet>("ada").all().await?; // 0.5 RCU: one page of small items
    /// let tweets = db.meter().table(&db.table_name::<Tweet>()).unwrap_or_default();
    /// assert_eq!(tweets.read_capacity_units, Some(0.5));
    /// assert_eq!(tweets.write_capacity_units, Some(1.0));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn with_meter(mut self) -> Db {
        self.calls.ask = ReturnConsumedCapacity::Total;
        self
    }

    /// Like [`with_meter`](Db::with_meter), asking for `INDEXES`: the meter also keeps each
    /// table's and each index's share.
    pub fn with_meter_by_index(mut self) -> Db {
        self.calls.ask = ReturnConsumedCapacity::Indexes;
        self
    }

    /// The running totals of the capacity this database's requests consumed (shared by its
    /// clones); see [`Meter`].
    pub fn meter(&self) -> &Meter {
        &self.calls.meter
    }

    /// The backend, for raw DynamoDB requests.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String }
    /// use dynomodel::backend::DescribeTableInput;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    ///
    /// let input = DescribeTableInput { table_name: db.table_name::<Tweet>() };
    /// let table = db.backend().describe_table(input).await?.table;
    /// assert_eq!(table.key_schema.len(), 2);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn backend(&self) -> &Arc<dyn Backend> {
        &self.calls.backend
    }

    /// The namespace prefixed to every table name (`""` without one).
    pub(crate) fn namespace(&self) -> &str {
        &self.namespace
    }

    /// The name of `M`'s table in this database (namespace included).
    pub fn table_name<M: Model>(&self) -> String {
        // Every request names its table: two copies into an exact allocation, not `format!`.
        let mut name = String::with_capacity(self.namespace.len() + M::TABLE_NAME.len());
        name.push_str(&self.namespace);
        name.push_str(M::TABLE_NAME);
        name
    }

    /// Creates `M`'s table if it does not exist. Returns whether it created it.
    ///
    /// Idempotent: running it against an existing table changes nothing. It runs the creation
    /// steps of [`Db::plan`] (CreateTable with the indexes, stream and tags, then the time to live
    /// of a `#[ttl]` field) and waits until the table is ACTIVE; it never migrates an existing table.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let db = Db::memory();
    /// assert!(db.create_schema::<Tweet>().await?);
    /// assert!(!db.create_schema::<Tweet>().await?); // already there
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn create_schema<M: Model>(&self) -> Result<bool> {
        self.create_definition(&crate::migrate::Definition::of::<M>())
            .await
    }

    /// Creates the table of `definition` if it does not exist; returns whether it created it.
    pub(crate) async fn create_definition(
        &self,
        definition: &crate::migrate::Definition,
    ) -> Result<bool> {
        // Only the creation steps: an existing table is left as it is (`plan` + `apply` migrate it).
        let Some(plan) = crate::migrate::Plan::creation(self, definition).await? else {
            return Ok(false);
        };
        match plan.apply(self).await {
            Ok(()) => Ok(true),
            // Created concurrently by someone else: the table exists, which is what was asked.
            Err(Error::Migration(e))
                if matches!(
                    &e.kind,
                    crate::migrate::MigrationErrorKind::StepFailed { source, .. }
                        if matches!(**source, Error::ResourceInUse { .. })
                ) =>
            {
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// Deletes `M`'s table if it exists. Returns whether it deleted it.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// db.create_schema::<Tweet>().await?;
    /// assert!(db.delete_schema::<Tweet>().await?);
    /// assert!(!db.delete_schema::<Tweet>().await?); // already gone
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn delete_schema<M: Model>(&self) -> Result<bool> {
        let table_name = self.table_name::<M>();
        match self
            .calls
            .delete_table(DeleteTableInput { table_name })
            .await
        {
            Ok(_) => Ok(true),
            Err(Error::ResourceNotFound { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Stores `item`, replacing any item with the same key; see [`Put`] for conditions and
    /// return values.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into() };
    /// db.put(&tweet).await?; // create or replace
    /// assert_eq!(db.get::<Tweet>(("abc", "1")).await?, Some(tweet.clone()));
    ///
    /// let err = db.put(&tweet).if_not_exists().await.unwrap_err(); // create only
    /// assert!(err.is_conditional_check_failed());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn put<'a, M: Model>(&'a self, item: &'a M) -> Put<'a, M> {
        Put::new(self, item)
    }

    /// Reads the item with this key, if it exists; see [`Get`] for consistency and projections.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into() };
    /// db.put(&tweet).await?;
    ///
    /// assert_eq!(db.get::<Tweet>(("abc", "1")).await?, Some(tweet));
    /// assert_eq!(db.get::<Tweet>(("abc", "2")).await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn get<M: Model>(&self, key: impl Into<M::Key>) -> Get<'_, M> {
        Get::new(self, key.into())
    }

    /// Deletes the item with `item`'s key (nothing happens if there is none); see [`Delete`] for
    /// conditions and the atomic delete.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into() };
    /// db.put(&tweet).await?;
    ///
    /// db.delete(&tweet).await?;
    /// assert_eq!(db.get::<Tweet>(("abc", "1")).await?, None);
    /// db.delete(&tweet).await?; // deleting a missing item is not an error
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn delete<'a, M: Model>(&'a self, item: &'a M) -> Delete<'a, M> {
        Delete::new(self, item)
    }

    /// Deletes the item with this key and gives it back, if there was one; see [`DeleteKey`].
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into() };
    /// db.put(&tweet).await?;
    ///
    /// let gone: Option<Tweet> = db.delete_key::<Tweet>(("abc", "1")).await?;
    /// assert_eq!(gone, Some(tweet));
    /// assert_eq!(db.delete_key::<Tweet>(("abc", "1")).await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn delete_key<M: Model>(&self, key: impl Into<M::Key>) -> DeleteKey<'_, M> {
        DeleteKey::new(self, key.into())
    }

    /// Changes some attributes of the item with this key, which must exist: a missing item is
    /// [`Error::ItemNotFound`] and nothing is written, unless the update is an
    /// [`upsert`](UpdateItem::upsert) that sets everything the model needs to read the item back.
    /// See [`UpdateItem`] for the actions, conditions and return values.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64, retweets: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # db.put(&Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 12, retweets: 0 }).await?;
    /// let tweet: Tweet = db
    ///     .update::<Tweet>(("abc", "1"))
    ///     .add(Tweet::retweets(), 1)
    ///     .set(Tweet::text(), "edited")
    ///     .condition(Tweet::likes().ge(10))
    ///     .returning_new()
    ///     .await?;
    /// assert_eq!((tweet.text.as_str(), tweet.retweets), ("edited", 1));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn update<M: Model>(&self, key: impl Into<M::Key>) -> UpdateItem<'_, M> {
        UpdateItem::new(self, key.into())
    }

    /// Stores `item` and keeps its `#[version]` field current: the put of a value you own (see
    /// [`Save`] and [optimistic locking](Model#optimistic-locking-version)). For a model without a
    /// version field, the same as [`put`](Db::put).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Account { #[hash_key] id: String, balance: i64, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// let mut account = Account { id: "a1".into(), balance: 100, version: 0 };
    /// db.save(&mut account).await?; // created only if no account "a1" exists
    /// assert_eq!(account.version, 1);
    /// account.balance += 1;
    /// db.save(&mut account).await?; // replaced only if still at version 1
    /// assert_eq!(db.get::<Account>("a1").await?, Some(account));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn save<'a, M: Model>(&'a self, item: &'a mut M) -> Save<'a, M> {
        Save::new(self, item)
    }

    /// A transaction: puts, updates, deletes and condition checks on items of any models, all or
    /// nothing; see [`Transaction`].
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// db.transact()
    ///     .put(&Account { id: "a".into(), balance: 10 })
    ///     .put(&Account { id: "b".into(), balance: 20 })
    ///     .await?;
    /// assert_eq!(db.get::<Account>("b").await?.map(|b| b.balance), Some(20));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn transact(&self) -> Transaction<'_> {
        Transaction::new(self)
    }

    /// A transactional read of items of any models, as one snapshot; see [`ReadTransaction`].
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// # db.put(&Account { id: "a".into(), balance: 10 }).await?;
    /// let mut read = db.transact_get();
    /// let a = read.get::<Account>("a");
    /// let reads = read.await?;
    /// assert_eq!(reads.get(a)?.map(|a| a.balance), Some(10));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn transact_get(&self) -> ReadTransaction<'_> {
        ReadTransaction::new(self)
    }
}

/// The future of a request prepared as `prepared`, or its preparation's error, as one future holding
/// nothing else.
///
/// The single-item builders render their request before their future starts and wrap the sending
/// with combinators rather than `async` blocks: an `async` block keeps what it captures for as long
/// as it lives and moves an awaited future into a slot of its own, so each layer copied the request,
/// and the boxed future of a `db.update(..)` reached ~1.7 KB, past the allocator's small-block caches
/// (glibc serves such a block from its slow path, consolidating its free lists first: ~6,000
/// instructions a request). See also `Calls`, which boxes each request's input.
pub(crate) fn sent<T, F>(
    prepared: Result<F>,
) -> futures::future::Either<F, futures::future::Ready<Result<T>>>
where
    F: Future<Output = Result<T>>,
{
    match prepared {
        Ok(send) => futures::future::Either::Left(send),
        Err(e) => futures::future::Either::Right(futures::future::ready(Err(e))),
    }
}

/// A request's name and value maps, each omitted when empty (DynamoDB rejects empty maps).
pub(crate) fn finish(
    ctx: ExpressionContext,
) -> (
    Option<ExpressionAttributeNames>,
    Option<ExpressionAttributeValues>,
) {
    let (names, values) = ctx.finish();
    (
        (!names.is_empty()).then_some(names),
        (!values.is_empty()).then_some(values),
    )
}

/// A condition on one top-level attribute of `M` named at run time (key names come from the schema).
pub(crate) fn attribute<M>(name: &str) -> Path<M, AttributeValue> {
    Path::from_elements(vec![PathElement::Name(name.to_owned())])
}

/// Decodes an item `db` returned into `M`, naming the operation when the item is missing.
pub(crate) fn decode_required<M: Model>(
    db: &Db,
    attributes: Option<Item>,
    what: &str,
) -> Result<M> {
    let item = attributes.ok_or_else(|| {
        ConversionError::missing(format!(
            "{what} of `{}` in the response",
            db.table_name::<M>()
        ))
    })?;
    decode::decode_returned(db, item)
}

impl Error {
    /// Whether this is a `ConditionalCheckFailedException`: a condition of yours failed. The
    /// mapper's own checks are reported apart when the stored item shows they failed:
    /// [`Error::VersionConflict`] and [`Error::ItemNotFound`], for which this is `false`.
    ///
    /// ```
    /// use dynomodel::Error;
    /// let e = Error::ConditionalCheckFailed { message: "The conditional request failed".into(), item: None };
    /// assert!(e.is_conditional_check_failed());
    /// assert!(!Error::validation("x").is_conditional_check_failed());
    /// ```
    pub fn is_conditional_check_failed(&self) -> bool {
        matches!(self, Error::ConditionalCheckFailed { .. })
    }

    /// The item a failed condition (or version check) found, decoded as `M`: `Ok(None)` when this
    /// is another error or the failure carries no item (it did not exist, or the request did not ask
    /// for it; the builders of [`Db`] ask by default).
    ///
    /// Errors: [`Error::ItemDecode`] when the item does not decode as `M`, naming its key and
    /// attribute, and `M`'s table as the model declares it (the failure does not say which
    /// [namespace](Db::with_namespace) the request was sent with).
    ///
    /// ```
    /// use dynomodel::{AttributeValue, Error, Model};
    ///
    /// #[derive(Model, Debug, PartialEq)]
    /// struct User { #[hash_key] id: String, name: String }
    ///
    /// let item = [
    ///     ("id".to_owned(), AttributeValue::S("u1".into())),
    ///     ("name".to_owned(), AttributeValue::S("Ada".into())),
    /// ];
    /// let e = Error::ConditionalCheckFailed { message: "The conditional request failed".into(), item: Some(item.into()) };
    /// assert_eq!(e.conditional_item::<User>()?, Some(User { id: "u1".into(), name: "Ada".into() }));
    /// assert_eq!(Error::validation("x").conditional_item::<User>()?, None);
    ///
    /// let nameless = [("id".to_owned(), AttributeValue::S("u2".into()))].into();
    /// let e = Error::ConditionalCheckFailed { message: "The conditional request failed".into(), item: Some(nameless) };
    /// assert_eq!(
    ///     e.conditional_item::<User>().unwrap_err().to_string(),
    ///     r#"the item of User {id: "u2"} in `User` does not decode: attribute `name`: expected a string, found nothing (the attribute is missing)"#
    /// );
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn conditional_item<M: Model>(&self) -> Result<Option<M>> {
        match self {
            Error::ConditionalCheckFailed {
                item: Some(item), ..
            } => Ok(Some(decode::decode_item(item.clone(), || {
                M::TABLE_NAME.to_owned()
            })?)),
            Error::VersionConflict(conflict) => conflict
                .item
                .clone()
                .map(|item| decode::decode_item(item, || M::TABLE_NAME.to_owned()))
                .transpose(),
            _ => Ok(None),
        }
    }
}
