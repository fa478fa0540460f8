//! A canceled transaction, told in the mapper's terms: each [`CancellationReason`] names its action
//! (kind, model, table, key, version and existence checks), and its old item decodes as the model.

use crate::db::decode::decode_item;
use crate::db::existence::ExistenceGuard;
use crate::db::names::model_name;
use crate::db::version::VersionGuard;
use crate::error::{CancellationReason, Error, ExistenceCheck, ItemAction, Result, VersionCheck};
use crate::model::Model;

/// What the mapper knows of one action of a transaction it sent, to name it in the reasons.
#[derive(Debug, Clone)]
pub(crate) struct About {
    pub(crate) action: ItemAction,
    pub(crate) guard: Option<VersionGuard>,
    pub(crate) existence: Option<ExistenceGuard>,
}

/// Fills in [`CancellationReason::action`] of a `TransactionCanceledException` from the actions
/// sent, in order (DynamoDB gives one reason per action); any other error passes through unchanged.
pub(crate) fn describe(error: Error, actions: &[About]) -> Error {
    let Error::TransactionCanceled {
        message,
        mut reasons,
    } = error
    else {
        return error;
    };
    for (reason, about) in reasons.iter_mut().zip(actions) {
        let mut action = about.action.clone();
        // Only a failed condition can be a failed check; a missing item fails the existence check
        // first (it would fail a version check too), as for a single-item update.
        let condition_failed = reason.is_conditional_check_failed();
        action.existence = about.existence.as_ref().map(|guard| {
            let check = guard.judge(reason.item.as_ref());
            ExistenceCheck {
                failed: check.failed && condition_failed,
                ..check
            }
        });
        let not_found = action.existence.as_ref().is_some_and(|check| check.failed);
        action.version = about.guard.as_ref().map(|guard| {
            let check = guard.judge(reason.item.as_ref());
            VersionCheck {
                failed: check.failed && condition_failed && !not_found,
                ..check
            }
        });
        reason.action = Some(action);
    }
    Error::TransactionCanceled { message, reasons }
}

impl CancellationReason {
    /// The item as it was when the action's condition failed, decoded as `M`: `Ok(None)` when the
    /// reason carries none (the action did not fail on its condition, the item did not exist, or the
    /// action did not ask for it; the transaction builders ask by default).
    ///
    /// Errors: the reason carries an item of another model (as [`action`](CancellationReason::action)
    /// names it), or the item does not decode as `M`.
    ///
    /// ```
    /// # use dynomodel::{CancellationCode, Db, Error, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// db.put(&Account { id: "a".into(), balance: 10 }).await?;
    /// db.put(&Account { id: "b".into(), balance: 0 }).await?;
    ///
    /// let err = db
    ///     .transact()
    ///     .update::<Account>("a", |u| u.decr(Account::balance(), 50).condition(Account::balance().ge(50)))
    ///     .update::<Account>("b", |u| u.incr(Account::balance(), 50))
    ///     .await
    ///     .unwrap_err();
    /// let reasons = err.cancellation_reasons();
    /// assert_eq!(reasons[0].code, CancellationCode::ConditionalCheckFailed);
    /// assert_eq!(reasons[0].item_as::<Account>()?, Some(Account { id: "a".into(), balance: 10 }));
    /// assert!(reasons[1].is_none()); // the other action was fine
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn item_as<M: Model>(&self) -> Result<Option<M>> {
        let Some(item) = &self.item else {
            return Ok(None);
        };
        if let Some(action) = &self.action
            && action.model != model_name::<M>()
        {
            return Err(Error::validation(format!(
                "this cancellation reason is about a `{}`, not a `{}`",
                action.model,
                model_name::<M>()
            )));
        }
        let table = || match &self.action {
            Some(action) => action.table.clone(),
            None => M::TABLE_NAME.to_owned(),
        };
        decode_item(item.clone(), table).map(Some)
    }

    /// Whether the action failed its `#[version]` check: the item was written by someone else
    /// since the copy the action was built from was read. Retrying on fresh copies may succeed,
    /// unlike a failed business condition.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Account { #[hash_key] id: String, balance: i64, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// let mut a = Account { id: "a".into(), balance: 10, version: 0 };
    /// db.save(&mut a).await?;
    /// let stale = a.clone();
    /// db.save(&mut a).await?; // version 2
    ///
    /// let err = db.transact().put(&stale).await.unwrap_err();
    /// let reason = &err.cancellation_reasons()[0];
    /// assert!(reason.is_version_conflict());
    /// let check = reason.action.as_ref().and_then(|a| a.version.clone());
    /// assert_eq!(check.map(|c| (c.expected, c.stored)), Some((Some(1), Some(2))));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn is_version_conflict(&self) -> bool {
        self.action
            .as_ref()
            .and_then(|action| action.version.as_ref())
            .is_some_and(|check| check.failed)
    }

    /// Whether the action is an update that found no item of its model to update (its existence
    /// check failed: see [`UpdateItem`](crate::UpdateItem)); with a single-table model, the
    /// action's [`existence`](crate::ItemAction::existence) check names the entity type found
    /// instead, if any. The code is `ConditionalCheckFailed`, as DynamoDB sent it.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Account { #[hash_key] id: String, balance: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Account>().await?;
    /// db.put(&Account { id: "a".into(), balance: 10 }).await?;
    /// let err = db
    ///     .transact()
    ///     .update::<Account>("a", |u| u.decr(Account::balance(), 5))
    ///     .update::<Account>("nobody", |u| u.incr(Account::balance(), 5))
    ///     .await
    ///     .unwrap_err();
    /// let reasons = err.cancellation_reasons();
    /// assert!(reasons[0].is_none());
    /// assert!(reasons[1].is_item_not_found() && !reasons[1].is_version_conflict());
    /// assert_eq!(reasons[1].model(), Some("Account"));
    /// assert!(err.is_item_not_found());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn is_item_not_found(&self) -> bool {
        self.action
            .as_ref()
            .and_then(|action| action.existence.as_ref())
            .is_some_and(|check| check.failed)
    }
}

impl Error {
    /// The reasons of a canceled transaction, one per action in request order; empty for any other
    /// error. For a transaction built by [`Db::transact`](crate::Db::transact), each reason's
    /// [`action`](CancellationReason::action) names the action.
    ///
    /// ```
    /// use dynomodel::{CancellationReason, Error};
    /// let e = Error::TransactionCanceled {
    ///     message: "Transaction cancelled, please refer cancellation reasons for specific reasons [None]".into(),
    ///     reasons: vec![CancellationReason::none()],
    /// };
    /// assert_eq!(e.cancellation_reasons().len(), 1);
    /// assert!(Error::validation("x").cancellation_reasons().is_empty());
    /// ```
    pub fn cancellation_reasons(&self) -> &[CancellationReason] {
        match self {
            Error::TransactionCanceled { reasons, .. } => reasons,
            _ => &[],
        }
    }
}
