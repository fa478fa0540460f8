//! `ExecuteStatement`: a parsed statement planned onto Query, Scan, PutItem, UpdateItem or DeleteItem
//! and run through the backend's own operations (so faults, capacity and streams apply as usual).

use std::collections::BTreeMap;

use dynomodel::{
    AttributeValue, Backend, DeleteItemInput, DescribeTableInput, Error, ExecuteStatementInput,
    ExecuteStatementOutput, Item, PutItemInput, QueryInput, Result, ReturnConsumedCapacity,
    ReturnValue, ReturnValuesOnConditionCheckFailure, ScalarAttributeType, ScanInput,
    UpdateItemInput,
};

use super::ast::{CmpOp, Expr, Path, Projection, Statement, Step};
use super::errors;
use super::plan::{and_all, conjuncts, equality, full_key, Gen, KeyNames};
use super::token;

/// What the planner needs of a table: its keys, its indexes' keys, its key attributes' types.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    /// The table's name.
    pub(crate) table: String,
    /// The table's key.
    pub(crate) keys: KeyNames,
    /// Each index's key, by name.
    indexes: BTreeMap<String, KeyNames>,
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
            let expected = match self.types.get(name) {
                Some(ScalarAttributeType::S) => "S",
                Some(ScalarAttributeType::N) => "N",
                Some(ScalarAttributeType::B) => "B",
                None => continue,
            };
            if value.type_name() != expected {
                return Err(errors::key_type(name));
            }
        }
        Ok(())
    }

    /// The full primary key fixed by `filter`, and the other terms; the key-equality error otherwise.
    pub(crate) fn key<'e>(&self, ph: &Gen<'_>, filter: &'e Expr) -> Result<(Item, Vec<&'e Expr>)> {
        let (key, rest) = full_key(ph, &self.keys, filter)?
            .ok_or_else(|| Error::validation(errors::KEY_EQUALITY))?;
        self.check_types(&key)?;
        Ok((key, rest))
    }
}

/// Parses `source` and checks its `?` count against `params`.
pub(crate) fn parse(source: &str, params: &[AttributeValue]) -> Result<Statement> {
    let (statement, count) = super::parser::parse(source).map_err(|e| errors::malformed(&e.0))?;
    if count != params.len() {
        return Err(Error::validation(errors::PARAMETER_COUNT));
    }
    Ok(statement)
}

pub(crate) async fn execute_statement(
    backend: &dyn Backend,
    input: ExecuteStatementInput,
) -> Result<ExecuteStatementOutput> {
    let params = input.parameters.clone().unwrap_or_default();
    let statement = parse(&input.statement, &params)?;
    let schema = Schema::load(backend, statement.table()).await?;
    let mut ph = Gen::new(&params);
    if let Statement::Select {
        projection,
        index,
        filter,
        ..
    } = &statement
    {
        return select(
            backend,
            &schema,
            &mut ph,
            projection,
            index.as_deref(),
            filter.as_ref(),
            &input,
        )
        .await;
    }
    let on_failure = input.return_values_on_condition_check_failure;
    let consumed = input.return_consumed_capacity;
    let write = Write::plan(&schema, &mut ph, &statement)?;
    let placeholders = (ph.names(), ph.values());
    let (consumed_capacity, attributes) = write
        .run(backend, placeholders, on_failure, consumed)
        .await?;
    Ok(ExecuteStatementOutput {
        items: Some(attributes.into_iter().collect()),
        consumed_capacity,
        ..Default::default()
    })
}

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
                    condition: format!("attribute_not_exists({hash})"),
                })
            }
            Statement::Update {
                assignments,
                filter,
                returning,
                ..
            } => {
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
                let (key, rest) = schema.key(ph, filter)?;
                let condition = and_all(ph, &rest)?;
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
            Write::Insert { table, item, .. } => (table.clone(), item.clone()),
            Write::Update { table, key, .. } | Write::Delete { table, key, .. } => {
                (table.clone(), key.clone())
            }
        }
    }

    /// Runs it; returns the capacity consumed when asked for, and the item `RETURNING` asked for.
    pub(crate) async fn run(
        self,
        backend: &dyn Backend,
        placeholders: Placeholders,
        on_failure: Option<ReturnValuesOnConditionCheckFailure>,
        consumed: Option<ReturnConsumedCapacity>,
    ) -> Result<(Option<dynomodel::ConsumedCapacity>, Option<Item>)> {
        let (names, values) = placeholders;
        match self {
            Write::Insert {
                table,
                item,
                condition,
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
                    other => other,
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
                .map(|o| (o.consumed_capacity, o.attributes)),
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
                .map(|o| (o.consumed_capacity, o.attributes)),
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

#[allow(clippy::too_many_arguments)]
async fn select(
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
