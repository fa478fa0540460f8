//! Typed Query and Scan: [`Db::query`], [`Db::query_index`], [`Db::scan`], [`Db::scan_index`].
//!
//! ```no_run
//! # use dynomodel::{Db, Model};
//! # use futures::TryStreamExt;
//! #[derive(Model, Debug, Clone, PartialEq)]
//! #[dynomodel(table = "tweets")]
//! #[global_index(keys("rt-index", hash = city, range = retweets))]
//! pub struct Tweet {
//!     #[hash_key] pub userid: String,
//!     #[range_key] pub id: String,
//!     pub city: String,
//!     #[index(all = "ts-local")] pub ts: i64,
//!     pub retweets: i64,
//!     pub text: String,
//! }
//!
//! # async fn run(db: Db) -> dynomodel::Result<()> {
//! // The table, or the index the range condition implies (here the local index "ts-local").
//! let recent: Vec<Tweet> = db.query::<Tweet>("abc")
//!     .range(Tweet::ts().gt(1_700_000_000))
//!     .filter(Tweet::text().contains("rust"))
//!     .desc().limit(10).all().await?;
//! // A KEYS_ONLY index returns its generated entry type; fetch_full() reads the whole items.
//! let top: Option<TweetRtIndexItem> = db.query_index(Tweet::rt_index(), "Paris").desc().first().await?;
//! let full: Vec<Tweet> = db.query_index(Tweet::rt_index(), "Paris").fetch_full().all().await?;
//! // Paging for web APIs: the cursor prints as a token.
//! let page = db.query::<Tweet>("abc").limit(20).page(None).await?;
//! let token: Option<String> = page.next.map(|c| c.to_string());
//! // A parallel scan, merged into one stream.
//! let mut tweets = std::pin::pin!(db.scan::<Tweet>().segments(4).stream());
//! while let Some(tweet) = tweets.try_next().await? { let _ = tweet; }
//! # Ok(()) }
//! ```

mod builder;
mod cursor;
mod key;
mod pager;
mod scan;

pub use builder::Query;
pub use cursor::Cursor;
pub use pager::Page;
pub use scan::Scan;

use crate::db::Db;
use crate::expression::IntoValue;
use crate::model::{Index, Model, Projected};

impl Db {
    /// A Query on `M`'s partition `hash` (typed as `M`'s hash key: `db.query::<Tweet>("abc")`).
    ///
    /// Index auto-selection (flywheel's): if [`range`](Query::range) constrains an attribute that is
    /// not the table's sort key, the query reads the one index partitioned by the table's hash key and
    /// sorted by that attribute that can return whole items: a local index (read with
    /// `Select=ALL_ATTRIBUTES` when it does not project everything, so DynamoDB fetches the rest) or
    /// a global index projecting `ALL`. None or several is an error naming them; [`Query::index`]
    /// chooses explicitly, and [`Db::query_index`] queries any index with its own key and item types.
    ///
    /// ```no_run
    /// # #[derive(dynomodel::Model)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String }
    /// # async fn run(db: dynomodel::Db) -> dynomodel::Result<()> {
    /// let tweets: Vec<Tweet> = db.query::<Tweet>("abc").range(Tweet::id().begins_with("2026-")).all().await?;
    /// # Ok(()) }
    /// ```
    pub fn query<M: Model>(&self, hash: impl IntoValue<M::Hash>) -> Query<'_, M> {
        let hash = M::hash_key_value(&hash.into_value()).map_err(Into::into);
        Query::table(self, hash)
    }

    /// A Query on a secondary index: partition `hash` typed as the index's hash key, results typed as
    /// the index's entries (the model for an `ALL` index, else the generated `<Model><Index>Item`).
    ///
    /// ```no_run
    /// # #[derive(dynomodel::Model)]
    /// # #[global_index(keys("rt-index", hash = city, range = retweets))]
    /// # pub struct Tweet { #[hash_key] pub userid: String, pub city: String, pub retweets: i64 }
    /// # async fn run(db: dynomodel::Db) -> dynomodel::Result<()> {
    /// let top = db.query_index(Tweet::rt_index(), "Paris").desc().first().await?;
    /// let top: Option<TweetRtIndexItem> = top;
    /// # Ok(()) }
    /// ```
    pub fn query_index<M: Model, H, R, T: Projected>(
        &self,
        index: Index<M, H, R, T>,
        hash: impl IntoValue<H>,
    ) -> Query<'_, M, T> {
        Query::on_index(self, index, &hash.into_value())
    }

    /// A Scan of `M`'s table.
    ///
    /// ```no_run
    /// # #[derive(dynomodel::Model)]
    /// # struct Tweet { #[hash_key] userid: String, likes: i64 }
    /// # async fn run(db: dynomodel::Db) -> dynomodel::Result<()> {
    /// let popular = db.scan::<Tweet>().filter(Tweet::likes().ge(100)).segments(4).count().await?;
    /// # Ok(()) }
    /// ```
    pub fn scan<M: Model>(&self) -> Scan<'_, M> {
        Scan::new(self, None)
    }

    /// A Scan of one of `M`'s secondary indexes, returning its entries.
    pub fn scan_index<M: Model, H, R, T: Projected>(
        &self,
        index: Index<M, H, R, T>,
    ) -> Scan<'_, M, T> {
        Scan::on_index(self, index)
    }
}
