//! The actions of an [`UpdateItem`]: each method of [`Update<M>`] as a builder method, so that an
//! update reads as one chain (`db.update(..).add(..).set(..).condition(..)`). Thin by design: what
//! an action means and renders to is [`Update`]'s.

use crate::convert::Attribute;
use crate::db::UpdateItem;
use crate::expression::{
    Addable, FieldValue, IntoValue, ListValue, Numeric, SetValue, Update, UpdateTarget,
};
use crate::model::Model;

impl<'a, M: Model> UpdateItem<'a, M> {
    fn map(mut self, f: impl FnOnce(Update<M>) -> Update<M>) -> Self {
        self.update = f(self.update);
        self
    }

    /// `SET path = value`; `REMOVE path` when the value stores nothing (see [`Update::set`]).
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
    /// let tweet = db
    ///     .update::<Tweet>(("abc", "1"))
    ///     .set(Tweet::text(), "edited")
    ///     .set(Tweet::nick(), None) // REMOVE: this is how `None` is stored
    ///     .returning_new()
    ///     .await?;
    /// assert_eq!((tweet.text.as_str(), tweet.nick), ("edited", None));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn set<T: Attribute>(
        self,
        path: impl UpdateTarget<M, T>,
        value: impl IntoValue<T>,
    ) -> Self {
        self.map(|u| u.set(path, value))
    }

    /// `SET path = if_not_exists(path, value)` (see [`Update::set_if_not_exists`]).
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
    /// db.update::<Tweet>(("abc", "1")).remove(Tweet::nick()).await?;
    /// for nick in ["bob", "eve"] {
    ///     db.update::<Tweet>(("abc", "1")).set_if_not_exists(Tweet::nick(), nick).await?;
    /// }
    /// let tweet = db.get::<Tweet>(("abc", "1")).await?;
    /// assert_eq!(tweet.and_then(|t| t.nick).as_deref(), Some("bob")); // the first one stays
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn set_if_not_exists<T: Attribute>(
        self,
        path: impl UpdateTarget<M, T>,
        value: impl IntoValue<T>,
    ) -> Self {
        self.map(|u| u.set_if_not_exists(path, value))
    }

    /// `ADD path value`: adds to a number or unions into a set (see [`Update::add`]).
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
    /// let tweet = db
    ///     .update::<Tweet>(("abc", "1"))
    ///     .add(Tweet::likes(), 1)
    ///     .add(Tweet::tags(), BTreeSet::from(["dynamodb".to_owned()]))
    ///     .returning_new()
    ///     .await?;
    /// assert_eq!(tweet.likes, 13);
    /// assert_eq!(tweet.tags, BTreeSet::from(["dynamodb".to_owned(), "rust".to_owned()]));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn add<T>(self, path: impl UpdateTarget<M, T>, value: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + Addable,
    {
        self.map(|u| u.add(path, value))
    }

    /// `SET path = path + n`, failing on a missing attribute (see [`Update::incr`]).
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
    /// let tweet = db.update::<Tweet>(("abc", "1")).incr(Tweet::likes(), 3).returning_new().await?;
    /// assert_eq!(tweet.likes, 15);
    /// // `decr` is the same with `-`. On an item without `likes`, both fail where `add` would not:
    /// let missing = db
    ///     .update::<Tweet>(("abc", "2"))
    ///     .set(Tweet::text(), "new")
    ///     .incr(Tweet::likes(), 1)
    ///     .append(Tweet::history(), Vec::new())
    ///     .upsert()
    ///     .await;
    /// assert!(missing.is_err_and(|e| e.code() == "ValidationException"));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn incr<T>(self, path: impl UpdateTarget<M, T>, n: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + Numeric,
    {
        self.map(|u| u.incr(path, n))
    }

    /// `SET path = path - n` (see [`Update::decr`]).
    pub fn decr<T>(self, path: impl UpdateTarget<M, T>, n: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + Numeric,
    {
        self.map(|u| u.decr(path, n))
    }

    /// `REMOVE path`.
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
    /// let tweet = db.update::<Tweet>(("abc", "1")).remove(Tweet::nick()).returning_new().await?;
    /// assert_eq!(tweet.nick, None);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn remove<T>(self, path: impl UpdateTarget<M, T>) -> Self {
        self.map(|u| u.remove(path))
    }

    /// `DELETE path subset`: removes elements from a set (see [`Update::delete`]).
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
    /// let tweet = db
    ///     .update::<Tweet>(("abc", "1"))
    ///     .delete(Tweet::tags(), BTreeSet::from(["rust".to_owned()]))
    ///     .returning_new()
    ///     .await?;
    /// assert!(tweet.tags.is_empty()); // the last element removed the attribute
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn delete<T>(self, path: impl UpdateTarget<M, T>, subset: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + SetValue,
    {
        self.map(|u| u.delete(path, subset))
    }

    /// Appends to a list, starting from an empty one (see [`Update::append`]).
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
    /// let update = || db.update::<Tweet>(("abc", "1"));
    /// update().append(Tweet::history(), vec!["b".to_owned()]).await?;
    /// let tweet = update().prepend(Tweet::history(), vec!["z".to_owned()]).returning_new().await?;
    /// assert_eq!(tweet.history, ["z", "a", "b"]);
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn append<T>(self, path: impl UpdateTarget<M, T>, list: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + ListValue,
    {
        self.map(|u| u.append(path, list))
    }

    /// Inserts at the front of a list (see [`Update::prepend`]).
    pub fn prepend<T>(self, path: impl UpdateTarget<M, T>, list: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + ListValue,
    {
        self.map(|u| u.prepend(path, list))
    }

    /// Replaces the actions with a prebuilt [`Update<M>`] (e.g. one assembled in a loop).
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
    /// let (new_text, new_nick): (Option<&str>, Option<&str>) = (Some("edited"), None);
    /// let mut update = Update::new().add(Tweet::likes(), 1);
    /// if let Some(text) = new_text {
    ///     update = update.set(Tweet::text(), text);
    /// }
    /// if let Some(nick) = new_nick {
    ///     update = update.set(Tweet::nick(), nick);
    /// }
    /// let tweet = db.update::<Tweet>(("abc", "1")).actions(update).returning_new().await?;
    /// assert_eq!((tweet.text.as_str(), tweet.likes, tweet.nick.as_deref()), ("edited", 13, Some("ada")));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn actions(mut self, update: Update<M>) -> Self {
        self.update = update;
        self
    }
}
