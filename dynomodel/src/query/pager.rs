//! The paging engine shared by Query and Scan: one rendered request, sent page after page with the
//! previous page's `LastEvaluatedKey`, its items decoded (and optionally replaced by the full items).
//!
//! `limit` caps the results of the whole read: each request's `Limit` is the number still wanted
//! (or the page size, if smaller), so an unfiltered read stops after exactly one request per page
//! and a filtered one keeps paging until it has enough. DynamoDB's `Limit` counts items *evaluated*
//! (before the filter), so with a filter a page may hold fewer items than asked, even none, and the
//! read goes on while a `LastEvaluatedKey` comes back (the developer guide's `Query.Pagination.html`: only a missing `LastEvaluatedKey` marks the end).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::future::Either;
use futures::stream::{self, BoxStream, StreamExt, TryStreamExt};

use crate::backend::{
    GetItemInput, ItemSink, NumberedAttributes, QueryInput, QueryOutput, ScanInput, Select,
};
use crate::db::decode::{Source, TableKey};
use crate::db::names::model_name;
use crate::db::Calls;
use crate::error::Result;
use crate::model::entity_of;
use crate::query::cursor::Cursor;
use crate::query::decoding::{Decode, Failures, Items, Mode, Positions, Results};
use crate::value::Item;

/// One page of results and where the next one starts.
///
/// [`Query::page`](crate::Query::page) and [`Scan::page`](crate::Scan::page) give up to `n`
/// matching items, reading as many DynamoDB requests as it takes, with `next` positioned right
/// after the last item returned, and no `next` once nothing follows.
/// [`Query::dynamodb_page`](crate::Query::dynamodb_page) and
/// [`Scan::dynamodb_page`](crate::Scan::dynamodb_page) give one DynamoDB response as it is: with a
/// filter it may be short or empty, and its `next` (DynamoDB's `LastEvaluatedKey`) may lead to an
/// empty page. A [lenient](crate::Query::lenient) read's pages are the same, each item a
/// [`Decoded<T>`](crate::Decoded), good and bad items counting alike.
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

/// A rendered Query or Scan request. A Query's names and values are numbered, beside its input
/// (whose maps are `None`), until the backend builds its own maps of them
/// ([`Backend::query_numbered_into`](crate::Backend::query_numbered_into)).
#[derive(Debug, Clone)]
pub(crate) enum Request {
    Query(QueryInput, NumberedAttributes),
    Scan(ScanInput),
}

impl Request {
    fn set_page(&mut self, start: Option<Item>, limit: Option<i32>) {
        match self {
            Request::Query(q, _) => (q.exclusive_start_key, q.limit) = (start, limit),
            Request::Scan(s) => (s.exclusive_start_key, s.limit) = (start, limit),
        }
    }

    /// Whether a filter drops some of the items read.
    fn filtered(&self) -> bool {
        match self {
            Request::Query(q, _) => q.filter_expression.is_some(),
            Request::Scan(s) => s.filter_expression.is_some(),
        }
    }

    /// For `count()`: no items, no projection.
    fn set_count(&mut self) {
        match self {
            Request::Query(q, _) => {
                (q.select, q.projection_expression) = (Some(Select::Count), None)
            }
            Request::Scan(s) => (s.select, s.projection_expression) = (Some(Select::Count), None),
        }
    }

    /// The request to send, leaving here only what [`Request::source`] names (the table and the
    /// index): the request is handed over without a copy, for a read that renders any later page
    /// anew ([`Pager::all_rendering`]).
    fn hand_over(&mut self) -> Request {
        match self {
            Request::Query(q, attributes) => {
                let kept = QueryInput {
                    table_name: q.table_name.clone(),
                    index_name: q.index_name.clone(),
                    ..Default::default()
                };
                Request::Query(std::mem::replace(q, kept), std::mem::take(attributes))
            }
            Request::Scan(s) => {
                let kept = ScanInput {
                    table_name: s.table_name.clone(),
                    index_name: s.index_name.clone(),
                    ..Default::default()
                };
                Request::Scan(std::mem::replace(s, kept))
            }
        }
    }

    /// Where the items come from, for the error of one that does not decode as `T`.
    fn source<T>(&self) -> Source<'_> {
        let (table, index) = match self {
            Request::Query(q, _) => (&q.table_name, &q.index_name),
            Request::Scan(s) => (&s.table_name, &s.index_name),
        };
        Source {
            model: model_name::<T>(),
            table,
            index: index.as_deref(),
        }
    }

    /// Sends it when polled. Not an `async fn`: the request goes straight into the backend call's
    /// future, which is awaited without a future of its own around it (one state machine less on
    /// every page's path, and the request not held twice).
    fn send(self, backend: &Calls) -> impl Future<Output = Result<QueryOutput>> + Send + '_ {
        match self {
            Request::Query(q, attributes) => Either::Left(backend.query(filled(q, attributes))),
            Request::Scan(s) => Either::Right(backend.scan(s)),
        }
    }

    /// [`Request::send`] as a typed read: the items go to `sink`.
    fn send_into<'a>(
        self,
        backend: &'a Calls,
        sink: &'a mut dyn ItemSink,
    ) -> impl Future<Output = Result<QueryOutput>> + Send + 'a {
        match self {
            Request::Query(q, attributes) => {
                Either::Left(backend.query_numbered_into(q, attributes, sink))
            }
            Request::Scan(s) => Either::Right(backend.scan_into(s, sink)),
        }
    }
}

/// `input` with `attributes` in its maps, for a backend call that takes them there. Not inline in
/// [`Request::send`]: a local borrowed there would be kept in its future across the `await`.
fn filled(mut input: QueryInput, attributes: NumberedAttributes) -> QueryInput {
    attributes.fill(
        &mut input.expression_attribute_names,
        &mut input.expression_attribute_values,
    );
    input
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

/// What one request gave.
struct Fetched<Out> {
    /// The results decoded (up to the cap).
    items: Vec<Out>,
    /// The `LastEvaluatedKey`.
    next: Option<Item>,
    /// Whether results came beyond the cap.
    beyond: bool,
    /// For a lenient page, the items that did not decode.
    failed: Failures,
}

impl<Out> Fetched<Out> {
    fn of<T, Md: Mode<T, Out = Out>>(items: Items<'_, T, Md>, next: Option<Item>) -> Result<Self> {
        let beyond = items.beyond;
        let (items, failed) = items.finish()?;
        Ok(Fetched {
            items,
            next,
            beyond,
            failed,
        })
    }
}

/// Polls `future` from a function that is not inlined into its caller's: the code of a future
/// the caller rarely awaits then sits apart from the code the caller runs on every request.
#[inline(never)]
fn poll_out_of_line<F: Future>(future: Pin<&mut F>, cx: &mut Context<'_>) -> Poll<F::Output> {
    future.poll(cx)
}

/// A page of up to `n` results ([`Pager::fill`]).
pub(crate) struct Filled<Out> {
    pub(crate) items: Vec<Out>,
    /// Whether results follow the page.
    pub(crate) more: bool,
    /// When results follow and the page's last item did not decode (a lenient page): the read's
    /// key attributes found in it, which the cursor after it holds.
    pub(crate) last_failed: Option<Item>,
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

    /// One request after `start`, its `Limit` set for `remaining` results: the first `cap` results
    /// decoded, and with `positions` the positions of those that did not decode (a lenient page).
    /// `request` is the request to send (`None`: a copy of the pager's).
    async fn fetch<'r, Md: Mode<T>>(
        &'r self,
        request: Option<Request>,
        start: Option<Item>,
        remaining: Option<usize>,
        cap: Option<usize>,
        positions: Option<Positions<'r>>,
    ) -> Result<Fetched<Md::Out>> {
        let mut request = request.unwrap_or_else(|| self.request.clone());
        request.set_page(start, self.request_limit(remaining));
        let source = self.request.source::<T>();
        let items = Items::<T, Md>::new(self.decode, source, self.key, cap, positions);
        if let (None, Some(attributes)) = (&self.full, self.decode.attributes) {
            // A typed read: each item decoded from what the backend hands over.
            let mut results = Results { items, attributes };
            let output = request.send_into(&self.calls, &mut results).await?;
            return Fetched::of(results.items, output.last_evaluated_key);
        }
        // The other reads (of `Item`s, of full items) are polled in a function of their own, so
        // that the typed read's code above is not spread among theirs.
        let mut items_read = std::pin::pin!(self.fetch_items(request, items));
        std::future::poll_fn(|cx| poll_out_of_line(items_read.as_mut(), cx)).await
    }

    /// [`Pager::fetch`] of a read that is not typed: the items read as `Item`s (with
    /// `fetch_full()`, each replaced by its full item), then decoded.
    async fn fetch_items<Md: Mode<T>>(
        &self,
        request: Request,
        mut items: Items<'_, T, Md>,
    ) -> Result<Fetched<Md::Out>> {
        let output = request.send(&self.calls).await?;
        let items_read = output.items.unwrap_or_default();
        items.reserve(items_read.len());
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
            // Past the cap, the first full item found tells that more follow.
            items.item(item);
            if items.done() {
                break;
            }
        }
        Fetched::of(items, output.last_evaluated_key)
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

    /// One request after `start` (`limit` results at most): its items and its `LastEvaluatedKey`.
    pub(crate) async fn once<Md: Mode<T>>(
        self,
        start: Option<Item>,
    ) -> Result<(Vec<Md::Out>, Option<Item>)> {
        let fetched = self
            .fetch::<Md>(None, start, self.limit, self.limit, None)
            .await?;
        Ok((fetched.items, fetched.next))
    }

    /// Up to `n` results after `start`, reading as many requests as it takes, and whether more
    /// follow: it reads one result more than it returns to know (so that a page never ends with a
    /// cursor leading to an empty one), and decodes only the `n` it returns; a read that ends
    /// without a `LastEvaluatedKey` is complete. `names` are the read's key attributes, kept for
    /// the last result if it did not decode (a lenient page), to position the cursor after it.
    ///
    /// Without a filter each request asks for the results still missing plus one (at most
    /// `page_size`), as `all()` does. With one, DynamoDB's `Limit` counts items evaluated, so
    /// matches are sparse: each request evaluates `page_size` items, or by default the whole page
    /// (plus one) again rather than the few missing, which would cost a request per item evaluated
    /// near the end; the results read beyond the page are dropped undecoded.
    pub(crate) async fn fill<Md: Mode<T>>(
        self,
        n: usize,
        start: Option<Item>,
        names: &[&str],
    ) -> Result<Filled<Md::Out>> {
        let filtered = self.request.filtered();
        let mut results: Vec<Md::Out> = Vec::new();
        let mut failed: Failures = Vec::new();
        let mut start = start;
        loop {
            let missing = n.saturating_sub(results.len());
            // `None`: `page_size` alone sets the request's `Limit`.
            let limit = match (filtered, self.page_size) {
                (true, Some(_)) => None,
                (true, None) => Some(n.saturating_add(1)),
                (false, _) => Some(missing.saturating_add(1)),
            };
            // Only a lenient page returns items that did not decode.
            let positions = Md::KEEPS_FAILURES.then(|| Positions::new(names));
            let fetched = self
                .fetch::<Md>(None, start.take(), limit, Some(missing), positions)
                .await?;
            let offset = results.len();
            failed.extend(fetched.failed.into_iter().map(|(i, key)| (offset + i, key)));
            let mut items = fetched.items;
            match results.is_empty() {
                true => results = items,
                false => results.append(&mut items),
            }
            let more = match (fetched.beyond, fetched.next) {
                (true, _) => true,
                (false, None) => false,
                (false, Some(next)) => {
                    start = Some(next);
                    continue;
                }
            };
            // The failures' positions are kept until the page ends: only its last item's counts.
            let last = results.len().checked_sub(1);
            let last_failed = failed
                .into_iter()
                .find_map(|(i, key)| (more && Some(i) == last).then_some(key));
            return Ok(Filled {
                items: results,
                more,
                last_failed,
            });
        }
    }

    /// Every result (up to the limit): the pages' items in one vector, the first page's taken as it
    /// is (no stream in between, and no vector grown item by item).
    pub(crate) async fn all<Md: Mode<T>>(self) -> Result<Vec<Md::Out>> {
        self.all_rendering::<Md>(None).await
    }

    /// [`Pager::all`], with `again` rendering the request anew for each page after the first
    /// (`None`: each page sends a copy of the pager's): the first page's request is then handed
    /// over as it is, so a read of one page copies nothing.
    pub(crate) async fn all_rendering<Md: Mode<T>>(
        mut self,
        again: Option<&(dyn Fn() -> Result<Request> + Sync)>,
    ) -> Result<Vec<Md::Out>> {
        let mut all: Vec<Md::Out> = Vec::new();
        let mut start = None;
        let mut remaining = self.limit;
        let mut first = again.is_some().then(|| self.request.hand_over());
        while remaining != Some(0) {
            let request = match (first.take(), again) {
                (Some(request), _) => Some(request),
                (None, Some(again)) => Some(again()?),
                (None, None) => None,
            };
            let fetched = self
                .fetch::<Md>(request, start.take(), remaining, remaining, None)
                .await?;
            let (mut items, next) = (fetched.items, fetched.next);
            if let Some(remaining) = &mut remaining {
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
            let remaining = state.remaining;
            let fetched = state
                .pager
                .fetch::<Md>(None, state.start.take(), remaining, remaining, None)
                .await?;
            let (items, next) = (fetched.items, fetched.next);
            if let Some(remaining) = &mut state.remaining {
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
