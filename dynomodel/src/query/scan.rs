//! [`Scan`]: the typed Scan builder, optionally parallel (`.segments(n)`).

use std::marker::PhantomData;

use futures::stream::{self, BoxStream, StreamExt};
use futures::Stream;

use crate::backend::ScanInput;
use crate::db::decode::TableKey;
use crate::db::{Db, Partial};
use crate::error::{Error, Result};
use crate::expression::{Condition, ExpressionContext, IntoProjection, ProjectionExpression};
use crate::model::{entity_filter, index_entity_filter, Index, Model, Projected};
use crate::query::cursor::Cursor;
use crate::query::pager::{Decode, Mode, Page, Pager, Request, Strict};

/// DynamoDB's bound on `TotalSegments`.
const MAX_SEGMENTS: u32 = 1_000_000;

/// A Scan of model `M`'s table or one of its indexes, returning `T`s. Build it with [`Db::scan`] or
/// [`Db::scan_index`]; finish with [`all`](Scan::all), [`count`](Scan::count), [`page`](Scan::page)
/// or [`stream`](Scan::stream).
///
/// [`filter`](Scan::filter), [`limit`](Scan::limit), [`page_size`](Scan::page_size),
/// [`consistent`](Scan::consistent) and [`project`](Scan::project) work as on a [`Query`](crate::Query),
/// whose documentation lists the tweets these examples read. As there, an item that does not decode
/// is an [`Error::ItemDecode`] naming it ([`lenient`](Scan::lenient) returns it beside the good ones),
/// and a single-table member's scan returns (and counts) only its own items, while every item of
/// the table is read and paid for.
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
/// let parisian: Vec<Tweet> = db.scan::<Tweet>().filter(Tweet::city().eq("Paris")).all().await?;
/// assert_eq!(parisian.len(), 3);
/// let some = db.scan::<Tweet>().limit(2).all().await?;
/// assert_eq!(some.len(), 2);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a scan does nothing until finished with all(), count(), page() or stream()"]
pub struct Scan<'a, M: Model, T = M> {
    db: &'a Db,
    index: Option<(&'static str, bool)>,
    filter: Option<Condition<M>>,
    projection: Option<ProjectionExpression<M>>,
    limit: Option<usize>,
    page_size: Option<i32>,
    consistent: bool,
    segments: u32,
    /// A single-table member's entity filter, `(attribute, entity type)`.
    entity: Option<(&'static str, &'static str)>,
    decode: Decode<T>,
    _model: PhantomData<fn() -> M>,
}

impl<'a, M: Model, T: Projected> Scan<'a, M, T> {
    pub(crate) fn new(db: &'a Db) -> Self {
        Scan {
            db,
            index: None,
            filter: None,
            projection: None,
            limit: None,
            page_size: None,
            consistent: false,
            segments: 1,
            entity: entity_filter::<M>(),
            decode: Decode::projected(),
            _model: PhantomData,
        }
    }

    pub(crate) fn on_index<H, R>(db: &'a Db, index: Index<M, H, R, T>) -> Self {
        Scan {
            index: Some((index.name(), index.is_local())),
            entity: index_entity_filter::<M>(index.is_local(), index.projection()),
            ..Scan::new(db)
        }
    }
}

impl<'a, M: Model, T: Send + 'static> Scan<'a, M, T> {
    /// A `FilterExpression`; several calls are combined with `AND`.
    pub fn filter(mut self, condition: impl Into<Condition<M>>) -> Self {
        let condition = condition.into();
        self.filter = Some(match self.filter.take() {
            Some(previous) => previous.and(condition),
            None => condition,
        });
        self
    }

    /// At most `n` results in all.
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(n);
        self
    }

    /// DynamoDB's `Limit` on every request: items evaluated per page.
    pub fn page_size(mut self, n: i32) -> Self {
        self.page_size = Some(n);
        self
    }

    /// Strongly consistent reads (not on global indexes).
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// A parallel scan: `n` segments (1 to 1,000,000) read concurrently and merged into one stream,
    /// in no particular order.
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
    /// let mut ids: Vec<String> = db
    ///     .scan::<Tweet>()
    ///     .segments(3)
    ///     .all()
    ///     .await?
    ///     .into_iter()
    ///     .map(|t| format!("{}/{}", t.userid, t.id))
    ///     .collect();
    /// ids.sort();
    /// assert_eq!(ids, ["abc/1", "abc/2", "abc/3", "xyz/1"]);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn segments(mut self, n: u32) -> Self {
        self.segments = n;
        self
    }

    /// Returns only these attributes, as [`Partial`] views of the model; see
    /// [`Query::project`](crate::Query::project).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct User { #[hash_key] id: String, name: String, karma: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<User>().await?;
    /// db.put(&User { id: "u1".into(), name: "Ada".into(), karma: 7 }).await?;
    /// let names = db.scan::<User>().project(User::name()).all().await?;
    /// assert_eq!(names[0].get(User::name())?, Some("Ada".to_owned()));
    /// assert!(!names[0].contains(User::karma()));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn project(self, paths: impl IntoProjection<M>) -> Scan<'a, M, Partial<M>> {
        Scan {
            db: self.db,
            index: self.index,
            filter: self.filter,
            projection: Some(paths.into_projection()),
            limit: self.limit,
            page_size: self.page_size,
            consistent: self.consistent,
            segments: self.segments,
            entity: self.entity,
            decode: Decode::items(|item| Ok(Partial::new(item))),
            _model: PhantomData,
        }
    }

    /// Decodes the results as collection `C`, each item as the member its entity attribute names
    /// (a table shared by several models): `db.scan::<User>().collection::<UserData>()`. `M` must
    /// be one of `C`'s members; a projection is dropped, since decoding needs whole items.
    pub fn collection<C: crate::Collection>(self) -> Scan<'a, M, C> {
        Scan {
            db: self.db,
            index: self.index,
            filter: self.filter,
            projection: None,
            limit: self.limit,
            page_size: self.page_size,
            consistent: self.consistent,
            segments: self.segments,
            // Every member's items: the scan is no longer `M`'s alone.
            entity: None,
            decode: Decode::items(C::from_item),
            _model: PhantomData,
        }
    }

    pub(crate) fn build(&self) -> Result<ScanInput> {
        if !(1..=MAX_SEGMENTS).contains(&self.segments) {
            return Err(Error::validation(format!(
                "a parallel scan has 1 to {MAX_SEGMENTS} segments, not {}",
                self.segments
            )));
        }
        if self.consistent && matches!(self.index, Some((_, false))) {
            return Err(Error::validation(
                "Consistent reads are not supported on global secondary indexes",
            ));
        }
        let mut ctx = ExpressionContext::new();
        let filter = ctx.filter(self.filter.as_ref(), self.entity)?;
        let projection = match &self.projection {
            Some(p) => ctx.projection(p)?,
            None => None,
        };
        let (names, values) = ctx.finish();
        Ok(ScanInput {
            table_name: self.db.table_name::<M>(),
            index_name: self.index.map(|(name, _)| name.to_owned()),
            filter_expression: filter,
            projection_expression: projection,
            expression_attribute_names: (!names.is_empty()).then_some(names),
            expression_attribute_values: (!values.is_empty()).then_some(values),
            consistent_read: self.consistent.then_some(true),
            ..Default::default()
        })
    }

    /// One pager per segment.
    fn pagers(&self, limit: Option<usize>) -> Result<Vec<Pager<T>>> {
        let input = self.build()?;
        let total = self.segments;
        Ok((0..total)
            .map(|segment| {
                let mut input = input.clone();
                if total > 1 {
                    input.segment = Some(segment as i32);
                    input.total_segments = Some(total as i32);
                }
                Pager {
                    calls: self.db.calls.clone(),
                    request: Request::Scan(input),
                    decode: self.decode,
                    key: TableKey::of::<M>(),
                    full: None,
                    limit,
                    page_size: self.page_size,
                }
            })
            .collect())
    }

    /// Every result (up to `limit`).
    pub async fn all(self) -> Result<Vec<T>> {
        futures::TryStreamExt::try_collect(self.stream()).await
    }

    /// How many items match (`Select=COUNT`, summed over pages and segments, read concurrently).
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
    /// let lyon = db.scan::<Tweet>().filter(Tweet::city().eq("Lyon")).segments(2).count().await?;
    /// assert_eq!(lyon, 1);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn count(self) -> Result<usize> {
        let counts =
            futures::future::try_join_all(self.pagers(None)?.into_iter().map(Pager::count)).await?;
        Ok(counts.into_iter().sum())
    }

    /// One page after `cursor`. A parallel scan has one position per segment, which one cursor cannot
    /// hold: paging needs `segments(1)` (use `stream()` for parallel reads).
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
    /// let page = db.scan::<Tweet>().limit(3).page(None).await?;
    /// assert_eq!(page.items.len(), 3);
    /// let rest = db.scan::<Tweet>().limit(3).page(page.next).await?;
    /// assert_eq!(rest.items.len(), 1);
    /// assert!(db.scan::<Tweet>().segments(2).page(None).await.is_err());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn page(self, cursor: Option<Cursor>) -> Result<Page<T>> {
        self.page_in::<Strict>(cursor).await
    }

    /// [`page`](Scan::page) in either mode.
    pub(crate) async fn page_in<Md: Mode<T>>(
        self,
        cursor: Option<Cursor>,
    ) -> Result<Page<Md::Out>> {
        if self.segments != 1 {
            return Err(Error::validation(
                "page() reads one segment; a parallel scan is read with stream() or all()",
            ));
        }
        let mut pagers = self.pagers(self.limit)?;
        pagers.remove(0).page::<Md>(cursor).await
    }

    /// Every result as a stream; with `segments(n)`, the n segments are read concurrently (each
    /// fetching its next page when its items are consumed) and merged as they arrive.
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
    /// let stream = db.scan::<Tweet>().segments(4).page_size(1).stream();
    /// let tweets: Vec<Tweet> = stream.try_collect().await?;
    /// assert_eq!(tweets.iter().map(|t| t.retweets).sum::<i64>(), 22);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn stream(self) -> impl Stream<Item = Result<T>> + Send + 'static {
        self.stream_in::<Strict>()
    }

    /// [`stream`](Scan::stream) in either mode.
    pub(crate) fn stream_in<Md: Mode<T>>(self) -> BoxStream<'static, Result<Md::Out>> {
        let limit = self.limit;
        match self.pagers(limit) {
            Ok(mut pagers) if pagers.len() == 1 => pagers.remove(0).stream::<Md>(),
            // Each segment is capped at `limit` too; the merged stream takes `limit` in all.
            Ok(pagers) => stream::select_all(pagers.into_iter().map(Pager::stream::<Md>))
                .take(limit.unwrap_or(usize::MAX))
                .boxed(),
            Err(e) => Box::pin(stream::once(async move { Err(e) })),
        }
    }
}
