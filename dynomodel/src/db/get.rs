//! [`Get`] and [`GetPartial`]: `GetItem` of a whole model value or of some of its attributes.

use std::borrow::Cow;
use std::future::IntoFuture;

use crate::backend::{GetItemInput, ItemSink};
use crate::db::names::model_name;
use crate::db::{finish, Db, DbFuture, ItemDecode, Partial};
use crate::error::{ConversionError, Error, Result};
use crate::expression::{ExpressionContext, IntoProjection, ProjectionExpression};
use crate::model::{KeyWriter, Model, PrimaryKey};
use crate::value::AttributeValue;

/// A pending [`Db::get`]; `.await` it for an `Option<M>`, or [`project`](Get::project) some
/// attributes for a [`Partial<M>`].
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Tweet>().await?;
/// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 7 };
/// # db.put(&tweet).await?;
/// let read: Option<Tweet> = db.get::<Tweet>(("abc", "1")).await?;
/// assert_eq!(read, Some(tweet));
/// // Some attributes only, as a typed `Partial<Tweet>`:
/// let partial = db.get::<Tweet>(("abc", "1")).project(Tweet::likes()).await?;
/// assert_eq!(partial.map(|p| p.get(Tweet::likes())), Some(Ok(Some(7))));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a get does nothing until awaited"]
pub struct Get<'a, M: Model> {
    pub(crate) db: &'a Db,
    key: M::Key,
    consistent: bool,
}

impl<'a, M: Model> Get<'a, M> {
    pub(crate) fn new(db: &'a Db, key: M::Key) -> Self {
        Get {
            db,
            key,
            consistent: false,
        }
    }

    /// Reads with strong consistency (costs twice the read capacity).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 7 };
    /// # db.put(&tweet).await?;
    /// let read = db.get::<Tweet>(("abc", "1")).consistent().await?;
    /// assert_eq!(read, Some(tweet));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// Reads only these attributes (a `ProjectionExpression`), giving a typed [`Partial<M>`]
    /// rather than an `M` whose other fields would have to be invented.
    ///
    /// Takes a field, a path, a tuple of them (of any value types), an array, or a
    /// [`ProjectionExpression`]; see [`IntoProjection`]. Tuples read best and need no `.into()`.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 7 };
    /// # db.put(&tweet).await?;
    /// if let Some(p) = db.get::<Tweet>(("abc", "1")).project((Tweet::text(), Tweet::likes())).await? {
    ///     let likes: Option<i64> = p.get(Tweet::likes())?;
    ///     let text: Option<String> = p.get(Tweet::text())?;
    ///     assert_eq!((text.as_deref(), likes), (Some("hello"), Some(7)));
    ///     assert!(!p.contains(Tweet::userid())); // not projected
    /// }
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn project(self, paths: impl IntoProjection<M>) -> GetPartial<'a, M> {
        GetPartial {
            get: self,
            projection: paths.into_projection(),
        }
    }

    /// The error of the item read, which does not decode: it names the key asked for (the item's).
    /// Cold: out of the code of a read that decodes.
    #[cold]
    #[inline(never)]
    pub(crate) fn decode_error(&self, error: ConversionError) -> Error {
        let key = self.key.to_key_item().unwrap_or_default();
        ItemDecode::error(model_name::<M>(), &self.db.table_name::<M>(), key, error)
    }

    /// The request; `projection` is rendered through the request's one context.
    pub(crate) fn input(
        &self,
        projection: Option<&ProjectionExpression<M>>,
    ) -> Result<GetItemInput> {
        // A projection has names but never values, so the value map is always empty here; without
        // one (`db.get`) there is nothing to render.
        let (projection_expression, expression_attribute_names) = match projection {
            Some(p) => {
                let mut ctx = ExpressionContext::new();
                let expression = ctx.projection(p)?;
                (expression, finish(ctx).0)
            }
            None => (None, None),
        };
        Ok(GetItemInput {
            table_name: self.db.table_name::<M>(),
            key: self.key.to_key_item()?,
            consistent_read: self.consistent.then_some(true),
            projection_expression,
            expression_attribute_names,
            ..Default::default()
        })
    }
}

impl<'a, M: Model> IntoFuture for Get<'a, M> {
    type Output = Result<Option<M>>;
    type IntoFuture = DbFuture<'a, Option<M>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let input = GetItemInput {
                table_name: self.db.table_name::<M>(),
                consistent_read: self.consistent.then_some(true),
                ..Default::default()
            };
            // A typed read: the backend writes the key and hands over the item's attributes, and
            // `M` is decoded from them, with no `Item` in between where the backend can avoid one.
            let mut decoded = Decoded::<M>(None);
            let key = KeyWriter(&self.key);
            self.db
                .calls
                .get_item_keyed_into(input, key, &mut decoded)
                .await?;
            decoded.0.transpose().map_err(|e| self.decode_error(e))
        })
    }
}

/// The item of a typed read, decoded as `M` (`None`: no item).
struct Decoded<M>(Option<std::result::Result<M, ConversionError>>);

impl<M: Model> ItemSink for Decoded<M> {
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        self.0 = Some(M::from_attributes(attributes));
    }
}

/// A pending [`Get::project`]: `.await` it for `Some(Partial<M>)` holding the projected
/// attributes, or `None` when there is no item with the key.
///
/// (An existing item none of whose projected attributes is stored reads as an empty `Partial`:
/// DynamoDB returns an empty item then, not no item.)
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, nick: Option<String> }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Tweet>().await?;
/// db.put(&Tweet { userid: "abc".into(), id: "1".into(), nick: None }).await?;
///
/// let stored = db.get::<Tweet>(("abc", "1")).project(Tweet::nick()).await?;
/// assert!(stored.is_some_and(|p| p.is_empty())); // the item exists, without a nick
/// let missing = db.get::<Tweet>(("abc", "2")).project(Tweet::nick()).await?;
/// assert!(missing.is_none());
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a get does nothing until awaited"]
pub struct GetPartial<'a, M: Model> {
    get: Get<'a, M>,
    projection: ProjectionExpression<M>,
}

impl<M: Model> GetPartial<'_, M> {
    /// Reads with strong consistency (costs twice the read capacity).
    pub fn consistent(mut self) -> Self {
        self.get.consistent = true;
        self
    }
}

impl<'a, M: Model> IntoFuture for GetPartial<'a, M> {
    type Output = Result<Option<Partial<M>>>;
    type IntoFuture = DbFuture<'a, Option<Partial<M>>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let input = self.get.input(Some(&self.projection))?;
            let output = self.get.db.calls.get_item(input).await?;
            Ok(output.item.map(Partial::new))
        })
    }
}
