//! The rules of `#[created_at]` and `#[updated_at]`: at most one of each, on a stored, plain,
//! top-level attribute of a model. That the type is a `DateTime<Utc>` (or an `Option` of one) is
//! checked by the compiler through `dynomodel::convert::TimestampAttribute`, spanned at the field's
//! type.

use proc_macro2::Span;

use crate::attr::Errors;
use crate::ir::{Container, Derive, Field};

/// Runs every timestamp rule.
pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    only_on_models(container, errors);
    at_most_one(container, errors);
    not_a_key(container, errors);
    one_role(container, errors);
    stored(container, errors);
    no_serde(container, errors);
}

/// The mapper stamps top-level attributes of the items it writes.
fn only_on_models(container: &Container<'_>, errors: &mut Errors) {
    if container.derive != Derive::Document {
        return;
    }
    for (field, span, name) in stamps(container) {
        errors.at(
            span,
            format!(
                "field `{}` cannot be `#[{name}]`: the mapper stamps the items of a \
                 `#[derive(Model)]` struct, not a Document nested in one",
                field.ident
            ),
        );
    }
}

/// One creation time and one update time per item.
fn at_most_one(container: &Container<'_>, errors: &mut Errors) {
    for name in ["created_at", "updated_at"] {
        let mut first = None;
        for (field, span, _) in stamps(container).filter(|(_, _, n)| *n == name) {
            match first {
                Some(first) => errors.at(
                    span,
                    format!("a model has one `#[{name}]` field, and `{first}` is already it"),
                ),
                None => first = Some(field.ident),
            }
        }
    }
}

/// A key never changes, and a time of writing is not an identity.
fn not_a_key(container: &Container<'_>, errors: &mut Errors) {
    for (field, span, name) in stamps(container).filter(|(f, _, _)| f.key.is_some()) {
        errors.at(
            span,
            format!(
                "key field `{}` cannot be `#[{name}]`: a key never changes, and the mapper sets \
                 this time on writes",
                field.ident
            ),
        );
    }
}

/// One attribute, one meaning: not both times, nor the version, the time to live or a counter.
fn one_role(container: &Container<'_>, errors: &mut Errors) {
    for (field, span, name) in stamps(container) {
        let attrs = &field.attrs;
        let other = if name == "updated_at" && attrs.created_at.is_some() {
            "`#[created_at]`, which a write keeps"
        } else if attrs.version.is_some() {
            "the `#[version]`, a counter of writes"
        } else if attrs.ttl.is_some() {
            "the `#[ttl]`, an expiry time"
        } else {
            continue;
        };
        errors.at(
            span,
            format!(
                "field `{}` cannot be `#[{name}]`: it is also {other}",
                field.ident
            ),
        );
    }
}

/// The time is written into the item, so it must be stored.
fn stored(container: &Container<'_>, errors: &mut Errors) {
    for (field, span, name) in stamps(container).filter(|(f, _, _)| f.skip.is_some()) {
        errors.at(
            span,
            format!(
                "field `{}` cannot be `#[{name}]` and skipped: the time is stored with the item",
                field.ident
            ),
        );
    }
}

/// A time is stored as text or as epoch seconds, which the range conditions on it compare;
/// `serde` and `json` would store another shape.
fn no_serde(container: &Container<'_>, errors: &mut Errors) {
    for (field, _, name) in stamps(container) {
        let attrs = &field.attrs;
        if let Some(span) = attrs.serde.or(attrs.json) {
            errors.at(
                span,
                format!(
                    "`#[{name}]` field `{}` is stored as a date-time string or, with \
                     `epoch_seconds`, as a number; remove `serde`/`json`",
                    field.ident
                ),
            );
        }
    }
}

/// Every timestamp marker: the field, the marker's span and its name.
fn stamps<'c, 'a>(
    container: &'c Container<'a>,
) -> impl Iterator<Item = (&'c Field<'a>, Span, &'static str)> {
    container.fields.iter().flat_map(|field| {
        [
            field.attrs.created_at.map(|s| (field, s, "created_at")),
            field.attrs.updated_at.map(|s| (field, s, "updated_at")),
        ]
        .into_iter()
        .flatten()
    })
}
