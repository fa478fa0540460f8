//! [`Save`]: the put of a value you own, which keeps its `#[version]` field current.

use std::future::IntoFuture;

use crate::backend::ReturnValue;
use crate::db::put::PutOptions;
use crate::db::{decode_required, Db, DbFuture};
use crate::error::Result;
use crate::expression::Condition;
use crate::model::Model;

/// A pending [`Db::save`]: a [`Put`](crate::Put) that, once it succeeds, sets the value's
/// `#[version]` field to the version stored and its
/// [timestamps](crate::Model#timestamps-created_at-updated_at) to the times stored, so the value
/// stays the current copy. `.await` it. A model with
/// [counters](crate::Model#counters-dynomodelcounter), saved over a stored version, leaves them as
/// stored and reads the item back (`ALL_NEW`): the value then is the stored item, counters included.
///
/// The put checks the version the value holds: a value never saved (version `0` or `None`) is
/// created only if no item has its key; a saved one is replaced only if the stored item still has
/// its version. Otherwise the error is [`Error::VersionConflict`](crate::Error::VersionConflict) and
/// the value is unchanged. For a model without a `#[version]` field, a save is a put.
///
/// ```
/// # use dynomodel::{Db, Error, Model};
/// # use dynomodel_mem::MemoryDb;
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Account { #[hash_key] id: String, balance: i64, #[version] version: u64 }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Account>().await?;
/// let mut mine = Account { id: "a1".into(), balance: 100, version: 0 };
/// db.save(&mut mine).await?; // created: version 1
/// let mut theirs = mine.clone();
///
/// theirs.balance += 50;
/// db.save(&mut theirs).await?; // version 2
/// mine.balance -= 30;
/// match db.save(&mut mine).await {
///     Err(Error::VersionConflict(c)) if (c.expected, c.stored) == (Some(1), Some(2)) => {}
///     other => panic!("a stale copy must not overwrite: {other:?}"),
/// }
/// db.refresh(&mut mine).await?; // start again from the stored item
/// mine.balance -= 30;
/// db.save(&mut mine).await?;
/// assert_eq!((mine.balance, mine.version), (120, 3));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "a save does nothing until awaited"]
pub struct Save<'a, M> {
    db: &'a Db,
    item: &'a mut M,
    options: PutOptions<M>,
}

impl<'a, M: Model> Save<'a, M> {
    pub(crate) fn new(db: &'a Db, item: &'a mut M) -> Self {
        Save {
            db,
            item,
            options: PutOptions::new(),
        }
    }

    /// The value and the options, for a transaction's save action.
    pub(crate) fn into_parts(self) -> (&'a mut M, PutOptions<M>) {
        (self.item, self.options)
    }

    /// Saves only if `condition` also holds on the stored item, as [`Put::condition`](crate::Put::condition).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Account { #[hash_key] id: String, balance: i64, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// let mut account = Account { id: "a1".into(), balance: 100, version: 0 };
    /// db.save(&mut account).await?;
    /// account.balance = 0;
    /// let err = db.save(&mut account).condition(Account::balance().eq(0)).await.unwrap_err();
    /// assert!(err.is_conditional_check_failed()); // the version matched; the balance did not
    /// assert_eq!(account.version, 1); // not saved, not bumped
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn condition(mut self, condition: impl Into<Condition<M>>) -> Self {
        self.options.condition(condition.into());
        self
    }

    /// Creates only, as [`Put::if_not_exists`](crate::Put::if_not_exists) (what a first save of a
    /// versioned model does anyway).
    pub fn if_not_exists(mut self) -> Self {
        self.options.if_not_exists();
        self
    }

    /// Whether a failed condition brings back the stored item (on by default), as
    /// [`Put::item_on_failure`](crate::Put::item_on_failure).
    pub fn item_on_failure(mut self, yes: bool) -> Self {
        self.options.item_on_failure(yes);
        self
    }

    /// Stores the value as it is, version included, without checking or bumping the version, as
    /// [`Put::ignore_version`](crate::Put::ignore_version).
    pub fn ignore_version(mut self) -> Self {
        self.options.ignore_version();
        self
    }
}

impl<'a, M: Model> IntoFuture for Save<'a, M> {
    type Output = Result<()>;
    type IntoFuture = DbFuture<'a, ()>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let put = self.options.render(self.db, self.item, false)?;
            let (version, stamped) = (put.version, put.stamped);
            if put.is_update() {
                // Counters were left as stored: the value takes the whole stored item back.
                let stored = put.send(self.db, ReturnValue::AllNew).await?;
                *self.item = decode_required(self.db, stored, "the saved item")?;
                return Ok(());
            }
            put.send(self.db, ReturnValue::None).await?;
            // The stored version fits the field: rendering the item converted it through it.
            if let Some(version) = version {
                self.item.set_version(Some(version))?;
            }
            if let Some(stamped) = stamped {
                stamped.apply(self.item)?;
            }
            Ok(())
        })
    }
}
