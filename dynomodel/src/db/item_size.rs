//! Item size limits on write: an item over DynamoDB's 400 KB, or over its model's
//! `max_item_size` budget, is refused before it is sent with [`ItemTooLarge`], which names the item
//! and its largest attributes (DynamoDB's own "Item size has exceeded the maximum allowed size"
//! names none).
//!
//! Puts measure the item as the backend writes it (`model::size::Measuring`: one pass adding each
//! attribute's size, no second encoding); batch writes and transactions, which hold the item, measure
//! it. Only a refused item is encoded again, to name its attributes.

use std::fmt;

use crate::db::names::{model_name, ItemName};
use crate::db::Db;
use crate::error::{ConversionError, Error, Result};
use crate::model::size::item_size_limit;
use crate::model::Model;
use crate::value::{attribute_size, item_size, Item, MAX_ITEM_SIZE};

/// How many attributes an [`ItemTooLarge`] lists.
const LARGEST: usize = 3;

/// What the size check of a put's writer reports (its `expected`; `found` is the size): the put
/// turns it into [`Error::ItemTooLarge`] (see [`name_write_error`]).
const OVER_LIMIT: &str = "an item within its size limit";

/// An item refused before it was sent because it is larger than DynamoDB stores (400 KB) or than its
/// model's `max_item_size` budget: the content of [`Error::ItemTooLarge`].
///
/// ```
/// use dynomodel::{Db, Error, Model};
/// # use dynomodel_mem::MemoryDb;
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// #[derive(Model)]
/// #[dynomodel(max_item_size = "1KB")]
/// struct Note { #[hash_key] id: String, body: String }
///
/// let db = Db::memory();
/// db.create_schema::<Note>().await?;
/// let note = Note { id: "n1".into(), body: "x".repeat(2000) };
/// let Err(Error::ItemTooLarge(e)) = db.put(&note).await else { panic!("refused") };
/// assert_eq!((e.size, e.limit, e.budget), (2008, 1024, true));
/// assert_eq!(e.largest[0], ("body".to_owned(), 2004));
/// assert_eq!(
///     e.to_string(),
///     r#"the item of Note {id: "n1"} in `Note` is 2008 bytes, over its model's budget of 1024 bytes (max_item_size); largest attributes: `body` 2004 bytes, `id` 4 bytes"#
/// );
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ItemTooLarge {
    /// The model's Rust type name.
    pub model: &'static str,
    /// The table (namespace included).
    pub table: String,
    /// The item's key.
    pub key: Item,
    /// The item's size in bytes, by DynamoDB's rule ([`item_size`](crate::item_size)).
    pub size: usize,
    /// The limit it is over: DynamoDB's [`MAX_ITEM_SIZE`] or the model's budget.
    pub limit: usize,
    /// Whether the limit is the model's `max_item_size` budget rather than DynamoDB's.
    pub budget: bool,
    /// The largest attributes, largest first (at most three): name and size (name included).
    pub largest: Vec<(String, usize)>,
}

impl fmt::Display for ItemTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let item = ItemName {
            model: self.model,
            key: &self.key,
            table: &self.table,
        };
        write!(f, "the item of {item} is {} bytes, over ", self.size)?;
        match self.budget {
            true => write!(
                f,
                "its model's budget of {} bytes (max_item_size)",
                self.limit
            )?,
            false => write!(f, "DynamoDB's item limit of {} bytes (400 KB)", self.limit)?,
        }
        f.write_str("; largest attributes: ")?;
        for (i, (name, size)) in self.largest.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{name}` {size} bytes")?;
        }
        Ok(())
    }
}

impl std::error::Error for ItemTooLarge {}

/// Refuses `item` of `M` when it is over `M`'s limit (the table is named on the error only).
pub(crate) fn check_item<M: Model>(db: &Db, item: &Item) -> Result<()> {
    let size = item_size(item);
    match size > item_size_limit::<M>() {
        true => Err(too_large::<M>(&db.table_name::<M>(), item, size)),
        false => Ok(()),
    }
}

/// The error of a writer that measured `bytes`, over `M`'s limit.
pub(crate) fn over_limit(bytes: usize) -> ConversionError {
    ConversionError::new(OVER_LIMIT, bytes.to_string())
}

/// Names the item of a put of `value` refused by its writer's size check (see [`over_limit`]);
/// any other error is returned as it is. Encodes the value again: on this error only.
pub(crate) fn name_write_error<M: Model>(db: &Db, value: &M, error: Error) -> Error {
    let size = match &error {
        Error::Conversion(e) if e.path.is_empty() && e.expected == OVER_LIMIT => {
            e.found.parse::<usize>().ok()
        }
        _ => None,
    };
    match (size, value.to_item()) {
        (Some(size), Ok(item)) => too_large::<M>(&db.table_name::<M>(), &item, size),
        _ => error,
    }
}

fn too_large<M: Model>(table: &str, item: &Item, size: usize) -> Error {
    let mut largest: Vec<(String, usize)> = item
        .iter()
        .map(|(name, value)| (name.clone(), name.len() + attribute_size(value)))
        .collect();
    largest.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    largest.truncate(LARGEST);
    let key = std::iter::once(M::HASH_KEY)
        .chain(M::RANGE_KEY)
        .filter_map(|name| item.get(name).map(|value| (name.to_owned(), value.clone())))
        .collect();
    let limit = item_size_limit::<M>();
    Error::ItemTooLarge(Box::new(ItemTooLarge {
        model: model_name::<M>(),
        table: table.to_owned(),
        key,
        size,
        limit,
        budget: M::MAX_ITEM_SIZE.is_some_and(|budget| budget <= MAX_ITEM_SIZE),
        largest,
    }))
}
