//! [`SortKeyCondition`]: a condition that [`Query::range`](crate::Query::range) takes, typed so
//! that a range condition on an attribute that sorts nothing does not compile.

use std::fmt;
use std::ops::{BitAnd, BitOr, Not};

use crate::expression::Condition;

/// A comparison of a sort key: `eq`, `lt`, `le`, `gt`, `ge`, `between` or `begins_with` on the
/// handle of the table's range key, of an index's sort key or of a composite sort key (a handle
/// whose [role](crate::expression::role) sorts). It is what [`Query::range`](crate::Query::range)
/// takes, and it converts into a [`Condition`] wherever one is taken: filters, write conditions,
/// `&`, `|` and `!` (which give a plain [`Condition`], since DynamoDB allows neither `OR` nor `NOT`
/// in a key condition).
///
/// Which table or index the condition's attribute sorts is checked when the query runs: a
/// `db.query::<M>(..)` picks the table or the index sorted by it, and a query of one index
/// ([`Db::query_index`](crate::Db::query_index), [`Query::index`](crate::Query::index)) with
/// another index's sort key fails there, before anything is sent.
///
/// ```
/// use dynomodel::{Condition, Model, SortKeyCondition};
/// use dynomodel::expression::ExpressionContext;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Tweet {
///     #[hash_key] userid: String,
///     #[range_key] id: String,
///     #[index(all = "by-likes")] likes: i64,
///     text: String,
/// }
///
/// let recent: SortKeyCondition<Tweet> = Tweet::id().ge("2026-");
/// // Also a filter or a write condition, alone or combined.
/// let popular: Condition<Tweet> = Tweet::likes().gt(10) & Tweet::text().contains("rust");
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(ctx.condition(&recent)?, "#n0 >= :v0");
/// assert_eq!(ctx.condition(&popular)?, "#n1 > :v1 AND contains(#n2, :v2)");
/// # Ok::<(), dynomodel::Error>(())
/// ```
///
/// A comparison of an attribute that sorts nothing is a plain [`Condition`], which `.range(..)`
/// does not take:
///
/// ```compile_fail,E0277
/// # use dynomodel::{Db, Model};
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
/// # async fn run(db: Db) {
/// let _ = db.query::<Tweet>("abc").range(Tweet::text().eq("hello")); // use .filter(..)
/// # }
/// ```
pub struct SortKeyCondition<M> {
    condition: Condition<M>,
}

impl<M> SortKeyCondition<M> {
    /// Types a comparison built on a sort key's handle (the roles call this).
    pub(crate) fn new(condition: Condition<M>) -> Self {
        SortKeyCondition { condition }
    }

    /// The condition, untyped as to keys.
    pub fn into_condition(self) -> Condition<M> {
        self.condition
    }

    /// Both conditions hold (a filter or a write condition, no longer a sort-key condition).
    ///
    /// ```
    /// # use dynomodel::Model;
    /// # use dynomodel::expression::ExpressionContext;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// let mut ctx = ExpressionContext::new();
    /// let c = Tweet::id().ge("a").and(Tweet::text().eq("x"));
    /// assert_eq!(ctx.condition(&c)?, "#n0 >= :v0 AND #n1 = :v1");
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn and(self, other: impl Into<Condition<M>>) -> Condition<M> {
        self.condition.and(other)
    }

    /// Either condition holds; see [`Condition::or`].
    pub fn or(self, other: impl Into<Condition<M>>) -> Condition<M> {
        self.condition.or(other)
    }

    /// The condition does not hold; see [`Condition::not`].
    #[allow(clippy::should_implement_trait)] // `Not` is implemented too, as on `Condition`.
    pub fn not(self) -> Condition<M> {
        self.condition.not()
    }
}

impl<M> From<SortKeyCondition<M>> for Condition<M> {
    fn from(condition: SortKeyCondition<M>) -> Self {
        condition.condition
    }
}

impl<M> AsRef<Condition<M>> for SortKeyCondition<M> {
    fn as_ref(&self) -> &Condition<M> {
        &self.condition
    }
}

impl<M> Clone for SortKeyCondition<M> {
    fn clone(&self) -> Self {
        SortKeyCondition::new(self.condition.clone())
    }
}

impl<M> fmt::Debug for SortKeyCondition<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.condition.fmt(f)
    }
}

impl<M, C: Into<Condition<M>>> BitAnd<C> for SortKeyCondition<M> {
    type Output = Condition<M>;

    fn bitand(self, other: C) -> Condition<M> {
        self.and(other)
    }
}

impl<M, C: Into<Condition<M>>> BitOr<C> for SortKeyCondition<M> {
    type Output = Condition<M>;

    fn bitor(self, other: C) -> Condition<M> {
        self.or(other)
    }
}

impl<M> Not for SortKeyCondition<M> {
    type Output = Condition<M>;

    fn not(self) -> Condition<M> {
        self.condition.not()
    }
}

/// What [`Query::range`](crate::Query::range) takes: a [`SortKeyCondition`]. A [`Condition`] is not
/// one: it compares an attribute that sorts no table or index, uses an operator a key condition
/// cannot (`<>`, `contains`, `OR`, ...), or names a [`Path`](crate::Path).
#[diagnostic::on_unimplemented(
    message = "`.range(..)` takes a comparison of a sort key, and `{Self}` is not one",
    label = "not `eq`, `lt`, `le`, `gt`, `ge`, `between` or `begins_with` of a table's or an index's sort key",
    note = "a sort key is the table's `#[range_key]`, a field an index is sorted by (`#[index(..)]`, `range = ..`) or a composite sort key",
    note = "a condition on any other attribute is a filter: `.filter(..)`"
)]
pub trait IntoSortKeyCondition<M> {
    /// The sort-key condition.
    fn into_sort_key_condition(self) -> SortKeyCondition<M>;
}

impl<M> IntoSortKeyCondition<M> for SortKeyCondition<M> {
    fn into_sort_key_condition(self) -> SortKeyCondition<M> {
        self
    }
}
