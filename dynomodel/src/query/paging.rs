//! Paging: [`Query::page`] and [`Scan::page`] (up to n matching items, a cursor right after the
//! last one, none once the read is complete), [`Query::dynamodb_page`] and [`Scan::dynamodb_page`]
//! (one DynamoDB response as it is), and the cursor after any returned item.
//!
//! Every cursor given to a read is checked against what the read positions ([`Scope`]) before a
//! request is sent; see [`Cursor`].

use crate::error::{Error, Result};
use crate::model::Model;
use crate::query::cursor::{Cursor, KeyAttributes, Scope};
use crate::query::decoding::{Mode, Strict};
use crate::query::pager::{Page, Pager};
use crate::query::{Query, Scan};
use crate::value::Item;

impl<'a, M: Model, T: KeyAttributes + Send + 'static> Query<'a, M, T> {
    /// Up to `n` matching items after `cursor` (`None`: from the start), with the cursor of the
    /// next page: the page a web API hands out. It reads as many DynamoDB requests as it takes to
    /// find `n` items that pass the filter (DynamoDB's `Limit` counts the items it *evaluates*, so
    /// one request of a filtered read may return fewer, even none), plus one to know whether more
    /// follow. `next` is positioned right after the last item returned (from its key attributes:
    /// the table's, and on an index the index's), and is `None` when nothing follows, so a client
    /// never gets a token leading to an empty page. `.limit(..)` does not apply (`n` is the
    /// page's size). Each request's `Limit` is the number of items still missing (plus one) without
    /// a filter, capped by `.page_size(k)`; with a filter it is `k`, or by default `n + 1` (matches
    /// being sparse, asking for the few missing would cost a request per item near the end). A
    /// projection also returns the key attributes, which the cursor is made from.
    ///
    /// The cursor is checked before anything is sent: one of another table, index, partition or
    /// operation, with other key attributes, outside the range condition, or unsigned or wrongly
    /// signed when the database signs ([`Db::with_cursor_key`](crate::Db::with_cursor_key)), is
    /// an [`Error::InvalidCursor`] (a web handler's 400). A filter that matches rarely makes a page
    /// read far: [`dynamodb_page`](Query::dynamodb_page) bounds each call to one request instead.
    ///
    /// Errors: `n == 0` ([`Error::Validation`]); the cursor, as above; a failed request.
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
    /// use dynomodel::Cursor;
    ///
    /// // One item evaluated per request: the filter leaves some requests empty, the page does not.
    /// let rusty = || db.query::<Tweet>("abc").filter(Tweet::text().contains("rust")).page_size(1);
    /// let first = rusty().page(1, None).await?;
    /// assert_eq!(first.items[0].id, "1");
    /// // The cursor travels as a string, e.g. to a web client and back.
    /// let token: String = first.next.expect("more follow").to_string();
    /// let second = rusty().page(1, Some(token.parse::<Cursor>()?)).await?;
    /// assert_eq!(second.items[0].id, "3");
    /// assert!(second.next.is_none()); // the read is complete: no token to an empty page
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn page(self, n: usize, cursor: Option<Cursor>) -> Result<Page<T>> {
        self.page_in::<Strict>(n, cursor).await
    }

    /// [`page`](Query::page) in either mode.
    pub(crate) async fn page_in<Md: Mode<T>>(
        self,
        n: usize,
        cursor: Option<Cursor>,
    ) -> Result<Page<Md::Out>> {
        check_size(n)?;
        let target = self.target()?;
        let scope = self.scope(&target)?;
        let query = self.projecting_keys(&scope.key_names());
        let pager = query.pager_on(target.clone(), None)?;
        let start = query.start(&scope, &target, cursor)?;
        fill::<T, Md>(pager, scope, n, start).await
    }

    /// The cursor right after `item`, an item this query returns (a model, an index's
    /// `<Model><Index>Item`, a [`Partial`](crate::Partial) holding the key attributes): the page
    /// it starts holds the items following `item`. Useful when a page shows fewer items than it
    /// read, or to resume after the last item a client saw. It is made from the item's key
    /// attributes (the table's, and on an index the index's) and signed as the read's cursors
    /// are; nothing is sent.
    ///
    /// Errors: an item without the key attributes (a projection without them), of another
    /// partition or outside the range condition ([`Error::Validation`]: the item is not one this
    /// query returns); a key that does not convert.
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
    /// // On the KEYS_ONLY index "rt-index", after the entry shown last:
    /// let by_retweets = || db.query_index(Tweet::rt_index(), "Paris");
    /// let entries: Vec<TweetRtIndexItem> = by_retweets().all().await?;
    /// assert_eq!(entries.iter().map(|e| e.retweets).collect::<Vec<_>>(), [3, 7, 12]);
    /// let after_first = by_retweets().cursor_after(&entries[0])?;
    /// assert_eq!(after_first.index(), Some("rt-index"));
    /// let rest = by_retweets().page(10, Some(after_first)).await?;
    /// assert_eq!(rest.items, entries[1..]);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn cursor_after(&self, item: &T) -> Result<Cursor> {
        let target = self.target()?;
        let scope = self.scope(&target)?;
        let cursor = scope.after(item)?;
        match self.outside_range(&target, cursor.key()) {
            None => Ok(cursor),
            Some(attribute) => Err(Error::validation(format!(
                "no cursor can be made after this item for a Query of table `{}`: its sort key `{attribute}` is \
                 outside the query's range condition",
                cursor.table()
            ))),
        }
    }
}

impl<'a, M: Model, T: Send + 'static> Query<'a, M, T> {
    /// One DynamoDB Query request after `cursor` (`None`: from the start), as DynamoDB answers
    /// it: `Limit` is `.page_size(..)` or `.limit(..)` (the smaller), so with a filter the page
    /// may hold fewer items than asked, even none, and `next` is DynamoDB's `LastEvaluatedKey`,
    /// present whenever DynamoDB stopped early (it may lead to an empty page). For pages of `n`
    /// matching items, use [`page`](Query::page); this one bounds what one call reads. The cursor
    /// is checked as `page` checks it.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # for (id, text) in [("1", "hello rust"), ("2", "typed queries")] {
    /// #     db.put(&Tweet { userid: "abc".into(), id: id.into(), text: text.into() }).await?;
    /// # }
    /// let rusty = || db.query::<Tweet>("abc").filter(Tweet::text().contains("rust")).page_size(1);
    /// let first = rusty().dynamodb_page(None).await?;
    /// assert_eq!(first.items.len(), 1);
    /// let second = rusty().dynamodb_page(first.next).await?; // evaluates "2": no match
    /// assert!(second.items.is_empty());
    /// let third = rusty().dynamodb_page(second.next).await?; // nothing left, as DynamoDB says
    /// assert!(third.items.is_empty() && third.next.is_none());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn dynamodb_page(self, cursor: Option<Cursor>) -> Result<Page<T>> {
        self.dynamodb_page_in::<Strict>(cursor).await
    }

    /// [`dynamodb_page`](Query::dynamodb_page) in either mode.
    pub(crate) async fn dynamodb_page_in<Md: Mode<T>>(
        self,
        cursor: Option<Cursor>,
    ) -> Result<Page<Md::Out>> {
        let target = self.target()?;
        let scope = self.scope(&target)?;
        let pager = self.pager_on(target.clone(), self.limit)?;
        let start = self.start(&scope, &target, cursor)?;
        let (items, next) = pager.once::<Md>(start).await?;
        Ok(Page {
            items,
            next: next.map(|key| scope.at(key)),
        })
    }
}

impl<'a, M: Model, T: KeyAttributes + Send + 'static> Scan<'a, M, T> {
    /// Up to `n` matching items after `cursor` (`None`: from the start), with the cursor of the
    /// next page, as [`Query::page`]: filled across DynamoDB requests, `next` right after the last
    /// item returned, `None` once the scan is complete. A parallel scan has one position per
    /// segment, which one cursor cannot hold: page one segment at a time with
    /// [`segment`](Scan::segment) (its cursors carry the segment), or read `segments(n)` with
    /// `stream()` or `all()`.
    ///
    /// Errors: `n == 0`, `segments(n)` with n > 1 ([`Error::Validation`]); a cursor that does not
    /// fit ([`Error::InvalidCursor`], nothing sent); a failed request.
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
    /// let page = db.scan::<Tweet>().page(3, None).await?;
    /// assert_eq!(page.items.len(), 3);
    /// let rest = db.scan::<Tweet>().page(3, page.next).await?;
    /// assert_eq!((rest.items.len(), rest.next), (1, None));
    /// assert!(db.scan::<Tweet>().segments(2).page(3, None).await.is_err());
    /// // A query's cursor is no scan's.
    /// let query = db.query::<Tweet>("abc").page(1, None).await?;
    /// let err = db.scan::<Tweet>().page(3, query.next).await.unwrap_err();
    /// assert!(err.is_invalid_cursor());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn page(self, n: usize, cursor: Option<Cursor>) -> Result<Page<T>> {
        self.page_in::<Strict>(n, cursor).await
    }

    /// [`page`](Scan::page) in either mode.
    pub(crate) async fn page_in<Md: Mode<T>>(
        self,
        n: usize,
        cursor: Option<Cursor>,
    ) -> Result<Page<Md::Out>> {
        check_size(n)?;
        self.one_position()?;
        let scope = self.scope();
        let scan = self.projecting_keys(&scope.key_names());
        let pager = one(scan.pagers(None)?)?;
        let start = cursor
            .map(|cursor| scope.start(cursor, &M::schema()))
            .transpose()?;
        fill::<T, Md>(pager, scope, n, start).await
    }

    /// The cursor right after `item`, an item this scan returns (see [`Query::cursor_after`]).
    ///
    /// Errors: an item without the key attributes ([`Error::Validation`]); a key that does not
    /// convert.
    pub fn cursor_after(&self, item: &T) -> Result<Cursor> {
        self.one_position()?;
        self.scope().after(item)
    }
}

impl<'a, M: Model, T: Send + 'static> Scan<'a, M, T> {
    /// One DynamoDB Scan request after `cursor`, as DynamoDB answers it (see
    /// [`Query::dynamodb_page`]).
    pub async fn dynamodb_page(self, cursor: Option<Cursor>) -> Result<Page<T>> {
        self.dynamodb_page_in::<Strict>(cursor).await
    }

    /// [`dynamodb_page`](Scan::dynamodb_page) in either mode.
    pub(crate) async fn dynamodb_page_in<Md: Mode<T>>(
        self,
        cursor: Option<Cursor>,
    ) -> Result<Page<Md::Out>> {
        self.one_position()?;
        let scope = self.scope();
        let pager = one(self.pagers(self.limit)?)?;
        let start = cursor
            .map(|cursor| scope.start(cursor, &M::schema()))
            .transpose()?;
        let (items, next) = pager.once::<Md>(start).await?;
        Ok(Page {
            items,
            next: next.map(|key| scope.at(key)),
        })
    }
}

fn check_size(n: usize) -> Result<()> {
    match n {
        0 => Err(Error::validation(
            "a page holds at least one item: page(0, ..) would never move",
        )),
        _ => Ok(()),
    }
}

/// The pager of a read of one position.
fn one<T>(mut pagers: Vec<Pager<T>>) -> Result<Pager<T>> {
    match (pagers.pop(), pagers.is_empty()) {
        (Some(pager), true) => Ok(pager),
        _ => Err(Error::validation("a page reads exactly one segment")),
    }
}

/// A page of up to `n` results after `start`, its cursor after the last one when more follow (made
/// from the item, or for a lenient page's item that did not decode, from the key attributes found
/// in it).
async fn fill<T: KeyAttributes + Send + 'static, Md: Mode<T>>(
    pager: Pager<T>,
    scope: Scope,
    n: usize,
    start: Option<Item>,
) -> Result<Page<Md::Out>> {
    let names = scope.key_names();
    let filled = pager.fill::<Md>(n, start, &names).await?;
    let next = match (filled.more, filled.items.last()) {
        (true, Some(last)) => Some(match (Md::decoded(last), filled.last_failed) {
            (Some(item), _) => scope.after(item)?,
            // An item that did not decode; without its keys (never: the read projects them), the
            // error says which is missing.
            (None, key) => scope.after(&key.unwrap_or_default())?,
        }),
        _ => None,
    };
    Ok(Page {
        items: filled.items,
        next,
    })
}
