//! TransactWriteItems: up to 100 Put, Update, Delete and ConditionCheck actions, all or nothing.
//!
//! The order of checks and the split between request errors and cancellation reasons are in the
//! [module docs](super). Each action runs the single-item operation's own checks and plan
//! (`crate::ops::items`): a Put is PutItem's, an Update UpdateItem's, a Delete DeleteItem's, and a
//! ConditionCheck DeleteItem's without the delete.
//!
//! # The 4 MB limit
//! "The aggregate size of the items in the transaction cannot exceed 4 MB" (API reference). What counts
//! is what DynamoDB Local 3.3.1 reports as the "Payload Size" (probed action by action): for each
//! action, its item (Put) or key (the others), plus the bytes of its expressions, of its
//! `ExpressionAttributeValues` values and of its `ExpressionAttributeNames` values, summed in request
//! order until the sum first passes 4 MiB; that sum is the figure in the message. The message is real
//! DynamoDB's, as a public project's test double reproduces an eu-north-1 answer ("Transaction payload
//! size cannot exceed 4MB. Payload Size: : Transaction payload size cannot exceed 4MB. Payload Size:
//! 4306456", the first sentence doubled); DynamoDB Local says it once. The limit is checked right after
//! the member constraints, before anything else (DynamoDB Local: ahead of malformed expressions,
//! missing tables and duplicate items); being first, it measures values nobody has checked yet, so a
//! value nested too deep to walk safely counts nothing and is refused by its action's checks after
//! (see `payload`).

use dynomodel::backend::{
    ExpressionAttributeNames, ReturnItemCollectionMetrics, TransactWriteItem,
    TransactWriteItemsInput, TransactWriteItemsOutput,
};
use dynomodel::{
    attribute_size, AttributeValue, CancellationCode, CancellationReason, Error, Item, Result,
};

use super::{check_members, check_table_name, lookup, lookup_mut, render, Targets, MAX_PAYLOAD};
use crate::expr::request::{self, Maps, Prepared};
use crate::expr::{update, Given};
use crate::metering::capacity::{self, Consumed, PerTable};
use crate::metering::throughput::Kind;
use crate::ops::context::ItemRequest;
use crate::ops::items::{
    check_delete, check_put, check_update, condition_keys, index_key_names, plan_key_condition,
    plan_put, plan_update, KeyAction, PutAction, CONDITION_FAILED, EMPTY_INDEX_KEY_UPDATE,
};
use crate::storage::collection;
use crate::storage::key::PrimaryKey;
use crate::storage::stored::StoredItem;
use crate::storage::table::Table;
use crate::storage::tokens::{self, Seen};
use crate::validate::{self, KeyContext, MAX_EXPRESSION_VALUE_DEPTH};

/// The message of a failed ConditionCheck (DynamoDB Local 3.3.1 adds the period for this action
/// only; the API reference lists the message with it).
const CONDITION_CHECK_FAILED: &str = "The conditional request failed.";

/// One action after the request-only checks.
struct Checked<'a> {
    /// The table's name or ARN, as given.
    table: &'a str,
    /// The action itself.
    target: Target<'a>,
    /// Its parsed and validated expressions.
    prepared: Prepared,
}

/// What an action writes to, and how.
enum Target<'a> {
    Put(PutAction<'a>),
    Update(KeyAction<'a>),
    Delete(KeyAction<'a>),
    ConditionCheck(KeyAction<'a>),
}

impl Target<'_> {
    /// The attributes that hold the item's key: a Put's item, or the Key.
    fn key_attributes(&self) -> &Item {
        match self {
            Target::Put(a) => a.item,
            Target::Update(a) | Target::Delete(a) | Target::ConditionCheck(a) => a.key,
        }
    }

    /// The placeholder maps.
    fn maps(&self) -> Maps<'_> {
        match self {
            Target::Put(a) => a.maps,
            Target::Update(a) | Target::Delete(a) | Target::ConditionCheck(a) => a.maps,
        }
    }
}

/// What a passing action will do to its table (`table` as the action names it: a name or an ARN).
enum Write<'a> {
    /// Store `item` under `key` (a Put, or an Update's new item).
    Put {
        table: &'a str,
        key: PrimaryKey,
        item: Item,
    },
    /// Remove the item with `key`.
    Delete { table: &'a str, key: PrimaryKey },
    /// Nothing: a ConditionCheck of the item with `key`.
    Check { table: &'a str, key: PrimaryKey },
}

impl Write<'_> {
    /// The table written.
    fn table(&self) -> &str {
        match self {
            Write::Put { table, .. } | Write::Delete { table, .. } | Write::Check { table, .. } => {
                table
            }
        }
    }
}

/// Why an action did not pass.
enum Failure {
    /// The whole request is refused with this error.
    Request(Error),
    /// The action's cancellation reason (boxed: it is large, and rare).
    Reason(Box<CancellationReason>),
}

impl ItemRequest<'_> {
    /// `TransactWriteItems`, under one acquisition of the write lock.
    pub(crate) fn transact_write_items(
        &mut self,
        input: &TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        let actions = &input.transact_items;
        let token = input.client_request_token.as_deref();
        check_members(
            actions.len(),
            token,
            actions.iter().map(|a| (member(a), a.table_name())),
            |out| render::write_items(out, actions),
        )?;
        check_payload(actions)?;
        let checked = actions
            .iter()
            .map(|a| self.check_action(a))
            .collect::<Result<Vec<_>>>()?;
        // The cap on what an expression substitutes after every action's other checks and before
        // any table is looked up, as DynamoDB Local 3.3.1 answers (a missing table or key, a
        // failed condition of any action come after it).
        for action in &checked {
            action.prepared.within_cap()?;
        }
        // The token after the checks the request alone decides (a replay passes them as the first call
        // did; a mismatched request that is also malformed gets the malformation, as DynamoDB Local
        // answers) and before anything that depends on the tables, so that a replay answers as the
        // first call did whatever happened to the tables since.
        // The tokens stay locked until this call's token is recorded: a concurrent call with the same
        // token on other tables (which their locks do not serialise with this one) then sees this
        // call's outcome, not a free token. Tokens are the innermost lock (taken after the tables').
        let mut held_tokens = None;
        if let Some(token) = token {
            let now = self.clock().now();
            let mut tokens = self.tokens_mut();
            match tokens.check(token, actions, now) {
                Seen::Replay => return Ok(TransactWriteItemsOutput::default()),
                Seen::Mismatch => return Err(tokens::mismatch()),
                Seen::New => held_tokens = Some(tokens),
            }
        }
        let writes = self.plan_writes(&checked)?;
        // Every action passed: write. Each table was looked up under this same lock, so no lookup
        // below fails and no transaction is written in part.
        let mode = input.return_consumed_capacity;
        let mut consumed = PerTable::default();
        // The collections written (not those only checked), kept only when metrics were asked for.
        let metrics_keys: Vec<(&str, PrimaryKey)> =
            if input.return_item_collection_metrics == Some(ReturnItemCollectionMetrics::Size) {
                writes
                    .iter()
                    .filter_map(|w| match w {
                        Write::Put { table, key, .. } | Write::Delete { table, key } => {
                            Some((*table, key.clone()))
                        }
                        Write::Check { .. } => None,
                    })
                    .collect()
            } else {
                Vec::new()
            };
        let metered = self.throughput().on();
        if capacity::wanted(mode) || metered {
            let costs = writes
                .iter()
                .map(|w| self.cost(w))
                .collect::<Result<Vec<_>>>()?;
            if metered {
                self.admit_and_debit(&writes, &costs)?;
            }
            for (table, cost) in &costs {
                consumed.add(table, cost);
            }
        }
        for write in writes {
            match write {
                Write::Put { table, key, item } => {
                    let table = lookup_mut(self, table)?;
                    table.put(key, item);
                }
                Write::Delete { table, key } => {
                    let table = lookup_mut(self, table)?;
                    table.delete(&key);
                }
                Write::Check { .. } => {}
            }
        }
        if let (Some(token), Some(mut tokens)) = (token, held_tokens) {
            // The window starts when the first call completes.
            let now = self.clock().now();
            tokens.record(token, actions, now);
        }
        let mut written = Vec::with_capacity(metrics_keys.len());
        for (name, key) in &metrics_keys {
            written.push((lookup(self, name)?, key));
        }
        Ok(TransactWriteItemsOutput {
            consumed_capacity: consumed.report(mode),
            item_collection_metrics: collection::metrics_by_table(written),
        })
    }

    /// With throughput enforced: cancels the transaction when an action's table or a GSI it writes to
    /// has spent its write capacity, with the reason `ProvisionedThroughputExceeded` at that action
    /// (`None` at the others; the API reference's `TransactionCanceledException`), or charges every
    /// action's cost. The charge comes before the writes, under the same lock: nothing can fail
    /// between them, so it is the same as charging after.
    fn admit_and_debit(&self, writes: &[Write<'_>], costs: &[(String, Consumed)]) -> Result<()> {
        let Some(meter) = self.meter() else {
            return Ok(());
        };
        let mut reasons = Vec::with_capacity(writes.len());
        let mut cancel = false;
        for (write, (_, cost)) in writes.iter().zip(costs) {
            let table = lookup(self, write.table())?;
            match meter.admit_write(table, cost) {
                Ok(()) => reasons.push(CancellationReason::none()),
                Err(why) => {
                    cancel = true;
                    reasons.push(why.reason());
                }
            }
        }
        if cancel {
            return Err(Error::transaction_canceled(reasons));
        }
        for (write, (_, cost)) in writes.iter().zip(costs) {
            meter.debit(lookup(self, write.table())?, Kind::Write, cost);
        }
        Ok(())
    }

    /// What `write` costs, before it is made, and its table's name: twice the write units of the
    /// same single-item write, on the table and on every index it changes (DG
    /// `transaction-apis.html`, "Capacity management for transactions"). A ConditionCheck is charged
    /// as a transactional write of the item it reads, which leaves the indexes alone.
    fn cost(&self, write: &Write<'_>) -> Result<(String, Consumed)> {
        let (name, cost) = match write {
            Write::Put { table, key, item } => {
                let t = lookup(self, table)?;
                (t, capacity::item_write(t, t.get(key).as_ref(), Some(item)))
            }
            Write::Delete { table, key } => {
                let t = lookup(self, table)?;
                (t, capacity::item_write(t, t.get(key).as_ref(), None))
            }
            Write::Check { table, key } => {
                let t = lookup(self, table)?;
                let size = t.stored(key).map_or(0, StoredItem::size);
                (t, capacity::Consumed::table(capacity::write_units(size)))
            }
        };
        Ok((name.schema.name.clone(), cost.scaled(2.0)))
    }

    /// Every check of every action, without writing: the writes to make, or why there are none.
    fn plan_writes<'a>(&self, checked: &[Checked<'a>]) -> Result<Vec<Write<'a>>> {
        let mut targets = Targets::default();
        let mut tables = Vec::with_capacity(checked.len());
        for action in checked {
            let table = lookup(self, action.table)?;
            up_front(table, action)?;
            targets.claim(table, action.target.key_attributes())?;
            tables.push(table);
        }
        let mut writes = Vec::with_capacity(checked.len());
        let mut reasons = Vec::with_capacity(checked.len());
        let mut cancel = false;
        // Evaluation stops at the first ValidationError: the actions after it are `None`, whatever
        // their conditions would say (step 6 of the module docs).
        let mut stopped = false;
        for (action, table) in checked.iter().zip(tables) {
            if stopped {
                reasons.push(CancellationReason::none());
                continue;
            }
            match evaluate(table, action) {
                Ok(write) => {
                    writes.push(write);
                    reasons.push(CancellationReason::none());
                }
                Err(Failure::Request(e)) => return Err(e),
                Err(Failure::Reason(reason)) => {
                    cancel = true;
                    stopped = reason.code == CancellationCode::ValidationError;
                    reasons.push(*reason);
                }
            }
        }
        if cancel {
            return Err(Error::transaction_canceled(reasons));
        }
        self.check_collections(&writes, &mut reasons)?;
        Ok(writes)
    }

    /// The item-collection limit over every write of the transaction together: a write that would grow
    /// its collection past the limit cancels the transaction with the `ItemCollectionSizeLimitExceeded`
    /// reason at its position (API `TransactWriteItems` / `TransactionCanceledException`: "Item
    /// collection size limit exceeded", Code `ItemCollectionSizeLimitExceeded`, Message "Collection
    /// size exceeded"). `reasons` holds a `None` for every action.
    fn check_collections(
        &self,
        writes: &[Write<'_>],
        reasons: &mut [CancellationReason],
    ) -> Result<()> {
        // Lazily, so that a transaction on tables without LSIs allocates nothing here. Every table was
        // looked up under this same lock, so no lookup fails and the positions stay aligned.
        let changes = writes.iter().filter_map(|write| {
            let (name, key) = match write {
                Write::Put { table, key, .. }
                | Write::Delete { table, key }
                | Write::Check { table, key } => (*table, key),
            };
            let table = lookup(self, name).ok()?;
            let new = match write {
                Write::Put { item, .. } => Some(std::borrow::Cow::Borrowed(item)),
                Write::Delete { .. } => None,
                // A ConditionCheck leaves its item as it is.
                Write::Check { .. } => table.get(key).map(std::borrow::Cow::Owned),
            };
            Some((table, key, new))
        });
        let limit = self.config().item_collection_size_limit;
        if let Err(i) = collection::check_writes(changes, limit) {
            if let Some(reason) = reasons.get_mut(i) {
                *reason = CancellationReason::new(
                    collection::LIMIT_REASON,
                    collection::LIMIT_REASON_MESSAGE,
                );
            }
            return Err(Error::transaction_canceled(reasons.to_vec()));
        }
        Ok(())
    }

    /// The request-only checks of one action (step 3 of the module docs).
    fn check_action<'a>(&self, action: &'a TransactWriteItem) -> Result<Checked<'a>> {
        check_table_name(action.table_name())?;
        let cache = self.cache();
        let (target, prepared) = match action {
            TransactWriteItem::Put(p) => {
                let a = PutAction {
                    item: &p.item,
                    condition: p.condition_expression.as_deref().map(Given::Text),
                    maps: maps(
                        &p.expression_attribute_names,
                        &p.expression_attribute_values,
                    ),
                    on_failure: p.return_values_on_condition_check_failure,
                };
                let (prepared, _size) = check_put(cache, &a, None)?;
                (Target::Put(a), prepared)
            }
            TransactWriteItem::Update(u) => {
                let a = KeyAction {
                    key: &u.key,
                    condition: u.condition_expression.as_deref().map(Given::Text),
                    update: Some(Given::Text(&u.update_expression)),
                    maps: maps(
                        &u.expression_attribute_names,
                        &u.expression_attribute_values,
                    ),
                    on_failure: u.return_values_on_condition_check_failure,
                };
                let prepared = check_update(cache, &a)?;
                (Target::Update(a), prepared)
            }
            TransactWriteItem::Delete(d) => {
                let a = KeyAction {
                    key: &d.key,
                    condition: d.condition_expression.as_deref().map(Given::Text),
                    update: None,
                    maps: maps(
                        &d.expression_attribute_names,
                        &d.expression_attribute_values,
                    ),
                    on_failure: d.return_values_on_condition_check_failure,
                };
                let prepared = check_delete(cache, &a, None)?;
                (Target::Delete(a), prepared)
            }
            TransactWriteItem::ConditionCheck(c) => {
                let a = KeyAction {
                    key: &c.key,
                    condition: Some(Given::Text(&c.condition_expression)),
                    update: None,
                    maps: maps(
                        &c.expression_attribute_names,
                        &c.expression_attribute_values,
                    ),
                    on_failure: c.return_values_on_condition_check_failure,
                };
                let prepared = check_delete(cache, &a, None)?;
                (Target::ConditionCheck(a), prepared)
            }
        };
        // The maps' caps at the action's turn, before the next action's checks, as DynamoDB Local
        // 3.3.1 answers (the expressions' cap waits for every action's checks).
        prepared.maps_within_cap()?;
        Ok(Checked {
            table: action.table_name(),
            target,
            prepared,
        })
    }
}

/// The member name of an action's kind in constraint paths (`transactItems.1.member.put.tableName`).
fn member(action: &TransactWriteItem) -> &'static str {
    match action {
        TransactWriteItem::ConditionCheck(_) => "conditionCheck",
        TransactWriteItem::Put(_) => "put",
        TransactWriteItem::Delete(_) => "delete",
        TransactWriteItem::Update(_) => "update",
    }
}

/// The placeholder maps of an action.
fn maps<'a>(names: &'a Option<ExpressionAttributeNames>, values: &'a Option<Item>) -> Maps<'a> {
    Maps {
        names: names.as_ref(),
        values: values.as_ref(),
    }
}

/// The table-dependent checks that refuse the whole request (step 5 of the module docs, after the
/// table lookup and before the duplicate check): empty key values, and paths into key attributes in
/// the condition or the update (DynamoDB Local 3.3.1 refuses both with a `ValidationException`).
fn up_front(table: &Table, action: &Checked<'_>) -> Result<()> {
    validate::empty_key_values(action.target.key_attributes(), &table.schema)?;
    if let Target::Put(put) = &action.target {
        validate::empty_index_key_values(put.item, &table.schema)?;
    }
    let maps = action.target.maps();
    condition_keys(table, action.prepared.condition(), maps)?;
    if let Some(u) = action.prepared.update() {
        let index_keys = index_key_names(&table.schema);
        request::with_placeholders(maps, |ph| {
            update::check_index_key_paths(&u.tree, ph, &index_keys)
        })?;
    }
    Ok(())
}

/// Plans one action against `table` (step 6 of the module docs).
fn evaluate<'a>(table: &Table, action: &Checked<'a>) -> Result<Write<'a>, Failure> {
    let context = KeyContext::SingleItem;
    let name = action.table;
    let prepared = &action.prepared;
    let planned = match &action.target {
        Target::Put(a) => plan_put(table, a, prepared, context).map(|key| Write::Put {
            table: name,
            key,
            item: a.item.clone(),
        }),
        Target::Update(a) => plan_update(table, a, prepared).map(|plan| match plan.updated {
            Some(updated) => Write::Put {
                table: name,
                key: plan.key,
                item: updated.item,
            },
            // A removal from a missing item writes nothing.
            None => Write::Check {
                table: name,
                key: plan.key,
            },
        }),
        Target::Delete(a) => {
            plan_key_condition(table, a, prepared).map(|key| Write::Delete { table: name, key })
        }
        Target::ConditionCheck(a) => {
            plan_key_condition(table, a, prepared).map(|key| Write::Check { table: name, key })
        }
    };
    planned.map_err(|e| failure(&action.target, e))
}

/// How an action's error reaches the caller: as its cancellation reason, or (an empty index key an
/// update would write) as the request's error.
fn failure(target: &Target<'_>, e: Error) -> Failure {
    match e {
        Error::ConditionalCheckFailed { item, .. } => {
            let message = match target {
                Target::ConditionCheck(_) => CONDITION_CHECK_FAILED,
                _ => CONDITION_FAILED,
            };
            Failure::Reason(Box::new(
                CancellationReason::new(CancellationCode::ConditionalCheckFailed, message)
                    .with_item(item),
            ))
        }
        Error::Validation { message } if message.starts_with(EMPTY_INDEX_KEY_UPDATE) => {
            Failure::Request(Error::Validation { message })
        }
        Error::Validation { message } => Failure::Reason(Box::new(CancellationReason::new(
            CancellationCode::ValidationError,
            message,
        ))),
        other => Failure::Request(other),
    }
}

/// The 4 MB limit (see the module docs).
fn check_payload(actions: &[TransactWriteItem]) -> Result<()> {
    let mut total = 0usize;
    for action in actions {
        total = total.saturating_add(payload(action));
        if total > MAX_PAYLOAD {
            let sentence = "Transaction payload size cannot exceed 4MB. Payload Size: ";
            return Err(Error::validation(format!("{sentence}: {sentence}{total}")));
        }
    }
    Ok(())
}

/// What one action adds to the payload: its item or key, its expressions, its placeholder values.
///
/// This runs before the action's own checks have bounded how deep its values nest, and the size of a
/// value is a walk over it: a value nested deeper than any request may send (128 levels, the bound on
/// `ExpressionAttributeValues`; an item holds at most 32) counts nothing instead of being walked, since
/// a hostile one would exhaust the stack. The action's own checks refuse such a value right after.
fn payload(action: &TransactWriteItem) -> usize {
    let size = |value: &AttributeValue| -> usize {
        if validate::nests_within(value, MAX_EXPRESSION_VALUE_DEPTH) {
            attribute_size(value)
        } else {
            0
        }
    };
    // `dynomodel::item_size`, guarded.
    let item_size = |item: &Item| -> usize { item.iter().map(|(n, v)| n.len() + size(v)).sum() };
    let texts = |texts: &[Option<&str>]| -> usize { texts.iter().flatten().map(|t| t.len()).sum() };
    let values = |v: &Option<Item>| -> usize { v.iter().flatten().map(|(_, v)| size(v)).sum() };
    let names = |n: &Option<ExpressionAttributeNames>| -> usize {
        n.iter().flatten().map(|(_, name)| name.len()).sum()
    };
    match action {
        TransactWriteItem::Put(p) => {
            item_size(&p.item)
                + texts(&[p.condition_expression.as_deref()])
                + values(&p.expression_attribute_values)
                + names(&p.expression_attribute_names)
        }
        TransactWriteItem::Update(u) => {
            item_size(&u.key)
                + texts(&[
                    Some(&u.update_expression),
                    u.condition_expression.as_deref(),
                ])
                + values(&u.expression_attribute_values)
                + names(&u.expression_attribute_names)
        }
        TransactWriteItem::Delete(d) => {
            item_size(&d.key)
                + texts(&[d.condition_expression.as_deref()])
                + values(&d.expression_attribute_values)
                + names(&d.expression_attribute_names)
        }
        TransactWriteItem::ConditionCheck(c) => {
            item_size(&c.key)
                + texts(&[Some(&c.condition_expression)])
                + values(&c.expression_attribute_values)
                + names(&c.expression_attribute_names)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynomodel::backend::{TransactConditionCheck, TransactDelete, TransactUpdate};
    use dynomodel::AttributeValue;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    fn key(v: &str) -> Item {
        [("pk".to_owned(), s(v))].into()
    }

    #[test]
    fn payload_counts_what_dynamodb_local_counts() {
        // The figures DynamoDB Local 3.3.1 reported for these actions (key "pk" = "z01": 5 bytes).
        let delete = TransactWriteItem::Delete(TransactDelete {
            table_name: "t".into(),
            key: key("z01"),
            condition_expression: Some("pk = :v".into()),
            expression_attribute_values: Some([(":v".to_owned(), s("abc"))].into()),
            ..Default::default()
        });
        assert_eq!(payload(&delete), 15);
        let check = TransactWriteItem::ConditionCheck(TransactConditionCheck {
            table_name: "t".into(),
            key: key("z01"),
            condition_expression: "attribute_exists(pk)".into(),
            ..Default::default()
        });
        assert_eq!(payload(&check), 25);
        let update = TransactWriteItem::Update(TransactUpdate {
            table_name: "t".into(),
            key: key("z01"),
            update_expression: "SET #a = :v".into(),
            expression_attribute_names: Some([("#a".to_owned(), "abc".to_owned())].into()),
            expression_attribute_values: Some([(":v".to_owned(), s("abc"))].into()),
            ..Default::default()
        });
        assert_eq!(payload(&update), 22);
    }

    #[test]
    fn payload_limit_is_4_mib_and_reports_the_running_sum() {
        let put = |n: usize, size: usize| {
            // "pk" + "kNN" = 5 bytes of key, "d" = 1 byte of name.
            let mut item = key(&format!("k{n:02}"));
            item.insert("d".into(), s(&"x".repeat(size - 6)));
            TransactWriteItem::Put(dynomodel::backend::TransactPut {
                table_name: "t".into(),
                item,
                ..Default::default()
            })
        };
        let mut actions: Vec<TransactWriteItem> = (0..10).map(|n| put(n, 409_600)).collect();
        actions.push(put(10, MAX_PAYLOAD - 10 * 409_600));
        assert!(check_payload(&actions).is_ok());
        actions.pop();
        actions.push(put(10, MAX_PAYLOAD - 10 * 409_600 + 1));
        actions.push(put(11, 100));
        let err = check_payload(&actions).unwrap_err();
        assert_eq!(
            err.message(),
            "Transaction payload size cannot exceed 4MB. Payload Size: : Transaction payload size \
             cannot exceed 4MB. Payload Size: 4194305"
        );
    }
}
