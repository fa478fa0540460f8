//! Where the service departs from its model's constraints, per operation, with the source of each.
//!
//! A skipped member is left to the operation's decoder or to the backend, which answer with the
//! service's own words for it.

/// What is skipped at a path (and, for [`Skip::All`] and [`Skip::Constraints`], below it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Skip {
    /// No check at all at the path or below (JSON types are still checked).
    All,
    /// Only `null` is checked at the path and below; lengths, ranges, patterns and enums are not.
    Constraints,
    /// The node's own constraints are not checked (a list's or map's length, a map's keys and values
    /// as a whole); its `null` and what is below it are.
    Own,
}

/// An operation's quirks: `(path, skip)`, a path's segments matched one by one, `*` matching any one.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Quirks {
    skips: &'static [(&'static str, Skip)],
    /// A member whose absence (or emptiness) the service answers before any constraint, in its own
    /// words: when it is absent, `null`, `{}` or `""`, nothing is reported here.
    pub(super) first: Option<&'static str>,
    /// Members whose violations the service reports without their value, under another spelling of
    /// their path: `(path, as reported)`.
    unechoed: &'static [(&'static str, &'static str)],
    /// A `TableName` checked before anything else and reported alone.
    pub(super) table_name: Option<NameFirst>,
}

/// A `TableName` the service checks before any other member, and reports alone: the engine's own
/// check of it (`validate/names.rs`, which the operation runs first too, so the in-process backend
/// answers alike), and the sentence for a missing one where the service has its own.
#[derive(Debug, Clone, Copy)]
pub(super) struct NameFirst {
    /// The name's check.
    pub(super) check: fn(&str) -> dynomodel::Result<()>,
    /// The answer to a request without the member (or with `null`), if not the model's null
    /// constraint.
    pub(super) missing: Option<&'static str>,
}

/// PutItem, UpdateItem and DeleteItem: a table name or ARN (issue 26 fact 1; the conformance suite's
/// captures of PutItem's `""`, 256 × `a` and `bad table!@#`). A missing one is the model's null
/// constraint (the same suite's capture).
const ITEM_WRITE_TABLE: NameFirst = NameFirst {
    check: crate::validate::item_table_name,
    missing: None,
};

/// CreateTable: the `TableName` shape, and the service's own sentence for a missing name (issue 26
/// fact 1; the conformance suite's capture).
const NEW_TABLE: NameFirst = NameFirst {
    check: crate::validate::new_table_name,
    missing: Some("The parameter 'TableName' is required but was not present in the request"),
};

/// The operations whose `TableName` is the backend's to check: GetItem, Query, Scan, DescribeTable and
/// DeleteTable with the service's own length check ("TableName must be at least 3 characters long and
/// at most 255 characters long", recorded by dynalite, and answered for an empty name too), the item
/// writes with the model's `TableArn` bounds and the name's pattern (see [`ITEM_WRITE_TABLE`]).
const TABLE_NAME: &[(&str, Skip)] = &[("tableName", Skip::Constraints)];

/// Query's `Limit` is reported without its value and capitalised: "Value at 'Limit' failed to
/// satisfy constraint: …" (the conformance suite's capture of the service, issue 26 fact 2), where
/// Scan's is `Value '0' at 'limit'` (dynalite's recording). `query.rs` words it alike.
const QUERY_UNECHOED: &[(&str, &str)] = &[("limit", "Limit")];

/// Transactions: the backend checks the table names' lengths, the token's length and the 100-action
/// limit, in one list in the service's form (the limit with the list echoed in Java's `toString`
/// form, issue 26 fact 3: see `transact/mod.rs`).
const TRANSACT: &[(&str, Skip)] = &[
    ("transactItems", Skip::Own),
    ("transactItems.*.member.*.tableName", Skip::Constraints),
    ("clientRequestToken", Skip::Constraints),
];

/// CreateTable: the backend checks the name (first and alone, see [`NEW_TABLE`]), key schemas (with the
/// service's limit of 2 elements, which the model no longer has), key attribute names, index names
/// and capacities in one list in the service's form (`ops/create.rs`); the rest (enums, nulls, tags' and
/// other members' constraints) is checked here.
/// Tags' keys and values are the backend's, as for TagResource (see TAGS).
const CREATE_TABLE: &[(&str, Skip)] = &[
    ("tableName", Skip::Constraints),
    ("keySchema", Skip::Own),
    ("keySchema.*.member.attributeName", Skip::Constraints),
    (
        "attributeDefinitions.*.member.attributeName",
        Skip::Constraints,
    ),
    ("provisionedThroughput", Skip::Constraints),
    (
        "localSecondaryIndexes.*.member.indexName",
        Skip::Constraints,
    ),
    ("localSecondaryIndexes.*.member.keySchema", Skip::Own),
    (
        "localSecondaryIndexes.*.member.keySchema.*.member.attributeName",
        Skip::Constraints,
    ),
    (
        "globalSecondaryIndexes.*.member.indexName",
        Skip::Constraints,
    ),
    ("globalSecondaryIndexes.*.member.keySchema", Skip::Own),
    (
        "globalSecondaryIndexes.*.member.keySchema.*.member.attributeName",
        Skip::Constraints,
    ),
    (
        "globalSecondaryIndexes.*.member.provisionedThroughput",
        Skip::Constraints,
    ),
    ("tags", Skip::Constraints),
];

/// A missing or empty `RequestItems` is "The requestItems parameter is required for BatchGetItem"
/// (dynalite's early recording, and the live service's answer to an empty map in us-east-1; see
/// `batch.rs`). The map's own constraints (tables' count and names, each table's number of writes)
/// and each table's number of keys are the backend's (`batch/constraints.rs`, with the service's
/// recorded renderings and its 3–255 name check, which the model's table ARNs no longer have). What is
/// inside each table's entry is checked here.
const BATCH: &[(&str, Skip)] = &[
    ("requestItems", Skip::Own),
    ("requestItems.*.member.keys", Skip::Own),
];

/// The tag operations: a missing `ResourceArn` is "Invalid TableArn" and an empty one an
/// `AccessDeniedException` (dynalite's `test/tagResource.js`, `untagResource.js`,
/// `listTagsOfResource.js`); tag keys' and values' lengths and the number of tags are answered in the
/// service's own words, the backend's (see `tags.rs`). Missing members are still `null` constraints.
const TAGS: &[(&str, Skip)] = &[
    ("resourceArn", Skip::All),
    ("tags", Skip::Constraints),
    ("tagKeys", Skip::Constraints),
];

/// The quirks of `operation` (its name within its service).
pub(super) fn of(operation: &str) -> Quirks {
    let skips = match operation {
        "PutItem" | "GetItem" | "DeleteItem" | "UpdateItem" | "Query" | "Scan"
        | "DescribeTable" | "DeleteTable" => TABLE_NAME,
        "CreateTable" => CREATE_TABLE,
        "TransactGetItems" | "TransactWriteItems" => TRANSACT,
        "BatchGetItem" | "BatchWriteItem" => BATCH,
        "TagResource" | "UntagResource" | "ListTagsOfResource" => TAGS,
        _ => &[],
    };
    let first = match operation {
        // "The requestItems parameter is required for BatchGetItem" (see BATCH).
        "BatchGetItem" | "BatchWriteItem" => Some("RequestItems"),
        // "Invalid TableArn", even when the other required member is missing too (see TAGS).
        "TagResource" | "UntagResource" | "ListTagsOfResource" => Some("ResourceArn"),
        _ => None,
    };
    let unechoed = match operation {
        "Query" => QUERY_UNECHOED,
        _ => &[],
    };
    let table_name = match operation {
        "PutItem" | "UpdateItem" | "DeleteItem" => Some(ITEM_WRITE_TABLE),
        "CreateTable" => Some(NEW_TABLE),
        _ => None,
    };
    Quirks {
        skips,
        first,
        unechoed,
        table_name,
    }
}

impl Quirks {
    /// How the violations of the member at `path` name it when they leave its value out.
    pub(super) fn unechoed(&self, path: &str) -> Option<&'static str> {
        self.unechoed
            .iter()
            .find_map(|(at, reported)| (*at == path).then_some(*reported))
    }

    /// What is skipped at `path`: the first rule that matches it (exactly, or as a prefix for
    /// [`Skip::All`] and [`Skip::Constraints`]).
    pub(super) fn skip(&self, path: &str) -> Option<Skip> {
        self.skips.iter().find_map(|(pattern, skip)| {
            let covered = match prefix_of(pattern, path) {
                Some(exact) => exact || *skip != Skip::Own,
                None => false,
            };
            covered.then_some(*skip)
        })
    }
}

/// `Some(exact)` when `pattern`'s segments match the first segments of `path`; `exact` when they match
/// all of them.
fn prefix_of(pattern: &str, path: &str) -> Option<bool> {
    let (mut patterns, mut segments) = (Some(pattern.as_bytes()), Some(path.as_bytes()));
    while let Some(p) = next_segment(&mut patterns) {
        let s = next_segment(&mut segments)?;
        if p != b"*" && p != s {
            return None;
        }
    }
    Some(segments.is_none())
}

/// The next `.`-separated segment of `rest` (`None` once all are taken), as `str::split` yields them.
/// By a plain loop rather than `split`, whose search per segment was most of the cost of matching the
/// short paths of a request of many elements.
fn next_segment<'s>(rest: &mut Option<&'s [u8]>) -> Option<&'s [u8]> {
    let bytes = (*rest)?;
    match bytes.iter().position(|&b| b == b'.') {
        Some(dot) => {
            *rest = Some(&bytes[dot + 1..]);
            Some(&bytes[..dot])
        }
        None => {
            *rest = None;
            Some(bytes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{of, prefix_of, Skip};

    #[test]
    fn prefixes_match_as_split_segments_do() {
        assert_eq!(prefix_of("a.*.c", "a.1.c"), Some(true));
        assert_eq!(prefix_of("a.*.c", "a.1.c.d"), Some(false));
        assert_eq!(prefix_of("a.*.c", "a.1"), None);
        assert_eq!(prefix_of("a.*.c", "a.1.x"), None);
        assert_eq!(prefix_of("a", ""), None);
        assert_eq!(prefix_of("a", "a."), Some(false));
        assert_eq!(prefix_of("*", ""), Some(true));
        assert_eq!(prefix_of("ab", "a"), None);
    }

    #[test]
    fn skips_match_by_segment() {
        let transact = of("TransactWriteItems");
        assert_eq!(
            transact.skip("transactItems.2.member.put.tableName"),
            Some(Skip::Constraints)
        );
        assert_eq!(transact.skip("transactItems.2.member.put.item"), None);
        let batch = of("BatchGetItem");
        assert_eq!(batch.skip("requestItems"), Some(Skip::Own));
        assert_eq!(batch.skip("requestItems.t.member.keys"), Some(Skip::Own));
        assert_eq!(batch.skip("requestItems.t.member.keys.1.member"), None);
        assert_eq!(
            of("TagResource").skip("tags.1.member.key"),
            Some(Skip::Constraints)
        );
        assert_eq!(of("UpdateTable").skip("tableName"), None);
    }
}
