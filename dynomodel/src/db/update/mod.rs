//! [`UpdateItem`]: `UpdateItem` of one item by key, with typed actions (in `actions`), a condition,
//! the version check and a choice of return values.

mod actions;
mod upsert;

use std::future::IntoFuture;

use futures::FutureExt;

use crate::backend::{ReturnValue, UpdateItemInput, UpdateItemOutput};
use crate::convert::VersionAttribute;
use crate::db::decode::decode_returned;
use crate::db::existence;
use crate::db::names::{model_name, ItemName};
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
/// | [`returning_old`](UpdateItem::returning_old) | `ALL_OLD` | `Option<M>` (`None`: an upsert created it) |
/// | [`returning_updated_new`](UpdateItem::returning_updated_new) | `UPDATED_NEW` | [`Partial<M>`] |
/// | [`returning_updated_old`](UpdateItem::returning_updated_old) | `UPDATED_OLD` | [`Partial<M>`] |
///
/// **An update only updates.** Unlike a bare DynamoDB `UpdateItem`, which creates a missing item
/// from its key and the updated attributes (an item the model usually cannot read back: a
/// `Thread` without its `Message`), the request is conditional on the item existing:
/// `attribute_exists(<hash key>)`, or for a single-table model (`entity = "..."`)
/// `<entity attribute> = :entity`, which also refuses to update another entity's item through
/// this model. A missing item (or another entity's) is [`Error::ItemNotFound`] naming the model,
/// table and key (and the entity type found), and nothing is written. The check is `AND`ed with
/// the version check and your conditions; the stored item that a failure brings back
/// ([`item_on_failure`](UpdateItem::item_on_failure), on by default) tells which one failed. With
/// `item_on_failure(false)` the mapper cannot tell a missing item from a failed condition of
/// yours or a failed version check, so the error is then `ItemNotFound` only when the existence
/// check was the one condition, and [`Error::ConditionalCheckFailed`] otherwise.
///
/// **[`upsert`](UpdateItem::upsert) creates a missing item**, and so must give it everything the
/// model needs to read it back: every attribute of [`Model::required_attributes`], set at the top
/// level by `set`, `set_if_not_exists` or `add` (the entity type, the `#[version]` and the
/// [timestamps](crate::Model#timestamps-created_at-updated_at) are the mapper's). Otherwise it is
/// refused before anything is sent, naming the missing attributes.
///
/// The extra condition costs a request one condition term and, for a single-table model, one
/// value; no read.
///
/// **An update without actions is an error** (a validation error naming the table, before any
/// request is sent), because it is almost always a bug: a builder whose actions were all skipped.
/// [`allow_no_actions`](UpdateItem::allow_no_actions) sends it anyway (DynamoDB then changes
/// nothing, or with `upsert` creates the item from its key if the model needs nothing else).
///
/// An action on a key attribute does not compile: the handles of the table's keys are not
/// [`UpdateTarget`](crate::expression::UpdateTarget)s (see [roles](crate::expression::role));
/// DynamoDB would refuse it. Actions on overlapping paths (`a` and `a.b`) are DynamoDB validation
/// errors.
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
    upsert: bool,
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
            upsert: false,
        }
    }

    /// Updates only if `condition` holds on the stored item. Given more than once, the conditions
    /// are joined with `AND` (and with the existence check: see [`UpdateItem`]). A failure is
    /// [`Error::ConditionalCheckFailed`] carrying the stored item.
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
    /// // On a missing item, the existence check is what failed: not your condition.
    /// let missing = db.update::<Tweet>(("abc", "2")).add(Tweet::likes(), 1).condition(Tweet::likes().ge(100));
    /// assert!(missing.await.is_err_and(|e| e.is_item_not_found()));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn condition(mut self, condition: impl Into<Condition<M>>) -> Self {
        self.conditional.and(condition.into());
        self
    }

    /// Whether a failed condition brings back the stored item (on by default; see
    /// [`Put::item_on_failure`](crate::Put::item_on_failure)).
    pub fn item_on_failure(mut self, yes: bool) -> Self {
        self.conditional.item_on_failure(yes);
        self
    }

    /// Updates only if the stored item has this `#[version]` (a value of the field's type, usually
    /// the one of the copy the update is based on; `0` or `None`: no item with the key, which only
    /// an [`upsert`](UpdateItem::upsert) may expect, and is refused before sending otherwise). A
    /// mismatch is [`Error::VersionConflict`](crate::Error::VersionConflict); a missing item, as
    /// for any update, [`Error::ItemNotFound`].
    ///
    /// Every update of a versioned model bumps the version (`ADD version 1`), with or without this
    /// (except one of [counters](crate::Model#counters-dynomodelcounter) only): any copy read
    /// before becomes stale, so a later whole-item write from it fails instead of undoing this
    /// update. Checking is opt-in because an update names the attributes it changes,
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
    ///     .ignore_version().upsert().returning_new().await?;
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

    /// Sends the request even without actions: it changes nothing on an existing item (a "touch"
    /// that checks the item exists, and its version with [`if_version`](UpdateItem::if_version)),
    /// fails with [`Error::ItemNotFound`] on a missing one, and with [`upsert`](UpdateItem::upsert)
    /// creates a missing item from its key alone (refused unless the model needs nothing else to
    /// read it back, e.g. its other fields are `Option`s or have defaults).
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
    /// let missing = db.update::<Tweet>(("abc", "2")).allow_no_actions().await;
    /// assert!(missing.is_err_and(|e| e.is_item_not_found()));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn allow_no_actions(mut self) -> Self {
        self.allow_no_actions = true;
        self
    }

    /// Creates the item if it is missing (DynamoDB's own `UpdateItem` behaviour), instead of
    /// failing with [`Error::ItemNotFound`]. The item it creates holds the key, the attributes the
    /// update sets and, for a single-table model, the entity type; so that the model can read it
    /// back, the update must set every attribute of [`Model::required_attributes`] at the top level
    /// (`set`, `set_if_not_exists`, or `add` for numbers and sets; a `#[version]` is set by the
    /// update's own bump, or for an upsert of [counters](crate::Model#counters-dynomodelcounter)
    /// only, which bumps nothing, by `SET <version> = if_not_exists(<version>, 1)`; the
    /// `#[created_at]` / `#[updated_at]` fields by their stamps). An upsert that does not is
    /// refused before anything is sent, with a validation error naming the model, table, key and
    /// the missing attributes; so is an upsert of a model that needs a composite that keys no
    /// table key (no update can set one).
    ///
    /// For a single-table model, an upsert still refuses to overwrite another entity's item under
    /// the same key (`attribute_not_exists(<hash key>) OR <entity attribute> = :entity`), which is
    /// [`Error::ItemNotFound`] naming the entity type found.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Thread { #[hash_key] forum: String, #[range_key] subject: String, message: String, views: u64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Thread>().await?;
    /// let view = || {
    ///     db.update::<Thread>(("rust", "hello"))
    ///         .add(Thread::views(), 1)
    ///         .set_if_not_exists(Thread::message(), "(no message yet)")
    ///         .upsert()
    /// };
    /// view().await?; // created
    /// let thread = view().returning_new().await?; // updated
    /// assert_eq!((thread.message.as_str(), thread.views), ("(no message yet)", 2));
    ///
    /// // Without `message`, the item it could create would not read back as a Thread.
    /// let err = db.update::<Thread>(("rust", "other")).add(Thread::views(), 1).upsert().await.unwrap_err();
    /// assert!(err.message().contains("missing `message`"), "{err}");
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn upsert(mut self) -> Self {
        self.upsert = true;
        self
    }

    /// Finishes with `ReturnValues=ALL_NEW`: the whole item after the update. An
    /// [`upsert`](UpdateItem::upsert) whose actions only remove attributes creates no item on a
    /// missing key (DynamoDB stores none for it), so there is none to return:
    /// [`Error::ItemNotFound`].
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
        let db = self.db;
        let send = self.send(ReturnValue::AllNew);
        Box::pin(
            send.map(move |output| decode_required(db, output?.attributes, "the updated item")),
        )
    }

    /// Finishes with `ReturnValues=ALL_OLD`: the whole item before the update, `None` if an
    /// [`upsert`](UpdateItem::upsert) created it.
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
    /// let created = db
    ///     .update::<Tweet>(("abc", "2"))
    ///     .set(Tweet::text(), "new")
    ///     .add(Tweet::likes(), 1)
    ///     .append(Tweet::history(), Vec::new())
    ///     .upsert()
    ///     .returning_old()
    ///     .await?;
    /// assert_eq!(created, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn returning_old(self) -> DbFuture<'a, Option<M>> {
        let db = self.db;
        let send = self.send(ReturnValue::AllOld);
        Box::pin(send.map(move |output| {
            (output?.attributes)
                .map(|item| decode_returned(db, item))
                .transpose()
        }))
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
        let upsert = self.upsert;
        sent(self.render().map(|(write, key)| {
            // The table and key are named again only if a check failed: no copy per request.
            let guards = write.guards();
            let call = db.calls.update_item(input(write, return_values));
            call.map(move |output| match output {
                // An upsert of removals only (any other update makes or checks the item); for
                // another update, no item is a faulty response, which decoding reports.
                Ok(output)
                    if upsert
                        && return_values == ReturnValue::AllNew
                        && output.attributes.is_none() =>
                {
                    let key = key.to_key_item().unwrap_or_default();
                    Err(existence::created_nothing::<M>(&db.table_name::<M>(), key))
                }
                Ok(output) => Ok(output),
                Err(e @ Error::ConditionalCheckFailed { .. }) if guards.any() => {
                    let key = key.to_key_item().unwrap_or_default();
                    Err(guards.read::<M>(&db.table_name::<M>(), &key, e))
                }
                Err(e) => Err(e),
            })
        }))
    }

    /// The update: the user's actions, plus the version bump of a versioned model (unless they
    /// change counters only), the timestamps and the entity type of a single-table one; the
    /// version check (`if_version`) and the existence check before the user's conditions.
    /// Consumes the builder, so that the actions (and the values they carry) are rendered without
    /// a copy; gives back the key, to name the item if it fails.
    ///
    /// The mapper's own actions come before the upsert check, which therefore sees every
    /// attribute the request assigns: a timestamp the mapper sets is not missing.
    pub(crate) fn render(self) -> Result<(Write, M::Key)> {
        if self.update.is_empty() && !self.allow_no_actions {
            return Err(Error::validation(format!(
                "an update of `{}` has no actions; call allow_no_actions() to send it anyway",
                M::TABLE_NAME
            )));
        }
        let key = self.key.to_key_item()?;
        // `ignore_version()` sends no version at all: nothing to skip.
        if self.skip_version_bump && self.versioning != Versioning::Ignore {
            version::check_skip::<M>(&self.update, &self.db.table_name::<M>(), &key)?;
        }
        let bumps = !self.skip_version_bump && self.versioning.bumps::<M>(&self.update);
        let update = match (bumps, self.upsert && self.versioning != Versioning::Ignore) {
            (true, _) => version::bump(self.update),
            // An upsert of counters only bumps nothing, yet the item it may create needs a
            // version: 1, as a bump would start it, and the stored one kept.
            (false, true) if !self.update.is_empty() => version::start(self.update),
            (false, _) => self.update,
        };
        // Only an update with actions writes anything to stamp.
        let update = match update.is_empty() {
            true => update,
            false => stamps::stamp_update(self.db, update)?,
        };
        // An upsert may create the item: it carries the entity type like a put (and an update
        // sets it again, which changes nothing: the existence check makes sure it is this one).
        let update = match M::ENTITY_TYPE {
            Some(entity) => {
                let path: Path<M, String> =
                    Path::from_elements(vec![PathElement::Name(M::ENTITY_ATTRIBUTE.to_owned())]);
                update.set(path, entity)
            }
            None => update,
        };
        // Every write stores the model's item version; the existence check makes sure the item
        // was at it already (see `existence`), so this changes nothing but an upsert's new item.
        let update = match M::ITEM_VERSION {
            Some(item_version) => {
                let path: Path<M, u32> = Path::from_elements(vec![PathElement::Name(
                    M::ITEM_VERSION_ATTRIBUTE.to_owned(),
                )]);
                update.set(path, item_version)
            }
            None => update,
        };
        let version = self.versioning.expected::<M>(None)?;
        if self.upsert {
            upsert::check::<M>(&update, &self.db.table_name::<M>(), &key)?;
        } else if version == Some(None) {
            return Err(Error::validation(format!(
                "Update {}: if_version expects no stored item (a first save), but an update \
                 changes only an item that exists; call upsert() to create it",
                ItemName {
                    model: model_name::<M>(),
                    key: &key,
                    table: &self.db.table_name::<M>(),
                }
            )));
        }
        let parts = Parts {
            update: Some(&update),
            version,
            existence: Some(self.upsert),
            ..Parts::default()
        };
        let write = Write::render(self.db, key, &self.conditional, parts)?;
        Ok((write, self.key))
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
