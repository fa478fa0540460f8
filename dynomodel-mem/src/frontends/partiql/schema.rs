//! What the planner needs to know of a table, read through DescribeTable, and the statement parse with
//! its parameter count check.

use std::collections::{BTreeMap, HashSet};

use dynomodel::backend::{Backend, DescribeTableInput, ScalarAttributeType};
use dynomodel::{AttributeValue, Error, Item, Result};

use super::ast::{Assignment, Expr, Path, Projection, Statement, Step};
use super::errors;
use super::plan::{compared_with, conjuncts, equality, full_key, range_form, Gen, KeyNames};
use crate::expr::validate::{validate_condition, validate_projection, validate_update};
use crate::expr::{self, ExprKind, Expression, Origin, Placeholders, Usage};
use crate::storage::java_order::java_hash_set_order;

/// What the planner needs of a table: its keys, its indexes' keys, its key attributes' types.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    /// The table's name.
    pub(crate) table: String,
    /// The table's key.
    pub(crate) keys: KeyNames,
    /// Each index's key, by name.
    pub(crate) indexes: BTreeMap<String, KeyNames>,
    /// The names of the global secondary indexes.
    pub(crate) global: Vec<String>,
    /// The declared type of each key attribute.
    types: BTreeMap<String, ScalarAttributeType>,
}

impl Schema {
    /// The schema of `table`, `ResourceNotFoundException` when there is none.
    pub(crate) async fn load(backend: &dyn Backend, table: &str) -> Result<Schema> {
        let out = backend
            .describe_table(DescribeTableInput {
                table_name: table.to_owned(),
            })
            .await
            .map_err(|e| match e {
                Error::ResourceNotFound { .. } => errors::no_table(),
                other => other,
            })?;
        let t = out.table;
        let mut indexes = BTreeMap::new();
        for g in &t.global_secondary_indexes {
            indexes.insert(g.index_name.clone(), KeyNames::of(&g.key_schema));
        }
        for l in &t.local_secondary_indexes {
            indexes.insert(l.index_name.clone(), KeyNames::of(&l.key_schema));
        }
        Ok(Schema {
            global: t
                .global_secondary_indexes
                .iter()
                .map(|g| g.index_name.clone())
                .collect(),
            table: t.table_name,
            keys: KeyNames::of(&t.key_schema),
            indexes,
            types: t
                .attribute_definitions
                .iter()
                .map(|d| (d.attribute_name.clone(), d.attribute_type))
                .collect(),
        })
    }

    /// Checks that the key values in `item` have their declared types.
    pub(crate) fn check_types(&self, item: &Item) -> Result<()> {
        for (name, value) in item {
            let Some(expected) = self.types.get(name) else {
                continue;
            };
            if value.type_name() != scalar_name(*expected) {
                return Err(errors::key_type(name));
            }
        }
        Ok(())
    }

    /// Checks `filter` as a filter expression first (so that an operand of the wrong kind is reported
    /// as DynamoDB Local reports it, before any key check), then that every value compared with a key
    /// attribute has the attribute's type. A mismatch in a term that becomes the key condition (the
    /// first top-level `pk = v` or `pk IN […]`, then the first top-level sort-key term) is "Key
    /// attribute's data type should match …"; any other (`pk <> [1]`, `NOT pk = 2`, `contains(pk, 1)`)
    /// is the Query/Scan text (both measured on DynamoDB Local 3.3.1).
    pub(crate) fn check_filter(
        &self,
        ph: &Gen<'_>,
        filter: &Expr,
        projection: &Projection,
        queried: &KeyNames,
        consistent_gsi: bool,
    ) -> Result<()> {
        prevalidate_condition(ph, filter)?;
        // A top-level term reading into a queried key attribute first (DynamoDB Local 3.3.1:
        // `pk.m > 'a' AND ia <= <bytes> AND pk = 0` is the `Key: pk` error); other paths into keys
        // after a consistent read of a GSI (`NOT size(sk.x) = 5` on a GSI is the consistent read's).
        let direct: Vec<&Path> = conjuncts(filter)
            .into_iter()
            .filter_map(|t| match t {
                Expr::Cmp(a, _, _) | Expr::Between(a, _, _) | Expr::In(a, _) => Some(a.as_ref()),
                Expr::Call(_, args) => args.first(),
                _ => None,
            })
            .filter_map(|e| match e {
                Expr::Path(p) if !p.steps.is_empty() && queried.all().any(|k| *k == p.root) => {
                    Some(p)
                }
                _ => None,
            })
            .collect();
        self.check_nested_paths(&direct)?;
        // The terms checked as the key condition: the first top-level equality on the partition key
        // (or else its first IN); then the sort key's last equality, or else its first term of a
        // key-condition form. A simple term on a key attribute that a later term also names is not
        // checked (DynamoDB Local 3.3.1, whose planner keeps one term per key attribute:
        // `contains(pk, 1) AND pk = 'a'`, `pk < -3 AND pk = 'a'`, `sk = 'x' AND sk = 1`,
        // `pk <> <bytes> AND NOT pk IN ['a']` run, and the statement still evaluates every term;
        // `pk = 'a' AND contains(pk, 1)`, `pk = 'a' AND pk = 1` and `(contains(pk, 1) OR a = 1) AND
        // pk = 'a'` are refused).
        let terms = conjuncts(filter);
        // A term naming a queried key attribute in another way (`size(sk) = 1`, `(contains(pk, 1) OR
        // a = 1)`) leaves no key condition (DynamoDB Local 3.3.1: `size(sk) = 1 AND sk >= 'x' AND
        // pk = 'a'` on a numeric `sk` is the filter's error).
        let keys: Vec<&String> = self.keys.all().chain(queried.all()).collect();
        let mixed = terms.iter().any(|t| {
            queried
                .all()
                .any(|k| super::plan::mentions(t, k) && !simple_on(t, k, &keys))
        });
        let in_on_hash = |t: &&Expr| matches!(t, Expr::In(a, _) if matches!(a.as_ref(), Expr::Path(p) if p.is_attribute(&queried.hash)));
        let mut key_at: Vec<usize> = Vec::new();
        let hash_at = terms
            .iter()
            .position(|t| equality(t, &queried.hash).is_some())
            .or_else(|| terms.iter().position(in_on_hash))
            .filter(|_| !mixed);
        if let Some(h) = hash_at {
            key_at.push(h);
            if let Some(range) = &queried.range {
                let at = terms
                    .iter()
                    .rposition(|t| equality(t, range).is_some())
                    .or_else(|| terms.iter().position(|t| range_form(t, range)));
                key_at.extend(at);
            }
        }
        let key_terms: Vec<&Expr> = key_at.iter().map(|i| terms[*i]).collect();
        let skipped = |i: usize, t: &Expr| {
            keys.iter().any(|k| {
                simple_on(t, k, &keys)
                    && terms[i + 1..]
                        .iter()
                        .any(|later| super::plan::mentions(later, k))
            })
        };
        // The key attributes in `java.util.HashSet` order, whatever the order of the terms (DynamoDB
        // Local 3.3.1: `sk` before `pk`, `ia` before `ib`, an index's `sk` before `ib`).
        for name in java_hash_set_order(queried.all().map(String::as_str)) {
            for term in &key_terms {
                self.check_compared(ph, term, name, true)?;
            }
        }
        // Then what the Query or Scan checks (DynamoDB Local 3.3.1's order): a consistent read of a
        // GSI, paths into key attributes, values compared with key attributes.
        if consistent_gsi {
            return Err(Error::validation(
                "Consistent reads are not supported on global secondary indexes",
            ));
        }
        let mut nested = Vec::new();
        nested_paths(filter, &mut nested);
        self.check_nested_paths(&nested)?;
        for (i, term) in terms.iter().enumerate() {
            if skipped(i, term) || key_terms.iter().any(|k| std::ptr::eq(*k, *term)) {
                continue;
            }
            for name in self.keys.all().chain(queried.all()) {
                self.check_compared(ph, term, name, false)?;
            }
        }
        // The projection's paths last (DynamoDB Local 3.3.1: `SELECT ia.x … WHERE contains(pk, 1)`
        // is the value's type error).
        self.check_projection_keys(projection)?;
        Ok(())
    }

    /// Checks the values compared with key attribute `name` in `term` against its type.
    fn check_compared(&self, ph: &Gen<'_>, term: &Expr, name: &str, key_term: bool) -> Result<()> {
        let Some(expected) = self.types.get(name) else {
            return Ok(());
        };
        let expected = scalar_name(*expected);
        let mut values = Vec::new();
        compared_with(term, name, &mut values);
        for value in values {
            if ph.resolve(value)?.type_name() != expected {
                return Err(if key_term {
                    errors::key_type(name)
                } else {
                    Error::validation(errors::CONDITION_TYPE)
                });
            }
        }
        Ok(())
    }

    /// An `UPDATE`'s or `DELETE`'s `WHERE` reading into a key attribute (`sk.x = 1`): PartiQL's own
    /// check of the key terms, before the key equalities are looked for, sees a top-level term that
    /// compares the nested path with values only (`sk.x = 1`, `1 = sk.x`, `sk.x BETWEEN 1 AND 2`,
    /// `sk.x IN […]`, `begins_with(sk.x, 'a')`); anything else (`sk.x = a`, `size(sk.x) > 1`,
    /// `NOT sk.x = 1`, `sk.x IS MISSING`) is left to the condition, whose text differs by a colon
    /// (`Key: sk`). Both measured on DynamoDB Local 3.3.1, whose PartiQL front end is the service's.
    pub(crate) fn check_nested_key_paths(&self, filter: &Expr) -> Result<()> {
        let is_value = |e: &Expr| !matches!(e, Expr::Path(_) | Expr::Call(..) | Expr::Arith(..));
        for term in conjuncts(filter) {
            let operand = match term {
                Expr::Cmp(a, _, b) if is_value(b) => Some(a.as_ref()),
                Expr::Cmp(a, _, b) if is_value(a) => Some(b.as_ref()),
                Expr::Between(a, lo, hi) if is_value(lo) && is_value(hi) => Some(a.as_ref()),
                Expr::In(a, _) => Some(a.as_ref()),
                Expr::Call(name, args) if name != "size" => match args.split_first() {
                    Some((first, rest)) if rest.iter().all(is_value) => Some(first),
                    _ => None,
                },
                _ => None,
            };
            if let Some(Expr::Path(path)) = operand
                && !path.steps.is_empty()
                && self.keys.all().any(|k| *k == path.root)
            {
                return Err(errors::nested_key(&path.root));
            }
        }
        Ok(())
    }

    /// A `SELECT` reading into a key attribute (`sk.x`, `ia[0]`) in its `WHERE` or its projection:
    /// what the Query or Scan checks, after the key values' types and a consistent read of a GSI, but
    /// before the other values compared with keys (DynamoDB Local 3.3.1: `contains(pk, 1.5) OR ic[1]
    /// IN […]` is the `IndexKey: ic` error). Table keys first, in key-schema order, then index keys in
    /// the order of the paths.
    fn check_nested_paths(&self, nested: &[&Path]) -> Result<()> {
        if let Some(key) = self
            .keys
            .all()
            .find(|k| nested.iter().any(|p| p.root == **k))
        {
            return Err(Error::validation(format!(
                "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: {key}"
            )));
        }
        let index_key = |name: &str| self.indexes.values().any(|i| i.all().any(|k| k == name));
        if let Some(path) = nested.iter().find(|p| index_key(&p.root)) {
            return Err(Error::validation(format!(
                "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: {}",
                path.root
            )));
        }
        Ok(())
    }

    /// A `SELECT` without `WHERE`: its projection's paths into key attributes (a list with nested
    /// paths is not sent as a ProjectionExpression: see `select::projection_expression`).
    pub(crate) fn check_projection_keys(&self, projection: &Projection) -> Result<()> {
        self.check_nested_paths(&projection_nested(projection))
    }

    /// The full primary key fixed by `filter`, and the other terms; the key-equality error otherwise.
    pub(crate) fn key<'e>(&self, ph: &Gen<'_>, filter: &'e Expr) -> Result<(Item, Vec<&'e Expr>)> {
        // A second equality on a key attribute, to another value, names another item (checked
        // before the equalities' completeness, as DynamoDB Local 3.3.1 does).
        let terms = conjuncts(filter);
        for name in self.keys.all() {
            let mut fixed: Option<AttributeValue> = None;
            for value in terms.iter().filter_map(|t| equality(t, name)) {
                let value = ph.resolve(value)?;
                match &fixed {
                    Some(first) if *first != value => return Err(errors::several_keys(name)),
                    Some(_) => {}
                    None => fixed = Some(value),
                }
            }
        }
        let (key, rest) = full_key(ph, &self.keys, filter)?
            .ok_or_else(|| Error::validation(errors::KEY_EQUALITY))?;
        // A value that cannot be a key at all first (DynamoDB's PartiQL `INVALID_KEY_TYPE`, measured
        // on DynamoDB Local 3.3.1: `pk = 1 AND sk = TRUE` is about `sk`), then the declared types, in
        // `java.util.HashSet` order as for a SELECT.
        for name in java_hash_set_order(self.keys.all().map(String::as_str)) {
            if let Some(value) = key.get(name)
                && !matches!(
                    value,
                    AttributeValue::S(_) | AttributeValue::N(_) | AttributeValue::B(_)
                )
            {
                return Err(Error::validation(format!(
                    "Key value must be of type S, N, or B. Key name: {name}, Key type: {}",
                    value.type_name()
                )));
            }
        }
        for name in java_hash_set_order(self.keys.all().map(String::as_str)) {
            if let Some(value) = key.get(name) {
                self.check_types(&Item::from([(name.to_owned(), value.clone())]))?;
            }
        }
        Ok((key, rest))
    }
}

/// Validates `filter` as the expression API would a condition (operand types, functions, limits),
/// without running anything, so that its errors come before the statement's own checks of the key
/// (DynamoDB Local 3.3.1's order). Errors lose their `Invalid …Expression: ` prefix.
pub(crate) fn prevalidate_condition(ph: &Gen<'_>, filter: &Expr) -> Result<()> {
    let mut scratch = ph.clone();
    let text = scratch.condition(filter)?;
    if let Ok(Expression::Condition(parsed)) = expr::parse(ExprKind::Filter, &text, Origin::Request)
    {
        let placeholders = Placeholders {
            names: &scratch.names,
            values: &scratch.values,
        };
        validate_condition(
            ExprKind::Filter,
            &parsed,
            placeholders,
            &mut Usage::default(),
            Origin::Request,
        )
        .map_err(errors::unprefixed)?;
    }
    Ok(())
}

/// The checks of [`prevalidate_condition`] and [`prevalidate_update`] for a whole statement: they need
/// no table, and DynamoDB makes them before it looks the table up (DynamoDB Local 3.3.1: an operand
/// of the wrong type in a statement on a missing table is the operand's error).
pub(crate) fn prevalidate(ph: &Gen<'_>, statement: &Statement) -> Result<()> {
    match statement {
        Statement::Select {
            filter: Some(filter),
            ..
        }
        | Statement::Delete { filter, .. } => prevalidate_condition(ph, filter),
        Statement::Update {
            assignments,
            filter,
            ..
        } => {
            prevalidate_update(ph, assignments)?;
            prevalidate_condition(ph, filter)
        }
        _ => Ok(()),
    }
}

/// [`prevalidate_condition`] for the `SET`/`REMOVE` list of an `UPDATE` (path overlaps, operand
/// types of `+`, `-`, `list_append`).
pub(crate) fn prevalidate_update(ph: &Gen<'_>, assignments: &[Assignment]) -> Result<()> {
    let mut scratch = ph.clone();
    let text = scratch.update(assignments)?;
    if let Ok(Expression::Update(parsed)) = expr::parse(ExprKind::Update, &text, Origin::Request) {
        let placeholders = Placeholders {
            names: &scratch.names,
            values: &scratch.values,
        };
        validate_update(
            &parsed,
            placeholders,
            &mut Usage::default(),
            Origin::Request,
        )
        .map_err(errors::unprefixed)?;
    }
    Ok(())
}

/// The type descriptor of a key attribute type.
fn scalar_name(t: ScalarAttributeType) -> &'static str {
    match t {
        ScalarAttributeType::S => "S",
        ScalarAttributeType::N => "N",
        ScalarAttributeType::B => "B",
    }
}

/// Parses `source` and checks its `?` count against `params`.
pub(crate) fn parse(source: &str, params: &[AttributeValue]) -> Result<Statement> {
    let (statement, count) = parse_syntax(source)?;
    check_parsed(&statement, count, params)?;
    Ok(statement)
}

/// The syntax alone: the statement and its number of `?` placeholders.
pub(crate) fn parse_syntax(source: &str) -> Result<(Statement, usize)> {
    super::parser::parse(source).map_err(|e| match e.1 {
        true => Error::validation(e.0),
        false => errors::malformed(&e.0),
    })
}

/// The checks of a parsed statement that need no table: duplicate result names, then the number of
/// parameters.
pub(crate) fn check_parsed(
    statement: &Statement,
    count: usize,
    params: &[AttributeValue],
) -> Result<()> {
    if let Statement::Select {
        projection: Projection::Paths(paths),
        ..
    } = statement
    {
        check_identifiers(paths)?;
        check_overlaps(paths)?;
    }
    if count != params.len() {
        return Err(Error::validation(errors::PARAMETER_COUNT));
    }
    Ok(())
}

/// A `SELECT` list's paths checked as a ProjectionExpression's are (overlaps), before the table is
/// looked up. DynamoDB's PartiQL front end lists them last first (measured: `SELECT x[1], x` reports
/// the overlap of `[x]` with `[x, [1]]`, where `ProjectionExpression: x[1], x` names them the other way
/// round).
fn check_overlaps(paths: &[Path]) -> Result<()> {
    if paths.iter().all(|p| p.steps.is_empty()) {
        return Ok(());
    }
    let mut scratch = Gen::new(&[]);
    let text = paths
        .iter()
        .rev()
        .map(|p| scratch.path(p))
        .collect::<Vec<_>>()
        .join(", ");
    if let Ok(Expression::Projection(parsed)) =
        expr::parse(ExprKind::Projection, &text, Origin::Request)
    {
        let placeholders = Placeholders {
            names: &scratch.names,
            values: &scratch.values,
        };
        validate_projection(
            &parsed,
            placeholders,
            &mut Usage::default(),
            Origin::Request,
        )
        .map_err(errors::unprefixed)?;
    }
    Ok(())
}

/// The paths of a projection list that reach inside an attribute, last first (as DynamoDB's PartiQL
/// front end lists them: see `check_overlaps`).
fn projection_nested(projection: &Projection) -> Vec<&Path> {
    match projection {
        Projection::All => Vec::new(),
        Projection::Paths(paths) => paths.iter().rev().filter(|p| !p.steps.is_empty()).collect(),
    }
}

/// Whether `term` (under any NOTs) is one comparison, function, BETWEEN, IN or IS whose operand is
/// the key attribute `key` itself, with values only, and names no other of `keys`.
fn simple_on(term: &Expr, key: &str, keys: &[&String]) -> bool {
    let mut inner = term;
    while let Expr::Not(t) = inner {
        inner = t;
    }
    let is_key = |e: &Expr| matches!(e, Expr::Path(p) if p.is_attribute(key));
    let is_value = |e: &Expr| !matches!(e, Expr::Path(_) | Expr::Call(..) | Expr::Arith(..));
    let direct = match inner {
        Expr::Cmp(a, _, b) => (is_key(a) && is_value(b)) || (is_value(a) && is_key(b)),
        Expr::Between(a, lo, hi) => is_key(a) && is_value(lo) && is_value(hi),
        Expr::In(a, items) => is_key(a) && items.iter().all(is_value),
        Expr::Call(_, args) => match args.split_first() {
            Some((first, rest)) => is_key(first) && rest.iter().all(is_value),
            None => false,
        },
        Expr::Missing(a, _) => is_key(a),
        _ => false,
    };
    direct
        && keys
            .iter()
            .all(|k| k.as_str() == key || !super::plan::mentions(inner, k))
}

/// The paths of `expr` that reach inside an attribute, in statement order.
fn nested_paths<'e>(expr: &'e Expr, out: &mut Vec<&'e Path>) {
    match expr {
        Expr::Path(p) if !p.steps.is_empty() => out.push(p),
        other => super::plan::children(other)
            .into_iter()
            .for_each(|c| nested_paths(c, out)),
    }
}

/// The name a projected path has in the result, as PartiQL's duplicate check sees it: the last field
/// (the attribute itself when there is none) with the list indexes after it (`x.y[0]` is `y[0]`,
/// `x[0].y` is `y`, `x[1]` is `x[1]`).
fn identifier(path: &Path) -> String {
    let last_field = path.steps.iter().rposition(|s| matches!(s, Step::Field(_)));
    let (mut name, rest) = match last_field {
        Some(at) => match &path.steps[at] {
            Step::Field(f) => (f.clone(), &path.steps[at + 1..]),
            Step::Index(_) => (path.root.clone(), &path.steps[..]),
        },
        None => (path.root.clone(), &path.steps[..]),
    };
    for step in rest {
        if let Step::Index(i) = step {
            name.push_str(&format!("[{i}]"));
        }
    }
    name
}

/// Two projected paths with the same result name (`SELECT a, a`, `SELECT x.y, y`): DynamoDB refuses
/// the statement, naming the first repeated one, before it looks at the table or the parameters
/// (measured on DynamoDB Local 3.3.1; `DUPLICATE_NAMES_IN_SELECT_CLAUSE` of its PartiQL front end).
fn check_identifiers(paths: &[Path]) -> Result<()> {
    let mut seen = HashSet::with_capacity(paths.len());
    for path in paths {
        let name = identifier(path);
        if seen.contains(&name) {
            return Err(Error::validation(format!(
                "Duplicate identifiers in select clause: {name}"
            )));
        }
        seen.insert(name);
    }
    Ok(())
}
