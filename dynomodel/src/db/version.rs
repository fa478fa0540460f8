//! Optimistic locking: the `#[version]` check a write makes, its bump, and how a failed condition
//! is recognised as a version conflict.
//!
//! Every write builder (and each transaction action) decides *what* it expects; this module turns
//! that into a condition, an `ADD`, and afterwards into [`Error::VersionConflict`] or a
//! [`VersionCheck`] of a cancellation reason. One place, so that a put, an update, a delete and a
//! transaction action mean the same by "version 3".

use crate::convert::VersionAttribute;
use crate::db::attribute;
use crate::db::names::{model_name, ItemName};
use crate::db::write::key_exists;
use crate::error::{ConversionError, Error, Result, VersionCheck, VersionConflict};
use crate::expression::{Condition, Path, PathElement, Update};
use crate::model::Model;
use crate::value::{AttributeValue, Item};

/// What a request expects of the stored version, as its builder was told.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Versioning {
    /// The builder's default: a model value's own version (put, delete) or no check (update, delete
    /// by key).
    #[default]
    Default,
    /// `.if_version(v)`: check this version (`None`: no item with the key).
    Expect(Option<u64>),
    /// `.if_version(v)` of a value that is no version (negative, too large): reported when awaited.
    Invalid(ConversionError),
    /// `.ignore_version()`: sent as if the model had no `#[version]` field.
    Ignore,
}

impl Versioning {
    /// `.if_version(v)`.
    pub(crate) fn expect<V: VersionAttribute>(version: &V) -> Versioning {
        match version.to_version() {
            Ok(version) => Versioning::Expect(version),
            Err(e) => Versioning::Invalid(e),
        }
    }

    /// The version to check, given the builder's model value (`own`, when it has one): `None` for
    /// no check. Models without a version field never check.
    pub(crate) fn expected<M: Model>(
        &self,
        own: Option<&M>,
    ) -> Result<Option<Option<u64>>, ConversionError> {
        if M::VERSION_ATTRIBUTE.is_none() {
            return Ok(None);
        }
        match (self, own) {
            (Versioning::Ignore, _) | (Versioning::Default, None) => Ok(None),
            (Versioning::Expect(version), _) => Ok(Some(*version)),
            (Versioning::Invalid(e), _) => Err(e.clone()),
            (Versioning::Default, Some(value)) => Ok(Some(value.version()?)),
        }
    }

    /// Whether an update with these actions bumps the version: on a versioned model, unless
    /// ignored, when it changes anything but [counters](Model::COUNTERS). (An update without
    /// actions changes nothing, so it bumps nothing; one of counters only cannot be undone by a
    /// whole-item write, which leaves counters as stored, so there is nothing to make stale.)
    pub(crate) fn bumps<M: Model>(&self, update: &Update<M>) -> bool {
        M::VERSION_ATTRIBUTE.is_some()
            && *self != Versioning::Ignore
            && update.first_outside(M::COUNTERS).is_some()
    }
}

/// What `.skip_version_bump()` allows: an update that changes [counters](Model::COUNTERS) only,
/// which does not bump anyway. Anything else is refused, naming the attribute: without the bump, a
/// copy read before the update and written whole afterwards would pass its version check and
/// overwrite what the update wrote.
pub(crate) fn check_skip<M: Model>(update: &Update<M>, table: &str, key: &Item) -> Result<()> {
    if M::VERSION_ATTRIBUTE.is_none() {
        return Ok(());
    }
    let Some(attribute) = update.first_outside(M::COUNTERS) else {
        return Ok(());
    };
    let item = ItemName {
        model: model_name::<M>(),
        key,
        table,
    };
    Err(Error::validation(format!(
        "skip_version_bump() on an update of {item}: `{attribute}` is not a \
         #[dynomodel(counter)] field. Without the bump, a copy read before this update and saved \
         afterwards would pass its version check and overwrite `{attribute}` unnoticed; only \
         counters, which whole-item writes leave as stored, may change without it (mark the field \
         #[dynomodel(counter)], or let the update bump the version)"
    )))
}

/// The version a save of a value holding `expected` stores: 1 for a first save, else one more.
pub(crate) fn next_version<M: Model>(expected: Option<u64>) -> Result<u64> {
    match expected {
        None => Ok(1),
        Some(version) => version.checked_add(1).ok_or_else(|| {
            Error::validation(format!(
                "the version of this `{}` is u64::MAX and cannot be bumped",
                model_name::<M>()
            ))
        }),
    }
}

/// The condition checking `expected`: `<version> = :expected`, or `attribute_not_exists(<hash key>)`
/// for a value never saved (no item may have its key).
pub(crate) fn check<M: Model>(expected: Option<u64>) -> Result<Condition<M>> {
    let Some(name) = M::VERSION_ATTRIBUTE else {
        return Err(Error::validation(format!(
            "`{}` has no #[version] field",
            model_name::<M>()
        )));
    };
    match expected {
        None => Ok(key_exists::<M>(false)),
        Some(version) => Ok(attribute::<M>(name).eq(M::version_value(version)?)),
    }
}

/// `ADD <version> :1` on top of `update`: how an update bumps the version whatever it was (and
/// starts it at 1 on an item that has none).
pub(crate) fn bump<M: Model>(update: Update<M>) -> Update<M> {
    match M::VERSION_ATTRIBUTE {
        Some(name) => {
            let path: Path<M, u64> = Path::from_elements(vec![PathElement::Name(name.to_owned())]);
            update.add(path, 1u64)
        }
        None => update,
    }
}

/// `SET <version> = if_not_exists(<version>, :1)` on top of `update`: the version an upsert that
/// does not bump (one of counters only) gives the item it creates, as a bump would have (1), while
/// an existing item keeps its own.
pub(crate) fn start<M: Model>(update: Update<M>) -> Update<M> {
    match M::VERSION_ATTRIBUTE {
        Some(name) => {
            let path: Path<M, u64> = Path::from_elements(vec![PathElement::Name(name.to_owned())]);
            update.set_if_not_exists(path, 1u64)
        }
        None => update,
    }
}

/// A request's version check, kept beside the request to read its failure: whether a failed
/// condition is this check's, and what was stored.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct VersionGuard {
    /// The version attribute.
    pub(crate) attribute: &'static str,
    /// The version checked (`None`: no item with the key).
    pub(crate) expected: Option<u64>,
    /// Whether the request had conditions besides the version check, which could have failed instead.
    pub(crate) others: bool,
    /// Whether a failure brings the stored item back (`ReturnValuesOnConditionCheckFailure=ALL_OLD`).
    pub(crate) asked_item: bool,
}

impl VersionGuard {
    /// The stored version of an item: its version attribute as a whole number, if it has one.
    fn stored(&self, item: Option<&Item>) -> Option<u64> {
        match item?.get(self.attribute)? {
            AttributeValue::N(n) => n.to_u128().and_then(|v| u64::try_from(v).ok()),
            _ => None,
        }
    }

    /// Reads a failed condition of this request: the [`VersionCheck`] it amounts to, `failed` when
    /// the version check is (as far as the answer shows) the condition that failed.
    ///
    /// With the stored item, that is exact: it holds another version (or exists, for a first save;
    /// or is missing, for a later one). Without it, the version check is to blame only when it was the
    /// request's one condition.
    pub(crate) fn judge(&self, item: Option<&Item>) -> VersionCheck {
        let stored = self.stored(item);
        let failed = match (item, self.expected) {
            (Some(_), None) => true,
            (Some(_), Some(expected)) => stored != Some(expected),
            (None, _) if !self.asked_item => !self.others,
            // The answer says no item is stored: only a later save's check fails on that.
            (None, expected) => expected.is_some(),
        };
        VersionCheck {
            expected: self.expected,
            stored,
            failed,
        }
    }

    /// The error of a failed single-item write: [`Error::VersionConflict`] when the version check
    /// failed, the error unchanged otherwise.
    pub(crate) fn map_error<M: Model>(&self, table: &str, key: &Item, error: Error) -> Error {
        let Error::ConditionalCheckFailed { message, item } = error else {
            return error;
        };
        let check = self.judge(item.as_ref());
        if !check.failed {
            return Error::ConditionalCheckFailed { message, item };
        }
        let found = match (&item, check.stored) {
            (Some(_), Some(stored)) => format!("found version {stored}"),
            (Some(_), None) => "found an item without a version".to_owned(),
            (None, _) if self.asked_item => "found no item".to_owned(),
            (None, _) => "the stored item was not returned (item_on_failure(false))".to_owned(),
        };
        Error::VersionConflict(Box::new(VersionConflict {
            message: format!(
                "{}: expected {}, {found}",
                ItemName {
                    model: model_name::<M>(),
                    key,
                    table,
                },
                expected_text(self.expected),
            ),
            model: model_name::<M>(),
            key: key.clone(),
            expected: self.expected,
            stored: check.stored,
            item,
        }))
    }
}

/// How a message names an expected version.
fn expected_text(expected: Option<u64>) -> String {
    match expected {
        None => "no stored item (a first save)".to_owned(),
        Some(version) => format!("version {version}"),
    }
}

impl Error {
    /// Whether a `#[version]` check failed: an [`Error::VersionConflict`], or a canceled transaction
    /// one of whose actions failed its version check (see
    /// [`CancellationReason::is_version_conflict`](crate::CancellationReason::is_version_conflict)).
    /// Such a write can be retried on a fresh copy.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Doc { #[hash_key] id: String, text: String, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Doc>().await?;
    /// let mut doc = Doc { id: "d1".into(), text: "draft".into(), version: 0 };
    /// let stale = doc.clone();
    /// db.save(&mut doc).await?; // version 1
    ///
    /// let err = db.put(&stale).await.unwrap_err(); // still says "not saved"
    /// assert!(err.is_version_conflict());
    /// assert!(!err.is_conditional_check_failed()); // told apart from a failed user condition
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn is_version_conflict(&self) -> bool {
        match self {
            Error::VersionConflict(_) => true,
            Error::TransactionCanceled { reasons, .. } => {
                reasons.iter().any(|r| r.is_version_conflict())
            }
            _ => false,
        }
    }
}
