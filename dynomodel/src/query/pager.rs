//! The paging engine shared by Query and Scan: one rendered request, sent page after page with the
//! previous page's `LastEvaluatedKey`, its items decoded (and optionally replaced by the full items).
//!
//! `limit` caps the results of the whole read: each request's `Limit` is the number still wanted
//! (or the page size, if smaller), so an unfiltered read stops after exactly one request per page
//! and a filtered one keeps paging until it has enough. DynamoDB's `Limit` counts items *evaluated*
//! (before the filter), so with a filter a page may hold fewer items than asked, even none, and the
//! read goes on while a `LastEvaluatedKey` comes back (DYNAMODB-FACTS §5).

use std::borrow::Cow;

use futures::stream::{self, BoxStream, StreamExt, TryStreamExt};

use crate::backend::{GetItemInput, ItemSink, QueryInput, QueryOutput, ScanInput, Select};
use crate::db::decode::{FromAttributes, ItemDecode, KeyWatch, Source, TableKey};
use crate::db::names::model_name;
use crate::db::Calls;
use crate::error::{ConversionError, Error, Result};
use crate::model::{entity_of, Projected};
use crate::query::cursor::Cursor;
use crate::query::lenient::Decoded;
use crate::value::{AttributeValue, Item};

/// One page of results and where the next one starts (`None`: this was the last).
///
/// Reading a whole table page by page (the tweets of [`Query`](crate::Query)'s documentation):
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
/// let mut cursor = None;
/// let mut pages = 0;
/// loop {
///     let page = db.scan::<Tweet>().limit(3).page(cursor).await?;
///     pages += 1;
///     match page.next {
///         Some(next) => cursor = Some(next),
///         None => break,
///     }
/// }
/// assert_eq!(pages, 2);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The page's items (possibly empty even when more follow: DynamoDB's `Limit` counts items read).
    pub items: Vec<T>,
    /// The cursor for the next page, absent after the last.
    pub next: Option<Cursor>,
}

/// A rendered Query or Scan request.
#[derive(Debug, Clone)]
pub(crate) enum Request {
    Query(QueryInput),
    Scan(ScanInput),
}

impl Request {
    fn set_page(&mut self, start: Option<Item>, limit: Option<i32>) {
        match self {
            Request::Query(q) => (q.exclusive_start_key, q.limit) = (start, limit),
            Request::Scan(s) => (s.exclusive_start_key, s.limit) = (start, limit),
        }
    }

    /// For `count()`: no items, no projection.
    fn set_count(&mut self) {
        match self {
            Request::Query(q) => (q.select, q.projection_expression) = (Some(Select::Count), None),
            Request::Scan(s) => (s.select, s.projection_expression) = (Some(Select::Count), None),
        }
    }

    /// Where the items come from, for the error of one that does not decode as `T`.
    fn source<T>(&self) -> Source<'_> {
        let (table, index) = match self {
            Request::Query(q) => (&q.table_name, &q.index_name),
            Request::Scan(s) => (&s.table_name, &s.index_name),
        };
        Source {
            model: model_name::<T>(),
            table,
            index: index.as_deref(),
        }
    }

    async fn send(self, backend: &Calls) -> Result<QueryOutput> {
        match self {
            Request::Query(q) => backend.query(q).await,
            Request::Scan(s) => backend.scan(s).await,
        }
    }

    /// [`Request::send`] as a typed read: the items go to `sink`.
    async fn send_into(self, backend: &Calls, sink: &mut dyn ItemSink) -> Result<QueryOutput> {
        match self {
            Request::Query(q) => backend.query_into(q, sink).await,
            Request::Scan(s) => backend.scan_into(s, sink).await,
        }
    }
}

/// `fetch_full()`: where the full items are read from, and (for a single-table member) the entity
/// type they must have: an index that does not project the entity attribute cannot be filtered on
/// the server, so the full items of other entity types are left out here.
#[derive(Debug, Clone)]
pub(crate) struct FullItems {
    pub(crate) table_name: String,
    /// `(attribute, entity type)`.
    pub(crate) entity: Option<(&'static str, &'static str)>,
}

/// How a read's items become its results: from an [`Item`], and, where the result type has a
/// better way, from the attributes a typed read hands over (`Backend::query_into`/`scan_into`),
/// which lets a backend that stores items in another form skip building the `Item`.
pub(crate) struct Decode<T> {
    pub(crate) item: fn(Item) -> std::result::Result<T, ConversionError>,
    pub(crate) attributes: Option<FromAttributes<T>>,
}

impl<T> Clone for Decode<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Decode<T> {}

impl<T> Decode<T> {
    /// From `Item`s only.
    pub(crate) fn items(item: fn(Item) -> std::result::Result<T, ConversionError>) -> Self {
        Decode {
            item,
            attributes: None,
        }
    }
}

impl<T: Projected> Decode<T> {
    /// A [`Projected`] type's decoding (a model's: from attributes too).
    pub(crate) fn projected() -> Self {
        Decode {
            item: T::from_projection,
            attributes: T::attributes_decoder(),
        }
    }
}

/// How a read hands over its items: [`Strict`] (an item that does not decode fails the read) or
/// [`PerItem`] (each item a `Result`, the read going on).
pub(crate) trait Mode<T>: Send + 'static {
    /// What each item of the read is.
    type Out: Send + 'static;
    /// The item, or the error that ends a strict read.
    fn out(decoded: Decoded<T>) -> Decoded<Self::Out>;
}

/// The first item that does not decode fails the read, as [`Error::ItemDecode`](crate::Error::ItemDecode).
pub(crate) struct Strict;

impl<T: Send + 'static> Mode<T> for Strict {
    type Out = T;
    #[inline]
    fn out(decoded: Decoded<T>) -> Decoded<T> {
        decoded
    }
}

/// Every item is returned, decoded or not.
pub(crate) struct PerItem;

impl<T: Send + 'static> Mode<T> for PerItem {
    type Out = Decoded<T>;
    #[inline]
    fn out(decoded: Decoded<T>) -> Decoded<Self::Out> {
        Ok(decoded)
    }
}

/// Decodes the items of a page, naming the key of each that fails (see [`KeyWatch`]).
struct Items<'r, T, Md: Mode<T>> {
    decode: Decode<T>,
    source: Source<'r>,
    watch: KeyWatch,
    items: Vec<Md::Out>,
    /// A strict read's failure: the items after it are skipped.
    error: Option<Box<ItemDecode>>,
}

impl<'r, T, Md: Mode<T>> Items<'r, T, Md> {
    fn new(decode: Decode<T>, source: Source<'r>, key: TableKey, capacity: usize) -> Self {
        Items {
            decode,
            source,
            watch: KeyWatch::new(key),
            items: Vec::with_capacity(capacity),
            error: None,
        }
    }

    fn push(&mut self, decoded: std::result::Result<T, ConversionError>) {
        let decoded = decoded.map_err(|e| self.source.error(self.watch.take(), e));
        self.output(decoded);
    }

    /// One decoded item, or the failure naming it.
    fn output(&mut self, decoded: Decoded<T>) {
        match Md::out(decoded) {
            Ok(item) => self.items.push(item),
            Err(e) => self.error = Some(e),
        }
    }

    /// An item given whole.
    fn item(&mut self, item: Item) {
        if self.error.is_none() {
            self.watch.see_item(&item);
            self.push((self.decode.item)(item));
        }
    }

    /// The items, or the failure of a strict read.
    fn finish(self) -> Result<Vec<Md::Out>> {
        match self.error {
            Some(e) => Err(Error::ItemDecode(e)),
            None => Ok(self.items),
        }
    }
}

/// The sink of a typed read: each item decoded as it comes, from its attributes.
struct Results<'r, T, Md: Mode<T>> {
    items: Items<'r, T, Md>,
    attributes: FromAttributes<T>,
}

impl<T: Send, Md: Mode<T>> ItemSink for Results<'_, T, Md> {
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        let items = &mut self.items;
        if items.error.is_none() {
            let decoded = items.watch.decode(attributes, self.attributes);
            items.push(decoded);
        }
    }

    // The engine's stored items: the key is looked up again only for an item that fails, so a
    // page that decodes costs nothing for naming the ones that would not.
    fn stored_item(
        &mut self,
        attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>,
        find: &dyn Fn(&str) -> Option<AttributeValue>,
    ) {
        let items = &mut self.items;
        if items.error.is_none() {
            let decoded = (self.attributes)(attributes)
                .map_err(|e| items.source.error(items.watch.key().key_from(find), e));
            items.output(decoded);
        }
    }

    // An item the backend built anyway (a filtered or projected read): decoded from it directly.
    fn owned_item(&mut self, item: Item) {
        self.items.item(item);
    }
}

/// A read ready to run.
pub(crate) struct Pager<T> {
    pub(crate) calls: Calls,
    pub(crate) request: Request,
    pub(crate) decode: Decode<T>,
    /// The table's key attributes, which an item that does not decode is named by.
    pub(crate) key: TableKey,
    pub(crate) full: Option<FullItems>,
    /// Results wanted in all (`.limit(n)`).
    pub(crate) limit: Option<usize>,
    /// DynamoDB's `Limit` per request (`.page_size(n)`).
    pub(crate) page_size: Option<i32>,
}

impl<T: Send + 'static> Pager<T> {
    fn request_limit(&self, remaining: Option<usize>) -> Option<i32> {
        let remaining = remaining.map(|r| i32::try_from(r).unwrap_or(i32::MAX));
        match (self.page_size, remaining) {
            (Some(size), Some(remaining)) => Some(size.min(remaining)),
            (size, remaining) => size.or(remaining),
        }
    }

    /// One request: the decoded items and the `LastEvaluatedKey`.
    async fn fetch<Md: Mode<T>>(
        &self,
        start: Option<Item>,
        remaining: Option<usize>,
    ) -> Result<(Vec<Md::Out>, Option<Item>)> {
        let mut request = self.request.clone();
        request.set_page(start, self.request_limit(remaining));
        let source = self.request.source::<T>();
        if let (None, Some(attributes)) = (&self.full, self.decode.attributes) {
            // A typed read: each item decoded from what the backend hands over.
            let mut results = Results::<T, Md> {
                items: Items::new(self.decode, source, self.key, 0),
                attributes,
            };
            let output = request.send_into(&self.calls, &mut results).await?;
            return Ok((results.items.finish()?, output.last_evaluated_key));
        }
        let output = request.send(&self.calls).await?;
        let items_read = output.items.unwrap_or_default();
        let mut items = Items::<T, Md>::new(self.decode, source, self.key, items_read.len());
        for item in items_read {
            let item = match &self.full {
                None => item,
                Some(full) => match self.read_full(full, &item).await? {
                    Some(item) => item,
                    // Deleted since the index was read, or another entity type's item: there is
                    // no full item of this model to return.
                    None => continue,
                },
            };
            items.item(item);
            if items.error.is_some() {
                break;
            }
        }
        Ok((items.finish()?, output.last_evaluated_key))
    }

    /// The table item an index entry stands for: a GetItem on the table key every index projects
    /// (`None`: deleted meanwhile, or of another entity type than the model's).
    /// (Sequential GetItems: BatchGetItem is not available yet.)
    async fn read_full(&self, full: &FullItems, entry: &Item) -> Result<Option<Item>> {
        let input = GetItemInput {
            table_name: full.table_name.clone(),
            key: self.key.key_of(entry),
            ..Default::default()
        };
        let item = self.calls.get_item(input).await?.item;
        Ok(item.filter(|item| match full.entity {
            Some((attribute, entity)) => entity_of(item, attribute) == Some(entity),
            None => true,
        }))
    }

    /// One page, starting after `cursor`.
    pub(crate) async fn page<Md: Mode<T>>(self, cursor: Option<Cursor>) -> Result<Page<Md::Out>> {
        let (items, next) = self
            .fetch::<Md>(cursor.map(Cursor::into_key), self.limit)
            .await?;
        Ok(Page {
            items,
            next: next.map(Cursor::from_key),
        })
    }

    /// Every result (up to the limit): the pages' items in one vector, the first page's taken as it
    /// is (no stream in between, and no vector grown item by item).
    pub(crate) async fn all<Md: Mode<T>>(self) -> Result<Vec<Md::Out>> {
        let mut all: Vec<Md::Out> = Vec::new();
        let mut start = None;
        let mut remaining = self.limit;
        while remaining != Some(0) {
            let (mut items, next) = self.fetch::<Md>(start.take(), remaining).await?;
            if let Some(remaining) = &mut remaining {
                items.truncate(*remaining);
                *remaining -= items.len();
            }
            match all.is_empty() {
                true => all = items,
                false => all.append(&mut items),
            }
            match next {
                Some(next) => start = Some(next),
                None => break,
            }
        }
        Ok(all)
    }

    /// Every result, fetched a page at a time as the stream is polled.
    pub(crate) fn stream<Md: Mode<T>>(self) -> BoxStream<'static, Result<Md::Out>> {
        struct State<T> {
            pager: Pager<T>,
            start: Option<Item>,
            remaining: Option<usize>,
            done: bool,
        }
        let remaining = self.limit;
        let state = State {
            pager: self,
            start: None,
            remaining,
            done: remaining == Some(0),
        };
        stream::try_unfold(state, |mut state| async move {
            if state.done {
                return Ok::<_, crate::error::Error>(None);
            }
            let (mut items, next) = state
                .pager
                .fetch::<Md>(state.start.take(), state.remaining)
                .await?;
            if let Some(remaining) = &mut state.remaining {
                items.truncate(*remaining);
                *remaining -= items.len();
                state.done = *remaining == 0;
            }
            state.done |= next.is_none();
            state.start = next;
            Ok(Some((stream::iter(items.into_iter().map(Ok)), state)))
        })
        .try_flatten()
        .boxed()
    }

    /// `Select=COUNT`, summed over every page (`limit` does not apply; `page_size` does).
    pub(crate) async fn count(mut self) -> Result<usize> {
        self.request.set_count();
        let mut total = 0usize;
        let mut start = None;
        loop {
            let mut request = self.request.clone();
            request.set_page(start, self.page_size);
            let output = request.send(&self.calls).await?;
            total += usize::try_from(output.count).unwrap_or(0);
            match output.last_evaluated_key {
                Some(key) => start = Some(key),
                None => return Ok(total),
            }
        }
    }
}
