//! The names a request gives: the table of an item write or of a new table, and attribute names.
//!
//! A table name that breaks its member's constraints is reported alone and before anything else the
//! request holds (the service's recorded answers; the dynamodb-conformance
//! suite pins PutItem's three forms): the wire layer runs these checks before the service model's
//! walk (`protocol/model/quirks.rs`), the operations run them first, so the server and the
//! in-process backend answer alike. Where the constraints of one name break twice, the length comes
//! before the pattern, as the service listed them for `Value '' at 'tableName'` in a 2026 capture
//! (the ack-api-quirks catalogue, DDB-TABLE-457). DynamoDB Local 3.3.1 answers every such name with
//! "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, …".

use dynomodel::{Error, Result};

use super::{is_valid_name_chars, quoted, Constraints, NAME_PATTERN};

/// The longest table ARN a request may give (the service model's `TableArn`).
pub(crate) const MAX_TABLE_ARN: usize = 1024;

/// An empty attribute name anywhere in a request (an item's or a map's, `AttributesToGet`,
/// `AttributeUpdates`, `Expected`, the legacy filters and key conditions), as the service answers; DynamoDB
/// Local 3.3.1 answers these words for each of them.
const EMPTY_ATTRIBUTE_NAME: &str = "Empty attribute name";

/// The `TableName` of PutItem, UpdateItem and DeleteItem: a table name or a table ARN, the model's
/// `TableArn` (1 to 1024 characters), a plain name held besides to the `TableName` shape's maximum
/// (255) and pattern. `""` is "…Member must have length greater than or equal to 1", 256 × `a` "…less
/// than or equal to 255", `x!` the pattern. A two-character name passes, as the model's minimum is 1,
/// and names no table.
pub(crate) fn item_table_name(name: &str) -> Result<()> {
    let mut c = Constraints::default();
    let chars = name.chars().count();
    if chars == 0 {
        c.fail(
            quoted(name),
            "tableName",
            "Member must have length greater than or equal to 1",
        );
    } else if name.starts_with("arn:") {
        if chars > MAX_TABLE_ARN {
            c.fail(
                quoted(name),
                "tableName",
                "Member must have length less than or equal to 1024",
            );
        }
    } else {
        if chars > 255 {
            c.fail(
                quoted(name),
                "tableName",
                "Member must have length less than or equal to 255",
            );
        }
        pattern(&mut c, name);
    }
    c.finish()
}

/// CreateTable's `TableName`: the model's `TableName` shape, 3 to 255 characters of
/// `[a-zA-Z0-9_.-]`, in the model's own form (`ab` is "1 validation error detected: Value 'ab' at
/// 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3", the
/// conformance suite's capture), reported without any of the request's other problems, even an empty
/// `KeySchema`.
pub(crate) fn new_table_name(name: &str) -> Result<()> {
    let mut c = Constraints::default();
    let chars = name.chars().count();
    if chars < 3 {
        c.fail(
            quoted(name),
            "tableName",
            "Member must have length greater than or equal to 3",
        );
    }
    if chars > 255 {
        c.fail(
            quoted(name),
            "tableName",
            "Member must have length less than or equal to 255",
        );
    }
    pattern(&mut c, name);
    c.finish()
}

fn pattern(c: &mut Constraints, name: &str) {
    if !is_valid_name_chars(name) {
        c.fail(
            quoted(name),
            "tableName",
            &format!("Member must satisfy regular expression pattern: {NAME_PATTERN}"),
        );
    }
}

/// An attribute name as a request gives it: anything but `""` ([`EMPTY_ATTRIBUTE_NAME`]).
pub(crate) fn attribute_name(name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(Error::validation(EMPTY_ATTRIBUTE_NAME));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: Result<()>) -> String {
        r.map_or_else(|e| e.message(), |()| String::from("<ok>"))
    }

    fn one(value: &str, constraint: &str) -> String {
        format!(
            "1 validation error detected: Value '{value}' at 'tableName' failed to satisfy \
             constraint: {constraint}"
        )
    }

    const PATTERN: &str = "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+";

    #[test]
    fn item_writes_take_a_name_or_an_arn() {
        assert_eq!(
            message(item_table_name("")),
            one("", "Member must have length greater than or equal to 1")
        );
        let long = "a".repeat(256);
        assert_eq!(
            message(item_table_name(&long)),
            one(&long, "Member must have length less than or equal to 255")
        );
        assert_eq!(message(item_table_name("x!")), one("x!", PATTERN));
        assert!(item_table_name("ab").is_ok());
        assert!(item_table_name(&"a".repeat(255)).is_ok());
        // An ARN is held to the ARN's length only, whatever it names.
        let arn = format!("arn:aws:dynamodb:us-east-1:1:table/{}", "t".repeat(300));
        assert!(item_table_name(&arn).is_ok());
        let arn = format!("arn:{}", "t".repeat(1021));
        assert_eq!(
            message(item_table_name(&arn)),
            one(&arn, "Member must have length less than or equal to 1024")
        );
        // Both of a plain name's rules, the length first.
        let both = "!".repeat(256);
        assert_eq!(
            message(item_table_name(&both)),
            format!(
                "2 validation errors detected: Value '{both}' at 'tableName' failed to satisfy \
                 constraint: Member must have length less than or equal to 255; Value '{both}' at \
                 'tableName' failed to satisfy constraint: {PATTERN}"
            )
        );
    }

    #[test]
    fn new_tables_take_the_table_name_shape() {
        assert!(new_table_name("abc").is_ok());
        assert!(new_table_name(&"a".repeat(255)).is_ok());
        assert_eq!(
            message(new_table_name("ab")),
            one("ab", "Member must have length greater than or equal to 3")
        );
        assert_eq!(
            message(new_table_name(&"a".repeat(256))),
            one(
                &"a".repeat(256),
                "Member must have length less than or equal to 255"
            )
        );
        assert_eq!(message(new_table_name("abc!")), one("abc!", PATTERN));
        assert_eq!(
            message(new_table_name("")),
            "2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: \
             Member must have length greater than or equal to 3; Value '' at 'tableName' failed to \
             satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
        );
        // Characters, not bytes.
        assert!(message(new_table_name("éé")).starts_with("2 validation errors"));
    }

    #[test]
    fn attribute_names_are_not_empty() {
        assert!(attribute_name("a").is_ok());
        assert_eq!(message(attribute_name("")), EMPTY_ATTRIBUTE_NAME);
    }
}
