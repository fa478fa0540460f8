//! [`Write`]: the rendered form of one conditional write, shared by the single-item requests
//! (`PutItem`, `UpdateItem`, `DeleteItem`) and the actions of a transaction, so that a builder means
//! exactly the same thing in both; and what it is rendered from: the user's [`Conditional`] and the
//! builders' own conditions ([`key_exists`], [`unchanged`]), the `#[version]` check and an update's
//! existence check.

use crate::backend::{
    ExpressionAttributeNames, ExpressionAttributeValues, ReturnValuesOnConditionCheckFailure,
};
use crate::db::existence::{self, ExistenceGuard};
use crate::db::version::{self, VersionGuard};
use crate::db::{attribute, finish, Db};
use crate::error::{Error, Result};
use crate::expression::{Condition, ExpressionContext, Update};
use crate::model::Model;
use crate::value::Item;

/// What a conditional write sends besides its own fields: the condition and whether a failure
/// brings the item back.
///
/// Shared by the write builders so that `.condition()` means the same everywhere: conditions given
/// more than once are joined with `AND`. [`Write::render`] renders it.
pub(crate) struct Conditional<M> {
    condition: Option<Condition<M>>,
    item_on_failure: bool,
}

impl<M> Conditional<M> {
    pub(crate) fn new() -> Self {
        Conditional {
            condition: None,
            item_on_failure: true,
        }
    }

    pub(crate) fn and(&mut self, condition: Condition<M>) {
        self.condition = Some(match self.condition.take() {
            Some(before) => before & condition,
            None => condition,
        });
    }

    pub(crate) fn item_on_failure(&mut self, yes: bool) {
        self.item_on_failure = yes;
    }
}

/// `attribute_not_exists(<hash key>)` (`exists = false`) or `attribute_exists(<hash key>)`: whether
/// an item with the key is stored, since every stored item has its hash key.
pub(crate) fn key_exists<M: Model>(exists: bool) -> Condition<M> {
    let path = attribute::<M>(M::HASH_KEY);
    if exists {
        path.exists()
    } else {
        path.not_exists()
    }
}

/// `attr = value` for every attribute of `item`: the item is stored exactly as in memory (as far
/// as the attributes it has go; an attribute stored but absent in memory is not checked, since the
/// model's field list is not known here).
pub(crate) fn unchanged<M>(item: &Item) -> Option<Condition<M>> {
    item.iter()
        .map(|(name, value)| attribute::<M>(name).eq(value.clone()))
        .reduce(|all, one| all & one)
}

/// One write's table, key and expressions, rendered through one [`ExpressionContext`] (the update
/// first, then the condition, so placeholders number in that order), and its version check.
#[derive(Debug)]
pub(crate) struct Write {
    pub(crate) table_name: String,
    /// The item's key: the request's `Key`, and what errors and cancellation reasons name.
    pub(crate) key: Item,
    pub(crate) update_expression: Option<String>,
    pub(crate) condition_expression: Option<String>,
    pub(crate) expression_attribute_names: Option<ExpressionAttributeNames>,
    pub(crate) expression_attribute_values: Option<ExpressionAttributeValues>,
    pub(crate) on_failure: Option<ReturnValuesOnConditionCheckFailure>,
    /// The `#[version]` check among the conditions, to tell its failure from the others'.
    pub(crate) guard: Option<VersionGuard>,
    /// An update's existence check among the conditions, likewise.
    pub(crate) existence: Option<ExistenceGuard>,
}

/// What a builder contributes to its write besides the user's [`Conditional`].
pub(crate) struct Parts<'u, M> {
    /// The actions of an update (with the version bump already added).
    pub(crate) update: Option<&'u Update<M>>,
    /// The version to check (`Some(None)`: no item with the key); `None`: no check.
    pub(crate) version: Option<Option<u64>>,
    /// An update's existence check: `Some(upsert)` (see [`existence::condition`]); `None`: none.
    pub(crate) existence: Option<bool>,
    /// The builder's own check (create-only, atomic...), after the version check and before the
    /// user's conditions.
    pub(crate) check: Option<Condition<M>>,
}

impl<M> Default for Parts<'_, M> {
    fn default() -> Self {
        Parts {
            update: None,
            version: None,
            existence: None,
            check: None,
        }
    }
}

impl Write {
    /// Renders a write of `M` with this key: `<version check> AND <existence check> AND <builder's
    /// check> AND <user's conditions>`, with `ALL_OLD` on failure whenever there is a condition
    /// (unless turned off) so that [`Error::conditional_item`] and cancellation reasons carry the
    /// stored item, by which the version and existence checks' failures are told apart.
    pub(crate) fn render<M: Model>(
        db: &Db,
        key: Item,
        conditional: &Conditional<M>,
        parts: Parts<'_, M>,
    ) -> Result<Write> {
        let user = conditional.condition.as_ref();
        let plain = parts.update.is_none()
            && parts.version.is_none()
            && parts.existence.is_none()
            && parts.check.is_none()
            && user.is_none();
        if plain {
            // A write with nothing to render (a plain put): no context made, finished and dropped.
            return Ok(Write {
                table_name: db.table_name::<M>(),
                key,
                update_expression: None,
                condition_expression: None,
                expression_attribute_names: None,
                expression_attribute_values: None,
                on_failure: None,
                guard: None,
                existence: None,
            });
        }
        let mut ctx = ExpressionContext::new();
        let update_expression = match parts.update {
            Some(update) => ctx.update(update)?,
            None => None,
        };
        let others = parts.check.is_some() || user.is_some();
        let version_check = parts.version.map(version::check::<M>).transpose()?;
        let existence_check = parts.existence.and_then(existence::condition::<M>);
        // Rendered as `a AND b AND c` from references: the user's condition is not copied.
        let conditions = [
            version_check.as_ref(),
            existence_check.as_ref(),
            parts.check.as_ref(),
            user,
        ];
        let present = conditions.into_iter().flatten();
        let (condition_expression, on_failure) = match present.clone().next() {
            None => (None, None),
            Some(_) => (
                Some(ctx.conditions(present)?),
                conditional
                    .item_on_failure
                    .then_some(ReturnValuesOnConditionCheckFailure::AllOld),
            ),
        };
        let asked_item = on_failure.is_some();
        let guard = match (M::VERSION_ATTRIBUTE, parts.version) {
            (Some(attribute), Some(expected)) => Some(VersionGuard {
                attribute,
                expected,
                others: others || existence_check.is_some(),
                asked_item,
            }),
            _ => None,
        };
        let existence = parts.existence.and_then(|upsert| {
            let others = others || version_check.is_some();
            ExistenceGuard::of::<M>(upsert, others, asked_item)
        });
        let (expression_attribute_names, expression_attribute_values) = finish(ctx);
        Ok(Write {
            table_name: db.table_name::<M>(),
            key,
            update_expression,
            condition_expression,
            expression_attribute_names,
            expression_attribute_values,
            on_failure,
            guard,
            existence,
        })
    }

    /// What reading this write's failure takes, with its table and key (cloned only for a write
    /// with a check to tell apart).
    pub(crate) fn failure(&self) -> Failure {
        let guards = self.guards();
        let names = guards
            .any()
            .then(|| (self.table_name.clone(), self.key.clone()));
        Failure { guards, names }
    }

    /// The checks to tell apart when this write fails (no allocation: a caller that can name the
    /// table and key again after the request was sent reads the failure with these).
    pub(crate) fn guards(&self) -> Guards {
        Guards {
            version: self.guard.clone(),
            existence: self.existence.clone(),
        }
    }
}

/// A sent write's own checks: turn its error into [`Error::ItemNotFound`] or
/// [`Error::VersionConflict`] when one of them is what failed.
pub(crate) struct Guards {
    version: Option<VersionGuard>,
    existence: Option<ExistenceGuard>,
}

impl Guards {
    /// Whether there is a check to tell apart.
    pub(crate) fn any(&self) -> bool {
        self.version.is_some() || self.existence.is_some()
    }

    /// The error of the write as a single-item request: a failed existence check becomes
    /// [`Error::ItemNotFound`] (judged first: a missing item fails a version check too), a failed
    /// version check [`Error::VersionConflict`]; anything else is passed through.
    pub(crate) fn read<M: Model>(&self, table: &str, key: &Item, error: Error) -> Error {
        let error = match &self.existence {
            Some(existence) => existence.map_error::<M>(table, key, error),
            None => error,
        };
        match &self.version {
            Some(version) => version.map_error::<M>(table, key, error),
            None => error,
        }
    }
}

/// A sent write's checks, table and key (see [`Guards`]).
pub(crate) struct Failure {
    guards: Guards,
    names: Option<(String, Item)>,
}

impl Failure {
    /// The error of the write as a single-item request (see [`Guards::read`]).
    pub(crate) fn read<M: Model>(&self, error: Error) -> Error {
        match &self.names {
            Some((table, key)) => self.guards.read::<M>(table, key, error),
            None => error,
        }
    }
}
