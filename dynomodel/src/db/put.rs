//! [`Put`]: `PutItem` of one model value, optionally conditional, optionally returning the old item.

use std::future::IntoFuture;

use futures::future::Either;
use futures::FutureExt;

use crate::backend::{AttributeWriter, PutItemInput, ReturnValue};
use crate::db::decode::decode_returned;
use crate::db::put_attributes::PutAttributes;
use crate::db::stamps::{self, Stamped};
use crate::db::version::{self, Versioning};
use crate::db::write::{key_exists, Conditional, Parts, Write};
use crate::db::{item_size, sent, update, whole, Db, DbFuture};
use crate::error::Result;
use crate::expression::Condition;
use crate::model::{Model, PrimaryKey};
use crate::value::Item;

/// A pending [`Db::put`]: create or replace an item. `.await` it, or finish with
/// [`returning_old`](Put::returning_old).
///
/// A failed condition is [`Error::ConditionalCheckFailed`](crate::Error::ConditionalCheckFailed),
/// carrying the stored item (decode it with [`Error::conditional_item`](crate::Error::conditional_item)).
///
/// With a `#[version]` field, the put also checks the version the value holds (create-only for a
/// value not saved yet) and stores the next one, leaving the value one version behind:
/// [`Db::save`](crate::Db::save) keeps it current. See
/// [optimistic locking](crate::Model#optimistic-locking-version). A model with
/// [counters](crate::Model#counters-dynomodelcounter) is put over a stored version as an
/// `UpdateItem` that leaves them as stored, so that a copy behind on them loses no increment. The
/// item stores the [timestamps](crate::Model#timestamps-created_at-updated_at) of the write.
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Tweet>().await?;
/// let stored = Tweet { userid: "abc".into(), id: "1".into(), text: "first".into(), likes: 3 };
/// db.put(&stored).await?;
/// let tweet = Tweet { text: "second".into(), likes: 5, ..stored.clone() };
///
/// // Create only: fails if a tweet with this key exists, and says which.
/// match db.put(&tweet).if_not_exists().await {
///     Err(e) if e.is_conditional_check_failed() => {
///         assert_eq!(e.conditional_item::<Tweet>()?, Some(stored.clone()));
///     }
///     other => panic!("expected a failed condition, got {other:?}"),
/// }
/// // Replace, but only a less-liked version, and get the replaced one back.
/// let old: Option<Tweet> = db
///     .put(&tweet)
///     .condition(Tweet::likes().le(tweet.likes))
///     .returning_old()
///     .await?;
/// assert_eq!(old, Some(stored));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a put does nothing until awaited"]
pub struct Put<'a, M> {
    db: &'a Db,
    item: &'a M,
    options: PutOptions<M>,
}

/// What a put sends besides the item: shared by [`Put`], [`Save`](crate::Save) and the put actions of
/// a [`Transaction`](crate::Transaction).
pub(crate) struct PutOptions<M> {
    if_not_exists: bool,
    conditional: Conditional<M>,
    versioning: Versioning,
}

/// A rendered put: the write, the item to store (version bumped, stamped), the version it stores
/// and what it stamped.
pub(crate) struct PutWrite<'v, M> {
    pub(crate) write: Write,
    /// The item of a `PutItem`, written by the backend (`Backend::put_item_from`); `None` when the
    /// write is an `UpdateItem` whose actions store it (a model with counters replacing a stored
    /// version: see `whole`).
    pub(crate) item: Option<PutAttributes<'v, M>>,
    /// The version stored, when the model has a `#[version]` field and it was not ignored.
    pub(crate) version: Option<u64>,
    /// The timestamps stored, when the model has any.
    pub(crate) stamped: Option<Stamped>,
}

impl<M: Model> PutOptions<M> {
    pub(crate) fn new() -> Self {
        PutOptions {
            if_not_exists: false,
            conditional: Conditional::new(),
            versioning: Versioning::Default,
        }
    }

    pub(crate) fn condition(&mut self, condition: Condition<M>) {
        self.conditional.and(condition);
    }

    pub(crate) fn if_not_exists(&mut self) {
        self.if_not_exists = true;
    }

    pub(crate) fn item_on_failure(&mut self, yes: bool) {
        self.conditional.item_on_failure(yes);
    }

    pub(crate) fn ignore_version(&mut self) {
        self.versioning = Versioning::Ignore;
    }

    /// The put of `value`: with a `#[version]` field, the item stores the next version and the
    /// condition checks the one `value` holds (create-only for a value never saved); with
    /// timestamps, the item is stamped. A model with counters replacing a stored version sends it
    /// as an update that leaves the counters as stored (see `whole`).
    ///
    /// A `PutItem` sends no key: the write's `key` is only built when something will name it
    /// (`with_key`: a transaction's cancellation reasons) or a version conflict may (a model with a
    /// `#[version]` field), and is empty otherwise.
    ///
    /// The item is converted when it is sent (`PutAttributes`), so a value that would not read back
    /// fails then, with the same error, and nothing is sent.
    pub(crate) fn render<'v>(
        &self,
        db: &Db,
        value: &'v M,
        with_key: bool,
    ) -> Result<PutWrite<'v, M>> {
        let expected = self.versioning.expected(Some(value))?;
        let version = match (expected, M::VERSION_ATTRIBUTE) {
            (Some(expected), Some(_)) => Some(version::next_version::<M>(expected)?),
            _ => None,
        };
        let stamped = stamps::stamp(db, value);
        let item = PutAttributes {
            value,
            version,
            stamped,
        };
        // A first save's version check is already `attribute_not_exists(<hash key>)`.
        let key_check = match self.if_not_exists && expected != Some(None) {
            true => Some(key_exists::<M>(false)),
            false => None,
        };
        let key = match with_key || M::VERSION_ATTRIBUTE.is_some() {
            true => value.key().to_key_item()?,
            false => Item::new(),
        };
        let (update, item) = match whole::as_update::<M>(expected) {
            true => {
                let keep_created = stamped.is_some_and(|s| s.created);
                let item = item.to_item()?;
                item_size::check_item::<M>(db, &item)?;
                (Some(whole::update_of::<M>(item, keep_created)), None)
            }
            false => (None, Some(item)),
        };
        // No existence check of its own: the whole-item update of a model with counters checks
        // a stored version (`<version> = :held`), which only an existing item passes.
        let parts = Parts {
            update: update.as_ref(),
            version: expected,
            existence: None,
            check: key_check,
        };
        let write = Write::render(db, key, &self.conditional, parts)?;
        Ok(PutWrite {
            write,
            item,
            version,
            stamped,
        })
    }
}

impl<'v, M: Model> PutWrite<'v, M> {
    /// Whether it is sent as an `UpdateItem` (a model with counters over a stored version).
    pub(crate) fn is_update(&self) -> bool {
        self.item.is_none()
    }

    /// Sends it when polled, as a `PutItem` or (see [`is_update`](PutWrite::is_update)) an
    /// `UpdateItem`, reporting a failed version check as a version conflict; returns the item
    /// `return_values` asks for (`ALL_NEW` only for an update). Not an `async fn`, which would keep
    /// this write in the future beside the request made of it (see `Calls` on future sizes).
    pub(crate) fn send<'d>(
        self,
        db: &'d Db,
        return_values: ReturnValue,
    ) -> impl std::future::Future<Output = Result<Option<Item>>> + Send + 'd
    where
        'v: 'd,
    {
        self.send_then(db, return_values, Ok)
    }

    /// [`send`](PutWrite::send), its returned item handed to `then` in the same step: one
    /// combinator over the request's future, not one for the item, one for the error and one for
    /// the caller's own (each its own poll function on every request's path).
    pub(crate) fn send_then<'d, T, F>(
        self,
        db: &'d Db,
        return_values: ReturnValue,
        then: F,
    ) -> impl std::future::Future<Output = Result<T>> + Send + 'd
    where
        'v: 'd,
        F: FnOnce(Option<Item>) -> Result<T> + Send + 'd,
    {
        let failure = self.write.failure();
        match self.item {
            Some(item) => {
                let value = item.value;
                let input = put_input(self.write, return_values);
                Either::Left(
                    db.calls
                        .put_item_from(input, item)
                        .map(move |sent| match sent {
                            Ok(output) => then(output.attributes),
                            Err(e) => {
                                Err(item_size::name_write_error(db, value, failure.read::<M>(e)))
                            }
                        }),
                )
            }
            None => {
                let input = update::input(self.write, return_values);
                Either::Right(db.calls.update_item(input).map(move |sent| match sent {
                    Ok(output) => then(output.attributes),
                    Err(e) => Err(failure.read::<M>(e)),
                }))
            }
        }
    }
}

/// The `PutItem` request of a rendered put, without its item (see `PutAttributes`).
fn put_input(write: Write, return_values: ReturnValue) -> PutItemInput {
    PutItemInput {
        table_name: write.table_name,
        condition_expression: write.condition_expression,
        expression_attribute_names: write.expression_attribute_names,
        expression_attribute_values: write.expression_attribute_values,
        return_values: (return_values != ReturnValue::None).then_some(return_values),
        return_values_on_condition_check_failure: write.on_failure,
        ..Default::default()
    }
}

impl<'a, M: Model> Put<'a, M> {
    pub(crate) fn new(db: &'a Db, item: &'a M) -> Self {
        Put {
            db,
            item,
            options: PutOptions::new(),
        }
    }

    /// The options, for a transaction's put action.
    pub(crate) fn into_parts(self) -> (&'a M, PutOptions<M>) {
        (self.item, self.options)
    }

    /// Writes only if `condition` holds on the stored item (on nothing, if there is none). Given
    /// more than once, the conditions are joined with `AND`.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hi".into(), likes: 3 };
    /// db.put(&tweet).await?;
    ///
    /// let fewer = Tweet { likes: 1, ..tweet.clone() };
    /// let err = db.put(&fewer).condition(Tweet::likes().le(fewer.likes)).await.unwrap_err();
    /// assert!(err.is_conditional_check_failed());
    /// let more = Tweet { likes: 7, ..tweet };
    /// db.put(&more).condition(Tweet::likes().le(more.likes)).await?;
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn condition(mut self, condition: impl Into<Condition<M>>) -> Self {
        self.options.condition(condition.into());
        self
    }

    /// Creates only: `attribute_not_exists(<hash key>)`, which holds exactly when no item has
    /// this key (every stored item has its hash key). Joined with `AND` to any other condition.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hi".into(), likes: 0 };
    /// db.put(&tweet).if_not_exists().await?; // created
    /// let again = db.put(&tweet).if_not_exists().await;
    /// assert!(again.is_err_and(|e| e.is_conditional_check_failed()));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn if_not_exists(mut self) -> Self {
        self.options.if_not_exists();
        self
    }

    /// Whether a failed condition brings back the stored item (`ReturnValuesOnConditionCheckFailure`,
    /// on by default for conditional writes; it costs no capacity, only bandwidth).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hi".into(), likes: 0 };
    /// db.put(&tweet).await?;
    /// let err = db.put(&tweet).if_not_exists().item_on_failure(false).await.unwrap_err();
    /// assert!(err.is_conditional_check_failed());
    /// assert_eq!(err.conditional_item::<Tweet>()?, None); // not sent back
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn item_on_failure(mut self, yes: bool) -> Self {
        self.options.item_on_failure(yes);
        self
    }

    /// Sends the put as if the model had no `#[version]` field: no version check, and the item is
    /// stored exactly as it is in memory, version included. For repairs, imports and migrations; see
    /// [optimistic locking](crate::Model#optimistic-locking-version).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Doc { #[hash_key] id: String, text: String, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Doc>().await?;
    /// let backup = Doc { id: "d1".into(), text: "restored".into(), version: 7 };
    /// db.put(&backup).ignore_version().await?; // no check: stored as is, version 7
    /// assert_eq!(db.get::<Doc>("d1").await?, Some(backup));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn ignore_version(mut self) -> Self {
        self.options.ignore_version();
        self
    }

    /// Finishes the request with `ReturnValues=ALL_OLD`: the replaced item, if there was one.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let first = Tweet { userid: "abc".into(), id: "1".into(), text: "first".into(), likes: 0 };
    /// assert_eq!(db.put(&first).returning_old().await?, None); // nothing replaced
    /// let second = Tweet { text: "second".into(), ..first.clone() };
    /// assert_eq!(db.put(&second).returning_old().await?, Some(first));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn returning_old(self) -> DbFuture<'a, Option<M>> {
        // Rendered now, so that the future holds the request only (see `PutWrite::send`).
        let db = self.db;
        let send = self.options.render(db, self.item, false).map(|put| {
            put.send_then(db, ReturnValue::AllOld, move |old| {
                old.map(|item| decode_returned(db, item)).transpose()
            })
        });
        Box::pin(sent(send))
    }
}

impl<'a, M: Model> IntoFuture for Put<'a, M> {
    type Output = Result<()>;
    type IntoFuture = DbFuture<'a, ()>;

    fn into_future(self) -> Self::IntoFuture {
        // Rendered now, so that the future holds the request only (see `PutWrite::send`).
        let db = self.db;
        let send = self
            .options
            .render(db, self.item, false)
            .map(|put| put.send_then(db, ReturnValue::None, |_| Ok(())));
        Box::pin(sent(send))
    }
}
