//! The compile-time roles of field handles: whether an update may write the attribute, and whether
//! its comparisons are sort-key conditions that [`Query::range`](crate::Query::range) takes.
//!
//! A [`Field<M, T, R>`](crate::Field) carries its role `R`, chosen by `#[derive(Model)]` from the
//! model's keys and indexes. The two properties are independent (a table's hash key may also sort
//! a global index), so there are four roles:
//!
//! | role | the field is | update actions | comparisons give |
//! |---|---|---|---|
//! | [`Attr`] (the default) | no table key and no index sort key (an index's partition key included) | yes | [`Condition`] |
//! | [`Sort`] | the sort key of a secondary index, no table key | yes | [`SortKeyCondition`] |
//! | [`Key`] | a table key that sorts nothing: the hash key | no | [`Condition`] |
//! | [`KeySort`] | a table key that sorts the table or an index: the range key, or a hash key that sorts an index; also [`Index::range_field`](crate::Index::range_field) | no | [`SortKeyCondition`] |
//!
//! "Update actions" are `set`, `remove`, `add`, `delete`, `incr`, `decr`, `append`, `prepend` and
//! `set_if_not_exists` of [`UpdateItem`](crate::UpdateItem), a transaction's update, [`Update`]
//! and [`Db::incr`](crate::Db::incr): they take an [`UpdateTarget`], which a handle is only when its
//! role is [`Updatable`]. "Comparisons" are `eq`, `lt`, `le`, `gt`, `ge`, `between` and
//! `begins_with`, the only operators DynamoDB allows on a sort key; every other condition
//! (`ne`, `exists`, `contains`, ...) is a plain [`Condition`] whatever the role, and so is any
//! condition on a [`Path`](crate::Path).
//!
//! Conditions on keys work as on any attribute (`Tweet::userid().exists()`), and a
//! [`SortKeyCondition`] is accepted wherever a [`Condition`] is (filters, write conditions, `&`,
//! `|`, `!`).
//!
//! ```
//! use dynomodel::{Field, Model, SortKeyCondition};
//! use dynomodel::expression::role;
//!
//! #[derive(Model, Debug, Clone, PartialEq)]
//! #[global_index(all("by-city", hash = city, range = userid))]
//! struct Tweet {
//!     #[hash_key] userid: String,
//!     #[range_key] id: String,
//!     city: String,
//!     #[index(all = "by-likes")] likes: i64,
//!     text: String,
//! }
//!
//! let _: Field<Tweet, String, role::KeySort> = Tweet::userid(); // a key, and sorts "by-city"
//! let _: Field<Tweet, String, role::KeySort> = Tweet::id();
//! let _: Field<Tweet, i64, role::Sort> = Tweet::likes();
//! let _: Field<Tweet, String> = Tweet::city(); // role::Attr: an index's partition key is no sort key
//! let _: SortKeyCondition<Tweet> = Tweet::likes().ge(10);
//! ```
//!
//! [`Update`]: crate::Update
//! [`UpdateTarget`]: crate::expression::UpdateTarget

use crate::expression::{Condition, SortKeyCondition};

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Attr {}
    impl Sealed for super::Sort {}
    impl Sealed for super::Key {}
    impl Sealed for super::KeySort {}
}

/// The role of a handle: one of [`Attr`], [`Sort`], [`Key`], [`KeySort`] (see the [module](self)).
/// Sealed: the four roles are all there is.
pub trait Role: sealed::Sealed + Send + Sync + 'static {
    /// What the sort-key comparisons (`eq`, `lt`, `le`, `gt`, `ge`, `between`, `begins_with`) of a
    /// handle of this role give: a [`SortKeyCondition`] for a sort key, else a [`Condition`].
    type Comparison<M>: Into<Condition<M>>;

    /// Types a comparison built on a handle of this role.
    #[doc(hidden)]
    fn comparison<M>(condition: Condition<M>) -> Self::Comparison<M>;
}

/// An attribute that is no table key and sorts no index: updatable, comparisons are
/// [`Condition`]s. The role of every handle unless the derive says otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Attr;

/// The sort key of a secondary index that is no table key: updatable, comparisons are
/// [`SortKeyCondition`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Sort;

/// A table key that sorts nothing (the hash key, unless an index is sorted by it): not updatable,
/// comparisons are [`Condition`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Key;

/// A table key that sorts the table or an index (the range key, or a hash key that an index is
/// sorted by), and the handle [`Index::range_field`](crate::Index::range_field) gives: not
/// updatable, comparisons are [`SortKeyCondition`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct KeySort;

/// The roles whose handles update actions take: [`Attr`] and [`Sort`]. DynamoDB refuses an update
/// of a key attribute; with typed handles it does not compile.
///
/// ```compile_fail,E0277
/// use dynomodel::{Model, Update};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Thread { #[hash_key] forum_name: String, #[range_key] subject: String, views: u64 }
///
/// let _ = Update::<Thread>::new().set(Thread::subject(), "renamed"); // a key: no update
/// ```
#[diagnostic::on_unimplemented(
    message = "an update cannot change a key attribute of the table",
    label = "this handle names the table's hash or range key",
    note = "DynamoDB refuses to update a key: to change it, put the item under its new key and delete the old one (in one transaction)"
)]
pub trait Updatable: Role {}

impl Updatable for Attr {}
impl Updatable for Sort {}

impl Role for Attr {
    type Comparison<M> = Condition<M>;

    fn comparison<M>(condition: Condition<M>) -> Condition<M> {
        condition
    }
}

impl Role for Key {
    type Comparison<M> = Condition<M>;

    fn comparison<M>(condition: Condition<M>) -> Condition<M> {
        condition
    }
}

impl Role for Sort {
    type Comparison<M> = SortKeyCondition<M>;

    fn comparison<M>(condition: Condition<M>) -> SortKeyCondition<M> {
        SortKeyCondition::new(condition)
    }
}

impl Role for KeySort {
    type Comparison<M> = SortKeyCondition<M>;

    fn comparison<M>(condition: Condition<M>) -> SortKeyCondition<M> {
        SortKeyCondition::new(condition)
    }
}
