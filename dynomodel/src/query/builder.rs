//! [`Query`]: the typed Query builder, for a table (`db.query::<M>(hash)`) or an index
//! (`db.query_index(M::some_index(), hash)`).

use std::marker::PhantomData;

use futures::Stream;

use crate::backend::{QueryInput, Select};
use crate::db::Db;
use crate::error::{ConversionError, Error, Result};
use crate::expression::{Condition, ExpressionContext, ProjectionExpression};
use crate::model::{Index, Model, Projected};
use crate::query::cursor::Cursor;
use crate::query::key::{self, Target};
use crate::query::pager::{FullItems, Page, Pager, Request};
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
/// [`first`](Query::first), [`one`](Query::one), [`count`](Query::count), [`page`](Query::page) or
/// [`stream`](Query::stream). Nothing is sent before a finisher runs; a malformed query (a range
/// condition DynamoDB cannot use, a consistent read on a global index) fails there, unsent.
#[must_use = "a query does nothing until finished with all(), first(), one(), count(), page() or stream()"]
pub struct Query<'a, M: Model, T = M> {
    db: &'a Db,
    hash_name: &'static str,
    hash: Result<AttributeValue>,
    source: Source,
    range: Option<Condition<M>>,
    filter: Option<Condition<M>>,
    projection: Option<ProjectionExpression<M>>,
    limit: Option<usize>,
    page_size: Option<i32>,
    forward: bool,
    consistent: bool,
    full: bool,
    decode: fn(Item) -> std::result::Result<T, ConversionError>,
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
            decode: M::from_item,
            _model: PhantomData,
        }
    }

    /// Reads this index instead of choosing one from the range condition. Its entries must decode as
    /// `M` (an `ALL` index) and it must be partitioned by the table's hash key, since the query's
    /// hash value is one; use [`Db::query_index`] for any other index.
    pub fn index<R>(mut self, index: Index<M, M::Hash, R, M>) -> Self {
        let info = index.info();
        self.source = Source::Index(Target {
            index: Some(info.name.to_owned()),
            local: info.local,
            range: info.range.map(str::to_owned),
            select_all: false,
        });
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
            decode: T::from_projection,
            _model: PhantomData,
        }
    }
}

impl<'a, M: Model, T: Send + 'static> Query<'a, M, T> {
    /// The sort-key condition, built from the sort key's handle: `Tweet::ts().gt(yesterday)`. One of
    /// `eq`, `lt`, `le`, `gt`, `ge`, `between`, `begins_with`; anything else, or another attribute,
    /// fails when the query runs. On `db.query::<M>`, a condition on an attribute that is not the
    /// table's sort key selects the index sorted by it (see [`Db::query`]).
    pub fn range(mut self, condition: Condition<M>) -> Self {
        self.range = Some(condition);
        self
    }

    /// A `FilterExpression`: applied after reading (it reduces what is returned, not what is read or
    /// paid for). Several calls are combined with `AND`.
    pub fn filter(mut self, condition: Condition<M>) -> Self {
        self.filter = Some(match self.filter.take() {
            Some(previous) => previous.and(condition),
            None => condition,
        });
        self
    }

    /// At most `n` results in all (`all`, `stream`, `page`); requests ask for no more than remain.
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(n);
        self
    }

    /// DynamoDB's `Limit` on every request: items *evaluated* per page, before the filter.
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
    pub fn desc(mut self) -> Self {
        self.forward = false;
        self
    }

    /// Strongly consistent reads (tables and local indexes only; an error on a global index).
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }

    /// Returns only these attributes, as raw [`Item`]s (a model cannot be built from some of its
    /// attributes without inventing the others).
    pub fn project(self, projection: ProjectionExpression<M>) -> Query<'a, M, Item> {
        let mut query = self.retype(Ok);
        query.projection = Some(projection);
        query.full = false;
        query
    }

    /// Returns the full items for an index's entries: one GetItem per entry on the table key every
    /// index projects (sequential; BatchGetItem is not available yet). An entry whose item was deleted
    /// meanwhile is skipped.
    pub fn fetch_full(self) -> Query<'a, M, M> {
        let mut query = self.retype(M::from_item);
        query.projection = None;
        query.full = true;
        query
    }

    fn retype<U>(
        self,
        decode: fn(Item) -> std::result::Result<U, ConversionError>,
    ) -> Query<'a, M, U> {
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
            decode,
            _model: PhantomData,
        }
    }

    /// Renders the request (no paging fields yet).
    pub(crate) fn build(&self) -> Result<QueryInput> {
        let hash = self.hash.clone()?;
        let target = match (&self.source, &self.range) {
            (Source::Index(target), _) => target.clone(),
            (Source::Auto, None) => Target::table(M::RANGE_KEY),
            (Source::Auto, Some(range)) => key::auto_select(
                &M::schema(),
                M::HASH_KEY,
                M::RANGE_KEY,
                key::range_attribute(range)?,
            )?,
        };
        if self.consistent && target.index.is_some() && !target.local {
            return Err(Error::validation(
                "Consistent reads are not supported on global secondary indexes",
            ));
        }
        let mut ctx = ExpressionContext::new();
        let key_condition =
            key::render(&mut ctx, self.hash_name, hash, self.range.as_ref(), &target)?;
        let filter = self.filter.as_ref().map(|f| ctx.condition(f)).transpose()?;
        let projection = match &self.projection {
            Some(p) => ctx.projection(p)?,
            None => None,
        };
        let (names, values) = ctx.finish();
        Ok(QueryInput {
            table_name: self.db.table_name::<M>(),
            index_name: target.index,
            key_condition_expression: Some(key_condition),
            filter_expression: filter,
            projection_expression: projection,
            expression_attribute_names: (!names.is_empty()).then_some(names),
            expression_attribute_values: (!values.is_empty()).then_some(values),
            select: (target.select_all && !self.full).then_some(Select::AllAttributes),
            scan_index_forward: (!self.forward).then_some(false),
            consistent_read: self.consistent.then_some(true),
            ..Default::default()
        })
    }

    fn pager(&self, limit: Option<usize>) -> Result<Pager<T>> {
        let full = self.full.then(|| FullItems {
            table_name: self.db.table_name::<M>(),
            key_names: std::iter::once(M::HASH_KEY).chain(M::RANGE_KEY).collect(),
        });
        Ok(Pager {
            backend: self.db.backend().clone(),
            request: Request::Query(self.build()?),
            decode: self.decode,
            full,
            limit,
            page_size: self.page_size,
        })
    }

    /// Every result (up to `limit`), reading page after page.
    pub async fn all(self) -> Result<Vec<T>> {
        futures::TryStreamExt::try_collect(self.stream()).await
    }

    /// The first result, if any (pages until one matches the filter).
    pub async fn first(self) -> Result<Option<T>> {
        let mut results = self.limit(1).all().await?;
        Ok(results.pop())
    }

    /// Exactly one result: [`Error::NoResult`] if there is none, [`Error::MoreThanOneResult`] if there
    /// are more (it reads at most two).
    pub async fn one(self) -> Result<T> {
        let mut results = self.limit(2).all().await?;
        match results.len() {
            0 => Err(Error::NoResult),
            1 => Ok(results.remove(0)),
            _ => Err(Error::MoreThanOneResult),
        }
    }

    /// How many items match (`Select=COUNT`, summed over every page; `limit` does not apply).
    pub async fn count(self) -> Result<usize> {
        self.pager(None)?.count().await
    }

    /// One page starting after `cursor` (`None`: from the start), of at most `limit` results.
    pub async fn page(self, cursor: Option<Cursor>) -> Result<Page<T>> {
        self.pager(self.limit)?.page(cursor).await
    }

    /// Every result as a stream, fetching a page when the previous one is consumed.
    pub fn stream(self) -> impl Stream<Item = Result<T>> + Send + 'static {
        match self.pager(self.limit) {
            Ok(pager) => pager.stream(),
            Err(e) => Box::pin(futures::stream::once(async move { Err(e) })),
        }
    }
}
