//! [`GetCollection`]: `GetItem` of an item of a single-table design, decoded as the member of a
//! [`Collection`] its entity attribute names.

use std::future::IntoFuture;
use std::marker::PhantomData;

use crate::backend::GetItemInput;
use crate::db::decode::{KeyWatch, TableKey};
use crate::db::{Db, DbFuture, ItemDecode};
use crate::error::{ConversionError, Result};
use crate::model::{Collection, CollectionKey};
use crate::value::Item;

impl Db {
    /// Reads the item with `key` from the table of collection `C`, decoded as the member its entity
    /// attribute names: `Some(UserData::Order(..))` for an order's key. `key` is the key of any
    /// member (`OrderKey::from(("u1", 7_u32))`), checked at compile time ([`CollectionKey`]); the item
    /// found may be of another member than the key's model (members share the table's key space).
    ///
    /// An item of an entity type no member declares goes to the `#[dynomodel(unknown)]` variant,
    /// or is an [`Error::ItemDecode`](crate::Error::ItemDecode) naming its entity type, as in a collection query
    /// ([`Db::collection`]).
    ///
    /// ```
    /// use dynomodel::{Collection, Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    ///
    /// #[derive(Model, Debug, PartialEq)]
    /// #[dynomodel(table = "app", entity = "User")]
    /// #[composite(pk = ("USER", userid), hash_key)]
    /// #[composite(sk = ("PROFILE", userid2), range_key)]
    /// struct User { userid: String, userid2: String, name: String }
    ///
    /// #[derive(Model, Debug, PartialEq)]
    /// #[dynomodel(table = "app", entity = "Order")]
    /// #[composite(pk = ("USER", userid), hash_key)]
    /// #[composite(sk = ("ORDER", id), range_key)]
    /// struct Order { userid: String, id: u32, total: u64 }
    ///
    /// #[derive(Collection, Debug, PartialEq)]
    /// enum UserData { User(User), Order(Order) }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let db = Db::memory();
    /// db.create_collection_schema::<UserData>().await?;
    /// db.put(&Order { userid: "u1".into(), id: 7, total: 70 }).await?;
    ///
    /// let order = db.get_collection::<UserData>(OrderKey::from(("u1", 7_u32))).await?;
    /// assert!(matches!(order, Some(UserData::Order(o)) if o.total == 70));
    /// let missing = db.get_collection::<UserData>(UserKey::from(("u1", "u1"))).await?;
    /// assert_eq!(missing, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn get_collection<C: Collection>(
        &self,
        key: impl CollectionKey<C>,
    ) -> GetCollection<'_, C> {
        GetCollection {
            db: self,
            key: key.to_key_item(),
            consistent: false,
            _collection: PhantomData,
        }
    }
}

/// A pending [`Db::get_collection`]; `.await` it for an `Option<C>`.
#[must_use = "a get does nothing until awaited"]
pub struct GetCollection<'a, C: Collection> {
    db: &'a Db,
    key: std::result::Result<Item, ConversionError>,
    consistent: bool,
    _collection: PhantomData<fn() -> C>,
}

impl<C: Collection> GetCollection<'_, C> {
    /// Reads with strong consistency (costs twice the read capacity).
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }
}

impl<'a, C: Collection> IntoFuture for GetCollection<'a, C> {
    type Output = Result<Option<C>>;
    type IntoFuture = DbFuture<'a, Option<C>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let key = self.key?;
            let table_name = self.db.table_name::<C::Root>();
            let input = GetItemInput {
                table_name,
                key,
                consistent_read: self.consistent.then_some(true),
                ..Default::default()
            };
            let Some(item) = self.db.calls.get_item(input).await?.item else {
                return Ok(None);
            };
            // The key is kept aside only for the error (the members share the table's key names).
            let mut watch = KeyWatch::new(TableKey::of::<C::Root>());
            watch.see_item(&item);
            C::from_item(item).map(Some).map_err(|e| {
                let table = self.db.table_name::<C::Root>();
                ItemDecode::error(C::NAME, &table, watch.take(), e)
            })
        })
    }
}
