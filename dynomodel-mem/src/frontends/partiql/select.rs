//! `SELECT` planned onto Query (when the partition key is fixed by equality: a sort-key term joins the
//! key condition, the rest is a filter) or Scan, with `Limit`, `NextToken` and `ConsistentRead`.

use dynomodel::backend::{
    Backend, ExecuteStatementInput, ExecuteStatementOutput, QueryInput, ScanInput,
};
use dynomodel::{AttributeValue, Error, Item, Result};

use super::ast::{CmpOp, Expr, Projection, Step};
use super::errors;
use super::plan::{and_all, conjuncts, equality, mentions, Gen, KeyNames};
use super::schema::Schema;
use super::token;
use super::write::attribute;

/// The projection expression of a `SELECT` (`None` for `*`, and for nested paths: the expression API
/// would compact a projected list (`l[1]` gives `[x]`), so [`reshape`] picks them from the whole item).
pub(crate) fn projection_expression(ph: &mut Gen<'_>, projection: &Projection) -> Option<String> {
    match projection {
        Projection::All => None,
        Projection::Paths(paths) if paths.iter().any(|p| !p.steps.is_empty()) => None,
        Projection::Paths(paths) => Some(
            paths
                .iter()
                .map(|p| ph.path(p))
                .collect::<Vec<_>>()
                .join(", "),
        ),
    }
}

/// A key condition term on the sort key `range`: `range op v`, `v op range`, `BETWEEN`, `begins_with`.
fn range_condition(ph: &mut Gen<'_>, term: &Expr, range: &str) -> Result<Option<String>> {
    let is_range = |e: &Expr| matches!(e, Expr::Path(p) if p.is_attribute(range));
    let is_value = |e: &Expr| !matches!(e, Expr::Path(_) | Expr::Call(..));
    Ok(match term {
        Expr::Cmp(a, op, b) if *op != CmpOp::Ne => {
            let (path, op, value) = if is_range(a) && is_value(b) {
                (a, *op, b)
            } else if is_range(b) && is_value(a) {
                let flipped = match op {
                    CmpOp::Lt => CmpOp::Gt,
                    CmpOp::Le => CmpOp::Ge,
                    CmpOp::Gt => CmpOp::Lt,
                    CmpOp::Ge => CmpOp::Le,
                    other => *other,
                };
                (b, flipped, a)
            } else {
                return Ok(None);
            };
            let Expr::Path(p) = path.as_ref() else {
                return Ok(None);
            };
            let p = ph.path(p);
            let v = ph.resolve(value)?;
            Some(format!("{p} {} {}", op.as_str(), ph.value(v)))
        }
        Expr::Between(a, low, high) if is_range(a) && is_value(low) && is_value(high) => {
            let Expr::Path(p) = a.as_ref() else {
                return Ok(None);
            };
            let p = ph.path(p);
            let (low, high) = (ph.resolve(low)?, ph.resolve(high)?);
            Some(format!(
                "{p} BETWEEN {} AND {}",
                ph.value(low),
                ph.value(high)
            ))
        }
        Expr::Call(f, args) if f == "begins_with" => match args.as_slice() {
            [a @ Expr::Path(p), v] if is_range(a) && is_value(v) => {
                let p = ph.path(p);
                let v = ph.resolve(v)?;
                Some(format!("begins_with({p}, {})", ph.value(v)))
            }
            _ => None,
        },
        _ => None,
    })
}

/// The key condition and filter of a Query for `terms`, or `None` when it must be a Scan: no term fixes
/// the partition key, or a term left for the filter uses a key attribute (which a Query's filter may
/// not, where PartiQL's `WHERE` may).
fn key_plan(
    ph: &mut Gen<'_>,
    keys: &KeyNames,
    mut terms: Vec<&Expr>,
) -> Result<Option<(String, Option<String>)>> {
    let Some(i) = terms.iter().position(|t| equality(t, &keys.hash).is_some()) else {
        return Ok(None);
    };
    let term = terms.remove(i);
    let Some(value) = equality(term, &keys.hash) else {
        return Ok(None);
    };
    let value = ph.resolve(value)?;
    let hash = ph.path(&attribute(&keys.hash));
    let mut key_condition = format!("{hash} = {}", ph.value(value));
    if let Some(range) = &keys.range {
        for j in 0..terms.len() {
            if let Some(c) = range_condition(ph, terms[j], range)? {
                key_condition = format!("{key_condition} AND {c}");
                terms.remove(j);
                break;
            }
        }
    }
    if terms.iter().any(|t| keys.all().any(|k| mentions(t, k))) {
        return Ok(None);
    }
    Ok(Some((key_condition, and_all(ph, &terms)?)))
}

pub(crate) async fn select(
    backend: &dyn Backend,
    schema: &Schema,
    ph: &mut Gen<'_>,
    projection: &Projection,
    index: Option<&str>,
    filter: Option<&Expr>,
    input: &ExecuteStatementInput,
) -> Result<ExecuteStatementOutput> {
    let keys = match index {
        Some(name) => schema
            .indexes
            .get(name)
            .ok_or_else(|| errors::no_index(name))?,
        None => &schema.keys,
    };
    let consistent_gsi = input.consistent_read == Some(true)
        && index.is_some_and(|name| schema.global.iter().any(|g| g == name));
    let exclusive_start_key = input.next_token.as_deref().map(token::decode).transpose()?;
    let projection_expression = projection_expression(ph, projection);
    let terms = filter.map(conjuncts).unwrap_or_default();
    if let Some(filter) = filter {
        schema.check_filter(ph, filter, projection, keys, consistent_gsi)?;
    } else if consistent_gsi {
        return Err(Error::validation(
            "Consistent reads are not supported on global secondary indexes",
        ));
    } else {
        schema.check_projection_keys(projection)?;
    }
    let mut trial = ph.clone();
    let page = match key_plan(&mut trial, keys, terms.clone())? {
        Some((key_condition, filter_expression)) => {
            *ph = trial;
            backend
                .query(QueryInput {
                    table_name: schema.table.clone(),
                    index_name: index.map(str::to_owned),
                    key_condition_expression: Some(key_condition),
                    filter_expression,
                    projection_expression,
                    expression_attribute_names: ph.names(),
                    expression_attribute_values: ph.values(),
                    limit: input.limit,
                    exclusive_start_key,
                    consistent_read: input.consistent_read,
                    return_consumed_capacity: input.return_consumed_capacity,
                    ..Default::default()
                })
                .await
        }
        None => {
            let filter_expression = and_all(ph, &terms)?;
            backend
                .scan(ScanInput {
                    table_name: schema.table.clone(),
                    index_name: index.map(str::to_owned),
                    filter_expression,
                    projection_expression,
                    expression_attribute_names: ph.names(),
                    expression_attribute_values: ph.values(),
                    limit: input.limit,
                    exclusive_start_key,
                    consistent_read: input.consistent_read,
                    return_consumed_capacity: input.return_consumed_capacity,
                    ..Default::default()
                })
                .await
        }
    }
    .map_err(errors::unprefixed)?;
    let items = page
        .items
        .unwrap_or_default()
        .into_iter()
        .map(|item| reshape(projection, item))
        .collect();
    Ok(ExecuteStatementOutput {
        items: Some(items),
        next_token: page.last_evaluated_key.as_ref().map(token::encode),
        consumed_capacity: page.consumed_capacity,
        last_evaluated_key: None,
    })
}

/// How PartiQL names a projected nested path, where the expression API keeps the nesting (measured on
/// DynamoDB Local 3.3.1): the top-level attribute is unwrapped one level. The result is named by the
/// first step below it (with any list indexes right after: `m.z[0]` gives `"z[0]"`, `x.y` gives `"y"`),
/// or, when the attribute is a list, by the attribute and its indexes (`l[2].m` gives `"l[2]"`); its
/// value is what lies there, projected to the rest of the path (`l[2].m` gives `{"m": …}`).
pub(crate) fn reshape(projection: &Projection, item: Item) -> Item {
    let Projection::Paths(paths) = projection else {
        return item;
    };
    if paths.iter().all(|p| p.steps.is_empty()) {
        return item;
    }
    let mut out = Item::new();
    for path in paths {
        let Some(top) = item.get(&path.root) else {
            continue;
        };
        // The head: an optional first field, then the indexes that follow it.
        let (mut label, mut value, mut rest) = match path.steps.split_first() {
            Some((Step::Field(f), rest)) => match top {
                AttributeValue::M(m) => match m.get(f) {
                    Some(v) => (f.clone(), v, rest),
                    None => continue,
                },
                _ => continue,
            },
            _ => (path.root.clone(), top, &path.steps[..]),
        };
        while let Some((Step::Index(i), tail)) = rest.split_first() {
            let element = match value {
                AttributeValue::L(l) => usize::try_from(*i).ok().and_then(|i| l.get(i)),
                _ => None,
            };
            let Some(element) = element else {
                break;
            };
            label.push_str(&format!("[{i}]"));
            value = element;
            rest = tail;
        }
        if let Some(projected) = project(value, rest) {
            merge(&mut out, label, projected);
        }
    }
    out
}

/// `value` reduced to the path `steps`, keeping its structure as a ProjectionExpression does (a list
/// keeps only the projected elements).
fn project(value: &AttributeValue, steps: &[Step]) -> Option<AttributeValue> {
    let Some((step, rest)) = steps.split_first() else {
        return Some(value.clone());
    };
    match (step, value) {
        (Step::Field(f), AttributeValue::M(m)) => {
            let inner = project(m.get(f)?, rest)?;
            Some(AttributeValue::M([(f.clone(), inner)].into()))
        }
        (Step::Index(i), AttributeValue::L(l)) => {
            let inner = project(l.get(usize::try_from(*i).ok()?)?, rest)?;
            Some(AttributeValue::L(vec![inner]))
        }
        _ => None,
    }
}

/// Adds a projected value under `label`, merging maps projected from the same attribute.
fn merge(out: &mut Item, label: String, value: AttributeValue) {
    match (out.get_mut(&label), value) {
        (Some(AttributeValue::M(existing)), AttributeValue::M(more)) => existing.extend(more),
        (_, value) => {
            out.insert(label, value);
        }
    }
}
