//! The rules of `time_precision`: the width of a date-time stored as text, so not with another
//! adapter. That the field is a `DateTime<Utc>` is checked by the compiler through
//! `dynomodel::convert::time_precision::TimeTextField`, spanned at the field's type.

use crate::attr::Errors;
use crate::ir::Container;

/// Runs every rule.
pub fn check(container: &Container<'_>, errors: &mut Errors) {
    text_only(container, errors);
}

/// `epoch_seconds` and `#[ttl]` store a number, `serde` and `json` another shape: none has a width
/// of fractional digits.
fn text_only(container: &Container<'_>, errors: &mut Errors) {
    for field in &container.fields {
        let attrs = &field.attrs;
        let Some(precision) = &attrs.time_precision else {
            continue;
        };
        let other = [
            (
                attrs.epoch_seconds.is_some(),
                "`epoch_seconds` stores a number",
            ),
            (attrs.ttl.is_some(), "`#[ttl]` stores whole epoch seconds"),
            (attrs.serde.is_some(), "`serde` stores the serde shape"),
            (attrs.json.is_some(), "`json` stores a JSON string"),
        ]
        .into_iter()
        .find_map(|(set, what)| set.then_some(what));
        if let Some(other) = other {
            errors.at(
                precision.span,
                format!(
                    "field `{}`: `time_precision` is the width of a date-time stored as RFC 3339 \
                     text, and {other}",
                    field.ident
                ),
            );
        }
    }
}
