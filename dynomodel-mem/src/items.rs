//! The single-item operations: PutItem, GetItem, DeleteItem and UpdateItem.
//!
//! Each runs its checks in DynamoDB's order (dynalite's `validations/*.js`, recorded against the live
//! service): parameter constraints, placeholder maps without expressions, attribute values,
//! ReturnValues and item size, then the expressions; only then the table, the key and the item. Nothing
//! is written until every check has passed, so a failed request leaves the table as it was.

use dynomodel::{
    DeleteItemInput, DeleteItemOutput, Error, GetItemInput, GetItemOutput, Item, PutItemInput,
    PutItemOutput, Result, ReturnValue, ReturnValuesOnConditionCheckFailure, UpdateItemInput,
    UpdateItemOutput, MAX_ITEM_SIZE,
};

use crate::expr::ast::{Condition, Path};
use crate::expr::eval::{self, Step};
use crate::expr::{projection, update, ExprKind, Parsed};
use crate::key::KeyValue;
use crate::read;
use crate::request::{self, Maps, Param};
use crate::state::State;
use crate::table::{Table, TableSchema};
use crate::validate;

/// The text of every ConditionalCheckFailedException on a single-item write (real DynamoDB and DynamoDB
/// Local 3.3 alike).
pub(crate) const CONDITION_FAILED: &str = "The conditional request failed";

/// A write condition may not look inside a key attribute (`sk.x`, `gk[0]`): DynamoDB Local rejects it
/// as reads do, before evaluating anything (found by the differential test).
fn condition_keys(
    table: &Table,
    condition: Option<&Parsed<Condition>>,
    maps: Maps<'_>,
) -> Result<()> {
    let Some(condition) = condition else {
        return Ok(());
    };
    let mut paths = Vec::new();
    read::condition_paths(&condition.tree, &mut paths);
    request::with_placeholders(maps, |ph| read::scalar_keys(table, &paths, ph))
}

/// Checks `condition` against the current item (an empty one when there is none); on failure the error
/// carries the item when the request asked for it with `ReturnValuesOnConditionCheckFailure=ALL_OLD`.
fn check_condition(
    condition: Option<&Parsed<Condition>>,
    current: Option<&Item>,
    maps: Maps<'_>,
    on_failure: Option<ReturnValuesOnConditionCheckFailure>,
) -> Result<()> {
    let Some(condition) = condition else {
        return Ok(());
    };
    let empty = Item::new();
    let holds = request::with_placeholders(maps, |ph| {
        eval::evaluate(&condition.tree, current.unwrap_or(&empty), ph)
    });
    if holds {
        return Ok(());
    }
    let item = match on_failure {
        Some(ReturnValuesOnConditionCheckFailure::AllOld) => current.cloned(),
        _ => None,
    };
    Err(Error::ConditionalCheckFailed {
        message: CONDITION_FAILED.into(),
        item,
    })
}

/// The start of the nesting-limit message.
const NESTING: &str = "Nesting Levels have exceeded supported limits";

/// `None` for an empty map: DynamoDB leaves `Attributes` out rather than sending `{}`.
fn non_empty(item: Item) -> Option<Item> {
    (!item.is_empty()).then_some(item)
}

impl State {
    /// `PutItem`.
    pub fn put_item(&mut self, input: PutItemInput) -> Result<PutItemOutput> {
        validate::table_name(&input.table_name)?;
        let maps = Maps {
            names: input.expression_attribute_names.as_ref(),
            values: input.expression_attribute_values.as_ref(),
        };
        let params: [Param<'_>; 1] = [(ExprKind::Condition, input.condition_expression.as_deref())];
        request::params_present(maps, &params)?;
        validate::attribute_values(&input.item)?;
        validate::return_values_none_or_all_old(input.return_values)?;
        validate::item_size_limit(&input.item)?;
        let prepared = request::prepare(self.cache(), maps, &params)?;
        let table = self.table_mut(&input.table_name)?;
        let key = validate::item_key(&input.item, &table.schema)?;
        validate::index_keys(&input.item, &table.schema)?;
        condition_keys(table, prepared.condition(), maps)?;
        check_condition(
            prepared.condition(),
            table.get(&key),
            maps,
            input.return_values_on_condition_check_failure,
        )?;
        let old = table.put(key, input.item);
        Ok(PutItemOutput {
            attributes: old.filter(|_| input.return_values == Some(ReturnValue::AllOld)),
        })
    }

    /// `GetItem`. Every read is strongly consistent in memory, so `ConsistentRead` changes nothing.
    pub fn get_item(&self, input: &GetItemInput) -> Result<GetItemOutput> {
        validate::table_name(&input.table_name)?;
        let maps = Maps {
            names: input.expression_attribute_names.as_ref(),
            values: None,
        };
        let params: [Param<'_>; 1] =
            [(ExprKind::Projection, input.projection_expression.as_deref())];
        request::params_present(maps, &params)?;
        validate::attribute_values(&input.key)?;
        let prepared = request::prepare(self.cache(), maps, &params)?;
        let table = self.table(&input.table_name)?;
        if let Some(p) = prepared.projection() {
            // A projection may not look inside a key attribute either (`pk[0]`, `sk.x`).
            let paths: Vec<&Path> = p.tree.paths.iter().collect();
            request::with_placeholders(maps, |ph| read::scalar_keys(table, &paths, ph))?;
        }
        let key = validate::request_key(&input.key, &table.schema)?;
        let item = table.get(&key).map(|item| match prepared.projection() {
            // An existing item whose projected attributes are all missing comes back as an empty
            // `Item`, not as no item (the item exists).
            Some(p) => request::with_placeholders(maps, |ph| {
                let paths: Vec<Vec<Step>> = p
                    .tree
                    .paths
                    .iter()
                    .filter_map(|path| eval::resolve(path, ph))
                    .collect();
                projection::project(item, &paths)
            }),
            None => item.clone(),
        });
        Ok(GetItemOutput { item })
    }

    /// `DeleteItem`.
    pub fn delete_item(&mut self, input: &DeleteItemInput) -> Result<DeleteItemOutput> {
        validate::table_name(&input.table_name)?;
        let maps = Maps {
            names: input.expression_attribute_names.as_ref(),
            values: input.expression_attribute_values.as_ref(),
        };
        let params: [Param<'_>; 1] = [(ExprKind::Condition, input.condition_expression.as_deref())];
        request::params_present(maps, &params)?;
        validate::attribute_values(&input.key)?;
        validate::return_values_none_or_all_old(input.return_values)?;
        let prepared = request::prepare(self.cache(), maps, &params)?;
        let table = self.table_mut(&input.table_name)?;
        let key = validate::request_key(&input.key, &table.schema)?;
        condition_keys(table, prepared.condition(), maps)?;
        check_condition(
            prepared.condition(),
            table.get(&key),
            maps,
            input.return_values_on_condition_check_failure,
        )?;
        let old = table.delete(&key);
        Ok(DeleteItemOutput {
            attributes: old.filter(|_| input.return_values == Some(ReturnValue::AllOld)),
        })
    }

    /// `UpdateItem`: applies the update to the current item, or to an item holding only the key when
    /// there is none (so an UpdateItem without an UpdateExpression creates the bare key item).
    pub fn update_item(&mut self, input: &UpdateItemInput) -> Result<UpdateItemOutput> {
        validate::table_name(&input.table_name)?;
        let maps = Maps {
            names: input.expression_attribute_names.as_ref(),
            values: input.expression_attribute_values.as_ref(),
        };
        let params: [Param<'_>; 2] = [
            (ExprKind::Update, input.update_expression.as_deref()),
            (ExprKind::Condition, input.condition_expression.as_deref()),
        ];
        request::params_present(maps, &params)?;
        validate::attribute_values(&input.key)?;
        let prepared = request::prepare(self.cache(), maps, &params)?;
        let table = self.table_mut(&input.table_name)?;
        let key = validate::request_key(&input.key, &table.schema)?;
        let key_names: Vec<&str> = table.schema.key_attributes().map(|(n, _)| n).collect();
        let index_keys = index_key_names(&table.schema);
        condition_keys(table, prepared.condition(), maps)?;
        let old = table.get(&key);
        // The condition comes first: DynamoDB Local 3.3 answers ConditionalCheckFailed for a request
        // that also updates a key attribute (dynalite checks the key first, but without a recording).
        check_condition(
            prepared.condition(),
            old,
            maps,
            input.return_values_on_condition_check_failure,
        )?;
        let base = old.cloned().unwrap_or_else(|| input.key.clone());
        let updated = match prepared.update() {
            Some(u) => Some(request::with_placeholders(maps, |ph| {
                update::check_key_attributes(&u.tree, ph, &key_names)?;
                update::check_index_key_paths(&u.tree, ph, &index_keys)?;
                update::apply(&u.tree, &base, ph, &key_names)
            })?),
            None => None,
        };
        let new = updated
            .as_ref()
            .map_or_else(|| base.clone(), |u| u.item.clone());
        check_updated_item(&new, old, updated.as_ref(), &table.schema)?;
        let attributes = match input.return_values.unwrap_or_default() {
            ReturnValue::None => None,
            ReturnValue::AllOld => old.cloned(),
            ReturnValue::AllNew => Some(new.clone()),
            ReturnValue::UpdatedOld => match (&updated, old) {
                (Some(u), Some(old)) => non_empty(u.updated_old(old)),
                _ => None,
            },
            ReturnValue::UpdatedNew => updated.as_ref().and_then(|u| non_empty(u.updated_new())),
        };
        table.put(key, new);
        Ok(UpdateItemOutput { attributes })
    }
}

/// The checks on an item an update produced, in dynalite's order: the index keys the update wrote
/// (empty values; wrong types on an existing item), nesting depth and sets, then the size, then every
/// index key.
fn check_updated_item(
    new: &Item,
    old: Option<&Item>,
    updated: Option<&update::Updated>,
    schema: &TableSchema,
) -> Result<()> {
    if let Some(updated) = updated {
        for path in &updated.written {
            let [Step::Key(name)] = path.as_slice() else {
                continue;
            };
            if !index_key_names(schema).contains(&name.as_str()) {
                continue;
            }
            let Some(value) = new.get(name) else {
                continue;
            };
            // A value that can never be a key (a list, a map, a set, BOOL, NULL), before any type
            // comparison: DynamoDB Local's wording, as for table keys (found by the differential test).
            validate::scalar_key_value(value)?;
            let key = KeyValue::from_attribute(value, schema.attribute_type(name));
            if let Some(kind) = key.as_ref().and_then(KeyValue::empty_kind) {
                // DynamoDB Local 3.3's text for an update (PutItem's names the index instead).
                return Err(Error::validation(format!(
                    "One or more parameter values are not valid. The update expression attempted to \
                     update a secondary index key to a value that is not supported. The AttributeValue \
                     for a key attribute cannot contain an empty {kind} value."
                )));
            }
            if key.is_none() && old.is_some() {
                // Real DynamoDB's text for an existing item (dynalite's recorded "should return
                // ValidationException if trying to update existing index"); a new item gets the
                // PutItem text from `validate::index_keys` below (dynalite's recorded "trying to
                // update wrong type on index"). DynamoDB Local 3.3 says "One or more parameter values
                // were invalid: Type mismatch for Index Key" for both.
                return Err(Error::validation(
                    "The update expression attempted to update the secondary index key to \
                     unsupported type",
                ));
            }
        }
    }
    validate::attribute_values(new).map_err(|e| {
        if e.message().starts_with(NESTING) {
            // DynamoDB Local 3.3 words the limit without PutItem's explanation when an update
            // builds the deep value.
            Error::validation(NESTING)
        } else {
            e
        }
    })?;
    if dynomodel::item_size(new) > MAX_ITEM_SIZE {
        return Err(Error::validation(
            "Item size to update has exceeded the maximum allowed size",
        ));
    }
    validate::index_keys(new, schema)
}

/// The key attributes of the table's indexes.
fn index_key_names(schema: &TableSchema) -> Vec<&str> {
    let gsis = schema
        .global_secondary_indexes
        .iter()
        .flat_map(|i| i.key_schema.iter());
    let lsis = schema
        .local_secondary_indexes
        .iter()
        .flat_map(|i| i.key_schema.iter());
    gsis.chain(lsis)
        .map(|k| k.attribute_name.as_str())
        .collect()
}
