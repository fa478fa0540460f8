//! The rules of the serde escape hatches, `#[dynomodel(serde)]` (any serde type as a DynamoDB value)
//! and `#[dynomodel(json)]` (as a JSON string): one way of storing a field, and never a key, whose
//! stored form must be a plain string, number or binary the table's schema declares.

use crate::attr::Errors;
use crate::ir::{Container, Field};

/// Runs every escape-hatch rule on a model's or document's fields.
pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    fields(&container.fields, errors);
    for index in &container.indexes {
        for (position, span) in index.hash.iter().chain(&index.range) {
            let Some(field) = container.fields.get(*position) else {
                continue;
            };
            if let Some(option) = escape_option(field) {
                errors.at(
                    *span,
                    format!(
                        "field `{}` is stored through `#[dynomodel({option})]` and cannot be an index key: \
                         index keys are declared S, N or B; derive `Attribute` for a newtype or unit enum instead",
                        field.ident
                    ),
                );
            }
        }
    }
}

/// The rules on a list of fields (a model's, a document's or a struct variant's).
pub(super) fn fields(fields: &[Field<'_>], errors: &mut Errors) {
    for field in fields {
        one_way(field, errors);
        not_a_key(field, errors);
    }
}

/// `"serde"` or `"json"` for a field stored through an escape hatch.
fn escape_option(field: &Field<'_>) -> Option<&'static str> {
    if field.attrs.serde.is_some() {
        Some("serde")
    } else if field.attrs.json.is_some() {
        Some("json")
    } else {
        None
    }
}

/// A field is stored one way: `serde`, `json`, `epoch_seconds`, `#[ttl]` and `#[version]` each choose
/// the stored form.
fn one_way(field: &Field<'_>, errors: &mut Errors) {
    let Some(option) = escape_option(field) else {
        return;
    };
    let attrs = &field.attrs;
    if let (Some(_), Some(span)) = (attrs.serde, attrs.json) {
        errors.at(
            span,
            "`serde` and `json` conflict: `serde` stores the value as a DynamoDB map, list or scalar, \
             `json` as one JSON string; choose one",
        );
    }
    let others = [
        (attrs.epoch_seconds, "`epoch_seconds`"),
        (attrs.ttl, "`#[ttl]`"),
        (attrs.version, "`#[version]`"),
    ];
    for (span, other) in others {
        if let Some(span) = span {
            errors.at(
                span,
                format!(
                    "{other} conflicts with `#[dynomodel({option})]`: a field is stored one way"
                ),
            );
        }
    }
}

/// A key's stored form must be S, N or B as the table declares; a serde value has no fixed type.
fn not_a_key(field: &Field<'_>, errors: &mut Errors) {
    let Some(option) = escape_option(field) else {
        return;
    };
    if let Some((_, span)) = field.key {
        errors.at(
            span,
            format!(
                "key field `{}` cannot be stored through `#[dynomodel({option})]`: keys are declared S, N or B; \
                 derive `Attribute` for a newtype or a unit enum to use a custom type as a key",
                field.ident
            ),
        );
    }
}
