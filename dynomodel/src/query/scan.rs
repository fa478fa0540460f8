//! [`Scan`]: the typed Scan builder, optionally parallel (`.segments(n)`).

use std::marker::PhantomData;

use futures::stream::{self, BoxStream, StreamExt};
use futures::Stream;

use crate::backend::{KeyType, ScanInput};
use crate::db::decode::TableKey;
use crate::db::{attribute, Db, Partial};
use crate::error::{Error, Result};
use crate::expression::{Condition, ExpressionContext, IntoProjection, ProjectionExpression};
use crate::model::{entity_filter, index_entity_filter, Index, IndexInfo, Model, Projected};
use crate::query::cursor::{Operation, Scope};
use crate::query::decoding::{Decode, Mode, Strict};
use crate::query::pager::{Pager, Request};

/// DynamoDB's bound on `TotalSegments`.
const MAX_SEGMENTS: u32 = 1_000_000;

/// A Scan of model `M`'s table or one of its indexes, returning `T`s. Build it with [`Db::scan`] or
/// [`Db::scan_index`]; finish with [`all`](Scan::all), [`count`](Scan::count), [`page`](Scan::page)
/// (n items and a [`Cursor`](crate::Cursor)), [`dynamodb_page`](Scan::dynamodb_page) (one DynamoDB
/// request) or [`stream`](Scan::stream).
///
/// [`filter`](Scan::filter), [`limit`](Scan::limit), [`page_size`](Scan::page_size),
/// [`consistent`](Scan::consistent) and [`project`](Scan::project) work as on a [`Query`](crate::Query),
/// whose documentation lists the tweets these examples read. As there, an item that does not decode
/// is an [`Error::ItemDecode`] naming it ([`lenient`](Scan::lenient) returns it beside the good ones),
/// and a single-table member's scan returns (and counts, and pages by n) only its own items, while
/// every item of the table is read and paid for.
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
#[must_use = "a scan does nothing until finished with all(), count(), page(), dynamodb_page() or stream()"]
pub struct Scan<'a, M: Model, T = M> {
    db: &'a Db,
    index: Option<IndexInfo>,
    filter: Option<Condition<M>>,
    projection: Option<ProjectionExpression<M>>,
    pub(super) limit: Option<usize>,
    page_size: Option<i32>,
    consistent: bool,
    segments: u32,
    /// `.segment(n, total)`: only segment `n` of `segments`.
    only: Option<u32>,
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
            only: None,
            entity: entity_filter::<M>(),
            decode: Decode::projected(),
            _model: PhantomData,
        }
    }

    pub(crate) fn on_index<H, R>(db: &'a Db, index: Index<M, H, R, T>) -> Self {
        Scan {
            index: Some(index.info()),
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
        self.only = None;
        self
    }

    /// Reads only segment `segment` of a parallel scan in `total` segments (0-based, as
    /// DynamoDB's `Segment` and `TotalSegments`): one worker's share when the workers are separate
    /// processes or requests. `all`, `stream`, `count` and `page` read that segment alone, and its
    /// pages' cursors carry the segment: given to another segment (or to a whole scan) they are an
    /// [`Error::InvalidCursor`], since DynamoDB resumes a segment only from its own keys.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # for userid in ["a", "b", "c", "d", "e", "f"] {
    /// #     db.put(&Tweet { userid: userid.into(), id: "1".into() }).await?;
    /// # }
    /// let mut seen = 0;
    /// for segment in 0..3 {
    ///     let mut cursor = None;
    ///     loop {
    ///         let page = db.scan::<Tweet>().segment(segment, 3).page(1, cursor).await?;
    ///         seen += page.items.len();
    ///         match page.next {
    ///             Some(next) => {
    ///                 assert_eq!(next.segment(), Some((segment, 3)));
    ///                 cursor = Some(next);
    ///             }
    ///             None => break,
    ///         }
    ///     }
    /// }
    /// assert_eq!(seen, 6);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn segment(mut self, segment: u32, total: u32) -> Self {
        self.segments = total;
        self.only = Some(segment);
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
            only: self.only,
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
            only: self.only,
            // Every member's items: the scan is no longer `M`'s alone.
            entity: None,
            decode: Decode::items(C::from_item),
            _model: PhantomData,
        }
    }

    /// The same scan, its results decoded by `decode` (e.g. as [`Versioned`](crate::Versioned)).
    pub(crate) fn retype<U>(self, decode: Decode<U>) -> Scan<'a, M, U> {
        Scan {
            db: self.db,
            index: self.index,
            filter: self.filter,
            projection: self.projection,
            limit: self.limit,
            page_size: self.page_size,
            consistent: self.consistent,
            segments: self.segments,
            only: self.only,
            entity: self.entity,
            decode,
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
        if let Some(segment) = self.only.filter(|segment| *segment >= self.segments) {
            return Err(Error::validation(format!(
                "segment {segment} of a parallel scan in {} segments: segments are numbered from 0",
                self.segments
            )));
        }
        if self.consistent && self.index.is_some_and(|index| !index.local) {
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
            index_name: self.index.map(|index| index.name.to_owned()),
            filter_expression: filter,
            projection_expression: projection,
            expression_attribute_names: (!names.is_empty()).then_some(names),
            expression_attribute_values: (!values.is_empty()).then_some(values),
            consistent_read: self.consistent.then_some(true),
            ..Default::default()
        })
    }

    /// What the scan positions: its cursors hold the table's keys, on an index the index's too,
    /// and with [`segment`](Scan::segment) the segment.
    pub(super) fn scope(&self) -> Scope {
        let mut scope = Scope::new(
            Operation::Scan,
            self.db.table_name::<M>(),
            self.index.map(|index| index.name.to_owned()),
            self.db.cursor_key().cloned(),
        )
        .segment(self.only.map(|segment| (segment, self.segments)))
        .key(M::HASH_KEY, KeyType::Hash);
        if let Some(range) = M::RANGE_KEY {
            scope = scope.key(range, KeyType::Range);
        }
        if let Some(index) = self.index {
            scope = scope.key(index.hash, KeyType::Hash);
            if let Some(range) = index.range {
                scope = scope.key(range, KeyType::Range);
            }
        }
        scope
    }

    /// Whether one position says where the scan goes on: not for `segments(n)` with n > 1, which
    /// reads n segments at once.
    pub(super) fn one_position(&self) -> Result<()> {
        match self.segments == 1 || self.only.is_some() {
            true => Ok(()),
            false => Err(Error::validation(
                "a page reads one segment: a parallel scan is read with stream() or all(), or one segment of it \
                 with .segment(n, total)",
            )),
        }
    }

    /// The same scan, its projection (if any) also returning `names` (see
    /// [`Query::projecting_keys`](crate::Query)).
    pub(super) fn projecting_keys(mut self, names: &[&str]) -> Self {
        self.projection = self.projection.take().map(|projection| {
            names.iter().fold(projection, |projection, name| {
                projection.with(attribute::<M>(name))
            })
        });
        self
    }

    /// One pager per segment read.
    pub(super) fn pagers(&self, limit: Option<usize>) -> Result<Vec<Pager<T>>> {
        let input = self.build()?;
        let total = self.segments;
        let segments = match self.only {
            Some(segment) => segment..segment + 1,
            None => 0..total,
        };
        Ok(segments
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
