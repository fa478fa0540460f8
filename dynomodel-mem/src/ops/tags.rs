//! Tags: TagResource, UntagResource, ListTagsOfResource, and `Tags` on CreateTable.
//!
//! Texts and rules are real DynamoDB's, as captured on the service by the ack-api-quirks DynamoDB lab
//! (DDB-TABLE-107, -110, -372; 2026-10) and dynalite's recorded tests (`test/tagResource.js`,
//! `untagResource.js`, `listTagsOfResource.js`):
//! - every check runs before anything is written: one bad tag and the whole request changes nothing;
//! - keys are 1–128 and values 0–256 characters of letters (any script), digits, white space and
//!   `+ - = . _ : / @`; `aws:` is reserved;
//! - a resource holds at most 50 tags; an empty `Tags` list is refused by TagResource but accepted by
//!   CreateTable.
//!
//! The service applies tag changes about two seconds later (ListTagsOfResource shows the old set
//! meanwhile, DDB-TABLE-102); the engine applies them at once, which every waiting client accepts.
//! DynamoDB Local 3.3 implements none of this: it answers `UnknownOperationException` "Tagging is not
//! currently supported in DynamoDB Local.".

use std::collections::BTreeSet;

use dynomodel::backend::{
    ListTagsOfResourceInput, ListTagsOfResourceOutput, Tag, TagResourceInput, TagResourceOutput,
    UntagResourceInput, UntagResourceOutput,
};
use dynomodel::{Error, Result};

use crate::storage::state::State;
use crate::storage::table::Table;

/// Tags per resource.
pub(crate) const MAX_TAGS: usize = 50;
/// Characters in a tag key.
pub(crate) const MAX_KEY_CHARS: usize = 128;
/// Characters in a tag value.
pub(crate) const MAX_VALUE_CHARS: usize = 256;

/// The reserved prefix of AWS-assigned tag keys.
const RESERVED_PREFIX: &str = "aws:";

/// The 50-tag limit (a ValidationException, not LimitExceededException: the lab's 51-tag captures).
const TOO_MANY: &str = "Number of Tags exceed the current limit for the provided ResourceArn";

impl State {
    /// `TagResource`: adds the tags, replacing the values of keys already present.
    pub(crate) fn tag_resource(&mut self, input: TagResourceInput) -> Result<TagResourceOutput> {
        let name = self.resolve_arn(&input.resource_arn, "TagResource")?;
        if input.tags.is_empty() {
            // Checked before the table is looked up (dynalite: a missing table with `Tags: []`).
            return Err(Error::validation(
                "Atleast one Tag needs to be provided as Input.",
            ));
        }
        validate_tags(&input.tags)?;
        let table = self
            .table_mut(&name)
            .map_err(|_| resource_not_found(&input.resource_arn))?;
        let existing = table.tags();
        let added = input
            .tags
            .iter()
            .filter(|t| !existing.contains_key(&t.key))
            .count();
        if existing.len() + added > MAX_TAGS {
            return Err(Error::validation(TOO_MANY));
        }
        let tags = table.tags_mut();
        for tag in input.tags {
            tags.insert(tag.key, tag.value);
        }
        Ok(TagResourceOutput {})
    }

    /// `UntagResource`: removes the tags with these keys; unknown keys are fine.
    pub(crate) fn untag_resource(
        &mut self,
        input: &UntagResourceInput,
    ) -> Result<UntagResourceOutput> {
        let name = self.resolve_arn(&input.resource_arn, "UntagResource")?;
        if input.tag_keys.is_empty() {
            return Err(Error::validation(
                "Atleast one Tag Key needs to be provided as Input.",
            ));
        }
        if input.tag_keys.len() > MAX_TAGS {
            // The lab: UntagResource with 51 keys gets the tag-count text although it removes tags.
            return Err(Error::validation(TOO_MANY));
        }
        for key in &input.tag_keys {
            check_key(key)?;
        }
        // dynalite's recording: UntagResource's not-found message does not name the ARN.
        let table = self
            .table_mut(&name)
            .map_err(|_| Error::resource_not_found("Requested resource not found"))?;
        let tags = table.tags_mut();
        for key in &input.tag_keys {
            tags.remove(key);
        }
        Ok(UntagResourceOutput {})
    }

    /// `ListTagsOfResource`: every tag, in key order, in one page (a table holds at most 50, and no
    /// recorded answer of the service carries a `NextToken`; a token given back is ignored).
    pub(crate) fn list_tags_of_resource(
        &self,
        input: &ListTagsOfResourceInput,
    ) -> Result<ListTagsOfResourceOutput> {
        let name = self.resolve_arn(&input.resource_arn, "ListTagsOfResource")?;
        let table = self
            .table(&name)
            .map_err(|_| resource_not_found(&input.resource_arn))?;
        Ok(ListTagsOfResourceOutput {
            tags: table
                .tags()
                .iter()
                .map(|(k, v)| Tag::new(k.clone(), v.clone()))
                .collect(),
            next_token: None,
        })
    }

    /// The table a tag request's ARN names. A string that is not a table ARN (or names a table that
    /// could not exist) is "Invalid TableArn: …" (dynalite's recordings, e.g. `a:b:c:d:e:f/g` and a
    /// two-character table name). A table ARN of another account is the service's IAM refusal,
    /// [`access_denied`]: the caller is this engine's account, which holds no permission on another's
    /// resources. One of another region (an engine whose region is pinned) names no table here:
    /// ResourceNotFoundException.
    fn resolve_arn(&self, arn: &str, operation: &str) -> Result<String> {
        let Some((account, name)) = table_of_arn(arn) else {
            return Err(Error::validation(format!(
                "Invalid TableArn: Invalid ResourceArn provided as input {arn}"
            )));
        };
        let own_account = &self.config().account;
        if account != own_account {
            return Err(access_denied(own_account, operation, arn));
        }
        match self.config().table_name_of(arn) {
            Some(mine) if mine == name => Ok(name.to_owned()),
            _ => Err(resource_not_found(arn)),
        }
    }
}

/// The service's answer to a tag operation on another account's table (the policy evaluation's
/// AccessDeniedException, in the words IAM uses for every service). The caller is the account's root
/// user: the engine knows no IAM users, and its requests are its own account's.
fn access_denied(account: &str, operation: &str, arn: &str) -> Error {
    Error::Service {
        code: "AccessDeniedException".into(),
        message: format!(
            "User: arn:aws:iam::{account}:root is not authorized to perform: dynamodb:{operation} \
             on resource: {arn} because no resource-based policy allows the \
             dynamodb:{operation} action"
        ),
    }
}

/// Checks CreateTable's `Tags` as TagResource checks them; an empty list is fine (the lab).
pub(crate) fn validate_create_tags(tags: &[Tag]) -> Result<()> {
    validate_tags(tags)?;
    if tags.len() > MAX_TAGS {
        return Err(Error::validation(TOO_MANY));
    }
    Ok(())
}

/// Stores CreateTable's (validated) tags on the new table.
pub(crate) fn store_create_tags(table: &mut Table, tags: &[Tag]) {
    let stored = table.tags_mut();
    for tag in tags {
        stored.insert(tag.key.clone(), tag.value.clone());
    }
}

/// Real DynamoDB's ResourceNotFoundException for TagResource and ListTagsOfResource, "ResourcArn"
/// (sic) included (dynalite's recordings).
fn resource_not_found(arn: &str) -> Error {
    Error::resource_not_found(format!(
        "Requested resource not found: ResourcArn: {arn} not found"
    ))
}

/// The account and table name of `arn:aws:dynamodb:<region>:<account>:table/<name>`, whatever the
/// region and account, when the name is a valid table name.
fn table_of_arn(arn: &str) -> Option<(&str, &str)> {
    let (region, account, resource) = crate::storage::settings::split_arn(arn)?;
    let name = resource.strip_prefix("table/")?;
    let valid_name = (3..=255).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    (!region.is_empty() && !account.is_empty() && valid_name).then_some((account, name))
}

/// Each tag in order (key, reserved prefix, value), then duplicate keys.
fn validate_tags(tags: &[Tag]) -> Result<()> {
    for tag in tags {
        check_key(&tag.key)?;
        // The lab's capture: 'Tag Key cannot be prefixed with aws:, Key: aws:zzz'. Only the lower-case
        // form was captured; the engine refuses every case of it, as AWS's tagging rules describe
        // the prefix as reserved in any case.
        if tag
            .key
            .get(..RESERVED_PREFIX.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(RESERVED_PREFIX))
        {
            return Err(Error::validation(format!(
                "Tag Key cannot be prefixed with aws:, Key: {}",
                tag.key
            )));
        }
        if tag.value.chars().count() > MAX_VALUE_CHARS || !tag.value.chars().all(allowed) {
            return Err(Error::validation(format!(
                "The Tag Value provided is invalid, Value: {}",
                tag.value
            )));
        }
    }
    let mut seen = BTreeSet::new();
    for tag in tags {
        if !seen.insert(tag.key.as_str()) {
            return Err(Error::validation(format!(
                "Duplicate Tag Keys provided as input: Duplicate Tag Key found {}",
                tag.key
            )));
        }
    }
    Ok(())
}

/// A tag key: 1–128 allowed characters.
fn check_key(key: &str) -> Result<()> {
    let chars = key.chars().count();
    if chars == 0 || chars > MAX_KEY_CHARS || !key.chars().all(allowed) {
        return Err(Error::validation(format!(
            "The Tag Key provided is invalid, Key: {key}"
        )));
    }
    Ok(())
}

/// AWS's tag character set, `[\p{L}\p{Z}\p{N}_.:/=+\-@]`: letters of any script, separators (space,
/// no-break space, ideographic space; not tabs or newlines), digits, and `_ . : / = + - @`. The lab
/// found Cyrillic, Latin-1, CJK, NBSP and ideographic space accepted, and emoji, `%`, `,`, quotes,
/// `&`, `*`, `;`, `?`, `|`, `\`, `<>`, `~`, `#` and brackets refused.
fn allowed(c: char) -> bool {
    c.is_alphanumeric()
        || (c.is_whitespace() && !c.is_control())
        || matches!(c, '_' | '.' | ':' | '/' | '=' | '+' | '-' | '@')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: Result<()>) -> String {
        match r {
            Err(e) => {
                assert_eq!(e.code(), "ValidationException");
                e.message()
            }
            Ok(()) => "<ok>".into(),
        }
    }

    #[test]
    fn key_and_value_lengths_are_characters() {
        assert!(validate_tags(&[Tag::new("k".repeat(128), "v".repeat(256))]).is_ok());
        assert!(validate_tags(&[Tag::new("ключ".repeat(32), "表".repeat(256))]).is_ok());
        assert!(validate_tags(&[Tag::new("k", "")]).is_ok());
        assert_eq!(
            message(validate_tags(&[Tag::new("k".repeat(129), "v")])),
            format!("The Tag Key provided is invalid, Key: {}", "k".repeat(129))
        );
        assert_eq!(
            message(validate_tags(&[Tag::new("", "v")])),
            "The Tag Key provided is invalid, Key: "
        );
        assert_eq!(
            message(validate_tags(&[Tag::new("k", "v".repeat(257))])),
            format!(
                "The Tag Value provided is invalid, Value: {}",
                "v".repeat(257)
            )
        );
    }

    #[test]
    fn characters() {
        for ok in [
            "a+b-c=d.e_f:g/h@i",
            "café",
            "表",
            "a b",
            "a\u{a0}b",
            "a\u{3000}b",
            "7",
        ] {
            assert!(validate_tags(&[Tag::new(ok, ok)]).is_ok(), "{ok}");
        }
        for bad in [
            "🔑", "100%", "a,b", "it's", "\"q\"", "(x)", "a&b", "a*b", "a;b", "a?b", "a|b", "a\\b",
            "<a>", "~a", "#", "a\tb", "a\nb",
        ] {
            assert!(
                message(validate_tags(&[Tag::new(bad, "v")])).starts_with("The Tag Key"),
                "{bad}"
            );
            assert!(
                message(validate_tags(&[Tag::new("k", bad)])).starts_with("The Tag Value"),
                "{bad}"
            );
        }
    }

    #[test]
    fn reserved_prefix_and_duplicates() {
        assert_eq!(
            message(validate_tags(&[
                Tag::new("ok", "1"),
                Tag::new("aws:zzz", "v")
            ])),
            "Tag Key cannot be prefixed with aws:, Key: aws:zzz"
        );
        assert!(message(validate_tags(&[Tag::new("AWS:x", "v")])).contains("prefixed with aws:"));
        assert!(validate_tags(&[Tag::new("aws", "v"), Tag::new("my:aws:x", "v")]).is_ok());
        assert_eq!(
            message(validate_tags(&[Tag::new("dup", "1"), Tag::new("dup", "2")])),
            "Duplicate Tag Keys provided as input: Duplicate Tag Key found dup"
        );
    }

    #[test]
    fn create_table_tags() {
        assert!(validate_create_tags(&[]).is_ok());
        let fifty: Vec<Tag> = (0..50).map(|i| Tag::new(i.to_string(), "v")).collect();
        assert!(validate_create_tags(&fifty).is_ok());
        let fifty_one: Vec<Tag> = (0..51).map(|i| Tag::new(i.to_string(), "v")).collect();
        assert_eq!(message(validate_create_tags(&fifty_one)), TOO_MANY);
    }

    #[test]
    fn arns() {
        assert_eq!(
            table_of_arn("arn:aws:dynamodb:us-east-1:123456789012:table/users"),
            Some(("123456789012", "users"))
        );
        for bad in [
            "",
            "abcd",
            "a:b:c:d:e:f/g",
            "arn:aws:dynamodb:us-east-1:123456789012:table/ab",
            "arn:aws:dynamodb:us-east-1:123456789012:table/users/index/gsi",
            "arn:aws:dynamodb:us-east-1:123456789012:table/",
            "arn:aws:s3:::bucket",
            "arn:aws:dynamodb::123456789012:table/users",
        ] {
            assert_eq!(table_of_arn(bad), None, "{bad}");
        }
    }
}
