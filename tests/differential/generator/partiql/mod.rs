//! The PartiQL forms of the requests the generator makes, over the same random tables
//! and items: `INSERT` (of existing keys too: `DuplicateItemException`), `UPDATE … SET … REMOVE` and
//! `DELETE` with the full key and extra conditions in `WHERE`, `SELECT` of `*` or of (nested) paths
//! from a table or an index, planned as a Query (partition key fixed by equality) or a Scan, walked
//! page by page with `Limit` and `NextToken`; `ConsistentRead`, `ReturnValuesOnConditionCheckFailure`,
//! `BatchExecuteStatement` (per-statement errors) and `ExecuteTransaction` (cancellation reasons).
//! About one statement in seven carries exactly one defect: bad syntax, a missing or an extra `?`
//! parameter, a missing table, a key not fully specified or of the wrong type.

mod text;

use dynomodel::{AttributeValue, ProjectionType, ScalarAttributeType};

use super::items::{key_value, random_item, random_value, wrong_type, ATTRIBUTE_NAMES};
use super::{IndexSpec, Op, TableRef, TableSpec};
use crate::rng::Rng;
use text::{condition, name, path_with_root, pool, Text};

/// Stands for the table's name in a statement's text; the runner puts in the run's name.
pub(crate) const TABLE: &str = "@T@";

/// One PartiQL statement with the members a request carries for it.
#[derive(Debug, Clone)]
pub(crate) struct Statement {
    pub table: TableRef,
    /// The statement, naming its table `"@T@"`.
    pub text: String,
    pub parameters: Option<Vec<AttributeValue>>,
    pub consistent: Option<bool>,
    pub old_on_failure: bool,
    /// A SELECT whose order is undocumented, compared as a multiset: a Scan (partitions come in hash
    /// order, which the engine does not reproduce: see `apply::Answer::ScanWalk`) or an index read
    /// (entries with equal index keys).
    pub unordered: bool,
}

/// The one defect of an invalid statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Defect {
    None,
    Syntax,
    /// One `?` parameter too few (or, rarely, too many).
    Parameters,
    /// A key attribute left out of an UPDATE's or DELETE's `WHERE`, or of the wrong type.
    Key,
}

/// `count` PartiQL operations over `tables`: a quarter batches and transactions.
pub(crate) fn operations(rng: &mut Rng, tables: &[TableSpec], count: usize) -> Vec<Op> {
    (0..count).map(|_| operation(rng, tables)).collect()
}

fn operation(rng: &mut Rng, tables: &[TableSpec]) -> Op {
    match rng.below(100) {
        0..=11 => {
            let count = 1 + rng.below(5);
            Op::BatchStatements {
                statements: batch(rng, tables, count),
            }
        }
        12..=24 => {
            let count = 1 + rng.below(4);
            Op::Transaction {
                statements: batch(rng, tables, count),
            }
        }
        _ => {
            let defect = defect(rng);
            let (statement, limit) = statement(rng, tables, defect);
            Op::Statement { statement, limit }
        }
    }
}

fn defect(rng: &mut Rng) -> Defect {
    if !rng.chance(14) {
        return Defect::None;
    }
    *rng.pick(&[Defect::Syntax, Defect::Parameters, Defect::Key, Defect::Key])
}

/// A table of the run, or (a defect of its own) a missing one now and then.
fn table_ref(rng: &mut Rng, tables: &[TableSpec], defect: Defect) -> (usize, TableRef) {
    let index = rng.below(tables.len());
    let table = if defect == Defect::None && rng.chance(2) {
        TableRef::Missing
    } else {
        TableRef::Table(index)
    };
    (index, table)
}

/// One statement of any kind, with its `Limit`.
fn statement(rng: &mut Rng, tables: &[TableSpec], defect: Defect) -> (Statement, Option<i32>) {
    let (index, table) = table_ref(rng, tables, defect);
    let spec = &tables[index];
    let mut t = Text {
        keys: key_types(spec),
        ..Text::default()
    };
    let old_on_failure = rng.chance(30);
    let (mut text, consistent, limit, unordered) = match rng.below(100) {
        0..=24 => (insert(rng, spec, &mut t), None, None, false),
        25..=49 => (update(rng, spec, &mut t, defect), None, None, false),
        50..=64 => (delete(rng, spec, &mut t, defect), None, None, false),
        _ => {
            let (text, consistent, unordered) = select(rng, spec, &mut t);
            let limit = rng.chance(50).then(|| *rng.pick(&[1, 2, 3, 5, 10, 100]));
            (text, consistent, limit, unordered)
        }
    };
    break_text(rng, defect, &mut text, &mut t);
    let statement = Statement {
        table,
        text,
        parameters: t.parameters(),
        consistent,
        old_on_failure,
        unordered,
    };
    (statement, limit)
}

/// Puts a syntax or parameter defect into a written statement (the key defects are written in).
fn break_text(rng: &mut Rng, defect: Defect, text: &mut String, t: &mut Text) {
    match defect {
        Defect::Syntax => break_syntax(rng, text),
        // An extra parameter only on a SELECT: DynamoDB Local ignores it (tests/dual/deviations.md), so
        // on a write the two tables would part ways.
        Defect::Parameters
            if text.starts_with("SELECT") && (t.params.is_empty() || rng.chance(20)) =>
        {
            t.params.push(AttributeValue::S("extra".into()));
        }
        Defect::Parameters if !t.params.is_empty() => {
            let at = rng.below(t.params.len());
            t.params.remove(at);
        }
        _ => {}
    }
}

/// Statements for a batch or a transaction: all reads (full-key SELECTs) or all writes, most of the
/// time on distinct items.
fn batch(rng: &mut Rng, tables: &[TableSpec], count: usize) -> Vec<Statement> {
    let reads = rng.chance(35);
    let mut statements: Vec<Statement> = Vec::new();
    let mut keys: Vec<(TableRef, String)> = Vec::new();
    // At most one statement with a defect (which of two DynamoDB reports is undocumented).
    let broken = rng.chance(20).then(|| rng.below(count));
    while statements.len() < count {
        let defect = if broken == Some(statements.len()) {
            defect(rng)
        } else {
            Defect::None
        };
        let (index, table) = table_ref(rng, tables, defect);
        let spec = &tables[index];
        let mut t = Text {
            keys: key_types(spec),
            ..Text::default()
        };
        let mut text = if reads {
            get(rng, spec, &mut t, defect)
        } else {
            match rng.below(3) {
                0 => insert(rng, spec, &mut t),
                1 => update(rng, spec, &mut t, defect),
                _ => delete(rng, spec, &mut t, defect),
            }
        };
        break_text(rng, defect, &mut text, &mut t);
        // Two statements on one item make the whole request invalid: now and then only, and in reads
        // only (DynamoDB Local runs a batch's writes and then reports the duplicate keys, where
        // DynamoDB writes nothing: tests/dual/deviations.md).
        let key = (table, t.key.clone());
        if keys.contains(&key) && (!reads || !rng.chance(10)) {
            continue;
        }
        keys.push(key);
        statements.push(Statement {
            table,
            text,
            parameters: t.parameters(),
            consistent: reads.then(|| rng.chance(50)),
            old_on_failure: rng.chance(30),
            unordered: false,
        });
    }
    statements
}

/// `"pk" = v AND "sk" = v` (in either order) for a random key; with `Defect::Key`, one attribute is
/// left out (on a table with a sort key, or the statement fails anyway) or of the wrong type.
fn key_where(rng: &mut Rng, spec: &TableSpec, t: &mut Text, defect: Defect) -> String {
    let mut terms: Vec<(String, AttributeValue)> =
        vec![(spec.hash.0.clone(), key_value(rng, spec.hash.1))];
    if let Some((n, ty)) = &spec.range {
        terms.push((n.clone(), key_value(rng, *ty)));
    }
    if defect == Defect::Key {
        let at = rng.below(terms.len());
        if rng.chance(50) {
            terms.remove(at);
        } else {
            let ty = if at == 0 {
                spec.hash.1
            } else {
                spec.range.as_ref().map_or(spec.hash.1, |r| r.1)
            };
            terms[at].1 = wrong_type(rng, ty);
        }
    }
    if rng.chance(50) {
        terms.reverse();
    }
    let mut key = terms.clone();
    key.sort_by(|a, b| a.0.cmp(&b.0));
    t.key = format!("{key:?}");
    let parts: Vec<String> = terms
        .iter()
        .map(|(n, v)| format!("{} = {}", name(rng, n), t.value(rng, v)))
        .collect();
    parts.join(" AND ")
}

/// The key attributes of a table and its indexes, with their types.
fn key_types(spec: &TableSpec) -> Vec<(String, ScalarAttributeType)> {
    let mut keys = vec![spec.hash.clone()];
    keys.extend(spec.range.iter().cloned());
    keys.extend(spec.index_attributes.iter().cloned());
    keys
}

fn table_name() -> String {
    format!("\"{TABLE}\"")
}

/// `INSERT INTO "t" VALUE {…}` of a random item (keys from the small pools, so existing keys often).
fn insert(rng: &mut Rng, spec: &TableSpec, t: &mut Text) -> String {
    let item = random_item(rng, spec, false);
    let key: Vec<(String, AttributeValue)> = item
        .iter()
        .filter(|(k, _)| **k == spec.hash.0 || spec.range.as_ref().is_some_and(|r| r.0 == **k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    t.key = format!("{key:?}");
    let fields: Vec<String> = item
        .iter()
        .map(|(k, v)| format!("'{}': {}", k.replace('\'', "''"), t.value(rng, v)))
        .collect();
    format!(
        "INSERT INTO {} VALUE {{{}}}",
        table_name(),
        fields.join(", ")
    )
}

/// Extra conditions after the key equality, half of the time.
fn extra_conditions(rng: &mut Rng, spec: &TableSpec, t: &mut Text) -> String {
    if rng.chance(50) {
        return String::new();
    }
    let pool = pool(&spec.key_names());
    format!(" AND {}", condition(rng, t, &pool, 2))
}

/// `UPDATE "t" SET … REMOVE … WHERE <key> [AND …]`: SETs of non-key attributes (index keys with
/// values of their type), arithmetic now and then, and REMOVEs; distinct attributes, so no overlap.
fn update(rng: &mut Rng, spec: &TableSpec, t: &mut Text, defect: Defect) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut clauses: Vec<String> = Vec::new();
    for _ in 0..=rng.below(3) {
        let index_key = (!spec.index_attributes.is_empty() && rng.chance(15))
            .then(|| rng.pick(&spec.index_attributes).clone());
        let attr = match &index_key {
            Some((n, _)) => n.clone(),
            None => (*rng.pick(ATTRIBUTE_NAMES)).to_owned(),
        };
        if names.contains(&attr) {
            continue;
        }
        names.push(attr.clone());
        let target = name(rng, &attr);
        let clause = match (&index_key, rng.below(10)) {
            (Some((_, ty)), _) => {
                let v = key_value(rng, *ty);
                format!("SET {target} = {}", t.value(rng, &v))
            }
            (None, 0 | 1) => format!("REMOVE {target}"),
            (None, 2) => format!(
                "SET {target} = {target} + {}",
                t.value(rng, &AttributeValue::N(super::items::number("1")))
            ),
            (None, 3) => {
                let nested = if rng.chance(50) {
                    "[0]".to_owned()
                } else {
                    format!(".{}", name(rng, "a"))
                };
                let v = random_value(rng, 1);
                format!("SET {target}{nested} = {}", t.value(rng, &v))
            }
            (None, _) => {
                let v = random_value(rng, 2);
                format!("SET {target} = {}", t.value(rng, &v))
            }
        };
        clauses.push(clause);
    }
    if clauses.is_empty() {
        clauses.push(format!("SET {} = 1", name(rng, "count")));
    }
    let keys = key_where(rng, spec, t, defect);
    let extra = extra_conditions(rng, spec, t);
    format!(
        "UPDATE {} {} WHERE {keys}{extra}",
        table_name(),
        clauses.join(" ")
    )
}

/// `DELETE FROM "t" WHERE <key> [AND …]`.
fn delete(rng: &mut Rng, spec: &TableSpec, t: &mut Text, defect: Defect) -> String {
    let keys = key_where(rng, spec, t, defect);
    let extra = extra_conditions(rng, spec, t);
    format!("DELETE FROM {} WHERE {keys}{extra}", table_name())
}

/// A single-item `SELECT` (full key), for batches and transactions.
fn get(rng: &mut Rng, spec: &TableSpec, t: &mut Text, defect: Defect) -> String {
    let projection = projection(rng, &pool(&spec.key_names()), t);
    let keys = key_where(rng, spec, t, defect);
    format!("SELECT {projection} FROM {} WHERE {keys}", table_name())
}

/// `*` or a list of one to three (nested) paths.
fn projection(rng: &mut Rng, pool: &[String], t: &Text) -> String {
    if rng.chance(45) {
        return "*".to_owned();
    }
    // Distinct result names (`SELECT a, a` and `SELECT x.y, y` are refused: a defect).
    let mut paths: Vec<String> = Vec::new();
    let mut idents: Vec<String> = Vec::new();
    for _ in 0..=rng.below(3) {
        let path = path_with_root(rng, pool, &t.keys).1;
        let ident = path.rsplit('.').next().unwrap_or("").replace('"', "");
        let ident = ident.split('[').next().unwrap_or("").to_owned();
        if !idents.contains(&ident) {
            idents.push(ident);
            paths.push(path);
        }
    }
    paths.join(", ")
}

/// The attributes an index's entries carry.
fn visible(spec: &TableSpec, index: &IndexSpec) -> Vec<String> {
    let mut keys = vec![spec.hash.0.clone(), index.hash.0.clone()];
    keys.extend(spec.range.iter().map(|r| r.0.clone()));
    keys.extend(index.range.iter().map(|r| r.0.clone()));
    match index.projection {
        ProjectionType::All => pool(&spec.key_names()),
        ProjectionType::KeysOnly => keys,
        ProjectionType::Include => {
            keys.extend(index.include.iter().cloned());
            keys
        }
    }
}

/// A `SELECT` from the table or one of its indexes: with the partition key fixed by equality (a
/// Query, with a sort-key condition now and then) or not (a Scan), and a filter half of the time.
fn select(rng: &mut Rng, spec: &TableSpec, t: &mut Text) -> (String, Option<bool>, bool) {
    let index =
        (!spec.indexes.is_empty() && rng.chance(30)).then(|| rng.pick(&spec.indexes).clone());
    let (from, hash, range, pool) = match &index {
        Some(i) => (
            format!("{}.\"{}\"", table_name(), i.name),
            i.hash.clone(),
            i.range.clone(),
            visible(spec, i),
        ),
        None => (
            table_name(),
            spec.hash.clone(),
            spec.range.clone(),
            pool(&spec.key_names()),
        ),
    };
    let projection = projection(rng, &pool, t);
    let mut terms: Vec<String> = Vec::new();
    let query = rng.chance(55);
    // In a Query, the filter leaves the queried key attributes alone: with two terms on one key
    // attribute, which one DynamoDB's planner takes for the key condition (and so which
    // value types it checks) is undocumented, and DynamoDB Local's choice is irregular (measured:
    // `pk = 'a' AND contains(pk, 1)` is refused, `contains(pk, 1) AND pk = 'a'` runs).
    let mut filter_pool = pool.clone();
    if query {
        let v = key_value(rng, hash.1);
        terms.push(format!("{} = {}", name(rng, &hash.0), t.value(rng, &v)));
        filter_pool.retain(|a| *a != hash.0 && range.as_ref().is_none_or(|r| r.0 != *a));
        if let Some((n, ty)) = &range
            && rng.chance(50)
        {
            terms.push(sort_key_condition(rng, t, n, *ty));
        }
    }
    // A filter naming a key attribute makes the statement a Scan (the key condition cannot hold it).
    let mut scanned = !query;
    if !filter_pool.is_empty() && rng.chance(50) {
        let filter = condition(rng, t, &filter_pool, 2);
        scanned |= filter.contains("pk") || filter.contains("sk");
        terms.push(filter);
    }
    if rng.chance(50) {
        terms.reverse();
    }
    let mut text = format!("SELECT {projection} FROM {from}");
    if !terms.is_empty() {
        text.push_str(" WHERE ");
        text.push_str(&terms.join(" AND "));
    }
    // ConsistentRead: GSIs refuse it, a defect, so only on a SELECT without WHERE there (which of
    // several defects DynamoDB reports first is undocumented).
    let gsi = index.as_ref().is_some_and(|i| i.global);
    let consistent = match rng.below(3) {
        0 => None,
        _ => Some(rng.chance(50) && (!gsi || terms.is_empty())),
    };
    (text, consistent, index.is_some() || scanned)
}

/// A condition on the sort key that a Query can use: a comparison (attribute first: DynamoDB Local
/// reads `2 >= sk` as `sk >= 2`, tests/dual/deviations.md), BETWEEN or begins_with.
fn sort_key_condition(rng: &mut Rng, t: &mut Text, n: &str, ty: ScalarAttributeType) -> String {
    let target = name(rng, n);
    match rng.below(5) {
        0 => {
            let (lo, hi) = super::expressions::bounds(rng, ty, false);
            format!(
                "{target} BETWEEN {} AND {}",
                t.value(rng, &lo),
                t.value(rng, &hi)
            )
        }
        1 if ty != ScalarAttributeType::N => {
            let v = key_value(rng, ty);
            format!("begins_with({target}, {})", t.value(rng, &v))
        }
        _ => {
            let op = rng.pick(&["=", "<", "<=", ">", ">="]);
            let v = key_value(rng, ty);
            format!("{target} {op} {}", t.value(rng, &v))
        }
    }
}

/// A syntax error: a keyword misspelt, a token dropped or doubled, or the statement cut short.
fn break_syntax(rng: &mut Rng, text: &mut String) {
    let replacements: [(&str, &str); 6] = [
        ("WHERE ", "WHER "),
        (" FROM ", " FORM "),
        (" = ", " == "),
        (" AND ", " AND AND "),
        ("VALUE {", "VALUES {"),
        ("SELECT ", "SELECT , "),
    ];
    let applicable: Vec<&(&str, &str)> = replacements
        .iter()
        .filter(|(from, _)| text.contains(from))
        .collect();
    if applicable.is_empty() || rng.chance(20) {
        text.push_str(rng.pick::<&str>(&[" WHERE", " AND", ")", " ,"]));
        return;
    }
    let (from, to) = rng.pick(&applicable);
    *text = text.replacen(from, to, 1);
}
