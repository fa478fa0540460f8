//! Typed expressions: conditions, updates, projections and sort-key conditions, and the traits that
//! say which values and operators each field takes.
//!
//! Field handles ([`Field`](crate::Field)) and [`Path`]s build [`Condition`]s, [`Update`]s,
//! [`SortKeyCondition`]s and [`ProjectionExpression`]s typed by model and by value; those five are
//! what an application writes in its own signatures, and the crate root re-exports them. The rest
//! of this module is what the builders' signatures are made of:
//!
//! - **Operand traits**, implemented for the Rust types an attribute may have: [`FieldValue`] (the
//!   value a field compares and stores) and [`IntoValue`] (what an operator accepts for it);
//!   markers for the operators a type allows: [`Ordered`] (`<`, `between`), [`Numeric`] (`+`,
//!   `-`), [`Prefix`] (`begins_with`), [`Contains`], [`SetValue`] and [`Addable`] (`ADD`,
//!   `DELETE`), [`MapValue`], [`ListValue`] and [`Embeds`] (nested paths). A type of your own gets
//!   the ones that fit from `#[derive(Attribute)]` or `#[derive(Document)]`.
//! - **Roles** ([`role`]): what the key schema allows a handle, checked at compile time. Update
//!   actions take an [`UpdateTarget`], which a handle is only when it is no table key;
//!   [`Query::range`](crate::Query::range) takes an [`IntoSortKeyCondition`].
//! - **Rendering** for raw requests: an [`ExpressionContext`] renders the expressions of one
//!   request to DynamoDB's text form plus `ExpressionAttributeNames` and
//!   `ExpressionAttributeValues`. Every name is aliased (`#n0`), every value is a placeholder
//!   (`:v0`), and one allocator serves all the expressions of a request, so placeholders never
//!   collide and none is unused.
//!
//! ```
//! use std::collections::BTreeSet;
//! use dynomodel::{Field, Update};
//! use dynomodel::expression::ExpressionContext;
//!
//! struct Tweet;
//! impl Tweet {
//!     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
//!     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
//! }
//!
//! let condition = Tweet::likes().ge(10) & Tweet::tags().contains("rust");
//! let update = Update::new().add(Tweet::likes(), 1);
//!
//! let mut ctx = ExpressionContext::new();
//! assert_eq!(ctx.condition(&condition)?, "#n0 >= :v0 AND contains(#n1, :v1)");
//! assert_eq!(ctx.update(&update)?.as_deref(), Some("ADD #n0 :v2"));
//! let (names, values) = ctx.finish();
//! assert_eq!(names.len(), 2);
//! assert_eq!(values.len(), 3);
//! # Ok::<(), dynomodel::Error>(())
//! ```
//!
//! Values are checked against the field's type at compile time:
//!
//! ```compile_fail,E0277
//! use dynomodel::Field;
//! struct Tweet;
//! impl Tweet { fn likes() -> Field<Tweet, i64> { Field::new("likes") } }
//! let _ = Tweet::likes().eq("text"); // a number field does not take a string
//! ```
//!
//! ```compile_fail,E0277
//! use dynomodel::Field;
//! struct Tweet;
//! impl Tweet { fn likes() -> Field<Tweet, i64> { Field::new("likes") } }
//! let _ = Tweet::likes().begins_with(1); // begins_with is for strings and binaries
//! ```
//!
//! ```compile_fail,E0308
//! use dynomodel::Field;
//! struct Tweet;
//! struct User;
//! impl Tweet { fn likes() -> Field<Tweet, i64> { Field::new("likes") } }
//! impl User { fn name() -> Field<User, String> { Field::new("name") } }
//! let _ = Tweet::likes().ge(1) & User::name().eq("x"); // conditions of two models do not mix
//! ```
//!
//! ```compile_fail,E0599
//! use dynomodel::Field;
//! struct Tweet;
//! impl Tweet { fn text() -> Field<Tweet, String> { Field::new("text") } }
//! let _ = Tweet::text().key("a"); // a string is not a map
//! ```
//!
//! ```compile_fail,E0277
//! use dynomodel::{Field, Update};
//! struct Tweet;
//! impl Tweet { fn text() -> Field<Tweet, String> { Field::new("text") } }
//! let _ = Update::new().add(Tweet::text(), "x"); // ADD takes numbers and sets
//! ```
//!
//! ```compile_fail,E0277
//! use dynomodel::Field;
//! struct Tweet;
//! impl Tweet { fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") } }
//! let _ = Tweet::nick().eq(None); // compare with a value; test absence with not_exists()
//! ```

pub(crate) mod condition;
mod context;
mod ops;
pub(crate) mod path;
mod projection;
pub mod role;
mod sort_key;
mod update;
mod value;

#[cfg(test)]
pub(crate) mod tests;

pub use condition::{AttributeType, Condition, Size, MAX_IN_OPERANDS};
pub use context::{ExpressionContext, MAX_EXPRESSION_SIZE};
pub use path::{Embeds, IntoPath, ListValue, MapValue, Path, PathElement, UpdateTarget};
pub use projection::{IntoProjection, ProjectionExpression};
pub use sort_key::{IntoSortKeyCondition, SortKeyCondition};
pub use update::{Addable, Update};
pub use value::{Contains, FieldValue, IntoValue, Numeric, Ordered, Prefix, SetValue};
