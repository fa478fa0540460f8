//! The rules of the global indexes of a model with composites.

use std::collections::HashSet;

use syn::ext::IdentExt as _;

use crate::attr::{Errors, ProjectionKind};
use crate::check::valid_name;
use crate::ir::{Container, KeyRef};

/// DynamoDB's limit on global indexes per table.
const MAX_GLOBAL: usize = 20;

pub fn check(container: &Container<'_>, errors: &mut Errors) {
    let mut names = HashSet::new();
    let mut handles: HashSet<String> = container
        .fields
        .iter()
        .map(|f| f.ident.unraw().to_string())
        .chain(container.composites.iter().map(|c| c.name.clone()))
        .collect();
    for (n, index) in container.composite_indexes.iter().enumerate() {
        let name = &index.name;
        if n == MAX_GLOBAL {
            errors.at(
                index.span,
                format!("a table has at most {MAX_GLOBAL} global secondary indexes"),
            );
        }
        if !valid_name(name) {
            errors.at(
                index.name_span,
                format!("invalid index name {name:?}: 3 to 255 characters of letters, digits, `_`, `.` and `-`"),
            );
        }
        if !names.insert(name.clone()) {
            errors.at(index.name_span, format!("duplicate index name {name:?}"));
        }
        if !handles.insert(index.handle.unraw().to_string()) {
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
            if let KeyRef::Field(p) = key
                && container.is_part(p)
                && let Some(field) = container.fields.get(p)
            {
                errors.at(
                    index.name_span,
                    format!(
                        "index {name:?} is keyed by `{}`, a composite's part, which is not stored on its own: \
                         key it by a composite holding the field",
                        field.ident
                    ),
                );
            }
        }
    }
}
