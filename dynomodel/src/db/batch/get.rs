//! [`BatchGet`]: reading items of several models by key, in chunks of 100, with retries.

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::future::IntoFuture;

use futures::{StreamExt, TryStreamExt};

use crate::db::batch::items::{BatchItems, ModelItems};
use crate::db::batch::key::{check_key, KeyId};
use crate::db::batch::options::BatchOptions;
use crate::db::batch::read::{read_chunk, unprocessed_error, ReadEntry, ReadTable, MAX_GET_KEYS};
use crate::db::batch::retry::chunked;
use crate::db::{attribute, finish, Db, DbFuture};
use crate::error::{Error, Result};
use crate::expression::{ExpressionContext, IntoProjection, ProjectionExpression};
use crate::model::{Model, PrimaryKey};

/// A pending [`Db::batch_get`]: keys of any number of models, read with `BatchGetItem`. `.await` it
/// for the [`BatchItems`] read, from which each model's items are taken with their own type.
///
/// Why this shape: one builder for every model, because the point of a batch is one round of
/// requests for everything a page needs (the tweets and their authors); keys typed by their model
/// (`keys::<Tweet>(...)` takes what [`Db::get`] takes), so a key of the wrong shape does not
/// compile; and results handed out per model (`take::<Tweet>()`), in the order the keys were
/// given, with the keys that had no item (`missing::<Tweet>()`), since DynamoDB answers in no order
/// and silently skips missing keys.
///
/// - A key given twice is read once (DynamoDB rejects duplicates inside a request; the mapper never
///   sends one). Its item is there once.
/// - [`consistent`](BatchGet::consistent) and [`project`](BatchGet::project) apply to one model's
///   table, as DynamoDB's `ConsistentRead` and `ProjectionExpression` apply per table.
/// - Two models of one batch cannot read the same table (its answers would be ambiguous).
/// - Keys are checked before anything is sent (an empty string key is an error naming it).
///
/// See [`Db::batch_get`] for chunking, concurrency and retries.
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
/// let hello = Tweet { userid: "ada".into(), id: "1".into(), text: "hello".into() };
/// let ada = User { id: "ada".into(), name: "Ada".into() };
/// db.batch_write().put(&hello).put(&ada).await?;
///
/// let mut read = db
///     .batch_get()
///     .keys::<Tweet>([("ada", "1"), ("ada", "2")])
///     .key::<User>("ada")
///     .consistent::<User>()
///     .await?;
/// assert_eq!(read.take::<Tweet>()?, [hello]);
/// assert_eq!(read.missing::<Tweet>(), [&TweetKey::from(("ada", "2"))]);
/// assert_eq!(read.get::<User>("ada")?, Some(ada));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a batch get does nothing until awaited"]
pub struct BatchGet<'a> {
    db: &'a Db,
    models: Vec<ModelRead>,
    options: Option<BatchOptions>,
    /// The first error met while building (a key that does not convert, a bad projection),
    /// returned when awaited.
    error: Option<Error>,
}

/// What the batch reads of one model.
struct ModelRead {
    type_id: TypeId,
    table: ReadTable,
    /// The distinct keys, in the order given.
    keys: Vec<(KeyId, crate::value::Item)>,
    seen: HashSet<KeyId>,
    /// The same keys as the model's own key type (`Vec<M::Key>`), for [`BatchItems::missing`].
    typed: Box<dyn Any + Send + Sync>,
}

impl<'a> BatchGet<'a> {
    pub(crate) fn new(db: &'a Db) -> Self {
        BatchGet {
            db,
            models: Vec::new(),
            options: None,
            error: None,
        }
    }

    /// Reads the item of `M` with this key (whatever [`Db::get`] takes: `("abc", "1")`, `"u1"`, a
    /// `TweetKey`).
    pub fn key<M: Model>(self, key: impl Into<M::Key>) -> Self {
        self.keys::<M>([key])
    }

    /// Reads the items of `M` with these keys.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweets: Vec<Tweet> = (0..250)
    ///     .map(|i| Tweet { userid: "ada".into(), id: format!("{i:03}"), text: format!("tweet {i}") })
    ///     .collect();
    /// db.batch_write().put_all(&tweets).await?; // 10 requests of 25
    ///
    /// let keys = tweets.iter().map(|t| t.key()); // 3 requests of 100, 100, 50
    /// let read = db.batch_get().keys::<Tweet>(keys).await?.take::<Tweet>()?;
    /// assert_eq!(read, tweets); // in the order of the keys
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn keys<M: Model>(mut self, keys: impl IntoIterator<Item = impl Into<M::Key>>) -> Self {
        if self.error.is_some() {
            return self;
        }
        let index = self.model::<M>();
        let model = &mut self.models[index];
        for key in keys {
            let key: M::Key = key.into();
            let item = match key.to_key_item() {
                Ok(item) => item,
                Err(e) => {
                    self.error = Some(e.into());
                    return self;
                }
            };
            if let Err(e) = check_key("batch_get", model.table.model, &model.table.table, &item) {
                self.error = Some(e);
                return self;
            }
            let id = KeyId::of(&item);
            if model.seen.insert(id.clone()) {
                model.keys.push((id, item));
                if let Some(typed) = model.typed.downcast_mut::<Vec<M::Key>>() {
                    typed.push(key);
                }
            }
        }
        self
    }

    /// Reads `M`'s items with strong consistency (`ConsistentRead` on its table; twice the read
    /// capacity). Other models keep eventually consistent reads.
    pub fn consistent<M: Model>(mut self) -> Self {
        let index = self.model::<M>();
        self.models[index].table.consistent = true;
        self
    }

    /// Reads only these attributes of `M`'s items (its `ProjectionExpression`), which are then
    /// taken as [`Partial<M>`](crate::Partial) views with
    /// [`BatchItems::take_partial`]. The key attributes are always read as well, so that each
    /// item can be matched to its key. Given twice for one model, the last projection is used.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// db.put(&Tweet { userid: "ada".into(), id: "1".into(), text: "hello".into(), likes: 7 }).await?;
    ///
    /// let mut read = db.batch_get().key::<Tweet>(("ada", "1")).project(Tweet::likes()).await?;
    /// let likes: Vec<Option<i64>> = read
    ///     .take_partial::<Tweet>()
    ///     .iter()
    ///     .map(|p| p.get(Tweet::likes()))
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(likes, [Some(7)]);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn project<M: Model>(mut self, paths: impl IntoProjection<M>) -> Self {
        let index = self.model::<M>();
        let mut projection = ProjectionExpression::<M>::new().with(attribute::<M>(M::HASH_KEY));
        if let Some(range) = M::RANGE_KEY {
            projection = projection.with(attribute::<M>(range));
        }
        let projection = projection.merge(paths);
        let mut ctx = ExpressionContext::new();
        match ctx.projection(&projection) {
            Ok(expression) => {
                let table = &mut self.models[index].table;
                table.projection = expression;
                table.names = finish(ctx).0;
            }
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// Runs this batch with these options instead of the database's
    /// ([`Db::with_batch_options`]).
    pub fn options(mut self, options: BatchOptions) -> Self {
        self.options = Some(options);
        self
    }

    /// The index of `M`'s entry, added on first use.
    fn model<M: Model>(&mut self) -> usize {
        let type_id = TypeId::of::<M>();
        if let Some(index) = self.models.iter().position(|m| m.type_id == type_id) {
            return index;
        }
        self.models.push(ModelRead {
            type_id,
            table: ReadTable::of::<M>(self.db),
            keys: Vec::new(),
            seen: HashSet::new(),
            typed: Box::new(Vec::<M::Key>::new()),
        });
        self.models.len() - 1
    }

    async fn run(self) -> Result<BatchItems> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let options = self.options.unwrap_or(self.db.batch_options);
        // Models asked for no key (only `consistent` or `project`) send nothing.
        let models: Vec<ModelRead> = self
            .models
            .into_iter()
            .filter(|m| !m.keys.is_empty())
            .collect();
        check_tables(&models)?;
        let tables: Vec<ReadTable> = models.iter().map(|m| m.table.clone()).collect();
        let entries: Vec<ReadEntry> = models
            .iter()
            .enumerate()
            .flat_map(|(table, m)| m.keys.iter().map(move |(id, key)| (table, id, key)))
            .enumerate()
            .map(|(position, (table, id, key))| ReadEntry {
                table,
                key: key.clone(),
                id: id.clone(),
                position,
            })
            .collect();
        let total = entries.len();
        let chunks = chunked(entries, MAX_GET_KEYS);
        let backend = &self.db.calls;
        let reads: Vec<_> = futures::stream::iter(chunks)
            .map(|chunk| read_chunk(backend, &tables, chunk, &options))
            .buffer_unordered(options.concurrency)
            .try_collect()
            .await?;

        let mut found: Vec<HashMap<KeyId, crate::value::Item>> = vec![HashMap::new(); tables.len()];
        let mut left = Vec::new();
        let mut attempts = 0;
        for read in reads {
            for (table, item) in read.answers.into_iter().flatten() {
                let id = KeyId::of_item(&item, &tables[table].key_names);
                found[table].insert(id, item);
            }
            if !read.left.is_empty() {
                attempts = attempts.max(read.attempts);
                left.extend(read.left);
            }
        }
        if !left.is_empty() {
            let processed = total - left.len();
            return Err(unprocessed_error(&tables, left, attempts, processed));
        }
        let items = models
            .into_iter()
            .zip(found)
            .map(|(model, found)| {
                let order = model.keys.into_iter().map(|(id, _)| id).collect();
                ModelItems::new(model.type_id, model.table, order, model.typed, found)
            })
            .collect();
        Ok(BatchItems::new(items))
    }
}

/// Two models of one batch on one table (same name, or the same model twice under a namespace)
/// would share one `KeysAndAttributes` and one list of answers: which model an item is could not
/// be told.
fn check_tables(models: &[ModelRead]) -> Result<()> {
    for (i, model) in models.iter().enumerate() {
        if let Some(other) = models[..i]
            .iter()
            .find(|m| m.table.table == model.table.table)
        {
            return Err(Error::validation(format!(
                "batch_get: `{}` and `{}` both read table `{}`; read them in two batches",
                other.table.model, model.table.model, model.table.table
            )));
        }
    }
    Ok(())
}

impl<'a> IntoFuture for BatchGet<'a> {
    type Output = Result<BatchItems>;
    type IntoFuture = DbFuture<'a, BatchItems>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.run())
    }
}
