//! [`UpdateItem`]: `UpdateItem` of one item by key, with typed actions (in `actions`), a condition,
//! the version check and a choice of return values.

mod actions;

use std::future::IntoFuture;

use futures::FutureExt;

use crate::backend::{ReturnValue, UpdateItemInput, UpdateItemOutput};
use crate::convert::VersionAttribute;
use crate::db::version::{self, Versioning};
use crate::db::write::{Conditional, Parts, Write};
use crate::db::{decode_required, sent, stamps, Db, DbFuture, Partial};
use crate::error::{Error, Result};
use crate::expression::{Condition, Path, PathElement, Update};
use crate::model::{Model, PrimaryKey};

/// A pending [`Db::update`]: the actions of an [`Update<M>`] as builder methods, an optional
/// condition, and a finisher choosing what comes back:
///
/// | finisher | `ReturnValues` | output |
/// |---|---|---|
/// | `.await` | omitted | `()` |
/// | [`returning_new`](UpdateItem::returning_new) | `ALL_NEW` | `M` |
/// | [`returning_old`](UpdateItem::returning_old) | `ALL_OLD` | `Option<M>` (`None`: it was created) |
/// | [`returning_updated_new`](UpdateItem::returning_updated_new) | `UPDATED_NEW` | [`Partial<M>`] |
/// | [`returning_updated_old`](UpdateItem::returning_updated_old) | `UPDATED_OLD` | [`Partial<M>`] |
///
/// Like DynamoDB, an update of a missing item creates it (with the key and the updated
/// attributes); `.condition(Tweet::userid().exists())`, or any condition on a stored attribute,
/// prevents that.
///
/// **An update without actions is an error** (a validation error naming the table, before any
/// request is sent), because it is almost always a bug: a builder whose actions were all skipped.
/// DynamoDB's own meaning for it, "create the item with only its key if it is missing", is opt-in
/// with [`allow_no_actions`](UpdateItem::allow_no_actions).
///
/// Actions on the key attributes, or on overlapping paths (`a` and `a.b`), are DynamoDB
/// validation errors.
///
/// On a model with a `#[version]` field, every update with actions also adds 1 to the version
/// (`ADD <version> 1`), unless it changes [counters](crate::Model#counters-dynomodelcounter) only,
/// and checks it when asked with [`if_version`](UpdateItem::if_version); see
/// [optimistic locking](crate::Model#optimistic-locking-version). An update with actions also
/// sets the [timestamps](crate::Model#timestamps-created_at-updated_at) its actions do not name.
///
/// ```
/// # use std::collections::BTreeSet;
/// # use dynomodel::{Db, Model, Update};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # struct Tweet {
/// #     #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64,
/// #     tags: BTreeSet<String>, history: Vec<String>, nick: Option<String>,
/// # }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Tweet>().await?;
/// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 12,
/// #     tags: BTreeSet::from(["rust".to_owned()]), history: vec!["a".to_owned()], nick: Some("ada".into()) };
/// # db.put(&tweet).await?;
/// let tweet: Tweet = db
///     .update::<Tweet>(("abc", "1"))
///     .add(Tweet::likes(), 1)
///     .set(Tweet::text(), "edited")
///     .condition(Tweet::likes().ge(10))
///     .returning_new()
///     .await?;
/// assert_eq!((tweet.text.as_str(), tweet.likes), ("edited", 13));
/// let counters = db.update::<Tweet>(("abc", "1")).incr(Tweet::likes(), 1).returning_updated_new().await?;
/// assert_eq!(counters.get(Tweet::likes())?, Some(tweet.likes + 1));
/// assert!(!counters.contains(Tweet::text())); // not updated
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[must_use = "an update does nothing until awaited"]
pub struct UpdateItem<'a, M: Model> {
    db: &'a Db,
    key: M::Key,
    update: Update<M>,
    conditional: Conditional<M>,
    allow_no_actions: bool,
    versioning: Versioning,
    skip_version_bump: bool,
}

impl<'a, M: Model> UpdateItem<'a, M> {
    pub(crate) fn new(db: &'a Db, key: M::Key) -> Self {
        UpdateItem {
            db,
            key,
            update: Update::new(),
            conditional: Conditional::new(),
            allow_no_actions: false,
            versioning: Versioning::Default,
            skip_version_bump: false,
        }
    }

    /// Updates only if `condition` holds on the stored item (on nothing, if there is none). Given
    /// more than once, the conditions are joined with `AND`.
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Db, Model, Update};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet {
    /// #     #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64,
    /// #     tags: BTreeSet<String>, history: Vec<String>, nick: Option<String>,
    /// # }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 12,
    /// #     tags: BTreeSet::from(["rust".to_owned()]), history: vec!["a".to_owned()], nick: Some("ada".into()) };
    /// # db.put(&tweet).await?;
    /// let err = db
    ///     .update::<Tweet>(("abc", "1"))
    ///     .add(Tweet::likes(), 1)
    ///     .condition(Tweet::likes().ge(100))
    ///     .await
    ///     .unwrap_err();
    /// assert_eq!(err.conditional_item::<Tweet>()?, Some(tweet)); // unchanged, and sent back
    /// // Update only, never create: a condition on the key.
    /// let create = db.update::<Tweet>(("abc", "2")).add(Tweet::likes(), 1).condition(Tweet::userid().exists());
    /// assert!(create.await.is_err_and(|e| e.is_conditional_check_failed()));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn condition(mut self, condition: Condition<M>) -> Self {
        self.conditional.and(condition);
        self
    }

    /// Whether a failed condition brings back the stored item (on by default; see
    /// [`Put::item_on_failure`](crate::Put::item_on_failure)).
    pub fn item_on_failure(mut self, yes: bool) -> Self {
        self.conditional.item_on_failure(yes);
        self
    }

    /// Updates only if the stored item has this `#[version]` (a value of the field's type, usually
    /// the one of the copy the update is based on; `0` or `None`: no item with the key). A mismatch
    /// is [`Error::VersionConflict`](crate::Error::VersionConflict).
    ///
    /// Every update of a versioned model bumps the version (`ADD version 1`), with or without this
    /// (except one of [counters](crate::Model#counters-dynomodelcounter) only): any copy read before
    /// becomes stale, so a later whole-item write from it fails instead of undoing this update. Checking is opt-in because an update names the attributes it changes,
    /// and many updates (counters, `ADD` to sets) are right whatever else changed: see
    /// [optimistic locking](crate::Model#optimistic-locking-version).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Doc { #[hash_key] id: String, text: String, likes: i64, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Doc>().await?;
    /// let mut doc = Doc { id: "d1".into(), text: "draft".into(), likes: 0, version: 0 };
    /// db.save(&mut doc).await?; // version 1
    /// db.update::<Doc>("d1").add(Doc::likes(), 1).await?; // no check; version 2
    ///
    /// // An edit based on `doc` (version 1) is refused: the like happened since.
    /// let edit = db.update::<Doc>("d1").set(Doc::text(), "final").if_version(doc.version);
    /// assert!(edit.await.is_err_and(|e| e.is_version_conflict()));
    /// db.refresh(&mut doc).await?;
    /// let doc = db.update::<Doc>("d1").set(Doc::text(), "final").if_version(doc.version).returning_new().await?;
    /// assert_eq!((doc.text.as_str(), doc.likes, doc.version), ("final", 1, 3));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn if_version<V: VersionAttribute>(mut self, version: V) -> Self {
        self.versioning = Versioning::expect(&version);
        self
    }

    /// Sends the update as if the model had no `#[version]` field: no check and no bump (so copies
    /// read before stay current), whatever the actions. To set the version yourself, e.g. in a
    /// migration. Timestamps are still set (name them in the actions to write your own).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Doc { #[hash_key] id: String, text: String, #[version] version: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Doc>().await?;
    /// let doc = db.update::<Doc>("d1").set(Doc::text(), "imported").set(Doc::version(), 40)
    ///     .ignore_version().returning_new().await?;
    /// assert_eq!(doc.version, 40);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn ignore_version(mut self) -> Self {
        self.versioning = Versioning::Ignore;
        self
    }

    /// States that this update must not bump the `#[version]`, and refuses it (a validation error
    /// naming the item and the attribute, before anything is sent) if it changes anything but
    /// [counters](crate::Model#counters-dynomodelcounter).
    ///
    /// An update of counters only bumps nothing anyway: this makes that explicit at a call site
    /// that relies on it (an open edit must not conflict with it), so that an action added to the
    /// chain later fails loudly instead of silently making edits conflict again. It cannot exempt
    /// another field: a copy read before the update and saved afterwards would pass its version
    /// check and overwrite that field unnoticed, since only counters are left as stored by
    /// whole-item writes. A `.if_version(v)` check still applies. On a model without a version it
    /// does nothing. (`.ignore_version()` sends neither check nor bump, for any field: it is for
    /// repairs and migrations.)
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Thread {
    ///     #[hash_key] subject: String,
    ///     message: String,
    ///     #[dynomodel(counter)] views: u64,
    ///     #[version] version: u64,
    /// }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Thread>().await?;
    /// let mut thread = Thread { subject: "Rust?".into(), message: "Yes".into(), views: 0, version: 0 };
    /// db.save(&mut thread).await?; // version 1
    /// db.update::<Thread>("Rust?").add(Thread::views(), 1).skip_version_bump().await?;
    ///
    /// let edit = db.update::<Thread>("Rust?").add(Thread::views(), 1).set(Thread::message(), "No");
    /// let err = edit.skip_version_bump().await.unwrap_err(); // `message` is no counter
    /// assert!(err.message().contains("`message` is not a #[dynomodel(counter)] field"));
    /// assert_eq!(db.get::<Thread>("Rust?").await?.map(|t| (t.views, t.version)), Some((1, 1)));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn skip_version_bump(mut self) -> Self {
        self.skip_version_bump = true;
        self
    }

    /// Sends the request even without actions: DynamoDB then creates the item with only its key if
    /// it is missing and changes nothing otherwise. (An item holding only its key usually does not
    /// decode as `M`; this is for models whose other fields all have defaults, or for raw reads.)
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Db, Model, Update};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet {
    /// #     #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64,
    /// #     tags: BTreeSet<String>, history: Vec<String>, nick: Option<String>,
    /// # }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 12,
    /// #     tags: BTreeSet::from(["rust".to_owned()]), history: vec!["a".to_owned()], nick: Some("ada".into()) };
    /// # db.put(&tweet).await?;
    /// let no_actions = db.update::<Tweet>(("abc", "1")).await;
    /// assert!(no_actions.is_err_and(|e| e.code() == "ValidationException"));
    /// db.update::<Tweet>(("abc", "1")).allow_no_actions().await?; // the item exists: no change
    /// assert_eq!(db.get::<Tweet>(("abc", "1")).await?, Some(tweet));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn allow_no_actions(mut self) -> Self {
        self.allow_no_actions = true;
        self
    }

    /// Finishes with `ReturnValues=ALL_NEW`: the whole item after the update.
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Db, Model, Update};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet {
    /// #     #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64,
    /// #     tags: BTreeSet<String>, history: Vec<String>, nick: Option<String>,
    /// # }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 12,
    /// #     tags: BTreeSet::from(["rust".to_owned()]), history: vec!["a".to_owned()], nick: Some("ada".into()) };
    /// # db.put(&tweet).await?;
    /// let tweet: Tweet = db.update::<Tweet>(("abc", "1")).add(Tweet::likes(), 1).returning_new().await?;
    /// assert_eq!(tweet.likes, 13);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn returning_new(self) -> DbFuture<'a, M> {
        let send = self.send(ReturnValue::AllNew);
        Box::pin(send.map(|output| decode_required(output?.attributes, "the updated item")))
    }

    /// Finishes with `ReturnValues=ALL_OLD`: the whole item before the update, `None` if the update
    /// created it.
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Db, Model, Update};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet {
    /// #     #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64,
    /// #     tags: BTreeSet<String>, history: Vec<String>, nick: Option<String>,
    /// # }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 12,
    /// #     tags: BTreeSet::from(["rust".to_owned()]), history: vec!["a".to_owned()], nick: Some("ada".into()) };
    /// # db.put(&tweet).await?;
    /// let old = db.update::<Tweet>(("abc", "1")).set(Tweet::text(), "edited").returning_old().await?;
    /// assert_eq!(old, Some(tweet));
    /// let created = db.update::<Tweet>(("abc", "2")).add(Tweet::likes(), 1).returning_old().await?;
    /// assert_eq!(created, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn returning_old(self) -> DbFuture<'a, Option<M>> {
        let send = self.send(ReturnValue::AllOld);
        Box::pin(send.map(|output| Ok(output?.attributes.map(M::from_item).transpose()?)))
    }

    /// Finishes with `ReturnValues=UPDATED_NEW`: the updated attributes as they are now (removed
    /// ones are absent).
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Db, Model, Update};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet {
    /// #     #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64,
    /// #     tags: BTreeSet<String>, history: Vec<String>, nick: Option<String>,
    /// # }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 12,
    /// #     tags: BTreeSet::from(["rust".to_owned()]), history: vec!["a".to_owned()], nick: Some("ada".into()) };
    /// # db.put(&tweet).await?;
    /// let new = db
    ///     .update::<Tweet>(("abc", "1"))
    ///     .add(Tweet::likes(), 1)
    ///     .remove(Tweet::nick())
    ///     .returning_updated_new()
    ///     .await?;
    /// assert_eq!(new.get(Tweet::likes())?, Some(13));
    /// assert_eq!(new.get(Tweet::nick())?, None); // removed
    /// assert!(!new.contains(Tweet::text())); // not updated
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn returning_updated_new(self) -> DbFuture<'a, Partial<M>> {
        self.partial(ReturnValue::UpdatedNew)
    }

    /// Finishes with `ReturnValues=UPDATED_OLD`: the updated attributes as they were (ones that did
    /// not exist are absent).
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Db, Model, Update};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet {
    /// #     #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64,
    /// #     tags: BTreeSet<String>, history: Vec<String>, nick: Option<String>,
    /// # }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// # let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 12,
    /// #     tags: BTreeSet::from(["rust".to_owned()]), history: vec!["a".to_owned()], nick: Some("ada".into()) };
    /// # db.put(&tweet).await?;
    /// let old = db.update::<Tweet>(("abc", "1")).set(Tweet::text(), "edited").returning_updated_old().await?;
    /// assert_eq!(old.get(Tweet::text())?.as_deref(), Some("hello"));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn returning_updated_old(self) -> DbFuture<'a, Partial<M>> {
        self.partial(ReturnValue::UpdatedOld)
    }

    fn partial(self, return_values: ReturnValue) -> DbFuture<'a, Partial<M>> {
        let send = self.send(return_values);
        Box::pin(send.map(|output| Ok(Partial::new(output?.attributes.unwrap_or_default()))))
    }

    /// Renders the request now and sends it when polled. Not an `async fn`: that would keep the
    /// builder in the future beside the request rendered from it (see `Calls` on future sizes).
    fn send(
        self,
        return_values: ReturnValue,
    ) -> impl std::future::Future<Output = Result<UpdateItemOutput>> + Send + 'a {
        let db = self.db;
        sent(self.render().map(|write| {
            let failure = write.failure();
            let call = db.calls.update_item(input(write, return_values));
            call.map(move |output| output.map_err(|e| failure.read::<M>(e)))
        }))
    }

    /// The update: the user's actions, plus the version bump of a versioned model (unless they
    /// change counters only) and the timestamps; the version check (`if_version`) before the user's
    /// conditions. Consumes the builder, so that the actions (and the values they carry) are
    /// rendered without a copy.
    pub(crate) fn render(self) -> Result<Write> {
        if self.update.is_empty() && !self.allow_no_actions {
            return Err(Error::validation(format!(
                "an update of `{}` has no actions; call allow_no_actions() to create the item \
                 with only its key",
                M::TABLE_NAME
            )));
        }
        let key = self.key.to_key_item()?;
        // `ignore_version()` sends no version at all: nothing to skip.
        if self.skip_version_bump && self.versioning != Versioning::Ignore {
            version::check_skip::<M>(&self.update, &self.db.table_name::<M>(), &key)?;
        }
        let update = match !self.skip_version_bump && self.versioning.bumps::<M>(&self.update) {
            true => version::bump(self.update),
            false => self.update,
        };
        // Only an update with actions writes anything to stamp.
        let update = match update.is_empty() {
            true => update,
            false => stamps::stamp_update(self.db, update)?,
        };
        // An update may create the item (an upsert): it carries the entity type like a put.
        let update = match M::ENTITY_TYPE {
            Some(entity) => {
                let path: Path<M, String> =
                    Path::from_elements(vec![PathElement::Name(M::ENTITY_ATTRIBUTE.to_owned())]);
                update.set(path, entity)
            }
            None => update,
        };
        let parts = Parts {
            update: Some(&update),
            version: self.versioning.expected::<M>(None)?,
            ..Parts::default()
        };
        Write::render(self.db, key, &self.conditional, parts)
    }
}

/// The `UpdateItem` request of a rendered update.
pub(crate) fn input(write: Write, return_values: ReturnValue) -> UpdateItemInput {
    UpdateItemInput {
        table_name: write.table_name,
        key: write.key,
        update_expression: write.update_expression,
        condition_expression: write.condition_expression,
        expression_attribute_names: write.expression_attribute_names,
        expression_attribute_values: write.expression_attribute_values,
        return_values: (return_values != ReturnValue::None).then_some(return_values),
        return_values_on_condition_check_failure: write.on_failure,
        ..Default::default()
    }
}

impl<'a, M: Model> IntoFuture for UpdateItem<'a, M> {
    type Output = Result<()>;
    type IntoFuture = DbFuture<'a, ()>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.send(ReturnValue::None).map(|sent| sent.map(drop)))
    }
}
