//! [`Db`]: the typed facade over a [`Backend`].

use std::fmt;
use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;

use crate::backend::*;
use crate::error::{Error, Result};
use crate::model::{Model, PrimaryKey};

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A handle on a DynamoDB database: typed requests for models, run by a [`Backend`].
///
/// Cheap to clone (an `Arc`), `Send + Sync`. The same code runs against Amazon DynamoDB or the
/// in-memory engine; only the construction differs:
///
/// ```ignore
/// let db = Db::new(dynomodel_mem::MemBackend::new());   // tests: in memory
/// let db = Db::from_env().await?;                        // production (feature "aws")
/// ```
///
/// A namespace ([`Db::with_namespace`]) prefixes every table name, so several test runs or environments
/// can share one account.
#[derive(Clone)]
pub struct Db {
    backend: Arc<dyn Backend>,
    namespace: Arc<str>,
}

impl fmt::Debug for Db {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Db")
            .field("backend", &self.backend)
            .field("namespace", &self.namespace)
            .finish()
    }
}

impl Db {
    /// A database served by `backend`.
    pub fn new(backend: impl Backend + 'static) -> Db {
        Db::from_arc(Arc::new(backend))
    }

    /// A database served by a shared backend.
    pub fn from_arc(backend: Arc<dyn Backend>) -> Db {
        Db {
            backend,
            namespace: Arc::from(""),
        }
    }

    /// The same database with every table name prefixed by `namespace` (e.g. `"test-"`).
    pub fn with_namespace(mut self, namespace: impl Into<String>) -> Db {
        self.namespace = Arc::from(namespace.into());
        self
    }

    /// The backend, for raw DynamoDB requests.
    pub fn backend(&self) -> &Arc<dyn Backend> {
        &self.backend
    }

    /// The name of `M`'s table in this database (namespace included).
    pub fn table_name<M: Model>(&self) -> String {
        format!("{}{}", self.namespace, M::TABLE_NAME)
    }

    /// Creates `M`'s table if it does not exist. Returns whether it created it.
    ///
    /// Idempotent: running it against an existing table changes nothing.
    pub async fn create_schema<M: Model>(&self) -> Result<bool> {
        let table_name = self.table_name::<M>();
        match self
            .backend
            .describe_table(DescribeTableInput {
                table_name: table_name.clone(),
            })
            .await
        {
            Ok(_) => return Ok(false),
            Err(Error::ResourceNotFound { .. }) => {}
            Err(e) => return Err(e),
        }
        let input = CreateTableInput {
            table_name,
            ..M::schema()
        };
        match self.backend.create_table(input).await {
            Ok(_) => Ok(true),
            // Created concurrently by someone else: the table exists, which is what was asked.
            Err(Error::ResourceInUse { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Deletes `M`'s table if it exists. Returns whether it deleted it.
    pub async fn delete_schema<M: Model>(&self) -> Result<bool> {
        let table_name = self.table_name::<M>();
        match self
            .backend
            .delete_table(DeleteTableInput { table_name })
            .await
        {
            Ok(_) => Ok(true),
            Err(Error::ResourceNotFound { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Stores `item`, replacing any item with the same key.
    ///
    /// ```ignore
    /// db.put(&tweet).await?;
    /// ```
    pub fn put<'a, M: Model>(&'a self, item: &'a M) -> Put<'a, M> {
        Put { db: self, item }
    }

    /// Reads the item with this key, if it exists.
    ///
    /// ```ignore
    /// let tweet: Option<Tweet> = db.get::<Tweet>(("abc", "1")).consistent().await?;
    /// ```
    pub fn get<M: Model>(&self, key: impl Into<M::Key>) -> Get<'_, M> {
        Get {
            db: self,
            key: key.into(),
            consistent: false,
            _model: PhantomData,
        }
    }

    /// Deletes the item with `item`'s key (nothing happens if there is none).
    pub async fn delete<M: Model>(&self, item: &M) -> Result<()> {
        self.delete_key::<M>(item.key()).await.map(drop)
    }

    /// Deletes the item with this key and returns it, if there was one.
    pub async fn delete_key<M: Model>(&self, key: impl Into<M::Key>) -> Result<Option<M>> {
        let input = DeleteItemInput {
            table_name: self.table_name::<M>(),
            key: key.into().to_key_item()?,
            return_values: Some(ReturnValue::AllOld),
            ..Default::default()
        };
        let output = self.backend.delete_item(input).await?;
        Ok(output.attributes.map(M::from_item).transpose()?)
    }
}

/// A pending [`Db::put`]; `.await` it.
#[must_use = "a put does nothing until awaited"]
pub struct Put<'a, M> {
    db: &'a Db,
    item: &'a M,
}

impl<'a, M: Model> IntoFuture for Put<'a, M> {
    type Output = Result<()>;
    type IntoFuture = BoxFuture<'a, Result<()>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let input = PutItemInput {
                table_name: self.db.table_name::<M>(),
                item: self.item.to_item()?,
                ..Default::default()
            };
            self.db.backend.put_item(input).await.map(drop)
        })
    }
}

/// A pending [`Db::get`]; `.await` it.
#[must_use = "a get does nothing until awaited"]
pub struct Get<'a, M: Model> {
    db: &'a Db,
    key: M::Key,
    consistent: bool,
    _model: PhantomData<fn() -> M>,
}

impl<M: Model> Get<'_, M> {
    /// Reads with strong consistency (costs twice the read capacity).
    pub fn consistent(mut self) -> Self {
        self.consistent = true;
        self
    }
}

impl<'a, M: Model> IntoFuture for Get<'a, M> {
    type Output = Result<Option<M>>;
    type IntoFuture = BoxFuture<'a, Result<Option<M>>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let input = GetItemInput {
                table_name: self.db.table_name::<M>(),
                key: self.key.to_key_item()?,
                consistent_read: self.consistent.then_some(true),
                ..Default::default()
            };
            let output = self.db.backend.get_item(input).await?;
            Ok(output.item.map(M::from_item).transpose()?)
        })
    }
}
