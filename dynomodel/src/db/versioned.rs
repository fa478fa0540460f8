//! [`Versioned`]: a value read with the item version its item was stored at, for the reads that
//! ask (`.versioned()` on [`Get`], [`Query`] and [`Scan`]). The value is upcast as every read's
//! is; the version says where it came from, e.g. to count the items a backfill would rewrite.

use std::future::IntoFuture;

use crate::db::{DbFuture, Get};
use crate::error::{ConversionError, Result};
use crate::model::{stored_item_version, Model, Projected};
use crate::query::decoding::Decode;
use crate::query::{Query, Scan};
use crate::value::Item;

/// A value of model `M` with the item version its stored item was written with (before any
/// upcast): `.versioned()` on [`db.get`](crate::Db::get), [`db.query`](crate::Db::query) and
/// [`db.scan`](crate::Db::scan) reads these. An item without the version attribute, or any item of a
/// model without `item_version`, is version 1.
///
/// ```
/// use dynomodel::{ConversionError, Item, Model, Versioned};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "people")]
/// struct PersonV1 { #[hash_key] id: String, name: String }
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "people", item_version = 2)]
/// #[upcast(from = 1, item = add_email)]
/// struct Person { #[hash_key] id: String, name: String, email: Option<String> }
///
/// fn add_email(item: Item) -> Result<Item, ConversionError> {
///     Ok(item) // nothing to move: a missing email reads as None
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = dynomodel_mem::memory();
/// db.create_schema::<Person>().await?;
/// db.put(&PersonV1 { id: "a".into(), name: "Ada".into() }).await?;
/// db.put(&Person { id: "b".into(), name: "Bob".into(), email: None }).await?;
///
/// let a = db.get::<Person>("a").versioned().await?.expect("stored");
/// assert_eq!((a.item_version, a.value.name.as_str()), (1, "Ada"));
/// let behind = db.scan::<Person>().versioned().all().await?;
/// assert_eq!(behind.iter().filter(|p| p.item_version < 2).count(), 1);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Versioned<M> {
    /// The item version the stored item was written with.
    pub item_version: u32,
    /// The value, upcast to the model's version.
    pub value: M,
}

impl<M: Model> Versioned<M> {
    /// Decodes a stored item (upcasting it), keeping the version it was written with.
    ///
    /// Errors: as [`Model::from_item`]; the version attribute holds no version.
    pub fn from_item(item: Item) -> Result<Self, ConversionError> {
        let item_version = stored_item_version::<M>(&item)?.unwrap_or(1);
        Ok(Versioned {
            item_version,
            value: M::from_item(item)?,
        })
    }
}

impl<M: Model> Projected for Versioned<M> {
    fn from_projection(item: Item) -> Result<Self, ConversionError> {
        Versioned::from_item(item)
    }
}

impl<'a, M: Model> Get<'a, M> {
    /// Reads the value with the item version it was stored at: `Some(Versioned<M>)`, or `None`
    /// when there is no item with the key. See [`Versioned`].
    pub fn versioned(self) -> GetVersioned<'a, M> {
        GetVersioned { get: self }
    }
}

/// A pending [`Get::versioned`]: `.await` it for `Option<Versioned<M>>`.
#[must_use = "a get does nothing until awaited"]
pub struct GetVersioned<'a, M: Model> {
    get: Get<'a, M>,
}

impl<'a, M: Model> IntoFuture for GetVersioned<'a, M> {
    type Output = Result<Option<Versioned<M>>>;
    type IntoFuture = DbFuture<'a, Option<Versioned<M>>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let input = self.get.input(None)?;
            // The whole item: the version is read before the value is decoded from it.
            let output = self.get.db.calls.get_item(input).await?;
            output
                .item
                .map(Versioned::from_item)
                .transpose()
                .map_err(|e| self.get.decode_error(e))
        })
    }
}

impl<'a, M: Model> Query<'a, M, M> {
    /// Returns each value with the item version it was stored at (see [`Versioned`]).
    pub fn versioned(self) -> Query<'a, M, Versioned<M>> {
        self.retype(Decode::projected())
    }
}

impl<'a, M: Model> Scan<'a, M, M> {
    /// Returns each value with the item version it was stored at (see [`Versioned`]).
    pub fn versioned(self) -> Scan<'a, M, Versioned<M>> {
        self.retype(Decode::projected())
    }
}
