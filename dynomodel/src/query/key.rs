//! Key conditions: checking a `.range(...)` condition, choosing the index it implies, and rendering
//! `hash = :v AND <range>`.
//!
//! What the types check and what is left to run time: `.range(..)` takes a
//! [`SortKeyCondition`](crate::SortKeyCondition), which only the sort-key comparisons (`=`, `<`,
//! `<=`, `>`, `>=`, `BETWEEN`, `begins_with`) of a handle whose [role](crate::expression::role)
//! sorts the table or some index make, typed by the field's value. *Which* table or index the
//! attribute sorts is not in the types (a field may sort several indexes, and index auto-selection
//! must see it), so it is checked here, before any request is sent: that the attribute is the sort
//! key of the table or index read. The shape is checked again (cheaply) so that this module does
//! not rely on how conditions were built. Every failure is an `Error::Validation` saying what was
//! expected.

use crate::backend::{CreateTableInput, ProjectionType};
use crate::error::{Error, Result};
use crate::expression::condition::{Comparator, Condition, Node, Operand};
use crate::expression::path::PathElement;
use crate::expression::ExpressionContext;
use crate::value::AttributeValue;

/// The attribute a range condition constrains, if the condition is one DynamoDB allows on a sort key.
pub(crate) fn range_attribute<M>(condition: &Condition<M>) -> Result<&str> {
    fn top(path: &[PathElement]) -> Option<&str> {
        match path {
            [PathElement::Name(name)] => Some(name.as_str()),
            _ => None,
        }
    }
    let attribute = match condition.node() {
        Node::Compare(Operand::Path(path), op, Operand::Value(_)) if *op != Comparator::Ne => {
            top(path)
        }
        Node::Between(Operand::Path(path), Operand::Value(_), Operand::Value(_)) => top(path),
        Node::Function("begins_with", path, Some(Operand::Value(_))) => top(path),
        _ => None,
    };
    attribute.ok_or_else(|| {
        Error::validation(format!(
            "a range condition is one comparison of the sort key: =, <, <=, >, >=, between or begins_with on a \
             top-level attribute (combine other conditions with .filter(...)); got {:?}",
            condition
        ))
    })
}

/// Where a query reads, decided from the model's schema.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    /// `None`: the table.
    pub(crate) index: Option<String>,
    pub(crate) local: bool,
    pub(crate) range: Option<String>,
    /// A local index that does not project every attribute is read with `Select=ALL_ATTRIBUTES`, so
    /// DynamoDB fetches the rest from the table and the model decodes whole.
    pub(crate) select_all: bool,
}

impl Target {
    pub(crate) fn table(range: Option<&str>) -> Target {
        Target {
            index: None,
            local: false,
            range: range.map(str::to_owned),
            select_all: false,
        }
    }
}

/// flywheel's index selection for `db.query::<M>(hash).range(cond)`: the table if `cond` constrains
/// the table's sort key, else the one index partitioned by the table's hash key and sorted by that
/// attribute that can return whole items (any local index; a global one projecting ALL).
pub(crate) fn auto_select(
    schema: &CreateTableInput,
    hash: &str,
    range: Option<&str>,
    attribute: &str,
) -> Result<Target> {
    if range == Some(attribute) {
        return Ok(Target::table(range));
    }
    fn key_of(keys: &[crate::backend::KeySchemaElement]) -> (Option<&str>, Option<&str>) {
        (
            keys.first().map(|k| k.attribute_name.as_str()),
            keys.get(1).map(|k| k.attribute_name.as_str()),
        )
    }
    let locals = schema
        .local_secondary_indexes
        .iter()
        .map(|i| (&i.index_name, &i.key_schema, &i.projection, true));
    let globals = schema
        .global_secondary_indexes
        .iter()
        .map(|i| (&i.index_name, &i.key_schema, &i.projection, false));
    let candidates: Vec<Target> = locals
        .chain(globals)
        .filter(|(_, keys, projection, local)| {
            key_of(keys) == (Some(hash), Some(attribute))
                && (*local || projection.projection_type == ProjectionType::All)
        })
        .map(|(name, _, projection, local)| Target {
            index: Some(name.clone()),
            local,
            range: Some(attribute.to_owned()),
            select_all: projection.projection_type != ProjectionType::All,
        })
        .collect();
    match candidates.len() {
        1 => Ok(candidates.into_iter().next().expect("one candidate")),
        0 => Err(Error::validation(format!(
            "no index of table `{}` is partitioned by `{hash}` and sorted by `{attribute}` (with every attribute \
             available); the table's sort key is {}; use db.query_index(...) for other indexes",
            schema.table_name,
            range.map_or_else(|| "absent".to_owned(), |r| format!("`{r}`")),
        ))),
        _ => Err(Error::validation(format!(
            "several indexes of table `{}` are sorted by `{attribute}` ({}); choose one with .index(...)",
            schema.table_name,
            candidates.iter().filter_map(|c| c.index.as_deref()).collect::<Vec<_>>().join(", "),
        ))),
    }
}

/// Renders `hash = :v` and, if given, `AND` the range condition, after checking the range condition
/// names `target`'s sort key.
pub(crate) fn render<M>(
    ctx: &mut ExpressionContext,
    hash_name: &str,
    hash: AttributeValue,
    range: Option<&Condition<M>>,
    target: &Target,
) -> Result<String> {
    let Some(range) = range else {
        // The partition key alone, the common query: rendered directly.
        return ctx.key_equals(hash_name, hash);
    };
    let hash_condition = Condition::<M>::from_node(Node::Compare(
        Operand::Path(vec![PathElement::Name(hash_name.to_owned())]),
        Comparator::Eq,
        Operand::Value(Ok(hash)),
    ));
    let attribute = range_attribute(range)?;
    let read = || {
        target
            .index
            .as_deref()
            .map_or_else(|| "the table".to_owned(), |i| format!("index `{i}`"))
    };
    match target.range.as_deref() {
        Some(sort_key) if sort_key == attribute => {}
        Some(sort_key) => {
            return Err(Error::validation(format!(
                "the range condition is on `{attribute}`, but {} is sorted by `{sort_key}`",
                read()
            )))
        }
        None => {
            return Err(Error::validation(format!(
                "{} has no sort key: a query on it takes no range condition",
                read()
            )))
        }
    }
    // Both halves are key conditions of the allowed shapes (`range_attribute` checked the range),
    // so they are rendered as `hash AND range` from references, without copying the range.
    ctx.key_conditions(&[&hash_condition, range])
}

/// Whether a sort key value satisfies `range` (a condition [`range_attribute`] accepts), as
/// DynamoDB checks an `ExclusiveStartKey` against the key condition: S and B compare as bytes, N
/// by value; a missing value or another type never does.
pub(crate) fn admits<M>(range: &Condition<M>, value: Option<&AttributeValue>) -> bool {
    use std::cmp::Ordering;
    let Some(value) = value else { return false };
    let compare = |operand: &Operand| -> Option<Ordering> {
        match (value, operand) {
            (AttributeValue::S(a), Operand::Value(Ok(AttributeValue::S(b)))) => {
                Some(a.as_bytes().cmp(b.as_bytes()))
            }
            (AttributeValue::N(a), Operand::Value(Ok(AttributeValue::N(b)))) => Some(a.cmp(b)),
            (AttributeValue::B(a), Operand::Value(Ok(AttributeValue::B(b)))) => Some(a.cmp(b)),
            _ => None,
        }
    };
    match range.node() {
        Node::Compare(_, op, operand) => compare(operand).is_some_and(|order| match op {
            Comparator::Eq => order == Ordering::Equal,
            Comparator::Lt => order == Ordering::Less,
            Comparator::Le => order != Ordering::Greater,
            Comparator::Gt => order == Ordering::Greater,
            Comparator::Ge => order != Ordering::Less,
            Comparator::Ne => order != Ordering::Equal,
        }),
        Node::Between(_, low, high) => {
            compare(low).is_some_and(|o| o != Ordering::Less)
                && compare(high).is_some_and(|o| o != Ordering::Greater)
        }
        Node::Function("begins_with", _, Some(Operand::Value(Ok(prefix)))) => {
            match (value, prefix) {
                (AttributeValue::S(s), AttributeValue::S(p)) => s.starts_with(p.as_str()),
                (AttributeValue::B(b), AttributeValue::B(p)) => b.starts_with(p),
                _ => false,
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    //! The run-time checks behind `.range(..)`. The typed API only hands them sort-key comparisons
    //! of top-level attributes; conditions of other shapes are built here directly, to keep the
    //! checks honest on their own.

    use super::*;
    use crate::expression::role::KeySort;
    use crate::expression::tests::Tweet;
    use crate::model::Field;

    fn id() -> Field<Tweet, String, KeySort> {
        Field::with_role("id")
    }

    #[test]
    fn every_sort_key_comparison_names_its_attribute() {
        let conditions: Vec<Condition<Tweet>> = vec![
            id().eq("a").into(),
            id().lt("a").into(),
            id().le("a").into(),
            id().gt("a").into(),
            id().ge("a").into(),
            id().between("a", "b").into(),
            id().begins_with("a").into(),
        ];
        for condition in &conditions {
            assert_eq!(range_attribute(condition).ok(), Some("id"), "{condition:?}");
        }
    }

    #[test]
    fn other_shapes_are_refused_before_sending() {
        let refused: Vec<Condition<Tweet>> = vec![
            id().ne("a"),
            id().eq("a") | id().eq("b"),
            id().ge("a") & id().le("b"),
            !id().eq("a"),
            id().exists(),
            id().size().gt(1),
            Tweet::meta().key("a").index(0).eq(1),
        ];
        for condition in &refused {
            let err = range_attribute(condition).expect_err("not a sort-key condition");
            assert!(
                err.message()
                    .starts_with("a range condition is one comparison of the sort key"),
                "{err}"
            );
        }
    }

    #[test]
    fn a_range_condition_must_name_the_sort_key_of_what_is_read() {
        let mut ctx = ExpressionContext::new();
        let hash = || AttributeValue::S("u1".into());
        let range: Condition<Tweet> = id().ge("a").into();
        let index = |range: Option<&str>| Target {
            index: Some("by-day".into()),
            local: false,
            range: range.map(str::to_owned),
            select_all: false,
        };
        let err = render(
            &mut ctx,
            "userid",
            hash(),
            Some(&range),
            &index(Some("day")),
        )
        .expect_err("another sort key");
        assert_eq!(
            err.message(),
            "the range condition is on `id`, but index `by-day` is sorted by `day`"
        );
        let err = render(&mut ctx, "userid", hash(), Some(&range), &index(None))
            .expect_err("no sort key");
        assert_eq!(
            err.message(),
            "index `by-day` has no sort key: a query on it takes no range condition"
        );
        let text = render(
            &mut ctx,
            "userid",
            hash(),
            Some(&range),
            &Target::table(Some("id")),
        );
        assert_eq!(text.ok().as_deref(), Some("#n0 = :v0 AND #n1 >= :v1"));
    }

    #[test]
    fn the_partition_key_alone_renders_as_its_condition_would() {
        // Rendered directly (`key_equals`), after another expression of the request: the same
        // text and the same placeholders as the condition `userid = hash` through `key_condition`.
        let hash = || AttributeValue::S("u1".into());
        let compare = |comparator, value| {
            Condition::<Tweet>::from_node(Node::Compare(
                Operand::Path(vec![PathElement::Name("userid".to_owned())]),
                comparator,
                Operand::Value(Ok(value)),
            ))
        };
        let mut by_condition = ExpressionContext::new();
        let mut direct = ExpressionContext::new();
        for ctx in [&mut by_condition, &mut direct] {
            let filter = ctx.condition(&compare(Comparator::Ne, AttributeValue::S("x".into())));
            assert_eq!(filter.ok().as_deref(), Some("#n0 <> :v0"));
        }
        let expected = by_condition
            .key_condition(&compare(Comparator::Eq, hash()))
            .ok();
        let text = render::<Tweet>(
            &mut direct,
            "userid",
            hash(),
            None,
            &Target::table(Some("id")),
        );
        assert_eq!(text.ok(), expected);
        assert_eq!(expected.as_deref(), Some("#n0 = :v1"));
        assert_eq!(direct.finish(), by_condition.finish());
    }
}
