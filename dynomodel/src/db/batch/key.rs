//! Keys inside a batch: an ordered identity to find duplicates and match answers to requests, the
//! checks DynamoDB would otherwise make on the whole request.

use crate::db::names::ItemName;
use crate::error::{Error, Result};
use crate::value::{AttributeValue, Item, Number};

/// A key's identity: its attributes by name, with values compared as DynamoDB compares keys
/// (numbers by value, so `1.50` and `1.5` are one key). `AttributeValue` itself has no order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct KeyId(Vec<(String, Scalar)>);

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Scalar {
    S(String),
    N(Number),
    B(Vec<u8>),
    /// Not a key type; kept by its wire form so that identity stays total.
    Other(String),
}

impl KeyId {
    /// The identity of a key item.
    pub(crate) fn of(key: &Item) -> KeyId {
        KeyId(
            key.iter()
                .map(|(name, value)| (name.clone(), Scalar::of(value)))
                .collect(),
        )
    }

    /// The identity of the key of `item`, whose key attributes are `names` (in any order: the
    /// identity orders them by name, as a key item does).
    pub(crate) fn of_item<'n>(item: &Item, names: impl IntoIterator<Item = &'n String>) -> KeyId {
        let mut key: Vec<(String, Scalar)> = names
            .into_iter()
            .filter_map(|name| item.get(name).map(|v| (name.clone(), Scalar::of(v))))
            .collect();
        key.sort_by(|a, b| a.0.cmp(&b.0));
        key.dedup_by(|a, b| a.0 == b.0);
        KeyId(key)
    }
}

impl KeyId {
    /// The key as an item again: for naming the key in an error, off the normal path. A value that
    /// was not a key type comes back as its wire form, a string.
    pub(crate) fn to_item(&self) -> Item {
        self.0
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    Scalar::S(s) | Scalar::Other(s) => AttributeValue::S(s.clone()),
                    Scalar::N(n) => AttributeValue::N(*n),
                    Scalar::B(b) => AttributeValue::B(b.clone()),
                };
                (name.clone(), value)
            })
            .collect()
    }
}

impl Scalar {
    fn of(value: &AttributeValue) -> Scalar {
        match value {
            AttributeValue::S(s) => Scalar::S(s.clone()),
            AttributeValue::N(n) => Scalar::N(*n),
            AttributeValue::B(b) => Scalar::B(b.clone()),
            other => Scalar::Other(other.to_string()),
        }
    }
}

/// Rejects, before anything is sent, a key DynamoDB would reject with the whole request: an empty
/// string or binary key value. Checking here keeps one bad key from failing a chunk after others
/// were written.
pub(crate) fn check_key(what: &str, model: &str, table: &str, key: &Item) -> Result<()> {
    for (name, value) in key {
        let empty = match value {
            AttributeValue::S(s) if s.is_empty() => "string",
            AttributeValue::B(b) if b.is_empty() => "binary",
            _ => continue,
        };
        // DynamoDB's sentence, after the mapper's context ("One or more parameter values are not
        // valid. The AttributeValue for a key attribute cannot contain an empty string value.
        // Key: <name>", ValidationException on every item operation).
        return Err(Error::validation(format!(
            "{what}: the key of {} is not valid: One or more parameter values are not valid. The \
             AttributeValue for a key attribute cannot contain an empty {empty} value. Key: {name}",
            ItemName { model, key, table }
        )));
    }
    Ok(())
}
