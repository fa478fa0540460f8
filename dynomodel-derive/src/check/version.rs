//! The rules of `#[version]`, the optimistic-locking counter: one per model, on a stored, plain
//! (non-key) attribute of a table item. That its type is an integer is checked by the compiler through
//! `dynomodel::VersionAttribute`, spanned at the field's type.

use crate::attr::Errors;
use crate::ir::{Container, Derive};

/// Runs every version rule.
pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    only_on_models(container, errors);
    at_most_one(container, errors);
    not_a_key(container, errors);
    stored(container, errors);
    plain_integer(container, errors);
}

/// A document is a map nested in an item; the item's version is a top-level attribute of the model.
fn only_on_models(container: &Container<'_>, errors: &mut Errors) {
    if container.derive != Derive::Document {
        return;
    }
    for span in container.fields.iter().filter_map(|f| f.attrs.version) {
        errors.at(
            span,
            "a Document has no version: `#[version]` belongs on a `#[derive(Model)]` struct, \
             whose items the mapper checks and bumps",
        );
    }
}

/// One counter per item: two would have to agree on every write.
fn at_most_one(container: &Container<'_>, errors: &mut Errors) {
    let mut first = None;
    for field in &container.fields {
        let Some(span) = field.attrs.version else {
            continue;
        };
        match first {
            Some(first) => errors.at(
                span,
                format!("a model has one `#[version]` field, and `{first}` is already it"),
            ),
            None => first = Some(field.ident),
        }
    }
}

/// A key never changes, so it cannot count changes.
fn not_a_key(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        if let (Some(span), Some(_)) = (field.attrs.version, field.key) {
            errors.at(
                span,
                format!(
                    "key field `{}` cannot be the version: a key never changes, and the version \
                     changes on every write",
                    field.ident
                ),
            );
        }
    }
}

/// The version is checked against the stored item, so it must be stored.
fn stored(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        if let (Some(_), Some(span)) = (field.attrs.version, field.skip) {
            errors.at(
                span,
                format!(
                    "version field `{}` cannot be skipped: the version is stored with the item \
                     and checked against it",
                    field.ident
                ),
            );
        }
    }
}

/// The mapper writes the version as a plain number (`ADD`, `= :expected`), so no adapter may change
/// how it is stored.
fn plain_integer(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        if let (Some(_), Some(span)) = (field.attrs.version, field.attrs.epoch_seconds) {
            errors.at(
                span,
                format!(
                    "version field `{}` cannot be stored as epoch seconds: a version is a plain \
                     integer counter",
                    field.ident
                ),
            );
        }
    }
}
