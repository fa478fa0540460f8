//! The rules of the secondary indexes of a model with composites (global, and local on the struct).

use std::collections::HashSet;

use syn::ext::IdentExt as _;

use crate::attr::{Errors, ProjectionKind};
use crate::check::valid_name;
use crate::ir::{CompositeIndex, Container, KeyRef, KeyRole};

/// DynamoDB's limit on global indexes per table (default quota).
const MAX_GLOBAL: usize = 20;
/// DynamoDB's limit on local indexes per table (hard).
const MAX_LOCAL: usize = 5;

pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    let mut names = HashSet::new();
    let mut handles: HashSet<String> = container
        .fields
        .iter()
        .map(|f| f.ident.unraw().to_string())
        .chain(
            container
                .composites
                .iter()
                .map(|c| c.ident.unraw().to_string()),
        )
        .collect();
    let (mut globals, mut locals) = (0, 0);
    for index in &container.composite_indexes {
        let name = &index.name;
        let (count, max, what) = if index.local {
            (&mut locals, MAX_LOCAL, "local")
        } else {
            (&mut globals, MAX_GLOBAL, "global")
        };
        *count += 1;
        if *count == max + 1 {
            errors.at(
                index.span,
                format!("a table has at most {max} {what} secondary indexes"),
            );
        }
        if index.local {
            local_rules(container, index, errors);
        }
        if !valid_name(name) {
            errors.at(
                index.name_span,
                format!("invalid index name {name:?}: 3 to 255 characters of letters, digits, `_`, `.` and `-`"),
            );
        }
        if !names.insert(name.clone()) {
            // Its handle is the first one's too: one error says it.
            errors.at(index.name_span, format!("duplicate index name {name:?}"));
        } else if !handles.insert(index.handle.unraw().to_string()) {
            errors.at(
                index.name_span,
                format!(
                    "index {name:?} would get the handle `{}`, which a field or composite already has",
                    index.handle
                ),
            );
        }
        match (index.projection.value, index.includes_span) {
            (ProjectionKind::Include, None) => errors.at(
                index.projection.span,
                format!("index {name:?} projects `include` but names nothing to include: add `includes = [field, ...]`"),
            ),
            (ProjectionKind::All | ProjectionKind::Keys, Some(span)) => errors.at(
                span,
                format!("`includes` applies to `include` projections; index {name:?} projects another way (use `include = ...` to project chosen attributes)"),
            ),
            _ => {}
        }
        for (key, span) in &index.includes {
            let KeyRef::Field(p) = *key else { continue };
            let Some(field) = container.fields.get(p) else {
                continue;
            };
            if container.is_part(p) {
                errors.at(
                    *span,
                    format!(
                        "index {name:?} includes `{}`, a composite's part, which is not stored on its own: \
                         include a composite holding the field",
                        field.ident
                    ),
                );
            } else if field.skip.is_some() {
                errors.at(
                    *span,
                    format!(
                        "index {name:?} includes `{}`, which is `skip`ped and never stored",
                        field.ident
                    ),
                );
            }
        }
        for key in std::iter::once(index.hash).chain(index.range) {
            let KeyRef::Field(p) = key else { continue };
            let Some(field) = container.fields.get(p) else {
                continue;
            };
            if container.is_part(p) {
                errors.at(
                    index.name_span,
                    format!(
                        "index {name:?} is keyed by `{}`, a composite's part, which is not stored on its own: \
                         key it by a composite holding the field",
                        field.ident
                    ),
                );
            } else if field.skip.is_some() {
                errors.at(
                    index.name_span,
                    format!(
                        "index {name:?} is keyed by `{}`, which is `skip`ped and never stored",
                        field.ident
                    ),
                );
            }
        }
    }
}

/// A local index re-sorts the table's partitions: the table must have a range key, and the index's
/// sort key must be another attribute than the table's keys.
fn local_rules(container: &Container<'_>, index: &CompositeIndex, errors: &mut Errors) {
    let name = &index.name;
    let table_range = container
        .composite_key(KeyRole::Range)
        .and_then(|c| container.composites.iter().position(|d| std::ptr::eq(c, d)))
        .map(KeyRef::Composite)
        .or_else(|| {
            container
                .fields
                .iter()
                .position(|f| matches!(f.key, Some((KeyRole::Range, _))))
                .map(KeyRef::Field)
        });
    if table_range.is_none() {
        errors.at(
            index.span,
            format!(
                "local index {name:?} needs a table range key: a local index sorts the table's partitions \
                 another way; mark a composite `range_key` or use `#[global_index]`"
            ),
        );
    }
    let Some(range) = index.range else { return };
    let span = index.range_span.unwrap_or(index.name_span);
    let role = if range == index.hash {
        Some("hash")
    } else if Some(range) == table_range {
        Some("range")
    } else {
        None
    };
    if let Some(role) = role {
        errors.at(
            span,
            format!("local index {name:?} would be sorted by the table's {role} key: a local index needs another sort key"),
        );
    }
}
