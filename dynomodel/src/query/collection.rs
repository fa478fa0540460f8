//! Typed collection queries: one partition of a single-table design, every item decoded into its
//! own model by its entity attribute ([`Collection`]).

use crate::db::Db;
use crate::error::Result;
use crate::model::{Collection, IntoKey, Model};
use crate::query::Query;

impl Db {
    /// A Query on one partition of `C`'s table that decodes every item as the member its entity
    /// attribute names: `db.collection::<UserData>("u1").all()` returns a `Vec<UserData>` holding
    /// the user and all their orders and lines, in sort-key order. The hash value is typed as the
    /// first member's hash key. Everything of [`Query`] applies: `range`, `filter`, `desc`,
    /// `limit`, `page(n, cursor)` (paging through the partition with a cursor), `stream`.
    ///
    /// An item of an entity type no member declares is an error naming it (or goes to the
    /// `#[dynomodel(unknown)]` variant): never silently dropped. See [`Collection`] for an example.
    pub fn collection<C: Collection>(
        &self,
        hash: impl IntoKey<<C::Root as Model>::Hash>,
    ) -> Query<'_, C::Root, C> {
        self.query::<C::Root>(hash).collection::<C>()
    }

    /// Creates the table shared by `C`'s members from the union of their schemas if it does not
    /// exist; returns whether it created it (as [`Db::create_schema`]).
    ///
    /// Errors: [`Error::SchemaConflict`](crate::Error::SchemaConflict) when the members declare the
    /// table differently (nothing is sent), else as [`Db::create_schema`].
    pub async fn create_collection_schema<C: Collection>(&self) -> Result<bool> {
        self.create_definition(&C::definition()?).await
    }
}

impl<'a, M: Model, T: Send + 'static> Query<'a, M, T> {
    /// Decodes the results as collection `C` (each item as the member its entity attribute names)
    /// instead of `T`; typically on an index shared by several entity types:
    /// `db.query_index(Order::by_status(), "open").collection::<UserData>()`. `M` must be one of
    /// `C`'s members (same table). The index must project the entity attribute (`ALL` does).
    pub fn collection<C: Collection>(self) -> Query<'a, M, C> {
        let mut query = self.retype(crate::query::decoding::Decode::items(C::from_item));
        // Every member's items: the query is no longer `M`'s alone.
        query.entity = None;
        query
    }
}
