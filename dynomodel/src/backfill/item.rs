//! One item of a backfill: is it behind, and the conditional write that brings it up to date.
//!
//! The test is generic: the stored item is decoded through the model's read path (which upcasts an
//! older item version), encoded again ([`Model::to_item`]), and compared with what is stored. Any
//! difference (an older item version, a composite or index key attribute missing or stale, a field
//! a newer version fills with its default) is a rewrite; nothing special-cases either kind.
//!
//! The rewrite is an `UpdateItem` of only the attributes that differ (`SET` those the encoding
//! has another value for or adds, `REMOVE` those of the model's attributes it no longer writes),
//! so attributes the model does not declare are left as they are, and the request is as small as
//! the change. It is conditional on the item not having changed since it was read:
//!
//! - a model with a `#[version]` attribute: that attribute as read (every mapper write bumps it),
//!   and each `#[dynomodel(counter)]` attribute as read (counter updates do not bump it): one
//!   comparison per attribute, whatever the item's size;
//! - otherwise: every stored attribute as read (its key aside) and every model attribute the item
//!   lacked still absent. Up to DynamoDB's 300 operators per expression, that is about 150
//!   attributes; an item with more is reported as failed, naming the remedy (a `#[version]`).
//!
//! Both also require the item to exist (`attribute_exists` on the hash key): an `UpdateItem`
//! would otherwise recreate an item deleted meanwhile. The backfill does not bump the version:
//! it changes how the item is stored, not what it says, so a writer holding a copy read before
//! the backfill is not turned away.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::backend::{
    ReturnConsumedCapacity, ReturnValuesOnConditionCheckFailure, UpdateItemInput,
};
use crate::db::decode::{decode_item, TableKey};
use crate::error::{Error, Result};
use crate::model::Model;
use crate::value::{item_size, AttributeValue, Item};

/// DynamoDB's limit on operators and functions in one expression.
const MAX_OPERATORS: usize = 300;
/// DynamoDB's limit on an expression's length, in bytes.
const MAX_EXPRESSION_BYTES: usize = 4096;

/// What one stored item needs.
#[derive(Debug)]
pub(crate) enum Needs {
    /// Nothing: the stored item is what the model writes.
    Nothing,
    /// This conditional update, which costs about `estimate` write units.
    Rewrite {
        input: Box<UpdateItemInput>,
        estimate: f64,
    },
}

/// Decodes `stored` as an `M` the way every read does (upcasting an older item version), naming
/// the item by key when it does not decode.
pub(crate) fn decode_stored<M: Model>(stored: Item, table: &str) -> Result<M> {
    decode_item::<M>(stored, || table.to_owned())
}

/// Whether `stored` (an item of `M` in `table`) is behind, and the rewrite that brings it up to
/// date. Errors: the item does not decode ([`Error::ItemDecode`]), the decoded value does not
/// encode, or the rewrite would break an expression limit.
pub(crate) fn needs<M: Model>(table: &str, stored: &Item) -> Result<Needs> {
    let value = decode_stored::<M>(stored.clone(), table)?;
    let current = value.to_item()?;
    let keys = TableKey::of::<M>();
    let is_key = |name: &str| keys.names().any(|k| k == name);

    let set: Vec<(&String, &AttributeValue)> = current
        .iter()
        .filter(|(name, value)| !is_key(name) && stored.get(*name) != Some(*value))
        .collect();
    let remove: Vec<&str> = M::ATTRIBUTES
        .iter()
        .copied()
        .filter(|name| !is_key(name) && stored.contains_key(*name) && !current.contains_key(*name))
        .collect();
    if set.is_empty() && remove.is_empty() {
        return Ok(Needs::Nothing);
    }

    let mut request = Request::default();
    // The update.
    let mut update = String::new();
    for (i, (name, value)) in set.iter().enumerate() {
        let name = request.name(name);
        let value = request.value((*value).clone());
        update.push_str(if i == 0 { "SET " } else { ", " });
        let _ = write!(update, "{name} = {value}");
    }
    for (i, name) in remove.iter().enumerate() {
        let name = request.name(name);
        update.push_str(if i == 0 { " REMOVE " } else { ", " });
        update.push_str(&name);
    }
    let update = update.trim_start().to_owned();

    // The condition: the item exists and has not changed since it was read.
    let mut condition = format!("attribute_exists({})", request.name(M::HASH_KEY));
    let mut operators = 1;
    let mut guard = |request: &mut Request, name: &str| {
        let placeholder = request.name(name);
        match stored.get(name) {
            Some(value) => {
                let value = request.value(value.clone());
                let _ = write!(condition, " AND {placeholder} = {value}");
            }
            None => {
                let _ = write!(condition, " AND attribute_not_exists({placeholder})");
            }
        }
        operators += 2;
    };
    match M::VERSION_ATTRIBUTE {
        Some(version) => {
            guard(&mut request, version);
            for counter in M::COUNTERS {
                guard(&mut request, counter);
            }
        }
        None => {
            for name in stored.keys().filter(|name| !is_key(name)) {
                guard(&mut request, name);
            }
            for name in M::ATTRIBUTES
                .iter()
                .filter(|name| !is_key(name) && !stored.contains_key(**name))
            {
                guard(&mut request, name);
            }
        }
    }
    if operators > MAX_OPERATORS
        || condition.len() > MAX_EXPRESSION_BYTES
        || set.len() + remove.len() > MAX_OPERATORS
        || update.len() > MAX_EXPRESSION_BYTES
    {
        return Err(Error::validation(format!(
            "the backfill cannot condition the rewrite of this item of `{table}` on it being \
             unchanged within DynamoDB's expression limits ({} stored attributes, {} to change): \
             give the model a `#[version]` field, which the condition then compares alone",
            stored.len(),
            set.len() + remove.len()
        )));
    }

    // Put and update charge the larger of the item before and after, per started kilobyte.
    let after: usize = item_size(stored)
        + set
            .iter()
            .map(|(name, value)| name.len() + crate::value::attribute_size(value))
            .sum::<usize>();
    let estimate = (after.max(item_size(stored)) as f64 / 1024.0)
        .ceil()
        .max(1.0);

    Ok(Needs::Rewrite {
        input: Box::new(UpdateItemInput {
            table_name: table.to_owned(),
            key: keys.key_of(stored),
            update_expression: Some(update),
            condition_expression: Some(condition),
            expression_attribute_names: Some(request.names),
            expression_attribute_values: Some(request.values),
            return_values_on_condition_check_failure: Some(
                ReturnValuesOnConditionCheckFailure::AllOld,
            ),
            return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
            ..Default::default()
        }),
        estimate,
    })
}

/// The placeholders of one request: each attribute name once (`#a0`…), each value once (`:v0`…).
#[derive(Default)]
struct Request {
    names: BTreeMap<String, String>,
    by_name: BTreeMap<String, String>,
    values: Item,
}

impl Request {
    fn name(&mut self, name: &str) -> String {
        if let Some(placeholder) = self.by_name.get(name) {
            return placeholder.clone();
        }
        let placeholder = format!("#a{}", self.by_name.len());
        self.by_name.insert(name.to_owned(), placeholder.clone());
        self.names.insert(placeholder.clone(), name.to_owned());
        placeholder
    }

    fn value(&mut self, value: AttributeValue) -> String {
        let placeholder = format!(":v{}", self.values.len());
        self.values.insert(placeholder.clone(), value);
        placeholder
    }
}
