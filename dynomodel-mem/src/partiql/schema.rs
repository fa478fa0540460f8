//! What the planner needs to know of a table, read through DescribeTable, and the statement parse with
//! its parameter count check.

use std::collections::BTreeMap;

use dynomodel::{
    AttributeValue, Backend, DescribeTableInput, Error, Item, Result, ScalarAttributeType,
};

use super::ast::{Assignment, Expr, Statement};
use super::errors;
use super::plan::{compared_with, conjuncts, equality, full_key, range_form, Gen, KeyNames};
use crate::expr::validate::{validate_condition, validate_update};
use crate::expr::{self, ExprKind, Expression, Placeholders, Usage};

/// What the planner needs of a table: its keys, its indexes' keys, its key attributes' types.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    /// The table's name.
    pub(crate) table: String,
    /// The table's key.
    pub(crate) keys: KeyNames,
    /// Each index's key, by name.
    pub(crate) indexes: BTreeMap<String, KeyNames>,
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
        queried: &KeyNames,
    ) -> Result<()> {
        prevalidate_condition(ph, filter)?;
        // The terms that become the key condition: the first top-level equality (or IN) on the
        // partition key, then the first sort-key term of a key-condition form.
        let terms = conjuncts(filter);
        let on_hash = |t: &&Expr| {
            equality(t, &queried.hash).is_some()
                || matches!(t, Expr::In(a, _) if matches!(a.as_ref(), Expr::Path(p) if p.is_attribute(&queried.hash)))
        };
        let mut key_terms: Vec<&Expr> = terms.iter().copied().find(on_hash).into_iter().collect();
        if let (Some(_), Some(range)) = (key_terms.first(), &queried.range) {
            key_terms.extend(terms.iter().copied().find(|t| range_form(t, range)));
        }
        for term in &key_terms {
            for name in queried.all() {
                self.check_compared(ph, term, name, true)?;
            }
        }
        // DynamoDB Local 3.3.1 also refuses `attribute_type(sk, 'T')` naming another type than the
        // table's sort key has (not so for the partition key).
        if let Some(range) = &self.keys.range
            && let Some(expected) = self.types.get(range)
        {
            let mut asked = Vec::new();
            super::plan::attribute_types(filter, range, &mut asked);
            if asked.iter().any(|t| *t != scalar_name(*expected)) {
                return Err(Error::validation(errors::CONDITION_TYPE));
            }
        }
        for term in terms
            .iter()
            .filter(|t| !key_terms.iter().any(|k| std::ptr::eq(*k, **t)))
        {
            for name in self.keys.all().chain(queried.all()) {
                self.check_compared(ph, term, name, false)?;
            }
        }
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
        self.check_types(&key)?;
        Ok((key, rest))
    }
}

/// Validates `filter` as the expression API would a condition (operand types, functions, limits),
/// without running anything, so that its errors come before the statement's own checks of the key
/// (DynamoDB Local 3.3.1's order). Errors lose their `Invalid …Expression: ` prefix.
pub(crate) fn prevalidate_condition(ph: &Gen<'_>, filter: &Expr) -> Result<()> {
    let mut scratch = ph.clone();
    let text = scratch.condition(filter)?;
    if let Ok(Expression::Condition(parsed)) = expr::parse(ExprKind::Filter, &text) {
        let placeholders = Placeholders {
            names: &scratch.names,
            values: &scratch.values,
        };
        validate_condition(
            ExprKind::Filter,
            &parsed,
            placeholders,
            &mut Usage::default(),
        )
        .map_err(errors::unprefixed)?;
    }
    Ok(())
}

/// [`prevalidate_condition`] for the `SET`/`REMOVE` list of an `UPDATE` (path overlaps, operand
/// types of `+`, `-`, `list_append`).
pub(crate) fn prevalidate_update(ph: &Gen<'_>, assignments: &[Assignment]) -> Result<()> {
    let mut scratch = ph.clone();
    let text = scratch.update(assignments)?;
    if let Ok(Expression::Update(parsed)) = expr::parse(ExprKind::Update, &text) {
        let placeholders = Placeholders {
            names: &scratch.names,
            values: &scratch.values,
        };
        validate_update(&parsed, placeholders, &mut Usage::default())
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
    let (statement, count) = super::parser::parse(source).map_err(|e| match e.1 {
        true => Error::validation(e.0),
        false => errors::malformed(&e.0),
    })?;
    if count != params.len() {
        return Err(Error::validation(errors::PARAMETER_COUNT));
    }
    Ok(statement)
}
