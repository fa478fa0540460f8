//! Request validation shared by the operations, with DynamoDB's message texts.
//!
//! Messages follow real DynamoDB as recorded by the dynalite test-suite (whose assertions were captured
//! against the live service) and published measurements; where Amazon DynamoDB Local words a message
//! differently, the difference is noted next to the message. The order of checks follows the service:
//! parameter constraints (the smithy "N validation error(s) detected" form) first, then the checks on
//! attribute values, then the checks that need the table.

use dynomodel::{
    item_size, AttributeValue, Error, Item, Result, ReturnValue, ScalarAttributeType, MAX_ITEM_SIZE,
};

use crate::key::{KeyValue, PrimaryKey};
use crate::table::TableSchema;

/// Deepest nesting of lists and maps DynamoDB stores: a top-level attribute is level 1.
pub const MAX_NESTING_DEPTH: usize = 32;
/// Largest partition key value, in bytes.
pub const MAX_HASH_KEY_SIZE: usize = 2048;
/// Largest sort key value, in bytes.
pub const MAX_RANGE_KEY_SIZE: usize = 1024;

/// The prefix of most of DynamoDB's semantic validation messages.
pub const INVALID: &str = "One or more parameter values were invalid: ";

/// Real DynamoDB for a name outside 3–255 characters (checked before the character set).
/// DynamoDB Local instead says "Invalid table/index name.  Table/index names must be between 3 and 255
/// characters long, and may contain only the characters a-z, A-Z, 0-9, '_', '-', and '.'" for both length
/// and character errors.
pub const TABLE_NAME_LENGTH: &str =
    "TableName must be at least 3 characters long and at most 255 characters long";

/// The smithy-style pattern of table and index names.
pub const NAME_PATTERN: &str = "[a-zA-Z0-9_.-]+";

/// Collects parameter-constraint violations and reports them the way DynamoDB's request layer does:
/// "1 validation error detected: Value 'x' at 'tableName' failed to satisfy constraint: ..." and
/// "N validation errors detected: ...; ..." (at most 10 are listed).
#[derive(Debug, Default)]
pub struct Constraints {
    errors: Vec<String>,
}

impl Constraints {
    /// Records one violation. `value` is already rendered (`'x'`, or `null`).
    pub fn fail(&mut self, value: String, path: &str, constraint: &str) {
        if self.errors.len() < 10 {
            self.errors.push(format!(
                "Value {value} at '{path}' failed to satisfy constraint: {constraint}"
            ));
        }
    }

    /// Records one violation in the newer form that names the member without echoing its value:
    /// "Value at 'TransactItems' failed to satisfy constraint: ..." (`path` as DynamoDB spells it there).
    pub fn fail_unechoed(&mut self, path: &str, constraint: &str) {
        if self.errors.len() < 10 {
            self.errors.push(format!(
                "Value at '{path}' failed to satisfy constraint: {constraint}"
            ));
        }
    }

    /// Checks a table or index name's length and characters (as constraints, not the short message).
    pub fn name(&mut self, name: &str, path: &str) {
        if !is_valid_name_chars(name) {
            self.fail(
                quoted(name),
                path,
                &format!("Member must satisfy regular expression pattern: {NAME_PATTERN}"),
            );
        }
        let chars = name.chars().count();
        if chars < 3 {
            self.fail(
                quoted(name),
                path,
                "Member must have length greater than or equal to 3",
            );
        }
        if chars > 255 {
            self.fail(
                quoted(name),
                path,
                "Member must have length less than or equal to 255",
            );
        }
    }

    /// Checks `value >= min` for a number parameter.
    pub fn at_least(&mut self, value: i64, min: i64, path: &str) {
        if value < min {
            self.fail(
                quoted(&value.to_string()),
                path,
                &format!("Member must have value greater than or equal to {min}"),
            );
        }
    }

    /// The error, if anything was recorded.
    pub fn finish(self) -> Result<()> {
        match self.errors.len() {
            0 => Ok(()),
            1 => Err(Error::validation(format!(
                "1 validation error detected: {}",
                self.errors.join("; ")
            ))),
            n => Err(Error::validation(format!(
                "{n} validation errors detected: {}",
                self.errors.join("; ")
            ))),
        }
    }
}

/// `'value'` as DynamoDB quotes a value in a constraint message.
pub fn quoted(value: &str) -> String {
    format!("'{value}'")
}

fn is_valid_name_chars(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// Validates the `TableName` of any operation: the length message first, then the pattern.
pub fn table_name(name: &str) -> Result<()> {
    let chars = name.chars().count();
    if !(3..=255).contains(&chars) {
        return Err(Error::validation(TABLE_NAME_LENGTH));
    }
    let mut constraints = Constraints::default();
    constraints.name(name, "tableName");
    constraints.finish()
}

/// `ReturnValues` of PutItem and DeleteItem: NONE or ALL_OLD only. Real DynamoDB and DynamoDB Local agree.
pub fn return_values_none_or_all_old(rv: Option<ReturnValue>) -> Result<()> {
    match rv {
        None | Some(ReturnValue::None) | Some(ReturnValue::AllOld) => Ok(()),
        Some(_) => Err(Error::validation("Return values set to invalid value")),
    }
}

/// Checks every attribute value of an item (or key): sets non-empty and duplicate-free, nesting no
/// deeper than 32 levels. Runs before anything recursive touches the value, so that a hostile, deeply
/// nested value is rejected after at most 33 levels of recursion.
pub fn attribute_values(item: &Item) -> Result<()> {
    item.values()
        .try_for_each(|v| attribute_value(v, 1, MAX_NESTING_DEPTH))
}

/// How deep an `ExpressionAttributeValues` entry may nest. DynamoDB Local 3.3 accepts a value nested
/// deeper than 32 levels there and only fails a write that stores it, so the map check must not apply
/// the item limit; this bound only keeps hostile values from reaching the recursive evaluator.
pub const MAX_EXPRESSION_VALUE_DEPTH: usize = 128;

/// Checks one `ExpressionAttributeValues` entry: the set rules of [`attribute_values`], nesting up to
/// [`MAX_EXPRESSION_VALUE_DEPTH`].
pub fn expression_value(value: &AttributeValue) -> Result<()> {
    attribute_value(value, 1, MAX_EXPRESSION_VALUE_DEPTH)
}

/// Whether `value` nests at most `levels` levels deep (a scalar is one level, as in
/// [`attribute_values`]). Stops looking one level past the limit, so it is safe on any value: the guard
/// for code that must measure or print a value before [`attribute_values`] has bounded its depth.
pub fn nests_within(value: &AttributeValue, levels: usize) -> bool {
    fn walk(value: &AttributeValue, depth: usize, levels: usize) -> bool {
        if depth > levels {
            return false;
        }
        match value {
            AttributeValue::L(list) => list.iter().all(|v| walk(v, depth + 1, levels)),
            AttributeValue::M(map) => map.values().all(|v| walk(v, depth + 1, levels)),
            _ => true,
        }
    }
    walk(value, 1, levels)
}

fn attribute_value(value: &AttributeValue, depth: usize, max_depth: usize) -> Result<()> {
    if depth > max_depth {
        // DynamoDB Local 3.3 wording; real DynamoDB's is believed identical (not independently verified).
        return Err(Error::validation(
            "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels \
             beyond supported limit",
        ));
    }
    match value {
        // "An string set  may not be empty" (sic, two spaces) but "Binary sets should not be empty":
        // real DynamoDB and DynamoDB Local alike.
        AttributeValue::Ss(set) if set.is_empty() => {
            Err(empty_set("An string set  may not be empty"))
        }
        AttributeValue::Ns(set) if set.is_empty() => {
            Err(empty_set("An number set  may not be empty"))
        }
        AttributeValue::Bs(set) if set.is_empty() => {
            Err(empty_set("Binary sets should not be empty"))
        }
        AttributeValue::Ss(set) if has_duplicates(set) => {
            // Real DynamoDB (dynalite's recorded text) ends with a period; DynamoDB Local 3.3 omits it.
            Err(Error::validation(format!(
                "{INVALID}Input collection [{}] contains duplicates.",
                set.join(", ")
            )))
        }
        // NS compares numerically: ["1", "1.0"] are duplicates. Same text in real DynamoDB and Local.
        AttributeValue::Ns(set) if has_duplicates(set) => {
            Err(Error::validation("Input collection contains duplicates"))
        }
        AttributeValue::Bs(set) if has_duplicates(set) => Err(Error::validation(format!(
            // DynamoDB Local 3.3's text; dynalite renders the base64 elements before "of type BS".
            "{INVALID}Input collection of type BS contains duplicates."
        ))),
        AttributeValue::L(list) => list
            .iter()
            .try_for_each(|v| attribute_value(v, depth + 1, max_depth)),
        AttributeValue::M(map) => map
            .values()
            .try_for_each(|v| attribute_value(v, depth + 1, max_depth)),
        _ => Ok(()),
    }
}

fn empty_set(message: &str) -> Error {
    Error::validation(format!("{INVALID}{message}"))
}

fn has_duplicates<T: Ord>(set: &[T]) -> bool {
    let mut sorted: Vec<&T> = set.iter().collect();
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w.first() == w.get(1))
}

/// The item-size limit, measured by `dynomodel::item_size` (the one size function).
pub fn item_size_limit(item: &Item) -> Result<()> {
    if item_size(item) > MAX_ITEM_SIZE {
        return Err(Error::validation(
            "Item size has exceeded the maximum allowed size",
        ));
    }
    Ok(())
}

/// "The provided key element does not match the schema": real DynamoDB's answer to a `Key` whose
/// attributes are not exactly the key attributes with their declared types, and BatchWriteItem's to a
/// put whose item misses a key attribute or has one of the wrong type.
pub const KEY_MISMATCH: &str = "The provided key element does not match the schema";

/// Where a key is checked, which decides how a bad key is worded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyContext {
    /// PutItem, GetItem, DeleteItem, UpdateItem (and the keys of BatchGetItem and of an
    /// `ExclusiveStartKey`, which share their texts). A value that can never be a key (BOOL, NULL, a
    /// set, a list, a map) is "Invalid attribute value type" before any type comparison: the AWS docs
    /// give no wording, and DynamoDB Local's is the best evidence there is.
    SingleItem,
    /// A put or delete of BatchWriteItem: the single-item texts, except that a put's item missing a key
    /// attribute or holding one of the wrong type is [`KEY_MISMATCH`] instead of PutItem's "Missing the
    /// key pk in the item" / "Type mismatch for key pk expected: S actual: N" (dynalite's recordings of
    /// BatchWriteItem: an empty item, a missing and a mistyped key attribute).
    BatchWrite,
    /// An action of a transaction: a value that can never be a key is one more type mismatch, worded
    /// like any other (real DynamoDB, eu-west-2, recorded by the dynamodb-conformance suite:
    /// "... Type mismatch for key pk expected: S actual: L" for a Put item, "The provided key element
    /// does not match the schema" for a Key, "... Type mismatch for Index Key g Expected: S Actual: L
    /// IndexName: …" for an index key).
    Transaction,
}

impl KeyContext {
    /// The check that a key value is a scalar (S, N or B), in the contexts that make it a check of its
    /// own.
    pub fn scalar(self, value: &AttributeValue) -> Result<()> {
        match (self, value) {
            (KeyContext::Transaction, _)
            | (_, AttributeValue::S(_) | AttributeValue::N(_) | AttributeValue::B(_)) => Ok(()),
            _ => Err(Error::validation("Invalid attribute value type")),
        }
    }

    /// An item without the key attribute `name`.
    fn missing_key(self, name: &str) -> Error {
        match self {
            KeyContext::BatchWrite => Error::validation(KEY_MISMATCH),
            // DynamoDB Local 3.3 says "One of the required keys was not given a value".
            _ => Error::validation(format!("{INVALID}Missing the key {name} in the item")),
        }
    }

    /// An item whose key attribute `name` is not of its declared type `ty`.
    fn key_type_mismatch(
        self,
        name: &str,
        ty: ScalarAttributeType,
        value: &AttributeValue,
    ) -> Error {
        match self {
            KeyContext::BatchWrite => Error::validation(KEY_MISMATCH),
            // DynamoDB Local 3.3 stops after "Type mismatch for key".
            _ => Error::validation(format!(
                "{INVALID}Type mismatch for key {name} expected: {} actual: {}",
                ty.as_str(),
                value.type_name()
            )),
        }
    }
}

/// The primary key of a whole item (a put's): every key attribute present with its declared type,
/// non-empty and within the size limits.
pub fn item_key(item: &Item, schema: &TableSchema, context: KeyContext) -> Result<PrimaryKey> {
    let mut parts = Vec::with_capacity(2);
    for (index, (name, ty)) in schema.key_attributes().enumerate() {
        let value = item.get(name).ok_or_else(|| context.missing_key(name))?;
        context.scalar(value)?;
        let key = KeyValue::from_attribute(value, ty)
            .ok_or_else(|| context.key_type_mismatch(name, ty, value))?;
        key_value_limits(name, &key, index == 0)?;
        parts.push(key);
    }
    primary_key(parts)
}

/// The index key attributes an item carries must have their declared types, be non-empty and fit the
/// key size limits (an index key is a key). Absent attributes are fine: indexes are sparse. Checks the
/// LSIs, then the GSIs, each last to first (see [`indexes_in_check_order`]), then empty values.
pub fn index_keys(item: &Item, schema: &TableSchema, context: KeyContext) -> Result<()> {
    for (index, key_schema) in indexes_in_check_order(schema) {
        for (position, element) in key_schema.iter().enumerate() {
            let name = element.attribute_name.as_str();
            let Some(value) = item.get(name) else {
                continue;
            };
            context.scalar(value)?;
            let ty = schema.attribute_type(name);
            // DynamoDB Local 3.3 stops after "Type mismatch for Index Key".
            let key = KeyValue::from_attribute(value, ty).ok_or_else(|| {
                Error::validation(format!(
                    "{INVALID}Type mismatch for Index Key {name} Expected: {} Actual: {} IndexName: \
                     {index}",
                    ty.as_str(),
                    value.type_name()
                ))
            })?;
            if key.empty_kind().is_some() {
                // Reported below, in the order DynamoDB Local reports empty values.
                continue;
            }
            // Real DynamoDB reports index keys with the table-key size messages; DynamoDB Local 3.3
            // says "One or more parameter values were invalid: Size limit exceeded".
            key_value_limits(name, &key, position == 0)?;
        }
    }
    empty_index_key_values(item, schema)
}

/// An empty S or B in an index key attribute, naming the first index it keys in declaration order
/// (LSIs, then GSIs): the only evidence for this rule, which came in 2020 after dynalite recorded the
/// type checks' order, is DynamoDB Local 3.3.1, which names `gsi0` for an attribute keying `gsi0` and
/// `gsi1` (probed; the differential test found it).
fn empty_index_key_values(attrs: &Item, schema: &TableSchema) -> Result<()> {
    let lsis = schema
        .local_secondary_indexes
        .iter()
        .map(|i| (&i.index_name, &i.key_schema));
    let gsis = schema
        .global_secondary_indexes
        .iter()
        .map(|i| (&i.index_name, &i.key_schema));
    for (index, key_schema) in lsis.chain(gsis) {
        for element in key_schema {
            let name = element.attribute_name.as_str();
            let empty = attrs
                .get(name)
                .and_then(|v| KeyValue::from_attribute(v, schema.attribute_type(name)))
                .and_then(|k| k.empty_kind());
            if let Some(kind) = empty {
                return Err(empty_index_key(kind, index, name));
            }
        }
    }
    Ok(())
}

/// The indexes in the order their keys are checked: the LSIs, then the GSIs, each last to first.
fn indexes_in_check_order(
    schema: &TableSchema,
) -> impl Iterator<Item = (&String, &Vec<dynomodel::KeySchemaElement>)> + '_ {
    let gsis = schema
        .global_secondary_indexes
        .iter()
        .rev()
        .map(|i| (&i.index_name, &i.key_schema));
    let lsis = schema
        .local_secondary_indexes
        .iter()
        .rev()
        .map(|i| (&i.index_name, &i.key_schema));
    // Local indexes first, as DynamoDB Local reports them when an attribute keys both kinds.
    lsis.chain(gsis)
}

/// The empty S or B values among the key attributes of `attrs` (a Put's item or a Key) that have
/// their declared type, and with `indexes`, among its index key attributes: the part of the key checks
/// a transaction makes before anything else, as a request error (real DynamoDB, eu-west-2, recorded by
/// the dynamodb-conformance suite: an empty key value is a `ValidationException`, a wrong type a
/// cancellation reason). Same messages as PutItem's.
pub fn empty_key_values(attrs: &Item, schema: &TableSchema, indexes: bool) -> Result<()> {
    let empty = |name: &str| {
        attrs
            .get(name)
            .and_then(|v| KeyValue::from_attribute(v, schema.attribute_type(name)))
            .and_then(|k| k.empty_kind())
    };
    for (name, _) in schema.key_attributes() {
        if let Some(kind) = empty(name) {
            return Err(empty_key(kind, name));
        }
    }
    if indexes {
        return empty_index_key_values(attrs, schema);
    }
    Ok(())
}

/// The primary key of a `Key` (GetItem, DeleteItem, UpdateItem, …): exactly the key attributes, with
/// their types.
pub fn request_key(key: &Item, schema: &TableSchema, context: KeyContext) -> Result<PrimaryKey> {
    // DynamoDB Local 3.3 says "The number of conditions on the keys is invalid" for a wrong attribute
    // count, "One of the required keys was not given a value" for a wrong name and "One or more parameter
    // values were invalid: Type mismatch for key" for a wrong type; real DynamoDB says this for all three.
    let mismatch = || Error::validation(KEY_MISMATCH);
    if key.len() != schema.key_schema.len() {
        return Err(mismatch());
    }
    let mut parts = Vec::with_capacity(2);
    for (index, (name, ty)) in schema.key_attributes().enumerate() {
        let value = key.get(name).ok_or_else(mismatch)?;
        context.scalar(value)?;
        let key = KeyValue::from_attribute(value, ty).ok_or_else(mismatch)?;
        key_value_limits(name, &key, index == 0)?;
        parts.push(key);
    }
    primary_key(parts)
}

fn primary_key(parts: Vec<KeyValue>) -> Result<PrimaryKey> {
    let mut parts = parts.into_iter();
    let hash = parts
        .next()
        .ok_or_else(|| Error::validation(KEY_MISMATCH))?;
    Ok(PrimaryKey {
        hash,
        range: parts.next(),
    })
}

/// An empty S or B (`kind`) in the table key attribute `name`.
pub fn empty_key(kind: &str, name: &str) -> Error {
    Error::validation(format!(
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
         contain an empty {kind} value. Key: {name}"
    ))
}

/// An empty S or B (`kind`) in the key attribute `name` of secondary index `index` (DynamoDB Local
/// 3.3's text, which matches the service's 2020 wording for empty keys).
pub fn empty_index_key(kind: &str, index: &str, name: &str) -> Error {
    Error::validation(format!(
        "One or more parameter values are not valid. A value specified for a secondary index key is not \
         supported. The AttributeValue for a key attribute cannot contain an empty {kind} value. \
         IndexName: {index}, IndexKey: {name}"
    ))
}

/// Empty values and size limits of one key value. Sizes are UTF-8 bytes for strings.
fn key_value_limits(name: &str, key: &KeyValue, is_hash: bool) -> Result<()> {
    if let Some(kind) = key.empty_kind() {
        return Err(empty_key(kind, name));
    }
    let len = match key {
        KeyValue::S(s) => s.len(),
        KeyValue::B(b) => b.len(),
        KeyValue::N(_) => return Ok(()),
    };
    // Real DynamoDB's texts (sic: no space in "of2048"). DynamoDB Local 3.3 says "Hash primary key values
    // must be under 2048 bytes, and range primary key values must be under 1024 bytes" for both.
    if is_hash && len > MAX_HASH_KEY_SIZE {
        return Err(Error::validation(format!(
            "{INVALID}Size of hashkey has exceeded the maximum size limit of{MAX_HASH_KEY_SIZE} bytes"
        )));
    }
    if !is_hash && len > MAX_RANGE_KEY_SIZE {
        return Err(Error::validation(format!(
            "{INVALID}Aggregated size of all range keys has exceeded the size limit of \
             {MAX_RANGE_KEY_SIZE} bytes"
        )));
    }
    Ok(())
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
            Ok(()) => String::from("<ok>"),
        }
    }

    fn nested(levels: usize) -> AttributeValue {
        let mut v = AttributeValue::S("x".into());
        for _ in 0..levels {
            v = AttributeValue::L(vec![v]);
        }
        v
    }

    fn one(name: &str, v: AttributeValue) -> Item {
        let mut item = Item::new();
        item.insert(name.into(), v);
        item
    }

    #[test]
    fn table_names() {
        assert!(table_name("abc").is_ok());
        assert!(table_name("A-z_0.9").is_ok());
        assert!(table_name(&"a".repeat(255)).is_ok());
        assert_eq!(message(table_name("ab")), TABLE_NAME_LENGTH);
        assert_eq!(message(table_name("")), TABLE_NAME_LENGTH);
        assert_eq!(message(table_name("a;")), TABLE_NAME_LENGTH);
        assert_eq!(message(table_name(&"a".repeat(256))), TABLE_NAME_LENGTH);
        assert_eq!(
            message(table_name("ab;c")),
            "1 validation error detected: Value 'ab;c' at 'tableName' failed to satisfy constraint: \
             Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
        );
        // Three multi-byte characters are three characters.
        assert!(message(table_name("ééé")).contains("regular expression"));
    }

    #[test]
    fn constraint_counts() {
        let mut c = Constraints::default();
        c.at_least(0, 1, "provisionedThroughput.writeCapacityUnits");
        c.at_least(0, 1, "provisionedThroughput.readCapacityUnits");
        assert_eq!(
            message(c.finish()),
            "2 validation errors detected: Value '0' at 'provisionedThroughput.writeCapacityUnits' failed \
             to satisfy constraint: Member must have value greater than or equal to 1; Value '0' at \
             'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have \
             value greater than or equal to 1"
        );
    }

    #[test]
    fn return_values() {
        assert!(return_values_none_or_all_old(None).is_ok());
        assert!(return_values_none_or_all_old(Some(ReturnValue::AllOld)).is_ok());
        for rv in [
            ReturnValue::AllNew,
            ReturnValue::UpdatedOld,
            ReturnValue::UpdatedNew,
        ] {
            assert_eq!(
                message(return_values_none_or_all_old(Some(rv))),
                "Return values set to invalid value"
            );
        }
    }

    #[test]
    fn sets() {
        let empty = [
            (
                AttributeValue::Ss(vec![]),
                "An string set  may not be empty",
            ),
            (
                AttributeValue::Ns(vec![]),
                "An number set  may not be empty",
            ),
            (
                AttributeValue::Bs(vec![]),
                "Binary sets should not be empty",
            ),
        ];
        for (v, text) in empty {
            assert_eq!(
                message(attribute_values(&one("d", v))),
                format!("One or more parameter values were invalid: {text}")
            );
        }
        let ss = AttributeValue::Ss(vec!["a".into(), "b".into(), "a".into()]);
        assert_eq!(
            message(attribute_values(&one("d", ss))),
            "One or more parameter values were invalid: Input collection [a, b, a] contains duplicates."
        );
        let ns = AttributeValue::Ns(vec!["1".parse().expect("n"), "1.0".parse().expect("n")]);
        assert_eq!(
            message(attribute_values(&one("d", ns))),
            "Input collection contains duplicates"
        );
        let bs = AttributeValue::Bs(vec![vec![1], vec![1]]);
        assert!(message(attribute_values(&one("d", bs))).contains("of type BS contains duplicates"));
        // Empty strings inside sets, lists and maps are fine.
        let ok = AttributeValue::L(vec![
            AttributeValue::Ss(vec![String::new(), "b".into()]),
            AttributeValue::S(String::new()),
        ]);
        assert!(attribute_values(&one("d", ok)).is_ok());
        // Sets nested in documents are checked too.
        let nested_empty = AttributeValue::M(one("x", AttributeValue::Ns(vec![])));
        assert!(attribute_values(&one("d", nested_empty)).is_err());
    }

    #[test]
    fn nesting_depth() {
        // 31 lists around a string: the string is at level 32.
        assert!(attribute_values(&one("d", nested(31))).is_ok());
        assert!(message(attribute_values(&one("d", nested(32))))
            .starts_with("Nesting Levels have exceeded supported limits"));
        // Deep values are rejected without walking them all.
        assert!(attribute_values(&one("d", nested(10_000))).is_err());
    }

    #[test]
    fn nests_within_counts_levels_as_attribute_values_does() {
        assert!(nests_within(&AttributeValue::S("x".into()), 1));
        assert!(nests_within(&nested(31), MAX_NESTING_DEPTH));
        assert!(!nests_within(&nested(32), MAX_NESTING_DEPTH));
        // The same boundary as the item check.
        assert!(attribute_values(&one("d", nested(31))).is_ok());
        assert!(attribute_values(&one("d", nested(32))).is_err());
        // Deep values are judged without walking them all.
        assert!(!nests_within(&nested(10_000), MAX_EXPRESSION_VALUE_DEPTH));
    }

    #[test]
    fn item_size_boundary() {
        let mut item = one("pk", AttributeValue::S("a".into()));
        // "pk" + "a" = 3 bytes; "d" = 1 byte name.
        item.insert("d".into(), AttributeValue::S("x".repeat(MAX_ITEM_SIZE - 4)));
        assert_eq!(item_size(&item), MAX_ITEM_SIZE);
        assert!(item_size_limit(&item).is_ok());
        item.insert("d".into(), AttributeValue::S("x".repeat(MAX_ITEM_SIZE - 3)));
        assert_eq!(
            message(item_size_limit(&item)),
            "Item size has exceeded the maximum allowed size"
        );
    }
}
