//! [`Delete`] and [`DeleteKey`]: `DeleteItem` of a model value or of a key, optionally conditional.

use std::future::IntoFuture;

use crate::backend::{DeleteItemInput, ReturnValue};
use crate::db::{finish, unchanged, Conditional, Db, DbFuture};
use crate::error::Result;
use crate::expression::{Condition, ExpressionContext};
use crate::model::{Model, PrimaryKey};

/// A pending [`Db::delete`] of an item you hold: `.await` it (`()`), or finish with
/// [`returning_old`](Delete::returning_old). Deleting a missing item is not an error, unless a
/// condition says otherwise.
///
/// [`atomic`](Delete::atomic) deletes only if the stored item is still the one in memory, which
/// is flywheel's `delete(atomic=True)`: an optimistic lock without a version attribute.
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
}

impl<'a, M: Model> Delete<'a, M> {
    pub(crate) fn new(db: &'a Db, item: &'a M) -> Self {
        Delete {
            db,
            item,
            atomic: false,
            conditional: Conditional::new(),
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
    pub fn condition(mut self, condition: Condition<M>) -> Self {
        self.conditional.and(condition);
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
            let input = self.input(ReturnValue::AllOld)?;
            let output = self.db.backend.delete_item(input).await?;
            Ok(output.attributes.map(M::from_item).transpose()?)
        })
    }

    pub(crate) fn input(&self, return_values: ReturnValue) -> Result<DeleteItemInput> {
        let first = match self.atomic {
            true => unchanged::<M>(&self.item.to_item()?),
            false => None,
        };
        request::<M>(
            self.db,
            self.item.key().to_key_item()?,
            &self.conditional,
            first,
            return_values,
        )
    }
}

impl<'a, M: Model> IntoFuture for Delete<'a, M> {
    type Output = Result<()>;
    type IntoFuture = DbFuture<'a, ()>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let input = self.input(ReturnValue::None)?;
            self.db.backend.delete_item(input).await.map(drop)
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
}

impl<'a, M: Model> DeleteKey<'a, M> {
    pub(crate) fn new(db: &'a Db, key: M::Key) -> Self {
        DeleteKey {
            db,
            key,
            conditional: Conditional::new(),
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
    pub fn condition(mut self, condition: Condition<M>) -> Self {
        self.conditional.and(condition);
        self
    }

    /// Whether a failed condition brings back the stored item (on by default).
    pub fn item_on_failure(mut self, yes: bool) -> Self {
        self.conditional.item_on_failure(yes);
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
            let input = self.input(ReturnValue::None)?;
            self.db.backend.delete_item(input).await.map(drop)
        })
    }

    pub(crate) fn input(&self, return_values: ReturnValue) -> Result<DeleteItemInput> {
        request::<M>(
            self.db,
            self.key.to_key_item()?,
            &self.conditional,
            None,
            return_values,
        )
    }
}

impl<'a, M: Model> IntoFuture for DeleteKey<'a, M> {
    type Output = Result<Option<M>>;
    type IntoFuture = DbFuture<'a, Option<M>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let input = self.input(ReturnValue::AllOld)?;
            let output = self.db.backend.delete_item(input).await?;
            Ok(output.attributes.map(M::from_item).transpose()?)
        })
    }
}

/// The `DeleteItem` request both builders send.
fn request<M: Model>(
    db: &Db,
    key: crate::value::Item,
    conditional: &Conditional<M>,
    first: Option<Condition<M>>,
    return_values: ReturnValue,
) -> Result<DeleteItemInput> {
    let mut ctx = ExpressionContext::new();
    let (condition_expression, on_failure) = conditional.render(&mut ctx, first)?;
    let (expression_attribute_names, expression_attribute_values) = finish(ctx);
    Ok(DeleteItemInput {
        table_name: db.table_name::<M>(),
        key,
        condition_expression,
        expression_attribute_names,
        expression_attribute_values,
        return_values: (return_values != ReturnValue::None).then_some(return_values),
        return_values_on_condition_check_failure: on_failure,
    })
}
