//! The rules of `#[composite(...)]`, one function each.

use std::collections::HashMap;

use syn::ext::IdentExt as _;

use crate::attr::Errors;
use crate::ir::{self, Container, Derive, KeyRole};

/// The most parts a composite has: the tuple traits of `dynomodel::CompositeParts` go that far.
const MAX_PARTS: usize = 6;

pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    only_on_models(container, errors);
    one_key_of_each_role(container, errors);
    names_distinct(container, errors);
    prefix_without_separator(container, errors);
    parts_are_plain(container, errors);
    part_count(container, errors);
    local_indexes_on_the_struct(container, errors);
    keys_share_no_part(container, errors);
    super::composite_index::check(container, errors);
}

fn only_on_models(container: &Container<'_>, errors: &mut Errors) {
    if container.derive != Derive::Model {
        for composite in &container.composites {
            errors.at(
                composite.ident.span(),
                "`#[composite(...)]` belongs on a `#[derive(Model)]` struct: composites are keys of a table or of its indexes",
            );
        }
    }
}

/// A table has one hash key and one range key: a composite and a field cannot both be one.
fn one_key_of_each_role(container: &Container<'_>, errors: &mut Errors) {
    for role in [KeyRole::Hash, KeyRole::Range] {
        let what = if role == KeyRole::Hash {
            "hash key"
        } else {
            "range key"
        };
        let field = container
            .fields
            .iter()
            .find(|f| matches!(f.key, Some((r, _)) if r == role))
            .map(|f| f.ident.to_string());
        let mut first = field;
        for composite in &container.composites {
            let Some((r, span)) = composite.role else {
                continue;
            };
            if r != role {
                continue;
            }
            match &first {
                Some(first) => errors.at(
                    span,
                    format!("a table has one {what}, and `{first}` is already the {what}"),
                ),
                None => first = Some(composite.ident.unraw().to_string()),
            }
        }
    }
}

/// A composite's identifier names its handle (`Order::sk()`), which cannot be a field's handle or
/// another composite's; its attribute name (`rename`, or the identifier) cannot be a stored field's
/// attribute or another composite's.
fn names_distinct(container: &Container<'_>, errors: &mut Errors) {
    let mut handles: HashMap<String, String> = HashMap::new();
    let mut attributes: HashMap<String, String> = HashMap::new();
    for (i, field) in container.fields.iter().enumerate() {
        handles.insert(
            field.ident.unraw().to_string(),
            format!("field `{}`", field.ident),
        );
        if field.stored() && !container.is_part(i) {
            attributes.insert(
                field.name.clone(),
                format!("field `{}`'s attribute", field.ident),
            );
        }
    }
    for composite in &container.composites {
        let ident = composite.ident.unraw().to_string();
        if let Some(other) = handles.insert(ident.clone(), format!("composite `{ident}`")) {
            errors.at(
                composite.ident.span(),
                format!(
                    "composite `{ident}` has the name of {other}: both would have the handle `{}::{ident}()`, \
                     so choose another identifier (`rename = \"{}\"` keeps the attribute's name)",
                    container.ident, composite.name
                ),
            );
            continue;
        }
        if composite.name.is_empty() {
            errors.at(composite.name_span, "attribute names cannot be empty");
        } else if let Some(other) =
            attributes.insert(composite.name.clone(), format!("composite `{ident}`"))
        {
            errors.at(
                composite.name_span,
                format!(
                    "composite `{ident}` is stored as attribute `{}`, which is already {other}; \
                     choose another name (or `rename = \"...\"`)",
                    composite.name
                ),
            );
        }
    }
}

/// The prefix is the composite's first element: holding the separator, it would read as a part
/// (`"USER#ADMIN"` + `id` is `USER#ADMIN#{id}`, also `USER#{a}#{b}`'s shape).
fn prefix_without_separator(container: &Container<'_>, errors: &mut Errors) {
    for composite in &container.composites {
        if let Some(span) = composite.prefix_span
            && !composite.separator.is_empty()
            && composite.prefix.contains(composite.separator.as_str())
        {
            errors.at(
                span,
                format!(
                    "the prefix of composite `{}` holds its separator {:?}, so it would read as parts; \
                     choose another separator (`separator = \"...\"`) or a prefix without it",
                    composite.ident, composite.separator
                ),
            );
        }
    }
}

/// A part is a plain, always-present field: not an `Option` (a key has every part), not a key, not
/// skipped (it is stored inside the composite), not a version, a time to live, a counter or a
/// timestamp.
fn parts_are_plain(container: &Container<'_>, errors: &mut Errors) {
    for composite in &container.composites {
        for (&index, &span) in composite.parts.iter().zip(&composite.part_spans) {
            let Some(field) = container.fields.get(index) else {
                continue;
            };
            let ident = field.ident;
            let attrs = &field.attrs;
            let problem = if ir::is_option(field.ty) {
                Some("is an Option, and a composite key has every part")
            } else if attrs.hash_key.is_some() || attrs.range_key.is_some() {
                Some("is a key field; the composite is the key")
            } else if attrs.skip.is_some() {
                Some("is skipped, but a part is stored inside the composite")
            } else if attrs.version.is_some() || attrs.ttl.is_some() {
                Some("is the version or time to live, which are attributes of their own")
            } else if attrs.counter.is_some()
                || attrs.created_at.is_some()
                || attrs.updated_at.is_some()
            {
                Some("is a counter or a timestamp, which the mapper writes on its own")
            } else if !attrs.local_indexes.is_empty()
                || attrs.epoch_seconds.is_some()
                || attrs.rename.is_some()
            {
                Some("has a storage option (`index`, `epoch_seconds`, `rename`), but a part is stored only inside the composite")
            } else {
                None
            };
            if let Some(problem) = problem {
                errors.at(
                    span,
                    format!(
                        "field `{ident}` cannot be a part of composite `{}`: it {problem}",
                        composite.ident
                    ),
                );
            }
        }
    }
}

fn part_count(container: &Container<'_>, errors: &mut Errors) {
    for composite in &container.composites {
        if composite.parts.len() > MAX_PARTS {
            errors.at(
                composite.list_span,
                format!(
                    "composite `{}` has {} parts; at most {MAX_PARTS} are supported",
                    composite.ident,
                    composite.parts.len()
                ),
            );
        }
    }
}

/// A model with composites declares its local indexes on the struct, `#[local_index(...)]`, whose
/// sort key may be a composite (which no field's `#[index]` can name); other models declare them on
/// the field that sorts them. One way each keeps the two expansions apart.
fn local_indexes_on_the_struct(container: &Container<'_>, errors: &mut Errors) {
    if container.composites.is_empty() {
        for index in &container.attrs.struct_local_indexes {
            errors.at(
                index.span,
                format!(
                    "`#[local_index]` is for models with composites; on this model declare local index {:?} \
                     on the field that sorts it: `#[index(all = {:?})]`",
                    index.name.value, index.name.value
                ),
            );
        }
        return;
    }
    for index in &container.indexes {
        let range = index
            .range
            .and_then(|(p, _)| container.fields.get(p))
            .map_or_else(|| "field".to_owned(), |f| f.ident.unraw().to_string());
        errors.at(
            index.span,
            format!(
                "on a model with composites, local index {:?} is declared on the struct: \
                 `#[local_index(all({:?}, range = {range}))]` (its sort key may be a composite)",
                index.name, index.name
            ),
        );
    }
}

/// The key struct holds each key field once, so the two table keys cannot share a part.
fn keys_share_no_part(container: &Container<'_>, errors: &mut Errors) {
    let (Some(hash), Some(range)) = (
        container.composite_key(KeyRole::Hash),
        container.composite_key(KeyRole::Range),
    ) else {
        return;
    };
    let hash_field = |i: usize| hash.parts.contains(&i);
    for (&index, &span) in range.parts.iter().zip(&range.part_spans) {
        if hash_field(index)
            && let Some(field) = container.fields.get(index)
        {
            errors.at(
                span,
                format!(
                    "field `{}` is a part of both table keys, `{}` and `{}`; a key holds each field once",
                    field.ident, hash.ident, range.ident
                ),
            );
        }
    }
}
