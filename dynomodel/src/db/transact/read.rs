//! [`ReadTransaction`]: `TransactGetItems` of typed keys, read back through typed [`Slot`]s.

use std::fmt;
use std::future::IntoFuture;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::backend::{TransactGet, TransactGetItemsInput};
use crate::db::names::model_name;
use crate::db::transact::{cancel, About};
use crate::db::{Db, DbFuture, ItemDecode};
use crate::error::{Error, ItemAction, Result};
use crate::model::{Model, PrimaryKey};
use crate::value::Item;

/// Tells read transactions apart, so that a slot is only read from its own transaction's results.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// A pending [`Db::transact_get`]: up to 100 items by key, of any models, read as one snapshot
/// (`TransactGetItems`: no write, transactional or not, is seen half done).
///
/// [`get`](ReadTransaction::get) adds a key and returns a typed [`Slot`]; `.await` gives the
/// [`Reads`], from which each slot takes its item as `Option<M>`. Slots rather than a tuple of
/// results because the reads are often built in a loop, of any number and mix of models; the slot
/// carries the model, so reading it back needs no annotation and cannot decode the wrong type.
///
/// A canceled read (e.g. a `TransactionConflict` with a transaction writing the same items) is
/// [`Error::TransactionCanceled`], its reasons naming the reads (kind `"Get"`). An item that does not
/// decode is [`Error::ItemDecode`], naming its model, table and key, as in a batch. A read
/// transaction without reads sends nothing and gives empty [`Reads`].
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Account { #[hash_key] id: String, balance: i64 }
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Bank { #[hash_key] id: String, open: bool }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Account>().await?;
/// # db.create_schema::<Bank>().await?;
/// db.put(&Account { id: "alice".into(), balance: 70 }).await?;
/// db.put(&Account { id: "bob".into(), balance: 30 }).await?;
/// db.put(&Bank { id: "main".into(), open: true }).await?;
///
/// let mut read = db.transact_get();
/// let bank = read.get::<Bank>("main");
/// let accounts: Vec<_> = ["alice", "bob", "carol"].map(|id| read.get::<Account>(id)).into();
/// let reads = read.await?;
///
/// assert_eq!(reads.get(bank)?.map(|b| b.open), Some(true));
/// let total: i64 = accounts.iter().map(|&a| Ok(reads.get(a)?.map_or(0, |a| a.balance)))
///     .sum::<dynomodel::Result<i64>>()?;
/// assert_eq!(total, 100); // carol has no account: `None`
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a read transaction does nothing until awaited"]
pub struct ReadTransaction<'a> {
    db: &'a Db,
    id: u64,
    requests: Vec<TransactGet>,
    actions: Vec<About>,
    /// The first key that failed to convert: reported when awaited, nothing is sent.
    error: Option<Error>,
}

/// Where one read of a [`ReadTransaction`] lands in its [`Reads`]: typed by the model, so that
/// [`Reads::get`] gives an `Option<M>`. `Copy`; only valid with the results of its own transaction.
pub struct Slot<M> {
    transaction: u64,
    index: usize,
    _model: PhantomData<fn() -> M>,
}

impl<M> Clone for Slot<M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M> Copy for Slot<M> {}

impl<M> fmt::Debug for Slot<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Slot<{}>({})", model_name::<M>(), self.index)
    }
}

impl<'a> ReadTransaction<'a> {
    pub(crate) fn new(db: &'a Db) -> Self {
        ReadTransaction {
            db,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            requests: Vec::new(),
            actions: Vec::new(),
            error: None,
        }
    }

    /// Adds a read of the item of `M` with this key; its result is read with the returned slot.
    pub fn get<M: Model>(&mut self, key: impl Into<M::Key>) -> Slot<M> {
        let index = self.requests.len();
        let table_name = self.db.table_name::<M>();
        let key = match key.into().to_key_item() {
            Ok(key) => key,
            Err(e) => {
                self.error.get_or_insert(e.into());
                Item::new()
            }
        };
        self.actions.push(About {
            action: ItemAction {
                kind: "Get",
                model: model_name::<M>(),
                table: table_name.clone(),
                key: key.clone(),
                version: None,
                existence: None,
            },
            guard: None,
            existence: None,
        });
        self.requests.push(TransactGet {
            table_name,
            key,
            ..TransactGet::default()
        });
        Slot {
            transaction: self.id,
            index,
            _model: PhantomData,
        }
    }

    /// The number of reads so far.
    pub fn len(&self) -> usize {
        self.requests.len()
    }

    /// Whether no read was added.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }
}

impl<'a> IntoFuture for ReadTransaction<'a> {
    type Output = Result<Reads>;
    type IntoFuture = DbFuture<'a, Reads>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            if let Some(error) = self.error {
                return Err(error);
            }
            if self.requests.is_empty() {
                // Nothing to read (e.g. a loop over no keys): no request, as an empty batch.
                return Ok(Reads {
                    transaction: self.id,
                    items: Vec::new(),
                    actions: Vec::new(),
                });
            }
            let input = TransactGetItemsInput {
                transact_items: self.requests,
                ..Default::default()
            };
            match self.db.calls.transact_get_items(input).await {
                Ok(output) => Ok(Reads {
                    transaction: self.id,
                    items: output.responses,
                    actions: self.actions.into_iter().map(|a| a.action).collect(),
                }),
                Err(error) => Err(cancel::describe(error, &self.actions)),
            }
        })
    }
}

/// The items a [`ReadTransaction`] read, one per [`Slot`].
#[derive(Debug, Clone)]
pub struct Reads {
    transaction: u64,
    items: Vec<Option<Item>>,
    /// The reads, in order, to name an item that does not decode.
    actions: Vec<ItemAction>,
}

impl Reads {
    /// The item read at `slot`, decoded: `None` when no item has its key.
    ///
    /// Errors: the slot is from another read transaction, or the item does not decode as `M`
    /// ([`Error::ItemDecode`], naming the model, table and key, as a batch read does).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// let mut first = db.transact_get();
    /// let a = first.get::<Account>("a");
    /// let mut second = db.transact_get();
    /// second.get::<Account>("b");
    /// let (first, second) = (first.await?, second.await?);
    /// assert_eq!(first.get(a)?, None);
    /// assert!(second.get(a).is_err()); // not its slot
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn get<M: Model>(&self, slot: Slot<M>) -> Result<Option<M>> {
        if slot.transaction != self.transaction {
            return Err(Error::validation(format!(
                "a slot of another read transaction ({slot:?}) cannot read these results"
            )));
        }
        let item = self.items.get(slot.index).ok_or_else(|| {
            Error::validation(format!(
                "the response has {} items, and none for {slot:?}",
                self.items.len()
            ))
        })?;
        let Some(item) = item else {
            return Ok(None);
        };
        M::from_item(item.clone())
            .map(Some)
            .map_err(|e| match self.actions.get(slot.index) {
                Some(read) => ItemDecode::error(read.model, &read.table, read.key.clone(), e),
                None => e.into(),
            })
    }

    /// The number of reads (found or not).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there were no reads.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}
