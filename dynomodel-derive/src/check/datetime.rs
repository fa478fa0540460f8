//! The rules of `datetime = "..."`: a field is stored one way, so a field's width conflicts with the
//! other options that choose its stored form. That the field is a `DateTime<Utc>` is checked by the
//! compiler through `dynomodel::convert::datetime::DateTimeField`, spanned at the field's type (the
//! struct's width applies only to fields spelled `DateTime<Utc>`).

use crate::attr::Errors;
use crate::ir::Field;

/// Runs the rules on a list of fields (a model's, a document's or a struct variant's).
pub(crate) fn fields(fields: &[Field<'_>], errors: &mut Errors) {
    for field in fields {
        one_way(field, errors);
    }
}

/// `epoch_seconds`, `#[ttl]`, `serde`, `json` and `#[version]` store a field otherwise.
fn one_way(field: &Field<'_>, errors: &mut Errors) {
    let Some(width) = &field.attrs.datetime else {
        return;
    };
    let attrs = &field.attrs;
    let others = [
        (
            attrs.epoch_seconds,
            "`epoch_seconds` stores it as a number of seconds",
        ),
        (attrs.ttl, "`#[ttl]` stores it as whole epoch seconds"),
        (attrs.serde, "`serde` stores it in its serde shape"),
        (attrs.json, "`json` stores it as a JSON string"),
        (attrs.version, "`#[version]` is a number"),
    ];
    if let Some((_, why)) = others.iter().find(|(span, _)| span.is_some()) {
        errors.at(
            width.span,
            format!(
                "`datetime` conflicts with another option of field `{}`: {why}, and a field is stored \
                 one way",
                field.ident
            ),
        );
    }
}
