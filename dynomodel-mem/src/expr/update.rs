//! Applying an UpdateExpression to an item.
//!
//! All SET values are computed from the old item first, then the clauses are applied (SET, REMOVE, ADD,
//! DELETE), so `SET a = b, b = a` swaps. Creating the item when it is absent is the caller's job: pass an
//! item holding just the key. Messages are DynamoDB's (measured on DynamoDB Local; unprefixed, because
//! DynamoDB reports these during the write, not while parsing).

use std::borrow::Cow;

use dynomodel::{AttributeValue, Error, Item, NumberError, MAX_ITEM_SIZE};

use super::ast::{Clause, Operand, UpdateExpression};
use super::eval::{self, lookup, resolve, top_name, Step, Steps};
use super::projection::project;
use super::Placeholders;
use crate::storage::request_hash::{self, RequestMap, RequestSet};
use crate::validate::{Keyed, SetElement, SetTable, SetTables};

const INVALID_PATH: &str =
    "The document path provided in the update expression is invalid for update";
const WRONG_TYPE: &str = "An operand in the update expression has an incorrect data type";
const MISSING_OPERAND: &str =
    "The provided expression refers to an attribute that does not exist in the item";

/// The outcome of an update.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Updated {
    /// The item after the update.
    pub(crate) item: Item,
    /// The paths the update wrote or removed, as written in the expression, for `UPDATED_OLD` and
    /// `UPDATED_NEW` (in no particular order: a projection does not depend on it), and for the checks
    /// of the index keys it wrote: a top-level attribute among them that is still in `item` was
    /// written by SET, ADD or DELETE (REMOVE and an emptying DELETE take it away, and validation
    /// rejects two actions on one path). Empty when [`apply`] was asked not to keep them.
    pub(crate) paths: Vec<Steps>,
}

impl Updated {
    /// The outcome of an update without an UpdateExpression: `item`, with nothing written.
    pub(crate) fn unchanged(item: Item) -> Updated {
        Updated {
            item,
            paths: Vec::new(),
        }
    }

    /// `ReturnValues=UPDATED_NEW`: the updated paths, as written in the expression, projected from
    /// the new item. So `SET a.c[100] = :v` appending to a two-element list returns nothing (there is
    /// no element 100), and `REMOVE a.c[1]` returns the element that moved into index 1 (real
    /// DynamoDB, issue 26 fact 16; DynamoDB Local 3.3.1 agrees on the first, and returns the whole
    /// top-level attribute for the second, as for every nested path).
    pub(crate) fn updated_new(&self) -> Item {
        project(&self.item, &self.paths)
    }

    /// `ReturnValues=UPDATED_OLD`: the updated paths as they were in `old`.
    pub(crate) fn updated_old(&self, old: &Item) -> Item {
        project(old, &self.paths)
    }
}

fn err(message: &str) -> Error {
    Error::validation(message)
}

/// Whether an update only takes attributes (or set elements) away: every clause a REMOVE or a DELETE.
/// On a missing item such an update creates nothing (real DynamoDB, issue 26 fact 14; ScyllaDB's
/// alternator issue 5862 records it for AttributeUpdates `DELETE`); anything else (SET, ADD, an empty
/// `AttributeUpdates`) creates the item. DynamoDB Local 3.3.1 creates the key-only item.
pub(crate) fn removes_only(update: &UpdateExpression) -> bool {
    update
        .clauses
        .iter()
        .all(|c| matches!(c, Clause::Remove(_) | Clause::Delete(_)))
}

/// The index key attributes (of `index_keys`) a SET copies from a document path (`SET c = e`,
/// `SET c = (e)`): an index key given a wrong type that way is "The update expression attempted to
/// update the secondary index key to unsupported type"; a value from the request is a type mismatch,
/// as for PutItem. Usually empty, without an allocation.
pub(crate) fn copied_index_keys(
    update: &UpdateExpression,
    ph: &Placeholders<'_>,
    index_keys: &[&str],
) -> Vec<String> {
    let mut copied = Vec::new();
    // A table without indexes has none to copy into (a walk of every SET of a long update).
    if index_keys.is_empty() {
        return copied;
    }
    for clause in &update.clauses {
        let Clause::Set(actions) = clause else {
            continue;
        };
        for action in actions {
            if !matches!(action.value.unparen(), Operand::Path(_)) {
                continue;
            }
            if let Some([Step::Key(name)]) = resolve(&action.path, ph).as_deref()
                && index_keys.contains(&name.as_str())
            {
                copied.push(name.clone());
            }
        }
    }
    copied
}

/// A computed number DynamoDB cannot store. Real DynamoDB calls an exact result with more than 38
/// digits (`1e50 - 1`) an overflow too: "Number overflow. Attempting to store a number with magnitude
/// larger than supported range" (ScyllaDB's test_number.py, recorded on DynamoDB); the "38 significant
/// digits" text is only for a number written in the request. DynamoDB Local says "DynamoDB only
/// supports precision up to 38 digits" for both (tests/dual/deviations.md).
fn arithmetic_error(e: NumberError) -> Error {
    match e {
        NumberError::TooManyDigits => Error::validation(NumberError::Overflow.to_string()),
        other => Error::validation(other.to_string()),
    }
}

fn resolved(path: &super::ast::Path, ph: &Placeholders<'_>) -> Result<Steps, Error> {
    // Validation already rejected undefined names; keep the failure total anyway.
    resolve(path, ph).ok_or_else(|| err(INVALID_PATH))
}

/// The value a SET operand denotes in `old`. A path or a value is read directly (every SET of a
/// plain value); anything else is computed on an explicit stack: a valid SET value holds up to 300
/// nested calls and as many parentheses, too deep to recurse on a small stack.
fn value_of(op: &Operand, old: &Item, ph: &Placeholders<'_>) -> Result<AttributeValue, Error> {
    match op {
        Operand::Path(p) => lookup(old, &resolved(p, ph)?)
            .cloned()
            .ok_or_else(|| err(MISSING_OPERAND)),
        Operand::Value(_) | Operand::Literal(_) => eval::value(op, ph)
            .cloned()
            .ok_or_else(|| err(MISSING_OPERAND)),
        _ => computed_value(op, old, ph),
    }
}

/// One step of [`computed_value`]: an operand to evaluate, or the combination of the values its
/// operands left on the value stack.
enum Task<'e> {
    /// Evaluate an operand, pushing its value.
    Eval(&'e Operand),
    /// `+` (true) or `-` (false) of the two values on top.
    Arithmetic(bool),
    /// `list_append` of the two values on top.
    Append,
}

/// [`value_of`] for arithmetic, functions and parentheses: operands are evaluated left to right (so
/// the first failing one is reported, as a recursive walk would), `if_not_exists` evaluates its
/// fallback only when the path is missing.
fn computed_value(
    root: &Operand,
    old: &Item,
    ph: &Placeholders<'_>,
) -> Result<AttributeValue, Error> {
    let mut tasks = vec![Task::Eval(root)];
    let mut values: Vec<AttributeValue> = Vec::new();
    let missing = || err(MISSING_OPERAND);
    while let Some(task) = tasks.pop() {
        match task {
            Task::Eval(op) => match op {
                Operand::Path(_) | Operand::Value(_) | Operand::Literal(_) => {
                    values.push(value_of(op, old, ph)?)
                }
                Operand::Paren(inner) => tasks.push(Task::Eval(inner)),
                Operand::Plus(a, b) | Operand::Minus(a, b) => {
                    let plus = matches!(op, Operand::Plus(..));
                    tasks.extend([Task::Arithmetic(plus), Task::Eval(b), Task::Eval(a)]);
                }
                Operand::Function(f) => match (&*f.name, f.args.as_slice()) {
                    ("if_not_exists", [Operand::Path(p), fallback]) => {
                        match lookup(old, &resolved(p, ph)?) {
                            Some(v) => values.push(v.clone()),
                            None => tasks.push(Task::Eval(fallback)),
                        }
                    }
                    ("list_append", [a, b]) => {
                        tasks.extend([Task::Append, Task::Eval(b), Task::Eval(a)]);
                    }
                    _ => return Err(err(WRONG_TYPE)),
                },
            },
            Task::Arithmetic(plus) => {
                let (y, x) = (
                    values.pop().ok_or_else(missing)?,
                    values.pop().ok_or_else(missing)?,
                );
                let (AttributeValue::N(x), AttributeValue::N(y)) = (x, y) else {
                    return Err(err(WRONG_TYPE));
                };
                let result = if plus {
                    x.checked_add(&y)
                } else {
                    x.checked_sub(&y)
                };
                values.push(result.map(AttributeValue::N).map_err(arithmetic_error)?);
            }
            Task::Append => {
                let (y, x) = (
                    values.pop().ok_or_else(missing)?,
                    values.pop().ok_or_else(missing)?,
                );
                let (AttributeValue::L(mut x), AttributeValue::L(y)) = (x, y) else {
                    return Err(err(WRONG_TYPE));
                };
                x.extend(y);
                values.push(AttributeValue::L(x));
            }
        }
    }
    values.pop().ok_or_else(missing)
}

fn get_mut<'i>(item: &'i mut Item, steps: &[Step]) -> Option<&'i mut AttributeValue> {
    let (Step::Key(first), rest) = steps.split_first()? else {
        return None;
    };
    let mut value = item.get_mut(first)?;
    for step in rest {
        value = match (step, value) {
            (Step::Key(k), AttributeValue::M(m)) => m.get_mut(k)?,
            (Step::Index(i), AttributeValue::L(l)) => l.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(value)
}

/// Writes `value` at `steps`; the parent must exist. An index past the end of a list appends.
fn set_path(item: &mut Item, steps: &[Step], value: AttributeValue) -> Result<(), Error> {
    match steps {
        [Step::Key(k)] => {
            // The map owns its names: `steps` stays the update's path for `Updated::paths`.
            item.insert(k.clone(), value);
            Ok(())
        }
        [prefix @ .., last] if !prefix.is_empty() => {
            match (
                get_mut(item, prefix).ok_or_else(|| err(INVALID_PATH))?,
                last,
            ) {
                (AttributeValue::M(m), Step::Key(k)) => {
                    m.insert(k.clone(), value);
                    Ok(())
                }
                (AttributeValue::L(l), Step::Index(i)) => {
                    match l.get_mut(*i) {
                        Some(slot) => *slot = value,
                        None => l.push(value),
                    }
                    Ok(())
                }
                _ => Err(err(INVALID_PATH)),
            }
        }
        _ => Err(err(INVALID_PATH)),
    }
}

/// From this many attributes written at the top level, and at least an eighth of the item's count,
/// the item is built again from its attributes and the new ones rather than inserted into one at a
/// time: each insert searches the B-tree (a quarter of an `AttributeUpdates` of 32,000 entries went
/// to those searches).
const MERGE_FROM: usize = 32;

/// Writes `new` (each name once, in any order) into `item`, replacing the values of names it has.
fn insert_all(item: &mut Item, new: Vec<(String, AttributeValue)>) {
    if new.len() < MERGE_FROM || new.len().saturating_mul(8) < item.len() {
        item.extend(new);
        return;
    }
    let old = std::mem::take(item);
    if old.len().saturating_mul(8) < new.len() {
        // A few attributes kept: the new ones make the tree (one sorted run when they came from a
        // map, as `AttributeUpdates`' do: its sort only looks), and those of the item's they do not
        // replace go in one at a time.
        *item = new.into_iter().collect();
        for (name, value) in old {
            item.entry(name).or_insert(value);
        }
        return;
    }
    // The bulk build sorts stably and keeps the last of equal names: the update's value, which
    // follows the item's. Its sort finds the item's run and the new one's and merges them, so the
    // update's names need neither a check of their order nor a merge of our own.
    *item = old.into_iter().chain(new).collect();
}

/// Removes `steps`; a missing attribute, key or index is a no-op, a missing or mistyped parent is not.
fn remove_path(item: &mut Item, steps: &[Step]) -> Result<(), Error> {
    match steps {
        [Step::Key(k)] => {
            item.remove(k);
            Ok(())
        }
        [prefix @ .., last] if !prefix.is_empty() => {
            match (
                get_mut(item, prefix).ok_or_else(|| err(INVALID_PATH))?,
                last,
            ) {
                (AttributeValue::M(m), Step::Key(k)) => {
                    m.remove(k);
                }
                (AttributeValue::L(l), Step::Index(i)) => {
                    if *i < l.len() {
                        l.remove(*i);
                    }
                }
                _ => return Err(err(INVALID_PATH)),
            }
            Ok(())
        }
        _ => Err(err(INVALID_PATH)),
    }
}

/// Up to this many elements in the two sets of an ADD or DELETE together, a scan of one set per element
/// of the other is cheaper than a hash set. Beyond, the scans would be quadratic: a set can hold tens
/// of thousands of elements (one 400 KB item), and so can the operand.
const SCAN_UP_TO: usize = 16;

/// Adds to `into` the elements of `from` it lacks, in `from`'s order (of equal ones the first).
/// `table` is the duplicate check's table of `from` (which then has no repeats), if it kept one.
fn union<T: SetElement + Clone>(into: &mut Vec<T>, from: &[T], table: Option<&SetTable>) {
    if table.is_none() && into.len() + from.len() <= SCAN_UP_TO {
        for x in from {
            if !into.contains(x) {
                into.push(x.clone());
            }
        }
        return;
    }
    let present = present_in(into, from, table);
    let added = present.iter().filter(|seen| !**seen).count();
    into.reserve_exact(added);
    into.extend(
        from.iter()
            .zip(&present)
            .filter(|(_, seen)| !**seen)
            .map(|(x, _)| x.clone()),
    );
}

/// [`union`] of an operand the update owns: its new elements move into `into` rather than being
/// copied (and freed with the operand), the same elements in the same order.
fn union_owned<T: SetElement>(into: &mut Vec<T>, from: Vec<T>, table: Option<&SetTable>) {
    if table.is_none() && into.len() + from.len() <= SCAN_UP_TO {
        for x in from {
            if !into.contains(&x) {
                into.push(x);
            }
        }
        return;
    }
    let present = present_in(into, &from, table);
    let added = present.iter().filter(|seen| !**seen).count();
    into.reserve_exact(added);
    into.extend(
        from.into_iter()
            .zip(present)
            .filter(|(_, seen)| !*seen)
            .map(|(x, _)| x),
    );
}

/// An ADD of the set `from` to the set `into`: their [`union`], or, for an operand alone past the
/// item's size limit, its first elements past it in place of `into` (see [`past_item_limit`]).
fn add_set<T: SetElement + Clone>(into: &mut Vec<T>, from: &[T], table: Option<&SetTable>) {
    match past_item_limit(from) {
        Some(past) => *into = from.get(..past).unwrap_or(from).to_vec(),
        None => union(into, from, table),
    }
}

/// [`add_set`] of an operand the update owns ([`union_owned`]): the elements past the limit are
/// moved.
fn add_set_owned<T: SetElement>(into: &mut Vec<T>, mut from: Vec<T>, table: Option<&SetTable>) {
    match past_item_limit(&from) {
        Some(past) => {
            from.truncate(past);
            *into = from;
        }
        None => union_owned(into, from, table),
    }
}

/// How many of `from`'s first elements are alone past the item's size limit, if its elements are:
/// then the union, which keeps every element of `from` (distinct: every operand was checked for
/// duplicates, see `validate::sized_updated_values`) or an equal one as large, is past it whatever
/// the stored set holds, and the update is refused for the item's size
/// (`ops::items::check_updated_item`, after the checks that precede it, which do not read a set's
/// elements). The merge would be wasted (a table of the whole operand): [`add_set`] puts those
/// first elements in place of the stored set instead, an item as refused, at the cost of 400 KB of
/// elements whatever the operand's size.
fn past_item_limit<T: SetElement>(from: &[T]) -> Option<usize> {
    #[cfg(test)]
    if MERGE_ALWAYS.with(std::cell::Cell::get) {
        return None;
    }
    // Summed by chunks without a branch per element (every set ADD pays this pass), the element
    // that passes the limit then found in its chunk.
    const CHUNK: usize = 64;
    let mut size = 0;
    for (c, chunk) in from.chunks(CHUNK).enumerate() {
        let chunk_size: usize = chunk.iter().map(T::size).sum();
        if size + chunk_size > MAX_ITEM_SIZE {
            return chunk
                .iter()
                .position(|x| {
                    size += x.size();
                    size > MAX_ITEM_SIZE
                })
                .map(|i| c * CHUNK + i + 1);
        }
        size += chunk_size;
    }
    None
}

#[cfg(test)]
thread_local! {
    /// Whether a set ADD merges an operand past the item's limit too (see [`past_item_limit`]): the
    /// tests' oracle of the refusal without the merge.
    static MERGE_ALWAYS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every set ADD merged on this thread (see [`past_item_limit`]), for the tests that
/// hold the refusal without the merge to the merge's answers.
#[cfg(test)]
pub(crate) fn merging_always<T>(f: impl FnOnce() -> T) -> T {
    MERGE_ALWAYS.with(|on| on.set(true));
    let out = f();
    MERGE_ALWAYS.with(|on| on.set(false));
    out
}

/// Which of `from`'s elements a union leaves out: those `into` has, and those that repeat an
/// earlier one of `from`'s. `table` is the duplicate check's table of `from`, if it kept one.
fn present_in<T: SetElement>(into: &[T], from: &[T], table: Option<&SetTable>) -> Vec<bool> {
    let mut present = vec![false; from.len()];
    if let Some(table) = table {
        // The operand's table is its check's: only the stored set's elements are hashed here.
        for x in into {
            if let Some(seen) = table.position(from, x).and_then(|i| present.get_mut(i)) {
                *seen = true;
            }
        }
        return present;
    }
    // The table holds the operand, by position, and the stored set probes it: every element of
    // either set is hashed once, only the operand's are inserted (an ADD of a few elements to a
    // large stored set builds a table of those few), and the table does not borrow `into`.
    let mut position: RequestMap<Keyed<'_, T>, usize> = request_hash::map_with_capacity(from.len());
    // Inserted last first, so that an element's earlier position replaces a later one's, which is
    // then a repeat (an `entry` per element did the same, but this build called it out of line).
    for (i, x) in from.iter().enumerate().rev() {
        if let Some(later) = position.insert(Keyed(x), i)
            && let Some(seen) = present.get_mut(later)
        {
            *seen = true;
        }
    }
    for x in into {
        if let Some(seen) = position.get(&Keyed(x)).and_then(|&i| present.get_mut(i)) {
            *seen = true;
        }
    }
    present
}

/// Takes out of `from` the elements of `removed`, keeping the others in order. `table` is the
/// duplicate check's table of `removed`, if it kept one.
fn difference<T: SetElement>(from: &mut Vec<T>, removed: &[T], table: Option<&SetTable>) {
    if let Some(table) = table {
        from.retain(|x| table.position(removed, x).is_none());
        return;
    }
    if from.len() + removed.len() <= SCAN_UP_TO {
        from.retain(|x| !removed.contains(x));
        return;
    }
    let removed: RequestSet<Keyed<'_, T>> = removed.iter().map(Keyed).collect();
    from.retain(|x| !removed.contains(&Keyed(x)));
}

/// ADD of `delta` at `steps`: a number added to the one there, a set united with the one there in
/// place (an ADD of a few elements to a large stored set copies none of it), or the value written
/// where there is none (moved there when the update owns it).
fn add(
    item: &mut Item,
    steps: &[Step],
    delta: Cow<'_, AttributeValue>,
    tables: &SetTables,
) -> Result<(), Error> {
    use AttributeValue::*;
    let delta = match delta {
        Cow::Owned(delta) => return add_owned(item, steps, delta, tables),
        Cow::Borrowed(delta) => delta,
    };
    match (get_mut(item, steps), delta) {
        (None, N(_) | Ss(_) | Ns(_) | Bs(_)) => {
            return set_path(item, steps, delta.clone());
        }
        (Some(N(a)), N(b)) => *a = a.checked_add(b).map_err(arithmetic_error)?,
        (Some(Ss(a)), Ss(b)) => add_set(a, b, tables.of(b)),
        (Some(Ns(a)), Ns(b)) => add_set(a, b, tables.of(b)),
        (Some(Bs(a)), Bs(b)) => add_set(a, b, tables.of(b)),
        _ => return Err(err(WRONG_TYPE)),
    }
    Ok(())
}

/// [`add`] of a value the update owns: a set's new elements move into the stored set.
fn add_owned(
    item: &mut Item,
    steps: &[Step],
    delta: AttributeValue,
    tables: &SetTables,
) -> Result<(), Error> {
    use AttributeValue::*;
    match (get_mut(item, steps), delta) {
        (None, delta @ (N(_) | Ss(_) | Ns(_) | Bs(_))) => return set_path(item, steps, delta),
        (Some(N(a)), N(b)) => *a = a.checked_add(&b).map_err(arithmetic_error)?,
        (Some(Ss(a)), Ss(b)) => {
            let table = tables.of(&b);
            add_set_owned(a, b, table);
        }
        (Some(Ns(a)), Ns(b)) => {
            let table = tables.of(&b);
            add_set_owned(a, b, table);
        }
        (Some(Bs(a)), Bs(b)) => {
            let table = tables.of(&b);
            add_set_owned(a, b, table);
        }
        _ => return Err(err(WRONG_TYPE)),
    }
    Ok(())
}

/// DELETE of `delta`'s elements from the set `existing`, in place: whether the set is left empty
/// (the attribute is then removed).
fn delete(
    existing: &mut AttributeValue,
    delta: &AttributeValue,
    tables: &SetTables,
) -> Result<bool, Error> {
    use AttributeValue::*;
    Ok(match (existing, delta) {
        (Ss(a), Ss(b)) => {
            difference(a, b, tables.of(b));
            a.is_empty()
        }
        (Ns(a), Ns(b)) => {
            difference(a, b, tables.of(b));
            a.is_empty()
        }
        (Bs(a), Bs(b)) => {
            difference(a, b, tables.of(b));
            a.is_empty()
        }
        _ => return Err(err(WRONG_TYPE)),
    })
}

/// DynamoDB's check that no action targets a key attribute (names resolved through placeholders).
pub(crate) fn check_key_attributes(
    expr: &UpdateExpression,
    ph: &Placeholders<'_>,
    keys: &[&str],
) -> Result<(), Error> {
    // The top-level name alone, without resolving (and copying) the whole path: validation has
    // resolved every path already. Clause by clause, without gathering the paths first.
    fn key_among<'p>(
        mut paths: impl Iterator<Item = &'p super::ast::Path>,
        ph: &Placeholders<'p>,
        keys: &[&str],
    ) -> Option<&'p str> {
        paths.find_map(|path| top_name(path, ph).filter(|k| keys.contains(k)))
    }
    for clause in &expr.clauses {
        let key = match clause {
            Clause::Set(actions) => key_among(actions.iter().map(|a| &a.path), ph, keys),
            Clause::Remove(paths) => key_among(paths.iter(), ph, keys),
            Clause::Add(actions) | Clause::Delete(actions) => {
                key_among(actions.iter().map(|a| &a.path), ph, keys)
            }
        };
        if let Some(k) = key {
            return Err(Error::validation(format!(
                    "One or more parameter values were invalid: Cannot update attribute {k}. This attribute is part of the key"
                )));
        }
    }
    Ok(())
}

/// DynamoDB's check that no path of the update (a target, or an operand of SET) looks inside an index
/// key attribute: index keys are scalars, so `SET g.h = :v` or `SET x = g[1]` is rejected up front
/// (dynalite's recorded text; DynamoDB Local 3.3 agrees). With several at fault, the first of
/// `index_keys` is named, whatever the order of the paths (DynamoDB Local 3.3.1 checks the index keys
/// in turn: LSIs, then GSIs, each as declared, hash key first).
pub(crate) fn check_index_key_paths(
    expr: &UpdateExpression,
    ph: &Placeholders<'_>,
    index_keys: &[&str],
) -> Result<(), Error> {
    // A table without indexes has nothing to look for (a walk of every path of a long update).
    if index_keys.is_empty() {
        return Ok(());
    }
    let mut paths = target_paths(expr);
    for clause in &expr.clauses {
        if let Clause::Set(actions) = clause {
            actions.iter().for_each(|a| a.value.paths(&mut paths));
        }
    }
    // The attributes a path looks inside, by hash: an update can hold thousands of paths.
    let looked_inside: RequestSet<&str> = paths
        .iter()
        .filter(|path| path.elements.len() > 1)
        .filter_map(|path| top_name(path, ph))
        .collect();
    match index_keys.iter().find(|k| looked_inside.contains(**k)) {
        Some(k) => Err(Error::validation(format!(
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
             allowed: IndexKey: {k}"
        ))),
        None => Ok(()),
    }
}

fn target_paths(expr: &UpdateExpression) -> Vec<&super::ast::Path> {
    let mut paths = Vec::new();
    for clause in &expr.clauses {
        match clause {
            Clause::Set(actions) => paths.extend(actions.iter().map(|a| &a.path)),
            Clause::Remove(ps) => paths.extend(ps.iter()),
            Clause::Add(actions) | Clause::Delete(actions) => {
                paths.extend(actions.iter().map(|a| &a.path))
            }
        }
    }
    paths
}

/// The actions of an update, resolved, their values read from the old item (every operand is read
/// before the first clause writes).
struct Actions<'e> {
    sets: Vec<(Steps, AttributeValue)>,
    removes: Vec<Steps>,
    adds: Vec<(Steps, Cow<'e, AttributeValue>)>,
    deletes: Vec<(Steps, Cow<'e, AttributeValue>)>,
}

impl<'e> Actions<'e> {
    /// SET is the usual clause of a long update: its actions are counted first (growing the vector
    /// moved every action again).
    fn sized_for(expr: &UpdateExpression) -> Actions<'e> {
        let set_actions = expr.clauses.iter().map(|c| match c {
            Clause::Set(actions) => actions.len(),
            _ => 0,
        });
        Actions {
            sets: Vec::with_capacity(set_actions.sum()),
            removes: Vec::new(),
            adds: Vec::new(),
            deletes: Vec::new(),
        }
    }

    /// The actions of a tree others hold too (a cached expression's): names and values copied.
    fn borrowed(
        expr: &'e UpdateExpression,
        old: &Item,
        ph: &Placeholders<'e>,
        taken: &mut Item,
    ) -> Result<Actions<'e>, Error> {
        let mut out = Actions::sized_for(expr);
        for clause in &expr.clauses {
            match clause {
                Clause::Set(actions) => {
                    for a in actions {
                        out.sets
                            .push((resolved(&a.path, ph)?, value_of(&a.value, old, ph)?));
                    }
                }
                Clause::Remove(paths) => {
                    for p in paths {
                        out.removes.push(resolved(p, ph)?);
                    }
                }
                Clause::Add(actions) | Clause::Delete(actions) => {
                    for a in actions {
                        let owned = match &a.value {
                            Operand::Value(p) if !taken.is_empty() => taken.remove(p),
                            _ => None,
                        };
                        let v = match owned {
                            Some(v) => Cow::Owned(v),
                            None => Cow::Borrowed(
                                eval::value(&a.value, ph).ok_or_else(|| err(WRONG_TYPE))?,
                            ),
                        };
                        let entry = (resolved(&a.path, ph)?, v);
                        if matches!(clause, Clause::Add(_)) {
                            out.adds.push(entry);
                        } else {
                            out.deletes.push(entry);
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// The actions of a tree this update owns (a legacy `AttributeUpdates` tree): its names and
    /// values move into the actions, and so into the new item, where [`Actions::borrowed`] copies
    /// each (and the tree's drop then frees it). Same checks, in the same order.
    fn owned(
        expr: UpdateExpression,
        old: &Item,
        ph: &Placeholders<'_>,
    ) -> Result<Actions<'e>, Error> {
        let mut out = Actions::sized_for(&expr);
        let path_of = |p| eval::resolve_owned(p, ph).ok_or_else(|| err(INVALID_PATH));
        let value_in = |op| match op {
            Operand::Literal(v) => Some(v),
            other => eval::value(&other, ph).cloned(),
        };
        for clause in expr.clauses {
            match clause {
                Clause::Set(actions) => {
                    for a in actions {
                        let path = path_of(a.path)?;
                        let value = match a.value {
                            Operand::Literal(v) => v,
                            other => value_of(&other, old, ph)?,
                        };
                        out.sets.push((path, value));
                    }
                }
                Clause::Remove(paths) => {
                    for p in paths {
                        out.removes.push(path_of(p)?);
                    }
                }
                Clause::Add(actions) => {
                    for a in actions {
                        let v = value_in(a.value).ok_or_else(|| err(WRONG_TYPE))?;
                        out.adds.push((path_of(a.path)?, Cow::Owned(v)));
                    }
                }
                Clause::Delete(actions) => {
                    for a in actions {
                        let v = value_in(a.value).ok_or_else(|| err(WRONG_TYPE))?;
                        out.deletes.push((path_of(a.path)?, Cow::Owned(v)));
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Applies a validated update expression to `old`, giving the new item and, when `keep_paths`, the
/// updated paths (for `UPDATED_OLD`/`UPDATED_NEW` and the index keys' checks: without either, a
/// top-level SET's name moves into the item rather than being copied, and no path is kept). Takes
/// `old` by value: every operand is read from it before the first clause writes, so it becomes the new
/// item in place, without a copy. An owned `expr` gives its names and values up to the new item.
/// `tables` are the duplicate checks' tables of the request's value sets (`Prepared::set_tables`): a
/// set ADD or DELETE of one of them looks the stored set's elements up there rather than hashing the
/// operand again. `taken` are the values of placeholders that the update's ADDs own
/// ([`taken::set_operands`](super::taken::set_operands)), no longer among `ph`'s (usually none): an
/// ADD of one moves its elements into the stored set. The caller has checked the key attributes
/// ([`check_key_attributes`]).
pub(crate) fn apply(
    expr: Cow<'_, UpdateExpression>,
    old: Item,
    ph: &Placeholders<'_>,
    keep_paths: bool,
    tables: &SetTables,
    mut taken: Item,
) -> Result<Updated, Error> {
    let Actions {
        sets,
        mut removes,
        mut adds,
        mut deletes,
    } = match expr {
        Cow::Borrowed(expr) => Actions::borrowed(expr, &old, ph, &mut taken)?,
        Cow::Owned(expr) => Actions::owned(expr, &old, ph)?,
    };
    // Each path moves into `paths` once its action is done: no copies.
    let mut paths = if keep_paths {
        Vec::with_capacity(sets.len() + removes.len() + adds.len() + deletes.len())
    } else {
        Vec::new()
    };
    let mut keep = |steps: Steps| {
        if keep_paths {
            paths.push(steps);
        }
    };

    // DynamoDB applies the actions of a clause in path order, not text order: `SET c[4] = :x, c[2] = :y`
    // on a two-element list appends y then x (measured on DynamoDB Local; dynalite's recorded
    // "should update nested attributes" case agrees). The sort is stable and overlapping paths were
    // rejected by validation, so only list appends can observe it. Most long updates come sorted
    // (`AttributeUpdates` in its map's order): checked first, as one pass.
    sort_by_path(&mut adds);
    sort_by_path(&mut deletes);

    let mut item = old;
    // A top-level SET and a nested one never share an attribute (validation rejects overlapping
    // paths), and top-level names are unique: the nested ones go first, in path order, and the
    // top-level ones then together, in any order (a long update's are all top-level: their order is
    // the item's build's, not checked here).
    let mut top_level = Vec::with_capacity(sets.len());
    let mut nested = Vec::new();
    for (mut steps, value) in sets {
        match steps.as_mut_slice() {
            // The map owns its names: a path kept for `Updated::paths` lends the item a copy.
            [Step::Key(name)] if keep_paths => {
                top_level.push((name.clone(), value));
                keep(steps);
            }
            [Step::Key(name)] => top_level.push((std::mem::take(name), value)),
            _ => nested.push((steps, value)),
        }
    }
    sort_by_path(&mut nested);
    for (steps, value) in nested {
        set_path(&mut item, &steps, value)?;
        keep(steps);
    }
    insert_all(&mut item, top_level);
    // Indexes refer to the list as it was: remove the highest index of each list first.
    removes.sort_by(|a, b| b.cmp(a));
    for steps in removes {
        remove_path(&mut item, &steps)?;
        keep(steps);
    }
    for (steps, delta) in adds {
        add(&mut item, &steps, delta, tables)?;
        keep(steps);
    }
    for (steps, delta) in deletes {
        match get_mut(&mut item, &steps) {
            Some(existing) => {
                if delete(existing, &delta, tables)? {
                    remove_path(&mut item, &steps)?;
                }
            }
            None => {
                if steps.len() > 1
                    && lookup(&item, steps.split_last().map_or(&[][..], |(_, p)| p)).is_none()
                {
                    return Err(err(INVALID_PATH));
                }
            }
        }
        keep(steps);
    }
    Ok(Updated { item, paths })
}

/// Sorts a clause's actions by path, stably; a run already in order is only checked.
fn sort_by_path<V>(actions: &mut [(Steps, V)]) {
    if !actions.is_sorted_by(|a, b| a.0 <= b.0) {
        actions.sort_by(|a, b| a.0.cmp(&b.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.to_owned())
    }

    /// The build gives what inserting one at a time gives, below and past `MERGE_FROM`, with the
    /// new names in order or not.
    #[test]
    fn insert_all_is_insert_one_at_a_time() {
        for (stored, written) in [(0, 40), (3, 40), (60, 40), (400, 40), (10, 5)] {
            let item: Item = (0..stored)
                .step_by(2)
                .map(|i| (format!("a{i:03}"), s("old")))
                .chain([("pk".to_owned(), s("k"))])
                .collect();
            let sorted: Vec<(String, AttributeValue)> = (0..written)
                .map(|i| (format!("a{i:03}"), s("new")))
                .collect();
            let reversed: Vec<_> = sorted.iter().rev().cloned().collect();
            // Odd names first, then even ones, each run descending.
            let mut interleaved = sorted.clone();
            interleaved.sort_by_key(|(name, _)| {
                let i: usize = name.trim_start_matches('a').parse().unwrap_or(0);
                (i.is_multiple_of(2), std::cmp::Reverse(i))
            });
            for new in [sorted.clone(), reversed, interleaved] {
                let mut want = item.clone();
                want.extend(new.clone());
                let mut got = item.clone();
                insert_all(&mut got, new);
                assert_eq!(got, want, "{stored} stored, {written} written");
            }
        }
    }

    /// Past `SCAN_UP_TO`, the union keeps the stored set's order and appends the operand's new
    /// elements in the operand's order, of repeated ones the first, as the scan does: a few added to
    /// many, many to a few, and an operand that repeats itself.
    #[test]
    fn a_union_by_table_keeps_the_scans_order() {
        let strings = |v: &[usize]| -> Vec<String> { v.iter().map(|k| format!("e{k}")).collect() };
        let scan = |into: &[String], from: &[String]| {
            let mut out = into.to_vec();
            for x in from {
                if !out.contains(x) {
                    out.push(x.clone());
                }
            }
            out
        };
        let many: Vec<usize> = (0..40).rev().collect();
        let cases: [(&[usize], &[usize]); 4] = [
            (&many, &[41, 3, 40]),
            (&[3, 1], &many),
            (
                &many[..20],
                &[
                    50, 7, 50, 51, 7, 52, 1, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62,
                ],
            ),
            (&[], &many),
        ];
        for (into, from) in cases {
            let (into, from) = (strings(into), strings(from));
            let mut got = into.clone();
            union(&mut got, &from, None);
            assert_eq!(got, scan(&into, &from), "{into:?} + {from:?}");
        }
    }

    /// With the operand's duplicate-check table, the union and the difference answer as the scans
    /// do: a few added to many, many to a few, overlapping halves, and no element in common.
    #[test]
    fn unions_and_differences_by_the_checks_table_are_the_scans() {
        let strings =
            |r: std::ops::Range<usize>| -> Vec<String> { r.map(|k| format!("e{k}")).collect() };
        for (into, from) in [
            (0..40, 20..60),
            (0..3, 0..40),
            (0..40, 38..41),
            (5..30, 0..100),
            (0..20, 20..40),
        ] {
            let (into, from) = (strings(into), strings(from));
            let crate::validate::Checked::Table(table) = SetTable::of(&from) else {
                panic!("no table of {from:?}");
            };
            let mut with = into.clone();
            union(&mut with, &from, Some(&table));
            let mut without = into.clone();
            for x in &from {
                if !without.contains(x) {
                    without.push(x.clone());
                }
            }
            assert_eq!(with, without, "{into:?} + {from:?}");
            let mut with = into.clone();
            difference(&mut with, &from, Some(&table));
            let mut without = into.clone();
            without.retain(|x| !from.contains(x));
            assert_eq!(with, without, "{into:?} - {from:?}");
        }
    }

    /// An ADD's operand alone past 400 KB takes the stored set's place with its first elements
    /// past the limit (borrowed or owned); one at the limit is united; `merging_always` unites both.
    #[test]
    fn an_operand_past_the_item_limit_replaces_the_stored_set() {
        let stored = vec!["a".to_owned(), "e0000000".to_owned()];
        let operand = |n: usize| -> Vec<String> { (0..n).map(|i| format!("e{i:07}")).collect() };
        // 51,200 elements of 8 bytes: exactly 409,600, not past.
        let at = operand(51_200);
        let mut set = stored.clone();
        add_set(&mut set, &at, None);
        assert_eq!(set.len(), 51_201);
        let past = operand(60_000);
        let mut set = stored.clone();
        add_set(&mut set, &past, None);
        assert_eq!(set, past[..51_201]);
        let mut set = stored.clone();
        add_set_owned(&mut set, past.clone(), None);
        assert_eq!(set, past[..51_201]);
        let mut set = stored.clone();
        merging_always(|| add_set_owned(&mut set, past.clone(), None));
        assert_eq!(set.len(), 60_001);
        let mut set = stored.clone();
        merging_always(|| add_set(&mut set, &past, None));
        assert_eq!(set.len(), 60_001);
    }

    /// Sets whose elements all share a fixed-key hash (Java's `String.hashCode`): the union and the
    /// difference by table answer as for any other elements (the tables are keyed at random).
    #[test]
    fn unions_and_differences_of_colliding_elements() {
        let all = crate::storage::request_hash::colliding_names(15);
        let half = all.len() / 2;
        let mut set = all[..half].to_vec();
        union(&mut set, &all[half / 2..], None);
        assert_eq!(set, all);
        difference(&mut set, &all[..half], None);
        assert_eq!(set, all[half..]);
    }

    /// Past `SCAN_UP_TO` (the hash tables), binaries that are prefixes of each other stay apart and
    /// numbers equal in value are one element, as in the scans below it.
    #[test]
    fn unions_and_differences_by_table_are_the_scans() {
        for n in [4, 40] {
            let zeros = |from: usize, to: usize| -> Vec<Vec<u8>> {
                (from..to).map(|k| vec![0; k]).collect()
            };
            let mut bins = zeros(1, n);
            union(&mut bins, &zeros(n / 2, n + 2), None);
            assert_eq!(bins, zeros(1, n + 2), "{n}");
            difference(&mut bins, &zeros(0, n), None);
            assert_eq!(bins, zeros(n, n + 2), "{n}");
            let numbers = |from: usize, to: usize, suffix: &str| -> Vec<dynomodel::Number> {
                (from..to)
                    .map(|k| format!("{k}{suffix}").parse().unwrap())
                    .collect()
            };
            let mut nums = numbers(0, n, "");
            union(&mut nums, &numbers(n / 2, n + 2, ".0"), None);
            assert_eq!(nums, numbers(0, n + 2, ""), "{n}");
            difference(&mut nums, &numbers(1, n + 2, "e0"), None);
            assert_eq!(nums, numbers(0, 1, ""), "{n}");
        }
    }
}
