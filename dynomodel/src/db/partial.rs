//! [`Partial<M>`]: a typed view over some attributes of an item of `M`.

use std::fmt;
use std::marker::PhantomData;

use crate::convert::Attribute;
use crate::error::{ConversionError, Result};
use crate::expression::{FieldValue, IntoPath, PathElement};
use crate::model::Model;
use crate::value::{AttributeValue, Item};

/// Some attributes of an item of model `M`: what a projection ([`Get::project`](crate::Get::project))
/// or an `UPDATED_NEW`/`UPDATED_OLD` update returns.
///
/// Read it with the model's field handles, typed as the field: `partial.get(Tweet::likes())` is a
/// `Result<Option<i64>>`, `None` when the attribute is not there (not projected, not updated, or
/// not stored), an error when it is there but does not convert. An optional field reads as its
/// inner type (`Field<M, Option<String>>` gives `Option<String>`), like a condition's operands.
///
/// Nested paths (`Tweet::meta().key("lang")`) look inside maps and lists as returned. Note that
/// DynamoDB compacts projected list elements: projecting `tags[3]` returns `tags` as a list of one
/// element, so read it back as `tags[0]`.
///
/// ```
/// use dynomodel::{AttributeValue, Model, Number, Partial};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Tweet { #[hash_key] id: String, text: String, likes: i64, nick: Option<String> }
///
/// let item = [("likes".to_owned(), AttributeValue::N(Number::from(7)))].into();
/// let partial = Partial::<Tweet>::new(item);
/// assert_eq!(partial.get(Tweet::likes())?, Some(7));
/// assert_eq!(partial.get(Tweet::text())?, None);
/// assert_eq!(partial.get(Tweet::nick())?, None);
/// assert!(partial.get(Tweet::id()).is_ok());
/// # Ok::<(), dynomodel::Error>(())
/// ```
pub struct Partial<M> {
    item: Item,
    _model: PhantomData<fn() -> M>,
}

impl<M> Partial<M> {
    /// A view over `item`, which holds some attributes of an item of `M`.
    pub fn new(item: Item) -> Self {
        Partial {
            item,
            _model: PhantomData,
        }
    }

    /// The value at `path` (a field handle or a nested path), typed as the field; `None` when absent.
    ///
    /// Errors: the attribute is there but does not convert to the field's type (the error names it).
    pub fn get<T>(&self, path: impl IntoPath<M, T>) -> Result<Option<T::Value>>
    where
        T: FieldValue,
        T::Value: Attribute,
    {
        let path = path.into_path();
        match lookup(&self.item, path.elements()) {
            None => Ok(None),
            Some(value) => T::Value::from_attribute(value.clone())
                .map(Some)
                .map_err(|e| at_path(e, path.elements()).into()),
        }
    }

    /// Whether an attribute (or nested value) is present at `path`.
    ///
    /// ```
    /// # use dynomodel::{AttributeValue, Field, Partial};
    /// # struct T; impl T { fn a() -> Field<T, bool> { Field::new("a") } }
    /// let p = Partial::<T>::new([("a".to_owned(), AttributeValue::Bool(true))].into());
    /// assert!(p.contains(T::a()));
    /// ```
    pub fn contains<T>(&self, path: impl IntoPath<M, T>) -> bool {
        lookup(&self.item, path.into_path().elements()).is_some()
    }

    /// The raw attributes.
    pub fn item(&self) -> &Item {
        &self.item
    }

    /// The raw attributes, by value.
    pub fn into_item(self) -> Item {
        self.item
    }

    /// Whether no attribute is present.
    pub fn is_empty(&self) -> bool {
        self.item.is_empty()
    }
}

impl<M: Model> Partial<M> {
    /// Decodes the attributes as a whole `M`: works when they include every field `M` requires
    /// (a projection of all of them, or fields with defaults), and errors naming the first missing one.
    ///
    /// ```
    /// # use dynomodel::{AttributeValue, Model, Partial};
    /// #[derive(Model, Debug, PartialEq)]
    /// struct User { #[hash_key] id: String, name: String }
    /// let p = Partial::<User>::new([("id".to_owned(), AttributeValue::S("u1".into()))].into());
    /// assert_eq!(p.into_model().unwrap_err().to_string(), "attribute `name`: expected a string, found nothing (the attribute is missing)");
    /// ```
    ///
    /// A model with an [item version](Model::ITEM_VERSION) above 1 needs the version attribute
    /// among them: without it, an item of the model's version whose projection left it out could
    /// not be told from an older item (which has none), and would be upcast as one. So its absence
    /// is a conversion error at the attribute rather than a guess.
    pub fn into_model(self) -> Result<M> {
        if M::ITEM_VERSION.is_some_and(|version| version > 1)
            && !self.item.contains_key(M::ITEM_VERSION_ATTRIBUTE)
        {
            return Err(ConversionError::missing(
                "the item version (decoding a partial item whole needs it to upcast it right)",
            )
            .at(M::ITEM_VERSION_ATTRIBUTE)
            .into());
        }
        Ok(M::from_item(self.item)?)
    }
}

/// Follows `path` through maps and lists; `None` as soon as a step is missing or of another type.
fn lookup<'i>(item: &'i Item, path: &[PathElement]) -> Option<&'i AttributeValue> {
    let (first, rest) = path.split_first()?;
    let PathElement::Name(name) = first else {
        return None;
    };
    rest.iter()
        .try_fold(item.get(name)?, |value, element| match (value, element) {
            (AttributeValue::M(map), PathElement::Name(key)) => map.get(key),
            (AttributeValue::L(list), PathElement::Index(i)) => list.get(*i),
            _ => None,
        })
}

/// Locates a conversion error at the full path (`meta.langs[0]`), the way item decoding does.
fn at_path(error: ConversionError, path: &[PathElement]) -> ConversionError {
    path.iter().rev().fold(error, |e, element| match element {
        PathElement::Name(name) => e.at(name),
        PathElement::Index(i) => e.at_index(*i),
    })
}

impl<M> Clone for Partial<M> {
    fn clone(&self) -> Self {
        Partial::new(self.item.clone())
    }
}

impl<M> PartialEq for Partial<M> {
    fn eq(&self, other: &Self) -> bool {
        self.item == other.item
    }
}

impl<M> fmt::Debug for Partial<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Partial").field(&self.item).finish()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::model::Field;
    use crate::value::Number;

    struct Doc;
    impl Doc {
        fn meta() -> Field<Doc, BTreeMap<String, Vec<i64>>> {
            Field::new("meta")
        }
        fn likes() -> Field<Doc, Option<i64>> {
            Field::new("likes")
        }
    }

    fn n(v: i64) -> AttributeValue {
        AttributeValue::N(Number::from(v))
    }

    fn partial() -> Partial<Doc> {
        let meta = AttributeValue::M(BTreeMap::from([(
            "langs".to_owned(),
            AttributeValue::L(vec![n(1), AttributeValue::S("x".into())]),
        )]));
        Partial::new(Item::from([
            ("meta".to_owned(), meta),
            ("likes".to_owned(), n(3)),
        ]))
    }

    #[test]
    fn nested_paths_are_followed_and_typed() {
        let p = partial();
        assert_eq!(p.get(Doc::likes()).expect("converts"), Some(3));
        assert_eq!(
            p.get(Doc::meta().key("langs").index(0)).expect("converts"),
            Some(1)
        );
        assert_eq!(
            p.get(Doc::meta().key("langs").index(5)).expect("absent"),
            None
        );
        assert_eq!(p.get(Doc::meta().key("other")).expect("absent"), None);
        assert!(p.contains(Doc::meta().key("langs")));
        assert!(!p.contains(Doc::meta().key("langs").index(2)));
    }

    #[test]
    fn conversion_errors_name_the_full_path() {
        let err = partial()
            .get(Doc::meta().key("langs").index(1))
            .expect_err("a string is not an i64");
        assert_eq!(
            err.to_string(),
            "attribute `meta.langs[1]`: expected a number (i64), found S"
        );
    }

    #[test]
    fn raw_access_and_equality() {
        let p = partial();
        assert_eq!(p.item().len(), 2);
        assert_eq!(p.clone(), p);
        assert!(!p.is_empty());
        assert_eq!(p.into_item().len(), 2);
        assert!(Partial::<Doc>::new(Item::new()).is_empty());
    }
}
