//! Typed document paths: an attribute name followed by map keys and list indexes.
//!
//! A [`Field`] names one top-level attribute and is `Copy`; a [`Path`] is the general case
//! (`address.city`, `tags[2]`, `scores.math[0]`) and owns its elements. Both carry the model `M` the
//! path belongs to and the Rust type `T` found at its end, so that values and operations are checked
//! at compile time. Navigation is typed by small traits on `T`: [`MapValue`] for `.key(..)`,
//! [`ListValue`] for `.index(..)` and [`Embeds`] for `.then(..)` into an embedded document.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::marker::PhantomData;

use crate::expression::role::Updatable;
use crate::model::Field;

/// One step of a document path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathElement {
    /// An attribute name or a map key (DynamoDB does not distinguish them in a path).
    Name(String),
    /// A list index, rendered `[i]`.
    Index(usize),
}

/// A typed path into items of model `M`, ending at a value of type `T`.
///
/// Built from a [`Field`] with `.key(..)`, `.index(..)` or `.then(..)`, or with [`Path::from`]; it
/// offers the same condition operations as a field (`eq`, `exists`, `size`, ...).
///
/// ```
/// use std::collections::BTreeMap;
/// use dynomodel::{Field, Path};
///
/// struct Player;
/// impl Player {
///     fn scores() -> Field<Player, BTreeMap<String, Vec<i64>>> { Field::new("scores") }
/// }
///
/// let path: Path<Player, i64> = Player::scores().key("math").index(2);
/// assert_eq!(path.to_string(), "scores.math[2]");
/// ```
pub struct Path<M, T> {
    elements: Vec<PathElement>,
    // `fn() -> (M, T)` keeps `Path` Send + Sync and covariant whatever `M` and `T` are: it holds no `M`.
    _marker: PhantomData<fn() -> (M, T)>,
}

impl<M, T> Path<M, T> {
    /// A path from its elements; the first must be an attribute name for DynamoDB to accept it.
    ///
    /// Prefer navigating from a [`Field`]; this is the escape hatch for generated code.
    ///
    /// ```
    /// use dynomodel::Path;
    /// use dynomodel::expression::PathElement;
    /// let p: Path<(), String> = Path::from_elements(vec![PathElement::Name("a".into())]);
    /// assert_eq!(p.to_string(), "a");
    /// ```
    pub fn from_elements(elements: Vec<PathElement>) -> Self {
        Path {
            elements,
            _marker: PhantomData,
        }
    }

    /// The path's elements, outermost first.
    ///
    /// ```
    /// use dynomodel::{Field, Path};
    /// use dynomodel::expression::PathElement;
    /// let p: Path<(), Vec<i64>> = Field::new("list").into();
    /// assert_eq!(p.elements(), &[PathElement::Name("list".into())]);
    /// ```
    pub fn elements(&self) -> &[PathElement] {
        &self.elements
    }

    /// Extends the path by one element, retyping its end.
    pub(crate) fn push<U>(mut self, element: PathElement) -> Path<M, U> {
        self.elements.push(element);
        Path::from_elements(self.elements)
    }

    /// Extends the path by another path's elements, retyping its end.
    pub(crate) fn join<U>(mut self, rest: Vec<PathElement>) -> Path<M, U> {
        self.elements.extend(rest);
        Path::from_elements(self.elements)
    }

    /// Drops the types: what the renderers work on.
    pub(crate) fn into_elements(self) -> Vec<PathElement> {
        self.elements
    }
}

impl<M, T> Clone for Path<M, T> {
    fn clone(&self) -> Self {
        Path::from_elements(self.elements.clone())
    }
}

impl<M, T> fmt::Debug for Path<M, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path({self})")
    }
}

/// The document path as a user would write it: `address.city`, `tags[2]` (used in error messages).
impl<M, T> fmt::Display for Path<M, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&display_elements(&self.elements))
    }
}

/// A path from any handle, a key's included: the raw form that update actions take without
/// looking at roles (see [`UpdateTarget`]), e.g. to send DynamoDB a request it will refuse.
impl<M, T, R> From<Field<M, T, R>> for Path<M, T> {
    fn from(field: Field<M, T, R>) -> Self {
        Path::from_elements(vec![PathElement::Name(field.name().to_owned())])
    }
}

/// Writes elements as `a.b[2]`, the form DynamoDB and [`crate::ConversionError`] use.
pub(crate) fn display_elements(elements: &[PathElement]) -> String {
    let mut out = String::new();
    for element in elements {
        match element {
            PathElement::Name(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            PathElement::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    out
}

/// Anything that names a path of model `M` ending at a `T`: a [`Field`] of any
/// [role](crate::expression::role) or a [`Path`].
///
/// What reads take (projections, [`Partial::get`](crate::Partial::get), `.then(..)`), so either
/// can be passed; update actions take the narrower [`UpdateTarget`].
///
/// ```
/// use dynomodel::Field;
/// use dynomodel::expression::IntoPath;
/// let p = Field::<(), i64>::new("likes").into_path();
/// assert_eq!(p.to_string(), "likes");
/// ```
pub trait IntoPath<M, T> {
    /// The path.
    fn into_path(self) -> Path<M, T>;
}

impl<M, T, R> IntoPath<M, T> for Field<M, T, R> {
    fn into_path(self) -> Path<M, T> {
        self.into()
    }
}

impl<M, T> IntoPath<M, T> for Path<M, T> {
    fn into_path(self) -> Path<M, T> {
        self
    }
}

impl<M, T> IntoPath<M, T> for &Path<M, T> {
    fn into_path(self) -> Path<M, T> {
        self.clone()
    }
}

/// A path an update action may write: a [`Field`] whose [role](crate::expression::role) is
/// [`Updatable`](crate::expression::role::Updatable) (no table key), or a [`Path`].
///
/// The derive gives the table's key fields roles that are not updatable, so an update of a key,
/// which DynamoDB refuses, does not compile. Paths navigate from handles into maps, lists and
/// documents, which a key never is; a [`Path`] made from a key's handle with [`Path::from`] is
/// the deliberate way to send such an update anyway (DynamoDB then answers with a
/// `ValidationException`).
///
/// ```
/// use dynomodel::{Model, Path, Update};
/// use dynomodel::expression::ExpressionContext;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Thread { #[hash_key] forum_name: String, #[range_key] subject: String, views: u64 }
///
/// let update = Update::<Thread>::new().add(Thread::views(), 1);
/// // Thread::subject() is a key: `.set(Thread::subject(), ..)` does not compile. A raw path does.
/// let refused_by_dynamodb = Update::<Thread>::new().set(Path::from(Thread::subject()), "renamed");
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(ctx.update(&update)?.as_deref(), Some("ADD #n0 :v0"));
/// assert_eq!(ctx.update(&refused_by_dynamodb)?.as_deref(), Some("SET #n1 = :v1"));
/// # Ok::<(), dynomodel::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a path an update may write",
    label = "an update action takes an attribute's handle or a path"
)]
pub trait UpdateTarget<M, T>: IntoPath<M, T> {}

impl<M, T, R: Updatable> UpdateTarget<M, T> for Field<M, T, R> {}

impl<M, T> UpdateTarget<M, T> for Path<M, T> {}

impl<M, T> UpdateTarget<M, T> for &Path<M, T> {}

/// A type stored as a DynamoDB map with string keys: `.key(k)` reaches a `Self::Value`.
///
/// ```
/// use std::collections::HashMap;
/// use dynomodel::{Field, Path};
/// let p: Path<(), u32> = Field::<(), Option<HashMap<String, u32>>>::new("m").key("k");
/// assert_eq!(p.to_string(), "m.k");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a map: `.key(..)` navigates into `HashMap`/`BTreeMap<String, _>`"
)]
pub trait MapValue {
    /// The type of the map's values.
    type Value;
}

impl<V, S> MapValue for HashMap<String, V, S> {
    type Value = V;
}

impl<V> MapValue for BTreeMap<String, V> {
    type Value = V;
}

/// An optional map navigates like the map: the path is the same whether or not the attribute exists.
impl<T: MapValue> MapValue for Option<T> {
    type Value = T::Value;
}

/// A type stored as a DynamoDB list: `.index(i)` reaches a `Self::Element`.
///
/// ```
/// use dynomodel::{Field, Path};
/// let p: Path<(), String> = Field::<(), Vec<String>>::new("tags").index(0);
/// assert_eq!(p.to_string(), "tags[0]");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list: `.index(..)` navigates into a `Vec`"
)]
pub trait ListValue {
    /// The type of the list's elements.
    type Element;
}

impl<E> ListValue for Vec<E> {
    type Element = E;
}

impl<T: ListValue> ListValue for Option<T> {
    type Element = T::Element;
}

/// `Self` holds an embedded document of type `D` (a struct deriving `Document`), directly or as an
/// `Option<D>`: `.then(D::field())` continues a path into it.
///
/// ```
/// use dynomodel::{Field, Path};
/// struct User;
/// struct Address;
/// impl User { fn address() -> Field<User, Option<Address>> { Field::new("address") } }
/// impl Address { fn city() -> Field<Address, String> { Field::new("city") } }
///
/// let p: Path<User, String> = User::address().then(Address::city());
/// assert_eq!(p.to_string(), "address.city");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not hold the document `{D}`",
    label = "`.then(..)` continues with a field of the document this path holds"
)]
pub trait Embeds<D> {}

impl<D> Embeds<D> for D {}

impl<D> Embeds<D> for Option<D> {}

#[cfg(test)]
mod tests {
    use super::*;

    struct Doc;
    struct Inner;

    impl Doc {
        fn matrix() -> Field<Doc, Vec<Vec<i64>>> {
            Field::new("matrix")
        }
        fn inner() -> Field<Doc, Inner> {
            Field::new("inner")
        }
    }

    impl Inner {
        fn names() -> Field<Inner, BTreeMap<String, String>> {
            Field::new("names")
        }
    }

    #[test]
    fn nested_indexes_and_keys_display() {
        assert_eq!(Doc::matrix().index(1).index(2).to_string(), "matrix[1][2]");
        let p = Doc::inner().then(Inner::names()).key("en");
        assert_eq!(p.to_string(), "inner.names.en");
        assert_eq!(
            p.elements(),
            &[
                PathElement::Name("inner".into()),
                PathElement::Name("names".into()),
                PathElement::Name("en".into()),
            ]
        );
    }

    #[test]
    fn then_accepts_a_path_inside_the_document() {
        let p = Doc::inner().then(Inner::names().key("fr"));
        assert_eq!(p.to_string(), "inner.names.fr");
    }

    #[test]
    fn paths_are_cloneable_and_fields_copy() {
        let f = Doc::matrix();
        let g = f;
        assert_eq!(f.name(), g.name());
        let p = f.index(0);
        assert_eq!(p.clone().to_string(), p.to_string());
        assert_eq!(format!("{p:?}"), "Path(matrix[0])");
    }
}
