//! [`Scope`]: what one read positions. A cursor given to the read is checked against it before
//! anything is sent; the read's cursors (after its last item, or at a `LastEvaluatedKey`) are made
//! from it.

use std::borrow::Cow;
use std::sync::Arc;

use crate::backend::{CreateTableInput, KeyType, ScalarAttributeType};
use crate::error::{Error, Result};
use crate::query::cursor::{
    Cursor, CursorKey, InvalidCursor, InvalidCursorReason, KeyAttributes, Operation, Position,
};
use crate::value::{AttributeValue, Item};

/// DynamoDB's bounds on key values (bytes): a partition key holds up to 2048, a sort key 1024.
const MAX_HASH_VALUE: usize = 2048;
const MAX_RANGE_VALUE: usize = 1024;

/// One key attribute of a read's positions.
#[derive(Debug, Clone)]
struct KeySlot {
    /// Borrowed from the model's constants where it can be (a read builds its scope each time).
    name: Cow<'static, str>,
    /// The largest value DynamoDB takes for it (the smaller one when it keys both the table and
    /// the index in different roles).
    max: usize,
}

/// What a read positions: operation, table, index, segment, key attributes, and for a Query the
/// partition.
#[derive(Debug, Clone)]
pub(crate) struct Scope {
    operation: Operation,
    table: String,
    index: Option<String>,
    segment: Option<(u32, u32)>,
    keys: Vec<KeySlot>,
    partition: Option<(&'static str, AttributeValue)>,
    signer: Option<Arc<CursorKey>>,
}

impl Scope {
    /// A read of `table` (or of its `index`), whose cursors `signer` signs.
    pub(crate) fn new(
        operation: Operation,
        table: String,
        index: Option<String>,
        signer: Option<Arc<CursorKey>>,
    ) -> Scope {
        Scope {
            operation,
            table,
            index,
            segment: None,
            keys: Vec::with_capacity(4),
            partition: None,
            signer,
        }
    }

    /// Adds a key attribute (the table's first, then the index's; a repeated name is kept once).
    pub(crate) fn key(mut self, name: impl Into<Cow<'static, str>>, role: KeyType) -> Scope {
        let name = name.into();
        let max = match role {
            KeyType::Hash => MAX_HASH_VALUE,
            KeyType::Range => MAX_RANGE_VALUE,
        };
        match self.keys.iter_mut().find(|slot| slot.name == name) {
            Some(slot) => slot.max = slot.max.min(max),
            None => self.keys.push(KeySlot { name, max }),
        }
        self
    }

    /// A Query's partition: the attribute and its value.
    pub(crate) fn partition(mut self, name: &'static str, value: AttributeValue) -> Scope {
        self.partition = Some((name, value));
        self
    }

    /// One segment of a parallel scan.
    pub(crate) fn segment(mut self, segment: Option<(u32, u32)>) -> Scope {
        self.segment = segment;
        self
    }

    /// The key attributes a position holds.
    pub(crate) fn key_names(&self) -> Vec<&str> {
        self.keys.iter().map(|slot| &*slot.name).collect()
    }

    /// The read in words: ``a Query of index `i` of table `t` ``.
    fn describe(&self) -> String {
        let mut read = format!("a {} of ", self.operation.name());
        if let Some(index) = &self.index {
            read.push_str(&format!("index `{index}` of "));
        }
        read.push_str(&format!("table `{}`", self.table));
        if let Some((segment, total)) = self.segment {
            read.push_str(&format!(" (segment {segment} of {total})"));
        }
        read
    }

    /// The error refusing a cursor given to this read.
    pub(crate) fn refuse(&self, reason: InvalidCursorReason) -> Error {
        Error::InvalidCursor(Box::new(InvalidCursor::refused(
            reason,
            &self.describe(),
            &self.table,
            self.index.as_deref(),
        )))
    }

    /// Checks a cursor given to this read (signature, then what it positions, with the key
    /// attributes' types from `schema`) and gives the key to start after.
    pub(crate) fn start(&self, cursor: Cursor, schema: &CreateTableInput) -> Result<Item> {
        cursor
            .verify(self.signer.as_deref())
            .and_then(|()| self.fits(cursor.position(), schema))
            .map_err(|reason| self.refuse(reason))?;
        Ok(cursor.into_key())
    }

    /// The cursor at a `LastEvaluatedKey` of this read.
    pub(crate) fn at(self, key: Item) -> Cursor {
        self.into_cursor(key)
    }

    /// The cursor after `item`, an item this read returns.
    ///
    /// Errors: the item lacks a key attribute of the read (a projection without it, an item of
    /// another index), or is of another partition: a [`Error::Validation`] naming it (the
    /// application's mistake, not a client's).
    pub(crate) fn after<T: KeyAttributes + ?Sized>(self, item: &T) -> Result<Cursor> {
        let key = item.key_attributes(&self.key_names())?;
        self.fits_key(&key, None).map_err(|reason| {
            Error::validation(format!(
                "no cursor can be made after this item for {}: {reason}",
                self.describe()
            ))
        })?;
        Ok(self.into_cursor(key))
    }

    /// A cursor of this read at `key`, taking the read's table and index names rather than copying
    /// them.
    fn into_cursor(self, key: Item) -> Cursor {
        let Scope {
            operation,
            table,
            index,
            segment,
            signer,
            ..
        } = self;
        let position = Position {
            operation,
            table,
            index,
            segment,
            key,
        };
        Cursor::issued(position, signer)
    }

    /// Whether `position` is one of this read's: same operation, table, index and segment, and a
    /// key that [fits](Scope::fits_key).
    fn fits(
        &self,
        position: &Position,
        schema: &CreateTableInput,
    ) -> std::result::Result<(), InvalidCursorReason> {
        if position.operation != self.operation {
            return Err(InvalidCursorReason::OtherOperation {
                found: position.operation.name(),
            });
        }
        if position.table != self.table {
            return Err(InvalidCursorReason::OtherTable {
                found: position.table.clone(),
            });
        }
        if position.index != self.index {
            return Err(InvalidCursorReason::OtherIndex {
                found: position.index.clone(),
            });
        }
        if position.segment != self.segment {
            return Err(InvalidCursorReason::OtherSegment {
                found: position.segment,
            });
        }
        self.fits_key(&position.key, Some(schema))
    }

    /// Whether `key` holds exactly the read's key attributes, of the schema's types (when given)
    /// and DynamoDB's sizes, in its partition.
    fn fits_key(
        &self,
        key: &Item,
        schema: Option<&CreateTableInput>,
    ) -> std::result::Result<(), InvalidCursorReason> {
        for slot in &self.keys {
            let Some(value) = key.get(&*slot.name) else {
                return Err(InvalidCursorReason::MissingAttribute {
                    attribute: slot.name.to_string(),
                });
            };
            check_value(&slot.name, value, slot.max, schema)?;
        }
        if let Some(extra) = key
            .keys()
            .find(|name| !self.keys.iter().any(|slot| slot.name == name.as_str()))
        {
            return Err(InvalidCursorReason::ExtraAttribute {
                attribute: extra.clone(),
            });
        }
        match &self.partition {
            Some((name, value)) if key.get(*name) != Some(value) => {
                Err(InvalidCursorReason::OtherPartition {
                    attribute: (*name).to_owned(),
                })
            }
            _ => Ok(()),
        }
    }
}

/// A key value: S, N or B, of the schema's type, and of a size DynamoDB takes.
fn check_value(
    name: &str,
    value: &AttributeValue,
    max: usize,
    schema: Option<&CreateTableInput>,
) -> std::result::Result<(), InvalidCursorReason> {
    let (found, size) = match value {
        AttributeValue::S(s) => (ScalarAttributeType::S, Some(s.len())),
        AttributeValue::N(_) => (ScalarAttributeType::N, None),
        AttributeValue::B(b) => (ScalarAttributeType::B, Some(b.len())),
        _ => {
            return Err(InvalidCursorReason::Malformed {
                detail: "a key attribute that is not S, N or B",
            })
        }
    };
    let expected = schema.and_then(|schema| {
        schema
            .attribute_definitions
            .iter()
            .find(|definition| definition.attribute_name == name)
            .map(|definition| definition.attribute_type)
    });
    if let Some(expected) = expected.filter(|expected| *expected != found) {
        return Err(InvalidCursorReason::AttributeType {
            attribute: name.to_owned(),
            expected,
            found,
        });
    }
    match size {
        Some(size) if size == 0 || size > max => Err(InvalidCursorReason::KeyValueSize {
            attribute: name.to_owned(),
            size,
            max,
        }),
        _ => Ok(()),
    }
}
