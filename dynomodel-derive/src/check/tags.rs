//! The rules of the table options: `tags(...)` follow DynamoDB's tagging restrictions (DG
//! `TaggingRestrictions.html`; API `API_Tag.html`), checked at compile time so a model whose
//! tags DynamoDB would refuse never builds.

use std::collections::HashMap;

use crate::attr::Errors;
use crate::ir::Container;

/// "The maximum number of tags per resource is 50." (DG `TaggingRestrictions.html`)
const MAX_TAGS: usize = 50;
/// "The maximum key length is 128 Unicode characters." (`TagKeyString`: min 1, max 128)
const MAX_KEY_CHARS: usize = 128;
/// "The maximum value length is 256 Unicode characters." (`TagValueString`: min 0, max 256)
const MAX_VALUE_CHARS: usize = 256;
/// "AWS-assigned tag names and values are automatically assigned the aws: prefix, which you can't
/// assign."
const RESERVED_PREFIX: &str = "aws:";

/// "The allowed characters are letters, white space, and numbers, plus the following special
/// characters: + - = . _ : /" (DG `TaggingRestrictions.html`).
fn allowed(c: char) -> bool {
    c.is_alphanumeric() || c.is_whitespace() || matches!(c, '+' | '-' | '=' | '.' | '_' | ':' | '/')
}

/// Runs every tag rule.
pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    let Some(tags) = &container.attrs.tags else {
        return;
    };
    if tags.tags.len() > MAX_TAGS {
        errors.at(
            tags.span,
            format!(
                "{} tags: DynamoDB allows at most {MAX_TAGS} tags per table",
                tags.tags.len()
            ),
        );
    }
    let mut seen = HashMap::new();
    for tag in &tags.tags {
        let key = &tag.key.value;
        let chars = key.chars().count();
        if !(1..=MAX_KEY_CHARS).contains(&chars) {
            errors.at(
                tag.key.span,
                format!(
                    "tag key {key:?} has {chars} characters: a tag key has 1 to {MAX_KEY_CHARS}"
                ),
            );
        }
        if key.starts_with(RESERVED_PREFIX) {
            errors.at(
                tag.key.span,
                format!("tag key {key:?}: the `aws:` prefix is reserved for tags AWS assigns"),
            );
        }
        if let Some(bad) = key.chars().find(|c| !allowed(*c)) {
            errors.at(
                tag.key.span,
                format!(
                    "tag key {key:?} contains {bad:?}: tags allow letters, digits, white space and `+ - = . _ : /`"
                ),
            );
        }
        let value = &tag.value.value;
        let chars = value.chars().count();
        if chars > MAX_VALUE_CHARS {
            errors.at(
                tag.value.span,
                format!(
                    "tag value has {chars} characters: a tag value has at most {MAX_VALUE_CHARS}"
                ),
            );
        }
        if let Some(bad) = value.chars().find(|c| !allowed(*c)) {
            errors.at(
                tag.value.span,
                format!(
                    "tag value {value:?} contains {bad:?}: tags allow letters, digits, white space and `+ - = . _ : /`"
                ),
            );
        }
        if seen.insert(key.as_str(), ()).is_some() {
            errors.at(
                tag.key.span,
                format!("duplicate tag key {key:?}: a table has one value per tag key"),
            );
        }
    }
}
