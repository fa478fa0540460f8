//! The checks of keys against a table: the primary key of an item or of a `Key`, the index keys an
//! item carries, and the empty-value and size limits every key value obeys, worded as the operation
//! that checks them words them ([`KeyContext`]).
//!
//! Sources as for the rest of [`validate`](super): real DynamoDB's texts as dynalite recorded them,
//! and where nothing better exists DynamoDB Local 3.3's, with its own wording noted beside each
//! message it words differently.

use dynomodel::backend::ScalarAttributeType;
use dynomodel::{AttributeValue, Error, Item, Result};

use super::INVALID;
use crate::storage::key::{KeyValue, PrimaryKey};
use crate::storage::schema::TableSchema;
use crate::storage::stored::AttributeLookup;

/// Largest partition key value, in bytes.
pub const MAX_HASH_KEY_SIZE: usize = 2048;
/// Largest sort key value, in bytes.
pub const MAX_RANGE_KEY_SIZE: usize = 1024;

/// "The provided key element does not match the schema": real DynamoDB's answer to a `Key` whose
/// attributes are not exactly the key attributes with their declared types, and BatchWriteItem's to a
/// put whose item misses a key attribute or has one of the wrong type.
pub(super) const KEY_MISMATCH: &str = "The provided key element does not match the schema";

/// Where a whole item's key is checked, which decides how a bad key is worded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyContext {
    /// PutItem and a transaction's Put: "Missing the key pk in the item", "Type mismatch for key pk
    /// expected: S actual: N". A value that can never be a key (BOOL, NULL, a set, a list, a map) is
    /// one more type mismatch, worded like any other (real DynamoDB's recorded answer: "... actual:
    /// NULL"; the dynamodb-conformance suite's eu-west-2 capture of a transaction: "... actual: L").
    /// DynamoDB Local 3.3 says "Invalid attribute value type".
    SingleItem,
    /// A put of BatchWriteItem: an item missing a key attribute or holding one of the wrong type is
    /// [`KEY_MISMATCH`] (dynalite's recordings of BatchWriteItem: an empty item, a missing and a
    /// mistyped key attribute).
    BatchWrite,
}

impl KeyContext {
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
pub(crate) fn item_key(
    item: &(impl AttributeLookup + ?Sized),
    schema: &TableSchema,
    context: KeyContext,
) -> Result<PrimaryKey> {
    let mut parts = Vec::with_capacity(2);
    for (index, (name, ty)) in schema.key_attributes().enumerate() {
        let value = item
            .attribute(name)
            .ok_or_else(|| context.missing_key(name))?;
        let key = KeyValue::from_cow(value, ty)
            .map_err(|value| context.key_type_mismatch(name, ty, &value))?;
        key_value_limits(name, &key, index == 0)?;
        parts.push(key);
    }
    primary_key(parts)
}

/// The index key attributes an item carries must have their declared types, be non-empty and fit the
/// key size limits (an index key is a key). Absent attributes are fine: indexes are sparse. Checks the
/// LSIs, then the GSIs, each last to first (see [`indexes_in_check_order`]), then empty values.
pub(crate) fn index_keys(
    item: &(impl AttributeLookup + ?Sized),
    schema: &TableSchema,
) -> Result<()> {
    for (index, key_schema) in indexes_in_check_order(schema) {
        for (position, element) in key_schema.iter().enumerate() {
            let name = element.attribute_name.as_str();
            let Some(value) = item.attribute(name) else {
                continue;
            };
            let ty = schema.attribute_type(name);
            // DynamoDB Local 3.3 stops after "Type mismatch for Index Key".
            let key = KeyValue::from_attribute(&value, ty).ok_or_else(|| {
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
pub(crate) fn empty_index_key_values(
    attrs: &(impl AttributeLookup + ?Sized),
    schema: &TableSchema,
) -> Result<()> {
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
            if let Some(kind) = empty_value(attrs, schema, name) {
                return Err(empty_index_key(kind, index, name));
            }
        }
    }
    Ok(())
}

/// The kind of empty value (`string`, `binary`) the key attribute `name` holds in `attrs`, if it holds
/// one of its declared type.
fn empty_value(
    attrs: &(impl AttributeLookup + ?Sized),
    schema: &TableSchema,
    name: &str,
) -> Option<&'static str> {
    attrs
        .attribute(name)
        .and_then(|v| KeyValue::from_attribute(&v, schema.attribute_type(name)))
        .and_then(|k| k.empty_kind())
}

/// The indexes in the order their keys are checked: the LSIs, then the GSIs, each last to first.
fn indexes_in_check_order(
    schema: &TableSchema,
) -> impl Iterator<Item = (&String, &Vec<dynomodel::backend::KeySchemaElement>)> + '_ {
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

/// The empty S or B values among the table key attributes of `attrs` (a Put's item or a Key) that
/// have their declared type: with [`empty_index_key_values`] for a Put, the part of the key checks a
/// transaction makes before anything else, as a request error (real DynamoDB, eu-west-2, recorded by
/// the dynamodb-conformance suite: an empty key value is a `ValidationException`, a wrong type a
/// cancellation reason). Same messages as PutItem's.
pub(crate) fn empty_key_values(attrs: &Item, schema: &TableSchema) -> Result<()> {
    for (name, _) in schema.key_attributes() {
        if let Some(kind) = empty_value(attrs, schema, name) {
            return Err(empty_key(kind, name));
        }
    }
    Ok(())
}

/// The primary key of a `Key` (GetItem, DeleteItem, UpdateItem, …): exactly the key attributes, with
/// their types.
pub(crate) fn request_key(key: &Item, schema: &TableSchema) -> Result<PrimaryKey> {
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
pub(crate) fn empty_key(kind: &str, name: &str) -> Error {
    Error::validation(format!(
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
         contain an empty {kind} value. Key: {name}"
    ))
}

/// An empty S or B (`kind`) in the key attribute `name` of secondary index `index` (DynamoDB Local
/// 3.3's text, which matches the service's 2020 wording for empty keys).
pub(crate) fn empty_index_key(kind: &str, index: &str, name: &str) -> Error {
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
    use dynomodel::backend::{AttributeDefinition, KeySchemaElement};

    const CONTEXTS: [KeyContext; 2] = [KeyContext::SingleItem, KeyContext::BatchWrite];

    /// A table keyed by `pk` (S) and `sk` (S).
    fn schema() -> TableSchema {
        let def = |name: &str| AttributeDefinition {
            attribute_name: name.into(),
            attribute_type: ScalarAttributeType::S,
        };
        TableSchema {
            name: "tbl".into(),
            attribute_definitions: vec![def("pk"), def("sk")],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: None,
            provisioned_throughput: None,
            local_secondary_indexes: vec![],
            global_secondary_indexes: vec![],
            created: chrono::DateTime::UNIX_EPOCH,
            table_id: String::new(),
            arn: String::new(),
            stream_specification: None,
            table_class: None,
            deletion_protection_enabled: false,
        }
    }

    fn item(pk: AttributeValue, sk: Option<AttributeValue>) -> Item {
        let mut item = Item::from([("pk".to_owned(), pk)]);
        if let Some(sk) = sk {
            item.insert("sk".into(), sk);
        }
        item
    }

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    fn message(r: Result<PrimaryKey>) -> String {
        match r {
            Err(e) => {
                assert_eq!(e.code(), "ValidationException");
                e.message()
            }
            Ok(_) => String::from("<ok>"),
        }
    }

    #[test]
    fn a_whole_item_key_is_worded_per_context() {
        let missing = || item(s("a"), None);
        let mistyped = || item(AttributeValue::N(1.into()), Some(s("b")));
        let list = || item(AttributeValue::L(vec![s("a")]), Some(s("b")));
        let missing_text = format!("{INVALID}Missing the key sk in the item");
        let mistyped_text = format!("{INVALID}Type mismatch for key pk expected: S actual: N");
        let list_text = format!("{INVALID}Type mismatch for key pk expected: S actual: L");
        let cases = [
            (missing(), [&*missing_text, KEY_MISMATCH]),
            (mistyped(), [&*mistyped_text, KEY_MISMATCH]),
            (list(), [&*list_text, KEY_MISMATCH]),
        ];
        for (item, texts) in cases {
            for (context, text) in CONTEXTS.into_iter().zip(texts) {
                assert_eq!(
                    message(item_key(&item, &schema(), context)),
                    text,
                    "{context:?}"
                );
            }
        }
    }

    #[test]
    fn a_request_key_is_exactly_the_key_attributes() {
        let mut extra = item(s("a"), Some(s("b")));
        extra.insert("x".into(), s("c"));
        // A value that can never be a key is one more mismatch (as the service answers).
        for key in [
            item(s("a"), None),
            item(AttributeValue::N(1.into()), Some(s("b"))),
            extra.clone(),
            item(AttributeValue::L(vec![]), Some(s("b"))),
            item(AttributeValue::Null, Some(s("b"))),
            item(AttributeValue::Bool(false), Some(s("b"))),
        ] {
            assert_eq!(message(request_key(&key, &schema())), KEY_MISMATCH);
        }
    }

    #[test]
    fn key_values_are_non_empty_and_within_their_sizes() {
        let check = |pk: &str, sk: &str| message(request_key(&item(s(pk), Some(s(sk))), &schema()));
        let hash = "é".repeat(MAX_HASH_KEY_SIZE / 2);
        let range = "r".repeat(MAX_RANGE_KEY_SIZE);
        assert_eq!(check(&hash, &range), "<ok>");
        assert_eq!(
            check(&format!("{hash}x"), "r"),
            format!("{INVALID}Size of hashkey has exceeded the maximum size limit of2048 bytes")
        );
        assert_eq!(
            check("a", &format!("{range}r")),
            format!(
                "{INVALID}Aggregated size of all range keys has exceeded the size limit of 1024 bytes"
            )
        );
        assert_eq!(
            check("a", ""),
            "One or more parameter values are not valid. The AttributeValue for a key attribute \
             cannot contain an empty string value. Key: sk"
        );
    }
}
