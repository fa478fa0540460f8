//! [`Put`]: `PutItem` of one model value, optionally conditional, optionally returning the old item.

use std::future::IntoFuture;

use crate::backend::{PutItemInput, ReturnValue};
use crate::db::{finish, key_exists, Conditional, Db, DbFuture};
use crate::error::Result;
use crate::expression::{Condition, ExpressionContext};
use crate::model::Model;

/// A pending [`Db::put`]: create or replace an item. `.await` it, or finish with
/// [`returning_old`](Put::returning_old).
///
/// A failed condition is [`Error::ConditionalCheckFailed`](crate::Error::ConditionalCheckFailed),
/// carrying the stored item (decode it with [`Error::conditional_item`](crate::Error::conditional_item)).
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
    if_not_exists: bool,
    conditional: Conditional<M>,
}

impl<'a, M: Model> Put<'a, M> {
    pub(crate) fn new(db: &'a Db, item: &'a M) -> Self {
        Put {
            db,
            item,
            if_not_exists: false,
            conditional: Conditional::new(),
        }
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
    pub fn condition(mut self, condition: Condition<M>) -> Self {
        self.conditional.and(condition);
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
        self.if_not_exists = true;
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
        self.conditional.item_on_failure(yes);
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
        Box::pin(async move {
            let input = self.input(ReturnValue::AllOld)?;
            let output = self.db.backend.put_item(input).await?;
            Ok(output.attributes.map(M::from_item).transpose()?)
        })
    }

    /// The request, with every expression rendered through one context.
    pub(crate) fn input(&self, return_values: ReturnValue) -> Result<PutItemInput> {
        let key_check = match self.if_not_exists {
            true => Some(key_exists::<M>(false)?),
            false => None,
        };
        let mut ctx = ExpressionContext::new();
        let (condition_expression, on_failure) = self.conditional.render(&mut ctx, key_check)?;
        let (expression_attribute_names, expression_attribute_values) = finish(ctx);
        Ok(PutItemInput {
            table_name: self.db.table_name::<M>(),
            item: self.item.to_item()?,
            condition_expression,
            expression_attribute_names,
            expression_attribute_values,
            return_values: (return_values != ReturnValue::None).then_some(return_values),
            return_values_on_condition_check_failure: on_failure,
        })
    }
}

impl<'a, M: Model> IntoFuture for Put<'a, M> {
    type Output = Result<()>;
    type IntoFuture = DbFuture<'a, ()>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let input = self.input(ReturnValue::None)?;
            self.db.backend.put_item(input).await.map(drop)
        })
    }
}
