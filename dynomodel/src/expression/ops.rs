//! The operations on paths: navigation (`key`, `index`, `then`) and conditions (`eq`, `between`,
//! `begins_with`, `size`...), as inherent methods of both [`Field`] and [`Path`].
//!
//! They are inherent rather than provided methods of a trait so that `Tweet::likes().ge(10)` works
//! with nothing but the model in scope (no prelude import, and no clash with another trait's `eq` or
//! `contains` in scope). One macro writes them for both types so the two cannot drift apart; generic
//! code over "a field or a path" takes [`IntoPath`].

use crate::convert::Attribute;
use crate::expression::condition::{AttributeType, Comparator, Condition, Node, Operand, Size};
use crate::expression::path::{Embeds, IntoPath, ListValue, MapValue, Path, PathElement};
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

macro_rules! path_operations {
    ($handle:ident) => {
        impl<M, T> $handle<M, T> {
            /// The value under `key` in this map attribute: `path.key`.
            pub fn key(self, key: impl Into<String>) -> Path<M, T::Value>
            where
                T: MapValue,
            {
                self.into_path().push(PathElement::Name(key.into()))
            }

            /// The element at `index` of this list attribute: `path[index]`.
            pub fn index(self, index: usize) -> Path<M, T::Element>
            where
                T: ListValue,
            {
                self.into_path().push(PathElement::Index(index))
            }

            /// Continues into an embedded document `D`: `User::address().then(Address::city())` is
            /// `address.city`, typed as the inner field.
            pub fn then<D, U>(self, inner: impl IntoPath<D, U>) -> Path<M, U>
            where
                T: Embeds<D>,
            {
                self.into_path().join(inner.into_path().into_elements())
            }

            /// `path = value`.
            pub fn eq(self, value: impl IntoValue<T::Value>) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Attribute,
            {
                compare(
                    self.into_path().into_elements(),
                    Comparator::Eq,
                    value.into_value(),
                )
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
            pub fn lt(self, value: impl IntoValue<T::Value>) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                compare(
                    self.into_path().into_elements(),
                    Comparator::Lt,
                    value.into_value(),
                )
            }

            /// `path <= value`.
            pub fn le(self, value: impl IntoValue<T::Value>) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                compare(
                    self.into_path().into_elements(),
                    Comparator::Le,
                    value.into_value(),
                )
            }

            /// `path > value`.
            pub fn gt(self, value: impl IntoValue<T::Value>) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                compare(
                    self.into_path().into_elements(),
                    Comparator::Gt,
                    value.into_value(),
                )
            }

            /// `path >= value`.
            pub fn ge(self, value: impl IntoValue<T::Value>) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                compare(
                    self.into_path().into_elements(),
                    Comparator::Ge,
                    value.into_value(),
                )
            }

            /// `path BETWEEN low AND high` (inclusive).
            pub fn between(
                self,
                low: impl IntoValue<T::Value>,
                high: impl IntoValue<T::Value>,
            ) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Attribute + Ordered,
            {
                let path = self.into_path().into_elements();
                let low = value_operand(low.into_value(), &path, "BETWEEN");
                let high = value_operand(high.into_value(), &path, "BETWEEN");
                Condition::from_node(Node::Between(Operand::Path(path), low, high))
            }

            /// `path IN (v1, v2, ...)`. DynamoDB takes 1 to 100 operands; another count is an
            /// error when the request is rendered.
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
            pub fn attribute_type(self, ty: AttributeType) -> Condition<M> {
                let path = self.into_path().into_elements();
                function("attribute_type", path, Some(ty.operand()))
            }

            /// `begins_with(path, prefix)`, for string (and binary) attributes only.
            pub fn begins_with(self, prefix: impl IntoValue<T::Value>) -> Condition<M>
            where
                T: FieldValue,
                T::Value: Attribute + Prefix,
            {
                let path = self.into_path().into_elements();
                let prefix = value_operand(prefix.into_value(), &path, "begins_with");
                function("begins_with", path, Some(prefix))
            }

            /// `contains(path, operand)`: a substring of a string, an element of a set or of a list.
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
            pub fn size(self) -> Size<M> {
                Size::new(self.into_path().into_elements())
            }
        }
    };
}

path_operations!(Field);
path_operations!(Path);
