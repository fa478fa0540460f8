//! The rules for secondary indexes (DynamoDB's, from the Developer Guide's `LSI.html`, `GSI.html` and
//! `ServiceQuotas.html`), checked at compile time so a bad declaration never reaches `CreateTable`.
//!
//! Whether an index key's type can be a key (S, N or B) is left to the type checker: the schema's
//! attribute definitions go through `KeyAttribute`, whose message explains the rule at the field's type.

use std::collections::HashMap;

use syn::ext::IdentExt;

use crate::attr::{Errors, ProjectionKind};
use crate::check::valid_name;
use crate::ir::{Container, Derive, KeyRole};

/// DynamoDB's quotas: local indexes per table (hard), global indexes per table (default quota).
const MAX_LOCAL: usize = 5;
const MAX_GLOBAL: usize = 20;

pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    if container.derive == Derive::Document {
        for index in &container.indexes {
            errors.at(index.span, "a Document has no indexes: secondary indexes belong on a `#[derive(Model)]` struct");
        }
        return;
    }
    local_indexes_need_range_key(container, errors);
    counts(container, errors);
    names(container, errors);
    keys(container, errors);
    includes(container, errors);
    throughput_only_when_provisioned(container, errors);
    handles_distinct(container, errors);
}

/// A local index re-sorts the table's partitions, so the table must be sorted (have a range key).
fn local_indexes_need_range_key(container: &Container<'_>, errors: &mut Errors) {
    // A model with composites declares its local indexes on the struct (`check::composite` says so).
    if container.range_key().is_some() || !container.composites.is_empty() {
        return;
    }
    for index in container.indexes.iter().filter(|i| i.local) {
        errors.at(
            index.span,
            format!(
                "local index {:?} needs a table range key: a local index sorts the table's partitions another way; mark a field `#[range_key]` or use `#[global_index]`",
                index.name
            ),
        );
    }
}

fn counts(container: &Container<'_>, errors: &mut Errors) {
    for (local, max, what) in [(true, MAX_LOCAL, "local"), (false, MAX_GLOBAL, "global")] {
        for index in container
            .indexes
            .iter()
            .filter(|i| i.local == local)
            .skip(max)
        {
            errors.at(
                index.span,
                format!("too many {what} secondary indexes: DynamoDB allows at most {max} per table, and {:?} is one more", index.name),
            );
        }
    }
}

/// Names follow the table-name rule and are distinct across local and global indexes.
fn names(container: &Container<'_>, errors: &mut Errors) {
    let mut seen = HashMap::new();
    for index in &container.indexes {
        if !valid_name(&index.name) {
            errors.at(
                index.name_span,
                format!("invalid index name {:?}: DynamoDB index names are 3 to 255 characters of letters, digits, `_`, `.` and `-`", index.name),
            );
        }
        if seen.insert(index.name.as_str(), ()).is_some() {
            errors.at(
                index.name_span,
                format!(
                    "duplicate index name {:?}: index names are unique within a table",
                    index.name
                ),
            );
        }
    }
}

/// Key fields are stored; a global index's two keys differ; a local index's sort key is not a table key.
fn keys(container: &Container<'_>, errors: &mut Errors) {
    for index in &container.indexes {
        // A local index's hash key is the table's, whose storage `keys_are_stored` checks already.
        let hash = if index.local {
            None
        } else {
            index.hash.as_ref()
        };
        for (position, span) in hash.into_iter().chain(&index.range) {
            let field = &container.fields[*position];
            if field.skip.is_some() {
                errors.at(
                    *span,
                    format!(
                        "index {:?} is keyed by `{}`, which is `skip`ped and never stored",
                        index.name, field.ident
                    ),
                );
            }
        }
        if let (Some((hash, _)), Some((range, span))) = (index.hash, index.range)
            && !index.local
            && hash == range
        {
            errors.at(
                span,
                format!(
                    "global index {:?} uses `{}` as both its hash and its range key",
                    index.name, container.fields[hash].ident
                ),
            );
        }
        if index.local
            && let Some((range, span)) = index.range
            && let Some((role, _)) = container.fields[range].key
        {
            let role = if role == KeyRole::Hash {
                "hash"
            } else {
                "range"
            };
            errors.at(
                        span,
                        format!("local index {:?} would be sorted by the table's {role} key `{}`: a local index needs another sort key", index.name, container.fields[range].ident),
                    );
        }
    }
}

/// `includes` only on `include`, which needs at least one; included fields are stored.
fn includes(container: &Container<'_>, errors: &mut Errors) {
    for index in &container.indexes {
        match (index.projection, index.includes_span) {
            (ProjectionKind::Include, None) => errors.at(
                index.projection_span,
                format!("index {:?} projects `include` but names nothing to include: add `includes = [field, ...]`", index.name),
            ),
            (ProjectionKind::All | ProjectionKind::Keys, Some(span)) => {
                let projection = if index.projection == ProjectionKind::All { "all" } else { "keys" };
                errors.at(
                    span,
                    format!("`includes` applies to `include` projections; index {:?} projects `{projection}` (use `include = ...` to project chosen fields)", index.name),
                );
            }
            _ => {}
        }
        for (position, span) in &index.includes {
            let field = &container.fields[*position];
            if field.skip.is_some() {
                errors.at(
                    *span,
                    format!(
                        "index {:?} includes `{}`, which is `skip`ped and never stored",
                        index.name, field.ident
                    ),
                );
            }
        }
    }
}

/// Global index capacity exists only for provisioned tables (on-demand indexes scale with the table).
fn throughput_only_when_provisioned(container: &Container<'_>, errors: &mut Errors) {
    if container.attrs.throughput.is_some() {
        return;
    }
    for index in &container.indexes {
        if let Some(throughput) = &index.throughput {
            errors.at(
                throughput.span,
                format!("index {:?} has a throughput but the table is on demand: give the table `throughput(...)` too, or drop this one", index.name),
            );
        }
    }
}

/// An index handle must not take a field handle's name, nor another index's.
fn handles_distinct(container: &Container<'_>, errors: &mut Errors) {
    let mut taken: HashMap<String, String> = container
        .fields
        .iter()
        .filter(|f| f.stored())
        .map(|f| {
            (
                f.ident.unraw().to_string(),
                format!("the handle of field `{}`", f.ident),
            )
        })
        .collect();
    for index in &container.indexes {
        let handle = index.handle.unraw().to_string();
        if let Some(owner) = taken.get(&handle) {
            if *owner == format!("the handle of index {:?}", index.name) {
                continue; // the same name twice: reported as a duplicate name
            }
            errors.at(
                index.name_span,
                format!("index {:?} would get the handle `{handle}()`, which is already {owner}; rename the index or the field", index.name),
            );
        } else {
            taken.insert(handle, format!("the handle of index {:?}", index.name));
        }
    }
}
