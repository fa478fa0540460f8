//! Secondary-index metadata: the typed [`Index`] handles `#[derive(Model)]` generates, and
//! [`Projected`], the decoding of what a query returns.

use std::fmt;
use std::marker::PhantomData;

use crate::backend::ProjectionType;
use crate::error::ConversionError;
use crate::expression::role::KeySort;
use crate::model::{Field, Marker, Model};
use crate::value::{AttributeValue, Item};

/// A type a Query or Scan result decodes into: a [`Model`] (whole items), the generated item struct of
/// a `KEYS_ONLY`/`INCLUDE` index (exactly the projected attributes), or a raw [`Item`] (after
/// `.project(...)`, whose attributes only the caller knows).
///
/// The method is not called `from_item` so that it never competes with [`Model::from_item`] when both
/// traits are in scope.
///
/// ```
/// use dynomodel::{Item, Projected};
/// let item = Item::new();
/// assert_eq!(<Item as Projected>::from_projection(item.clone())?, item);
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
pub trait Projected: Sized + Send + 'static {
    /// Decodes one returned item; errors name the attribute.
    fn from_projection(item: Item) -> Result<Self, ConversionError>;

    /// A decoder from an item's attributes handed over one by one (a typed read, see
    /// [`ItemSink`](crate::backend::ItemSink)), giving what [`from_projection`](Projected::from_projection)
    /// gives; `None` (the default) when the type has none better than collecting them into an
    /// [`Item`] first: its reads then ask the backend for `Item`s. A [`Model`] has one
    /// ([`Model::from_attributes`]).
    #[allow(clippy::type_complexity)]
    fn attributes_decoder() -> Option<
        fn(
            &mut dyn Iterator<Item = (std::borrow::Cow<'_, str>, AttributeValue)>,
        ) -> Result<Self, ConversionError>,
    > {
        None
    }
}

impl<M: Model> Projected for M {
    fn from_projection(item: Item) -> Result<Self, ConversionError> {
        M::from_item(item)
    }

    fn attributes_decoder() -> Option<
        fn(
            &mut dyn Iterator<Item = (std::borrow::Cow<'_, str>, AttributeValue)>,
        ) -> Result<Self, ConversionError>,
    > {
        Some(M::from_attributes)
    }
}

impl Projected for Item {
    fn from_projection(item: Item) -> Result<Self, ConversionError> {
        Ok(item)
    }
}

/// A typed handle on a secondary index of model `M`: partition key of type `H` (the field's type), sort
/// key of type `R` (the sort key's field handle type, e.g. `EpochSeconds<DateTime<Utc>>` for an
/// `epoch_seconds` field; `()` when it has none), entries decoded as `T` (the model for an `ALL` projection, else the
/// generated `<Model><Index>Item`).
///
/// `#[derive(Model)]` generates one associated function per index, named after it in snake_case
/// (`"rt-index"` → `Tweet::rt_index()`). Pass it to [`Db::query_index`](crate::Db::query_index),
/// [`Db::scan_index`](crate::Db::scan_index) or [`Query::index`](crate::Query::index).
///
/// ```
/// use dynomodel::{Index, Model, ProjectionType};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[global_index(all("city-index", hash = city, range = likes))]
/// struct Tweet {
///     #[hash_key] userid: String,
///     city: String,
///     likes: i64,
/// }
///
/// let index: Index<Tweet, String, i64, Tweet> = Tweet::city_index();
/// assert_eq!(index.name(), "city-index");
/// assert_eq!(index.hash_key(), "city");
/// assert_eq!(index.range_key(), Some("likes"));
/// assert!(!index.is_local());
/// assert_eq!(index.projection(), ProjectionType::All);
/// ```
pub struct Index<M, H, R, T> {
    name: &'static str,
    local: bool,
    hash: &'static str,
    range: Option<&'static str>,
    projection: ProjectionType,
    /// The hash key field's conversion (adapters such as `epoch_seconds` included).
    hash_value: fn(&H) -> Result<Option<AttributeValue>, ConversionError>,
    _marker: Marker<M, R, T>,
}

impl<M, H, R, T> Index<M, H, R, T> {
    /// A handle; generated code calls this, users call the generated functions.
    pub fn new(
        name: &'static str,
        local: bool,
        hash: &'static str,
        range: Option<&'static str>,
        projection: ProjectionType,
        hash_value: fn(&H) -> Result<Option<AttributeValue>, ConversionError>,
    ) -> Self {
        Index {
            name,
            local,
            hash,
            range,
            projection,
            hash_value,
            _marker: PhantomData,
        }
    }

    /// The index's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Whether it is a local secondary index (else global).
    pub fn is_local(&self) -> bool {
        self.local
    }

    /// The partition key's attribute name.
    pub fn hash_key(&self) -> &'static str {
        self.hash
    }

    /// The sort key's attribute name, if any.
    pub fn range_key(&self) -> Option<&'static str> {
        self.range
    }

    /// What the index holds.
    pub fn projection(&self) -> ProjectionType {
        self.projection
    }

    /// A field handle on the index's sort key, for `.range(...)` conditions: its
    /// [role](crate::expression::role) is [`KeySort`](crate::expression::role::KeySort), so its
    /// comparisons are [`SortKeyCondition`](crate::SortKeyCondition)s and no update takes it
    /// (update the attribute through the field's own handle, if it is no table key). The same as
    /// the field's handle when the sort key is a field; for a composite,
    /// [`Composite`](crate::Composite)'s handle has the typed conditions.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # #[dynomodel(table = "tweets")]
    /// # #[global_index(keys("rt-index", hash = city, range = retweets))]
    /// # pub struct Tweet {
    /// #     #[hash_key] pub userid: String,
    /// #     #[range_key] pub id: String,
    /// #     pub city: String,
    /// #     #[index(all = "ts-local")] pub ts: i64,
    /// #     pub retweets: i64,
    /// #     pub text: String,
    /// # }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # for (userid, id, city, ts, retweets, text) in [
    /// #     ("abc", "1", "Paris", 100, 3, "hello rust"),
    /// #     ("abc", "2", "Paris", 200, 12, "typed queries"),
    /// #     ("abc", "3", "Lyon", 300, 0, "rust indexes"),
    /// #     ("xyz", "1", "Paris", 150, 7, "bonjour"),
    /// # ] {
    /// #     let (userid, id, city, text) = (userid.into(), id.into(), city.into(), text.into());
    /// #     db.put(&Tweet { userid, id, city, ts, retweets, text }).await?;
    /// # }
    /// // The tweets of `Query`'s documentation; "rt-index" is sorted by `retweets`.
    /// let retweets = Tweet::rt_index().range_field();
    /// let popular = db.query_index(Tweet::rt_index(), "Paris").range(retweets.ge(5)).count().await?;
    /// assert_eq!(popular, 2);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn range_field(&self) -> Field<M, R, KeySort> {
        Field::with_role(self.range.unwrap_or(""))
    }

    /// Converts a partition key value as stored.
    pub(crate) fn hash_attribute(&self, hash: &H) -> Result<AttributeValue, ConversionError> {
        match (self.hash_value)(hash).map_err(|e| e.at(self.hash))? {
            Some(value) => Ok(value),
            None => Err(ConversionError::new("a key value", "nothing").at(self.hash)),
        }
    }

    /// The untyped description the query builder works with.
    pub(crate) fn info(&self) -> IndexInfo {
        IndexInfo {
            name: self.name,
            local: self.local,
            hash: self.hash,
            range: self.range,
        }
    }
}

/// What a query needs to know of the index it reads, without the types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IndexInfo {
    pub(crate) name: &'static str,
    pub(crate) local: bool,
    pub(crate) hash: &'static str,
    pub(crate) range: Option<&'static str>,
}

impl<M, H, R, T> Clone for Index<M, H, R, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M, H, R, T> Copy for Index<M, H, R, T> {}

impl<M, H, R, T> fmt::Debug for Index<M, H, R, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Index")
            .field("name", &self.name)
            .field("local", &self.local)
            .field("hash", &self.hash)
            .field("range", &self.range)
            .field("projection", &self.projection)
            .finish()
    }
}
