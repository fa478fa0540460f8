//! Typed Query and Scan: [`Db::query`], [`Db::query_index`], [`Db::scan`], [`Db::scan_index`].
//!
//! ```
//! use dynomodel::{Db, Model};
//! use dynomodel_mem::MemoryDb;
//! use futures::TryStreamExt;
//!
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
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let db = Db::memory();
//! db.create_schema::<Tweet>().await?;
//! for (userid, id, city, ts, retweets, text) in [
//!     ("abc", "1", "Paris", 100, 3, "hello rust"),
//!     ("abc", "2", "Paris", 200, 12, "typed queries"),
//!     ("abc", "3", "Lyon", 300, 0, "rust indexes"),
//!     ("xyz", "1", "Paris", 150, 7, "bonjour"),
//! ] {
//!     let (userid, id, city, text) = (userid.into(), id.into(), city.into(), text.into());
//!     db.put(&Tweet { userid, id, city, ts, retweets, text }).await?;
//! }
//!
//! // The table, or the index the range condition implies (here the local index "ts-local").
//! let recent: Vec<Tweet> = db.query::<Tweet>("abc")
//!     .range(Tweet::ts().gt(150))
//!     .filter(Tweet::text().contains("rust"))
//!     .desc().limit(10).all().await?;
//! assert_eq!(recent.len(), 1);
//! assert_eq!(recent[0].text, "rust indexes");
//!
//! // A KEYS_ONLY index returns its generated entry type; fetch_full() reads the whole items.
//! let top: Option<TweetRtIndexItem> = db.query_index(Tweet::rt_index(), "Paris").desc().first().await?;
//! assert_eq!(top.map(|t| (t.userid, t.id, t.retweets)), Some(("abc".into(), "2".into(), 12)));
//! let full: Vec<Tweet> = db.query_index(Tweet::rt_index(), "Paris").fetch_full().all().await?;
//! assert_eq!(full.len(), 3);
//!
//! // Paging for web APIs: pages of n matching items; the cursor prints as a token.
//! let page = db.query::<Tweet>("abc").page(2, None).await?;
//! let token: Option<String> = page.next.map(|c| c.to_string());
//! assert!(token.is_some());
//!
//! // A parallel scan, merged into one stream.
//! let mut tweets = std::pin::pin!(db.scan::<Tweet>().segments(4).stream());
//! let mut retweets = 0;
//! while let Some(tweet) = tweets.try_next().await? {
//!     retweets += tweet.retweets;
//! }
//! assert_eq!(retweets, 22);
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```

mod builder;
mod collection;
mod cursor;
pub(crate) mod decoding;
mod key;
mod lenient;
mod pager;
mod paging;
mod scan;

pub use builder::Query;
pub(crate) use cursor::CursorKey;
pub use cursor::{Cursor, InvalidCursor, InvalidCursorReason, KeyAttributes};
pub use lenient::{Decoded, Lenient};
pub use pager::Page;
pub use scan::Scan;

use crate::db::Db;
use crate::model::{Index, IntoKey, Model, Projected};

impl Db {
    /// A Query on `M`'s partition `hash` (typed as `M`'s hash key: `db.query::<Tweet>("abc")`; any
    /// [`IntoKey`] of it, so a `&str` for a `String` and a tuple of borrowed parts for a composite,
    /// `db.query::<Reply>(("Amazon DynamoDB", "Thread 1"))`).
    ///
    /// Index auto-selection (flywheel's): if [`range`](Query::range) constrains an attribute that is
    /// not the table's sort key, the query reads the one index partitioned by the table's hash key and
    /// sorted by that attribute that can return whole items: a local index (read with
    /// `Select=ALL_ATTRIBUTES` when it does not project everything, so DynamoDB fetches the rest) or
    /// a global index projecting `ALL`. None or several is an error naming them; [`Query::index`]
    /// chooses explicitly, and [`Db::query_index`] queries any index with its own key and item types.
    ///
    /// (The example reads the tweets listed on [`Query`].)
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
    /// let tweets: Vec<Tweet> = db.query::<Tweet>("abc").range(Tweet::id().ge("2")).all().await?;
    /// assert_eq!(tweets.len(), 2);
    /// // A range condition on `ts` reads the local index sorted by it, "ts-local":
    /// let recent: Vec<Tweet> = db.query::<Tweet>("abc").range(Tweet::ts().ge(300)).all().await?;
    /// assert_eq!(recent[0].id, "3");
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn query<M: Model>(&self, hash: impl IntoKey<M::Hash>) -> Query<'_, M> {
        let hash = M::hash_key_value(&hash.into_key()).map_err(Into::into);
        Query::table(self, hash)
    }

    /// A Query on a secondary index: partition `hash` typed as the index's hash key, results typed as
    /// the index's entries (the model for an `ALL` index, else the generated `<Model><Index>Item`).
    ///
    /// (The example reads the tweets listed on [`Query`].)
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
    /// // "rt-index" is KEYS_ONLY: its entries hold the table and index keys.
    /// let top: Option<TweetRtIndexItem> = db.query_index(Tweet::rt_index(), "Paris").desc().first().await?;
    /// assert_eq!(top.map(|t| (t.retweets, t.key())), Some((12, TweetKey::from(("abc", "2")))));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn query_index<M: Model, H, R, T: Projected>(
        &self,
        index: Index<M, H, R, T>,
        hash: impl IntoKey<H>,
    ) -> Query<'_, M, T> {
        Query::on_index(self, index, &hash.into_key())
    }

    /// A Scan of `M`'s table.
    ///
    /// (The example reads the tweets listed on [`Query`].)
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
    /// let popular = db.scan::<Tweet>().filter(Tweet::retweets().ge(5)).segments(4).count().await?;
    /// assert_eq!(popular, 2);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn scan<M: Model>(&self) -> Scan<'_, M> {
        Scan::new(self)
    }

    /// A Scan of one of `M`'s secondary indexes, returning its entries.
    ///
    /// (The example reads the tweets listed on [`Query`].)
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
    /// let entries: Vec<TweetRtIndexItem> = db.scan_index(Tweet::rt_index()).all().await?;
    /// assert_eq!(entries.len(), 4);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn scan_index<M: Model, H, R, T: Projected>(
        &self,
        index: Index<M, H, R, T>,
    ) -> Scan<'_, M, T> {
        Scan::on_index(self, index)
    }
}
