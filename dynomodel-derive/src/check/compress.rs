//! The rules of `#[dynomodel(compress)]` and of the `max_item_size` budget (between 1 byte and
//! 400 KB, on models only). A compressed field is stored one way (gzip-compressed B; `json` says what
//! is compressed, the other storage options conflict), and is never a key, an index key or a part of
//! a composite: DynamoDB compares keys by their bytes, and compressed bytes do not compare like the
//! values they hold. The field's type is checked by the compiler (`Compressible`).

use crate::attr::Errors;
use crate::ir::{Container, Field, KeyRef};

/// DynamoDB's item size limit (400 KB), the largest budget `max_item_size` may set.
const MAX_ITEM_SIZE: usize = 409_600;

/// Runs every compress rule on a model's or document's fields, and the size budget's.
pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    if let Some(budget) = &container.attrs.max_item_size
        && (budget.value == 0 || budget.value > MAX_ITEM_SIZE)
    {
        errors.at(
            budget.span,
            format!(
                "max_item_size must be between 1 byte and DynamoDB's item limit of 400 KB ({MAX_ITEM_SIZE} bytes); \
                 got {} bytes",
                budget.value
            ),
        );
    }
    for field in &container.fields {
        one_way(field, errors);
        not_a_key(field, errors);
    }
    let compressed = |position: usize| {
        container
            .fields
            .get(position)
            .filter(|field| field.attrs.compress.is_some())
    };
    for index in &container.indexes {
        for (position, span) in index.hash.iter().chain(&index.range) {
            if let Some(field) = compressed(*position) {
                errors.at(
                    *span,
                    format!(
                        "field `{}` is stored compressed and cannot be an index key: DynamoDB compares \
                         key bytes, and compressed bytes do not compare like the values they hold",
                        field.ident
                    ),
                );
            }
        }
    }
    for index in &container.composite_indexes {
        for key in std::iter::once(&index.hash).chain(&index.range) {
            if let KeyRef::Field(position) = key
                && let Some(field) = compressed(*position)
            {
                errors.at(
                    index.span,
                    format!(
                        "field `{}` is stored compressed and cannot be a key of index `{}`",
                        field.ident, index.name
                    ),
                );
            }
        }
    }
    for composite in &container.composites {
        for (position, span) in composite.parts.iter().zip(&composite.part_spans) {
            if let Some(field) = compressed(*position) {
                errors.at(
                    *span,
                    format!(
                        "field `{}` is stored compressed and cannot be a part of composite `{}`: \
                         a composite is written as plain text",
                        field.ident, composite.name
                    ),
                );
            }
        }
    }
}

/// `compress` decides the stored form; only `json` (what is compressed) goes with it.
fn one_way(field: &Field<'_>, errors: &mut Errors) {
    if field.attrs.compress.is_none() {
        return;
    }
    let attrs = &field.attrs;
    let others = [
        (attrs.serde, "`serde`"),
        (attrs.epoch_seconds, "`epoch_seconds`"),
        (attrs.datetime.as_ref().map(|w| w.span), "`datetime`"),
        (attrs.ttl, "`#[ttl]`"),
        (attrs.version, "`#[version]`"),
        (attrs.counter, "`counter`"),
        (attrs.created_at, "`#[created_at]`"),
        (attrs.updated_at, "`#[updated_at]`"),
    ];
    for (span, other) in others {
        if let Some(span) = span {
            errors.at(
                span,
                format!(
                    "{other} conflicts with `compress`: a compressed field is stored as gzip-compressed \
                     bytes (B); with `json`, of its JSON text"
                ),
            );
        }
    }
}

/// A key's bytes are compared by DynamoDB.
fn not_a_key(field: &Field<'_>, errors: &mut Errors) {
    if field.attrs.compress.is_none() {
        return;
    }
    if let Some((_, span)) = field.key {
        errors.at(
            span,
            format!(
                "key field `{}` cannot be stored compressed: DynamoDB compares key bytes, and \
                 compressed bytes do not compare like the values they hold",
                field.ident
            ),
        );
    }
}
