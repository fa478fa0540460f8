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
/// ```no_run
/// # use dynomodel::{Db, Model};
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
/// # async fn demo(db: &Db, tweet: Tweet) -> dynomodel::Result<()> {
/// // Create only: fails if a tweet with this key exists, and says which.
/// match db.put(&tweet).if_not_exists().await {
///     Ok(()) => {}
///     Err(e) if e.is_conditional_check_failed() => {
///         let existing: Option<Tweet> = e.conditional_item()?;
///         println!("already there: {existing:?}");
///     }
///     Err(e) => return Err(e),
/// }
/// // Replace, but only a less-liked version, and get the replaced one back.
/// let old: Option<Tweet> = db
///     .put(&tweet)
///     .condition(Tweet::likes().le(tweet.likes))
///     .returning_old()
///     .await?;
/// # Ok(()) }
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
    pub fn condition(mut self, condition: Condition<M>) -> Self {
        self.conditional.and(condition);
        self
    }

    /// Creates only: `attribute_not_exists(<hash key>)`, which holds exactly when no item has
    /// this key (every stored item has its hash key). Joined with `AND` to any other condition.
    pub fn if_not_exists(mut self) -> Self {
        self.if_not_exists = true;
        self
    }

    /// Whether a failed condition brings back the stored item (`ReturnValuesOnConditionCheckFailure`,
    /// on by default for conditional writes; it costs no capacity, only bandwidth).
    pub fn item_on_failure(mut self, yes: bool) -> Self {
        self.conditional.item_on_failure(yes);
        self
    }

    /// Finishes the request with `ReturnValues=ALL_OLD`: the replaced item, if there was one.
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
