//! [`BatchWrite`]: puts and deletes of several models with `BatchWriteItem`, in chunks of 25, with
//! retries.

use std::collections::{BTreeMap, BTreeSet};
use std::future::IntoFuture;

use futures::{StreamExt, TryStreamExt};

use crate::backend::{BatchWriteItemInput, WriteRequest};
use crate::db::batch::errors::BatchUnprocessed;
use crate::db::batch::key::{check_key, KeyId};
use crate::db::batch::options::BatchOptions;
use crate::db::batch::retry::{chunked, with_retries, Retried};
use crate::db::item_size;
use crate::db::names::model_name;
use crate::db::Calls;
use crate::db::{stamps, Db, DbFuture};
use crate::error::ItemAction;
use crate::error::{Error, Result};
use crate::model::{Model, PrimaryKey};
use crate::value::Item;

/// DynamoDB's limit on the writes of one `BatchWriteItem` ("Too many items requested for the
/// BatchWriteItem call").
pub(crate) const MAX_WRITES: usize = 25;

/// A pending [`Db::batch_write`]: puts (create or replace, no condition) and deletes (by key or by
/// the item you hold) of any number of models. `.await` it for `()`.
///
/// Each value is converted when it is added, so the builder borrows nothing; a conversion error is
/// returned when the batch is awaited, before anything is sent. So is anything DynamoDB would
/// reject with a whole chunk after others were written: two writes to one item (an error naming
/// it: DynamoDB rejects them inside one request, and across chunks, which run concurrently, which
/// write wins would be a race), an item over 400 KB, an empty string key.
///
/// A batch is not a transaction: each write is atomic, the batch is not, and no condition can be
/// attached (use [`Db::put`] with a condition, or a transaction, for that). See [`Db::batch_write`]
/// for chunks, retries and what a failure leaves written.
///
/// Without a condition there is no `#[version]` check either, so a batch refuses to write values of
/// a versioned model (puts, and deletes of a value) unless told to with
/// [`ignore_version`](BatchWrite::ignore_version); deletes by key check no version anywhere and are
/// always allowed. See [optimistic locking](crate::Model#optimistic-locking-version).
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "tweets")]
/// struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "users")]
/// struct User { #[hash_key] id: String, name: String }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Tweet>().await?;
/// # db.create_schema::<User>().await?;
/// let tweets: Vec<Tweet> = (1..=3)
///     .map(|i| Tweet { userid: "ada".into(), id: i.to_string(), text: format!("tweet {i}") })
///     .collect();
/// let ada = User { id: "ada".into(), name: "Ada".into() };
/// db.batch_write().put_all(&tweets).put(&ada).await?;
///
/// db.batch_write()
///     .delete(&tweets[0])                  // by the item held
///     .delete_key::<Tweet>(("ada", "2"))   // by key
///     .delete_key::<User>("bob")           // no such user: nothing happens
///     .await?;
/// assert_eq!(db.scan::<Tweet>().count().await?, 1);
///
/// // Two writes to one item are refused before anything is sent.
/// let err = db.batch_write().put(&tweets[2]).delete(&tweets[2]).await.unwrap_err();
/// assert!(err.to_string().contains(r#"two writes to one item: Put Tweet {id: "3", userid: "ada"}"#));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a batch write does nothing until awaited"]
pub struct BatchWrite<'a> {
    db: &'a Db,
    writes: Vec<WriteEntry>,
    options: Option<BatchOptions>,
    /// The first error met while building, returned when awaited.
    error: Option<Error>,
    /// The first model with a `#[version]` field given by value (a put, or a delete of a value):
    /// the batch cannot check its version, so it is refused when awaited unless `ignore_version`.
    versioned: Option<&'static str>,
    ignore_version: bool,
}

/// One write of the batch.
#[derive(Debug, Clone)]
pub(crate) struct WriteEntry {
    model: &'static str,
    table: String,
    key: Item,
    id: KeyId,
    /// `"Put"` or `"Delete"`.
    kind: &'static str,
    /// The write, kept until the chunk is done: each attempt sends a copy, so that a request
    /// refused whole (`Error::Throughput`) can be sent again.
    request: WriteRequest,
    /// Where the batch was given it, to report leftovers in that order.
    position: usize,
}

impl WriteEntry {
    fn action(&self) -> ItemAction {
        ItemAction {
            kind: self.kind,
            model: self.model,
            table: self.table.clone(),
            key: self.key.clone(),
            version: None,
            existence: None,
        }
    }
}

impl<'a> BatchWrite<'a> {
    pub(crate) fn new(db: &'a Db) -> Self {
        BatchWrite {
            db,
            writes: Vec::new(),
            options: None,
            error: None,
            versioned: None,
            ignore_version: false,
        }
    }

    /// Stores `item`, replacing any item with its key (a versioned model needs
    /// [`ignore_version`](BatchWrite::ignore_version)), with the
    /// [timestamps](crate::Model#timestamps-created_at-updated_at) of the write.
    pub fn put<M: Model>(self, item: &M) -> Self {
        self.put_all([item])
    }

    /// Stores every item (`&Vec<M>`, `&[M]`, `iter()`, an array of references).
    pub fn put_all<'i, M: Model>(mut self, items: impl IntoIterator<Item = &'i M>) -> Self {
        for item in items {
            if self.error.is_some() {
                break;
            }
            self.by_value::<M>();
            let entry: Result<(Item, WriteRequest)> = (|| {
                let key = item.key().to_key_item()?;
                let value = item;
                let mut item = value.to_item()?;
                // `updated_at` = now; `created_at` = now unless the value holds one.
                stamps::stamp_item(self.db, value, &mut item)?;
                item_size::check_item::<M>(self.db, &item)?;
                Ok((key, WriteRequest::Put { item }))
            })();
            self.push::<M>(entry);
        }
        self
    }

    /// Deletes the item with `item`'s key (nothing happens if there is none; a versioned model
    /// needs [`ignore_version`](BatchWrite::ignore_version), or [`delete_key`](BatchWrite::delete_key)).
    pub fn delete<M: Model>(self, item: &M) -> Self {
        self.delete_all([item])
    }

    /// Deletes the items with the keys of these items.
    pub fn delete_all<'i, M: Model>(mut self, items: impl IntoIterator<Item = &'i M>) -> Self {
        let keys: Vec<M::Key> = items.into_iter().map(Model::key).collect();
        if !keys.is_empty() {
            self.by_value::<M>();
        }
        self.delete_keys::<M>(keys)
    }

    /// Deletes the item of `M` with this key (whatever [`Db::get`] takes).
    pub fn delete_key<M: Model>(self, key: impl Into<M::Key>) -> Self {
        self.delete_keys::<M>([key])
    }

    /// Deletes the items of `M` with these keys.
    pub fn delete_keys<M: Model>(
        mut self,
        keys: impl IntoIterator<Item = impl Into<M::Key>>,
    ) -> Self {
        for key in keys {
            if self.error.is_some() {
                break;
            }
            let entry = key
                .into()
                .to_key_item()
                .map(|key| (key.clone(), WriteRequest::Delete { key }))
                .map_err(Error::from);
            self.push::<M>(entry);
        }
        self
    }

    /// Runs this batch with these options instead of the database's
    /// ([`Db::with_batch_options`]).
    pub fn options(mut self, options: BatchOptions) -> Self {
        self.options = Some(options);
        self
    }

    /// Writes values of `#[version]` models as [`Put::ignore_version`](crate::Put::ignore_version)
    /// does: stored exactly as they are in memory, version included, and deleted whatever their
    /// stored version. Without it such a batch is refused before anything is sent, since
    /// `BatchWriteItem` takes no condition to check the version with (and a stale copy would
    /// silently move the stored version back, making other stale copies current again).
    ///
    /// For imports, restores and clean-ups. A value stored with version `0` (never saved) cannot be
    /// [`save`](Db::save)d afterwards (its first save expects no item): give imported values the
    /// version they should have, e.g. 1.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Doc { #[hash_key] id: String, text: String, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Doc>().await?;
    /// let docs: Vec<Doc> =
    ///     (0..3).map(|i| Doc { id: format!("d{i}"), text: "imported".into(), version: 1 }).collect();
    /// let refused = db.batch_write().put_all(&docs).await.unwrap_err();
    /// assert!(refused.message().contains("#[version]"));
    ///
    /// db.batch_write().put_all(&docs).ignore_version().await?; // stored as they are: version 1
    /// let mut doc = db.get::<Doc>("d0").await?.expect("imported");
    /// doc.text = "edited".into();
    /// db.save(&mut doc).await?; // checked against the imported version
    /// assert_eq!(doc.version, 2);
    /// db.batch_write().delete_keys::<Doc>(["d1", "d2"]).await?; // by key: no version to check
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn ignore_version(mut self) -> Self {
        self.ignore_version = true;
        self
    }

    /// Notes a write of a value of `M`, which a batch cannot version-check.
    fn by_value<M: Model>(&mut self) {
        if M::VERSION_ATTRIBUTE.is_some() {
            self.versioned.get_or_insert(model_name::<M>());
        }
    }

    /// Adds a write of `M`, or keeps the first error.
    fn push<M: Model>(&mut self, entry: Result<(Item, WriteRequest)>) {
        let (model, table) = (model_name::<M>(), self.db.table_name::<M>());
        let entry = entry.and_then(|(key, request)| {
            check_key("batch_write", model, &table, &key)?;
            Ok(WriteEntry {
                model,
                table,
                id: KeyId::of(&key),
                key,
                kind: match request {
                    WriteRequest::Put { .. } => "Put",
                    WriteRequest::Delete { .. } => "Delete",
                },
                request,
                position: self.writes.len(),
            })
        });
        match entry {
            Ok(entry) => self.writes.push(entry),
            Err(e) => self.error = Some(e),
        }
    }

    async fn run(self) -> Result<()> {
        if let Some(error) = self.error {
            return Err(error);
        }
        if let (Some(model), false) = (self.versioned, self.ignore_version) {
            return Err(Error::validation(format!(
                "batch_write: `{model}` has a #[version] field, which a batch cannot check \
                 (BatchWriteItem takes no condition): write its values with Db::save, Db::put or a \
                 transaction, delete them by key, or call ignore_version() to write them unchecked, \
                 as they are in memory"
            )));
        }
        check_duplicates(&self.writes)?;
        let options = self.options.unwrap_or(self.db.batch_options);
        let total = self.writes.len();
        let chunks = chunked(self.writes, MAX_WRITES);
        let backend = &self.db.calls;
        let writes: Vec<_> = futures::stream::iter(chunks)
            .map(|chunk| write_chunk(backend, chunk, &options))
            .buffer_unordered(options.concurrency)
            .try_collect()
            .await?;
        let mut left = Vec::new();
        let mut attempts = 0;
        for write in writes {
            if !write.left.is_empty() {
                attempts = attempts.max(write.attempts);
                left.extend(write.left);
            }
        }
        if left.is_empty() {
            return Ok(());
        }
        left.sort_by_key(|e| e.position);
        Err(Error::BatchUnprocessed(Box::new(BatchUnprocessed {
            operation: "BatchWriteItem",
            attempts,
            processed: total - left.len(),
            actions: left.iter().map(WriteEntry::action).collect(),
        })))
    }
}

/// Refuses two writes to one item (same table, same key), naming both, before anything is sent.
fn check_duplicates(writes: &[WriteEntry]) -> Result<()> {
    let mut seen: BTreeMap<(&str, &KeyId), &WriteEntry> = BTreeMap::new();
    for write in writes {
        if let Some(first) = seen.insert((&write.table, &write.id), write) {
            // DynamoDB's answer to the same inside one request is a ValidationException, "Provided
            // list of item keys contains duplicates" (API_BatchWriteItem.html).
            return Err(Error::validation(format!(
                "batch_write: two writes to one item: {} and {}; a batch may write each item once (DynamoDB \
                 rejects duplicates in a request, and across chunks, which run concurrently, which write \
                 wins would be a race)",
                first.action(),
                write.action()
            )));
        }
    }
    Ok(())
}

/// Writes one chunk (1 to 25 writes), retrying what comes back unprocessed, and the whole chunk
/// when the request is refused for throughput (`ProvisionedThroughputExceededException`,
/// `ThrottlingException`, `RequestLimitExceeded`), with the same backoff and attempt limit: on
/// DynamoDB the AWS SDK retries such a refusal a few times, on other backends nothing else does.
///
/// Each attempt sends copies of the writes, the entries keeping theirs until the chunk is done:
/// the backend takes its request by value, so a refused request cannot be given back, and without
/// the items (the builder borrows nothing) it cannot be rebuilt either. The copy is measured in
/// the `mapper/batch_write_25` bench.
async fn write_chunk(
    backend: &Calls,
    entries: Vec<WriteEntry>,
    options: &BatchOptions,
) -> Result<Retried<(), WriteEntry>> {
    with_retries(options, entries, |entries| async move {
        let mut request_items: BTreeMap<String, Vec<WriteRequest>> = BTreeMap::new();
        for entry in &entries {
            request_items
                .entry(entry.table.clone())
                .or_default()
                .push(entry.request.clone());
        }
        let request = BatchWriteItemInput {
            request_items,
            ..Default::default()
        };
        let output = match backend.batch_write_item(request).await {
            Ok(output) => output,
            Err(Error::Throughput { .. }) => return Ok(((), entries)),
            Err(e) => return Err(e),
        };
        if output.unprocessed_items.is_empty() {
            return Ok(((), Vec::new()));
        }
        // Table → the keys the answer left unprocessed.
        let mut unprocessed: BTreeMap<String, BTreeSet<KeyId>> = BTreeMap::new();
        for (table, requests) in output.unprocessed_items {
            // A put comes back as the whole item: its key is read with the table's key names,
            // which are the attribute names of any key sent to that table.
            let Some(names) = entries
                .iter()
                .find(|e| e.table == table)
                .map(|e| e.key.keys())
            else {
                continue; // a table the request did not name: nothing of ours to retry
            };
            let left: BTreeSet<KeyId> = requests
                .iter()
                .map(|request| match request {
                    WriteRequest::Delete { key } => KeyId::of(key),
                    WriteRequest::Put { item } => KeyId::of_item(item, names.clone()),
                })
                .collect();
            unprocessed.insert(table, left);
        }
        let left: Vec<WriteEntry> = entries
            .into_iter()
            .filter(|entry| {
                unprocessed
                    .get(&entry.table)
                    .is_some_and(|ids| ids.contains(&entry.id))
            })
            .collect();
        Ok(((), left))
    })
    .await
}

impl<'a> IntoFuture for BatchWrite<'a> {
    type Output = Result<()>;
    type IntoFuture = DbFuture<'a, ()>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}
