//! [`BatchGetStream`]: the items of one model for a large set of keys, read chunk by chunk as the
//! stream is polled.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::stream::{self, BoxStream};
use futures::{Stream, StreamExt};

use crate::db::batch::items::decode;
use crate::db::batch::key::{check_key, KeyId};
use crate::db::batch::options::BatchOptions;
use crate::db::batch::read::{read_chunk, unprocessed_error, ReadEntry, ReadTable, MAX_GET_KEYS};
use crate::db::batch::retry::chunked;
use crate::db::Calls;
use crate::db::Db;
use crate::error::Result;
use crate::model::{Model, PrimaryKey};
use crate::value::Item;

/// The stream of [`Db::batch_get_stream`]: `M`'s items for many keys, read 100 keys at a time.
///
/// Nothing is read before the first poll. Then at most
/// [`concurrency`](BatchOptions::concurrency) chunks are in flight, each with the same retries
/// as [`Db::batch_get`], and items come out as their chunk completes: in the order of their keys
/// (keys without an item are skipped), with at most `concurrency` chunks of results held at once,
/// however many keys there are. Duplicate keys are read once.
///
/// It ends after its first error (a DynamoDB error, an item that does not decode, or
/// [`Error::BatchUnprocessed`](crate::Error::BatchUnprocessed) naming the chunk's keys whose
/// retries ran out; its `processed` counts the keys of the chunks read before).
///
/// [`consistent`](BatchGetStream::consistent) and [`options`](BatchGetStream::options) configure it
/// before it is polled; called later, they change nothing.
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// use futures::TryStreamExt;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, likes: i64 }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Tweet>().await?;
/// let tweets: Vec<Tweet> = (0..300)
///     .map(|i| Tweet { userid: "ada".into(), id: format!("{i:03}"), likes: i })
///     .collect();
/// db.batch_write().put_all(&tweets).await?;
///
/// let keys = (0..300).map(|i| ("ada", format!("{i:03}")));
/// let mut read = db.batch_get_stream::<Tweet>(keys).consistent();
/// let mut likes = 0;
/// while let Some(tweet) = read.try_next().await? {
///     likes += tweet.likes;
/// }
/// assert_eq!(likes, (0..300).sum::<i64>());
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a stream does nothing until polled"]
pub struct BatchGetStream<M> {
    /// The configuration, until the first poll starts the reads.
    pending: Option<Box<Pending>>,
    running: Option<BoxStream<'static, Result<M>>>,
}

/// What the stream will read, and how.
struct Pending {
    backend: Calls,
    table: ReadTable,
    keys: Result<Vec<(KeyId, Item)>>,
    options: BatchOptions,
}

impl<M: Model> BatchGetStream<M> {
    pub(crate) fn new(db: &Db, keys: impl IntoIterator<Item = impl Into<M::Key>>) -> Self {
        let table = ReadTable::of::<M>(db);
        let keys = distinct_keys::<M>(&table, keys);
        BatchGetStream {
            pending: Some(Box::new(Pending {
                backend: db.calls.clone(),
                table,
                keys,
                options: db.batch_options,
            })),
            running: None,
        }
    }

    /// Reads with strong consistency (`ConsistentRead`; twice the read capacity).
    pub fn consistent(mut self) -> Self {
        if let Some(pending) = &mut self.pending {
            pending.table.consistent = true;
        }
        self
    }

    /// Reads with these options instead of the database's ([`Db::with_batch_options`]).
    pub fn options(mut self, options: BatchOptions) -> Self {
        if let Some(pending) = &mut self.pending {
            pending.options = options;
        }
        self
    }
}

/// The keys as items, each once, in the order given; or the first that does not convert.
fn distinct_keys<M: Model>(
    table: &ReadTable,
    keys: impl IntoIterator<Item = impl Into<M::Key>>,
) -> Result<Vec<(KeyId, Item)>> {
    let mut seen = HashSet::new();
    let mut distinct = Vec::new();
    for key in keys {
        let item = key.into().to_key_item()?;
        check_key("batch_get_stream", table.model, &table.table, &item)?;
        let id = KeyId::of(&item);
        if seen.insert(id.clone()) {
            distinct.push((id, item));
        }
    }
    Ok(distinct)
}

/// The running stream: chunks read `concurrency` at a time and yielded in order, each chunk's items
/// in the order of its keys, ending after the first error.
fn start<M: Model>(pending: Pending) -> BoxStream<'static, Result<M>> {
    let Pending {
        backend,
        table,
        keys,
        options,
    } = pending;
    let keys = match keys {
        Ok(keys) => keys,
        Err(e) => return stream::once(async move { Err(e) }).boxed(),
    };
    let tables: Arc<[ReadTable]> = Arc::from([table]);
    let entries: Vec<ReadEntry> = keys
        .into_iter()
        .enumerate()
        .map(|(position, (id, key))| ReadEntry {
            table: 0,
            key,
            id,
            position,
        })
        .collect();
    let chunks = chunked(entries, MAX_GET_KEYS);
    let items = stream::iter(chunks)
        .map(move |chunk| {
            let (backend, tables) = (backend.clone(), tables.clone());
            async move { read_in_order::<M>(&backend, &tables, chunk, &options).await }
        })
        .buffered(options.concurrency)
        // Counts the keys of the chunks read so far, for the error of a chunk whose retries ran out.
        .scan(0usize, |processed, chunk| {
            let items = match chunk {
                Ok(ChunkItems { items, keys, left }) => match left {
                    None => {
                        *processed += keys;
                        items
                    }
                    Some(Unfinished {
                        entries,
                        attempts,
                        tables,
                    }) => {
                        let done = *processed + keys - entries.len();
                        let mut items = items;
                        items.push(Err(unprocessed_error(&tables, entries, attempts, done)));
                        items
                    }
                },
                Err(e) => vec![Err(e)],
            };
            futures::future::ready(Some(stream::iter(items)))
        })
        .flatten()
        .boxed();
    // Ends after the first error, without polling further (which would send the next chunk).
    stream::unfold((items, false), |(mut items, failed)| async move {
        if failed {
            return None;
        }
        let item = items.next().await?;
        let failed = item.is_err();
        Some((item, (items, failed)))
    })
    .boxed()
}

/// One chunk's outcome: its items in key order (decoded, or the decoding error), how many keys it
/// had, and what was left unprocessed.
struct ChunkItems<M> {
    items: Vec<Result<M>>,
    keys: usize,
    left: Option<Unfinished>,
}

struct Unfinished {
    entries: Vec<ReadEntry>,
    attempts: u32,
    tables: Arc<[ReadTable]>,
}

async fn read_in_order<M: Model>(
    backend: &Calls,
    tables: &Arc<[ReadTable]>,
    chunk: Vec<ReadEntry>,
    options: &BatchOptions,
) -> Result<ChunkItems<M>> {
    let order: Vec<KeyId> = chunk.iter().map(|e| e.id.clone()).collect();
    let read = read_chunk(backend, tables, chunk, options).await?;
    let table = &tables[0];
    let mut found: HashMap<KeyId, Item> = read
        .answers
        .into_iter()
        .flatten()
        .map(|(_, item)| (KeyId::of_item(&item, &table.key_names), item))
        .collect();
    let items = order
        .iter()
        .filter_map(|id| Some((id, found.remove(id)?)))
        .map(|(id, item)| decode::<M>(table, id, item))
        .collect();
    let left = (!read.left.is_empty()).then(|| Unfinished {
        entries: read.left,
        attempts: read.attempts,
        tables: tables.clone(),
    });
    Ok(ChunkItems {
        items,
        keys: order.len(),
        left,
    })
}

impl<M: Model> Stream for BatchGetStream<M> {
    type Item = Result<M>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<M>>> {
        let this = self.get_mut();
        if let Some(pending) = this.pending.take() {
            this.running = Some(start(*pending));
        }
        match &mut this.running {
            Some(stream) => stream.poll_next_unpin(cx),
            None => Poll::Ready(None), // unreachable: started above
        }
    }
}

impl<M> std::fmt::Debug for BatchGetStream<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &self.pending {
            Some(pending) => format!("not started, on `{}`", pending.table.table),
            None => "started".to_owned(),
        };
        f.debug_struct("BatchGetStream")
            .field("state", &state)
            .finish()
    }
}
