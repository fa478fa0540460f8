//! [`Transaction`] (`TransactWriteItems`) and [`ReadTransaction`] (`TransactGetItems`): several
//! items of any models, all or nothing.
//!
//! Each action is built by the single-item builder of the same name ([`Put`], [`Save`],
//! [`UpdateItem`], [`Delete`], [`DeleteKey`]), handed to a closure, and rendered by the same code:
//! a condition, an update or a version check means exactly what it means in a single-item request.

mod cancel;
mod read;

use std::future::IntoFuture;

use crate::backend::{
    AttributeWriter, TransactConditionCheck, TransactDelete, TransactPut, TransactUpdate,
    TransactWriteItem, TransactWriteItemsInput,
};
use crate::db::names::model_name;
use crate::db::put::PutWrite;
use crate::db::write::{Conditional, Parts, Write};
use crate::db::{item_size, Db, DbFuture, Delete, DeleteKey, Put, Save, UpdateItem};
use crate::error::{Error, ItemAction, Result};
use crate::expression::Condition;
use crate::model::{Model, PrimaryKey};
use crate::value::Item;

pub(crate) use cancel::About;
pub use read::{ReadTransaction, Reads, Slot};

/// What runs once the transaction succeeded: a [`Save`] action's version bump.
type AfterCommit<'a> = Box<dyn FnOnce() -> Result<()> + Send + 'a>;

/// A pending [`Db::transact`]: up to 100 write actions on distinct items, in any tables, that all
/// succeed or all fail (`TransactWriteItems`). `.await` it.
///
/// | method | action |
/// |---|---|
/// | [`put`](Transaction::put), [`put_with`](Transaction::put_with) | `Put` of a value, as [`Db::put`] |
/// | [`save`](Transaction::save), [`save_with`](Transaction::save_with) | `Put` of a value whose `#[version]` is bumped on commit, as [`Db::save`] |
/// | [`update`](Transaction::update) | `Update` by key, as [`Db::update`] |
/// | [`delete`](Transaction::delete), [`delete_with`](Transaction::delete_with) | `Delete` of a value, as [`Db::delete`] |
/// | [`delete_key`](Transaction::delete_key), [`delete_key_with`](Transaction::delete_key_with) | `Delete` by key, as [`Db::delete_key`] |
/// | [`condition_check`](Transaction::condition_check) | `ConditionCheck`: a condition on an item the transaction does not write |
///
/// **Why closures.** An action's options are given by a closure that receives the single-item
/// builder and returns it: `.update::<Account>("alice", |u| u.decr(..).condition(..))`. Each
/// closure is typed by its own model, so actions on several models sit side by side in one chain,
/// each condition and update is checked against its model at compile time, and the options are
/// exactly the single-item builders' (one set of methods and docs, the same version handling),
/// with no "end of action" call to forget. The builders' finishers (`returning_new`, ...) do not
/// apply: a transaction returns no items.
///
/// ```compile_fail,E0308
/// # use dynomodel::{Db, Model};
/// # #[derive(Model)] struct Account { #[hash_key] id: String, balance: i64 }
/// # #[derive(Model)] struct Transfer { #[hash_key] id: String, amount: i64 }
/// # fn f(db: &Db) {
/// // A condition on a transfer does not type-check in an account's update.
/// let _ = db.transact().update::<Account>("a", |u| u.add(Account::balance(), 1).condition(Transfer::amount().ge(1)));
/// # }
/// ```
///
/// **Versions.** Actions on `#[version]` models check and bump the version as their single-item
/// builders do, and stamp the same timestamps. [`save`](Transaction::save) sets the value's version
/// and timestamp fields once the transaction succeeded; a [`put`](Transaction::put) leaves its
/// value one version behind. A put or save of a model with
/// [counters](crate::Model#counters-dynomodelcounter) over a stored version is an `Update` action
/// leaving them as stored; a transaction returns no item, so a saved value's counters stay as they
/// were.
///
/// **Errors.** A rejected transaction is [`Error::TransactionCanceled`] with one
/// [`CancellationReason`](crate::CancellationReason) per action, in order, whose
/// [`action`](crate::CancellationReason::action) names the action (kind, model, table, key and
/// version check); its [`code`](crate::CancellationReason::code) is a
/// [`CancellationCode`](crate::CancellationCode); [`item_as`](crate::CancellationReason::item_as)
/// decodes the item a failed condition found, and
/// [`is_version_conflict`](crate::CancellationReason::is_version_conflict) and
/// [`is_item_not_found`](crate::CancellationReason::is_item_not_found) say whether it was the
/// version check or an update's existence check. Other errors (`ValidationException` for two actions on one item
/// or over 100 actions, `IdempotentParameterMismatchException` for a reused token) pass through.
///
/// **Nothing to do.** A transaction without actions (one built in a loop over no changes, say)
/// succeeds without sending anything, as an empty batch does; DynamoDB itself would reject an empty
/// `TransactItems`.
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Account { #[hash_key] id: String, balance: i64 }
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Transfer { #[hash_key] id: String, from: String, to: String, amount: i64 }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Account>().await?;
/// # db.create_schema::<Transfer>().await?;
/// db.put(&Account { id: "alice".into(), balance: 100 }).await?;
/// db.put(&Account { id: "bob".into(), balance: 0 }).await?;
///
/// let transfer = Transfer { id: "t1".into(), from: "alice".into(), to: "bob".into(), amount: 30 };
/// db.transact()
///     .update::<Account>("alice", |u| {
///         u.decr(Account::balance(), 30).condition(Account::balance().ge(30))
///     })
///     .update::<Account>("bob", |u| u.incr(Account::balance(), 30))
///     .put_with(&transfer, |p| p.if_not_exists())
///     .client_request_token("transfer-t1")
///     .await?;
///
/// let bob = db.get::<Account>("bob").await?;
/// assert_eq!(bob.map(|b| b.balance), Some(30));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a transaction does nothing until awaited"]
pub struct Transaction<'a> {
    db: &'a Db,
    requests: Vec<TransactWriteItem>,
    actions: Vec<About>,
    after_commit: Vec<AfterCommit<'a>>,
    client_request_token: Option<String>,
    /// The first action that failed to render: reported when awaited, nothing is sent.
    error: Option<Error>,
}

impl<'a> Transaction<'a> {
    pub(crate) fn new(db: &'a Db) -> Self {
        Transaction {
            db,
            requests: Vec::new(),
            actions: Vec::new(),
            after_commit: Vec::new(),
            client_request_token: None,
            error: None,
        }
    }

    /// The number of actions so far.
    pub fn len(&self) -> usize {
        self.requests.len()
    }

    /// Whether no action was added.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// Adds a rendered action (its request made by `request`), or keeps the first error.
    fn push<M: Model>(
        mut self,
        write: Result<Write>,
        request: impl FnOnce(Write) -> TransactWriteItem,
    ) -> Self {
        let write = match write {
            Ok(write) => write,
            Err(error) => return self.fail(error),
        };
        let (table, key, guard, existence) = (
            write.table_name.clone(),
            write.key.clone(),
            write.guard.clone(),
            write.existence.clone(),
        );
        let request = request(write);
        self.actions.push(About {
            action: ItemAction {
                kind: request.kind(),
                model: model_name::<M>(),
                table,
                key,
                version: None,
                existence: None,
            },
            guard,
            existence,
        });
        self.requests.push(request);
        self
    }

    fn push_put<M: Model>(self, put: Result<PutWrite<'_, M>>) -> Self {
        match put {
            // A transaction keeps its items (to send them again, to name them): built here.
            Ok(PutWrite {
                write,
                item: Some(item),
                ..
            }) => {
                // Writing the item checks its size; a refused one is named here.
                let value = item.value;
                match item.to_item() {
                    Ok(item) => self.push::<M>(Ok(write), |write| put_request(write, item)),
                    Err(error) => {
                        let error = item_size::name_write_error(self.db, value, error.into());
                        self.fail(error)
                    }
                }
            }
            // A model with counters over a stored version: an update leaving them as stored.
            Ok(PutWrite {
                write, item: None, ..
            }) => self.push::<M>(Ok(write), update_request),
            Err(error) => self.fail(error),
        }
    }

    /// Keeps the first error, to report when awaited (nothing is sent then).
    fn fail(mut self, error: Error) -> Self {
        self.error.get_or_insert(error);
        self
    }

    /// Stores `item` (create or replace), as [`Db::put`]; with a `#[version]` field, on condition
    /// that the stored version is the one `item` holds, storing the next one (`item` is then one
    /// version behind: use [`save`](Transaction::save) to keep it current).
    pub fn put<M: Model>(self, item: &M) -> Self {
        self.put_with(item, |put| put)
    }

    /// [`put`](Transaction::put) with options: the closure gets the [`Put`] builder
    /// (`condition`, `if_not_exists`, `item_on_failure`, `ignore_version`).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// let (a, b) = (Account { id: "a".into(), balance: 1 }, Account { id: "b".into(), balance: 2 });
    /// db.transact().put_with(&a, |p| p.if_not_exists()).put_with(&b, |p| p.if_not_exists()).await?;
    /// let again = db.transact().put_with(&a, |p| p.if_not_exists()).await;
    /// assert!(again.is_err_and(|e| e.cancellation_reasons()[0].is_conditional_check_failed()));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn put_with<'i, M: Model>(
        self,
        item: &'i M,
        options: impl FnOnce(Put<'i, M>) -> Put<'i, M>,
    ) -> Self
    where
        'a: 'i,
    {
        let (item, options) = options(Put::new(self.db, item)).into_parts();
        let put = options.render(self.db, item, true);
        self.push_put::<M>(put)
    }

    /// Stores `item` as [`Db::save`] does: checks its `#[version]`, stores the next one, and sets
    /// `item`'s version field to it once the whole transaction succeeded (untouched otherwise).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Account { #[hash_key] id: String, balance: i64, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// let mut alice = Account { id: "alice".into(), balance: 100, version: 0 };
    /// let mut bob = Account { id: "bob".into(), balance: 0, version: 0 };
    /// db.transact().save(&mut alice).save(&mut bob).await?; // both created
    ///
    /// alice.balance -= 25;
    /// bob.balance += 25;
    /// db.transact().save(&mut alice).save(&mut bob).await?; // both still as we read them
    /// assert_eq!((alice.version, bob.version), (2, 2));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn save<M: Model>(self, item: &'a mut M) -> Self {
        self.save_with(item, |save| save)
    }

    /// [`save`](Transaction::save) with options: the closure gets the [`Save`] builder
    /// (`condition`, `if_not_exists`, `item_on_failure`, `ignore_version`).
    pub fn save_with<M: Model>(
        self,
        item: &'a mut M,
        options: impl FnOnce(Save<'a, M>) -> Save<'a, M>,
    ) -> Self {
        let (item, options) = options(Save::new(self.db, item)).into_parts();
        let put = options.render(self.db, item, true);
        let stored = match &put {
            Ok(PutWrite {
                version, stamped, ..
            }) if version.is_some() || stamped.is_some() => Some((*version, *stamped)),
            _ => None,
        };
        // The put (which reads `item`) is built before `item` goes to the commit's closure.
        let mut this = self.push_put::<M>(put);
        if let Some((version, stamped)) = stored {
            this.after_commit.push(Box::new(move || {
                if let Some(version) = version {
                    item.set_version(Some(version))?;
                }
                if let Some(stamped) = stamped {
                    stamped.apply(item)?;
                }
                Ok(())
            }));
        }
        this
    }

    /// Updates the item with this key, as [`Db::update`]: the closure gets the [`UpdateItem`]
    /// builder and adds the actions (`set`, `add`, `incr`, ...), conditions, `if_version`,
    /// `upsert`, `skip_version_bump`, ... An update of a `#[version]` model bumps its version
    /// (unless it changes [counters](crate::Model#counters-dynomodelcounter) only). An update needs
    /// at least one action. Like a single-item update it changes only an item that exists (of its model):
    /// a missing one cancels the transaction, with a reason that
    /// [`is_item_not_found`](crate::CancellationReason::is_item_not_found), unless the update is an
    /// [`upsert`](UpdateItem::upsert).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// # db.put(&Account { id: "a".into(), balance: 10 }).await?;
    /// let overdraft = db
    ///     .transact()
    ///     .update::<Account>("a", |u| u.decr(Account::balance(), 20).condition(Account::balance().ge(20)))
    ///     .update::<Account>("b", |u| u.incr(Account::balance(), 20))
    ///     .await;
    /// assert!(overdraft.is_err());
    /// assert_eq!(db.get::<Account>("b").await?, None); // nothing was written
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn update<M: Model>(
        self,
        key: impl Into<M::Key>,
        actions: impl FnOnce(UpdateItem<'a, M>) -> UpdateItem<'a, M>,
    ) -> Self {
        let update = actions(UpdateItem::new(self.db, key.into()));
        let write = update
            .render()
            .and_then(|(write, _)| match write.update_expression {
                Some(_) => Ok(write),
                None => Err(Error::validation(format!(
                    "a transaction's update of `{}` needs at least one action",
                    M::TABLE_NAME
                ))),
            });
        self.push::<M>(write, update_request)
    }

    /// Deletes the item with `item`'s key, as [`Db::delete`] (checking its `#[version]`, if any).
    pub fn delete<M: Model>(self, item: &M) -> Self {
        self.delete_with(item, |delete| delete)
    }

    /// [`delete`](Transaction::delete) with options: the closure gets the [`Delete`] builder
    /// (`condition`, `atomic`, `item_on_failure`, `ignore_version`).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// let closed = Account { id: "a".into(), balance: 0 };
    /// db.put(&closed).await?;
    /// db.transact().delete_with(&closed, |d| d.condition(Account::balance().eq(0))).await?;
    /// assert_eq!(db.get::<Account>("a").await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn delete_with<'i, M: Model>(
        self,
        item: &'i M,
        options: impl FnOnce(Delete<'i, M>) -> Delete<'i, M>,
    ) -> Self
    where
        'a: 'i,
    {
        let write = options(Delete::new(self.db, item)).render();
        self.push::<M>(write, delete_request)
    }

    /// Deletes the item with this key, as [`Db::delete_key`] (no version check unless asked with
    /// [`DeleteKey::if_version`]).
    pub fn delete_key<M: Model>(self, key: impl Into<M::Key>) -> Self {
        self.delete_key_with::<M>(key, |delete| delete)
    }

    /// [`delete_key`](Transaction::delete_key) with options: the closure gets the [`DeleteKey`]
    /// builder (`condition`, `item_on_failure`, `if_version`).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Account { #[hash_key] id: String, balance: i64, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// let mut a = Account { id: "a".into(), balance: 0, version: 0 };
    /// db.save(&mut a).await?; // version 1
    /// db.update::<Account>("a").add(Account::balance(), 5).await?; // version 2, by someone else
    ///
    /// let close = |version: u64| db.transact().delete_key_with::<Account>("a", move |d| d.if_version(version));
    /// let err = close(a.version).await.unwrap_err();
    /// assert!(err.is_version_conflict()); // not closed: the deposit came after our read
    /// close(2).await?;
    /// assert_eq!(db.get::<Account>("a").await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn delete_key_with<M: Model>(
        self,
        key: impl Into<M::Key>,
        options: impl FnOnce(DeleteKey<'a, M>) -> DeleteKey<'a, M>,
    ) -> Self {
        let write = options(DeleteKey::new(self.db, key.into())).render();
        self.push::<M>(write, delete_request)
    }

    /// A `ConditionCheck`: the transaction goes ahead only if `condition` holds on the item with
    /// this key (which the transaction does not otherwise touch). A failure brings the item back.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Bank { #[hash_key] id: String, open: bool }
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// # db.create_schema::<Bank>().await?;
    /// db.put(&Bank { id: "main".into(), open: false }).await?;
    /// let err = db
    ///     .transact()
    ///     .condition_check::<Bank>("main", Bank::open().eq(true))
    ///     .update::<Account>("a", |u| u.incr(Account::balance(), 5))
    ///     .await
    ///     .unwrap_err();
    /// let closed = err.cancellation_reasons()[0].item_as::<Bank>()?;
    /// assert_eq!(closed, Some(Bank { id: "main".into(), open: false }));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn condition_check<M: Model>(
        self,
        key: impl Into<M::Key>,
        condition: impl Into<Condition<M>>,
    ) -> Self {
        let mut conditional = Conditional::new();
        conditional.and(condition.into());
        let key: M::Key = key.into();
        let write = key
            .to_key_item()
            .map_err(Error::from)
            .and_then(|key| Write::render(self.db, key, &conditional, Parts::default()));
        self.push::<M>(write, condition_check_request)
    }

    /// Makes the transaction idempotent for 10 minutes (DynamoDB's `ClientRequestToken`, 1 to 36
    /// characters): sent again with the same token and the same actions, it succeeds without
    /// writing anything again; with other actions, it fails with
    /// `IdempotentParameterMismatchException`. For retrying after a timeout or a lost answer.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// db.put(&Account { id: "a".into(), balance: 0 }).await?;
    /// let deposit = || {
    ///     db.transact()
    ///         .update::<Account>("a", |u| u.add(Account::balance(), 10))
    ///         .client_request_token("deposit-42")
    /// };
    /// deposit().await?;
    /// deposit().await?; // a retry: nothing written twice
    /// assert_eq!(db.get::<Account>("a").await?.map(|a| a.balance), Some(10));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn client_request_token(mut self, token: impl Into<String>) -> Self {
        self.client_request_token = Some(token.into());
        self
    }
}

impl<'a> IntoFuture for Transaction<'a> {
    type Output = Result<()>;
    type IntoFuture = DbFuture<'a, ()>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            if let Some(error) = self.error {
                return Err(error);
            }
            if self.requests.is_empty() {
                // Nothing to write (e.g. a loop over no changes): no request, as an empty batch.
                return Ok(());
            }
            let input = TransactWriteItemsInput {
                transact_items: self.requests,
                client_request_token: self.client_request_token,
                ..Default::default()
            };
            match self.db.calls.transact_write_items(input).await {
                Ok(_) => self.after_commit.into_iter().try_for_each(|bump| bump()),
                Err(error) => Err(cancel::describe(error, &self.actions)),
            }
        })
    }
}

fn put_request(write: Write, item: Item) -> TransactWriteItem {
    TransactWriteItem::Put(TransactPut {
        table_name: write.table_name,
        item,
        condition_expression: write.condition_expression,
        expression_attribute_names: write.expression_attribute_names,
        expression_attribute_values: write.expression_attribute_values,
        return_values_on_condition_check_failure: write.on_failure,
    })
}

fn update_request(write: Write) -> TransactWriteItem {
    TransactWriteItem::Update(TransactUpdate {
        table_name: write.table_name,
        key: write.key,
        update_expression: write.update_expression.unwrap_or_default(),
        condition_expression: write.condition_expression,
        expression_attribute_names: write.expression_attribute_names,
        expression_attribute_values: write.expression_attribute_values,
        return_values_on_condition_check_failure: write.on_failure,
    })
}

fn delete_request(write: Write) -> TransactWriteItem {
    TransactWriteItem::Delete(TransactDelete {
        table_name: write.table_name,
        key: write.key,
        condition_expression: write.condition_expression,
        expression_attribute_names: write.expression_attribute_names,
        expression_attribute_values: write.expression_attribute_values,
        return_values_on_condition_check_failure: write.on_failure,
    })
}

fn condition_check_request(write: Write) -> TransactWriteItem {
    TransactWriteItem::ConditionCheck(TransactConditionCheck {
        table_name: write.table_name,
        key: write.key,
        condition_expression: write.condition_expression.unwrap_or_default(),
        expression_attribute_names: write.expression_attribute_names,
        expression_attribute_values: write.expression_attribute_values,
        return_values_on_condition_check_failure: write.on_failure,
    })
}
