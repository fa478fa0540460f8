//! [`Db::changes`]: a model's table's DynamoDB stream as a typed [`Stream`] of [`ChangeRecord`]s,
//! following the shards, resumable after a sequence number; [`Db::collection_changes`] the same for
//! a single-table [`Collection`]. `record` decodes one record, `shards` keeps the lineage (which
//! shard may be read when), `reader` makes the requests.

mod reader;
mod record;
mod shards;
#[cfg(test)]
mod tests;

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures::stream::{self, BoxStream};
use futures::{Stream, StreamExt};

pub use record::{Change, ChangeRecord};

use crate::db::{Calls, Db};
use crate::error::Result;
use crate::model::{Collection, Model};
use reader::Reader;
use record::Decoder;
use shards::Start;

/// How long [`Changes`] waits, by default, after every open shard answered an empty page.
///
/// One second keeps a consumer within a second of the writers while staying far below DynamoDB
/// Streams' limit of 5 `GetRecords` per second per shard.
const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(1);

impl Db {
    /// The changes to `M`'s table, read from its DynamoDB stream: a [`Stream`] of
    /// [`ChangeRecord<M>`], every change once, in order per item. See [`Changes`].
    ///
    /// The table needs a stream (`#[dynomodel(stream = "new_and_old_images")]` on the model, or any
    /// other view type); which images a [`Change`] carries depends on the view type.
    ///
    /// In a table shared by several entity types (`#[dynomodel(entity = "...")]`), the records of
    /// the other types are not `M`'s changes and are skipped; [`Db::collection_changes`] reads them
    /// all. A record without images (a `KEYS_ONLY` stream) does not say its entity type and is
    /// kept.
    ///
    /// ```
    /// # use dynomodel::{Change, Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// use std::time::Duration;
    /// use futures::TryStreamExt;
    ///
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// #[dynomodel(table = "users", stream = "new_and_old_images")]
    /// struct User { #[hash_key] id: String, name: String }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// let db = Db::memory();
    /// db.create_schema::<User>().await?;
    /// let mut ada = User { id: "u1".into(), name: "Ada".into() };
    /// db.put(&ada).await?;
    /// ada.name = "Ada L.".into();
    /// db.put(&ada).await?;
    /// db.delete(&ada).await?;
    ///
    /// let mut changes = db.changes::<User>().poll_interval(Duration::from_millis(10));
    /// let mut seen = Vec::new();
    /// let mut checkpoint = String::new();
    /// while let Some(record) = changes.try_next().await? {
    ///     seen.push(match record.change {
    ///         Change::Insert { new: Some(user), .. } => format!("welcome {}", user.name),
    ///         Change::Modify { old: Some(old), new: Some(new), .. } => {
    ///             format!("{} is now {}", old.name, new.name)
    ///         }
    ///         Change::Remove { old: Some(user), .. } => format!("{} left", user.name),
    ///         other => format!("{other:?}"), // images absent: another view type
    ///     });
    ///     // Where to resume after a restart: db.changes::<User>().after(checkpoint).
    ///     checkpoint = record.sequence_number;
    ///     if seen.len() == 3 {
    ///         break; // an enabled stream never ends: it waits for more changes
    ///     }
    /// }
    /// assert_eq!(seen, ["welcome Ada", "Ada is now Ada L.", "Ada L. left"]);
    /// # assert!(!checkpoint.is_empty());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn changes<M: Model>(&self) -> Changes<M> {
        self.change_stream(self.table_name::<M>(), Decoder::<M>::model())
    }

    /// The changes to the table shared by collection `C`'s members: every record, each image
    /// decoded as the member its entity attribute names, as [`Db::collection`] decodes a
    /// partition. An image of an entity type no member declares goes to the
    /// `#[dynomodel(unknown)]` variant, or is an [`Error::ItemDecode`](crate::Error::ItemDecode)
    /// naming the collection, table and key (and reading goes on): never silently dropped.
    /// Everything else is as for [`Db::changes`].
    ///
    /// ```
    /// # use dynomodel::{Change, Collection, Db, Item, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// use std::time::Duration;
    /// use futures::TryStreamExt;
    ///
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// #[dynomodel(table = "app", entity = "User", stream = "new_image")]
    /// #[composite(pk = ("USER", id), hash_key)]
    /// #[composite(sk = ("PROFILE", id2), range_key)]
    /// struct User { id: String, id2: String, name: String }
    ///
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// #[dynomodel(table = "app", entity = "Order", stream = "new_image")]
    /// #[composite(pk = ("USER", id), hash_key)]
    /// #[composite(sk = ("ORDER", no), range_key)]
    /// struct Order { id: String, no: u32 }
    ///
    /// #[derive(Collection, Debug, Clone, PartialEq)]
    /// enum UserData { User(User), Order(Order), #[dynomodel(unknown)] Other(Item) }
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// let db = Db::memory();
    /// db.create_collection_schema::<UserData>().await?;
    /// db.put(&User { id: "u1".into(), id2: "u1".into(), name: "Ada".into() }).await?;
    /// db.put(&Order { id: "u1".into(), no: 7 }).await?;
    ///
    /// let mut changes = db.collection_changes::<UserData>().poll_interval(Duration::from_millis(10));
    /// let first = changes.try_next().await?.expect("a record");
    /// assert!(matches!(first.change.new_image(), Some(UserData::User(u)) if u.name == "Ada"));
    /// let second = changes.try_next().await?.expect("a record");
    /// assert!(matches!(second.change.new_image(), Some(UserData::Order(o)) if o.no == 7));
    ///
    /// // The model's own stream skips the other entity types' records.
    /// let mut orders = db.changes::<Order>().poll_interval(Duration::from_millis(10));
    /// let only = orders.try_next().await?.expect("a record");
    /// assert_eq!(only.change.new_image().map(|o| o.no), Some(7));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn collection_changes<C: Collection>(&self) -> Changes<C> {
        self.change_stream(self.table_name::<C::Root>(), Decoder::<C>::collection())
    }

    fn change_stream<T>(&self, table: String, decoder: Decoder<T>) -> Changes<T> {
        Changes {
            pending: Some(Pending {
                calls: self.calls.clone(),
                decoder,
                table,
                start: Start::TrimHorizon,
                poll_interval: DEFAULT_POLL_INTERVAL,
            }),
            running: None,
        }
    }
}

/// The stream of [`Db::changes`] (and [`Db::collection_changes`]): the changes to `M`'s table,
/// decoded, as a [`Stream`] of `Result<ChangeRecord<M>>`.
///
/// Nothing is requested before the first poll. Then it finds the table's stream (DescribeTable's
/// `LatestStreamArn`; none is [`Error::NoStream`](crate::Error::NoStream)), lists its shards
/// (DescribeStream) and reads them with `GetShardIterator` and `GetRecords`:
///
/// - **Where it starts**: by default at the oldest record kept (`TRIM_HORIZON`: a consumer started
///   before the writers sees every change); [`latest`](Changes::latest) for only the changes made
///   from the first poll on; [`after`](Changes::after) to resume after a record already processed.
/// - **Order**: a shard is read only once its parent is read to its end (or trimmed away), so the
///   changes to one item come in the order they were made, each once. Shards being read at the same
///   time (different items) take turns, page by page.
/// - **Open shards** are polled: after every open shard answered an empty page, it waits
///   [`poll_interval`](Changes::poll_interval) (default 1 s). A closed shard
///   is followed into its children (found with a new DescribeStream).
/// - **Expired iterators** (`ExpiredIteratorException`, after 15 minutes without a poll) are
///   replaced by a new one after the last record seen, so a slow consumer loses nothing.
/// - **The end**: once the stream is disabled and every shard is read, the stream ends (`None`).
///   An enabled stream never ends: it waits for new changes.
/// - **Entity types**: [`Db::changes`] of a model with an entity type skips the records of the
///   other entity types sharing its table; [`Db::collection_changes`] yields them all.
/// - **Errors**: a record whose image does not decode as `M` is an
///   [`Error::ItemDecode`](crate::Error::ItemDecode) naming the model, table and key, and reading
///   goes on with the next record. Any other error (from the backend) is the stream's last item: to
///   go on, start again [`after`](Changes::after) the last record processed.
///
/// The builder methods configure it before it is polled; called later, they change nothing.
#[must_use = "a stream does nothing until polled"]
pub struct Changes<M> {
    /// The configuration, until the first poll starts reading.
    pending: Option<Pending<M>>,
    running: Option<BoxStream<'static, Result<ChangeRecord<M>>>>,
}

/// What the stream will read, and how.
struct Pending<M> {
    calls: Calls,
    decoder: Decoder<M>,
    table: String,
    start: Start,
    poll_interval: Duration,
}

impl<M> fmt::Debug for Changes<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Changes");
        if let Some(pending) = &self.pending {
            s.field("table", &pending.table)
                .field("start", &pending.start)
                .field("poll_interval", &pending.poll_interval);
        }
        s.field("running", &self.running.is_some()).finish()
    }
}

impl<M> Changes<M> {
    /// Only the changes made from the first poll on (`LATEST` in every open shard).
    pub fn latest(mut self) -> Self {
        if let Some(pending) = &mut self.pending {
            pending.start = Start::Latest;
        }
        self
    }

    /// Resumes just after the record with this sequence number (a
    /// [`ChangeRecord::sequence_number`] a consumer already processed): in the shard holding it,
    /// then in that shard's children.
    ///
    /// A sequence number is a position in one line of shards. A large DynamoDB table has several
    /// at once: the shards of the other lines that closed before the sequence number are skipped,
    /// and those still open are read from their start, so their changes may come again (never
    /// lost). A sequence number no shard holds any longer (trimmed after 24 hours) is
    /// [`Error::SequenceNumberNotFound`](crate::Error::SequenceNumberNotFound).
    pub fn after(mut self, sequence_number: impl Into<String>) -> Self {
        if let Some(pending) = &mut self.pending {
            pending.start = Start::After(sequence_number.into());
        }
        self
    }

    /// How long to wait after every open shard answered an empty page before asking again
    /// (default 1 s; tests on the in-memory engine use milliseconds).
    pub fn poll_interval(mut self, interval: Duration) -> Self {
        if let Some(pending) = &mut self.pending {
            pending.poll_interval = interval;
        }
        self
    }
}

impl<M: Send + 'static> Stream for Changes<M> {
    type Item = Result<ChangeRecord<M>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if let Some(pending) = this.pending.take() {
            let reader = Reader::new(
                pending.calls,
                pending.decoder,
                pending.table,
                pending.start,
                pending.poll_interval,
            );
            let running = stream::unfold(reader, |mut reader| async move {
                let next = reader.next().await?;
                Some((next, reader))
            });
            this.running = Some(running.boxed());
        }
        match &mut this.running {
            Some(running) => running.poll_next_unpin(cx),
            None => Poll::Ready(None),
        }
    }
}
