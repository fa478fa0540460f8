//! The rules a struct must follow, one function each. Every rule records its errors and lets the others
//! run, so a struct with several mistakes gets all of them at once.

use std::collections::HashMap;

use crate::attr::Errors;
use crate::ir::{Container, Derive, KeyRole};

mod composite;
mod composite_index;
mod compress;
mod counter;
pub(crate) mod datetime;
mod entity;
pub(crate) mod enums;
mod escape;
mod index;
mod item_version;
mod tags;
mod timestamps;
mod ttl;
mod version;

/// Runs every rule.
pub(crate) fn check(container: &Container<'_>, errors: &mut Errors) {
    hash_key_present(container, errors);
    one_key_of_each_role(container, errors);
    keys_only_on_models(container, errors);
    table_options_only_on_models(container, errors);
    keys_are_stored(container, errors);
    attribute_names_distinct(container, errors);
    attribute_names_not_empty(container, errors);
    billing_unambiguous(container, errors);
    table_name_valid(container, errors);
    index::check(container, errors);
    version::check(container, errors);
    ttl::check(container, errors);
    counter::check(container, errors);
    timestamps::check(container, errors);
    tags::check(container, errors);
    escape::check(container, errors);
    compress::check(container, errors);
    datetime::fields(&container.fields, errors);
    composite::check(container, errors);
    entity::check(container, errors);
    item_version::check(container, errors);
}

/// A model needs a partition key.
fn hash_key_present(container: &Container<'_>, errors: &mut Errors) {
    if container.derive == Derive::Model
        && container.hash_key().is_none()
        && container.composite_key(KeyRole::Hash).is_none()
    {
        errors.at(
            container.ident.span(),
            format!(
                "`{}` has no hash key: mark the partition key field with `#[hash_key]`",
                container.ident
            ),
        );
    }
}

/// At most one hash key and one range key; a field cannot be both.
fn one_key_of_each_role(container: &Container<'_>, errors: &mut Errors) {
    let mut hash = None;
    let mut range = None;
    for field in &container.fields {
        if let (Some(_), Some(span)) = (field.attrs.hash_key, field.attrs.range_key) {
            errors.at(
                span,
                format!(
                    "field `{}` cannot be both the hash key and the range key",
                    field.ident
                ),
            );
        }
        let Some((role, span)) = field.key else {
            continue;
        };
        let (seen, what) = match role {
            KeyRole::Hash => (&mut hash, "hash key"),
            KeyRole::Range => (&mut range, "range key"),
        };
        match seen {
            Some(first) => errors.at(
                span,
                format!("a table has one {what}, and `{first}` is already the {what}"),
            ),
            None => *seen = Some(field.ident),
        }
    }
}

/// Documents are nested maps, which have no keys.
fn keys_only_on_models(container: &Container<'_>, errors: &mut Errors) {
    if container.derive != Derive::Document {
        return;
    }
    for field in &container.fields {
        for span in [field.attrs.hash_key, field.attrs.range_key]
            .into_iter()
            .flatten()
        {
            errors.at(
                span,
                "a Document has no keys: `#[hash_key]` and `#[range_key]` belong on a `#[derive(Model)]` struct",
            );
        }
    }
}

/// `table`, `throughput`, `on_demand` and the other table options describe a table, which a document
/// is not.
fn table_options_only_on_models(container: &Container<'_>, errors: &mut Errors) {
    if container.derive != Derive::Document {
        return;
    }
    let attrs = &container.attrs;
    let spans = [
        attrs.table.as_ref().map(|t| t.span),
        attrs.throughput.as_ref().map(|t| t.span),
        attrs.on_demand,
        attrs.tags.as_ref().map(|t| t.span),
        attrs.stream.as_ref().map(|s| s.span),
        attrs.table_class.as_ref().map(|c| c.span),
        attrs.deletion_protection,
        attrs.point_in_time_recovery.as_ref().map(|p| p.span),
        attrs.max_item_size.as_ref().map(|m| m.span),
    ];
    for span in spans.into_iter().flatten() {
        errors.at(
            span,
            "table options belong on a `#[derive(Model)]` struct, not on a Document",
        );
    }
}

/// A key field must be stored: every item has its keys.
fn keys_are_stored(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        if let (Some(_), Some(span)) = (field.key, field.skip) {
            errors.at(
                span,
                format!(
                    "key field `{}` cannot be skipped: every item stores its key",
                    field.ident
                ),
            );
        }
    }
}

/// Two fields cannot be stored under the same attribute name.
fn attribute_names_distinct(container: &Container<'_>, errors: &mut Errors) {
    let mut seen = HashMap::new();
    for field in container.fields.iter().filter(|f| f.stored()) {
        if let Some(first) = seen.insert(field.name.as_str(), field.ident) {
            errors.at(
                field.name_span,
                format!(
                    "fields `{first}` and `{}` are both stored as attribute `{}`",
                    field.ident, field.name
                ),
            );
        }
    }
}

/// DynamoDB attribute names have at least one character.
fn attribute_names_not_empty(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        if field.name.is_empty() {
            errors.at(field.name_span, "attribute names cannot be empty");
        }
    }
}

/// A table is either provisioned (`throughput(...)`) or on demand, not both.
fn billing_unambiguous(container: &Container<'_>, errors: &mut Errors) {
    if let (Some(_), Some(span)) = (&container.attrs.throughput, container.attrs.on_demand) {
        errors.at(
            span,
            "`on_demand` and `throughput(...)` conflict: a table is billed one way",
        );
    }
}

/// DynamoDB's rule for table and index names: 3–255 characters of `A-Z a-z 0-9 _ . -`.
pub(crate) fn valid_name(name: &str) -> bool {
    (3..=255).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// DynamoDB table names: 3–255 characters of `A-Z a-z 0-9 _ . -`.
fn table_name_valid(container: &Container<'_>, errors: &mut Errors) {
    if container.derive != Derive::Model {
        return;
    }
    let name = &container.table_name;
    if !valid_name(name) {
        errors.at(
            container.table_span,
            format!(
                "invalid table name {name:?}: DynamoDB table names are 3 to 255 characters of letters, digits, `_`, `.` and `-`{}",
                if container.attrs.table.is_none() { "; set one with `#[dynomodel(table = \"...\")]`" } else { "" }
            ),
        );
    }
}
