//! The single-item operations: PutItem, GetItem, DeleteItem and UpdateItem, and the write steps they
//! share with the actions of a transaction.
//!
//! Each operation runs its checks in DynamoDB's order (dynalite's `validations/*.js`, recorded against the
//! live service): parameter constraints, placeholder maps without expressions, attribute values,
//! ReturnValues and item size, then the expressions; only then the table, the key and the item.
//!
//! Every write is split in three steps, so that a transaction runs exactly the same checks as the
//! single-item operations:
//! - **check** (`check_put`, `check_delete`, `check_update`): everything the request alone decides,
//!   ending with the parsed expressions ([`Prepared`]);
//! - **plan** (`plan_put`, `plan_key_condition`, `plan_update`): the key, index and condition checks
//!   and the new item, computed against a `&Table` without writing;
//! - **commit**: [`Table::put`] or [`Table::delete`], the only ways an item is written (they keep the
//!   indexes in step).
//!
//! Nothing is written until every check has passed, so a failed request leaves the table as it was.

use std::borrow::Cow;
use std::sync::Arc;

use dynomodel::backend::{
    DeleteItemInput, DeleteItemOutput, GetItemInput, GetItemOutput, PutItemInput, PutItemOutput,
    ReturnValue, ReturnValuesOnConditionCheckFailure, UpdateItemInput, UpdateItemOutput,
};
use dynomodel::{Error, Item, Result, MAX_ITEM_SIZE};

use crate::expr::ast::{Condition, Path};
use crate::expr::cache::ExpressionCache;
use crate::expr::eval::{self, Step};
use crate::expr::request::{self, ItemExpr, Maps, Param, Prepared};
use crate::expr::Given;
use crate::expr::{projection, taken, update, ExprKind, Expression, Parsed};
use crate::metering::capacity::{self, Consistency};
use crate::metering::throughput::{Kind, Meter, Throttled};
use crate::ops::context::ItemRequest;
use crate::ops::new_item::NewItem;
use crate::read;
use crate::storage::collection;
use crate::storage::key::{KeyValue, PrimaryKey};
use crate::storage::schema::TableSchema;
use crate::storage::stored::{StoredItem, WrittenItem};
use crate::storage::table::Table;
use crate::validate::{self, KeyContext};

/// The text of every ConditionalCheckFailedException on a single-item write (real DynamoDB and DynamoDB
/// Local 3.3 alike).
pub(crate) const CONDITION_FAILED: &str = "The conditional request failed";

/// The start of DynamoDB's message for an update that writes an empty S or B into a secondary index
/// key. A transaction reports it as a request error, not as a cancellation reason.
pub(crate) const EMPTY_INDEX_KEY_UPDATE: &str =
    "One or more parameter values are not valid. The update \
     expression attempted to update a secondary index key to a value that is not supported.";

/// A Put (PutItem, or the Put action of a transaction): what the checks and the plan need of it.
/// The item is an [`Item`] but for the engine's `put_item_from`, whose item a writer wrote straight
/// into the stored form (`new_item.rs`).
#[derive(Debug)]
pub(crate) struct PutAction<'a, I: ?Sized = Item> {
    /// The whole item, key included.
    pub(crate) item: &'a I,
    /// `ConditionExpression`, or the tree of `Expected`.
    pub(crate) condition: Option<ItemExpr<'a>>,
    /// The placeholder maps.
    pub(crate) maps: Maps<'a>,
    /// `ReturnValuesOnConditionCheckFailure`.
    pub(crate) on_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

impl<I: ?Sized> Clone for PutAction<'_, I> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I: ?Sized> Copy for PutAction<'_, I> {}

/// A write addressed by key: a Delete, an Update or a ConditionCheck.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyAction<'a> {
    /// The primary key, as given.
    pub(crate) key: &'a Item,
    /// `ConditionExpression`, or the tree of `Expected`.
    pub(crate) condition: Option<ItemExpr<'a>>,
    /// `UpdateExpression`, or the tree of `AttributeUpdates` (updates only).
    pub(crate) update: Option<ItemExpr<'a>>,
    /// The placeholder maps.
    pub(crate) maps: Maps<'a>,
    /// `ReturnValuesOnConditionCheckFailure`.
    pub(crate) on_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

/// The item an update will store under `key`, with what ReturnValues needs.
#[derive(Debug)]
pub(crate) struct UpdatePlan {
    /// The item's key.
    pub(crate) key: PrimaryKey,
    /// The item after the update, with the paths the update expression wrote (none without one);
    /// `None` when the item does not exist and the update only removes (it creates nothing).
    pub(crate) updated: Option<update::Updated>,
    /// The updated item's size (`dynomodel::item_size`), as its checks measured it (0 without one).
    pub(crate) size: usize,
}

/// A write condition may not look inside a key attribute (`sk.x`, `gk[0]`): DynamoDB Local rejects it
/// as reads do, before evaluating anything (found by the differential test).
pub(crate) fn condition_keys(
    table: &Table,
    condition: Option<&Parsed<Condition>>,
    maps: Maps<'_>,
) -> Result<()> {
    let Some(condition) = condition else {
        return Ok(());
    };
    condition_paths_scalar(table, condition, maps)
}

/// [`condition_keys`] of an item write's condition as given: an `Expected` tree (`Given::Built`)
/// names every attribute by one top-level name, which never looks inside a key, so its paths (one
/// per entry) are not walked.
fn given_condition_keys(
    table: &Table,
    given: Option<ItemExpr<'_>>,
    prepared: &Prepared,
    maps: Maps<'_>,
) -> Result<()> {
    match (given, prepared.condition()) {
        (Some(Given::Built(_)), _) | (_, None) => Ok(()),
        (_, Some(condition)) => condition_paths_scalar(table, condition, maps),
    }
}

/// The paths of `condition` that look inside an attribute do not look inside a key attribute.
fn condition_paths_scalar(
    table: &Table,
    condition: &Parsed<Condition>,
    maps: Maps<'_>,
) -> Result<()> {
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

/// The request-only checks of a Put, in PutItem's order; a transaction passes no `return_values`.
/// Returns the prepared expressions and the item's size (measured by the checks, for the store).
pub(crate) fn check_put<I: NewItem + ?Sized>(
    cache: &ExpressionCache,
    action: &PutAction<'_, I>,
    return_values: Option<ReturnValue>,
) -> Result<(Prepared, usize)> {
    let params: [Param<'_>; 1] = [(ExprKind::Condition, action.condition)];
    request::params_present(action.maps, &params)?;
    let size = action.item.checked_size()?;
    validate::return_values_none_or_all_old(return_values)?;
    validate::item_size_within_limit(size)?;
    Ok((request::prepare(cache, action.maps, &params)?, size))
}

/// The request-only checks of a Delete (and of a ConditionCheck, which has the same parameters); a
/// transaction passes no `return_values`.
pub(crate) fn check_delete(
    cache: &ExpressionCache,
    action: &KeyAction<'_>,
    return_values: Option<ReturnValue>,
) -> Result<Prepared> {
    let params: [Param<'_>; 1] = [(ExprKind::Condition, action.condition)];
    request::params_present(action.maps, &params)?;
    validate::attribute_values(action.key)?;
    validate::return_values_none_or_all_old(return_values)?;
    request::prepare(cache, action.maps, &params)
}

/// The request-only checks of an Update.
pub(crate) fn check_update(cache: &ExpressionCache, action: &KeyAction<'_>) -> Result<Prepared> {
    let params: [Param<'_>; 2] = [
        (ExprKind::Update, action.update),
        (ExprKind::Condition, action.condition),
    ];
    request::params_present(action.maps, &params)?;
    validate::attribute_values(action.key)?;
    request::prepare(cache, action.maps, &params)
}

/// The item under `key`, decoded, for a write's condition to read: only when it has one (a decode
/// is the cost of a whole read, ~4,000 instructions for an item of 8 attributes).
fn current(table: &Table, key: &PrimaryKey, prepared: &Prepared) -> Option<Item> {
    prepared.condition().and_then(|_| table.get(key))
}

/// Plans a Put against `table`: the item's key, its index keys, the condition. Returns the key to
/// store the item under.
pub(crate) fn plan_put<I: NewItem + ?Sized>(
    table: &Table,
    action: &PutAction<'_, I>,
    prepared: &Prepared,
    context: KeyContext,
) -> Result<PrimaryKey> {
    let key = validate::item_key(action.item, &table.schema, context)?;
    prepared.within_cap()?;
    validate::index_keys(action.item, &table.schema)?;
    given_condition_keys(table, action.condition, prepared, action.maps)?;
    check_condition(
        prepared.condition(),
        current(table, &key, prepared).as_ref(),
        action.maps,
        action.on_failure,
    )?;
    Ok(key)
}

/// Plans a Delete or a ConditionCheck against `table`: the key and the condition. Returns the key.
pub(crate) fn plan_key_condition(
    table: &Table,
    action: &KeyAction<'_>,
    prepared: &Prepared,
) -> Result<PrimaryKey> {
    let key = validate::request_key(action.key, &table.schema)?;
    prepared.within_cap()?;
    given_condition_keys(table, action.condition, prepared, action.maps)?;
    check_condition(
        prepared.condition(),
        current(table, &key, prepared).as_ref(),
        action.maps,
        action.on_failure,
    )?;
    Ok(key)
}

/// Plans an Update against `table`: applies the update to the current item, or to an item holding only
/// the key when there is none (so an update without an UpdateExpression creates the bare key item), and
/// checks the result.
pub(crate) fn plan_update(
    table: &Table,
    action: &KeyAction<'_>,
    prepared: &Prepared,
) -> Result<UpdatePlan> {
    plan_update_for(
        table,
        action,
        prepared,
        prepared.shared_update(),
        true,
        Item::new(),
    )
}

/// [`plan_update`], keeping the updated paths only when `paths_wanted` (`UPDATED_OLD` or
/// `UPDATED_NEW`) or the table has indexes, whose key checks read them: a long update then moves
/// its top-level names into the item rather than copying them. `update` is the prepared update
/// expression (taken out of `prepared`): held by nothing else (a legacy tree), it is applied as
/// owned, its names and values moving into the new item. `taken` are the set operands the update's
/// ADDs took out of the request's values (`expr::taken`).
fn plan_update_for(
    table: &Table,
    action: &KeyAction<'_>,
    prepared: &Prepared,
    update: Option<Arc<Expression>>,
    paths_wanted: bool,
    taken: Item,
) -> Result<UpdatePlan> {
    let key = validate::request_key(action.key, &table.schema)?;
    prepared.within_cap()?;
    let key_names: Vec<&str> = table.schema.key_attributes().map(|(n, _)| n).collect();
    let index_keys = index_key_names(&table.schema);
    given_condition_keys(table, action.condition, prepared, action.maps)?;
    let old = table.get(&key);
    // The condition comes first: DynamoDB Local 3.3 answers ConditionalCheckFailed for a request
    // that also updates a key attribute (dynalite checks the key first, but without a recording).
    check_condition(
        prepared.condition(),
        old.as_ref(),
        action.maps,
        action.on_failure,
    )?;
    let existed = old.is_some();
    // The stored item, decoded: it becomes the new item in place.
    let base = old.unwrap_or_else(|| action.key.clone());
    // The tree itself when this update is its only holder, else borrowed from the shared one.
    let shared;
    let tree = match update.map(Arc::try_unwrap) {
        Some(Ok(Expression::Update(parsed))) => Some(Cow::Owned(parsed.tree)),
        Some(Err(expression)) => {
            shared = expression;
            match &*shared {
                Expression::Update(parsed) => Some(Cow::Borrowed(&parsed.tree)),
                _ => None,
            }
        }
        _ => None,
    };
    let updated = match tree {
        Some(tree) => request::with_placeholders(action.maps, |ph| {
            update::check_key_attributes(&tree, ph, &key_names)?;
            update::check_index_key_paths(&tree, ph, &index_keys)?;
            if !existed && update::removes_only(&tree) {
                // Nothing to remove from, and nothing to create: not even `REMOVE x.y` fails.
                return Ok(None);
            }
            let copied = update::copied_index_keys(&tree, ph, &index_keys);
            let keep_paths = paths_wanted || !index_keys.is_empty();
            update::apply(tree, base, ph, keep_paths, prepared.set_tables(), taken)
                .map(|u| Some((u, copied)))
        })?,
        None => Some((update::Updated::unchanged(base), Vec::new())),
    };
    let Some((updated, copied)) = updated else {
        return Ok(UpdatePlan {
            key,
            updated: None,
            size: 0,
        });
    };
    let size = check_updated_item(&updated, &copied, &index_keys, &table.schema)?;
    Ok(UpdatePlan {
        key,
        updated: Some(updated),
        size,
    })
}

impl ItemRequest<'_> {
    /// `PutItem`.
    pub(crate) fn put_item(&mut self, mut input: PutItemInput) -> Result<PutItemOutput> {
        let item = std::mem::take(&mut input.item);
        let expected = input.expected.take();
        self.put_new(&input, expected, item)
    }

    /// `PutItem` of an item a writer wrote straight into the stored form (the engine's
    /// `put_item_from`): `input.item` is not read.
    pub(crate) fn put_written(
        &mut self,
        input: &PutItemInput,
        item: WrittenItem,
    ) -> Result<PutItemOutput> {
        // A model's put carries no `Expected` (the mapper writes expressions): a copy of `None`.
        self.put_new(input, input.expected.clone(), item)
    }

    /// `PutItem` of `item`, whatever its form (`new_item.rs`): one path, so that both forms are
    /// checked, planned, metered and written alike. `expected` is the request's (taken out of
    /// `input`: its names move into the condition).
    fn put_new<I: NewItem>(
        &mut self,
        input: &PutItemInput,
        expected: Option<dynomodel::backend::Expected>,
        item: I,
    ) -> Result<PutItemOutput> {
        validate::item_table_name(&input.table_name)?;
        let expected = crate::ops::legacy::put_item(input, expected)?;
        let action = PutAction {
            item: &item,
            condition: Given::either(expected.as_ref(), input.condition_expression.as_deref()),
            maps: Maps {
                names: input.expression_attribute_names.as_ref(),
                values: input.expression_attribute_values.as_ref(),
            },
            on_failure: input.return_values_on_condition_check_failure,
        };
        let (prepared, size) = check_put(self.cache(), &action, input.return_values)?;
        let limit = self.config().item_collection_size_limit;
        let (table, meter) = self.table_mut_metered(&input.table_name)?;
        admit_table_write(meter, table)?;
        let key = plan_put(table, &action, &prepared, KeyContext::SingleItem)?;
        // The whole item is read (decoded, for a written one) only by the capacity of the write
        // (when metered or reported); the item collection's limit (tables with LSIs) looks up
        // what it measures.
        let whole = std::cell::OnceCell::new();
        let whole = || whole.get_or_init(|| item.item());
        if !table.schema.local_secondary_indexes.is_empty() {
            collection::check_limit(table, &key, Some(&item), limit)?;
        }
        let mode = input.return_consumed_capacity;
        let cost = (capacity::wanted(mode) || meter.is_some())
            .then(|| capacity::item_write(table, table.get(&key).as_ref(), Some(whole())));
        admit_index_writes(meter, table, cost.as_ref())?;
        let consumed = cost
            .as_ref()
            .and_then(|c| c.report(&table.schema.name, mode));
        // The key outlives the put only when metrics were asked for (no clone on the plain path).
        let metrics_key = input.return_item_collection_metrics.map(|_| key.clone());
        let old = item.store(table, key, size)?;
        debit_write(meter, table, cost.as_ref());
        Ok(PutItemOutput {
            attributes: old
                .filter(|_| input.return_values == Some(ReturnValue::AllOld))
                .map(|old| old.decode()),
            consumed_capacity: consumed,
            item_collection_metrics: metrics_key
                .and_then(|k| collection::metrics(table, &k, input.return_item_collection_metrics)),
        })
    }

    /// `GetItem`. Every read is strongly consistent in memory, so `ConsistentRead` changes nothing.
    pub(crate) fn get_item(
        &self,
        input: &GetItemInput,
        attributes_to_get: Option<Vec<String>>,
    ) -> Result<GetItemOutput> {
        let (item, output) =
            self.get_stored(input, attributes_to_get, |stored, project| match project {
                Some(project) => project(&stored.decode()),
                None => stored.decode(),
            })?;
        Ok(GetItemOutput { item, ..output })
    }

    /// `GetItem` up to the stored item, which `read` turns into what the caller wants (given the
    /// request's projection, if any, to apply to the decoded item): `get_item` decodes it, the typed
    /// read (`read/typed.rs`) hands its attributes to a sink. One path for both, so that their
    /// checks, errors and capacity are the same. The output's `item` is `None`.
    pub(crate) fn get_stored<T>(
        &self,
        input: &GetItemInput,
        attributes_to_get: Option<Vec<String>>,
        read: impl FnOnce(&StoredItem, Option<&dyn Fn(&Item) -> Item>) -> T,
    ) -> Result<(Option<T>, GetItemOutput)> {
        validate::table_name(&input.table_name)?;
        let attributes_to_get = crate::ops::legacy::get_item(input, attributes_to_get)?;
        let maps = Maps {
            names: input.expression_attribute_names.as_ref(),
            values: None,
        };
        let projection = Given::either(
            attributes_to_get.as_ref(),
            input.projection_expression.as_deref(),
        );
        let prepared = check_get(self.cache(), &input.key, maps, projection)?;
        let table = self.table(&input.table_name)?;
        // Before the key's shape, as DynamoDB Local 3.3.1 answers (a write's comes after it).
        prepared.within_cap()?;
        let meter = self.meter();
        if let Some(meter) = meter {
            meter.admit(table, Kind::Read, true, [])?;
        }
        projection_keys(table, &prepared, maps)?;
        let key = validate::request_key(&input.key, &table.schema)?;
        let stored = table.seen(&key, input.consistent_read == Some(true));
        let item = stored.map(|stored| match prepared.projection() {
            Some(p) => request::with_placeholders(maps, |ph| {
                let steps = read::projection_steps(&p.tree.paths, ph);
                read(
                    stored,
                    Some(&|item: &Item| projection::project(item, &steps)),
                )
            }),
            None => read(stored, None),
        });
        let mode = input.return_consumed_capacity;
        // The whole item's size, whatever the projection (0 when there is none).
        let consumed = if capacity::wanted(mode) || meter.is_some() {
            let size = stored.map_or(0, StoredItem::size);
            let consumed = capacity::item_read(size, Consistency::of(input.consistent_read));
            if let Some(meter) = meter {
                meter.debit(table, Kind::Read, &consumed);
            }
            consumed.report(&table.schema.name, mode)
        } else {
            None
        };
        let output = GetItemOutput {
            item: None,
            consumed_capacity: consumed,
        };
        Ok((item, output))
    }

    /// `DeleteItem` (the request moves in: its `Expected` becomes the condition without a copy).
    pub(crate) fn delete_item(&mut self, mut input: DeleteItemInput) -> Result<DeleteItemOutput> {
        validate::item_table_name(&input.table_name)?;
        let expected = input.expected.take();
        let expected = crate::ops::legacy::delete_item(&input, expected)?;
        let input = &input;
        let action = KeyAction {
            key: &input.key,
            condition: Given::either(expected.as_ref(), input.condition_expression.as_deref()),
            update: None,
            maps: Maps {
                names: input.expression_attribute_names.as_ref(),
                values: input.expression_attribute_values.as_ref(),
            },
            on_failure: input.return_values_on_condition_check_failure,
        };
        let prepared = check_delete(self.cache(), &action, input.return_values)?;
        let (table, meter) = self.table_mut_metered(&input.table_name)?;
        admit_table_write(meter, table)?;
        let key = plan_key_condition(table, &action, &prepared)?;
        let mode = input.return_consumed_capacity;
        let cost = (capacity::wanted(mode) || meter.is_some())
            .then(|| capacity::item_write(table, table.get(&key).as_ref(), None));
        admit_index_writes(meter, table, cost.as_ref())?;
        let consumed = cost
            .as_ref()
            .and_then(|c| c.report(&table.schema.name, mode));
        let old = table.delete(&key);
        debit_write(meter, table, cost.as_ref());
        Ok(DeleteItemOutput {
            attributes: old.filter(|_| input.return_values == Some(ReturnValue::AllOld)),
            consumed_capacity: consumed,
            item_collection_metrics: collection::metrics(
                table,
                &key,
                input.return_item_collection_metrics,
            ),
        })
    }

    /// `UpdateItem`: applies the update to the current item, or to an item holding only the key when
    /// there is none (so an UpdateItem without an UpdateExpression creates the bare key item). The
    /// request moves in: its `AttributeUpdates` and `Expected` become trees without a copy.
    pub(crate) fn update_item(&mut self, mut input: UpdateItemInput) -> Result<UpdateItemOutput> {
        validate::item_table_name(&input.table_name)?;
        match crate::ops::legacy::update_item(&mut input)? {
            None => self.update_item_expressions(&mut input, None),
            Some(trees) => self
                .update_item_expressions(&mut input, Some(trees))
                .map_err(crate::ops::legacy::update_error),
        }
    }

    /// `UpdateItem` in its expression form: the request's expressions, or the trees of its
    /// `AttributeUpdates` and `Expected`.
    fn update_item_expressions(
        &mut self,
        input: &mut UpdateItemInput,
        legacy: Option<crate::ops::legacy::WriteTrees>,
    ) -> Result<UpdateItemOutput> {
        let (legacy_update, legacy_condition) =
            legacy.map_or((None, None), |t| (t.update, t.condition));
        // Held here, so that an ADD can take its large set operands out (`expr::taken`) once
        // the request is checked.
        let mut values = input.expression_attribute_values.take();
        let input = &*input;
        fn action<'a>(
            input: &'a UpdateItemInput,
            legacy_condition: Option<&'a Arc<Expression>>,
            values: Option<&'a Item>,
        ) -> KeyAction<'a> {
            KeyAction {
                key: &input.key,
                condition: Given::either(legacy_condition, input.condition_expression.as_deref()),
                update: None,
                maps: Maps {
                    names: input.expression_attribute_names.as_ref(),
                    values,
                },
                on_failure: input.return_values_on_condition_check_failure,
            }
        }
        // The plan reads the update from `prepared` alone: the legacy tree's own holder lets go
        // once it is checked, so that the plan can own it (its names and values moved into the
        // item, not copied).
        let checked = KeyAction {
            update: Given::either(legacy_update.as_ref(), input.update_expression.as_deref()),
            ..action(input, legacy_condition.as_ref(), values.as_ref())
        };
        let mut prepared = check_update(self.cache(), &checked)?;
        drop(legacy_update);
        let update = prepared.take_update();
        let taken = match (
            update.as_deref(),
            input.update_expression.as_deref(),
            &mut values,
        ) {
            (Some(Expression::Update(parsed)), Some(text), Some(values)) => taken::set_operands(
                &parsed.tree,
                values,
                text,
                input.condition_expression.as_deref(),
            ),
            _ => Item::new(),
        };
        let action = action(input, legacy_condition.as_ref(), values.as_ref());
        let limit = self.config().item_collection_size_limit;
        let (table, meter) = self.table_mut_metered(&input.table_name)?;
        admit_table_write(meter, table)?;
        let return_values = input.return_values.unwrap_or_default();
        let paths_wanted = matches!(
            return_values,
            ReturnValue::UpdatedOld | ReturnValue::UpdatedNew
        );
        let UpdatePlan { key, updated, size } =
            plan_update_for(table, &action, &prepared, update, paths_wanted, taken)?;
        let Some(updated) = updated else {
            return nothing_created(table, input, meter);
        };
        collection::check_limit(table, &key, Some(&updated.item), limit)?;
        let mode = input.return_consumed_capacity;
        let costed = capacity::wanted(mode) || meter.is_some();
        // The plan turned its decoded copy of the stored item into the new one: the old item is
        // decoded again only for what reads it (7 % of an ADD of 16,384 strings to as many).
        let old = (costed
            || matches!(return_values, ReturnValue::AllOld | ReturnValue::UpdatedOld))
        .then(|| table.get(&key))
        .flatten();
        let cost = costed.then(|| capacity::item_write(table, old.as_ref(), Some(&updated.item)));
        let attributes = match return_values {
            ReturnValue::None => None,
            ReturnValue::AllOld => old,
            ReturnValue::AllNew => Some(updated.item.clone()),
            ReturnValue::UpdatedOld => old
                .as_ref()
                .and_then(|old| non_empty(updated.updated_old(old))),
            ReturnValue::UpdatedNew => non_empty(updated.updated_new()),
        };
        admit_index_writes(meter, table, cost.as_ref())?;
        let consumed = cost
            .as_ref()
            .and_then(|c| c.report(&table.schema.name, mode));
        let metrics_key = input.return_item_collection_metrics.map(|_| key.clone());
        // Measured by the plan's checks: not walked again.
        table.put_measured(key, updated.item, size);
        debit_write(meter, table, cost.as_ref());
        Ok(UpdateItemOutput {
            attributes,
            consumed_capacity: consumed,
            item_collection_metrics: metrics_key
                .and_then(|k| collection::metrics(table, &k, input.return_item_collection_metrics)),
        })
    }
}

/// UpdateItem's answer when the item is missing and the update only removes: nothing is written and
/// nothing returned, whatever `ReturnValues` asked for; the request still costs the minimum write, as
/// a DeleteItem of a missing item does.
fn nothing_created(
    table: &Table,
    input: &UpdateItemInput,
    meter: Option<Meter<'_>>,
) -> Result<UpdateItemOutput> {
    let mode = input.return_consumed_capacity;
    let cost = (capacity::wanted(mode) || meter.is_some())
        .then(|| capacity::item_write(table, None, None));
    admit_index_writes(meter, table, cost.as_ref())?;
    debit_write(meter, table, cost.as_ref());
    Ok(UpdateItemOutput {
        attributes: None,
        consumed_capacity: cost
            .as_ref()
            .and_then(|c| c.report(&table.schema.name, mode)),
        item_collection_metrics: None,
    })
}

/// Refuses a write to a table whose write capacity is spent, before anything is planned.
fn admit_table_write(meter: Option<Meter<'_>>, table: &Table) -> Result<()> {
    match meter {
        Some(meter) => meter.admit(table, Kind::Write, true, []),
        None => Ok(()),
    }
}

/// Refuses a planned write (of cost `cost`) when a GSI it writes to has spent its write capacity,
/// before anything is written.
fn admit_index_writes(
    meter: Option<Meter<'_>>,
    table: &Table,
    cost: Option<&capacity::Consumed>,
) -> Result<()> {
    match (meter, cost) {
        (Some(meter), Some(cost)) => meter.admit_write(table, cost).map_err(Throttled::error),
        _ => Ok(()),
    }
}

/// Charges a write that was made.
fn debit_write(meter: Option<Meter<'_>>, table: &Table, cost: Option<&capacity::Consumed>) {
    if let (Some(meter), Some(cost)) = (meter, cost) {
        meter.debit(table, Kind::Write, cost);
    }
}

/// The request-only checks of a read by key (GetItem, and a Get of TransactGetItems): placeholder
/// maps, the key's values, the projection (the request's, or the tree of `AttributesToGet`).
pub(crate) fn check_get(
    cache: &ExpressionCache,
    key: &Item,
    maps: Maps<'_>,
    projection: Option<ItemExpr<'_>>,
) -> Result<Prepared> {
    let params: [Param<'_>; 1] = [(ExprKind::Projection, projection)];
    request::params_present(maps, &params)?;
    validate::attribute_values(key)?;
    request::prepare(cache, maps, &params)
}

/// Reads the item with this key from `table`, projected (`None` when there is none, and an empty
/// item when it exists but holds none of the projected attributes), with the stored item's size (what
/// the read costs: the whole item, whatever the projection; 0 when there is none). A transaction's Get
/// reads through it; `GetItem` through [`ItemRequest::get_stored`], which does the same in its own order.
pub(crate) fn read_item_sized(
    table: &Table,
    key: &Item,
    prepared: &Prepared,
    maps: Maps<'_>,
) -> Result<(Option<Item>, usize)> {
    projection_keys(table, prepared, maps)?;
    let key = validate::request_key(key, &table.schema)?;
    let stored = table.stored(&key);
    let item = stored.map(|stored| match prepared.projection() {
        Some(p) => request::with_placeholders(maps, |ph| {
            projection::project(&stored.decode(), &read::projection_steps(&p.tree.paths, ph))
        }),
        None => stored.decode(),
    });
    Ok((item, stored.map_or(0, StoredItem::size)))
}

/// A projection may not look inside a key attribute either (`pk[0]`, `sk.x`).
pub(crate) fn projection_keys(table: &Table, prepared: &Prepared, maps: Maps<'_>) -> Result<()> {
    let Some(p) = prepared.projection() else {
        return Ok(());
    };
    let paths: Vec<&Path> = p.tree.paths.iter().collect();
    request::with_placeholders(maps, |ph| read::scalar_keys(table, &paths, ph))
}

/// The checks on an item an update produced, in dynalite's order: the index keys the update wrote
/// (empty values; wrong types copied from another attribute, `copied`), nesting depth and sets, then
/// the size, then every index key. Returns the size, which the stored encoding takes.
fn check_updated_item(
    updated: &update::Updated,
    copied: &[String],
    index_keys: &[&str],
    schema: &TableSchema,
) -> Result<usize> {
    let new = &updated.item;
    // Of the updated paths, a top-level index key still in the item is one the update wrote. With
    // several at fault, the least name is reported (as in path order: `apply` keeps the top-level
    // paths in no particular order).
    let mut fault: Option<(&str, Error)> = None;
    for path in &updated.paths {
        let [Step::Key(name)] = path.as_slice() else {
            continue;
        };
        if !index_keys.contains(&name.as_str())
            || fault
                .as_ref()
                .is_some_and(|(least, _)| *least <= name.as_str())
        {
            continue;
        }
        let Some(value) = new.get(name) else {
            continue;
        };
        let key = KeyValue::from_attribute(value, schema.attribute_type(name));
        if let Some(kind) = key.as_ref().and_then(KeyValue::empty_kind) {
            // DynamoDB Local 3.3's text for an update (PutItem's names the index instead); real
            // DynamoDB's too (the dynamodb-conformance suite's eu-west-2 capture of a transaction).
            fault = Some((
                name,
                Error::validation(format!(
                    "{EMPTY_INDEX_KEY_UPDATE} The AttributeValue for a key attribute cannot contain \
                     an empty {kind} value."
                )),
            ));
        } else if key.is_none() && copied.iter().any(|c| c == name) {
            // Real DynamoDB's text for a value copied from another attribute (dynalite's recorded
            // "should return ValidationException if trying to update existing index": `SET c = e`);
            // a value from the request (`SET c = :v`, AttributeUpdates PUT/ADD) gets the PutItem
            // text from `validate::index_keys` below (recorded on the service).
            // DynamoDB Local 3.3 says "One or more parameter values were invalid: Type mismatch for
            // Index Key" for both.
            fault = Some((
                name,
                Error::validation(
                    "The update expression attempted to update the secondary index key to \
                     unsupported type",
                ),
            ));
        }
    }
    if let Some((_, e)) = fault {
        return Err(e);
    }
    let size = validate::sized_updated_values(new).map_err(|e| {
        if e.message().starts_with(NESTING) {
            // DynamoDB Local 3.3 words the limit without PutItem's explanation when an update
            // builds the deep value.
            Error::validation(NESTING)
        } else {
            e
        }
    })?;
    if size > MAX_ITEM_SIZE {
        return Err(Error::validation(
            "Item size to update has exceeded the maximum allowed size",
        ));
    }
    validate::index_keys(new, schema)?;
    Ok(size)
}

/// The key attributes of the table's indexes, in the order DynamoDB checks them: LSIs, then GSIs,
/// each as declared, hash key first.
pub(crate) fn index_key_names(schema: &TableSchema) -> Vec<&str> {
    let lsis = schema
        .local_secondary_indexes
        .iter()
        .flat_map(|i| i.key_schema.iter());
    let gsis = schema
        .global_secondary_indexes
        .iter()
        .flat_map(|i| i.key_schema.iter());
    lsis.chain(gsis)
        .map(|k| k.attribute_name.as_str())
        .collect()
}
