//! `INSERT`, `UPDATE` and `DELETE` planned onto PutItem, UpdateItem and DeleteItem (and, in a
//! transaction, onto the matching TransactWriteItems actions).

use std::collections::BTreeMap;

use dynomodel::backend::{
    Backend, DeleteItemInput, PutItemInput, ReturnConsumedCapacity, ReturnValue,
    ReturnValuesOnConditionCheckFailure, UpdateItemInput,
};
use dynomodel::{AttributeValue, Error, Item, Result};

use super::ast::{Expr, Path, Statement};
use super::errors;
use super::plan::{and_all, Gen};
use super::schema::{prevalidate_condition, prevalidate_update, Schema};

/// The generated `ExpressionAttributeNames` and `ExpressionAttributeValues` of a plan.
pub(crate) type Placeholders = (Option<BTreeMap<String, String>>, Option<Item>);

/// A write statement planned onto one item operation.
#[derive(Debug, Clone)]
pub(crate) enum Write {
    /// `INSERT`: a put on the condition that the key is new.
    Insert {
        /// The table.
        table: String,
        /// The item.
        item: Item,
        /// Its key (for duplicate checks).
        key: Item,
        /// `attribute_not_exists(<hash key>)`.
        condition: String,
    },
    /// `UPDATE`: an update on the condition that the item exists (and the statement's conditions).
    Update {
        /// The table.
        table: String,
        /// The key.
        key: Item,
        /// `SET … REMOVE …`.
        update: String,
        /// `attribute_exists(<hash key>) AND …`.
        condition: String,
        /// What `RETURNING` asks for.
        return_values: Option<ReturnValue>,
    },
    /// `DELETE`: a delete, on the statement's conditions if any.
    Delete {
        /// The table.
        table: String,
        /// The key.
        key: Item,
        /// The conditions beyond the key.
        condition: Option<String>,
        /// `ALL_OLD` for `RETURNING ALL OLD *`.
        return_values: Option<ReturnValue>,
    },
}

impl Write {
    /// Plans a write statement (placeholders go into `ph`).
    pub(crate) fn plan(schema: &Schema, ph: &mut Gen<'_>, statement: &Statement) -> Result<Write> {
        let table = schema.table.clone();
        match statement {
            Statement::Insert {
                returning: Some(_), ..
            } => Err(Error::validation(errors::INSERT_RETURNING)),
            Statement::Insert { value, .. } => {
                let AttributeValue::M(item) = ph.resolve(value).map_err(|e| match value {
                    Expr::Map(_) => e,
                    _ => Error::validation(errors::VALUE_NOT_TUPLE),
                })?
                else {
                    return Err(Error::validation(errors::VALUE_NOT_TUPLE));
                };
                if let Some(missing) = schema.keys.all().find(|k| !item.contains_key(*k)) {
                    return Err(errors::missing_key(missing));
                }
                let key: Item = schema
                    .keys
                    .all()
                    .filter_map(|k| item.get(k).map(|v| (k.clone(), v.clone())))
                    .collect();
                schema.check_types(&key)?;
                let hash = ph.path(&attribute(&schema.keys.hash));
                Ok(Write::Insert {
                    table,
                    item,
                    key,
                    condition: format!("attribute_not_exists({hash})"),
                })
            }
            Statement::Update {
                assignments,
                filter,
                returning,
                ..
            } => {
                prevalidate_update(ph, assignments)?;
                prevalidate_condition(ph, filter)?;
                schema.check_nested_key_paths(filter)?;
                let (key, rest) = schema.key(ph, filter)?;
                let update = ph.update(assignments)?;
                let hash = ph.path(&attribute(&schema.keys.hash));
                let mut condition = format!("attribute_exists({hash})");
                if let Some(more) = and_all(ph, &rest)? {
                    condition = format!("{condition} AND {more}");
                }
                let return_values = returning.map(|r| match (r.all, r.new) {
                    (true, false) => ReturnValue::AllOld,
                    (false, false) => ReturnValue::UpdatedOld,
                    (true, true) => ReturnValue::AllNew,
                    (false, true) => ReturnValue::UpdatedNew,
                });
                Ok(Write::Update {
                    table,
                    key,
                    update,
                    condition,
                    return_values,
                })
            }
            Statement::Delete {
                filter, returning, ..
            } => {
                let return_values = match returning {
                    None => None,
                    Some(r) if r.all && !r.new => Some(ReturnValue::AllOld),
                    Some(r) => return Err(errors::delete_returning(&r.text())),
                };
                prevalidate_condition(ph, filter)?;
                schema.check_nested_key_paths(filter)?;
                let (key, rest) = schema.key(ph, filter)?;
                // Deleting a missing item succeeds whatever the conditions say (DynamoDB Local
                // 3.3.1), so they apply only to an item that exists.
                let condition = match and_all(ph, &rest)? {
                    Some(more) => {
                        let hash = ph.path(&attribute(&schema.keys.hash));
                        // `(a) AND (b)` binds tighter than OR: no parentheses (DynamoDB refuses
                        // redundant ones).
                        Some(format!("attribute_not_exists({hash}) OR {more}"))
                    }
                    None => None,
                };
                Ok(Write::Delete {
                    table,
                    key,
                    condition,
                    return_values,
                })
            }
            Statement::Select { .. } => Err(Error::validation(errors::MIXED_BATCH)),
        }
    }

    /// The table and key written (for duplicate checks).
    pub(crate) fn target(&self) -> (String, Item) {
        match self {
            // An INSERT's key, so that it clashes with an UPDATE or DELETE of the same item.
            Write::Insert { table, key, .. }
            | Write::Update { table, key, .. }
            | Write::Delete { table, key, .. } => (table.clone(), key.clone()),
        }
    }

    /// Runs it; returns the capacity consumed when asked for, and the item `RETURNING` asked for.
    pub(crate) async fn run(
        self,
        backend: &dyn Backend,
        placeholders: Placeholders,
        on_failure: Option<ReturnValuesOnConditionCheckFailure>,
        consumed: Option<ReturnConsumedCapacity>,
    ) -> Result<(Option<dynomodel::backend::ConsumedCapacity>, Option<Item>)> {
        let (names, values) = placeholders;
        match self {
            Write::Insert {
                table,
                item,
                condition,
                ..
            } => backend
                .put_item(PutItemInput {
                    table_name: table,
                    item,
                    condition_expression: Some(condition),
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                    return_consumed_capacity: consumed,
                    ..Default::default()
                })
                .await
                .map(|o| (o.consumed_capacity, None))
                .map_err(|e| match e {
                    Error::ConditionalCheckFailed { .. } => errors::duplicate(),
                    other => errors::unprefixed(other),
                }),
            Write::Update {
                table,
                key,
                update,
                condition,
                return_values,
            } => backend
                .update_item(UpdateItemInput {
                    table_name: table,
                    key,
                    update_expression: Some(update),
                    condition_expression: Some(condition),
                    return_values,
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                    return_values_on_condition_check_failure: on_failure,
                    return_consumed_capacity: consumed,
                    ..Default::default()
                })
                .await
                .map(|o| (o.consumed_capacity, o.attributes))
                .map_err(errors::unprefixed),
            Write::Delete {
                table,
                key,
                condition,
                return_values,
            } => backend
                .delete_item(DeleteItemInput {
                    table_name: table,
                    key,
                    condition_expression: condition,
                    return_values,
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                    return_values_on_condition_check_failure: on_failure,
                    return_consumed_capacity: consumed,
                    ..Default::default()
                })
                .await
                .map(|o| (o.consumed_capacity, o.attributes))
                .map_err(errors::unprefixed),
        }
    }
}

/// The path of a top-level attribute.
pub(crate) fn attribute(name: &str) -> Path {
    Path {
        root: name.to_owned(),
        steps: Vec::new(),
    }
}
