//! [`Query`]: the typed Query builder, for a table (`db.query::<M>(hash)`) or an index
//! (`db.query_index(M::some_index(), hash)`).

use std::marker::PhantomData;

use futures::Stream;

use crate::backend::{KeyType, QueryInput, Select};
use crate::db::decode::TableKey;
use crate::db::{attribute, Db, Partial};
use crate::error::{Error, Result};
use crate::expression::{
    Condition, ExpressionContext, IntoProjection, IntoSortKeyCondition, ProjectionExpression,
};
use crate::model::{entity_filter, index_entity_filter, Index, Model, Projected};
use crate::query::cursor::{Cursor, InvalidCursorReason, Operation, Scope};
use crate::query::decoding::{Decode, Strict};
use crate::query::key::{self, Target};
use crate::query::pager::{FullItems, Pager, Request};
use crate::value::{AttributeValue, Item};

/// Which table or index a query reads.
#[derive(Debug, Clone)]
enum Source {
    /// `db.query::<M>(..)`: the table, or the index `.range(..)` implies.
    Auto,
    /// `.index(..)` or `db.query_index(..)`.
    Index(Target),
}

/// A Query on model `M`'s table or one of its indexes, returning `T`s. Build it with
/// [`Db::query`] or [`Db::query_index`], refine it, then finish with [`all`](Query::all),
/// [`first`](Query::first), [`one`](Query::one), [`count`](Query::count), [`page`](Query::page)
/// (pages of n items for web APIs, with a [`Cursor`](crate::Cursor)),
/// [`dynamodb_page`](Query::dynamodb_page) (one DynamoDB request) or [`stream`](Query::stream).
/// Nothing is sent before a finisher runs; a malformed query (a range condition DynamoDB cannot
/// use, a consistent read on a global index) or a cursor that does not fit it fails there, unsent.
///
/// An item that does not decode as `T` fails the read with [`Error::ItemDecode`], naming the table,
/// the index, the item's key and the attribute; [`lenient`](Query::lenient) returns such items as
/// `Err`s beside the good ones instead (with the same finishers, pages included).
///
/// A model sharing its table with others (a single-table member, `entity = "..."`) reads only its
/// own items: the entity check is ANDed to the `FilterExpression`, so `count`, `limit` and
/// `page(n, ..)` are of this entity, but the other entities' items of the partition are still read
/// and paid for (and counted in `ScannedCount`), and a `dynamodb_page` may hold fewer items than
/// asked, even none. See "Single-table entities" on [`Model`](crate::Model) (`.collection::<C>()`
/// reads every member).
///
/// The examples of this page and of [`Scan`](crate::Scan) run on an in-memory database
/// (`Db::memory()` of `dynomodel-mem`) holding four tweets. `Tweet` has the local index `ts-local`
/// (sorted by `ts`, projecting `ALL`) and the global `KEYS_ONLY` index `rt-index` (partition `city`,
/// sorted by `retweets`):
///
/// | `userid` | `id` | `city` | `ts` | `retweets` | `text` |
/// |---|---|---|---|---|---|
/// | abc | 1 | Paris | 100 | 3 | hello rust |
/// | abc | 2 | Paris | 200 | 12 | typed queries |
/// | abc | 3 | Lyon | 300 | 0 | rust indexes |
/// | xyz | 1 | Paris | 150 | 7 | bonjour |
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
/// let query = db.query::<Tweet>("abc").filter(Tweet::city().eq("Paris"));
/// let tweets: Vec<Tweet> = query.desc().all().await?;
/// assert_eq!(tweets.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["2", "1"]);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a query does nothing until finished with all(), first(), one(), count(), page(), dynamodb_page() or stream()"]
pub struct Query<'a, M: Model, T = M> {
    db: &'a Db,
    hash_name: &'static str,
    hash: Result<AttributeValue>,
    source: Source,
    range: Option<Condition<M>>,
    filter: Option<Condition<M>>,
    projection: Option<ProjectionExpression<M>>,
    pub(super) limit: Option<usize>,
    page_size: Option<i32>,
    forward: bool,
    consistent: bool,
    full: bool,
    /// A single-table member's entity filter, `(attribute, entity type)` (see [`entity_filter`]).
    pub(super) entity: Option<(&'static str, &'static str)>,
    decode: Decode<T>,
    _model: PhantomData<fn() -> M>,
}

impl<'a, M: Model> Query<'a, M, M> {
    pub(crate) fn table(db: &'a Db, hash: Result<AttributeValue>) -> Self {
        Query {
            db,
            hash_name: M::HASH_KEY,
            hash,
            source: Source::Auto,
            range: None,
            filter: None,
            projection: None,
            limit: None,
            page_size: None,
            forward: true,
            consistent: false,
            full: false,
            entity: entity_filter::<M>(),
            decode: Decode::projected(),
            _model: PhantomData,
        }
    }

    /// Reads this index instead of choosing one from the range condition. Its entries must decode as
    /// `M` (an `ALL` index) and it must be partitioned by the table's hash key, since the query's
    /// hash value is one; use [`Db::query_index`] for any other index.
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
    /// let latest = db.query::<Tweet>("abc").index(Tweet::ts_local()).desc().first().await?;
    /// assert_eq!(latest.map(|t| t.ts), Some(300));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn index<R>(mut self, index: Index<M, M::Hash, R, M>) -> Self {
        let info = index.info();
        self.source = Source::Index(Target {
            index: Some(info.name.to_owned()),
            local: info.local,
            range: info.range.map(str::to_owned),
            select_all: false,
        });
        self.entity = index_entity_filter::<M>(info.local, index.projection());
        if index.hash_key() != M::HASH_KEY {
            self.hash = Err(Error::validation(format!(
                "index `{}` is partitioned by `{}`, not by the table's hash key `{}`: query it with db.query_index(...)",
                index.name(),
                index.hash_key(),
                M::HASH_KEY
            )));
        }
        self
    }
}

impl<'a, M: Model, T: Projected> Query<'a, M, T> {
    pub(crate) fn on_index<H, R>(db: &'a Db, index: Index<M, H, R, T>, hash: &H) -> Self {
        let info = index.info();
        Query {
            db,
            hash_name: index.hash_key(),
            hash: index.hash_attribute(hash).map_err(Error::from),
            source: Source::Index(Target {
                index: Some(info.name.to_owned()),
                local: info.local,
                range: info.range.map(str::to_owned),
                select_all: false,
            }),
            range: None,
            filter: None,
            projection: None,
            limit: None,
            page_size: None,
            forward: true,
            consistent: false,
            full: false,
            entity: index_entity_filter::<M>(info.local, index.projection()),
            decode: Decode::projected(),
            _model: PhantomData,
        }
    }
}

impl<'a, M: Model, T: Send + 'static> Query<'a, M, T> {
    /// The sort-key condition, built from the sort key's handle: `Tweet::ts().gt(yesterday)`, one
    /// of `eq`, `lt`, `le`, `gt`, `ge`, `between`, `begins_with` (a [`SortKeyCondition`](crate::SortKeyCondition)). Checked
    /// at compile time: a comparison of an attribute that sorts neither the table nor an index,
    /// another operator, or a combination (`&`, `|`) is a plain [`Condition`] and does not compile
    /// here (see [roles](crate::expression::role)); filter with [`filter`](Query::filter) instead.
    ///
    /// Which table or index the attribute sorts is checked when the query runs, before anything
    /// is sent. On `db.query::<M>`, a condition on an attribute that is not the table's sort key
    /// selects the index sorted by it (see [`Db::query`]), and it is an error when no such index
    /// can return whole items; on [`Db::query_index`] or after [`index`](Query::index), a
    /// condition on another index's sort key is an error naming both.
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
    /// let early = db.query::<Tweet>("abc").range(Tweet::id().between("1", "2")).all().await?;
    /// assert_eq!(early.len(), 2);
    /// // `retweets` sorts "rt-index", which is partitioned by `city`, not by `userid`: an error,
    /// // before anything is sent.
    /// let wrong = db.query::<Tweet>("abc").range(Tweet::retweets().ge(5)).all().await;
    /// assert!(wrong.is_err_and(|e| e.code() == "ValidationException"));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn range(mut self, condition: impl IntoSortKeyCondition<M>) -> Self {
        self.range = Some(condition.into_sort_key_condition().into_condition());
        self
    }

    /// A `FilterExpression`: applied after reading (it reduces what is returned, not what is read or
    /// paid for). Several calls are combined with `AND`.
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
    /// let rusty = db
    ///     .query::<Tweet>("abc")
    ///     .filter(Tweet::text().contains("rust"))
    ///     .filter(Tweet::city().eq("Paris"))
    ///     .all()
    ///     .await?;
    /// assert_eq!(rusty.len(), 1);
    /// assert_eq!(rusty[0].text, "hello rust");
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn filter(mut self, condition: impl Into<Condition<M>>) -> Self {
        let condition = condition.into();
        self.filter = Some(match self.filter.take() {
            Some(previous) => previous.and(condition),
            None => condition,
        });
        self
    }

    /// At most `n` results in all (`all`, `stream`, `dynamodb_page`); requests ask for no more than
    /// remain. A [`page`](Query::page) takes its size as an argument instead.
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
    /// let two = db.query::<Tweet>("abc").limit(2).all().await?;
    /// assert_eq!(two.len(), 2);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(n);
        self
    }

    /// DynamoDB's `Limit` on every request: items *evaluated* per page, before the filter.
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
    /// // One item per request: more requests, the same results.
    /// let all = db.query::<Tweet>("abc").page_size(1).all().await?;
    /// assert_eq!(all.len(), 3);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn page_size(mut self, n: i32) -> Self {
        self.page_size = Some(n);
        self
    }

    /// Ascending sort-key order (the default).
    pub fn asc(mut self) -> Self {
        self.forward = true;
        self
    }

    /// Descending sort-key order (`ScanIndexForward=false`).
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
    /// let newest_first = db.query::<Tweet>("abc").desc().all().await?;
    /// assert_eq!(newest_first.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["3", "2", "1"]);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn desc(mut self) -> Self {
        self.forward = false;
        self
    }

    /// Strongly consistent reads (tables and local indexes only; an error on a global index).
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
    /// assert_eq!(db.query::<Tweet>("abc").consistent().count().await?, 3);
    /// let global = db.query_index(Tweet::rt_index(), "Paris").consistent().all().await;
    /// assert!(global.is_err_and(|e| e.code() == "ValidationException"));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// Returns only these attributes (a field, a path, a tuple of them or a [`ProjectionExpression`]),
    /// as [`Partial`] views of the model, like [`Get::project`](crate::Get::project): typed access to
    /// what was asked for, without inventing the attributes that were not.
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
    /// let texts = db
    ///     .query::<Tweet>("abc")
    ///     .project((Tweet::text(), Tweet::retweets()))
    ///     .all()
    ///     .await?;
    /// assert_eq!(texts[0].get(Tweet::text())?, Some("hello rust".to_owned()));
    /// assert_eq!(texts[0].get(Tweet::retweets())?, Some(3));
    /// assert_eq!(texts[0].get(Tweet::city())?, None); // only what was asked for
    /// assert_eq!(texts[0].item().len(), 2);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn project(self, paths: impl IntoProjection<M>) -> Query<'a, M, Partial<M>> {
        let mut query = self.retype(Decode::items(|item| Ok(Partial::new(item))));
        query.projection = Some(paths.into_projection());
        query.full = false;
        query
    }

    /// Returns the full items for an index's entries: one GetItem per entry on the table key every
    /// index projects (sequential; BatchGetItem is not available yet). An entry whose item was deleted
    /// meanwhile is skipped.
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
    /// // "rt-index" holds keys only; fetch_full() gives whole tweets, in the index's order.
    /// let by_retweets = db.query_index(Tweet::rt_index(), "Paris").fetch_full().all().await?;
    /// assert_eq!(by_retweets.iter().map(|t| t.retweets).collect::<Vec<_>>(), [3, 7, 12]);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn fetch_full(self) -> Query<'a, M, M> {
        let mut query = self.retype(Decode::projected());
        query.projection = None;
        query.full = true;
        query
    }

    pub(crate) fn retype<U>(self, decode: Decode<U>) -> Query<'a, M, U> {
        Query {
            db: self.db,
            hash_name: self.hash_name,
            hash: self.hash,
            source: self.source,
            range: self.range,
            filter: self.filter,
            projection: self.projection,
            limit: self.limit,
            page_size: self.page_size,
            forward: self.forward,
            consistent: self.consistent,
            full: self.full,
            entity: self.entity,
            decode,
            _model: PhantomData,
        }
    }

    /// Where the query reads: the table, or the index chosen (`.index`, `query_index`) or implied
    /// by the range condition.
    pub(super) fn target(&self) -> Result<Target> {
        Ok(match (&self.source, &self.range) {
            (Source::Index(target), _) => target.clone(),
            (Source::Auto, None) => Target::table(M::RANGE_KEY),
            (Source::Auto, Some(range)) => {
                let attribute = key::range_attribute(range)?;
                match M::RANGE_KEY == Some(attribute) {
                    // The table's own sort key: no need to build the schema to look at indexes.
                    true => Target::table(M::RANGE_KEY),
                    false => key::auto_select(&M::schema(), M::HASH_KEY, M::RANGE_KEY, attribute)?,
                }
            }
        })
    }

    /// Renders the request on `target` (no paging fields yet), its names and values numbered.
    fn render(&self, target: Target) -> Result<Request> {
        let hash = self.hash.clone()?;
        if self.consistent && target.index.is_some() && !target.local {
            return Err(Error::validation(
                "Consistent reads are not supported on global secondary indexes",
            ));
        }
        let mut ctx = ExpressionContext::new();
        let key_condition =
            key::render(&mut ctx, self.hash_name, hash, self.range.as_ref(), &target)?;
        let filter = ctx.filter(self.filter.as_ref(), self.entity)?;
        let projection = match &self.projection {
            Some(p) => ctx.projection(p)?,
            None => None,
        };
        let input = QueryInput {
            table_name: self.db.table_name::<M>(),
            index_name: target.index,
            key_condition_expression: Some(key_condition),
            filter_expression: filter,
            projection_expression: projection,
            select: (target.select_all && !self.full).then_some(Select::AllAttributes),
            scan_index_forward: (!self.forward).then_some(false),
            consistent_read: self.consistent.then_some(true),
            ..Default::default()
        };
        // The names and values stay numbered until the backend builds its maps of them.
        Ok(Request::Query(input, ctx.finish_numbered()))
    }

    /// What the query positions on `target`: its cursors hold the table's keys, on an index the
    /// index's too, in the partition read.
    pub(super) fn scope(&self, target: &Target) -> Result<Scope> {
        let hash = self.hash.clone()?;
        let mut scope = Scope::new(
            Operation::Query,
            self.db.table_name::<M>(),
            target.index.clone(),
            self.db.cursor_key().cloned(),
        )
        .key(M::HASH_KEY, KeyType::Hash);
        if let Some(range) = M::RANGE_KEY {
            scope = scope.key(range, KeyType::Range);
        }
        if target.index.is_some() {
            scope = scope.key(self.hash_name, KeyType::Hash);
            if let Some(range) = &target.range {
                scope = scope.key(range.clone(), KeyType::Range);
            }
        }
        Ok(scope.partition(self.hash_name, hash))
    }

    /// A cursor given to the query, checked against `scope` and against the range condition: the
    /// key to start after.
    pub(super) fn start(
        &self,
        scope: &Scope,
        target: &Target,
        cursor: Option<Cursor>,
    ) -> Result<Option<Item>> {
        let Some(cursor) = cursor else {
            return Ok(None);
        };
        let start = scope.start(cursor, &M::schema())?;
        if let Some(attribute) = self.outside_range(target, &start) {
            return Err(scope.refuse(InvalidCursorReason::OutsideRange {
                attribute: attribute.to_owned(),
            }));
        }
        Ok(Some(start))
    }

    /// The sort key attribute of `key`, if its value does not satisfy the range condition (which
    /// DynamoDB refuses in an `ExclusiveStartKey`).
    pub(super) fn outside_range<'t>(&self, target: &'t Target, key: &Item) -> Option<&'t str> {
        let range = self.range.as_ref()?;
        let attribute = target.range.as_deref()?;
        (!key::admits(range, key.get(attribute))).then_some(attribute)
    }

    /// The same query, its projection (if any) also returning `names`: a page's cursor is made
    /// from its last item's keys.
    pub(super) fn projecting_keys(mut self, names: &[&str]) -> Self {
        self.projection = self.projection.take().map(|projection| {
            names.iter().fold(projection, |projection, name| {
                projection.with(attribute::<M>(name))
            })
        });
        self
    }

    /// The pager of `all` and `stream` (up to `limit`).
    pub(crate) fn limited_pager(&self) -> Result<Pager<T>> {
        self.pager(self.limit)
    }

    fn pager(&self, limit: Option<usize>) -> Result<Pager<T>> {
        self.pager_on(self.target()?, limit)
    }

    /// The pager reading `target`, with `limit` results in all.
    pub(super) fn pager_on(&self, target: Target, limit: Option<usize>) -> Result<Pager<T>> {
        let full = self.full.then(|| FullItems {
            table_name: self.db.table_name::<M>(),
            entity: M::ENTITY_TYPE.map(|entity| (M::ENTITY_ATTRIBUTE, entity)),
        });
        Ok(Pager {
            calls: self.db.calls.clone(),
            request: self.render(target)?,
            decode: self.decode,
            key: TableKey::of::<M>(),
            full,
            limit,
            page_size: self.page_size,
        })
    }

    /// Every result (up to `limit`), reading page after page.
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
    /// let tweets: Vec<Tweet> = db.query::<Tweet>("abc").all().await?;
    /// assert_eq!(tweets.len(), 3);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn all(self) -> Result<Vec<T>> {
        let pager = self.pager(self.limit)?;
        // A page after the first is rendered anew: the first page's request goes without a copy.
        let again = || self.render(self.target()?);
        pager.all_rendering::<Strict>(Some(&again)).await
    }

    /// The first result, if any (pages until one matches the filter).
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
    /// let first = db.query::<Tweet>("abc").filter(Tweet::city().eq("Lyon")).first().await?;
    /// assert_eq!(first.map(|t| t.id), Some("3".into()));
    /// assert_eq!(db.query::<Tweet>("nobody").first().await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn first(self) -> Result<Option<T>> {
        let mut results = self.limit(1).all().await?;
        Ok(results.pop())
    }

    /// Exactly one result: [`Error::NoResult`] if there is none, [`Error::MoreThanOneResult`] if there
    /// are more (it reads at most two).
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
    /// use dynomodel::Error;
    ///
    /// let only = db.query::<Tweet>("xyz").one().await?;
    /// assert_eq!(only.text, "bonjour");
    /// assert_eq!(db.query::<Tweet>("nobody").one().await, Err(Error::NoResult));
    /// assert_eq!(db.query::<Tweet>("abc").one().await, Err(Error::MoreThanOneResult));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn one(self) -> Result<T> {
        let mut results = self.limit(2).all().await?;
        match results.len() {
            0 => Err(Error::NoResult),
            1 => Ok(results.remove(0)),
            _ => Err(Error::MoreThanOneResult),
        }
    }

    /// How many items match (`Select=COUNT`, summed over every page; `limit` does not apply).
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
    /// let rusty = db.query::<Tweet>("abc").filter(Tweet::text().contains("rust")).count().await?;
    /// assert_eq!(rusty, 2);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn count(self) -> Result<usize> {
        self.pager(None)?.count().await
    }

    /// Every result as a stream, fetching a page when the previous one is consumed.
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
    /// use futures::TryStreamExt;
    ///
    /// let mut tweets = std::pin::pin!(db.query::<Tweet>("abc").page_size(1).stream());
    /// let mut retweets = 0;
    /// while let Some(tweet) = tweets.try_next().await? {
    ///     retweets += tweet.retweets;
    /// }
    /// assert_eq!(retweets, 15);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn stream(self) -> impl Stream<Item = Result<T>> + Send + 'static {
        match self.pager(self.limit) {
            Ok(pager) => pager.stream::<Strict>(),
            Err(e) => Box::pin(futures::stream::once(async move { Err(e) })),
        }
    }
}
