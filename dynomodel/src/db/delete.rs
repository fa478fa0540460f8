//! [`Delete`] and [`DeleteKey`]: `DeleteItem` of a model value or of a key, optionally conditional.

use std::future::IntoFuture;

use crate::backend::{DeleteItemInput, ReturnValue};
use crate::convert::VersionAttribute;
use crate::db::decode::decode_returned;
use crate::db::version::Versioning;
use crate::db::write::{unchanged, Conditional, Parts, Write};
use crate::db::{Db, DbFuture};
use crate::error::Result;
use crate::expression::Condition;
use crate::model::{Model, PrimaryKey};
use crate::value::Item;

/// A pending [`Db::delete`] of an item you hold: `.await` it (`()`), or finish with
/// [`returning_old`](Delete::returning_old). Deleting a missing item is not an error, unless a
/// condition says otherwise.
///
/// [`atomic`](Delete::atomic) deletes only if the stored item is still the one in memory, which
/// is flywheel's `delete(atomic=True)`: an optimistic lock without a version attribute. With a
/// `#[version]` field, the stored item must have the value's version (see
/// [`ignore_version`](Delete::ignore_version)).
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Tweet>().await?;
/// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 3 };
/// # db.put(&tweet).await?;
/// // `tweet` was read earlier (3 likes); someone else likes it meanwhile.
/// db.update::<Tweet>(("abc", "1")).add(Tweet::likes(), 1).await?;
///
/// let err = db.delete(&tweet).atomic().await.unwrap_err(); // not what we read
/// assert!(err.is_conditional_check_failed());
/// db.delete(&tweet).condition(Tweet::likes().lt(10)).await?;
/// assert_eq!(db.get::<Tweet>(("abc", "1")).await?, None);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a delete does nothing until awaited"]
pub struct Delete<'a, M> {
    db: &'a Db,
    item: &'a M,
    atomic: bool,
    conditional: Conditional<M>,
    versioning: Versioning,
}

impl<'a, M: Model> Delete<'a, M> {
    pub(crate) fn new(db: &'a Db, item: &'a M) -> Self {
        Delete {
            db,
            item,
            atomic: false,
            conditional: Conditional::new(),
            versioning: Versioning::Default,
        }
    }

    /// Deletes only if `condition` holds on the stored item. Given more than once, the conditions
    /// are joined with `AND`.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 3 };
    /// # db.put(&tweet).await?;
    /// let popular = db.delete(&tweet).condition(Tweet::likes().ge(100)).await;
    /// assert!(popular.is_err_and(|e| e.is_conditional_check_failed()));
    /// db.delete(&tweet).condition(Tweet::likes().lt(100)).await?;
    /// assert_eq!(db.get::<Tweet>(("abc", "1")).await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn condition(mut self, condition: impl Into<Condition<M>>) -> Self {
        self.conditional.and(condition.into());
        self
    }

    /// Deletes only if every attribute of the item in memory is stored with the same value (which
    /// implies the item exists). Attributes stored but absent in memory (a `None` field someone
    /// else has since set) are not checked: the mapper knows what the value stores, not what it
    /// might. Joined with `AND` to any other condition.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 3 };
    /// # db.put(&tweet).await?;
    /// let mut edited = tweet.clone();
    /// edited.text = "edited".into(); // not saved
    /// let err = db.delete(&edited).atomic().await.unwrap_err();
    /// assert_eq!(err.conditional_item::<Tweet>()?, Some(tweet.clone())); // what is stored
    /// db.delete(&tweet).atomic().await?; // matches the stored item
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn atomic(mut self) -> Self {
        self.atomic = true;
        self
    }

    /// Whether a failed condition brings back the stored item (on by default; see
    /// [`Put::item_on_failure`](crate::Put::item_on_failure)).
    pub fn item_on_failure(mut self, yes: bool) -> Self {
        self.conditional.item_on_failure(yes);
        self
    }

    /// Deletes without checking the `#[version]` field (by default, the stored item must have the
    /// version this value holds; see [optimistic locking](crate::Model#optimistic-locking-version)).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Doc { #[hash_key] id: String, text: String, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Doc>().await?;
    /// let mut doc = Doc { id: "d1".into(), text: "draft".into(), version: 0 };
    /// let stale = doc.clone();
    /// db.save(&mut doc).await?;
    ///
    /// assert!(db.delete(&stale).await.is_err_and(|e| e.is_version_conflict()));
    /// db.delete(&stale).ignore_version().await?; // deleted whatever its version
    /// assert_eq!(db.get::<Doc>("d1").await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn ignore_version(mut self) -> Self {
        self.versioning = Versioning::Ignore;
        self
    }

    /// Finishes the request with `ReturnValues=ALL_OLD`: the deleted item, if there was one.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 3 };
    /// # db.put(&tweet).await?;
    /// assert_eq!(db.delete(&tweet).returning_old().await?, Some(tweet.clone()));
    /// assert_eq!(db.delete(&tweet).returning_old().await?, None); // already gone
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn returning_old(self) -> DbFuture<'a, Option<M>> {
        Box::pin(async move {
            let old = send::<M>(self.db, self.render()?, ReturnValue::AllOld).await?;
            old.map(|item| decode_returned(self.db, item)).transpose()
        })
    }

    /// The delete: the version check of the value's `#[version]` field, then the atomic check, then
    /// the user's conditions.
    pub(crate) fn render(&self) -> Result<Write> {
        let check = match self.atomic {
            true => unchanged::<M>(&self.item.to_item()?),
            false => None,
        };
        let parts = Parts {
            version: self.versioning.expected(Some(self.item))?,
            check,
            ..Parts::default()
        };
        Write::render(
            self.db,
            self.item.key().to_key_item()?,
            &self.conditional,
            parts,
        )
    }
}

impl<'a, M: Model> IntoFuture for Delete<'a, M> {
    type Output = Result<()>;
    type IntoFuture = DbFuture<'a, ()>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            send::<M>(self.db, self.render()?, ReturnValue::None)
                .await
                .map(drop)
        })
    }
}

/// A pending [`Db::delete_key`]: `.await` it for the deleted item, if there was one.
///
/// Unlike [`Delete`], it gives the item back by default (`ReturnValues=ALL_OLD`, which costs no
/// capacity): with only a key in hand, the item is news; [`without_old`](DeleteKey::without_old)
/// skips the transfer.
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Tweet>().await?;
/// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 3 };
/// # db.put(&tweet).await?;
/// let gone: Option<Tweet> = db.delete_key::<Tweet>(("abc", "1")).await?;
/// assert_eq!(gone, Some(tweet));
/// assert_eq!(db.delete_key::<Tweet>(("abc", "1")).await?, None); // nothing left
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a delete does nothing until awaited"]
pub struct DeleteKey<'a, M: Model> {
    db: &'a Db,
    key: M::Key,
    conditional: Conditional<M>,
    versioning: Versioning,
}

impl<'a, M: Model> DeleteKey<'a, M> {
    pub(crate) fn new(db: &'a Db, key: M::Key) -> Self {
        DeleteKey {
            db,
            key,
            conditional: Conditional::new(),
            versioning: Versioning::Default,
        }
    }

    /// Deletes only if `condition` holds on the stored item. Given more than once, the conditions
    /// are joined with `AND`.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 3 };
    /// # db.put(&tweet).await?;
    /// let unliked = Tweet::likes().eq(0);
    /// let err = db.delete_key::<Tweet>(("abc", "1")).condition(unliked).await.unwrap_err();
    /// assert_eq!(err.conditional_item::<Tweet>()?, Some(tweet));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn condition(mut self, condition: impl Into<Condition<M>>) -> Self {
        self.conditional.and(condition.into());
        self
    }

    /// Whether a failed condition brings back the stored item (on by default).
    pub fn item_on_failure(mut self, yes: bool) -> Self {
        self.conditional.item_on_failure(yes);
        self
    }

    /// Deletes only if the stored item has this `#[version]` (a field value of the model's version
    /// type: `0` or `None` means "no item"); a mismatch is [`Error::VersionConflict`](crate::Error::VersionConflict).
    /// Without it, a delete by key checks no version: there is no value to take one from.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Doc { #[hash_key] id: String, text: String, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Doc>().await?;
    /// let mut doc = Doc { id: "d1".into(), text: "draft".into(), version: 0 };
    /// db.save(&mut doc).await?; // version 1
    /// db.save(&mut doc).await?; // version 2
    ///
    /// let err = db.delete_key::<Doc>("d1").if_version(1).await.unwrap_err();
    /// assert!(matches!(err, dynomodel::Error::VersionConflict(c) if c.stored == Some(2)));
    /// assert_eq!(db.delete_key::<Doc>("d1").if_version(doc.version).await?, Some(doc));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn if_version<V: VersionAttribute>(mut self, version: V) -> Self {
        self.versioning = Versioning::expect(&version);
        self
    }

    /// Finishes the request without asking for the deleted item (`ReturnValues` omitted).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 3 };
    /// # db.put(&tweet).await?;
    /// db.delete_key::<Tweet>(("abc", "1")).without_old().await?; // gives `()`
    /// assert_eq!(db.get::<Tweet>(("abc", "1")).await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn without_old(self) -> DbFuture<'a, ()> {
        Box::pin(async move {
            send::<M>(self.db, self.render()?, ReturnValue::None)
                .await
                .map(drop)
        })
    }

    pub(crate) fn render(&self) -> Result<Write> {
        let parts = Parts {
            version: self.versioning.expected::<M>(None)?,
            ..Parts::default()
        };
        Write::render(self.db, self.key.to_key_item()?, &self.conditional, parts)
    }
}

impl<'a, M: Model> IntoFuture for DeleteKey<'a, M> {
    type Output = Result<Option<M>>;
    type IntoFuture = DbFuture<'a, Option<M>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let old = send::<M>(self.db, self.render()?, ReturnValue::AllOld).await?;
            old.map(|item| decode_returned(self.db, item)).transpose()
        })
    }
}

/// The `DeleteItem` request of a rendered delete.
pub(crate) fn input(write: Write, return_values: ReturnValue) -> DeleteItemInput {
    DeleteItemInput {
        table_name: write.table_name,
        key: write.key,
        condition_expression: write.condition_expression,
        expression_attribute_names: write.expression_attribute_names,
        expression_attribute_values: write.expression_attribute_values,
        return_values: (return_values != ReturnValue::None).then_some(return_values),
        return_values_on_condition_check_failure: write.on_failure,
        ..Default::default()
    }
}

/// Sends a rendered delete, reporting a failed version check as a version conflict.
async fn send<M: Model>(db: &Db, write: Write, return_values: ReturnValue) -> Result<Option<Item>> {
    let failure = write.failure();
    let output = db.calls.delete_item(input(write, return_values)).await;
    output
        .map(|o| o.attributes)
        .map_err(|e| failure.read::<M>(e))
}
