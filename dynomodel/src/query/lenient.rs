//! [`Lenient`]: a query or scan whose items that do not decode are returned as errors beside the
//! good ones, instead of failing the read.

use futures::Stream;

use crate::db::ItemDecode;
use crate::error::Result;
use crate::model::Model;
use crate::query::cursor::{Cursor, KeyAttributes};
use crate::query::decoding::PerItem;
use crate::query::pager::Page;
use crate::query::{Query, Scan};

/// One item of a lenient read: the decoded item, or what is wrong with it (naming its table, key
/// and attribute; boxed, as in [`Error::ItemDecode`](crate::Error::ItemDecode), so that the good
/// items stay small).
pub type Decoded<T> = std::result::Result<T, Box<ItemDecode>>;

/// A [`Query`] or [`Scan`] that returns every item it reads, each as a [`Decoded<T>`]: one item that
/// does not decode as `T` never hides the others. Made by [`Query::lenient`] or [`Scan::lenient`],
/// finished like the read it wraps (`all`, `first`, `page`, `dynamodb_page`, `stream`).
///
/// Only decoding is lenient: a request that fails (a validation error, throttling, a missing
/// table) still fails the read, and a cursor given to a page is checked as for the strict read
/// ([`Error::InvalidCursor`](crate::Error::InvalidCursor)). `limit(n)` and `page(n, ..)` count
/// every item returned, good or bad, and a page's cursor is positioned after its last item,
/// good or bad (from the key attributes found in a bad one).
///
/// ```
/// use dynomodel::{AttributeValue, Db, Model};
/// use dynomodel::backend::PutItemInput;
/// # use dynomodel_mem::MemoryDb;
///
/// #[derive(Model, Debug, PartialEq)]
/// struct Post { #[hash_key] forum: String, #[range_key] id: u32, text: String }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = Db::memory();
/// db.create_schema::<Post>().await?;
/// db.put(&Post { forum: "rust".into(), id: 1, text: "hello".into() }).await?;
/// // Another program wrote an item without `text`.
/// let stray = [("forum", AttributeValue::S("rust".into())), ("id", AttributeValue::N(2.into()))];
/// let item = stray.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
/// let table_name = db.table_name::<Post>();
/// db.backend().put_item(PutItemInput { table_name, item, ..Default::default() }).await?;
///
/// // A strict read fails, naming the item.
/// let err = db.query::<Post>("rust").all().await.unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"the item of Post {forum: "rust", id: 2} in `Post` does not decode: attribute `text`: expected a string, found nothing (the attribute is missing)"#
/// );
///
/// // A lenient read returns the good items and the failures side by side.
/// let posts = db.query::<Post>("rust").lenient().all().await?;
/// let (good, bad): (Vec<_>, Vec<_>) = posts.into_iter().partition(Result::is_ok);
/// assert_eq!(good.len(), 1);
/// let bad = bad.into_iter().next().and_then(Result::err).expect("one bad item");
/// assert_eq!((bad.key["id"].clone(), bad.error.path.as_str()), (AttributeValue::N(2.into()), "text"));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a lenient read does nothing until finished with all(), first(), page(), dynamodb_page() or stream()"]
pub struct Lenient<R> {
    read: R,
}

impl<'a, M: Model, T: Send + 'static> Query<'a, M, T> {
    /// Returns every item, each as a [`Decoded<T>`]: an item that does not decode is an `Err` naming
    /// its table, key and attribute, beside the good ones, instead of failing the read. See
    /// [`Lenient`].
    pub fn lenient(self) -> Lenient<Self> {
        Lenient { read: self }
    }
}

impl<'a, M: Model, T: Send + 'static> Scan<'a, M, T> {
    /// Returns every item, each as a [`Decoded<T>`]; see [`Query::lenient`] and [`Lenient`].
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, PartialEq)]
    /// # struct Post { #[hash_key] forum: String, #[range_key] id: u32, text: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Post>().await?;
    /// db.put(&Post { forum: "rust".into(), id: 1, text: "hello".into() }).await?;
    /// let page = db.scan::<Post>().lenient().page(10, None).await?;
    /// assert!(matches!(&page.items[..], [Ok(post)] if post.text == "hello"));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn lenient(self) -> Lenient<Self> {
        Lenient { read: self }
    }
}

impl<'a, M: Model, T: Send + 'static> Lenient<Query<'a, M, T>> {
    /// Every item (up to `limit`), decoded or not.
    pub async fn all(self) -> Result<Vec<Decoded<T>>> {
        self.read.limited_pager()?.all::<PerItem>().await
    }

    /// The first item, if any, decoded or not.
    pub async fn first(self) -> Result<Option<Decoded<T>>> {
        Ok(self.read.limit(1).lenient().all().await?.pop())
    }

    /// One DynamoDB request after `cursor`, its items decoded or not; see
    /// [`Query::dynamodb_page`].
    pub async fn dynamodb_page(self, cursor: Option<Cursor>) -> Result<Page<Decoded<T>>> {
        self.read.dynamodb_page_in::<PerItem>(cursor).await
    }

    /// Every item as a stream, decoded or not.
    pub fn stream(self) -> impl Stream<Item = Result<Decoded<T>>> + Send + 'static {
        match self.read.limited_pager() {
            Ok(pager) => pager.stream::<PerItem>(),
            Err(e) => Box::pin(futures::stream::once(async move { Err(e) })),
        }
    }
}

impl<'a, M: Model, T: KeyAttributes + Send + 'static> Lenient<Query<'a, M, T>> {
    /// Up to `n` items after `cursor`, good or bad, with the cursor of the next page: as
    /// [`Query::page`], each item a [`Decoded<T>`]. `next` follows the page's last item even if
    /// it did not decode (made from the key attributes found in it), and is `None` once the read
    /// is complete.
    ///
    /// ```
    /// use dynomodel::{AttributeValue, Db, Model};
    /// use dynomodel::backend::PutItemInput;
    /// # use dynomodel_mem::MemoryDb;
    ///
    /// #[derive(Model, Debug, PartialEq)]
    /// struct Post { #[hash_key] forum: String, #[range_key] id: u32, text: String }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let db = Db::memory();
    /// db.create_schema::<Post>().await?;
    /// for id in [1, 3] {
    ///     db.put(&Post { forum: "rust".into(), id, text: "hello".into() }).await?;
    /// }
    /// // Another program wrote post 2 without `text`.
    /// let stray = [("forum", AttributeValue::S("rust".into())), ("id", AttributeValue::N(2.into()))];
    /// let item = stray.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
    /// let table_name = db.table_name::<Post>();
    /// db.backend().put_item(PutItemInput { table_name, item, ..Default::default() }).await?;
    ///
    /// let first = db.query::<Post>("rust").lenient().page(2, None).await?;
    /// assert!(matches!(&first.items[..], [Ok(_), Err(bad)] if bad.key["id"] == AttributeValue::N(2.into())));
    /// // The cursor follows the bad item: the next page starts at post 3.
    /// let second = db.query::<Post>("rust").lenient().page(2, first.next).await?;
    /// assert!(matches!(&second.items[..], [Ok(post)] if post.id == 3));
    /// assert!(second.next.is_none());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn page(self, n: usize, cursor: Option<Cursor>) -> Result<Page<Decoded<T>>> {
        self.read.page_in::<PerItem>(n, cursor).await
    }

    /// The cursor right after `item`, a good item of this read (see [`Query::cursor_after`]).
    pub fn cursor_after(&self, item: &T) -> Result<Cursor> {
        self.read.cursor_after(item)
    }
}

impl<'a, M: Model, T: Send + 'static> Lenient<Scan<'a, M, T>> {
    /// Every item (up to `limit`), decoded or not.
    pub async fn all(self) -> Result<Vec<Decoded<T>>> {
        futures::TryStreamExt::try_collect(self.stream()).await
    }

    /// One DynamoDB request after `cursor` (one segment), its items decoded or not; see
    /// [`Scan::dynamodb_page`].
    pub async fn dynamodb_page(self, cursor: Option<Cursor>) -> Result<Page<Decoded<T>>> {
        self.read.dynamodb_page_in::<PerItem>(cursor).await
    }

    /// Every item as a stream (segments merged), decoded or not.
    pub fn stream(self) -> impl Stream<Item = Result<Decoded<T>>> + Send + 'static {
        self.read.stream_in::<PerItem>()
    }
}

impl<'a, M: Model, T: KeyAttributes + Send + 'static> Lenient<Scan<'a, M, T>> {
    /// Up to `n` items after `cursor` (one segment), good or bad, with the cursor of the next
    /// page: as [`Scan::page`], each item a [`Decoded<T>`], `next` following the page's last item
    /// even if it did not decode.
    pub async fn page(self, n: usize, cursor: Option<Cursor>) -> Result<Page<Decoded<T>>> {
        self.read.page_in::<PerItem>(n, cursor).await
    }

    /// The cursor right after `item`, a good item of this scan (see [`Scan::cursor_after`]).
    pub fn cursor_after(&self, item: &T) -> Result<Cursor> {
        self.read.cursor_after(item)
    }
}
