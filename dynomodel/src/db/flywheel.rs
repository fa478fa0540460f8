//! flywheel's conveniences on a value you hold: `refresh`, `incr` and `sync`.

use crate::convert::Attribute;
use crate::db::counters::sync_counter;
use crate::db::names::{model_name, ItemName};
use crate::db::{attribute, Db};
use crate::error::{Error, Result};
use crate::expression::{Condition, FieldValue, IntoValue, Numeric, Update, UpdateTarget};
use crate::model::{Model, PrimaryKey};
use crate::value::AttributeValue;

impl Db {
    /// Re-reads `item` from the table (strongly consistent) and overwrites it in memory. Returns
    /// `false`, leaving `item` untouched, when it is no longer stored.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let mut tweet = Tweet { userid: "abc".into(), id: "1".into(), likes: 0 };
    /// db.put(&tweet).await?;
    /// db.update::<Tweet>(("abc", "1")).set(Tweet::likes(), 5).await?; // someone else
    ///
    /// assert!(db.refresh(&mut tweet).await?);
    /// assert_eq!(tweet.likes, 5);
    /// db.delete(&tweet).await?;
    /// assert!(!db.refresh(&mut tweet).await?); // deleted meanwhile
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn refresh<M: Model>(&self, item: &mut M) -> Result<bool> {
        match self.get::<M>(item.key()).consistent().await? {
            Some(fresh) => {
                *item = fresh;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Atomically adds `by` to a number field of the stored item (`ADD`, so concurrent increments
    /// never lose one) and refreshes `item` with the whole stored item as it is afterwards.
    ///
    /// The item must exist, as for every update that is not an upsert: an increment is not a way to
    /// create a half-filled item. Otherwise the error is [`ItemNotFound`](Error::ItemNotFound),
    /// nothing is written and `item` is unchanged.
    ///
    /// With a `#[version]` field, the increment bumps the version like any update (and `item`,
    /// refreshed, holds the new one), unless the field is a
    /// [counter](crate::Model#counters-dynomodelcounter); it checks none, since an `ADD` is right
    /// whatever else changed. It sets the `#[updated_at]` timestamp, if any.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let mut tweet = Tweet { userid: "abc".into(), id: "1".into(), likes: 0 };
    /// db.put(&tweet).await?;
    /// db.incr(&mut tweet, Tweet::likes(), 1).await?;
    /// db.incr(&mut tweet, Tweet::likes(), 2).await?;
    /// assert_eq!(tweet.likes, 3);
    ///
    /// let mut unsaved = Tweet { userid: "abc".into(), id: "2".into(), likes: 0 };
    /// let err = db.incr(&mut unsaved, Tweet::likes(), 1).await.unwrap_err();
    /// assert!(err.is_item_not_found());
    /// assert_eq!(db.get::<Tweet>(("abc", "2")).await?, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn incr<M, T>(
        &self,
        item: &mut M,
        field: impl UpdateTarget<M, T>,
        by: impl IntoValue<T::Value>,
    ) -> Result<()>
    where
        M: Model,
        T: FieldValue,
        T::Value: Attribute + Numeric,
    {
        *item = self
            .update::<M>(item.key())
            .add(field, by)
            .returning_new()
            .await?;
        Ok(())
    }

    /// Writes the attributes that differ between `before` (the item as read) and `after` (as
    /// edited): `SET` for changed and new ones, `REMOVE` for ones `after` no longer stores.
    /// This is flywheel's `sync`, with the snapshot passed explicitly instead of tracked. Returns
    /// whether there was anything to write (no request is sent otherwise).
    ///
    /// Changes others made to other attributes are kept, not clobbered: that is the point over a
    /// whole-item put. [`sync_atomic`](Db::sync_atomic) also refuses to overwrite theirs.
    ///
    /// With a `#[version]` field, the update is on condition that the stored version is `before`'s
    /// (a concurrent write of any attribute fails with
    /// [`VersionConflict`](Error::VersionConflict)) and bumps it; edits of the version field itself are
    /// not written. `after` is then one version behind: [`refresh`](Db::refresh) it before another
    /// versioned write. A [counter](crate::Model#counters-dynomodelcounter) is written as its
    /// difference (`ADD after - before`, or the elements a set gained or lost), which adds to what
    /// others did meanwhile; when only counters changed, the version is neither checked nor bumped.
    /// The `#[updated_at]` timestamp is set; edits of the timestamps are not written.
    ///
    /// The item must still exist (as for every update that is not an upsert): one deleted since
    /// `before` was read is [`ItemNotFound`](Error::ItemNotFound), never re-created half-filled,
    /// whatever changed (counters only included).
    ///
    /// Errors: the two values have different keys; a counter set both gained and lost elements
    /// (one update cannot `ADD` to and `DELETE` from one attribute).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String, likes: i64 }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into(), likes: 0 };
    /// db.put(&tweet).await?;
    /// db.update::<Tweet>(("abc", "1")).set(Tweet::likes(), 5).await?; // someone else
    ///
    /// let mut edited = tweet.clone();
    /// edited.text = "edited".into();
    /// assert!(db.sync(&tweet, &edited).await?); // SET text only
    /// assert!(!db.sync(&edited, &edited).await?); // nothing to write
    /// let stored = db.get::<Tweet>(("abc", "1")).await?;
    /// assert_eq!(stored.map(|t| (t.text, t.likes)), Some(("edited".into(), 5)));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn sync<M: Model>(&self, before: &M, after: &M) -> Result<bool> {
        self.sync_changes(before, after, false).await
    }

    /// [`sync`](Db::sync), on condition that each written attribute still holds its value from
    /// `before` (or is still absent): a concurrent change to the same attributes fails with
    /// [`ConditionalCheckFailed`](Error::ConditionalCheckFailed) instead of being overwritten (and
    /// a deleted item with [`ItemNotFound`](Error::ItemNotFound)).
    /// flywheel's `sync(atomic=True)`.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// # let db = Db::memory();
    /// # db.create_schema::<Tweet>().await?;
    /// let tweet = Tweet { userid: "abc".into(), id: "1".into(), text: "hello".into() };
    /// db.put(&tweet).await?;
    /// db.update::<Tweet>(("abc", "1")).set(Tweet::text(), "theirs").await?; // someone else
    ///
    /// let mut edited = tweet.clone();
    /// edited.text = "mine".into();
    /// let err = db.sync_atomic(&tweet, &edited).await.unwrap_err();
    /// let theirs: Option<Tweet> = err.conditional_item()?;
    /// assert_eq!(theirs.map(|t| t.text), Some("theirs".into()));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn sync_atomic<M: Model>(&self, before: &M, after: &M) -> Result<bool> {
        self.sync_changes(before, after, true).await
    }

    async fn sync_changes<M: Model>(&self, before: &M, after: &M, atomic: bool) -> Result<bool> {
        let (old, new) = (before.to_item()?, after.to_item()?);
        let key = after.key();
        if before.key().to_key_item()? != key.to_key_item()? {
            return Err(Error::validation(format!(
                "sync of `{}`: the key changed from {:?} to {:?}; a key cannot be updated",
                M::TABLE_NAME,
                before.key(),
                key
            )));
        }
        let mut update = Update::<M>::new();
        let mut guard: Option<Condition<M>> = None;
        let mut counters_only = true;
        let names = old
            .keys()
            .chain(new.keys().filter(|n| !old.contains_key(*n)));
        for name in names {
            // The version and the timestamps are the mapper's to write, not part of the edit.
            let name = name.as_str();
            if [M::VERSION_ATTRIBUTE, M::CREATED_AT, M::UPDATED_AT].contains(&Some(name)) {
                continue;
            }
            let (was, is) = (old.get(name), new.get(name));
            if was == is {
                continue;
            }
            if M::COUNTERS.contains(&name) {
                // By its difference, which is right whatever others added since: no guard.
                let item = || match key.to_key_item() {
                    Ok(key) => ItemName {
                        model: model_name::<M>(),
                        key: &key,
                        table: &self.table_name::<M>(),
                    }
                    .to_string(),
                    Err(_) => format!("`{}`", model_name::<M>()),
                };
                update = sync_counter(update, name, was, is, item)?;
                continue;
            }
            counters_only = false;
            let path = attribute::<M>(name);
            update = match is {
                Some(value) => update.set(path.clone(), value.clone()),
                None => update.remove(path.clone()),
            };
            let check = match was {
                Some(value) => path.eq(AttributeValue::clone(value)),
                None => path.not_exists(),
            };
            guard = Some(match guard {
                Some(all) => all & check,
                None => check,
            });
        }
        if update.is_empty() {
            return Ok(false);
        }
        // With a `#[version]` field: on condition that nobody wrote since `before` was read (the
        // update bumps it), unless only counters changed, which conflict with nothing. Without
        // one, `if_version` changes nothing. A `before` that holds no version (an item stored
        // before the field existed) checks none: the item must exist, and the bump starts its
        // count.
        let mut request = self.update::<M>(key).actions(update);
        if let (false, Some(version)) = (counters_only, before.version()?) {
            request = request.if_version(version);
        }
        if let (true, Some(guard)) = (atomic, guard) {
            request = request.condition(guard);
        }
        request.await?;
        Ok(true)
    }
}
