//! Batches: [`Db::batch_get`], [`Db::batch_write`] and [`Db::batch_get_stream`], over DynamoDB's
//! `BatchGetItem` and `BatchWriteItem`. What they promise is documented on those methods (the public
//! face); the pieces, one concept each:
//!
//! - `options`: [`BatchOptions`], the backoff schedule and the one sleep function;
//! - `retry`: the retry loop of one chunk, shared by reads and writes;
//! - `read` and `write`: one chunk's request and how its answer's leftovers map back to entries;
//! - `get`, `items` and `stream`: the read builder, its per-model results, and the stream form;
//! - `key`: key identity (duplicates, matching answers), checks made before sending, key display;
//! - `errors`: what the errors carry and how they print.

mod errors;
mod get;
mod items;
mod key;
mod options;
mod read;
mod retry;
mod stream;
#[cfg(test)]
mod tests;
mod write;

pub use errors::BatchUnprocessed;
pub use get::BatchGet;
pub use items::BatchItems;
pub use options::BatchOptions;
pub use stream::BatchGetStream;
pub use write::BatchWrite;

use crate::db::Db;
use crate::model::Model;

impl Db {
    /// Reads items of several models by key; see [`BatchGet`] for the builder and [`BatchItems`]
    /// for the results.
    ///
    /// # How batches run
    ///
    /// The same for reads, writes ([`Db::batch_write`]) and the stream ([`Db::batch_get_stream`]):
    ///
    /// - **Chunks.** DynamoDB takes at most 100 keys per `BatchGetItem` and 25 writes per
    ///   `BatchWriteItem`; a batch of any size is split into such requests, in the order given
    ///   (tables mixed), and never sends an empty one.
    /// - **Concurrency.** Up to [`BatchOptions`]' `concurrency` chunks (4 by default) are in
    ///   flight at once.
    /// - **Retries.** Keys and writes an answer reports unprocessed (throttling, or a read past
    ///   the 16 MB response limit) are sent again after a pause that grows exponentially with full
    ///   jitter, up to `max_attempts` requests per chunk (10 by default); see [`BatchOptions`].
    ///   A whole request refused for throughput ([`Error::Throughput`](crate::Error::Throughput):
    ///   `ProvisionedThroughputExceededException`, `ThrottlingException`, `RequestLimitExceeded`)
    ///   is retried the same way, as if every key or write in it had come back unprocessed (on
    ///   DynamoDB after the AWS SDK's own retries of it; on other backends nothing else retries it).
    /// - **Duplicates.** DynamoDB rejects a request naming one item twice. A key read twice is
    ///   read once; two writes to one item are an error naming it, before anything is sent.
    /// - **Errors name what failed.** When a chunk's retries run out, the other chunks still run,
    ///   and [`Error::BatchUnprocessed`](crate::Error::BatchUnprocessed) then lists every key or
    ///   write left (kind, model, table, key): everything else was done. An item that does not
    ///   decode is [`Error::ItemDecode`](crate::Error::ItemDecode), naming its model and key.
    ///   A chunk failing with a DynamoDB error (a missing table, say) fails the call with that
    ///   error, unchanged; see [`Db::batch_write`] for what a write batch leaves then.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # #[dynomodel(table = "tweets")]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # #[dynomodel(table = "users")]
    /// # struct User { #[hash_key] id: String, name: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # db.create_schema::<User>().await?;
    /// let tweet = Tweet { userid: "ada".into(), id: "1".into(), text: "hello".into() };
    /// let ada = User { id: "ada".into(), name: "Ada".into() };
    /// db.batch_write().put(&tweet).put(&ada).await?;
    ///
    /// // The tweets of a page and their authors, in one request.
    /// let mut read = db.batch_get().key::<Tweet>(("ada", "1")).key::<User>("ada").await?;
    /// assert_eq!(read.take::<Tweet>()?, [tweet]);
    /// assert_eq!(read.take::<User>()?, [ada]);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn batch_get(&self) -> BatchGet<'_> {
        BatchGet::new(self)
    }

    /// Puts and deletes items of several models; see [`BatchWrite`], and [`Db::batch_get`] for
    /// how batches run (chunks, concurrency, retries, duplicates, errors).
    ///
    /// # A batch is not a transaction
    ///
    /// Each write is atomic; the batch is not. When retries run out,
    /// [`Error::BatchUnprocessed`](crate::Error::BatchUnprocessed) lists exactly the writes not
    /// made. When a chunk fails with a DynamoDB error (a missing table, say), the call returns
    /// that error as DynamoDB gave it and stops sending: chunks that completed before it stay
    /// written, chunks in flight may or may not have been applied, the others were not sent. (The
    /// error is not wrapped into a report of what was written, so that it matches as it does
    /// everywhere else, e.g. `Error::ResourceNotFound`.) Every write of a batch is idempotent (a
    /// put of a whole item, a delete by key), so running the same batch again once the cause is
    /// fixed completes it. What can be checked before sending is: a conversion error, two writes
    /// to one item, an item over 400 KB, an empty key, or a value of a `#[version]` model (see
    /// [`BatchWrite::ignore_version`]) fail the call with nothing written.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # #[dynomodel(table = "tweets")]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweets: Vec<Tweet> = (0..60)
    ///     .map(|i| Tweet { userid: "ada".into(), id: format!("{i:02}"), text: "hi".into() })
    ///     .collect();
    /// db.batch_write().put_all(&tweets).await?; // 3 requests: 25, 25 and 10 puts
    /// assert_eq!(db.scan::<Tweet>().count().await?, 60);
    ///
    /// db.batch_write().delete_all(&tweets[..50]).await?;
    /// assert_eq!(db.scan::<Tweet>().count().await?, 10);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn batch_write(&self) -> BatchWrite<'_> {
        BatchWrite::new(self)
    }

    /// `M`'s items for a large set of keys, as a stream read 100 keys at a time; see
    /// [`BatchGetStream`]. The keys are converted at once; the items are read as the stream is
    /// polled, never all held in memory.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// use futures::TryStreamExt;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # #[dynomodel(table = "users")]
    /// # struct User { #[hash_key] id: String, name: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<User>().await?;
    /// let users: Vec<User> = (0..500).map(|i| User { id: format!("u{i}"), name: format!("user {i}") }).collect();
    /// db.batch_write().put_all(&users).await?;
    ///
    /// let ids: Vec<String> = (0..1000).map(|i| format!("u{i}")).collect(); // half of them exist
    /// let names: Vec<String> = db
    ///     .batch_get_stream::<User>(&ids)
    ///     .map_ok(|user| user.name)
    ///     .try_collect()
    ///     .await?;
    /// assert_eq!(names.len(), 500);
    /// assert_eq!(names[499], "user 499"); // in the order of the keys
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn batch_get_stream<M: Model>(
        &self,
        keys: impl IntoIterator<Item = impl Into<M::Key>>,
    ) -> BatchGetStream<M> {
        BatchGetStream::new(self, keys)
    }

    /// The same database running every batch with these options (unless a batch sets its own).
    ///
    /// ```
    /// use dynomodel::{BatchOptions, Db};
    /// use dynomodel_mem::MemoryDb;
    ///
    /// let db = Db::memory().with_batch_options(BatchOptions::default().concurrency(16));
    /// assert_eq!(db.batch_options(), BatchOptions::default().concurrency(16));
    /// ```
    pub fn with_batch_options(mut self, options: BatchOptions) -> Db {
        self.batch_options = options;
        self
    }

    /// The options batches of this database run with (`BatchOptions::default()` unless set with
    /// [`Db::with_batch_options`]).
    pub fn batch_options(&self) -> BatchOptions {
        self.batch_options
    }
}
