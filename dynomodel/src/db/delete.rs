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
/// ```no_run
/// # use dynomodel::{Db, Model};
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
/// # async fn demo(db: &Db, tweet: Tweet) -> dynomodel::Result<()> {
/// db.delete(&tweet).condition(Tweet::likes().lt(10)).await?;
/// db.delete(&tweet).atomic().await?;
/// # Ok(()) }
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
    pub fn condition(mut self, condition: Condition<M>) -> Self {
        self.conditional.and(condition);
        self
    }

    /// Deletes only if every attribute of the item in memory is stored with the same value (which
    /// implies the item exists). Attributes stored but absent in memory (a `None` field someone
    /// else has since set) are not checked: the mapper knows what the value stores, not what it
    /// might. Joined with `AND` to any other condition.
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
/// ```no_run
/// # use dynomodel::{Db, Model};
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
/// # async fn demo(db: &Db) -> dynomodel::Result<()> {
/// let gone: Option<Tweet> = db.delete_key::<Tweet>(("abc", "1")).condition(Tweet::likes().eq(0)).await?;
/// db.delete_key::<Tweet>(("abc", "2")).without_old().await?;
/// # Ok(()) }
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
