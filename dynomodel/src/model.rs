//! The [`Model`] trait that `#[derive(Model)]` implements, its key type and typed field handles.

use std::fmt;
use std::marker::PhantomData;

use crate::backend::CreateTableInput;
use crate::error::ConversionError;
use crate::value::Item;

/// A Rust type stored as the items of one DynamoDB table. Implemented by `#[derive(Model)]`.
///
/// ```
/// use dynomodel::Model;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "users")]
/// struct User {
///     #[hash_key]
///     id: String,
///     name: String,
///     visits: u32,
/// }
///
/// assert_eq!(User::TABLE_NAME, "users");
/// let user = User { id: "u1".into(), name: "Ada".into(), visits: 3 };
/// let item = user.to_item().unwrap();
/// assert_eq!(User::from_item(item).unwrap(), user);
/// assert_eq!(user.key(), UserKey::from("u1"));
/// ```
pub trait Model: Sized + Send + Sync + 'static {
    /// The primary key: a generated `<Model>Key` struct holding the hash key and, if any, the range key.
    type Key: PrimaryKey;

    /// The table's name (before any [`crate::Db`] namespace prefix).
    const TABLE_NAME: &'static str;

    /// The table definition: key schema, attribute definitions, billing, indexes.
    fn schema() -> CreateTableInput;

    /// Converts to a DynamoDB item.
    fn to_item(&self) -> Result<Item, ConversionError>;

    /// Converts from a DynamoDB item; errors name the attribute and the expected type.
    fn from_item(item: Item) -> Result<Self, ConversionError>;

    /// This value's primary key.
    fn key(&self) -> Self::Key;
}

/// A model's primary key value, convertible to DynamoDB's key map.
pub trait PrimaryKey: Send + Sync + fmt::Debug {
    /// The key as an item holding only the key attributes.
    fn to_key_item(&self) -> Result<Item, ConversionError>;
}

/// A typed handle on one attribute of model `M`, holding values of type `T`.
///
/// `#[derive(Model)]` generates one associated function per field returning its handle, e.g.
/// `Tweet::likes()`; expressions built from handles are checked against `T` at compile time.
///
/// A handle builds conditions (`eq`, `between`, `begins_with`, `size`...) and navigates into maps,
/// lists and embedded documents (`key`, `index`, `then`), giving a [`Path`](crate::Path) with the
/// same operations; see [`Condition`](crate::Condition) and [`Update`](crate::Update).
///
/// ```
/// use std::collections::BTreeMap;
/// use dynomodel::{ExpressionContext, Field};
///
/// struct Tweet;
/// impl Tweet {
///     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
///     fn meta() -> Field<Tweet, BTreeMap<String, Vec<String>>> { Field::new("meta") }
/// }
///
/// let condition = Tweet::likes().ge(10) & Tweet::meta().key("langs").index(0).eq("fr");
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(ctx.condition(&condition)?, "#n0 >= :v0 AND #n1.#n2[0] = :v1");
/// # Ok::<(), dynomodel::Error>(())
/// ```
pub struct Field<M, T> {
    name: &'static str,
    _marker: PhantomData<fn() -> (M, T)>,
}

impl<M, T> Field<M, T> {
    /// A handle on the attribute `name`.
    pub const fn new(name: &'static str) -> Self {
        Field {
            name,
            _marker: PhantomData,
        }
    }

    /// The attribute's name in DynamoDB.
    pub const fn name(&self) -> &'static str {
        self.name
    }
}

impl<M, T> Clone for Field<M, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M, T> Copy for Field<M, T> {}

impl<M, T> fmt::Debug for Field<M, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Field({})", self.name)
    }
}
