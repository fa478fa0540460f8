//! The multi-item operations: BatchGetItem, BatchWriteItem, TransactGetItems and TransactWriteItems,
//! over one or more of the run's tables, valid or with exactly one defect (a broken key or item, a
//! broken expression, a duplicate key, too many requests, a missing table, a bad token).
//!
//! Transactions draw their `ClientRequestToken` from a small pool, so tokens come back: with other
//! actions (an `IdempotentParameterMismatchException`) and, through [`super::operations`], as exact
//! replays of an earlier transaction (which must change nothing).

use dynomodel::{AttributeValue, Item, ScalarAttributeType};

use super::expressions::{self, Builder};
use super::items::{break_item, break_key, random_item, random_key};
use super::{condition, Exprs, Op, TableRef, TableSpec};
use crate::rng::Rng;

/// The reads of one table in a BatchGetItem.
#[derive(Debug, Clone)]
pub(crate) struct Read {
    pub table: TableRef,
    pub keys: Vec<Item>,
    pub consistent: Option<bool>,
    pub exprs: Exprs,
}

/// One write of a BatchWriteItem.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Write {
    Put(Item),
    Delete(Item),
}

/// One read of a TransactGetItems.
#[derive(Debug, Clone)]
pub(crate) struct Get {
    pub table: TableRef,
    pub key: Item,
    pub exprs: Exprs,
}

/// The kind of a transaction action; `data` is the item for a put and the key otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ActionKind {
    ConditionCheck,
    Put,
    Delete,
    Update,
}

/// One action of a TransactWriteItems.
#[derive(Debug, Clone)]
pub(crate) struct Action {
    pub table: TableRef,
    pub kind: ActionKind,
    pub data: Item,
    pub exprs: Exprs,
    pub old_on_failure: bool,
}

/// A token: an index into the run's token pool, or a raw (invalid) text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Token {
    Pooled(usize),
    Raw(String),
}

/// Tokens in the pool: few, so that they come back.
const TOKENS: usize = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Defect {
    None,
    /// A broken key or item.
    Data,
    /// A broken expression in one table's or action's request.
    Expression,
    /// The same item twice.
    Duplicate,
    /// One more request than the operation allows.
    TooMany,
    /// One table that does not exist.
    Missing,
    /// A table with no requests (BatchWriteItem) or a token of 37 characters (TransactWriteItems).
    Shape,
}

fn defect(rng: &mut Rng) -> Defect {
    if !rng.chance(18) {
        return Defect::None;
    }
    match rng.below(12) {
        0..=2 => Defect::Data,
        3..=5 => Defect::Expression,
        6..=7 => Defect::Duplicate,
        8 => Defect::TooMany,
        9..=10 => Defect::Missing,
        _ => Defect::Shape,
    }
}

/// One multi-item operation over `tables`.
pub(super) fn operation(rng: &mut Rng, tables: &[TableSpec]) -> Op {
    let defect = defect(rng);
    match rng.below(4) {
        0 => batch_get(rng, tables, defect),
        1 => batch_write(rng, tables, defect),
        2 => transact_get(rng, tables, defect),
        _ => transact_write(rng, tables, defect),
    }
}

/// One to three distinct tables of the run.
fn some_tables(rng: &mut Rng, tables: &[TableSpec]) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let i = rng.below(tables.len());
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    chosen
}

/// The `i`-th of a family of keys outside the small pools, all distinct, for "too many" requests.
fn distinct_key(spec: &TableSpec, i: usize) -> Item {
    let value = |ty: ScalarAttributeType| match ty {
        ScalarAttributeType::S => AttributeValue::S(format!("many{i}")),
        ScalarAttributeType::N => AttributeValue::N((1000 + i as i64).into()),
        ScalarAttributeType::B => AttributeValue::B(format!("many{i}").into_bytes()),
    };
    let mut key = Item::new();
    key.insert(spec.hash.0.clone(), value(spec.hash.1));
    if let Some((name, ty)) = &spec.range {
        key.insert(name.clone(), value(*ty));
    }
    key
}

/// One to `max` random pool keys of `spec`, without duplicates.
fn distinct_keys(rng: &mut Rng, spec: &TableSpec, max: usize) -> Vec<Item> {
    let mut keys: Vec<Item> = Vec::new();
    for _ in 0..1 + rng.below(max) {
        let key = random_key(rng, spec);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}

/// The key of an item (its table-key attributes).
fn key_of(spec: &TableSpec, item: &Item) -> Item {
    item.iter()
        .filter(|(name, _)| {
            **name == spec.hash.0 || spec.range.as_ref().is_some_and(|r| **name == r.0)
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// A projection half of the time (always, and broken, when `broken`).
fn projection(rng: &mut Rng, spec: &TableSpec, broken: bool) -> Exprs {
    let mut b = Builder::default();
    let mut exprs = Exprs::default();
    if broken || rng.chance(40) {
        let pool = expressions::pool(spec, true);
        let mut text = expressions::projection(rng, &mut b, &pool);
        if broken {
            expressions::break_projection(rng, &mut b, &mut text);
        }
        exprs.projection = Some(text);
    }
    b.finish(&mut exprs);
    exprs
}

/// Replaces one table of a multi-table request with the missing table.
fn miss_one(refs: &mut [TableRef], rng: &mut Rng) {
    let i = rng.below(refs.len());
    refs[i] = TableRef::Missing;
}

fn batch_get(rng: &mut Rng, tables: &[TableSpec], defect: Defect) -> Op {
    let chosen = some_tables(rng, tables);
    let victim = rng.below(chosen.len());
    let mut reads: Vec<Read> = chosen
        .iter()
        .enumerate()
        .map(|(n, &i)| {
            let spec = &tables[i];
            let broken = n == victim;
            let mut keys = if broken && defect == Defect::TooMany {
                (0..101).map(|k| distinct_key(spec, k)).collect()
            } else {
                distinct_keys(rng, spec, 5)
            };
            if broken && defect == Defect::Data {
                let k = rng.below(keys.len());
                break_key(rng, spec, &mut keys[k]);
            }
            if broken && defect == Defect::Duplicate {
                keys.push(keys[0].clone());
            }
            Read {
                table: TableRef::Table(i),
                keys,
                consistent: [None, Some(false), Some(true)][rng.below(3)],
                exprs: projection(rng, spec, broken && defect == Defect::Expression),
            }
        })
        .collect();
    if defect == Defect::Missing {
        let mut refs: Vec<TableRef> = reads.iter().map(|r| r.table).collect();
        miss_one(&mut refs, rng);
        for (read, table) in reads.iter_mut().zip(refs) {
            read.table = table;
        }
    }
    Op::BatchGet { reads }
}

fn batch_write(rng: &mut Rng, tables: &[TableSpec], defect: Defect) -> Op {
    let chosen = some_tables(rng, tables);
    let victim = rng.below(chosen.len());
    let mut writes: Vec<(TableRef, Vec<Write>)> = Vec::new();
    for (n, &i) in chosen.iter().enumerate() {
        let spec = &tables[i];
        let broken = n == victim;
        let mut list: Vec<Write> = Vec::new();
        let mut keys: Vec<Item> = Vec::new();
        let count = if broken && defect == Defect::TooMany {
            // 26 in this table, or spread so that only the total is over 25.
            26 - writes.iter().map(|(_, w)| w.len()).sum::<usize>().min(20)
        } else {
            1 + rng.below(6)
        };
        for k in 0..count {
            let write = if broken && defect == Defect::TooMany {
                Write::Delete(distinct_key(spec, k))
            } else if rng.chance(65) {
                Write::Put(random_item(rng, spec, false))
            } else {
                Write::Delete(random_key(rng, spec))
            };
            let key = match &write {
                Write::Put(item) => key_of(spec, item),
                Write::Delete(key) => key.clone(),
            };
            if !keys.contains(&key) {
                keys.push(key);
                list.push(write);
            }
        }
        if broken {
            match defect {
                Defect::Data => match &mut list[0] {
                    Write::Put(item) => break_item(rng, spec, item),
                    Write::Delete(key) => break_key(rng, spec, key),
                },
                Defect::Duplicate => {
                    let twin = match &list[0] {
                        Write::Put(item) if rng.chance(50) => Write::Delete(key_of(spec, item)),
                        Write::Put(item) => Write::Put(item.clone()),
                        Write::Delete(key) => Write::Delete(key.clone()),
                    };
                    list.push(twin);
                }
                Defect::Shape => list.clear(),
                _ => {}
            }
        }
        writes.push((TableRef::Table(i), list));
    }
    if defect == Defect::Missing {
        let mut refs: Vec<TableRef> = writes.iter().map(|w| w.0).collect();
        miss_one(&mut refs, rng);
        for (write, table) in writes.iter_mut().zip(refs) {
            write.0 = table;
        }
    }
    Op::BatchWrite { writes }
}

fn transact_get(rng: &mut Rng, tables: &[TableSpec], defect: Defect) -> Op {
    let mut gets: Vec<Get> = Vec::new();
    if defect == Defect::TooMany {
        let i = rng.below(tables.len());
        gets = (0..101)
            .map(|k| Get {
                table: TableRef::Table(i),
                key: distinct_key(&tables[i], k),
                exprs: Exprs::default(),
            })
            .collect();
        return Op::TransactGet { gets };
    }
    for i in some_tables(rng, tables) {
        for key in distinct_keys(rng, &tables[i], 3) {
            gets.push(Get {
                table: TableRef::Table(i),
                key,
                exprs: projection(rng, &tables[i], false),
            });
        }
    }
    let victim = rng.below(gets.len());
    let spec = match gets[victim].table {
        TableRef::Table(i) => &tables[i],
        TableRef::Missing => &tables[0],
    };
    match defect {
        Defect::Data => break_key(rng, spec, &mut gets[victim].key),
        Defect::Expression => gets[victim].exprs = projection(rng, spec, true),
        Defect::Duplicate => {
            let twin = gets[victim].clone();
            gets.push(twin);
        }
        Defect::Missing => gets[victim].table = TableRef::Missing,
        _ => {}
    }
    Op::TransactGet { gets }
}

fn action(rng: &mut Rng, spec: &TableSpec, table: TableRef, key: Item, broken: bool) -> Action {
    let kind = [
        ActionKind::ConditionCheck,
        ActionKind::Put,
        ActionKind::Delete,
        ActionKind::Update,
    ][rng.below(4)];
    let mut b = Builder::default();
    let mut exprs = Exprs::default();
    let data = match kind {
        ActionKind::Put => {
            let mut item = random_item(rng, spec, false);
            item.extend(key);
            item
        }
        _ => key,
    };
    match kind {
        ActionKind::ConditionCheck => {
            // The condition is required: `condition` leaves it out half the time, so draw again.
            exprs.condition = loop {
                if let Some(text) = condition(rng, spec, &mut b, broken) {
                    break Some(text);
                }
            };
        }
        ActionKind::Update => {
            let broken_update = broken && rng.chance(60);
            let mut update = expressions::update(rng, &mut b, spec);
            if broken_update {
                expressions::break_update(rng, &mut b, spec, &mut update);
            }
            exprs.update = Some(update);
            exprs.condition = condition(rng, spec, &mut b, broken && !broken_update);
        }
        ActionKind::Put | ActionKind::Delete => {
            exprs.condition = condition(rng, spec, &mut b, broken);
        }
    }
    b.finish(&mut exprs);
    Action {
        table,
        kind,
        data,
        exprs,
        old_on_failure: rng.chance(40),
    }
}

fn transact_write(rng: &mut Rng, tables: &[TableSpec], defect: Defect) -> Op {
    let mut actions: Vec<Action> = Vec::new();
    if defect == Defect::TooMany {
        let i = rng.below(tables.len());
        actions = (0..101)
            .map(|k| Action {
                table: TableRef::Table(i),
                kind: ActionKind::Delete,
                data: distinct_key(&tables[i], k),
                exprs: Exprs::default(),
                old_on_failure: false,
            })
            .collect();
        return Op::TransactWrite {
            actions,
            token: None,
        };
    }
    let chosen = some_tables(rng, tables);
    for &i in &chosen {
        for key in distinct_keys(rng, &tables[i], 3) {
            actions.push(action(rng, &tables[i], TableRef::Table(i), key, false));
        }
    }
    let victim = rng.below(actions.len());
    let spec_index = match actions[victim].table {
        TableRef::Table(i) => i,
        TableRef::Missing => 0,
    };
    let spec = &tables[spec_index];
    match defect {
        Defect::Data => {
            let a = &mut actions[victim];
            match a.kind {
                ActionKind::Put => break_item(rng, spec, &mut a.data),
                _ => break_key(rng, spec, &mut a.data),
            }
        }
        Defect::Expression => {
            let key = key_of(spec, &actions[victim].data);
            actions[victim] = action(rng, spec, TableRef::Table(spec_index), key, true);
        }
        Defect::Duplicate => {
            let key = key_of(spec, &actions[victim].data);
            let twin = action(rng, spec, TableRef::Table(spec_index), key, false);
            actions.push(twin);
        }
        Defect::Missing => actions[victim].table = TableRef::Missing,
        _ => {}
    }
    let token = if defect == Defect::Shape {
        Some(Token::Raw("t".repeat(37)))
    } else if rng.chance(35) {
        Some(Token::Pooled(rng.below(TOKENS)))
    } else {
        None
    };
    Op::TransactWrite { actions, token }
}
