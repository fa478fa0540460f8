//! Translation of a parsed statement onto the engine's own operations: a `WHERE` becomes a condition
//! (or key condition) expression, a `SET`/`REMOVE` list an update expression, and every name and value
//! a generated `#nN` / `:vN` placeholder, so the statement runs with exactly the semantics, limits,
//! capacity and stream records of the expression API.

use std::collections::BTreeMap;

use dynomodel::backend::KeyType;
use dynomodel::{AttributeValue, Error, Item, Number, Result};

use super::ast::{Assignment, CmpOp, Expr, Path, Step};
use super::errors;

/// A table's (or index's) key attribute names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyNames {
    /// The partition key.
    pub(crate) hash: String,
    /// The sort key, if any.
    pub(crate) range: Option<String>,
}

impl KeyNames {
    /// From a key schema.
    pub(crate) fn of(schema: &[dynomodel::backend::KeySchemaElement]) -> KeyNames {
        let find = |kind: KeyType| {
            schema
                .iter()
                .find(|e| e.key_type == kind)
                .map(|e| e.attribute_name.clone())
        };
        KeyNames {
            hash: find(KeyType::Hash).unwrap_or_default(),
            range: find(KeyType::Range),
        }
    }

    /// The key attributes, partition key first.
    pub(crate) fn all(&self) -> impl Iterator<Item = &String> {
        std::iter::once(&self.hash).chain(self.range.iter())
    }
}

/// Builds expression text with generated placeholders.
#[derive(Debug, Clone)]
pub(crate) struct Gen<'p> {
    params: &'p [AttributeValue],
    /// `#nN` → attribute name.
    pub(crate) names: BTreeMap<String, String>,
    /// `:vN` → value.
    pub(crate) values: Item,
}

impl<'p> Gen<'p> {
    /// A generator resolving `?` against `params`.
    pub(crate) fn new(params: &'p [AttributeValue]) -> Gen<'p> {
        Gen {
            params,
            names: BTreeMap::new(),
            values: Item::new(),
        }
    }

    /// The names, `None` when there are none (the expression API refuses an empty map).
    pub(crate) fn names(&self) -> Option<BTreeMap<String, String>> {
        (!self.names.is_empty()).then(|| self.names.clone())
    }

    /// The values, `None` when there are none.
    pub(crate) fn values(&self) -> Option<Item> {
        (!self.values.is_empty()).then(|| self.values.clone())
    }

    /// A placeholder for an attribute name (one per distinct name).
    fn name(&mut self, name: &str) -> String {
        if let Some((placeholder, _)) = self.names.iter().find(|(_, n)| *n == name) {
            return placeholder.clone();
        }
        let placeholder = format!("#n{}", self.names.len());
        self.names.insert(placeholder.clone(), name.to_owned());
        placeholder
    }

    /// A path in the expression language.
    pub(crate) fn path(&mut self, path: &Path) -> String {
        let mut text = self.name(&path.root);
        for step in &path.steps {
            match step {
                Step::Field(f) => {
                    let p = self.name(f);
                    text.push('.');
                    text.push_str(&p);
                }
                Step::Index(i) => text.push_str(&format!("[{i}]")),
            }
        }
        text
    }

    /// A placeholder for a value.
    pub(crate) fn value(&mut self, value: AttributeValue) -> String {
        let placeholder = format!(":v{}", self.values.len());
        self.values.insert(placeholder.clone(), value);
        placeholder
    }

    /// The value of a literal (with parameters substituted).
    pub(crate) fn resolve(&self, expr: &Expr) -> Result<AttributeValue> {
        Ok(match expr {
            Expr::Str(s) => AttributeValue::S(s.clone()),
            Expr::Number(n) => AttributeValue::N(number(n)?),
            Expr::Bool(b) => AttributeValue::Bool(*b),
            Expr::Null => AttributeValue::Null,
            Expr::Param(i) => self
                .params
                .get(*i)
                .cloned()
                .ok_or_else(|| Error::validation(errors::PARAMETER_COUNT))?,
            Expr::List(items) => AttributeValue::L(
                items
                    .iter()
                    .map(|e| self.resolve(e))
                    .collect::<Result<_>>()?,
            ),
            Expr::Map(entries) => AttributeValue::M(
                entries
                    .iter()
                    .map(|(k, e)| Ok((k.clone(), self.resolve(e)?)))
                    .collect::<Result<_>>()?,
            ),
            Expr::Bag(items) => {
                let values = items
                    .iter()
                    .map(|e| self.resolve(e))
                    .collect::<Result<Vec<_>>>()?;
                set(values)?
            }
            _ => return Err(Error::validation(errors::UNSUPPORTED_VALUE)),
        })
    }

    /// An operand of a comparison: a path, `size(path)` or a value.
    fn operand(&mut self, expr: &Expr) -> Result<String> {
        match expr {
            Expr::Path(p) => Ok(self.path(p)),
            Expr::Call(f, args) if f == "size" => match args.as_slice() {
                [Expr::Path(p)] => Ok(format!("size({})", self.path(p))),
                _ => Err(errors::function_arguments(f)),
            },
            Expr::Call(f, _) => Err(errors::unsupported_function(f)),
            other => {
                let v = self.resolve(other)?;
                Ok(self.value(v))
            }
        }
    }

    /// A condition in the expression language.
    pub(crate) fn condition(&mut self, expr: &Expr) -> Result<String> {
        Ok(match expr {
            Expr::And(a, b) => format!("({}) AND ({})", self.condition(a)?, self.condition(b)?),
            Expr::Or(a, b) => format!("({}) OR ({})", self.condition(a)?, self.condition(b)?),
            Expr::Not(a) => format!("NOT ({})", self.condition(a)?),
            Expr::Cmp(a, op, b) => {
                format!("{} {} {}", self.operand(a)?, op.as_str(), self.operand(b)?)
            }
            Expr::Between(a, low, high) => format!(
                "{} BETWEEN {} AND {}",
                self.operand(a)?,
                self.operand(low)?,
                self.operand(high)?
            ),
            Expr::In(a, items) => {
                if items.is_empty() {
                    return Err(Error::validation(errors::EMPTY_IN));
                }
                let a = self.operand(a)?;
                let items = items
                    .iter()
                    .map(|e| self.operand(e))
                    .collect::<Result<Vec<_>>>()?;
                format!("{a} IN ({})", items.join(", "))
            }
            Expr::Missing(a, present) => {
                let Expr::Path(p) = a.as_ref() else {
                    return Err(Error::validation(errors::UNSUPPORTED_VALUE));
                };
                let f = if *present {
                    "attribute_exists"
                } else {
                    "attribute_not_exists"
                };
                format!("{f}({})", self.path(p))
            }
            Expr::Call(f, args) => match (f.as_str(), args.as_slice()) {
                ("begins_with" | "contains" | "attribute_type", [Expr::Path(p), v]) => {
                    let p = self.path(p);
                    format!("{f}({p}, {})", self.operand(v)?)
                }
                ("attribute_exists" | "attribute_not_exists", [Expr::Path(p)]) => {
                    format!("{f}({})", self.path(p))
                }
                (
                    "begins_with"
                    | "contains"
                    | "attribute_type"
                    | "attribute_exists"
                    | "attribute_not_exists"
                    | "size",
                    _,
                ) => return Err(errors::function_arguments(f)),
                _ => return Err(errors::unsupported_function(f)),
            },
            _ => return Err(Error::validation(errors::NOT_A_CONDITION)),
        })
    }

    /// The value side of a `SET`: a value, a path, `path ± value`, `list_append(…)`, `if_not_exists(…)`.
    fn set_value(&mut self, expr: &Expr) -> Result<String> {
        match expr {
            Expr::Arith(a, plus, b) => Ok(format!(
                "{} {} {}",
                self.set_value(a)?,
                if *plus { "+" } else { "-" },
                self.set_value(b)?
            )),
            Expr::Call(f, args) if f == "list_append" || f == "if_not_exists" => {
                let [a, b] = args.as_slice() else {
                    return Err(errors::function_arguments(f));
                };
                Ok(format!(
                    "{f}({}, {})",
                    self.set_value(a)?,
                    self.set_value(b)?
                ))
            }
            Expr::Call(f, _) => Err(errors::unsupported_function(f)),
            Expr::Path(p) => Ok(self.path(p)),
            other => {
                let v = self.resolve(other)?;
                Ok(self.value(v))
            }
        }
    }

    /// An update expression from `SET`/`REMOVE` assignments; `set_add(p, v)` / `set_delete(p, v)` become
    /// `ADD` / `DELETE` clauses.
    pub(crate) fn update(&mut self, assignments: &[Assignment]) -> Result<String> {
        let (mut set, mut remove, mut add, mut delete) = (vec![], vec![], vec![], vec![]);
        for a in assignments {
            match a {
                Assignment::Set(path, Expr::Call(f, args))
                    if f == "set_add" || f == "set_delete" =>
                {
                    let [Expr::Path(target), v] = args.as_slice() else {
                        return Err(errors::function_arguments(f));
                    };
                    if target != path {
                        return Err(errors::function_arguments(f));
                    }
                    let value = self.resolve(v)?;
                    if !matches!(
                        value,
                        AttributeValue::Ss(_) | AttributeValue::Ns(_) | AttributeValue::Bs(_)
                    ) {
                        // DynamoDB Local 3.3.1 appends the first argument's position when it is a
                        // bare name; the engine's tree keeps no positions, so it never does.
                        return Err(Error::validation(format!(
                            "The second argument to {} must be a value with type SET",
                            f.to_ascii_uppercase()
                        )));
                    }
                    let clause = format!("{} {}", self.path(path), self.value(value));
                    if f == "set_add" {
                        &mut add
                    } else {
                        &mut delete
                    }
                    .push(clause);
                }
                Assignment::Set(path, value) => {
                    let p = self.path(path);
                    set.push(format!("{p} = {}", self.set_value(value)?));
                }
                Assignment::Remove(path) => remove.push(self.path(path)),
            }
        }
        let clauses = [
            ("SET", set),
            ("REMOVE", remove),
            ("ADD", add),
            ("DELETE", delete),
        ];
        Ok(clauses
            .into_iter()
            .filter(|(_, c)| !c.is_empty())
            .map(|(kw, c)| format!("{kw} {}", c.join(", ")))
            .collect::<Vec<_>>()
            .join(" "))
    }
}

/// A number literal.
fn number(text: &str) -> Result<Number> {
    text.parse::<Number>()
        .map_err(|e| Error::validation(e.to_string()))
}

/// A `<<…>>` literal: a string, number or binary set.
fn set(values: Vec<AttributeValue>) -> Result<AttributeValue> {
    let mismatch = || Error::validation(errors::SET_TYPES);
    match values.first() {
        Some(AttributeValue::S(_)) => values
            .into_iter()
            .map(|v| match v {
                AttributeValue::S(s) => Ok(s),
                _ => Err(mismatch()),
            })
            .collect::<Result<_>>()
            .map(AttributeValue::Ss),
        Some(AttributeValue::N(_)) => values
            .into_iter()
            .map(|v| match v {
                AttributeValue::N(n) => Ok(n),
                _ => Err(mismatch()),
            })
            .collect::<Result<_>>()
            .map(AttributeValue::Ns),
        Some(AttributeValue::B(_)) => values
            .into_iter()
            .map(|v| match v {
                AttributeValue::B(b) => Ok(b),
                _ => Err(mismatch()),
            })
            .collect::<Result<_>>()
            .map(AttributeValue::Bs),
        _ => Err(mismatch()),
    }
}

/// The top-level `AND`ed terms of a condition.
pub(crate) fn conjuncts(expr: &Expr) -> Vec<&Expr> {
    match expr {
        Expr::And(a, b) => {
            let mut terms = conjuncts(a);
            terms.extend(conjuncts(b));
            terms
        }
        other => vec![other],
    }
}

/// The sub-expressions of `expr` (one level down).
pub(crate) fn children(expr: &Expr) -> Vec<&Expr> {
    match expr {
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Cmp(a, _, b) | Expr::Arith(a, _, b) => {
            vec![a.as_ref(), b.as_ref()]
        }
        Expr::Not(a) | Expr::Missing(a, _) => vec![a.as_ref()],
        Expr::Between(a, b, c) => vec![a.as_ref(), b.as_ref(), c.as_ref()],
        Expr::In(a, items) => std::iter::once(a.as_ref()).chain(items).collect(),
        Expr::Call(_, args) | Expr::List(args) | Expr::Bag(args) => args.iter().collect(),
        Expr::Map(entries) => entries.iter().map(|(_, e)| e).collect(),
        _ => Vec::new(),
    }
}

/// Whether `expr` uses the attribute `name` (at the top of any path).
pub(crate) fn mentions(expr: &Expr, name: &str) -> bool {
    match expr {
        Expr::Path(p) => p.root == name,
        other => children(other).into_iter().any(|c| mentions(c, name)),
    }
}

/// What the top-level attribute `name` is compared with anywhere in `expr`: `name op v`, `v op name`,
/// `name BETWEEN v AND w`, `name IN [v, …]`, `begins_with(name, v)`, `contains(name, v)`.
pub(crate) fn compared_with<'e>(expr: &'e Expr, name: &str, out: &mut Vec<&'e Expr>) {
    let is_key = |e: &Expr| matches!(e, Expr::Path(p) if p.is_attribute(name));
    let is_value = |e: &Expr| !matches!(e, Expr::Path(_) | Expr::Call(..) | Expr::Arith(..));
    match expr {
        Expr::Cmp(a, _, b) => {
            if is_key(a) && is_value(b) {
                out.push(b);
            } else if is_key(b) && is_value(a) {
                out.push(a);
            }
        }
        Expr::Between(a, low, high) if is_key(a) => out.extend(
            [low.as_ref(), high.as_ref()]
                .into_iter()
                .filter(|e| is_value(e)),
        ),
        // Only the first value of an IN is checked (DynamoDB Local 3.3.1: `sk IN [1, 'x']` on a
        // numeric `sk` runs, `sk IN ['x', 1]` is refused).
        Expr::In(a, items) if is_key(a) => {
            out.extend(items.first().filter(|e| is_value(e)));
        }
        Expr::Call(f, args) => match (f.as_str(), args.as_slice()) {
            // `attribute_type(sk, 'N')` too: its type name is a string value, compared with the
            // key's declared type like any other (DynamoDB Local 3.3.1 refuses it for a key of type
            // N or B, and accepts any name for a key of type S).
            ("begins_with" | "contains" | "attribute_type", [a, v]) if is_key(a) && is_value(v) => {
                out.push(v);
            }
            _ => {}
        },
        _ => {}
    }
    for child in children(expr) {
        compared_with(child, name, out);
    }
}

/// Whether `term` is a sort-key condition on `range`: `range op v` (not `<>`), `v op range`,
/// `range BETWEEN v AND w`, `begins_with(range, v)`.
pub(crate) fn range_form(term: &Expr, range: &str) -> bool {
    let is_range = |e: &Expr| matches!(e, Expr::Path(p) if p.is_attribute(range));
    let is_value = |e: &Expr| !matches!(e, Expr::Path(_) | Expr::Call(..) | Expr::Arith(..));
    match term {
        Expr::Cmp(a, op, b) => {
            *op != CmpOp::Ne && ((is_range(a) && is_value(b)) || (is_range(b) && is_value(a)))
        }
        Expr::Between(a, low, high) => is_range(a) && is_value(low) && is_value(high),
        Expr::Call(f, args) => {
            f == "begins_with" && matches!(args.as_slice(), [a, v] if is_range(a) && is_value(v))
        }
        _ => false,
    }
}

/// The value `attribute` is fixed to by term `term` (`attribute = value` either way round), if it is.
pub(crate) fn equality<'e>(term: &'e Expr, attribute: &str) -> Option<&'e Expr> {
    let Expr::Cmp(a, CmpOp::Eq, b) = term else {
        return None;
    };
    let is_value = |e: &Expr| !matches!(e, Expr::Path(_) | Expr::Call(..));
    match (a.as_ref(), b.as_ref()) {
        (Expr::Path(p), v) | (v, Expr::Path(p)) if p.is_attribute(attribute) && is_value(v) => {
            Some(v)
        }
        _ => None,
    }
}

/// A full primary key from equalities in `filter`, and the remaining terms; `None` unless every key
/// attribute is fixed.
pub(crate) fn full_key<'e>(
    ph: &Gen<'_>,
    keys: &KeyNames,
    filter: &'e Expr,
) -> Result<Option<(Item, Vec<&'e Expr>)>> {
    let mut rest = conjuncts(filter);
    let mut key = Item::new();
    for name in keys.all() {
        let Some(i) = rest.iter().position(|t| equality(t, name).is_some()) else {
            return Ok(None);
        };
        let term = rest.remove(i);
        if let Some(v) = equality(term, name) {
            key.insert(name.clone(), ph.resolve(v)?);
        }
    }
    Ok(Some((key, rest)))
}

/// `a AND b AND …` of the remaining terms, in the expression language; `None` when there are none.
pub(crate) fn and_all(ph: &mut Gen<'_>, terms: &[&Expr]) -> Result<Option<String>> {
    let parts = terms
        .iter()
        .map(|t| ph.condition(t).map(|c| format!("({c})")))
        .collect::<Result<Vec<_>>>()?;
    Ok((!parts.is_empty()).then(|| parts.join(" AND ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontends::partiql::ast::Statement;
    use crate::frontends::partiql::parser::parse;

    fn filter_of(text: &str) -> Expr {
        match parse(text) {
            Ok((
                Statement::Select {
                    filter: Some(f), ..
                },
                _,
            )) => f,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn conditions_become_expressions_with_placeholders() {
        let params = [AttributeValue::S("p".into())];
        let mut ph = Gen::new(&params);
        let f =
            filter_of("SELECT * FROM t WHERE a.b[1] = ? AND NOT (c IN [1, 'x']) OR d IS MISSING");
        assert_eq!(
            ph.condition(&f).ok().as_deref(),
            Some(
                "((#n0.#n1[1] = :v0) AND (NOT (#n2 IN (:v1, :v2)))) OR (attribute_not_exists(#n3))"
            )
        );
        assert_eq!(
            ph.names().map(|n| n.into_values().collect::<Vec<_>>()),
            Some(vec!["a".into(), "b".into(), "c".into(), "d".into()])
        );
        assert_eq!(ph.values.get(":v0"), Some(&AttributeValue::S("p".into())));
        // A name is one placeholder however often it is used.
        let mut ph = Gen::new(&[]);
        let f = filter_of("SELECT * FROM t WHERE a = 1 AND size(a) > 2 AND begins_with(a, 'x')");
        assert_eq!(
            ph.condition(&f).ok().as_deref(),
            Some("((#n0 = :v0) AND (size(#n0) > :v1)) AND (begins_with(#n0, :v2))")
        );
        let unknown = ph.condition(&filter_of("SELECT * FROM t WHERE foo(a)"));
        assert_eq!(
            unknown.map_err(|e| e.message()),
            Err("Unrecognized function: foo".into())
        );
    }

    #[test]
    fn full_keys_come_from_equalities_either_way_round() {
        let keys = KeyNames {
            hash: "pk".into(),
            range: Some("sk".into()),
        };
        let ph = Gen::new(&[]);
        let f = filter_of("SELECT * FROM t WHERE 1 = sk AND x = 2 AND pk = 'a'");
        let (key, rest) = full_key(&ph, &keys, &f).ok().flatten().unwrap_or_default();
        assert_eq!(key.len(), 2);
        assert_eq!(rest.len(), 1);
        let f = filter_of("SELECT * FROM t WHERE pk = 'a' OR sk = 1");
        assert!(matches!(full_key(&ph, &keys, &f), Ok(None)));
        let f = filter_of("SELECT * FROM t WHERE pk = sk AND sk = 1");
        assert!(matches!(full_key(&ph, &keys, &f), Ok(None)));
    }

    #[test]
    fn assignments_become_update_clauses() {
        let Ok((Statement::Update { assignments, .. }, _)) = parse(
            "UPDATE t SET a = a + 1 REMOVE b SET c = set_add(c, <<'x'>>), d = list_append(d, [1]) SET e = set_delete(e, <<1>>) WHERE pk = 1",
        ) else {
            panic!("no update");
        };
        let mut ph = Gen::new(&[]);
        assert_eq!(
            ph.update(&assignments).ok().as_deref(),
            Some("SET #n0 = #n0 + :v0, #n3 = list_append(#n3, :v2) REMOVE #n1 ADD #n2 :v1 DELETE #n4 :v3")
        );
    }
}
