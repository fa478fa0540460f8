//! The rules of `#[ttl]`, the time-to-live attribute: one per model, on a stored, plain attribute of
//! a table item. That its type is a time or an integer is checked by the compiler through
//! `dynomodel::convert::ttl::TtlAttribute`, spanned at the field's type.

use crate::attr::Errors;
use crate::ir::{Container, Derive};

/// Runs every ttl rule.
pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    only_on_models(container, errors);
    at_most_one(container, errors);
    not_a_key(container, errors);
    stored(container, errors);
    not_the_version(container, errors);
    not_epoch_seconds(container, errors);
}

/// DynamoDB reads the time to live from a top-level attribute of the item (DG `howitworks-ttl.html`).
fn only_on_models(container: &Container<'_>, errors: &mut Errors) {
    if container.derive != Derive::Document {
        return;
    }
    for span in container.fields.iter().filter_map(|f| f.attrs.ttl) {
        errors.at(
            span,
            "a Document has no time to live: DynamoDB reads it from a top-level attribute, so \
             `#[ttl]` belongs on a `#[derive(Model)]` struct",
        );
    }
}

/// A table has one time-to-live attribute (`UpdateTimeToLive` names one).
fn at_most_one(container: &Container<'_>, errors: &mut Errors) {
    let mut first = None;
    for field in &container.fields {
        let Some(span) = field.attrs.ttl else {
            continue;
        };
        match first {
            Some(first) => errors.at(
                span,
                format!(
                    "a table has one time-to-live attribute, and `{first}` is already `#[ttl]`"
                ),
            ),
            None => first = Some(field.ident),
        }
    }
}

/// An expiry time is not an identity; DynamoDB documents the TTL attribute as a plain top-level
/// number.
fn not_a_key(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        if let (Some(span), Some(_)) = (field.attrs.ttl, field.key) {
            errors.at(
                span,
                format!(
                    "key field `{}` cannot be the time to live: an expiry time is not part of an \
                     item's identity",
                    field.ident
                ),
            );
        }
    }
}

/// DynamoDB reads the expiry from the stored item, so it must be stored.
fn stored(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        if let (Some(_), Some(span)) = (field.attrs.ttl, field.skip) {
            errors.at(
                span,
                format!(
                    "ttl field `{}` cannot be skipped: DynamoDB reads the expiry time from the \
                     stored item",
                    field.ident
                ),
            );
        }
    }
}

/// A version counts writes; an expiry is a time. One attribute cannot be both.
fn not_the_version(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        if let (Some(span), Some(_)) = (field.attrs.ttl, field.attrs.version) {
            errors.at(
                span,
                format!(
                    "field `{}` cannot be both `#[version]` and `#[ttl]`: a version counts writes, \
                     a time to live is an expiry time",
                    field.ident
                ),
            );
        }
    }
}

/// `#[ttl]` already stores epoch seconds (whole ones); the two adapters would disagree.
fn not_epoch_seconds(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        if let (Some(_), Some(span)) = (field.attrs.ttl, field.attrs.epoch_seconds) {
            errors.at(
                span,
                format!(
                    "field `{}` is `#[ttl]`, which already stores whole epoch seconds: remove \
                     `epoch_seconds`",
                    field.ident
                ),
            );
        }
    }
}
