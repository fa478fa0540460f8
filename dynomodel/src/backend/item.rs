//! Requests and responses of the single-item operations, shaped like DynamoDB's API.

use crate::value::Item;

/// What a write returns of the item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReturnValue {
    /// Nothing (the default).
    #[default]
    None,
    /// The whole item as it was before the write.
    AllOld,
    /// The updated attributes as they were (UpdateItem only).
    UpdatedOld,
    /// The whole item as it is after the write (UpdateItem only).
    AllNew,
    /// The updated attributes as they are now (UpdateItem only).
    UpdatedNew,
}

impl ReturnValue {
    /// DynamoDB's name for it, e.g. `"ALL_OLD"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReturnValue::None => "NONE",
            ReturnValue::AllOld => "ALL_OLD",
            ReturnValue::UpdatedOld => "UPDATED_OLD",
            ReturnValue::AllNew => "ALL_NEW",
            ReturnValue::UpdatedNew => "UPDATED_NEW",
        }
    }
}

/// `PutItem`: create or replace an item.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PutItemInput {
    /// The table's name.
    pub table_name: String,
    /// The whole item, key attributes included.
    pub item: Item,
    /// `NONE` or `ALL_OLD`.
    pub return_values: Option<ReturnValue>,
}

/// `PutItem`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PutItemOutput {
    /// The replaced item, with `ReturnValues=ALL_OLD` when there was one.
    pub attributes: Option<Item>,
}

/// `GetItem`: read one item by its key.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GetItemInput {
    /// The table's name.
    pub table_name: String,
    /// The full primary key, and nothing else.
    pub key: Item,
    /// Strongly consistent read (the default is eventually consistent).
    pub consistent_read: Option<bool>,
}

/// `GetItem`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GetItemOutput {
    /// The item, if it exists.
    pub item: Option<Item>,
}

/// `DeleteItem`: delete one item by its key.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DeleteItemInput {
    /// The table's name.
    pub table_name: String,
    /// The full primary key, and nothing else.
    pub key: Item,
    /// `NONE` or `ALL_OLD`.
    pub return_values: Option<ReturnValue>,
}

/// `DeleteItem`'s response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DeleteItemOutput {
    /// The deleted item, with `ReturnValues=ALL_OLD` when there was one.
    pub attributes: Option<Item>,
}
