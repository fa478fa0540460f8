//! What the mapper reports when an update's existence check failed: [`ItemNotFound`] for a
//! single-item update, [`ExistenceCheck`] on the action of a canceled transaction.

use crate::value::Item;

/// What [`Error::ItemNotFound`](crate::Error::ItemNotFound) says: an update found no item of its
/// model under its key, so it changed nothing (an update never creates an item unless it is an
/// [`upsert`](crate::UpdateItem::upsert); see [`UpdateItem`](crate::UpdateItem)).
///
/// Either no item is stored under the key, or (in a table shared by several models) the item
/// stored there is another entity's: [`stored_entity`](ItemNotFound::stored_entity) and
/// [`item`](ItemNotFound::item) then say which.
///
/// ```
/// # use dynomodel::{Db, Error, Model};
/// # use dynomodel_mem::MemoryDb;
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "Thread")]
/// struct Thread {
///     #[hash_key] #[dynomodel(rename = "ForumName")] forum_name: String,
///     #[range_key] #[dynomodel(rename = "Subject")] subject: String,
///     #[dynomodel(rename = "Message")] message: String,
///     #[dynomodel(rename = "Views")] views: u64,
/// }
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// # db.create_schema::<Thread>().await?;
/// let err = db.update::<Thread>(("Amazon DynamoDB", "ghost")).add(Thread::views(), 1).await.unwrap_err();
/// assert!(err.is_item_not_found());
/// let Error::ItemNotFound(not_found) = &err else { unreachable!() };
/// assert_eq!((not_found.kind, not_found.model, not_found.table.as_str()), ("Update", "Thread", "Thread"));
/// assert_eq!(
///     err.to_string(),
///     r#"ItemNotFound: Update Thread {ForumName: "Amazon DynamoDB", Subject: "ghost"} in `Thread`: no such item"#
/// );
/// assert_eq!(db.get::<Thread>(("Amazon DynamoDB", "ghost")).await?, None); // nothing written
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ItemNotFound {
    /// What happened, naming the request, the model, the key and the table.
    pub message: String,
    /// The request: `"Update"`.
    pub kind: &'static str,
    /// The model's Rust type name.
    pub model: &'static str,
    /// The table (namespace included).
    pub table: String,
    /// The item's key.
    pub key: Item,
    /// The entity type of the item stored under the key, when it is another model's (a
    /// single-table design) and the failure brought the item back.
    pub stored_entity: Option<String>,
    /// The item version of the item stored under the key, when it is this model's item at another
    /// version than the model's ([`Model::ITEM_VERSION`](crate::Model::ITEM_VERSION)): an update
    /// changes only items at the model's version. `0` when the stored attribute is no version.
    pub stored_item_version: Option<u32>,
    /// The item stored under the key, when there is one (another entity's item, or one without an
    /// entity type) and the request asked for it (the default; see
    /// [`UpdateItem::item_on_failure`](crate::UpdateItem::item_on_failure)).
    pub item: Option<Item>,
}

/// The existence check of a transaction's update action (see [`ItemAction::existence`](crate::ItemAction::existence)),
/// and whether it is what failed.
#[derive(Debug, Clone, PartialEq)]
pub struct ExistenceCheck {
    /// Whether this check failed: no item of the action's model is stored under the key (none at
    /// all, or another entity's), as far as the cancellation shows (see
    /// [`CancellationReason::is_item_not_found`](crate::CancellationReason::is_item_not_found)).
    pub failed: bool,
    /// The entity type of the item found under the key instead, when the check failed on another
    /// entity's item that the cancellation brought back.
    pub stored_entity: Option<String>,
    /// The item version of the item found under the key instead, when the check failed on this
    /// model's item at another item version (`0`: the attribute holds no version).
    pub stored_item_version: Option<u32>,
}
