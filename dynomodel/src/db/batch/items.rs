//! [`BatchItems`]: what a [`BatchGet`](crate::BatchGet) read, handed out per model.

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::db::batch::key::KeyId;
use crate::db::batch::read::ReadTable;
use crate::db::decode::ItemDecode;
use crate::db::Partial;
use crate::error::Result;
use crate::model::{Model, PrimaryKey};
use crate::value::Item;

/// The items a [`Db::batch_get`](crate::Db::batch_get) read, by model.
///
/// [`take`](BatchItems::take) moves one model's items out, decoded, in the order their keys were
/// given; [`get`](BatchItems::get) reads one by key; [`missing`](BatchItems::missing) lists the
/// keys that had no item. A model the batch did not read has no items and no missing keys.
///
/// Decoding happens here rather than when the batch is awaited, so that an item that does not fit
/// its model fails only that model's `take` (the error, [`Error::ItemDecode`](crate::Error::ItemDecode),
/// names the model, table and key), and so that projected items can be taken as
/// [`Partial`] views instead.
///
/// ```
/// # use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// # #[derive(Model, Debug, Clone, PartialEq)]
/// # #[dynomodel(table = "users")]
/// # struct User { #[hash_key] id: String, name: String }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<User>().await?;
/// let ada = User { id: "u1".into(), name: "Ada".into() };
/// let bob = User { id: "u2".into(), name: "Bob".into() };
/// db.batch_write().put_all([&ada, &bob]).await?;
///
/// let mut read = db.batch_get().keys::<User>(["u2", "u3", "u1"]).await?;
/// assert_eq!(read.len(), 2);
/// assert_eq!(read.get::<User>("u1")?, Some(ada.clone()));
/// assert_eq!(read.missing::<User>(), [&UserKey::from("u3")]);
/// assert_eq!(read.take::<User>()?, [bob, ada]); // the order of the keys
/// assert!(read.is_empty()); // taken
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
pub struct BatchItems {
    models: Vec<ModelItems>,
}

/// One model's part of the answer.
pub(crate) struct ModelItems {
    type_id: TypeId,
    table: ReadTable,
    /// The keys asked for, distinct, in the order given.
    order: Vec<KeyId>,
    /// The same keys as `Vec<M::Key>`.
    typed: Box<dyn Any + Send + Sync>,
    /// The items read and not yet taken.
    found: HashMap<KeyId, Item>,
    /// Positions in `order` of the keys that had no item.
    missing: Vec<usize>,
}

impl ModelItems {
    pub(crate) fn new(
        type_id: TypeId,
        table: ReadTable,
        order: Vec<KeyId>,
        typed: Box<dyn Any + Send + Sync>,
        mut found: HashMap<KeyId, Item>,
    ) -> Self {
        // Only answers to keys asked for count (a backend has no business sending others).
        let asked: HashSet<&KeyId> = order.iter().collect();
        found.retain(|id, _| asked.contains(id));
        let missing = order
            .iter()
            .enumerate()
            .filter(|(_, id)| !found.contains_key(id))
            .map(|(i, _)| i)
            .collect();
        ModelItems {
            type_id,
            table,
            order,
            typed,
            found,
            missing,
        }
    }
}

impl BatchItems {
    pub(crate) fn new(models: Vec<ModelItems>) -> Self {
        BatchItems { models }
    }

    fn model<M: Model>(&self) -> Option<&ModelItems> {
        self.models.iter().find(|m| m.type_id == TypeId::of::<M>())
    }

    fn model_mut<M: Model>(&mut self) -> Option<&mut ModelItems> {
        self.models
            .iter_mut()
            .find(|m| m.type_id == TypeId::of::<M>())
    }

    /// Moves out `M`'s items, decoded, in the order their keys were given (keys without an item
    /// skipped). A second `take` gives nothing.
    ///
    /// Errors: an item that does not decode as `M` ([`Error::ItemDecode`](crate::Error::ItemDecode),
    /// naming it); `M`'s items are gone then.
    pub fn take<M: Model>(&mut self) -> Result<Vec<M>> {
        let Some(model) = self.model_mut::<M>() else {
            return Ok(Vec::new());
        };
        let mut items = Vec::with_capacity(model.found.len());
        for id in &model.order {
            if let Some(item) = model.found.remove(id) {
                items.push(decode::<M>(&model.table, id, item)?);
            }
        }
        Ok(items)
    }

    /// Moves out `M`'s items as [`Partial`] views (what a [`project`](crate::BatchGet::project)ed
    /// read gives), in the order their keys were given. A second take gives nothing.
    pub fn take_partial<M: Model>(&mut self) -> Vec<Partial<M>> {
        let Some(model) = self.model_mut::<M>() else {
            return Vec::new();
        };
        let found = &mut model.found;
        model
            .order
            .iter()
            .filter_map(|id| found.remove(id))
            .map(Partial::new)
            .collect()
    }

    /// The item of `M` with this key, decoded, if it was read (and not taken).
    ///
    /// Errors: the key does not convert, or the item does not decode as `M`.
    pub fn get<M: Model>(&self, key: impl Into<M::Key>) -> Result<Option<M>> {
        let Some(model) = self.model::<M>() else {
            return Ok(None);
        };
        let id = KeyId::of(&key.into().to_key_item()?);
        match model.found.get(&id) {
            Some(item) => decode::<M>(&model.table, &id, item.clone()).map(Some),
            None => Ok(None),
        }
    }

    /// The keys of `M` the batch asked for that had no item, in the order given.
    pub fn missing<M: Model>(&self) -> Vec<&M::Key> {
        let Some(model) = self.model::<M>() else {
            return Vec::new();
        };
        let Some(keys) = model.typed.downcast_ref::<Vec<M::Key>>() else {
            return Vec::new();
        };
        model.missing.iter().filter_map(|&i| keys.get(i)).collect()
    }

    /// How many items (of every model) were read and not yet taken.
    pub fn len(&self) -> usize {
        self.models.iter().map(|m| m.found.len()).sum()
    }

    /// Whether no item is left to take.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Decodes the item of `table` with key `id`, naming its model and key when it does not fit (the key
/// is rebuilt only then: most items decode).
pub(crate) fn decode<M: Model>(table: &ReadTable, id: &KeyId, item: Item) -> Result<M> {
    M::from_item(item).map_err(|e| ItemDecode::error(table.model, &table.table, id.to_item(), e))
}

impl fmt::Debug for BatchItems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for model in &self.models {
            list.entry(&format_args!(
                "{} ({}): {} found, {} missing",
                model.table.model,
                model.table.table,
                model.found.len(),
                model.missing.len()
            ));
        }
        list.finish()
    }
}
