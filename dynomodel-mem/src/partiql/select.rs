//! `SELECT` planned onto Query (when the partition key is fixed by equality: a sort-key term joins the
//! key condition, the rest is a filter) or Scan, with `Limit`, `NextToken` and `ConsistentRead`.

use dynomodel::{
    AttributeValue, Backend, ExecuteStatementInput, ExecuteStatementOutput, Item, QueryInput,
    Result, ScanInput,
};

use super::ast::{CmpOp, Expr, Path, Projection, Step};
use super::errors;
use super::plan::{and_all, conjuncts, equality, Gen};
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
    let exclusive_start_key = input.next_token.as_deref().map(token::decode).transpose()?;
    let projection_expression = projection_expression(ph, projection);
    let mut terms = filter.map(conjuncts).unwrap_or_default();
    let hash_term = terms.iter().position(|t| equality(t, &keys.hash).is_some());
    let page = if let Some(i) = hash_term {
        let term = terms.remove(i);
        let value = equality(term, &keys.hash)
            .map(|v| ph.resolve(v))
            .transpose()?;
        let value = value.unwrap_or(AttributeValue::Null);
        schema.check_types(&Item::from([(keys.hash.clone(), value.clone())]))?;
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
        let filter_expression = and_all(ph, &terms)?;
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
            .await?
    } else {
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
            .await?
    };
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

/// PartiQL names a projected nested path by its last step (`SELECT x.y[1]` gives `"y[1]"`, measured
/// on DynamoDB Local), where the expression API keeps the nesting: re-key the projected item.
pub(crate) fn reshape(projection: &Projection, item: Item) -> Item {
    let Projection::Paths(paths) = projection else {
        return item;
    };
    if paths.iter().all(|p| p.steps.is_empty()) {
        return item;
    }
    let mut out = Item::new();
    for path in paths {
        let Some(value) = lookup(&item, path) else {
            continue;
        };
        out.insert(label(path), value.clone());
    }
    out
}

/// The value at `path` in `item`.
fn lookup<'i>(item: &'i Item, path: &Path) -> Option<&'i AttributeValue> {
    let mut value = item.get(&path.root)?;
    for step in &path.steps {
        value = match (step, value) {
            (Step::Field(f), AttributeValue::M(m)) => m.get(f)?,
            (Step::Index(i), AttributeValue::L(l)) => l.get(usize::try_from(*i).ok()?)?,
            _ => return None,
        };
    }
    Some(value)
}

/// The name of a projected path's result: its last field and the indexes after it.
fn label(path: &Path) -> String {
    let last_field = path.steps.iter().rposition(|s| matches!(s, Step::Field(_)));
    let (mut text, rest) = match last_field {
        Some(i) => match path.steps.get(i) {
            Some(Step::Field(f)) => (f.clone(), path.steps.get(i + 1..).unwrap_or(&[])),
            _ => (path.root.clone(), &path.steps[..]),
        },
        None => (path.root.clone(), &path.steps[..]),
    };
    for step in rest {
        if let Step::Index(i) = step {
            text.push_str(&format!("[{i}]"));
        }
    }
    text
}
