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
use crate::db::Calls;
use crate::error::{ConversionError, Result};
use crate::model::Projected;
use crate::query::cursor::Cursor;
use crate::value::{AttributeValue, Item};

/// One page of results and where the next one starts.
///
/// [`Query::page`](crate::Query::page) and [`Scan::page`](crate::Scan::page) give up to `n`
/// matching items, reading as many DynamoDB requests as it takes, with `next` positioned right
/// after the last item returned, and no `next` once nothing follows.
/// [`Query::dynamodb_page`](crate::Query::dynamodb_page) and
/// [`Scan::dynamodb_page`](crate::Scan::dynamodb_page) give one DynamoDB response as it is: with a
/// filter it may be short or empty, and its `next` (DynamoDB's `LastEvaluatedKey`) may lead to an
/// empty page.
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
/// let mut sizes = Vec::new();
/// loop {
///     let page = db.scan::<Tweet>().page(2, cursor).await?;
///     sizes.push(page.items.len());
///     match page.next {
///         Some(next) => cursor = Some(next),
///         None => break,
///     }
/// }
/// assert_eq!(sizes, [2, 2]); // no third, empty page
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    /// The page's items.
    pub items: Vec<T>,
    /// Where the next page starts; absent when the read is complete.
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

    /// Whether a filter drops some of the items read.
    fn filtered(&self) -> bool {
        match self {
            Request::Query(q) => q.filter_expression.is_some(),
            Request::Scan(s) => s.filter_expression.is_some(),
        }
    }

    /// For `count()`: no items, no projection.
    fn set_count(&mut self) {
        match self {
            Request::Query(q) => (q.select, q.projection_expression) = (Some(Select::Count), None),
            Request::Scan(s) => (s.select, s.projection_expression) = (Some(Select::Count), None),
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

/// `fetch_full()`: where the full items are read from.
#[derive(Debug, Clone)]
pub(crate) struct FullItems {
    pub(crate) table_name: String,
    pub(crate) key_names: Vec<&'static str>,
}

/// Decodes one item handed over attribute by attribute.
type FromAttributes<T> = fn(
    &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>,
) -> std::result::Result<T, ConversionError>;

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

/// The sink of a typed read: each item decoded as it comes; the first failure kept (and the items
/// after it skipped), to be returned as the read's error once the backend answered, as the
/// decoding of a returned page would have.
struct Results<T> {
    decode: Decode<T>,
    attributes: FromAttributes<T>,
    items: Vec<T>,
    error: Option<ConversionError>,
}

impl<T: Send> ItemSink for Results<T> {
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        if self.error.is_none() {
            self.push((self.attributes)(attributes));
        }
    }

    // An item the backend built anyway (a filtered or projected read): decoded from it directly.
    fn owned_item(&mut self, item: Item) {
        if self.error.is_none() {
            self.push((self.decode.item)(item));
        }
    }
}

impl<T> Results<T> {
    fn push(&mut self, decoded: std::result::Result<T, ConversionError>) {
        match decoded {
            Ok(item) => self.items.push(item),
            Err(e) => self.error = Some(e),
        }
    }
}

/// A read ready to run.
pub(crate) struct Pager<T> {
    pub(crate) calls: Calls,
    pub(crate) request: Request,
    pub(crate) decode: Decode<T>,
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
    async fn fetch(
        &self,
        start: Option<Item>,
        remaining: Option<usize>,
    ) -> Result<(Vec<T>, Option<Item>)> {
        let mut request = self.request.clone();
        request.set_page(start, self.request_limit(remaining));
        if let (None, Some(attributes)) = (&self.full, self.decode.attributes) {
            // A typed read: each item decoded from what the backend hands over.
            let mut results = Results {
                decode: self.decode,
                attributes,
                items: Vec::new(),
                error: None,
            };
            let output = request.send_into(&self.calls, &mut results).await?;
            if let Some(e) = results.error {
                return Err(e.into());
            }
            return Ok((results.items, output.last_evaluated_key));
        }
        let output = request.send(&self.calls).await?;
        let items_read = output.items.unwrap_or_default();
        let mut items = Vec::with_capacity(items_read.len());
        for item in items_read {
            let item = match &self.full {
                None => item,
                Some(full) => match self.read_full(full, &item).await? {
                    Some(item) => item,
                    // Deleted since the index was read: there is no full item to return.
                    None => continue,
                },
            };
            items.push((self.decode.item)(item)?);
        }
        Ok((items, output.last_evaluated_key))
    }

    /// The table item an index entry stands for: a GetItem on the table key every index projects.
    /// (Sequential GetItems: BatchGetItem is not available yet.)
    async fn read_full(&self, full: &FullItems, entry: &Item) -> Result<Option<Item>> {
        let key = full
            .key_names
            .iter()
            .filter_map(|name| entry.get(*name).map(|v| ((*name).to_owned(), v.clone())))
            .collect();
        let input = GetItemInput {
            table_name: full.table_name.clone(),
            key,
            ..Default::default()
        };
        Ok(self.calls.get_item(input).await?.item)
    }

    /// One request after `start`: its items and its `LastEvaluatedKey`.
    pub(crate) async fn once(self, start: Option<Item>) -> Result<(Vec<T>, Option<Item>)> {
        self.fetch(start, self.limit).await
    }

    /// Up to `n` results after `start`, reading as many requests as it takes, and whether more
    /// follow. It reads one result more than it returns to know (so that a page never ends with a
    /// cursor leading to an empty one); a read that ends without a `LastEvaluatedKey` is complete.
    ///
    /// Without a filter each request asks for the results still missing (at most `page_size`), as
    /// `all()` does. With one, DynamoDB's `Limit` counts items evaluated, so matches are sparse:
    /// each request evaluates `page_size` items, or by default the whole page (plus one) again
    /// rather than the few missing, which would cost a request per item evaluated near the end; the
    /// results read beyond the page are dropped.
    pub(crate) async fn fill(self, n: usize, start: Option<Item>) -> Result<(Vec<T>, bool)> {
        let want = n.saturating_add(1);
        let filtered = self.request.filtered();
        let mut results: Vec<T> = Vec::new();
        let mut start = start;
        loop {
            // `None`: `page_size` alone sets the request's `Limit`.
            let remaining = match (filtered, self.page_size) {
                (true, Some(_)) => None,
                (true, None) => Some(want),
                (false, _) => Some(want - results.len()),
            };
            let (mut items, next) = self.fetch(start.take(), remaining).await?;
            match results.is_empty() {
                true => results = items,
                false => results.append(&mut items),
            }
            if results.len() >= want {
                results.truncate(n);
                return Ok((results, true));
            }
            match next {
                Some(next) => start = Some(next),
                None => return Ok((results, false)),
            }
        }
    }

    /// Every result (up to the limit): the pages' items in one vector, the first page's taken as it
    /// is (no stream in between, and no vector grown item by item).
    pub(crate) async fn all(self) -> Result<Vec<T>> {
        let mut all: Vec<T> = Vec::new();
        let mut start = None;
        let mut remaining = self.limit;
        while remaining != Some(0) {
            let (mut items, next) = self.fetch(start.take(), remaining).await?;
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
    pub(crate) fn stream(self) -> BoxStream<'static, Result<T>> {
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
                .fetch(state.start.take(), state.remaining)
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
