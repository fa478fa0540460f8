//! The operations on paths: navigation (`key`, `index`, `then`) and conditions (`eq`, `between`,
//! `begins_with`, `size`...), as inherent methods of both [`Field`] and [`Path`].
//!
//! They are inherent rather than provided methods of a trait so that `Tweet::likes().ge(10)` works
//! with nothing but the model in scope (no prelude import, and no clash with another trait's `eq` or
//! `contains` in scope). One macro writes them for both types so the two cannot drift apart; generic
//! code over "a field or a path" takes [`IntoPath`].
//!
//! The comparisons a sort key allows (`eq`, `lt`, `le`, `gt`, `ge`, `between`, `begins_with`) give
//! what the handle's [role](crate::expression::role) says: a
//! [`SortKeyCondition`](crate::SortKeyCondition) on a sort key's [`Field`], else a [`Condition`]
//! (always on a [`Path`]).

use crate::convert::Attribute;
use crate::expression::condition::{AttributeType, Comparator, Condition, Node, Operand, Size};
use crate::expression::path::{Embeds, IntoPath, ListValue, MapValue, Path, PathElement};
use crate::expression::role::Role;
use crate::expression::value::{operand, Contains, FieldValue, IntoValue, Ordered, Prefix};
use crate::model::Field;

/// Converts `value` into a comparison operand for `path` (errors are kept for the renderer).
fn value_operand<V: Attribute>(value: V, path: &[PathElement], operation: &str) -> Operand {
    Operand::Value(operand(&value, path, operation))
}

fn compare<M, V: Attribute>(path: Vec<PathElement>, op: Comparator, value: V) -> Condition<M> {
    let right = value_operand(value, &path, "a comparison");
    Condition::from_node(Node::Compare(Operand::Path(path), op, right))
}

fn function<M>(name: &'static str, path: Vec<PathElement>, arg: Option<Operand>) -> Condition<M> {
    Condition::from_node(Node::Function(name, path, arg))
}

/// `$comparison` is what the sort-key comparisons give (`$typed` makes one from a [`Condition`]):
/// the role's choice on a [`Field`], always a [`Condition`] on a [`Path`] (a key condition names a
/// top-level attribute, and paths are also how a key is named deliberately).
macro_rules! path_operations {
    (impl<$($generic:ident $(: $bound:path)?),+> $handle:ty, $comparison:ty, $typed:expr) => {
        impl<$($generic $(: $bound)?),+> $handle {
            /// The value under `key` in this map attribute: `path.key`.
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// assert_eq!(ctx.condition(&Tweet::meta().key("lang").eq("fr"))?, "#n0.#n1 = :v0");
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn key(self, key: impl Into<String>) -> Path<M, T::Value>
            where
                T: MapValue,
            {
                self.into_path().push(PathElement::Name(key.into()))
            }

            /// The element at `index` of this list attribute: `path[index]`.
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// assert_eq!(ctx.condition(&Tweet::history().index(0).eq("first"))?, "#n0[0] = :v0");
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn index(self, index: usize) -> Path<M, T::Element>
            where
                T: ListValue,
            {
                self.into_path().push(PathElement::Index(index))
            }

            /// Continues into an embedded document `D`: `User::address().then(Address::city())` is
            /// `address.city`, typed as the inner field.
            ///
            /// ```
            /// use dynomodel::{Document, Model};
            /// use dynomodel::expression::ExpressionContext;
            ///
            /// #[derive(Document, Debug, Clone, PartialEq)]
            /// struct Address { city: String, zip: Option<String> }
            ///
            /// #[derive(Model, Debug, Clone, PartialEq)]
            /// struct User { #[hash_key] id: String, address: Option<Address> }
            ///
            /// let in_paris = User::address().then(Address::city()).eq("Paris");
            /// let mut ctx = ExpressionContext::new();
            /// assert_eq!(ctx.condition(&in_paris)?, "#n0.#n1 = :v0");
            /// assert_eq!(ctx.finish().0["#n1"], "city");
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn then<D, U>(self, inner: impl IntoPath<D, U>) -> Path<M, U>
            where
                T: Embeds<D>,
            {
                self.into_path().join(inner.into_path().into_elements())
            }

            /// `path = value`.
            ///
            /// On the handle of a sort key ([role](crate::expression::role) `Sort` or `KeySort`),
            /// this and `lt`, `le`, `gt`, `ge`, `between` and `begins_with` give a
            /// [`SortKeyCondition`](crate::SortKeyCondition), which `.range(..)` takes; else a
            /// [`Condition`].
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// // `ne` (<>), `lt` (<), `le` (<=), `gt` (>) and `ge` (>=) are alike; only ordered types
            /// // (numbers, strings, binaries) have the last four.
            /// assert_eq!(ctx.condition(&Tweet::likes().eq(10))?, "#n0 = :v0");
            /// assert_eq!(ctx.condition(&Tweet::text().ge("m"))?, "#n1 >= :v1");
            /// // An optional field compares with its inner type.
            /// assert_eq!(ctx.condition(&Tweet::nick().ne("ada"))?, "#n2 <> :v2");
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn eq(self, value: impl IntoValue<T::Value>) -> $comparison
            where
                T: FieldValue,
                T::Value: Attribute,
            {
                $typed(compare(
                    self.into_path().into_elements(),
                    Comparator::Eq,
                    value.into_value(),
                ))
            }

            /// `path <> value` (also true when the attribute is missing).
            pub fn ne(self, value: impl IntoValue<T::Value>) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Attribute,
            {
                compare(
                    self.into_path().into_elements(),
                    Comparator::Ne,
                    value.into_value(),
                )
            }

            /// `path < value`.
            pub fn lt(self, value: impl IntoValue<T::Value>) -> $comparison
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                $typed(compare(
                    self.into_path().into_elements(),
                    Comparator::Lt,
                    value.into_value(),
                ))
            }

            /// `path <= value`.
            pub fn le(self, value: impl IntoValue<T::Value>) -> $comparison
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                $typed(compare(
                    self.into_path().into_elements(),
                    Comparator::Le,
                    value.into_value(),
                ))
            }

            /// `path > value`.
            pub fn gt(self, value: impl IntoValue<T::Value>) -> $comparison
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                $typed(compare(
                    self.into_path().into_elements(),
                    Comparator::Gt,
                    value.into_value(),
                ))
            }

            /// `path >= value`.
            pub fn ge(self, value: impl IntoValue<T::Value>) -> $comparison
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                $typed(compare(
                    self.into_path().into_elements(),
                    Comparator::Ge,
                    value.into_value(),
                ))
            }

            /// `path BETWEEN low AND high` (inclusive).
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// assert_eq!(ctx.condition(&Tweet::likes().between(10, 20))?, "#n0 BETWEEN :v0 AND :v1");
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn between(
                self,
                low: impl IntoValue<T::Value>,
                high: impl IntoValue<T::Value>,
            ) -> $comparison
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                let path = self.into_path().into_elements();
                let low = value_operand(low.into_value(), &path, "BETWEEN");
                let high = value_operand(high.into_value(), &path, "BETWEEN");
                $typed(Condition::from_node(Node::Between(Operand::Path(path), low, high)))
            }

            /// `path IN (v1, v2, ...)`. DynamoDB takes 1 to 100 operands; another count is an
            /// error when the request is rendered.
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// assert_eq!(ctx.condition(&Tweet::likes().is_in([1, 2, 3]))?, "#n0 IN (:v0, :v1, :v2)");
            /// assert!(ctx.condition(&Tweet::likes().is_in(Vec::<i64>::new())).is_err());
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn is_in<V>(self, values: impl IntoIterator<Item = V>) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Attribute,
                V: IntoValue<T::Value>,
            {
                let path = self.into_path().into_elements();
                let list = values
                    .into_iter()
                    .map(|v| value_operand(v.into_value(), &path, "IN"))
                    .collect();
                Condition::from_node(Node::In(Operand::Path(path), list))
            }

            /// `attribute_exists(path)`.
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// // `not_exists` is the opposite: `attribute_not_exists(path)`.
            /// assert_eq!(ctx.condition(&Tweet::nick().exists())?, "attribute_exists(#n0)");
            /// assert_eq!(ctx.condition(&Tweet::nick().not_exists())?, "attribute_not_exists(#n0)");
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn exists(self) -> Condition<M> {
                function("attribute_exists", self.into_path().into_elements(), None)
            }

            /// `attribute_not_exists(path)`.
            pub fn not_exists(self) -> Condition<M> {
                function(
                    "attribute_not_exists",
                    self.into_path().into_elements(),
                    None,
                )
            }

            /// `attribute_type(path, :t)`: the attribute exists with DynamoDB type `ty`.
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// let condition = Tweet::meta().attribute_type(AttributeType::M);
            /// assert_eq!(ctx.condition(&condition)?, "attribute_type(#n0, :v0)");
            /// assert_eq!(ctx.finish().1[":v0"].as_s(), Some("M"));
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn attribute_type(self, ty: AttributeType) -> Condition<M> {
                let path = self.into_path().into_elements();
                function("attribute_type", path, Some(ty.operand()))
            }

            /// `begins_with(path, prefix)`, for string (and binary) attributes only.
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// assert_eq!(ctx.condition(&Tweet::text().begins_with("RT "))?, "begins_with(#n0, :v0)");
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn begins_with(self, prefix: impl IntoValue<T::Value>) -> $comparison
            where
                T: FieldValue,
                T::Value: Attribute + Prefix,
            {
                let path = self.into_path().into_elements();
                let prefix = value_operand(prefix.into_value(), &path, "begins_with");
                $typed(function("begins_with", path, Some(prefix)))
            }

            /// `contains(path, operand)`: a substring of a string, an element of a set or of a list.
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// assert_eq!(ctx.condition(&Tweet::text().contains("rust"))?, "contains(#n0, :v0)");
            /// // For a set or a list, the operand is one element.
            /// assert_eq!(ctx.condition(&Tweet::tags().contains("db"))?, "contains(#n1, :v1)");
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn contains(
                self,
                element: impl IntoValue<<T::Value as Contains>::Element>,
            ) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Contains,
                <T::Value as Contains>::Element: Attribute,
            {
                let path = self.into_path().into_elements();
                let element = value_operand(element.into_value(), &path, "contains");
                function("contains", path, Some(element))
            }

            /// `size(path)`, compared with integers: `Tweet::tags().size().gt(2)`.
            ///
            /// ```
            /// # use std::collections::{BTreeMap, BTreeSet};
            /// # use dynomodel::Field;
            /// # use dynomodel::expression::{AttributeType, ExpressionContext};
            /// # struct Tweet;
            /// # impl Tweet {
            /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
            /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
            /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
            /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
            /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
            /// #     fn meta() -> Field<Tweet, BTreeMap<String, String>> { Field::new("meta") }
            /// # }
            /// let mut ctx = ExpressionContext::new();
            /// assert_eq!(ctx.condition(&Tweet::tags().size().gt(2))?, "size(#n0) > :v0");
            /// # Ok::<(), dynomodel::Error>(())
            /// ```
            pub fn size(self) -> Size<M> {
                Size::new(self.into_path().into_elements())
            }
        }
    };
}

path_operations!(impl<M, T, R: Role> Field<M, T, R>, R::Comparison<M>, R::comparison);
path_operations!(impl<M, T> Path<M, T>, Condition<M>, std::convert::identity);
